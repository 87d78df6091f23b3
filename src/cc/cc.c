/* cc.c: the table of congestion-control plug-ins and the helpers to find, describe and attach
 * them. */
#include "cc/cc.h"

#include <stdlib.h>
#include <string.h>

#include "cc/ecnrate.h"
#include "cc/ibcc.h"
#include "cc/seed003cc.h"

static const struct param none_params[] = { PARAM_END };

static int none_attach(struct fabric *f, const void *desc, struct ibn_err *e)
{
    (void)f, (void)desc, (void)e;
    return 0;
}

static const struct cc_plugin cc_none = {
    "none", "no congestion control: only link-level flow control", none_params, 0, none_attach,
};

const struct cc_plugin *const cc_plugins[] = { &cc_none, &ibcc_plugin, &ecnrate_plugin, &hostcredit_plugin, &alo_plugin,
                                           &selftuned_plugin, NULL };

const struct cc_plugin *cc_find(const char *name, struct ibn_err *e)
{
    char list[256] = "";
    for (int i = 0; cc_plugins[i]; i++) {
        if (!strcmp(cc_plugins[i]->name, name))
            return cc_plugins[i];
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, cc_plugins[i]->name, sizeof list - strlen(list) - 1);
    }
    if (e)
        ibn_err_set(e, "unknown congestion-control plug-in \"%s\" (expected one of: %s)", name, list);
    return NULL;
}

void *cc_desc_new(const struct cc_plugin *p)
{
    void *d = xcalloc(1, p->desc_size ? p->desc_size : 1);
    char why[256];
    if (params_set_defaults(p->params, d, why, sizeof why))
        ibn_panic("cc plug-in %s: bad built-in default: %s", p->name, why);
    return d;
}

void cc_desc_free(const struct cc_plugin *p, void *desc)
{
    if (!desc)
        return;
    params_free(p->params, desc);
    free(desc);
}

int cc_attach(struct fabric *f, const struct cc_plugin *p, const void *desc, struct ibn_err *e)
{
    void *own = NULL;
    if (!desc)
        desc = own = cc_desc_new(p);
    int rc = p->attach(f, desc, e);
    cc_desc_free(p, own);
    return rc;
}

/* cc.h: the registry of congestion-control plug-ins. A plug-in describes its settings as a
 * parameter table over its own plain description struct (the scenario's `cc` section fills it
 * through that table; the plug-in never sees the parser) and attaches itself to a built fabric
 * by filling f->hooks and allocating its per-port and per-flow state. New plug-in: one file and
 * one row in cc_plugins[] (cc.c). */
#ifndef IBN_CC_H
#define IBN_CC_H

#include <stddef.h>

#include "core/error.h"
#include "core/params.h"
#include "fabric/fabric.h"

struct cc_plugin {
    const char *name;
    const char *summary;
    const struct param *params;  /* the keys of the scenario's cc section (besides `plugin`) */
    size_t desc_size;            /* size of the description struct params fills */
    /* Attach to a built fabric; desc stays owned by the caller and may be freed afterwards. */
    int (*attach)(struct fabric *f, const void *desc, struct ibn_err *e);
};

extern const struct cc_plugin *const cc_plugins[];
extern const struct cc_plugin hostcredit_plugin; /* hostcredit.c */
extern const struct param hostcredit_params[];

/* The plug-in named `name`, or NULL (e then says which names exist). */
const struct cc_plugin *cc_find(const char *name, struct ibn_err *e);
/* A description at its defaults (free with cc_desc_free). */
void *cc_desc_new(const struct cc_plugin *p);
void cc_desc_free(const struct cc_plugin *p, void *desc);
/* Attach plug-in `p` with description `desc` (NULL: defaults). "none" attaches nothing. */
int cc_attach(struct fabric *f, const struct cc_plugin *p, const void *desc, struct ibn_err *e);

#endif

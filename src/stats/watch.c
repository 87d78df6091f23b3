/* watch.c: the links and flows an observer of a run watches, by name (watch.h). */
#include "stats/watch.h"

#include <stdlib.h>
#include <string.h>

static void mark_port(struct port *p, uint8_t bit)
{
    p->watch |= bit;
    p->peer->watch |= bit;
}

/* One entry: "NODE:PORT", "NODE" (every cabled port) or "*". */
static int mark(struct fabric *f, const char *spec, uint8_t bit, const char *key,
                struct ibn_err *e)
{
    if (!strcmp(spec, "*")) {
        for (int i = 0; i < f->nnodes; i++)
            for (int p = 1; p <= f->nodes[i]->nports; p++)
                if (f->nodes[i]->port[p].peer)
                    mark_port(&f->nodes[i]->port[p], bit);
        return 0;
    }
    char name[512];
    snprintf(name, sizeof name, "%s", spec);
    int port = 0;
    char *colon = strrchr(name, ':');
    if (colon && colon[1]) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (!*end && v >= 1 && v <= 254) {
            port = (int)v;
            *colon = 0;
        }
    }
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (strcmp(n->name, name) && !(n->alias && !strcmp(n->alias, name)))
            continue;
        if (port > n->nports || (port && !n->port[port].peer))
            return ibn_err_set(e, "%s: %s has no cabled port %d", key, name, port);
        for (int p = 1; p <= n->nports; p++)
            if (n->port[p].peer && (!port || p == port))
                mark_port(&n->port[p], bit);
        return 0;
    }
    return ibn_err_set(e, "%s: \"%s\" is not a node of the fabric (expected NODE:PORT or NODE, "
                       "by name or alias)", key, name);
}

int watch_links(struct fabric *f, const char *list, uint8_t bit, const char *key,
                struct ibn_err *e)
{
    int rc = 0;
    char *copy = xstrdup(list ? list : ""), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
        rc = mark(f, tok, bit, key, e);
    free(copy);
    return rc;
}

int watch_flows(const struct fabric *f, const char *list, uint8_t **on, const char *key,
                struct ibn_err *e)
{
    *on = NULL;
    if (!list || !*list)
        return 0;
    *on = xcalloc((size_t)f->nflows + 1, 1);
    int rc = 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        uint32_t i = 0;
        while (i < f->nflows && strcmp(f->flows[i].name, tok))
            i++;
        if (i == f->nflows)
            rc = ibn_err_set(e, "%s: no flow is named \"%s\"", key, tok);
        else
            (*on)[i] = 1;
    }
    free(copy);
    return rc;
}

void watch_clear(struct fabric *f, uint8_t bit)
{
    for (int i = 0; i < f->nnodes; i++)
        for (int p = 1; p <= f->nodes[i]->nports; p++)
            f->nodes[i]->port[p].watch &= (uint8_t)~bit;
}

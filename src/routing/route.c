/* route.c: the table of routing engines and selection by name. */
#include "routing/route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct route_engine minhop = {
    "minhop", "shortest paths, balanced over ports by routes already assigned (OpenSM minhop)",
    route_minhop };

static const struct route_engine spf = {
    "spf", "seed 004's shortest path first: one shortest path per destination, ties to the "
    "lowest port (tie=highest|balance); may deadlock", route_spf };
static const struct route_engine updn = {
    "updn", "up*-down* as OpenSM's updn: roots found from min-hop histograms (or roots=...), "
    "shortest legal paths balanced like minhop", route_updn };
static const struct route_engine dnup = {
    "dnup", "down*-up* as OpenSM's dnup: ranks from the leaf switches, never away from the "
    "leaves after towards them; shortest legal paths balanced like minhop", route_dnup };
static const struct route_engine updn_tree = {
    "updn_tree", "seed 004's Up/Down: spanning-tree links only, best of three roots "
    "(roots=...)", route_updn_tree };
static const struct route_engine ftree = {
    "ftree", "fat-tree routing: up to a common ancestor, then down, destinations spread "
    "D-mod-k over up ports", route_ftree };

static const struct route_engine dor = {
    "dor", "dimension-order routing as OpenSM's dor: XY(Z) in meshes (seed 003)", route_dor };

static const struct route_engine sssp = {
    "sssp", "single-source shortest paths with global balancing (OpenSM's sssp idea: link "
    "weights grow with the routes on them)", route_sssp };
static const struct route_engine dfsssp = {
    "dfsssp", "sssp made deadlock-free with virtual lanes, one VL per destination LID "
    "(max_vls, default 8)", route_dfsssp };

static const struct route_engine torus2qos = {
    "torus-2QoS", "OpenSM's torus-2QoS: dimension-order routing on 2-D/3-D tori and meshes, "
    "deadlock-free by dateline VLs (path SL bits per dimension, SL2VL per port pair), 2 QoS "
    "levels (torus_config = torus-2QoS.conf, or derived from S<x>_<y> names)", route_torus2qos };

static const struct route_engine pathbits = {
    "pathbits", "seed 004's multipath: one path bit per independent cycle, the DLID's LMC bits "
    "select the path (needs LMC = cycles <= 7; path_bits=K the first K cycles)", route_pathbits };

const struct route_engine *const route_engines[] = { &minhop, &spf, &updn, &dnup, &updn_tree, &ftree,
                                                     &dor, &sssp, &dfsssp, &torus2qos,
                                                     &pathbits, NULL };

const struct route_engine *route_engine_find(const char *name)
{
    for (int i = 0; route_engines[i]; i++)
        if (strcmp(route_engines[i]->name, name) == 0)
            return route_engines[i];
    return NULL;
}

#define CHAIN_MAX 16
#define CHAIN_SEP ", \t\n"

/* Split a chain into at most CHAIN_MAX engines; -1 and e on an unknown or missing name. */
static int chain_parse(const char *engine, const struct route_engine **r, struct ibn_err *e)
{
    char *s = xstrdup(engine ? engine : ""), *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(s, CHAIN_SEP, &save); tok; tok = strtok_r(NULL, CHAIN_SEP, &save)) {
        const struct route_engine *x = route_engine_find(tok);
        if (!x) {
            char list[256] = "";
            for (int i = 0; route_engines[i]; i++) {
                strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, route_engines[i]->name, sizeof list - strlen(list) - 1);
            }
            ibn_err_set(e, "unknown routing engine \"%s\"%s (expected one of: %s%s)", tok,
                        n || *save ? " in the chain" : "", list,
                        "; a chain is several separated by commas, tried in order");
            free(s);
            return -1;
        }
        if (n == CHAIN_MAX) {
            ibn_err_set(e, "routing engine chain \"%s\": at most %d engines", engine, CHAIN_MAX);
            free(s);
            return -1;
        }
        r[n++] = x;
    }
    free(s);
    if (!n)
        return ibn_err_set(e, "no routing engine given (expected a name such as minhop, or a "
                           "chain such as ftree,updn)");
    return n;
}

int route_chain_check(const char *engine, struct ibn_err *e)
{
    const struct route_engine *r[CHAIN_MAX];
    return chain_parse(engine, r, e) < 0 ? -1 : 0;
}

static int in_list(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

int route_compute(const struct topo *t, const char *engine, const struct route_opts *o,
                  struct lfts *out, struct ibn_err *e)
{
    const struct route_engine *r[CHAIN_MAX + 1];
    int n = chain_parse(engine, r, e);
    if (n < 0)
        return -1;
    /* An option no engine of the chain uses is refused, never silently ignored. */
    static const char *const rooted[] = { "updn", "updn_tree", "pathbits", NULL };
    static const char *const tied[] = { "spf", NULL };
    static const char *const ordered[] = { "minhop", "updn", "dnup", "dor", NULL };
    int uses_roots = 0, uses_tie = 0, uses_order = 0;
    for (int i = 0; i < n; i++) {
        uses_roots |= in_list(r[i]->name, rooted);
        uses_tie |= in_list(r[i]->name, tied);
        uses_order |= in_list(r[i]->name, ordered);
    }
    int uses_torus = 0;
    for (int i = 0; i < n; i++)
        uses_torus |= !strcmp(r[i]->name, "torus-2QoS");
    const char *what = n > 1 ? "routing engine chain" : "routing engine";
    const char *name = n > 1 ? engine : r[0]->name;
    int has_ftree = 0;
    for (int i = 0; i < n; i++)
        has_ftree |= !strcmp(r[i]->name, "ftree");
    if (o && o->roots && *o->roots && !uses_roots)
        return ibn_err_set(e, "%s %s takes no roots (\"%s\"): roots are used by "
                           "updn, updn_tree and pathbits; %s", what, name, o->roots,
                           has_ftree ? "ftree finds the levels from the topology (from the hosts up), "
                                   "so leave roots out"
                                 : "leave roots out");
    if (o && o->tie && *o->tie && !uses_tie)
        return ibn_err_set(e, "%s %s takes no tie rule (\"%s\"): only spf does", what, name,
                           o->tie);
    if (o && o->scatter_ports && !uses_order)
        return ibn_err_set(e, "%s %s takes no scatter_ports: as in OpenSM, minhop, updn, dnup and dor "
                           "do", what, name);
    if (o && o->port_shifting && !uses_order)
        return ibn_err_set(e, "%s %s takes no port_shifting: as in OpenSM, minhop, updn, dnup and dor "
                           "do", what, name);
    if (o && o->order_no_scatter && !uses_order)
        return ibn_err_set(e, "%s %s takes no guid_routing_order_no_scatter: as in OpenSM, "
                           "minhop, updn, dnup and dor do", what, name);
    if (o && o->prof_ignore && *o->prof_ignore && !uses_order)
        return ibn_err_set(e, "%s %s takes no port_prof_ignore_file (\"%s\"): as in OpenSM, "
                           "minhop, updn, dnup and dor balance with it", what, name, o->prof_ignore);
    if (o && o->guid_order && *o->guid_order && !uses_order)
        return ibn_err_set(e, "%s %s takes no guid_routing_order_file (\"%s\"): as in OpenSM, "
                           "minhop, updn, dnup and dor route destinations in its order", what, name,
                           o->guid_order);
    static const char *const classed[] = { "ftree", "sssp", "dfsssp", NULL };
    int uses_classes = 0;
    for (int i = 0; i < n; i++)
        uses_classes |= in_list(r[i]->name, classed);
    if (o && ((o->cn_guids && *o->cn_guids) || (o->io_guids && *o->io_guids)) && !uses_classes)
        return ibn_err_set(e, "%s %s takes no %s (\"%s\"): as in OpenSM, only ftree and (df)sssp "
                           "route compute and I/O nodes apart", what, name,
                           o->cn_guids && *o->cn_guids ? "cn_guid_file" : "io_guid_file",
                           o->cn_guids && *o->cn_guids ? o->cn_guids : o->io_guids);
    if (o && o->torus_conf && *o->torus_conf && !uses_torus)
        return ibn_err_set(e, "%s %s takes no torus_config (\"%s\"): only torus-2QoS does", what,
                           name, o->torus_conf);
    struct route_opts def = { 0 };
    /* OpenSM's fallback: minhop when no engine of the chain could route. Not after torus-2QoS
     * (OpenSM's man page asks for no_fallback there: minhop on a torus can deadlock and the
     * SLs granted under torus-2QoS would be wrong), so that a torus it cannot route is refused. */
    int tried = n;
    if (strcmp(r[n - 1]->name, "minhop") && strcmp(r[n - 1]->name, "torus-2QoS"))
        r[n++] = route_engine_find("minhop");
    char why[sizeof out->note] = "";
    for (int i = 0; i < n; i++) {
        lfts_init(out, t);
        int rc = r[i]->compute(t, o ? o : &def, out, e);
        if (rc == 0) {
            snprintf(out->engine, sizeof out->engine, "%s", r[i]->name);
            if (*why) {
                char own[sizeof out->note];
                snprintf(own, sizeof own, "%s", out->note);
                snprintf(out->note, sizeof out->note, "%s; fell back to %s%s%s", why,
                         r[i]->name, i >= tried ? ", as OpenSM does" : "",
                         *own ? "; " : "");
                size_t k = strlen(out->note);
                snprintf(out->note + k, sizeof out->note - k, "%s", own);
            }
            return 0;
        }
        lfts_free(out);
        if (rc != ROUTE_UNFIT)
            return -1;
        if (i == n - 1 && n == tried) { /* nothing to fall back to (torus-2QoS last) */
            if (*why)
                ibn_err_prefix(e, "no routing engine could route the fabric: %s; ", why);
            return -1;
        }
        size_t k = strlen(why);
        snprintf(why + k, sizeof why - k, "%s%.180s", k ? "; " : "", e ? e->msg : r[i]->name);
        if (e)
            e->msg[0] = 0;
    }
    return ibn_err_set(e, "no routing engine could route the fabric: %s", why);
}

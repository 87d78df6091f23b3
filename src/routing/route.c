/* route.c: the table of routing engines and selection by name. */
#include "routing/route.h"

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

static const struct route_engine pathbits = {
    "pathbits", "seed 004's multipath: one path bit per independent cycle, the DLID's LMC bits "
    "select the path (needs LMC = cycles <= 7; path_bits=K the first K cycles)", route_pathbits };

const struct route_engine *const route_engines[] = { &minhop, &spf, &updn, &updn_tree, &ftree,
                                                     &dor, &sssp, &dfsssp, &pathbits, NULL };

const struct route_engine *route_engine_find(const char *name)
{
    for (int i = 0; route_engines[i]; i++)
        if (strcmp(route_engines[i]->name, name) == 0)
            return route_engines[i];
    return NULL;
}

int route_compute(const struct topo *t, const char *engine, const struct route_opts *o,
                  struct lfts *out, struct ibn_err *e)
{
    const struct route_engine *r = route_engine_find(engine);
    if (!r) {
        char list[256] = "";
        for (int i = 0; route_engines[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, route_engines[i]->name, sizeof list - strlen(list) - 1);
        }
        return ibn_err_set(e, "unknown routing engine \"%s\" (expected one of: %s)", engine, list);
    }
    /* An option the engine does not use is refused, never silently ignored. */
    static const char *const rooted[] = { "updn", "updn_tree", "pathbits", NULL };
    int uses_roots = 0;
    for (int i = 0; rooted[i]; i++)
        uses_roots |= !strcmp(r->name, rooted[i]);
    if (o && o->roots && *o->roots && !uses_roots)
        return ibn_err_set(e, "routing engine %s takes no roots (\"%s\"): roots are used by "
                           "updn, updn_tree and pathbits; %s", r->name, o->roots,
                           !strcmp(r->name, "ftree")
                               ? "ftree finds the levels from the topology (from the hosts up), "
                                 "so leave roots out"
                               : "leave roots out");
    if (o && o->tie && *o->tie && strcmp(r->name, "spf"))
        return ibn_err_set(e, "routing engine %s takes no tie rule (\"%s\"): only spf does",
                           r->name, o->tie);
    struct route_opts def = { 0 };
    lfts_init(out, t);
    out->note[0] = 0;
    if (r->compute(t, o ? o : &def, out, e)) {
        lfts_free(out);
        return -1;
    }
    return 0;
}

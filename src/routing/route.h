/* route.h: routing engines. Each engine reads a topology and fills linear forwarding tables;
 * the data path only looks the tables up. Engines are selected by name. */
#ifndef IBN_ROUTE_H
#define IBN_ROUTE_H

#include <stdint.h>

#include "core/error.h"
#include "routing/lft.h"
#include "topology/topo.h"

struct route_opts {
    uint64_t seed;     /* for engines that break ties or choose roots at random */
    const char *roots; /* updn/updn_tree: NULL = OpenSM's automatic choice (updn) or best of
                        * three (updn_tree); "best3"; or node names / 0xGUIDs separated by ',' */
    const char *tie;   /* spf: "lowest" (default), "highest" or "balance" */
    int max_vls;       /* dfsssp: VLs it may use (0 = 8) */
    int path_bits;     /* pathbits: 0 = one per cycle; K keeps the first K cycles (LMC-limited) */
    int path_slack;    /* pathbits: paths up to shortest + slack hops (0 = 4, < 0 = all) */
    int max_path_bits; /* pathbits: the most path bits (0 = IBA's LMC, PB_LMC_MAX; up to
                        * PB_SIM_MAX beyond IBA) */
    const char *guid_order; /* minhop, updn, dor: OpenSM's guid_routing_order_file (NULL none) */
    int port_shifting;      /* minhop, updn, dor: OpenSM's port_shifting */
    uint32_t scatter_ports; /* minhop, updn, dor: OpenSM's scatter_ports seed (0 = off) */
    int order_no_scatter;   /* minhop, updn, dor: OpenSM's guid_routing_order_no_scatter */
    const char *prof_ignore;/* minhop, updn, dor: OpenSM's port_prof_ignore_file (NULL none) */
    const char *cn_guids;   /* ftree, sssp, dfsssp: OpenSM's cn_guid_file (-u; NULL none) */
    const char *io_guids;   /* ftree, sssp, dfsssp: OpenSM's io_guid_file (-G; NULL none) */
    const char *torus_conf; /* torus-2QoS: OpenSM's torus-2QoS.conf (NULL: derived from the
                             * S<x>_<y>[_<z>] switch names of ibnetsim's generators) */
};

/* An engine's return: 0 routed, -1 an error in the input or options (e says it), ROUTE_UNFIT
 * the engine cannot route this fabric (e says why): route_compute passes to the next engine. */
#define ROUTE_UNFIT 1

typedef int (*route_engine_fn)(const struct topo *t, const struct route_opts *o, struct lfts *out,
                               struct ibn_err *e);

struct route_engine {
    const char *name;
    const char *summary;
    route_engine_fn compute;
};

/* The engines, NULL-terminated. */
extern const struct route_engine *const route_engines[];

const struct route_engine *route_engine_find(const char *name);
/* 0 when every name of a chain is an engine, else -1 and e names the first unknown one. */
int route_chain_check(const char *engine, struct ibn_err *e);
/* Initialise `out` for t and compute routes with `engine`: one name or, as OpenSM's
 * routing_engine, a chain of names separated by commas (or blanks) tried in order, an engine
 * that cannot route the fabric (ROUTE_UNFIT) passing to the next one and minhop (OpenSM's
 * default engine) routing when none of the chain could. out->engine gets the engine that
 * routed and out->note why earlier ones did not. Unknown names and options no engine of the
 * chain uses are errors. On failure `out` is freed (and zeroed) and e says why. */
int route_compute(const struct topo *t, const char *engine, const struct route_opts *o,
                  struct lfts *out, struct ibn_err *e);

/* Engines (one file each). */
int route_minhop(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_spf(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_updn(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_dnup(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_updn_tree(const struct topo *t, const struct route_opts *o, struct lfts *out,
                    struct ibn_err *e);
int route_ftree(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_dor(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_sssp(const struct topo *t, const struct route_opts *o, struct lfts *out, struct ibn_err *e);
int route_pathbits(const struct topo *t, const struct route_opts *o, struct lfts *out,
                   struct ibn_err *e);
int route_dfsssp(const struct topo *t, const struct route_opts *o, struct lfts *out,
                 struct ibn_err *e);
int route_torus2qos(const struct topo *t, const struct route_opts *o, struct lfts *out,
                    struct ibn_err *e);

#endif

/* route_check.h: what a set of forwarding tables does, measured over every CA-to-CA route:
 * validity (lfts_validate in lft.h), hop counts, routes per switch output port, and deadlock
 * freedom: the channel dependency graph (a channel is a switch output port; a route through
 * channels a then b makes b depend on a) must be acyclic on each virtual lane. */
#ifndef IBN_ROUTE_CHECK_H
#define IBN_ROUTE_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "routing/lft.h"
#include "topology/topo.h"

struct route_stats {
    long routes;         /* CA port to CA LID routes followed */
    int max_hops;        /* switches on the longest route */
    double avg_hops;     /* switches traversed, averaged over routes */
    long max_port_routes;/* the most routes through any switch output port */
    int max_port_node, max_port;
    long max_isl_routes; /* the most routes on a switch port cabled to another switch */
    int max_isl_node, max_isl_port;
    long hop_hist[64];   /* routes by the number of switches they traverse (last bin: more) */
    long *port_routes;   /* routes leaving each (node, port): index port_off[node] + port */
    int *port_off;       /* node -> first index; caller frees */
};

/* Follow every route (every CA port to every other CA port's LIDs) with the tables. Routes that
 * fail (no entry, a loop, wrong end) make it return -1 with the first failure. */
int route_stats_compute(const struct topo *t, const struct lfts *l, struct route_stats *s,
                        struct ibn_err *e);
void route_stats_free(struct route_stats *s);

/* Deadlock check. vl_of_dlid (NULL: every route on VL 0) gives the VL a destination LID's
 * packets use. Returns 1 and describes one cycle in `cycle` ("S1 port 2 -> S2 port 3 -> ... ->
 * S1 port 2 on VL 0") if the dependency graph of some VL has a cycle, 0 if none. */
int route_deadlock_check(const struct topo *t, const struct lfts *l, const uint8_t *vl_of_dlid,
                         char *cycle, size_t len);

/* The same check for tables with per-hop VLs (l->vlmap, torus-2QoS): every CA-port-to-CA-LID
 * route is followed with its path SL at QoS level qos (0 or 1), each hop on the VL the switch's
 * SL2VL table gives for its (input port, output port); a channel is (switch output port, VL).
 * Returns 1 with the cycle ("S0_0 port 3 VL 0 -> ... -> S0_0 port 3 VL 0"), 0 if none;
 * *nvl_used (if non-NULL) gets the number of distinct VLs the routes use. */
int route_deadlock_check_vlmap(const struct topo *t, const struct lfts *l, int qos, char *cycle,
                               size_t len, int *nvl_used);

/* Building blocks of the check, for engines that assign VLs (dfsssp). A dependency is a pair
 * of channels, each indexed off[node] + port (off: prefix sums of nports + 1 per node). */
struct dep {
    int from, to;
};
/* Append the dependencies the routes to `lid` (owned by dst_node's dst_port) create; used is
 * scratch of t->nnodes bytes; *dep grows as needed. */
void route_lid_deps(const struct topo *t, const struct lfts *l, int lid, int dst_node,
                    int dst_port, const int *off, char *used, struct dep **dep, size_t *nd,
                    size_t *cap);
/* Order for qsort: by from, then to. */
int route_cmp_dep(const void *a, const void *b);
/* 1 with the cycle's channels in cyc (cyclen of them) if the graph of nch channels has one. The
 * deps must be sorted by from (route_cmp_dep). */
int route_find_cycle(int nch, const struct dep *dep, size_t nd, int *cyc, int *cyclen);

#endif

/* lft_build.h: filling linear forwarding tables from a hop table the way OpenSM's unicast
 * manager does (osm_ucast_mgr.c, osm_switch_recommend_path):
 *  - destinations in OpenSM's order: switches sorted by how many CAs hang off them (most
 *    first, equal counts in OpenSM's GUID order: topo_guid_cmp_osm), each switch's CA ports
 *    in port order; then
 *    every other port (switch port 0s, CAs not on a switch) in that GUID order; for LMC > 0 the
 *    whole list once per LID offset;
 *  - on each switch, a LID of a CA on it goes out of that port, the switch's own LID to port 0;
 *    otherwise among the ports with the least hops to the destination's switch the one that
 *    already carries the fewest CA routes, scanning from port 1 (for LID offset i > 0 from the
 *    port after the one chosen for offset i - 1); with LMC > 0, a port whose peer system, then
 *    peer node, no LID of this destination uses yet is preferred;
 *  - only routes to CA LIDs are counted per port (port_profile_switch_nodes off).
 * A tie policy other than OpenSM's balancing serves seed 004's SPF. */
#ifndef IBN_LFT_BUILD_H
#define IBN_LFT_BUILD_H

#include <stddef.h>

#include "routing/hoptab.h"
#include "routing/lft.h"
#include "routing/route.h"
#include "topology/topo.h"

/* BALANCE: OpenSM minhop/updn. DOR: OpenSM's dor engine: among the least-hop ports only
 * those to the same neighbour as the first one found (the lowest dimension), balanced.
 * LOWEST/HIGHEST: a fixed port (seed 004's SPF). */
enum lft_tie { LFT_TIE_BALANCE, LFT_TIE_LOWEST, LFT_TIE_HIGHEST, LFT_TIE_DOR };

struct lft_dest {
    int node, port;   /* topo node and port (0 for a switch) */
    int lid, lmc;
    int T;            /* switch index of the destination's switch, -1 if none */
};

/* OpenSM's destination order; returns the count, *out to free. */
int lft_dest_order(const struct topo *t, const struct hoptab *h, struct lft_dest **out);

/* The hop table updn routes from (updn.c), for comparison with OpenSM's lid matrix; h is
 * initialised here (free with hoptab_free); note gets what route_updn would say. Returns
 * ROUTE_UNFIT when no root is found (h is then the min-hop table OpenSM falls back to). */
int updn_hoptab(const struct topo *t, const struct route_opts *o, struct hoptab *h, char *note,
                size_t notelen, struct ibn_err *e);

/* Fill l (already lfts_init'ed) from h. */
void lft_build(const struct topo *t, const struct hoptab *h, enum lft_tie tie, struct lfts *l);

#endif

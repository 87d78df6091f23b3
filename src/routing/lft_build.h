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
 * With OpenSM's guid_routing_order_file the ports it names come first, in its order, then the
 * rest as above. A tie policy other than OpenSM's balancing serves seed 004's SPF. */
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
    char ordered;     /* named by the guid_routing_order_file */
};

/* OpenSM's guid_routing_order_file (-X) read against a topology: the ports it names, in the
 * file's order, that OpenSM's unicast manager routes first (osm_ucast_mgr.c). */
struct lft_order {
    int n;
    int *node, *port; /* port 0 for a switch */
    int no_scatter;   /* OpenSM's guid_routing_order_no_scatter: these ports never scatter */
};

/* Read path (NULL or "": an empty order) as OpenSM's parse_node_map does: a line's first word
 * is a port GUID (strtoull base 0: 0x hex, or decimal), the rest of the line is ignored, blank
 * lines and lines starting with '#' are skipped. A GUID no port of t has and a repeated GUID are
 * skipped as OpenSM skips them; note (may be NULL) then says how many and the first. A
 * malformed line or an unreadable file is an error naming file:line. */
int lft_order_read(const struct topo *t, const char *path, struct lft_order *o, char *note,
                   size_t notelen, struct ibn_err *e);
void lft_order_free(struct lft_order *o);

/* OpenSM's cn_guid_file (-u) and io_guid_file (-G), read as lft_order_read reads (file:line
 * errors; unknown and repeated GUIDs skipped, as OpenSM skips them, note says how many; a
 * switch GUID names no end port). *cls (NULL when neither path is given; free it): per (node,
 * port) at node * 256 + port, LFT_IN_CN / LFT_IN_IO when the file lists that CA port; byte
 * nnodes * 256 holds which files were given. */
enum { LFT_IN_CN = 1, LFT_IN_IO = 2 };
int lft_node_classes(const struct topo *t, const char *cn_path, const char *io_path,
                     uint8_t **cls, char *note, size_t notelen, struct ibn_err *e);
/* OpenSM's ftree rule: with no files every CA port is a compute node; with a cn_guid_file only
 * those it lists; a port an io_guid_file lists (and the cn_guid_file does not) is none. */
int lft_is_cn(const struct topo *t, const uint8_t *cls, int node, int port);
/* OpenSM's (df)sssp rule: the ports a cn_guid_file lists first, then those an io_guid_file
 * lists, each switch by switch in the destination order's switch order (most CAs first); the
 * rest follow in lft_dest_order. An empty order when cls is NULL; free with lft_order_free. */
void lft_class_order(const struct topo *t, const struct hoptab *h, const uint8_t *cls,
                     struct lft_order *o);

/* OpenSM's destination order; returns the count, *out to free. ord (may be NULL) puts its
 * ports first, in its order, as OpenSM's guid_routing_order_file does. */
int lft_dest_order(const struct topo *t, const struct hoptab *h, const struct lft_order *ord,
                   struct lft_dest **out);

/* The hop table updn routes from (updn.c), for comparison with OpenSM's lid matrix; h is
 * initialised here (free with hoptab_free); note gets what route_updn would say. Returns
 * ROUTE_UNFIT when no root is found (h is then the min-hop table OpenSM falls back to). */
int updn_hoptab(const struct topo *t, const struct route_opts *o, struct hoptab *h, char *note,
                size_t notelen, struct ibn_err *e);

/* The same for dnup: ROUTE_UNFIT (h then unusable) when no switch has a CA. */
int dnup_hoptab(const struct topo *t, struct hoptab *h, char *note, size_t notelen);

/* Fill l (already lfts_init'ed) from h; ord (may be NULL) as in lft_dest_order. shift: OpenSM's
 * port_shifting (balance and dor ties): the least-hop candidates of an entry, in scan order,
 * are examined from index (their routes so far / their number) mod their number, so that the
 * first least-loaded port differs between switches; with LMC > 0 the other-system and
 * other-node preferences are taken over that rotated order, as OpenSM does. scatter (0 off):
 * OpenSM's scatter_ports seed: switches in OpenSM's map order, and for each base-LID entry a
 * port drawn (glibc random() after srandom(scatter), osm_random.h) among the least-loaded
 * least-hop candidates, overriding the rest of the choice (not for the ports of ord when
 * ord->no_scatter). ignore (NULL none): lft_ignore_read's mask; routes through those ports are
 * not counted. */
void lft_build(const struct topo *t, const struct hoptab *h, enum lft_tie tie,
               const struct lft_order *ord, int shift, uint32_t scatter, const uint8_t *ignore,
               struct lfts *l);

/* OpenSM's port_prof_ignore_file (`opensm -i`): lines "SWITCH-GUID PORT" (strtoull base 0, #
 * comments, blank lines skipped); routes through those switch ports are not counted when
 * balancing. *mask (NULL when path is NULL or "") gets one byte per (node, port) at
 * node * 256 + port (free it). A switch GUID no switch has, or a port the switch has not, is
 * skipped as OpenSM skips it (note says how many); a malformed line is an error naming
 * file:line. */
int lft_ignore_read(const struct topo *t, const char *path, uint8_t **mask, char *note,
                    size_t notelen, struct ibn_err *e);

/* lft_build for the engines that take OpenSM's guid_routing_order_file (o->guid_order) and
 * port_shifting (o->port_shifting):
 * reads it, builds, and appends what lft_order_read notes to l->note; -1 and e on a bad file. */
int lft_build_opts(const struct topo *t, const struct hoptab *h, enum lft_tie tie,
                   const struct route_opts *o, struct lfts *l, struct ibn_err *e);

#endif

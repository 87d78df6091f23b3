/* lft.h: linear forwarding tables, the routing result the data path looks up: for each switch,
 * the output port for every destination LID. CA nodes have no table. */
#ifndef IBN_LFT_H
#define IBN_LFT_H

#include <stdint.h>

#include "core/error.h"
#include "topology/topo.h"

#define LFT_NONE 255

/* Per-hop virtual lanes of an engine that programs SL-to-VL tables (torus-2QoS): the SL of a
 * path (chosen by the source switch and the destination switch, as an SA path record query
 * gives it) and every switch's SL2VL table per (input port, output port). */
struct lft_vlmap {
    int nvl;           /* data VLs used: 0..nvl-1 */
    int nnodes;        /* the topology's nodes */
    int nsw;           /* switches; swidx[node] is a switch's index, -1 for CAs */
    int *swidx;
    uint8_t *path_sl;  /* [src switch * nsw + dst switch]: the SL of a path at QoS level 0
                        * (the level is SL bit 3, which the engine keeps) */
    uint8_t **sw;      /* [node]: (nports+1)^2 x 16 entries, index ((in * (nports+1)) + out) * 16
                        * + SL; NULL for CAs */
    uint8_t ca[16];    /* SL -> VL on CA ports */
};

struct lfts {
    int nnodes;
    int max_lid;
    uint8_t **table; /* table[node][lid], NULL for CA nodes; LFT_NONE where no route */
    char engine[32]; /* the engine that routed (of a chain, the one that could); "" = a dump */
    char note[256];  /* what the engine did that a user should know (fallbacks, roots) */
    uint8_t *dlid_vl;/* engines that assign virtual lanes (dfsssp): the VL (through the SL) of
                      * packets to each destination LID; NULL = every LID on VL 0 */
    int nvl;         /* VLs used when dlid_vl is set */
    uint16_t *pb_local; /* pathbits: [node] the LMC bits (cycles) a switch's entries depend on;
                         * NULL = any bit may matter */
    struct lft_vlmap *vlmap; /* torus-2QoS: path SLs and SL2VL tables; NULL = none */
};

/* Tables for every switch of t, sized to t's largest LID, all entries LFT_NONE. */
void lfts_init(struct lfts *l, const struct topo *t);
void lfts_free(struct lfts *l);
void lft_vlmap_free(struct lft_vlmap *m);

/* The VL a packet of a path with SL sl takes leaving switch `node` by port out, having entered by
 * port in (vlmap set). */
static inline int lft_vlmap_vl(const struct lft_vlmap *m, const struct topo *t, int node, int in,
                               int out, int sl)
{
    int np = t->node[node].nports + 1;
    return m->sw[node][((size_t)in * (size_t)np + (size_t)out) * 16 + (size_t)sl];
}
/* The SL of a path from CA or switch node src to node dst at QoS level qos (0 or 1), -1 when
 * either has no switch in the map. */
int lft_vlmap_path_sl(const struct lft_vlmap *m, const struct topo *t, int src, int dst, int qos);

static inline int lft_port(const struct lfts *l, int node, int lid)
{
    return (lid >= 0 && lid <= l->max_lid && l->table[node]) ? l->table[node][lid] : LFT_NONE;
}

/* Follow the tables from every CA port to every CA LID: each route must reach the port that
 * owns the LID without a loop and without a missing entry. The error names the first failing
 * pair and the path taken. If hops is non-NULL, *hops gets the longest switch-hop count. */
int lfts_validate(const struct topo *t, const struct lfts *l, int *max_hops, struct ibn_err *e);

#endif

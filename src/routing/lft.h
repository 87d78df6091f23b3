/* lft.h: linear forwarding tables, the routing result the data path looks up: for each switch,
 * the output port for every destination LID. CA nodes have no table. */
#ifndef IBN_LFT_H
#define IBN_LFT_H

#include <stdint.h>

#include "core/error.h"
#include "topology/topo.h"

#define LFT_NONE 255

struct lfts {
    int nnodes;
    int max_lid;
    uint8_t **table; /* table[node][lid], NULL for CA nodes; LFT_NONE where no route */
    char engine[32]; /* the engine that routed (of a chain, the one that could); "" = a dump */
    char note[256];  /* what the engine did that a user should know (fallbacks, roots) */
    uint8_t *dlid_vl;/* engines that assign virtual lanes (dfsssp): the VL (through the SL) of
                      * packets to each destination LID; NULL = every LID on VL 0 */
    int nvl;         /* VLs used when dlid_vl is set */
    uint8_t *pb_local; /* pathbits: [node] the LMC bits (cycles) a switch's entries depend on;
                        * NULL = any bit may matter */
};

/* Tables for every switch of t, sized to t's largest LID, all entries LFT_NONE. */
void lfts_init(struct lfts *l, const struct topo *t);
void lfts_free(struct lfts *l);

static inline int lft_port(const struct lfts *l, int node, int lid)
{
    return (lid >= 0 && lid <= l->max_lid && l->table[node]) ? l->table[node][lid] : LFT_NONE;
}

/* Follow the tables from every CA port to every CA LID: each route must reach the port that
 * owns the LID without a loop and without a missing entry. The error names the first failing
 * pair and the path taken. If hops is non-NULL, *hops gets the longest switch-hop count. */
int lfts_validate(const struct topo *t, const struct lfts *l, int *max_hops, struct ibn_err *e);

#endif

/* mft.h: multicast forwarding tables: for each switch and each multicast LID (MLID,
 * 0xC000-0xFFFE) the set of output ports (a port mask, port 0 included as IBA allows) a packet
 * to that MLID is copied to. A switch never sends a copy back out of the port it arrived on
 * (IBA's rule), so a tree's mask may hold its parent port. Source-based trees for static groups
 * (seed 004 section 3.6): from one source adapter port to a set of member ports, grown from the
 * unicast routes, and a check that the tables deliver exactly one copy to every member. */
#ifndef IBN_MFT_H
#define IBN_MFT_H

#include <stdint.h>

#include "core/error.h"
#include "routing/hoptab.h"
#include "routing/lft.h"
#include "topology/topo.h"

#define MLID_FIRST 0xC000
#define MLID_LAST 0xFFFE  /* 0xFFFF is the permissive LID */
#define MLID_COUNT (MLID_LAST - MLID_FIRST + 1)

static inline int lid_is_mcast(int lid)
{
    return lid >= MLID_FIRST && lid <= MLID_LAST;
}

struct mfts {
    int nnodes;
    int nmlid;        /* MLIDs MLID_FIRST .. MLID_FIRST + nmlid - 1 have entries */
    int words;        /* 64-bit words of a port mask (ports 0..maximum port count) */
    uint64_t **mask;  /* mask[node][(mlid - MLID_FIRST) * words + w]; NULL for CA nodes */
};

/* Empty tables for every switch of t covering MLIDs up to `max_mlid` (>= MLID_FIRST). */
void mfts_init(struct mfts *m, const struct topo *t, int max_mlid);
void mfts_free(struct mfts *m);
/* Grow the tables to cover max_mlid (entries kept). */
void mfts_grow(struct mfts *m, const struct topo *t, int max_mlid);

static inline uint64_t *mft_mask(const struct mfts *m, int node, int mlid)
{
    if (!m->mask[node] || mlid < MLID_FIRST || mlid >= MLID_FIRST + m->nmlid)
        return NULL;
    return &m->mask[node][(size_t)(mlid - MLID_FIRST) * (size_t)m->words];
}
static inline int mft_has(const struct mfts *m, int node, int mlid, int port)
{
    const uint64_t *w = mft_mask(m, node, mlid);
    return w && (w[port >> 6] >> (port & 63) & 1);
}
void mft_set(struct mfts *m, int node, int mlid, int port);

/* A CA port: (node, port). */
struct ca_port {
    int node, port;
};

/* Install into m the source-based tree of `mlid` from CA port src to the member ports (the
 * source itself is skipped if listed). The tree is grown member by member, in the order given:
 * a member's unicast route from the source (through l) is followed; the part after the last
 * switch already in the tree is added, so every switch has one parent and the tree is the union
 * of routes or of their suffixes. Returns 0, or -1 with e naming the member without a route. */
int mft_source_tree(struct mfts *m, const struct topo *t, const struct lfts *l, int mlid,
                    struct ca_port src, const struct ca_port *members, int nmembers,
                    struct ibn_err *e);

/* Install into m OpenSM's spanning tree of `mlid` for the member ports (mft_osm.c): one tree
 * shared by every sender, rooted at the switch with the least max hops to the members' switches
 * (the first in OpenSM's GUID order on ties), built over the hop counts h (the routing engine's,
 * as OpenSM keeps them). Fewer than two distinct member ports: no entries, as OpenSM. Returns 0,
 * or -1 with e naming the member that cannot be reached. */
int mft_opensm_tree(struct mfts *m, const struct topo *t, const struct hoptab *h, int mlid,
                    const struct ca_port *members, int nmembers, struct ibn_err *e);

/* Forward a packet to `mlid` from src through the tables as switches do (every port of the
 * mask but the arrival port) and check that each member port receives exactly one copy and no
 * other CA port any. *copies (may be NULL) gets the number of link transmissions after the
 * source's, *max_hops the most switch hops to a member. Returns 0, or -1 with e saying which
 * member was missed or reached twice, or which port got a copy it should not. */
int mft_check(const struct mfts *m, const struct topo *t, int mlid, struct ca_port src,
              const struct ca_port *members, int nmembers, int *copies, int *max_hops,
              struct ibn_err *e);

#endif

/* mft_osm.c: OpenSM's multicast spanning tree (osm_mcast_mgr.c, the default for the minhop,
 * updn, dor and ftree engines, which give no tree builder of their own), rebuilt from its
 * description so that `ibnetsim route compute --mcast` writes the tables OpenSM installs:
 * - one tree per MLID, shared by every sender (IBA: a switch copies to every port of the mask
 *   but the arrival port);
 * - the root: over the switches in OpenSM's map order (byte-reversed node GUID on x86,
 *   topo_guid_cmp_osm), the first with the smallest "max hops", the most over the members'
 *   switches of the least hop count to that switch plus one (a member adapter is one hop beyond
 *   its switch);
 * - from a switch, each member goes out of the port to it when it hangs off this switch, else
 *   out of the lowest-numbered port whose hop count to the member's switch equals the least
 *   (no balancing: one path to a switch, which keeps loops out); the members that leave
 *   through one port go down that branch together;
 * - a switch's mask holds every port a branch leaves by and, below the root, its upstream port
 *   (where the branch came in);
 * - a group of fewer than two member ports gets no entries.
 * The hop counts are the routing engine's (min-hop for minhop and dor, updn's legal-path
 * counts for updn), as OpenSM keeps them in its switches. */
#include "routing/mft.h"

#include <stdlib.h>

struct osm_tree {
    struct mfts *m;
    const struct topo *t;
    const struct hoptab *h;
    int mlid;
    const int *msw;          /* [member] its switch (topo node) */
    const int *mport;        /* [member] the switch port it hangs off */
};

/* The port of switch s toward member k (OpenSM's osm_switch_recommend_mcast_path), or -1. */
static int mcast_port(const struct osm_tree *x, int s, int k)
{
    if (x->msw[k] == s)
        return x->mport[k];
    const struct hoptab *h = x->h;
    const uint8_t *row = hoptab_row(h, h->swidx[x->msw[k]], h->swidx[s]);
    uint8_t least = row[0];
    if (least == HOP_NONE)
        return -1;
    for (int p = 1; p <= x->t->node[s].nports; p++)
        if (row[p] == least)
            return p;
    return -1;
}

/* mcast_mgr_branch: route members list[0..n) from switch s, reached at `depth` (0 the root)
 * through its port `up`. Returns -1 with e set when a member cannot be reached. */
static int branch(struct osm_tree *x, int s, int *list, int n, int depth, int up, struct ibn_err *e)
{
    if (++depth >= 64)
        return ibn_err_set(e, "MLID 0x%04X: the tree reaches 64 switches deep (OpenSM's limit)",
                           x->mlid);
    const struct topo_node *nd = &x->t->node[s];
    /* Split the members by the port they leave through, keeping their order. */
    int *port = xmalloc(((size_t)n + 1) * sizeof *port);
    for (int i = 0; i < n; i++) {
        port[i] = mcast_port(x, s, list[i]);
        if (port[i] < 0) {
            free(port);
            return ibn_err_set(e, "MLID 0x%04X: no path from switch %s to member %s's switch", x->mlid,
                               nd->name, x->t->node[x->msw[list[i]]].name);
        }
    }
    if (depth > 1)
        mft_set(x->m, s, x->mlid, up);
    int rc = 0;
    int *sub = xmalloc(((size_t)n + 1) * sizeof *sub);
    for (int p = 1; p <= nd->nports && !rc; p++) {
        int ns = 0;
        for (int i = 0; i < n; i++)
            if (port[i] == p)
                sub[ns++] = list[i];
        if (!ns)
            continue;
        const struct topo_port *tp = &nd->port[p];
        if (tp->peer_node < 0)
            continue; /* OpenSM: a disconnected port in the path, that branch is dropped */
        mft_set(x->m, s, x->mlid, p);
        if (x->t->node[tp->peer_node].type == TOPO_SWITCH)
            rc = branch(x, tp->peer_node, sub, ns, depth, tp->peer_port, e);
    }
    free(sub);
    free(port);
    return rc;
}

int mft_opensm_tree(struct mfts *m, const struct topo *t, const struct hoptab *h, int mlid,
                    const struct ca_port *members, int nmembers, struct ibn_err *e)
{
    if (!lid_is_mcast(mlid))
        return ibn_err_set(e, "MLID 0x%04x is outside the multicast range 0x%04X-0x%04X", mlid,
                           MLID_FIRST, MLID_LAST);
    mfts_grow(m, t, mlid);
    /* Distinct member ports (OpenSM keeps them in a map by port GUID). */
    int *msw = xmalloc(((size_t)nmembers + 1) * sizeof *msw);
    int *mport = xmalloc(((size_t)nmembers + 1) * sizeof *mport);
    int *list = xmalloc(((size_t)nmembers + 1) * sizeof *list);
    int n = 0, rc = 0;
    for (int k = 0; k < nmembers && !rc; k++) {
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= members[j].node == members[k].node && members[j].port == members[k].port;
        if (dup)
            continue;
        const struct topo_port *tp = &t->node[members[k].node].port[members[k].port];
        if (tp->peer_node < 0 || t->node[tp->peer_node].type != TOPO_SWITCH) {
            rc = ibn_err_set(e, "multicast member %s port %d is not cabled to a switch",
                             t->node[members[k].node].name, members[k].port);
            break;
        }
        msw[n] = tp->peer_node;
        mport[n] = tp->peer_port;
        list[n] = n;
        n++;
    }
    if (!rc && n >= 2) {
        /* The root: the first switch in OpenSM's order with the least max hops. */
        int root = -1;
        unsigned best = 10000;
        int *order = xmalloc(((size_t)h->nsw + 1) * sizeof *order);
        for (int i = 0; i < h->nsw; i++)
            order[i] = h->sw[i];
        for (int i = 1; i < h->nsw; i++) /* insertion sort: few switches, stable */
            for (int j = i; j > 0 && topo_guid_cmp_osm(t->node[order[j - 1]].guid,
                                                       t->node[order[j]].guid) > 0; j--) {
                int tmp = order[j];
                order[j] = order[j - 1];
                order[j - 1] = tmp;
            }
        for (int i = 0; i < h->nsw; i++) {
            int s = order[i];
            unsigned worst = 0;
            for (int k = 0; k < n; k++) {
                unsigned hops = hoptab_row(h, h->swidx[msw[k]], h->swidx[s])[0];
                hops += 1; /* the member adapter is one hop beyond its switch */
                if (hops > worst)
                    worst = hops;
            }
            if (worst < best) {
                best = worst;
                root = s;
            }
        }
        free(order);
        if (root < 0)
            rc = ibn_err_set(e, "MLID 0x%04X: no switch to root the tree at", mlid);
        else {
            struct osm_tree x = { m, t, h, mlid, msw, mport };
            rc = branch(&x, root, list, n, 0, 0, e);
        }
    }
    free(list);
    free(mport);
    free(msw);
    return rc;
}

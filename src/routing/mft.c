/* mft.c: multicast forwarding tables (port masks per switch and MLID), source-based trees grown
 * from the unicast routes, and the exactly-once delivery check. */
#include "routing/mft.h"

#include <stdlib.h>
#include <string.h>

static int max_ports(const struct topo *t)
{
    int np = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].nports > np)
            np = t->node[i].nports;
    return np;
}

void mfts_init(struct mfts *m, const struct topo *t, int max_mlid)
{
    memset(m, 0, sizeof *m);
    m->nnodes = t->nnodes;
    m->words = (max_ports(t) + 1 + 63) / 64;
    m->mask = xcalloc((size_t)t->nnodes + 1, sizeof *m->mask);
    mfts_grow(m, t, max_mlid);
}

void mfts_grow(struct mfts *m, const struct topo *t, int max_mlid)
{
    int n = max_mlid < MLID_FIRST ? 0 : max_mlid - MLID_FIRST + 1;
    if (n <= m->nmlid)
        return;
    size_t per = (size_t)m->words * sizeof(uint64_t);
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_SWITCH)
            continue;
        uint64_t *x = xcalloc((size_t)n, per);
        if (m->mask[i]) {
            memcpy(x, m->mask[i], (size_t)m->nmlid * per);
            free(m->mask[i]);
        }
        m->mask[i] = x;
    }
    m->nmlid = n;
}

void mfts_free(struct mfts *m)
{
    if (m->mask)
        for (int i = 0; i < m->nnodes; i++)
            free(m->mask[i]);
    free(m->mask);
    memset(m, 0, sizeof *m);
}

void mft_set(struct mfts *m, int node, int mlid, int port)
{
    uint64_t *w = mft_mask(m, node, mlid);
    if (w)
        w[port >> 6] |= 1ULL << (port & 63);
}

int mft_source_tree(struct mfts *m, const struct topo *t, const struct lfts *l, int mlid,
                    struct ca_port src, const struct ca_port *members, int nmembers,
                    struct ibn_err *e)
{
    if (!lid_is_mcast(mlid))
        return ibn_err_set(e, "MLID 0x%04x is outside the multicast range 0x%04X-0x%04X", mlid,
                           MLID_FIRST, MLID_LAST);
    const struct topo_port *sp = &t->node[src.node].port[src.port];
    if (sp->peer_node < 0 || t->node[sp->peer_node].type != TOPO_SWITCH)
        return ibn_err_set(e, "multicast source %s port %d is not cabled to a switch",
                           t->node[src.node].name, src.port);
    mfts_grow(m, t, mlid);
    char *in_tree = xcalloc((size_t)t->nnodes + 1, 1);
    int *path = xmalloc(((size_t)t->nnodes + 2) * sizeof *path);
    int *outp = xmalloc(((size_t)t->nnodes + 2) * sizeof *outp);
    int root = sp->peer_node, rc = 0;
    in_tree[root] = 1;
    for (int k = 0; k < nmembers && !rc; k++) {
        struct ca_port mb = members[k];
        if (mb.node == src.node && mb.port == src.port)
            continue;
        const struct topo_port *mp = &t->node[mb.node].port[mb.port];
        if (mp->peer_node < 0) {
            rc = ibn_err_set(e, "multicast member %s port %d is not cabled",
                             t->node[mb.node].name, mb.port);
            break;
        }
        /* The unicast route from the source's switch to the member. */
        int n = 0, node = root;
        for (;;) {
            if (n > t->nnodes) {
                rc = ibn_err_set(e, "routing loop from %s to multicast member %s",
                                 t->node[src.node].name, t->node[mb.node].name);
                break;
            }
            path[n] = node;
            int out = lft_port(l, node, mp->lid);
            if (out == LFT_NONE || out < 1 || out > t->node[node].nports ||
                t->node[node].port[out].peer_node < 0) {
                rc = ibn_err_set(e, "no route from %s to multicast member %s (LID %d): switch %s "
                                 "has no usable entry", t->node[src.node].name,
                                 t->node[mb.node].name, mp->lid, t->node[node].name);
                break;
            }
            outp[n++] = out;
            int next = t->node[node].port[out].peer_node;
            if (t->node[next].type != TOPO_SWITCH) {
                if (next != mb.node || t->node[node].port[out].peer_port != mb.port)
                    rc = ibn_err_set(e, "the route from %s to LID %d ends at %s, not at the member %s",
                                     t->node[src.node].name, mp->lid, t->node[next].name,
                                     t->node[mb.node].name);
                break;
            }
            node = next;
        }
        if (rc)
            break;
        /* Attach after the last switch of the route already in the tree. */
        int from = 0;
        for (int i = 0; i < n; i++)
            if (in_tree[path[i]])
                from = i;
        for (int i = from; i < n; i++) {
            mft_set(m, path[i], mlid, outp[i]);
            if (i + 1 < n)
                in_tree[path[i + 1]] = 1;
        }
    }
    free(outp);
    free(path);
    free(in_tree);
    return rc;
}

int mft_check(const struct mfts *m, const struct topo *t, int mlid, struct ca_port src,
              const struct ca_port *members, int nmembers, int *copies, int *max_hops,
              struct ibn_err *e)
{
    const struct topo_port *sp = &t->node[src.node].port[src.port];
    if (sp->peer_node < 0)
        return ibn_err_set(e, "multicast source %s port %d is not cabled", t->node[src.node].name,
                           src.port);
    /* Copies received per CA port: index by node * (ports + 1) + port via a small map. */
    int maxp = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].nports > maxp)
            maxp = t->node[i].nports;
    size_t stride = (size_t)maxp + 1;
    int *got = xcalloc((size_t)t->nnodes * stride, sizeof *got);
    int *qn = xmalloc(((size_t)t->nnodes + 1) * sizeof *qn);
    int *qp = xmalloc(((size_t)t->nnodes + 1) * sizeof *qp);
    int *qd = xmalloc(((size_t)t->nnodes + 1) * sizeof *qd);
    char *seen = xcalloc((size_t)t->nnodes + 1, 1);
    int head = 0, tail = 0, rc = 0, ncopies = 0, worst = 0;
    if (t->node[sp->peer_node].type == TOPO_SWITCH) {
        qn[tail] = sp->peer_node, qp[tail] = sp->peer_port, qd[tail++] = 1;
        seen[sp->peer_node] = 1;
    }
    while (head < tail && !rc) {
        int node = qn[head], in = qp[head], depth = qd[head++];
        const uint64_t *w = mft_mask(m, node, mlid);
        if (!w)
            continue;
        for (int p = 0; p <= t->node[node].nports && !rc; p++) {
            if (!(w[p >> 6] >> (p & 63) & 1) || p == in || p == 0)
                continue;
            const struct topo_port *tp = &t->node[node].port[p];
            if (tp->peer_node < 0)
                continue; /* an uncabled port in the mask: the copy goes nowhere */
            ncopies++;
            int peer = tp->peer_node;
            if (t->node[peer].type == TOPO_SWITCH) {
                if (seen[peer]) {
                    rc = ibn_err_set(e, "MLID 0x%04X from %s: switch %s receives a second copy "
                                     "(from %s port %d): the tables are not a tree", mlid,
                                     t->node[src.node].name, t->node[peer].name,
                                     t->node[node].name, p);
                    break;
                }
                seen[peer] = 1;
                qn[tail] = peer, qp[tail] = tp->peer_port, qd[tail++] = depth + 1;
            } else {
                got[(size_t)peer * stride + (size_t)tp->peer_port]++;
                if (depth > worst)
                    worst = depth;
            }
        }
    }
    for (int k = 0; k < nmembers && !rc; k++) {
        struct ca_port mb = members[k];
        if (mb.node == src.node && mb.port == src.port)
            continue;
        int g = got[(size_t)mb.node * stride + (size_t)mb.port];
        if (g != 1)
            rc = ibn_err_set(e, "MLID 0x%04X from %s: member %s port %d receives %d copies, not 1",
                             mlid, t->node[src.node].name, t->node[mb.node].name, mb.port, g);
        got[(size_t)mb.node * stride + (size_t)mb.port] = -1; /* accounted */
    }
    for (int i = 0; i < t->nnodes && !rc; i++)
        for (int p = 1; p <= t->node[i].nports && !rc; p++)
            if (got[(size_t)i * stride + (size_t)p] > 0)
                rc = ibn_err_set(e, "MLID 0x%04X from %s: %s port %d is not a member but receives "
                                 "%d copies", mlid, t->node[src.node].name, t->node[i].name, p,
                                 got[(size_t)i * stride + (size_t)p]);
    if (copies)
        *copies = ncopies;
    if (max_hops)
        *max_hops = worst;
    free(seen);
    free(qd);
    free(qp);
    free(qn);
    free(got);
    return rc;
}

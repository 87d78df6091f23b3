/* lft_build.c: OpenSM's per-switch port selection over a hop table (see lft_build.h). */
#include "routing/lft_build.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct sw_load {
    int sw;       /* switch index */
    int endports; /* CA links */
    uint64_t guid;
};

static int cmp_load(const void *a, const void *b)
{
    const struct sw_load *x = a, *y = b;
    if (x->endports != y->endports)
        return y->endports - x->endports;
    return topo_guid_cmp_osm(x->guid, y->guid);
}

struct guid_ent {
    uint64_t guid;
    int node, port;
};

static int cmp_guid(const void *a, const void *b)
{
    const struct guid_ent *x = a, *y = b;
    if (x->guid != y->guid)
        return topo_guid_cmp_osm(x->guid, y->guid);
    if (x->node != y->node)
        return x->node - y->node;
    return x->port - y->port;
}

int lft_dest_order(const struct topo *t, const struct hoptab *h, struct lft_dest **out)
{
    int cap = 0;
    for (int i = 0; i < t->nnodes; i++)
        cap += t->node[i].type == TOPO_SWITCH ? 1 : t->node[i].nports;
    struct lft_dest *d = xmalloc(((size_t)cap + 1) * sizeof *d);
    char *done = NULL;
    int *off = xmalloc(((size_t)t->nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        off[i + 1] = off[i] + t->node[i].nports + 1;
    done = xcalloc((size_t)off[t->nnodes] + 1, 1);
    struct sw_load *s = xmalloc(((size_t)h->nsw + 1) * sizeof *s);
    for (int i = 0; i < h->nsw; i++) {
        const struct topo_node *n = &t->node[h->sw[i]];
        s[i].sw = i;
        s[i].guid = n->guid;
        s[i].endports = 0;
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q >= 0 && t->node[q].type == TOPO_CA)
                s[i].endports++;
        }
    }
    qsort(s, (size_t)h->nsw, sizeof *s, cmp_load);
    int nd = 0;
    for (int i = 0; i < h->nsw; i++) {
        const struct topo_node *n = &t->node[h->sw[s[i].sw]];
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node, qp = n->port[p].peer_port;
            if (q < 0 || t->node[q].type != TOPO_CA || done[off[q] + qp])
                continue;
            done[off[q] + qp] = 1;
            const struct topo_port *x = &t->node[q].port[qp];
            d[nd++] = (struct lft_dest){ q, qp, x->lid, x->lmc, s[i].sw };
        }
    }
    /* The rest in port GUID order. */
    struct guid_ent *g = xmalloc(((size_t)cap + 1) * sizeof *g);
    int ng = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH) {
            g[ng++] = (struct guid_ent){ n->guid, i, 0 };
            continue;
        }
        for (int p = 1; p <= n->nports; p++)
            if (!done[off[i] + p] && n->port[p].peer_node >= 0 && n->port[p].lid)
                g[ng++] = (struct guid_ent){ n->port[p].guid, i, p };
    }
    qsort(g, (size_t)ng, sizeof *g, cmp_guid);
    for (int i = 0; i < ng; i++) {
        const struct topo_node *n = &t->node[g[i].node];
        const struct topo_port *x = &n->port[g[i].port];
        int T = n->type == TOPO_SWITCH ? h->swidx[g[i].node] : -1;
        d[nd++] = (struct lft_dest){ g[i].node, g[i].port, x->lid, x->lmc, T };
    }
    free(g);
    free(s);
    free(done);
    free(off);
    *out = d;
    return nd;
}

/* Per (switch, destination port) memory of the peer nodes used by its LIDs, for LMC > 0. */
struct used_peer {
    int node;
    uint64_t sys;
    int fwd;
};

void lft_build(const struct topo *t, const struct hoptab *h, enum lft_tie tie, struct lfts *l)
{
    struct lft_dest *d;
    int nd = lft_dest_order(t, h, &d);
    int lmc = 0;
    for (int i = 0; i < nd; i++)
        if (d[i].lmc > lmc)
            lmc = d[i].lmc;
    int maxports = 0;
    for (int i = 0; i < h->nsw; i++)
        if (t->node[h->sw[i]].nports > maxports)
            maxports = t->node[h->sw[i]].nports;
    uint32_t *count = xmalloc(((size_t)maxports + 1) * sizeof *count);
    /* LMC bookkeeping: up to 2^lmc peers per destination. */
    int per = 1 << lmc;
    struct used_peer *used = lmc ? xmalloc((size_t)nd * (size_t)per * sizeof *used) : NULL;
    int *nused = lmc ? xmalloc((size_t)nd * sizeof *nused) : NULL;
    for (int si = 0; si < h->nsw; si++) {
        int sn = h->sw[si];
        const struct topo_node *ns = &t->node[sn];
        uint8_t *lft = l->table[sn];
        memset(count, 0, ((size_t)maxports + 1) * sizeof *count);
        if (lmc)
            memset(nused, 0, (size_t)nd * sizeof *nused);
        int num_ports = ns->nports + 1;
        for (int off = 0; off < per; off++)
            for (int k = 0; k < nd; k++) {
                const struct lft_dest *x = &d[k];
                if (!x->lid || off >= (1 << x->lmc))
                    continue;
                int lid = x->lid + off;
                if (lid > l->max_lid)
                    continue;
                int is_sw = t->node[x->node].type == TOPO_SWITCH;
                int port = LFT_NONE;
                if (is_sw && x->node == sn) {
                    port = 0;
                } else if (!is_sw && x->T < 0) {
                    port = LFT_NONE;
                } else if (!is_sw && x->T == si) {
                    port = t->node[x->node].port[x->port].peer_port;
                } else {
                    const uint8_t *row = hoptab_row(h, x->T, si);
                    uint8_t least = row[0];
                    if (least != HOP_NONE) {
                        int start = 1;
                        if (off && tie == LFT_TIE_BALANCE)
                            start = lft[lid - 1] + 1;
                        uint32_t best_cnt = UINT32_MAX, os_cnt = UINT32_MAX, on_cnt = UINT32_MAX;
                        int best = -1, best_os = 0, best_on = 0, least_fwd = INT32_MAX;
                        int first_peer = -1;
                        for (int i = start; i < start + num_ports; i++) {
                            int p = i % num_ports;
                            if (!p || row[p] != least || ns->port[p].peer_node < 0)
                                continue;
                            if (tie == LFT_TIE_LOWEST) {
                                if (best < 0 || p < best)
                                    best = p;
                                continue;
                            }
                            if (tie == LFT_TIE_HIGHEST) {
                                if (p > best)
                                    best = p;
                                continue;
                            }
                            if (tie == LFT_TIE_DOR) {
                                int peer = ns->port[p].peer_node;
                                if (first_peer < 0)
                                    first_peer = peer;
                                else if (peer != first_peer)
                                    continue;
                                if (count[p] < best_cnt) {
                                    best = p;
                                    best_cnt = count[p];
                                }
                                continue;
                            }
                            uint32_t c = count[p];
                            struct used_peer *match = NULL;
                            if (lmc) {
                                int peer = ns->port[p].peer_node;
                                uint64_t sys = t->node[peer].sysimgguid;
                                struct used_peer *u = used + (size_t)k * per;
                                int sys_used = 0;
                                for (int j = 0; j < nused[k]; j++)
                                    if (u[j].sys == sys)
                                        sys_used = 1;
                                if (!sys_used) {
                                    if (c < os_cnt) {
                                        os_cnt = c;
                                        best_os = p;
                                        least_fwd = 0;
                                    }
                                } else {
                                    for (int j = 0; j < nused[k]; j++)
                                        if (u[j].node == peer)
                                            match = &u[j];
                                    if (!match && c < on_cnt) {
                                        on_cnt = c;
                                        best_on = p;
                                        least_fwd = 0;
                                    }
                                }
                            }
                            if (c < best_cnt) {
                                best = p;
                                best_cnt = c;
                                if (match && match->fwd < least_fwd)
                                    least_fwd = match->fwd;
                            } else if (match && c == best_cnt && match->fwd < least_fwd) {
                                least_fwd = match->fwd;
                                best = p;
                            }
                        }
                        if (best > 0 && lmc && tie == LFT_TIE_BALANCE) {
                            if (best_os)
                                best = best_os;
                            else if (best_on)
                                best = best_on;
                        }
                        if (best > 0)
                            port = best;
                    }
                }
                lft[lid] = (uint8_t)port;
                if (port != LFT_NONE && !is_sw) {
                    count[port]++;
                    if (lmc && port > 0) {
                        int peer = ns->port[port].peer_node;
                        struct used_peer *u = used + (size_t)k * per;
                        int j;
                        for (j = 0; j < nused[k]; j++)
                            if (u[j].node == peer)
                                break;
                        if (j == nused[k] && j < per) {
                            u[j] = (struct used_peer){ peer, t->node[peer].sysimgguid, 0 };
                            nused[k]++;
                        }
                        if (j < per)
                            u[j].fwd++;
                    }
                }
            }
    }
    free(used);
    free(nused);
    free(count);
    free(d);
}

/* lft.c: linear forwarding tables and their end-to-end validation. */
#include "routing/lft.h"

#include <stdlib.h>
#include <string.h>

void lfts_init(struct lfts *l, const struct topo *t)
{
    l->nnodes = t->nnodes;
    l->note[0] = 0;
    l->engine[0] = 0;
    l->dlid_vl = NULL;
    l->pb_local = NULL;
    l->vlmap = NULL;
    l->nvl = 1;
    l->max_lid = topo_max_lid(t);
    l->table = xcalloc((size_t)t->nnodes, sizeof *l->table);
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].type == TOPO_SWITCH) {
            l->table[i] = xmalloc((size_t)l->max_lid + 1);
            memset(l->table[i], LFT_NONE, (size_t)l->max_lid + 1);
        }
}

void lfts_free(struct lfts *l)
{
    if (l->table)
        for (int i = 0; i < l->nnodes; i++)
            free(l->table[i]);
    free(l->table);
    free(l->dlid_vl);
    free(l->pb_local);
    lft_vlmap_free(l->vlmap);
    memset(l, 0, sizeof *l);
}

void lft_vlmap_free(struct lft_vlmap *m)
{
    if (!m)
        return;
    if (m->sw)
        for (int i = 0; i < m->nnodes; i++)
            free(m->sw[i]);
    free(m->swidx);
    free(m->path_sl);
    free(m->sw);
    free(m);
}

/* The switch a node stands for: itself, or for a CA the switch behind its first cabled port. */
static int vlmap_switch(const struct lft_vlmap *m, const struct topo *t, int n)
{
    if (n < 0 || n >= t->nnodes)
        return -1;
    if (t->node[n].type != TOPO_SWITCH)
        for (int p = 1; p <= t->node[n].nports; p++) {
            int q = t->node[n].port[p].peer_node;
            if (q >= 0 && t->node[q].type == TOPO_SWITCH) {
                n = q;
                break;
            }
        }
    return t->node[n].type == TOPO_SWITCH ? m->swidx[n] : -1;
}

int lft_vlmap_path_sl(const struct lft_vlmap *m, const struct topo *t, int src, int dst, int qos)
{
    int a = vlmap_switch(m, t, src), b = vlmap_switch(m, t, dst);
    if (a < 0 || b < 0)
        return -1;
    return m->path_sl[(size_t)a * (size_t)m->nsw + (size_t)b] | (qos ? 8 : 0);
}

int lfts_validate(const struct topo *t, const struct lfts *l, int *max_hops, struct ibn_err *e)
{
    int worst = 0;
    for (int s = 0; s < t->nnodes; s++) {
        const struct topo_node *src = &t->node[s];
        if (src->type != TOPO_CA)
            continue;
        for (int sp = 1; sp <= src->nports; sp++) {
            if (src->port[sp].peer_node < 0)
                continue;
            for (int d = 0; d < t->nnodes; d++) {
                const struct topo_node *dst = &t->node[d];
                if (dst->type != TOPO_CA)
                    continue;
                for (int dp = 1; dp <= dst->nports; dp++) {
                    const struct topo_port *tp = &dst->port[dp];
                    if (tp->peer_node < 0 || (d == s && dp == sp))
                        continue;
                    for (int lid = tp->lid; lid < tp->lid + (1 << tp->lmc); lid++) {
                        int node = src->port[sp].peer_node, hops = 0;
                        while (t->node[node].type == TOPO_SWITCH) {
                            int out = lft_port(l, node, lid);
                            if (out == LFT_NONE || out < 1 || out > t->node[node].nports ||
                                t->node[node].port[out].peer_node < 0)
                                return ibn_err_set(e, "no route from %s to LID %d (%s): switch %s "
                                                   "has no usable entry (%d) for it", src->name,
                                                   lid, dst->name, t->node[node].name, out);
                            int next = t->node[node].port[out].peer_node;
                            if (++hops > t->nnodes)
                                return ibn_err_set(e, "routing loop from %s to LID %d (%s) through "
                                                   "switch %s", src->name, lid, dst->name,
                                                   t->node[node].name);
                            if (t->node[next].type == TOPO_CA &&
                                (next != d || t->node[node].port[out].peer_port != dp))
                                return ibn_err_set(e, "route from %s to LID %d (%s) ends at %s",
                                                   src->name, lid, dst->name, t->node[next].name);
                            node = next;
                        }
                        if (hops > worst)
                            worst = hops;
                    }
                }
            }
        }
    }
    if (max_hops)
        *max_hops = worst;
    return 0;
}

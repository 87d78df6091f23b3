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
    memset(l, 0, sizeof *l);
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

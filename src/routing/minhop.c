/* minhop.c: the minhop routing engine: for every destination LID, each switch forwards on one
 * of its ports with the fewest switch hops to the destination, choosing among equal ports the
 * one that carries the fewest routes so far (then the lowest port number). */
#include "routing/route.h"

#include <stdlib.h>
#include <string.h>

int route_minhop(const struct topo *t, const struct route_opts *o, struct lfts *out,
                 struct ibn_err *e)
{
    int n = t->nnodes;
    int *dist = xmalloc((size_t)n * sizeof *dist), *queue = xmalloc((size_t)n * sizeof *queue);
    int **load = xcalloc((size_t)n, sizeof *load);
    for (int i = 0; i < n; i++)
        load[i] = xcalloc((size_t)t->node[i].nports + 1, sizeof **load);
    for (int d = 0; d < n; d++) {
        const struct topo_node *dn = &t->node[d];
        if (dn->type != TOPO_CA)
            continue;
        for (int dp = 1; dp <= dn->nports; dp++) {
            const struct topo_port *tp = &dn->port[dp];
            if (tp->peer_node < 0 || t->node[tp->peer_node].type != TOPO_SWITCH)
                continue;
            /* Switch-hop distances to the switch the destination port hangs off. */
            for (int i = 0; i < n; i++)
                dist[i] = -1;
            int head = 0, tail = 0;
            dist[tp->peer_node] = 0;
            queue[tail++] = tp->peer_node;
            while (head < tail) {
                int u = queue[head++];
                for (int p = 1; p <= t->node[u].nports; p++) {
                    int v = t->node[u].port[p].peer_node;
                    if (v >= 0 && t->node[v].type == TOPO_SWITCH && dist[v] < 0) {
                        dist[v] = dist[u] + 1;
                        queue[tail++] = v;
                    }
                }
            }
            for (int lid = tp->lid; lid < tp->lid + (1 << tp->lmc); lid++)
                for (int s = 0; s < n; s++) {
                    if (t->node[s].type != TOPO_SWITCH || dist[s] < 0)
                        continue;
                    int best = -1;
                    if (s == tp->peer_node) {
                        best = tp->peer_port;
                    } else {
                        for (int p = 1; p <= t->node[s].nports; p++) {
                            int v = t->node[s].port[p].peer_node;
                            if (v < 0 || t->node[v].type != TOPO_SWITCH || dist[v] != dist[s] - 1)
                                continue;
                            if (best < 0 || load[s][p] < load[s][best])
                                best = p;
                        }
                    }
                    if (best < 0)
                        continue;
                    out->table[s][lid] = (uint8_t)best;
                    load[s][best]++;
                }
        }
    }
    /* Switch LIDs route to port 0 locally and along shortest paths elsewhere. */
    for (int d = 0; d < n; d++) {
        if (t->node[d].type != TOPO_SWITCH || !t->node[d].port[0].lid)
            continue;
        for (int i = 0; i < n; i++)
            dist[i] = -1;
        int head = 0, tail = 0;
        dist[d] = 0;
        queue[tail++] = d;
        while (head < tail) {
            int u = queue[head++];
            for (int p = 1; p <= t->node[u].nports; p++) {
                int v = t->node[u].port[p].peer_node;
                if (v >= 0 && t->node[v].type == TOPO_SWITCH && dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    queue[tail++] = v;
                    out->table[v][t->node[d].port[0].lid] = (uint8_t)t->node[u].port[p].peer_port;
                }
            }
        }
        out->table[d][t->node[d].port[0].lid] = 0;
    }
    for (int i = 0; i < n; i++)
        free(load[i]);
    free(load);
    free(dist);
    free(queue);
    (void)o;
    (void)e;
    return 0;
}

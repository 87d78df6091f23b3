/* topo_metrics.c: diameter and bisection width. */
#include "topology/topo_metrics.h"

#include <stdlib.h>
#include <string.h>

int topo_diameter(const struct topo *t)
{
    int n = t->nnodes, worst = 0, cas = topo_count(t, TOPO_CA);
    if (cas < 2)
        return 0;
    int *dist = xmalloc((size_t)n * sizeof *dist + 1), *q = xmalloc((size_t)n * sizeof *q + 1);
    char *has_ca = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++)
        for (int p = 1; p <= t->node[i].nports; p++) {
            int v = t->node[i].port[p].peer_node;
            if (v >= 0 && t->node[v].type == TOPO_CA && t->node[i].type == TOPO_SWITCH)
                has_ca[i] = 1;
        }
    for (int s = 0; s < n && worst >= 0; s++) {
        if (!has_ca[s])
            continue;
        for (int i = 0; i < n; i++)
            dist[i] = -1;
        int head = 0, tail = 0;
        dist[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            int u = q[head++];
            for (int p = 1; p <= t->node[u].nports; p++) {
                int v = t->node[u].port[p].peer_node;
                if (v >= 0 && t->node[v].type == TOPO_SWITCH && dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    q[tail++] = v;
                }
            }
        }
        for (int v = 0; v < n; v++)
            if (has_ca[v]) {
                if (dist[v] < 0) {
                    worst = -1;
                    break;
                }
                if (dist[v] + 2 > worst)
                    worst = dist[v] + 2;
            }
    }
    free(dist);
    free(q);
    free(has_ca);
    return worst;
}

long topo_bisection_links(const struct topo *t)
{
    const char *src = t->source ? t->source : "";
    if (!strncmp(src, "mesh ", 5) || !strncmp(src, "torus ", 6)) {
        const char *d = strstr(src, "dims=");
        if (!d)
            d = "dims=4x4";
        long dims[3] = { 1, 1, 1 }, prod = 1, big = 0;
        int nd = 0;
        const char *p = d + 5;
        while (nd < 3) {
            char *end;
            dims[nd] = strtol(p, &end, 10);
            if (end == p)
                break;
            prod *= dims[nd];
            if (dims[nd] > big)
                big = dims[nd];
            nd++;
            p = end;
            if (*p != 'x' && *p != 'X')
                break;
            p++;
        }
        if (big < 2)
            return -1;
        long cut = prod / big;
        return src[0] == 't' ? 2 * cut : cut;
    }
    int maxrank = -1;
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_SWITCH)
            continue;
        if (t->node[i].rank < 0)
            return -1;
        if (t->node[i].rank > maxrank)
            maxrank = t->node[i].rank;
    }
    if (maxrank < 0)
        return -1;
    long best = topo_count(t, TOPO_CA);
    long *up = xcalloc((size_t)maxrank + 2, sizeof *up);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type != TOPO_SWITCH)
            continue;
        for (int p = 1; p <= n->nports; p++) {
            int v = n->port[p].peer_node;
            if (v >= 0 && t->node[v].type == TOPO_SWITCH && t->node[v].rank == n->rank + 1)
                up[n->rank]++;
        }
    }
    for (int r = 0; r < maxrank; r++)
        if (up[r] < best)
            best = up[r];
    free(up);
    return best / 2;
}

/* hoptab.c: switch indexing, all-pairs distances and the shortest-path hop table. */
#include "routing/hoptab.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void hoptab_index(struct hoptab *h, const struct topo *t)
{
    memset(h, 0, sizeof *h);
    h->swidx = xmalloc((size_t)t->nnodes * sizeof *h->swidx + 1);
    h->sw = xmalloc((size_t)t->nnodes * sizeof *h->sw + 1);
    h->off = xmalloc((size_t)t->nnodes * sizeof *h->off + 1);
    for (int i = 0; i < t->nnodes; i++) {
        h->swidx[i] = -1;
        if (t->node[i].type != TOPO_SWITCH)
            continue;
        h->swidx[i] = h->nsw;
        h->off[h->nsw] = h->rowlen;
        h->rowlen += t->node[i].nports + 1;
        h->sw[h->nsw++] = i;
    }
}

void hoptab_init(struct hoptab *h, const struct topo *t)
{
    hoptab_index(h, t);
    size_t n = (size_t)h->nsw * (size_t)h->rowlen;
    h->h = xmalloc(n + 1);
    memset(h->h, HOP_NONE, n);
}

void hoptab_free(struct hoptab *h)
{
    free(h->swidx);
    free(h->sw);
    free(h->off);
    free(h->h);
    memset(h, 0, sizeof *h);
}

uint16_t *hoptab_distances(const struct topo *t, const struct hoptab *h)
{
    int n = h->nsw;
    uint16_t *d = xmalloc((size_t)n * (size_t)n * sizeof *d + 1);
    memset(d, 0xff, (size_t)n * (size_t)n * sizeof *d);
    int *q = xmalloc((size_t)n * sizeof *q + 1);
    for (int s = 0; s < n; s++) {
        uint16_t *row = d + (size_t)s * n;
        int head = 0, tail = 0;
        row[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            int u = q[head++];
            const struct topo_node *nu = &t->node[h->sw[u]];
            for (int p = 1; p <= nu->nports; p++) {
                int v = nu->port[p].peer_node;
                if (v < 0 || h->swidx[v] < 0)
                    continue;
                int vi = h->swidx[v];
                if (row[vi] == 0xffff) {
                    row[vi] = (uint16_t)(row[u] + 1);
                    q[tail++] = vi;
                }
            }
        }
    }
    free(q);
    return d;
}

void hoptab_minhop(struct hoptab *h, const struct topo *t)
{
    uint16_t *d = hoptab_distances(t, h);
    int n = h->nsw;
    for (int T = 0; T < n; T++)
        for (int s = 0; s < n; s++) {
            uint8_t *row = hoptab_row(h, T, s);
            uint16_t ds = d[(size_t)T * n + s]; /* symmetric */
            if (ds == 0xffff)
                continue;
            row[0] = ds > 254 ? 254 : (uint8_t)ds;
            const struct topo_node *ns = &t->node[h->sw[s]];
            for (int p = 1; p <= ns->nports; p++) {
                int v = ns->port[p].peer_node;
                if (v < 0 || h->swidx[v] < 0 || v == h->sw[s]) /* loopback: OpenSM skips it */
                    continue;
                uint16_t dv = d[(size_t)T * n + h->swidx[v]];
                if (dv != 0xffff)
                    row[p] = dv + 1 > 254 ? 254 : (uint8_t)(dv + 1);
            }
        }
    free(d);
}

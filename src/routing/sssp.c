/* sssp.c: single-source shortest-path routing with global balancing, and its deadlock-free
 * variant with virtual lanes (after the idea of OpenSM's sssp/dfsssp engines, Domke, Hoefler
 * and Nagel 2011; not a port: OpenSM's heap order, and its per-path VL layering, differ).
 *  - Every directed switch-to-switch link starts with weight P^2 (P = number of CA ports), which
 *    keeps paths shortest; destinations are taken in OpenSM's order (lft_build.h; with OpenSM's
 *    cn_guid_file / io_guid_file, -u / -G, the compute nodes' ports first, then the I/O nodes',
 *    as OpenSM's dfsssp orders them, lft_class_order), each LID of a
 *    destination separately. For each, Dijkstra from the destination's switch (ties: lower
 *    switch index) gives every switch its next hop; then each switch adds its number of CAs to
 *    the weight of every link on its path, so later destinations avoid loaded links.
 *  - dfsssp: the routes to one destination LID form a tree, which alone cannot deadlock. LIDs are
 *    put on the lowest VL whose channel dependency graph stays acyclic with the new routes added
 *    (at most max_vls, default 8; packets to a LID use its VL through their SL). The result,
 *    lfts.dlid_vl, is what route_deadlock_check takes. */
#include "routing/route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/lft_build.h"
#include "routing/route_check.h"

struct heap {
    int n;
    int *idx;      /* heap of switch indices */
    int *pos;      /* switch -> position, -1 if not in the heap */
    const uint64_t *key;
};

static int less(const struct heap *h, int a, int b)
{
    uint64_t ka = h->key[h->idx[a]], kb = h->key[h->idx[b]];
    return ka < kb || (ka == kb && h->idx[a] < h->idx[b]);
}

static void swap(struct heap *h, int a, int b)
{
    int x = h->idx[a];
    h->idx[a] = h->idx[b];
    h->idx[b] = x;
    h->pos[h->idx[a]] = a;
    h->pos[h->idx[b]] = b;
}

static void up(struct heap *h, int i)
{
    while (i > 0 && less(h, i, (i - 1) / 2)) {
        swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void down(struct heap *h, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && less(h, l, m))
            m = l;
        if (r < h->n && less(h, r, m))
            m = r;
        if (m == i)
            return;
        swap(h, i, m);
        i = m;
    }
}

static void push_or_decrease(struct heap *h, int v)
{
    if (h->pos[v] < 0) {
        h->idx[h->n] = v;
        h->pos[v] = h->n;
        h->n++;
    }
    up(h, h->pos[v]);
}

static int pop(struct heap *h)
{
    int v = h->idx[0];
    h->pos[v] = -1;
    h->n--;
    if (h->n) {
        h->idx[0] = h->idx[h->n];
        h->pos[h->idx[0]] = 0;
        down(h, 0);
    }
    return v;
}

static int sssp_tables(const struct topo *t, const struct route_opts *o, struct lfts *out,
                       struct ibn_err *e)
{
    uint8_t *cls;
    char note[sizeof out->note] = "";
    if (lft_node_classes(t, o ? o->cn_guids : NULL, o ? o->io_guids : NULL, &cls, note,
                         sizeof note, e))
        return -1;
    struct hoptab h;
    hoptab_index(&h, t);
    int n = h.nsw;
    struct lft_dest *d;
    struct lft_order ord;
    lft_class_order(t, &h, cls, &ord);
    int nd = lft_dest_order(t, &h, cls ? &ord : NULL, &d);
    lft_order_free(&ord);
    free(cls);
    snprintf(out->note, sizeof out->note, "%s", note);
    uint64_t P = 0;
    int *cas = xcalloc((size_t)n + 1, sizeof *cas);
    for (int s = 0; s < n; s++) {
        const struct topo_node *ns = &t->node[h.sw[s]];
        for (int p = 1; p <= ns->nports; p++) {
            int v = ns->port[p].peer_node;
            if (v >= 0 && t->node[v].type == TOPO_CA)
                cas[s]++;
        }
        P += (uint64_t)cas[s];
    }
    /* Directed link weights, indexed like hop-table rows: w[off[u] + q] for u's port q. */
    uint64_t *w = xmalloc(((size_t)h.rowlen + 1) * sizeof *w);
    for (int i = 0; i <= h.rowlen; i++)
        w[i] = P ? P * P : 1;
    uint64_t *dist = xmalloc((size_t)n * sizeof *dist + 8);
    int *pred = xmalloc((size_t)n * sizeof *pred + 4), *via = xmalloc((size_t)n * sizeof *via + 4);
    char *done = xmalloc((size_t)n + 1);
    struct heap hp = { 0, xmalloc((size_t)n * sizeof(int) + 4), xmalloc((size_t)n * sizeof(int) + 4),
                       dist };
    for (int k = 0; k < nd; k++) {
        const struct lft_dest *x = &d[k];
        if (x->T < 0 || !x->lid)
            continue;
        for (int lid = x->lid; lid < x->lid + (1 << x->lmc) && lid <= out->max_lid; lid++) {
            for (int i = 0; i < n; i++) {
                dist[i] = UINT64_MAX;
                pred[i] = -1;
                hp.pos[i] = -1;
                done[i] = 0;
            }
            hp.n = 0;
            dist[x->T] = 0;
            push_or_decrease(&hp, x->T);
            while (hp.n) {
                int u = pop(&hp);
                done[u] = 1;
                const struct topo_node *nu = &t->node[h.sw[u]];
                for (int q = 1; q <= nu->nports; q++) {
                    int v = nu->port[q].peer_node;
                    if (v < 0 || h.swidx[v] < 0 || v == h.sw[u])
                        continue;
                    int r = h.swidx[v];
                    uint64_t nd2 = dist[u] + w[h.off[u] + q];
                    if (!done[r] && nd2 < dist[r]) {
                        dist[r] = nd2;
                        pred[r] = u;
                        via[r] = q; /* u's port towards r */
                        push_or_decrease(&hp, r);
                    }
                }
            }
            int is_sw = t->node[x->node].type == TOPO_SWITCH;
            for (int s = 0; s < n; s++) {
                uint8_t *lft = out->table[h.sw[s]];
                if (s == x->T)
                    lft[lid] = is_sw ? 0 : (uint8_t)t->node[x->node].port[x->port].peer_port;
                else if (pred[s] >= 0)
                    lft[lid] = (uint8_t)t->node[h.sw[pred[s]]].port[via[s]].peer_port;
            }
            /* Each switch's CAs now route along its path: weigh those links more. */
            for (int s = 0; s < n; s++) {
                if (!cas[s] || pred[s] < 0)
                    continue;
                for (int j = s; pred[j] >= 0; j = pred[j])
                    w[h.off[pred[j]] + via[j]] += (uint64_t)cas[s];
            }
        }
    }
    free(hp.idx);
    free(hp.pos);
    free(done);
    free(pred);
    free(via);
    free(dist);
    free(w);
    free(cas);
    free(d);
    hoptab_free(&h);
    return 0;
}

int route_sssp(const struct topo *t, const struct route_opts *o, struct lfts *out,
               struct ibn_err *e)
{
    return sssp_tables(t, o, out, e);
}

/* Adjacency of one VL's channel dependency graph, with the edges added last removable. */
struct vlgraph {
    int nch;
    int **adj, *deg, *cap;
};

static int vl_has_cycle(const struct vlgraph *g, char *color, int *stack, int *it)
{
    memset(color, 0, (size_t)g->nch);
    for (int r = 0; r < g->nch; r++) {
        if (color[r] || !g->deg[r])
            continue;
        int sp = 0;
        stack[sp] = r;
        it[sp++] = 0;
        color[r] = 1;
        while (sp) {
            int u = stack[sp - 1];
            if (it[sp - 1] < g->deg[u]) {
                int v = g->adj[u][it[sp - 1]++];
                if (color[v] == 1)
                    return 1;
                if (!color[v]) {
                    color[v] = 1;
                    stack[sp] = v;
                    it[sp++] = 0;
                }
            } else {
                color[u] = 2;
                sp--;
            }
        }
    }
    return 0;
}

int route_dfsssp(const struct topo *t, const struct route_opts *o, struct lfts *out,
                 struct ibn_err *e)
{
    int maxvl = o && o->max_vls > 0 ? o->max_vls : 8;
    if (maxvl > 15)
        return ibn_err_set(e, "dfsssp: max_vls %d exceeds the 15 data VLs", maxvl);
    if (sssp_tables(t, o, out, e))
        return -1;
    int *off = xmalloc(((size_t)t->nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        off[i + 1] = off[i] + t->node[i].nports + 1;
    int nch = off[t->nnodes];
    struct vlgraph g[15];
    for (int v = 0; v < maxvl; v++) {
        g[v].nch = nch;
        g[v].adj = xcalloc((size_t)nch + 1, sizeof *g[v].adj);
        g[v].deg = xcalloc((size_t)nch + 1, sizeof *g[v].deg);
        g[v].cap = xcalloc((size_t)nch + 1, sizeof *g[v].cap);
    }
    char *used = xmalloc((size_t)t->nnodes + 1), *color = xmalloc((size_t)nch + 1);
    int *stack = xmalloc(((size_t)nch + 1) * sizeof *stack), *it = xmalloc(((size_t)nch + 1) * sizeof *it);
    out->dlid_vl = xcalloc((size_t)out->max_lid + 1, 1);
    out->nvl = 1;
    struct dep *dep = NULL;
    size_t nd = 0, cap = 0;
    int rc = 0;
    /* Destination LIDs: CA ports, in node order. */
    for (int i = 0; i < t->nnodes && !rc; i++) {
        const struct topo_node *nn = &t->node[i];
        if (nn->type != TOPO_CA)
            continue;
        for (int p = 1; p <= nn->nports && !rc; p++) {
            const struct topo_port *x = &nn->port[p];
            if (x->peer_node < 0 || !x->lid)
                continue;
            for (int lid = x->lid; lid < x->lid + (1 << x->lmc) && lid <= out->max_lid; lid++) {
                nd = 0;
                route_lid_deps(t, out, lid, i, p, off, used, &dep, &nd, &cap);
                int placed = -1;
                for (int v = 0; v < maxvl && placed < 0; v++) {
                    for (size_t k = 0; k < nd; k++) {
                        int a = dep[k].from;
                        if (g[v].deg[a] == g[v].cap[a]) {
                            g[v].cap[a] = g[v].cap[a] ? 2 * g[v].cap[a] : 4;
                            g[v].adj[a] = xrealloc(g[v].adj[a], (size_t)g[v].cap[a] * sizeof(int));
                        }
                        g[v].adj[a][g[v].deg[a]++] = dep[k].to;
                    }
                    if (!vl_has_cycle(&g[v], color, stack, it)) {
                        placed = v;
                    } else {
                        for (size_t k = nd; k-- > 0;)
                            g[v].deg[dep[k].from]--;
                    }
                }
                if (placed < 0) {
                    rc = ibn_err_set(e, "dfsssp: the routes need more than %d VLs to be "
                                     "deadlock-free (max_vls)", maxvl);
                    break;
                }
                out->dlid_vl[lid] = (uint8_t)placed;
                if (placed + 1 > out->nvl)
                    out->nvl = placed + 1;
            }
        }
    }
    if (!rc)
    {
        char own[sizeof out->note];
        snprintf(own, sizeof own, "%s", out->note);
        snprintf(out->note, sizeof out->note, "dfsssp: %d VL%s used (one per destination LID)%s%.200s",
                 out->nvl, out->nvl > 1 ? "s" : "", *own ? "; " : "", own);
    }
    for (int v = 0; v < maxvl; v++) {
        for (int c = 0; c < nch; c++)
            free(g[v].adj[c]);
        free(g[v].adj);
        free(g[v].deg);
        free(g[v].cap);
    }
    free(dep);
    free(used);
    free(color);
    free(stack);
    free(it);
    free(off);
    return rc;
}

/* partition.c: the fabric's nodes over the ranks of a distributed run: switches whole,
 * adapters with their switch, balanced by port weight, few cut cables (partition.h). */
#include "dist/partition.h"

#include <stdlib.h>
#include <string.h>

#ifdef IBN_HAVE_METIS
#include <metis.h>
#endif

int partition_have_metis(void)
{
#ifdef IBN_HAVE_METIS
    return 1;
#else
    return 0;
#endif
}

int partition_host_switch(const struct topo *t, int node)
{
    const struct topo_node *n = &t->node[node];
    for (int p = 1; p <= n->nports; p++) {
        int q = n->port[p].peer_node;
        if (q >= 0 && t->node[q].type == TOPO_SWITCH)
            return q;
    }
    return -1;
}

static int cabled(const struct topo_node *n)
{
    int c = 0;
    for (int p = 1; p <= n->nports; p++)
        c += n->port[p].peer_node >= 0;
    return c;
}

void partition_measure(const struct topo *t, int k, const int *part, struct partition_stats *st)
{
    memset(st, 0, sizeof *st);
    st->k = k;
    long long *w = xcalloc((size_t)k, sizeof *w);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        w[part[i]] += cabled(n);
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q < 0 || q < i || (q == i && n->port[p].peer_port < p))
                continue; /* each cable once */
            st->cables++;
            st->cut += part[q] != part[i];
        }
    }
    st->weight_min = w[0];
    for (int r = 0; r < k; r++) {
        st->weight_total += w[r];
        if (w[r] > st->weight_max)
            st->weight_max = w[r];
        if (w[r] < st->weight_min)
            st->weight_min = w[r];
    }
    st->imbalance = st->weight_total ? (double)st->weight_max * k / (double)st->weight_total : 1.0;
    free(w);
}

/* The switch graph in compressed rows: neighbours of switch s (by switch number) with the
 * number of cables to each. */
struct swgraph {
    int n;
    int *sw;          /* switch number -> node */
    int *num;         /* node -> switch number, -1 for adapters */
    long long *w;     /* weight per switch */
    int *xadj, *adj, *ew;
};

static void swgraph_free(struct swgraph *g)
{
    free(g->sw);
    free(g->num);
    free(g->w);
    free(g->xadj);
    free(g->adj);
    free(g->ew);
}

static void swgraph_build(const struct topo *t, struct swgraph *g)
{
    memset(g, 0, sizeof *g);
    g->num = xmalloc((size_t)t->nnodes * sizeof *g->num);
    g->sw = xmalloc((size_t)(t->nnodes + 1) * sizeof *g->sw);
    for (int i = 0; i < t->nnodes; i++) {
        g->num[i] = -1;
        if (t->node[i].type == TOPO_SWITCH) {
            g->num[i] = g->n;
            g->sw[g->n++] = i;
        }
    }
    g->w = xcalloc((size_t)g->n + 1, sizeof *g->w);
    for (int i = 0; i < t->nnodes; i++) {
        int s = t->node[i].type == TOPO_SWITCH ? i : partition_host_switch(t, i);
        if (s >= 0)
            g->w[g->num[s]] += cabled(&t->node[i]);
    }
    g->xadj = xcalloc((size_t)g->n + 1, sizeof *g->xadj);
    /* Neighbours in port order, merged: a cable bundle is one edge with its count. */
    int cap = 0;
    for (int s = 0; s < g->n; s++)
        cap += t->node[g->sw[s]].nports;
    g->adj = xmalloc(((size_t)cap + 1) * sizeof *g->adj);
    g->ew = xmalloc(((size_t)cap + 1) * sizeof *g->ew);
    int m = 0;
    for (int s = 0; s < g->n; s++) {
        const struct topo_node *n = &t->node[g->sw[s]];
        g->xadj[s] = m;
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q < 0 || g->num[q] < 0 || q == g->sw[s])
                continue;
            int j;
            for (j = g->xadj[s]; j < m; j++)
                if (g->adj[j] == g->num[q])
                    break;
            if (j < m) {
                g->ew[j]++;
            } else {
                g->adj[m] = g->num[q];
                g->ew[m++] = 1;
            }
        }
    }
    g->xadj[g->n] = m;
}

/* Breadth-first order of the switches s with sel[s] == tag, from `start` (then from the lowest
 * unvisited one of them); returns how many. */
static int bfs(const struct swgraph *g, const int *sel, int tag, int start, int *order, char *seen)
{
    int n = 0;
    for (int s = 0; s < g->n; s++) {
        seen[s] = sel[s] != tag;
        n += sel[s] == tag;
    }
    int head = 0, tail = 0, next = 0;
    seen[start] = 1;
    order[tail++] = start;
    while (head < n) {
        if (head == tail) { /* another component: from its lowest switch */
            while (seen[next])
                next++;
            seen[next] = 1;
            order[tail++] = next;
        }
        int s = order[head++];
        for (int j = g->xadj[s]; j < g->xadj[s + 1]; j++)
            if (!seen[g->adj[j]]) {
                seen[g->adj[j]] = 1;
                order[tail++] = g->adj[j];
            }
    }
    return n;
}

/* Split the switches of part `tag` (weight `total`) into parts tag .. tag + k - 1 by recursive
 * bisection: a breadth-first sweep from a pseudo-peripheral switch, cut where the weight
 * reaches k1/k of the total. */
static void bisect(const struct swgraph *g, int *swpart, int tag, int k, long long total, int *order,
                   char *seen)
{
    if (k == 1)
        return;
    int first = 0;
    while (swpart[first] != tag)
        first++;
    int n = bfs(g, swpart, tag, first, order, seen);
    n = bfs(g, swpart, tag, order[n - 1], order, seen);
    int k1 = k / 2;
    long long target = total * k1 / k, acc = 0;
    int i = 0;
    /* At least k1 switches on one side and k - k1 on the other. */
    while (i < n && (i < k1 || (acc + g->w[order[i]] / 2 <= target && n - i > k - k1))) {
        acc += g->w[order[i]];
        swpart[order[i++]] = -1; /* the first half, renumbered below */
    }
    for (; i < n; i++)
        swpart[order[i]] = tag + k1;
    for (int s = 0; s < g->n; s++)
        if (swpart[s] == -1)
            swpart[s] = tag;
    bisect(g, swpart, tag, k1, acc, order, seen);
    bisect(g, swpart, tag + k1, k - k1, total - acc, order, seen);
}

static void partition_bfs(const struct swgraph *g, int k, int *swpart)
{
    int *order = xmalloc(((size_t)g->n + 1) * sizeof *order);
    char *seen = xmalloc((size_t)g->n + 1);
    long long total = 0, wmax = 0;
    for (int s = 0; s < g->n; s++) {
        total += g->w[s];
        if (g->w[s] > wmax)
            wmax = g->w[s];
        swpart[s] = 0;
    }
    bisect(g, swpart, 0, k, total, order, seen);
    free(seen);
    /* Boundary refinement under the balance bound. */
    long long bound = total * 105 / (100LL * k);
    if (bound < total / k + wmax)
        bound = total / k + wmax;
    long long *pw = xcalloc((size_t)k, sizeof *pw);
    int *cnt = xcalloc((size_t)k, sizeof *cnt);
    long long *conn = xcalloc((size_t)k, sizeof *conn);
    for (int s = 0; s < g->n; s++) {
        pw[swpart[s]] += g->w[s];
        cnt[swpart[s]]++;
    }
    for (int pass = 0; pass < 16; pass++) {
        int moved = 0;
        for (int s = 0; s < g->n; s++) {
            int own = swpart[s];
            if (cnt[own] == 1)
                continue;
            for (int j = g->xadj[s]; j < g->xadj[s + 1]; j++)
                conn[swpart[g->adj[j]]] += g->ew[j];
            int best = -1;
            long long gain = 0;
            for (int j = g->xadj[s]; j < g->xadj[s + 1]; j++) {
                int q = swpart[g->adj[j]];
                long long gq = conn[q] - conn[own];
                if (q != own && pw[q] + g->w[s] <= bound &&
                    (gq > gain || (gq == gain && gq > 0 && q < best))) {
                    best = q;
                    gain = gq;
                }
            }
            for (int j = g->xadj[s]; j < g->xadj[s + 1]; j++)
                conn[swpart[g->adj[j]]] = 0;
            if (best >= 0) {
                pw[own] -= g->w[s];
                cnt[own]--;
                pw[best] += g->w[s];
                cnt[best]++;
                swpart[s] = best;
                moved++;
            }
        }
        if (!moved)
            break;
    }
    free(pw);
    free(cnt);
    free(conn);
    free(order);
}

#ifdef IBN_HAVE_METIS
static int partition_metis(const struct swgraph *g, int k, int *swpart, struct ibn_err *e)
{
    idx_t nv = g->n, ncon = 1, nparts = k, objval = 0;
    idx_t *xadj = xmalloc(((size_t)g->n + 1) * sizeof *xadj);
    idx_t *adj = xmalloc(((size_t)g->xadj[g->n] + 1) * sizeof *adj);
    idx_t *ew = xmalloc(((size_t)g->xadj[g->n] + 1) * sizeof *ew);
    idx_t *vw = xmalloc(((size_t)g->n + 1) * sizeof *vw);
    idx_t *pt = xmalloc(((size_t)g->n + 1) * sizeof *pt);
    for (int s = 0; s <= g->n; s++)
        xadj[s] = g->xadj[s];
    for (int j = 0; j < g->xadj[g->n]; j++) {
        adj[j] = g->adj[j];
        ew[j] = g->ew[j];
    }
    for (int s = 0; s < g->n; s++)
        vw[s] = g->w[s] > 0 ? (idx_t)g->w[s] : 1;
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = 1;
    opt[METIS_OPTION_NUMBERING] = 0;
    int rc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, vw, NULL, ew, &nparts, NULL, NULL, opt,
                                 &objval, pt);
    for (int s = 0; s < g->n; s++)
        swpart[s] = (int)pt[s];
    free(xadj);
    free(adj);
    free(ew);
    free(vw);
    free(pt);
    if (rc != METIS_OK)
        return ibn_err_set(e, "METIS could not partition the %d switches into %d parts (status %d)",
                           g->n, k, rc);
    /* METIS may leave a part empty on tiny graphs: then the own partitioner. */
    char *used = xcalloc((size_t)k, 1);
    int nused = 0;
    for (int s = 0; s < g->n; s++)
        if (!used[swpart[s]]) {
            used[swpart[s]] = 1;
            nused++;
        }
    free(used);
    return nused == k ? 0 : 1;
}
#endif

int partition_topo(const struct topo *t, int k, enum partition_method m, int *part,
                   struct partition_stats *st, struct ibn_err *e)
{
    struct swgraph g;
    swgraph_build(t, &g);
    if (k < 1 || (k > g.n && !(k == 1 && g.n == 0))) {
        swgraph_free(&g);
        return ibn_err_set(e, "cannot split a fabric of %d switches into %d parts (switches are "
                           "kept whole: at most one part per switch)", g.n, k);
    }
    if (m == PARTITION_METIS && !partition_have_metis()) {
        swgraph_free(&g);
        return ibn_err_set(e, "ibnetsim was built without METIS (libmetis-dev): use the own "
                           "partitioner (bfs)");
    }
    int *swpart = xcalloc((size_t)g.n + 1, sizeof *swpart);
    int method = PARTITION_BFS;
    if (k > 1) {
        int done = 0;
#ifdef IBN_HAVE_METIS
        if (m != PARTITION_BFS) {
            int rc = partition_metis(&g, k, swpart, e);
            if (rc < 0) {
                free(swpart);
                swgraph_free(&g);
                return -1;
            }
            done = rc == 0;
            method = done ? PARTITION_METIS : PARTITION_BFS;
        }
#endif
        if (!done)
            partition_bfs(&g, k, swpart);
    }
    for (int i = 0; i < t->nnodes; i++) {
        int s = t->node[i].type == TOPO_SWITCH ? i : partition_host_switch(t, i);
        part[i] = s >= 0 ? swpart[g.num[s]] : 0;
    }
    free(swpart);
    swgraph_free(&g);
    if (st) {
        partition_measure(t, k, part, st);
        st->method = method;
    }
    return 0;
}

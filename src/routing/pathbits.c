/* pathbits.c: seed 004's path bits and multipath forwarding tables (see pathbits.h), and the
 * routing engine that installs them as LMC LIDs. */
#include "routing/pathbits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/route.h"

static int nb_index(const struct pathbits *pb, int a, int b)
{
    for (int k = 0; k < pb->deg[a]; k++)
        if (pb->adj[a * pb->maxdeg + k] == b)
            return k;
    return -1;
}

/* Breadth-first distances from s over usable edges; `skip_a`-`skip_b` is left out. Fills dist
 * (nsw entries, 0xffff unreached) and, if par != NULL, the parent of every vertex. */
static void bfs(const struct pathbits *pb, const char *ok, int s, int skip_a, int skip_b,
                uint16_t *dist, int *par, int *queue)
{
    int n = pb->nsw, h = 0, tl = 0;
    for (int i = 0; i < n; i++) {
        dist[i] = 0xffff;
        if (par)
            par[i] = -1;
    }
    dist[s] = 0;
    queue[tl++] = s;
    while (h < tl) {
        int v = queue[h++];
        for (int k = 0; k < pb->deg[v]; k++) {
            int w = pb->adj[v * pb->maxdeg + k];
            if (!ok[(size_t)v * n + w] || (v == skip_a && w == skip_b) || (v == skip_b && w == skip_a))
                continue;
            if (dist[w] == 0xffff) {
                dist[w] = (uint16_t)(dist[v] + 1);
                if (par)
                    par[w] = v;
                queue[tl++] = w;
            }
        }
    }
}

static uint32_t project(const struct pathbits *pb, int v, uint64_t P)
{
    uint64_t on = pb->on[v];
    uint32_t q = 0;
    for (int j = 0; on; j++) {
        int k = __builtin_ctzll(on);
        on &= on - 1;
        q |= (uint32_t)(P >> k & 1) << j;
    }
    return q;
}

int pathbits_of_path(const struct pathbits *pb, const int *v, int n, uint64_t *val, uint64_t *care)
{
    uint64_t ap = 0, am = 0; /* the running union: cycles C_k (plus) and C-bar_k (minus) */
    for (int i = 0; i + 1 < n; i++) {
        int k = nb_index(pb, v[i], v[i + 1]);
        if (k < 0)
            return -1;
        uint64_t bp = pb->el_plus[v[i] * pb->maxdeg + k], bm = pb->el_minus[v[i] * pb->maxdeg + k];
        if (i == 0) {
            ap = bp, am = bm;
            continue;
        }
        int s1 = __builtin_popcountll(ap) + __builtin_popcountll(am);
        int s2 = __builtin_popcountll(bp) + __builtin_popcountll(bm);
        uint64_t c1 = ap & bm, c2 = am & bp; /* a in the union, a-bar in the new list */
        uint64_t np = ap | bp, nm = am | bm;
        if (c1 | c2) {
            if (s1 == 1 && s2 == 1)
                return -1; /* undefined (Definition 2) */
            if (s1 > 1 && s2 > 1) {
                np &= ~(c1 | c2), nm &= ~(c1 | c2);
            } else if (s1 > 1) { /* drop the union's member, keep the new list's */
                np &= ~c1, nm &= ~c2;
            } else {             /* drop the new list's member */
                nm &= ~c1, np &= ~c2;
            }
        }
        ap = np, am = nm;
    }
    *val = ap;
    *care = ap | am;
    return 0;
}

void pathbits_format(const struct pathbits *pb, uint64_t val, uint64_t care, char *buf)
{
    for (int k = 0; k < pb->ncycles; k++)
        buf[k] = (char)(care >> k & 1 ? '0' + (int)(val >> k & 1) : 'X');
    buf[pb->ncycles] = 0;
}

int pathbits_vertex(const struct pathbits *pb, const struct topo *t, const char *name)
{
    int n = topo_find(t, name);
    return n < 0 ? -1 : pb->vert[n];
}

int pathbits_next(const struct pathbits *pb, int v, int d, uint64_t P)
{
    int k = pb->tab[v][((size_t)d << pb->nloc[v]) | project(pb, v, P)];
    return k < 0 ? -1 : pb->adj[v * pb->maxdeg + k];
}

/* A table entry a path proposes: at v towards d, bits (val, care), neighbour k; the remaining
 * path has `suffix` hops. */
struct install {
    int v, d, k, suffix, port;
    long seq;
    uint64_t val, care;
};

struct enumer {
    struct pathbits *pb;
    const char *ok;
    int slack;
    int *path;
    char *seen;
    struct install *ins;
    long nins, cap;
};

static void add_path(struct enumer *en, int len)
{
    struct pathbits *pb = en->pb;
    uint64_t val, care;
    pb->npaths++;
    if (pathbits_of_path(pb, en->path, len, &val, &care)) {
        pb->undefined++;
        return;
    }
    int d = en->path[len - 1];
    for (int i = 0; i + 1 < len; i++) {
        if (en->nins == en->cap) {
            en->cap = en->cap ? 2 * en->cap : 4096;
            en->ins = xrealloc(en->ins, (size_t)en->cap * sizeof *en->ins);
        }
        int v = en->path[i], k = nb_index(pb, v, en->path[i + 1]);
        en->ins[en->nins] = (struct install){ v, d, k, len - 1 - i, pb->adjport[v * pb->maxdeg + k],
                                              en->nins, val, care };
        en->nins++;
    }
}

/* Depth-first: every simple path from path[0] (depth len), up to shortest + slack hops. */
static void extend(struct enumer *en, int len, int maxlen)
{
    struct pathbits *pb = en->pb;
    int u = en->path[0], v = en->path[len - 1], n = pb->nsw;
    for (int k = 0; k < pb->deg[v]; k++) {
        int w = pb->adj[v * pb->maxdeg + k];
        if (en->seen[w] || !en->ok[(size_t)v * n + w])
            continue;
        en->path[len] = w;
        en->seen[w] = 1;
        if (en->slack < 0 || len <= pb->dist[(size_t)u * n + w] + en->slack)
            add_path(en, len + 1);
        if (len < maxlen)
            extend(en, len + 1, maxlen);
        en->seen[w] = 0;
    }
}

static int cmp_install(const void *a, const void *b)
{
    const struct install *x = a, *y = b;
    if (x->suffix != y->suffix)
        return x->suffix < y->suffix ? -1 : 1;
    if (x->port != y->port)
        return x->port < y->port ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The shortest-path neighbour of v towards d (lowest port). */
static int spf_k(const struct pathbits *pb, const char *ok, int v, int d)
{
    int n = pb->nsw;
    for (int k = 0; k < pb->deg[v]; k++) {
        int w = pb->adj[v * pb->maxdeg + k];
        if (ok[(size_t)v * n + w] && pb->dist[(size_t)w * n + d] + 1 == pb->dist[(size_t)v * n + d])
            return k;
    }
    return -1;
}

/* Walk every (source, destination, pattern); a walk that loops has its first non-fallback
 * entry on the loop replaced by the shortest-path port, until a whole pass changes nothing. */
static void verify(struct pathbits *pb, const char *ok)
{
    int n = pb->nsw;
    uint64_t npat = 1ULL << pb->ncycles;
    char *state = xmalloc((size_t)n);
    int *trail = xmalloc((size_t)n * 2 * sizeof *trail);
    for (int changed = 1; changed;) {
        changed = 0;
        pb->walks = 0;
        for (uint64_t P = 0; P < npat; P++)
            for (int d = 0; d < n; d++) {
            again:
                memset(state, 0, (size_t)n); /* 0 unknown, 1 on the current walk, 2 arrives */
                state[d] = 2;
                for (int s = 0; s < n; s++) {
                    if (s == d)
                        continue;
                    pb->walks++;
                    int len = 0, v = s;
                    while (state[v] == 0) {
                        state[v] = 1;
                        trail[len++] = v;
                        v = pathbits_next(pb, v, d, P);
                    }
                    if (state[v] == 1) { /* a loop back to v */
                        int from = 0, fixed = 0;
                        while (trail[from] != v)
                            from++;
                        for (int i = from; i < len && !fixed; i++) {
                            int x = trail[i];
                            size_t at = ((size_t)d << pb->nloc[x]) | project(pb, x, P);
                            if (!pb->tab_spf[x][at]) {
                                pb->tab[x][at] = (int8_t)spf_k(pb, ok, x, d);
                                pb->tab_spf[x][at] = 1;
                                pb->conflicts++;
                                fixed = 1;
                            }
                        }
                        if (!fixed) /* shortest-path entries alone cannot loop */
                            ibn_panic("pathbits: a loop of shortest-path entries");
                        changed = 1;
                        goto again;
                    }
                    for (int i = 0; i < len; i++)
                        state[trail[i]] = 2;
                }
            }
    }
    free(state);
    free(trail);
}

int pathbits_build(const struct topo *t, const char *root, int max_bits, int slack,
                   struct pathbits *pb, struct ibn_err *e)
{
    memset(pb, 0, sizeof *pb);
    pb->vert = xmalloc(((size_t)t->nnodes + 1) * sizeof *pb->vert);
    pb->node = xmalloc(((size_t)t->nnodes + 1) * sizeof *pb->node);
    for (int i = 0; i < t->nnodes; i++) {
        pb->vert[i] = -1;
        if (t->node[i].type == TOPO_SWITCH) {
            pb->vert[i] = pb->nsw;
            pb->node[pb->nsw++] = i;
        }
        if (t->node[i].nports > pb->maxdeg)
            pb->maxdeg = t->node[i].nports;
    }
    int n = pb->nsw;
    if (n == 0)
        return ibn_err_set(e, "pathbits: the topology has no switch");
    pb->deg = xcalloc((size_t)n, sizeof *pb->deg);
    pb->adj = xcalloc((size_t)n * (size_t)pb->maxdeg, sizeof *pb->adj);
    pb->adjport = xcalloc((size_t)n * (size_t)pb->maxdeg, sizeof *pb->adjport);
    char *ok = xcalloc((size_t)n * (size_t)n, 1);
    for (int v = 0; v < n; v++) {
        const struct topo_node *tn = &t->node[pb->node[v]];
        for (int p = 1; p <= tn->nports; p++) {
            int q = tn->port[p].peer_node;
            if (q < 0 || pb->vert[q] < 0 || pb->vert[q] == v || nb_index(pb, v, pb->vert[q]) >= 0)
                continue; /* an adapter, a loop, or a parallel link (the lowest port is kept) */
            pb->adj[v * pb->maxdeg + pb->deg[v]] = pb->vert[q];
            pb->adjport[v * pb->maxdeg + pb->deg[v]++] = p;
            ok[(size_t)v * n + pb->vert[q]] = 1;
        }
    }
    /* The root: named, or the switch of highest degree. */
    pb->root = 0;
    if (root && *root) {
        int r = topo_find(t, root);
        if (r < 0 || pb->vert[r] < 0) {
            free(ok);
            return ibn_err_set(e, "pathbits: root \"%s\" is not a switch of the topology", root);
        }
        pb->root = pb->vert[r];
    } else {
        for (int v = 1; v < n; v++)
            if (pb->deg[v] > pb->deg[pb->root])
                pb->root = v;
    }
    /* Algorithm 1: a breadth-first tree; the non-tree edges, oriented as first scanned. */
    uint16_t *dtmp = xmalloc((size_t)n * sizeof *dtmp);
    int *par = xmalloc((size_t)n * sizeof *par), *queue = xmalloc((size_t)n * sizeof *queue);
    bfs(pb, ok, pb->root, -1, -1, dtmp, par, queue);
    for (int v = 0; v < n; v++)
        if (dtmp[v] == 0xffff) {
            free(ok), free(dtmp), free(par), free(queue);
            return ibn_err_set(e, "pathbits: switch %s is not connected to %s",
                               t->node[pb->node[v]].name, t->node[pb->node[pb->root]].name);
        }
    int *back = xmalloc((size_t)n * (size_t)pb->maxdeg * 2 * sizeof *back);
    char *seen = xcalloc((size_t)n * (size_t)n, 1);
    int nback = 0;
    for (int i = 0; i < n; i++) {
        int v = queue[i];
        for (int k = 0; k < pb->deg[v]; k++) {
            int w = pb->adj[v * pb->maxdeg + k];
            pb->nedges += v < w;
            if (par[w] == v || par[v] == w || seen[(size_t)v * n + w])
                continue;
            seen[(size_t)v * n + w] = seen[(size_t)w * n + v] = 1;
            back[2 * nback] = v;
            back[2 * nback + 1] = w;
            nback++;
        }
    }
    free(seen);
    pb->nback_all = nback;
    /* The LMC-limited form: the later non-tree edges are left out. */
    pb->ncycles = max_bits > 0 && max_bits < nback ? max_bits : nback;
    for (int i = pb->ncycles; i < nback; i++) {
        int v = back[2 * i], w = back[2 * i + 1];
        ok[(size_t)v * n + w] = ok[(size_t)w * n + v] = 0;
    }
    if (pb->ncycles > PB_MAX_CYCLES) {
        free(ok), free(dtmp), free(par), free(queue), free(back);
        return ibn_err_set(e, "pathbits: %d switches and %d links make %d independent cycles, so "
                           "%d path bits; at most %d are handled (path_bits=K keeps the first K)",
                           n, pb->nedges, nback, nback, PB_MAX_CYCLES);
    }
    pb->dist = xmalloc((size_t)n * (size_t)n * sizeof *pb->dist);
    for (int v = 0; v < n; v++)
        bfs(pb, ok, v, -1, -1, pb->dist + (size_t)v * n, NULL, queue);
    /* Algorithm 2: C_i = (v_i, w_i) then the shortest way from w_i back to v_i without it. */
    pb->cyc_len = xcalloc((size_t)pb->ncycles + 1, sizeof *pb->cyc_len);
    pb->cyc = xcalloc((size_t)pb->ncycles + 1, sizeof *pb->cyc);
    pb->on = xcalloc((size_t)n, sizeof *pb->on);
    pb->nloc = xcalloc((size_t)n, sizeof *pb->nloc);
    pb->el_plus = xcalloc((size_t)n * (size_t)pb->maxdeg, sizeof *pb->el_plus);
    pb->el_minus = xcalloc((size_t)n * (size_t)pb->maxdeg, sizeof *pb->el_minus);
    for (int c = 0; c < pb->ncycles; c++) {
        int v = back[2 * c], w = back[2 * c + 1];
        bfs(pb, ok, w, v, w, dtmp, par, queue);
        int len = dtmp[v] + 1;
        pb->cyc_len[c] = len;
        pb->cyc[c] = xmalloc(((size_t)len + 1) * sizeof **pb->cyc);
        pb->cyc[c][0] = v;
        /* w ... v: walk the parents back from v, filling from the end. */
        for (int x = v, i = len; x >= 0; x = par[x], i--)
            pb->cyc[c][i] = x;
        for (int i = 0; i < len; i++) {
            int a = pb->cyc[c][i], b = pb->cyc[c][i + 1];
            pb->on[a] |= 1ULL << c;
            pb->el_plus[a * pb->maxdeg + nb_index(pb, a, b)] |= 1ULL << c;
            pb->el_minus[b * pb->maxdeg + nb_index(pb, b, a)] |= 1ULL << c;
        }
    }
    free(back), free(dtmp), free(par), free(queue);
    for (int v = 0; v < n; v++) {
        pb->nloc[v] = __builtin_popcountll(pb->on[v]);
        if (pb->nloc[v] > PB_MAX_LOCAL) {
            free(ok);
            return ibn_err_set(e, "pathbits: switch %s lies on %d of the %d cycles: its table "
                               "would need 2^%d entries per destination (at most 2^%d)",
                               t->node[pb->node[v]].name, pb->nloc[v], pb->ncycles, pb->nloc[v],
                               PB_MAX_LOCAL);
        }
    }
    /* The tables: entries from the simple paths, shorter remaining paths first. */
    pb->tab = xcalloc((size_t)n, sizeof *pb->tab);
    pb->tab_spf = xcalloc((size_t)n, sizeof *pb->tab_spf);
    for (int v = 0; v < n; v++) {
        size_t sz = (size_t)n << pb->nloc[v];
        pb->tab[v] = xmalloc(sz);
        memset(pb->tab[v], -2, sz);
        pb->tab_spf[v] = xcalloc(sz, 1);
    }
    struct enumer en = { pb, ok, slack, xmalloc((size_t)n * sizeof(int)), xcalloc((size_t)n, 1),
                         NULL, 0, 0 };
    for (int u = 0; u < n; u++) {
        int ecc = 0;
        for (int d = 0; d < n; d++)
            if (pb->dist[(size_t)u * n + d] > ecc)
                ecc = pb->dist[(size_t)u * n + d];
        en.path[0] = u;
        en.seen[u] = 1;
        extend(&en, 1, slack < 0 ? n : ecc + slack);
        en.seen[u] = 0;
    }
    qsort(en.ins, (size_t)en.nins, sizeof *en.ins, cmp_install);
    for (long i = 0; i < en.nins; i++) {
        const struct install *x = &en.ins[i];
        uint64_t on = pb->on[x->v];
        uint32_t qv = project(pb, x->v, x->val), qc = project(pb, x->v, x->care);
        (void)on;
        for (uint32_t q = 0; q < 1u << pb->nloc[x->v]; q++) {
            size_t at = ((size_t)x->d << pb->nloc[x->v]) | q;
            if ((q & qc) == (qv & qc) && pb->tab[x->v][at] == -2)
                pb->tab[x->v][at] = (int8_t)x->k;
        }
    }
    free(en.ins), free(en.path), free(en.seen);
    for (int v = 0; v < n; v++)
        for (int d = 0; d < n; d++)
            for (uint32_t q = 0; q < 1u << pb->nloc[v]; q++) {
                size_t at = ((size_t)d << pb->nloc[v]) | q;
                if (v == d) {
                    pb->tab[v][at] = -1;
                } else if (pb->tab[v][at] == -2) {
                    pb->tab[v][at] = (int8_t)spf_k(pb, ok, v, d);
                    pb->tab_spf[v][at] = 1;
                    pb->unset++;
                }
            }
    verify(pb, ok);
    free(ok);
    return 0;
}

void pathbits_free(struct pathbits *pb)
{
    for (int c = 0; c < pb->ncycles && pb->cyc; c++)
        free(pb->cyc[c]);
    for (int v = 0; v < pb->nsw && pb->tab; v++) {
        free(pb->tab[v]);
        free(pb->tab_spf[v]);
    }
    free(pb->tab), free(pb->tab_spf), free(pb->cyc), free(pb->cyc_len), free(pb->on);
    free(pb->nloc), free(pb->el_plus), free(pb->el_minus), free(pb->dist), free(pb->deg);
    free(pb->adj), free(pb->adjport), free(pb->vert), free(pb->node);
    memset(pb, 0, sizeof *pb);
}

/* The engine: the tables as LFTs, DLID = base LID + the full path-bit pattern. */
int route_pathbits(const struct topo *t, const struct route_opts *o, struct lfts *out,
                   struct ibn_err *e)
{
    struct pathbits pb;
    int maxb = o->max_path_bits > 0 ? o->max_path_bits : PB_LMC_MAX;
    if (o->path_bits > maxb)
        return ibn_err_set(e, "pathbits: path_bits=%d, but %s holds at most %d path bits",
                           o->path_bits, maxb == PB_LMC_MAX ? "IBA's LMC" : "ibnetsim", maxb);
    if (pathbits_build(t, o->roots, o->path_bits, o->path_slack ? o->path_slack : PB_SLACK_DEFAULT,
                       &pb, e))
        return -1;
    int C = pb.ncycles;
    if (C > maxb) {
        ibn_err_set(e, "pathbits: %d switches and %d links make %d independent cycles (%d - %d + "
                    "1), so %d path bits; %s holds at most %d (path_bits=%d keeps the "
                    "first %d cycles: the LMC-limited form)", pb.nsw, pb.nedges, C, pb.nedges,
                    pb.nsw, C, maxb == PB_LMC_MAX ? "IBA's LMC" : "ibnetsim", maxb, maxb, maxb);
        pathbits_free(&pb);
        return -1;
    }
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *ca = &t->node[i];
        if (ca->type != TOPO_CA)
            continue;
        for (int p = 1; p <= ca->nports; p++) {
            const struct topo_port *x = &ca->port[p];
            if (x->peer_node < 0 || !x->lid)
                continue;
            if (x->lmc < C) {
                ibn_err_set(e, "pathbits: %d path bits need LMC %d, but adapter %s port %d has "
                            "LMC %d (topology.lmc)", C, C, ca->name, p, x->lmc);
                pathbits_free(&pb);
                return -1;
            }
            int dsw = x->peer_node, d = pb.vert[dsw];
            if (d < 0)
                continue; /* adapter to adapter */
            for (int v = 0; v < pb.nsw; v++)
                for (int off = 0; off < 1 << x->lmc; off++) {
                    int lid = x->lid + off, port;
                    if (lid > out->max_lid)
                        continue;
                    if (v == d) {
                        port = x->peer_port;
                    } else {
                        int w = pathbits_next(&pb, v, d, (uint64_t)(off & ((1 << C) - 1)));
                        port = pb.adjport[v * pb.maxdeg + nb_index(&pb, v, w)];
                    }
                    out->table[pb.node[v]][lid] = (uint8_t)port;
                }
        }
    }
    out->pb_local = xcalloc((size_t)t->nnodes, sizeof *out->pb_local);
    for (int v = 0; v < pb.nsw; v++)
        out->pb_local[pb.node[v]] = (uint16_t)pb.on[v];
    /* Switch LIDs (management): the shortest-path port, pattern 0. */
    for (int s = 0; s < pb.nsw; s++) {
        int lid = t->node[pb.node[s]].port[0].lid;
        if (!lid || lid > out->max_lid)
            continue;
        for (int v = 0; v < pb.nsw; v++) {
            int w = pathbits_next(&pb, v, s, 0);
            out->table[pb.node[v]][lid] =
                (uint8_t)(w < 0 ? 0 : pb.adjport[v * pb.maxdeg + nb_index(&pb, v, w)]);
        }
    }
    snprintf(out->note, sizeof out->note,
             "pathbits: root %s, %d cycles (%d path bits, %d of the graph's), %ld simple paths "
             "(%ld undefined), %ld entries from the shortest path, %ld conflicts resolved, %ld "
             "walks verified", t->node[pb.node[pb.root]].name, C, C, pb.nback_all, pb.npaths,
             pb.undefined, pb.unset, pb.conflicts, pb.walks);
    pathbits_free(&pb);
    return 0;
}

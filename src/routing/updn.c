/* updn.c: up*-down* routing.
 *  - updn: OpenSM's updn engine. Roots: given (roots=names or GUIDs), "best3" (seed 004: each of
 *    the three most central switches alone, keeping the one whose routes are shortest on
 *    average), or found as OpenSM finds
 *    them: a switch is a root when, in its histogram of min-hop distances to the CAs, one bar
 *    holds more than 90 % of the CAs and no other bar more than 5 %. Ranks are BFS distances
 *    from the roots; a link goes up towards the lower rank (equal ranks: towards the smaller
 *    GUID; between two roots always up). Per destination switch a breadth-first search from the
 *    destination marks, for every switch port, the hop count of the shortest legal (never down
 *    then up) path through it, with OpenSM's bookkeeping (a switch's direction is the one it was
 *    queued with; it may be queued again after it was expanded). The ports are then chosen as
 *    minhop chooses them (lft_build.h). Without roots OpenSM falls back to minhop; so does this.
 *  - dnup: OpenSM's dnup, updn's mirror for fat trees: the leaf switches (those with a CA)
 *    are rank 0, ranks grow away from them; a link between equal ranks is neither up nor down;
 *    the search from each destination never takes an up step after a down one (seen from the
 *    source: never down, away from the leaves, after up). No roots needed.
 *  - updn_tree: seed 004's Up/Down: only the links of a breadth-first spanning tree from one
 *    root are used (up to the lowest common ancestor, then down). The root: given, or the best
 *    of three candidates (the three switches with the least total distance to the others), best
 *    meaning the least average CA-to-CA hop count. */
#include "routing/route.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/lft_build.h"
#include "topology/topo_addr.h"

enum { DIR_UP = 0, DIR_DOWN = 1, DIR_EQUAL = 2 };

/* updn: ranks grow away from the roots; equal ranks are ordered by GUID. */
static int get_dir(unsigned cur_rank, unsigned rem_rank, uint64_t cur_id, uint64_t rem_id)
{
    if (!cur_rank && !rem_rank)
        return DIR_UP;
    if (cur_rank < rem_rank)
        return DIR_DOWN;
    if (cur_rank > rem_rank)
        return DIR_UP;
    return cur_id > rem_id ? DIR_UP : DIR_DOWN;
}

/* dnup: ranks grow away from the leaf switches; equal ranks are neither up nor down. */
static int get_dir_dnup(unsigned cur_rank, unsigned rem_rank)
{
    if (cur_rank < rem_rank)
        return DIR_DOWN;
    if (cur_rank > rem_rank)
        return DIR_UP;
    return DIR_EQUAL;
}

static int cas_on(const struct topo *t, int node)
{
    int c = 0;
    for (int p = 1; p <= t->node[node].nports; p++) {
        int q = t->node[node].port[p].peer_node;
        c += q >= 0 && t->node[q].type == TOPO_CA;
    }
    return c;
}

static double avg_hops(const struct hoptab *h, const int *cas);
static int central3(const struct topo *t, const struct hoptab *h, int *cand);

/* OpenSM's automatic root choice; marks root[s] = 1. Returns the number of roots. */
static int find_roots_by_min_hop(const struct topo *t, const struct hoptab *h, const uint16_t *d,
                                 char *root)
{
    int n = h->nsw, cas_num = 0, nroots = 0;
    int *cas = xmalloc((size_t)n * sizeof *cas + 1);
    for (int i = 0; i < n; i++) {
        cas[i] = cas_on(t, h->sw[i]);
        cas_num += cas[i];
    }
    double thd1 = cas_num * 0.9, thd2 = cas_num * 0.05;
    unsigned hist[256];
    for (int s = 0; s < n; s++) {
        memset(hist, 0, sizeof hist);
        for (int T = 0; T < n; T++)
            if (cas[T] && d[(size_t)s * n + T] < 64)
                hist[d[(size_t)s * n + T]] += (unsigned)cas[T];
        int over1 = 0, over2 = 0;
        for (int i = 0; i < 64; i++) {
            over1 += hist[i] > thd1;
            over2 += hist[i] > thd2;
        }
        root[s] = over1 == 1 && over2 == 1;
        nroots += root[s];
    }
    free(cas);
    return nroots;
}

static int resolve_roots(const struct topo *t, const struct hoptab *h, const char *text,
                         char *root, struct ibn_err *e)
{
    char *s = xstrdup(text), *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int node, port;
        struct ibn_err why = { { 0 } };
        if (topo_resolve(t, tok, &node, &port, &why))
            node = -1;
        if (node < 0 || h->swidx[node] < 0) {
            ibn_err_set(e, "root \"%s\" is not a switch of the topology (give switch names, "
                        "aliases, lid:N or node GUIDs such as 0x0008f10500200b50, separated by "
                        "commas)", tok);
            free(s);
            return -1;
        }
        root[h->swidx[node]] = 1;
        n++;
    }
    free(s);
    return n;
}

/* OpenSM's root_guid_file: one switch GUID (or any name topo_resolve takes) per line, '#'
 * comments; marks root[]. Returns the number of roots, or -1 with e set as FILE:LINE: what is
 * wrong (a line with a comma, a GUID of no switch) or FILE: it names no switch. */
static int read_root_file(const struct topo *t, const struct hoptab *h, FILE *f, const char *path,
                          char *root, struct ibn_err *e)
{
    char *line = NULL;
    size_t lcap = 0;
    int lineno = 0, n = 0;
    while (getline(&line, &lcap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *save = NULL;
        for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
            if (strchr(tok, ',')) {
                free(line);
                return ibn_err_at(e, path, lineno, "expected one switch GUID per line, as "
                                  "OpenSM's root_guid_file has (0x0008f10500200b50), got \"%s\"",
                                  tok);
            }
            if (resolve_roots(t, h, tok, root, e) < 0) {
                free(line);
                return ibn_err_prefix(e, "%s:%d: ", path, lineno);
            }
            n++;
        }
    }
    free(line);
    if (!n)
        return ibn_err_at(e, path, 0, "the root GUID file names no switch");
    return n;
}

/* roots = a file (OpenSM's root_guid_file) or a comma-separated list. */
static int parse_roots(const struct topo *t, const struct hoptab *h, const char *text, char *root,
                       struct ibn_err *e)
{
    FILE *rf = strchr(text, ',') ? NULL : fopen(text, "r");
    if (!rf)
        return resolve_roots(t, h, text, root, e);
    int n = read_root_file(t, h, rf, text, root, e);
    fclose(rf);
    return n;
}

/* The direction-restricted search of OpenSM's updn (dnup = 0: never down then up, seen from the
 * destination) or dnup (dnup = 1: never up then down, with dnup's directions), for every
 * destination switch. allowed (may be NULL) masks usable switch ports (indexed like a hoptab
 * row). */
static void updown_hops(const struct topo *t, struct hoptab *h, const unsigned *rank,
                        const char *allowed, int dnup)
{
    int n = h->nsw;
    char *dir = xcalloc((size_t)n + 1, 1), *visited = xcalloc((size_t)n + 1, 1);
    size_t qcap = (size_t)n * 4 + 16, head, tail;
    int *q = xmalloc(qcap * sizeof *q);
    for (int T = 0; T < n; T++) {
        uint8_t *base = h->h + (size_t)T * h->rowlen;
        base[h->off[T]] = 0;
        head = tail = 0;
        dir[T] = dnup ? DIR_DOWN : DIR_UP;
        q[tail++] = T;
        while (head < tail) {
            int u = q[head++];
            visited[u] = 0;
            int cur = dir[u];
            const struct topo_node *nu = &t->node[h->sw[u]];
            for (int p = 1; p <= nu->nports; p++) {
                int v = nu->port[p].peer_node;
                if (v < 0 || h->swidx[v] < 0 || v == h->sw[u]) /* loopback */
                    continue;
                if (allowed && !allowed[h->off[u] + p])
                    continue;
                int r = h->swidx[v], pr = nu->port[p].peer_port;
                int next = dnup ? get_dir_dnup(rank[u], rank[r])
                                : get_dir(rank[u], rank[r], nu->guid, t->node[v].guid);
                if (dnup ? cur == DIR_UP && next == DIR_DOWN : cur == DIR_DOWN && next == DIR_UP)
                    continue;
                uint8_t cmh = base[h->off[u]];
                uint8_t *rrow = base + h->off[r];
                if (cmh + 1 < rrow[pr]) {
                    rrow[pr] = (uint8_t)(cmh + 1);
                    if (rrow[0] > cmh + 1)
                        rrow[0] = (uint8_t)(cmh + 1);
                    if (!visited[r]) {
                        dir[r] = (char)next;
                        visited[r] = 1;
                        if (tail == qcap) {
                            /* Compact, then grow. */
                            memmove(q, q + head, (tail - head) * sizeof *q);
                            tail -= head;
                            head = 0;
                            if (tail == qcap) {
                                qcap *= 2;
                                q = xrealloc(q, qcap * sizeof *q);
                            }
                        }
                        q[tail++] = r;
                    }
                }
            }
        }
    }
    free(q);
    free(dir);
    free(visited);
}

static void rank_from_roots(const struct topo *t, const struct hoptab *h, const char *root,
                            unsigned *rank)
{
    int n = h->nsw, head = 0, tail = 0;
    int *q = xmalloc((size_t)n * sizeof *q + 1);
    for (int i = 0; i < n; i++) {
        rank[i] = root[i] ? 0 : 0xffffffffu;
        if (root[i])
            q[tail++] = i;
    }
    while (head < tail) {
        int u = q[head++];
        const struct topo_node *nu = &t->node[h->sw[u]];
        for (int p = 1; p <= nu->nports; p++) {
            int v = nu->port[p].peer_node;
            if (v < 0 || h->swidx[v] < 0)
                continue;
            int r = h->swidx[v];
            if (rank[r] > rank[u] + 1) {
                rank[r] = rank[u] + 1;
                q[tail++] = r;
            }
        }
    }
    free(q);
}

static void root_names(const struct topo *t, const struct hoptab *h, const char *root, char *buf,
                       size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    int shown = 0, total = 0;
    for (int i = 0; i < h->nsw; i++)
        if (root[i]) {
            total++;
            if (shown < 4 && k < len) {
                k += (size_t)snprintf(buf + k, len - k, "%s%s", shown ? ", " : "",
                                      t->node[h->sw[i]].name);
                shown++;
            }
        }
    if (total > shown && k < len)
        snprintf(buf + k, len - k, " and %d more", total - shown);
}

int updn_hoptab(const struct topo *t, const struct route_opts *o, struct hoptab *hp, char *note,
                size_t notelen, struct ibn_err *e)
{
    struct hoptab h;
    hoptab_init(&h, t);
    char *root = xcalloc((size_t)h.nsw + 1, 1);
    int nroots;
    if (o && o->roots && !strcmp(o->roots, "best3")) {
        /* Seed 004: try three roots, keep the one with the shortest routes on average. */
        int cand[3], nc = central3(t, &h, cand), bestc = -1;
        int *cas = xmalloc((size_t)h.nsw * sizeof *cas + 1);
        for (int i = 0; i < h.nsw; i++)
            cas[i] = cas_on(t, h.sw[i]);
        unsigned *rank = xmalloc((size_t)h.nsw * sizeof *rank + 1);
        double bestavg = 0;
        char tried[160] = "";
        size_t k = 0;
        for (int c = 0; c < nc; c++) {
            memset(root, 0, (size_t)h.nsw);
            root[cand[c]] = 1;
            memset(h.h, HOP_NONE, (size_t)h.nsw * (size_t)h.rowlen);
            rank_from_roots(t, &h, root, rank);
            updown_hops(t, &h, rank, NULL, 0);
            double avg = avg_hops(&h, cas);
            if (k < sizeof tried)
                k += (size_t)snprintf(tried + k, sizeof tried - k, "%s%s %.3f", c ? ", " : "",
                                      t->node[h.sw[cand[c]]].name, avg);
            if (avg >= 0 && (bestc < 0 || avg < bestavg)) {
                bestc = cand[c];
                bestavg = avg;
            }
        }
        memset(root, 0, (size_t)h.nsw);
        memset(h.h, HOP_NONE, (size_t)h.nsw * (size_t)h.rowlen);
        int rc = 0;
        if (bestc < 0) {
            rc = ibn_err_set(e, "updn: none of the roots tried (%s) gives every CA pair a path",
                             tried);
        } else {
            root[bestc] = 1;
            rank_from_roots(t, &h, root, rank);
            updown_hops(t, &h, rank, NULL, 0);
            snprintf(note, notelen, "updn: best of three roots: %s (average hops "
                     "by root: %s)", t->node[h.sw[bestc]].name, tried);
        }
        free(cas);
        free(rank);
        free(root);
        if (rc)
            hoptab_free(&h);
        *hp = h;
        return rc;
    }
    if (o && o->roots && strcmp(o->roots, "auto")) {
        nroots = parse_roots(t, &h, o->roots, root, e);
        if (nroots < 0) {
            free(root);
            hoptab_free(&h);
            *hp = h;
            return -1;
        }
    } else {
        uint16_t *d = hoptab_distances(t, &h);
        nroots = find_roots_by_min_hop(t, &h, d, root);
        free(d);
    }
    int unfit = 0;
    if (!nroots) {
        snprintf(note, notelen, "updn: no root switch found; fell back to "
                 "minhop, as OpenSM does");
        hoptab_minhop(&h, t);
        unfit = 1;
    } else {
        unsigned *rank = xmalloc((size_t)h.nsw * sizeof *rank + 1);
        rank_from_roots(t, &h, root, rank);
        updown_hops(t, &h, rank, NULL, 0);
        free(rank);
        char names[200];
        root_names(t, &h, root, names, sizeof names);
        snprintf(note, notelen, "updn: %d root%s: %s", nroots, nroots > 1 ? "s" : "",
                 names);
    }
    free(root);
    *hp = h;
    return unfit ? ROUTE_UNFIT : 0;
}

int route_updn(const struct topo *t, const struct route_opts *o, struct lfts *out,
               struct ibn_err *e)
{
    struct hoptab h;
    int rc = updn_hoptab(t, o, &h, out->note, sizeof out->note, e);
    if (rc < 0)
        return -1;
    if (rc == ROUTE_UNFIT) {
        /* OpenSM's updn fails without roots; route_compute passes to the next engine. */
        hoptab_free(&h);
        out->note[0] = 0;
        return ibn_err_set(e, "updn: no root switch found"), ROUTE_UNFIT;
    }
    rc = lft_build_opts(t, &h, LFT_TIE_BALANCE, o, out, e);
    hoptab_free(&h);
    return rc;
}

int dnup_hoptab(const struct topo *t, struct hoptab *hp, char *note, size_t notelen)
{
    struct hoptab h;
    hoptab_init(&h, t);
    char *leaf = xcalloc((size_t)h.nsw + 1, 1);
    int nleaf = 0;
    for (int i = 0; i < h.nsw; i++)
        nleaf += leaf[i] = cas_on(t, h.sw[i]) > 0;
    int rc = 0;
    if (!nleaf) {
        snprintf(note, notelen, "dnup: no leaf switch (a switch with a CA cabled to it)");
        rc = ROUTE_UNFIT;
    } else {
        unsigned *rank = xmalloc((size_t)h.nsw * sizeof *rank + 1);
        rank_from_roots(t, &h, leaf, rank);
        updown_hops(t, &h, rank, NULL, 1);
        unsigned maxr = 0;
        for (int i = 0; i < h.nsw; i++)
            if (rank[i] != 0xffffffffu && rank[i] > maxr)
                maxr = rank[i];
        snprintf(note, notelen, "dnup: %d leaf switch%s at rank 0, highest rank %u", nleaf,
                 nleaf > 1 ? "es" : "", maxr);
        free(rank);
    }
    free(leaf);
    *hp = h;
    return rc;
}

int route_dnup(const struct topo *t, const struct route_opts *o, struct lfts *out,
               struct ibn_err *e)
{
    struct hoptab h;
    int rc = dnup_hoptab(t, &h, out->note, sizeof out->note);
    if (rc == ROUTE_UNFIT) {
        /* OpenSM's dnup fails (ERR AE0D); route_compute passes to the next engine. */
        hoptab_free(&h);
        out->note[0] = 0;
        return ibn_err_set(e, "dnup: no leaf switch (no switch has a CA cabled to it)"),
               ROUTE_UNFIT;
    }
    rc = lft_build_opts(t, &h, LFT_TIE_BALANCE, o, out, e);
    hoptab_free(&h);
    return rc;
}

/* CA-weighted average of the switches' least hop counts in h (the hop count of the routes the
 * tables will take), or -1 when some CA pair has no path. */
static double avg_hops(const struct hoptab *h, const int *cas)
{
    double sum = 0, pairs = 0;
    for (int a = 0; a < h->nsw; a++)
        for (int b = 0; b < h->nsw; b++) {
            if (!cas[a] || !cas[b])
                continue;
            uint8_t hop = hoptab_row(h, b, a)[0];
            if (hop == HOP_NONE)
                return -1;
            double w = (double)cas[a] * (a == b ? cas[a] - 1 : cas[b]);
            sum += w * hop;
            pairs += w;
        }
    return pairs > 0 ? sum / pairs : 0;
}

/* The three switches with the least total distance to the others (ties: lower index). */
static int central3(const struct topo *t, const struct hoptab *h, int *cand)
{
    int n = h->nsw;
    uint16_t *d = hoptab_distances(t, h);
    long best[3] = { -1, -1, -1 };
    for (int s = 0; s < n; s++) {
        long sum = 0;
        for (int x = 0; x < n; x++)
            sum += d[(size_t)s * n + x];
        for (int k = 0; k < 3; k++)
            if (best[k] < 0 || sum < best[k]) {
                for (int j = 2; j > k; j--) {
                    best[j] = best[j - 1];
                    cand[j] = cand[j - 1];
                }
                best[k] = sum;
                cand[k] = s;
                break;
            }
    }
    free(d);
    return n < 3 ? n : 3;
}

/* Tree-only hop table from one root; returns the CA-weighted average hop count, or -1 when
 * some CA pair has no path. */
static double tree_hops(const struct topo *t, struct hoptab *h, int rootsw, const int *cas)
{
    int n = h->nsw;
    memset(h->h, HOP_NONE, (size_t)n * (size_t)h->rowlen);
    char *allowed = xcalloc((size_t)h->rowlen + 1, 1);
    int *q = xmalloc((size_t)n * sizeof *q + 1), head = 0, tail = 0;
    char *seen = xcalloc((size_t)n + 1, 1);
    char *root = xcalloc((size_t)n + 1, 1);
    unsigned *rank = xmalloc((size_t)n * sizeof *rank + 1);
    seen[rootsw] = 1;
    q[tail++] = rootsw;
    while (head < tail) {
        int u = q[head++];
        const struct topo_node *nu = &t->node[h->sw[u]];
        for (int p = 1; p <= nu->nports; p++) {
            int v = nu->port[p].peer_node;
            if (v < 0 || h->swidx[v] < 0 || seen[h->swidx[v]])
                continue;
            int r = h->swidx[v];
            seen[r] = 1;
            allowed[h->off[u] + p] = 1;
            allowed[h->off[r] + nu->port[p].peer_port] = 1;
            q[tail++] = r;
        }
    }
    root[rootsw] = 1;
    rank_from_roots(t, h, root, rank);
    updown_hops(t, h, rank, allowed, 0);
    free(allowed);
    free(q);
    free(seen);
    free(root);
    free(rank);
    return avg_hops(h, cas);
}

int route_updn_tree(const struct topo *t, const struct route_opts *o, struct lfts *out,
                    struct ibn_err *e)
{
    struct hoptab h;
    hoptab_init(&h, t);
    int n = h.nsw;
    int *cand = xmalloc(3 * sizeof *cand), nc = 0;
    char *root = xcalloc((size_t)n + 1, 1);
    if (o && o->roots && strcmp(o->roots, "best3")) {
        if (parse_roots(t, &h, o->roots, root, e) < 0) {
            free(cand);
            free(root);
            hoptab_free(&h);
            return -1;
        }
        cand = xrealloc(cand, ((size_t)n + 1) * sizeof *cand);
        for (int i = 0; i < n; i++)
            if (root[i])
                cand[nc++] = i;
    } else {
        nc = central3(t, &h, cand);
    }
    int *cas = xmalloc((size_t)n * sizeof *cas + 1);
    for (int i = 0; i < n; i++)
        cas[i] = cas_on(t, h.sw[i]);
    int bestc = -1;
    double bestavg = 0;
    char tried[200] = "";
    size_t k = 0;
    for (int c = 0; c < nc; c++) {
        double avg = tree_hops(t, &h, cand[c], cas);
        if (k < sizeof tried)
            k += (size_t)snprintf(tried + k, sizeof tried - k, "%s%s %.3f", c ? ", " : "",
                                  t->node[h.sw[cand[c]]].name, avg);
        if (avg >= 0 && (bestc < 0 || avg < bestavg)) {
            bestc = cand[c];
            bestavg = avg;
        }
    }
    int rc = 0;
    if (bestc < 0) {
        rc = ibn_err_set(e, "updn_tree: no root gives every CA pair a path");
    } else {
        tree_hops(t, &h, bestc, cas);
        lft_build(t, &h, LFT_TIE_BALANCE, NULL, 0, 0, NULL, out);
        snprintf(out->note, sizeof out->note, "updn_tree: root %s (average hops by root: %s)",
                 t->node[h.sw[bestc]].name, tried);
    }
    free(cas);
    free(cand);
    free(root);
    hoptab_free(&h);
    return rc;
}

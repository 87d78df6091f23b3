/* gen_irregular.c: random irregular networks, seeded.
 *  - Seed 001: N switches of 8 ports, 4 to hosts and 4 to other switches, randomly connected
 *    into one connected network without self-loops or parallel links (a random 4-regular
 *    graph): irregular switches=16 (ports=8 hosts=4; links defaults to every free port used).
 *  - Seed 004: N switches of 5 ports, one HCA each, a given number of inter-switch links
 *    (15 switches, 23 links = 9 independent cycles), "2-D/planar-like": irregular switches=15
 *    ports=5 hosts=1 links=23 planar=1 places the switches on a jittered grid and links near
 *    neighbours.
 * Construction: a random spanning tree (each switch, in random order, links to a random
 * already-placed switch with a free port; with planar=1 to the nearest such), then random extra
 * links between switches with free ports that are not yet linked (planar=1: the shortest such
 * links, ties at random) until `links` links exist. A dead end (free ports left only on switches
 * already linked to each other) restarts with the next random draws, up to 1000 times.
 * Hosts H1..HN occupy ports 1..hosts of S1..SN in order; inter-switch links use the next ports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "topology/generate.h"

struct cand {
    int a, b;
    double key;
};

static int cmp_cand(const void *x, const void *y)
{
    const struct cand *p = x, *q = y;
    return (p->key > q->key) - (p->key < q->key);
}

/* One attempt; fills edges (pairs) and returns 0, or -1 on a dead end. */
static int attempt(int n, int deg, int links, int planar, gsl_rng *r, const double *px,
                   const double *py, int *ea, int *eb)
{
    int *free_ = xmalloc((size_t)n * sizeof *free_), *order = xmalloc((size_t)n * sizeof *order);
    char *adj = xcalloc((size_t)n * (size_t)n, 1);
    for (int i = 0; i < n; i++) {
        free_[i] = deg;
        order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gsl_rng_uniform_int(r, (unsigned long)i + 1);
        int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    int ne = 0, rc = 0;
    for (int i = 1; i < n && !rc; i++) {
        int u = order[i], best = -1, cnt = 0;
        double bd = 0;
        for (int j = 0; j < i; j++) {
            int v = order[j];
            if (!free_[v])
                continue;
            if (planar) {
                double d = hypot(px[u] - px[v], py[u] - py[v]);
                if (best < 0 || d < bd) {
                    best = v;
                    bd = d;
                }
            } else if (gsl_rng_uniform_int(r, (unsigned long)++cnt) == 0) {
                best = v;
            }
        }
        if (best < 0) {
            rc = -1;
            break;
        }
        ea[ne] = u;
        eb[ne++] = best;
        free_[u]--;
        free_[best]--;
        adj[(size_t)u * n + best] = adj[(size_t)best * n + u] = 1;
    }
    struct cand *c = xmalloc((size_t)n * (size_t)n / 2 * sizeof *c + sizeof *c);
    while (!rc && ne < links) {
        int nc = 0;
        for (int u = 0; u < n; u++)
            for (int v = u + 1; v < n; v++)
                if (free_[u] && free_[v] && !adj[(size_t)u * n + v]) {
                    c[nc].a = u;
                    c[nc].b = v;
                    c[nc].key = planar ? hypot(px[u] - px[v], py[u] - py[v]) + 1e-6 * gsl_rng_uniform(r)
                                       : gsl_rng_uniform(r);
                    nc++;
                }
        if (!nc) {
            rc = -1;
            break;
        }
        /* Planar: the shortest candidate; random: a uniformly random one. */
        int pick = 0;
        for (int i = 1; i < nc; i++)
            if (c[i].key < c[pick].key)
                pick = i;
        int u = c[pick].a, v = c[pick].b;
        ea[ne] = u;
        eb[ne++] = v;
        free_[u]--;
        free_[v]--;
        adj[(size_t)u * n + v] = adj[(size_t)v * n + u] = 1;
    }
    free(c);
    free(free_);
    free(order);
    free(adj);
    return rc;
}

int gen_irregular(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int n, ports, hosts, links, planar, w;
    enum ib_speed sp;
    double rate;
    simtime_t delay;
    if (gen_arg_int(a, "switches", 16, 2, 4096, &n, e) ||
        gen_arg_int(a, "ports", 8, 2, 254, &ports, e) ||
        gen_arg_int(a, "hosts", 4, 0, 253, &hosts, e) ||
        gen_arg_int(a, "planar", 0, 0, 1, &planar, e))
        return -1;
    int deg = ports - hosts;
    if (deg < 1)
        return ibn_err_set(e, "generator irregular: ports (%d) must exceed hosts (%d) so that "
                           "switches can link to each other", ports, hosts);
    int maxlinks = n * deg / 2;
    if (maxlinks > n * (n - 1) / 2)
        maxlinks = n * (n - 1) / 2;
    if (gen_arg_int(a, "links", maxlinks, n - 1, maxlinks, &links, e) ||
        gen_arg_link(a, "link", "4xQDR", &w, &sp, &rate, e) ||
        gen_arg_time(a, "delay", "10 ns", &delay, e))
        return -1;
    if (deg == 1 && n > 2)
        return ibn_err_set(e, "generator irregular: with one inter-switch port per switch, "
                           "more than 2 switches cannot be connected");
    gsl_rng *r = rng_stream(seed, "topology/irregular");
    double *px = xmalloc((size_t)n * sizeof *px), *py = xmalloc((size_t)n * sizeof *py);
    int cols = (int)ceil(sqrt((double)n));
    for (int i = 0; i < n; i++) {
        px[i] = i % cols + 0.35 * (gsl_rng_uniform(r) - 0.5);
        py[i] = i / cols + 0.35 * (gsl_rng_uniform(r) - 0.5);
    }
    int *ea = xmalloc((size_t)links * sizeof *ea + sizeof *ea),
        *eb = xmalloc((size_t)links * sizeof *eb + sizeof *eb);
    int ok = -1, tries;
    for (tries = 0; tries < 1000 && ok; tries++)
        ok = attempt(n, deg, links, planar, r, px, py, ea, eb);
    gsl_rng_free(r);
    free(px);
    free(py);
    if (ok) {
        free(ea);
        free(eb);
        return ibn_err_set(e, "generator irregular: no connected network of %d switches with %d "
                           "links and at most %d inter-switch ports each was found in 1000 tries",
                           n, links, deg);
    }
    char name[32];
    int base = t->nnodes;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "S%d", i + 1);
        topo_add_node(t, TOPO_SWITCH, name, ports);
    }
    int h = 1, rc = 0;
    for (int i = 0; i < n && !rc; i++)
        for (int j = 0; j < hosts && !rc; j++) {
            snprintf(name, sizeof name, "H%d", h++);
            int c = topo_add_node(t, TOPO_CA, name, 1);
            rc = topo_connect(t, base + i, j + 1, c, 1, w, sp, rate, delay, e);
        }
    int *next = xmalloc((size_t)n * sizeof *next);
    for (int i = 0; i < n; i++)
        next[i] = hosts + 1;
    /* Link in a canonical order (by switch pair) so port numbers do not depend on the order
     * edges were drawn in beyond the draw itself. */
    struct cand *c = xmalloc((size_t)links * sizeof *c + sizeof *c);
    for (int i = 0; i < links; i++) {
        c[i].a = ea[i] < eb[i] ? ea[i] : eb[i];
        c[i].b = ea[i] < eb[i] ? eb[i] : ea[i];
        c[i].key = (double)c[i].a * n + c[i].b;
    }
    qsort(c, (size_t)links, sizeof *c, cmp_cand);
    for (int i = 0; i < links && !rc; i++) {
        int u = c[i].a, v = c[i].b;
        rc = topo_connect(t, base + u, next[u]++, base + v, next[v]++, w, sp, rate, delay, e);
    }
    free(c);
    free(next);
    free(ea);
    free(eb);
    return rc;
}

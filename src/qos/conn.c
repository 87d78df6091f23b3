/* conn.c: the connection request process (fill and dynamic) against admission control. */
#include "qos/conn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "core/error.h"

void conn_table2(struct conn_gen *g, struct cac_cfg *c)
{
    static const uint8_t dist[10] = { 2, 4, 8, 16, 32, 32, 64, 64, 64, 64 };
    static const double lo[10] = { 0.064, 0.064, 0.064, 0.064, 0.064, 1.55, 0.008, 0.064, 1.55, 64 };
    static const double hi[10] = { 1.55, 1.55, 1.55, 1.55, 1.55, 64, 0.064, 1.55, 64, 255 };
    memset(g->sl, 0, sizeof g->sl);
    for (int s = 0; s < 16; s++) {
        c->sl2vl[s] = (uint8_t)(s < 15 ? s : 14);
        c->sl_qos[s] = s < 10;
        c->sl_dist[s] = s < 10 ? dist[s] : 0;
        c->sl_share[s] = s < 10 ? 0.1 : 0;
        if (s < 10) {
            g->sl[s].weight = 1;
            g->sl[s].bw_lo = lo[s] * 1e6;
            g->sl[s].bw_hi = hi[s] * 1e6;
        }
    }
}

static int push(struct conn_set *s, const struct conn_entry *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->c = xrealloc(s->c, (size_t)s->cap * sizeof *s->c);
    }
    s->c[s->n++] = *x;
    return s->n - 1;
}

void conn_set_free(struct conn_set *s)
{
    free(s->c);
    memset(s, 0, sizeof *s);
}

/* Departure heap of (end time, index into the set). */
struct dep {
    simtime_t t;
    int i;
};

static void heap_push(struct dep *h, int *n, struct dep x)
{
    int k = (*n)++;
    while (k > 0 && h[(k - 1) / 2].t > x.t) {
        h[k] = h[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    h[k] = x;
}

static struct dep heap_pop(struct dep *h, int *n)
{
    struct dep top = h[0], last = h[--(*n)];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1].t < h[c].t)
            c++;
        if (h[c].t >= last.t)
            break;
        h[k] = h[c];
        k = c;
    }
    if (*n)
        h[k] = last;
    return top;
}

int conn_run(struct cac *a, const struct conn_gen *g, struct conn_set *out, struct ibn_err *e)
{
    memset(out, 0, sizeof *out);
    const struct topo *t = a->t;
    int *ca = xcalloc((size_t)t->nnodes, sizeof *ca), nca = 0;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n].type == TOPO_CA)
            ca[nca++] = n;
    double wsum = 0;
    for (int s = 0; s < 16; s++)
        if (g->sl[s].weight > 0)
            wsum += g->sl[s].weight;
    if (nca < 2 || !(wsum > 0)) {
        free(ca);
        return ibn_err_set(e, "connections: need at least two adapters and one SL with weight > 0");
    }
    if (g->mode == CONN_FILL && g->stop_fails <= 0 && g->max_requests <= 0) {
        free(ca);
        return ibn_err_set(e, "connections: fill needs stop_fails > 0 or max_requests > 0");
    }
    if (g->mode == CONN_DYNAMIC && (!(g->rate > 0) || !(g->hold > 0) ||
                                    (g->max_requests <= 0 && !(g->keep_all && g->horizon > 0)))) {
        free(ca);
        return ibn_err_set(e, "connections: dynamic needs rate > 0, hold > 0 and max_requests > 0");
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)(g->seed ? g->seed : 1));
    struct dep *heap = NULL;
    int nheap = 0, heapcap = 0;
    int *slot = NULL; /* dynamic: set index -> live */
    long long fails = 0;
    simtime_t now = 0;
    for (long long k = 0; g->max_requests <= 0 || k < g->max_requests; k++) {
        if (g->mode == CONN_FILL && g->stop_fails > 0 && fails >= g->stop_fails)
            break;
        if (g->mode == CONN_DYNAMIC) {
            now += (simtime_t)(gsl_ran_exponential(r, 1.0 / g->rate) * 1e12);
            if (g->horizon > 0 && now >= g->horizon)
                break;
            while (nheap && heap[0].t <= now) {
                struct dep d = heap_pop(heap, &nheap);
                cac_release(a, &out->c[d.i].conn);
                slot[d.i] = 0;
                if (g->on_change)
                    g->on_change(g->ctx, a, &out->c[d.i].conn, d.t);
            }
        }
        struct conn_entry x;
        memset(&x, 0, sizeof x);
        x.req.src = ca[gsl_rng_uniform_int(r, (unsigned long)nca)];
        do
            x.req.dst = ca[gsl_rng_uniform_int(r, (unsigned long)nca)];
        while (x.req.dst == x.req.src);
        double u = gsl_rng_uniform(r) * wsum;
        int sl = 0;
        for (int s = 0; s < 16; s++)
            if (g->sl[s].weight > 0) {
                sl = s;
                if (u < g->sl[s].weight)
                    break;
                u -= g->sl[s].weight;
            }
        x.req.sl = sl;
        x.req.bw = g->sl[sl].bw_lo + gsl_rng_uniform(r) * (g->sl[sl].bw_hi - g->sl[sl].bw_lo);
        x.req.deadline = g->deadline;
        int hop_at;
        simtime_t lat;
        if (cac_admit(a, &x.req, &x.conn, &hop_at, &lat) != CAC_OK) {
            fails++;
            continue;
        }
        fails = 0;
        x.start = now;
        x.end = SIMTIME_NEVER;
        int i = push(out, &x);
        if (g->on_change)
            g->on_change(g->ctx, a, &out->c[i].conn, now);
        if (g->mode == CONN_DYNAMIC) {
            out->c[i].end = now + (simtime_t)(gsl_ran_exponential(r, g->hold) * 1e12);
            if (nheap == heapcap) {
                heapcap = heapcap ? 2 * heapcap : 1024;
                heap = xrealloc(heap, (size_t)heapcap * sizeof *heap);
            }
            heap_push(heap, &nheap, (struct dep){ out->c[i].end, i });
            if (out->n > 0) {
                slot = xrealloc(slot, (size_t)out->cap * sizeof *slot);
                slot[i] = 1;
            }
        }
    }
    if (g->mode == CONN_DYNAMIC && g->keep_all && g->horizon > 0) {
        /* Teardowns before the horizon; the rest live to the end. */
        while (nheap && heap[0].t < g->horizon) {
            struct dep d = heap_pop(heap, &nheap);
            cac_release(a, &out->c[d.i].conn);
            if (g->on_change)
                g->on_change(g->ctx, a, &out->c[d.i].conn, d.t);
        }
        for (int i = 0; i < nheap; i++)
            out->c[heap[i].i].end = SIMTIME_NEVER;
    } else if (g->mode == CONN_DYNAMIC) { /* keep the connections still live */
        int m = 0;
        for (int i = 0; i < out->n; i++)
            if (slot[i])
                out->c[m++] = out->c[i];
        out->n = m;
    }
    out->now = now;
    free(heap);
    free(slot);
    free(ca);
    gsl_rng_free(r);
    return 0;
}

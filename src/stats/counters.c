/* counters.c: the perfquery counters of every cabled port as a time series, DIR/counters.csv
 * (counters.h). */
#include "stats/counters.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct counter_series *counters_open(struct fabric *f, const char *dir, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/counters.csv", dir);
    struct outfile *o = out_open(path, e);
    if (!o)
        return NULL;
    period_init(f);
    struct counter_series *c = xcalloc(1, sizeof *c);
    c->out = o;
    size_t cnt = (size_t)f->period->nports * (size_t)f->nvs + 1;
    c->prev = xcalloc(cnt, sizeof *c->prev);
    c->cur = xcalloc(cnt, sizeof *c->cur);
    c->prev_sent = xcalloc((size_t)f->period->nports + 1, sizeof *c->prev_sent);
    c->prev_t = f->now;
    c->nlabels = f->period->nports;
    c->label = xcalloc((size_t)f->period->nports + 1, sizeof *c->label);
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            size_t len = 0;
            FILE *mem = open_memstream(&c->label[f->period->base[i] + p - 1], &len);
            if (!mem)
                ibn_panic("out of memory");
            csv_field(mem, n->name);
            fprintf(mem, ",%d,%u,0x%016" PRIx64, p, (unsigned)(n->is_switch ? n->lid : pt->lid), n->guid);
            fclose(mem);
        }
    }
    fprintf(o->fp, "time_s,interval_s,period,node,port,lid,node_guid,vl,PortXmitData,PortRcvData,"
                   "PortXmitPkts,PortRcvPkts,PortXmitWait,utilisation\n");
    return c;
}

static void row(FILE *fp, const char *head, const char *vl, const struct port_counts *a,
                const struct port_counts *b, int n, double util)
{
    uint64_t xb = 0, rb = 0, xp = 0, rp = 0;
    simtime_t w = 0;
    for (int i = 0; i < n; i++) {
        xb += (b[i].xmit_bytes - 2 * b[i].xmit_pkts) - (a[i].xmit_bytes - 2 * a[i].xmit_pkts);
        rb += (b[i].rcv_bytes - 2 * b[i].rcv_pkts) - (a[i].rcv_bytes - 2 * a[i].rcv_pkts);
        xp += b[i].xmit_pkts - a[i].xmit_pkts;
        rp += b[i].rcv_pkts - a[i].rcv_pkts;
        w += b[i].wait - a[i].wait;
    }
    if (util < 0) {
        if (!xp && !rp && !w)
            return; /* a VL without traffic in the interval */
        fprintf(fp, "%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",\n", head, vl,
                xb / 4, rb / 4, xp, rp, (int64_t)(w / PS_PER_NS));
    } else
        fprintf(fp, "%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%.6f\n", head, vl,
                xb / 4, rb / 4, xp, rp, (int64_t)(w / PS_PER_NS), util);
}

void counters_row(struct counter_series *c, struct fabric *f, simtime_t t)
{
    if (!c || t <= c->prev_t)
        return; /* an empty interval: its counts go to the next one */
    static const char *const names[] = { "warmup", "measured", "drain" };
    /* The interval (prev_t, t] lies in one period: snapshots end intervals. A boundary's own
     * row is written after its snapshot, so a row ending at a snapshot's time belongs before. */
    int k = f->period->taken;
    if (k > 0 && t <= f->period->at[k - 1])
        k--;
    if (k > 0 && t <= f->period->at[k - 1])
        k--;
    FILE *fp = c->out->fp;
    double secs = (double)(t - c->prev_t) / 1e12;
    /* A distributed run: the counters of every rank's ports at t, summed at rank 0 (at the
     * end, after the gathering, rank 0's own copy holds them). */
    const struct port_counts *gc = NULL;
    const double *gs = NULL;
    if (f->dist && !f->dist->counts_at(f, t, &gc, &gs))
        gc = NULL;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            if (!pt->peer)
                continue;
            int ix = f->period->base[i] + p - 1;
            struct port_counts *a = &c->prev[(size_t)ix * (size_t)f->nvs], *b = &c->cur[(size_t)ix * (size_t)f->nvs];
            double sent, bps = byterate_bps(pt->rate);
            if (gc) {
                memcpy(b, &gc[(size_t)ix * (size_t)f->nvs], (size_t)f->nvs * sizeof *b);
                sent = gs[ix];
            } else
                sent = port_counts_at(f, pt, t, b);
            double u = bps > 0 ? (sent - c->prev_sent[ix]) * 8.0 / secs / bps : 0.0;
            u = u < 0 ? 0 : u > 1 ? 1 : u; /* only rounding can take it out of [0, 1] */
            char head[1200];
            snprintf(head, sizeof head, "%.9g,%.9g,%s,%.1000s", (double)t / 1e12, secs, names[k], c->label[ix]);
            row(fp, head, "all", a, b, f->nvs, u);
            if (f->nvs > 2)
                for (int v = 0; v < f->nvs; v++) {
                    char vl[8];
                    snprintf(vl, sizeof vl, "%d", fabric_slot_vl(f, v));
                    row(fp, head, vl, &a[v], &b[v], 1, -1);
                }
            c->prev_sent[ix] = sent;
        }
    }
    struct port_counts *sw = c->prev;
    c->prev = c->cur;
    c->cur = sw;
    c->prev_t = t;
    fflush(fp);
}

int counters_failed(const struct counter_series *c)
{
    return c && (c->out->err || ferror(c->out->fp));
}

int counters_close(struct counter_series *c, struct ibn_err *e)
{
    if (!c)
        return 0;
    int rc = 0;
    if (e)
        rc = out_close(c->out, e);
    else
        out_abandon(c->out);
    free(c->prev);
    free(c->cur);
    free(c->prev_sent);
    for (int i = 0; i < c->nlabels; i++)
        free(c->label[i]);
    free(c->label);
    free(c);
    return rc;
}

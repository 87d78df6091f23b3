/* latency_csv.c: the latency distributions of a run (DIR/latency.csv), per class and overall,
 * and per flow (DIR/flow-latency.csv). */
#include "stats/latency_csv.h"

#include <stdio.h>

#include "core/output.h"
#include "stats/histogram.h"

#define NCLASS 16

static void write_hist(FILE *fp, const char *kind, const char *cls, const struct histogram *h)
{
    int i = 0;
    int64_t low, high;
    uint64_t n, seen = 0;
    while (hist_next_bucket(h, &i, &low, &high, &n)) {
        seen += n;
        fprintf(fp, "%s,", kind);
        csv_field(fp, cls);
        fprintf(fp, ",%.3f,%llu,%.9f\n", (double)high / 1e3, (unsigned long long)n,
                (double)seen / (double)h->count);
    }
}

int latency_csv_write(const struct fabric *f, const char *dir, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    FILE *fp = o->fp;
    fprintf(fp, "latency,class,value_ns,count,cdf\n");
    /* hist[kind][0] is all flows, hist[kind][1 + sl] the class SL. */
    struct histogram h[2][NCLASS + 1];
    int used[NCLASS] = { 0 };
    for (int k = 0; k < 2; k++)
        for (int c = 0; c <= NCLASS; c++)
            hist_init(&h[k][c]);
    for (uint32_t i = 0; i < f->nflows; i++) {
        const struct flow *fl = &f->flows[i];
        int sl = fl->sl % NCLASS;
        used[sl] = 1;
        hist_merge(&h[0][0], &fl->st.net_latency);
        hist_merge(&h[0][1 + sl], &fl->st.net_latency);
        hist_merge(&h[1][0], &fl->st.e2e_latency);
        hist_merge(&h[1][1 + sl], &fl->st.e2e_latency);
    }
    static const char *const kinds[2] = { "network", "end_to_end" };
    for (int k = 0; k < 2; k++) {
        write_hist(fp, kinds[k], "all", &h[k][0]);
        for (int sl = 0; sl < NCLASS; sl++) {
            char cls[8];
            snprintf(cls, sizeof cls, "sl%d", sl);
            if (used[sl])
                write_hist(fp, kinds[k], cls, &h[k][1 + sl]);
        }
    }
    for (int k = 0; k < 2; k++)
        for (int c = 0; c <= NCLASS; c++)
            hist_free(&h[k][c]);
    return out_close(o, e);
}

int latency_csv_write_flows(const struct fabric *f, const char *dir, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/flow-latency.csv", dir);
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    fprintf(o->fp, "latency,flow,value_ns,count,cdf\n");
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < f->nflows; i++) {
            const struct flow *fl = &f->flows[i];
            write_hist(o->fp, k ? "end_to_end" : "network", fl->name,
                       k ? &fl->st.e2e_latency : &fl->st.net_latency);
        }
    return out_close(o, e);
}

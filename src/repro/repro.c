/* repro.c: the reproduction table (rows, printing, repro.csv) and the runner that runs a
 * scenario of scenarios/ and keeps every flow's throughput and CCTI per sample in memory. */
#include "repro/repro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cc/cc.h"
#include "config/scenario.h"
#include "core/output.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "traffic/pattern.h"

void repro_add(struct repro_table *t, const char *id, const char *claim, const char *paper,
               double paper_v, double ours, const char *unit, double tol, int ok)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->rows = xrealloc(t->rows, (size_t)t->cap * sizeof *t->rows);
    }
    struct repro_row *r = &t->rows[t->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->claim, sizeof r->claim, "%s", claim);
    snprintf(r->paper, sizeof r->paper, "%s", paper);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    r->paper_v = paper_v;
    r->ours = ours;
    r->tol = tol;
    r->ok = tol >= 0 ? fabs(ours - paper_v) <= tol : ok;
}

void repro_table_free(struct repro_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

void repro_print(FILE *out, const struct repro_table *t)
{
    fprintf(out, "%-26s %-10s %-10s %-8s %-9s %-4s %s\n", "id", "paper", "ibnetsim", "unit", "tolerance",
            "ok", "claim");
    for (int i = 0; i < t->n; i++) {
        const struct repro_row *r = &t->rows[i];
        char tol[32];
        if (r->tol >= 0)
            snprintf(tol, sizeof tol, "%.3g", r->tol);
        else
            snprintf(tol, sizeof tol, "trend");
        char diff[48] = "";
        if (r->tol >= 0 && r->paper_v != 0)
            snprintf(diff, sizeof diff, " (%+.1f %%)", 100.0 * (r->ours - r->paper_v) / fabs(r->paper_v));
        fprintf(out, "%-26s %-10s %-10.4g %-8s %-9s %-4s %s%s\n", r->id, r->paper, r->ours, r->unit,
                tol, r->ok ? "yes" : "NO", r->claim, diff);
    }
}

int repro_write_csv(const struct repro_table *t, const char *path, struct ibn_err *e)
{
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    FILE *f = o->fp;
    fprintf(f, "id,claim,paper,ibnetsim,unit,tolerance,within\n");
    for (int i = 0; i < t->n; i++) {
        const struct repro_row *r = &t->rows[i];
        fprintf(f, "%s,", r->id);
        csv_quote(f, r->claim);
        fprintf(f, ",");
        csv_quote(f, r->paper);
        fprintf(f, ",%.6g,%s,", r->ours, r->unit);
        if (r->tol >= 0)
            fprintf(f, "%.6g", r->tol);
        else
            fprintf(f, "trend");
        fprintf(f, ",%s\n", r->ok ? "yes" : "no");
    }
    return out_close(o, e);
}

const struct repro *repro_find(const char *name)
{
    for (int i = 0; repro_list[i].name; i++)
        if (!strcmp(repro_list[i].name, name))
            return &repro_list[i];
    return NULL;
}

/* ---- runner ---- */

struct collect {
    struct repro_series *s;
    int cap;
};

static void sample(struct fabric *f, void *ctx)
{
    struct collect *c = ctx;
    struct repro_series *s = c->s;
    if (s->nsamples == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        s->t = xrealloc(s->t, (size_t)c->cap * sizeof *s->t);
        s->x = xrealloc(s->x, (size_t)c->cap * (size_t)s->nflows * sizeof *s->x);
        s->ccti = xrealloc(s->ccti, (size_t)c->cap * (size_t)s->nflows * sizeof *s->ccti);
    }
    double secs = (double)(f->now - f->last_sample) / 1e12;
    int k = s->nsamples++;
    s->t[k] = (double)f->now / 1e12;
    for (int i = 0; i < s->nflows; i++) {
        struct flow *fl = &f->flows[i];
        s->x[(size_t)k * (size_t)s->nflows + (size_t)i] =
            secs > 0 ? (double)fl->st.interval_bytes * 8.0 / secs / 1e9 : 0.0;
        fl->st.interval_bytes = 0;
        s->ccti[(size_t)k * (size_t)s->nflows + (size_t)i] = 0;
    }
    if (f->hooks.series_row) {
        /* The plug-in's row as text: ",v,v,..." per flow. */
        char buf[65536];
        FILE *m = fmemopen(buf, sizeof buf, "w");
        if (m) {
            f->hooks.series_row(f, m);
            fclose(m);
            char *p = buf;
            for (int i = 0; i < s->nflows && *p == ','; i++) {
                s->ccti[(size_t)k * (size_t)s->nflows + (size_t)i] = strtod(p + 1, &p);
            }
        }
    }
}

/* Overrides that `ibnetsim repro -s` adds to every run (after the reproduction's own). */
static const char *const *extra;
static int nextra;

void repro_set_overrides(const char *const *over, int nover)
{
    extra = over;
    nextra = nover;
}

/* A key of the congestion-control plug-in's own (cc.*, but not cc.plugin). */
static int plugin_key(const char *kv)
{
    return !strncmp(kv, "cc.", 3) && strncmp(kv, "cc.plugin=", 10);
}

/* Load scenarios/<file> with the reproduction's overrides and the extra ones. A plug-in key
 * among the extra ones is given only to runs that have a plug-in: the CC-off run of a pair
 * has no such keys. */
static int load(const char *path, const char *const *over, int nover, struct scenario *sc,
                struct ibn_err *e)
{
    int plugin_keys = 0, cc_on = 0;
    for (int i = 0; i < nextra; i++)
        plugin_keys |= plugin_key(extra[i]);
    if (plugin_keys) {
        if (scenario_load(path, (char *const *)over, nover, sc, e))
            return -1;
        cc_on = strcmp(sc->ccp->name, "none") != 0;
        scenario_free(sc);
    }
    int n = 0;
    const char **all = xcalloc((size_t)(nover + nextra) + 1, sizeof *all);
    for (int i = 0; i < nover; i++)
        all[n++] = over[i];
    for (int i = 0; i < nextra; i++)
        if (cc_on || !plugin_key(extra[i]))
            all[n++] = extra[i];
    int rc = scenario_load(path, (char *const *)all, n, sc, e);
    free(all);
    return rc;
}

static int run_scenario(const char *file, const char *const *over, int nover,
                        struct repro_series *s, int may_stick, struct ibn_err *e);

int repro_run(const char *file, const char *const *over, int nover, struct repro_series *s,
              struct ibn_err *e)
{
    return run_scenario(file, over, nover, s, 0, e);
}

int repro_run_may_stick(const char *file, const char *const *over, int nover,
                        struct repro_series *s, struct ibn_err *e)
{
    return run_scenario(file, over, nover, s, 1, e);
}

static int run_scenario(const char *file, const char *const *over, int nover,
                        struct repro_series *s, int may_stick, struct ibn_err *e)
{
    memset(s, 0, sizeof *s);
    char path[4096];
    snprintf(path, sizeof path, "%s/scenarios/%s", IBN_SOURCE_DIR, file);
    struct scenario sc;
    if (load(path, over, nover, &sc, e)) {
        scenario_free(&sc);
        return -1;
    }
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    memset(&t, 0, sizeof t);
    memset(&l, 0, sizeof l);
    memset(&f, 0, sizeof f);
    int rc = 0;
    if (scenario_topology(&sc, &t, &l, e) || scenario_run_desc(&sc, &t, &d, e) ||
        fabric_build(&f, &t, &l, &d, e) || scenario_apply(&sc, &f, e) ||
        cc_attach(&f, sc.ccp, sc.cc_desc, e)) {
        rc = -1;
    } else {
        s->nflows = (int)f.nflows;
        s->names = xcalloc((size_t)f.nflows + 1, sizeof *s->names);
        for (uint32_t i = 0; i < f.nflows; i++)
            s->names[i] = xstrdup(f.flows[i].name);
        struct collect c = { s, 0 };
        struct fabric_observer obs = { sample, NULL, &c };
        struct run_report rep;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        rc = fabric_run(&f, &obs, &rep, e);
        clock_gettime(CLOCK_MONOTONIC, &b);
        s->wall_s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        s->events = f.events;
        s->hops = f.hops;
        s->nhosts = f.nhosts;
        s->host_rx = xcalloc((size_t)f.nhosts + 1, sizeof *s->host_rx);
        double secs = (double)(f.end - f.warmup) / 1e12;
        for (int h = 0; h < f.nhosts; h++)
            s->host_rx[h] = secs > 0 ? (double)f.hosts[h].rx_bytes * 8.0 / secs / 1e9 : 0;
        results_receive_classes(&f, &s->rc);
        double lat = 0;
        uint64_t n = 0;
        for (uint32_t i = 0; i < f.nflows; i++) {
            lat += hist_mean(&f.flows[i].st.net_latency) * (double)f.flows[i].st.net_latency.count;
            n += f.flows[i].st.net_latency.count;
        }
        s->net_latency_us = n ? lat / (double)n / 1e6 : 0;
        s->delivered = f.cnt.delivered;
        s->dropped = f.cnt.dropped_hoq + f.cnt.dropped_sll + f.cnt.dropped_unroutable;
        s->drained = rep.outcome == RUN_DRAINED;
        if (!rc && !may_stick && rep.outcome != RUN_DRAINED)
            rc = ibn_err_set(e, "%s: the fabric did not drain (%llu packets left)", file,
                             (unsigned long long)rep.in_flight);
    }
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return rc;
}

void repro_series_free(struct repro_series *s)
{
    for (int i = 0; i < s->nflows; i++)
        free(s->names[i]);
    free(s->names);
    free(s->t);
    free(s->x);
    free(s->ccti);
    free(s->host_rx);
    memset(s, 0, sizeof *s);
}

int repro_flow(const struct repro_series *s, const char *name)
{
    for (int i = 0; i < s->nflows; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

double repro_mean(const struct repro_series *s, int i, double from, double to)
{
    double sum = 0;
    int n = 0;
    for (int k = 0; k < s->nsamples; k++)
        if (s->t[k] > from + 1e-12 && s->t[k] <= to + 1e-12) {
            sum += s->x[(size_t)k * (size_t)s->nflows + (size_t)i];
            n++;
        }
    return n ? sum / n : 0.0;
}

double repro_sd(const struct repro_series *s, int i, double from, double to)
{
    double m = repro_mean(s, i, from, to), ss = 0;
    int n = 0;
    for (int k = 0; k < s->nsamples; k++)
        if (s->t[k] > from + 1e-12 && s->t[k] <= to + 1e-12) {
            double d = s->x[(size_t)k * (size_t)s->nflows + (size_t)i] - m;
            ss += d * d;
            n++;
        }
    return n ? sqrt(ss / n) : 0.0;
}

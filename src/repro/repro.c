/* repro.c: the reproduction table (rows, printing, repro.csv) and the runner that runs a
 * scenario of scenarios/ and keeps every flow's throughput and CCTI per sample in memory. */
#include "repro/repro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "cc/cc.h"
#include "config/scenario.h"
#include "core/output.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "fabric/isol.h"
#include "traffic/pattern.h"

static const char *const kind_names[] = { "evidence", "derived", "cap", "calibrated", "trend",
                                          "info" };

const char *repro_kind_name(enum repro_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

static struct repro_row *row_new(struct repro_table *t, enum repro_kind kind, const char *id,
                                 const char *claim, const char *paper, double paper_v,
                                 const char *unit, double tol)
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
    r->tol = tol;
    r->kind = kind;
    r->lo = -INFINITY;
    r->hi = INFINITY;
    r->nrep = 1;
    return r;
}

void repro_add_kind(struct repro_table *t, enum repro_kind kind, const char *id, const char *claim,
                    const char *paper, double paper_v, double ours, const char *unit, double tol,
                    int ok)
{
    struct repro_row *r = row_new(t, kind, id, claim, paper, paper_v, unit, tol);
    r->ours = ours;
    r->ok = tol >= 0 ? fabs(ours - paper_v) <= tol : ok;
}

void repro_add(struct repro_table *t, const char *id, const char *claim, const char *paper,
               double paper_v, double ours, const char *unit, double tol, int ok)
{
    repro_add_kind(t, tol >= 0 ? REPRO_EVIDENCE : REPRO_TREND, id, claim, paper, paper_v, ours,
                   unit, tol, ok);
}

double repro_tol(const char *paper, double v)
{
    const char *p = paper;
    while (*p == ' ')
        p++;
    if (*p == '~')
        return 0.1 * fabs(v);
    int decimals = 0, dot = 0;
    for (; *p; p++) {
        if (*p == '.')
            dot = 1;
        else if (*p >= '0' && *p <= '9')
            decimals += dot;
        else if (dot || (*p != '-' && *p != '+' && *p != ' '))
            break;
    }
    double half = 0.5 * pow(10.0, -decimals), floor1 = 0.01 * fabs(v);
    return half > floor1 ? half : floor1;
}

void repro_ci95(const double *v, int n, double *mean, double *half)
{
    *mean = n > 0 ? gsl_stats_mean(v, 1, (size_t)n) : 0.0;
    *half = 0.0;
    if (n >= 2) {
        double sd = gsl_stats_sd_m(v, 1, (size_t)n, *mean);
        *half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sd / sqrt((double)n);
    }
}

void repro_add_reps(struct repro_table *t, enum repro_kind kind, const char *id, const char *claim,
                    const char *paper, double paper_v, const double *v, int n, const char *unit,
                    double tol)
{
    struct repro_row *r = row_new(t, kind, id, claim, paper, paper_v, unit, tol < 0 ? 0 : tol);
    repro_ci95(v, n, &r->ours, &r->ci);
    r->nrep = n;
    /* The interval [ours - ci, ours + ci] overlaps the band [paper - tol, paper + tol], and the
     * seeds agree: an interval wider than the tolerance and than 10 % of the paper's value
     * decides nothing (a result that flips with the seed overlaps any band). */
    r->ok = fabs(r->ours - paper_v) <= r->tol + r->ci;
    if (r->ci > REPRO_CI_MAX(r->tol, paper_v)) {
        r->ok = 0;
        snprintf(r->basis, sizeof r->basis, "seeds disagree: +-%.3g", r->ci);
    }
}

void repro_add_trend(struct repro_table *t, const char *id, const char *claim, const char *paper,
                     const double *v, int n, const char *unit, double lo, double hi)
{
    struct repro_row *r = row_new(t, REPRO_TREND, id, claim, paper, NAN, unit, -1);
    repro_ci95(v, n, &r->ours, &r->ci);
    r->nrep = n;
    r->lo = lo;
    r->hi = hi;
    r->ok = r->ours - r->ci > lo && r->ours + r->ci < hi;
}

/* ---- classification ---- */

enum { MAX_CAPS = 32 };
static struct { char name[40]; double gbps; } caps[MAX_CAPS];
static int ncaps;

void repro_caps_clear(void)
{
    ncaps = 0;
}

void repro_cap_note(const char *name, double gbps)
{
    if (gbps <= 0)
        return;
    for (int i = 0; i < ncaps; i++)
        if (caps[i].gbps == gbps && !strcmp(caps[i].name, name))
            return;
    if (ncaps < MAX_CAPS) {
        snprintf(caps[ncaps].name, sizeof caps[ncaps].name, "%s", name);
        caps[ncaps++].gbps = gbps;
    }
}

/* A row's value in Gb/s, or NAN when its unit is not a rate. */
static double in_gbps(const char *unit, double v)
{
    if (!strcmp(unit, "Gb/s"))
        return v;
    if (!strcmp(unit, "Mb/s"))
        return v / 1e3;
    return NAN;
}

void repro_classify(struct repro_table *t, int from)
{
    for (int i = from; i < t->n; i++) {
        struct repro_row *r = &t->rows[i];
        if (r->kind != REPRO_TREND && isnan(r->paper_v)) {
            r->kind = REPRO_INFO;
            snprintf(r->basis, sizeof r->basis, "no paper number");
            continue;
        }
        if (r->kind != REPRO_EVIDENCE)
            continue;
        double ours = in_gbps(r->unit, r->ours), paper = in_gbps(r->unit, r->paper_v);
        double tol = in_gbps(r->unit, r->tol);
        if (isnan(ours))
            continue;
        int best = -1; /* the nearest limit */
        for (int c = 0; c < ncaps; c++)
            if (best < 0 || fabs(ours - caps[c].gbps) < fabs(ours - caps[best].gbps))
                best = c;
        if (best >= 0 && fabs(ours - caps[best].gbps) <= REPRO_CAP_MARGIN * caps[best].gbps &&
            fabs(paper - caps[best].gbps) <= tol + 1e-12) {
            r->kind = REPRO_CAP;
            snprintf(r->basis, sizeof r->basis, "%s %.4g Gb/s", caps[best].name, caps[best].gbps);
        }
    }
}

int repro_exec(const struct repro *r, struct repro_table *t, struct ibn_err *e)
{
    repro_caps_clear();
    int from = t->n;
    if (r->run(t, e))
        return -1;
    repro_classify(t, from);
    return 0;
}

void repro_count(const struct repro_table *t, int *ev, int *ev_ok, int *tr, int *tr_ok)
{
    *ev = *ev_ok = *tr = *tr_ok = 0;
    for (int i = 0; i < t->n; i++) {
        const struct repro_row *r = &t->rows[i];
        if (r->kind == REPRO_EVIDENCE)
            (*ev)++, *ev_ok += r->ok;
        else if (r->kind == REPRO_TREND)
            (*tr)++, *tr_ok += r->ok;
    }
}

void repro_table_free(struct repro_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

static void tol_text(const struct repro_row *r, char *buf, size_t n)
{
    if (r->tol >= 0)
        snprintf(buf, n, "%.3g", r->tol);
    else if (isinf(r->lo) && isinf(r->hi))
        snprintf(buf, n, "trend");
    else if (isinf(r->hi))
        snprintf(buf, n, "> %.3g", r->lo);
    else if (isinf(r->lo))
        snprintf(buf, n, "< %.3g", r->hi);
    else
        snprintf(buf, n, "%.3g..%.3g", r->lo, r->hi);
}

void repro_print(FILE *out, const struct repro_table *t)
{
    fprintf(out, "%-26s %-10s %-10s %-10s %-9s %-3s %-8s %-9s %-4s %s\n", "id", "kind", "paper",
            "ibnetsim", "+-95%", "n", "unit", "tolerance", "ok", "claim");
    for (int i = 0; i < t->n; i++) {
        const struct repro_row *r = &t->rows[i];
        char tol[32], ci[16] = "-";
        tol_text(r, tol, sizeof tol);
        if (r->nrep > 1)
            snprintf(ci, sizeof ci, "%.3g", r->ci);
        char diff[48] = "";
        if (r->tol >= 0 && r->paper_v != 0 && !isnan(r->paper_v))
            snprintf(diff, sizeof diff, " (%+.1f %%)", 100.0 * (r->ours - r->paper_v) / fabs(r->paper_v));
        char basis[64] = "";
        if (r->basis[0])
            snprintf(basis, sizeof basis, " [%s]", r->basis);
        fprintf(out, "%-26s %-10s %-10s %-10.4g %-9s %-3d %-8s %-9s %-4s %s%s%s\n", r->id,
                repro_kind_name(r->kind), r->paper, r->ours, ci, r->nrep, r->unit, tol,
                r->kind == REPRO_INFO ? "-" : r->ok ? "yes" : "NO", r->claim, diff, basis);
    }
}

void repro_print_summary(FILE *out, const struct repro_table *t)
{
    int ev, ev_ok, tr, tr_ok, other[6] = { 0 };
    repro_count(t, &ev, &ev_ok, &tr, &tr_ok);
    for (int i = 0; i < t->n; i++)
        other[t->rows[i].kind]++;
    fprintf(out, "%d of %d evidence rows within tolerance; %d of %d trend rows hold "
            "(not counted: %d derived, %d cap, %d calibrated, %d info)\n", ev_ok, ev, tr_ok, tr,
            other[REPRO_DERIVED], other[REPRO_CAP], other[REPRO_CALIBRATED], other[REPRO_INFO]);
}

int repro_write_csv(const struct repro_table *t, const char *path, struct ibn_err *e)
{
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    FILE *f = o->fp;
    fprintf(f, "id,kind,claim,paper,ibnetsim,ci95,n,unit,tolerance,within,basis\n");
    for (int i = 0; i < t->n; i++) {
        const struct repro_row *r = &t->rows[i];
        char tol[32];
        tol_text(r, tol, sizeof tol);
        fprintf(f, "%s,%s,", r->id, repro_kind_name(r->kind));
        csv_quote(f, r->claim);
        fprintf(f, ",");
        csv_quote(f, r->paper);
        fprintf(f, ",%.6g,%.3g,%d,%s,", r->ours, r->ci, r->nrep, r->unit);
        csv_quote(f, tol);
        fprintf(f, ",%s,", r->kind == REPRO_INFO ? "-" : r->ok ? "yes" : "no");
        csv_quote(f, r->basis);
        fputc('\n', f);
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
int repro_load(const char *path, const char *const *over, int nover, struct scenario *sc,
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
    if (repro_load(path, over, nover, &sc, e)) {
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
        s->isol_ports_exhausted = isol_mean_ports_exhausted(&f, &s->isol_exhausted);
        s->nhosts = f.nhosts;
        s->host_rx = xcalloc((size_t)f.nhosts + 1, sizeof *s->host_rx);
        double secs = (double)(f.end - f.warmup) / 1e12;
        for (int h = 0; h < f.nhosts; h++)
            s->host_rx[h] = secs > 0 ? (double)f.hosts[h].rx_bytes * 8.0 / secs / 1e9 : 0;
        results_receive_classes(&f, &s->rc);
        s->inject_gbps = f.set.inject_limit_bps / 1e9;
        s->sink_gbps = f.set.sink_limit_bps / 1e9;
        repro_cap_note("hca.inject_limit", s->inject_gbps);
        repro_cap_note("hca.sink_limit", s->sink_gbps);
        for (int i = 0; i < f.nnodes; i++)
            if (f.nodes[i]->is_switch)
                s->nports += f.nodes[i]->nports;
        s->port_names = xcalloc((size_t)s->nports + 1, sizeof *s->port_names);
        s->port_wait = xcalloc((size_t)s->nports + 1, sizeof *s->port_wait);
        int k = 0;
        for (int i = 0; i < f.nnodes; i++) {
            struct node *n = f.nodes[i];
            for (int p = 1; n->is_switch && p <= n->nports; p++, k++) {
                char name[300];
                snprintf(name, sizeof name, "%s:%d", n->name, p);
                s->port_names[k] = xstrdup(name);
                simtime_t w = 0;
                for (int v = 0; v < f.nvs; v++)
                    w += n->port[p].vl[v].ctr.xmit_wait;
                s->port_wait[k] = f.end > 0 ? (double)w / (double)f.end : 0;
            }
        }
        double lat = 0;
        uint64_t n = 0;
        for (uint32_t i = 0; i < f.nflows; i++) {
            lat += hist_mean(&f.flows[i].st.net_latency) * (double)f.flows[i].st.net_latency.count;
            n += f.flows[i].st.net_latency.count;
        }
        s->net_latency_us = n ? lat / (double)n / 1e6 : 0;
        s->flow_e2e_us = xcalloc((size_t)f.nflows + 1, sizeof *s->flow_e2e_us);
        s->flow_e2e_n = xcalloc((size_t)f.nflows + 1, sizeof *s->flow_e2e_n);
        s->flow_frames = xcalloc((size_t)f.nflows + 1, sizeof *s->flow_frames);
        s->flow_missed = xcalloc((size_t)f.nflows + 1, sizeof *s->flow_missed);
        for (uint32_t i = 0; i < f.nflows; i++) {
            const struct flow_stats *st = &f.flows[i].st;
            s->flow_e2e_us[i] = hist_mean(&st->e2e_latency) / 1e6;
            s->flow_e2e_n[i] = (double)st->e2e_latency.count;
            s->flow_frames[i] = (double)st->deadlines.frames;
            s->flow_missed[i] = (double)st->deadlines.missed;
        }
        if (f.mc) {
            double ml = 0, mn = 0;
            for (int g = 0; g < f.mc->ngroups; g++)
                for (int x = 0; x < f.mc->g[g].nmembers; x++) {
                    ml += hist_mean(&f.mc->g[g].lat[x]) * (double)f.mc->g[g].lat[x].count;
                    mn += (double)f.mc->g[g].lat[x].count;
                }
            s->mcast_lat_us = mn > 0 ? ml / mn / 1e6 : 0;
            s->mcast_n = mn;
        }
        for (uint32_t i = 0; i < f.nflows; i++) {
            const struct flow *fl = &f.flows[i];
            struct repro_sl *q = &s->sl[fl->sl & 15];
            q->net_ps += hist_mean(&fl->st.net_latency) * (double)fl->st.net_latency.count;
            q->net_n += fl->st.net_latency.count;
            q->frames += fl->st.deadlines.frames;
            q->missed += fl->st.deadlines.missed;
            q->miss_ps += fl->st.deadlines.miss_ps;
        }
        lat = 0;
        n = 0;
        for (uint32_t i = 0; i < f.nflows; i++) {
            const struct histogram *h = f.flows[i].rc.posted ? &f.flows[i].st.posted_latency
                                                                : flow_msg_latency(&f.flows[i].st);
            lat += hist_mean(h) * (double)h->count;
            n += h->count;
        }
        s->posted_latency_us = n ? lat / (double)n / 1e6 : 0;
        for (int sl = 0; sl < 16; sl++) {
            lat = 0;
            n = 0;
            for (uint32_t i = 0; i < f.nflows; i++) {
                if (f.flows[i].sl != sl)
                    continue;
                const struct histogram *h = f.flows[i].rc.posted ? &f.flows[i].st.posted_latency
                                                                    : flow_msg_latency(&f.flows[i].st);
                lat += hist_mean(h) * (double)h->count;
                n += h->count;
            }
            s->sl_latency_us[sl] = n ? lat / (double)n / 1e6 : 0;
        }
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

int repro_port(const struct repro_series *s, const char *name)
{
    for (int i = 0; i < s->nports; i++)
        if (!strcmp(s->port_names[i], name))
            return i;
    return -1;
}

void repro_series_free(struct repro_series *s)
{
    free(s->flow_e2e_us);
    free(s->flow_e2e_n);
    free(s->flow_frames);
    free(s->flow_missed);
    for (int i = 0; i < s->nports; i++)
        free(s->port_names[i]);
    free(s->port_names);
    free(s->port_wait);
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

/* ---- replications and parallel runs ---- */

static int nseeds = 5, njobs;

int repro_seeds(void)
{
    return nseeds;
}

void repro_set_seeds(int n)
{
    nseeds = n > 0 ? n : 1;
}

int repro_jobs(void)
{
    if (njobs > 0)
        return njobs;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void repro_set_jobs(int n)
{
    njobs = n;
}

void repro_job_seeds(struct repro_job *jobs, int n, const char *file, const char *const *over,
                     int nover)
{
    for (int k = 0; k < n; k++) {
        struct repro_job *j = &jobs[k];
        memset(j, 0, sizeof *j);
        j->file = file;
        if (nover > (int)(sizeof j->over / sizeof j->over[0])) {
            /* A reproduction's own mistake, never a user's: stop rather than run with some
             * overrides silently left out. */
            fprintf(stderr, "ibnetsim repro: internal error: %d overrides for %s, at most %d\n",
                    nover, file, (int)(sizeof j->over / sizeof j->over[0]));
            abort();
        }
        for (int i = 0; i < nover; i++)
            j->over[j->nover++] = over[i];
        snprintf(j->seed, sizeof j->seed, "simulation.seed=%d", k + 1);
    }
}

static int put(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int get(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* A series as the child hands it to the parent: a status, then the fields. */
static int series_put(int fd, int rc, const struct repro_series *s, const struct ibn_err *e)
{
    if (put(fd, &rc, sizeof rc))
        return -1;
    if (rc)
        return put(fd, e->msg, sizeof e->msg);
    size_t ns = (size_t)s->nsamples * (size_t)s->nflows;
    if (put(fd, &s->nflows, sizeof s->nflows) || put(fd, &s->nsamples, sizeof s->nsamples) ||
        put(fd, &s->nhosts, sizeof s->nhosts))
        return -1;
    for (int i = 0; i < s->nflows; i++) {
        size_t len = strlen(s->names[i]);
        if (put(fd, &len, sizeof len) || put(fd, s->names[i], len))
            return -1;
    }
    if (put(fd, s->t, (size_t)s->nsamples * sizeof *s->t) || put(fd, s->x, ns * sizeof *s->x) ||
        put(fd, s->ccti, ns * sizeof *s->ccti) ||
        put(fd, s->host_rx, (size_t)s->nhosts * sizeof *s->host_rx) ||
        put(fd, &s->rc, sizeof s->rc) || put(fd, &s->inject_gbps, sizeof s->inject_gbps) ||
        put(fd, &s->sink_gbps, sizeof s->sink_gbps) || put(fd, &s->wall_s, sizeof s->wall_s) ||
        put(fd, &s->isol_ports_exhausted, sizeof s->isol_ports_exhausted) ||
        put(fd, &s->isol_exhausted, sizeof s->isol_exhausted) ||
        put(fd, &s->events, sizeof s->events) || put(fd, &s->hops, sizeof s->hops) ||
        put(fd, &s->nports, sizeof s->nports) || put(fd, s->sl, sizeof s->sl) ||
        put(fd, s->port_wait, (size_t)s->nports * sizeof *s->port_wait) ||
        put(fd, &s->mcast_lat_us, sizeof s->mcast_lat_us) || put(fd, &s->mcast_n, sizeof s->mcast_n))
        return -1;
    double *per[4] = { s->flow_e2e_us, s->flow_e2e_n, s->flow_frames, s->flow_missed };
    for (int k = 0; k < 4; k++)
        if (put(fd, per[k], (size_t)s->nflows * sizeof(double)))
            return -1;
    for (int i = 0; i < s->nports; i++) {
        size_t len = strlen(s->port_names[i]);
        if (put(fd, &len, sizeof len) || put(fd, s->port_names[i], len))
            return -1;
    }
    if (put(fd, &s->net_latency_us, sizeof s->net_latency_us) ||
        put(fd, &s->posted_latency_us, sizeof s->posted_latency_us) ||
        put(fd, s->sl_latency_us, sizeof s->sl_latency_us) ||
        put(fd, &s->delivered, sizeof s->delivered) || put(fd, &s->dropped, sizeof s->dropped) ||
        put(fd, &s->drained, sizeof s->drained))
        return -1;
    return 0;
}

static int series_get(int fd, struct repro_series *s, struct ibn_err *e)
{
    memset(s, 0, sizeof *s);
    int rc;
    if (get(fd, &rc, sizeof rc))
        return ibn_err_set(e, "a reproduction run ended without a result");
    if (rc) {
        if (get(fd, e->msg, sizeof e->msg))
            return ibn_err_set(e, "a reproduction run failed");
        e->msg[sizeof e->msg - 1] = 0;
        return -1;
    }
    if (get(fd, &s->nflows, sizeof s->nflows) || get(fd, &s->nsamples, sizeof s->nsamples) ||
        get(fd, &s->nhosts, sizeof s->nhosts))
        return ibn_err_set(e, "a reproduction run's result is truncated");
    size_t ns = (size_t)s->nsamples * (size_t)s->nflows;
    s->names = xcalloc((size_t)s->nflows + 1, sizeof *s->names);
    s->t = xcalloc((size_t)s->nsamples + 1, sizeof *s->t);
    s->x = xcalloc(ns + 1, sizeof *s->x);
    s->ccti = xcalloc(ns + 1, sizeof *s->ccti);
    s->host_rx = xcalloc((size_t)s->nhosts + 1, sizeof *s->host_rx);
    int bad = 0;
    for (int i = 0; i < s->nflows && !bad; i++) {
        size_t len;
        bad = get(fd, &len, sizeof len) != 0 || len > 4096;
        if (!bad) {
            s->names[i] = xcalloc(len + 1, 1);
            bad = get(fd, s->names[i], len) != 0;
        }
    }
    if (bad || get(fd, s->t, (size_t)s->nsamples * sizeof *s->t) ||
        get(fd, s->x, ns * sizeof *s->x) || get(fd, s->ccti, ns * sizeof *s->ccti) ||
        get(fd, s->host_rx, (size_t)s->nhosts * sizeof *s->host_rx) ||
        get(fd, &s->rc, sizeof s->rc) || get(fd, &s->inject_gbps, sizeof s->inject_gbps) ||
        get(fd, &s->sink_gbps, sizeof s->sink_gbps) || get(fd, &s->wall_s, sizeof s->wall_s) ||
        get(fd, &s->isol_ports_exhausted, sizeof s->isol_ports_exhausted) ||
        get(fd, &s->isol_exhausted, sizeof s->isol_exhausted) ||
        get(fd, &s->events, sizeof s->events) || get(fd, &s->hops, sizeof s->hops) ||
        get(fd, &s->nports, sizeof s->nports) || s->nports < 0 || s->nports > (1 << 24) ||
        get(fd, s->sl, sizeof s->sl)) {
        s->nports = 0;
        repro_series_free(s);
        return ibn_err_set(e, "a reproduction run's result is truncated");
    }
    s->port_wait = xcalloc((size_t)s->nports + 1, sizeof *s->port_wait);
    s->port_names = xcalloc((size_t)s->nports + 1, sizeof *s->port_names);
    s->flow_e2e_us = xcalloc((size_t)s->nflows + 1, sizeof(double));
    s->flow_e2e_n = xcalloc((size_t)s->nflows + 1, sizeof(double));
    s->flow_frames = xcalloc((size_t)s->nflows + 1, sizeof(double));
    s->flow_missed = xcalloc((size_t)s->nflows + 1, sizeof(double));
    bad = get(fd, s->port_wait, (size_t)s->nports * sizeof *s->port_wait) != 0 ||
          get(fd, &s->mcast_lat_us, sizeof s->mcast_lat_us) || get(fd, &s->mcast_n, sizeof s->mcast_n);
    double *per[4] = { s->flow_e2e_us, s->flow_e2e_n, s->flow_frames, s->flow_missed };
    for (int k = 0; k < 4 && !bad; k++)
        bad = get(fd, per[k], (size_t)s->nflows * sizeof(double)) != 0;
    for (int i = 0; i < s->nports && !bad; i++) {
        size_t len;
        bad = get(fd, &len, sizeof len) != 0 || len > 4096;
        if (!bad) {
            s->port_names[i] = xcalloc(len + 1, 1);
            bad = get(fd, s->port_names[i], len) != 0;
        }
    }
    if (bad || get(fd, &s->net_latency_us, sizeof s->net_latency_us) ||
        get(fd, &s->posted_latency_us, sizeof s->posted_latency_us) ||
        get(fd, s->sl_latency_us, sizeof s->sl_latency_us) ||
        get(fd, &s->delivered, sizeof s->delivered) || get(fd, &s->dropped, sizeof s->dropped) ||
        get(fd, &s->drained, sizeof s->drained)) {
        repro_series_free(s);
        return ibn_err_set(e, "a reproduction run's result is truncated");
    }
    repro_cap_note("hca.inject_limit", s->inject_gbps);
    repro_cap_note("hca.sink_limit", s->sink_gbps);
    return 0;
}

static void job_label(const struct repro_job *j, char *buf, size_t n)
{
    int w = snprintf(buf, n, "%s", j->file);
    for (int i = 0; i < j->nover && w > 0 && (size_t)w < n; i++)
        w += snprintf(buf + w, n - (size_t)w, " %s", j->over[i]);
    if (j->seed[0] && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " %s", j->seed);
}

/* Runs one job in this process and writes its series to fd. */
static void job_child(const struct repro_job *j, int fd)
{
    const char *ov[sizeof j->over / sizeof j->over[0] + 2];
    int n = 0;
    for (int i = 0; i < j->nover; i++)
        ov[n++] = j->over[i];
    if (j->seed[0])
        ov[n++] = j->seed;
    struct repro_series s;
    struct ibn_err e;
    memset(&e, 0, sizeof e);
    int rc = j->may_stick ? repro_run_may_stick(j->file, ov, n, &s, &e) : repro_run(j->file, ov, n, &s, &e);
    int bad = series_put(fd, rc ? 1 : 0, &s, &e);
    if (!rc)
        repro_series_free(&s);
    _exit(bad ? 3 : 0);
}

int repro_run_jobs(const struct repro_job *jobs, int n, struct repro_series *out,
                   struct ibn_err *e)
{
    memset(out, 0, (size_t)n * sizeof *out);
    pid_t *pid = xcalloc((size_t)n + 1, sizeof *pid);
    int *fd = xcalloc((size_t)n + 1, sizeof *fd);
    int *st = xcalloc((size_t)n + 1, sizeof *st);
    int next = 0, running = 0, failed = -1, maxjobs = repro_jobs();
    for (int i = 0; i < n; i++)
        fd[i] = -1;
    while (next < n || running) {
        if (running < maxjobs && next < n && failed < 0) {
            FILE *tmp = tmpfile();
            if (!tmp) {
                ibn_err_set(e, "cannot create a temporary file: %s", strerror(errno));
                failed = next;
                continue;
            }
            fd[next] = dup(fileno(tmp));
            fclose(tmp);
            fflush(stdout);
            fflush(stderr);
            pid_t p = fork();
            if (p == 0)
                job_child(&jobs[next], fd[next]);
            if (p < 0) {
                ibn_err_set(e, "cannot start a run: %s", strerror(errno));
                failed = next;
                continue;
            }
            pid[next++] = p;
            running++;
            continue;
        }
        if (!running)
            break;
        int status;
        pid_t p = waitpid(-1, &status, 0);
        if (p < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < next; i++)
            if (pid[i] == p) {
                pid[i] = 0;
                st[i] = status;
                running--;
                if (failed < 0 && (!WIFEXITED(status) || WEXITSTATUS(status))) {
                    char label[512];
                    job_label(&jobs[i], label, sizeof label);
                    ibn_err_set(e, "%s: the run died (status %d)", label, status);
                    failed = i;
                }
                break;
            }
    }
    /* Read the results in job order (the same whatever the number of jobs). */
    for (int i = 0; i < n && failed < 0; i++) {
        if (fd[i] < 0 || lseek(fd[i], 0, SEEK_SET) < 0) {
            ibn_err_set(e, "a run's result is lost");
            failed = i;
            break;
        }
        struct ibn_err je;
        if (series_get(fd[i], &out[i], &je)) {
            char label[512];
            job_label(&jobs[i], label, sizeof label);
            ibn_err_set(e, "%s: %s", label, je.msg);
            failed = i;
        }
    }
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    if (failed >= 0)
        for (int i = 0; i < n; i++)
            repro_series_free(&out[i]);
    free(pid);
    free(fd);
    free(st);
    return failed >= 0 ? -1 : 0;
}

/* seed002_paper4.c: seed 002 Paper IV reproductions on the 648-node fat tree (digest 002b
 * sections 2.5 and 5.1): the silent forest with congestion control off and on (Table II:
 * average receive rate of the hot spots and of the other nodes, total network throughput), the
 * windy forest with 25 % B nodes over the hot-spot share p (Fig. 5) and purely uniform traffic
 * (100 % B, p = 0), and moving trees over the hot-spot lifetime (Fig. 9a); and (docs/cc.md
 * 5.7) Fig. 5 at the other p values, Figs. 6-7 (50 % and 75 % B), Fig. 8 (100 % B), Fig. 9b
 * (moving trees with 60 % V) and Fig. 10 (moving windy trees). Every run is
 * stochastic (random hot spots, node roles and destinations): each is repeated over the seeds
 * and the CC-off and CC-on runs of a seed pair up for the ratios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "repro/repro.h"

enum { MAXSEEDS = 64 };

static int nseeds(void)
{
    int n = repro_seeds();
    return n > MAXSEEDS ? MAXSEEDS : n;
}

/* The first-principles CCT (docs/cc.md 5.5): Paper III's shape i^2 x scale / 106^2 with its last
 * entry, CCT[127], the inter-packet delay that holds each contributor of a hot spot at its fair
 * share of it, with nothing fitted: the silent forest's 80 % of 648 hosts in 8 subsets make 64.8
 * contributors per hot spot, which receives 13.6 Gb/s (hca.sink_limit), in 2048-byte payloads of
 * 2112 wire bytes sent at 16 Gb/s (4x DDR). Returns the scale in us (53.6). */
static double fp_cct_scale_us(void)
{
    double share = 13.6e9 / (0.8 * 648 / 8);        /* b/s of payload per contributor */
    double period = 2048 * 8 / share;               /* s from one packet to the next */
    double ird = period - 2112 * 8 / 16e9;          /* less the packet's own transmission */
    return ird * 1e6 * 106.0 * 106.0 / (127.0 * 127.0);
}

/* Runs, per variant v and seed q, the CC-off run, the CC-on run with the scenarios' calibrated
 * CCT and the CC-on run with the first-principles one: [3 (v n + q)], [.. + 1], [.. + 2].
 * ov[v] holds variant v's overrides (nov each). */
enum { OFF = 0, CAL = 1, FP = 2 };
static struct repro_series *sets(const char *off_file, const char *on_file, int nv,
                                 const char *const (*ov)[6], int nov, int n, struct ibn_err *e)
{
    static char fp[64];
    snprintf(fp, sizeof fp, "cc.cct_scale_us=%.4f", fp_cct_scale_us());
    struct repro_job *jobs = xcalloc((size_t)(3 * nv * n), sizeof *jobs);
    struct repro_series *s = xcalloc((size_t)(3 * nv * n), sizeof *s);
    for (int v = 0; v < nv; v++)
        for (int q = 0; q < n; q++) {
            struct repro_job *j = &jobs[3 * (v * n + q)];
            for (int r = 0; r < 3; r++) {
                repro_job_seeds(&j[r], 1, r == OFF ? off_file : on_file, ov ? ov[v] : NULL,
                                ov ? nov : 0);
                snprintf(j[r].seed, sizeof j[r].seed, "simulation.seed=%d", q + 1);
            }
            j[FP].over[j[FP].nover++] = fp;
        }
    int rc = repro_run_jobs(jobs, 3 * nv * n, s, e);
    free(jobs);
    if (rc) {
        free(s);
        return NULL;
    }
    return s;
}

static void sets_free(struct repro_series *s, int m)
{
    for (int i = 0; i < m; i++)
        repro_series_free(&s[i]);
    free(s);
}

/* A row id and claim under the first-principles CCT: "p4fp." instead of "p4.", and the claim
 * says so. */
static void fp_id(char *id, size_t n, const char *base)
{
    snprintf(id, n, "p4fp.%s", base + 3);
}

/* A row that depends on the CCT, twice: under the scenarios' calibrated CCT (kind kcal, the id
 * as given) and under the first-principles one (kind kfp, id p4fp.*). */
static void both(struct repro_table *t, enum repro_kind kcal, enum repro_kind kfp, const char *id,
                 const char *claim, const char *paper, double paper_v, const double *vcal,
                 const double *vfp, int n, const char *unit)
{
    double tol = repro_tol(paper, paper_v);
    repro_add_reps(t, kcal, id, claim, paper, paper_v, vcal, n, unit, tol);
    char id2[48], claim2[224];
    fp_id(id2, sizeof id2, id);
    snprintf(claim2, sizeof claim2, "first-principles CCT: %s", claim);
    repro_add_reps(t, kfp, id2, claim2, paper, paper_v, vfp, n, unit, tol);
}

int repro_seed002_paper4(struct repro_table *t, struct ibn_err *e)
{
    int n = nseeds();
    struct repro_series *s = sets("seed002/paper4-silent.cfg", "seed002/paper4-silent-ccon.cfg",
                                  1, NULL, 0, n, e);
    if (!s)
        return -1;
    double h0[MAXSEEDS], o0[MAXSEEDS], t0[MAXSEEDS], h[3][MAXSEEDS], o[3][MAXSEEDS], tt[3][MAXSEEDS],
        gain[3][MAXSEEDS];
    for (int q = 0; q < n; q++) {
        const struct receive_classes *off = &s[3 * q + OFF].rc;
        h0[q] = off->hot_gbps, o0[q] = off->other_gbps, t0[q] = off->total_gbps;
        for (int r = CAL; r <= FP; r++) {
            const struct receive_classes *on = &s[3 * q + r].rc;
            h[r][q] = on->hot_gbps, o[r][q] = on->other_gbps, tt[r][q] = on->total_gbps;
            gain[r][q] = t0[q] > 0 ? tt[r][q] / t0[q] : 0;
        }
    }
    repro_add_reps(t, REPRO_EVIDENCE, "p4.silent.off.hot", "Paper IV Table II, silent forest, CC "
                   "off: hot spots' average receive rate", "13.602", 13.602, h0, n, "Gb/s",
                   repro_tol("13.602", 13.602));
    repro_add_reps(t, REPRO_EVIDENCE, "p4.silent.off.other", "Paper IV Table II, silent forest, CC "
                   "off: other nodes' average receive rate", "0.168", 0.168, o0, n, "Gb/s",
                   repro_tol("0.168", 0.168));
    repro_add_reps(t, REPRO_DERIVED, "p4.silent.off.total", "Paper IV Table II, silent forest, CC "
                   "off: total network throughput (8 x hot spots + 640 x others)", "216.073",
                   216.073, t0, n, "Gb/s", repro_tol("216.073", 216.073));
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.silent.on.hot", "Paper IV Table II, silent forest, "
         "CC on: hot spots' average receive rate (-2.4 % from CC off)", "13.279", 13.279, h[CAL],
         h[FP], n, "Gb/s");
    both(t, REPRO_DERIVED, REPRO_EVIDENCE, "p4.silent.on.other", "Paper IV Table II, silent forest, "
         "CC on: other nodes' average receive rate (with the calibrated CCT: total - 8 hot spots, "
         "over 640, the total being fitted)", "2.246", 2.246, o[CAL], o[FP], n, "Gb/s");
    both(t, REPRO_CALIBRATED, REPRO_DERIVED, "p4.silent.on.total", "Paper IV Table II, silent "
         "forest, CC on: total network throughput (the number the calibrated CCT scale is fitted "
         "to; else 8 x hot spots + 640 x others)", "1543.793", 1543.793, tt[CAL], tt[FP], n, "Gb/s");
    both(t, REPRO_DERIVED, REPRO_DERIVED, "p4.silent.gain", "Paper IV: total throughput CC on / off "
         "(+610 %, x7.14; a ratio of the two totals)", "7.14", 7.145, gain[CAL], gain[FP], n, "x");
    sets_free(s, 3 * n);
    return 0;
}

int repro_seed002_windy(struct repro_table *t, struct ibn_err *e)
{
    enum { NP = 3 };
    static const double ps[NP] = { 0.0, 0.1, 0.6 };
    /* Paper IV Fig. 5 and its text, 25 % B: CC's non-hot-spot rate as a share of tmax
     * ("88 %", "60 %", "~80 %"), and CC / no CC at p = 0.1 and 0.6. At p = 0 the text gives both
     * rates (4.75 and 0.55 Gb/s; 4.75 / 5.4 = 88 %), so its gain x8.6 is their ratio. */
    static const char *const share_txt[NP] = { "0.88", "0.60", "~0.80" };
    static const double share_paper[NP] = { 0.88, 0.60, 0.80 };
    static const char *const gain_txt[NP] = { "8.6", "9.1", "16.3" };
    static const double gain_paper[NP] = { 8.6, 9.1, 16.3 };
    int n = nseeds();
    char o[NP][64];
    const char *ov[NP][6];
    for (int k = 0; k < NP; k++) {
        snprintf(o[k], sizeof o[k], "flows.Q.pattern.p=%g", ps[k]);
        ov[k][0] = o[k];
    }
    struct repro_series *s = sets("seed002/paper4-windy.cfg", "seed002/paper4-windy-ccon.cfg", NP,
                                  (const char *const (*)[6])ov, 1, n, e);
    if (!s)
        return -1;
    double gain[NP][3][MAXSEEDS];
    for (int k = 0; k < NP; k++) {
        double share[3][MAXSEEDS], hot[3][MAXSEEDS], off[MAXSEEDS], tgain[3][MAXSEEDS];
        double tmax = 13.5 * (0.15 + 0.25 * (1 - ps[k]));
        for (int q = 0; q < n; q++) {
            const struct receive_classes *c0 = &s[3 * (k * n + q) + OFF].rc;
            off[q] = c0->other_gbps;
            for (int r = CAL; r <= FP; r++) {
                const struct receive_classes *c1 = &s[3 * (k * n + q) + r].rc;
                share[r][q] = c1->other_gbps / tmax;
                hot[r][q] = c1->hot_gbps;
                gain[k][r][q] = c0->other_gbps > 0 ? c1->other_gbps / c0->other_gbps : 0;
                tgain[r][q] = c0->total_gbps > 0 ? c1->total_gbps / c0->total_gbps : 0;
            }
        }
        char id[48], claim[200];
        snprintf(id, sizeof id, "p4.windy.p%02.0f.on_share", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: non-hot-spot receive "
                 "rate as a share of tmax = %.2f Gb/s (Fig. 5a and text)", ps[k], tmax);
        both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, share_txt[k], share_paper[k],
             share[CAL], share[FP], n, "fraction");
        if (k == 0)
            repro_add_reps(t, REPRO_EVIDENCE, "p4.windy.p00.off", "windy forest, 25 % B, p = 0, CC "
                           "off: non-hot-spot receive rate (Fig. 5a and text: 0.55 Gb/s)", "0.55",
                           0.55, off, n, "Gb/s", repro_tol("0.55", 0.55));
        snprintf(id, sizeof id, "p4.windy.p%02.0f.gain", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f: non-hot-spot receive rate CC on "
                 "/ off (Fig. 5a%s)", ps[k], k == 0 ? "; the ratio of the two rows above" : "");
        enum repro_kind kg = k == 0 ? REPRO_DERIVED : REPRO_EVIDENCE;
        both(t, kg, kg, id, claim, gain_txt[k], gain_paper[k], gain[k][CAL], gain[k][FP], n, "x");
        snprintf(id, sizeof id, "p4.windy.p%02.0f.hot_on", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: hot spots' receive rate "
                 "(Fig. 5b: 13.3, -2.2 %% from 13.6 without CC, whatever p)", ps[k]);
        both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, "13.3", 13.3, hot[CAL], hot[FP], n, "Gb/s");
        if (k == 2)
            both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.windy.p60.total_gain", "windy forest, 25 % "
                 "B, p = 0.6: total network throughput CC on / off (Fig. 5c: x8.7, the peak)", "8.7",
                 8.7, tgain[CAL], tgain[FP], n, "x");
    }
    for (int r = CAL; r <= FP; r++) {
        double rise[MAXSEEDS];
        for (int q = 0; q < n; q++)
            rise[q] = gain[2][r][q] - gain[0][r][q];
        repro_add_trend(t, r == CAL ? "p4.windy.gain_trend" : "p4fp.windy.gain_trend",
                        r == CAL ? "windy forest, 25 % B: the gain at p = 0.6 exceeds the gain at "
                                   "p = 0 (x16.3 vs x8.6; gain difference)"
                                 : "first-principles CCT: windy forest, 25 % B: the gain at p = 0.6 "
                                   "exceeds the gain at p = 0 (x16.3 vs x8.6; gain difference)",
                        "> 0", rise, n, "x", 0, INFINITY);
    }
    sets_free(s, 3 * NP * n);

    /* Paper IV IV-9: purely uniform traffic (100 % B nodes, p = 0): CC costs the non-hot-spot
     * receive rate 3 %. No trees to settle: measured 10-30 ms (a full load of 648 hosts, with
     * nearly every packet marked, is the heaviest run of the set). */
    static const char *const uni[1][6] = { { "flows.Q.pattern.p=0", "flows.Q.pattern.b_fraction=1",
                                             "flows.Q.pattern.c_fraction=0",
                                             "simulation.duration=30 ms",
                                             "simulation.warmup=10 ms", NULL } };
    s = sets("seed002/paper4-windy.cfg", "seed002/paper4-windy-ccon.cfg", 1, uni, 5, n, e);
    if (!s)
        return -1;
    double change[3][MAXSEEDS];
    for (int q = 0; q < n; q++)
        for (int r = CAL; r <= FP; r++) {
            double o0 = s[3 * q + OFF].rc.other_gbps, o1 = s[3 * q + r].rc.other_gbps;
            change[r][q] = o0 > 0 ? (o1 / o0 - 1) * 100 : 0;
        }
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.uniform.cc_change", "100 % B nodes, p = 0 (purely "
         "uniform traffic): change of the non-hot-spot receive rate when CC is turned on (Paper IV, "
         "Fig. 8 text: -3 %)", "-3", -3.0, change[CAL], change[FP], n, "%");
    sets_free(s, 3 * n);
    return 0;
}

int repro_seed002_moving(struct repro_table *t, struct ibn_err *e)
{
    enum { NL = 3 };
    static const char *const life[NL] = { "10 ms", "2 ms", "1 ms" };
    int n = nseeds();
    char o[NL][64];
    const char *ov[NL][6];
    for (int k = 0; k < NL; k++) {
        snprintf(o[k], sizeof o[k], "flows.Q.pattern.lifetime=%s", life[k]);
        ov[k][0] = o[k];
    }
    struct repro_series *s = sets("seed002/paper4-moving.cfg", "seed002/paper4-moving-ccon.cfg", NL,
                                  (const char *const (*)[6])ov, 1, n, e);
    if (!s)
        return -1;
    double gain[NL][3][MAXSEEDS];
    for (int k = 0; k < NL; k++) {
        double a0[MAXSEEDS], a1[3][MAXSEEDS];
        for (int q = 0; q < n; q++) {
            const struct repro_series *off = &s[3 * (k * n + q) + OFF];
            a0[q] = off->rc.total_gbps / off->nhosts * 1000;
            for (int r = CAL; r <= FP; r++) {
                const struct repro_series *on = &s[3 * (k * n + q) + r];
                a1[r][q] = on->rc.total_gbps / on->nhosts * 1000;
                gain[k][r][q] = a0[q] > 0 ? a1[r][q] / a0[q] : 0;
            }
        }
        if (k == 0) {
            repro_add_reps(t, REPRO_EVIDENCE, "p4.moving.10ms.off", "moving trees, lifetime 10 ms, "
                           "CC off: average receive rate of all nodes (Fig. 9a and text)", "467", 467,
                           a0, n, "Mb/s", repro_tol("467", 467));
            both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.moving.10ms.on", "moving trees, lifetime "
                 "10 ms, CC on: average receive rate of all nodes (Fig. 9a and text)", "723", 723,
                 a1[CAL], a1[FP], n, "Mb/s");
        }
        static const double gp[NL] = { 1.55, 1.10, 1.0 };
        static const char *const gps[NL] = { "1.55", "1.10", "~1" };
        char id[48], claim[200];
        snprintf(id, sizeof id, "p4.moving.%s.gain", k == 0 ? "10ms" : k == 1 ? "2ms" : "1ms");
        snprintf(claim, sizeof claim, "moving trees, lifetime %s: all-node receive rate CC on / off "
                 "(Fig. 9a and text%s)", life[k], k == 0 ? "; the ratio of the two rows above" : "");
        enum repro_kind kg = k == 0 ? REPRO_DERIVED : REPRO_EVIDENCE;
        both(t, kg, kg, id, claim, gps[k], gp[k], gain[k][CAL], gain[k][FP], n, "x");
    }
    for (int r = CAL; r <= FP; r++) {
        double fall[MAXSEEDS];
        for (int q = 0; q < n; q++) {
            double d1 = gain[0][r][q] - gain[1][r][q], d2 = gain[1][r][q] - gain[2][r][q];
            fall[q] = d1 < d2 ? d1 : d2;
        }
        repro_add_trend(t, r == CAL ? "p4.moving.gain_falls" : "p4fp.moving.gain_falls",
                        r == CAL ? "moving trees: the benefit of CC shrinks as the lifetime falls "
                                   "(the smaller of gain 10 ms - 2 ms and 2 ms - 1 ms)"
                                 : "first-principles CCT: moving trees: the benefit of CC shrinks "
                                   "as the lifetime falls (the smaller of the two gain steps)",
                        "> 0", fall, n, "x", 0, INFINITY);
    }
    sets_free(s, 3 * NL * n);
    return 0;
}

/* ---- Paper IV Figs. 5-8 (windy forests) and 9b-10 (moving trees): the experiments of issue 17
 * item 5 that the rows above leave out (docs/cc.md section 5.7). ---- */

/* One variant's numbers per seed: CC off, and CC on under the calibrated (CAL) and the
 * first-principles (FP) CCT. */
struct p4v {
    double off_other[MAXSEEDS], off_all[MAXSEEDS];
    double share[3][MAXSEEDS], other[3][MAXSEEDS], hot[3][MAXSEEDS];
    double gain[3][MAXSEEDS];   /* non-hot-spot receive rate CC on / off */
    double tgain[3][MAXSEEDS];  /* total network throughput CC on / off */
    double again[3][MAXSEEDS];  /* average receive rate of all nodes CC on / off (moving) */
};

static void p4v_fill(struct p4v *v, const struct repro_series *s, int n, double tmax)
{
    for (int q = 0; q < n; q++) {
        const struct repro_series *off = &s[3 * q + OFF];
        v->off_other[q] = off->rc.other_gbps;
        v->off_all[q] = off->nhosts > 0 ? off->rc.total_gbps / off->nhosts : 0;
        for (int r = CAL; r <= FP; r++) {
            const struct repro_series *on = &s[3 * q + r];
            double all = on->nhosts > 0 ? on->rc.total_gbps / on->nhosts : 0;
            v->other[r][q] = on->rc.other_gbps;
            v->share[r][q] = tmax > 0 ? on->rc.other_gbps / tmax : 0;
            v->hot[r][q] = on->rc.hot_gbps;
            v->gain[r][q] = off->rc.other_gbps > 0 ? on->rc.other_gbps / off->rc.other_gbps : 0;
            v->tgain[r][q] = off->rc.total_gbps > 0 ? on->rc.total_gbps / off->rc.total_gbps : 0;
            v->again[r][q] = v->off_all[q] > 0 ? all / v->off_all[q] : 0;
        }
    }
}

/* tmax of Paper IV Fig. 5a: the non-hot-spot receive rate if the hot spots took nothing more
 * than their share of the uniform traffic: the V nodes (20 % of the non-B nodes) and the B
 * nodes' uniform class (1 - p of their bytes) at 13.5 Gb/s, spread over all hosts. */
static double tmax_of(double b, double p)
{
    return 13.5 * (0.2 * (1 - b) + b * (1 - p));
}

/* A number the paper gives only as the ends of a range over several p ("a factor ranging from
 * 12.9 to 16.3"): an evidence row whose band is [lo - tol(lo), hi + tol(hi)], each end with the
 * tolerance its own printed precision gives (repro_tol). */
static void both_band(struct repro_table *t, const char *id, const char *claim, const char *lo_txt,
                      double lo, const char *hi_txt, double hi, const double *vcal,
                      const double *vfp, int n, const char *unit)
{
    double a = lo - repro_tol(lo_txt, lo), b = hi + repro_tol(hi_txt, hi);
    char paper[32], id2[48], claim2[224];
    snprintf(paper, sizeof paper, "%s..%s", lo_txt, hi_txt);
    repro_add_reps(t, REPRO_EVIDENCE, id, claim, paper, (a + b) / 2, vcal, n, unit, (b - a) / 2);
    fp_id(id2, sizeof id2, id);
    snprintf(claim2, sizeof claim2, "first-principles CCT: %s", claim);
    repro_add_reps(t, REPRO_EVIDENCE, id2, claim2, paper, (a + b) / 2, vfp, n, unit, (b - a) / 2);
}

/* An info row under both CCTs: no number in the paper to compare with. */
static void both_info(struct repro_table *t, const char *id, const char *claim, const double *vcal,
                      const double *vfp, int n, const char *unit)
{
    char id2[48], claim2[224];
    repro_add_reps(t, REPRO_INFO, id, claim, "-", NAN, vcal, n, unit, 0);
    fp_id(id2, sizeof id2, id);
    snprintf(claim2, sizeof claim2, "first-principles CCT: %s", claim);
    repro_add_reps(t, REPRO_INFO, id2, claim2, "-", NAN, vfp, n, unit, 0);
}

/* A trend row under both CCTs: v[CAL] and v[FP] must lie (whole 95 % interval) in (lo, hi). */
static void both_trend(struct repro_table *t, const char *id, const char *claim, const char *paper,
                       double (*v)[MAXSEEDS], int n, const char *unit, double lo, double hi)
{
    char id2[48], claim2[224];
    repro_add_trend(t, id, claim, paper, v[CAL], n, unit, lo, hi);
    fp_id(id2, sizeof id2, id);
    snprintf(claim2, sizeof claim2, "first-principles CCT: %s", claim);
    repro_add_trend(t, id2, claim2, paper, v[FP], n, unit, lo, hi);
}

/* Runs the variants (one override each) of a CC-off / CC-on scenario pair over the seeds and
 * fills v[0..nv-1]; tmax[k] for the share (NULL: none). */
static int grid(const char *off_file, const char *on_file, int nv, const char *const *var,
                const double *tmax, struct p4v *v, int n, struct ibn_err *e)
{
    const char *ov[16][6];
    if (nv > 16)
        return ibn_err_set(e, "paper IV grid: too many variants"), -1;
    for (int k = 0; k < nv; k++)
        ov[k][0] = var[k];
    struct repro_series *s = sets(off_file, on_file, nv, (const char *const (*)[6])ov, 1, n, e);
    if (!s)
        return -1;
    for (int k = 0; k < nv; k++)
        p4v_fill(&v[k], s + 3 * k * n, n, tmax ? tmax[k] : 0);
    sets_free(s, 3 * nv * n);
    return 0;
}

/* The variants of a p grid: one override `flows.Q.pattern.p=P` per p, and each p's tmax for a
 * B fraction b. */
static void p_variants(int np, const double *ps, double b, char (*o)[48], const char **var,
                       double *tmax)
{
    for (int k = 0; k < np; k++) {
        snprintf(o[k], sizeof o[k], "flows.Q.pattern.p=%g", ps[k]);
        var[k] = o[k];
        tmax[k] = tmax_of(b, ps[k]);
    }
}

/* Paper IV Fig. 5 (25 % B nodes) at the p values `windy` leaves out (windy: 0, 0.1, 0.6). The
 * text's numbers for them: the non-hot-spot gain CC on / off "ranging from 12.9 to 16.3" as p
 * goes from 30 to 100 (the peak, 16.3, at p = 60); CC's share of tmax back at ~80 % from p = 60
 * on, "where it stays as p reaches the value of 100"; the hot spots 13.3 Gb/s with CC whatever
 * p (Fig. 5b); the total-throughput factor "ranging from 6.0 (p = 100) to 8.7 (p = 60)"
 * (Fig. 5c). At p = 0.2 the text gives no number: the gain is a trend (> 1, "an immense
 * improvement ... independent of the value of p"), and the shares at 0.2-0.5 are info. */
int repro_seed002_fig5(struct repro_table *t, struct ibn_err *e)
{
    enum { NP = 8 };
    static const double ps[NP] = { 0.2, 0.3, 0.4, 0.5, 0.7, 0.8, 0.9, 1.0 };
    static struct p4v v[NP];
    char o[NP][48];
    const char *var[NP];
    double tmax[NP];
    int n = nseeds();
    p_variants(NP, ps, 0.25, o, var, tmax);
    if (grid("seed002/paper4-windy.cfg", "seed002/paper4-windy-ccon.cfg", NP, var, tmax,
             v, n, e))
        return -1;
    for (int k = 0; k < NP; k++) {
        int pc = (int)lround(ps[k] * 100);
        char id[48], claim[224];
        snprintf(id, sizeof id, "p4.fig5.p%02d.gain", pc);
        if (pc >= 30) {
            snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f: non-hot-spot receive "
                     "rate CC on / off (Fig. 5a; text: from 12.9 to 16.3 as p goes from 30 to 100)",
                     ps[k]);
            both_band(t, id, claim, "12.9", 12.9, "16.3", 16.3, v[k].gain[CAL], v[k].gain[FP], n,
                      "x");
        } else {
            snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f: non-hot-spot receive "
                     "rate CC on / off > 1 (Fig. 5a: an immense improvement whatever p)", ps[k]);
            both_trend(t, id, claim, "> 1", v[k].gain, n, "x", 1, INFINITY);
        }
        snprintf(id, sizeof id, "p4.fig5.p%02d.on_share", pc);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: non-hot-spot receive "
                 "rate as a share of tmax = %.2f Gb/s (Fig. 5a%s)", ps[k], tmax[k],
                 pc >= 70 ? "; text: back at 80 % from p = 60, where it stays up to 100"
                          : "; no number in the text");
        if (pc >= 70)
            both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, "~0.80", 0.80, v[k].share[CAL],
                 v[k].share[FP], n, "fraction");
        else
            both_info(t, id, claim, v[k].share[CAL], v[k].share[FP], n, "fraction");
        snprintf(id, sizeof id, "p4.fig5.p%02d.hot_on", pc);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: hot spots' receive "
                 "rate (Fig. 5b: 13.3, -2.2 %% from 13.6 without CC, whatever p)", ps[k]);
        both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, "13.3", 13.3, v[k].hot[CAL],
             v[k].hot[FP], n, "Gb/s");
        snprintf(id, sizeof id, "p4.fig5.p%02d.total_gain", pc);
        if (pc == 100) {
            snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = 1.0: total network throughput "
                     "CC on / off (Fig. 5c and text: x6.0 at p = 100, the smallest)");
            both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, "6.0", 6.0, v[k].tgain[CAL],
                 v[k].tgain[FP], n, "x");
        } else {
            snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f: total network "
                     "throughput CC on / off (Fig. 5c; text: from 6.0 (p = 100) to 8.7 (p = 60))",
                     ps[k]);
            both_band(t, id, claim, "6.0", 6.0, "8.7", 8.7, v[k].tgain[CAL], v[k].tgain[FP], n,
                      "x");
        }
    }
    return 0;
}

/* Paper IV Fig. 8, 100 % B nodes (purely windy trees), p = 0.1, 0.6, 0.9, 1.0 (p = 0 is windy's
 * p4.uniform.cc_change). Text: the non-hot-spot rate CC on / off x4.1 at p = 10, "increasing to
 * 64.1 times as p approaches 90"; with CC the non-hot spots get "very close to the theoretical
 * maximum when p > 60"; CC "has no negative effect on the receive rate of the hotspots" (13.6
 * Gb/s, their limit: such rows are cap); the total throughput CC on / off peaks at p = 60,
 * "a seventeen-fold increase", with "virtually no effect" at p = 100. */
int repro_seed002_fig8(struct repro_table *t, struct ibn_err *e)
{
    enum { NP = 4 };
    static const double ps[NP] = { 0.1, 0.6, 0.9, 1.0 };
    static struct p4v v[NP];
    char o[NP][48];
    const char *var[NP];
    double tmax[NP];
    int n = nseeds();
    p_variants(NP, ps, 1.0, o, var, tmax);
    if (grid("seed002/paper4-windy-b100.cfg", "seed002/paper4-windy-b100-ccon.cfg", NP, var,
             tmax, v, n, e))
        return -1;
    /* The B nodes' uniform budget bounds the non-hot-spot rate: a row at tmax is a cap. */
    repro_cap_note("B uniform budget (1 - p) x 13.5", tmax[2]);
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig8.p10.gain", "windy trees, 100 % B, p = 0.1: "
         "non-hot-spot receive rate CC on / off (Fig. 8a and text: x4.1)", "4.1", 4.1,
         v[0].gain[CAL], v[0].gain[FP], n, "x");
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig8.p90.gain", "windy trees, 100 % B, p = 0.9: "
         "non-hot-spot receive rate CC on / off (Fig. 8a and text: x64.1 as p approaches 90)",
         "64.1", 64.1, v[2].gain[CAL], v[2].gain[FP], n, "x");
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig8.p90.on_other", "windy trees, 100 % B, p = 0.9, "
         "CC on: non-hot-spot receive rate, tmax = 1.35 Gb/s (Fig. 8a and text: very close to the "
         "theoretical maximum when p > 60)", "~1.35", 1.35, v[2].other[CAL], v[2].other[FP], n,
         "Gb/s");
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig8.p60.total_gain", "windy trees, 100 % B, "
         "p = 0.6: total network throughput CC on / off (Fig. 8c and text: the peak, a "
         "seventeen-fold increase)", "17", 17, v[1].tgain[CAL], v[1].tgain[FP], n, "x");
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig8.p100.total_gain", "windy trees, 100 % B, "
         "p = 1.0: total network throughput CC on / off (Fig. 8c and text: virtually no effect)",
         "~1", 1, v[3].tgain[CAL], v[3].tgain[FP], n, "x");
    for (int k = 0; k < NP; k++) {
        char id[48], claim[224];
        snprintf(id, sizeof id, "p4.fig8.p%02.0f.hot_on", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy trees, 100 %% B, p = %.1f, CC on: hot spots' receive "
                 "rate (Fig. 8b and text: no negative effect, 13.6 Gb/s as without CC)", ps[k]);
        both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, id, claim, "13.6", 13.6, v[k].hot[CAL],
             v[k].hot[FP], n, "Gb/s");
    }
    double rise[3][MAXSEEDS], peak[3][MAXSEEDS];
    for (int r = CAL; r <= FP; r++)
        for (int q = 0; q < n; q++) {
            rise[r][q] = v[2].gain[r][q] - v[0].gain[r][q];
            peak[r][q] = fmin(v[1].tgain[r][q] - v[0].tgain[r][q],
                              v[1].tgain[r][q] - v[3].tgain[r][q]);
        }
    both_trend(t, "p4.fig8.gain_rises", "windy trees, 100 % B: the non-hot-spot gain at p = 0.9 "
               "exceeds the gain at p = 0.1 (x64.1 vs x4.1; gain difference)", "> 0", rise, n,
               "x", 0, INFINITY);
    both_trend(t, "p4.fig8.peak", "windy trees, 100 % B: the total-throughput gain at p = 0.6 "
               "exceeds those at p = 0.1 and 1.0 (Fig. 8c: peak at 60; the smaller difference)",
               "> 0", peak, n, "x", 0, INFINITY);
    return 0;
}

/* Paper IV Figs. 6 and 7, 50 % and 75 % B nodes (the rest 80 % C, 20 % V), p = 0, 0.6, 1.0.
 * The text gives no numbers, only that "the performance trends are the same" as Fig. 5 (CC
 * improves the non-hot-spot rate at every p: trend > 1) and that the total-throughput curve
 * "become[s] increasingly more cap-shaped as the fraction of B nodes increases. At low and high
 * p values the total network throughput improvement decreases, while the peak at p = 60
 * increases": so the peak lies between Fig. 5's x8.7 (25 % B) and Fig. 8's x17 (100 % B) and
 * rises from 50 % to 75 %, the p = 100 factor between Fig. 8's ~1 and Fig. 5's 6.0 and falls,
 * and the p = 0 factor falls from 50 % to 75 %. The hot spots ("without penalizing") are info:
 * Fig. 5 calls its -2.2 % negligible, so the text gives no number to hold them to. */
int repro_seed002_fig67(struct repro_table *t, struct ibn_err *e)
{
    enum { NB = 2, NP = 3 };
    static const double bs[NB] = { 0.5, 0.75 };
    static const double ps[NP] = { 0.0, 0.6, 1.0 };
    static struct p4v v[NB][NP];
    int n = nseeds();
    static const char *const files[NB][2] = {
        { "seed002/paper4-windy-b50.cfg", "seed002/paper4-windy-b50-ccon.cfg" },
        { "seed002/paper4-windy-b75.cfg", "seed002/paper4-windy-b75-ccon.cfg" },
    };
    for (int b = 0; b < NB; b++) {
        char o[NP][48];
        const char *var[NP];
        double tmax[NP];
        p_variants(NP, ps, bs[b], o, var, tmax);
        if (grid(files[b][0], files[b][1], NP, var, tmax, v[b], n, e))
            return -1;
    }
    for (int b = 0; b < NB; b++) {
        int fig = b == 0 ? 6 : 7, pb = (int)lround(bs[b] * 100);
        for (int k = 0; k < NP; k++) {
            int pc = (int)lround(ps[k] * 100);
            char id[48], claim[224];
            snprintf(id, sizeof id, "p4.fig%d.p%02d.gain", fig, pc);
            snprintf(claim, sizeof claim, "windy forest, %d %% B, p = %.1f: non-hot-spot receive "
                     "rate CC on / off > 1 (Fig. %da; text: a vast improvement, the trends of "
                     "Fig. 5)", pb, ps[k], fig);
            both_trend(t, id, claim, "> 1", v[b][k].gain, n, "x", 1, INFINITY);
            snprintf(id, sizeof id, "p4.fig%d.p%02d.hot_on", fig, pc);
            snprintf(claim, sizeof claim, "windy forest, %d %% B, p = %.1f, CC on: hot spots' "
                     "receive rate (Fig. %db; text: not penalized, no number)", pb, ps[k], fig);
            both_info(t, id, claim, v[b][k].hot[CAL], v[b][k].hot[FP], n, "Gb/s");
        }
        char id[48], claim[224];
        snprintf(id, sizeof id, "p4.fig%d.p60.total_gain", fig);
        snprintf(claim, sizeof claim, "windy forest, %d %% B, p = 0.6: total network throughput CC "
                 "on / off between Fig. 5's x8.7 (25 %% B) and Fig. 8's x17 (100 %% B) (Fig. %dc; "
                 "text: the peak increases with the B fraction)", pb, fig);
        both_trend(t, id, claim, "8.7..17", v[b][1].tgain, n, "x", 8.7, 17);
        snprintf(id, sizeof id, "p4.fig%d.p100.total_gain", fig);
        snprintf(claim, sizeof claim, "windy forest, %d %% B, p = 1.0: total network throughput CC "
                 "on / off between Fig. 8's ~1 (100 %% B) and Fig. 5's x6.0 (25 %% B) (Fig. %dc; "
                 "text: decreases at high p as the B fraction grows)", pb, fig);
        both_trend(t, id, claim, "1..6.0", v[b][2].tgain, n, "x", 1, 6.0);
        double pk[3][MAXSEEDS];
        for (int r = CAL; r <= FP; r++)
            for (int q = 0; q < n; q++)
                pk[r][q] = fmin(v[b][1].tgain[r][q] - v[b][0].tgain[r][q],
                                v[b][1].tgain[r][q] - v[b][2].tgain[r][q]);
        snprintf(id, sizeof id, "p4.fig%d.peak", fig);
        snprintf(claim, sizeof claim, "windy forest, %d %% B: the total-throughput gain at p = 0.6 "
                 "exceeds those at p = 0 and 1.0 (Fig. %dc: cap-shaped; the smaller difference)",
                 pb, fig);
        both_trend(t, id, claim, "> 0", pk, n, "x", 0, INFINITY);
    }
    static const struct { const char *id, *what; int p, sign; } tr[] = {
        { "p4.fig67.peak_rises", "the total-throughput gain at p = 0.6 is larger with 75 % B "
          "than with 50 % (the peak increases)", 1, 1 },
        { "p4.fig67.low_falls", "the total-throughput gain at p = 0 is smaller with 75 % B than "
          "with 50 % (decreases at low p)", 0, -1 },
        { "p4.fig67.high_falls", "the total-throughput gain at p = 1.0 is smaller with 75 % B than "
          "with 50 % (decreases at high p)", 2, -1 },
    };
    for (size_t i = 0; i < sizeof tr / sizeof tr[0]; i++) {
        double d[3][MAXSEEDS];
        for (int r = CAL; r <= FP; r++)
            for (int q = 0; q < n; q++)
                d[r][q] = tr[i].sign * (v[1][tr[i].p].tgain[r][q] - v[0][tr[i].p].tgain[r][q]);
        char claim[224];
        snprintf(claim, sizeof claim, "windy forests, Figs. 6c and 7c: %s (difference%s)",
                 tr[i].what, tr[i].sign < 0 ? ", 50 % minus 75 %" : ", 75 % minus 50 %");
        both_trend(t, tr[i].id, claim, "> 0", d, n, "x", 0, INFINITY);
    }
    return 0;
}

/* Paper IV Fig. 9b: moving silent trees with 60 % V and 40 % C nodes. Text: the average receive
 * rate of all nodes CC on / off "a factor 2.6" at a 10 ms lifetime, "down to 10 % again" at
 * 1 ms (x1.10); the advantage decreases as the lifetime falls. */
int repro_seed002_fig9b(struct repro_table *t, struct ibn_err *e)
{
    enum { NL = 2 };
    static const char *const var[NL] = { "flows.Q.pattern.lifetime=10 ms",
                                         "flows.Q.pattern.lifetime=1 ms" };
    static struct p4v v[NL];
    int n = nseeds();
    if (grid("seed002/paper4-moving-v60.cfg", "seed002/paper4-moving-v60-ccon.cfg", NL, var,
             NULL, v, n, e))
        return -1;
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig9b.10ms.gain", "moving trees, 40 % C / 60 % V, "
         "lifetime 10 ms: all-node average receive rate CC on / off (Fig. 9b and text: a factor "
         "2.6)", "2.6", 2.6, v[0].again[CAL], v[0].again[FP], n, "x");
    both(t, REPRO_EVIDENCE, REPRO_EVIDENCE, "p4.fig9b.1ms.gain", "moving trees, 40 % C / 60 % V, "
         "lifetime 1 ms: all-node average receive rate CC on / off (Fig. 9b and text: down to "
         "+10 %)", "1.10", 1.10, v[1].again[CAL], v[1].again[FP], n, "x");
    double fall[3][MAXSEEDS];
    for (int r = CAL; r <= FP; r++)
        for (int q = 0; q < n; q++)
            fall[r][q] = v[0].again[r][q] - v[1].again[r][q];
    both_trend(t, "p4.fig9b.gain_falls", "moving trees, 40 % C / 60 % V: the gain at 10 ms exceeds "
               "the gain at 1 ms (Fig. 9b; gain difference)", "> 0", fall, n, "x", 0, INFINITY);
    double off[MAXSEEDS];
    for (int k = 0; k < NL; k++) {
        for (int q = 0; q < n; q++)
            off[q] = v[k].off_all[q] * 1000;
        repro_add_reps(t, REPRO_INFO, k == 0 ? "p4.fig9b.10ms.off" : "p4.fig9b.1ms.off",
                       k == 0 ? "moving trees, 40 % C / 60 % V, lifetime 10 ms, CC off: all-node "
                                "average receive rate (Fig. 9b; no number in the text)"
                              : "moving trees, 40 % C / 60 % V, lifetime 1 ms, CC off: all-node "
                                "average receive rate (Fig. 9b; no number in the text)",
                       "-", NAN, off, n, "Mb/s", 0);
    }
    return 0;
}

/* Paper IV Fig. 10: moving windy trees, 100 % B nodes, p = 0.3, 0.6, 0.9, lifetimes 10 and 1 ms.
 * Text only: "the enabling of CC leads to an improvement in performance in all cases, even
 * though the improvement decreases as the hotspot life time decreases": a trend > 1 per case and
 * a falling gain per p. */
int repro_seed002_fig10(struct repro_table *t, struct ibn_err *e)
{
    enum { NP = 3, NL = 2, NV = NP * NL };
    static const double ps[NP] = { 0.3, 0.6, 0.9 };
    static const char *const life[NL] = { "10 ms", "1 ms" };
    static struct p4v v[NV];
    char o[NV][48], l[NV][48];
    const char *ov[NV][6];
    int n = nseeds();
    for (int k = 0; k < NP; k++)
        for (int j = 0; j < NL; j++) {
            snprintf(o[k * NL + j], sizeof o[0], "flows.Q.pattern.p=%g", ps[k]);
            snprintf(l[k * NL + j], sizeof l[0], "flows.Q.pattern.lifetime=%s", life[j]);
            ov[k * NL + j][0] = o[k * NL + j];
            ov[k * NL + j][1] = l[k * NL + j];
        }
    struct repro_series *s = sets("seed002/paper4-moving-b100.cfg",
                                  "seed002/paper4-moving-b100-ccon.cfg", NV,
                                  (const char *const (*)[6])ov, 2, n, e);
    if (!s)
        return -1;
    for (int k = 0; k < NV; k++)
        p4v_fill(&v[k], s + 3 * k * n, n, 0);
    sets_free(s, 3 * NV * n);
    for (int k = 0; k < NP; k++) {
        int pc = (int)lround(ps[k] * 100);
        char id[48], claim[224];
        for (int j = 0; j < NL; j++) {
            snprintf(id, sizeof id, "p4.fig10.p%02d.%s.gain", pc, j == 0 ? "10ms" : "1ms");
            snprintf(claim, sizeof claim, "moving windy trees, 100 %% B, p = %.1f, lifetime %s: "
                     "all-node average receive rate CC on / off > 1 (Fig. 10; text: an "
                     "improvement in all cases)", ps[k], life[j]);
            both_trend(t, id, claim, "> 1", v[k * NL + j].again, n, "x", 1, INFINITY);
        }
        double fall[3][MAXSEEDS];
        for (int r = CAL; r <= FP; r++)
            for (int q = 0; q < n; q++)
                fall[r][q] = v[k * NL].again[r][q] - v[k * NL + 1].again[r][q];
        snprintf(id, sizeof id, "p4.fig10.p%02d.gain_falls", pc);
        snprintf(claim, sizeof claim, "moving windy trees, 100 %% B, p = %.1f: the gain at 10 ms "
                 "exceeds the gain at 1 ms (Fig. 10; gain difference)", ps[k]);
        both_trend(t, id, claim, "> 0", fall, n, "x", 0, INFINITY);
    }
    return 0;
}

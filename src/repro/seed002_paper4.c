/* seed002_paper4.c: seed 002 Paper IV reproductions on the 648-node fat tree (digest 002b
 * sections 2.5 and 5.1): the silent forest with congestion control off and on (Table II:
 * average receive rate of the hot spots and of the other nodes, total network throughput), the
 * windy forest with 25 % B nodes over the hot-spot share p (Fig. 5) and purely uniform traffic
 * (100 % B, p = 0), and moving trees over the hot-spot lifetime (Fig. 9a). Every run is
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

/* seed002_cc.c: the seed 002 congestion-control reproductions (digest 002a sections 5, 7.3,
 * 7.4; 002b section 5.1), each a run of scenarios/seed002/ files compared with the papers'
 * numbers:
 *   s1     Papers I/III scenario 1 with CC on (Table I): the victim keeps ~13 Gb/s, 6.5x its
 *          CC-off throughput; the four contributors share H5 about 1/4 each
 *   s2     Paper III scenario 2 (Table II): CC off 10.43 Gb/s per flow, steady; CC on 3.5 %
 *          lower with large oscillation
 *   p2     Paper II Type I: one threshold lets the newest contributor take more; two thresholds
 *          give equal shares
 *   timer  Paper III CCTI_Timer sweep: the victim suffers below ~150 us; the treatment
 *          variation grows with the timer
 * Windows: a steady state is measured from 0.3 s after the last flow started to the end. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "repro/repro.h"
#include "stats/measures.h"

static const char *const S1_ON = "seed002/testbed-scenario1-ccon.cfg";
static const char *const S1_OFF = "seed002/testbed-scenario1-ccoff.cfg";

static int flow_or_fail(const struct repro_series *s, const char *name, struct ibn_err *e)
{
    int i = repro_flow(s, name);
    if (i < 0)
        ibn_err_set(e, "reproduction: the scenario has no flow %s", name);
    return i;
}

static int run_s1(struct repro_table *t, struct ibn_err *e)
{
    struct repro_series on, off;
    if (repro_run(S1_ON, NULL, 0, &on, e))
        return -1;
    if (repro_run(S1_OFF, NULL, 0, &off, e)) {
        repro_series_free(&on);
        return -1;
    }
    const char *names[5] = { "F1", "F2", "F3", "F4", "F5" };
    int col[5];
    for (int i = 0; i < 5; i++)
        if ((col[i] = flow_or_fail(&on, names[i], e)) < 0) {
            repro_series_free(&on), repro_series_free(&off);
            return -1;
        }
    double a = 4.3, b = 5.0;
    double v_on = repro_mean(&on, col[0], a, b), v_off = repro_mean(&off, col[0], a, b);
    repro_add(t, "s1.ccon.victim", "scenario 1, CC on, all five flows: victim F1 keeps ~13 Gb/s "
              "(Paper III Fig. 7b)", "13", 13.0, v_on, "Gb/s", 1.3, 0);
    repro_add(t, "s1.ccoff.victim", "scenario 1, CC off, all five flows: victim F1 HoL-blocked "
              "to ~2 Gb/s (Paper III Fig. 7a)", "2", 2.0, v_off, "Gb/s", 0.4, 0);
    repro_add(t, "s1.victim_gain", "victim throughput CC on / CC off (Fig. 7: 13/2; the text "
              "says an order of magnitude)", "6.5", 6.5, v_off > 0 ? v_on / v_off : 0, "x", 1.5, 0);
    double c[4], total = 0;
    for (int i = 0; i < 4; i++)
        total += c[i] = repro_mean(&on, col[i + 1], a, b);
    for (int i = 0; i < 4; i++) {
        char id[48], claim[160];
        snprintf(id, sizeof id, "s1.ccon.share.%s", names[i + 1]);
        snprintf(claim, sizeof claim, "scenario 1, CC on: %s's fraction of the contributors' "
                 "throughput (Paper III Fig. 8: 1/4 each; CC off 1/6, 1/6, 1/3, 1/3)", names[i + 1]);
        repro_add(t, id, claim, "1/4", 0.25, total > 0 ? c[i] / total : 0, "fraction", 0.05, 0);
    }
    repro_add(t, "s1.ccon.contributors", "scenario 1, CC on: contributors together use H5's "
              "~13 Gb/s (Paper III: the cost of CC disappears once F4 and F5 join)", "13", 13.0,
              total, "Gb/s", 1.3, 0);
    repro_add(t, "s1.ccon.jain", "scenario 1, CC on: Jain's index of the four contributors "
              "(equal shares: 1)", "1", 1.0, jain_index(c, 4), "index", 0.02, 0);
    repro_series_free(&on);
    repro_series_free(&off);
    return 0;
}

static void stats3(const struct repro_series *s, double a, double b, double *mean, double *sd,
                   double *mn, double *mx)
{
    double m = 0, v = 0;
    *mn = 1e300, *mx = 0;
    for (int i = 0; i < 3; i++) {
        m += repro_mean(s, i, a, b) / 3;
        double d = repro_sd(s, i, a, b);
        v += d * d / 3;
        for (int k = 0; k < s->nsamples; k++)
            if (s->t[k] > a + 1e-12 && s->t[k] <= b + 1e-12) {
                double x = s->x[(size_t)k * (size_t)s->nflows + (size_t)i];
                *mn = x < *mn ? x : *mn;
                *mx = x > *mx ? x : *mx;
            }
    }
    *mean = m;
    *sd = sqrt(v);
}

static int run_s2(struct repro_table *t, struct ibn_err *e)
{
    struct repro_series on, off;
    if (repro_run("seed002/testbed-scenario2-ccoff.cfg", NULL, 0, &off, e))
        return -1;
    if (repro_run("seed002/testbed-scenario2-ccon.cfg", NULL, 0, &on, e)) {
        repro_series_free(&off);
        return -1;
    }
    double a = 2.3, b = 4.0, m0, s0, mn0, mx0, m1, s1, mn1, mx1;
    stats3(&off, a, b, &m0, &s0, &mn0, &mx0);
    stats3(&on, a, b, &m1, &s1, &mn1, &mx1);
    repro_add(t, "s2.ccoff.mean", "scenario 2, CC off: mean throughput per flow (Table II a)",
              "10.428", 10.42764, m0, "Gb/s", 0.31, 0);
    repro_add(t, "s2.ccoff.sd", "scenario 2, CC off: SD of a flow's throughput (Table II a; "
              "10 ms samples here)", "0.042", 0.04203, s0, "Gb/s", 0.04, 0);
    repro_add(t, "s2.ccon.mean", "scenario 2, CC on: mean throughput per flow (Table II b)",
              "10.059", 10.05855, m1, "Gb/s", 0.5, 0);
    repro_add(t, "s2.ccon.drop", "scenario 2: mean throughput lost by turning CC on (Paper III)",
              "3.5", 3.54, m0 > 0 ? 100.0 * (m0 - m1) / m0 : 0, "%", 2.0, 0);
    repro_add(t, "s2.ccon.sd", "scenario 2, CC on: SD of a flow's throughput (Table II b)",
              "1.770", 1.77045, s1, "Gb/s", 0.9, 0);
    repro_add(t, "s2.ccon.max", "scenario 2, CC on: highest sample of any flow (Table II b)",
              "13.902", 13.90236, mx1, "Gb/s", 1.4, 0);
    repro_add(t, "s2.ccon.min", "scenario 2, CC on: lowest sample of any flow (Table II b)",
              "8.487", 8.48741, mn1, "Gb/s", 0.85, 0);
    repro_add(t, "s2.sd_ratio", "scenario 2: SD with CC on / SD with CC off (more than an order "
              "of magnitude; Table II: 42x)", "> 10", 42.1, s0 > 0 ? s1 / s0 : 1e9, "x", -1,
              s0 <= 0 || s1 / s0 > 10);
    repro_series_free(&on);
    repro_series_free(&off);
    return 0;
}

static int run_p2(struct repro_table *t, struct ibn_err *e)
{
    const char *file = "seed002/paper2-typeI.cfg";
    const char *single[] = { "cc.thresholds=single" }, *dbl[] = { "cc.thresholds=double" };
    struct repro_series s1, s2;
    if (repro_run(file, single, 1, &s1, e))
        return -1;
    if (repro_run(file, dbl, 1, &s2, e)) {
        repro_series_free(&s1);
        return -1;
    }
    int h2 = repro_flow(&s1, "H2-H5"), h3 = repro_flow(&s1, "H3-H5"), h6 = repro_flow(&s1, "H6-H5");
    double g2 = repro_mean(&s1, h2, 2.3, 3.0), g3 = repro_mean(&s1, h3, 2.3, 3.0);
    repro_add(t, "p2.single.h3_minus_h2", "Paper II Fig. 4, one threshold, 2-3 s: the newer H3 "
              "gets ~1 Gb/s more than H2 (a little more than 7 vs ~6)", "1", 1.0, g3 - g2, "Gb/s",
              0.5, 0);
    double g3b = repro_mean(&s1, h3, 3.3, 4.0), g6 = repro_mean(&s1, h6, 3.3, 4.0);
    double g2b = repro_mean(&s1, h2, 3.3, 4.0);
    repro_add(t, "p2.single.h6_over_h3", "Paper II Fig. 4, one threshold, 3-4 s: the newest H6 "
              "gets twice what H3 gets", "2", 2.0, g3b > 0 ? g6 / g3b : 0, "x", 0.5, 0);
    repro_add(t, "p2.single.newest_2s", "Paper II Fig. 4, one threshold, 2-3 s: the newest "
              "contributor H3 gets more than H2 (H3 - H2)", "> 0", 1.0, g3 - g2, "Gb/s", -1,
              g3 > g2);
    repro_add(t, "p2.single.newest_3s", "Paper II Fig. 4, one threshold, 3-4 s: the newest "
              "contributor H6 gets the most (H6 / the larger of H2, H3)", "> 1", 2.0,
              g6 / (g2b > g3b ? g2b : g3b), "x", -1, g6 > g2b && g6 > g3b);
    const char *c4[4] = { "H2-H5", "H3-H5", "H6-H5", "H7-H5" };
    double x[4], mx = 0, mn = 1e300;
    double y[4], ymx = 0, ymn = 1e300;
    for (int i = 0; i < 4; i++) {
        x[i] = repro_mean(&s2, repro_flow(&s2, c4[i]), 4.3, 5.0);
        mx = x[i] > mx ? x[i] : mx;
        mn = x[i] < mn ? x[i] : mn;
        y[i] = repro_mean(&s1, repro_flow(&s1, c4[i]), 4.3, 5.0);
        ymx = y[i] > ymx ? y[i] : ymx;
        ymn = y[i] < ymn ? y[i] : ymn;
    }
    repro_add(t, "p2.single.unfair_4s", "Paper II Fig. 4, one threshold, 4-5 s: \"the unfairness "
              "is still present\" (largest / smallest of the four contributors)", "> 1.3", 2.0,
              ymn > 0 ? ymx / ymn : 0, "x", -1, ymn > 0 && ymx / ymn > 1.3);
    repro_add(t, "p2.double.max_over_min", "Paper II Fig. 7, two thresholds 3.1 MTU apart, four "
              "contributors: equal shares (largest / smallest)", "1", 1.0, mn > 0 ? mx / mn : 0,
              "x", 0.15, 0);
    repro_add(t, "p2.double.jain", "Paper II Fig. 7, two thresholds: Jain's index of the four "
              "contributors", "1", 1.0, jain_index(x, 4), "index", 0.02, 0);
    repro_series_free(&s1);
    repro_series_free(&s2);
    return 0;
}

static int run_timer(struct repro_table *t, struct ibn_err *e)
{
    static const int timers[] = { 10, 20, 50, 150, 300, 1000, 2000 };
    enum { NT = sizeof timers / sizeof timers[0] };
    double victim[NT], var[NT], contrib[NT];
    for (int k = 0; k < NT; k++) {
        char o[64];
        snprintf(o, sizeof o, "cc.ccti_timer=%d", timers[k]);
        const char *ov[] = { o };
        struct repro_series s;
        if (repro_run(S1_ON, ov, 1, &s, e))
            return -1;
        int col[5];
        const char *names[5] = { "F1", "F2", "F3", "F4", "F5" };
        for (int i = 0; i < 5; i++)
            col[i] = repro_flow(&s, names[i]);
        victim[k] = repro_mean(&s, col[0], 4.3, 5.0);
        contrib[k] = 0;
        for (int i = 1; i < 5; i++)
            contrib[k] += repro_mean(&s, col[i], 4.3, 5.0);
        /* Treatment variation over every sample with all four contributors active (4-5 s). */
        struct tv_acc acc;
        tv_init(&acc);
        for (int q = 0; q < s.nsamples; q++) {
            if (s.t[q] <= 4.0 + 1e-12)
                continue;
            double xs[4];
            for (int i = 0; i < 4; i++)
                xs[i] = s.x[(size_t)q * (size_t)s.nflows + (size_t)col[i + 1]];
            tv_add(&acc, xs, NULL, 4);
        }
        var[k] = tv_value(&acc);
        repro_series_free(&s);
        char id[48], claim[160];
        snprintf(id, sizeof id, "timer.%d.victim", timers[k]);
        snprintf(claim, sizeof claim, "CCTI_Timer %d: victim F1, all five flows (Paper III Fig. 11: "
                 "low below ~150 us, ~13 Gb/s above)", timers[k]);
        if (timers[k] >= 150)
            repro_add(t, id, claim, "13", 13.0, victim[k], "Gb/s", 1.3, 0);
        else
            repro_add(t, id, claim, "< 11.7", 13.0, victim[k], "Gb/s", -1, victim[k] < 0.9 * 13.0);
        snprintf(id, sizeof id, "timer.%d.var", timers[k]);
        snprintf(claim, sizeof claim, "CCTI_Timer %d: treatment variation of the contributors, "
                 "10 ms samples, 4-5 s (Fig. 14; the paper gives no numbers)", timers[k]);
        repro_add(t, id, claim, "-", 0, var[k], "(Gb/s)^2", -1, 1);
    }
    int rising = var[NT - 1] > var[3] && var[3] > var[0];
    repro_add(t, "timer.var_rises", "treatment variation rises with CCTI_Timer (Var at 2000 > at "
              "150 > at 10)", "rising", 0, var[NT - 1] - var[3], "(Gb/s)^2", -1, rising);
    repro_add(t, "timer.2000.contributors", "CCTI_Timer 2000: the contributors still use H5's "
              "~13 Gb/s (Fig. 12)", "13", 13.0, contrib[NT - 1], "Gb/s", 1.3, 0);
    /* The same knee with a BECN per message (the RC ACK of a message) instead of one per marked
     * packet, at Marking_Rate 1 and 10: docs/cc.md section 5 explains why it moves. */
    static const struct { int timer, mr; } mv[] = { { 100, 1 }, { 300, 1 }, { 100, 10 }, { 300, 10 } };
    for (size_t k = 0; k < sizeof mv / sizeof mv[0]; k++) {
        char o1[48], o2[48];
        snprintf(o1, sizeof o1, "cc.ccti_timer=%d", mv[k].timer);
        snprintf(o2, sizeof o2, "cc.marking_rate=%d", mv[k].mr);
        const char *ov[] = { o1, o2, "cc.becn=message" };
        struct repro_series s;
        if (repro_run(S1_ON, ov, 3, &s, e))
            return -1;
        double v = repro_mean(&s, repro_flow(&s, "F1"), 4.3, 5.0);
        repro_series_free(&s);
        char id[48], claim[200];
        snprintf(id, sizeof id, "timer.msg.%d.mr%d.victim", mv[k].timer, mv[k].mr);
        snprintf(claim, sizeof claim, "CCTI_Timer %d, Marking_Rate %d, becn = message: victim F1 "
                 "(Paper III Fig. 11: low below ~150 us whatever the Marking_Rate, ~13 Gb/s above)",
                 mv[k].timer, mv[k].mr);
        if (mv[k].timer >= 150)
            repro_add(t, id, claim, "13", 13.0, v, "Gb/s", 1.3, 0);
        else
            repro_add(t, id, claim, "< 11.7", 13.0, v, "Gb/s", -1, v < 0.9 * 13.0);
    }
    return 0;
}

int repro_seed002_paper4(struct repro_table *t, struct ibn_err *e);
int repro_seed001_tables(struct repro_table *t, struct ibn_err *e);
int repro_seed004(struct repro_table *t, struct ibn_err *e);
int repro_seed002_windy(struct repro_table *t, struct ibn_err *e);
int repro_seed002_moving(struct repro_table *t, struct ibn_err *e);

const struct repro repro_list[] = {
    { "s1", "seed 002 Papers I/III scenario 1 with CC on vs off (victim, contributor shares)", run_s1 },
    { "s2", "seed 002 Paper III scenario 2, Table II (CC off vs on: mean, SD, min, max)", run_s2 },
    { "p2", "seed 002 Paper II Type I fairness: one vs two thresholds", run_p2 },
    { "timer", "seed 002 Paper III CCTI_Timer sweep (victim, treatment variation)", run_timer },
    { "paper4", "seed 002 Paper IV silent forest on the 648-node fat tree (CC off vs on)",
      repro_seed002_paper4 },
    { "windy", "seed 002 Paper IV windy forest, 25 % B nodes, p = 0, 0.1, 0.6; purely uniform "
      "traffic (CC off vs on)", repro_seed002_windy },
    { "moving", "seed 002 Paper IV moving trees, lifetimes 10, 2, 1 ms (CC off vs on)",
      repro_seed002_moving },
    { "tables", "seed 001 Table 1, the Fig. 6c worked example, CESY/CENRE wasted entries (3.9)",
      repro_seed001_tables },
    { "seed004", "seed 004: Figs. 4/5 worked example, path bits, HLL, dropping vs SPF deadlock, "
      "Fig. 7/9 best-effort claims on generated 15-node networks", repro_seed004 },
    { NULL, NULL, NULL },
};

/* seed002_paper4.c: seed 002 Paper IV reproductions on the 648-node fat tree (digest 002b
 * sections 2.5 and 5.1): the silent forest with congestion control off and on (Table II:
 * average receive rate of the hot spots and of the other nodes, total network throughput), the
 * windy forest with 25 % B nodes over the hot-spot share p (Fig. 6), and moving trees over the
 * hot-spot lifetime (Fig. 9a). */
#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

/* Average receive rate of the hot spots and of the other hosts, and the total (Gb/s). */
static void classes(const struct repro_series *s, double *hot, double *other, double *total)
{
    *hot = s->rc.hot_gbps;
    *other = s->rc.other_gbps;
    *total = s->rc.total_gbps;
}

int repro_seed002_paper4(struct repro_table *t, struct ibn_err *e)
{
    struct repro_series off, on;
    if (repro_run("seed002/paper4-silent.cfg", NULL, 0, &off, e))
        return -1;
    if (repro_run("seed002/paper4-silent-ccon.cfg", NULL, 0, &on, e)) {
        repro_series_free(&off);
        return -1;
    }
    double h0, o0, t0, h1, o1, t1;
    classes(&off, &h0, &o0, &t0);
    classes(&on, &h1, &o1, &t1);
    repro_add(t, "p4.silent.off.hot", "Paper IV Table II, silent forest, CC off: hot spots' average "
              "receive rate", "13.602", 13.602, h0, "Gb/s", 1.3602, 0);
    repro_add(t, "p4.silent.off.other", "Paper IV Table II, silent forest, CC off: other nodes' "
              "average receive rate", "0.168", 0.168, o0, "Gb/s", 0.0168, 0);
    repro_add(t, "p4.silent.off.total", "Paper IV Table II, silent forest, CC off: total network "
              "throughput", "216.073", 216.073, t0, "Gb/s", 21.6073, 0);
    repro_add(t, "p4.silent.on.hot", "Paper IV Table II, silent forest, CC on: hot spots' average "
              "receive rate", "13.279", 13.279, h1, "Gb/s", 1.3279, 0);
    repro_add(t, "p4.silent.on.other", "Paper IV Table II, silent forest, CC on: other nodes' "
              "average receive rate (not independent: total - 8 hot spots, over 640)", "2.246",
              2.246, o1, "Gb/s", 0.2246, 0);
    repro_add(t, "p4.silent.on.total", "Paper IV Table II, silent forest, CC on: total network "
              "throughput (the number the scenarios' CCT scale is calibrated on)", "1543.793",
              1543.793, t1, "Gb/s", 154.3793, 0);
    repro_add(t, "p4.silent.gain", "Paper IV: total throughput CC on / off (+610 %, x7.14; not "
              "independent of the calibrated total)", "7.14",
              7.145, t0 > 0 ? t1 / t0 : 0, "x", 0.714, 0);
    repro_series_free(&off);
    repro_series_free(&on);
    return 0;
}

/* The CC-off and CC-on runs of a scenario pair with the same overrides. */
static int pair(const char *off_file, const char *on_file, const char *const *ov, int nov,
                struct repro_series *off, struct repro_series *on, struct ibn_err *e)
{
    if (repro_run(off_file, ov, nov, off, e))
        return -1;
    if (repro_run(on_file, ov, nov, on, e)) {
        repro_series_free(off);
        return -1;
    }
    return 0;
}

int repro_seed002_windy(struct repro_table *t, struct ibn_err *e)
{
    static const double ps[] = { 0.0, 0.1, 0.6 };
    /* Paper IV Fig. 6 / text, 25 % B: CC's non-hot-spot rate as a share of tmax, and CC / no CC. */
    static const double share_paper[] = { 0.88, 0.60, 0.80 };
    static const double gain_paper[] = { 8.6, 9.1, 16.3 };
    double gain[3];
    for (int k = 0; k < 3; k++) {
        char o[64];
        snprintf(o, sizeof o, "flows.Q.pattern.p=%g", ps[k]);
        struct repro_series off, on;
        const char *ov[] = { o };
        if (pair("seed002/paper4-windy.cfg", "seed002/paper4-windy-ccon.cfg", ov, 1, &off, &on, e))
            return -1;
        double h0, o0, t0, h1, o1, t1;
        classes(&off, &h0, &o0, &t0);
        classes(&on, &h1, &o1, &t1);
        double tmax = 13.5 * (0.15 + 0.25 * (1 - ps[k]));
        gain[k] = o0 > 0 ? o1 / o0 : 0;
        char id[48], claim[200], paper[32];
        snprintf(id, sizeof id, "p4.windy.p%02.0f.on_share", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: non-hot-spot receive "
                 "rate as a share of tmax = %.2f Gb/s (Fig. 6a)", ps[k], tmax);
        snprintf(paper, sizeof paper, "%.2f", share_paper[k]);
        repro_add(t, id, claim, paper, share_paper[k], o1 / tmax, "fraction", 0.1, 0);
        snprintf(id, sizeof id, "p4.windy.p%02.0f.gain", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f: non-hot-spot receive rate CC on "
                 "/ off (no CC: %.3f Gb/s here)", ps[k], o0);
        snprintf(paper, sizeof paper, "%.1f", gain_paper[k]);
        repro_add(t, id, claim, paper, gain_paper[k], gain[k], "x", 0.3 * gain_paper[k], 0);
        snprintf(id, sizeof id, "p4.windy.p%02.0f.hot_on", ps[k] * 100);
        snprintf(claim, sizeof claim, "windy forest, 25 %% B, p = %.1f, CC on: hot spots' receive rate "
                 "(13.3, -2.2 %% from 13.6 without CC)", ps[k]);
        repro_add(t, id, claim, "13.3", 13.3, h1, "Gb/s", 1.33, 0);
        repro_series_free(&off);
        repro_series_free(&on);
    }
    repro_add(t, "p4.windy.gain_trend", "windy forest, 25 % B: the gain at p = 0.6 exceeds the gain "
              "at p = 0 (x16.3 vs x8.6)", "rising", 0, gain[2] - gain[0], "x", -1, gain[2] > gain[0]);
    /* Paper IV IV-9: purely uniform traffic (100 % B nodes, p = 0): CC costs the non-hot-spot
     * receive rate 3 %. No trees to settle: measured 10-30 ms (a full load of 648 hosts, with
     * nearly every packet marked, is the heaviest run of the set). */
    static const char *const uni[] = { "flows.Q.pattern.p=0", "flows.Q.pattern.b_fraction=1",
                                       "flows.Q.pattern.c_fraction=0", "simulation.duration=30 ms",
                                       "simulation.warmup=10 ms" };
    struct repro_series off, on;
    if (pair("seed002/paper4-windy.cfg", "seed002/paper4-windy-ccon.cfg", uni, 5, &off, &on, e))
        return -1;
    double h0, o0, t0, h1, o1, t1;
    classes(&off, &h0, &o0, &t0);
    classes(&on, &h1, &o1, &t1);
    repro_add(t, "p4.uniform.cc_change", "100 % B nodes, p = 0 (purely uniform traffic): change of "
              "the non-hot-spot receive rate when CC is turned on (Paper IV: -3 %)", "-3", -3.0,
              o0 > 0 ? (o1 / o0 - 1) * 100 : 0, "%", 2.0, 0);
    repro_series_free(&off);
    repro_series_free(&on);
    return 0;
}

int repro_seed002_moving(struct repro_table *t, struct ibn_err *e)
{
    static const char *const life[] = { "10 ms", "2 ms", "1 ms" };
    double gain[3];
    for (int k = 0; k < 3; k++) {
        char o[64];
        snprintf(o, sizeof o, "flows.Q.pattern.lifetime=%s", life[k]);
        struct repro_series off, on;
        const char *ov[] = { o };
        if (pair("seed002/paper4-moving.cfg", "seed002/paper4-moving-ccon.cfg", ov, 1, &off, &on, e))
            return -1;
        double h0, o0, t0, h1, o1, t1;
        classes(&off, &h0, &o0, &t0);
        classes(&on, &h1, &o1, &t1);
        double a0 = t0 / off.nhosts * 1000, a1 = t1 / on.nhosts * 1000;
        gain[k] = a0 > 0 ? a1 / a0 : 0;
        char id[48], claim[200];
        if (k == 0) {
            repro_add(t, "p4.moving.10ms.off", "moving trees, lifetime 10 ms, CC off: average receive "
                      "rate of all nodes (Fig. 9a)", "467", 467, a0, "Mb/s", 46.7, 0);
            repro_add(t, "p4.moving.10ms.on", "moving trees, lifetime 10 ms, CC on: average receive "
                      "rate of all nodes (Fig. 9a)", "723", 723, a1, "Mb/s", 72.3, 0);
        }
        snprintf(id, sizeof id, "p4.moving.%s.gain", k == 0 ? "10ms" : k == 1 ? "2ms" : "1ms");
        id[strcspn(id, " ")] = 0;
        snprintf(claim, sizeof claim, "moving trees, lifetime %s: all-node receive rate CC on / off "
                 "(no CC %.0f Mb/s, CC %.0f Mb/s here)", life[k], a0, a1);
        static const double gp[] = { 1.55, 1.10, 1.0 };
        static const char *const gps[] = { "1.55", "1.10", "~1" };
        repro_add(t, id, claim, gps[k], gp[k], gain[k], "x", k == 2 ? 0.1 : 0.1 * gp[k], 0);
        repro_series_free(&off);
        repro_series_free(&on);
    }
    repro_add(t, "p4.moving.gain_falls", "moving trees: the benefit of CC shrinks as the lifetime falls "
              "(gain at 10 ms > 2 ms > 1 ms)", "falling", 0, gain[0] - gain[2], "x", -1,
              gain[0] > gain[1] && gain[1] > gain[2]);
    return 0;
}

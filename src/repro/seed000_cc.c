/* seed000_cc.c: the seed 000 rate-control reproduction (digest 000 sections 4, 6.1, 7): Tables
 * 3.2 (PIPD on both priority classes, scenarios/seed000/cc-pipd.cfg) and 3.3 (PIPD for the high
 * class r2, FIMD for the low class r1, cc-pipd-fimd.cfg) on the two-switch fabric, and the
 * congestion spreading (the same fabric without rate control). "Switch-X-rK" is the mean
 * injection rate of the class-K flows entering at switch X (A: A_l and A_v; B: B_l), in
 * packets/s, from the payload each flow delivered in the measured period (every packet carries
 * 2048 bytes). The thesis does not state its rate unit (digest section 7 item 1); its absolute
 * numbers are compared as a factor of 2 (trend rows), the orderings and ratios as trends. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

static const char *const E1 = "seed000/cc-pipd.cfg";
static const char *const E2 = "seed000/cc-pipd-fimd.cfg";

#define PKT_BITS (2048.0 * 8)

struct rates {
    double a1, a2, b1, b2;          /* packets/s */
    double isl_util, root_util;     /* inter-switch link (A -> B) and root link (B -> B_c) */
    double victim;                  /* Gb/s of A_v's two flows */
    double remote, local;           /* Gb/s of A_l's and B_l's two flows (both to the root B_c) */
    double a_wait, b_wait;          /* PortXmitWait share of A's port to B, B's port to B_c */
};

static int measure(const char *file, const char *const *over, int nover, struct rates *r,
                   struct ibn_err *e)
{
    struct repro_series s;
    if (repro_run(file, over, nover, &s, e))
        return -1;
    const char *names[6] = { "Al_r1", "Al_r2", "Av_r1", "Av_r2", "Bl_r1", "Bl_r2" };
    double g[6];
    for (int i = 0; i < 6; i++) {
        int c = repro_flow(&s, names[i]);
        if (c < 0) {
            repro_series_free(&s);
            return ibn_err_set(e, "reproduction: %s has no flow %s", file, names[i]);
        }
        g[i] = repro_mean(&s, c, 0.010, 0.110);
    }
    int pa = repro_port(&s, "A:3"), pb = repro_port(&s, "B:2");
    r->a_wait = pa >= 0 ? s.port_wait[pa] : -1;
    r->b_wait = pb >= 0 ? s.port_wait[pb] : -1;
    repro_series_free(&s);
    double pps = 1e9 / PKT_BITS, cap = 8.0 * 2048 / 2074; /* payload Gb/s of a full 8 Gb/s link */
    r->a1 = (g[0] + g[2]) / 2 * pps;
    r->a2 = (g[1] + g[3]) / 2 * pps;
    r->b1 = g[4] * pps;
    r->b2 = g[5] * pps;
    r->isl_util = (g[0] + g[1] + g[2] + g[3]) / cap;
    r->root_util = (g[0] + g[1] + g[4] + g[5]) / cap;
    r->victim = g[2] + g[3];
    r->remote = g[0] + g[1];
    r->local = g[4] + g[5];
    return 0;
}

static void abs_row(struct repro_table *t, const char *id, const char *claim, double paper, double ours)
{
    char p[32];
    snprintf(p, sizeof p, "%.0f", paper);
    int ok = ours >= paper / 2 && ours <= paper * 2;
    repro_add(t, id, claim, p, paper, ours, "pkt/s", -1, ok);
}

static void ratio_row(struct repro_table *t, const char *id, const char *claim, double paper,
                      double ours, int ok)
{
    char p[32];
    snprintf(p, sizeof p, "%.2f", paper);
    repro_add(t, id, claim, p, paper, ours, "x", -1, ok);
}

int repro_seed000_cc(struct repro_table *t, struct ibn_err *e)
{
    struct rates x, y, off, vf;
    static const char *const none[] = { "cc.plugin=none", "transport.mode=ud" };
    /* The victim not rate-controlled (digest 000 section 7 item 6 leaves open whether it is):
     * A_v's flows on SLs 2 and 3 (VLs 0 and 1 as before: SL mod 2), whose law is none. */
    static const char *const vfree[] = { "flows.Av_r1.sl=2", "flows.Av_r2.sl=3",
                                         "cc.law=pipd,2:none,3:none" };
    if (measure(E1, NULL, 0, &x, e) || measure(E2, NULL, 0, &y, e) || measure(E1, none, 2, &off, e) ||
        measure(E1, vfree, 3, &vf, e))
        return -1;
    /* Table 3.2: PIPD on both classes. */
    abs_row(t, "s0.pipd.A.r1", "Table 3.2 Switch-A-r1, PIPD both (unit not stated: within a factor 2)", 47234, x.a1);
    abs_row(t, "s0.pipd.A.r2", "Table 3.2 Switch-A-r2, PIPD both (within a factor 2)", 149790, x.a2);
    abs_row(t, "s0.pipd.B.r1", "Table 3.2 Switch-B-r1, PIPD both (within a factor 2)", 76440, x.b1);
    abs_row(t, "s0.pipd.B.r2", "Table 3.2 Switch-B-r2, PIPD both (within a factor 2)", 259757, x.b2);
    ratio_row(t, "s0.pipd.A.r2_r1", "PIPD both: high class above low at switch A (Table 3.2: 3.17)",
              3.17, x.a2 / x.a1, x.a2 > x.a1);
    ratio_row(t, "s0.pipd.B.r2_r1", "PIPD both: high class above low at switch B (Table 3.2: 3.40)",
              3.40, x.b2 / x.b1, x.b2 > x.b1);
    ratio_row(t, "s0.pipd.r1.B_A", "PIPD both: r1 higher at switch B than A (Table 3.2: 1.62)",
              1.62, x.b1 / x.a1, x.b1 > x.a1);
    ratio_row(t, "s0.pipd.r2.B_A", "PIPD both: r2 higher at switch B than A (Table 3.2: 1.73)",
              1.73, x.b2 / x.a2, x.b2 > x.a2);
    /* Table 3.3: FIMD for r1. */
    abs_row(t, "s0.fimd.A.r1", "Table 3.3 Switch-A-r1, r1 FIMD, r2 PIPD (within a factor 2)", 18537, y.a1);
    abs_row(t, "s0.fimd.A.r2", "Table 3.3 Switch-A-r2 (within a factor 2)", 118862, y.a2);
    abs_row(t, "s0.fimd.B.r1", "Table 3.3 Switch-B-r1 (within a factor 2)", 20148, y.b1);
    abs_row(t, "s0.fimd.B.r2", "Table 3.3 Switch-B-r2 (within a factor 2)", 194464, y.b2);
    ratio_row(t, "s0.fimd.A.r2_r1", "r1 FIMD: the gap r2/r1 at A widens beyond PIPD's (Table 3.3: 6.41 vs 3.17)",
              6.41, y.a2 / y.a1, y.a2 / y.a1 > x.a2 / x.a1);
    ratio_row(t, "s0.fimd.B.r2_r1", "r1 FIMD: the gap r2/r1 at B widens beyond PIPD's (Table 3.3: 9.65 vs 3.40)",
              9.65, y.b2 / y.b1, y.b2 / y.b1 > x.b2 / x.b1);
    ratio_row(t, "s0.fimd_pipd.A.r1", "low class under FIMD below PIPD at A (0.39)", 0.39, y.a1 / x.a1,
              y.a1 < x.a1);
    ratio_row(t, "s0.fimd_pipd.B.r1", "low class under FIMD below PIPD at B (0.26)", 0.26, y.b1 / x.b1,
              y.b1 < x.b1);
    ratio_row(t, "s0.fimd_pipd.A.r2", "high class (PIPD) lower too when r1 uses FIMD, at A (0.79)", 0.79,
              y.a2 / x.a2, y.a2 < x.a2);
    ratio_row(t, "s0.fimd_pipd.B.r2", "high class (PIPD) lower too when r1 uses FIMD, at B (0.75)", 0.75,
              y.b2 / x.b2, y.b2 < x.b2);
    ratio_row(t, "s0.fimd.B_A.r1", "r1 FIMD: B above A (Table 3.3: 1.09)", 1.09, y.b1 / y.a1, y.b1 > y.a1);
    ratio_row(t, "s0.fimd.B_A.r2", "r1 FIMD: r2 B above A (Table 3.3: 1.64)", 1.64, y.b2 / y.a2, y.b2 > y.a2);
    /* Congestion spreading and link utilisation. */
    ratio_row(t, "s0.pipd.root_over_isl", "PIPD both: the root link (B -> B_c) better used than the "
              "inter-switch link (prose: root-link utilisation better)", 1.0, x.root_util / x.isl_util,
              x.root_util > x.isl_util);
    char claim[160];
    snprintf(claim, sizeof claim, "no rate control: switch A blocked while B is congested: A's port "
             "to B waits for credits %.0f %% of the time (B's root port %.0f %%)", 100 * off.a_wait,
             100 * off.b_wait);
    repro_add(t, "s0.nocc.A_blocked", claim, "> 0", 0, off.a_wait, "share", -1, off.a_wait > 0.05);
    snprintf(claim, sizeof claim, "PIPD both: switch A still blocked while B is congested (A:3 "
             "waits %.0f %%, B:2 %.0f %%): congestion spreading visible", 100 * x.a_wait, 100 * x.b_wait);
    repro_add(t, "s0.pipd.A_blocked", claim, "> 0", 0, x.a_wait, "share", -1, x.a_wait > 0.01);
    ratio_row(t, "s0.pipd.victim_gain", "PIPD both: the victim A_v gets more than without rate "
              "control (congestion spreading relieved)", 1.0, x.victim / off.victim, x.victim > off.victim);
    /* The other reading of who is rate-controlled: every flow but the victim's. */
    ratio_row(t, "s0.vfree.victim_gain", "PIPD on every flow but the victim's (the victim A_v not "
              "rate-controlled, digest 000 section 7 item 6): A_v gets more than without rate control",
              1.0, vf.victim / off.victim, vf.victim > off.victim);
    snprintf(claim, sizeof claim, "PIPD on every flow but the victim's: the remote flows A_l over the "
             "local flows B_l at the root B_c (%.3f / %.3f Gb/s; without rate control %.3f / %.3f)",
             vf.remote, vf.local, off.remote, off.local);
    repro_add_kind(t, REPRO_INFO, "s0.vfree.remote_local", claim, "-", NAN,
                   vf.local > 0 ? vf.remote / vf.local : 0, "x", 0, 0);
    return 0;
}

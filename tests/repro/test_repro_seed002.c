/* ctest-label: repro */
/* test_repro_seed002.c: the seed 002 congestion-control reproductions (`ibnetsim repro s1 s2
 * s1size p2 p2lot p2tree timer paper4 windy moving rcbecn fig5 fig67 fig8 fig9b fig10`,
 * src/repro/). Two checks per row:
 *  - its kind (evidence, derived, cap, calibrated, trend, info) is the one docs/cc.md gives it:
 *    the rows listed in `kinds` below have that kind, every other row is evidence; a change of
 *    classification must be made in the docs and here, not slip through;
 *  - every evidence row is within the paper's tolerance and every trend row holds, except the
 *    known misses listed (docs/cc.md section 5 gives the cause of each). A known miss that starts
 *    to reproduce does not fail the test (it prints a note to update the docs); there are no
 *    ranges around ibnetsim's own earlier output.
 * Takes several minutes: labelled repro. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../support/repro_check.h"

/* Rows that are not evidence, with their kind (the p4fp.* rows, the same Paper IV rows under the
 * first-principles CCT, have the kinds of their p4.* twins except where noted). */
static const struct repro_kind_of kinds[] = {
    { "s1.ccon.victim", REPRO_CAP },
    { "s1.victim_gain", REPRO_DERIVED },
    { "s1.ccon.jain", REPRO_DERIVED },
    { "s1size.ack_packet.2KiB.victim_on", REPRO_CAP },
    { "s1size.ack_packet.2KiB.gain", REPRO_TREND },
    { "s1size.ack_packet.8KiB.victim_on", REPRO_CAP },
    { "s1size.ack_packet.8KiB.gain", REPRO_TREND },
    { "s1size.ack_packet.64KiB.victim_on", REPRO_CAP },
    { "s1size.ack_packet.64KiB.gain", REPRO_TREND },
    { "s1size.ack_packet.256KiB.victim_on", REPRO_CAP },
    { "s1size.ack_packet.256KiB.gain", REPRO_TREND },
    { "s1size.ack_packet.1MiB.victim_on", REPRO_CAP },
    { "s1size.ack_packet.1MiB.gain", REPRO_TREND },
    { "s1size.ack_packet.flat", REPRO_TREND },
    { "s1size.ack_message.2KiB.victim_on", REPRO_CAP },
    { "s1size.ack_message.2KiB.gain", REPRO_TREND },
    { "s1size.ack_message.8KiB.victim_on", REPRO_CAP },
    { "s1size.ack_message.8KiB.gain", REPRO_TREND },
    { "s1size.ack_message.64KiB.gain", REPRO_TREND },
    { "s1size.ack_message.256KiB.gain", REPRO_TREND },
    { "s1size.ack_message.1MiB.gain", REPRO_TREND },
    { "s1size.ack_message.flat", REPRO_TREND },
    { "s2.ccon.drop", REPRO_DERIVED },
    { "s2.sd_ratio", REPRO_INFO },
    { "p2.single.newest_2s", REPRO_TREND },
    { "p2.single.newest_3s", REPRO_TREND },
    { "p2.single.unfair_4s", REPRO_TREND },
    { "p2.double.jain", REPRO_DERIVED },
    { "p2lot.mr1.victim_free", REPRO_TREND },
    { "p2lot.mr10.lot_ratio", REPRO_TREND },
    { "p2lot.mr10.slow_3s", REPRO_TREND },
    { "p2lot.mr10.slow_4s", REPRO_TREND },
    { "timer.10.victim", REPRO_TREND },
    { "timer.20.victim", REPRO_TREND },
    { "timer.50.victim", REPRO_TREND },
    { "timer.150.victim", REPRO_CAP },
    { "timer.300.victim", REPRO_CAP },
    { "timer.1000.victim", REPRO_CAP },
    { "timer.2000.victim", REPRO_CAP },
    { "timer.10.var", REPRO_INFO },
    { "timer.20.var", REPRO_INFO },
    { "timer.50.var", REPRO_INFO },
    { "timer.150.var", REPRO_INFO },
    { "timer.300.var", REPRO_INFO },
    { "timer.1000.var", REPRO_INFO },
    { "timer.2000.var", REPRO_INFO },
    { "timer.var_rises", REPRO_TREND },
    { "timer.msg.100.mr1.victim", REPRO_TREND },
    { "timer.msg.300.mr1.victim", REPRO_CAP },
    { "timer.msg.100.mr10.victim", REPRO_TREND },
    { "timer.msg.300.mr10.victim", REPRO_CAP },
    { "p4.silent.off.hot", REPRO_CAP },
    { "p4.silent.off.total", REPRO_DERIVED },
    { "p4.silent.on.other", REPRO_DERIVED },   /* p4fp: evidence (nothing fitted) */
    { "p4.silent.on.total", REPRO_CALIBRATED },
    { "p4fp.silent.on.total", REPRO_DERIVED },
    { "p4.silent.gain", REPRO_DERIVED },
    { "p4fp.silent.gain", REPRO_DERIVED },
    { "p4.windy.p00.gain", REPRO_DERIVED },
    { "p4fp.windy.p00.gain", REPRO_DERIVED },
    { "p4.windy.gain_trend", REPRO_TREND },
    { "p4fp.windy.gain_trend", REPRO_TREND },
    { "p4.moving.10ms.gain", REPRO_DERIVED },
    { "p4fp.moving.10ms.gain", REPRO_DERIVED },
    { "p4.moving.gain_falls", REPRO_TREND },
    { "p4fp.moving.gain_falls", REPRO_TREND },
    { "p4.fig8.gain_rises", REPRO_TREND },
    { "p4fp.fig8.gain_rises", REPRO_TREND },
    { "p4.fig8.peak", REPRO_TREND },
    { "p4fp.fig8.peak", REPRO_TREND },
    { "p4.fig9b.gain_falls", REPRO_TREND },
    { "p4fp.fig9b.gain_falls", REPRO_TREND },
    { "p4.fig9b.10ms.off", REPRO_INFO },
    { "p4.fig9b.1ms.off", REPRO_INFO },
    { "p4.fig6.p00.gain", REPRO_TREND },
    { "p4fp.fig6.p00.gain", REPRO_TREND },
    { "p4.fig6.p00.hot_on", REPRO_INFO },
    { "p4fp.fig6.p00.hot_on", REPRO_INFO },
    { "p4.fig6.p60.gain", REPRO_TREND },
    { "p4fp.fig6.p60.gain", REPRO_TREND },
    { "p4.fig6.p60.hot_on", REPRO_INFO },
    { "p4fp.fig6.p60.hot_on", REPRO_INFO },
    { "p4.fig6.p100.gain", REPRO_TREND },
    { "p4fp.fig6.p100.gain", REPRO_TREND },
    { "p4.fig6.p100.hot_on", REPRO_INFO },
    { "p4fp.fig6.p100.hot_on", REPRO_INFO },
    { "p4.fig6.p60.total_gain", REPRO_TREND },
    { "p4fp.fig6.p60.total_gain", REPRO_TREND },
    { "p4.fig6.p100.total_gain", REPRO_TREND },
    { "p4fp.fig6.p100.total_gain", REPRO_TREND },
    { "p4.fig6.peak", REPRO_TREND },
    { "p4fp.fig6.peak", REPRO_TREND },
    { "p4.fig7.p00.gain", REPRO_TREND },
    { "p4fp.fig7.p00.gain", REPRO_TREND },
    { "p4.fig7.p00.hot_on", REPRO_INFO },
    { "p4fp.fig7.p00.hot_on", REPRO_INFO },
    { "p4.fig7.p60.gain", REPRO_TREND },
    { "p4fp.fig7.p60.gain", REPRO_TREND },
    { "p4.fig7.p60.hot_on", REPRO_INFO },
    { "p4fp.fig7.p60.hot_on", REPRO_INFO },
    { "p4.fig7.p100.gain", REPRO_TREND },
    { "p4fp.fig7.p100.gain", REPRO_TREND },
    { "p4.fig7.p100.hot_on", REPRO_INFO },
    { "p4fp.fig7.p100.hot_on", REPRO_INFO },
    { "p4.fig7.p60.total_gain", REPRO_TREND },
    { "p4fp.fig7.p60.total_gain", REPRO_TREND },
    { "p4.fig7.p100.total_gain", REPRO_TREND },
    { "p4fp.fig7.p100.total_gain", REPRO_TREND },
    { "p4.fig7.peak", REPRO_TREND },
    { "p4fp.fig7.peak", REPRO_TREND },
    { "p4.fig67.peak_rises", REPRO_TREND },
    { "p4fp.fig67.peak_rises", REPRO_TREND },
    { "p4.fig67.low_falls", REPRO_TREND },
    { "p4fp.fig67.low_falls", REPRO_TREND },
    { "p4.fig67.high_falls", REPRO_TREND },
    { "p4fp.fig67.high_falls", REPRO_TREND },
    { "p4.fig10.p30.10ms.gain", REPRO_TREND },
    { "p4fp.fig10.p30.10ms.gain", REPRO_TREND },
    { "p4.fig10.p30.1ms.gain", REPRO_TREND },
    { "p4fp.fig10.p30.1ms.gain", REPRO_TREND },
    { "p4.fig10.p30.gain_falls", REPRO_TREND },
    { "p4fp.fig10.p30.gain_falls", REPRO_TREND },
    { "p4.fig10.p60.10ms.gain", REPRO_TREND },
    { "p4fp.fig10.p60.10ms.gain", REPRO_TREND },
    { "p4.fig10.p60.1ms.gain", REPRO_TREND },
    { "p4fp.fig10.p60.1ms.gain", REPRO_TREND },
    { "p4.fig10.p60.gain_falls", REPRO_TREND },
    { "p4fp.fig10.p60.gain_falls", REPRO_TREND },
    { "p4.fig10.p90.10ms.gain", REPRO_TREND },
    { "p4fp.fig10.p90.10ms.gain", REPRO_TREND },
    { "p4.fig10.p90.1ms.gain", REPRO_TREND },
    { "p4fp.fig10.p90.1ms.gain", REPRO_TREND },
    { "p4.fig10.p90.gain_falls", REPRO_TREND },
    { "p4fp.fig10.p90.gain_falls", REPRO_TREND },
    { "p4.fig5.p20.gain", REPRO_TREND },
    { "p4fp.fig5.p20.gain", REPRO_TREND },
    { "p4.fig5.p20.on_share", REPRO_INFO },
    { "p4fp.fig5.p20.on_share", REPRO_INFO },
    { "p4.fig5.p30.on_share", REPRO_INFO },
    { "p4fp.fig5.p30.on_share", REPRO_INFO },
    { "p4.fig5.p40.on_share", REPRO_INFO },
    { "p4fp.fig5.p40.on_share", REPRO_INFO },
    { "p4.fig5.p50.on_share", REPRO_INFO },
    { "p4fp.fig5.p50.on_share", REPRO_INFO },
    { "p4.fig8.p10.hot_on", REPRO_CAP },
    { "p4.fig8.p60.hot_on", REPRO_CAP },
    { "p4.fig8.p90.hot_on", REPRO_CAP },
    { "p4.fig8.p100.hot_on", REPRO_CAP },
    { "p4fp.fig8.p10.hot_on", REPRO_CAP },
    { "p4fp.fig8.p60.hot_on", REPRO_CAP },
    { "p4fp.fig8.p90.hot_on", REPRO_CAP },
    { "p4fp.fig8.p100.hot_on", REPRO_CAP },
    { "rc.ack_packet.s1.victim", REPRO_CAP },
    { "rc.ack_message.s1.contributors", REPRO_CAP },
    { "rc.ack_packet.p2.single.newest_3s", REPRO_TREND },
    { "rc.ack_packet.p2.single.unfair_4s", REPRO_TREND },
    { "rc.ack_message.p2.single.newest_3s", REPRO_TREND },
    { "rc.ack_message.p2.single.unfair_4s", REPRO_TREND },
};

/* Evidence and trend rows that miss the paper (docs/cc.md section 5: the cause of each). */
static const char *const misses[] = {
    "s2.ccoff.mean",  /* +1.0 %: the payload accounting of the 32 Gb/s link */
    "s2.ccoff.sd",    /* a deterministic model has no measurement noise */
    "s1size.ack_message.64KiB.victim_on", /* one BECN per message: too few from 64 KiB on */
    "s1size.ack_message.64KiB.gain", "s1size.ack_message.256KiB.victim_on",
    "s1size.ack_message.256KiB.gain", "s1size.ack_message.1MiB.victim_on",
    "s1size.ack_message.1MiB.gain", "s1size.ack_message.flat",
    "s2.ccon.mean",   /* -20 % instead of -3.5 % */
    "s2.ccon.sd", "s2.ccon.max",
    "p2.single.h3_minus_h2", /* one threshold: who wins depends on the seed */
    "p2.single.h6_over_h3", "p2.single.newest_2s", "p2.single.newest_3s",
    "p2lot.mr10.slow_3s", /* after H6 joins, Marking_Rate 10 is not clearly slower: seeds disagree */
    "timer.20.victim", /* the victim suffers only below ~20 us here */
    "timer.50.victim",
    "timer.var_rises", /* holds in 4 of 5 seeds: the seeds disagree */
    "p4.silent.off.other", "p4.silent.on.hot", "p4fp.silent.on.hot", "p4fp.silent.on.other",
    "p4.windy.p00.on_share", "p4fp.windy.p00.on_share", "p4.windy.p00.off",
    "p4.windy.p10.on_share", "p4fp.windy.p10.on_share", "p4.windy.p10.gain", "p4fp.windy.p10.gain",
    "p4.windy.p60.on_share", "p4fp.windy.p60.on_share", "p4fp.windy.p60.gain",
    "p4.windy.p60.gain", /* 16.95 +- 2.44 vs 16.3: within the band, but the seeds disagree */
    "p4.windy.p00.hot_on", "p4fp.windy.p00.hot_on", "p4.windy.p10.hot_on", "p4fp.windy.p10.hot_on",
    "p4.windy.p60.hot_on", "p4fp.windy.p60.hot_on", "p4.windy.p60.total_gain",
    "p4fp.windy.p60.total_gain",
    "p4.uniform.cc_change", "p4fp.uniform.cc_change", /* Paper IV -3 %: ~nothing here */
    "p4.moving.10ms.off", "p4.moving.10ms.on", "p4fp.moving.10ms.on",
    "p4.moving.2ms.gain", "p4fp.moving.2ms.gain", /* CC keeps more of its benefit */
    "p4.moving.1ms.gain", "p4fp.moving.1ms.gain",
    "p4.fig8.p10.gain", "p4fp.fig8.p10.gain", /* x2.96 / x2.31 vs x4.1: the trees stay in part */
    "p4.fig8.p60.total_gain", "p4fp.fig8.p60.total_gain", /* x14.5 / x12.5 vs x17: the same */
    "p4fp.fig8.p90.gain", "p4fp.fig8.p90.on_other", /* first-principles CCT too small at 81 */
    "p4.fig9b.10ms.gain", "p4fp.fig9b.10ms.gain", /* x1.85 / x1.76 vs x2.6: unknown */
    "p4.fig9b.1ms.gain", "p4fp.fig9b.1ms.gain", /* 5 seeds: x1.141 +- 0.014 and x1.148 +- 0.017
                                                 * vs 1.10 +- 0.011: just outside */
    "p4.fig10.p30.1ms.gain", "p4fp.fig10.p30.1ms.gain", /* x0.996: no gain at 1 ms, p = 0.3 */
    "p4fp.fig6.p60.total_gain", /* x7.25 < 8.7: the first-principles CCT too small */
    /* fig5 (3 seeds, c74be49): the hot spots with CC at 13.6 Gb/s, the configured receive limit,
     * against the paper's 13.3 */
    "p4.fig5.p20.hot_on", "p4fp.fig5.p20.hot_on", "p4.fig5.p30.hot_on", "p4fp.fig5.p30.hot_on",
    "p4.fig5.p40.hot_on", "p4fp.fig5.p40.hot_on", "p4.fig5.p50.hot_on", "p4fp.fig5.p50.hot_on",
    "p4.fig5.p70.hot_on", "p4fp.fig5.p70.hot_on", "p4.fig5.p80.hot_on", "p4fp.fig5.p80.hot_on",
    "p4.fig5.p90.hot_on", "p4fp.fig5.p90.hot_on", "p4.fig5.p100.hot_on",
    "p4fp.fig5.p100.hot_on",
    /* fig5 under the first-principles CCT: too small for the contributors (docs/cc.md 5.5) */
    "p4fp.fig5.p20.total_gain", "p4fp.fig5.p30.gain", "p4fp.fig5.p30.total_gain",
    "p4fp.fig5.p40.gain", "p4fp.fig5.p40.total_gain", "p4fp.fig5.p50.gain",
    "p4fp.fig5.p50.total_gain", "p4fp.fig5.p70.gain", "p4fp.fig5.p70.on_share",
    "p4fp.fig5.p70.total_gain", "p4fp.fig5.p80.gain", "p4fp.fig5.p80.on_share",
    "p4fp.fig5.p80.total_gain", "p4fp.fig5.p90.gain", "p4fp.fig5.p90.on_share",
    "p4fp.fig5.p90.total_gain", "p4fp.fig5.p100.gain", "p4fp.fig5.p100.on_share",
    "p4fp.fig5.p100.total_gain",
    "rc.ack_packet.p2.single.newest_3s", /* as p2.single.newest_3s: the seeds disagree */
    "rc.ack_message.s1.victim", /* one BECN per 64 KiB message: the tree stays, F1 blocked */
    "rc.ack_message.p2.single.newest_3s", /* per message: CC too weak, round robin shares */
    "rc.ack_message.p2.single.unfair_4s",
};

static void check(const char *name)
{
    repro_check_kinds(name, kinds, sizeof kinds / sizeof kinds[0], misses,
                      sizeof misses / sizeof misses[0], "docs/cc.md");
}

static void test_s1(void **st) { (void)st; check("s1"); }
static void test_s1size(void **st) { (void)st; check("s1size"); }
static void test_s2(void **st) { (void)st; check("s2"); }
static void test_p2(void **st) { (void)st; check("p2"); }
static void test_p2lot(void **st) { (void)st; check("p2lot"); }
static void test_p2tree(void **st) { (void)st; check("p2tree"); }
static void test_timer(void **st) { (void)st; check("timer"); }
static void test_paper4(void **st) { (void)st; check("paper4"); }
static void test_windy(void **st) { (void)st; check("windy"); }
static void test_moving(void **st) { (void)st; check("moving"); }
static void test_rcbecn(void **st) { (void)st; check("rcbecn"); }
static void test_fig5(void **st) { (void)st; check("fig5"); }
static void test_fig67(void **st) { (void)st; check("fig67"); }
static void test_fig8(void **st) { (void)st; check("fig8"); }
static void test_fig9b(void **st) { (void)st; check("fig9b"); }
static void test_fig10(void **st) { (void)st; check("fig10"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1), cmocka_unit_test(test_s1size), cmocka_unit_test(test_s2), cmocka_unit_test(test_p2),
        cmocka_unit_test(test_p2lot), cmocka_unit_test(test_p2tree),
        cmocka_unit_test(test_timer), cmocka_unit_test(test_paper4), cmocka_unit_test(test_windy),
        cmocka_unit_test(test_moving), cmocka_unit_test(test_rcbecn), cmocka_unit_test(test_fig5),
        cmocka_unit_test(test_fig67), cmocka_unit_test(test_fig8), cmocka_unit_test(test_fig9b),
        cmocka_unit_test(test_fig10),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

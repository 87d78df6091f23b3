/* ctest-label: repro */
/* test_repro_seed003.c: the seed 003 reproduction (`ibnetsim repro s003`, src/repro/seed003.c;
 * docs/hostcc.md "Reproductions"). The paper prints numbers only for Fig. 4's DMP and DMT with
 * admission and congestion control (evidence rows f4*.dmp.ac.*, f4*.dmt.ac.*); every other row is
 * a trend or, when it only records a number (paper "-"), info; every evidence and trend row
 * holds except the known misses, which docs/hostcc.md explains. A known miss
 * that starts to reproduce prints a note. Three parts, one per figure (fig3, fig4, fig5; each
 * a ctest test; without an argument all three): on the shared 2-core machine the whole took 13
 * minutes of wall time (2026-11-24, load about 10), too close to ctest's 900 s for one test.
 * Labelled repro. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

static const char *const misses[] = {
    /* Fig. 3: the schemes do not move the mesh's saturation throughput */
    "f3.thr.credit_above_none", "f3.thr.credit_above_alo", "f3.thr.credit_above_st",
    "f3.nocc.worst_latency", "f3.nocc.lowest_throughput",
    /* Fig. 5: at load 0.2 neither control acts (every stream admitted, no credit binds) */
    "f5.be.ac_best.l20", "f5.be.none_worst.l20", "f5.be.a_beats_c_low",
    "f5.rt.ac_best.l20", "f5.rt.none_worst.l20", "f5.rt.a_beats_c_low",
    /* Fig. 5 at 0.8: A refuses 3 of 25 streams and leaves real time where it was */
    "f5.rt.ac_best.l80", "f5.rt.none_worst.l80", "f5.a_matters_less_for_control",
    /* best effort at 0.8: A only (24 us) beats C only (110 us), and A+C (19.9 +- 4.5) ties A,
     * since the streams offer their stated mean rate (until 2026-11-24 1.5 times it) */
    "f5.be.c_beats_a_high", "f5.be.ac_best.l80",
    /* Fig. 3 with 15 best-effort VLs (the digest's reading): the mesh saturates at 0.84 of the
     * link whatever the scheme; credits that bind lower latency and throughput together, the
     * value that does not bind (34) equals no control, so the "best" by throughput is 34
     * (credit_below_alo and _st hold since 2026-11-29 by the 4-5 us ALO and Self-Tuned add) */
    "f3vl.best_intermediate", "f3vl.lat.credit_below_none", "f3vl.thr.credit_above_none", "f3vl.thr.credit_above_alo",
    "f3vl.thr.credit_above_st", "f3vl.lat.gain_grows", "f3vl.lat.more_credits_more_delay",
    "f3vl.nocc.worst_latency", "f3vl.nocc.lowest_throughput",
    /* Fig. 5 with 12 real-time VLs and admission reprogramming the weights: below 0.6 nothing
     * binds (every stream admitted, no credit short, the weights' order irrelevant to an idle
     * mesh), so the four configurations tie; at 0.8 best effort gains from C only, real time
     * from A and C each, and A only beats C only for real time */
    "f5vl.be.ac_best.l20", "f5vl.be.none_worst.l20", "f5vl.be.a_beats_c_low", "f5vl.rt.ac_best.l20",
    "f5vl.rt.none_worst.l20", "f5vl.rt.a_beats_c_low", "f5vl.be.ac_best.l80",
    "f5vl.be.none_worst.l80", "f5vl.rt.c_beats_a_high",
    /* held in the 2026-11-23 run, a tie (+0.14 +- 0.23 us) after main's event order (cba10f3) */
    "f4vl.ctl.smaller.l70",
    /* Fig. 4 with every stream on one VL: HoL blocking caps the switch at 58.6 % of a link,
     * below the loads, so frames miss with or without A,C (docs/hostcc.md) */
    "f4.dmp.ac.l60", "f4.dmp.ac.l70", "f4.dmp.ac.l80", "f4.dmt.ac.l60", "f4.dmt.ac.l70",
    "f4.dmt.ac.l80", "f4.dmp.ac.flat", "f4.dmp.none_higher.l60", "f4.dmp.none_higher.l70",
    "f4.dmt.none_higher.l60", "f4.dmt.none_higher.l70", "f4.be.orders.l60", "f4.be.orders.l70",
    "f4.be.orders.l80", "f4.ctl.smaller.l60", "f4.ctl.smaller.l70", "f4.ctl.smaller.l80",
    /* the same with 16 smaller streams per host: nothing refused, frames miss as often (at
     * 0.6, 0.016 +- 0.007 since the deadlines count from each stream's first frame, 2026-11-28:
     * within the tolerance, no longer listed) */
    "f4s16.dmp.ac.l70", "f4s16.dmp.ac.l80", "f4s16.dmt.ac.l60",
    "f4s16.dmt.ac.l70", "f4s16.dmt.ac.l80", "f4s16.dmp.ac.flat", "f4s16.dmp.none_higher.l60",
    "f4s16.dmp.none_higher.l70", "f4s16.dmp.none_higher.l80", "f4s16.dmt.none_higher.l60",
    "f4s16.dmt.none_higher.l70", "f4s16.dmt.none_higher.l80", "f4s16.be.orders.l60",
    "f4s16.be.orders.l70", "f4s16.be.orders.l80", "f4s16.ctl.smaller.l60",
    "f4s16.ctl.smaller.l70", "f4s16.ctl.smaller.l80",
    /* 11 real-time VLs, 1,024 MPEG-2-rate streams (the digest's defaults): no frame misses its
     * deadline at all (DMP 0, within the tolerance of 0.002; DMT undefined, so its rows miss)
     * since the deadlines count from each stream's first frame (2026-11-28; before, a stream's
     * random phase cut its frames' budget and gave DMP 0.0014-0.004, DMT 0.3-0.9 ms); no stream
     * is refused, so A,C and No A, No C are alike for real time (and for control) */
    "f4vl.dmt.ac.l60", "f4vl.dmt.ac.l70", "f4vl.dmt.ac.l80", "f4vl.dmp.none_higher.l60",
    "f4vl.dmp.none_higher.l70", "f4vl.dmp.none_higher.l80", "f4vl.dmt.none_higher.l60",
    "f4vl.dmt.none_higher.l70", "f4vl.dmt.none_higher.l80", "f4vl.be.orders.l60",
    "f4vl.ctl.smaller.l60", "f4vl.ctl.smaller.l80",
};

static int is_evidence(const char *id)
{
    return !strncmp(id, "f4.dmp.ac.l", 11) || !strncmp(id, "f4.dmt.ac.l", 11) ||
           !strncmp(id, "f4s16.dmp.ac.l", 14) || !strncmp(id, "f4s16.dmt.ac.l", 14) ||
           !strncmp(id, "f4vl.dmp.ac.l", 13) || !strncmp(id, "f4vl.dmt.ac.l", 13);
}

static const char *part; /* NULL: every part */

static void test_s003(void **st)
{
    (void)st;
    const struct repro *r = repro_find("s003");
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    if (part ? repro_seed003_part(&t, part, &e) : repro_exec(r, &t, &e)) {
        fprintf(stderr, "s003: %s\n", e.msg);
        fail();
    }
    repro_print(stdout, &t);
    repro_print_summary(stdout, &t);
    int bad = 0;
    for (int i = 0; i < t.n; i++) {
        const struct repro_row *row = &t.rows[i];
        enum repro_kind want = is_evidence(row->id)         ? REPRO_EVIDENCE
                               : strcmp(row->paper, "-") ? REPRO_TREND
                                                         : REPRO_INFO;
        if (row->kind != want) {
            printf("  %s is %s, expected %s\n", row->id, repro_kind_name(row->kind),
                   repro_kind_name(want));
            bad = 1;
        }
        if (row->kind != REPRO_TREND && row->kind != REPRO_EVIDENCE)
            continue;
        int known = 0;
        for (size_t j = 0; j < sizeof misses / sizeof misses[0]; j++)
            known |= !strcmp(misses[j], row->id);
        if (!row->ok && !known) {
            printf("  %s = %g does not hold (paper %s)\n", row->id, row->ours, row->paper);
            bad = 1;
        } else if (row->ok && known) {
            printf("  %s = %g now holds: update docs/hostcc.md and the list of misses\n", row->id,
                   row->ours);
        }
    }
    repro_table_free(&t);
    assert_false(bad);
}

/* ctest-parts: fig3 fig4 fig5 */
int main(int argc, char **argv)
{
    part = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_s003) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

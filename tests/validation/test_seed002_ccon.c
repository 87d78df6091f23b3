/* test_seed002_ccon.c: seed 002 Papers I/III scenario 1 with congestion control on (Paper III
 * Table I), shortened for the default suite: the five flows of
 * scenarios/seed002/testbed-scenario1-ccon.cfg start 0.1 s apart instead of 1 s, and the
 * steady state with all five is measured from 0.5 s to 0.8 s. Paper III Fig. 7b/8: the victim
 * F1 keeps ~13 Gb/s (within 5 %), the four contributors share H5 about 1/4 each (within 0.05);
 * with CC off (same timing) the victim is HoL-blocked to ~2.17 Gb/s (within 10 %). The full
 * 5-second runs are `ibnetsim repro s1` (tests/repro). Also checks that the run writes a CCTI
 * for every flow and that the contributors' CCTIs rise while the victim's stays low. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "repro/repro.h"
#include "stats/measures.h"

static const char *const over[] = {
    "simulation.duration=0.8 s", "flows.F2.start=0.1 s", "flows.F3.start=0.2 s",
    "flows.F4.start=0.3 s", "flows.F5.start=0.4 s",
};

static void test_ccon_victim_and_shares(void **st)
{
    (void)st;
    struct repro_series on, off;
    struct ibn_err e;
    if (repro_run("seed002/testbed-scenario1-ccon.cfg", over, 5, &on, &e) ||
        repro_run("seed002/testbed-scenario1-ccoff.cfg", over, 5, &off, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    double v_on = repro_mean(&on, repro_flow(&on, "F1"), 0.5, 0.8);
    double v_off = repro_mean(&off, repro_flow(&off, "F1"), 0.5, 0.8);
    printf("  victim F1: CC on %.3f Gb/s (paper 13), CC off %.3f Gb/s (paper ~2, model 2.17)\n", v_on, v_off);
    assert_true(fabs(v_on - 13.0) <= 0.05 * 13.0);
    assert_true(fabs(v_off - 13.0 / 6) <= 0.1 * 13.0 / 6);
    const char *c[4] = { "F2", "F3", "F4", "F5" };
    double x[4], total = 0;
    for (int i = 0; i < 4; i++)
        total += x[i] = repro_mean(&on, repro_flow(&on, c[i]), 0.5, 0.8);
    for (int i = 0; i < 4; i++) {
        printf("  %s: %.3f Gb/s, share %.3f (paper 1/4)\n", c[i], x[i], x[i] / total);
        assert_true(fabs(x[i] / total - 0.25) <= 0.05);
    }
    printf("  Jain's index %.4f\n", jain_index(x, 4));
    /* CCTI: contributors throttled, the victim (marked only while it crossed a congested
     * S1 -> S2 link) near 0 at the end. */
    int k = on.nsamples - 1;
    double ccti_victim = on.ccti[(size_t)k * on.nflows + repro_flow(&on, "F1")];
    double ccti_f4 = on.ccti[(size_t)k * on.nflows + repro_flow(&on, "F4")];
    printf("  CCTI at %.2f s: F1 %.0f, F4 %.0f\n", on.t[k], ccti_victim, ccti_f4);
    assert_true(ccti_f4 > 10);
    assert_true(ccti_victim < ccti_f4);
    repro_series_free(&on);
    repro_series_free(&off);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_ccon_victim_and_shares) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_paper6_hpq.c: why HFDI ran out of HPQs no more than EcoCC in seed 002's Paper VI pattern #2
 * (scenarios/seed002/paper6-pattern2-64.cfg as shipped, seed 1, the whole 4 ms; docs/isolation.md,
 * "Why HFDI ran out of HPQs no more than EcoCC").
 *
 * Paper VI's supplement (Fig. 10): with 4 roots HFDI has many ports out of HPQs, EcoCC far fewer,
 * because its throttling frees HPQs. Paper VI takes IB-ITh's (and so EcoCC's) CCTI_Timer and
 * Marking_Rate "according to the analysis of [20]", Paper III, whose values are CCTI_Timer 150
 * and Marking_Rate 1 (probability 1/2): the scenarios' default since 2026-11-24. Before, they
 * throttled with Paper V's CCTI_Timer (8 x 1.024 us) and marking (0.85), given here as overrides.
 * Checked on the time-average number of input ports with no free HPQ (summary.json's
 * mean_ports_exhausted):
 *  - as shipped (Paper III's values) EcoCC's is at least 10 ports below HFDI's (measured
 *    2026-11-24: 3.3 against 22.8), Fig. 10's ordering;
 *  - with Paper V's values EcoCC's is within 5 ports of HFDI's (22.9 against 22.8): the
 *    throttling relaxes every 8.19 us and EcoCC keeps its HPQs as HFDI does, which was the
 *    cause of the miss of p6.n1.hpq_exhausted with those values, not HFDI's model.
 * Either can fail: the first if EcoCC's throttling stopped freeing HPQs, the second if the two
 * designs' HPQ use parted for another reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "repro/repro.h"

#define FILE6 "seed002/paper6-pattern2-64.cfg"

static double exhausted(const char *const *over, int nover)
{
    struct repro_series s;
    struct ibn_err e;
    if (repro_run(FILE6, over, nover, &s, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    assert_true(s.drained);
    double x = s.isol_ports_exhausted;
    repro_series_free(&s);
    return x;
}

static void test_hpq_exhaustion(void **st)
{
    (void)st;
    static const char *const hfdi[] = { "simulation.seed=1", "switch.arch=hfdi", "cc.plugin=ibcc",
                                        "cc.threshold=0" };
    /* Paper V's values (the scenarios' before 2026-11-24). */
    static const char *const eco5[] = { "simulation.seed=1", "switch.arch=ecocc", "cc.plugin=ibcc",
                                        "cc.threshold=0", "cc.ccti_timer=8", "cc.mark_probability=0.85",
                                        "cc.marking_rate=0", "isolation.marking=0.85" };
    /* As shipped: Paper III's values (Paper VI's [20]). */
    static const char *const eco3[] = { "simulation.seed=1", "switch.arch=ecocc", "cc.plugin=ibcc",
                                        "cc.threshold=0" };
    double h = exhausted(hfdi, 4), e5 = exhausted(eco5, 8), e3 = exhausted(eco3, 4);
    printf("  time-average ports out of HPQs, 0-4 ms: HFDI %.2f, EcoCC with Paper V's timer %.2f, "
           "with Paper III's %.2f\n", h, e5, e3);
    assert_true(h - e3 >= 10);
    assert_true(fabs(h - e5) <= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hpq_exhaustion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

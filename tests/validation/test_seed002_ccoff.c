/* test_seed002_ccoff.c: seed 002 Papers I/III scenario 1 with congestion control off on the
 * two-switch testbed (digest 002a sections 3.2, 3.3, 7.4): H1-H3 on S1, H4-H7 on S2, 20 Gb/s
 * (4x DDR) host links, a 40 Gb/s (4x QDR) inter-switch link, hosts injecting and sinking at
 * most 13 Gb/s, MTU 2048, 64 KiB messages. F1 H1->H4 is the victim; F2 H2->H5, F3 H3->H5,
 * F4 H6->H5 and F5 H7->H5 are the contributors, added one at a time. Each step is run to its
 * steady state and compared with the paper's figures within 7 %: the victim is head-of-line
 * blocked at S2's input from S1, and round robin at S2's output to H5 creates the parking lot
 * (F2 and F3 share one input, F4 and F5 have one each). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static const char *const srcs[] = { "H1", "H2", "H3", "H6", "H7" };
static const char *const dsts[] = { "H4", "H5", "H5", "H5", "H5" };
static const char *const names[] = { "F1", "F2", "F3", "F4", "F5" };

/* Run with the first n flows and return their throughputs (Gb/s, payload). */
static void steady(int n, double *gbps)
{
    struct testsim s;
    ts_init(&s, "testbed002", "");
    char why[128];
    param_set(params_find(hca_params, "inject_limit"), &s.d.set, "13 Gb/s", why, sizeof why);
    param_set(params_find(hca_params, "sink_limit"), &s.d.set, "13 Gb/s", why, sizeof why);
    s.d.warmup = 5 * PS_PER_MS;
    s.d.end = 25 * PS_PER_MS;
    for (int i = 0; i < n; i++)
        ts_flow(&s, names[i], srcs[i], dsts[i], "saturate", NULL, "65536 B", 0, 0);
    ts_run(&s);
    for (int i = 0; i < n; i++)
        gbps[i] = ts_gbps(&s, names[i]);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    ts_free(&s);
}

static void near(const char *what, double got, double expect, double rel)
{
    printf("  %-28s ibnetsim %6.3f Gb/s, paper %6.3f Gb/s (%+.1f %%)\n", what, got, expect,
           100.0 * (got - expect) / expect);
    assert_true(fabs(got - expect) <= rel * expect);
}

static void test_victim_alone(void **st)
{
    (void)st;
    double g[5];
    steady(1, g);
    near("victim alone", g[0], 13.0, 0.07);
}

static void test_with_f2(void **st)
{
    (void)st;
    double g[5];
    steady(2, g);
    near("victim with F2", g[0], 13.0, 0.07);
    near("F2", g[1], 13.0, 0.07);
}

static void test_with_f3(void **st)
{
    (void)st;
    double g[5];
    steady(3, g);
    for (int i = 0; i < 3; i++)
        near(names[i], g[i], 6.5, 0.07);
}

static void test_with_f4(void **st)
{
    (void)st;
    double g[5];
    steady(4, g);
    for (int i = 0; i < 3; i++)
        near(names[i], g[i], 3.25, 0.07);
    near("F4", g[3], 6.5, 0.07);
}

static void test_with_f5_and_parking_lot(void **st)
{
    (void)st;
    double g[5];
    steady(5, g);
    for (int i = 0; i < 3; i++)
        near(names[i], g[i], 13.0 / 6.0, 0.07);
    near("F4", g[3], 13.0 / 3.0, 0.07);
    near("F5", g[4], 13.0 / 3.0, 0.07);
    /* Parking lot: shares of the S2 -> H5 link, within 2 percentage points. */
    double total = g[1] + g[2] + g[3] + g[4];
    const double share[4] = { 1.0 / 6, 1.0 / 6, 1.0 / 3, 1.0 / 3 };
    for (int i = 0; i < 4; i++) {
        printf("  share %s: %.4f (paper %.4f)\n", names[i + 1], g[i + 1] / total, share[i]);
        assert_true(fabs(g[i + 1] / total - share[i]) <= 0.02);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_victim_alone), cmocka_unit_test(test_with_f2),
        cmocka_unit_test(test_with_f3), cmocka_unit_test(test_with_f4),
        cmocka_unit_test(test_with_f5_and_parking_lot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

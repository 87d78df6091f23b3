/* test_gain.c: the average gain of one technique over another (stats/gain.h): both definitions
 * on series worked by hand, the window, samples where the reference is zero, and an empty
 * window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/gain.h"

static void test_both_definitions(void **st)
{
    (void)st;
    /* a doubles b in the first two samples and equals it in the last two. */
    const double t[] = { 0.5, 1.0, 1.5, 2.0 }, a[] = { 2, 4, 3, 1 }, b[] = { 1, 2, 3, 1 };
    struct gain g;
    assert_int_equal(gain_compute(t, a, b, 4, -INFINITY, INFINITY, &g), 0);
    assert_int_equal(g.samples, 4);
    assert_int_equal(g.skipped, 0);
    /* Mean of ratios: (1 + 1 + 0 + 0) / 4 = 0.5. Ratio of means: 10 / 7 - 1 = 3/7. */
    assert_true(fabs(g.mean_of_ratios - 0.5) < 1e-12);
    assert_true(fabs(g.ratio_of_means - 3.0 / 7.0) < 1e-12);
    /* The window [1, 2]: (1 + 0 + 0) / 3 and 8 / 6 - 1. */
    assert_int_equal(gain_compute(t, a, b, 4, 1.0, 2.0, &g), 0);
    assert_int_equal(g.samples, 3);
    assert_true(fabs(g.mean_of_ratios - 1.0 / 3.0) < 1e-12);
    assert_true(fabs(g.ratio_of_means - 1.0 / 3.0) < 1e-12);
    /* A loss is a negative gain: b over a. */
    assert_int_equal(gain_compute(t, b, a, 4, -INFINITY, INFINITY, &g), 0);
    assert_true(fabs(g.mean_of_ratios - (-0.5 - 0.5) / 4.0) < 1e-12);
    assert_true(fabs(g.ratio_of_means - (7.0 / 10.0 - 1.0)) < 1e-12);
}

static void test_zero_reference(void **st)
{
    (void)st;
    const double t[] = { 0, 1, 2 }, a[] = { 1, 3, 2 }, b[] = { 0, 1, 2 };
    struct gain g;
    assert_int_equal(gain_compute(t, a, b, 3, -INFINITY, INFINITY, &g), 0);
    assert_int_equal(g.skipped, 1);
    assert_true(fabs(g.mean_of_ratios - (2.0 + 0.0) / 2.0) < 1e-12); /* the b = 0 sample left out */
    assert_true(fabs(g.ratio_of_means - (6.0 / 3.0 - 1.0)) < 1e-12); /* but counted here */
    /* Nothing in the window, or a reference that is zero throughout. */
    assert_int_equal(gain_compute(t, a, b, 3, 5, 6, &g), -1);
    assert_int_equal(g.samples, 0);
    assert_true(isnan(g.mean_of_ratios) && isnan(g.ratio_of_means));
    const double z[] = { 0, 0, 0 };
    assert_int_equal(gain_compute(t, a, z, 3, -INFINITY, INFINITY, &g), -1);
    assert_true(isnan(g.ratio_of_means));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_definitions),
        cmocka_unit_test(test_zero_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

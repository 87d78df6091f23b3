/* test_spread.c: spread_max_min, the contributors' largest-over-smallest share (stats/spread.h):
 * hand-worked values, and the edges a division guard used to hide behind 1e9 (a starved
 * contributor is an infinite spread; no share at all is NaN). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/spread.h"

static void test_values(void **st)
{
    (void)st;
    const double parking[4] = { 3.30, 3.29, 6.59, 6.58 };
    assert_true(fabs(spread_max_min(parking, 4) - 6.59 / 3.29) < 1e-12);
    const double even[3] = { 5, 5, 5 };
    assert_true(spread_max_min(even, 3) == 1.0);
    const double one[1] = { 2.5 };
    assert_true(spread_max_min(one, 1) == 1.0);
}

static void test_edges(void **st)
{
    (void)st;
    const double starved[4] = { 0.0, 0.0, 9.87, 9.87 };
    double s = spread_max_min(starved, 4);
    assert_true(isinf(s) && s > 0);
    const double none[2] = { 0, 0 };
    assert_true(isnan(spread_max_min(none, 2)));
    assert_true(isnan(spread_max_min(none, 0)));
    const double bad[2] = { NAN, 1 };
    assert_true(isnan(spread_max_min(bad, 2)));
    const double neg[2] = { -1, 1 };
    assert_true(isnan(spread_max_min(neg, 2)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

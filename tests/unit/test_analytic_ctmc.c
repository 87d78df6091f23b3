/* test_analytic_ctmc.c: the CTMC stationary solver: a birth-death chain against its product
 * form, a cyclic chain, and chains without a unique stationary distribution. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "analytic/ctmc.h"
#include "analytic_check.h"

static void test_birth_death(void **state)
{
    (void)state;
    /* Birth rates b_i = i+1, death rates d_i = 2i: p(i+1)/p(i) = b_i / d_{i+1}. */
    const size_t n = 6;
    struct ctmc c;
    ctmc_init(&c, n);
    for (size_t i = 0; i + 1 < n; i++) {
        ctmc_add(&c, i, i + 1, (double)(i + 1));
        ctmc_add(&c, i + 1, i, 2.0 * (double)(i + 1));
    }
    double p[6], w[6] = { 1 }, z = 1;
    struct ibn_err e;
    assert_int_equal(ctmc_stationary(&c, p, &e), 0);
    for (size_t i = 1; i < n; i++) {
        w[i] = w[i - 1] * (double)i / (2.0 * (double)i);
        z += w[i];
    }
    for (size_t i = 0; i < n; i++)
        assert_rel(p[i], w[i] / z, 1e-12);
    ctmc_free(&c);
}

static void test_cycle(void **state)
{
    (void)state;
    /* 0 -> 1 -> 2 -> 0 at rates 1, 2, 4: p proportional to 1/rate. */
    struct ctmc c;
    ctmc_init(&c, 3);
    ctmc_add(&c, 0, 1, 1);
    ctmc_add(&c, 1, 2, 2);
    ctmc_add(&c, 2, 0, 4);
    ctmc_add(&c, 2, 2, 99); /* a self-loop changes nothing */
    double p[3];
    struct ibn_err e;
    assert_int_equal(ctmc_stationary(&c, p, &e), 0);
    assert_rel(p[0], 4.0 / 7, 1e-12);
    assert_rel(p[1], 2.0 / 7, 1e-12);
    assert_rel(p[2], 1.0 / 7, 1e-12);
    ctmc_free(&c);
}

static void test_not_unique(void **state)
{
    (void)state;
    /* Two absorbing states: no unique stationary distribution. */
    struct ctmc c;
    ctmc_init(&c, 3);
    ctmc_add(&c, 0, 1, 1);
    ctmc_add(&c, 0, 2, 1);
    double p[3];
    struct ibn_err e;
    assert_int_equal(ctmc_stationary(&c, p, &e), -1);
    ctmc_free(&c);
    /* Two separate closed classes {0,1} and {2,3}. */
    ctmc_init(&c, 4);
    ctmc_add(&c, 0, 1, 1);
    ctmc_add(&c, 1, 0, 1);
    ctmc_add(&c, 2, 3, 1);
    ctmc_add(&c, 3, 2, 1);
    assert_int_equal(ctmc_stationary(&c, p, &e), -1);
    ctmc_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_birth_death),
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_not_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

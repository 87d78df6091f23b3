/* test_analytic_credit.c: the credit-based two-node CTMC against digest 000 section 6.2 (E3
 * and E4), its throughput identities, the misprinted (4.10) term, and a decoupled limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analytic/classic.h"
#include "analytic/credit_chain.h"
#include "analytic_check.h"

/* Columns: L1, L2, L, T, R (4 decimals), P_loss (5 decimals). */
static const double e3[10][6] = {
    { 7.4228, 0.7843, 8.2071, 4.4212, 1.8563, 0.11577 },
    { 5.5536, 1.0315, 6.5851, 4.7162, 1.3963, 0.05675 },
    { 4.6540, 1.1995, 5.8535, 4.8151, 1.2156, 0.03698 },
    { 4.2043, 1.3153, 5.5196, 4.8559, 1.1367, 0.02883 },
    { 3.9653, 1.3950, 5.3602, 4.8752, 1.0995, 0.02496 },
    { 3.8330, 1.4489, 5.2820, 4.8851, 1.0812, 0.02298 },
    { 3.7583, 1.4848, 5.2431, 4.8904, 1.0721, 0.02192 },
    { 3.7156, 1.5081, 5.2238, 4.8933, 1.0675, 0.02134 },
    { 3.6913, 1.5230, 5.2143, 4.8949, 1.0652, 0.02102 },
    { 3.6775, 1.5322, 5.2097, 4.8958, 1.0641, 0.02084 },
};
static const double e4[7][6] = {
    { 1.7228, 0.9615, 2.6844, 4.2664, 0.6292, 0.14672 },
    { 2.0496, 1.1032, 3.1527, 4.4617, 0.7066, 0.10765 },
    { 2.3481, 1.2154, 3.5635, 4.5933, 0.7758, 0.08134 },
    { 2.6214, 1.3042, 3.9256, 4.6859, 0.8377, 0.06281 },
    { 2.8716, 1.3743, 4.2459, 4.7534, 0.8932, 0.04932 },
    { 3.1002, 1.4299, 4.5301, 4.8039, 0.9430, 0.03922 },
    { 3.3086, 1.4742, 4.7828, 4.8425, 0.9877, 0.03149 },
};

static void check(const struct credit_metrics *m, const double ref[6])
{
    assert_printed(m->L1, ref[0], 4);
    assert_printed(m->L2, ref[1], 4);
    assert_printed(m->L, ref[2], 4);
    assert_printed(m->T, ref[3], 4);
    assert_printed(m->R, ref[4], 4);
    assert_printed(m->P_loss, ref[5], 5);
}

/* E3: lambda 5, mu1 6, mu2 8, n1 = 12, n2 = 2..11. */
static void test_digest_e3(void **state)
{
    (void)state;
    struct ibn_err e;
    for (int m = 2; m <= 11; m++) {
        struct credit_params p = { 5, 6, 8, 12, m };
        struct credit_metrics r;
        assert_int_equal(credit_solve(&p, &r, &e), 0);
        check(&r, e3[m - 2]);
        /* The three throughput forms of (4.10), corrected, agree. */
        assert_rel(r.T_arrivals, r.T, 1e-10);
        assert_rel(r.T_upstream, r.T, 1e-10);
    }
}

/* E4: n1 = n2 = 4..10. R = L/T rises (0.63 -> 0.99), against the thesis's claim that it
 * falls: the model gives what it gives. */
static void test_digest_e4(void **state)
{
    (void)state;
    struct ibn_err e;
    double prevR = 0;
    for (int k = 4; k <= 10; k++) {
        struct credit_params p = { 5, 6, 8, k, k };
        struct credit_metrics r;
        assert_int_equal(credit_solve(&p, &r, &e), 0);
        check(&r, e4[k - 4]);
        assert_true(r.R > prevR);
        prevR = r.R;
    }
}

/* The printed middle term of (4.10), mu1 (1 - sum_i P(i,0)), is mu1/mu2 times the throughput:
 * 3.316 at n1 = 12, n2 = 2 (digest 000 section 3.3), not 4.421. */
static void test_printed_throughput_term(void **state)
{
    (void)state;
    struct ibn_err e;
    struct credit_params p = { 5, 6, 8, 12, 2 };
    struct credit_metrics r;
    assert_int_equal(credit_solve(&p, &r, &e), 0);
    assert_printed(r.T_printed, 3.316, 3);
    assert_rel(r.T_printed, r.T * 6.0 / 8.0, 1e-12);
}

/* With a downstream buffer that never fills, the upstream node is M/M/1/n1. */
static void test_decoupled_limit(void **state)
{
    (void)state;
    struct ibn_err e;
    struct credit_params p = { 5, 6, 8, 12, 60 };
    struct credit_metrics r;
    struct queue_metrics mm;
    assert_int_equal(credit_solve(&p, &r, &e), 0);
    assert_int_equal(mm1k_solve(5, 6, 12, &mm, &e), 0);
    assert_rel(r.L1, mm.L, 1e-9);
    assert_rel(r.T, mm.X, 1e-9);
    assert_true(r.P_blocked < 1e-9);
}

static void test_bad_input(void **state)
{
    (void)state;
    struct ibn_err e;
    struct credit_metrics r;
    struct credit_params p = { 5, 6, 8, 0, 3 };
    assert_int_equal(credit_solve(&p, &r, &e), -1);
    assert_non_null(strstr(e.msg, "n1"));
    p = (struct credit_params){ 5, -6, 8, 4, 3 };
    assert_int_equal(credit_solve(&p, &r, &e), -1);
    p = (struct credit_params){ 5, 6, 8, 1000, 1000 };
    assert_int_equal(credit_solve(&p, &r, &e), -1);
    assert_non_null(strstr(e.msg, "states"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_e3),
        cmocka_unit_test(test_digest_e4),
        cmocka_unit_test(test_printed_throughput_term),
        cmocka_unit_test(test_decoupled_limit),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

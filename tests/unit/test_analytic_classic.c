/* test_analytic_classic.c: M/M/1/K, M/M/1, M/G/1 (Pollaczek-Khinchine) and M/D/1 against
 * their textbook closed forms and against each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "analytic/classic.h"
#include "analytic_check.h"

static void test_mm1k(void **state)
{
    (void)state;
    struct ibn_err e;
    struct queue_metrics m;
    /* K = 1: p1 = rho/(1+rho), L = rho/(1+rho). */
    assert_int_equal(mm1k_solve(3, 4, 1, &m, &e), 0);
    assert_rel(m.L, 0.75 / 1.75, 1e-14);
    assert_rel(m.blocking, 0.75 / 1.75, 1e-14);
    /* rho = 1: uniform, L = K/2. */
    assert_int_equal(mm1k_solve(5, 5, 10, &m, &e), 0);
    assert_rel(m.L, 5.0, 1e-12);
    assert_rel(m.blocking, 1.0 / 11, 1e-12);
    /* Closed form L = rho/(1-rho) - (K+1) rho^(K+1) / (1 - rho^(K+1)), rho = 0.5 and 2. */
    for (double rho = 0.5; rho < 3; rho *= 4) {
        int K = 6;
        double a = pow(rho, K + 1);
        assert_int_equal(mm1k_solve(rho * 2, 2, K, &m, &e), 0);
        assert_rel(m.L, rho / (1 - rho) - (K + 1) * a / (1 - a), 1e-12);
        assert_rel(m.X, 2 * (1 - m.p0), 1e-12); /* X = mu U */
        assert_rel(m.W, m.L / m.X, 1e-14);
    }
    /* Large K tends to M/M/1. */
    struct queue_metrics inf;
    assert_int_equal(mm1k_solve(3, 4, 400, &m, &e), 0);
    assert_int_equal(mm1_solve(3, 4, &inf, &e), 0);
    assert_rel(m.L, inf.L, 1e-12);
    assert_rel(inf.L, 3.0, 1e-14);
    assert_rel(inf.W, 1.0, 1e-14);
    assert_int_equal(mm1k_solve(3, 4, 0, &m, &e), -1);
    assert_int_equal(mm1_solve(4, 4, &inf, &e), -1);
}

static void test_pk(void **state)
{
    (void)state;
    struct ibn_err e;
    struct queue_metrics g, m;
    /* Cs2 = 1 is M/M/1. */
    assert_int_equal(mg1_solve(3, 4, 1, &g, &e), 0);
    assert_int_equal(mm1_solve(3, 4, &m, &e), 0);
    assert_rel(g.L, m.L, 1e-14);
    assert_rel(g.Wq, m.Wq, 1e-14);
    /* rho = 0.8, Cs2 = 3: Lq = 0.64 * 4 / 0.4 = 6.4, L = 7.2, W = 7.2/4 (Little). */
    assert_int_equal(mg1_solve(4, 5, 3, &g, &e), 0);
    assert_rel(g.Lq, 6.4, 1e-14);
    assert_rel(g.L, 7.2, 1e-14);
    assert_rel(g.W, 1.8, 1e-14);
    assert_int_equal(mg1_solve(5, 5, 1, &g, &e), -1);
    assert_int_equal(mg1_solve(1, 5, -1, &g, &e), -1);
}

/* M/D/1: Lq = rho^2 / (2 (1 - rho)); at rho = 0.5 L = 0.75, at 0.3 L = 0.3642857. The
 * classical queue-length distribution sums to 1 and has the P-K mean. */
static void test_md1(void **state)
{
    (void)state;
    struct ibn_err e;
    struct queue_metrics d;
    assert_int_equal(md1_solve(1, 2, &d, &e), 0);
    assert_rel(d.Lq, 0.25, 1e-14);
    assert_rel(d.L, 0.75, 1e-14);
    assert_rel(d.Wq, 0.25, 1e-14);
    const double rhos[] = { 0.3, 0.5 };
    for (int i = 0; i < 2; i++) {
        double s = 0, mean = 0;
        for (int n = 0; n <= 20; n++) {
            double p = md1_pn(rhos[i], n);
            assert_true(p >= -1e-9); /* alternating sum: rounding of ~1e-10 in the tail */
            s += p, mean += n * p;
        }
        assert_int_equal(md1_solve(rhos[i], 1, &d, &e), 0);
        assert_near(s, 1.0, 0, 1e-8);
        assert_near(mean, d.L, 0, 1e-6);
    }
    assert_rel(md1_pn(0.5, 1), 0.5 * (exp(0.5) - 1), 1e-14);
    assert_int_equal(md1_solve(2, 2, &d, &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mm1k),
        cmocka_unit_test(test_pk),
        cmocka_unit_test(test_md1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

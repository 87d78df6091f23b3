/* test_analytic_ge.c: the GE distribution: moments, batch form, CDF, argument checks and the
 * sampler's mean and SCV over a long fixed-seed sample. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <gsl/gsl_rng.h>

#include "analytic/ge.h"
#include "core/rng.h"
#include "analytic_check.h"

static void test_ge_moments(void **state)
{
    (void)state;
    /* The experiment values of seed 000: Ca2 = 5 -> tau = 1/3, Cs2 = 7 -> tau = 1/4. */
    assert_rel(ge_tau(5), 1.0 / 3, 1e-15);
    assert_rel(ge_tau(7), 0.25, 1e-15);
    assert_rel(ge_tau(1), 1.0, 1e-15);
    struct ge_dist s = { 8, 7 };
    assert_rel(ge_mean(&s), 0.125, 1e-15);
    assert_rel(ge_variance(&s), 7.0 / 64, 1e-15);
    assert_rel(ge_p_zero(&s), 0.75, 1e-15);
    assert_rel(ge_batch_rate(&s), 2.0, 1e-15); /* the exponential branch is Exp(2) */
    assert_rel(ge_batch_mean(&s), 4.0, 1e-15);
    /* The batch pmf sums to 1 and has mean 1/tau and variance (1-tau)/tau^2. */
    double sum = 0, mean = 0, sq = 0;
    for (unsigned k = 1; k < 400; k++) {
        double q = ge_batch_pmf(&s, k);
        sum += q, mean += k * q, sq += (double)k * k * q;
    }
    assert_rel(sum, 1.0, 1e-12);
    assert_rel(mean, ge_batch_mean(&s), 1e-10);
    assert_rel(sq - mean * mean, ge_batch_variance(&s), 1e-10);
    assert_true(ge_batch_pmf(&s, 0) == 0.0);
    /* CDF: jump of 1 - tau at 0, F(t) -> 1, and the mean from the survival integral. */
    assert_rel(ge_cdf(&s, 0), 0.75, 1e-15);
    assert_true(ge_cdf(&s, -1) == 0.0);
    double integral = 0, h = 1e-4;
    for (double t = h / 2; t < 20; t += h)
        integral += (1.0 - ge_cdf(&s, t)) * h;
    assert_rel(integral, ge_mean(&s), 1e-6);
}

static void test_ge_check(void **state)
{
    (void)state;
    struct ibn_err e;
    struct ge_dist ok = { 2, 1 }, low = { 2, 0.5 }, neg = { -1, 3 };
    assert_int_equal(ge_check(&ok, "arrivals", &e), 0);
    assert_int_equal(ge_check(&low, "arrivals", &e), -1);
    assert_non_null(strstr(e.msg, ">= 1"));
    assert_int_equal(ge_check(&neg, "service", &e), -1);
    assert_non_null(strstr(e.msg, "service"));
}

/* Sample mean and SCV within 2 % of the configured values over 10^6 samples (fixed seed). */
static void check_sampler(double rate, double scv, uint64_t seed)
{
    struct ge_dist d = { rate, scv };
    gsl_rng *r = rng_stream(seed, "test/ge");
    const int n = 1000000;
    double s = 0, s2 = 0;
    int zeros = 0;
    for (int i = 0; i < n; i++) {
        double x = ge_sample(&d, r);
        assert_true(x >= 0);
        zeros += x == 0;
        s += x, s2 += x * x;
    }
    gsl_rng_free(r);
    double mean = s / n, var = s2 / n - mean * mean;
    assert_rel(mean, 1.0 / rate, 0.02);
    assert_rel(var / (mean * mean), scv, 0.02);
    if (scv > 1)
        assert_rel((double)zeros / n, 1.0 - ge_tau(scv), 0.02);
}

static void test_ge_sampler(void **state)
{
    (void)state;
    check_sampler(5, 5, 11);
    check_sampler(8, 7, 12);
    check_sampler(1, 1, 13);  /* exponential */
    check_sampler(0.5, 20, 14);
}

/* The batch form: packets per unit time and the counting SCV of the batch sizes. */
static void test_ge_batches(void **state)
{
    (void)state;
    struct ge_dist d = { 4, 5 };
    gsl_rng *r = rng_stream(21, "test/ge-batch");
    const int n = 500000;
    double t = 0, packets = 0, s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double gap;
        unsigned size;
        ge_sample_batch(&d, r, &gap, &size);
        assert_true(size >= 1);
        t += gap;
        packets += size;
        s += size, s2 += (double)size * size;
    }
    gsl_rng_free(r);
    assert_rel(packets / t, d.rate, 0.02);       /* packet rate lambda */
    assert_rel(n / t, ge_batch_rate(&d), 0.02);  /* batch rate tau*lambda */
    assert_rel(s / n, ge_batch_mean(&d), 0.02);  /* mean batch 1/tau = 3 */
    assert_rel(s2 / n - (s / n) * (s / n), ge_batch_variance(&d), 0.02);
}

static void test_ge_queue_mean_inf(void **state)
{
    (void)state;
    /* (5.14) at the thesis's Ca2 = 5, Cs2 = 7. */
    assert_rel(ge_queue_mean_inf(0.25, 5, 7), 1.25, 1e-14);
    assert_rel(ge_queue_mean_inf(0.5, 5, 7), 4.5, 1e-14);
    assert_rel(ge_queue_mean_inf(0.75, 5, 7), 15.75, 1e-14);
    /* Ca2 = Cs2 = 1: M/M/1, rho/(1-rho). */
    assert_rel(ge_queue_mean_inf(0.6, 1, 1), 1.5, 1e-14);
    assert_true(isnan(ge_queue_mean_inf(1.0, 5, 7)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ge_moments),     cmocka_unit_test(test_ge_check),
        cmocka_unit_test(test_ge_sampler),     cmocka_unit_test(test_ge_batches),
        cmocka_unit_test(test_ge_queue_mean_inf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

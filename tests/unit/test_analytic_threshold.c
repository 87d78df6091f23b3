/* test_analytic_threshold.c: Entry Threshold and Arrival Job Threshold, exact chain and
 * maximum entropy, against digest 000 section 6.3, the ME accuracy claims, and the regime
 * table checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analytic/gequeue.h"
#include "analytic/threshold.h"
#include "analytic_check.h"

/* Digest 000 section 6.3: Ca2 = 5, Cs2 = 7, mu1 = 8, N = 8; ET t = 8, K = 16, mu2 = 16;
 * AJT T1 = 8, T2 = 16, K = 24, mu = 8/16/12; lambda = 1..7; L / U / pi. */
static const double et_exact_ref[7][3] = {
    { 0.4067, 0.1195, 0.0026 }, { 0.9198, 0.2309, 0.0066 }, { 1.5146, 0.3316, 0.0134 },
    { 2.1640, 0.4208, 0.0237 }, { 2.8433, 0.4985, 0.0374 }, { 3.5313, 0.5653, 0.0543 },
    { 4.2115, 0.6225, 0.0741 },
};
static const double et_me_ref[7][3] = {
    { 0.4056, 0.1195, 0.0032 }, { 0.9162, 0.2309, 0.0066 }, { 1.5069, 0.3318, 0.0123 },
    { 2.1513, 0.4214, 0.0207 }, { 2.8260, 0.4998, 0.0316 }, { 3.5119, 0.5677, 0.0449 },
    { 4.1945, 0.6263, 0.0602 },
};
static const double ajt_exact_ref[7][3] = {
    { 0.4124, 0.1198, 0.0002 }, { 0.9492, 0.2320, 0.0008 }, { 1.6063, 0.3347, 0.0024 },
    { 2.3812, 0.4273, 0.0058 }, { 3.2699, 0.5097, 0.0121 }, { 4.2631, 0.5825, 0.0222 },
    { 5.3427, 0.6462, 0.0367 },
};
static const double ajt_me_ref[7][3] = {
    { 0.4112, 0.1197, 0.0002 }, { 0.9435, 0.2319, 0.0006 }, { 1.5895, 0.3345, 0.0017 },
    { 2.3434, 0.4270, 0.0039 }, { 3.2000, 0.5095, 0.0079 }, { 4.1521, 0.5828, 0.0140 },
    { 5.1889, 0.6476, 0.0228 },
};

static struct et_params et_at(double lambda)
{
    struct et_params p = { .lambda = lambda, .ca2 = 5, .cs2 = 7, .mu1 = 8, .mu2 = 16, .N = 8,
                           .t = 8 };
    return p;
}

static struct ajt_params ajt_at(double lambda)
{
    struct ajt_params p = { .lambda = lambda, .ca2 = 5, .cs2 = 7, .N = 8, .lanes = 3,
                            .mu = { 8, 16, 12 }, .T = { 8, 16 } };
    return p;
}

static void check_row(const struct geq_metrics *m, const double ref[3])
{
    assert_printed(m->L, ref[0], 4);
    assert_printed(m->U, ref[1], 4);
    assert_printed(m->blocking, ref[2], 4);
}

static void test_digest_et(void **state)
{
    (void)state;
    struct ibn_err e;
    for (int i = 0; i < 7; i++) {
        struct et_params p = et_at(i + 1);
        struct geq_metrics ex, me;
        assert_int_equal(et_exact(&p, &ex, &e), 0);
        assert_int_equal(et_me(&p, &me, &e), 0);
        check_row(&ex, et_exact_ref[i]);
        check_row(&me, et_me_ref[i]);
    }
    /* The digest's discrete-event cross-check, ET at lambda = 5: 2.8367 / 0.4980 / 0.0376. */
    struct et_params p = et_at(5);
    struct geq_metrics ex;
    assert_int_equal(et_exact(&p, &ex, &e), 0);
    assert_rel(ex.L, 2.8367, 0.006);
    assert_rel(ex.U, 0.4980, 0.006);
    assert_rel(ex.blocking, 0.0376, 0.006);
}

static void test_digest_ajt(void **state)
{
    (void)state;
    struct ibn_err e;
    for (int i = 0; i < 7; i++) {
        struct ajt_params p = ajt_at(i + 1);
        struct geq_metrics ex, me;
        assert_int_equal(ajt_exact(&p, &ex, &e), 0);
        assert_int_equal(ajt_me(&p, &me, &e), 0);
        check_row(&ex, ajt_exact_ref[i]);
        check_row(&me, ajt_me_ref[i]);
    }
    /* The digest's discrete-event cross-check, AJT at lambda = 7: 5.3760 / 0.6474 / 0.0370. */
    struct ajt_params p = ajt_at(7);
    struct geq_metrics ex;
    assert_int_equal(ajt_exact(&p, &ex, &e), 0);
    assert_rel(ex.L, 5.3760, 0.007);
    assert_rel(ex.U, 0.6474, 0.006);
    assert_rel(ex.blocking, 0.0370, 0.01);
}

/* The comparison at lambda = 4 of the issue: blocking falls by an order of magnitude from no
 * threshold (0.1712) to ET (0.0237) to AJT (0.0058), while L rises (1.8468, 2.1640, 2.3812). */
static void test_threshold_comparison(void **state)
{
    (void)state;
    struct ibn_err e;
    struct geq_metrics none, et, ajt;
    struct et_params pe = et_at(4);
    struct ajt_params pa = ajt_at(4);
    assert_int_equal(gege1n_exact(4, 5, 8, 7, 8, &none, &e), 0);
    assert_int_equal(et_exact(&pe, &et, &e), 0);
    assert_int_equal(ajt_exact(&pa, &ajt, &e), 0);
    assert_printed(none.L, 1.8468, 4);
    assert_printed(et.L, 2.1640, 4);
    assert_printed(ajt.L, 2.3812, 4);
    assert_printed(none.blocking, 0.1712, 4);
    assert_printed(et.blocking, 0.0237, 4);
    assert_printed(ajt.blocking, 0.0058, 4);
    assert_true(ajt.blocking < et.blocking && et.blocking < none.blocking);
    assert_true(none.L < et.L && et.L < ajt.L);
}

/* ME within 5 % of exact for L, U, X and W on the whole grid (the digest: L within 1-4 %, U
 * within 1 %). The blocking probability is within 5 % only at ET lambda = 2 (a crossing) and
 * AJT lambda = 1; every other ET and AJT point is a documented exception (docs/analytic.md). */
static void test_me_accuracy(void **state)
{
    (void)state;
    struct ibn_err e;
    for (int l = 1; l <= 7; l++) {
        struct et_params pe = et_at(l);
        struct ajt_params pa = ajt_at(l);
        struct geq_metrics ex, me, ax, am;
        assert_int_equal(et_exact(&pe, &ex, &e), 0);
        assert_int_equal(et_me(&pe, &me, &e), 0);
        assert_int_equal(ajt_exact(&pa, &ax, &e), 0);
        assert_int_equal(ajt_me(&pa, &am, &e), 0);
        assert_true(analytic_em(ex.L, me.L) <= 0.05);
        assert_true(analytic_em(ex.U, me.U) <= 0.05);
        assert_true(analytic_em(ex.X, me.X) <= 0.05);
        assert_true(analytic_em(ex.W, me.W) <= 0.05);
        assert_true(analytic_em(ax.L, am.L) <= 0.05);
        assert_true(analytic_em(ax.U, am.U) <= 0.05);
        assert_true(analytic_em(ax.X, am.X) <= 0.05);
        assert_true(analytic_em(ax.W, am.W) <= 0.05);
        if (l == 2)
            assert_true(analytic_em(ex.blocking, me.blocking) <= 0.05);
        else
            assert_true(analytic_em(ex.blocking, me.blocking) > 0.05);
        if (l == 1)
            assert_true(analytic_em(ax.blocking, am.blocking) <= 0.05);
        else
            assert_true(analytic_em(ax.blocking, am.blocking) > 0.05);
        /* The utilisation splits over the regimes. */
        assert_rel(ex.U_regime[0] + ex.U_regime[1], ex.U, 1e-12);
        assert_rel(am.U_regime[0] + am.U_regime[1] + am.U_regime[2], am.U, 1e-12);
    }
}

/* A threshold whose second regime serves at the same rate is plain GE/GE/1/2N (exact), and an
 * AJT with one lane is GE/GE/1/N (exact and ME). */
static void test_degenerate_thresholds(void **state)
{
    (void)state;
    struct ibn_err e;
    struct et_params p = et_at(3);
    p.mu2 = p.mu1;
    struct geq_metrics a, b;
    assert_int_equal(et_exact(&p, &a, &e), 0);
    assert_int_equal(gege1n_exact(3, 5, 8, 7, 16, &b, &e), 0);
    assert_rel(a.L, b.L, 1e-10);
    assert_near(a.blocking, b.blocking, 1e-9, 1e-13);
    struct ajt_params q = ajt_at(3);
    q.lanes = 1;
    assert_int_equal(ajt_me(&q, &a, &e), 0);
    assert_int_equal(gege1n_me(3, 5, 8, 7, 8, &b, &e), 0);
    assert_rel(a.L, b.L, 1e-10);
    assert_rel(a.blocking, b.blocking, 1e-10);
}

static void test_bad_thresholds(void **state)
{
    (void)state;
    struct ibn_err e;
    struct geq_metrics m;
    struct et_params p = et_at(3);
    p.t = 16;
    assert_int_equal(et_exact(&p, &m, &e), -1);
    assert_non_null(strstr(e.msg, "threshold"));
    p.t = 0;
    assert_int_equal(et_me(&p, &m, &e), -1);
    struct ajt_params q = ajt_at(3);
    q.T[1] = 8; /* not above T1 */
    assert_int_equal(ajt_exact(&q, &m, &e), -1);
    q = ajt_at(3);
    q.T[1] = 30; /* beyond 3N */
    assert_int_equal(ajt_exact(&q, &m, &e), -1);
    q = ajt_at(3);
    q.lanes = AJT_MAX_LANES + 1;
    assert_int_equal(ajt_me(&q, &m, &e), -1);
    q = ajt_at(9); /* rho1 = 9/8: the ME form needs rho < 1 in every regime */
    assert_int_equal(ajt_me(&q, &m, &e), -1);
    assert_int_equal(ajt_exact(&q, &m, &e), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_et),           cmocka_unit_test(test_digest_ajt),
        cmocka_unit_test(test_threshold_comparison), cmocka_unit_test(test_me_accuracy),
        cmocka_unit_test(test_degenerate_thresholds), cmocka_unit_test(test_bad_thresholds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_arrival.c: unit tests of the message arrival processes: measured mean and squared
 * coefficient of variation (SCV) of the interarrival times and of the sizes against the
 * configured or closed-form values (2 % tolerance, fixed seeds), the GE batch form, the video
 * model, and the frame-size trace reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/params.h"
#include "core/rng.h"
#include "traffic/arrival.h"

#define TOL 0.02

/* Running moments (Welford). */
struct mom {
    double n, mean, m2;
};
static void mom_add(struct mom *m, double x)
{
    m->n += 1;
    double d = x - m->mean;
    m->mean += d / m->n;
    m->m2 += d * (x - m->mean);
}
static double mom_var(const struct mom *m) { return m->m2 / (m->n - 1); }
static double mom_scv(const struct mom *m) { return mom_var(m) / (m->mean * m->mean); }

static void assert_rel(double got, double want, double tol, const char *what)
{
    double rel = fabs(got - want) / fabs(want);
    if (!(rel <= tol)) {
        print_error("%s: got %.6g, want %.6g (relative error %.4f > %.4f)\n", what, got, want,
                    rel, tol);
        fail();
    }
}

static void desc_defaults(struct arrival_desc *d)
{
    char why[256];
    memset(d, 0, sizeof *d);
    assert_int_equal(params_set_defaults(arrival_params, d, why, sizeof why), 0);
}

static void set(struct arrival_desc *d, const char *key, const char *val)
{
    char why[256];
    const struct param *p = params_find(arrival_params, key);
    assert_non_null(p);
    if (param_set(p, d, val, why, sizeof why)) {
        print_error("%s = %s: %s\n", key, val, why);
        fail();
    }
}

struct run {
    struct mom gap;   /* interarrival times, seconds */
    struct mom bytes; /* message sizes */
    double total_time, total_bytes;
};

/* Draw n messages from a process built from d. */
static void run_process(struct arrival_desc *d, uint64_t seed, long n, struct run *out)
{
    struct arrival a;
    struct ibn_err e;
    memset(out, 0, sizeof *out);
    if (arrival_init(&a, d, &e)) {
        print_error("arrival_init: %s\n", e.msg);
        fail();
    }
    gsl_rng *r = rng_stream(seed, "test/arrival");
    struct msg_draw m;
    arrival_next(&a, r, &m); /* the first gap is measured from the start, not a gap */
    out->total_bytes += m.bytes;
    for (long i = 1; i < n; i++) {
        arrival_next(&a, r, &m);
        mom_add(&out->gap, simtime_to_s(m.gap));
        mom_add(&out->bytes, m.bytes);
        out->total_time += simtime_to_s(m.gap);
        out->total_bytes += m.bytes;
    }
    gsl_rng_free(r);
    arrival_free(&a);
    params_free(arrival_params, d);
}

static void test_defaults_and_table(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    assert_int_equal(d.kind, ARRIVAL_POISSON);
    assert_true(d.rate_bps == 1e9);
    assert_int_equal(d.msg_bytes, 4096);
    assert_string_equal(d.gop, "IBBPBBPBBPBB");
    assert_true(d.fps == 30.0);
    /* every field is described with a default and help text */
    for (const struct param *p = arrival_params; p->key; p++) {
        assert_non_null(p->def);
        assert_true(p->help && strlen(p->help) > 10);
    }
    char why[256];
    assert_int_equal(param_set(params_find(arrival_params, "kind"), &d, "walk", why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "saturate"));
    set(&d, "kind", "video"); /* defaults: mean frame 20 500 B at 30 frames/s */
    assert_rel(arrival_mean_rate_bps(&d), 4.92e6, 1e-12, "default video rate");
    set(&d, "kind", "ge");
    assert_int_equal(d.kind, ARRIVAL_GE);
    assert_int_equal(param_set(params_find(arrival_params, "ge_scv"), &d, "0.5", why, sizeof why),
                     -1);
    params_free(arrival_params, &d);
}

static void test_saturate(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "saturate");
    set(&d, "msg_size", "2048 B");
    assert_true(isinf(arrival_mean_rate_bps(&d)));
    struct run r;
    run_process(&d, 1, 1000, &r);
    assert_true(r.total_time == 0);
    assert_true(r.bytes.mean == 2048 && r.bytes.m2 == 0);
}

static void test_constant(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "constant");
    set(&d, "rate", "13.5 Gb/s");
    set(&d, "msg_size", "4096 B");
    set(&d, "random_phase", "false");
    struct arrival a;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a, &d, &e), 0);
    gsl_rng *r = rng_stream(2, "c");
    struct msg_draw m;
    arrival_next(&a, r, &m);
    assert_int_equal(m.gap, 0);
    /* 4096 B at 13.5 Gb/s: 2427259.259 ps; each gap is that rounded, and the sum is exact */
    simtime_t t = 0;
    for (int i = 1; i <= 1000000; i++) {
        arrival_next(&a, r, &m);
        assert_true(m.gap == 2427259 || m.gap == 2427260);
        t += m.gap;
    }
    assert_int_equal(t, llround(1e6 * 4096 * 8 / 13.5e9 * 1e12));
    arrival_free(&a);

    /* random phase: the first message comes within one period */
    set(&d, "random_phase", "true");
    assert_int_equal(arrival_init(&a, &d, &e), 0);
    arrival_next(&a, r, &m);
    assert_true(m.gap >= 0 && m.gap < 2427260);
    arrival_free(&a);
    gsl_rng_free(r);

    struct run run;
    run_process(&d, 3, 200000, &run);
    assert_rel(run.gap.mean, 4096 * 8 / 13.5e9, 1e-6, "constant mean gap");
    assert_true(mom_scv(&run.gap) < 1e-10);
}

static void test_poisson(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "poisson");
    set(&d, "rate", "8 Gb/s");
    set(&d, "msg_size", "1000 B");
    struct run r;
    run_process(&d, 4, 1000000, &r);
    assert_rel(r.gap.mean, 1e-6, TOL, "poisson mean gap");
    assert_rel(mom_scv(&r.gap), 1.0, TOL, "poisson SCV");
    assert_rel(8 * r.total_bytes / r.total_time, 8e9, TOL, "poisson byte rate");
}

static void test_sizes(void **state)
{
    (void)state;
    struct arrival_desc d;
    struct run r;
    /* uniform on [100, 1900] */
    desc_defaults(&d);
    set(&d, "kind", "poisson");
    set(&d, "msg_size", "1000 B");
    set(&d, "size_dist", "uniform");
    set(&d, "size_min", "100 B");
    run_process(&d, 5, 500000, &r);
    assert_rel(r.bytes.mean, 1000, TOL, "uniform size mean");
    assert_rel(mom_var(&r.bytes), (1801.0 * 1801.0 - 1) / 12, TOL, "uniform size variance");
    assert_rel(8 * r.total_bytes / r.total_time, 1e9, TOL, "uniform sizes: byte rate");
    /* exponential (geometric) sizes: mean m, SCV 1 - 1/m */
    desc_defaults(&d);
    set(&d, "size_dist", "exponential");
    set(&d, "msg_size", "2048 B");
    run_process(&d, 6, 1000000, &r);
    assert_rel(r.bytes.mean, 2048, TOL, "exponential size mean");
    assert_rel(mom_scv(&r.bytes), 1 - 1.0 / 2048, TOL, "exponential size SCV");
    assert_rel(8 * r.total_bytes / r.total_time, 1e9, TOL, "exponential sizes: byte rate");
    /* lognormal sizes with CV 0.5 */
    desc_defaults(&d);
    set(&d, "size_dist", "lognormal");
    set(&d, "size_cv", "0.5");
    run_process(&d, 7, 1000000, &r);
    assert_rel(r.bytes.mean, 4096, TOL, "lognormal size mean");
    assert_rel(mom_scv(&r.bytes), 0.25, TOL, "lognormal size SCV");
    /* ge sizes: 0 bytes with probability 1 - tau, else geometric with mean m / tau: mean m,
     * SCV C^2 - 1/m (the discrete exponential branch has SCV 1 - tau/m) */
    desc_defaults(&d);
    set(&d, "size_dist", "ge");
    set(&d, "msg_size", "2000 B");
    set(&d, "size_scv", "4"); /* tau = 0.4 */
    {
        struct arrival a;
        struct ibn_err e;
        assert_int_equal(arrival_init(&a, &d, &e), 0);
        gsl_rng *rg = rng_stream(9, "test/arrival");
        struct mom b = { 0, 0, 0 };
        long zeros = 0, n = 1000000;
        for (long i = 0; i < n; i++) {
            struct msg_draw m;
            arrival_next(&a, rg, &m);
            mom_add(&b, m.bytes);
            zeros += m.bytes == 0;
        }
        assert_rel(b.mean, 2000, TOL, "ge size mean");
        assert_rel(mom_scv(&b), 4 - 1.0 / 2000, TOL, "ge size SCV");
        assert_rel((double)zeros / (double)n, 0.6, TOL, "ge sizes: P(0 bytes) = 1 - tau");
        gsl_rng_free(rg);
        arrival_free(&a);
        params_free(arrival_params, &d);
    }
    desc_defaults(&d);
    set(&d, "size_dist", "ge");
    set(&d, "size_scv", "1"); /* tau = 1: no empty messages */
    run_process(&d, 10, 200000, &r);
    assert_true(r.bytes.mean > 0);
    assert_rel(mom_scv(&r.bytes), 1.0, TOL, "ge sizes, SCV 1");
    {
        struct arrival a;
        struct ibn_err e;
        desc_defaults(&d);
        set(&d, "size_dist", "ge");
        d.size_scv = 0.5;
        assert_int_equal(arrival_init(&a, &d, &e), -1);
        assert_non_null(strstr(e.msg, "size_scv"));
        params_free(arrival_params, &d);
    }
    /* a cap */
    desc_defaults(&d);
    set(&d, "size_dist", "exponential");
    set(&d, "size_max", "4096 B");
    run_process(&d, 8, 10000, &r);
    assert_true(r.bytes.mean < 4096);
    struct arrival a;
    struct ibn_err e;
    desc_defaults(&d);
    set(&d, "size_dist", "uniform");
    set(&d, "size_min", "5000 B");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    assert_non_null(strstr(e.msg, "size_min"));
    params_free(arrival_params, &d);
}

static void test_bernoulli(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "bernoulli");
    set(&d, "rate", "2 Gb/s");
    set(&d, "msg_size", "1000 B");
    set(&d, "slot", "1 us"); /* 0.25 messages per slot */
    struct arrival a;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a, &d, &e), 0);
    gsl_rng *r = rng_stream(9, "b");
    struct msg_draw m;
    for (int i = 0; i < 1000; i++) {
        arrival_next(&a, r, &m);
        assert_true(m.gap > 0 && m.gap % PS_PER_US == 0);
    }
    gsl_rng_free(r);
    arrival_free(&a);
    struct run run;
    run_process(&d, 10, 1000000, &run);
    assert_rel(run.gap.mean, 4e-6, TOL, "bernoulli mean gap");
    assert_rel(mom_scv(&run.gap), 1 - 0.25, TOL, "bernoulli SCV (1 - q)");
    desc_defaults(&d);
    set(&d, "kind", "bernoulli");
    set(&d, "rate", "100 Gb/s");
    set(&d, "msg_size", "1000 B");
    set(&d, "slot", "1 us");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    assert_non_null(strstr(e.msg, "slot"));
    params_free(arrival_params, &d);
}

/* SCV of interarrival times of an interrupted Poisson process: Poisson at rate lp while ON,
 * ON ends at rate al, OFF ends at rate be. First-step analysis from the ON state. */
static double ipp_scv(double lp, double al, double be)
{
    double s = lp + al;
    double m1 = (al + be) / (be * lp);
    double n1 = 1 / be + m1;
    double m2 = (s / lp) * (2 / (s * s) + 2 * al * n1 / (s * s) + (al / s) * (2 / (be * be) +
                                                                              2 * m1 / be));
    return m2 / (m1 * m1) - 1;
}

static void test_onoff(void **state)
{
    (void)state;
    struct arrival_desc d;
    struct run r;
    /* exponential periods, Poisson spacing: an interrupted Poisson process */
    desc_defaults(&d);
    set(&d, "kind", "onoff");
    set(&d, "rate", "1 Gb/s");
    set(&d, "msg_size", "1250 B"); /* 100 000 messages/s on average */
    set(&d, "on_mean", "100 us");
    set(&d, "off_mean", "300 us");
    set(&d, "onoff_spacing", "poisson");
    run_process(&d, 11, 1000000, &r);
    assert_rel(r.gap.mean, 1e-5, TOL, "IPP mean gap");
    double want = ipp_scv(4e5, 1e4, 1e4 / 3);
    assert_rel(want, 46, 1e-9, "IPP closed form");
    assert_rel(mom_scv(&r.gap), want, TOL, "IPP SCV");
    /* short periods (2 messages per ON period on average), where the spacing law matters */
    desc_defaults(&d);
    set(&d, "kind", "onoff");
    set(&d, "rate", "1 Gb/s");
    set(&d, "msg_size", "1250 B");
    set(&d, "on_mean", "10 us");
    set(&d, "off_mean", "10 us");
    set(&d, "onoff_spacing", "poisson");
    run_process(&d, 15, 1000000, &r);
    assert_rel(r.gap.mean, 1e-5, TOL, "IPP mean gap (short periods)");
    assert_rel(mom_scv(&r.gap), ipp_scv(2e5, 1e5, 1e5), TOL, "IPP SCV (short periods)");
    /* exponential periods, even spacing while ON (seed 003) */
    desc_defaults(&d);
    set(&d, "kind", "onoff");
    set(&d, "rate", "1 Gb/s");
    set(&d, "msg_size", "1250 B");
    set(&d, "on_mean", "100 us");
    set(&d, "off_mean", "300 us");
    struct arrival a;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a, &d, &e), 0);
    gsl_rng *g = rng_stream(12, "o");
    struct msg_draw m;
    long within = 0, n = 200000;
    for (long i = 0; i < n; i++) {
        arrival_next(&a, g, &m);
        within += m.gap == 2500000 || m.gap == 2500001 || m.gap == 2499999;
    }
    /* an ON period holds on average 40 messages, so most gaps are the ON spacing 2.5 us */
    assert_true(within > n * 0.9 && within < n);
    gsl_rng_free(g);
    arrival_free(&a);
    run_process(&d, 13, 1000000, &r);
    assert_rel(r.gap.mean, 1e-5, TOL, "onoff constant spacing mean gap");
    /* closed form: on the ON clock the spacing is g, and ON periods end as a Poisson process
     * of rate al there, so a gap is g plus N ~ Poisson(al g) OFF periods of mean 1/be:
     * mean g (1 + al/be), variance 2 al g / be^2. Here g = 2.5 us, al = 1e4, be = 1e4/3. */
    {
        double sp = 2.5e-6, al = 1e4, be = 1e4 / 3;
        double mean = sp * (1 + al / be), var = 2 * al * sp / (be * be);
        assert_rel(mean, 1e-5, 1e-12, "onoff closed-form mean");
        assert_rel(mom_scv(&r.gap), var / (mean * mean), TOL, "onoff constant spacing SCV");
    }
    /* short periods, where the spacing matters: g = 5 us, al = be = 1e5: mean 10 us, SCV 1 */
    set(&d, "on_mean", "10 us");
    set(&d, "off_mean", "10 us");
    run_process(&d, 16, 1000000, &r);
    assert_rel(r.gap.mean, 1e-5, TOL, "onoff constant spacing mean gap (short periods)");
    assert_rel(mom_scv(&r.gap), 2 * 1e5 * 5e-6 / 1e10 / 1e-10, TOL,
               "onoff constant spacing SCV (short periods)");
    desc_defaults(&d);
    set(&d, "kind", "onoff");
    set(&d, "rate", "1 Gb/s");
    set(&d, "msg_size", "1250 B");
    set(&d, "on_mean", "100 us");
    set(&d, "off_mean", "300 us");
    /* Pareto periods (shape 2.5, finite variance) */
    set(&d, "onoff_dist", "pareto");
    set(&d, "pareto_shape", "2.5");
    run_process(&d, 14, 2000000, &r);
    assert_rel(r.gap.mean, 1e-5, TOL, "pareto onoff mean gap");
    assert_rel(8 * r.total_bytes / r.total_time, 1e9, TOL, "pareto onoff byte rate");
}

/* Compound-Poisson count check: number of messages in windows of length w. */
static void ge_counts(struct arrival_desc *d, uint64_t seed, double w, long windows,
                      double *mean, double *idc, double *batch_mean, double *p_batch1)
{
    struct arrival a;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a, d, &e), 0);
    gsl_rng *r = rng_stream(seed, "ge");
    struct msg_draw m;
    struct mom cnt = { 0, 0, 0 };
    double t = 0, end = w;
    long c = 0, win = 0, batches = 0, msgs = 0, batch_len = 0, ones = 0;
    while (win < windows) {
        arrival_next(&a, r, &m);
        t += simtime_to_s(m.gap);
        if (m.gap > 0 || msgs == 0) {
            if (batch_len) {
                batches++;
                ones += batch_len == 1;
            }
            batch_len = 0;
        }
        batch_len++;
        msgs++;
        while (t >= end && win < windows) {
            mom_add(&cnt, (double)c);
            c = 0;
            end += w;
            win++;
        }
        c++;
    }
    *mean = cnt.mean;
    *idc = mom_var(&cnt) / cnt.mean;
    *batch_mean = (double)(msgs - batch_len) / (double)batches;
    *p_batch1 = (double)ones / (double)batches;
    gsl_rng_free(r);
    arrival_free(&a);
}

static void test_ge(void **state)
{
    (void)state;
    for (int form = 0; form < 2; form++) {
        struct arrival_desc d;
        struct run r;
        desc_defaults(&d);
        set(&d, "kind", "ge");
        set(&d, "rate", "8 Gb/s");
        set(&d, "msg_size", "1000 B"); /* lambda = 1e6 messages/s */
        set(&d, "ge_scv", "5");        /* tau = 1/3 */
        set(&d, "ge_form", form ? "batch" : "interarrival");
        run_process(&d, 20 + form, 2000000, &r);
        assert_rel(r.gap.mean, 1e-6, TOL, "GE mean gap");
        assert_rel(mom_scv(&r.gap), 5.0, TOL, "GE SCV");

        /* closed forms of the compound Poisson process: batches of mean 1/tau, P(B=1) = tau,
         * and counts in any window with index of dispersion Var/mean = SCV */
        desc_defaults(&d);
        set(&d, "kind", "ge");
        set(&d, "rate", "8 Gb/s");
        set(&d, "msg_size", "1000 B");
        set(&d, "ge_scv", "5");
        set(&d, "ge_form", form ? "batch" : "interarrival");
        double mean, idc, bm, p1;
        ge_counts(&d, 30 + form, 20e-6, 100000, &mean, &idc, &bm, &p1);
        assert_rel(mean, 20.0, TOL, "GE count mean");
        assert_rel(idc, 5.0, TOL * 1.5, "GE count index of dispersion");
        assert_rel(bm, 3.0, TOL, "GE mean batch size");
        assert_rel(p1, 1.0 / 3, TOL, "GE P(batch = 1)");
        params_free(arrival_params, &d);
    }
    /* A batch gap: the messages of a batch come g apart; the exponential gaps are shortened so
     * that the mean gap stays 1/lambda. With lambda = 1e6/s, tau = 1/3 and g = 100 ns, the gaps
     * are g with probability 2/3, so the mean of the others is (1 us - 2/3 x 100 ns)/(1/3). */
    for (int form = 0; form < 2; form++) {
        struct arrival_desc d;
        struct arrival a;
        struct ibn_err e;
        desc_defaults(&d);
        set(&d, "kind", "ge");
        set(&d, "rate", "8 Gb/s");
        set(&d, "msg_size", "1000 B");
        set(&d, "ge_scv", "5");
        set(&d, "ge_form", form ? "batch" : "interarrival");
        set(&d, "ge_batch_gap", "100 ns");
        assert_int_equal(arrival_init(&a, &d, &e), 0);
        gsl_rng *rg = rng_stream(41 + form, "ge");
        struct mom all = { 0, 0, 0 }, exp_gaps = { 0, 0, 0 };
        long short_gaps = 0, n = 1000000;
        struct msg_draw m;
        arrival_next(&a, rg, &m);
        for (long i = 0; i < n; i++) {
            arrival_next(&a, rg, &m);
            mom_add(&all, (double)m.gap);
            if (m.gap == 100 * PS_PER_NS)
                short_gaps++;
            else
                mom_add(&exp_gaps, (double)m.gap);
        }
        assert_rel(all.mean, 1e6, TOL, "GE with a batch gap: mean gap");
        assert_rel((double)short_gaps / (double)n, 2.0 / 3, TOL, "GE batch gaps: fraction");
        assert_rel(exp_gaps.mean, (1e6 - 2.0 / 3 * 1e5) * 3, TOL, "GE batch gaps: other gaps");
        gsl_rng_free(rg);
        arrival_free(&a);
        /* a batch gap longer than the mean gap allows is refused */
        set(&d, "ge_batch_gap", "2 us");
        assert_int_equal(arrival_init(&a, &d, &e), -1);
        assert_non_null(strstr(e.msg, "ge_batch_gap"));
        params_free(arrival_params, &d);
    }
    /* SCV 1 is Poisson */
    struct arrival_desc d;
    struct run r;
    desc_defaults(&d);
    set(&d, "kind", "ge");
    set(&d, "ge_scv", "1");
    run_process(&d, 40, 500000, &r);
    assert_rel(mom_scv(&r.gap), 1.0, TOL, "GE SCV 1");
}

static void test_video(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "video");
    set(&d, "i_size", "50000 B");
    set(&d, "p_size", "20000 B");
    set(&d, "b_size", "8000 B");
    set(&d, "frame_cv", "0.3");
    set(&d, "random_phase", "false");
    /* GOP of 12: 1 I, 3 P, 8 B */
    double mean_frame = (50000.0 + 3 * 20000 + 8 * 8000) / 12;
    assert_rel(arrival_mean_rate_bps(&d), 8 * 30 * mean_frame, 1e-12, "video mean rate");
    for (int law = 0; law < 2; law++) {
        set(&d, "frame_dist", law ? "gamma" : "lognormal");
        struct arrival a;
        struct ibn_err e;
        assert_int_equal(arrival_init(&a, &d, &e), 0);
        gsl_rng *r = rng_stream(50 + law, "v");
        struct mom sz[3];
        memset(sz, 0, sizeof sz);
        struct msg_draw m;
        simtime_t t = 0;
        double bytes = 0;
        const char *gop = "IBBPBBPBBPBB";
        long n = 120000;
        for (long i = 0; i < n; i++) {
            arrival_next(&a, r, &m);
            assert_int_equal(m.frame_type, gop[i % 12]);
            assert_int_equal(m.deadline, 33333333333LL);
            if (i == 0)
                assert_int_equal(m.gap, 0);
            else
                assert_true(m.gap == 33333333333LL || m.gap == 33333333334LL);
            t += m.gap;
            bytes += m.bytes;
            mom_add(&sz[m.frame_type == 'I' ? 0 : m.frame_type == 'P' ? 1 : 2], m.bytes);
        }
        /* frame n-1 is at exactly round((n-1)/30 s) */
        assert_int_equal(t, llround((double)(n - 1) * 1e12 / 30));
        assert_rel(sz[0].mean, 50000, TOL, "I size");
        assert_rel(sz[1].mean, 20000, TOL, "P size");
        assert_rel(sz[2].mean, 8000, TOL, "B size");
        for (int k = 0; k < 3; k++)
            assert_rel(sqrt(mom_scv(&sz[k])), 0.3, TOL, "frame size CV");
        assert_rel(8 * bytes / simtime_to_s(t + 33333333333LL), 8 * 30 * mean_frame, TOL,
                   "video rate");
        gsl_rng_free(r);
        arrival_free(&a);
    }
    /* random phase: starts anywhere in the GOP, within one frame period */
    set(&d, "random_phase", "true");
    int seen_start[12] = { 0 };
    for (int s = 0; s < 200; s++) {
        struct arrival a;
        struct ibn_err e;
        assert_int_equal(arrival_init(&a, &d, &e), 0);
        gsl_rng *r = rng_stream((uint64_t)s, "phase");
        struct msg_draw m;
        arrival_next(&a, r, &m);
        assert_true(m.gap >= 0 && m.gap < 33333333334LL);
        arrival_next(&a, r, &m);
        (void)m;
        seen_start[(a.gop_pos + 10) % 12]++;
        gsl_rng_free(r);
        arrival_free(&a);
    }
    for (int k = 0; k < 12; k++)
        assert_true(seen_start[k] > 0);
    struct arrival a;
    struct ibn_err e;
    set(&d, "gop", "IBXP");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    assert_non_null(strstr(e.msg, "'X'"));
    params_free(arrival_params, &d);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_trace(void **state)
{
    (void)state;
    char path[] = "/tmp/ibn_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, "# frame sizes of a tiny clip\n"
                     "I 40000\n"
                     "B 9000   # comment after a frame\n"
                     "\n"
                     "12000 P\n"
                     "7000\n");
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "trace");
    set(&d, "trace_file", path);
    set(&d, "random_phase", "false");
    assert_rel(arrival_mean_rate_bps(&d), 8 * 30 * (68000.0 / 4), 1e-12, "trace mean rate");
    struct arrival a;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a, &d, &e), 0);
    gsl_rng *r = rng_stream(60, "t");
    struct msg_draw m;
    const uint32_t sizes[] = { 40000, 9000, 12000, 7000 };
    const uint8_t types[] = { 'I', 'B', 'P', 0 };
    for (int i = 0; i < 10; i++) {
        arrival_next(&a, r, &m);
        assert_int_equal(m.bytes, sizes[i % 4]);
        assert_int_equal(m.frame_type, types[i % 4]);
        assert_int_equal(m.deadline, 33333333333LL);
        if (i)
            assert_true(m.gap == 33333333333LL || m.gap == 33333333334LL);
    }
    arrival_free(&a);

    /* malformed: line 3 has a bad type */
    write_file(path, "I 40000\nB 9000\nQ 12000\n");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    char want[64];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_non_null(strstr(e.msg, want));
    write_file(path, "# only\n40000 x y\n");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    snprintf(want, sizeof want, "%s:2:", path);
    assert_non_null(strstr(e.msg, want));
    write_file(path, "# nothing\n\n");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    assert_non_null(strstr(e.msg, "no frames"));
    write_file(path, "-5\n");
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    snprintf(want, sizeof want, "%s:1:", path);
    assert_non_null(strstr(e.msg, want));
    unlink(path);
    assert_int_equal(arrival_init(&a, &d, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
    assert_true(isnan(arrival_mean_rate_bps(&d)));
    gsl_rng_free(r);
    params_free(arrival_params, &d);
}

static void test_reproducible(void **state)
{
    (void)state;
    struct arrival_desc d;
    desc_defaults(&d);
    set(&d, "kind", "ge");
    struct arrival a1, a2;
    struct ibn_err e;
    assert_int_equal(arrival_init(&a1, &d, &e), 0);
    assert_int_equal(arrival_init(&a2, &d, &e), 0);
    gsl_rng *r1 = rng_stream(7, "x"), *r2 = rng_stream(7, "x");
    for (int i = 0; i < 1000; i++) {
        struct msg_draw m1, m2;
        arrival_next(&a1, r1, &m1);
        arrival_next(&a2, r2, &m2);
        assert_int_equal(m1.gap, m2.gap);
        assert_int_equal(m1.bytes, m2.bytes);
    }
    gsl_rng_free(r1);
    gsl_rng_free(r2);
    arrival_free(&a1);
    arrival_free(&a2);
    params_free(arrival_params, &d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_table),
        cmocka_unit_test(test_saturate),
        cmocka_unit_test(test_constant),
        cmocka_unit_test(test_poisson),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_bernoulli),
        cmocka_unit_test(test_onoff),
        cmocka_unit_test(test_ge),
        cmocka_unit_test(test_video),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ecnrate.c: seed 000's ECN rate control (src/cc/ecnrate.c): the PIPD and FIMD rate laws
 * against the numbers digest 000 section 2.4 derives from the thesis's formulas (packets/s and
 * MB/s units), the design condition f_inc(f_dec(r)) <= r, the per-SL law lists, the two-counter
 * marking on a congested switch (marks reach the sources as marked ACKs, one for one), and the
 * bad settings refused with their reason (PIPD in a unit where it is undefined, m <= 1, UD). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>

#include "../support/sim.h"
#include "cc/ecnrate.h"

/* The thesis's link and packet: 1 GB/s, 2068-byte packets. */
#define RMAX (1e9 / 2068.0)

static void test_pipd_packets_per_second(void **st)
{
    (void)st;
    double lo = RMAX / 256, hi = RMAX / 128;
    assert_true(fabs(RMAX - 483559) < 1);
    /* A marked ACK at R_max: R_max^(1/4) = 26.4 packets/s, below R_min: R_min. */
    assert_true(fabs(pow(RMAX, 0.25) - 26.4) < 0.05);
    assert_true(pipd_dec(RMAX, 4, lo) == lo);
    /* One unmarked ACK at R_min (or 2 R_min) reaches R_max. */
    assert_true(pipd_inc(lo, 4, lo, RMAX) == RMAX);
    assert_true(pipd_inc(2 * hi, 4, hi, RMAX) == RMAX);
    /* Gentler at higher rates: 3.43x / 1.82x at 0.1 R_max, 1.31x / 1.14x at 0.5 R_max. */
    double r = 0.1 * RMAX;
    assert_true(fabs(pipd_inc(r, 4, hi, RMAX) / r - 3.43) < 0.01);
    assert_true(fabs(pipd_inc(r, 4, lo, RMAX) / r - 1.82) < 0.01);
    r = 0.5 * RMAX;
    assert_true(fabs(pipd_inc(r, 4, hi, RMAX) / r - 1.31) < 0.01);
    assert_true(fabs(pipd_inc(r, 4, lo, RMAX) / r - 1.14) < 0.01);
}

static void test_pipd_megabytes_per_second(void **st)
{
    (void)st;
    double rmax = 1000, rmin = rmax / 256;
    double r = pipd_dec(rmax, 4, rmin);
    assert_true(fabs(r - 5.62) < 0.005);
    /* The climb 5.6 -> 92.2 -> 121.2 -> 150.9 -> 181.3 on unmarked ACKs. */
    const double climb[] = { 92.2, 121.2, 150.9, 181.3 };
    for (int i = 0; i < 4; i++) {
        r = pipd_inc(r, 4, rmin, rmax);
        printf("PIPD MB/s climb %d: %.2f (digest %.1f)\n", i + 1, r, climb[i]);
        assert_true(fabs(r - climb[i]) < 0.1);
    }
}

static void test_fimd(void **st)
{
    (void)st;
    double lo = RMAX / 256;
    assert_true(fabs(fimd_inc(lo, 4, lo, RMAX) - 4 * lo) < 1e-6);
    assert_true(fabs(fimd_dec(RMAX, 4, lo) - RMAX / 4) < 1e-6);
    assert_true(fimd_dec(2 * lo, 4, lo) == lo);
    /* 89 unmarked ACKs from R_min to 0.5 R_max. */
    double r = lo;
    int n = 0;
    while (r < 0.5 * RMAX) {
        r = fimd_inc(r, 4, lo, RMAX);
        n++;
    }
    printf("FIMD: %d unmarked ACKs from R_min to 0.5 R_max\n", n);
    assert_int_equal(n, 89);
}

/* Design condition (3.1), f_inc(f_dec(r)) <= r: FIMD keeps it wherever r/n is above R_min; PIPD
 * wherever r^(1/m) is above R_min. Where the decrease is clipped at R_min PIPD breaks it (one
 * unmarked ACK at R_min jumps to R_min^m): in packets/s that is every rate (R_max^(1/4) = 26 <
 * R_min), in MB/s every rate below R_min^4 = 233 MB/s. */
static void test_avoid_congested_state(void **st)
{
    (void)st;
    const double rmaxs[] = { RMAX, 1000 };
    int unclipped[2] = { 0, 0 };
    for (int u = 0; u < 2; u++) {
        double rmax = rmaxs[u], rmin = rmax / 256;
        for (double r = rmin; r <= rmax; r *= 1.07) {
            if (pow(r, 0.25) > rmin) {
                unclipped[u]++;
                assert_true(pipd_inc(pipd_dec(r, 4, rmin), 4, rmin, rmax) <= r * (1 + 1e-12));
            } else {
                assert_true(pipd_inc(pipd_dec(r, 4, rmin), 4, rmin, rmax) > r);
            }
            if (r / 4 > rmin)
                assert_true(fimd_inc(fimd_dec(r, 4, rmin), 4, rmin, rmax) <= r * (1 + 1e-12));
        }
    }
    assert_int_equal(unclipped[0], 0);
    assert_true(unclipped[1] > 10);
    assert_true(pow(233.0, 0.25) > 1000.0 / 256 && pow(232.0, 0.25) < 1000.0 / 256);
}

static void test_parse_laws(void **st)
{
    (void)st;
    int law[16];
    char why[256];
    assert_int_equal(ecnrate_parse_laws("pipd,0:fimd", law, why, sizeof why), 0);
    assert_int_equal(law[0], ECN_LAW_FIMD);
    assert_int_equal(law[1], ECN_LAW_PIPD);
    assert_int_equal(law[15], ECN_LAW_PIPD);
    assert_int_equal(ecnrate_parse_laws("fimd", law, why, sizeof why), 0);
    assert_int_equal(law[7], ECN_LAW_FIMD);
    assert_int_equal(ecnrate_parse_laws("pipd,2:none", law, why, sizeof why), 0);
    assert_int_equal(law[2], ECN_LAW_NONE);
    assert_int_equal(law[3], ECN_LAW_PIPD);
    assert_int_equal(ecnrate_parse_laws("aimd", law, why, sizeof why), -1);
    assert_int_equal(ecnrate_parse_laws("16:pipd", law, why, sizeof why), -1);
    assert_int_equal(ecnrate_parse_laws("", law, why, sizeof why), -1);
}

static void dset(void *d, const char *key, const char *value)
{
    char why[256];
    if (param_set(params_find(ecnrate_params, key), d, value, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", key, why);
        fail();
    }
}

/* Two sources into H3 through one switch with 8-packet buffers, and a victim H4 -> H1. */
static void setup(struct testsim *s, int rc)
{
    ts_init(s, "single_switch", "ports=4, link=8 Gb/s");
    char why[128];
    param_set(params_find(switch_params, "buffer"), &s->d.set, "16896 B", why, sizeof why);
    if (rc) {
        param_set(params_find(transport_params, "mode"), &s->d.set, "rc", why, sizeof why);
        param_set(params_find(transport_params, "window"), &s->d.set, "8", why, sizeof why);
    }
    s->d.end = 5 * PS_PER_MS;
    ts_flow(s, "A", "H1", "H3", "saturate", NULL, "64 KiB", 0, 0);
    ts_flow(s, "B", "H2", "H3", "saturate", NULL, "64 KiB", 0, 0);
    ts_flow(s, "V", "H4", "H1", "saturate", NULL, "64 KiB", 0, 0);
}

/* Build s with the plug-in (settings d), run it to the end (it must drain) and return the
 * plug-in's summary.json member "cc" inside a summary the caller frees. */
static json_t *run_report(struct testsim *s, void *d, json_t **cc)
{
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err) || cc_attach(&s->f, &ecnrate_plugin, d, &s->err)) {
        fprintf(stderr, "%s\n", s->err.msg);
        fail();
    }
    assert_int_equal(fabric_run(&s->f, NULL, &s->rep, &s->err), 0);
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
    json_t *sum = json_object();
    s->f.hooks.report(&s->f, sum);
    *cc = json_object_get(sum, "cc");
    return sum;
}

static void test_marking_and_response(void **st)
{
    (void)st;
    struct testsim s;
    setup(&s, 1);
    void *d = cc_desc_new(&ecnrate_plugin);
    json_t *cc, *sum = run_report(&s, d, &cc);
    /* Marks only on the congested output (to H3), each coming back as one marked ACK. */
    long long marks = json_integer_value(json_object_get(cc, "marked_total"));
    json_t *fl = json_object_get(cc, "flows");
    long long marked_acks = 0, victim_marked = -1;
    for (size_t i = 0; i < json_array_size(fl); i++) {
        json_t *x = json_array_get(fl, i);
        long long m = json_integer_value(json_object_get(x, "marked_acks"));
        marked_acks += m;
        if (!strcmp(json_string_value(json_object_get(x, "name")), "V"))
            victim_marked = m;
    }
    printf("marks %lld, marked ACKs %lld; A %.3f B %.3f V %.3f Gb/s\n", marks, marked_acks,
           ts_gbps(&s, "A"), ts_gbps(&s, "B"), ts_gbps(&s, "V"));
    assert_true(marks > 10);
    assert_int_equal(marked_acks, marks);
    assert_int_equal(victim_marked, 0);
    /* The victim is not throttled below half its link by marks (it has none); the two
     * contributors share H3. */
    assert_true(ts_gbps(&s, "A") + ts_gbps(&s, "B") < 8.0);
    json_decref(sum);
    cc_desc_free(&ecnrate_plugin, d);
    ts_free(&s);
}

/* Contributor B on SL 1 under cc.law `law`: A's and B's throughput, B's marked ACKs and mean
 * rate over its R_max. */
static void run_law(const char *law, double *a, double *b, long long *b_marked, double *b_r_over_max)
{
    struct testsim s;
    setup(&s, 1);
    s.d.flows[1].sl = 1; /* B */
    void *d = cc_desc_new(&ecnrate_plugin);
    dset(d, "law", law);
    json_t *cc, *sum = run_report(&s, d, &cc);
    json_t *fl = json_object_get(cc, "flows");
    for (size_t i = 0; i < json_array_size(fl); i++) {
        json_t *x = json_array_get(fl, i);
        if (strcmp(json_string_value(json_object_get(x, "name")), "B"))
            continue;
        *b_marked = json_integer_value(json_object_get(x, "marked_acks"));
        *b_r_over_max = json_real_value(json_object_get(x, "r_mean")) /
                        json_real_value(json_object_get(x, "r_max"));
    }
    *a = ts_gbps(&s, "A");
    *b = ts_gbps(&s, "B");
    json_decref(sum);
    cc_desc_free(&ecnrate_plugin, d);
    ts_free(&s);
}

/* law none: an SL's sources are marked like the others but do not answer: their rate stays
 * R_max and nothing paces them, so the uncontrolled contributor takes more of the hot spot than
 * the controlled one, and more than it gets under PIPD. */
static void test_law_none(void **st)
{
    (void)st;
    double a0, b0, a1, b1, r0 = 0, r1 = 0;
    long long m0 = -1, m1 = -1;
    run_law("pipd", &a0, &b0, &m0, &r0);
    run_law("pipd,1:none", &a1, &b1, &m1, &r1);
    printf("both PIPD: A %.3f B %.3f Gb/s (B's marked ACKs %lld, mean r/R_max %.3f); B none: A %.3f B %.3f "
           "(%lld, %.3f)\n", a0, b0, m0, r0, a1, b1, m1, r1);
    assert_true(m0 > 0 && m1 > 0); /* B is marked either way */
    assert_true(r0 < 1.0);         /* PIPD moved B's rate (its mean is below R_max) */
    assert_true(fabs(r1 - 1.0) < 1e-9); /* none: it stays at R_max */
    assert_true(b1 > a1);
    assert_true(b1 > b0);
}

static int attach_err(int rc, const char *key, const char *value, char *msg, size_t len)
{
    struct testsim s;
    setup(&s, rc);
    void *d = cc_desc_new(&ecnrate_plugin);
    if (key)
        dset(d, key, value);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        fail();
    int r = cc_attach(&s.f, &ecnrate_plugin, d, &s.err);
    snprintf(msg, len, "%s", r ? s.err.msg : "");
    cc_desc_free(&ecnrate_plugin, d);
    ts_free(&s);
    return r;
}

static void test_bad_settings(void **st)
{
    (void)st;
    char msg[512];
    assert_int_equal(attach_err(1, "rate_unit", "link", msg, sizeof msg), -1);
    printf("PIPD in link units: %s\n", msg);
    assert_non_null(strstr(msg, "undefined"));
    assert_int_equal(attach_err(1, "m", "1", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "m > 1"));
    assert_int_equal(attach_err(0, NULL, NULL, msg, sizeof msg), -1);
    printf("UD: %s\n", msg);
    assert_non_null(strstr(msg, "transport.mode = rc"));
    assert_int_equal(attach_err(1, "law", "pipd,3:xyz", msg, sizeof msg), -1);
    /* FIMD is defined in link units. */
    assert_int_equal(attach_err(1, "law", "fimd", msg, sizeof msg), 0);
    assert_int_equal(attach_err(1, "rate_unit", "MBps", msg, sizeof msg), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipd_packets_per_second),
        cmocka_unit_test(test_pipd_megabytes_per_second),
        cmocka_unit_test(test_fimd),
        cmocka_unit_test(test_law_none),
        cmocka_unit_test(test_avoid_congested_state),
        cmocka_unit_test(test_parse_laws),
        cmocka_unit_test(test_marking_and_response),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

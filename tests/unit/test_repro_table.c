/* test_repro_table.c: the reproduction table's rules (src/repro/repro.c): row kinds, the cap
 * rule, rows without a paper number, replications (mean and Student-t 95 % interval, overlap
 * with the tolerance band), trends from replications, the summary line and the CSV columns. */
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

#include "repro/repro.h"

static void test_default_kinds(void **st)
{
    (void)st;
    struct repro_table t = { 0 };
    repro_add(&t, "a", "c", "1", 1.0, 1.05, "x", 0.1, 0);
    repro_add(&t, "b", "c", "1", 1.0, 1.2, "x", 0.1, 0);
    repro_add(&t, "c", "c", "> 0", 0, 2.0, "x", -1, 1);
    repro_add_kind(&t, REPRO_DERIVED, "d", "c", "2", 2.0, 2.0, "x", 0.1, 0);
    assert_int_equal(t.rows[0].kind, REPRO_EVIDENCE);
    assert_true(t.rows[0].ok);
    assert_false(t.rows[1].ok);
    assert_int_equal(t.rows[2].kind, REPRO_TREND);
    assert_true(t.rows[2].ok);
    assert_int_equal(t.rows[3].kind, REPRO_DERIVED);
    assert_int_equal(t.rows[0].nrep, 1);
    assert_string_equal(repro_kind_name(REPRO_CALIBRATED), "calibrated");
    repro_table_free(&t);
}

static void test_cap_rule(void **st)
{
    (void)st;
    struct repro_table t = { 0 };
    repro_caps_clear();
    repro_cap_note("hca.sink_limit", 13.6);
    repro_cap_note("hca.sink_limit", 13.6); /* noted once */
    repro_cap_note("none", 0);              /* no limit */
    /* at the limit, and so is the paper: the configuration decides the agreement */
    repro_add(&t, "at", "c", "13.602", 13.602, 13.59, "Gb/s", 0.1, 0);
    /* at the limit, the paper 2.4 % below it with a tolerance that sees that: evidence, a miss */
    repro_add(&t, "below", "c", "13.279", 13.279, 13.59, "Gb/s", 0.13, 0);
    /* far from the limit */
    repro_add(&t, "far", "c", "2.246", 2.246, 2.24, "Gb/s", 0.1, 0);
    /* Mb/s rows are compared in Gb/s */
    repro_add(&t, "mbps", "c", "13600", 13600, 13500, "Mb/s", 500, 0);
    /* not a rate */
    repro_add(&t, "frac", "c", "13.6", 13.6, 13.6, "fraction", 0.1, 0);
    /* a declared kind is kept */
    repro_add_kind(&t, REPRO_DERIVED, "der", "c", "13.6", 13.6, 13.6, "Gb/s", 0.1, 0);
    /* no paper number: info, whatever was declared */
    repro_add(&t, "info", "c", "-", NAN, 0.3, "Gb/s", 0.1, 0);
    repro_classify(&t, 0);
    assert_int_equal(t.rows[0].kind, REPRO_CAP);
    assert_non_null(strstr(t.rows[0].basis, "hca.sink_limit"));
    assert_int_equal(t.rows[1].kind, REPRO_EVIDENCE);
    assert_false(t.rows[1].ok);
    assert_int_equal(t.rows[2].kind, REPRO_EVIDENCE);
    assert_int_equal(t.rows[3].kind, REPRO_CAP);
    assert_int_equal(t.rows[4].kind, REPRO_EVIDENCE);
    assert_int_equal(t.rows[5].kind, REPRO_DERIVED);
    assert_int_equal(t.rows[6].kind, REPRO_INFO);
    /* 2 % margin: 13.0 is 4.4 % below 13.6 */
    repro_add(&t, "below_margin", "c", "13", 13.0, 13.0, "Gb/s", 1.0, 0);
    repro_classify(&t, 7);
    assert_int_equal(t.rows[7].kind, REPRO_EVIDENCE);
    int ev, ev_ok, tr, tr_ok;
    repro_count(&t, &ev, &ev_ok, &tr, &tr_ok);
    assert_int_equal(ev, 4); /* below, far, frac, below_margin */
    assert_int_equal(ev_ok, 3);
    repro_caps_clear();
    repro_table_free(&t);
}

static void test_replications(void **st)
{
    (void)st;
    double v[] = { 1, 2, 3, 4, 5 }, m, h;
    repro_ci95(v, 5, &m, &h);
    assert_float_equal(m, 3.0, 1e-12);
    /* t(0.975, 4) = 2.7764, s = 1.5811, half = 2.7764 * 1.5811 / sqrt(5) */
    assert_float_equal(h, 2.7764451 * sqrt(2.5) / sqrt(5.0), 1e-5);
    repro_ci95(v, 1, &m, &h);
    assert_float_equal(h, 0.0, 0);
    struct repro_table t = { 0 };
    /* [1.04, 4.96] overlaps [5.5 - 0.5, 5.5 + 0.5] = [5, 6]? no */
    repro_add_reps(&t, REPRO_EVIDENCE, "r1", "c", "5.5", 5.5, v, 5, "x", 0.5);
    assert_false(t.rows[0].ok);
    /* [1.04, 4.96] overlaps [5.0 - 2, 5.0 + 2], and is no wider than the tolerance */
    repro_add_reps(&t, REPRO_EVIDENCE, "r2", "c", "5", 5.0, v, 5, "x", 2.0);
    assert_true(t.rows[1].ok);
    assert_int_equal(t.rows[1].nrep, 5);
    assert_float_equal(t.rows[1].ours, 3.0, 1e-12);
    /* seeds that disagree decide nothing: mean 0.8 +- 5.6 overlaps 1 +- 0.1 but is not a pass */
    double flip[] = { -7, 7, 7, -3, 0 };
    repro_add_reps(&t, REPRO_EVIDENCE, "flip", "c", "~1", 1.0, flip, 5, "Gb/s", 0.1);
    assert_false(t.rows[2].ok);
    assert_non_null(strstr(t.rows[2].basis, "seeds disagree"));
    t.n--;
    /* a trend holds only if the whole interval lies in the band */
    double up[] = { 7.1, 7.2, 7.3, 7.0, 7.2 }, mixed[] = { -7.1, 7.2, 7.3, 7.0, 7.2 };
    repro_add_trend(&t, "t1", "c", "> 0", up, 5, "Gb/s", 0, INFINITY);
    repro_add_trend(&t, "t2", "c", "> 0", mixed, 5, "Gb/s", 0, INFINITY);
    assert_int_equal(t.rows[2].kind, REPRO_TREND);
    assert_true(t.rows[2].ok);
    assert_false(t.rows[3].ok);
    repro_classify(&t, 0);
    assert_int_equal(t.rows[2].kind, REPRO_TREND); /* a trend has no paper number and stays */

    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    repro_print_summary(f, &t);
    fclose(f);
    assert_non_null(strstr(buf, "1 of 2 evidence rows within tolerance; 1 of 2 trend rows hold"));

    char path[] = "/tmp/test_repro_tableXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    struct ibn_err e;
    assert_int_equal(repro_write_csv(&t, path, &e), 0);
    FILE *in = fdopen(fd, "r");
    char line[512];
    assert_non_null(fgets(line, sizeof line, in));
    assert_string_equal(line, "id,kind,claim,paper,ibnetsim,ci95,n,unit,tolerance,within,basis\n");
    assert_non_null(fgets(line, sizeof line, in));
    assert_true(!strncmp(line, "r1,evidence,\"c\",\"5.5\",3,1.96,5,x,\"0.5\",no,", 42));
    fclose(in);
    unlink(path);
    repro_table_free(&t);
}

static void test_tolerance_from_text(void **st)
{
    (void)st;
    assert_float_equal(repro_tol("~13", 13), 1.3, 1e-12);     /* approximate: 10 % */
    assert_float_equal(repro_tol(" ~1/4", 0.25), 0.025, 1e-12);
    assert_float_equal(repro_tol("13.279", 13.279), 0.13279, 1e-12); /* 1 % floor */
    assert_float_equal(repro_tol("467", 467), 4.67, 1e-12);
    assert_float_equal(repro_tol("-3", -3), 0.5, 1e-12);     /* half a unit of the last digit */
    assert_float_equal(repro_tol("0.60", 0.6), 0.006, 1e-12);
    assert_float_equal(repro_tol("2.5", 2.5), 0.05, 1e-12);
}

/* Parallel runs give what runs one by one give, in job order, and a failing job is named. */
static void test_jobs(void **st)
{
    (void)st;
    const char *file = "seed002/testbed-scenario2-ccon.cfg";
    const char *ov[] = { "simulation.duration=30 ms", "simulation.sample_interval=5 ms" };
    struct repro_job jobs[3];
    repro_job_seeds(jobs, 3, file, ov, 2);
    assert_string_equal(jobs[2].seed, "simulation.seed=3");
    struct repro_series par[3], one;
    struct ibn_err e;
    repro_set_jobs(2);
    repro_caps_clear();
    assert_int_equal(repro_run_jobs(jobs, 3, par, &e), 0);
    const char *ov3[] = { ov[0], ov[1], "simulation.seed=3" };
    assert_int_equal(repro_run(file, ov3, 3, &one, &e), 0);
    assert_int_equal(par[2].nflows, one.nflows);
    assert_int_equal(par[2].nsamples, one.nsamples);
    assert_true(par[2].nsamples > 0);
    assert_string_equal(par[2].names[1], one.names[1]);
    assert_memory_equal(par[2].x, one.x, (size_t)one.nsamples * (size_t)one.nflows * sizeof *one.x);
    assert_memory_equal(par[2].host_rx, one.host_rx, (size_t)one.nhosts * sizeof *one.host_rx);
    assert_float_equal(par[2].sink_gbps, 13.0, 1e-9);
    assert_int_equal(par[2].nports, one.nports);
    assert_true(one.nports > 0);
    assert_string_equal(par[2].port_names[one.nports - 1], one.port_names[one.nports - 1]);
    assert_memory_equal(par[2].port_wait, one.port_wait, (size_t)one.nports * sizeof *one.port_wait);
    repro_series_free(&one);
    for (int i = 0; i < 3; i++)
        repro_series_free(&par[i]);
    /* the limits of the runs are noted for the cap rule */
    struct repro_table t = { 0 };
    repro_add(&t, "v", "c", "13", 13.0, 12.95, "Gb/s", 0.2, 0);
    repro_classify(&t, 0);
    assert_int_equal(t.rows[0].kind, REPRO_CAP);
    repro_table_free(&t);
    /* a bad override fails the batch and names the job */
    jobs[1].over[jobs[1].nover++] = "simulation.duration=banana";
    assert_int_equal(repro_run_jobs(jobs, 3, par, &e), -1);
    assert_non_null(strstr(e.msg, "banana"));
    assert_null(par[0].names);
    repro_set_jobs(0);
    repro_caps_clear();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_kinds),
        cmocka_unit_test(test_cap_rule),
        cmocka_unit_test(test_replications),
        cmocka_unit_test(test_tolerance_from_text),
        cmocka_unit_test(test_jobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

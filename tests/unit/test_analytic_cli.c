/* test_analytic_cli.c: `ibnetsim model` end to end: the credit sweep of the issue into CSV,
 * gnuplot script and JSON, the JSON of a single solution, and bad input (exit status 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "analytic_check.h"

/* Run the binary with `args`, stdout into `out` (NULL: discarded); the exit status. */
static int run(const char *args, const char *out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s model %s > %s 2> test_analytic_cli.err", IBN_BINARY, args,
             out ? out : "/dev/null");
    int st = system(cmd);
    assert_true(st != -1 && WIFEXITED(st));
    return WEXITSTATUS(st);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_credit_sweep_files(void **state)
{
    (void)state;
    const char *dir = "test_analytic_cli.out";
    assert_int_equal(run("credit lambda=5 mu1=6 mu2=8 n1=12 sweep=n2:2:11 -o test_analytic_cli.out",
                         NULL),
                     0);
    char path[256];
    snprintf(path, sizeof path, "%s/model.csv", dir);
    char *csv = slurp(path);
    assert_true(!strncmp(csv, "n2,L1,L2,L,T,R,P_loss,P_blocked\n", 32));
    /* 10 points; first and last match digest 000 E3. */
    int lines = 0;
    for (char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 11);
    double n2, l1, l2, l, t, r;
    char *second = strchr(csv, '\n') + 1;
    assert_int_equal(sscanf(second, "%lf,%lf,%lf,%lf,%lf,%lf", &n2, &l1, &l2, &l, &t, &r), 6);
    assert_true(n2 == 2);
    assert_printed(l1, 7.4228, 4);
    assert_printed(l2, 0.7843, 4);
    assert_printed(t, 4.4212, 4);
    assert_printed(r, 1.8563, 4);
    char *last = csv + strlen(csv) - 2;
    while (last > csv && *last != '\n')
        last--;
    assert_int_equal(sscanf(last + 1, "%lf,%lf,%lf,%lf,%lf,%lf", &n2, &l1, &l2, &l, &t, &r), 6);
    assert_true(n2 == 11);
    assert_printed(l1, 3.6775, 4);
    assert_printed(l2, 1.5322, 4);
    assert_printed(t, 4.8958, 4);
    assert_printed(r, 1.0641, 4);
    snprintf(path, sizeof path, "%s/model.gp", dir);
    char *gp = slurp(path);
    assert_non_null(strstr(gp, "'model.csv' using 1:2"));
    assert_non_null(strstr(gp, "set output 'model.png'"));
    snprintf(path, sizeof path, "%s/model.json", dir);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    assert_non_null(doc);
    json_t *pts = json_object_get(doc, "points");
    assert_int_equal(json_array_size(pts), 10);
    json_decref(doc);
    /* The PNG exists exactly when gnuplot is installed. */
    snprintf(path, sizeof path, "%s/model.png", dir);
    struct stat st;
    int have_gnuplot = system("command -v gnuplot > /dev/null 2>&1") == 0;
    assert_int_equal(stat(path, &st) == 0 && st.st_size > 0, have_gnuplot);
}

/* E4 moves n1 and n2 together: sweep=n1,n2:4:10; its first and last rows. */
static void test_credit_joint_sweep(void **state)
{
    (void)state;
    assert_int_equal(run("credit sweep=n1,n2:4:10", "test_analytic_cli.csv"), 0);
    char *csv = slurp("test_analytic_cli.csv");
    assert_true(!strncmp(csv, "n1=n2,L1,", 9));
    double k, l1, l2, l, t, r;
    char *second = strchr(csv, '\n') + 1;
    assert_int_equal(sscanf(second, "%lf,%lf,%lf,%lf,%lf,%lf", &k, &l1, &l2, &l, &t, &r), 6);
    assert_true(k == 4);
    assert_printed(l1, 1.7228, 4);
    assert_printed(r, 0.6292, 4);
    char *last = csv + strlen(csv) - 2;
    while (last > csv && *last != '\n')
        last--;
    assert_int_equal(sscanf(last + 1, "%lf,%lf,%lf,%lf,%lf,%lf", &k, &l1, &l2, &l, &t, &r), 6);
    assert_true(k == 10);
    assert_printed(l1, 3.3086, 4);
    assert_printed(l2, 1.4742, 4);
    assert_printed(t, 4.8425, 4);
    assert_printed(r, 0.9877, 4);
}

static void test_json_single(void **state)
{
    (void)state;
    assert_int_equal(run("et lambda=4 --json", "test_analytic_cli.json"), 0);
    json_error_t je;
    json_t *doc = json_load_file("test_analytic_cli.json", 0, &je);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "model")), "et");
    json_t *params = json_object_get(doc, "params");
    assert_int_equal(json_integer_value(json_object_get(params, "t")), 8); /* resolved t = N */
    json_t *ex = json_object_get(json_object_get(doc, "results"), "exact");
    assert_printed(json_real_value(json_object_get(ex, "L")), 2.1640, 4);
    assert_printed(json_real_value(json_object_get(ex, "blocking")), 0.0237, 4);
    json_t *me = json_object_get(json_object_get(doc, "results"), "me");
    assert_printed(json_real_value(json_object_get(me, "L")), 2.1513, 4);
    json_decref(doc);
    /* Deterministic: the same command gives the same bytes. */
    assert_int_equal(run("et lambda=4 --json", "test_analytic_cli.json2"), 0);
    char *a = strdup(slurp("test_analytic_cli.json"));
    assert_string_equal(a, slurp("test_analytic_cli.json2"));
    free(a);
}

static void test_table(void **state)
{
    (void)state;
    assert_int_equal(run("gequeue lambda=4", "test_analytic_cli.txt"), 0);
    char *t = slurp("test_analytic_cli.txt");
    assert_non_null(strstr(t, "exact"));
    assert_non_null(strstr(t, "1.84684")); /* L exact, digest 1.8468 */
    assert_non_null(strstr(t, "1.81149")); /* L ME, digest 1.8115 */
    /* Above saturation the exact column stands alone, with a note. */
    assert_int_equal(run("gequeue lambda=9", "test_analytic_cli.txt"), 0);
    assert_non_null(strstr(slurp("test_analytic_cli.txt"), "no ME column"));
    assert_int_equal(run("--help", "test_analytic_cli.txt"), 0);
    assert_non_null(strstr(slurp("test_analytic_cli.txt"), "sweep=KEY:FROM:TO[:STEP]"));
    assert_int_equal(run("ajt --help", "test_analytic_cli.txt"), 0);
    assert_non_null(strstr(slurp("test_analytic_cli.txt"), "T2"));
}

static void test_bad_input(void **state)
{
    (void)state;
    const char *bad[] = {
        "",                          /* no model */
        "nosuchmodel",               /* unknown model */
        "credit frob=1",             /* unknown key */
        "credit n1=abc",             /* not a number */
        "credit n1=0",               /* out of range */
        "credit lambda=-1",          /* out of range */
        "credit n1",                 /* not key=value */
        "credit sweep=n2:5:1",       /* empty range */
        "credit sweep=zz:1:2",       /* unknown sweep key */
        "credit sweep=n2:1.5:3",     /* integer key, fractional start */
        "credit sweep=n2",           /* malformed */
        "credit sweep=n1,zz:1:3",    /* unknown key in a joint sweep */
        "et t=16",                   /* threshold out of 1..2N-1 */
        "ajt T1=20 T2=10",           /* thresholds not rising */
        "ge scv=0.5",                /* GE needs C2 >= 1 */
        "mg1 lambda=9 mu=8",         /* unstable */
        "credit -o",                 /* -o without folder */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run(bad[i], NULL);
        if (rc != 2)
            print_error("'ibnetsim model %s' exited %d, expected 2\n", bad[i], rc);
        assert_int_equal(rc, 2);
        assert_true(strlen(slurp("test_analytic_cli.err")) > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_credit_sweep_files),
        cmocka_unit_test(test_credit_joint_sweep),
        cmocka_unit_test(test_json_single),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

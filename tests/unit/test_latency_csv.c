/* test_latency_csv.c: DIR/latency.csv from hand-made flow histograms: per class and overall
 * rows, bucket upper bounds in ns, counts and exact CDF values, classes without flows left
 * out, an error for a folder that cannot be written; DIR/flow-latency.csv per flow (a flow
 * without samples left out, names as CSV fields). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/latency_csv.h"

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = 0;
    fclose(fp);
    return buf;
}

static void test_rows(void **state)
{
    (void)state;
    struct flow fl[3];
    memset(fl, 0, sizeof fl);
    for (int i = 0; i < 3; i++) {
        hist_init(&fl[i].st.net_latency);
        hist_init(&fl[i].st.e2e_latency);
        hist_init(&fl[i].st.msg_latency);
    }
    fl[0].sl = 0;
    fl[1].sl = 0;
    fl[2].sl = 3;
    /* Network latencies in ps (below 128 ps every value has its own bucket). */
    hist_add(&fl[0].st.net_latency, 10);
    hist_add(&fl[0].st.net_latency, 10);
    hist_add(&fl[0].st.net_latency, 20);
    hist_add(&fl[1].st.net_latency, 30);
    hist_add(&fl[2].st.net_latency, 20);
    hist_add(&fl[2].st.net_latency, 50);
    /* End-to-end: 1 us falls in the bucket [999424, 1003519] ps (width 4096). */
    hist_add(&fl[0].st.e2e_latency, 100);
    hist_add(&fl[2].st.e2e_latency, 1000000);
    struct fabric f;
    memset(&f, 0, sizeof f);
    f.nflows = 3;
    f.flows = fl;
    char dir[] = "/tmp/ibn-latcsv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct ibn_err e;
    assert_int_equal(latency_csv_write(&f, dir, &e), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    const char *want =
        "latency,class,value_ns,count,cdf\n"
        "network,all,0.010,2,0.333333333\n"
        "network,all,0.020,2,0.666666667\n"
        "network,all,0.030,1,0.833333333\n"
        "network,all,0.050,1,1.000000000\n"
        "network,sl0,0.010,2,0.500000000\n"
        "network,sl0,0.020,1,0.750000000\n"
        "network,sl0,0.030,1,1.000000000\n"
        "network,sl3,0.020,1,0.500000000\n"
        "network,sl3,0.050,1,1.000000000\n"
        "end_to_end,all,0.100,1,0.500000000\n"
        "end_to_end,all,1003.519,1,1.000000000\n"
        "end_to_end,sl0,0.100,1,1.000000000\n"
        "end_to_end,sl3,1003.519,1,1.000000000\n";
    assert_string_equal(slurp(path), want);
    unlink(path);
    /* Per flow, in flow order: the flows' own histograms, a name with a comma quoted, B
     * (no end-to-end sample) left out of the end-to-end rows. */
    fl[0].name = "A";
    fl[1].name = "B,2";
    fl[2].name = "C";
    assert_int_equal(latency_csv_write_flows(&f, dir, &e), 0);
    snprintf(path, sizeof path, "%s/flow-latency.csv", dir);
    const char *want_flows =
        "latency,flow,value_ns,count,cdf\n"
        "network,A,0.010,2,0.666666667\n"
        "network,A,0.020,1,1.000000000\n"
        "network,\"B,2\",0.030,1,1.000000000\n"
        "network,C,0.020,1,0.500000000\n"
        "network,C,0.050,1,1.000000000\n"
        "end_to_end,A,0.100,1,1.000000000\n"
        "end_to_end,C,1003.519,1,1.000000000\n";
    assert_string_equal(slurp(path), want_flows);
    unlink(path);
    rmdir(dir);
    for (int i = 0; i < 3; i++) {
        hist_free(&fl[i].st.net_latency);
        hist_free(&fl[i].st.e2e_latency);
        hist_free(&fl[i].st.msg_latency);
    }
}

static void test_no_flows_and_bad_dir(void **state)
{
    (void)state;
    struct fabric f;
    memset(&f, 0, sizeof f);
    char dir[] = "/tmp/ibn-latcsv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct ibn_err e;
    assert_int_equal(latency_csv_write(&f, dir, &e), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    assert_string_equal(slurp(path), "latency,class,value_ns,count,cdf\n");
    unlink(path);
    rmdir(dir);
    assert_int_equal(latency_csv_write(&f, "/nonexistent/ibnetsim", &e), -1);
    assert_non_null(strstr(e.msg, "cannot write /nonexistent/ibnetsim/latency.csv: No such file"));
    assert_int_equal(e.output, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_no_flows_and_bad_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

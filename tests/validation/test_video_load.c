/* test_video_load.c: a video flow given a `load` has its mean frame sizes scaled by one factor
 * (proportions kept) so that its mean rate is load x its link's data rate (build.c), and it then
 * offers that rate: checked on the scaled sizes and on the bytes offered over whole GOPs with
 * fixed frame sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "../support/sim.h"

static void test_video_load(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xSDR", "4xSDR", 10 * PS_PER_NS); /* 8 Gb/s of data */
    s.d.end = 390 * PS_PER_MS; /* 12 frames (one GOP) at 30 frames/s: 0 .. 366.7 ms */
    struct flow_desc *fd = ts_flow(&s, "V", "H1", "H2", "video", NULL, NULL, 0, 0);
    char why[128];
    assert_int_equal(param_set(params_find(arrival_params, "frame_dist"), &fd->arr, "fixed", why,
                               sizeof why), 0);
    fd->load = 0.1;
    ts_run(&s);
    struct flow *fl = ts_find(&s, "V");
    double want = 0.1 * 8e9;
    printf("  scaled sizes I %llu P %llu B %llu bytes, mean rate %.6g b/s (want %.6g)\n",
           (unsigned long long)fl->arr.d.i_bytes, (unsigned long long)fl->arr.d.p_bytes,
           (unsigned long long)fl->arr.d.b_bytes, arrival_mean_rate_bps(&fl->arr.d), want);
    assert_true(fabs(arrival_mean_rate_bps(&fl->arr.d) - want) < 1e-4 * want);
    /* The defaults' 60000 : 30000 : 12000 kept. */
    assert_true(fabs((double)fl->arr.d.i_bytes / (double)fl->arr.d.p_bytes - 2.0) < 1e-4);
    assert_true(fabs((double)fl->arr.d.p_bytes / (double)fl->arr.d.b_bytes - 2.5) < 1e-4);
    /* One GOP's bytes went out: 12 frames of the mean size, i.e. want / 30 per frame. */
    double sent = (double)fl->st.bytes_sent;
    printf("  bytes sent in one GOP: %.0f (want %.0f)\n", sent, want / 8 / 30 * 12);
    assert_true(fabs(sent - want / 8 / 30 * 12) < 1e-3 * sent);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_video_load) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

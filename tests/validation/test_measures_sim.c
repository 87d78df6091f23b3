/* test_measures_sim.c: the seed works' measures inside a running simulation, where the answer
 * is known exactly. A constant-rate flow on an idle line arrives perfectly periodically (jitter:
 * every sample in the central bin); with a deadline longer than its latency it never misses,
 * with a deadline 100 ns shorter than its latency it always misses, by exactly 100 ns; a video
 * flow on an idle network meets seed 003's 33.3 ms frame deadlines; per-host receive rates add
 * up to what the flows delivered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

/* Latency of one 1024-byte message H1 -> S1 -> H2 on 4x QDR, 25 ns cables, 100 ns switch:
 * 2 x 25 ns + 100 ns + 1050 B x 250 ps. */
static const simtime_t LATENCY = 2 * 25000 + 100000 + 1050 * 250;

static struct flow *cbr(struct testsim *s, const char *deadline)
{
    ts_init_line(s, "4xQDR", "4xQDR", 25 * PS_PER_NS);
    s->d.warmup = 100 * PS_PER_US;
    s->d.end = 1100 * PS_PER_US;
    s->d.jitter_k = 8;
    struct flow_desc *fd = ts_flow(s, "C", "H1", "H2", "constant", "1 Gb/s", "1024 B", 0, 0);
    char why[128];
    param_set(params_find(arrival_params, "deadline"), &fd->arr, deadline, why, sizeof why);
    ts_run(s);
    return ts_find(s, "C");
}

static void test_jitter_and_deadlines_met(void **st)
{
    (void)st;
    struct testsim s;
    struct flow *fl = cbr(&s, "1 us");
    /* 1 Gb/s of 1024-byte messages: one every 8.192 us, 122 in the measured millisecond. */
    printf("  jitter samples %llu, within +-IAT/8 %.3f; deadlines %llu, missed %llu\n",
           (unsigned long long)fl->st.jitter.n, jitter_share_within(&fl->st.jitter),
           (unsigned long long)fl->st.deadlines.frames, (unsigned long long)fl->st.deadlines.missed);
    assert_true(fl->st.jitter.n >= 120);
    assert_true(jitter_share_within(&fl->st.jitter) == 1.0);
    assert_true(jitter_bin_share(&fl->st.jitter, 4) == 1.0);
    assert_true(fl->st.deadlines.frames >= 120);
    assert_int_equal(fl->st.deadlines.missed, 0);
    ts_free(&s);
}

static void test_deadlines_missed_exactly(void **st)
{
    (void)st;
    struct testsim s;
    char deadline[32];
    snprintf(deadline, sizeof deadline, "%lld ps", (long long)(LATENCY - 100000));
    struct flow *fl = cbr(&s, deadline);
    assert_true(fl->st.deadlines.frames >= 120);
    assert_true(deadline_dmp(&fl->st.deadlines) == 1.0);
    assert_int_equal(deadline_dmt(&fl->st.deadlines), 100000);
    ts_free(&s);
}

static void test_video_meets_frame_deadlines(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", 25 * PS_PER_NS);
    s.d.end = 1000 * PS_PER_MS; /* 30 frames */
    ts_flow(&s, "V", "H1", "H2", "video", NULL, NULL, 0, 0);
    ts_run(&s);
    struct flow *fl = ts_find(&s, "V");
    printf("  video: %llu frames, DMP %.3f\n", (unsigned long long)fl->st.deadlines.frames,
           deadline_dmp(&fl->st.deadlines));
    assert_true(fl->st.deadlines.frames >= 29);
    assert_int_equal(fl->st.deadlines.missed, 0);
    ts_free(&s);
}

static void test_host_rates_add_up(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=6");
    s.d.warmup = 100 * PS_PER_US;
    s.d.end = 600 * PS_PER_US;
    ts_flow(&s, "U", "*", "uniform", "poisson", "5 Gb/s", "4 KiB", 0, 0);
    ts_run(&s);
    uint64_t rx = 0, tx = 0, fl = 0;
    for (int h = 0; h < s.f.nhosts; h++) {
        rx += s.f.hosts[h].rx_bytes;
        tx += s.f.hosts[h].tx_bytes;
    }
    for (uint32_t i = 0; i < s.f.nflows; i++)
        fl += s.f.flows[i].st.bytes_delivered;
    assert_true(rx == fl && tx == fl && fl > 0);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jitter_and_deadlines_met),
        cmocka_unit_test(test_deadlines_missed_exactly),
        cmocka_unit_test(test_video_meets_frame_deadlines),
        cmocka_unit_test(test_host_rates_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

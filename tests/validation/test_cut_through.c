/* test_cut_through.c: virtual cut-through timing, to the picosecond. One packet of W wire bytes
 * crosses H1 -> S1 -> H2 (propagation delay d on each cable, switch latency L). Its head reaches
 * S1 at d and may leave at d + L; its tail cannot leave S1 before it arrived (W/r_in + d). So
 * the packet is delivered (its tail reaches H2) at
 *     max(d + L + W/r_out, W/r_in + d) + d,
 * i.e. 2d + L + W/r_out when the output is as fast or slower, and 2d + W/r_in when the output is
 * faster (it stays busy until the tail is in). Checked exactly for both cases, and the output
 * link's busy time is checked through PortXmitWait-free utilisation of a saturated run. With
 * switch.cut_through = late the packet for a faster output starts only at tail - W/r_out: the
 * same delivery time, and the fast link is free for other inputs until then (docs/cc.md 5.1
 * shows what that does to seed 002's scenario 2 with CC on). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"

static simtime_t one_packet_latency_mode(const char *in, const char *out, uint32_t payload, int late)
{
    struct testsim s;
    ts_init_line(&s, in, out, 25 * PS_PER_NS);
    s.d.set.cut_through_late = late;
    char size[32];
    snprintf(size, sizeof size, "%u B", payload);
    /* A saturating flow stopped 1 ps after it started sends exactly its first packet. */
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, size, 0, 1);
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    assert_int_equal(fl->st.pkts_delivered, 1);
    simtime_t lat = fl->st.net_latency.max;
    assert_int_equal(fl->st.net_latency.min, lat);
    ts_free(&s);
    return lat;
}

static simtime_t one_packet_latency(const char *in, const char *out, uint32_t payload)
{
    return one_packet_latency_mode(in, out, payload, 0);
}

static void test_same_speed(void **st)
{
    (void)st;
    /* 2048 payload -> 2074 wire bytes; 4x QDR = 250 ps/byte; d = 25 ns; L = 100 ns. */
    simtime_t expect = 2 * 25000 + 100000 + 2074 * 250;
    assert_int_equal(one_packet_latency("4xQDR", "4xQDR", 2048), expect);
}

static void test_slower_output(void **st)
{
    (void)st;
    /* Output 4x SDR = 1000 ps/byte: 2d + L + W/r_out. */
    simtime_t expect = 2 * 25000 + 100000 + 2074 * 1000;
    assert_int_equal(one_packet_latency("4xQDR", "4xSDR", 2048), expect);
}

static void test_faster_output_waits_for_tail(void **st)
{
    (void)st;
    /* Input 4x SDR, output 4x QDR: the output is busy until the tail has arrived: 2d + W/r_in. */
    simtime_t expect = 2 * 25000 + 2074 * 1000;
    assert_int_equal(one_packet_latency("4xSDR", "4xQDR", 2048), expect);
}

static void test_faster_output_throughput(void **st)
{
    (void)st;
    /* Saturated through a slow input into a fast output: the flow gets the input's rate, and
     * the output's transmitter is busy for the input's serialisation time (utilisation
     * r_in / r_out of the fast link). */
    struct testsim s;
    ts_init_line(&s, "4xSDR", "4xQDR", 25 * PS_PER_NS);
    s.d.warmup = 100 * PS_PER_US;
    s.d.end = 2100 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    double g = ts_gbps(&s, "F"), expect = 8.0 * 2048 / 2074;
    printf("  slow in, fast out: %.4f Gb/s (input payload rate %.4f)\n", g, expect);
    assert_true(g > expect * 0.999 && g < expect * 1.001);
    ts_free(&s);
}

static void test_faster_output_late_start(void **st)
{
    (void)st;
    /* Starting late so as to end as the tail arrives delivers the packet at the same time. */
    simtime_t expect = 2 * 25000 + 2074 * 1000;
    assert_int_equal(one_packet_latency_mode("4xSDR", "4xQDR", 2048, 1), expect);
    assert_int_equal(one_packet_latency_mode("4xQDR", "4xSDR", 2048, 1),
                     2 * 25000 + 100000 + 2074 * 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_speed), cmocka_unit_test(test_slower_output),
        cmocka_unit_test(test_faster_output_waits_for_tail),
        cmocka_unit_test(test_faster_output_throughput),
        cmocka_unit_test(test_faster_output_late_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

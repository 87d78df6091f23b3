/* test_pipe_switch.c: the 5-stage pipelined switch (switch.arch = pipe, fabric/arch_pipe.c)
 * against first principles. With stage latencies t1..t5 (sum T), cables of delay d and a
 * packet of W wire bytes:
 * - one idle switch between equal links delivers the packet's tail at 2d + T + W/r (the head
 *   pays every stage once, the tail follows at link rate: no serialisation of its own);
 * - two idle switches: 3d + 2T + W/r;
 * - a slower output: 2d + T + W/r_out (the crossbar moves the packet at the output's rate);
 * - a faster output: the tail leaves the crossbar as it arrives, then pays t4 + t5:
 *   2d + W/r_in + t4 + t5;
 * - under load, two saturated inputs share one output exactly (the link's payload rate, half
 *   each) and a saturated permutation gets the full payload rate on every output (no
 *   head-of-line blocking between different outputs in a permutation);
 * - a tiny output buffer still carries the full rate when it holds one packet (credits of the
 *   output buffer return as the tail leaves), and buffers smaller than a packet, read ports or
 *   cut_through = late are refused with the numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "../support/sim.h"
#include "fabric/swarch.h"

static const simtime_t stages[5] = { 10 * PS_PER_NS, 20 * PS_PER_NS, 30 * PS_PER_NS,
                                     40 * PS_PER_NS, 50 * PS_PER_NS };
#define T_SUM (150 * PS_PER_NS)

static void set_pipe(struct testsim *s)
{
    s->d.set.arch = 2;
    for (int i = 0; i < 5; i++)
        s->d.set.stage[i] = stages[i];
}

static simtime_t one_packet(struct testsim *s)
{
    ts_flow(s, "F", "H1", "H2", "saturate", NULL, "2048 B", 0, 1);
    ts_run(s);
    struct flow *fl = ts_find(s, "F");
    assert_int_equal(fl->st.pkts_delivered, 1);
    assert_int_equal(fl->st.net_latency.min, fl->st.net_latency.max);
    simtime_t lat = fl->st.net_latency.max;
    ts_free(s);
    return lat;
}

static void test_arch_named(void **st)
{
    (void)st;
    assert_string_equal(sw_arch_names[2], "pipe");
}

static void test_idle_one_switch(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", 25 * PS_PER_NS);
    set_pipe(&s);
    /* 2048 payload -> 2074 wire bytes at 250 ps/byte. */
    assert_int_equal(one_packet(&s), 2 * 25000 + T_SUM + 2074 * 250);
}

static void test_idle_stage_each_counts(void **st)
{
    (void)st;
    for (int k = 0; k < 5; k++) {
        struct testsim s;
        ts_init_line(&s, "4xQDR", "4xQDR", 25 * PS_PER_NS);
        set_pipe(&s);
        s.d.set.stage[k] += 1000 * PS_PER_NS;
        assert_int_equal(one_packet(&s), 2 * 25000 + T_SUM + 1000 * PS_PER_NS + 2074 * 250);
    }
}

/* H1 -- S1 -- S2 -- H2, every cable delay d. */
static void line2(struct testsim *s, simtime_t d)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int s1 = topo_add_node(&s->topo, TOPO_SWITCH, "S1", 2), s2 = topo_add_node(&s->topo, TOPO_SWITCH, "S2", 2);
    int h1 = topo_add_node(&s->topo, TOPO_CA, "H1", 1), h2 = topo_add_node(&s->topo, TOPO_CA, "H2", 1);
    if (topo_connect(&s->topo, h1, 1, s1, 1, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, s1, 2, s2, 1, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, s2, 2, h2, 1, 4, IB_QDR, 0, d, &s->err))
        abort();
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    s->d.end = PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
}

static void test_idle_two_switches(void **st)
{
    (void)st;
    struct testsim s;
    line2(&s, 30 * PS_PER_NS);
    set_pipe(&s);
    assert_int_equal(one_packet(&s), 3 * 30000 + 2 * T_SUM + 2074 * 250);
}

static void test_idle_rates_differ(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xSDR", 25 * PS_PER_NS);
    set_pipe(&s);
    assert_int_equal(one_packet(&s), 2 * 25000 + T_SUM + 2074 * 1000);
    ts_init_line(&s, "4xSDR", "4xQDR", 25 * PS_PER_NS);
    set_pipe(&s);
    assert_int_equal(one_packet(&s), 2 * 25000 + 2074 * 1000 + stages[3] + stages[4]);
}

/* Saturated flows through single_switch(ports); returns Gb/s of each. */
static void saturate(int ports, const char *const *src, const char *const *dst, int n,
                     uint64_t out_buffer, double *g)
{
    struct testsim s;
    char args[64];
    snprintf(args, sizeof args, "ports=%d", ports);
    ts_init(&s, "single_switch", args);
    set_pipe(&s);
    s.d.set.out_buffer = out_buffer;
    s.d.warmup = 50 * PS_PER_US;
    s.d.end = 1050 * PS_PER_US;
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "F%d", i);
        ts_flow(&s, name, src[i], dst[i], "saturate", NULL, "64 KiB", 0, 0);
    }
    ts_run(&s);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "F%d", i);
        g[i] = ts_gbps(&s, name);
    }
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    ts_free(&s);
}

static void test_two_inputs_one_output(void **st)
{
    (void)st;
    const char *src[2] = { "H1", "H2" }, *dst[2] = { "H3", "H3" };
    double g[2], link = 32.0 * 2048 / 2074; /* 4x QDR payload rate */
    saturate(4, src, dst, 2, 0, g);
    printf("  2 -> 1: %.4f + %.4f Gb/s (link payload %.4f)\n", g[0], g[1], link);
    assert_true(fabs(g[0] + g[1] - link) < 0.002 * link);
    assert_true(fabs(g[0] - g[1]) < 0.01 * link);
}

static void test_permutation_full_rate(void **st)
{
    (void)st;
    const char *src[4] = { "H1", "H2", "H3", "H4" }, *dst[4] = { "H2", "H3", "H4", "H1" };
    double g[4], link = 32.0 * 2048 / 2074;
    saturate(4, src, dst, 4, 0, g);
    for (int i = 0; i < 4; i++) {
        printf("  permutation flow %d: %.4f Gb/s (link payload %.4f)\n", i, g[i], link);
        assert_true(fabs(g[i] - link) < 0.002 * link);
    }
    /* One packet of output buffer: the next packet may start crossing only once the previous
     * tail has left on the link, which it does t4 + t5 after it crossed: a packet every
     * X + t4 + t5 (X = 2074 B at 250 ps/B), the rate X / (X + t4 + t5) of the link. */
    saturate(4, src, dst, 4, 2074, g);
    double x = 2074 * 250.0, want = link * x / (x + (double)(stages[3] + stages[4]));
    for (int i = 0; i < 4; i++) {
        printf("  one-packet output buffer, flow %d: %.4f Gb/s (expected %.4f)\n", i, g[i], want);
        assert_true(fabs(g[i] - want) < 0.002 * want);
    }
}

static void refused(void (*tweak)(struct testsim *), const char *needle)
{
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", 25 * PS_PER_NS);
    set_pipe(&s);
    tweak(&s);
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "2048 B", 0, 1);
    assert_int_not_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    printf("  refused: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, needle));
    ts_free(&s);
}
static void small_out(struct testsim *s) { s->d.set.out_buffer = 1024; }
static void rports(struct testsim *s) { s->d.set.read_ports = 1; }
static void late(struct testsim *s) { s->d.set.cut_through_late = 1; }

static void test_bad_settings(void **st)
{
    (void)st;
    refused(small_out, "1024 bytes cannot hold a whole 2074-byte packet");
    refused(rports, "read_ports");
    refused(late, "cut_through");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_named),
        cmocka_unit_test(test_idle_one_switch),
        cmocka_unit_test(test_idle_stage_each_counts),
        cmocka_unit_test(test_idle_two_switches),
        cmocka_unit_test(test_idle_rates_differ),
        cmocka_unit_test(test_two_inputs_one_output),
        cmocka_unit_test(test_permutation_full_rate),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_queue_usage.c: the queues in use of each switch architecture (swarch.h, sw_usage_add;
 * output.queue_series), sampled every 100 ns on one 4-port switch: H1 and H2 both saturate H3
 * and H4, whose adapters drain at only 8 Gb/s (both outputs congested). A queue holds packets
 * of what the design separates: 1Q one FIFO per input (at most 2 in use: inputs 1 and 2);
 * VOQsw one per (input, output): 4 (1->3, 1->4, 2->3, 2->4); VOQnet one per (input,
 * destination): the same 4 here; DBBM with 4 FIFOs and H3, H4 in different ones: 4. Each maximum is reached and never
 * exceeded, and nothing is in use once the fabric has drained. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "fabric/swarch.h"

static uint64_t peak;

static void sample(struct fabric *f, void *ctx)
{
    (void)ctx;
    struct sw_usage u = { 0, 0, 0 };
    for (int i = 0; i < f->nnodes; i++)
        if (f->nodes[i]->is_switch)
            sw_usage_add(f, node_sw(f->nodes[i]), &u);
    if (u.queues > peak)
        peak = u.queues;
    assert_int_equal(u.cam_lines, 0);
}

static uint64_t run(const char *arch)
{
    struct testsim s;
    char why[128];
    ts_init(&s, "single_switch", "ports=4,link=4xQDR");
    if (param_set(params_find(switch_params, "arch"), &s.d.set, arch, why, sizeof why))
        fail_msg("%s", why);
    s.d.end = 200 * PS_PER_US;
    s.d.sample_interval = 100 * PS_PER_NS;
    ts_flow(&s, "a", "H1", "H3", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(&s, "b", "H2", "H3", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(&s, "c", "H1", "H4", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(&s, "d", "H2", "H4", "saturate", NULL, "2048 B", 0, 0);
    if (param_set(params_find(hca_params, "sink_limit"), &s.d.set, "8 Gb/s", why, sizeof why))
        fail_msg("%s", why);
    peak = 0;
    struct fabric_observer obs = { sample, NULL, NULL };
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err) || fabric_run(&s.f, &obs, &s.rep, &s.err))
        fail_msg("%s", s.err.msg);
    struct sw_usage u = { 0, 0, 0 };
    for (int i = 0; i < s.f.nnodes; i++)
        if (s.f.nodes[i]->is_switch)
            sw_usage_add(&s.f, node_sw(s.f.nodes[i]), &u);
    assert_int_equal(u.queues, 0); /* drained */
    ts_free(&s);
    printf("  %s: at most %llu queues in use\n", arch, (unsigned long long)peak);
    return peak;
}

static void test_queues_in_use(void **st)
{
    (void)st;
    assert_int_equal(run("1q"), 2);
    assert_int_equal(run("voqsw"), 4);
    assert_int_equal(run("voqnet"), 4);
    assert_int_equal(run("dbbm"), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_queues_in_use) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_selective_drop.c: seed 004's selective dropping (section 3.5) with IBA's lifetimes.
 *  - HLL = 4.096 us x 2^HV: 4.096 us at HV 0, 1.048576 ms at 8, 2.147483648 s at 19, infinite
 *    above 19 (the same law for the Switch Lifetime Limit).
 *  - Dropping breaks an SPF deadlock: a ring of 4 switches (32 Gb/s links), each host sending
 *    Poisson 24 Gb/s of 2 KiB messages to uniformly random other hosts; SPF sends every 2-hop
 *    route the same way round (ties to the lowest port), a cyclic channel dependency. With one
 *    packet of buffer per VL the run is stuck within 500 us (packets left in the fabric,
 *    nothing can move); with HV = 0 (4.096 us) a few heads of the cycle are dropped and the
 *    fabric carries on and drains, over 10x the packets delivered, and the invariants hold with
 *    the drops counted: packets created = delivered + dropped, every credit back home.
 *  - Protection: a video source through a switch towards a slow receiver (heads wait for
 *    credits longer than HLL). With only I frames nothing is dropped (every packet kept); with
 *    P and B frames packets are dropped but never a frame's first or last, so every frame
 *    arrives; a source without frames loses messages. The Switch Lifetime Limit alone drops
 *    too, counted under its own cause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "fabric/drop.h"

static void test_lifetime_law(void **st)
{
    (void)st;
    assert_int_equal(drop_lifetime(0), 4096 * PS_PER_NS);
    assert_int_equal(drop_lifetime(8), 1048576 * PS_PER_NS);
    assert_int_equal(drop_lifetime(19), (simtime_t)2147483648LL * PS_PER_NS);
    assert_int_equal(drop_lifetime(20), SIMTIME_NEVER);
    assert_int_equal(drop_lifetime(31), SIMTIME_NEVER);
}

/* S0..S3 in a ring (port 1 to the next, port 2 to the previous), H0..H3 on port 3; SPF. */
static void ring(struct testsim *s)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int sw[4], h[4];
    for (int i = 0; i < 4; i++) {
        char n[8];
        snprintf(n, sizeof n, "S%d", i);
        sw[i] = topo_add_node(&s->topo, TOPO_SWITCH, n, 3);
        snprintf(n, sizeof n, "H%d", i);
        h[i] = topo_add_node(&s->topo, TOPO_CA, n, 1);
    }
    for (int i = 0; i < 4; i++) {
        assert_int_equal(topo_connect(&s->topo, sw[i], 1, sw[(i + 1) % 4], 2, 4, IB_QDR, 0,
                                      10 * PS_PER_NS, &s->err), 0);
        assert_int_equal(topo_connect(&s->topo, sw[i], 3, h[i], 1, 4, IB_QDR, 0, 10 * PS_PER_NS,
                                      &s->err), 0);
    }
    topo_assign_lids(&s->topo, 0);
    assert_int_equal(route_compute(&s->topo, "spf", NULL, &s->lfts, &s->err), 0);
    fabric_settings_defaults(&s->d.set);
    s->d.set.switch_buffer = 2112; /* one 2 KiB packet per VL */
    s->d.end = PS_PER_MS / 2;
    s->d.drain_limit = 10 * PS_PER_MS;
    s->d.warmup = 0;
    s->d.seed = 1;
    ts_flow(s, "F", "*", "uniform", "poisson", "24 Gb/s", "2048 B", 0, 0);
}

static void test_drop_breaks_spf_deadlock(void **st)
{
    (void)st;
    struct testsim s;
    ring(&s);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_STUCK);
    assert_true(s.rep.in_flight > 0);
    assert_int_equal(s.f.cnt.dropped_hoq, 0);
    assert_null(s.f.drop);
    uint64_t stuck_delivered = s.f.cnt.delivered;
    ts_free(&s);

    ring(&s);
    s.d.set.hoq_life = 0;
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_true(s.rep.invariants_ok); /* credits home, created = delivered + dropped */
    assert_int_equal(s.rep.in_flight, 0);
    assert_true(s.f.cnt.dropped_hoq > 0);
    assert_int_equal(s.f.cnt.created, s.f.cnt.delivered + s.f.cnt.dropped_hoq);
    assert_true(s.f.cnt.delivered > 10 * stuck_delivered);
    /* Drops by place add up to the total. */
    uint64_t placed = 0;
    for (int i = 0; i < s.f.nnodes; i++)
        if (s.f.nodes[i]->is_switch)
            for (int p = 0; p <= s.f.nodes[i]->nports; p++)
                placed += node_sw(s.f.nodes[i])->drop->hoq[p];
    assert_int_equal(placed, s.f.cnt.dropped_hoq);
    printf("stuck: %llu delivered; HV 0: %llu delivered, %llu dropped\n",
           (unsigned long long)stuck_delivered, (unsigned long long)s.f.cnt.delivered,
           (unsigned long long)s.f.cnt.dropped_hoq);
    ts_free(&s);
}

/* H1 -- S1 -- H2, H2 consuming 2 Gb/s of a 32 Gb/s link; a video source of 1.44 Gb/s on average
 * (bursts of a frame at link rate), or a Poisson source of 4 Gb/s. */
static void slow_sink(struct testsim *s, const char *gop, const char *fps, int hv, int lv)
{
    ts_init_line(s, "4xQDR", "4xQDR", 10 * PS_PER_NS);
    s->d.set.sink_limit_bps = 2e9;
    s->d.set.hca_buffer = 2112; /* one packet: the switch's head waits for the receiver */
    s->d.set.hoq_life = hv;
    s->d.set.switch_life = lv;
    s->d.end = 2 * PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    char why[128];
    if (gop) {
        struct flow_desc *fd = ts_flow(s, "V", "H1", "H2", "video", NULL, NULL, 0, 0);
        assert_int_equal(param_set(params_find(arrival_params, "gop"), &fd->arr, gop, why, sizeof why), 0);
        assert_int_equal(param_set(params_find(arrival_params, "fps"), &fd->arr, fps, why, sizeof why), 0);
    } else {
        ts_flow(s, "V", "H1", "H2", "poisson", "4 Gb/s", "20000 B", 0, 0);
    }
    ts_run(s);
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
    assert_true(s->rep.invariants_ok);
}

static void test_protection(void **st)
{
    (void)st;
    struct testsim s;
    /* Only I frames: every packet protected. */
    slow_sink(&s, "I", "3000", 0, 20);
    struct flow *v = ts_find(&s, "V");
    assert_int_equal(s.f.cnt.dropped_hoq, 0);
    assert_true(s.f.cnt.kept_past_limit > 0);
    assert_int_equal(v->st.msgs_delivered, v->st.msgs_offered);
    ts_free(&s);
    /* P and B frames: drops, but every frame's first and last packet arrives. */
    slow_sink(&s, "PBBPBB", "10000", 0, 20);
    v = ts_find(&s, "V");
    assert_true(s.f.cnt.dropped_hoq > 0);
    assert_int_equal(v->st.msgs_delivered, v->st.msgs_offered);
    assert_true(v->st.pkts_delivered + s.f.cnt.dropped_hoq == v->st.pkts_sent);
    assert_true(s.f.cnt.dropped_hoq <= v->st.pkts_sent - 2 * v->st.msgs_offered);
    ts_free(&s);
    /* No frames: messages are lost. */
    slow_sink(&s, NULL, NULL, 0, 20);
    v = ts_find(&s, "V");
    assert_true(s.f.cnt.dropped_hoq > 0);
    assert_true(v->st.msgs_delivered < v->st.msgs_offered);
    ts_free(&s);
    /* The Switch Lifetime Limit alone. */
    slow_sink(&s, NULL, NULL, 20, 0);
    assert_int_equal(s.f.cnt.dropped_hoq, 0);
    assert_true(s.f.cnt.dropped_sll > 0);
    assert_int_equal(s.f.cnt.created, s.f.cnt.delivered + s.f.cnt.dropped_sll);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lifetime_law),
        cmocka_unit_test(test_drop_breaks_spf_deadlock),
        cmocka_unit_test(test_protection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

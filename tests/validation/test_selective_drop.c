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
 *    too, counted under its own cause.
 *  - The lifetime events are queued lazily (one per input port); every result is the one the
 *    former way (an event per head) gives, with fewer events (test_lazy_events). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "config/scenario.h"
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
    /* The stuck run delivers until the deadlock closes, which depends on the order of
     * simultaneous events: 162 packets under the global scheduling order before issue 19,
     * 1,249 under (scheduling time, node); with drops about 2,100 (the whole half
     * millisecond). */
    assert_true(s.f.cnt.delivered > stuck_delivered + stuck_delivered / 2);
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

/* The lifetime limits' events are queued lazily (drop.h: one EV_HOQ event per input port, at
 * its earliest register's (due, number), and none for a head that left with nothing behind it);
 * the former way queued one per head. The same runs both ways (f->drop->eager queues every
 * head's event, for this comparison) must give the same results, event for event: the ring's
 * SPF deadlock broken by HV 0, the Switch Lifetime Limit with HV 2 (both causes), and a
 * generated 15-switch irregular network under SPF at 60 % on two VLs with HV 1 (registers on
 * several outputs and VLs per input). The lazy runs handle fewer events, and may end earlier:
 * the eager runs' last events can be deadlines of heads long gone, which change nothing. */
static void run_both(struct testsim *s, void (*make)(struct testsim *, int), int variant)
{
    uint64_t ev[2], cnt[2][6];
    double lat[2];
    simtime_t end[2];
    for (int eager = 0; eager < 2; eager++) {
        make(s, variant);
        if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err))
            fail_msg("build: %s", s->err.msg);
        assert_non_null(s->f.drop);
        s->f.drop->eager = eager;
        if (fabric_run(&s->f, NULL, &s->rep, &s->err))
            fail_msg("run: %s", s->err.msg);
        assert_true(s->rep.invariants_ok);
        ev[eager] = s->f.events;
        end[eager] = s->f.now;
        cnt[eager][0] = s->f.cnt.delivered, cnt[eager][1] = s->f.cnt.dropped_hoq;
        cnt[eager][2] = s->f.cnt.dropped_sll, cnt[eager][3] = s->f.cnt.kept_past_limit;
        cnt[eager][4] = s->f.hops, cnt[eager][5] = (uint64_t)s->rep.outcome;
        lat[eager] = 0;
        for (uint32_t i = 0; i < s->f.nflows; i++)
            lat[eager] += hist_mean(&s->f.flows[i].st.net_latency) * (double)s->f.flows[i].st.net_latency.count;
        ts_free(s);
    }
    printf("variant %d: %llu delivered, %llu HOQ and %llu SLL drops, %llu kept; events lazy %llu, "
           "eager %llu\n", variant, (unsigned long long)cnt[0][0], (unsigned long long)cnt[0][1],
           (unsigned long long)cnt[0][2], (unsigned long long)cnt[0][3], (unsigned long long)ev[0],
           (unsigned long long)ev[1]);
    for (int k = 0; k < 6; k++)
        assert_int_equal(cnt[0][k], cnt[1][k]);
    assert_true(cnt[0][1] + cnt[0][2] > 0);
    assert_true(end[0] <= end[1]);
    assert_true(lat[0] == lat[1]);
    assert_true(ev[0] < ev[1]);
}

static void make_ring(struct testsim *s, int variant)
{
    ring(s);
    s->d.set.hoq_life = variant == 0 ? 0 : 2;
    s->d.set.switch_life = variant == 0 ? 20 : 1; /* 8.192 us, below HLL's 16.384 */
}

static void make_irregular(struct testsim *s, int variant)
{
    (void)variant;
    memset(s, 0, sizeof *s);
    if (topo_generate("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1,link=2.5Gb/s", 1,
                      &s->topo, &s->err) ||
        route_compute(&s->topo, "spf", NULL, &s->lfts, &s->err))
        fail_msg("setup: %s", s->err.msg);
    fabric_settings_defaults(&s->d.set);
    s->d.set.mtu = 1024;
    s->d.set.switch_buffer = 4200;
    s->d.set.hca_buffer = 4200;
    s->d.set.nvls = 2; /* SL n on VL n mod 2, equal weights */
    struct qos_desc q;
    qos_desc_defaults(&q);
    if (qos_apply(&q, &s->d.set, &s->err))
        fail_msg("%s", s->err.msg);
    params_free(qos_params, &q);
    s->d.set.hoq_life = 1;
    s->d.end = 3 * PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
    /* ts_flow may move the flow array: set each flow's SL before adding the next. */
    ts_flow(s, "A", "*", "uniform", "poisson", "0.75 Gb/s", "1024", 0, 0)->sl = 0;
    ts_flow(s, "B", "*", "uniform", "poisson", "0.75 Gb/s", "1024", 0, 0)->sl = 1;
}

static void test_lazy_events(void **st)
{
    (void)st;
    struct testsim s;
    run_both(&s, make_ring, 0);
    run_both(&s, make_ring, 1);
    run_both(&s, make_irregular, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lifetime_law),
        cmocka_unit_test(test_drop_breaks_spf_deadlock),
        cmocka_unit_test(test_protection),
        cmocka_unit_test(test_lazy_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

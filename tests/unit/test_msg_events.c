/* test_msg_events.c: an adapter keeps its flows' message events and puts only the earliest
 * into the event queue (hca.c, "message events"), each with the scheduling number taken when
 * it was drawn, so that the run is the one an event per flow gives, event for event. Checked
 * against that run (fabric.msg_direct: every message event straight into the queue) on 90
 * CBR flows of different rates and random phases from three adapters, some starting late and
 * some stopping early, also with a rule (until_delivered) ending the run: the same events, the same
 * end, every flow's counts, latencies and jitter the same; and the queue held far fewer
 * events at its peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"

/* At every sample: the most message events the queue held. */
static size_t queued_msgs;
static void count_msgs(struct fabric *f, void *ctx)
{
    (void)ctx;
    size_t n = 0;
    for (size_t k = 0; k < f->q.cap; k++)
        n += eventq_slot_type(&f->q, k) == EV_FLOW_MSG;
    if (n > queued_msgs)
        queued_msgs = n;
}

static void setup(struct testsim *s, int direct, int until)
{
    ts_init(s, "single_switch", "ports=4,link=4xDDR");
    s->d.end = 4 * PS_PER_MS;
    s->d.seed = 7;
    s->d.until_delivered = (uint64_t)until;
    s->d.sample_interval = 100 * PS_PER_US;
    for (int i = 0; i < 90; i++) {
        char name[16], src[8], rate[32];
        snprintf(name, sizeof name, "c%d", i);
        snprintf(src, sizeof src, "H%d", 1 + i % 3);
        snprintf(rate, sizeof rate, "%d Mb/s", 50 + (i * 37) % 200);
        simtime_t start = (simtime_t)(i % 7) * 13 * PS_PER_US;
        simtime_t stop = i % 5 == 0 ? 3 * PS_PER_MS + (simtime_t)i * PS_PER_US : 0;
        struct flow_desc *fd = ts_flow(s, name, src, "H4", "constant", rate, "1000 B", start, stop);
        fd->arr.random_phase = 1;
    }
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err))
        fail_msg("build: %s", s->err.msg);
    s->f.msg_direct = direct;
    struct fabric_observer obs = { count_msgs, NULL, NULL, NULL };
    queued_msgs = 0;
    if (fabric_run(&s->f, &obs, &s->rep, &s->err))
        fail_msg("run: %s", s->err.msg);
}

static void same_hist(const struct histogram *a, const struct histogram *b)
{
    assert_int_equal(a->count, b->count);
    assert_true(a->sum == b->sum && a->sumsq == b->sumsq);
    assert_int_equal(a->min, b->min);
    assert_int_equal(a->max, b->max);
}

static void compare(int until)
{
    struct testsim a, b;
    setup(&a, 1, until);
    size_t qa = queued_msgs;
    setup(&b, 0, until);
    size_t qb = queued_msgs;
    assert_true(a.rep.invariants_ok && b.rep.invariants_ok);
    assert_int_equal(a.f.events, b.f.events);
    for (int k = 0; k < 32; k++)
        assert_int_equal(a.f.events_by_type[k], b.f.events_by_type[k]);
    assert_int_equal(a.f.hops, b.f.hops);
    assert_int_equal(a.f.now, b.f.now);
    assert_int_equal(a.f.end, b.f.end);
    uint64_t msgs = 0;
    for (uint32_t i = 0; i < a.f.nflows; i++) {
        const struct flow_stats *x = &a.f.flows[i].st, *y = &b.f.flows[i].st;
        assert_int_equal(x->msgs_offered, y->msgs_offered);
        assert_int_equal(x->pkts_sent, y->pkts_sent);
        assert_int_equal(x->pkts_delivered, y->pkts_delivered);
        assert_int_equal(x->bytes_delivered, y->bytes_delivered);
        assert_true(x->queue_area == y->queue_area);
        same_hist(&x->net_latency, &y->net_latency);
        same_hist(&x->e2e_latency, &y->e2e_latency);
        assert_int_equal(x->jitter.n, y->jitter.n);
        msgs += x->msgs_offered;
    }
    /* 90 flows of 50-250 Mb/s, 1000-byte messages, about 4 ms (or until the rule) */
    assert_true(msgs > (until ? 2000u : 6000u));
    if (until) /* the rule ended the run, before the duration */
        assert_true(a.f.until_at != SIMTIME_NEVER && a.f.until_at < a.d.end);
    /* In the queue, one message event per flow sending (at most 90), against a few per
     * adapter (three adapters). */
    assert_true(qa >= 72 && qa <= 90);
    assert_true(qb <= 9);
    ts_free(&a);
    ts_free(&b);
}

static void test_same_run(void **st)
{
    (void)st;
    compare(0);
}

static void test_same_run_until(void **st)
{
    (void)st;
    compare(10); /* the slowest flow's 10th packet (about 1.7 ms) ends the run */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_run),
        cmocka_unit_test(test_same_run_until),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_core.c: unit tests of the engine's core: time and rates, units, random streams and the
 * event queue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/eventq.h"
#include "core/rng.h"
#include "core/units.h"
#include "topology/linkspeed.h"

static void test_byterate(void **state)
{
    (void)state;
    byterate_t ddr = byterate_from_bps(ib_data_rate_bps(4, IB_DDR)); /* 16 Gb/s */
    assert_int_equal(byterate_time(ddr, 1), 500);
    assert_int_equal(byterate_time(ddr, 2074), 1037000);
    byterate_t qdr = byterate_from_bps(ib_data_rate_bps(4, IB_QDR)); /* 32 Gb/s */
    assert_int_equal(byterate_time(qdr, 64), 16000);
    byterate_t edr = byterate_from_bps(ib_data_rate_bps(4, IB_EDR)); /* 100 Gb/s */
    assert_int_equal(byterate_time(edr, 100), 8000);
    byterate_t fdr = byterate_from_bps(ib_data_rate_bps(4, IB_FDR)); /* 54.545 Gb/s */
    assert_int_equal(byterate_time(fdr, 3), 440); /* 3 x 146.67 ps, rounded up */
}

static void test_linkspeed(void **state)
{
    (void)state;
    int w;
    enum ib_speed s;
    assert_int_equal(ib_parse_width_speed("4xQDR", &w, &s), 0);
    assert_int_equal(w, 4);
    assert_int_equal(s, IB_QDR);
    assert_int_equal(ib_parse_width_speed("12x fdr10", &w, &s), 0);
    assert_int_equal(s, IB_FDR10);
    assert_int_equal(ib_parse_width_speed("3xQDR", &w, &s), -1);
    assert_int_equal(ib_parse_width_speed("4xQQR", &w, &s), -1);
    assert_true(ib_data_rate_bps(4, IB_QDR) == 32e9);
    assert_true(ib_data_rate_bps(1, IB_SDR) == 2e9);
    assert_true(ib_data_rate_bps(4, IB_FDR10) == 40e9);
    assert_true(ib_data_rate_bps(4, IB_EDR) == 100e9);
    assert_true(ib_data_rate_bps(4, IB_HDR) == 200e9);
    assert_true(ib_data_rate_bps(4, IB_NDR) == 400e9);
    /* XDR: 200 Gb/s per lane; 1x, 2x, 4x, 8x and 12x as ibnetdiscover prints them. */
    assert_true(fabs(ib_data_rate_bps(4, IB_XDR) - 800e9) < 1e-3);
    const int xw[] = { 1, 2, 4, 8, 12 };
    for (int i = 0; i < 5; i++) {
        char txt[16];
        snprintf(txt, sizeof txt, "%dxXDR", xw[i]);
        int xwidth;
        enum ib_speed sp;
        assert_int_equal(ib_parse_width_speed(txt, &xwidth, &sp), 0);
        assert_int_equal(xwidth, xw[i]);
        assert_int_equal(sp, IB_XDR);
        assert_true(fabs(ib_data_rate_bps(xwidth, sp) - 200e9 * xw[i]) < 1e-3);
    }
}

static void test_units(void **state)
{
    (void)state;
    char why[256];
    simtime_t t;
    assert_int_equal(units_parse_time("150 us", &t, why, sizeof why), 0);
    assert_int_equal(t, 150 * PS_PER_US);
    assert_int_equal(units_parse_time("1.024us", &t, why, sizeof why), 0);
    assert_int_equal(t, 1024000);
    assert_int_equal(units_parse_time("5", &t, why, sizeof why), -1);
    assert_non_null(strstr(why, "no unit"));
    assert_int_equal(units_parse_time("5 parsecs", &t, why, sizeof why), -1);
    assert_int_equal(units_parse_time("-1 s", &t, why, sizeof why), -1);
    uint64_t b;
    assert_int_equal(units_parse_size("64 KiB", &b, why, sizeof why), 0);
    assert_int_equal(b, 65536);
    assert_int_equal(units_parse_size("1.5 B", &b, why, sizeof why), -1);
    double r;
    assert_int_equal(units_parse_rate("13.5 Gb/s", &r, why, sizeof why), 0);
    assert_true(r == 13.5e9);
    assert_int_equal(units_parse_rate("1 GB/s", &r, why, sizeof why), 0);
    assert_true(r == 8e9);
    char buf[64];
    units_format_time(100 * PS_PER_NS, buf, sizeof buf);
    assert_string_equal(buf, "100 ns");
    units_format_time(1500 * PS_PER_US, buf, sizeof buf);
    assert_string_equal(buf, "1.500 ms");
    /* Beyond 9,223 s, t * 1000 no longer fits: fuzz_override's -s simulation.duration=10778.835305s
     * (a signed overflow under UBSan before) */
    units_format_time(10778835305000000LL, buf, sizeof buf);
    assert_string_equal(buf, "10778835.305 ms");
    units_format_time(INT64_MAX, buf, sizeof buf); /* odd picoseconds: ns with 3 decimals */
    assert_non_null(strstr(buf, " ns"));
}

static void test_rng_streams(void **state)
{
    (void)state;
    gsl_rng *a = rng_stream(1, "flow/F1"), *b = rng_stream(1, "flow/F1"),
            *c = rng_stream(1, "flow/F2"), *d = rng_stream(2, "flow/F1");
    unsigned long x = gsl_rng_get(a);
    assert_true(x == gsl_rng_get(b));
    assert_true(x != gsl_rng_get(c));
    assert_true(x != gsl_rng_get(d));
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
    gsl_rng_free(d);
}

/* Pop everything and check (time, scheduling order) order; returns how many left. */
static int drain_ordered(struct eventq *q, simtime_t after)
{
    struct event e, prev = { .t = after };
    int n = 0;
    while (eventq_pop(q, &e)) {
        assert_true(e.t >= prev.t);
        if (n && e.t == prev.t) /* equal times leave in the order they were scheduled */
            assert_true(e.seq > prev.seq);
        prev = e;
        n++;
    }
    assert_int_equal(eventq_peek_time(q), SIMTIME_NEVER);
    return n;
}

static void test_eventq_order(void **state)
{
    (void)state;
    struct eventq q;
    eventq_init(&q, 4); /* small, to exercise growth */
    struct eventq_heap h;
    eventq_heap_init(&h, 4);
    struct eventq_heap4 h4;
    eventq_heap4_init(&h4);
    uint64_t s = 12345;
    enum { N = 20000 };
    for (uint32_t i = 0; i < N; i++) {
        s = rng_mix64(s);
        eventq_push(&q, (simtime_t)(s % 1000), 1, NULL, i, 0);
        eventq_heap_push(&h, (simtime_t)(s % 1000), 1, NULL, i, 0);
        eventq_heap4_push(&h4, (simtime_t)(s % 1000), 1, NULL, i, 0);
    }
    assert_int_equal(q.n, N);
    struct event e = { 0 }, eh = { 0 }, e4 = { 0 };
    for (uint32_t i = 0; i < N; i++) {
        assert_true(eventq_pop(&q, &e));
        assert_true(eventq_heap_pop(&h, &eh));
        assert_true(eventq_heap4_pop(&h4, &e4));
        assert_true(e.t == eh.t && e.a == eh.a && e.seq == eh.seq);
        assert_true(e.t == e4.t && e.a == e4.a && e.seq == e4.seq);
    }
    assert_false(eventq_pop(&q, &e));
    assert_false(eventq_heap_pop(&h, &eh));
    assert_false(eventq_heap4_pop(&h4, &e4));
    eventq_free(&q);
    eventq_heap_free(&h);
    eventq_heap4_free(&h4);
}

/* The calendar queue against the binary heap on a long random mix of pushes and pops, with
 * look-aheads spanning ps to ms (the wheel, the overflow heap and re-estimated widths), ties,
 * and events scheduled at the current time. Every payload field must come back. */
static void test_eventq_against_heap(void **state)
{
    (void)state;
    struct eventq q;
    struct eventq_heap h;
    eventq_init(&q, 16);
    eventq_heap_init(&h, 16);
    uint64_t s = 777;
    simtime_t now = 0;
    static const simtime_t scale[] = { 1, 100, 5000, 1000000, 3000000000LL };
    int phase_scale = 2;
    for (long i = 0; i < 400000; i++) {
        if (i % 50000 == 0)
            phase_scale = (int)((uint64_t)i / 50000 % 5); /* the density changes: re-estimates */
        s = rng_mix64(s);
        int pushes = q.n < 2000 ? (int)(s % 3) : (int)(s % 2);
        for (int k = 0; k < pushes; k++) {
            s = rng_mix64(s);
            int sc = (s >> 60) < 12 ? phase_scale : (int)((s >> 56) % 5);
            simtime_t dt = (s >> 8) % 4 == 0 ? 0 : (simtime_t)((s >> 10) % (uint64_t)(3 * scale[sc] + 1));
            void *obj = (void *)(uintptr_t)(s & 0xfff0);
            eventq_push(&q, now + dt, (uint8_t)(s % 13), obj, (uint32_t)i, (uint16_t)k);
            eventq_heap_push(&h, now + dt, (uint8_t)(s % 13), obj, (uint32_t)i, (uint16_t)k);
        }
        struct event e, r;
        int got = eventq_pop(&q, &e), want = eventq_heap_pop(&h, &r);
        assert_int_equal(got, want);
        if (!got)
            continue;
        assert_true(e.t == r.t && e.seq == r.seq && e.obj == r.obj && e.a == r.a && e.b == r.b &&
                    e.type == r.type);
        assert_true(e.t >= now);
        now = e.t;
        assert_int_equal(q.n, h.n);
    }
    assert_true(q.rebuilds > 0);
    assert_int_equal(drain_ordered(&q, now), (int)h.n);
    eventq_free(&q);
    eventq_heap_free(&h);
}

/* A burst: many events at one instant (flows starting at t = 0), pushed before and while it
 * is served, and another far ahead; they leave in scheduling order. */
static void test_eventq_burst(void **state)
{
    (void)state;
    struct eventq q;
    eventq_init(&q, 8);
    enum { B = 30000 };
    for (uint32_t i = 0; i < B; i++)
        eventq_push(&q, 0, 1, NULL, i, 0);
    for (uint32_t i = 0; i < B; i++)
        eventq_push(&q, 5 * PS_PER_MS, 2, NULL, B + i, 0);
    struct event e;
    for (uint32_t i = 0; i < B; i++) {
        assert_true(eventq_pop(&q, &e));
        assert_int_equal(e.t, 0);
        assert_int_equal(e.a, i);
        if (i % 3 == 0) /* reactions at the same instant go after the burst */
            eventq_push(&q, 0, 3, NULL, 2 * B + i, 0);
    }
    for (uint32_t i = 0; i < B; i += 3) {
        assert_true(eventq_pop(&q, &e));
        assert_int_equal(e.t, 0);
        assert_int_equal(e.a, 2 * B + i);
    }
    for (uint32_t i = 0; i < B; i++) {
        assert_true(eventq_pop(&q, &e));
        assert_int_equal(e.t, 5 * PS_PER_MS);
        assert_int_equal(e.a, B + i);
    }
    assert_false(eventq_pop(&q, &e));
    eventq_free(&q);
}

/* Far-future events (end of run, timers) beside dense near ones, a queue that empties and
 * refills at an earlier time, and the listing of pending events by type. */
static void test_eventq_far_and_listing(void **state)
{
    (void)state;
    struct eventq q;
    eventq_init(&q, 4);
    eventq_push(&q, 10 * PS_PER_S, 9, NULL, 0, 0);
    eventq_push(&q, 2 * PS_PER_S, 8, NULL, 1, 0);
    uint64_t s = 5;
    for (uint32_t i = 0; i < 10000; i++) {
        s = rng_mix64(s);
        eventq_push(&q, (simtime_t)(s % (2 * PS_PER_US)), 1, NULL, 2 + i, 0);
    }
    int count[16] = { 0 }, nfree = 0;
    for (size_t i = 0; i < q.cap; i++) {
        int type = eventq_slot_type(&q, i);
        if (type < 0)
            nfree++;
        else
            count[type]++;
    }
    assert_int_equal(nfree, (int)(q.cap - q.n));
    assert_int_equal(count[1], 10000);
    assert_int_equal(count[8], 1);
    assert_int_equal(count[9], 1);
    struct event e;
    for (int i = 0; i < 10000; i++) {
        assert_true(eventq_pop(&q, &e));
        assert_int_equal(e.type, 1);
    }
    assert_int_equal(q.n, 2);
    int sum = 0;
    for (size_t i = 0; i < q.cap; i++)
        sum += eventq_slot_type(&q, i) < 0 ? 0 : eventq_slot_type(&q, i);
    assert_int_equal(sum, 17);
    assert_int_equal(eventq_peek_time(&q), 2 * PS_PER_S);
    assert_true(eventq_pop(&q, &e) && e.type == 8);
    assert_true(eventq_pop(&q, &e) && e.type == 9 && e.t == 10 * PS_PER_S);
    assert_false(eventq_pop(&q, &e));
    eventq_push(&q, 7, 4, NULL, 0, 0); /* empty again: any time is accepted */
    eventq_push(&q, 3, 5, NULL, 0, 0);
    assert_true(eventq_pop(&q, &e) && e.t == 3);
    assert_true(eventq_pop(&q, &e) && e.t == 7);
    eventq_free(&q);
}

/* A scheduling number reserved early sorts the event as if it had been pushed then. */
static void test_eventq_reserved_seq(void **state)
{
    (void)state;
    struct eventq q;
    eventq_init(&q, 4);
    eventq_push(&q, 100, 1, NULL, 0, 0);
    uint64_t r = eventq_reserve_seq(&q);
    eventq_push(&q, 500, 1, NULL, 2, 0);
    eventq_push(&q, 500, 1, NULL, 3, 0);
    struct event e;
    assert_true(eventq_pop(&q, &e) && e.a == 0);
    eventq_push_seq(&q, 500, r, 1, NULL, 1, 0);
    for (uint32_t i = 1; i <= 3; i++) {
        assert_true(eventq_pop(&q, &e));
        assert_int_equal(e.t, 500);
        assert_int_equal(e.a, i);
    }
    eventq_free(&q);
}

/* Equal times are ordered by (scheduling time, origin, the origin's own count), not by the
 * order in which origins happened to schedule at one instant: two interleavings of the same
 * schedulings pop alike. Removing an event makes its handler the current origin and its time
 * the scheduling time. */
static void origins_push(struct eventq *q, const int *order, int n)
{
    for (int i = 0; i < n; i++) {
        eventq_set_origin(q, (uint32_t)order[i]);
        /* a: who scheduled, and its how-manieth; handled by the other origin */
        eventq_push_on(q, (uint32_t)(3 - order[i]), 10, 1, NULL, (uint32_t)(order[i] * 100 + i), 0);
    }
}
static void test_eventq_origins(void **state)
{
    (void)state;
    struct eventq q1, q2;
    eventq_init(&q1, 4);
    eventq_init(&q2, 4);
    eventq_set_origins(&q1, 4);
    eventq_set_origins(&q2, 4);
    const int o1[] = { 1, 2, 1, 2, 1 }, o2[] = { 2, 2, 1, 1, 1 };
    origins_push(&q1, o1, 5);
    origins_push(&q2, o2, 5);
    struct event e1 = { 0 }, e2 = { 0 };
    int from[5];
    for (int i = 0; i < 5; i++) {
        assert_true(eventq_pop(&q1, &e1));
        assert_true(eventq_pop(&q2, &e2));
        from[i] = (int)e1.a / 100;
        assert_int_equal(from[i], (int)e2.a / 100);
        assert_true(e1.seq == e2.seq);
        assert_int_equal(q1.origin, 3 - from[i]); /* the handler is now the origin */
    }
    /* origin 1's three first, then origin 2's two */
    assert_int_equal(from[0], 1);
    assert_int_equal(from[2], 1);
    assert_int_equal(from[3], 2);
    assert_int_equal(from[4], 2);
    assert_true(e1.seq == evseq_make(0, ((uint64_t)2 << EVENTQ_COUNT_BITS) + 1));
    /* origin 1 now current (the handler of the last event), at time 10 */
    eventq_set_origin(&q1, 1);
    /* Now origin 1 at time 10: its next number, at scheduling time 10. An event origin 2
     * scheduled earlier for the same time goes first although its origin comes later. */
    eventq_set_origin(&q1, 2);
    eventq_push(&q1, 30, 1, NULL, 8, 0);
    eventq_set_origin(&q1, 1);
    eventq_push(&q1, 20, 1, NULL, 7, 0);
    assert_true(eventq_pop(&q1, &e1) && e1.a == 7);
    assert_true(e1.seq == evseq_make(10, ((uint64_t)1 << EVENTQ_COUNT_BITS) + 3));
    eventq_push(&q1, 30, 1, NULL, 9, 0); /* origin 1 (e1's handler), scheduled at 20 */
    assert_true(eventq_pop(&q1, &e1) && e1.a == 8);
    assert_true(eventq_pop(&q1, &e1) && e1.a == 9);
    /* Far times keep their value. */
    simtime_t far = (simtime_t)1 << 60;
    eventq_push(&q1, far, 1, NULL, 1, 0);
    eventq_push(&q1, far - 1, 1, NULL, 2, 0);
    assert_true(eventq_pop(&q1, &e1) && e1.a == 2);
    assert_true(eventq_pop(&q1, &e1) && e1.a == 1 && e1.t == far);
    eventq_free(&q1);
    eventq_free(&q2);
}

/* The calendar queue against a reference (the pending events kept in a plain array, the
 * earliest by (time, scheduling time, origin, count) found by a scan) on bursts that land many
 * events, pushed out of order by eight origins, in one bucket: the front's sorting (insertion
 * for short runs, heap sort for long ones) and its insertions while a bucket is served. Ties
 * are frequent (times on a coarse grid) and pushed in descending origin order within a burst,
 * so a queue that kept push order for equal times, or ignored the origin, would fail. */
struct ref_ev {
    simtime_t t, ts;
    uint64_t oc;
    uint32_t id;
};
static int ref_before(const struct ref_ev *x, const struct ref_ev *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->ts != y->ts)
        return x->ts < y->ts;
    return x->oc < y->oc;
}
/* xaligned_calloc: on the boundary asked for, zeroed, also for a size that is not a multiple of
 * the alignment (aligned_alloc's own rule) and for none at all; reused memory is zeroed again. */
static void test_aligned_calloc(void **state)
{
    (void)state;
    static const size_t aligns[] = { 16, 64, 4096 };
    static const size_t sizes[][2] = { { 0, 8 }, { 1, 1 }, { 3, 40 }, { 7, 64 }, { 1000, 24 } };
    for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++) {
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            unsigned char *p = xaligned_calloc(aligns[a], sizes[k][0], sizes[k][1]);
            assert_int_equal((uintptr_t)p % aligns[a], 0);
            for (size_t i = 0; i < sizes[k][0] * sizes[k][1]; i++)
                assert_int_equal(p[i], 0);
            memset(p, 0xab, sizes[k][0] * sizes[k][1]);
            free(p);
        }
    }
}

static void test_eventq_front_order(void **state)
{
    (void)state;
    enum { O = 8, MAXP = 6000 };
    static struct ref_ev ref[MAXP];
    size_t nref = 0;
    struct eventq q;
    eventq_init(&q, 4);
    eventq_set_origins(&q, O);
    uint64_t cnt[O] = { 0 };
    uint64_t s = 4242;
    simtime_t now = 0;
    uint32_t id = 0;
    long pops = 0;
    static const simtime_t span[] = { 0, 7, 700, 70000 };
    for (int round = 0; round < 1500; round++) {
        s = rng_mix64(s);
        /* a burst of 1 to 200 events over a span of 0, 7, 700 or 70,000 ps on a grid of
         * 7 ps (many equal times); now and then a long one */
        int k = (int)(s % 200) + 1;
        if (round % 97 == 0)
            k = 2000;
        simtime_t sp = span[(s >> 20) % 4];
        for (int i = 0; i < k && nref < MAXP; i++) {
            s = rng_mix64(s);
            uint32_t o = (uint32_t)(O - 1 - (uint32_t)((uint64_t)i * O / (uint64_t)k)); /* descending */
            if ((s >> 40) % 4 == 0)
                o = (uint32_t)((s >> 44) % O);
            simtime_t t = now + (sp ? (simtime_t)((s >> 8) % (uint64_t)(sp / 7 + 1)) * 7 : 0);
            eventq_set_origin(&q, o);
            eventq_push(&q, t, 1, NULL, id, 0);
            ref[nref++] = (struct ref_ev){ t, now, (uint64_t)o << EVENTQ_COUNT_BITS | cnt[o]++, id };
            id++;
        }
        /* pop about as many, and sometimes push at the current time while serving */
        s = rng_mix64(s);
        int npop = (int)(s % (uint64_t)(k + 20));
        for (int i = 0; i < npop && nref; i++) {
            size_t best = 0;
            for (size_t j = 1; j < nref; j++)
                if (ref_before(&ref[j], &ref[best]))
                    best = j;
            struct event e = { 0 };
            assert_true(eventq_pop(&q, &e));
            assert_int_equal(e.t, ref[best].t);
            assert_int_equal(e.a, ref[best].id);
            assert_true(e.seq == evseq_make(ref[best].ts, ref[best].oc));
            now = e.t;
            ref[best] = ref[--nref];
            pops++;
            s = rng_mix64(s);
            if (s % 8 == 0 && nref < MAXP) {
                uint32_t o = (uint32_t)((s >> 8) % O);
                simtime_t t = now + (simtime_t)((s >> 16) % 3) * 7;
                eventq_set_origin(&q, o);
                eventq_push(&q, t, 2, NULL, id, 0);
                ref[nref++] = (struct ref_ev){ t, now, (uint64_t)o << EVENTQ_COUNT_BITS | cnt[o]++, id };
                id++;
            }
        }
    }
    assert_true(pops > 50000);
    eventq_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_byterate),   cmocka_unit_test(test_linkspeed),
        cmocka_unit_test(test_units),      cmocka_unit_test(test_rng_streams),
        cmocka_unit_test(test_eventq_order),       cmocka_unit_test(test_eventq_against_heap),
        cmocka_unit_test(test_eventq_burst),       cmocka_unit_test(test_eventq_far_and_listing),
        cmocka_unit_test(test_eventq_reserved_seq), cmocka_unit_test(test_eventq_origins),
        cmocka_unit_test(test_eventq_front_order), cmocka_unit_test(test_aligned_calloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_core.c: unit tests of the engine's core: time and rates, units, random streams and the
 * event queue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

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

static void check_order(void (*push)(struct eventq *, simtime_t, uint8_t, void *, uint32_t, uint16_t),
                        int (*pop)(struct eventq *, struct event *))
{
    struct eventq q;
    eventq_init(&q, 4); /* small, to exercise growth */
    uint64_t s = 12345;
    enum { N = 20000 };
    for (uint32_t i = 0; i < N; i++) {
        s = rng_mix64(s);
        push(&q, (simtime_t)(s % 1000), 1, NULL, i, 0);
    }
    struct event e, prev = { 0 };
    int n = 0;
    while (pop(&q, &e)) {
        if (n) {
            assert_true(e.t >= prev.t);
            if (e.t == prev.t) /* equal times leave in the order they were scheduled */
                assert_true(e.a > prev.a);
        }
        prev = e;
        n++;
    }
    assert_int_equal(n, N);
    eventq_free(&q);
}

static void test_eventq_order(void **state)
{
    (void)state;
    check_order(eventq_push, eventq_pop);
    check_order(eventq4_push, eventq4_pop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_byterate),   cmocka_unit_test(test_linkspeed),
        cmocka_unit_test(test_units),      cmocka_unit_test(test_rng_streams),
        cmocka_unit_test(test_eventq_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

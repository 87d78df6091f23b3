/* test_run_end.c: the end of a run. A flow whose start lies after the end never sends, and the
 * run still drains (its start event is not a packet left in the fabric); a run whose packets
 * cannot leave within the drain limit says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"

static void test_start_after_end(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=3,link=4xDDR");
    s.d.end = PS_PER_MS;
    s.d.drain_limit = PS_PER_MS;
    ts_flow(&s, "early", "H1", "H3", "saturate", NULL, "65536 B", 0, 0);
    ts_flow(&s, "late", "H2", "H3", "saturate", NULL, "65536 B", 1000 * PS_PER_MS, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_int_equal(s.rep.in_flight, 0);
    assert_true(ts_gbps(&s, "early") > 10.0);
    assert_true(ts_find(&s, "late")->st.pkts_sent == 0);
    ts_free(&s);
}

static void test_drain_timeout(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=3,link=4xDDR");
    s.d.end = PS_PER_MS;
    /* A 1 Mb/s sink cannot take what a 16 Gb/s link delivered into its buffers in 10 us. */
    char why[128];
    assert_int_equal(param_set(params_find(hca_params, "sink_limit"), &s.d.set, "1 Mb/s", why,
                               sizeof why), 0);
    s.d.drain_limit = 10 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H3", "saturate", NULL, "65536 B", 0, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAIN_TIMEOUT);
    assert_true(s.rep.in_flight > 0);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_after_end),
        cmocka_unit_test(test_drain_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

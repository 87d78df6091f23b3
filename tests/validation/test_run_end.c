/* test_run_end.c: the end of a run. A flow whose start lies after the end never sends, and the
 * run still drains (its start event is not a packet left in the fabric); a run whose packets
 * cannot leave within the drain limit says so; simulation.until_delivered ends the measured run
 * when the slowest flow has delivered its count, and not before. */
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
    ts_flow(&s, "later", "H2", "H3", "saturate", NULL, "65536 B", 3 * PS_PER_MS / 2, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_int_equal(s.rep.in_flight, 0);
    assert_true(ts_gbps(&s, "early") > 10.0);
    assert_true(ts_find(&s, "late")->st.pkts_sent == 0);
    assert_true(ts_find(&s, "later")->st.pkts_sent == 0);
    /* The run stopped when the drain ended, a few microseconds after the end (the last packets
     * of "early" leave the buffers), not at "later"'s start at 1.5 ms, inside the drain limit,
     * which the end made void (before the fix, f->now and stopped_at_s were 1.5 ms). */
    assert_true(s.f.now > PS_PER_MS && s.f.now < PS_PER_MS + 100 * PS_PER_US);
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

/* Two CBR flows of 1000-byte messages (one packet each at the default MTU): slow
 * at 0.1 Gb/s (a message every 80 us, the first at 0), fast at 1 Gb/s (every 8 us). With
 * until_delivered = 5 the run must end at the slow flow's fifth delivery: created at 320 us,
 * delivered within a few microseconds (one switch, 4xDDR, idle fabric); the slow flow has
 * exactly 5 packets in the measured period, the fast one those of 8 us each up to then. */
static void test_until_delivered(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4,link=4xDDR");
    s.d.end = PS_PER_S; /* the cap, far away */
    s.d.until_delivered = 5;
    s.d.sample_interval = 100 * PS_PER_US;
    ts_flow(&s, "slow", "H1", "H3", "constant", "0.1 Gb/s", "1000 B", 0, 0);
    ts_flow(&s, "fast", "H2", "H4", "constant", "1 Gb/s", "1000 B", 0, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_int_equal(s.rep.in_flight, 0);
    assert_true(s.rep.invariants_ok);
    simtime_t at = s.f.until_at;
    assert_true(at >= 320 * PS_PER_US && at < 330 * PS_PER_US);
    assert_int_equal(s.f.end, at);           /* the measured run ended there */
    assert_int_equal(s.f.until_left, 0);
    assert_int_equal(ts_find(&s, "slow")->st.pkts_delivered, 5);
    /* fast: messages created at 0, 8, ..., each delivered a few us later: 40 or 41 by 320 us+ */
    uint64_t nf = ts_find(&s, "fast")->st.pkts_delivered;
    assert_true(nf >= 40 && nf <= 41);
    /* The run stops with its last real event (the last packet's credits back), not at the
     * sources' events the end made void: the slow flow's next message (400 us) and the fast
     * one's (328 us) were drawn before the rule moved the end, and the sample of 400 us was
     * scheduled then too (series stop at the measured end). summary.json's stopped_at_s is
     * f->now. Before the fix the run "stopped" at 400 us. */
    assert_true(s.f.now >= at && s.f.now < at + 5 * PS_PER_US);
    assert_int_equal(s.rep.drained_at, s.f.now);
    assert_int_equal(s.f.last_sample, 300 * PS_PER_US);
    ts_free(&s);

    /* The duration comes first: the rule is not met, both flows short of 2,000 in 1 ms. */
    ts_init(&s, "single_switch", "ports=4,link=4xDDR");
    s.d.end = PS_PER_MS;
    s.d.until_delivered = 2000;
    ts_flow(&s, "slow", "H1", "H3", "constant", "0.1 Gb/s", "1000 B", 0, 0);
    ts_flow(&s, "fast", "H2", "H4", "constant", "1 Gb/s", "1000 B", 0, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_int_equal(s.f.until_at, SIMTIME_NEVER);
    assert_int_equal(s.f.until_left, 2);
    assert_int_equal(s.f.end, PS_PER_MS);
    assert_int_equal(ts_find(&s, "fast")->st.pkts_delivered, 125); /* 0, 8, ..., 992 us */
    ts_free(&s);
}

/* The drain limit counts from the end of the measured run, also when a rule ended it: a
 * saturating flow into a 1 Mb/s sink reaches until_delivered = 2 early (its buffers full), and
 * what is left in them cannot leave within 10 us of that end, though it could before the
 * duration's 1 s (before the fix the limit stayed at the duration plus 10 us, and the run
 * drained). */
static void test_until_drain_limit(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=3,link=4xDDR");
    s.d.end = PS_PER_S;
    s.d.until_delivered = 2;
    s.d.drain_limit = 10 * PS_PER_US;
    char why[128];
    assert_int_equal(param_set(params_find(hca_params, "sink_limit"), &s.d.set, "1 Mb/s", why,
                               sizeof why), 0);
    ts_flow(&s, "F", "H1", "H3", "saturate", NULL, "2048 B", 0, 0);
    ts_run(&s);
    assert_true(s.f.until_at != SIMTIME_NEVER && s.f.until_at < 100 * PS_PER_MS);
    assert_int_equal(s.rep.outcome, RUN_DRAIN_TIMEOUT);
    assert_true(s.rep.in_flight > 0);
    assert_true(s.f.now <= s.f.until_at + 10 * PS_PER_US);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_until_delivered),
        cmocka_unit_test(test_until_drain_limit),
        cmocka_unit_test(test_start_after_end),
        cmocka_unit_test(test_drain_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

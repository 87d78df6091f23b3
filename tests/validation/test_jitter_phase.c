/* test_jitter_phase.c: seed 001 Fig. 8's "never beyond +-IAT" (jitter of the high-bandwidth
 * SLs) is a property of the sources' phases, not a guarantee of the arbitration tables (issue
 * 13, rows t3.16.fig8.sl{5,8,9}.beyond; docs/qos.md "Table 3 through the simulated fabric").
 *
 * One 8-port switch, 2.5 Gb/s links, 256-byte packets (282 wire bytes: 0.9024 us), VL buffers
 * of 4 packets, a read port per output (no crossbar contention), output port 8's high table
 * "2:255,1:255" (each VL an entry every 2 entries: the tightest distance there is), the low
 * table unused. J (H1 -> H8, VL 1, the measured connection) is CBR at one packet every 4 us
 * (22.6 % of the link); six CBR sources H2..H7 -> H8 on VL 2 send one packet every 20 us each
 * (27.1 %): 49.7 % of the link, every source exactly at its rate, J alone on its VL.
 *
 * Worked out before the run. Aligned phases (the six start at 0, J at 0.5 us): every 20 us
 * six VL 2 packets reach the output at once and J's fifth packet after them, 0.5 us later,
 * while VL 2's entry (255 units: 58 packets) serves; J's packet waits for the six (5.41 us
 * from their arrival, 4.9 us from its own), the one before it (4 us earlier) for nothing. So
 * one sample in five is (gap - IAT) ~ +4.9 us > IAT = 4 us: beyond +-IAT, share 0.2 (the next
 * is ~ -3.6 us, inside -IAT). Staggered phases (source i starts at i x 20/6 us): at most one
 * VL 2 packet is on the wire when a J packet comes, so |gap - IAT| <= 0.9024 us: no sample
 * beyond +-IAT. Same tables, rates, load and switch: only the phases differ.
 * Tolerances stated before running: aligned, the beyond share within 0.2 +- 0.01; staggered,
 * exactly 0 beyond and every sample within one packet time (bins 3-5: |s| <= IAT/4). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"

static void set(const struct param *table, void *obj, const char *key, const char *v)
{
    char why[256];
    if (param_set(params_find(table, key), obj, v, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", key, why);
        abort();
    }
}

/* Runs the case; stagger = 0: the six VL 2 sources in phase. Returns J's jitter. */
static struct jitter run_case(int stagger)
{
    struct testsim s;
    ts_init(&s, "single_switch", "ports=8,link=2.5Gb/s");
    set(fabric_params, &s.d.set, "vls", "3");
    set(fabric_params, &s.d.set, "mtu", "256");
    set(switch_params, &s.d.set, "buffer", "1 KiB");
    set(switch_params, &s.d.set, "read_ports", "0");
    set(hca_params, &s.d.set, "buffer", "1 KiB");
    struct qos_desc q;
    qos_desc_defaults(&q);
    set(qos_params, &q, "sl2vl", "0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,15");
    set(qos_params, &q, "vlarb_high", "2:255,1:255");
    set(qos_params, &q, "vlarb_low", "0:1");
    q.high_limit = 255;
    if (qos_apply(&q, &s.d.set, &s.err)) {
        fprintf(stderr, "%s\n", s.err.msg);
        abort();
    }
    params_free(qos_params, &q);
    s.d.warmup = 100 * PS_PER_US;
    s.d.end = 2100 * PS_PER_US; /* 100 bursts, 500 samples */
    /* J: 256 B every 4 us = 512 Mb/s of payload */
    ts_flow(&s, "J", "H1", "H8", "constant", "512 Mb/s", "256 B", 500 * PS_PER_NS, 0)->sl = 1;
    for (int i = 0; i < 6; i++) {
        char name[8], src[8];
        snprintf(name, sizeof name, "C%d", i);
        snprintf(src, sizeof src, "H%d", i + 2);
        simtime_t start = stagger ? (simtime_t)i * 20 * PS_PER_US / 6 : 0;
        /* 256 B every 20 us = 102.4 Mb/s of payload */
        ts_flow(&s, name, src, "H8", "constant", "102.4 Mb/s", "256 B", start, 0)->sl = 2;
    }
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    struct flow *j = ts_find(&s, "J");
    assert_true(j->st.has_jitter);
    assert_int_equal(j->st.jitter.iat, 4 * PS_PER_US);
    struct jitter r = j->st.jitter;
    printf("  %s: %llu samples, bins", stagger ? "staggered" : "aligned",
           (unsigned long long)r.n);
    for (int b = 0; b < JITTER_BINS; b++)
        printf(" %llu", (unsigned long long)r.bins[b]);
    printf("; beyond +-IAT %.4f\n", jitter_bin_share(&r, 0) + jitter_bin_share(&r, 8));
    ts_free(&s);
    return r;
}

static void test_aligned_phases_go_beyond_iat(void **st)
{
    (void)st;
    struct jitter r = run_case(0);
    assert_true(r.n >= 450);
    double beyond = jitter_bin_share(&r, 0) + jitter_bin_share(&r, 8);
    assert_true(fabs(beyond - 0.2) <= 0.01);
}

static void test_staggered_phases_stay_within(void **st)
{
    (void)st;
    struct jitter r = run_case(1);
    assert_true(r.n >= 450);
    assert_int_equal(r.bins[0] + r.bins[8], 0);
    assert_int_equal(r.bins[0] + r.bins[1] + r.bins[2] + r.bins[6] + r.bins[7] + r.bins[8], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aligned_phases_go_beyond_iat),
        cmocka_unit_test(test_staggered_phases_stay_within),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_fast_path.c: switch.c's fast path (sw.fast: arrivals, output arbitration and sending for
 * the common set-up) changes the same state in the same order as the general code. Each case
 * runs twice, once as built (fast switches) and once with fabric.no_fast (every switch by the
 * general code), and every counter must agree: events by type, hops, each port's perfquery
 * counters per VL, PortXmitWait, buffer peaks, each flow's deliveries and latency sums, and
 * with selective dropping (drop.h, which the fast path also serves) the drops by cause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"

/* A fingerprint of the run: FNV-1a over the counters. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t run_case(const char *gen, const char *args, const char *kind, const char *rate,
                         const char *msg, int hv, int lv, int no_fast, int *nfast, uint64_t *hops,
                         uint64_t *drops)
{
    struct testsim s;
    ts_init(&s, gen, args);
    s.d.warmup = 20 * PS_PER_US;
    s.d.end = 200 * PS_PER_US;
    s.d.set.hoq_life = hv;
    s.d.set.switch_life = lv;
    ts_flow(&s, "U", "*", "uniform", kind, rate, msg, 0, 0);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        fail_msg("build: %s", s.err.msg);
    s.f.no_fast = (uint8_t)no_fast;
    if (fabric_run(&s.f, NULL, &s.rep, &s.err))
        fail_msg("run: %s", s.err.msg);
    assert_true(s.rep.invariants_ok);
    uint64_t h = 0xcbf29ce484222325ULL;
    h = mix(h, s.f.events);
    h = mix(h, s.f.hops);
    h = mix(h, s.f.cnt.dropped_hoq);
    h = mix(h, s.f.cnt.dropped_sll);
    h = mix(h, s.f.cnt.kept_past_limit);
    *drops = s.f.cnt.dropped_hoq + s.f.cnt.dropped_sll;
    for (int t = 0; t < 32; t++)
        h = mix(h, s.f.events_by_type[t]);
    *nfast = 0;
    for (int i = 0; i < s.f.nnodes; i++) {
        struct node *nd = s.f.nodes[i];
        *nfast += nd->is_switch && node_sw(nd)->fast;
        for (int p = 1; p <= nd->nports; p++) {
            struct port *pt = &nd->port[p];
            h = mix(h, (uint64_t)pt->rx_peak);
            for (int v = 0; v < s.f.nvs; v++) {
                const struct port_vl_counters *c = &pt->vl[v].ctr;
                h = mix(h, c->xmit_bytes);
                h = mix(h, c->xmit_pkts);
                h = mix(h, c->rcv_pkts);
                h = mix(h, (uint64_t)c->xmit_wait);
            }
        }
    }
    for (uint32_t i = 0; i < s.f.nflows; i++) {
        const struct flow_stats *st = &s.f.flows[i].st;
        h = mix(h, st->pkts_delivered);
        h = mix(h, st->bytes_delivered);
        h = mix(h, st->e2e_latency.count);
        h = mix(h, (uint64_t)st->e2e_latency.max);
        h = mix(h, (uint64_t)(hist_mean(&st->e2e_latency) * 1e3));
    }
    *hops = s.f.hops;
    ts_free(&s);
    return h;
}

/* hv, lv: switch.hoq_life and switch.switch_life (20: infinite). Returns the drops. */
static uint64_t check_drop(const char *gen, const char *args, const char *kind, const char *rate,
                           const char *msg, int hv, int lv)
{
    int nfast, nslow;
    uint64_t hops, hops2, drops, drops2;
    uint64_t a = run_case(gen, args, kind, rate, msg, hv, lv, 0, &nfast, &hops, &drops);
    uint64_t b = run_case(gen, args, kind, rate, msg, hv, lv, 1, &nslow, &hops2, &drops2);
    assert_true(nfast > 0);   /* the fast path served the first run */
    assert_int_equal(nslow, 0);
    assert_true(hops > 1000); /* and carried traffic */
    assert_int_equal(hops, hops2);
    assert_int_equal(drops, drops2);
    assert_true(a == b);
    return drops;
}

static void check(const char *gen, const char *args, const char *kind, const char *rate, const char *msg)
{
    assert_int_equal(check_drop(gen, args, kind, rate, msg, 20, 20), 0);
}

/* A two-level fat tree at 70 % Poisson load (22 of 32 Gb/s) (credits and round robin rarely bind) and
 * saturated (they always do); a single switch saturated with small packets. */
static void test_fattree_poisson(void **st)
{
    (void)st;
    check("fattree", "ports=8,levels=2,link=4xQDR", "poisson", "22 Gb/s", "4 KiB");
}
static void test_fattree_saturate(void **st)
{
    (void)st;
    check("fattree", "ports=8,levels=2,link=4xQDR", "saturate", NULL, "2 KiB");
}
static void test_switch_saturate(void **st)
{
    (void)st;
    check("single_switch", "ports=12,link=4xQDR", "saturate", NULL, "256 B");
}

/* Selective dropping on the fast path: a saturated fat tree whose heads wait past HLL = 4.096 us
 * (HV 0), then with the Switch Lifetime Limit alone (LV 1, 8.192 us) and with both; each must
 * drop, the same packets as the general code. */
static void test_fattree_dropping(void **st)
{
    (void)st;
    uint64_t hoq = check_drop("fattree", "ports=8,levels=2,link=4xQDR", "saturate", NULL, "2 KiB", 0, 20);
    uint64_t sll = check_drop("fattree", "ports=8,levels=2,link=4xQDR", "saturate", NULL, "2 KiB", 20, 1);
    uint64_t both = check_drop("fattree", "ports=8,levels=2,link=4xQDR", "saturate", NULL, "2 KiB", 0, 1);
    printf("drops on the fast path: HOQ %llu, SLL %llu, both %llu\n", (unsigned long long)hoq,
           (unsigned long long)sll, (unsigned long long)both);
    assert_true(hoq > 0 && sll > 0 && both > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fattree_dropping),
        cmocka_unit_test(test_fattree_poisson),
        cmocka_unit_test(test_fattree_saturate),
        cmocka_unit_test(test_switch_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_vl_arbitration.c: VL arbitration on a running fabric. Two hosts saturate one switch
 * output to a third host on two VLs (SL 0 -> VL 0, SL 1 -> VL 1): with low-table weights w1:w2
 * the VLs share the link w1:w2 within 1 %; with VL 1 in the high table and LimitOfHighPriority
 * L, the low-priority VL gets one packet per L x 4096 bytes of high-priority traffic; a
 * management flow on VL15 (SL 15 mapped to VL 15) is never held back by data VLs. A VL that
 * carries traffic but has no weight in a port's tables is refused before the run (settings
 * changed to 15 VLs after their tables were made for one); with tables made for 15 VLs all
 * fifteen are served and everything offered is delivered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static void two_vls(struct testsim *s, const char *high, const char *low, long long limit,
                    const char *mtu)
{
    ts_init(s, "single_switch", "ports=3,link=4xQDR");
    char why[256];
    param_set(params_find(fabric_params, "vls"), &s->d.set, "2", why, sizeof why);
    param_set(params_find(fabric_params, "mtu"), &s->d.set, mtu, why, sizeof why);
    struct qos_desc q;
    qos_desc_defaults(&q);
    param_set(params_find(qos_params, "sl2vl"), &q, "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,15", why, sizeof why);
    param_set(params_find(qos_params, "vlarb_high"), &q, high, why, sizeof why);
    param_set(params_find(qos_params, "vlarb_low"), &q, low, why, sizeof why);
    q.high_limit = limit;
    if (qos_apply(&q, &s->d.set, &s->err)) {
        fprintf(stderr, "%s\n", s->err.msg);
        abort();
    }
    params_free(qos_params, &q);
    s->d.warmup = 200 * PS_PER_US;
    s->d.end = 4 * PS_PER_MS;
    ts_flow(s, "A", "H1", "H3", "saturate", NULL, "64 KiB", 0, 0)->sl = 0;
    ts_flow(s, "B", "H2", "H3", "saturate", NULL, "64 KiB", 0, 0)->sl = 1;
}

static void test_low_weights_share(void **st)
{
    (void)st;
    struct testsim s;
    /* Weights 64:192 (4096 and 12288 bytes a turn) with 2048-byte MTU packets. */
    two_vls(&s, "", "0:64,1:192", 255, "2048");
    ts_run(&s);
    double a = ts_gbps(&s, "A"), b = ts_gbps(&s, "B");
    printf("  VL0 %.3f Gb/s, VL1 %.3f Gb/s, ratio %.4f (weights 1:3)\n", a, b, b / a);
    assert_true(fabs(b / a - 3.0) / 3.0 < 0.01);
    /* The link stays full. */
    assert_true(fabs(a + b - 32.0 * 2048 / 2074) / 31.6 < 0.005);
    ts_free(&s);
    two_vls(&s, "", "0:200,1:50", 255, "256"); /* 4:1 with small packets */
    ts_run(&s);
    a = ts_gbps(&s, "A"), b = ts_gbps(&s, "B");
    printf("  VL0 %.3f Gb/s, VL1 %.3f Gb/s, ratio %.4f (weights 4:1)\n", a, b, a / b);
    assert_true(fabs(a / b - 4.0) / 4.0 < 0.01);
    ts_free(&s);
}

static void test_high_priority_limit(void **st)
{
    (void)st;
    struct testsim s;
    /* VL1 high with LimitOfHighPriority 1 (4096 bytes = 2 packets of 2048), VL0 low:
     * two high packets per low packet: VL1 gets 2/3 of the link. */
    two_vls(&s, "1:255", "0:255", 1, "2048");
    ts_run(&s);
    double a = ts_gbps(&s, "A"), b = ts_gbps(&s, "B");
    printf("  limit 1: low %.3f Gb/s, high %.3f Gb/s, ratio %.4f (expected 2)\n", a, b, b / a);
    assert_true(fabs(b / a - 2.0) / 2.0 < 0.01);
    ts_free(&s);
    /* Limit 0: one packet each. */
    two_vls(&s, "1:255", "0:255", 0, "2048");
    ts_run(&s);
    a = ts_gbps(&s, "A"), b = ts_gbps(&s, "B");
    printf("  limit 0: low %.3f Gb/s, high %.3f Gb/s, ratio %.4f (expected 1)\n", a, b, b / a);
    assert_true(fabs(b / a - 1.0) < 0.01);
    ts_free(&s);
    /* Unbounded: the low-priority VL starves at the contended output. */
    two_vls(&s, "1:255", "0:255", 255, "2048");
    ts_run(&s);
    a = ts_gbps(&s, "A"), b = ts_gbps(&s, "B");
    printf("  unbounded: low %.3f Gb/s, high %.3f Gb/s\n", a, b);
    assert_true(a < 0.01 * b);
    ts_free(&s);
}

static void test_vl15_first(void **st)
{
    (void)st;
    struct testsim s;
    two_vls(&s, "1:255", "0:255", 255, "2048");
    /* A third flow on SL 15 -> VL15 into the same output, at 2 Gb/s: it is served first, so its
     * latency stays near its own serialisation even though the data VLs saturate the link. */
    struct flow_desc *m = ts_flow(&s, "M", "H1", "H3", "constant", "2 Gb/s", "256 B", 0, 0);
    m->sl = 15;
    ts_run(&s);
    struct flow *fm = ts_find(&s, "M");
    double g = ts_gbps(&s, "M");
    printf("  VL15 flow %.3f Gb/s, network latency p99 %.0f ns, max %.0f ns\n", g,
           hist_quantile(&fm->st.net_latency, 0.99) / 1e3, (double)fm->st.net_latency.max / 1e3);
    assert_true(fabs(g - 2.0) < 0.02);
    /* Waits at most one data packet per hop (2074 B at 32 Gb/s = 518.5 ns) plus its own path. */
    assert_true(fm->st.net_latency.max < 2 * PS_PER_US);
    ts_free(&s);
}

/* Fifteen hosts each send SL i (VL i) to a sixteenth at 0.5 Gb/s. */
static void fifteen_vls(struct testsim *s, int apply)
{
    ts_init(s, "single_switch", "ports=16,link=4xQDR");
    char why[256];
    param_set(params_find(fabric_params, "vls"), &s->d.set, "15", why, sizeof why);
    if (apply) {
        struct qos_desc q;
        qos_desc_defaults(&q);
        if (qos_apply(&q, &s->d.set, &s->err))
            abort();
        params_free(qos_params, &q);
    } else {
        for (int sl = 0; sl < 15; sl++) /* SL i on VL i, the tables left as they were */
            s->d.set.sl2vl[sl] = (uint8_t)sl;
    }
    s->d.warmup = 0;
    s->d.end = 1 * PS_PER_MS;
    for (int i = 0; i < 15; i++) {
        char name[16], src[16];
        snprintf(name, sizeof name, "F%d", i);
        snprintf(src, sizeof src, "H%d", i + 1);
        ts_flow(s, name, src, "H16", "constant", "0.5 Gb/s", "2 KiB", 0, 0)->sl = i;
    }
}

static void test_unweighted_vl_refused(void **st)
{
    (void)st;
    struct testsim s;
    fifteen_vls(&s, 0); /* SL2VL for 15 VLs, tables still those of the default single VL */
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    assert_int_not_equal(fabric_run(&s.f, NULL, &s.rep, &s.err), 0);
    printf("  %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "VL 1 carries traffic"));
    assert_int_equal(s.f.cnt.created, 0);
    ts_free(&s);
}

static void test_fifteen_vls_served(void **st)
{
    (void)st;
    struct testsim s;
    fifteen_vls(&s, 1);
    ts_run(&s);
    uint64_t sent = 0, got = 0;
    for (int i = 0; i < 15; i++) {
        struct flow *fl = &s.f.flows[i];
        assert_true(fl->st.pkts_sent > 0);
        sent += fl->st.pkts_sent;
        got += fl->st.pkts_delivered;
    }
    printf("  15 VLs: %llu packets sent, %llu delivered\n", (unsigned long long)sent,
           (unsigned long long)got);
    assert_int_equal(sent, got);
    /* 15 x 0.5 Gb/s of 2 KiB messages for 1 ms: about 458 messages offered. */
    assert_true(sent > 400);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_low_weights_share),
        cmocka_unit_test(test_high_priority_limit),
        cmocka_unit_test(test_vl15_first),
        cmocka_unit_test(test_unweighted_vl_refused),
        cmocka_unit_test(test_fifteen_vls_served),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

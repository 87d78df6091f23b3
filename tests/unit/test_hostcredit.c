/* test_hostcredit.c: seed 003's credit-based host congestion control (src/cc/hostcredit.c):
 * C_j = floor(b_j / B x M) for real-time flows and min(C_b, (M - sum C_j) / best-effort flows)
 * for best effort; the credits act as a window of unacknowledged messages (a saturating flow
 * with C credits gets C messages per message time + round trip on a line); a real-time flow
 * without a credit drops the posting and retries (with no retries, constant arrivals of period P
 * against a credit cycle D lose the messages that find the credit out: 1/2 of them for
 * D = 1.5 P, 2/3 for D = 2.5 P; with retries none is lost); bad settings (UD, real-time credits
 * beyond M) refused with the reason; the latency from posting to the adapter (a message posted
 * when it gets a credit) against T_data + 2 d + L. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"
#include "cc/cc.h"

static void dset(void *d, const char *key, const char *value)
{
    char why[256];
    if (param_set(params_find(hostcredit_params, key), d, value, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", key, why);
        fail();
    }
}

static int attach(struct testsim *s, void *d)
{
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err))
        fail();
    return cc_attach(&s->f, &hostcredit_plugin, d, &s->err);
}

static void rc(struct testsim *s)
{
    char why[128];
    assert_int_equal(param_set(params_find(transport_params, "mode"), &s->d.set, "rc", why, sizeof why), 0);
}

static void test_credit_split(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    struct flow_desc *fd = ts_flow(&s, "RT", "H1", "H2", "poisson", "0.4 Gb/s", "640 B", 0, 0);
    fd->sl = 1;
    ts_flow(&s, "BE", "H1", "H3", "poisson", "0.2 Gb/s", "640 B", 0, 0);
    ts_flow(&s, "BE2", "H1", "H4", "poisson", "0.2 Gb/s", "640 B", 0, 0);
    ts_flow(&s, "BE3", "H2", "H4", "poisson", "0.2 Gb/s", "640 B", 0, 0);
    fd = ts_flow(&s, "CTL", "H1", "H4", "poisson", "0.01 Gb/s", "160 B", 0, 0);
    fd->sl = 2;
    void *d = cc_desc_new(&hostcredit_plugin);
    dset(d, "rt_sls", "1");
    dset(d, "control_sls", "2");
    dset(d, "credits", "300");
    assert_int_equal(attach(&s, d), 0);
    /* RT: 0.4 / 1.6 x 512 = 128; H1's two best-effort flows share 512 - 128: 192 each (< 300);
     * H2's alone: min(300, 512). */
    assert_int_equal(ts_find(&s, "RT")->rc.window, 128);
    assert_int_equal(ts_find(&s, "BE")->rc.window, 192);
    assert_int_equal(ts_find(&s, "BE2")->rc.window, 192);
    assert_int_equal(ts_find(&s, "BE3")->rc.window, 300);
    assert_false(ts_find(&s, "CTL")->rc.win); /* control: no credits, not counted against M */
    assert_true(ts_find(&s, "RT")->rc.win_msgs);
    cc_desc_free(&hostcredit_plugin, d);
    ts_free(&s);
}

/* C credits on a line (4x QDR, 1 us cables): C two-packet messages per (packet time + RTT). */
static void test_credits_limit_outstanding_messages(void **st)
{
    (void)st;
    for (int c = 1; c <= 3; c++) {
        struct testsim s;
        ts_init_line(&s, "4xQDR", "4xQDR", 1000 * PS_PER_NS);
        rc(&s);
        s.d.warmup = 50 * PS_PER_US;
        s.d.end = s.d.warmup + 2 * PS_PER_MS;
        ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "4096 B", 0, 0);
        void *d = cc_desc_new(&hostcredit_plugin);
        char v[8];
        snprintf(v, sizeof v, "%d", c);
        dset(d, "credits", v);
        assert_int_equal(attach(&s, d), 0);
        assert_int_equal(fabric_run(&s.f, NULL, &s.rep, &s.err), 0);
        double t = pkt_wire_bytes(2048, 0) * 250.0;
        double rtt = 2.0 * (2000.0 * PS_PER_NS + (double)s.d.set.switch_latency) + t + 30 * 250.0;
        double expect = c * 4096 * 8.0 / (t + rtt) * 1e3, got = ts_gbps(&s, "F");
        printf("%d credits: expect %.4f Gb/s, got %.4f\n", c, expect, got);
        assert_true(fabs(got - expect) / expect < 3e-3);
        cc_desc_free(&hostcredit_plugin, d);
        ts_free(&s);
    }
}


/* One credit (M = 6, C_j = floor(b / B x 6) = 1), one-packet messages at constant spacing P on a
 * line (4x QDR, 1 us cables): a message posted at t holds the credit until its ACK, D = T_data +
 * 2 (2 d + L) + T_ack = 4726 ns later. With rt_retries = 0 a message arriving while the credit is
 * out is dropped for good: for D = 1.5 P every second message is lost, for D = 2.5 P two of
 * three. With retries (back-off 1 us, no limit) every message is posted in the end, none lost,
 * and the refused attempts are counted. A best-effort flow with the same setting waits (no
 * drops). */
static void run_rt(double d_over_p, const char *retries, const char *sls, struct testsim *s)
{
    ts_init_line(s, "4xQDR", "4xQDR", 1000 * PS_PER_NS);
    rc(s);
    double t = pkt_wire_bytes(2048, 0) * 250.0, ack = 30 * 250.0;
    double dcyc = t + 2.0 * (2000.0 * PS_PER_NS + (double)s->d.set.switch_latency) + ack;
    double p = dcyc / d_over_p;
    char rate[64];
    snprintf(rate, sizeof rate, "%.6f Gb/s", 2048 * 8.0 / p * 1e3);
    s->d.end = 2 * PS_PER_MS;
    struct flow_desc *fd = ts_flow(s, "RT", "H1", "H2", "constant", rate, "2048 B", 0,
                                   !strcmp(retries, "-1") ? PS_PER_MS : 0);
    fd->sl = 1;
    void *d = cc_desc_new(&hostcredit_plugin);
    dset(d, "rt_sls", sls);
    dset(d, "hca_messages", "6");
    dset(d, "credits", "1"); /* the best-effort case */
    dset(d, "rt_retry", "1 us");
    dset(d, "rt_retries", retries);
    assert_int_equal(attach(s, d), 0);
    assert_int_equal(ts_find(s, "RT")->rc.window, 1);
    assert_int_equal(fabric_run(&s->f, NULL, &s->rep, &s->err), 0);
    cc_desc_free(&hostcredit_plugin, d);
}

static void test_rt_drop_and_retry(void **st)
{
    (void)st;
    const double ratio[2] = { 1.5, 2.5 }, lost[2] = { 1.0 / 2, 2.0 / 3 };
    for (int k = 0; k < 2; k++) {
        struct testsim s;
        run_rt(ratio[k], "0", "1", &s);
        struct flow *fl = ts_find(&s, "RT");
        double share = (double)fl->rc.x->lost / (double)fl->st.msgs_offered;
        printf("D = %.1f P, no retries: %llu of %llu lost (%.4f, theory %.4f), %llu delivered\n",
               ratio[k], (unsigned long long)fl->rc.x->lost, (unsigned long long)fl->st.msgs_offered,
               share, lost[k], (unsigned long long)fl->st.msgs_delivered);
        assert_true(fabs(share - lost[k]) < 0.01);
        assert_int_equal(fl->rc.x->drops, fl->rc.x->lost); /* each refusal is final */
        assert_true(fl->st.msgs_delivered + fl->rc.x->lost <= fl->st.msgs_offered);
        assert_true(fl->st.msgs_delivered + fl->rc.x->lost + 2 >= fl->st.msgs_offered);
        ts_free(&s);
    }
    /* Retries without limit: 1 ms of arrivals at D = 1.5 P, then the backlog drains. */
    struct testsim s;
    run_rt(1.5, "-1", "1", &s);
    struct flow *fl = ts_find(&s, "RT");
    printf("retries: %llu offered, %llu delivered, %llu refused attempts, %llu lost\n",
           (unsigned long long)fl->st.msgs_offered, (unsigned long long)fl->st.msgs_delivered,
           (unsigned long long)fl->rc.x->drops, (unsigned long long)fl->rc.x->lost);
    assert_int_equal(fl->rc.x->lost, 0);
    assert_int_equal(fl->st.msgs_delivered, fl->st.msgs_offered);
    assert_true(fl->rc.x->drops > fl->st.msgs_offered / 2);
    ts_free(&s);
    /* The same flow as best effort waits for its credit: nothing dropped, nothing lost. */
    run_rt(1.5, "0", "", &s);
    fl = ts_find(&s, "RT");
    assert_int_equal(fl->rc.x->drops, 0);
    assert_int_equal(fl->rc.x->lost, 0);
    assert_true(fl->st.msgs_delivered + 2 >= fl->st.msgs_offered * 2 / 3);
    ts_free(&s);
}

/* The adapter's side of the credits: a best-effort message is posted to the adapter when it
 * gets a credit and waits in the consumer's backlog before. Two credits, one-packet messages
 * arriving faster than the credits come back (constant, 1.5 x 2 / D): every message is posted
 * when an ACK returns a credit and starts at once (the other credit is out), so from its posting
 * to its delivery it takes T_data + 2 d + L = 2618.5 ns (cut-through through S1), while its
 * latency from creation grows with the backlog. */
static void test_posted_latency(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", 1000 * PS_PER_NS);
    rc(&s);
    double t = pkt_wire_bytes(2048, 0) * 250.0, ack = 30 * 250.0;
    double L = (double)s.d.set.switch_latency;
    double dcyc = t + 2.0 * (2000.0 * PS_PER_NS + L) + ack;
    char rate[64];
    snprintf(rate, sizeof rate, "%.6f Gb/s", 1.5 * 2 * 2048 * 8.0 / dcyc * 1e3);
    s.d.warmup = 100 * PS_PER_US;
    s.d.end = 1 * PS_PER_MS;
    ts_flow(&s, "F", "H1", "H2", "constant", rate, "2048 B", 0, 0);
    void *d = cc_desc_new(&hostcredit_plugin);
    dset(d, "credits", "2");
    assert_int_equal(attach(&s, d), 0);
    assert_int_equal(fabric_run(&s.f, NULL, &s.rep, &s.err), 0);
    struct flow *fl = ts_find(&s, "F");
    double posted = hist_mean(&fl->st.posted_latency), created = hist_mean(flow_msg_latency(&fl->st));
    double expect = t + 2000.0 * PS_PER_NS + L;
    printf("posted to delivered %.1f ns (theory %.1f), created to delivered %.1f ns, %llu messages\n",
           posted / 1e3, expect / 1e3, created / 1e3, (unsigned long long)fl->st.posted_latency.count);
    assert_true(fl->st.posted_latency.count > 100);
    assert_true(fabs(posted - expect) / expect < 0.01);
    assert_true(created > 10 * posted);
    cc_desc_free(&hostcredit_plugin, d);
    ts_free(&s);
}

static void test_bad_settings(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    ts_flow(&s, "F", "H1", "H2", "poisson", "0.4 Gb/s", "640 B", 0, 0);
    void *d = cc_desc_new(&hostcredit_plugin);
    assert_int_equal(attach(&s, d), -1); /* UD */
    printf("UD: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "transport.mode = rc"));
    ts_free(&s);
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    struct flow_desc *fd = ts_flow(&s, "RT", "H1", "H2", "poisson", "1.5 Gb/s", "640 B", 0, 0);
    fd->sl = 1;
    ts_flow(&s, "BE", "H1", "H3", "poisson", "0.1 Gb/s", "640 B", 0, 0);
    dset(d, "rt_sls", "1");
    dset(d, "hca_messages", "10");
    assert_int_equal(attach(&s, d), 0); /* 1.5/1.6 x 10 = 9: one left for the best-effort flow */
    ts_free(&s);
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    fd = ts_flow(&s, "RT", "H1", "H2", "poisson", "1.5 Gb/s", "640 B", 0, 0);
    fd->sl = 1;
    ts_flow(&s, "BE", "H1", "H3", "poisson", "0.1 Gb/s", "640 B", 0, 0);
    ts_flow(&s, "BE2", "H1", "H4", "poisson", "0.1 Gb/s", "640 B", 0, 0);
    assert_int_equal(attach(&s, d), -1);
    printf("beyond M: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "hca_messages"));
    ts_free(&s);
    dset(d, "control_sls", "1");
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    ts_flow(&s, "F", "H1", "H2", "poisson", "0.4 Gb/s", "640 B", 0, 0);
    assert_int_equal(attach(&s, d), -1); /* SL 1 both real time and control */
    printf("rt and control: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "control_sls"));
    ts_free(&s);
    dset(d, "control_sls", "");
    dset(d, "rt_sls", "1,x");
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    ts_flow(&s, "F", "H1", "H2", "poisson", "0.4 Gb/s", "640 B", 0, 0);
    assert_int_equal(attach(&s, d), -1);
    ts_free(&s);
    cc_desc_free(&hostcredit_plugin, d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_credit_split),
        cmocka_unit_test(test_credits_limit_outstanding_messages),
        cmocka_unit_test(test_rt_drop_and_retry),
        cmocka_unit_test(test_posted_latency),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_hostcredit.c: seed 003's credit-based host congestion control (src/cc/hostcredit.c):
 * C_j = floor(b_j / B x M) for real-time flows and min(C_b, (M - sum C_j) / best-effort flows)
 * for best effort; the credits act as a window of unacknowledged messages (a saturating flow
 * with C credits gets C messages per message time + round trip on a line); a real-time flow
 * without a credit drops the posting and retries (with no retries, constant arrivals of period P
 * against a credit cycle D lose the messages that find the credit out: 1/2 of them for
 * D = 1.5 P, 2/3 for D = 2.5 P; with retries none is lost); bad settings (UD, real-time credits
 * beyond M) refused with the reason; the latency from posting to the adapter (a message posted
 * when it gets a credit) against T_data + 2 d + L; the adapter buffer shared by its consumers
 * (hca.messages): blocking as an M/D/1/K queue's, one consumer's burst refusing another's
 * messages, and the credits protecting them. */
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

/* Seed 003's adapter buffer M shared by the consumers of an adapter (hca.messages = 64), on one
 * 1.6 Gb/s switch: H1 runs BULK, best effort offering 3 Gb/s (about twice its link), and RT,
 * real time at 0.2 Gb/s, both Poisson 640-byte messages, served round robin on one VL.
 * - No shared bound (fabric.max_pending = 1000 per flow): BULK's own queue fills, RT's stays
 *   short and none of RT's messages is refused.
 * - hca.messages = 64 without credits: BULK holds the buffer full and RT's messages, which
 *   find it so, are refused (the seed's problem: one consumer's burst blocks the others); a
 *   message enters only with fewer than 64 ahead of it, so with two flows served alternately
 *   none waits more than 2 x 64 message times (BULK's latency bounded, it is not without).
 * - The same buffer with the credit control (RC; C_j = floor(0.2 / 1.6 x 64) = 8 for RT, 56 for
 *   BULK) and an uncredited control flow CTL offering 1 Gb/s beside them: RT's credits are its
 *   share of the buffer, so none of its messages is refused (though BULK's 56 and CTL's
 *   messages fill it) and it delivers what it offers; CTL, without credits, is refused. */
static void shared_buffer_run(struct testsim *s, int rc_credits, const char *messages)
{
    ts_init(s, "single_switch", "ports=4, link=1.6 Gb/s");
    char why[128];
    assert_int_equal(param_set(params_find(fabric_params, "max_pending"), &s->d.set, "1000", why,
                               sizeof why), 0);
    assert_int_equal(param_set(params_find(hca_params, "messages"), &s->d.set, messages, why,
                               sizeof why), 0);
    s->d.warmup = PS_PER_MS;
    s->d.end = 81 * PS_PER_MS;
    ts_flow(s, "BULK", "H1", "H2", "poisson", "3 Gb/s", "640 B", 0, 0);
    struct flow_desc *fd = ts_flow(s, "RT", "H1", "H3", "poisson", "0.2 Gb/s", "640 B", 0, 0);
    fd->sl = 1;
    if (rc_credits) {
        fd = ts_flow(s, "CTL", "H1", "H4", "poisson", "1 Gb/s", "640 B", 0, 0);
        fd->sl = 2;
        rc(s);
        void *d = cc_desc_new(&hostcredit_plugin);
        dset(d, "rt_sls", "1");
        dset(d, "control_sls", "2");
        dset(d, "hca_messages", messages);
        assert_int_equal(attach(s, d), 0);
        cc_desc_free(&hostcredit_plugin, d);
    } else if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err)) {
        fail();
    }
    assert_int_equal(fabric_run(&s->f, NULL, &s->rep, &s->err), 0);
}

/* Blocking probability of the M/D/1/K queue (Poisson arrivals, rho = arrivals per service
 * time, K in the system): the embedded chain at departures (a_k = P(k arrivals in a service)),
 * then P_K = 1 - 1 / (pi_0 + rho) (Gross and Harris, M/G/1/K). */
static double md1k_blocking(double rho, int k)
{
    double a[256], pi[256];
    assert_true(k < 256);
    a[0] = exp(-rho);
    for (int j = 1; j < k; j++)
        a[j] = a[j - 1] * rho / j;
    /* pi_{j+1} from the balance of state j: pi_j = pi_0 a_j + sum_{i=1}^{j+1} pi_i a_{j-i+1}. */
    pi[0] = 1;
    for (int j = 0; j < k - 1; j++) {
        double s = pi[j] - pi[0] * a[j];
        for (int i = 1; i <= j; i++)
            s -= pi[i] * a[j - i + 1];
        pi[j + 1] = s / a[0];
    }
    double sum = 0;
    for (int j = 0; j < k; j++)
        sum += pi[j];
    return 1 - 1 / (pi[0] / sum + rho);
}

static void test_shared_adapter_buffer(void **st)
{
    (void)st;
    double t_msg = pkt_wire_bytes(640, 0) * 8.0 / 1.6e9 * 1e12; /* ps */
    double bound = 2 * 64 * t_msg + 10 * PS_PER_US;
    /* Both flows' arrivals against one message sent per t_msg; the message being sent has left
     * the buffer (its last packet is made), so the system holds M + 1. */
    double rho = (3.0 + 0.2) * 1e9 / (640 * 8.0) * t_msg / 1e12, p_block = md1k_blocking(rho, 65);
    struct testsim s;
    static const char *const label[] = { "per-flow queues", "shared M = 64", "M = 64 with credits" };
    for (int k = 0; k < 3; k++) {
        shared_buffer_run(&s, k == 2, k == 0 ? "0" : "64");
        struct flow *bulk = ts_find(&s, "BULK"), *rt = ts_find(&s, "RT");
        double rt_refused = (double)rt->st.msgs_refused_measured / (double)rt->st.msgs_offered_measured;
        double bulk_refused =
            (double)bulk->st.msgs_refused_measured / (double)bulk->st.msgs_offered_measured;
        double bulk_max = (double)bulk->st.e2e_latency.max;
        printf("  %s: RT refused %.3f of its messages, delivers %.4f Gb/s; BULK refused %.3f, its "
               "latency at most %.1f us (M/D/1/65 blocking %.3f; bound with M = 64: %.1f us)\n",
               label[k], rt_refused, ts_gbps(&s, "RT"), bulk_refused, bulk_max / PS_PER_US,
               p_block, bound / PS_PER_US);
        printf("  (arrivals measured: RT %llu, BULK %llu)\n",
               (unsigned long long)rt->st.msgs_offered_measured,
               (unsigned long long)bulk->st.msgs_offered_measured);
        assert_true(bulk->st.msgs_refused_measured > 500);
        if (k == 0) {
            assert_int_equal(bulk->st.msgs_refused_adapter, 0); /* its own queue refused them */
            assert_int_equal(rt->st.msgs_refused, 0);
            assert_true(bulk_max > 2 * bound);
        } else if (k == 1) {
            /* Poisson arrivals see the time average: both refused as often as the queue blocks
             * (3,130 RT and 46,607 BULK arrivals measured in 80 ms: 4 binomial sigmas are 0.036
             * and 0.009). */
            assert_true(fabs(rt_refused - p_block) < 0.04);
            assert_int_equal(rt->st.msgs_refused_adapter, rt->st.msgs_refused); /* all the buffer's */
            assert_true(fabs(bulk_refused - p_block) < 0.01);
            assert_true(bulk_max < bound);
        } else {
            struct flow *ctl = ts_find(&s, "CTL");
            printf("  CTL refused %llu of %llu\n", (unsigned long long)ctl->st.msgs_refused_measured,
                   (unsigned long long)ctl->st.msgs_offered_measured);
            assert_true(ctl->st.msgs_refused_measured > 100);
            assert_int_equal(rt->st.msgs_refused, 0);
            assert_true(fabs(ts_gbps(&s, "RT") - 0.2) < 0.02);
        }
        ts_free(&s);
    }
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
    dset(d, "rt_sls", "1");
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    rc(&s);
    char why[128];
    param_set(params_find(hca_params, "messages"), &s.d.set, "256", why, sizeof why);
    ts_flow(&s, "F", "H1", "H2", "poisson", "0.4 Gb/s", "640 B", 0, 0);
    assert_int_equal(attach(&s, d), -1); /* two different M */
    printf("two M: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "hca.messages"));
    ts_free(&s);
    cc_desc_free(&hostcredit_plugin, d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_credit_split),
        cmocka_unit_test(test_credits_limit_outstanding_messages),
        cmocka_unit_test(test_rt_drop_and_retry),
        cmocka_unit_test(test_shared_adapter_buffer),
        cmocka_unit_test(test_posted_latency),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

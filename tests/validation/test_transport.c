/* test_transport.c: the reliable-connection transport (src/fabric/transport.c) against its
 * theory on a line H1 -- S1 -- H2:
 * - ACK counts: one per packet, or one per message;
 * - a window of W packets limits a saturating queue pair to W packets per round trip, the round
 *   trip being 2 x (2 link delays + switch latency) + a data packet's + an ACK's transmission
 *   time; a window of W messages to W messages per (round trip + the rest of the message);
 * - ACKs consume reverse-link bandwidth: two saturating flows in opposite directions each get
 *   the link's rate x payload / (data wire + ACK wire bytes);
 * - ACKs travel on their SL's VL (ack_sl), their wire size is IBA's 30 bytes or ack_bytes;
 * - bad settings (window 0, an ACK smaller than an LRH) are refused with the reason;
 * - UD (the default) sends no ACK;
 * - a flow to two hosts with a window of W packets per destination keeps W packets out to each:
 *   2 W packets per round trip, against W with one window per flow; the combination with
 *   message windows or coalesced ACKs refused;
 * - a flow to a near and a far host is a connection to each: an ACK from the near host frees
 *   only what it acknowledges, so the packets on their way to the far host never exceed the
 *   window (W packets per far round trip at most), with a window of messages or packets, ACKs
 *   per packet or per message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static void tset(struct testsim *s, const char *key, const char *value)
{
    char why[256];
    if (param_set(params_find(transport_params, key), &s->d.set, value, why, sizeof why)) {
        fprintf(stderr, "transport.%s=%s: %s\n", key, value, why);
        fail();
    }
}

#define DELAY (1000 * PS_PER_NS) /* 1 us cables: a long round trip against a packet time */

/* 4x QDR (32 Gb/s of data: 4 bytes per ns) both ways, 1 us cables, default settings. */
static void line(struct testsim *s)
{
    ts_init_line(s, "4xQDR", "4xQDR", DELAY);
}

/* Round trip of an MTU packet and its ACK on the line, ps. */
static double rtt_ps(const struct testsim *s, uint32_t ack_wire)
{
    double byte_ps = 1000.0 * 8 / 32.0;
    double data = (double)pkt_wire_bytes((uint32_t)s->d.set.mtu, 0) * byte_ps;
    return 2.0 * (2.0 * (double)DELAY + (double)s->d.set.switch_latency) + data + ack_wire * byte_ps;
}

static void test_ack_per_packet_and_per_message(void **st)
{
    (void)st;
    for (int per_msg = 0; per_msg < 2; per_msg++) {
        struct testsim s;
        line(&s);
        tset(&s, "mode", "rc");
        tset(&s, "ack", per_msg ? "message" : "packet");
        s.d.end = 200 * PS_PER_US;
        ts_flow(&s, "F", "H1", "H2", "poisson", "10 Gb/s", "5000 B", 0, 0); /* 3 packets each */
        ts_run(&s);
        struct flow *fl = ts_find(&s, "F");
        assert_int_equal(s.rep.outcome, RUN_DRAINED);
        assert_true(fl->rc.msg_begun > 20);
        uint64_t want = per_msg ? fl->rc.msg_begun : fl->st.pkts_sent;
        printf("ack per %s: %llu ACKs for %llu packets, %u messages\n", per_msg ? "message" : "packet",
               (unsigned long long)fl->rc.x->acks, (unsigned long long)fl->st.pkts_sent, fl->rc.msg_begun);
        assert_int_equal(fl->rc.x->acks, want);
        assert_int_equal(s.f.cnt.acks_created, want);
        assert_int_equal(fl->st.pkts_sent, 3ull * fl->rc.msg_begun);
        assert_int_equal(fl->rc.psn_acked, fl->st.pkts_sent);
        assert_int_equal(fl->rc.msg_acked, fl->rc.msg_begun);
        /* ACKs are wire packets: H2's port sent them, 30 bytes each (LRH+BTH+AETH+ICRC+VCRC). */
        const struct port *h2 = s.f.hosts[1].port;
        assert_int_equal(h2->vl[0].ctr.xmit_pkts, want);
        assert_int_equal(h2->vl[0].ctr.xmit_bytes, 30 * want);
        ts_free(&s);
    }
}

static void test_ud_sends_no_ack(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    s.d.end = 100 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    assert_int_equal(s.f.cnt.acks_created, 0);
    assert_int_equal(s.f.cnt.ctrl_created, 0);
    assert_int_equal(s.f.hosts[1].port->vl[0].ctr.xmit_pkts, 0);
    ts_free(&s);
}

/* Payload throughput of a saturating flow with a window, measured after a warm-up. */
static double window_gbps(const char *window, const char *unit, const char *ack, const char *msg,
                          struct testsim *s)
{
    line(s);
    tset(s, "mode", "rc");
    tset(s, "ack", ack);
    tset(s, "window", window);
    tset(s, "window_unit", unit);
    s->d.warmup = 50 * PS_PER_US;
    s->d.end = s->d.warmup + 2 * PS_PER_MS;
    ts_flow(s, "F", "H1", "H2", "saturate", NULL, msg, 0, 0);
    ts_run(s);
    return ts_gbps(s, "F");
}

static void test_window_packets_limits_to_w_per_rtt(void **st)
{
    (void)st;
    const int ws[] = { 1, 2, 4, 7 };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        struct testsim s;
        char w[16];
        snprintf(w, sizeof w, "%d", ws[i]);
        double got = window_gbps(w, "packets", "packet", "64 KiB", &s);
        double rtt = rtt_ps(&s, 30);
        double expect = ws[i] * 2048 * 8.0 / rtt * 1e3; /* bits per ps -> Gb/s */
        printf("window %d packets: RTT %.1f ns, expect %.4f Gb/s, got %.4f\n", ws[i], rtt / 1e3,
               expect, got);
        /* 2 ms hold about 420 round trips: whole packets in the window quantise by 1/420W. */
        assert_true(fabs(got - expect) / expect < 3e-3);
        ts_free(&s);
    }
    /* A window larger than the bandwidth-delay product: the link's rate. */
    struct testsim s;
    double got = window_gbps("16", "packets", "packet", "64 KiB", &s);
    double link = 32.0 * 2048 / pkt_wire_bytes(2048, 0);
    printf("window 16 packets: link %.4f Gb/s, got %.4f\n", link, got);
    assert_true(16 * (pkt_wire_bytes(2048, 0) * 250.0) > rtt_ps(&s, 30));
    assert_true(fabs(got - link) / link < 1e-3);
    ts_free(&s);
}

/* W messages of two packets each, ACK per message: message k + W starts when the ACK of message
 * k's last packet arrives, one packet time + RTT after k started. */
static void test_window_messages(void **st)
{
    (void)st;
    for (int w = 1; w <= 3; w++) {
        struct testsim s;
        char ws[8];
        snprintf(ws, sizeof ws, "%d", w);
        double got = window_gbps(ws, "messages", "message", "4096 B", &s);
        double t = pkt_wire_bytes(2048, 0) * 250.0;
        double expect = w * 4096 * 8.0 / (t + rtt_ps(&s, 30)) * 1e3;
        printf("window %d messages: expect %.4f Gb/s, got %.4f\n", w, expect, got);
        assert_true(fabs(got - expect) / expect < 3e-3);
        ts_free(&s);
    }
}

/* Two saturating flows in opposite directions, ACK per packet, no window: each link carries
 * one flow's data and the other's ACKs, so each flow gets rate x 2048 / (2074 + ACK bytes). */
static void test_acks_consume_reverse_bandwidth(void **st)
{
    (void)st;
    const char *sizes[] = { "0 B", "64 B" };
    const int wire[] = { 30, 64 };
    for (int i = 0; i < 2; i++) {
        struct testsim s;
        line(&s);
        tset(&s, "mode", "rc");
        tset(&s, "ack_bytes", sizes[i]);
        s.d.warmup = 50 * PS_PER_US;
        s.d.end = s.d.warmup + 2 * PS_PER_MS;
        ts_flow(&s, "AB", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
        ts_flow(&s, "BA", "H2", "H1", "saturate", NULL, "64 KiB", 0, 0);
        ts_run(&s);
        double expect = 32.0 * 2048 / (pkt_wire_bytes(2048, 0) + wire[i]);
        double ab = ts_gbps(&s, "AB"), ba = ts_gbps(&s, "BA");
        printf("two-way, %d-byte ACKs: expect %.4f Gb/s each, got %.4f and %.4f\n", wire[i], expect,
               ab, ba);
        assert_true(fabs(ab - expect) / expect < 1e-3);
        assert_true(fabs(ba - expect) / expect < 1e-3);
        ts_free(&s);
    }
}

/* ack_sl: ACKs on SL 1 travel on VL 1 (two VLs, SL mod 2), the data on VL 0. */
static void test_ack_sl_and_vl(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    char why[128];
    assert_int_equal(param_set(params_find(fabric_params, "vls"), &s.d.set, "2", why, sizeof why), 0);
    struct qos_desc q;
    qos_desc_defaults(&q);
    assert_int_equal(qos_apply(&q, &s.d.set, &s.err), 0); /* SL mod 2, both VLs weighted */
    params_free(qos_params, &q);
    tset(&s, "mode", "rc");
    tset(&s, "ack_sl", "1");
    s.d.end = 100 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    struct flow *fl = ts_find(&s, "F");
    const struct port *h2 = s.f.hosts[1].port;
    assert_int_equal(h2->vl[0].ctr.xmit_pkts, 0);
    assert_int_equal(h2->vl[1].ctr.xmit_pkts, fl->st.pkts_sent);
    assert_int_equal(fl->rc.x->acks, fl->st.pkts_sent);
    ts_free(&s);
}

/* PortXmitWait counts a control packet waiting for credits on a data VL: H2 only receives
 * (from H1) and answers each packet with an ACK on the data VL; its ACKs to H1 share the
 * switch's output to H1 with H3's and H4's saturating data (one turn in three of the round
 * robin, about one ACK per two data packet times against one made per packet time), so they
 * back up until H2's input buffer at the switch (4 KiB: 64 ACKs) is full and H2's port waits for credits with no data flow of its own.
 * Its wait must count (before, only a data flow's wait did: 0), stay below the run's length,
 * and end by the drain (the run's invariants). */
static void test_ack_waiting_counts_xmit_wait(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4,link=4xQDR");
    tset(&s, "mode", "rc");
    s.d.set.switch_buffer = 4096; /* 64 credits: two data packets, or 64 ACKs */
    s.d.end = 500 * PS_PER_US;
    ts_flow(&s, "AB", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_flow(&s, "CA", "H3", "H1", "saturate", NULL, "64 KiB", 0, 0);
    ts_flow(&s, "DA", "H4", "H1", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_true(s.rep.invariants_ok);
    const struct port *h2 = NULL;
    for (int i = 0; i < s.f.nhosts; i++)
        if (!strcmp(s.f.hosts[i].port->node->name, "H2"))
            h2 = s.f.hosts[i].port;
    assert_non_null(h2);
    simtime_t wait = h2->vl[0].ctr.xmit_wait;
    printf("H2: %llu ACKs sent for %llu packets of AB, PortXmitWait %.1f us of a %.1f us run\n",
           (unsigned long long)h2->vl[0].ctr.xmit_pkts, (unsigned long long)ts_find(&s, "AB")->st.pkts_sent, (double)wait / PS_PER_US,
           (double)s.f.now / PS_PER_US);
    assert_true(h2->vl[0].ctr.xmit_pkts > 500);
    assert_true(wait > 10 * PS_PER_US);
    assert_true(wait < s.f.now);
    ts_free(&s);
}

/* H1, H2, H3 on one switch (4x QDR, 1 us cables): H1 sends 2048-byte messages to uniformly
 * random others (H2, H3). */
static void star3(struct testsim *s, const char *per, const char *ack)
{
    ts_init_star(s, 3, DELAY, NULL);
    tset(s, "mode", "rc");
    tset(s, "ack", ack);
    tset(s, "window", "2");
    tset(s, "window_per", per);
    tset(s, "window_held", "1000"); /* never all taken: a message for each host is at hand */
    s->d.warmup = 50 * PS_PER_US;
    s->d.end = s->d.warmup + 2 * PS_PER_MS;
    ts_flow(s, "F", "H1", "uniform", "saturate", NULL, "2048 B", 0, 0);
}

static void test_window_per_destination(void **st)
{
    (void)st;
    double got[2];
    const char *per[2] = { "flow", "destination" };
    struct testsim s;
    for (int k = 0; k < 2; k++) {
        star3(&s, per[k], "packet");
        ts_run(&s);
        got[k] = ts_gbps(&s, "F");
        double expect = (k ? 4 : 2) * 2048 * 8.0 / rtt_ps(&s, 30) * 1e3;
        printf("window 2 per %s, two destinations: expect %.4f Gb/s, got %.4f\n", per[k], expect,
               got[k]);
        assert_true(fabs(got[k] - expect) / expect < 5e-3);
        ts_free(&s);
    }
    star3(&s, "destination", "message");
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), -1);
    printf("per destination, ACK per message: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "ack = packet"));
    ts_free(&s);
}

/* H1 sends saturating 1- or 2-packet messages to uniformly random H2 (10 ns cable) and H3
 * (20 us cable: a round trip of 40.5 us against 0.7 us to H2) under one window per flow. A
 * packet to H3 holds its place in the window for a far round trip at least, so in T no more than
 * Wp (T / RTT_far + 1) packets reach H3, Wp being the window in packets; and as the window's
 * places cycle through holds of 40.5 us (to H3) and about 1 us (to H2), each place is busy with
 * H3 for 97 % of the time: with one-packet messages H3 gets at least 0.9 Wp T / RTT_far. An ACK
 * from H2 that also freed the flow's earlier packets still on their way to H3 (a cumulative
 * ACK over the flow's one sequence, as before) lets more reach H3 than the bound (133 against
 * 100 with two one-packet messages). */
static void test_window_covers_only_its_connection(void **st)
{
    (void)st;
    const struct { const char *unit, *ack, *msg; int wp; double low; } c[] = {
        { "messages", "message", "2048 B", 2, 0.9 },
        { "packets", "packet", "2048 B", 2, 0.9 },
        { "packets", "message", "4096 B", 4, 0.5 }, /* a message waits for 2 free places */
        { "messages", "packet", "4096 B", 4, 0.9 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct testsim s;
        const simtime_t delay[3] = { 10 * PS_PER_NS, 10 * PS_PER_NS, 20 * PS_PER_US };
        ts_init_star(&s, 3, 0, delay);
        tset(&s, "mode", "rc");
        tset(&s, "ack", c[i].ack);
        tset(&s, "window", c[i].wp == 4 && !strcmp(c[i].unit, "packets") ? "4" : "2");
        tset(&s, "window_unit", c[i].unit);
        s.d.end = 2 * PS_PER_MS;
        ts_flow(&s, "F", "H1", "uniform", "saturate", NULL, c[i].msg, 0, 0);
        ts_run(&s);
        assert_true(s.rep.invariants_ok);
        double byte_ps = 1000.0 * 8 / 32.0;
        double rtt = 2.0 * ((double)delay[0] + (double)delay[2] + (double)s.d.set.switch_latency) +
                     (pkt_wire_bytes(2048, 0) + 30) * byte_ps;
        double far = (double)s.f.hosts[2].port->vl[0].ctr.rcv_pkts, bound = c[i].wp * ((double)s.d.end / rtt + 1);
        printf("window %s, ACK per %s, %s messages: %.0f packets reached H3 (at most %.1f, at "
               "least %.1f), %llu H2\n", c[i].unit, c[i].ack, c[i].msg, far, bound,
               c[i].low * c[i].wp * (double)s.d.end / rtt,
               (unsigned long long)s.f.hosts[1].port->vl[0].ctr.rcv_pkts);
        assert_true(far <= bound);
        assert_true(far >= c[i].low * c[i].wp * (double)s.d.end / rtt);
        ts_free(&s);
    }
}

static void test_bad_settings(void **st)
{
    (void)st;
    struct fabric_settings set;
    fabric_settings_defaults(&set);
    char why[256];
    assert_int_equal(param_set(params_find(transport_params, "window"), &set, "0", why, sizeof why), -1);
    printf("window 0: %s\n", why);
    assert_non_null(strstr(why, "never"));
    assert_int_equal(param_set(params_find(transport_params, "ack_bytes"), &set, "4 B", why, sizeof why), -1);
    printf("ack_bytes 4: %s\n", why);
    assert_non_null(strstr(why, "LRH"));
    set.ack_bytes = 0;
    assert_int_equal(param_set(params_find(transport_params, "mode"), &set, "uc", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(transport_params, "ack_sl"), &set, "16", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(transport_params, "window"), &set, "8", why, sizeof why), 0);
    assert_int_equal(transport_ack_wire(&set), 30);
    set.grh = 1;
    assert_int_equal(transport_ack_wire(&set), 70);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ack_per_packet_and_per_message),
        cmocka_unit_test(test_ud_sends_no_ack),
        cmocka_unit_test(test_ack_waiting_counts_xmit_wait),
        cmocka_unit_test(test_window_packets_limits_to_w_per_rtt),
        cmocka_unit_test(test_window_messages),
        cmocka_unit_test(test_acks_consume_reverse_bandwidth),
        cmocka_unit_test(test_ack_sl_and_vl),
        cmocka_unit_test(test_window_per_destination),
        cmocka_unit_test(test_window_covers_only_its_connection),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

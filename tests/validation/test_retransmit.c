/* test_retransmit.c: go-back-N retransmission of the reliable connection (src/fabric/transport.c)
 * against first principles, on a line H1 -- S1 -- H2 (4x QDR, 1 us cables) unless said:
 * - every N-th data packet lost at S1 (switch.loss_every), a window of W packets with W packet
 *   times shorter than the round trip: each loss is followed by a packet past the gap, so the
 *   responder sends one NAK per loss and the requester, its window full when the NAK arrives,
 *   sends exactly the W packets from the lost PSN to the last sent again: retransmitted = W x
 *   losses, NAKs = losses, no timeout; losses = (first sendings + retransmissions) / N; every
 *   packet accepted once, in PSN and message order (the end-of-run invariants check it too);
 * - the last packet of a message lost: no packet follows, no NAK; the Local ACK Timeout
 *   (4.096 us x 2^timeout) sends it again, T after the ACK of the packet before it arrived;
 * - a timeout shorter than the round trip: the packet is sent again at T and 2 T, the copies
 *   arrive as duplicates, are discarded and acknowledged again;
 * - every packet lost: retry_cnt + 1 timeouts T apart, retry_cnt retransmissions, then the
 *   queue pair goes to the error state (warned, counted) and the run still ends cleanly;
 * - congestion drops (switch.hoq_life) under RC: every message delivered once;
 * - random losses (switch.loss): every message delivered once, the same counts on a rerun;
 * - every flow's packets made (sent, sent again) and gone (delivered, lost, discarded) balance,
 *   and the end-of-run check says which flow does not;
 * - UD loses packets for good (counted), RC refuses retransmit = off with losses, a flow to
 *   many hosts, and out-of-range timeout / retry_cnt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static void set(struct testsim *s, const struct param *table, const char *key, const char *value)
{
    char why[256];
    if (param_set(params_find(table, key), &s->d.set, value, why, sizeof why)) {
        fprintf(stderr, "%s=%s: %s\n", key, value, why);
        fail();
    }
}
#define TSET(s, k, v) set(s, transport_params, k, v)
#define SSET(s, k, v) set(s, switch_params, k, v)

#define DELAY (1000 * PS_PER_NS)
#define T_PKT (2074 * 250) /* an MTU packet on 4x QDR, ps */

static void line(struct testsim *s)
{
    ts_init_line(s, "4xQDR", "4xQDR", DELAY);
    TSET(s, "mode", "rc");
    TSET(s, "ack", "packet");
}

/* Every packet the flow made was accepted once, in order, and acknowledged. */
static void assert_all_delivered(struct testsim *s, const struct flow *fl)
{
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
    assert_true(s->rep.invariants_ok);
    assert_int_equal(fl->rc.x->nconn, 1);
    assert_int_equal(fl->rc.x->conn[0].epsn, fl->rc.psn_next);
    assert_int_equal(fl->rc.psn_acked, fl->rc.psn_next);
    assert_int_equal(fl->rc.x->conn[0].emsg, fl->msg_seq);
    assert_int_equal(fl->rc.msg_acked, fl->rc.msg_begun);
    assert_int_equal(s->f.cnt.misordered, 0);
    assert_int_equal(fl->st.pkts_sent, fl->rc.psn_next);
    assert_int_equal(fl->in_fabric, 0); /* every packet made, resent or not, is gone */
}

/* The end-of-run check keeps each flow's balance of packets made and gone, not only the
 * fabric's: two flows with losses, retransmissions and discards balance each; a packet put
 * down to the wrong flow (the totals unchanged) breaks it, and so does a packet left over in a
 * drained fabric, while a run stopped before the drain may have packets in flight. */
static void test_flow_balance_invariant(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    TSET(&s, "window", "4");
    SSET(&s, "loss_every", "23");
    s.d.end = PS_PER_MS;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "8 KiB", 0, 0);
    ts_flow(&s, "G", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    struct flow *a = ts_find(&s, "F"), *b = ts_find(&s, "G");
    assert_true(s.f.cnt.dropped_loss > 10 && s.f.cnt.discarded > 10);
    assert_all_delivered(&s, a);
    assert_all_delivered(&s, b);
    assert_int_equal(fabric_check_invariants(&s.f, 1, &s.rep), 0);
    a->in_fabric++; /* one of G's deliveries put down to F */
    b->in_fabric--;
    assert_int_equal(fabric_check_invariants(&s.f, 1, &s.rep), -1);
    printf("%s", s.rep.violations);
    assert_non_null(strstr(s.rep.violations, "flow F: 1 made and never gone"));
    assert_non_null(strstr(s.rep.violations, "flow G: 1 more gone"));
    assert_null(strstr(s.rep.violations, "created")); /* the totals still balance */
    b->in_fabric++;
    /* Before the drain F's extra packet could be on its way. */
    assert_int_equal(fabric_check_invariants(&s.f, 0, &s.rep), 0);
    assert_int_equal(fabric_check_invariants(&s.f, 1, &s.rep), -1);
    a->in_fabric--;
    assert_int_equal(fabric_check_invariants(&s.f, 1, &s.rep), 0);
    ts_free(&s);
}

static void test_go_back_n_counts(void **st)
{
    (void)st;
    const int ws[] = { 2, 4, 8 };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        struct testsim s;
        line(&s);
        char w[8];
        snprintf(w, sizeof w, "%d", ws[i]);
        TSET(&s, "window", w);
        TSET(&s, "timeout", "10"); /* 4.19 ms: never reached here */
        SSET(&s, "loss_every", "37");
        s.d.end = 2 * PS_PER_MS;
        ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
        ts_run(&s);
        struct flow *fl = ts_find(&s, "F");
        uint64_t sent = fl->st.pkts_sent + fl->rc.x->resent, lost = s.f.cnt.dropped_loss;
        printf("window %d: %llu packets (%u messages), %llu lost, %llu NAKs, %llu sent again, "
               "%llu timeouts, %llu discarded\n", ws[i], (unsigned long long)fl->st.pkts_sent,
               fl->msg_seq, (unsigned long long)lost, (unsigned long long)fl->rc.x->naks,
               (unsigned long long)fl->rc.x->resent, (unsigned long long)fl->rc.x->timeouts,
               (unsigned long long)s.f.cnt.discarded);
        /* The window is full when the NAK arrives: the packet after the lost one leaves T
         * after it and reaches H2 2 d + L + T later, its NAK takes 2 d + L + T_ack back, while
         * the window takes W T to send: (W - 2) T <= 2 (2 d + L) + T_ack. */
        assert_true((ws[i] - 2) * (double)T_PKT <=
                    2.0 * (2.0 * DELAY + (double)s.d.set.switch_latency) + 30 * 250.0);
        assert_all_delivered(&s, fl);
        assert_true(lost >= 10);
        assert_int_equal(lost, sent / 37);
        assert_int_equal(fl->rc.x->timeouts, 0);
        assert_int_equal(fl->rc.x->naks, lost);
        assert_int_equal(s.f.cnt.naks_created, lost);
        assert_int_equal(fl->rc.x->resent, (uint64_t)ws[i] * lost);
        /* The responder discards the W - 1 packets behind each loss, no duplicate. */
        assert_int_equal(s.f.cnt.discarded, (uint64_t)(ws[i] - 1) * lost);
        assert_int_equal(fl->rc.x->dups, 0);
        /* ACKs: one per accepted packet. */
        assert_int_equal(s.f.cnt.acks_created, fl->rc.psn_next);
        ts_free(&s);
    }
}

/* One message of three packets, the third lost: the two ACKs come back, nothing follows the
 * loss, the timeout sends PSN 2 again T after the ACK of PSN 1 arrived. */
static void test_tail_loss_timeout(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    TSET(&s, "timeout", "2"); /* 16.384 us */
    SSET(&s, "loss_every", "3");
    s.d.end = 200 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "6144 B", 0, 1); /* stops at once: one message */
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    assert_all_delivered(&s, fl);
    assert_int_equal(fl->msg_seq, 1);
    assert_int_equal(fl->rc.psn_next, 3);
    assert_int_equal(s.f.cnt.dropped_loss, 1);
    assert_int_equal(fl->rc.x->naks, 0);
    assert_int_equal(fl->rc.x->timeouts, 1);
    assert_int_equal(fl->rc.x->resent, 1);
    assert_int_equal(fl->st.msgs_delivered, 1);
    /* PSN 1 leaves at T_PKT, reaches H2 at 2 T_PKT + 2 d + L (cut-through: its tail follows its
     * head by T_PKT), its ACK (30 bytes) is back at H1 2 d + L + T_ack later; T later PSN 2 goes
     * again and arrives 2 d + L + T_PKT after that. */
    double L = (double)s.d.set.switch_latency, d = DELAY, t_ack = 30 * 250.0, T = 16384.0 * PS_PER_NS;
    double ack1 = 2 * T_PKT + 2 * d + L + 2 * d + L + t_ack;
    double expect = ack1 + T + 2 * d + L + T_PKT;
    double got = (double)flow_msg_latency(&fl->st)->max;
    printf("tail loss: message delivered after %.3f us, expected %.3f us\n", got / 1e6, expect / 1e6);
    assert_true(fabs(got - expect) < 1.0 * PS_PER_NS);
    ts_free(&s);
}

/* A timeout shorter than the round trip, nothing lost: one packet on 5 us cables (RTT about
 * 20.7 us), T = 8.192 us. The requester times out at T and 2 T and sends the packet again each
 * time; the original's ACK arrives before the third expiry and acknowledges it; the two copies
 * reach the responder as duplicates, are discarded and acknowledged again (stale ACKs that
 * change nothing). */
static void test_early_timeout_duplicates(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", 5000 * PS_PER_NS);
    TSET(&s, "mode", "rc");
    TSET(&s, "retransmit", "on");
    TSET(&s, "timeout", "1");
    s.d.end = 100 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "2048 B", 0, 1); /* one message, one packet */
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    double rtt = 2.0 * (2.0 * 5000 * PS_PER_NS + (double)s.d.set.switch_latency) + T_PKT + 30 * 250.0;
    printf("early timeout: RTT %.3f us, T 8.192 us: %llu timeouts, %llu sent again, %llu duplicates, "
           "%llu ACKs\n", rtt / 1e6, (unsigned long long)fl->rc.x->timeouts,
           (unsigned long long)fl->rc.x->resent, (unsigned long long)fl->rc.x->dups,
           (unsigned long long)s.f.cnt.acks_created);
    assert_true(rtt > 2 * 8192.0 * PS_PER_NS && rtt < 3 * 8192.0 * PS_PER_NS);
    assert_all_delivered(&s, fl);
    assert_int_equal(fl->rc.psn_next, 1);
    assert_int_equal(fl->rc.x->timeouts, 2);
    assert_int_equal(fl->rc.x->resent, 2);
    assert_int_equal(fl->rc.x->dups, 2);
    assert_int_equal(s.f.cnt.discarded, 2);
    assert_int_equal(s.f.cnt.acks_created, 3);
    assert_int_equal(fl->rc.x->acks, 3);
    assert_int_equal(s.f.cnt.naks_created, 0);
    ts_free(&s);
}

/* Every packet lost: retry_cnt + 1 timeouts, T apart, then the error state. */
static void test_retries_exhausted(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    TSET(&s, "timeout", "1"); /* 8.192 us */
    TSET(&s, "retry_cnt", "3");
    TSET(&s, "window", "1");
    SSET(&s, "loss_every", "1");
    s.d.end = 200 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "2048 B", 0, 0);
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    printf("every packet lost: %llu timeouts, %llu sent again, %llu lost, error: %d; warning: %s\n",
           (unsigned long long)fl->rc.x->timeouts, (unsigned long long)fl->rc.x->resent,
           (unsigned long long)s.f.cnt.dropped_loss, fl->rc.x->failed, s.f.nwarn ? s.f.warn[0] : "-");
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_true(s.rep.invariants_ok);
    assert_int_equal(fl->rc.x->failed, RC_RETRY_EXC_ERR);
    assert_int_equal(s.f.cnt.qp_errors, 1);
    assert_int_equal(s.f.cnt.retry_exc, 1);
    assert_int_equal(fl->rc.x->timeouts, 4);
    assert_int_equal(fl->rc.x->resent, 3);
    assert_int_equal(s.f.cnt.dropped_loss, 4);
    assert_int_equal(fl->st.pkts_delivered, 0);
    assert_int_equal(s.f.nwarn, 1);
    assert_non_null(strstr(s.f.warn[0], "error state"));
    ts_free(&s);
}

/* IBA's retry counter counts NAK-driven retries as it counts timeouts (rxe, hfi1). A 3-packet
 * message, an ACK per message, every 2nd data packet arriving at S1 lost: PSN 1 is lost, PSN 2
 * gets the NAK (retry 1: PSN 1 and 2 sent again), and from then on every PSN 1 sent again is
 * the lost one (an even arrival) and PSN 2 behind it is discarded without a second NAK (one
 * per expected PSN): only timeouts follow, each a retry, until retry_cnt retries are used: then
 * the next needed one puts the QP in the error state. NAKs = 1, timeouts = retry_cnt (where
 * NAKs that did not count would give retry_cnt + 1), resent = 2 retry_cnt, nothing delivered
 * but PSN 0 (no message). */
static void test_nak_counts_as_retry(void **st)
{
    (void)st;
    for (int rc = 1; rc <= 3; rc++) {
        struct testsim s;
        line(&s);
        char r[4];
        snprintf(r, sizeof r, "%d", rc);
        TSET(&s, "ack", "message");
        TSET(&s, "timeout", "1"); /* 8.192 us */
        TSET(&s, "retry_cnt", r);
        SSET(&s, "loss_every", "2");
        s.d.end = 200 * PS_PER_US;
        ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "6144 B", 0, 1); /* one message */
        ts_run(&s);
        struct flow *fl = ts_find(&s, "F");
        printf("retry_cnt %d: %llu NAKs, %llu timeouts, %llu sent again, error %s; %s\n", rc,
               (unsigned long long)fl->rc.x->naks, (unsigned long long)fl->rc.x->timeouts,
               (unsigned long long)fl->rc.x->resent, transport_error_name(fl->rc.x->failed),
               s.f.nwarn ? s.f.warn[0] : "-");
        assert_int_equal(s.rep.outcome, RUN_DRAINED);
        assert_true(s.rep.invariants_ok);
        assert_int_equal(fl->rc.x->naks, 1);
        assert_int_equal(fl->rc.x->timeouts, rc);
        assert_int_equal(fl->rc.x->resent, 2 * rc);
        assert_int_equal(fl->rc.x->failed, RC_RETRY_EXC_ERR);
        assert_int_equal(s.f.cnt.qp_errors, 1);
        assert_int_equal(s.f.cnt.retry_exc, 1);
        assert_int_equal(fl->rc.x->conn[0].epsn, 1);
        assert_int_equal(fl->st.msgs_delivered, 0);
        assert_non_null(strstr(s.f.warn[0], "IBV_WC_RETRY_EXC_ERR"));
        ts_free(&s);
    }
}

/* NAK sequence errors alone exhaust the counter when nothing resets it: a 64-packet message,
 * an ACK per message (no positive ACK inside it), no window, every 5th data packet lost. Each
 * loss of an expected packet is followed by packets in flight, so it brings a NAK; none
 * completes the message, so the (retry_cnt + 1)-th NAK finds no retry left: NAKs = retry_cnt
 * + 1, no timeout. With an ACK per packet the accepted packets' ACKs reset the counter and the
 * same losses deliver the message (more NAKs than retry_cnt + 1, no error). */
static void test_naks_exhaust_retries(void **st)
{
    (void)st;
    for (int per_packet = 0; per_packet <= 1; per_packet++) {
        struct testsim s;
        line(&s);
        TSET(&s, "ack", per_packet ? "packet" : "message");
        TSET(&s, "timeout", "10");
        TSET(&s, "retry_cnt", "3");
        SSET(&s, "loss_every", "5");
        s.d.end = 500 * PS_PER_US;
        ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "128 KiB", 0, 1); /* one message */
        ts_run(&s);
        struct flow *fl = ts_find(&s, "F");
        printf("64 packets, every 5th lost, ACK per %s: %llu lost, %llu NAKs, %llu timeouts, %llu "
               "sent again, error %s\n", per_packet ? "packet" : "message",
               (unsigned long long)s.f.cnt.dropped_loss, (unsigned long long)fl->rc.x->naks,
               (unsigned long long)fl->rc.x->timeouts, (unsigned long long)fl->rc.x->resent,
               transport_error_name(fl->rc.x->failed));
        assert_int_equal(s.rep.outcome, RUN_DRAINED);
        assert_true(s.rep.invariants_ok);
        assert_int_equal(fl->rc.x->timeouts, 0);
        if (per_packet) {
            assert_all_delivered(&s, fl);
            assert_true(fl->rc.x->naks > 4 && fl->rc.x->naks <= s.f.cnt.dropped_loss);
            assert_int_equal(s.f.cnt.qp_errors, 0);
        } else {
            assert_int_equal(fl->rc.x->naks, 4);
            assert_int_equal(fl->rc.x->failed, RC_RETRY_EXC_ERR);
            assert_int_equal(s.f.cnt.retry_exc, 1);
            assert_int_equal(fl->st.msgs_delivered, 0);
        }
        ts_free(&s);
    }
}

/* H1 and H2 saturate H3, whose sink takes half the link: H3's switch port backs up and the
 * Head-of-Queue Lifetime (HV 0: 4.096 us) drops packets. RC delivers every message once. */
static void test_hoq_drops_recovered(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_star(&s, 3, DELAY, NULL);
    s.d.end = 500 * PS_PER_US;
    TSET(&s, "mode", "rc");
    TSET(&s, "timeout", "4");
    SSET(&s, "hoq_life", "0");
    set(&s, hca_params, "sink_limit", "4 Gb/s");
    ts_flow(&s, "A", "H1", "H3", "saturate", NULL, "16 KiB", 0, 0);
    ts_flow(&s, "B", "H2", "H3", "saturate", NULL, "16 KiB", 0, 0);
    ts_run(&s);
    uint64_t resent = 0;
    for (int k = 0; k < 2; k++) {
        struct flow *fl = ts_find(&s, k ? "B" : "A");
        assert_all_delivered(&s, fl);
        resent += fl->rc.x->resent;
    }
    printf("HoQ drops under RC: %llu dropped, %llu sent again, %llu NAKs, %llu timeouts\n",
           (unsigned long long)s.f.cnt.dropped_hoq, (unsigned long long)resent,
           (unsigned long long)s.f.cnt.naks_created,
           (unsigned long long)(ts_find(&s, "A")->rc.x->timeouts + ts_find(&s, "B")->rc.x->timeouts));
    assert_true(s.f.cnt.dropped_hoq > 0);
    assert_true(resent >= s.f.cnt.dropped_hoq);
    ts_free(&s);
}

/* Random losses of 1 %: everything delivered, and the same numbers on a second run. */
static void test_random_loss_deterministic(void **st)
{
    (void)st;
    uint64_t got[2][3];
    for (int run = 0; run < 2; run++) {
        struct testsim s;
        line(&s);
        TSET(&s, "window", "32");
        TSET(&s, "timeout", "3");
        SSET(&s, "loss", "0.01");
        s.d.end = 300 * PS_PER_US;
        ts_flow(&s, "F", "H1", "H2", "poisson", "20 Gb/s", "8 KiB", 0, 0);
        ts_flow(&s, "G", "H2", "H1", "poisson", "20 Gb/s", "4 KiB", 0, 0);
        ts_run(&s);
        for (int k = 0; k < 2; k++) {
            struct flow *fl = ts_find(&s, k ? "G" : "F");
            assert_all_delivered(&s, fl);
        }
        got[run][0] = s.f.cnt.dropped_loss;
        got[run][1] = ts_find(&s, "F")->rc.x->resent + ts_find(&s, "G")->rc.x->resent;
        got[run][2] = s.f.cnt.created;
        printf("1 %% loss: %llu lost of %llu data packets, %llu sent again\n",
               (unsigned long long)got[run][0],
               (unsigned long long)(ts_find(&s, "F")->st.pkts_sent + ts_find(&s, "G")->st.pkts_sent),
               (unsigned long long)got[run][1]);
        assert_true(got[run][0] > 5);
        ts_free(&s);
    }
    assert_memory_equal(got[0], got[1], sizeof got[0]);
}

/* A switch S1 with hosts H1..Hn (4x QDR, 1 us cables), minhop routes, RC. */
static void star(struct testsim *s, int n)
{
    ts_init_star(s, n, DELAY, NULL);
    TSET(s, "mode", "rc");
}

/* Every connection of a flow to many hosts accepted every PSN sent on it once, in order, and
 * saw it acknowledged; the connections' PSNs add up to the flow's packets. */
static void assert_conns_delivered(struct testsim *s, const struct flow *fl, int used)
{
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
    assert_true(s->rep.invariants_ok);
    assert_int_equal(fl->rc.x->nconn, s->f.nhosts);
    uint32_t psns = 0, msgs = 0;
    int n = 0;
    for (uint32_t k = 0; k < fl->rc.x->nconn; k++) {
        const struct rc_conn *c = &fl->rc.x->conn[k];
        assert_int_equal(c->epsn, c->psn_next);
        assert_int_equal(c->psn_acked, c->psn_next);
        assert_int_equal(c->rmsgs, c->msgs_made);
        psns += c->psn_next;
        msgs += c->rmsgs;
        n += c->psn_next > 0;
    }
    assert_int_equal(n, used);
    assert_int_equal(psns, fl->rc.psn_next);
    assert_int_equal(msgs, fl->msg_seq);
    assert_int_equal(fl->rc.psn_acked, fl->rc.psn_next);
    assert_int_equal(s->f.cnt.misordered, 0);
}

/* A flow from H1 to H2 and H3 (uniform), one-packet messages, a window of W packets per
 * destination (a queue pair each), every 37th data packet lost. Each destination's PSNs are a
 * sequence of their own: a loss on one is answered by a NAK from that destination only and the
 * requester goes back N on that connection only. The flow fills both windows in 2 W packet
 * times, less than the time the NAK takes to come back ((2 W - 2) T <= 2 (2 d + L) + T_ack),
 * and with enough slots to set messages aside it never waits while a window has room, so each
 * destination's window is full when its NAK arrives: resent = W x losses, NAKs = losses,
 * discarded = (W - 1) x losses, no timeout, and the PSNs of both connections add up. */
static void test_many_destinations_counts(void **st)
{
    (void)st;
    const int ws[] = { 2, 3, 4, 5 };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        struct testsim s;
        star(&s, 3);
        char w[8];
        snprintf(w, sizeof w, "%d", ws[i]);
        TSET(&s, "window", w);
        TSET(&s, "window_per", "destination");
        TSET(&s, "window_held", "1000"); /* never a reason to wait with room in a window */
        TSET(&s, "timeout", "10"); /* 4.19 ms: never reached here */
        SSET(&s, "loss_every", "37");
        s.d.end = 2 * PS_PER_MS;
        ts_flow(&s, "F", "H1", "uniform", "saturate", NULL, "2048 B", 0, 0);
        ts_run(&s);
        struct flow *fl = ts_find(&s, "F");
        uint64_t sent = fl->st.pkts_sent + fl->rc.x->resent, lost = s.f.cnt.dropped_loss;
        printf("H1 to H2, H3, window %d per destination: %llu packets (%u to H2, %u to H3), %llu lost, "
               "%llu NAKs, %llu sent again, %llu timeouts, %llu discarded\n", ws[i],
               (unsigned long long)fl->st.pkts_sent, fl->rc.x->conn[1].psn_next, fl->rc.x->conn[2].psn_next,
               (unsigned long long)lost, (unsigned long long)fl->rc.x->naks,
               (unsigned long long)fl->rc.x->resent, (unsigned long long)fl->rc.x->timeouts,
               (unsigned long long)s.f.cnt.discarded);
        assert_true((2 * ws[i] - 2) * (double)T_PKT <=
                    2.0 * (2.0 * DELAY + (double)s.d.set.switch_latency) + 30 * 250.0);
        /* The last loss is not among the packets the flow sends as it stops (it would get fewer
         * followers, or a timeout): at least two windows' worth came after it. */
        printf("  packets after the last loss: %llu\n", (unsigned long long)(sent % 37));
        assert_true(sent % 37 >= 2 * (uint64_t)ws[i]);
        assert_conns_delivered(&s, fl, 2);
        assert_int_equal(fl->rc.x->conn[0].psn_next, 0); /* never to itself */
        assert_true(lost >= 20);
        assert_int_equal(lost, sent / 37);
        assert_int_equal(fl->rc.x->timeouts, 0);
        assert_int_equal(fl->rc.x->naks, lost);
        assert_int_equal(fl->rc.x->resent, (uint64_t)ws[i] * lost);
        assert_int_equal(s.f.cnt.discarded, (uint64_t)(ws[i] - 1) * lost);
        assert_int_equal(fl->rc.x->dups, 0);
        assert_int_equal(s.f.cnt.acks_created, fl->rc.psn_next);
        ts_free(&s);
    }
}

/* Seed 003's traffic over a lossy fabric: every host sends Poisson messages to uniformly
 * random others (a queue pair per destination), 1 % of the data packets lost, ACKs per
 * message and a window of messages per flow (as the host credits give one): every message of
 * every connection delivered once, in order; the same counts on a second run. */
static void test_many_destinations_random(void **st)
{
    (void)st;
    uint64_t got[2][4];
    for (int run = 0; run < 2; run++) {
        struct testsim s;
        star(&s, 4);
        TSET(&s, "ack", "message");
        TSET(&s, "window", "4");
        TSET(&s, "window_unit", "messages");
        TSET(&s, "timeout", "3");
        SSET(&s, "loss", "0.01");
        s.d.end = 600 * PS_PER_US;
        ts_flow(&s, "A", "H1", "uniform", "poisson", "10 Gb/s", "6 KiB", 0, 0);
        ts_flow(&s, "B", "H2", "uniform", "poisson", "10 Gb/s", "3 KiB", 0, 0);
        ts_flow(&s, "C", "H3", "uniform", "poisson", "10 Gb/s", "640 B", 0, 0);
        ts_run(&s);
        uint64_t resent = 0, msgs = 0;
        for (int k = 0; k < 3; k++) {
            struct flow *fl = ts_find(&s, k == 0 ? "A" : k == 1 ? "B" : "C");
            assert_conns_delivered(&s, fl, 3);
            assert_int_equal(fl->rc.msg_acked, fl->rc.msg_begun);
            resent += fl->rc.x->resent;
            msgs += fl->msg_seq;
        }
        got[run][0] = s.f.cnt.dropped_loss;
        got[run][1] = resent;
        got[run][2] = msgs;
        got[run][3] = s.f.cnt.created;
        printf("uniform, 1 %% loss: %llu messages, %llu lost, %llu sent again, %llu NAKs, %llu timeouts\n",
               (unsigned long long)msgs, (unsigned long long)got[run][0], (unsigned long long)resent,
               (unsigned long long)s.f.cnt.naks_created,
               (unsigned long long)(ts_find(&s, "A")->rc.x->timeouts + ts_find(&s, "B")->rc.x->timeouts +
                                    ts_find(&s, "C")->rc.x->timeouts));
        assert_true(got[run][0] > 5);
        ts_free(&s);
    }
    assert_memory_equal(got[0], got[1], sizeof got[0]);
}

/* IBA's Table 45, "Encoding for RNR NAK Timer Field", as the spec prints it (ms). */
static void test_rnr_timer_table(void **st)
{
    (void)st;
    static const char *const ms[32] = {
        "655.36", "0.01", "0.02", "0.03", "0.04", "0.06", "0.08", "0.12", "0.16", "0.24", "0.32",
        "0.48", "0.64", "0.96", "1.28", "1.92", "2.56", "3.84", "5.12", "7.68", "10.24", "15.36",
        "20.48", "30.72", "40.96", "61.44", "81.92", "122.88", "163.84", "245.76", "327.68", "491.52",
    };
    for (int code = 0; code < 32; code++) {
        char text[32], why[128];
        simtime_t t = 0;
        snprintf(text, sizeof text, "%s ms", ms[code]);
        assert_int_equal(units_parse_time(text, &t, why, sizeof why), 0);
        assert_int_equal(transport_rnr_timer(code), t);
    }
}

/* The RNR line: H1 -- S1 -- H2, one-packet messages (2048 B) from a saturating source with a
 * window of one packet, an ACK per packet; H2's queue pair holds rq_depth = 1 receive WQE and
 * its application posts one every I while none is posted. Message k is accepted at a_k (its
 * tail at H2); its ACK is back at H1 2 d + L + T_ack later and message k + 1 leaves at once,
 * arriving at a_k + RTT (RTT = 2 (2 d + L) + T_data + T_ack = 4726 ns). The WQE consumed at
 * a_k is replaced at a_k + I: if it is not there yet, an RNR NAK goes back, H1 waits the timer
 * T_rnr and sends the packet again, RTT + T_rnr after the attempt before. So each message after
 * the first takes n RNR NAKs, the least n with RTT + n (RTT + T_rnr) >= I, and is delivered
 * T_data + 2 d + L + n (RTT + T_rnr) after its creation (its first sending, at a_(k-1) + 2 d +
 * L + T_ack), the first message T_data + 2 d + L after its. */
struct rnr_case {
    const char *interval, *timer, *retry;
    int n;               /* RNR NAKs per message after the first */
};

static void rnr_line(struct testsim *s, const struct rnr_case *k, simtime_t end)
{
    line(s);
    TSET(s, "window", "1");
    TSET(s, "rq_depth", "1");
    TSET(s, "rq_post_interval", k->interval);
    TSET(s, "min_rnr_timer", k->timer);
    TSET(s, "rnr_retry", k->retry);
    TSET(s, "timeout", "14");
    s->d.end = end;
    ts_flow(s, "F", "H1", "H2", "saturate", NULL, "2048 B", 0, 0);
    ts_run(s);
}

static void test_rnr_backoff(void **st)
{
    (void)st;
    const double d = DELAY, L = 100.0 * PS_PER_NS, t_data = T_PKT, t_ack = 30 * 250.0;
    const double rtt = 2 * (2 * d + L) + t_data + t_ack;
    const struct rnr_case cases[] = {
        { "15 us", "1", "7", 1 },  /* T_rnr 10 us: 4.726 + 14.726 >= 15 */
        { "30 us", "1", "2", 2 },  /* 4.726 + 2 x 14.726 = 34.178 >= 30 > 19.452; rnr_retry 2
                                      suffices only if each message's ACK resets the count */
        { "15 us", "3", "7", 1 },  /* T_rnr 30 us */
        { "200 us", "1", "7", 14 }, /* 14 > 7: rnr_retry 7 is infinite */
        { "4 us", "1", "0", 0 },   /* I <= RTT: the WQE is always back in time */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct rnr_case *k = &cases[i];
        struct testsim s;
        rnr_line(&s, k, 1 * PS_PER_MS);
        struct flow *fl = ts_find(&s, "F");
        double t_rnr = (double)transport_rnr_timer(atoi(k->timer));
        simtime_t iv = 0;
        char why[64];
        assert_int_equal(units_parse_time(k->interval, &iv, why, sizeof why), 0);
        double interval = (double)iv;
        int n = 0;
        while (rtt + n * (rtt + t_rnr) < interval)
            n++;
        /* First principles: the messages a 1 ms run starts (each at the ACK of the one before). */
        double a = t_data + 2 * d + L, send = 0;
        uint64_t msgs = 0;
        while (send < 1e9) {
            msgs++;
            send = a + 2 * d + L + t_ack;
            a = send - (2 * d + L + t_ack) + rtt + n * (rtt + t_rnr);
        }
        double lat = t_data + 2 * d + L + n * (rtt + t_rnr);
        printf("rq_post_interval %s, min_rnr_timer %s (%.2f us): %u messages (expected %llu), %llu RNR "
               "NAKs (%d each), %llu sent again, latency max %.4f us (expected %.4f)\n", k->interval,
               k->timer, t_rnr / 1e6, fl->msg_seq, (unsigned long long)msgs,
               (unsigned long long)fl->rc.x->rnr_naks, n, (unsigned long long)fl->rc.x->resent,
               (double)flow_msg_latency(&fl->st)->max / 1e6, (n ? lat : t_data + 2 * d + L) / 1e6);
        assert_int_equal(n, k->n);
        assert_all_delivered(&s, fl);
        assert_int_equal(fl->msg_seq, msgs);
        assert_int_equal(fl->rc.x->rnr_naks, (uint64_t)n * (msgs - 1));
        assert_int_equal(s.f.cnt.rnr_naks_created, (uint64_t)n * (msgs - 1));
        assert_int_equal(fl->rc.x->rnr_discards, (uint64_t)n * (msgs - 1));
        assert_int_equal(fl->rc.x->resent, (uint64_t)n * (msgs - 1));
        assert_int_equal(fl->rc.x->naks, 0);
        assert_int_equal(fl->rc.x->timeouts, 0);
        assert_int_equal(s.f.cnt.qp_errors, 0);
        assert_true(fabs((double)flow_msg_latency(&fl->st)->max - (n ? lat : t_data + 2 * d + L)) < 1.0);
        assert_true(fabs((double)flow_msg_latency(&fl->st)->min - (t_data + 2 * d + L)) < 1.0);
        ts_free(&s);
    }
}

/* rnr_retry = 3 and a WQE that never comes back within the run: the second message gets an RNR
 * NAK, waits, is sent again (3 times), and its 4th RNR NAK finds no retry left: the QP goes to
 * the error state (IBV_WC_RNR_RETRY_EXC_ERR) when that NAK reaches H1: at a_0 + 4 RTT + 3 T_rnr
 * + 2 d + L + T_ack. */
static void test_rnr_retries_exhausted(void **st)
{
    (void)st;
    const struct rnr_case k = { "1 s", "1", "3", 0 };
    struct testsim s;
    rnr_line(&s, &k, 200 * PS_PER_US);
    struct flow *fl = ts_find(&s, "F");
    printf("rnr_retry 3: %llu RNR NAKs, %llu sent again, %s; %s\n", (unsigned long long)fl->rc.x->rnr_naks,
           (unsigned long long)fl->rc.x->resent, transport_error_name(fl->rc.x->failed),
           s.f.nwarn ? s.f.warn[0] : "-");
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_true(s.rep.invariants_ok);
    assert_int_equal(fl->rc.x->rnr_naks, 4);
    assert_int_equal(fl->rc.x->resent, 3);
    assert_int_equal(fl->rc.x->failed, RC_RNR_RETRY_EXC_ERR);
    assert_int_equal(s.f.cnt.qp_errors, 1);
    assert_int_equal(s.f.cnt.rnr_retry_exc, 1);
    assert_int_equal(s.f.cnt.retry_exc, 0);
    assert_int_equal(fl->st.msgs_delivered, 1);
    assert_non_null(strstr(s.f.warn[0], "IBV_WC_RNR_RETRY_EXC_ERR"));
    /* When: message 1's 4th RNR NAK reaches H1. */
    double d = DELAY, L = 100.0 * PS_PER_NS, rtt = 2 * (2 * d + L) + T_PKT + 30 * 250.0;
    double at = (T_PKT + 2 * d + L) + rtt + 3 * (rtt + 10e6) + 2 * d + L + 30 * 250.0;
    char expect[32];
    snprintf(expect, sizeof expect, "at %.3f us", at / 1e6);
    printf("expected %s\n", expect);
    assert_non_null(strstr(s.f.warn[0], expect));
    ts_free(&s);
}

/* A flow to many hosts: each destination's queue pair has a receive queue of its own. H1 sends
 * one-packet messages to H2 and H3 (uniform) with a window of one packet per destination; each
 * responder's WQE comes back 15 us after it is used: RNR NAKs come from both, each is followed
 * by exactly one packet sent again (the window holds one), and every message of both
 * connections is delivered once, in order. */
static void test_rnr_many_destinations(void **st)
{
    (void)st;
    struct testsim s;
    star(&s, 3);
    TSET(&s, "window", "1");
    TSET(&s, "window_per", "destination");
    TSET(&s, "rq_depth", "1");
    TSET(&s, "rq_post_interval", "15 us");
    TSET(&s, "min_rnr_timer", "1");
    s.d.end = 1 * PS_PER_MS;
    ts_flow(&s, "F", "H1", "uniform", "saturate", NULL, "2048 B", 0, 0);
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    printf("RNR, H1 to H2 and H3: %u messages (%u, %u), %llu RNR NAKs, %llu sent again\n", fl->msg_seq,
           fl->rc.x->conn[1].msgs_made, fl->rc.x->conn[2].msgs_made, (unsigned long long)fl->rc.x->rnr_naks,
           (unsigned long long)fl->rc.x->resent);
    assert_conns_delivered(&s, fl, 2);
    assert_true(fl->rc.x->rnr_naks > 10);
    assert_int_equal(fl->rc.x->rnr_naks, fl->rc.x->resent);
    assert_int_equal(fl->rc.x->naks, 0);
    assert_int_equal(s.f.cnt.qp_errors, 0);
    ts_free(&s);
}

static void test_ud_loses_for_good(void **st)
{
    (void)st;
    struct testsim s;
    ts_init_line(&s, "4xQDR", "4xQDR", DELAY);
    SSET(&s, "loss_every", "10");
    s.d.end = 100 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    struct flow *fl = ts_find(&s, "F");
    assert_true(s.rep.invariants_ok);
    assert_false(s.f.rtx);
    assert_int_equal(s.f.cnt.dropped_loss, fl->st.pkts_sent / 10);
    assert_int_equal(s.f.cnt.delivered + s.f.cnt.dropped_loss, fl->st.pkts_sent);
    ts_free(&s);
}

static void test_refusals(void **st)
{
    (void)st;
    struct testsim s;
    line(&s);
    TSET(&s, "retransmit", "off");
    SSET(&s, "loss", "0.001");
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), -1);
    printf("retransmit off with losses: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "stall"));
    ts_free(&s);

    /* Lossless: auto leaves retransmission off (no timer, results as before). */
    line(&s);
    s.d.end = 50 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    assert_false(s.f.rtx);
    assert_int_equal(s.f.events_by_type[EV_RC_TIMER], 0);
    ts_free(&s);

    /* An infinite timeout with losses is allowed, with a warning. */
    line(&s);
    TSET(&s, "timeout", "0");
    SSET(&s, "loss_every", "1000");
    s.d.end = 50 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    assert_int_equal(s.f.nwarn, 1);
    assert_non_null(strstr(s.f.warn[0], "infinite"));
    ts_free(&s);

    /* A receive queue that can run dry needs retransmission (the RNR NAK's packet goes again). */
    line(&s);
    TSET(&s, "retransmit", "off");
    TSET(&s, "rq_depth", "4");
    TSET(&s, "rq_post_interval", "1 us");
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), -1);
    printf("retransmit off with a receive queue: %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "RNR NAK"));
    ts_free(&s);

    /* A receive queue refilled at once never runs dry: warned, once, and no retransmission. */
    line(&s);
    TSET(&s, "rq_depth", "4");
    s.d.end = 20 * PS_PER_US;
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0);
    ts_run(&s);
    printf("rq_depth without rq_post_interval: %s\n", s.f.nwarn ? s.f.warn[0] : "-");
    assert_int_equal(s.f.nwarn, 1);
    assert_non_null(strstr(s.f.warn[0], "no RNR NAK"));
    assert_false(s.f.rtx);
    ts_free(&s);

    struct fabric_settings fs;
    fabric_settings_defaults(&fs);
    char why[256];
    assert_int_equal(param_set(params_find(transport_params, "timeout"), &fs, "32", why, sizeof why), -1);
    printf("timeout 32: %s\n", why);
    assert_int_equal(param_set(params_find(transport_params, "retry_cnt"), &fs, "8", why, sizeof why), -1);
    printf("retry_cnt 8: %s\n", why);
    assert_int_equal(param_set(params_find(transport_params, "rnr_retry"), &fs, "8", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(transport_params, "min_rnr_timer"), &fs, "32", why, sizeof why), -1);
    printf("min_rnr_timer 32: %s\n", why);
    assert_int_equal(param_set(params_find(transport_params, "rq_depth"), &fs, "-1", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(switch_params, "loss"), &fs, "1", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(switch_params, "loss_every"), &fs, "-1", why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_back_n_counts),
        cmocka_unit_test(test_flow_balance_invariant),
        cmocka_unit_test(test_tail_loss_timeout),
        cmocka_unit_test(test_early_timeout_duplicates),
        cmocka_unit_test(test_retries_exhausted),
        cmocka_unit_test(test_nak_counts_as_retry),
        cmocka_unit_test(test_naks_exhaust_retries),
        cmocka_unit_test(test_hoq_drops_recovered),
        cmocka_unit_test(test_random_loss_deterministic),
        cmocka_unit_test(test_many_destinations_counts),
        cmocka_unit_test(test_many_destinations_random),
        cmocka_unit_test(test_rnr_timer_table),
        cmocka_unit_test(test_rnr_backoff),
        cmocka_unit_test(test_rnr_retries_exhausted),
        cmocka_unit_test(test_rnr_many_destinations),
        cmocka_unit_test(test_ud_loses_for_good),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

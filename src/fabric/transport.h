/* transport.h: the transport a flow's queue pair uses. UD (the default): datagrams, nothing
 * comes back. RC (reliable connection): the responder acknowledges every data packet, or the
 * last packet of every message, with an ACK (LRH+BTH+AETH+ICRC+VCRC, 30 bytes without a GRH)
 * that travels back through the fabric like any packet (its SL's VL, credits, arbitration);
 * the ACK carries BECN when a packet it acknowledges arrived with FECN (IBA 1.2.1 A10.2.2); a
 * requester may hold at most `window` unacknowledged packets or messages. */
#ifndef IBN_TRANSPORT_H
#define IBN_TRANSPORT_H

#include "core/error.h"
#include "core/params.h"
#include "fabric/fabric.h"

enum transport_mode { TRANSPORT_UD, TRANSPORT_RC };
enum transport_ack { ACK_PER_PACKET, ACK_PER_MESSAGE };
enum transport_window { WINDOW_PACKETS, WINDOW_MESSAGES };
enum transport_window_per { WINDOW_PER_FLOW, WINDOW_PER_DEST };
enum transport_retransmit { RTX_AUTO, RTX_ON, RTX_OFF };

extern const struct param transport_params[];

/* The NAKs of an ACK packet's `nak`: a PSN sequence error, receiver not ready (RNR). */
enum { NAK_SEQ = 1, NAK_RNR = 2 };

/* IBA's RNR NAK timer field `code` (0-31) as a time. */
simtime_t transport_rnr_timer(int code);

/* Wire size of an ACK under settings s. */
uint32_t transport_ack_wire(const struct fabric_settings *s);
/* Set up the flows of a built fabric for its transport (called by fabric_build); -1 (with e)
 * for a combination it cannot run. */
int transport_init(struct fabric *f, struct ibn_err *e);
/* Switch a built fabric to RC with ACKs per `ack` (enum transport_ack) before it runs: IB CC's
 * deprecated `becn = message` maps onto this. Returns -1 (with e) when it is already RC with
 * another ACK policy. */
int transport_enable_rc(struct fabric *f, int ack, struct ibn_err *e);
/* Warn about rc-only keys set under UD (they change nothing). */
void transport_warn_unused(struct fabric *f);
/* The responder: data packet x arrived at adapter port `at`; acknowledge it if the policy says
 * so. May grow the packet pool: x is not valid afterwards. */
void transport_on_data(struct fabric *f, struct port *at, const struct packet *x);
/* The requester: ACK x arrived. */
void transport_on_ack(struct fabric *f, const struct packet *x);

/* Go-back-N retransmission (f->rtx). The responder: data packet x arrived at `at`; returns 1
 * when it is the PSN expected (deliver it, then transport_on_data acknowledges it), 0 when it
 * is discarded (a duplicate is acknowledged again, the first out-of-sequence packet after the
 * expected one gets a NAK). */
int transport_accept(struct fabric *f, struct port *at, const struct packet *x);
/* The requester made packet x of flow fl (new or sent again): a new one gets its connection's
 * next PSN and is remembered for retransmission; a resent one (its PSN from
 * transport_resend_peek) is counted and its connection moves on; the Local ACK Timeout is
 * armed. */
void transport_sent(struct fabric *f, struct flow *fl, struct packet *x, int again);
/* The packet flow fl sends again next (fl->rc.snd != fl->rc.psn_next), and its PSN. */
const struct rc_sent *transport_resend_peek(const struct flow *fl, uint32_t *psn);
/* EV_RC_TIMER of connection k of flow fl: kind 0 its Local ACK Timeout, 1 its RNR NAK timer. */
void transport_on_timer(struct fabric *f, struct flow *fl, uint32_t k, int kind);
/* Whether any flow's queue pair broke an RC invariant after a drained run (every packet
 * accepted once, in order): appends what broke to `why` and returns the number of problems. */
int transport_check(const struct fabric *f, char *why, size_t whylen);
/* Queue pairs (not in error) with packets unacknowledged. */
uint32_t transport_outstanding(const struct fabric *f);

/* IBA's work completion status of a queue pair's error (enum rc_error), "" for none. */
const char *transport_error_name(int why);

/* Give flow fl a window of its own (a plug-in's, e.g. host credits), in messages or packets. */
void transport_set_window(struct flow *fl, uint32_t window, int messages);
/* Give a flow its own struct rc_ext (set-up time: RC, a window, a plug-in's drop and retry),
 * in place of the shared read-only rc_ext_none; and free it (fabric_free). */
void transport_rc_own(struct flow *fl);
void transport_rc_free(struct flow *fl);

/* Whether flow fl's window lets it send its next packet (fl->rc.win set). */
static inline int transport_window_open(const struct fabric *f, const struct flow *fl)
{
    (void)f;
    if (fl->rc.snd != fl->rc.psn_next)
        return 1; /* going back: the packets it sends again are inside the window */
    if (!fl->rc.win_msgs)
        return fl->rc.psn_next - fl->rc.psn_acked < fl->rc.window;
    return fl->cur_open || fl->rc.msg_begun - fl->rc.msg_acked < fl->rc.window;
}

/* Whether it may start a new message. */
static inline int transport_may_begin(const struct fabric *f, const struct flow *fl)
{
    (void)f;
    if (!fl->rc.win_msgs)
        return fl->rc.psn_next - fl->rc.psn_acked < fl->rc.window;
    return fl->rc.msg_begun - fl->rc.msg_acked < fl->rc.window;
}

#endif

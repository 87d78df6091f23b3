/* transport.c: the reliable-connection transport (transport.h): its settings (the scenario's
 * `transport` section), the responder that acknowledges data packets (per packet, or per
 * message on its last packet) and puts BECN in the ACK when FECN arrived, and the requester
 * that counts acknowledged packets and messages and re-opens a flow that its window stopped.
 * ACKs are control packets (flow FLOW_CONTROL, PKT_ACK, about_flow = the data flow, psn and msg
 * = what they acknowledge) on the adapter's priority path; switches forward them as any packet.
 * Under UD none of this runs: the data path pays one test per delivered packet. */
#include "fabric/transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/build.h"
#include "fabric/drop.h"

#define OFF(field) offsetof(struct fabric_settings, field)

static const char *const mode_names[] = { "ud", "rc", NULL };
static const char *const ack_names[] = { "packet", "message", NULL };
static const char *const unit_names[] = { "packets", "messages", NULL };
static const char *const per_names[] = { "flow", "destination", NULL };
static const char *const rtx_names[] = { "auto", "on", "off", NULL };

static int check_window(const void *field, char *why, size_t whylen)
{
    long long w = *(const long long *)field;
    if (w == 0) {
        snprintf(why, whylen, "window 0 would never let a queue pair send: give at least 1 "
                 "outstanding packet or message, or -1 for no window");
        return -1;
    }
    return 0;
}

static int check_ack_bytes(const void *field, char *why, size_t whylen)
{
    uint64_t b = *(const uint64_t *)field;
    if (b != 0 && (b < IB_LRH || b > 4096 + 126)) {
        snprintf(why, whylen, "an ACK must have at least its 8-byte LRH and at most an MTU packet's "
                 "size, got %llu bytes (0 = IBA's LRH+BTH+AETH+ICRC+VCRC)", (unsigned long long)b);
        return -1;
    }
    return 0;
}

const struct param transport_params[] = {
    { "mode", P_ENUM, OFF(transport), "ud",
      "ud = unreliable datagram, nothing comes back (the fabric as seed 002 models it); rc = "
      "reliable connection: the responder acknowledges with ACK packets that travel back through "
      "the fabric, carry BECN for FECN-marked packets, and open the requester's window",
      mode_names, 0, 0 },
    { "ack", P_ENUM, OFF(ack_per), "packet",
      "rc: packet = an ACK for every data packet (seed 000's reading); message = one ACK per "
      "message, for its last packet (coalesced; it acknowledges the whole message and carries "
      "BECN if any of its packets had FECN)", ack_names, 0, 0 },
    { "ack_bytes", P_SIZE, OFF(ack_bytes), "0 B",
      "rc: wire size of an ACK; 0 = IBA's LRH 8 + BTH 12 + AETH 4 + ICRC 4 + VCRC 2 = 30 bytes "
      "(70 with a GRH); seed 000 suggests 20", NULL, 0, 0, check_ack_bytes },
    { "ack_sl", P_INT, OFF(ack_sl), "-1",
      "rc: SL of the ACKs (their VL by the SL-to-VL maps); -1 = the acknowledged packet's SL, as "
      "IBA sends a QP's ACKs", NULL, -1, 15 },
    { "window", P_INT, OFF(window), "-1",
      "rc: most unacknowledged packets (or messages, window_unit) a queue pair may have; the "
      "requester waits for an ACK beyond it. -1 = no window", NULL, -1, 1e9, check_window },
    { "window_unit", P_ENUM, OFF(window_unit), "packets",
      "rc: what the window counts: packets, or messages (a message counts from its first packet "
      "until the ACK of its last)", unit_names, 0, 0 },
    { "window_per", P_ENUM, OFF(window_per), "flow",
      "rc: flow = one window per flow (a flow to many hosts counts all its packets together); "
      "destination = a flow to many hosts is a queue pair per destination host, each with its own "
      "window of `window` packets (needs window_unit = packets and ack = packet): a message whose "
      "destination's window is full is set aside and the flow goes on with others", per_names, 0, 0 },
    { "window_held", P_INT, OFF(window_held), "16",
      "rc, window_per = destination: started messages a flow may set aside while their "
      "destination's window is full; with all taken it waits for the first to open", NULL, 0, 65535 },
    { "retransmit", P_ENUM, OFF(retransmit), "auto",
      "rc: go-back-N retransmission with PSNs: the responder accepts only the PSN it expects, "
      "discards and re-acknowledges duplicates, answers the first packet past a gap with a NAK "
      "(sequence error) that makes the requester send again from the PSN expected; the Local ACK "
      "Timeout (timeout) does the same from the first unacknowledged PSN. auto = on when packets "
      "can be lost (finite switch.hoq_life or switch.switch_life, switch.loss, switch.loss_every), "
      "off on a lossless fabric (no timer, results as without it); off with losses is refused",
      rtx_names, 0, 0 },
    { "timeout", P_INT, OFF(ack_timeout), "14",
      "rc with retransmission: IBA's Local ACK Timeout exponent, 4.096 us x 2^timeout (14 = "
      "67.1 ms, perftest's default; 1 = 8.192 us); 0 = infinite (IBA: no timer; a lost last "
      "packet is then never sent again)", NULL, 0, 31 },
    { "retry_cnt", P_INT, OFF(retry_cnt), "7",
      "rc with retransmission: IBA's transport retry count: retries (after a Local ACK Timeout or "
      "a NAK sequence error alike) with no progress between them (an ACK of something new, or a "
      "NAK that completes a message); when one more is needed the queue pair goes to the error "
      "state (IBV_WC_RETRY_EXC_ERR: it stops; counted as qp_errors, retry_exceeded, and warned)",
      NULL, 0, 7 },
    { "rnr_retry", P_INT, OFF(rnr_retry), "7",
      "rc with retransmission: IBA's RNR retry count: RNR NAKs in a row (no positive ACK between "
      "them) after which the requester sends again; the next one puts the queue pair in the error "
      "state (IBV_WC_RNR_RETRY_EXC_ERR); 7 = infinite, as in IBA", NULL, 0, 7 },
    { "min_rnr_timer", P_INT, OFF(min_rnr_timer), "12",
      "rc: the responder's minimum RNR NAK timer, IBA's 5-bit code (its Table 45): 1 = 0.01 ms, "
      "2 = 0.02, 3 = 0.03, 4 = 0.04, 5 = 0.06, 6 = 0.08, 7 = 0.12, ... doubling every two codes "
      "... 31 = 491.52 ms, 0 = 655.36 ms; 12 = 0.64 ms (rdma-core's ibv_rc_pingpong). An RNR NAK "
      "carries it; the requester waits that long before it sends the packet again", NULL, 0, 31 },
    { "rq_depth", P_INT, OFF(rq_depth), "0",
      "rc: receive WQEs a responder queue pair (a connection) holds posted; each message (a Send) "
      "consumes one when its first packet arrives, and with none posted the responder answers "
      "with an RNR NAK (receiver not ready) and discards it. 0 = a receive WQE is always posted "
      "(no RNR NAK)", NULL, 0, 1e9 },
    { "rq_post_interval", P_TIME, OFF(rq_interval), "0 s",
      "rc with rq_depth: the application posts one receive WQE every this while fewer than "
      "rq_depth are posted (the first one this long after a full queue loses one); 0 = at once",
      NULL, 0, 0 },
    PARAM_END,
};

/* IBA's RNR NAK timer field (Table 45 "Encoding for RNR NAK Timer Field"), in units of
 * 0.01 ms. */
static const uint32_t rnr_timer_10us[32] = {
    65536, 1,    2,    3,    4,    6,    8,     12,    16,    24,    32,
    48,    64,   96,   128,  192,  256,  384,   512,   768,   1024,  1536,
    2048,  3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

simtime_t transport_rnr_timer(int code)
{
    return (simtime_t)rnr_timer_10us[code & 31] * 10 * PS_PER_US;
}

uint32_t transport_ack_wire(const struct fabric_settings *s)
{
    if (s->ack_bytes)
        return (uint32_t)s->ack_bytes;
    return IB_LRH + (s->grh ? IB_GRH : 0) + IB_BTH + IB_AETH + IB_ICRC + IB_VCRC;
}

/* Whether the settings let packets be lost (selective dropping, switch losses). */
static int losses_possible(const struct fabric_settings *s)
{
    return drop_lifetime(s->hoq_life) != SIMTIME_NEVER || drop_lifetime(s->switch_life) != SIMTIME_NEVER ||
           s->loss > 0 || s->loss_every > 0;
}

/* Whether a responder can refuse a message for want of a receive WQE (an RNR NAK). */
static int rnr_possible(const struct fabric_settings *s)
{
    return s->rq_depth > 0 && s->rq_interval > 0;
}

static void sent_grow(struct rc_conn *c, uint32_t need)
{
    uint32_t cap = c->sent_cap ? c->sent_cap : 16;
    while (cap < need)
        cap *= 2;
    struct rc_sent *r = xcalloc(cap, sizeof *r);
    for (uint32_t psn = c->psn_acked; c->sent_cap && psn != c->psn_next; psn++)
        r[psn & (cap - 1)] = c->sent[psn & (c->sent_cap - 1)];
    free(c->sent);
    c->sent = r;
    c->sent_cap = cap;
}

static int rtx_init(struct fabric *f, struct ibn_err *e)
{
    int lossy = losses_possible(&f->set), rnr = rnr_possible(&f->set);
    if (f->set.rq_depth > 0 && !rnr && !f->rq_warned) {
        f->rq_warned = 1;
        fabric_warn(f, "transport.rq_depth = %lld with rq_post_interval = 0: a receive WQE is posted "
                    "again at once, no responder ever runs out and no RNR NAK is sent; give "
                    "rq_post_interval a time for receivers that are not always ready",
                    f->set.rq_depth);
    }
    f->rtx = (uint8_t)(f->set.retransmit == RTX_ON || (f->set.retransmit == RTX_AUTO && (lossy || rnr)));
    if (!f->rtx) {
        if (lossy)
            return ibn_err_set(e, "transport.retransmit = off, but packets can be lost (switch.hoq_life, "
                               "switch.switch_life, switch.loss or switch.loss_every): a lost packet "
                               "would stall its queue pair for ever; use retransmit = on (or auto), "
                               "UD, or a lossless fabric");
        if (rnr)
            return ibn_err_set(e, "transport.retransmit = off, but transport.rq_depth = %lld with "
                               "rq_post_interval > 0 lets a responder refuse a message (RNR NAK), "
                               "after which the requester must send it again; use retransmit = on "
                               "(or auto), or rq_depth = 0", f->set.rq_depth);
        return 0;
    }
    f->rnr_timer = transport_rnr_timer((int)f->set.min_rnr_timer);
    f->ack_timeout = f->set.ack_timeout == 0 ? SIMTIME_NEVER
                                             : (simtime_t)4096 * PS_PER_NS << f->set.ack_timeout;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (fl->pattern == 5)
            return ibn_err_set(e, "transport.retransmit: flow %s sends to a multicast group (an MLID): "
                               "IBA's multicast is unreliable datagram only, there is no reliable "
                               "connection to retransmit on; use UD for it, or replicated unicast",
                               fl->name);
        if (fl->rc.x->conn)
            continue;
        /* A queue pair, and so a PSN sequence, per destination host (IBA: one RC connection
         * each); a flow to one host has one. */
        fl->rc.x->nconn = fl->pattern == 0 && fl->dst_host >= 0 ? 1 : (uint32_t)f->nhosts;
        fl->rc.x->conn = xcalloc(fl->rc.x->nconn, sizeof *fl->rc.x->conn);
        for (uint32_t k = 0; k < fl->rc.x->nconn; k++) {
            struct rc_conn *c = &fl->rc.x->conn[k];
            c->tmo_at = c->rnr_at = SIMTIME_NEVER;
            c->back_next = RC_CONN_NIL;
            c->rq_avail = (uint32_t)f->set.rq_depth;
        }
        fl->rc.x->back_head = fl->rc.x->back_tail = RC_CONN_NIL;
        if (fl->rc.x->nconn == 1)
            sent_grow(&fl->rc.x->conn[0], fl->rc.win && !fl->rc.win_msgs && fl->rc.window < (1u << 20)
                                            ? fl->rc.window : 64);
    }
    if (f->ack_timeout == SIMTIME_NEVER && lossy)
        fabric_warn(f, "transport.timeout = 0 (infinite): a queue pair whose last packets are lost "
                    "gets no NAK and never sends them again (its run ends as a drain timeout)");
    return 0;
}

/* Under UD, the rc-only keys set away from their defaults: a warning naming them, since they
 * change nothing (checked when the run starts, after any plug-in has switched RC on). */
void transport_warn_unused(struct fabric *f)
{
    if (f->set.transport == TRANSPORT_RC)
        return;
    struct fabric_settings d = f->set;
    char keys[512] = "", why[160], now[64], def[64];
    size_t n = 0;
    for (const struct param *p = transport_params + 1; p->key; p++) {
        if (!p->def || param_set(p, &d, p->def, why, sizeof why))
            continue;
        param_format_value(p, &f->set, now, sizeof now);
        param_format_value(p, &d, def, sizeof def);
        if (strcmp(now, def) && n < sizeof keys)
            n += (size_t)snprintf(keys + n, sizeof keys - n, "%stransport.%s = %s", n ? ", " : "", p->key, now);
    }
    if (n)
        fabric_warn(f, "transport.mode = ud: %s act%s only under transport.mode = rc and %s ignored",
                    keys, strchr(keys, ',') ? "" : "s", strchr(keys, ',') ? "are" : "is");
}

int transport_init(struct fabric *f, struct ibn_err *e)
{
    if (f->set.transport != TRANSPORT_RC)
        return 0;
    int per_dest = f->set.window_per == WINDOW_PER_DEST && f->set.window > 0;
    if (per_dest && (f->set.window_unit != WINDOW_PACKETS || f->set.ack_per != ACK_PER_PACKET))
        return ibn_err_set(e, "transport.window_per = destination counts packets per destination "
                           "and frees them one ACK each: it needs window_unit = packets and ack = "
                           "packet (got window_unit = %s, ack = %s)", unit_names[f->set.window_unit],
                           ack_names[f->set.ack_per]);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        transport_rc_own(fl);
        if (per_dest && fl->dst_host < 0) {
            if (!fl->rc.dout)
                fl->rc.dout = xcalloc((size_t)f->nhosts, sizeof *fl->rc.dout);
            fl->rc.window = (uint32_t)f->set.window;
            if (!fl->dest_paced)
                fabric_flow_pace_by_dest(f, fl, (int)f->set.window_held);
        } else if (f->set.window > 0)
            transport_set_window(fl, (uint32_t)f->set.window, f->set.window_unit == WINDOW_MESSAGES);
        if (fl->dst_host < 0 && !fl->rc.x->becn_dest)
            fl->rc.x->becn_dest = xcalloc((size_t)f->nhosts, 1);
    }
    if (rtx_init(f, e))
        return -1;
    for (uint32_t i = 0; !f->rtx && f->set.ack_per == ACK_PER_MESSAGE && i < f->nflows; i++)
        if (f->flows[i].dst_host < 0 && !f->flows[i].rc.x->pkts.key)
            msgtab_init(&f->flows[i].rc.x->pkts, 16);
    return 0;
}

const struct rc_ext rc_ext_none = { 0 };

void transport_rc_own(struct flow *fl)
{
    if (fl->rc.x == &rc_ext_none)
        fl->rc.x = xcalloc(1, sizeof *fl->rc.x);
}

void transport_rc_free(struct flow *fl)
{
    struct rc_ext *x = fl->rc.x;
    if (!x || x == &rc_ext_none)
        return;
    free(x->becn_dest);
    free(x->posted_log);
    msgtab_free(&x->posted);
    msgtab_free(&x->pkts);
    for (uint32_t k = 0; k < x->nconn; k++)
        free(x->conn[k].sent);
    free(x->conn);
    free(x);
    fl->rc.x = (struct rc_ext *)&rc_ext_none;
    fl->rc.posted = NULL;
}

void transport_set_window(struct flow *fl, uint32_t window, int messages)
{
    transport_rc_own(fl);
    fl->rc.win = 1;
    fl->rc.win_msgs = (uint8_t)(messages != 0);
    fl->rc.window = window;
    msgtab_free(&fl->rc.x->posted);
    fl->rc.posted = NULL;
    if (messages && window <= RC_POSTED_MAX) {
        msgtab_init(&fl->rc.x->posted, window + 1);
        fl->rc.posted = &fl->rc.x->posted;
    }
}

int transport_enable_rc(struct fabric *f, int ack, struct ibn_err *e)
{
    if (f->set.transport == TRANSPORT_RC && f->set.ack_per != ack)
        return ibn_err_set(e, "transport.mode = rc with transport.ack = %s conflicts with an ACK per %s",
                           ack_names[f->set.ack_per], ack_names[ack]);
    f->set.transport = TRANSPORT_RC;
    f->set.ack_per = ack;
    return transport_init(f, e);
}

void transport_on_data(struct fabric *f, struct port *at, const struct packet *x)
{
    struct flow *fl = &f->flows[x->flow];
    uint8_t *pending = fl->rc.x->becn_dest ? &fl->rc.x->becn_dest[at->hca->host] : &fl->rc.becn;
    if (x->flags & PKT_FECN)
        *pending = 1;
    if (f->set.ack_per == ACK_PER_MESSAGE && !(x->flags & PKT_LAST))
        return;
    uint8_t flags = (uint8_t)(PKT_ACK | (x->flags & PKT_LAST) | (*pending ? PKT_BECN : 0));
    *pending = 0;
    uint8_t sl = f->set.ack_sl >= 0 ? (uint8_t)f->set.ack_sl : x->sl;
    uint32_t psn = x->psn, msg = x->msg;
    uint16_t to = x->src_lid;
    uint32_t idx = fabric_control_new(f, at, to, sl, flags, x->flow, transport_ack_wire(&f->set));
    struct packet *a = pkt(&f->pool, idx);
    a->psn = psn;
    a->msg = msg;
    f->cnt.acks_created++;
    fabric_control_queue(f, at, idx);
}

/* ---- go-back-N retransmission ---- */

/* The connection of flow fl to host h (its only one for a flow to one host). */
static inline struct rc_conn *conn_of(struct flow *fl, int h)
{
    return fl->rc.x->nconn == 1 ? &fl->rc.x->conn[0] : &fl->rc.x->conn[h];
}

static inline uint32_t conn_index(const struct flow *fl, const struct rc_conn *c)
{
    return (uint32_t)(c - fl->rc.x->conn);
}

/* Connection c sends PSN `to` next: the flow's `snd` (psn_next less the packets waiting to be
 * sent again, over its connections) follows, and c joins (at the tail) or leaves the flow's
 * list of connections going back. */
static void conn_go(struct flow *fl, struct rc_conn *c, uint32_t to)
{
    struct rc_qp *rc = &fl->rc;
    rc->snd += to - c->snd;
    c->snd = to;
    uint32_t k = conn_index(fl, c);
    if (c->snd != c->psn_next && !c->back) {
        c->back = 1;
        c->back_next = RC_CONN_NIL;
        if (rc->x->back_tail == RC_CONN_NIL)
            rc->x->back_head = k;
        else
            rc->x->conn[rc->x->back_tail].back_next = k;
        rc->x->back_tail = k;
    } else if (c->snd == c->psn_next && c->back) {
        uint32_t prev = RC_CONN_NIL;
        for (uint32_t j = rc->x->back_head; j != k; j = rc->x->conn[j].back_next)
            prev = j;
        if (prev == RC_CONN_NIL)
            rc->x->back_head = c->back_next;
        else
            rc->x->conn[prev].back_next = c->back_next;
        if (rc->x->back_tail == k)
            rc->x->back_tail = prev;
        c->back = 0;
        c->back_next = RC_CONN_NIL;
    }
}

const struct rc_sent *transport_resend_peek(const struct flow *fl, uint32_t *psn)
{
    const struct rc_conn *c = &fl->rc.x->conn[fl->rc.x->back_head];
    if (psn)
        *psn = c->snd;
    return &c->sent[c->snd & (c->sent_cap - 1)];
}

static void timer_arm(struct fabric *f, struct flow *fl, struct rc_conn *c, simtime_t t)
{
    c->tmo_at = t;
    if (t != SIMTIME_NEVER && !c->tmo_sched) {
        c->tmo_sched = 1;
        fabric_schedule(f, t, EV_RC_TIMER, fl, conn_index(fl, c), 0);
    }
}

static simtime_t timer_from_now(const struct fabric *f)
{
    return f->ack_timeout == SIMTIME_NEVER ? SIMTIME_NEVER : f->now + f->ack_timeout;
}

void transport_sent(struct fabric *f, struct flow *fl, struct packet *x, int again)
{
    struct rc_conn *c;
    if (again) {
        /* The head of the list of connections going back sends its PSN snd again (x->psn,
         * from transport_resend_peek). */
        c = &fl->rc.x->conn[fl->rc.x->back_head];
        fl->rc.x->resent++;
        conn_go(fl, c, c->snd + 1);
    } else {
        /* A new packet: its connection's next PSN; remember it until it is acknowledged. */
        c = conn_of(fl, fabric_host_of_lid(f, x->dst_lid));
        x->psn = c->psn_next++;
        c->snd = c->psn_next;
        if (!c->making) {
            c->making = 1;
            c->msgs_begun++;
        }
        if (x->flags & PKT_LAST) {
            c->making = 0;
            c->msgs_made++;
        }
        if (c->psn_next - c->psn_acked > c->sent_cap)
            sent_grow(c, c->psn_next - c->psn_acked);
        struct rc_sent *r = &c->sent[x->psn & (c->sent_cap - 1)];
        r->created = x->t_created;
        r->msg = x->msg;
        r->dst_lid = x->dst_lid;
        r->payload = x->payload;
        r->flags = (uint8_t)(x->flags & (PKT_LAST | PKT_KEEP | PKT_MEASURED));
    }
    /* The timer runs from a sending with nothing outstanding (not while an RNR NAK's timer
     * holds the connection: it starts again with the first packet sent after it). */
    if (c->tmo_at == SIMTIME_NEVER && c->rnr_at == SIMTIME_NEVER)
        timer_arm(f, fl, c, timer_from_now(f));
}

/* The responder answers with an ACK of `psn` (cumulative) or a NAK expecting `psn`. */
static void respond(struct fabric *f, struct port *at, const struct packet *x, uint8_t *pending,
                    uint32_t psn, int nak)
{
    uint8_t flags = (uint8_t)(PKT_ACK | (*pending ? PKT_BECN : 0));
    *pending = 0;
    uint8_t sl = f->set.ack_sl >= 0 ? (uint8_t)f->set.ack_sl : x->sl;
    uint32_t about = x->flow;
    uint16_t to = x->src_lid;
    uint32_t idx = fabric_control_new(f, at, to, sl, flags, about, transport_ack_wire(&f->set));
    struct packet *a = pkt(&f->pool, idx);
    a->psn = psn;
    a->nak = (uint8_t)nak;
    if (nak == NAK_RNR) {
        a->msg = (uint32_t)f->set.min_rnr_timer; /* the AETH's timer field */
        f->cnt.rnr_naks_created++;
    } else if (nak) {
        f->cnt.naks_created++;
    } else {
        f->cnt.acks_created++;
    }
    fabric_control_queue(f, at, idx);
}

/* The responder's receive queue: a receive WQE for a message starting now? The application
 * posts one every rq_post_interval while fewer than rq_depth are posted (worked out lazily
 * from the time of the next posting). */
static int rq_take(const struct fabric *f, struct rc_conn *c)
{
    uint32_t depth = (uint32_t)f->set.rq_depth;
    simtime_t every = f->set.rq_interval;
    while (c->rq_avail < depth && c->rq_next <= f->now) {
        c->rq_avail++;
        c->rq_next += every;
    }
    if (!c->rq_avail)
        return 0;
    if (c->rq_avail == depth) /* the poster was idle: its next posting is one interval away */
        c->rq_next = f->now + every;
    c->rq_avail--;
    return 1;
}

int transport_accept(struct fabric *f, struct port *at, const struct packet *x)
{
    struct flow *fl = &f->flows[x->flow];
    int h = at->hca->host;
    struct rc_conn *c = conn_of(fl, h);
    uint8_t *pending = fl->rc.x->becn_dest ? &fl->rc.x->becn_dest[h] : &fl->rc.becn;
    if (x->psn == c->epsn) {
        if (!c->rin && f->set.rq_depth > 0 && !rq_take(f, c)) {
            /* A message's first packet and no receive WQE posted: receiver not ready. It is
             * discarded and answered with an RNR NAK naming its PSN (acknowledging those before
             * it) and the responder's timer; what follows it is discarded silently until it
             * comes again. */
            if (x->flags & PKT_FECN)
                *pending = 1;
            f->cnt.discarded++;
            fabric_pkt_gone(f, x);
            fl->rc.x->rnr_discards++;
            fabric_timeline(f, TLN_DROP, at, x, 0, 4);
            c->nak_sent = 1;
            respond(f, at, x, pending, c->epsn, NAK_RNR);
            return 0;
        }
        c->epsn++;
        c->nak_sent = 0;
        /* In message order: inside a message its next packet; else a later message than the
         * last (the next one for a connection that carries every message of its flow). */
        if ((c->rin || fl->rc.x->nconn == 1) ? x->msg != c->emsg : (int32_t)(x->msg - c->emsg) < 0)
            f->cnt.misordered++;
        if (x->flags & PKT_LAST) {
            c->emsg = x->msg + 1;
            c->rin = 0;
            c->rmsgs++;
        } else {
            c->emsg = x->msg;
            c->rin = 1;
        }
        return 1;
    }
    if (x->flags & PKT_FECN)
        *pending = 1;
    f->cnt.discarded++;
    fabric_pkt_gone(f, x);
    fabric_timeline(f, TLN_DROP, at, x, 0, 4);
    if ((int32_t)(x->psn - c->epsn) < 0) {
        /* A duplicate: acknowledge again what has arrived (the requester may have timed out
         * early, or gone back further than the loss). */
        fl->rc.x->dups++;
        respond(f, at, x, pending, c->epsn - 1, 0);
    } else {
        /* Past a gap: the first one gets a NAK naming the PSN expected; the rest of the
         * requester's packets in flight are discarded silently. */
        fl->rc.x->oos++;
        if (!c->nak_sent) {
            c->nak_sent = 1;
            respond(f, at, x, pending, c->epsn, NAK_SEQ);
        }
    }
    return 0;
}

static const char *const rc_error_names[] = { "", "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR" };

const char *transport_error_name(int why)
{
    return why > 0 && why < 3 ? rc_error_names[why] : "";
}

/* Connection c's retries ran out (`why`, enum rc_error): its queue pair goes to the error
 * state, its send work request completes in error. A flow is one consumer: at the first such
 * connection it stops (sends nothing more on any). */
static void qp_fail(struct fabric *f, struct flow *fl, struct rc_conn *c, int why)
{
    c->failed = (uint8_t)why;
    fl->rc.x->conns_failed++;
    fl->rc.x->failed = (uint8_t)why;
    f->cnt.qp_errors++;
    if (why == RC_RNR_RETRY_EXC_ERR)
        f->cnt.rnr_retry_exc++;
    else
        f->cnt.retry_exc++;
    if (f->cnt.qp_errors == 1) {
        char cause[160];
        if (why == RC_RNR_RETRY_EXC_ERR)
            snprintf(cause, sizeof cause, "%lld RNR NAKs in a row (transport.rnr_retry = %lld)",
                     f->set.rnr_retry + 1, f->set.rnr_retry);
        else
            snprintf(cause, sizeof cause, "%lld retries without progress (Local ACK Timeouts and NAK "
                     "sequence errors; transport.retry_cnt = %lld) and one more needed",
                     f->set.retry_cnt, f->set.retry_cnt);
        fabric_warn(f, "flow %s: %s at %.3f us: its queue pair went to the error state (%s) with %u "
                    "packets unacknowledged; they and its waiting messages are not delivered "
                    "(summary: transport.retransmission.qp_errors counts such queue pairs)", fl->name,
                    cause, (double)f->now / PS_PER_US, rc_error_names[why],
                    fl->rc.psn_next - fl->rc.psn_acked);
    }
    flow_queue_account(f, fl);
    fl->qn = 0;
    fl->qposted = 0;
    fl->cur_open = 0;
    fl->nheld = 0;
    fl->active = 0;
    for (uint32_t k = 0; k < fl->rc.x->nconn; k++) {
        conn_go(fl, &fl->rc.x->conn[k], fl->rc.x->conn[k].psn_next);
        fl->rc.x->conn[k].tmo_at = SIMTIME_NEVER;
        fl->rc.x->conn[k].rnr_at = SIMTIME_NEVER;
    }
    fl->rc.rnr_hold = 0;
    fabric_flow_repace(f, fl);
}

void transport_on_timer(struct fabric *f, struct flow *fl, uint32_t k, int kind)
{
    struct rc_conn *c = &fl->rc.x->conn[k];
    if (kind == 1) { /* an RNR NAK's timer ended: send again from the PSN it named */
        if (c->rnr_at == SIMTIME_NEVER || f->now < c->rnr_at || fl->rc.x->failed)
            return;
        c->rnr_at = SIMTIME_NEVER;
        fl->rc.rnr_hold--;
        uint32_t from = (int32_t)(c->psn_acked - c->rnr_psn) > 0 ? c->psn_acked : c->rnr_psn;
        if (from != c->psn_next)
            conn_go(fl, c, from); /* the Local ACK Timeout starts again as it is sent */
        fl->rc.blocked = 0;
        fabric_flow_repace(f, fl);
        return;
    }
    c->tmo_sched = 0;
    if (c->tmo_at == SIMTIME_NEVER || fl->rc.x->failed)
        return;
    if (f->now < c->tmo_at) { /* progress since it was queued: wait for the new deadline */
        timer_arm(f, fl, c, c->tmo_at);
        return;
    }
    fl->rc.x->timeouts++;
    if (c->retries >= f->set.retry_cnt) {
        qp_fail(f, fl, c, RC_RETRY_EXC_ERR);
        return;
    }
    c->retries++;
    conn_go(fl, c, c->psn_acked); /* go back to the first unacknowledged PSN */
    c->tmo_at = SIMTIME_NEVER;    /* the timer starts again as that packet is sent */
    fl->rc.blocked = 0;
    fabric_flow_repace(f, fl);
}

/* An ACK or NAK at a requester with retransmission. */
static void rtx_on_ack(struct fabric *f, struct flow *fl, const struct packet *x)
{
    struct rc_qp *rc = &fl->rc;
    if (rc->x->failed)
        return;
    int h = fabric_host_of_lid(f, x->src_lid);
    struct rc_conn *c = conn_of(fl, h);
    uint32_t upto = x->nak ? x->psn : x->psn + 1; /* every PSN before it has arrived */
    uint32_t out = c->psn_next - c->psn_acked, adv = upto - c->psn_acked;
    if (adv > out)
        return; /* from before an earlier ACK (stale) */
    int moved = 0;
    if (adv) {
        uint32_t msgs = 0;
        for (uint32_t psn = c->psn_acked; psn != upto; psn++)
            msgs += (c->sent[psn & (c->sent_cap - 1)].flags & PKT_LAST) != 0;
        c->psn_acked = upto;
        c->msgs_acked += msgs;
        rc->psn_acked += adv;
        rc->msg_acked += msgs;
        if (rc->dout)
            rc->dout[h] -= adv;
        /* The retry counter starts again with an ACK that acknowledges something new, or a
         * NAK whose implicit acknowledgement completes a message (rxe and hfi1 reset it when a
         * send work request completes; hfi1 also on every positive ACK). */
        if (!x->nak || msgs)
            c->retries = 0;
        if (!x->nak)
            c->rnr_retries = 0; /* IBA, hfi1: the RNR retry counter too, on a positive ACK */
        if (c->rnr_at == SIMTIME_NEVER)
            timer_arm(f, fl, c, c->psn_acked == c->psn_next ? SIMTIME_NEVER : timer_from_now(f));
        if ((int32_t)(c->snd - upto) < 0)
            conn_go(fl, c, upto); /* no need to send again what has arrived */
        if (msgs && rc->win_msgs && !rc->x->retry)
            fabric_flow_post(f, fl);
    }
    if (x->nak == NAK_RNR) {
        rc->x->rnr_naks++;
        if (upto != c->psn_next && c->rnr_at == SIMTIME_NEVER) {
            /* Receiver not ready: with rnr_retry (not 7, infinite) RNR NAKs in a row already
             * retried the QP goes to the error state; else it stops sending on this
             * connection, its Local ACK Timeout stopped, until the NAK's timer has passed,
             * then sends again from the NAK's PSN (IBA 9.7.5.2.8; hfi1's rvt_add_rnr_timer). */
            if (f->set.rnr_retry != 7 && c->rnr_retries >= f->set.rnr_retry) {
                qp_fail(f, fl, c, RC_RNR_RETRY_EXC_ERR);
                return;
            }
            if (c->rnr_retries < 255)
                c->rnr_retries++;
            conn_go(fl, c, c->psn_next);
            c->rnr_psn = upto;
            c->tmo_at = SIMTIME_NEVER;
            c->rnr_at = f->now + transport_rnr_timer((int)x->msg);
            rc->rnr_hold++;
            fabric_schedule(f, c->rnr_at, EV_RC_TIMER, fl, conn_index(fl, c), 1);
            moved = 1;
        }
    } else if (x->nak) {
        rc->x->naks++;
        if (upto != c->psn_next && c->snd != upto && c->rnr_at == SIMTIME_NEVER) {
            /* A retry, counted against retry_cnt as a Local ACK Timeout is (IBA; rxe's
             * COMPST_ERROR_RETRY, hfi1's restart_rc): with none left the QP goes to the error
             * state (IBV_WC_RETRY_EXC_ERR). */
            if (c->retries >= f->set.retry_cnt) {
                qp_fail(f, fl, c, RC_RETRY_EXC_ERR);
                return;
            }
            c->retries++;
            conn_go(fl, c, upto);      /* go back N: send again from the PSN the responder expects */
            c->tmo_at = SIMTIME_NEVER; /* the timer starts again as that packet is sent */
            moved = 1;
        }
    }
    if (rc->blocked || moved) {
        rc->blocked = 0;
        fabric_flow_repace(f, fl);
    }
}

uint32_t transport_outstanding(const struct fabric *f)
{
    uint32_t n = 0;
    for (uint32_t i = 0; f->rtx && i < f->nflows; i++) {
        const struct rc_qp *rc = &f->flows[i].rc;
        for (uint32_t k = 0; !rc->x->failed && k < rc->x->nconn; k++)
            n += rc->x->conn[k].psn_acked != rc->x->conn[k].psn_next;
    }
    return n;
}

int transport_check(const struct fabric *f, char *why, size_t whylen)
{
    int bad = 0;
    size_t n = 0;
    why[0] = 0;
    if (!f->rtx)
        return 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        const struct flow *fl = &f->flows[i];
        const struct rc_qp *rc = &fl->rc;
        if (rc->x->failed)
            continue;
        uint32_t msgs = 0;
        for (uint32_t k = 0; k < rc->x->nconn; k++) {
            const struct rc_conn *c = &rc->x->conn[k];
            msgs += c->rmsgs;
            if (c->epsn != c->psn_next || c->psn_acked != c->psn_next || c->rmsgs != c->msgs_made) {
                if (n + 1 < whylen)
                    n += (size_t)snprintf(why + n, whylen - n,
                                          "reliable connection: flow %s to host %u sent PSNs 0..%u (%u "
                                          "messages), its responder accepted %u (%u messages), %u "
                                          "acknowledged\n", fl->name, rc->x->nconn == 1 ? (unsigned)fl->dst_host : k,
                                          c->psn_next, c->msgs_made, c->epsn, c->rmsgs, c->psn_acked);
                bad++;
            }
        }
        if (msgs != fl->msg_seq || rc->psn_acked != rc->psn_next) {
            if (n + 1 < whylen)
                n += (size_t)snprintf(why + n, whylen - n,
                                      "reliable connection: flow %s made %u messages (%u packets), its "
                                      "responders accepted %u, %u packets acknowledged\n", fl->name,
                                      fl->msg_seq, rc->psn_next, msgs, rc->psn_acked);
            bad++;
        }
    }
    if (f->cnt.misordered) {
        if (n + 1 < whylen)
            snprintf(why + n, whylen - n,
                     "reliable connection: %llu packets accepted in PSN order out of message order\n",
                     (unsigned long long)f->cnt.misordered);
        bad++;
    }
    return bad;
}

void transport_on_ack(struct fabric *f, const struct packet *x)
{
    if (x->about_flow >= f->nflows)
        return;
    struct flow *fl = &f->flows[x->about_flow];
    fl->rc.x->acks++;
    if (f->rtx) {
        rtx_on_ack(f, fl, x);
        return;
    }
    if (fl->rc.dout) { /* a window per destination: the ACK comes from that host */
        int h = x->src_lid <= f->max_lid ? f->host_of_lid[x->src_lid] : -1;
        if (h >= 0 && fl->rc.dout[h])
            fl->rc.dout[h]--;
    }
    int msg_done;
    if (fl->dst_host >= 0) { /* cumulative: an ACK acknowledges its PSN and every one before it */
        if (x->psn + 1 - fl->rc.psn_acked <= fl->rc.psn_next - fl->rc.psn_acked)
            fl->rc.psn_acked = x->psn + 1;
        msg_done = (x->flags & PKT_LAST) && x->msg + 1 - fl->rc.msg_acked <= fl->rc.msg_begun - fl->rc.msg_acked;
        if (msg_done)
            fl->rc.msg_acked = x->msg + 1;
    } else {
        /* A flow to many hosts is a connection per destination host, its packets and messages
         * numbered in one sequence here: an ACK acknowledges what it names (a packet, or a
         * message's packets) and nothing another host has yet to receive. Without losses
         * each packet (ack = packet) or message (ack = message) is acknowledged exactly once,
         * so the ACKs are counted. */
        fl->rc.psn_acked += f->set.ack_per == ACK_PER_PACKET
                                ? 1 : (uint32_t)msgtab_take(&fl->rc.x->pkts, x->msg, fl->name);
        msg_done = (x->flags & PKT_LAST) != 0;
        fl->rc.msg_acked += (uint32_t)msg_done;
    }
    if (msg_done) {
        if (fl->rc.win_msgs && !fl->rc.x->retry)
            fabric_flow_post(f, fl); /* the credit posts a waiting message (a real-time consumer
                                        posts at its own retry) */
    }
    if (fl->rc.blocked) {
        fl->rc.blocked = 0;
        fabric_flow_repace(f, fl);
    }
}

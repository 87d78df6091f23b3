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

#define OFF(field) offsetof(struct fabric_settings, field)

static const char *const mode_names[] = { "ud", "rc", NULL };
static const char *const ack_names[] = { "packet", "message", NULL };
static const char *const unit_names[] = { "packets", "messages", NULL };
static const char *const per_names[] = { "flow", "destination", NULL };

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
    PARAM_END,
};

uint32_t transport_ack_wire(const struct fabric_settings *s)
{
    if (s->ack_bytes)
        return (uint32_t)s->ack_bytes;
    return IB_LRH + (s->grh ? IB_GRH : 0) + IB_BTH + IB_AETH + IB_ICRC + IB_VCRC;
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
        if (per_dest && fl->dst_host < 0) {
            if (!fl->rc.dout)
                fl->rc.dout = xcalloc((size_t)f->nhosts, sizeof *fl->rc.dout);
            fl->rc.window = (uint32_t)f->set.window;
            if (!fl->dest_paced)
                fabric_flow_pace_by_dest(f, fl, (int)f->set.window_held);
        } else if (f->set.window > 0)
            transport_set_window(fl, (uint32_t)f->set.window, f->set.window_unit == WINDOW_MESSAGES);
        if (fl->dst_host < 0 && !fl->rc.becn_dest)
            fl->rc.becn_dest = xcalloc((size_t)f->nhosts, 1);
    }
    return 0;
}

void transport_set_window(struct flow *fl, uint32_t window, int messages)
{
    fl->rc.win = 1;
    fl->rc.win_msgs = (uint8_t)(messages != 0);
    fl->rc.window = window;
    free(fl->rc.posted_at);
    fl->rc.posted_at = messages && window <= RC_POSTED_MAX ? xcalloc(window, sizeof *fl->rc.posted_at)
                                                           : NULL;
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
    uint8_t *pending = fl->rc.becn_dest ? &fl->rc.becn_dest[at->hca->host] : &fl->rc.becn;
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

void transport_on_ack(struct fabric *f, const struct packet *x)
{
    if (x->about_flow >= f->nflows)
        return;
    struct flow *fl = &f->flows[x->about_flow];
    fl->rc.acks++;
    if (fl->rc.dout) { /* a window per destination: the ACK comes from that host */
        int h = x->src_lid <= f->max_lid ? f->host_of_lid[x->src_lid] : -1;
        if (h >= 0 && fl->rc.dout[h])
            fl->rc.dout[h]--;
    }
    /* Cumulative: an ACK acknowledges its PSN and every one before it. */
    if (x->psn + 1 - fl->rc.psn_acked <= fl->rc.psn_next - fl->rc.psn_acked)
        fl->rc.psn_acked = x->psn + 1;
    if ((x->flags & PKT_LAST) && x->msg + 1 - fl->rc.msg_acked <= fl->rc.msg_begun - fl->rc.msg_acked) {
        fl->rc.msg_acked = x->msg + 1;
        if (fl->rc.win_msgs && !fl->rc.retry)
            fabric_flow_post(f, fl); /* the credit posts a waiting message (a real-time consumer
                                        posts at its own retry) */
    }
    if (fl->rc.blocked) {
        fl->rc.blocked = 0;
        fabric_flow_repace(f, fl);
    }
}

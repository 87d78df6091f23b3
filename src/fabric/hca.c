/* hca.c: host channel adapters. Each adapter port holds the flows (queue pairs) that send from
 * it, in a round-robin ring per VL of the flows that may send now; a priority path for control
 * packets (CNPs, ACKs); an optional injection rate limit (the host bus); and the sink, which
 * consumes arriving packets, at an optional reception rate limit, and returns their credits.
 * Flows draw messages from their arrival process, cut them into MTU-sized packets (a 0-byte
 * message is one packet without payload), and pause while a pacing delay (next_ok, set by
 * congestion control) is pending, without blocking the other flows of the port. Each flow also
 * integrates over time the number of its messages at the source (waiting, or being
 * transmitted until the tail of their last packet), which makes the source a finite queue;
 * with hca.messages the adapter's flows also share one bound on the messages it holds (seed
 * 003's buffer M).
 * A split pattern flow (one class of a host, Paper IV Frame I) picks each message's destination
 * when the message starts, and starts one only when its class budget admits it; a saturating
 * B node with one flow starts one when either class budget admits it. Flows that congestion
 * control paces per destination hold a started message whose destination must wait and go on
 * with the next (a B node then picks its uniform class while its hot-spot queue pair waits). */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "fabric/adapt.h"
#include "fabric/fabric.h"
#include "fabric/lanes.h"
#include "fabric/mcast.h"
#include "fabric/isol.h"
#include "fabric/transport.h"

/* ---- ready rings: flows of one port and VL that may send now, served round robin ---- */

static void ring_insert(struct fabric *f, struct flow *fl)
{
    struct hca_port *h = fl->src->hca;
    int slot = fabric_slot(f, fl->vl);
    uint32_t head = h->ring[slot];
    if (head == FLOW_NIL) {
        fl->ring_prev = fl->ring_next = fl->index;
        h->ring[slot] = fl->index;
    } else {
        /* Insert before the head: the newcomer is served last in this round. */
        struct flow *hd = &f->flows[head], *tl = &f->flows[hd->ring_prev];
        fl->ring_next = head;
        fl->ring_prev = tl->index;
        tl->ring_next = fl->index;
        hd->ring_prev = fl->index;
    }
    fl->ready = 1;
}

/* Whether the control path's head packet is on VL slot `slot` (it then waits there). */
static inline int ctrl_waits_on(const struct fabric *f, const struct hca_port *h, int slot)
{
    return h->ctrl.head != PKT_NIL && fabric_slot(f, pkt(&f->pool, h->ctrl.head)->vl) == slot;
}

static void ring_remove(struct fabric *f, struct flow *fl)
{
    struct hca_port *h = fl->src->hca;
    int slot = fabric_slot(f, fl->vl);
    if (fl->ring_next == fl->index) {
        h->ring[slot] = FLOW_NIL;
        /* No flow left to send on this VL: a wait for its credits ends (PortXmitWait counts
         * only time with data to send), unless a control packet at the head of the control
         * path waits on it. */
        if (!ctrl_waits_on(f, h, slot))
            port_wait_end(fl->src, slot, f->now);
    } else {
        f->flows[fl->ring_prev].ring_next = fl->ring_next;
        f->flows[fl->ring_next].ring_prev = fl->ring_prev;
        if (h->ring[slot] == fl->index)
            h->ring[slot] = fl->ring_next;
    }
    fl->ready = 0;
}

static inline int flow_has_data(const struct flow *fl)
{
    return fl->cur_open || fl->qn > 0 || (fl->saturate && fl->active) || fl->nheld > 0 ||
           fl->rc.snd != fl->rc.psn_next; /* going back N (retransmission) */
}

/* Bytes of the message the flow starts next. */
static uint32_t next_msg_bytes(const struct flow *fl)
{
    return fl->qn ? fl->mq[fl->qhead].bytes : (uint32_t)fl->arr.d.msg_bytes;
}

/* When flow fl may send its next packet to host h: its window to that host (transport.window_per
 * = destination; a full one marks the flow blocked, so that the ACK re-evaluates it) and the
 * plug-in's pacing (hooks.dest_ready). SIMTIME_NEVER: only an ACK can open it. */
static simtime_t dest_ready_host(struct fabric *f, struct flow *fl, int h)
{
    if (fl->rc.rnr_hold) { /* that host's connection waits out an RNR NAK's timer */
        simtime_t r = fl->rc.x->conn[fl->rc.x->nconn == 1 ? 0 : h].rnr_at;
        if (r != SIMTIME_NEVER)
            return r;
    }
    if (fl->rc.dout && fl->rc.dout[h] >= fl->rc.window) {
        fl->rc.blocked = 1;
        return SIMTIME_NEVER;
    }
    return f->hooks.dest_ready ? f->hooks.dest_ready(f, fl, h) : f->now;
}

/* When the flow may start its next message under its pattern's byte budgets (Paper IV Frame I):
 * a split flow's class budget; for a saturating B node with one flow the first of its two
 * budgets, and *cls the class to send (with destination pacing the hot-spot class only once its
 * queue pair may send); 0 for other flows (*cls -1); SIMTIME_NEVER when it never will. */
static simtime_t budget_start(struct fabric *f, struct flow *fl, int *cls)
{
    *cls = -1;
    if (fl->pat_class >= 0)
        return pattern_budget_time(fl->pat, fl->src_host, fl->pat_class, next_msg_bytes(fl));
    if (fl->pattern != 2 || !fl->saturate || fl->qn || pattern_role(fl->pat, fl->src_host) != ROLE_B)
        return 0;
    simtime_t ready = 0, wait = SIMTIME_NEVER;
    int hot = fl->dest_paced ? pattern_hot_dest(fl->pat, fl->src_host, f->now) : -1;
    if (hot >= 0)
        ready = dest_ready_host(f, fl, hot);
    *cls = pattern_b_class(fl->pat, fl->src_host, next_msg_bytes(fl), f->now, ready, &wait);
    return *cls >= 0 ? f->now : wait;
}

/* A flow about to start a message waits (next_ok) until its budget admits it; 0 when it never
 * will. */
static int budget_admits(struct fabric *f, struct flow *fl)
{
    int cls;
    simtime_t t = budget_start(f, fl, &cls);
    if (t == SIMTIME_NEVER)
        return 0;
    if (t > fl->next_ok)
        fl->next_ok = t;
    return 1;
}

/* ---- destination pacing: a queue pair per destination (see fabric_flow_pace_by_dest) ---- */

static int flow_begin_message(struct fabric *f, struct flow *fl, int cls);

/* A destination named by a stopped CAM line of the adapter (isolation switches) is not
 * eligible: the flow looks again when a Go comes (isol.c re-paces it), or after this at most. */
#define ISOL_RECHECK (10 * PS_PER_US)

static simtime_t dest_ready(struct fabric *f, struct flow *fl, uint16_t dst_lid)
{
    int host = fabric_host_of_lid(f, dst_lid);
    if (host < 0)
        return f->now; /* a multicast group has no per-destination queue pair */
    simtime_t t = dest_ready_host(f, fl, host);
    const struct isol_hca *h = fl->src->hca->isol;
    if (h && t < f->now + ISOL_RECHECK && isol_hca_stopped(h, dst_lid))
        t = f->now + ISOL_RECHECK;
    return t;
}

/* Earliest time one of the flow's held messages may go on. */
static simtime_t held_earliest(struct fabric *f, struct flow *fl)
{
    simtime_t e = SIMTIME_NEVER;
    for (uint16_t k = 0; k < fl->nheld; k++) {
        simtime_t t = dest_ready(f, fl, fl->held[k].m.dst_lid);
        if (t < e)
            e = t;
    }
    return e;
}

/* Make the oldest held message whose destination may take a packet now the current one. */
static int held_resume(struct fabric *f, struct flow *fl)
{
    for (uint16_t k = 0; k < fl->nheld; k++) {
        if (dest_ready(f, fl, fl->held[k].m.dst_lid) > f->now)
            continue;
        fl->cur = fl->held[k].m;
        fl->cur_left = fl->held[k].left;
        fl->svc_start = fl->held[k].svc_start;
        fl->cur_open = 1;
        memmove(&fl->held[k], &fl->held[k + 1], (size_t)(fl->nheld - k - 1) * sizeof *fl->held);
        fl->nheld--;
        return 1;
    }
    return 0;
}

/* A destination-paced flow: make `cur` a message whose destination may take a packet now,
 * holding started messages whose destination must wait, and set next_ok to when the flow can
 * send. Returns 0 when it has nothing to send at all. */
static int flow_choose(struct fabric *f, struct flow *fl)
{
    for (;;) {
        if (fl->cur_open) {
            simtime_t t = dest_ready(f, fl, fl->cur.dst_lid);
            if (t <= f->now) {
                fl->next_ok = f->now;
                return 1;
            }
            if (fl->nheld == fl->held_cap) {
                /* Every slot taken: a held message whose destination may take it now goes
                 * instead (the current one takes its slot); else wait for the first to open. */
                for (uint16_t k = 0; k < fl->nheld; k++) {
                    if (dest_ready(f, fl, fl->held[k].m.dst_lid) > f->now)
                        continue;
                    struct held_msg go = fl->held[k];
                    memmove(&fl->held[k], &fl->held[k + 1],
                            (size_t)(fl->nheld - k - 1) * sizeof *fl->held);
                    fl->held[fl->nheld - 1] = (struct held_msg){ fl->cur, fl->cur_left, fl->svc_start };
                    fl->cur = go.m;
                    fl->cur_left = go.left;
                    fl->svc_start = go.svc_start;
                    fl->next_ok = f->now;
                    return 1;
                }
                simtime_t e = held_earliest(f, fl);
                fl->next_ok = t < e ? t : e;
                return 1;
            }
            fl->held[fl->nheld++] = (struct held_msg){ fl->cur, fl->cur_left, fl->svc_start };
            fl->cur_left = 0;
            fl->cur_open = 0;
        }
        if (held_resume(f, fl))
            continue;
        int cls = -1;
        simtime_t start = fl->qn > 0 || (fl->saturate && fl->active) ? budget_start(f, fl, &cls)
                                                                       : SIMTIME_NEVER;
        if (start <= f->now && fl->rc.win && !transport_may_begin(f, fl)) {
            fl->rc.blocked = 1; /* the window is full: an ACK brings it back */
            start = SIMTIME_NEVER;
        }
        if (start <= f->now) {
            if (!flow_begin_message(f, fl, cls))
                fl->active = 0; /* the pattern gives this host nothing: it stays silent */
            continue;
        }
        simtime_t wake = held_earliest(f, fl);
        if (start < wake)
            wake = start;
        if (wake == SIMTIME_NEVER)
            return 0;
        fl->next_ok = wake;
        return 1;
    }
}

void fabric_flow_pace_by_dest(struct fabric *f, struct flow *fl, int held_cap)
{
    (void)f;
    fl->dest_paced = 1;
    fl->held_cap = (uint16_t)(held_cap > 0 ? held_cap : 0);
    free(fl->held);
    fl->held = xcalloc((size_t)fl->held_cap + 1, sizeof *fl->held);
}

/* A flow that drops and retries (rc.x->retry > 0, seed 003's real-time consumer) found no room
 * in its window for a new message: the attempt to post its head message is dropped, counted,
 * and repeated rc.x->retry later; a message refused more than rc.x->retries_max times (>= 0) is given
 * up and the next one tried at once. An attempt is made only when no retry is pending (a
 * message arriving meanwhile queues behind the head). Returns whether it still has data; then
 * next_ok is the retry. */
static int flow_drop_retry(struct fabric *f, struct flow *fl)
{
    if (fl->next_ok > f->now)
        return 1;
    uint64_t counted = f->now >= f->warmup && !f->ended;
    for (;;) {
        fl->rc.x->drops += counted;
        if (fl->qn == 0)
            break; /* a saturating consumer: only the attempt counts */
        struct msg *m = &fl->mq[fl->qhead];
        if (m->tries < 255)
            m->tries++;
        if (fl->rc.x->retries_max < 0 || m->tries <= fl->rc.x->retries_max)
            break;
        flow_queue_account(f, fl);
        fl->qhead = (fl->qhead + 1) % fl->qcap;
        fl->qn--;
        fl->rc.x->lost += counted;
        if (!flow_has_data(fl))
            return 0;
    }
    fl->next_ok = f->now + fl->rc.x->retry;
    return 1;
}

/* The end-node eligibility rule for a flow to one host (isolation switches; a flow paced per
 * destination has it in dest_ready): while a stopped CAM line of its adapter names the flow's
 * destination it starts no packet, and looks again when a Go or Deallocate comes (isol.c
 * re-paces the adapter's flows) or after ISOL_RECHECK. The time it may send, or 0. */
static simtime_t isol_hold(struct fabric *f, const struct flow *fl)
{
    const struct isol_hca *h = fl->src->hca->isol;
    if (!h || fl->pattern != 0 || fl->dest_paced)
        return 0;
    /* The LID of its packets: the last message's (the same host, the same LMC offset unless it
     * changes per message), the host's base LID before the first. */
    uint16_t dst = fl->cur.dst_lid ? fl->cur.dst_lid : f->hosts[fl->dst_host].port->lid;
    return isol_hca_stopped(h, dst) ? f->now + ISOL_RECHECK : 0;
}

/* When a destination-paced flow may send its next packet to send again: when the plug-in's
 * pacing lets it send to that packet's destination (the packet is inside the window). */
static simtime_t resend_ready(struct fabric *f, struct flow *fl)
{
    int h = fabric_host_of_lid(f, transport_resend_peek(fl, NULL)->dst_lid);
    return f->hooks.dest_ready && h >= 0 ? f->hooks.dest_ready(f, fl, h) : f->now;
}

/* Put the flow in or out of its ring according to whether it may send now. */
static void flow_update(struct fabric *f, struct flow *fl)
{
    int has;
    if (fl->rc.snd != fl->rc.psn_next) {
        has = 1; /* packets to send again (go-back-N): no new message is chosen meanwhile */
        if (fl->dest_paced) /* at the pacing of the destination they go to (inside its window) */
            fl->next_ok = resend_ready(f, fl);
    } else if (fl->rc.rnr_hold && !fl->dest_paced) {
        /* An RNR NAK's timer holds one of its connections: nothing new until it ends (the
         * timer re-paces the flow; a flow paced per destination holds only that host's). */
        if (fl->ready)
            ring_remove(f, fl);
        return;
    } else if (fl->dest_paced) {
        has = flow_choose(f, fl);
    } else {
        has = flow_has_data(fl);
        if (has && !fl->cur_open && fl->pattern == 2)
            has = budget_admits(f, fl);
    }
    if (has && fl->rc.win && !transport_window_open(f, fl)) {
        if (fl->rc.x->retry > 0) {
            has = flow_drop_retry(f, fl); /* a real-time consumer: next_ok is its retry */
        } else {
            /* Reliable connection with its window full: out of the ring until an ACK comes. */
            fl->rc.blocked = 1;
            if (fl->ready)
                ring_remove(f, fl);
            return;
        }
    }
    simtime_t when = fl->next_ok;
    if (has && fl->src->hca->isol) {
        simtime_t hold = isol_hold(f, fl);
        if (hold > when)
            when = hold;
    }
    if (has && when <= f->now) {
        if (!fl->ready) {
            ring_insert(f, fl);
            if (port_busy(f, fl->src))
                port_need_done(f, fl->src);
            else
                hca_try_send(f, fl->src);
        }
        return;
    }
    if (fl->ready)
        ring_remove(f, fl);
    /* A destination-paced flow's wake-up may come earlier than the one pending; none when only
     * an ACK can let it go on (a window per destination: rc.blocked is set). */
    if (has && when != SIMTIME_NEVER && (!fl->waking || when < fl->wake_at)) {
        fl->waking = 1;
        fl->wake_at = when;
        fabric_schedule(f, when, EV_FLOW_WAKE, fl, 0, 0);
    }
}

void fabric_flow_post(struct fabric *f, struct flow *fl)
{
    if (!fl->rc.win_msgs)
        return;
    uint32_t out = fl->rc.msg_begun - fl->rc.msg_acked;
    while (fl->qposted < fl->qn && out + fl->qposted < fl->rc.window) {
        fl->mq[(fl->qhead + fl->qposted) % fl->qcap].posted = f->now;
        fl->qposted++;
    }
}

void fabric_flow_repace(struct fabric *f, struct flow *fl)
{
    flow_update(f, fl);
}

void flow_wake(struct fabric *f, struct flow *fl)
{
    if (f->now < fl->wake_at)
        return; /* an earlier wake-up than the one pending already ran */
    fl->waking = 0;
    flow_update(f, fl);
}

/* ---- messages ---- */

static uint16_t host_lid(const struct fabric *f, int host)
{
    return f->hosts[host].port->lid;
}

/* The LID a flow's message to host `dst` goes to: the group's MLID for a multicast flow. */
static uint16_t dest_lid(const struct fabric *f, const struct flow *fl, int dst)
{
    return fl->pattern == 5 ? fl->mlid : host_lid(f, dst);
}

/* Destination host of the flow's next message, or -1 when the pattern gives this host none. */
static int pick_dest(struct fabric *f, struct flow *fl)
{
    if (fl->pattern == 0)
        return fl->dst_host;
    if (fl->pattern == 2)
        return pattern_dest(fl->pat, fl->src_host, f->now, fl->rng);
    if (fl->pattern == 3) {
        int k = (int)gsl_rng_uniform_int(fl->rng, (unsigned long)(fl->ndset - (fl->dset_self >= 0)));
        return fl->dset[fl->dset_self >= 0 && k >= fl->dset_self ? k + 1 : k];
    }
    if (fl->pattern == 4) { /* replicated unicast: the members in turn, the source skipped */
        if (fl->mc_next == fl->dset_self)
            fl->mc_next = (uint16_t)((fl->mc_next + 1) % fl->ndset);
        int d = fl->dset[fl->mc_next];
        fl->mc_next = (uint16_t)((fl->mc_next + 1) % fl->ndset);
        return d;
    }
    if (fl->pattern == 5)
        return fl->src_host; /* the MLID stands for every member (dest_lid) */
    int d = (int)gsl_rng_uniform_int(fl->rng, (unsigned long)(f->nhosts - 1));
    return d >= fl->src_host ? d + 1 : d;
}

/* Destination host of a split pattern flow's message of `bytes` starting now, charged to the
 * flow's class. */
static int class_dest(struct fabric *f, struct flow *fl, uint32_t bytes)
{
    return pattern_dest_class(fl->pat, fl->src_host, fl->pat_class, bytes, f->now, fl->rng);
}

/* A 0-byte message is sent as one packet without payload (26 wire bytes without a GRH). */
static void draw_next(struct fabric *f, struct flow *fl, struct msg_draw *d)
{
    (void)f;
    arrival_next(&fl->arr, fl->rng, d);
}

/* ---- the number of messages at the source over time (source_queue_mean) ---- */

/* Length of [a, b) inside the measured period [warmup, end). */
static simtime_t measured_span(const struct fabric *f, simtime_t a, simtime_t b)
{
    if (a < f->warmup)
        a = f->warmup;
    if (b > f->end)
        b = f->end;
    return b > a ? b - a : 0;
}

void flow_queue_account(struct fabric *f, struct flow *fl)
{
    fl->st.queue_area += (double)fl->qn * (double)measured_span(f, fl->st.queue_last, f->now);
    fl->st.queue_last = f->now;
}

double flow_source_queue_mean(const struct fabric *f, const struct flow *fl)
{
    if (f->end <= f->warmup)
        return 0.0;
    double area = fl->st.queue_area +
                  (double)fl->qn * (double)measured_span(f, fl->st.queue_last, f->now);
    if (fl->cur_open) /* a message whose last packet is not made yet */
        area += (double)measured_span(f, fl->svc_start, f->now);
    for (uint16_t k = 0; k < fl->nheld; k++) /* started messages held back */
        area += (double)measured_span(f, fl->held[k].svc_start, f->now);
    return area / (double)(f->end - f->warmup);
}

/* ---- message events ----
 * A CBR connection always has its next message drawn, as an event far ahead (seed 001's
 * Table 3: 628,034 flows, one pending message event each, most beyond the calendar queue's
 * wheel, in its overflow heap). An adapter port keeps its flows' message events itself and
 * puts into the event queue only the earliest (and any drawn earlier than those already
 * there): each keeps the scheduling number taken when it was drawn, so it leaves the queue
 * exactly where it would have, and the events are the same in the same order. Invariant:
 * every event in the port's heap comes after the top of its armed stack, which is in the
 * event queue; when that leaves, the next earliest is armed. */

static inline int msg_before(const struct msg_event *x, const struct msg_event *y)
{
    return x->t != y->t ? x->t < y->t : x->seq < y->seq;
}

static void msg_arm(struct fabric *f, struct hca_port *h, const struct msg_event *m)
{
    if (h->narmed == h->carmed) { /* rarely: a few armed at a time (each a new earliest) */
        h->carmed = h->carmed ? 2 * h->carmed : 4;
        h->armed = xrealloc(h->armed, (size_t)h->carmed * sizeof *h->armed);
    }
    h->armed[h->narmed++] = *m;
    eventq_push_seq_on(&f->q, f->q.origin, m->t, m->seq, EV_FLOW_MSG, m->fl, 0, 0);
}

/* The flow's next message at time t: its scheduling number now, as fabric_schedule would. */
static void msg_schedule(struct fabric *f, struct flow *fl, simtime_t t)
{
    struct hca_port *h = fl->src->hca;
    struct msg_event m = { t, eventq_reserve_seq(&f->q), fl };
    if (!h->narmed || msg_before(&m, &h->armed[h->narmed - 1]) || f->msg_direct) {
        msg_arm(f, h, &m);
        return;
    }
    if (h->nheap == h->cheap) /* sized at build: one per flow of the port */
        ibn_panic("adapter port %s: more message events than flows", fl->src->node->name);
    uint32_t i = h->nheap++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!msg_before(&m, &h->mheap[up]))
            break;
        h->mheap[i] = h->mheap[up];
        i = up;
    }
    h->mheap[i] = m;
}

/* The flow's armed message event left the event queue (the earliest armed of its port): arm
 * the heap's earliest while it comes before what is still armed. */
void flow_message_left(struct fabric *f, struct flow *fl)
{
    struct hca_port *h = fl->src->hca;
    h->narmed--;
    while (h->nheap && (!h->narmed || msg_before(&h->mheap[0], &h->armed[h->narmed - 1]))) {
        struct msg_event top = h->mheap[0], last = h->mheap[--h->nheap];
        uint32_t i = 0, n = h->nheap;
        for (;;) {
            uint32_t c = 2 * i + 1;
            if (c >= n)
                break;
            if (c + 1 < n && msg_before(&h->mheap[c + 1], &h->mheap[c]))
                c++;
            if (!msg_before(&h->mheap[c], &last))
                break;
            h->mheap[i] = h->mheap[c];
            i = c;
        }
        if (n)
            h->mheap[i] = last;
        msg_arm(f, h, &top);
    }
}

void flow_start(struct fabric *f, struct flow *fl)
{
    if (f->ended || f->now >= fl->stop)
        return;
    if (fl->pat_class >= 0 &&
        pattern_budget_time(fl->pat, fl->src_host, fl->pat_class, 0) == SIMTIME_NEVER)
        return; /* a class this host does not have: the queue pair stays quiet */
    fl->active = 1;
    if (fl->saturate) {
        flow_update(f, fl);
        return;
    }
    draw_next(f, fl, &fl->next_draw);
    int kind = fl->arr.d.kind;
    if (fl->st.has_deadlines && (kind == ARRIVAL_VIDEO || kind == ARRIVAL_TRACE)) {
        /* Seed 003's rule counts from the first frame's generation (digest 003 gap 16), which
         * the random phase puts up to one period after the flow's start; the first frame's
         * slack is the draw's relative deadline (the `deadline` key, else one period). */
        vdl_init(&fl->st.vdl, f->now + fl->next_draw.gap, fl->st.vdl.period, fl->next_draw.deadline);
        if (fl->mc_vdl)
            for (int k = 0; k < f->mc->g[fl->mgroup].nmembers; k++)
                fl->mc_vdl[k] = fl->st.vdl;
    }
    msg_schedule(f, fl, f->now + fl->next_draw.gap);
}

void flow_stop(struct fabric *f, struct flow *fl)
{
    fl->active = 0;
    flow_update(f, fl);
}

/* The flow's message ring is full below its limit: double it (at most qmax), oldest message
 * first at slot 0. At most log2(qmax) times per flow over a run, like the packet pool's growth. */
static void flow_mq_grow(struct flow *fl)
{
    uint32_t cap = fl->qcap * 2 < fl->qmax ? fl->qcap * 2 : fl->qmax;
    struct msg *q = xmalloc((size_t)cap * sizeof *q);
    for (uint32_t k = 0; k < fl->qn; k++)
        q[k] = fl->mq[(fl->qhead + k) % fl->qcap];
    free(fl->mq);
    fl->mq = q;
    fl->qhead = 0;
    fl->qcap = cap;
}

/* A distributed run: message `msg` of a flow with message windows was posted at `t`. */
static void posted_log_set(struct rc_ext *x, uint32_t msg, simtime_t t)
{
    if (msg >= x->posted_cap) {
        uint32_t cap = x->posted_cap ? x->posted_cap : 1024;
        while (cap <= msg)
            cap *= 2;
        x->posted_log = xrealloc(x->posted_log, (size_t)cap * sizeof *x->posted_log);
        x->posted_cap = cap;
    }
    for (; x->nposted < msg; x->nposted++) /* numbers skipped: never posted */
        x->posted_log[x->nposted] = SIMTIME_NEVER;
    x->posted_log[msg] = t;
    if (msg == x->nposted)
        x->nposted++;
}

/* Messages a flow holds in its adapter: those posted and waiting (every queued one when it
 * posts on arrival; with message credits only the posted ones, the rest being the consumer's
 * backlog), the one being sent and those held back by destination pacing. */
static uint32_t flow_in_adapter(const struct flow *fl)
{
    return (fl->rc.win_msgs ? fl->qposted : fl->qn) + fl->cur_open + fl->nheld;
}

/* Whether the adapter of port p holds hca.messages messages of its flows together (seed 003's
 * buffer M, shared by its consumers). The flows it sources are listed at the first call, and
 * again if flows were added since. */
static int adapter_full(struct fabric *f, struct port *p)
{
    struct hca_port *h = p->hca;
    if (h->listed_of != f->nflows) {
        h->nflows = 0;
        h->flows = xrealloc(h->flows, (size_t)f->nflows * sizeof *h->flows);
        for (uint32_t i = 0; i < f->nflows; i++)
            if (f->flows[i].src == p)
                h->flows[h->nflows++] = i;
        h->listed_of = f->nflows;
    }
    uint64_t held = 0;
    for (uint32_t k = 0; k < h->nflows; k++)
        held += flow_in_adapter(&f->flows[h->flows[k]]);
    return held >= (uint64_t)f->set.hca_messages;
}

/* The drawn message arrives at the flow now; the next one is drawn and scheduled. */
void flow_message(struct fabric *f, struct flow *fl)
{
    if (!fl->active)
        return;
    uint32_t bytes = fl->next_draw.bytes;
    int measured = f->now >= f->warmup;
    /* Replicated unicast: the message once per member but the source. */
    int copies = fl->pattern == 4 ? fl->ndset - (fl->dset_self >= 0) : 1;
    for (int copy = 0; copy < copies; copy++) {
        fl->st.msgs_offered++;
        if (fl->qn == fl->qcap && fl->qcap < fl->qmax)
            flow_mq_grow(fl);
        /* The source queue is full, or the adapter's shared buffer is and the message would be
         * posted into it now (with message credits it waits in the consumer's backlog instead:
         * the credits are its share of the buffer). */
        int adapter = fl->qn < fl->qcap && f->set.hca_messages > 0 && !fl->rc.win_msgs &&
                      adapter_full(f, fl->src);
        if (fl->qn == fl->qcap || adapter) {
            fl->st.msgs_refused++;
            fl->st.msgs_refused_adapter += (uint64_t)adapter;
            fl->st.msgs_offered_measured += (uint64_t)measured;
            fl->st.msgs_refused_measured += (uint64_t)measured;
        } else {
            struct msg *m = &fl->mq[(fl->qhead + fl->qn) % fl->qcap];
            m->created = f->now;
            m->bytes = bytes;
            m->ftype = fl->next_draw.frame_type;
            m->tries = 0;
            m->posted = fl->rc.win_msgs ? SIMTIME_NEVER : f->now; /* else the queue is the adapter's */
            /* A split flow picks the destination when the message starts (flow_make_packet). */
            int split = fl->pat_class >= 0;
            int dst = split ? 0 : pick_dest(f, fl);
            if (dst >= 0) {
                m->dst_lid = split ? 0 : dest_lid(f, fl, dst);
                flow_queue_account(f, fl);
                fl->qn++;
                fl->st.msgs_offered_measured += (uint64_t)measured;
                fabric_flow_post(f, fl);
                flow_update(f, fl);
            } else {
                fl->st.msgs_offered--; /* the pattern gives this host nothing to send now */
            }
        }
    }
    draw_next(f, fl, &fl->next_draw);
    simtime_t t = f->now + fl->next_draw.gap;
    if (t < fl->stop && t < f->end)
        msg_schedule(f, fl, t);
}

/* Start the flow's next message (queued, or a new one of a saturating source) as `cur`, of
 * class `cls` of a B node's pattern (-1: as the flow picks destinations); 0 when the pattern
 * gives this host no destination. */
static int flow_begin_message(struct fabric *f, struct flow *fl, int cls)
{
    if (fl->qn) {
        flow_queue_account(f, fl);
        fl->cur = fl->mq[fl->qhead];
        fl->qhead = (fl->qhead + 1) % fl->qcap;
        fl->qn--;
        if (fl->qposted)
            fl->qposted--;   /* a posted message: its credit is now the begun message's */
        else if (fl->cur.posted == SIMTIME_NEVER)
            fl->cur.posted = f->now; /* a real-time retry that found a credit */
        if (fl->pat_class >= 0)
            fl->cur.dst_lid = host_lid(f, class_dest(f, fl, fl->cur.bytes));
    } else { /* saturating source: a new message now */
        uint32_t bytes = (uint32_t)fl->arr.d.msg_bytes;
        int dst = fl->pat_class >= 0 ? class_dest(f, fl, bytes)
                  : cls >= 0 ? pattern_dest_class(fl->pat, fl->src_host, cls, bytes, f->now, fl->rng)
                             : pick_dest(f, fl);
        if (dst < 0)
            return 0;
        fl->cur.created = f->now;
        fl->cur.ftype = 0;
        fl->cur.tries = 0;
        fl->cur.posted = f->now;
        fl->cur.bytes = (uint32_t)fl->arr.d.msg_bytes;
        fl->cur.dst_lid = dest_lid(f, fl, dst);
        fl->st.msgs_offered++;
        fl->st.msgs_offered_measured += (uint64_t)(f->now >= f->warmup);
    }
    fl->svc_start = f->now;
    fl->cur_left = fl->cur.bytes;
    fl->cur_open = 1;
    fl->rc.msg_begun++;
    if (fl->rc.posted) {
        if (__builtin_expect(f->dist != NULL, 0)) /* the destination may be another rank's */
            posted_log_set(fl->rc.x, fl->msg_seq, fl->cur.posted);
        else
            msgtab_put(fl->rc.posted, fl->msg_seq, fl->cur.posted);
    }
    if (fl->rc.x->pkts.key) { /* what this message's ACK will acknowledge */
        uint32_t mtu = (uint32_t)f->set.mtu;
        msgtab_put(&fl->rc.x->pkts, fl->msg_seq, fl->cur.bytes ? (fl->cur.bytes + mtu - 1) / mtu : 1);
    }
    return 1;
}

/* Multipath: which of the 2^LMC LIDs of the destination with base LID `base` this packet
 * uses (enum flow_path), counted per offset. */
static int path_offset(struct fabric *f, struct flow *fl, int base)
{
    int dst = f->host_of_lid[base];
    unsigned n = 1u << f->hosts[dst].port->lmc, off = 0;
    switch (fl->path) {
    case PATH_QP:
        off = fl->index & (n - 1);
        break;
    case PATH_MESSAGE:
        off = fl->msg_seq & (n - 1);
        break;
    case PATH_RANDOM:
        fl->path_rng += 0x9e3779b97f4a7c15ULL;
        off = (unsigned)(rng_mix64(fl->path_rng) >> 32) & (n - 1);
        break;
    case PATH_SHORTEST:
        off = f->short_off[(size_t)fl->src_host * (size_t)f->nhosts + (size_t)dst];
        break;
    case PATH_ADAPTIVE:
        return 0; /* from the base LID; counted where it arrives */
    }
    fl->path_pkts[off]++;
    return (int)off;
}

/* When a packet of `wire` bytes that flow fl starts now leaves its adapter port p: at the
 * link's rate, or at the share of it the flow's lane regime gives (lanes.h) for the messages it
 * holds at its source, the one being sent included (qn + 1 once the packet is made). */
static simtime_t flow_tx_end(const struct fabric *f, const struct flow *fl, const struct port *p,
                             uint32_t wire)
{
    if (!fl->lanes)
        return f->now + byterate_time(p->rate, wire);
    double share = lanes_share(fl->lanes, fl->qn + 1);
    return f->now + (simtime_t)ceil((double)wire * 8e12 / (byterate_bps(p->rate) * share));
}

/* Go-back-N: packet rc.snd of the flow again, as it was first sent (its message's creation
 * time, message number, LID, payload and flags), injected now. */
static uint32_t flow_resend_packet(struct fabric *f, struct flow *fl)
{
    uint32_t psn;
    const struct rc_sent *r = transport_resend_peek(fl, &psn);
    uint32_t idx = pktpool_alloc(&f->pool);
    struct packet *p = pkt(&f->pool, idx);
    memset(p, 0, sizeof *p);
    p->t_created = r->created;
    p->t_injected = p->t_tail = f->now;
    p->next = PKT_NIL;
    p->flow = p->about_flow = fl->index;
    p->msg = r->msg;
    p->psn = psn;
    p->src_lid = fl->src->lid;
    p->dst_lid = r->dst_lid;
    p->payload = r->payload;
    p->wire_bytes = (uint16_t)pkt_wire_bytes(r->payload, f->set.grh);
    p->credits = (uint8_t)bytes_to_credits(p->wire_bytes);
    p->sl = f->host_sl && p->dst_lid <= f->max_lid
                ? (uint8_t)(f->host_sl[fl->src_host][p->dst_lid] | (fl->sl & 8)) : fl->sl;
    p->vl = fl->vl;
    p->pb = fl->path == PATH_ADAPTIVE ? PB_ADAPTIVE : 0;
    p->flags = r->flags;
    f->cnt.created++;
    fabric_pkt_made(f, p);
    transport_sent(f, fl, p, 1);
    return idx;
}

/* Next packet of the flow: starts its next message if the current one is done. */
static uint32_t flow_make_packet(struct fabric *f, struct flow *fl)
{
    if (fl->rc.snd != fl->rc.psn_next)
        return flow_resend_packet(f, fl);
    if (!fl->cur_open && !flow_begin_message(f, fl, -1))
        return PKT_NIL; /* the pattern gives this host nothing: it stays silent */
    uint32_t mtu = (uint32_t)f->set.mtu;
    uint32_t payload = fl->cur_left < mtu ? fl->cur_left : mtu;
    uint32_t idx = pktpool_alloc(&f->pool);
    struct packet *p = pkt(&f->pool, idx);
    p->t_created = fl->cur.created;
    p->t_injected = f->now;
    p->t_tail = f->now;
    p->next = PKT_NIL;
    p->flow = fl->index;
    p->msg = fl->msg_seq;
    p->about_flow = fl->index;
    p->psn = fl->rc.psn_next++;
    fl->rc.snd = fl->rc.psn_next;
    if (fl->rc.dout)
        fl->rc.dout[f->host_of_lid[fl->cur.dst_lid]]++;
    p->src_lid = fl->src->lid;
    p->dst_lid = fl->cur.dst_lid;
    if (fl->path != PATH_BASE)
        p->dst_lid = (uint16_t)(p->dst_lid + path_offset(f, fl, p->dst_lid));
    p->payload = (uint16_t)payload;
    p->wire_bytes = (uint16_t)pkt_wire_bytes(payload, f->set.grh);
    p->credits = (uint8_t)bytes_to_credits(p->wire_bytes);
    /* An engine's path SL (torus-2QoS): as the SA's path record gives it per destination; the
     * adapter's VL depends on the QoS bit only, so the flow's VL holds. */
    p->sl = f->host_sl && p->dst_lid <= f->max_lid
                ? (uint8_t)(f->host_sl[fl->src_host][p->dst_lid] | (fl->sl & 8)) : fl->sl;
    p->vl = fl->vl;
    p->hops = 0;
    p->pb = fl->path == PATH_ADAPTIVE ? PB_ADAPTIVE : 0;
    p->flags = fl->cur.created >= f->warmup ? PKT_MEASURED : 0;
    if (fl->pattern == 5) {
        p->flags |= PKT_MCAST;
        f->mc->sent++;
    }
    if (f->drop && fl->cur.ftype) {
        /* Seed 004's protection: an I frame whole, a B or P frame's first and last packet. */
        int first = fl->cur_left == fl->cur.bytes, last = fl->cur_left == payload;
        if (fl->cur.ftype == 'I' || first || last)
            p->flags |= PKT_KEEP;
    }
    fl->cur_left -= payload;
    if (fl->cur_left == 0) {
        p->flags |= PKT_LAST;
        fl->cur_open = 0;
        fl->msg_seq++;
        /* The message stays at its source until this packet's tail is on the wire
         * (hca_try_send transmits it at once). */
        fl->st.queue_area += (double)measured_span(f, fl->svc_start,
                                                   flow_tx_end(f, fl, fl->src, p->wire_bytes));
    }
    fl->st.pkts_sent++;
    fl->st.bytes_sent += payload;
    f->cnt.created++;
    fabric_pkt_made(f, p);
    if (f->rtx)
        transport_sent(f, fl, p, 0);
    return idx;
}

/* Credits the flow's next packet needs. */
static int32_t flow_next_credits(const struct fabric *f, const struct flow *fl)
{
    if (fl->rc.snd != fl->rc.psn_next)
        return (int32_t)bytes_to_credits(pkt_wire_bytes(transport_resend_peek(fl, NULL)->payload, f->set.grh));
    uint32_t left = fl->cur_open ? fl->cur_left
                    : fl->qn    ? fl->mq[fl->qhead].bytes
                                : (uint32_t)fl->arr.d.msg_bytes;
    uint32_t mtu = (uint32_t)f->set.mtu;
    uint32_t payload = left < mtu ? left : mtu;
    return (int32_t)bytes_to_credits(pkt_wire_bytes(payload, f->set.grh));
}

static void inject_account(struct fabric *f, struct port *p, const struct packet *x)
{
    if (f->set.inject_limit_bps <= 0)
        return;
    struct hca_port *h = p->hca;
    uint32_t bytes = f->set.limit_counts_wire ? x->wire_bytes : x->payload;
    simtime_t start = h->inject_free > f->now ? h->inject_free : f->now;
    h->inject_free = start + byterate_time(f->inject_rate, bytes);
}

/* Arbitrate idle port p (credits up to date) and send a packet if one may go. */
static void arbitrate(struct fabric *f, struct port *p)
{
    struct hca_port *h = p->hca;
    if (h->inject_free > f->now) {
        if (!h->wake_pending) {
            h->wake_pending = 1;
            fabric_schedule(f, h->inject_free, EV_TX_DONE, p, 1, 0);
        }
        return;
    }
    /* The control path first. */
    if (h->ctrl.head != PKT_NIL) {
        struct packet *c = pkt(&f->pool, h->ctrl.head);
        int slot = fabric_slot(f, c->vl);
        if (c->vl == VL15 || p->vl[slot].credits >= c->credits) {
            uint32_t idx = pktq_pop(&h->ctrl, &f->pool);
            c->t_injected = f->now;
            port_wait_end(p, slot, f->now);
            port_transmit(f, p, idx, f->now);
            return;
        }
        port_wait_begin(p, slot, f->now); /* an ACK or CNP on a data VL waits for credits */
    }
    uint32_t ready = 0;
    for (int slot = 0; slot < f->nvs; slot++) {
        uint32_t fi = h->ring[slot];
        if (fi == FLOW_NIL)
            continue;
        int vl = fabric_slot_vl(f, slot);
        if (vl == VL15 || p->vl[slot].credits >= flow_next_credits(f, &f->flows[fi])) {
            ready |= 1u << vl;
            port_wait_end(p, slot, f->now);
        } else {
            port_wait_begin(p, slot, f->now);
        }
    }
    if (!ready)
        return;
    int vl = vlarb_pick(p->vlarb, &p->arb, ready);
    if (vl < 0)
        return;
    int slot = fabric_slot(f, vl);
    struct flow *fl = &f->flows[h->ring[slot]];
    h->ring[slot] = fl->ring_next; /* round robin: the next flow goes first next time */
    uint32_t idx = flow_make_packet(f, fl);
    if (idx == PKT_NIL) {
        /* A saturating source whose pattern has no destination for it: it goes quiet. */
        fl->active = 0;
        flow_update(f, fl);
        if (!p->tx_busy)
            arbitrate(f, p);
        return;
    }
    struct packet *x = pkt(&f->pool, idx);
    vlarb_charge(p->vlarb, &p->arb, vl, x->wire_bytes);
    inject_account(f, p, x);
    if (f->hooks.on_source_send)
        f->hooks.on_source_send(f, fl, x);
    /* A lane regime below the link's rate keeps the port busy for the packet's time at it. */
    port_transmit(f, p, idx, fl->lanes ? flow_tx_end(f, fl, p, x->wire_bytes) : f->now);
    flow_update(f, fl);
}

void hca_try_send(struct fabric *f, struct port *p)
{
    if (port_busy(f, p) || !p->peer)
        return;
    p->tx_busy = 0;
    port_absorb_credits(f, p);
    arbitrate(f, p);
    /* Packets wait unless every ring and the control path are empty. */
    struct hca_port *h = p->hca;
    int work = h->ctrl.head != PKT_NIL;
    for (int slot = 0; slot < f->nvs && !work; slot++)
        work = h->ring[slot] != FLOW_NIL;
    if (!p->tx_busy)
        port_watch_credits(f, p, work);
    else if (work || h->inject_free > p->busy_until)
        port_need_done(f, p); /* the end of the transmission arbitrates, or arms the limit's wake-up */
}

/* ---- control path ---- */

uint32_t fabric_control_new(struct fabric *f, struct port *from, uint16_t dst_lid, uint8_t sl,
                            uint8_t flags, uint32_t about, uint32_t wire_bytes)
{
    uint32_t idx = pktpool_alloc(&f->pool);
    struct packet *c = pkt(&f->pool, idx);
    memset(c, 0, sizeof *c);
    c->t_created = c->t_injected = c->t_tail = f->now;
    c->flow = FLOW_CONTROL;
    c->about_flow = about;
    c->src_lid = from->lid;
    c->dst_lid = dst_lid;
    if (f->short_off && f->host_of_lid[dst_lid] >= 0) {
        /* With multipath, control packets take the shortest route. */
        int h = f->host_of_lid[dst_lid];
        if (dst_lid == f->hosts[h].port->lid)
            c->dst_lid = (uint16_t)(dst_lid + f->short_off[(size_t)from->hca->host * (size_t)f->nhosts + (size_t)h]);
    }
    c->payload = 0;
    c->wire_bytes = (uint16_t)(wire_bytes ? wire_bytes : pkt_wire_bytes(0, f->set.grh));
    c->credits = (uint8_t)bytes_to_credits(c->wire_bytes);
    c->sl = f->host_sl && from->hca && c->dst_lid <= f->max_lid
                ? (uint8_t)(f->host_sl[from->hca->host][c->dst_lid] | (sl & 8)) : sl;
    c->vl = f->set.sl2vl_ca[c->sl & 15];
    c->flags = flags;
    f->cnt.created++;
    f->cnt.ctrl_created++;
    return idx;
}

void fabric_control_queue(struct fabric *f, struct port *from, uint32_t idx)
{
    pktq_push(&from->hca->ctrl, &f->pool, idx);
    if (port_busy(f, from))
        port_need_done(f, from);
    else
        hca_try_send(f, from);
}

void fabric_send_control(struct fabric *f, struct port *from, uint16_t dst_lid, uint8_t sl,
                         uint8_t flags, uint32_t about)
{
    fabric_control_queue(f, from, fabric_control_new(f, from, dst_lid, sl, flags, about, 0));
}

/* ---- sink ---- */

/* A message's last packet arrived: deadlines (video: seed 003's rule, which also runs through
 * the warm-up so that its deadline sequence is right) and jitter of its arrival time. */
void flow_judge_message(struct flow *fl, simtime_t now, simtime_t created, int measured)
{
    if (fl->st.has_deadlines) {
        int kind = fl->arr.d.kind;
        if (kind == ARRIVAL_VIDEO || kind == ARRIVAL_TRACE)
            vdl_frame(&fl->st.vdl, now, measured ? &fl->st.deadlines : NULL);
        else if (measured)
            deadline_add(&fl->st.deadlines, now, created + fl->arr.d.deadline);
    }
    if (fl->st.has_jitter && measured)
        jitter_add(&fl->st.jitter, now);
}

static void message_delivered(struct fabric *f, struct flow *fl, const struct packet *x)
{
    if (!fl->st.has_deadlines && !fl->st.has_jitter)
        return;
    int measured = (x->flags & PKT_MEASURED) != 0;
    if (__builtin_expect(f->dist != NULL, 0)) /* at rank 0, with the source's frame rule */
        f->dist->judged(f, x->flow, x->t_created, measured);
    else
        flow_judge_message(fl, f->now, x->t_created, measured);
}

static void deliver(struct fabric *f, struct port *at, uint32_t idx)
{
    struct packet *x = pkt(&f->pool, idx);
    if (x->flow != FLOW_CONTROL && (x->flags & PKT_MEASURED)) {
        /* The latency counters are scattered over the flows: fetch them while the credits go. */
        const struct flow_stats *st = &f->flows[x->flow].st;
        hist_prefetch(&st->net_latency, f->now - x->t_injected);
        hist_prefetch(&st->e2e_latency, f->now - x->t_created);
    }
    if (x->flags & PKT_MCAST) {
        f->mc->delivered++;
        if (!mcast_member(f, x->dst_lid, at->hca->host))
            f->cnt.misdelivered++;
    } else if (x->dst_lid < at->lid || x->dst_lid >= at->lid + (1u << at->lmc)) {
        f->cnt.misdelivered++;
    }
    port_return_credits(f, at, fabric_slot(f, x->vl), x->credits, f->now);
    if (f->hooks.on_receive) {
        f->hooks.on_receive(f, at, x);
        x = pkt(&f->pool, idx); /* the hook may have sent a CNP: the pool may have moved */
    }
    if (f->rtx && x->flow != FLOW_CONTROL && !transport_accept(f, at, x)) {
        /* A duplicate or a packet past a gap: the responder discards it (counted). */
        pktpool_release(&f->pool, idx);
        return;
    }
    if (x->flow != FLOW_CONTROL) {
        struct flow *fl = &f->flows[x->flow];
        if (fl->path == PATH_ADAPTIVE) /* the LID the switches chose */
            fl->path_pkts[x->dst_lid - at->lid]++;
        if (!f->ended) { /* the time series cover the whole run, warm-up included */
            fl->st.interval_bytes += x->payload;
            f->hosts[at->hca->host].interval_rx += x->payload;
        }
        if (f->now >= f->warmup && !f->ended) {
            if (__builtin_expect(++fl->st.pkts_delivered == f->until_delivered, 0))
                fabric_until_reached(f); /* the last flow to reach the count ends the run */
            fl->st.bytes_delivered += x->payload;
            f->hosts[at->hca->host].rx_bytes += x->payload;
            f->hosts[fl->src_host].tx_bytes += x->payload;
            if (x->flags & PKT_LAST)
                fl->st.msgs_delivered++;
        }
        if (x->flags & PKT_MEASURED) {
            if (!(x->flags & PKT_LAST) && fl->st.msg_is_e2e) { /* from now on they differ */
                hist_copy(&fl->st.msg_latency, &fl->st.e2e_latency);
                fl->st.msg_is_e2e = 0;
            }
            hist_add(&fl->st.net_latency, f->now - x->t_injected);
            hist_add(&fl->st.e2e_latency, f->now - x->t_created);
            if (__builtin_expect(f->dist != NULL, 0)) /* the sums' order (dist.c) */
                f->dist->delivered(f, x->flow, f->now - x->t_injected, f->now - x->t_created,
                                   (x->flags & PKT_LAST) != 0);
            if (x->flags & PKT_LAST) {
                if (!fl->st.msg_is_e2e)
                    hist_add(&fl->st.msg_latency, f->now - x->t_created);
                if (fl->rc.posted && __builtin_expect(f->dist != NULL, 0))
                    f->dist->posted_delivered(f, x->flow, x->msg); /* the source may be elsewhere */
            }
        }
        /* A message's posting time leaves the table when its last packet arrives, measured or
         * not (a distributed run joins the source's log at the end instead). */
        if ((x->flags & PKT_LAST) && fl->rc.posted && !f->dist) {
            simtime_t posted = msgtab_take(fl->rc.posted, x->msg, fl->name);
            if (x->flags & PKT_MEASURED)
                hist_add(&fl->st.posted_latency, f->now - posted);
        }
        if (fl->mgroup >= 0) /* per member, deadlines too; jitter is per unicast stream */
            mcast_delivered(f, fl, at->hca->host, x);
        else if (x->flags & PKT_LAST)
            message_delivered(f, fl, x);
        if (f->set.transport == TRANSPORT_RC && !(x->flags & PKT_MCAST))
            transport_on_data(f, at, x); /* may grow the pool: x is not used after this */
    } else if (x->flags & PKT_ACK) {
        transport_on_ack(f, x);
    }
    f->cnt.delivered++;
    fabric_pkt_gone(f, pkt(&f->pool, idx));
    pktpool_release(&f->pool, idx);
}

static void sink_start(struct fabric *f, struct port *p)
{
    struct hca_port *h = p->hca;
    const struct packet *x = pkt(&f->pool, h->sinkq.head);
    uint32_t bytes = f->set.limit_counts_wire ? x->wire_bytes : x->payload;
    h->sink_busy = 1;
    fabric_schedule(f, f->now + byterate_time(f->sink_rate, bytes), EV_SINK_DONE, p, 0, 0);
}

void hca_sink_arrive(struct fabric *f, struct port *p, uint32_t idx)
{
    struct hca_port *h = p->hca;
    if (f->set.sink_limit_bps <= 0) {
        deliver(f, p, idx);
        return;
    }
    pktq_push(&h->sinkq, &f->pool, idx);
    if (!h->sink_busy)
        sink_start(f, p);
}

void hca_sink_done(struct fabric *f, struct port *p)
{
    struct hca_port *h = p->hca;
    h->sink_busy = 0;
    deliver(f, p, pktq_pop(&h->sinkq, &f->pool));
    if (h->sinkq.head != PKT_NIL)
        sink_start(f, p);
}

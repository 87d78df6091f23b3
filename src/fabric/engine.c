/* engine.c: the event loop of the fabric model: transmission on links, credit return (kept at
 * the sender until it arbitrates, with a wake-up event only when one can matter; fabric.h),
 * event dispatch, the end of the measured run and the drain, and the end-of-run invariants (no
 * packet lost, credits conserved, nothing delivered to the wrong LID). */
#include "fabric/engine.h"
#include "fabric/period.h"
#include "fabric/drop.h"
#include "fabric/mcast.h"
#include "fabric/swarch.h"
#include "fabric/transport.h"
#include "fabric/vlcheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A packet starts on a watched link (port.watch): the capture and the timeline see it. Kept
 * out of line: the data path pays one byte test per hop when nothing watches. */
static __attribute__((noinline)) int watch_packet(struct fabric *f, struct port *out,
                                                  const struct packet *p, simtime_t end)
{
    if ((out->watch | out->peer->watch) & WATCH_CAPTURE)
        f->capture_fn(f, out, p);
    if (out->watch & WATCH_TIMELINE) {
        int slot = fabric_slot(f, p->vl);
        f->timeline_fn(f, TLN_SPAN, out, p, f->now, end - f->now, 0);
        f->timeline_fn(f, TLN_RX, out->peer, p, f->now, p->credits, slot);
        if (p->vl != VL15)
            f->timeline_fn(f, TLN_CREDITS, out, p, f->now, -(int64_t)p->credits, slot);
    }
    return out->watch & WATCH_CUT;
}

/* port_transmit on a cut port (a distributed run): the sender's side as usual; the arrival
 * and the receiver's counters are the peer's rank's (dist.c). */
static __attribute__((noinline)) simtime_t transmit_cut(struct fabric *f, struct port *out, struct packet *p,
                                                        uint32_t pidx, simtime_t end)
{
    p->t_tail = end + out->delay;
    p->hops++;
    f->hops++;
    out->tx_busy = 1;
    out->busy_until = end;
    out->done_seq = eventq_reserve_seq(&f->q);
    out->done_sched = 0;
    /* Before the watch is cleared: the window's first touch of the port records the watch as
     * the window found it (dist.c touch_tx), and the clear is logged as this transmission's. */
    f->dist->send_packet(f, out, pidx);
    out->credit_watch = 0;
    return end;
}

/* Buffer space frees at watched port `in` at t: its credits reach the peer later. */
static __attribute__((noinline)) void watch_free(struct fabric *f, struct port *in, int slot,
                                                 int credits, simtime_t t)
{
    f->timeline_fn(f, TLN_RX, in, NULL, t, -(int64_t)credits, slot);
    if (slot != f->set.nvls)
        f->timeline_fn(f, TLN_CREDITS, in->peer, NULL, t + in->delay + f->set.credit_delay,
                       credits, slot);
}

simtime_t port_transmit(struct fabric *f, struct port *out, uint32_t pidx, simtime_t tail_here)
{
    struct packet *p = pkt(&f->pool, pidx);
    simtime_t tx = byterate_time(out->rate, p->wire_bytes);
    simtime_t end = f->now + tx;
    if (end < tail_here)
        end = tail_here; /* a faster output waits for the tail */
    int slot = fabric_slot(f, p->vl);
    if (p->vl != VL15) {
        out->vl[slot].credits -= p->credits;
        if (out->vl[slot].credits < 0)
            ibn_panic("%s port %u sent %u credits on VL %d without holding them", out->node->name,
                      out->num, p->credits, p->vl);
    }
    if (f->hooks.on_depart)
        f->hooks.on_depart(f, out, p);
    struct port_vl_counters *c = &out->vl[slot].ctr;
    c->xmit_bytes += p->wire_bytes;
    c->xmit_pkts++;
    out->tx_start = f->now;
    out->tx_wire = p->wire_bytes;
    struct port *peer = out->peer;
    if (__builtin_expect(out->watch | peer->watch, 0) && watch_packet(f, out, p, end))
        return transmit_cut(f, out, p, pidx, end);
    struct port_vl_counters *rc = &peer->vl[slot].ctr;
    rc->rcv_bytes += p->wire_bytes;
    rc->rcv_pkts++;
    peer->vl[slot].rx_used += p->credits;
    peer->rx_total += p->credits;
    if (peer->rx_total > peer->rx_peak)
        peer->rx_peak = peer->rx_total;
    p->t_tail = end + out->delay;
    p->hops++;
    f->hops++;
    out->tx_busy = 1;
    out->credit_watch = 0;
    out->busy_until = end;
    out->done_seq = eventq_reserve_seq(&f->q);
    out->done_sched = 0;
    if (peer->is_switch)
        fabric_schedule_on(f, peer->node, f->now + out->delay + node_sw(peer->node)->latency, EV_ARRIVE,
                           peer, pidx, 0);
    else
        fabric_schedule_on(f, peer->node, p->t_tail, EV_SINK_ARRIVE, peer, pidx, 0);
    return end;
}

void port_return_credits(struct fabric *f, struct port *in, int slot, int credits, simtime_t t)
{
    in->vl[slot].rx_used -= credits;
    in->rx_total -= credits;
    if (in->vl[slot].rx_used < 0)
        ibn_panic("%s port %u: receive buffer use went negative on slot %d", in->node->name,
                  in->num, slot);
    if (__builtin_expect(in->watch, 0)) {
        if (in->watch & WATCH_TIMELINE)
            watch_free(f, in, slot, credits, t);
        if (in->watch & WATCH_CUT) { /* the sender is another rank's */
            f->dist->freed(f, in, slot, credits, t);
            return;
        }
    }
    if (slot == f->set.nvls) /* VL15 is not flow-controlled */
        return;
    struct port *p = in->peer;
    struct credit_return r = { t + in->delay + f->set.credit_delay, eventq_reserve_seq(&f->q), credits,
                               (uint16_t)slot, 0 };
    if (p->cret_n == p->cret_cap) { /* grow the ring, unwrapped */
        uint32_t cap = 2 * p->cret_cap;
        struct credit_return *c = xmalloc(cap * sizeof *c);
        for (uint32_t i = 0; i < p->cret_n; i++)
            c[i] = p->cret[(p->cret_head + i) & (p->cret_cap - 1)];
        if (p->cret != p->cret_inline)
            free(p->cret);
        p->cret = c;
        p->cret_head = 0;
        p->cret_cap = cap;
    }
    /* Returns are scheduled nearly in time order (buffer space frees in the order packets
     * leave, give or take different transmission times): insert from the back. */
    uint32_t mask = p->cret_cap - 1, i = p->cret_n++;
    while (i > 0) {
        const struct credit_return *q = &p->cret[(p->cret_head + i - 1) & mask];
        if (q->t < r.t || (q->t == r.t && q->seq < r.seq)) /* (t, seq) order */
            break;
        p->cret[(p->cret_head + i) & mask] = *q;
        i--;
    }
    p->cret[(p->cret_head + i) & mask] = r;
    if (i == 0)
        p->cret_next = r.t;
    /* An idle sender with packets waiting would have arbitrated again when this return
     * landed: if it is now its next return, wake it then. */
    if (i == 0 && p->credit_watch)
        port_watch_credits(f, p, 1);
}

static inline void absorb_until(struct fabric *f, struct port *p, simtime_t t, evseq_t seq)
{
    uint32_t mask = p->cret_cap - 1;
    while (p->cret_n) {
        const struct credit_return *r = &p->cret[p->cret_head];
        if (r->t > t || (r->t == t && r->seq > seq))
            break;
        p->vl[r->slot].credits += r->credits;
        if (p->vl[r->slot].credits > p->vl[r->slot].credit_cap)
            ibn_panic("%s port %u holds %d credits on slot %d, more than the %d its peer has",
                      p->node->name, p->num, p->vl[r->slot].credits, r->slot, p->vl[r->slot].credit_cap);
        p->cret_head = (p->cret_head + 1) & mask;
        p->cret_n--;
    }
    p->cret_next = p->cret_n ? p->cret[p->cret_head].t : SIMTIME_NEVER;
}

void port_absorb_credits_until(struct fabric *f, struct port *p, simtime_t t, evseq_t seq)
{
    if (__builtin_expect(p->watch & WATCH_CUT, 0)) { /* returns come from another rank */
        uint32_t n0 = p->cret_n;
        absorb_until(f, p, t, seq);
        f->dist->absorbed(f, p, n0 - p->cret_n, t, seq);
        return;
    }
    absorb_until(f, p, t, seq);
}

void port_watch_credits(struct fabric *f, struct port *p, int work)
{
    if (__builtin_expect(p->watch & WATCH_CUT, 0)) { /* returns may still be on their way */
        f->dist->watch(f, p, work);
        return;
    }
    p->credit_watch = (uint8_t)work;
    if (!work || !p->cret_n)
        return;
    struct credit_return *r = &p->cret[p->cret_head];
    if (!r->woken) {
        r->woken = 1;
        eventq_push_seq_on(&f->q, (uint32_t)p->node->index, r->t, r->seq, EV_CREDIT, p, 0, 0);
    }
}

void fabric_schedule_call(struct fabric *f, simtime_t t, struct fabric_call *call)
{
    fabric_schedule(f, t, EV_CALL, call, 0, 0);
}

static void try_send(struct fabric *f, struct port *p)
{
    if (p->is_switch)
        switch_try_send(f, node_sw(p->node), p->num);
    else
        hca_try_send(f, p);
}

/* The sources stop. Each flow's stop is its adapter's action: what it schedules (a wake-up,
 * a last packet) has the adapter as origin and handler, so that a distributed run, where only
 * the adapter's rank stops the flow, numbers and handles it the same way. */
static void end_of_run(struct fabric *f)
{
    if (f->ended)
        return;
    f->ended = 1;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (f->dist && f->dist->part[fl->src->node->index] != f->dist->rank)
            continue;
        eventq_set_origin(&f->q, (uint32_t)fl->src->node->index);
        flow_queue_account(f, fl);
        fl->qn = 0; /* queued messages that never started are not sent during the drain */
        fl->qposted = 0;
        flow_stop(f, fl);
    }
    eventq_set_origin(&f->q, FABRIC_ORIGIN(f));
}

void fabric_until_reached(struct fabric *f)
{
    if (--f->until_left || f->ended)
        return;
    /* The last flow has its count: the measured run ends now (its counters' snapshot is taken
     * before the END event, at this time), and what is in flight drains as after a duration. */
    f->until_at = f->now;
    f->end = f->now;
    if (f->period && f->period->taken == 1)
        f->period_next = f->now;
    uint32_t o = f->q.origin;
    eventq_set_origin(&f->q, FABRIC_ORIGIN(f));
    fabric_schedule(f, f->now, EV_END, NULL, 0, 0);
    eventq_set_origin(&f->q, o);
}

/* Events that the end of the measured run made void: handling them would change nothing, so
 * they are not handled at all (not counted, the clock not moved to them), and the time the run
 * stopped (summary.json's run.stopped_at_s) is that of its last real event. They are the
 * sources' own events left behind by the end: a message of a flow the end stopped (scheduled
 * before a rule such as simulation.until_delivered moved the end earlier, or a first message
 * drawn past the end by a flow's start), a flow's start or
 * stop after the end (end_of_run stopped every flow), the duration's END after a rule's, and a
 * time-series sample past the end (a duration-ended run never schedules one: the series stop
 * at the measured end either way). */
#define EV_MAY_BE_VOID(type)                                                                       \
    ((1u << (type)) & (1u << EV_FLOW_START | 1u << EV_FLOW_MSG | 1u << EV_FLOW_STOP |             \
                       1u << EV_SAMPLE | 1u << EV_END))

static inline int event_void(const struct fabric *f, const struct event *ev)
{
    if (!f->ended)
        return 0;
    switch (ev->type) {
    case EV_FLOW_MSG:
        return !((const struct flow *)ev->obj)->active;
    case EV_SAMPLE:
        return ev->t > f->end;
    default: /* EV_FLOW_START, EV_FLOW_STOP, EV_END */
        return 1;
    }
}

static inline __attribute__((always_inline)) void dispatch(struct fabric *f, const struct event *ev,
                                                           const struct fabric_observer *obs)
{
    switch (ev->type) {
    case EV_ARRIVE:
        switch_arrive(f, ev->obj, ev->a);
        break;
    case EV_TX_DONE: {
        struct port *p = ev->obj;
        if (ev->a) { /* an adapter's injection-limit wake-up, not the end of a transmission */
            p->hca->wake_pending = 0;
            hca_try_send(f, p);
            break;
        }
        p->tx_busy = 0;
        p->done_sched = 0;
        try_send(f, p);
        break;
    }
    case EV_READ_DONE:
        switch_read_done(f, ev->obj, ev->a);
        break;
    case EV_CREDIT: {
        struct port *p = ev->obj;
        if (!port_busy(f, p))
            try_send(f, p);
        break;
    }
    case EV_SINK_ARRIVE:
        hca_sink_arrive(f, ev->obj, ev->a);
        break;
    case EV_SINK_DONE:
        hca_sink_done(f, ev->obj);
        break;
    case EV_FLOW_START:
        flow_start(f, ev->obj);
        break;
    case EV_FLOW_MSG:
        flow_message_left(f, ev->obj);
        flow_message(f, ev->obj);
        break;
    case EV_FLOW_WAKE:
        flow_wake(f, ev->obj);
        break;
    case EV_FLOW_STOP:
        flow_stop(f, ev->obj);
        break;
    case EV_SAMPLE:
        if (f->dist)
            f->dist->sample(f);
        if (obs && obs->sample)
            obs->sample(f, obs->ctx);
        f->last_sample = f->now;
        if (f->now + f->sample_interval <= f->end)
            fabric_schedule(f, f->now + f->sample_interval, EV_SAMPLE, NULL, 0, 0);
        break;
    case EV_END:
        end_of_run(f);
        break;
    case EV_CALL: {
        struct fabric_call *c = ev->obj;
        c->fn(f, c->arg);
        break;
    }
    case EV_SW_MSG:
        sw_msg_arrive(f, ev->obj, ev->a);
        break;
    case EV_HOQ:
        drop_check(f, ev->obj, ev->a);
        break;
    case EV_RC_TIMER:
        transport_on_timer(f, ev->obj, ev->a, ev->b);
        break;
    case EV_ARCH: {
        struct port *p = ev->obj;
        struct sw *s = node_sw(p->node);
        s->arch->on_event(f, s, p->num, ev->a, ev->b);
        break;
    }
    case EV_ISLIP:
        switch_islip(f, node_sw(((struct port *)ev->obj)->node));
        break;
    default:
        ibn_panic("unknown event type %d", ev->type);
    }
}

/* The run has stopped with no event left before `limit`: apply the credit returns that land
 * by then, and take the ends of transmissions and the returns as the events they stand for
 * (the last is when an event-per-return run would have stopped). Returns whether some come
 * later. */
static int absorb_landed(struct fabric *f, simtime_t limit)
{
    int later = 0;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *nd = f->nodes[i];
        for (int p = 1; p <= nd->nports; p++) {
            struct port *pt = &nd->port[p];
            if (pt->tx_busy && pt->busy_until > limit)
                later = 1;
            else if (pt->tx_busy && pt->busy_until > f->now)
                f->now = pt->busy_until;
            for (uint32_t k = 0; k < pt->cret_n; k++) {
                simtime_t t = pt->cret[(pt->cret_head + k) & (pt->cret_cap - 1)].t;
                if (t > limit)
                    later = 1;
                else if (t > f->now)
                    f->now = t;
            }
            port_absorb_credits_until(f, pt, limit, ~(evseq_t)0);
        }
    }
    return later;
}

/* Take the counter snapshots due by t (period.h) and tell the observer. With t =
 * SIMTIME_NEVER or the time the run stopped: those still due. */
static void reach_period(struct fabric *f, simtime_t t, const struct fabric_observer *obs)
{
    int k = f->period->taken;
    if (t == SIMTIME_NEVER || t < f->period_next)
        period_finish(f, t);
    else
        period_reach(f, t);
    for (; k < f->period->taken; k++) {
        if (f->dist && f->dist->snapshot) /* every rank: a collective */
            f->dist->snapshot(f, k);
        if (obs && obs->boundary)
            obs->boundary(f, obs->ctx, f->period->at[k]);
    }
}

static uint64_t count_found(struct fabric *f);

/* A distributed run (f->dist; dist/dist.c, docs/distributed.md): conservative windows. Each
 * window starts at (or before) the earliest event of any rank and is as wide as the least
 * time anything a rank does can take to reach another rank (the exchange's `width`: a cut
 * cable's delay plus the receiving switch's latency for packets, the delay plus the least
 * time a switch takes to free buffer space for credit returns), cut short at the measured
 * period's edges and at the drain limit, so nothing another rank does inside it can reach this
 * rank's nodes before it ends; every rank handles its nodes' events of the window in (time,
 * number) order, then the ranks exchange what crossed, with the next window's start and
 * width. The fabric's own events (END, the counter snapshots) happen on every rank and are
 * counted by rank 0 only. */
static void run_windows(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
                        simtime_t limit)
{
    struct fabric_dist *d = f->dist;
    struct event ev;
    uint32_t fab = FABRIC_ORIGIN(f);
    simtime_t cap = limit == SIMTIME_NEVER ? SIMTIME_NEVER : limit + 1;
    simtime_t width;
    simtime_t next = d->exchange(f, &width); /* nothing to send yet: where the first window starts */
    for (;; next = d->exchange(f, &width)) {
        if (next == SIMTIME_NEVER)
            break;
        if (next > limit) {
            if (d->reduce_sum(f, f->pool.live))
                r->outcome = RUN_DRAIN_TIMEOUT;
            break;
        }
        if (next >= f->period_next)
            reach_period(f, next, obs);
        simtime_t wend = width >= cap - next ? cap : next + width;
        if (f->period_next > next && wend > f->period_next)
            wend = f->period_next;
        if (f->sample_interval > 0) { /* a sample sees every rank's counters up to it */
            simtime_t ns = f->last_sample + f->sample_interval;
            if (ns > next && ns <= f->end && wend > ns)
                wend = ns;
        }
        d->window(f, wend);
        while (eventq_peek_time(&f->q) < wend) {
            eventq_pop(&f->q, &ev);
            uint32_t h = f->q.origin;
            if (h != fab && d->part[h] != d->rank)
                continue; /* set up for another rank's node: that rank handles it */
            if (EV_MAY_BE_VOID(ev.type) && event_void(f, &ev))
                continue;
            f->now = ev.t;
            f->now_seq = ev.seq;
            if (h != fab || d->rank == 0) {
                f->events++;
                f->events_by_type[ev.type & 31]++;
            }
            if (f->q.n > f->peak_pending)
                f->peak_pending = f->q.n;
            dispatch(f, &ev, obs);
        }
    }
}

/* The end of a distributed run: what fabric_run does after its loop, over all ranks. */
static int finish_windows(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
                          simtime_t limit, struct ibn_err *e)
{
    struct fabric_dist *d = f->dist;
    reach_period(f, SIMTIME_NEVER, obs);
    int later = absorb_landed(f, limit);
    f->now = -d->reduce_min(f, -f->now);
    if (d->reduce_sum(f, (uint64_t)later))
        r->outcome = RUN_DRAIN_TIMEOUT;
    d->live = d->reduce_sum(f, f->pool.live);
    d->found = d->reduce_sum(f, count_found(f));
    r->in_flight = d->live;
    if (r->outcome == RUN_DRAINED && d->live)
        r->outcome = RUN_STUCK;
    r->drained_at = f->now;
    d->gather(f);
    if (d->rank != 0) { /* rank 0 checks the gathered state */
        r->invariants_ok = 1;
        r->violations[0] = 0;
        return 0;
    }
    if (fabric_check_invariants(f, r->outcome == RUN_DRAINED, r))
        return ibn_err_set(e, "a model invariant is broken:\n%s", r->violations);
    return 0;
}

int fabric_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
               struct ibn_err *e)
{
    memset(r, 0, sizeof *r);
    /* Checked here, not at build time: per-port SL2VL maps and tables are set after the build. */
    if (f->events == 0 && vlcheck_fabric(f, e))
        return -1;
    if (f->events == 0)
        transport_warn_unused(f);
    switch_prepare(f);
    if (f->events == 0)
        f->until_left = f->nflows;
    struct event ev;
    simtime_t limit = f->end + f->drain_limit;
    r->outcome = RUN_DRAINED;
    /* Stall detection: progress is a link transmission, a delivery or a drop. */
    uint64_t progress = 0;
    simtime_t moved_at = f->now;
    period_init(f);
    if (f->dist) {
        f->dist->trim(f);
        run_windows(f, obs, r, limit);
        return finish_windows(f, obs, r, limit, e);
    }
    while (eventq_peek_time(&f->q) != SIMTIME_NEVER) {
        if (eventq_peek_time(&f->q) > limit) {
            /* With no packet left the fabric has drained; what remains are events of sources
             * and timers after the end (a flow that would have started later). */
            if (f->pool.live)
                r->outcome = RUN_DRAIN_TIMEOUT;
            break;
        }
        eventq_pop(&f->q, &ev);
        if (__builtin_expect(EV_MAY_BE_VOID(ev.type), 0)) {
            if (event_void(f, &ev))
                continue;
            if (ev.type == EV_END) /* the end may be a rule's (until_delivered): the drain's */
                limit = f->end + f->drain_limit; /* limit counts from it */
        }
        if (ev.t >= f->period_next)
            reach_period(f, ev.t, obs);
        f->now = ev.t;
        f->now_seq = ev.seq;
        f->events++;
        f->events_by_type[ev.type & 31]++;
        if (f->q.n > f->peak_pending)
            f->peak_pending = f->q.n;
        dispatch(f, &ev, obs);
        /* Every 2^14 events (well under a millisecond of wall time even on the largest
         * fabrics): the progress line and the interrupt flag. */
        if ((f->events & 0x3fff) == 0) {
            if (obs && obs->progress)
                obs->progress(f, obs->ctx);
            if (f->interrupt && *f->interrupt) {
                r->outcome = RUN_INTERRUPTED;
                break;
            }
            uint64_t p = f->hops + f->cnt.delivered + f->cnt.dropped_hoq + f->cnt.dropped_sll +
                         f->cnt.dropped_loss + f->cnt.discarded;
            if (p != progress || !f->pool.live) {
                progress = p;
                moved_at = f->now;
            } else if (f->stall_limit && f->now - moved_at >= f->stall_limit) {
                r->outcome = RUN_STUCK; /* checked by the caller's invariants as not drained */
                r->stalled_at = moved_at;
                break;
            }
        }
    }
    /* The measured period of an interrupted or stuck run ends where it stopped. */
    reach_period(f, r->outcome == RUN_INTERRUPTED || r->outcome == RUN_STUCK ? f->now : SIMTIME_NEVER,
                 obs);
    if (r->outcome != RUN_INTERRUPTED && absorb_landed(f, limit) && r->outcome != RUN_STUCK)
        r->outcome = RUN_DRAIN_TIMEOUT;
    if (r->outcome == RUN_DRAINED && !f->pool.live && transport_outstanding(f))
        r->outcome = RUN_DRAIN_TIMEOUT; /* lost packets not yet sent again (timeout pending) */
    r->in_flight = f->pool.live;
    if (r->outcome == RUN_DRAINED && f->pool.live)
        r->outcome = RUN_STUCK; /* nothing left to happen, yet packets remain: deadlock */
    r->drained_at = f->now;
    if (fabric_check_invariants(f, r->outcome == RUN_DRAINED, r))
        return ibn_err_set(e, "a model invariant is broken:\n%s", r->violations);
    return 0;
}

static void violation(struct run_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(struct run_report *r, const char *fmt, ...)
{
    size_t n = strlen(r->violations);
    if (n + 2 >= sizeof r->violations)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->violations + n, sizeof r->violations - n - 1, fmt, ap);
    va_end(ap);
    strncat(r->violations, "\n", sizeof r->violations - strlen(r->violations) - 1);
    r->invariants_ok = 0;
}

/* Packets found where the model keeps them: switch queues, adapter queues, and events that
 * carry a packet (on a link). */
static uint64_t count_found(struct fabric *f)
{
    uint64_t n = 0;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *nd = f->nodes[i];
        if (nd->is_switch) {
            struct sw *s = node_sw(nd);
            n += s->arch->held(f, s) + mcast_held(f, s);
        } else {
            for (int p = 1; p <= nd->nports; p++)
                if (nd->port[p].hca)
                    n += nd->port[p].hca->ctrl.n + nd->port[p].hca->sinkq.n;
        }
    }
    for (size_t k = 0; k < f->q.cap; k++) {
        int type = eventq_slot_type(&f->q, k);
        if (type == EV_ARRIVE || type == EV_SINK_ARRIVE)
            n++;
    }
    return n;
}

int fabric_check_invariants(struct fabric *f, int drained, struct run_report *r)
{
    r->invariants_ok = 1;
    r->violations[0] = 0;
    uint64_t found = f->dist ? f->dist->found : count_found(f),
             dropped = f->cnt.dropped_unroutable + f->cnt.dropped_hoq + f->cnt.dropped_sll +
                       f->cnt.dropped_loss + f->cnt.discarded;
    /* Multicast copies made by switches count as packets created. */
    if (f->cnt.created + f->cnt.replicas != f->cnt.delivered + dropped + found)
        violation(r, "packets: %llu created + %llu multicast copies != %llu delivered + %llu "
                  "dropped or discarded + %llu in the fabric", (unsigned long long)f->cnt.created,
                  (unsigned long long)f->cnt.replicas, (unsigned long long)f->cnt.delivered,
                  (unsigned long long)dropped, (unsigned long long)found);
    uint64_t live = f->dist ? f->dist->live : f->pool.live;
    if (found != live)
        violation(r, "packets: %llu found in queues and on links, but %llu allocated",
                  (unsigned long long)found, (unsigned long long)live);
    { /* each flow on its own (a distributed run's balances summed over the ranks: gather) */
        uint32_t bad = 0;
        for (uint32_t i = 0; i < f->nflows; i++) {
            const struct flow *fl = &f->flows[i];
            if (fl->in_fabric >= 0 && !(drained && fl->in_fabric))
                continue;
            if (bad++ >= 4)
                continue;
            if (fl->in_fabric < 0)
                violation(r, "packets of flow %s: %lld more gone (delivered, dropped, discarded) "
                          "than made (sent, sent again, copied)", fl->name, (long long)-fl->in_fabric);
            else
                violation(r, "packets of flow %s: %lld made and never gone in a drained fabric",
                          fl->name, (long long)fl->in_fabric);
        }
        if (bad > 4)
            violation(r, "packets: %u more flows out of balance", bad - 4);
    }
    if (f->cnt.misdelivered)
        violation(r, "%llu packets were delivered to a port that does not own their LID",
                  (unsigned long long)f->cnt.misdelivered);
    if (f->mc) {
        /* Multicast packets on their own: every one a source sent or a switch copied is
         * delivered, dropped (counted in multicast.dropped, wherever it was: an input's
         * multicast queue, async's buffer, a pipelined switch's output buffer), unroutable, or
         * still in the fabric (none once drained). */
        const struct mcast *mc = f->mc;
        uint64_t in = mc->sent + f->cnt.replicas, out = mc->delivered + mc->dropped + mc->unroutable;
        if (out > in || (drained && out != in))
            violation(r, "multicast packets: %llu sent + %llu copies != %llu delivered + %llu "
                      "dropped + %llu unroutable%s", (unsigned long long)mc->sent,
                      (unsigned long long)f->cnt.replicas, (unsigned long long)mc->delivered,
                      (unsigned long long)mc->dropped, (unsigned long long)mc->unroutable,
                      drained ? " in a drained fabric" : "");
        if (mc->dropped_hoq + mc->dropped_sll != mc->dropped ||
            mc->dropped_hoq > f->cnt.dropped_hoq || mc->dropped_sll > f->cnt.dropped_sll)
            violation(r, "multicast drops: %llu by HOQ + %llu by SLL != %llu dropped, or more "
                      "than all packets' (%llu, %llu)", (unsigned long long)mc->dropped_hoq,
                      (unsigned long long)mc->dropped_sll, (unsigned long long)mc->dropped,
                      (unsigned long long)f->cnt.dropped_hoq, (unsigned long long)f->cnt.dropped_sll);
    }
    if (drained) {
        char why[1024];
        if (transport_check(f, why, sizeof why))
            violation(r, "%s", why);
        for (int i = 0; i < f->nnodes; i++) {
            struct node *nd = f->nodes[i];
            for (int p = 1; p <= nd->nports; p++) {
                struct port *pt = &nd->port[p];
                if (!pt->peer)
                    continue;
                if (pt->waiting) /* PortXmitWait counts only time with a packet to send */
                    violation(r, "PortXmitWait: %s port %d still counts a wait for credits (VL slots "
                              "0x%x) after the drain, with nothing to send", nd->name, p,
                              (unsigned)pt->waiting);
                for (int s = 0; s < f->set.nvls; s++) {
                    if (pt->vl[s].credits != pt->peer->vl[s].rx_cap)
                        violation(r, "credits: %s port %d holds %d credits on VL %d after the drain, "
                                  "its peer's buffer has %d", nd->name, p, pt->vl[s].credits, s,
                                  pt->peer->vl[s].rx_cap);
                    if (pt->vl[s].rx_used)
                        violation(r, "buffer: %s port %d still uses %d credits on VL %d after the drain",
                                  nd->name, p, pt->vl[s].rx_used, s);
                }
            }
        }
    }
    return r->invariants_ok ? 0 : -1;
}

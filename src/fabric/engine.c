/* engine.c: the event loop of the fabric model: transmission on links, credit return, event
 * dispatch, the end of the measured run and the drain, and the end-of-run invariants (no packet
 * lost, credits conserved, nothing delivered to the wrong LID). */
#include "fabric/engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

simtime_t port_transmit(struct fabric *f, struct port *out, uint32_t pidx, simtime_t tail_here)
{
    struct packet *p = pkt(&f->pool, pidx);
    simtime_t tx = byterate_time(out->rate, p->wire_bytes);
    simtime_t end = f->now + tx;
    if (end < tail_here)
        end = tail_here; /* a faster output waits for the tail */
    int slot = fabric_slot(f, p->vl);
    if (p->vl != VL15) {
        out->credits[slot] -= p->credits;
        if (out->credits[slot] < 0)
            ibn_panic("%s port %u sent %u credits on VL %d without holding them", out->node->name,
                      out->num, p->credits, p->vl);
    }
    if (f->hooks.on_depart)
        f->hooks.on_depart(f, out, p);
    struct port_vl_counters *c = &out->ctr[slot];
    c->xmit_bytes += p->wire_bytes;
    c->xmit_pkts++;
    struct port *peer = out->peer;
    struct port_vl_counters *rc = &peer->ctr[slot];
    rc->rcv_bytes += p->wire_bytes;
    rc->rcv_pkts++;
    peer->rx_used[slot] += p->credits;
    peer->rx_total += p->credits;
    if (peer->rx_total > peer->rx_peak)
        peer->rx_peak = peer->rx_total;
    p->t_tail = end + out->delay;
    p->hops++;
    f->hops++;
    out->tx_busy = 1;
    out->busy_until = end;
    fabric_schedule(f, end, EV_TX_DONE, out, 0, 0);
    if (peer->is_switch)
        fabric_schedule(f, f->now + out->delay + node_sw(peer->node)->latency, EV_ARRIVE, peer, pidx, 0);
    else
        fabric_schedule(f, p->t_tail, EV_SINK_ARRIVE, peer, pidx, 0);
    return end;
}

void port_return_credits(struct fabric *f, struct port *in, int slot, int credits, simtime_t t)
{
    in->rx_used[slot] -= credits;
    in->rx_total -= credits;
    if (in->rx_used[slot] < 0)
        ibn_panic("%s port %u: receive buffer use went negative on slot %d", in->node->name,
                  in->num, slot);
    if (slot == f->set.nvls) /* VL15 is not flow-controlled */
        return;
    fabric_schedule(f, t + in->delay + f->set.credit_delay, EV_CREDIT, in->peer, (uint32_t)credits,
                    (uint16_t)slot);
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

static void end_of_run(struct fabric *f)
{
    f->ended = 1;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        flow_queue_account(f, fl);
        fl->qn = 0; /* queued messages that never started are not sent during the drain */
        flow_stop(f, fl);
    }
}

static void dispatch(struct fabric *f, const struct event *ev, const struct fabric_observer *obs)
{
    switch (ev->type) {
    case EV_ARRIVE:
        switch_arrive(f, ev->obj, ev->a);
        break;
    case EV_TX_DONE: {
        struct port *p = ev->obj;
        if (ev->a) { /* an adapter's injection-limit wake-up, not the end of a transmission */
            p->hca->wake_pending = 0;
            if (!p->tx_busy)
                hca_try_send(f, p);
            break;
        }
        p->tx_busy = 0;
        try_send(f, p);
        break;
    }
    case EV_READ_DONE:
        switch_read_done(f, ev->obj);
        break;
    case EV_CREDIT: {
        struct port *p = ev->obj;
        p->credits[ev->b] += (int32_t)ev->a;
        if (p->credits[ev->b] > p->peer->rx_cap[ev->b])
            ibn_panic("%s port %u holds %d credits on slot %d, more than the %d its peer has",
                      p->node->name, p->num, p->credits[ev->b], ev->b, p->peer->rx_cap[ev->b]);
        if (!p->tx_busy)
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
        flow_message(f, ev->obj);
        break;
    case EV_FLOW_WAKE:
        flow_wake(f, ev->obj);
        break;
    case EV_FLOW_STOP:
        flow_stop(f, ev->obj);
        break;
    case EV_SAMPLE:
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
    default:
        ibn_panic("unknown event type %d", ev->type);
    }
}

int fabric_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
               struct ibn_err *e)
{
    memset(r, 0, sizeof *r);
    struct event ev;
    simtime_t limit = f->end + f->drain_limit;
    r->outcome = RUN_DRAINED;
    while (eventq_peek_time(&f->q) != SIMTIME_NEVER) {
        if (eventq_peek_time(&f->q) > limit) {
            r->outcome = RUN_DRAIN_TIMEOUT;
            break;
        }
        eventq_pop(&f->q, &ev);
        f->now = ev.t;
        f->events++;
        f->events_by_type[ev.type & 15]++;
        if (f->q.n > f->peak_pending)
            f->peak_pending = f->q.n;
        dispatch(f, &ev, obs);
        if ((f->events & 0xfffff) == 0) {
            if (obs && obs->progress)
                obs->progress(f, obs->ctx);
            if (f->interrupt && *f->interrupt) {
                r->outcome = RUN_INTERRUPTED;
                break;
            }
        }
    }
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
            size_t nq = s->arch == SWITCH_VOQ
                            ? (size_t)(nd->nports + 1) * (size_t)(nd->nports + 1) * (size_t)f->nvs
                            : (size_t)(nd->nports + 1) * (size_t)f->nvs;
            for (size_t k = 0; k < nq; k++)
                n += s->q[k].n;
        } else {
            for (int p = 1; p <= nd->nports; p++)
                if (nd->port[p].hca)
                    n += nd->port[p].hca->ctrl.n + nd->port[p].hca->sinkq.n;
        }
    }
    for (size_t k = 0; k < f->q.n; k++) {
        uint8_t type = eventq_type_at(&f->q, k);
        if (type == EV_ARRIVE || type == EV_SINK_ARRIVE)
            n++;
    }
    return n;
}

int fabric_check_invariants(struct fabric *f, int drained, struct run_report *r)
{
    r->invariants_ok = 1;
    r->violations[0] = 0;
    uint64_t found = count_found(f), dropped = f->cnt.dropped_unroutable;
    if (f->cnt.created != f->cnt.delivered + dropped + found)
        violation(r, "packets: %llu created != %llu delivered + %llu dropped + %llu in the fabric",
                  (unsigned long long)f->cnt.created, (unsigned long long)f->cnt.delivered,
                  (unsigned long long)dropped, (unsigned long long)found);
    if (found != f->pool.live)
        violation(r, "packets: %llu found in queues and on links, but %llu allocated",
                  (unsigned long long)found, (unsigned long long)f->pool.live);
    if (f->cnt.misdelivered)
        violation(r, "%llu packets were delivered to a port that does not own their LID",
                  (unsigned long long)f->cnt.misdelivered);
    if (drained) {
        for (int i = 0; i < f->nnodes; i++) {
            struct node *nd = f->nodes[i];
            for (int p = 1; p <= nd->nports; p++) {
                struct port *pt = &nd->port[p];
                if (!pt->peer)
                    continue;
                for (int s = 0; s < f->set.nvls; s++) {
                    if (pt->credits[s] != pt->peer->rx_cap[s])
                        violation(r, "credits: %s port %d holds %d credits on VL %d after the drain, "
                                  "its peer's buffer has %d", nd->name, p, pt->credits[s], s,
                                  pt->peer->rx_cap[s]);
                    if (pt->rx_used[s])
                        violation(r, "buffer: %s port %d still uses %d credits on VL %d after the drain",
                                  nd->name, p, pt->rx_used[s], s);
                }
            }
        }
    }
    return r->invariants_ok ? 0 : -1;
}

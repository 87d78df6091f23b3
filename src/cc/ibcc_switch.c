/* ibcc_switch.c: the switch side of IB congestion control. Each output port keeps, per VL, the
 * bytes the input ports' virtual output queues hold for it (raised on enqueue, lowered on
 * dequeue), and from them its congestion state: the upper threshold is crossed (by one VOQ, by
 * the sum, or by the sum against the threshold divided by the active inputs) and the port is a
 * root (it holds credits for an MTU packet, or its Victim_Mask bit is set). With two thresholds
 * the state is left only when the occupancy falls to the lower one. Packets leaving a congested
 * Port VL are FECN-marked by Packet_Size and Marking_Rate, or with the probability
 * mark_probability (seed 002 Papers V/VI's 85 %). */
#include <gsl/gsl_rng.h>

#include "cc/ibcc_int.h"

static inline struct ibcc *ctx(struct fabric *f)
{
    return f->hooks.ctx;
}

static void set_state(struct ibcc_oport *o, int slot, int on, simtime_t now)
{
    struct ibcc_oslot *v = &o->s[slot];
    if (v->congested == on)
        return;
    v->congested = (uint8_t)on;
    if (on) {
        v->since = now;
        o->entered[slot]++;
    } else {
        o->cong_time[slot] += now - v->since;
    }
}

void ibcc_oport_settle(struct ibcc_oport *o, int nvs, simtime_t now)
{
    for (int s = 0; s < nvs; s++)
        if (o->s[s].congested) {
            o->cong_time[s] += now - o->s[s].since;
            o->s[s].since = now;
        }
}

/* Re-evaluate the congestion state of (out, slot). Whether the port is a root (it holds
 * credits) is asked only when the thresholds alone do not decide. */
static void update(struct fabric *f, struct ibcc *c, struct port *out, struct ibcc_oport *o, int slot)
{
    if (c->thr_hi < 0)
        return;
    const struct ibcc_oslot *v = &o->s[slot];
    int64_t hi = c->thr_hi, lo = c->thr_lo;
    int above, at_or_below_lo;
    switch (c->d.detect) {
    case IBCC_DETECT_VOQ:
        above = v->over_hi > 0;
        at_or_below_lo = v->over_lo == 0;
        break;
    case IBCC_DETECT_SUM_PER_INPUT: {
        int64_t scaled = (int64_t)v->sum * (v->active ? v->active : 1);
        above = scaled > hi;
        at_or_below_lo = scaled <= lo;
        break;
    }
    default:
        above = v->sum > hi;
        at_or_below_lo = v->sum <= lo;
        break;
    }
    int want; /* the state if the port is a root */
    if (c->d.thresholds == IBCC_SINGLE || !v->congested)
        want = above;
    else
        want = !at_or_below_lo;
    int on = 0;
    if (want) {
        /* A victim (no credits, no Victim_Mask) is never in the congestion state. */
        if (!o->victim)
            port_absorb_credits(f, out); /* credits that have arrived by now count */
        on = o->victim || out->vl[slot].credits >= c->mtu_credits;
    }
    set_state(o, slot, on, f->now);
}

static void change(struct fabric *f, struct port *in, struct port *out, struct packet *p, int sign)
{
    struct ibcc_oport *o = out->cc;
    if (!o || p->out_vl == VL15)
        return;
    struct ibcc *c = ctx(f);
    int slot = fabric_slot(f, p->out_vl);
    struct ibcc_oslot *v = &o->s[slot];
    int32_t bytes = sign * (int32_t)p->wire_bytes;
    v->sum += bytes;
    if (o->voq) {
        int32_t *q = &o->voq[(size_t)in->num * (size_t)f->nvs + (size_t)slot];
        int32_t before = *q, after = before + bytes;
        *q = after;
        if (!before && after)
            v->active++;
        else if (before && !after)
            v->active--;
        v->over_hi += (after > c->thr_hi) - (before > c->thr_hi);
        v->over_lo += (after > c->thr_lo) - (before > c->thr_lo);
    }
    update(f, c, out, o, slot);
}

void ibcc_on_enqueue(struct fabric *f, struct port *in, struct port *out, struct packet *p)
{
    change(f, in, out, p, +1);
}

void ibcc_on_dequeue(struct fabric *f, struct port *in, struct port *out, struct packet *p)
{
    change(f, in, out, p, -1);
}

void ibcc_on_depart(struct fabric *f, struct port *out, struct packet *p)
{
    struct ibcc_oport *o = out->cc;
    if (!o || !out->is_switch || p->vl == VL15)
        return;
    struct ibcc *c = ctx(f);
    int slot = fabric_slot(f, p->vl);
    update(f, c, out, o, slot);
    if (!o->s[slot].congested)
        return;
    /* Control packets and multicast are never marked (their FECN would be ignored). */
    if (p->flow == FLOW_CONTROL || (p->flags & (PKT_MCAST | PKT_CNP | PKT_ACK)))
        return;
    if ((long long)p->credits < c->d.packet_size)
        return;
    int mark;
    if (c->d.mark_probability >= 0)
        mark = c->d.mark_probability >= 1.0 ||
               (c->d.mark_probability > 0 && gsl_rng_uniform(o->rng) < c->d.mark_probability);
    else if (c->d.marking_rate <= 0)
        mark = 1;
    else if (c->d.marking == IBCC_MARK_COUNTER)
        mark = ++o->s[slot].eligible > (uint32_t)c->d.marking_rate;
    else
        mark = gsl_rng_uniform(o->rng) * (double)(c->d.marking_rate + 1) < 1.0;
    if (!mark)
        return;
    o->s[slot].eligible = 0;
    if (p->flags & PKT_FECN)
        return;
    p->flags |= PKT_FECN;
    o->marked[slot]++;
    fabric_timeline(f, TLN_FECN, out, p, 0, 0);
    struct ibcc_flow *cf = f->flows[p->flow].cc;
    if (cf)
        cf->fecn_marked++;
}

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
    if (o->congested[slot] == on)
        return;
    o->congested[slot] = (uint8_t)on;
    if (on) {
        o->since[slot] = now;
        o->entered[slot]++;
    } else {
        o->cong_time[slot] += now - o->since[slot];
    }
}

void ibcc_oport_settle(struct ibcc_oport *o, int nvs, simtime_t now)
{
    for (int s = 0; s < nvs; s++)
        if (o->congested[s]) {
            o->cong_time[s] += now - o->since[s];
            o->since[s] = now;
        }
}

/* Re-evaluate the congestion state of (out, slot). */
static void update(struct fabric *f, struct ibcc *c, struct port *out, struct ibcc_oport *o, int slot)
{
    if (c->thr_hi < 0)
        return;
    int64_t hi = c->thr_hi, lo = c->thr_lo;
    int above, at_or_below_lo;
    switch (c->d.detect) {
    case IBCC_DETECT_VOQ:
        above = o->over_hi[slot] > 0;
        at_or_below_lo = o->over_lo[slot] == 0;
        break;
    case IBCC_DETECT_SUM_PER_INPUT: {
        int64_t scaled = (int64_t)o->sum[slot] * (o->active[slot] ? o->active[slot] : 1);
        above = scaled > hi;
        at_or_below_lo = scaled <= lo;
        break;
    }
    default:
        above = o->sum[slot] > hi;
        at_or_below_lo = o->sum[slot] <= lo;
        break;
    }
    port_absorb_credits(f, out); /* credits that have arrived by now count */
    int root = o->victim || out->vl[slot].credits >= c->mtu_credits;
    /* A victim (no credits, no Victim_Mask) is never in the congestion state. */
    int on;
    if (c->d.thresholds == IBCC_SINGLE || !o->congested[slot])
        on = above && root;
    else
        on = !at_or_below_lo && root;
    set_state(o, slot, on, f->now);
}

static void change(struct fabric *f, struct port *in, struct port *out, struct packet *p, int sign)
{
    struct ibcc_oport *o = out->cc;
    if (!o || p->out_vl == VL15)
        return;
    struct ibcc *c = ctx(f);
    int slot = fabric_slot(f, p->out_vl);
    int32_t *q = &o->voq[(size_t)in->num * (size_t)f->nvs + (size_t)slot];
    int32_t before = *q, after = before + sign * (int32_t)p->wire_bytes;
    *q = after;
    o->sum[slot] += after - before;
    if (!before && after)
        o->active[slot]++;
    else if (before && !after)
        o->active[slot]--;
    o->over_hi[slot] += (after > c->thr_hi) - (before > c->thr_hi);
    o->over_lo[slot] += (after > c->thr_lo) - (before > c->thr_lo);
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
    if (!o->congested[slot])
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
        mark = ++o->eligible[slot] > (uint32_t)c->d.marking_rate;
    else
        mark = gsl_rng_uniform(o->rng) * (double)(c->d.marking_rate + 1) < 1.0;
    if (!mark)
        return;
    o->eligible[slot] = 0;
    if (p->flags & PKT_FECN)
        return;
    p->flags |= PKT_FECN;
    o->marked[slot]++;
    fabric_timeline(f, TLN_FECN, out, p, 0, 0);
    struct ibcc_flow *cf = f->flows[p->flow].cc;
    if (cf)
        cf->fecn_marked++;
}

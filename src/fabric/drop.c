/* drop.c: selective packet dropping at switches by the Head-of-Queue Lifetime and the Switch
 * Lifetime Limit (see drop.h). */
#include "fabric/drop.h"

#include <stdlib.h>

#include "fabric/mcast.h"
#include "fabric/swarch.h"
#include "fabric/transport.h"

simtime_t drop_lifetime(long long v)
{
    if (v < 0 || v > 19)
        return SIMTIME_NEVER;
    return (simtime_t)4096 * PS_PER_NS << v;
}

int drop_init(struct fabric *f, struct ibn_err *e)
{
    simtime_t hll = drop_lifetime(f->set.hoq_life), sll = drop_lifetime(f->set.switch_life);
    if (hll == SIMTIME_NEVER && sll == SIMTIME_NEVER)
        return 0;
    (void)e; /* RC over dropping: transport_init turned retransmission on, or refused */
    f->drop = xcalloc(1, sizeof *f->drop);
    f->drop->hll = hll;
    f->drop->sll = sll;
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        size_t np = (size_t)s->n.nports + 1;
        s->drop = xcalloc(1, sizeof *s->drop);
        s->drop->since = xcalloc(np * np * (size_t)f->nvs, sizeof *s->drop->since);
        s->drop->hoq = xcalloc(np, sizeof *s->drop->hoq);
        s->drop->sll = xcalloc(np, sizeof *s->drop->sll);
        s->drop->kept = xcalloc(np, sizeof *s->drop->kept);
    }
    return 0;
}

void drop_free(struct fabric *f)
{
    if (!f->drop)
        return;
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i] || !f->nodes[i]->is_switch)
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        if (!s->drop)
            continue;
        free(s->drop->since), free(s->drop->hoq), free(s->drop->sll), free(s->drop->kept);
        free(s->drop);
        s->drop = NULL;
    }
    free(f->drop);
    f->drop = NULL;
}

static inline size_t reg(const struct fabric *f, const struct sw *s, int in, int out, int slot)
{
    return ((size_t)in * (size_t)(s->n.nports + 1) + (size_t)out) * (size_t)f->nvs + (size_t)slot;
}

/* When the head offered since `since` is due: the earlier of its two limits. */
static simtime_t due(const struct fabric *f, simtime_t since, const struct packet *p, int *cause_sll)
{
    simtime_t h = f->drop->hll == SIMTIME_NEVER ? SIMTIME_NEVER : since + f->drop->hll;
    simtime_t l = f->drop->sll == SIMTIME_NEVER ? SIMTIME_NEVER : p->t_tail + f->drop->sll;
    *cause_sll = l < h;
    return l < h ? l : h;
}

void drop_head_start(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    s->drop->since[reg(f, s, in, out, slot)] = f->now;
    uint32_t h = s->arch->head(f, s, in, out, slot);
    if (h == PKT_NIL)
        return;
    int cause;
    simtime_t t = due(f, f->now, pkt(&f->pool, h), &cause);
    if (t != SIMTIME_NEVER)
        fabric_schedule(f, t < f->now ? f->now : t, EV_HOQ, &s->n.port[in],
                        (uint32_t)(out * f->nvs + slot), 0);
}

void drop_check(struct fabric *f, struct port *ip, uint32_t key)
{
    struct sw *s = node_sw(ip->node);
    int in = ip->num, out = (int)key / f->nvs, slot = (int)key % f->nvs;
    if (out > s->n.nports) { /* a multicast head (mcast_hoq_key) */
        mcast_drop_check(f, s, in, slot);
        return;
    }
    if (!(sw_req(s, f, out, slot)[in >> 6] >> (in & 63) & 1))
        return; /* the head left */
    uint32_t h = s->arch->head(f, s, in, out, slot);
    struct packet *p = pkt(&f->pool, h);
    int cause_sll;
    if (due(f, s->drop->since[reg(f, s, in, out, slot)], p, &cause_sll) > f->now)
        return; /* another head since: its own event comes later */
    if (slot == f->set.nvls || p->flow == FLOW_CONTROL || (p->flags & PKT_KEEP)) {
        s->drop->kept[in]++;
        f->cnt.kept_past_limit++;
        return;
    }
    uint32_t pidx = s->arch->dequeue(f, s, in, out, slot);
    if (pidx != h)
        ibn_panic("switch %s: input %d dequeued another packet than its head", s->n.name, in);
    if (cause_sll) {
        s->drop->sll[in]++;
        f->cnt.dropped_sll++;
    } else {
        s->drop->hoq[in]++;
        f->cnt.dropped_hoq++;
    }
    if (p->flags & PKT_MCAST) { /* a copy in the pipelined switch's output VL buffer */
        f->mc->dropped++;
        f->mc->dropped_output++;
        f->mc->copies_lost++;
        if (cause_sll)
            f->mc->dropped_sll++;
        else
            f->mc->dropped_hoq++;
    }
    fabric_timeline(f, TLN_DROP, ip, p, 0, cause_sll ? 2 : 1);
    /* Its space frees once its tail is in (the rest of a cut-through packet is discarded as
     * it arrives); those credits go back upstream. */
    simtime_t t_free = p->t_tail > f->now ? p->t_tail : f->now;
    if (s->arch->departed) /* dropped from a buffer after the input: its credits went back */
        s->arch->departed(f, s, out, pidx, t_free);
    else
        port_return_credits(f, ip, fabric_slot(f, p->vl), p->credits, t_free);
    if (f->hooks.on_dequeue)
        f->hooks.on_dequeue(f, ip, &s->n.port[out], p);
    pktpool_release(&f->pool, pidx);
    if (s->arch->read_done) /* a dropped head is not read: its queue goes on at once */
        s->arch->read_done(f, s, in, s->read_tag);
    /* The next head for the same output, and outputs new heads ask for. */
    if (sw_req(s, f, out, slot)[in >> 6] >> (in & 63) & 1)
        drop_head_start(f, s, in, out, slot);
    switch_after_removal(f, s, out);
}

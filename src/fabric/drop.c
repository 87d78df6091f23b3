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
        size_t nr = np * np * (size_t)f->nvs;
        s->drop->since = xcalloc(nr, sizeof *s->drop->since);
        s->drop->due = xmalloc(nr * sizeof *s->drop->due);
        s->drop->seq = xcalloc(nr, sizeof *s->drop->seq);
        for (size_t k = 0; k < nr; k++)
            s->drop->due[k] = SIMTIME_NEVER;
        s->drop->lw = (int)((np * (size_t)f->nvs + 63) / 64);
        s->drop->live = xcalloc(np * (size_t)s->drop->lw, sizeof *s->drop->live);
        s->drop->armed_t = xmalloc(np * sizeof *s->drop->armed_t);
        s->drop->armed_seq = xcalloc(np, sizeof *s->drop->armed_seq);
        for (size_t k = 0; k < np; k++)
            s->drop->armed_t[k] = SIMTIME_NEVER;
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
        free(s->drop->due), free(s->drop->seq), free(s->drop->live), free(s->drop->armed_t), free(s->drop->armed_seq);
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

/* Register k (= out * nvs + slot) of input `in` holds a key / no longer does. */
static inline void live_set(struct sw_drop *d, int in, size_t k)
{
    d->live[(size_t)in * (size_t)d->lw + (k >> 6)] |= 1ULL << (k & 63);
}
static inline void live_clr(struct sw_drop *d, int in, size_t k)
{
    d->live[(size_t)in * (size_t)d->lw + (k >> 6)] &= ~(1ULL << (k & 63));
}

static inline int key_before(simtime_t t1, evseq_t s1, simtime_t t2, evseq_t s2)
{
    return t1 < t2 || (t1 == t2 && s1 < s2);
}

void drop_head_end(const struct fabric *f, struct sw *s, int in, int out, int slot)
{
    s->drop->due[reg(f, s, in, out, slot)] = SIMTIME_NEVER;
    live_clr(s->drop, in, (size_t)out * (size_t)f->nvs + (size_t)slot);
}

void drop_head_start(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct sw_drop *d = s->drop;
    size_t r = reg(f, s, in, out, slot);
    d->since[r] = f->now;
    drop_head_end(f, s, in, out, slot); /* no key until its deadline is known */
    simtime_t t;
    if (f->drop->sll == SIMTIME_NEVER) { /* the head's lifetime alone: no need to look at it */
        t = f->now + f->drop->hll;
    } else {
        uint32_t h = s->arch->head(f, s, in, out, slot);
        if (h == PKT_NIL)
            return;
        int cause;
        t = due(f, f->now, pkt(&f->pool, h), &cause);
        if (t == SIMTIME_NEVER)
            return;
    }
    /* The number its own event would have taken; queued now only if it is the port's earliest. */
    d->due[r] = t < f->now ? f->now : t;
    d->seq[r] = eventq_reserve_seq(&f->q);
    live_set(d, in, (size_t)out * (size_t)f->nvs + (size_t)slot);
    if (f->drop->eager) {
        eventq_push_seq(&f->q, d->due[r], d->seq[r], EV_HOQ, &s->n.port[in], (uint32_t)(out * f->nvs + slot), 0);
        return;
    }
    if (d->armed_t[in] == SIMTIME_NEVER || key_before(d->due[r], d->seq[r], d->armed_t[in], d->armed_seq[in])) {
        d->armed_t[in] = d->due[r];
        d->armed_seq[in] = d->seq[r];
        eventq_push_seq(&f->q, d->due[r], d->seq[r], EV_HOQ, &s->n.port[in], DROP_EV_LAZY, 0);
    }
}

static void check_head(struct fabric *f, struct port *ip, int out, int slot);

/* The EV_HOQ event at (now, now_seq) of input port ip: the register holding that key, if any,
 * is checked; if it was the port's queued event, the next earliest register's is queued. (A key
 * that an earlier one replaced as the port's event stays queued and is handled the same way.) */
static void fire(struct fabric *f, struct port *ip)
{
    struct sw *s = node_sw(ip->node);
    struct sw_drop *d = s->drop;
    int in = ip->num, np = s->n.nports + 1;
    size_t base = reg(f, s, in, 0, 0), nr = (size_t)np * (size_t)f->nvs, hit = nr, best = nr;
    const simtime_t *due_r = d->due + base;
    const evseq_t *seq_r = d->seq + base;
    /* One pass over the registers holding a key: the one holding this key, and the earliest
     * other one. */
    const uint64_t *live = d->live + (size_t)in * (size_t)d->lw;
    for (int w = 0; w < d->lw; w++) {
        for (uint64_t b = live[w]; b; b &= b - 1) {
            size_t k = (size_t)w * 64 + (size_t)__builtin_ctzll(b);
            if (due_r[k] == f->now && seq_r[k] == f->now_seq)
                hit = k;
            else if (best == nr || key_before(due_r[k], seq_r[k], due_r[best], seq_r[best]))
                best = k;
        }
    }
    if (hit < nr) { /* handled: a new head sets it again */
        d->due[base + hit] = SIMTIME_NEVER;
        live_clr(d, in, hit);
    }
    if (d->armed_t[in] == f->now && d->armed_seq[in] == f->now_seq) {
        /* the port's queued event: queue the next earliest register's before anything changes
         * (a head started by the check below compares itself with it) */
        d->armed_t[in] = SIMTIME_NEVER;
        if (best < nr) {
            d->armed_t[in] = due_r[best];
            d->armed_seq[in] = seq_r[best];
            eventq_push_seq(&f->q, d->armed_t[in], d->armed_seq[in], EV_HOQ, ip, DROP_EV_LAZY, 0);
        }
    }
    if (hit < nr)
        check_head(f, ip, (int)(hit / (size_t)f->nvs), (int)(hit % (size_t)f->nvs));
}

void drop_check(struct fabric *f, struct port *ip, uint32_t key)
{
    if (key == DROP_EV_LAZY) {
        fire(f, ip);
        return;
    }
    struct sw *s = node_sw(ip->node);
    int out = (int)key / f->nvs, slot = (int)key % f->nvs;
    if (out > s->n.nports) /* a multicast head (mcast_hoq_key) */
        mcast_drop_check(f, s, ip->num, slot);
    else /* eager: the head's own event */
        check_head(f, ip, out, slot);
}

/* The deadline of the head that input port ip offers for (out, slot), as its own EV_HOQ event
 * always handled it. */
static void check_head(struct fabric *f, struct port *ip, int out, int slot)
{
    struct sw *s = node_sw(ip->node);
    int in = ip->num;
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
    fabric_pkt_gone(f, p);
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

/* mcast_switch.c: multicast replication in switches (seed 004 section 3.6.1): the multicast
 * queues at the inputs, synchronous replication (FCFS ownership of outputs, all copies at
 * once), asynchronous replication with a counter and a one-packet buffer per input VL (or
 * per switch), and
 * asynchronous replication with a central multicast FIFO per output (fabric/mcast.h). Copies
 * come from the packet pool (the last copy is the packet itself) and are counted in
 * cnt.replicas; the input's buffer space and credits are freed exactly once per packet. */
#include "fabric/mcast.h"
#include "fabric/swarch.h"

static inline size_t qi(const struct fabric *f, int in, int slot)
{
    return (size_t)in * (size_t)f->nvs + (size_t)slot;
}

static inline uint64_t *rem_of(const struct fabric *f, struct sw_mc *m, int in, int slot)
{
    return &m->rem[qi(f, in, slot) * (size_t)m->words];
}

static inline int bit(const uint64_t *w, int i)
{
    return (int)(w[i >> 6] >> (i & 63) & 1);
}

static inline int any(const uint64_t *w, int words)
{
    for (int i = 0; i < words; i++)
        if (w[i])
            return 1;
    return 0;
}

/* VL of the copy of p (arrived on `in`) on output `out`. */
static inline int copy_vl(const struct fabric *f, const struct sw *s, int in, int out,
                          const struct packet *p)
{
    if (s->sl2vl)
        return s->sl2vl[((size_t)in * (size_t)(s->n.nports + 1) + (size_t)out) * 16 + p->sl];
    return f->set.sl2vl[p->sl];
}

uint32_t mcast_replica(struct fabric *f, uint32_t pidx)
{
    uint32_t c = pktpool_alloc(&f->pool); /* may move the pool */
    f->pool.p[c] = f->pool.p[pidx];
    f->pool.p[c].next = PKT_NIL;
    f->cnt.replicas++;
    fabric_pkt_made(f, &f->pool.p[c]);
    return c;
}

/* Output o gets a new multicast request: if busy, look again when it ends; else try it after
 * the current arbitration (switch.c retries stalled outputs when s->retry is set). */
static inline uint32_t replica(struct fabric *f, uint32_t pidx)
{
    return mcast_replica(f, pidx);
}

int mcast_copy_vl(const struct fabric *f, const struct sw *s, int in, int out, const struct packet *p)
{
    return copy_vl(f, s, in, out, p);
}

static void want(struct fabric *f, struct sw *s, int o)
{
    if (port_busy(f, &s->n.port[o]))
        port_need_done(f, &s->n.port[o]);
    else {
        sw_stall(s, o);
        s->retry = 1;
    }
}

static void want_all(struct fabric *f, struct sw *s, const uint64_t *w)
{
    for (int k = 0; k < s->mc->words; k++)
        for (uint64_t b = w[k]; b; b &= b - 1)
            want(f, s, k * 64 + __builtin_ctzll(b));
}

static void moves(struct fabric *f, struct sw *s);

/* When the packet (in, slot) works on is due to a lifetime limit (since: it became the head). */
static simtime_t mc_due(const struct fabric *f, simtime_t since, const struct packet *p, int *cause_sll)
{
    simtime_t h = f->drop->hll == SIMTIME_NEVER ? SIMTIME_NEVER : since + f->drop->hll;
    simtime_t l = f->drop->sll == SIMTIME_NEVER ? SIMTIME_NEVER : p->t_tail + f->drop->sll;
    *cause_sll = l < h;
    return l < h ? l : h;
}

/* A new head at (in, slot): its lifetime starts. */
static void mc_head_start(struct fabric *f, struct sw *s, int in, int slot, const struct packet *p)
{
    s->mc->since[qi(f, in, slot)] = f->now;
    int cause;
    simtime_t t = mc_due(f, f->now, p, &cause);
    if (t != SIMTIME_NEVER)
        fabric_schedule(f, t < f->now ? f->now : t, EV_HOQ, &s->n.port[in], mcast_hoq_key(f, s, slot), 0);
}

/* The head of (in, slot) changed: set up the new head's outputs. Returns 1 if it has one. */
static int new_head(struct fabric *f, struct sw *s, int in, int slot)
{
    struct sw_mc *m = s->mc;
    for (;;) {
        uint32_t h = m->q[qi(f, in, slot)].head;
        if (h == PKT_NIL)
            return 0;
        struct packet *p = pkt(&f->pool, h);
        uint64_t *r = rem_of(f, m, in, slot);
        int off = p->dst_lid - MLID_FIRST, nonempty = 0;
        for (int k = 0; k < m->words; k++) {
            r[k] = off < f->mc->nmlid ? m->mft[(size_t)off * (size_t)m->words + (size_t)k] : 0;
            if (k == 0)
                r[0] &= ~1ULL; /* port 0 is the switch itself: no copy goes there */
            if (k == in >> 6)
                r[k] &= ~(1ULL << (in & 63)); /* never back out of the arrival port */
            for (uint64_t b = r[k]; b; b &= b - 1) { /* only cabled ports take a copy */
                int o = k * 64 + __builtin_ctzll(b);
                if (o > s->n.nports || !s->n.port[o].peer)
                    r[k] &= ~(1ULL << (o & 63));
            }
            nonempty |= r[k] != 0;
        }
        if (nonempty) {
            m->nheads++;
            if (s->drop)
                mc_head_start(f, s, in, slot, p);
            return 1;
        }
        /* No output: unroutable, dropped and counted like a unicast packet without an entry. */
        pktq_pop(&m->q[qi(f, in, slot)], &f->pool);
        port_return_credits(f, &s->n.port[in], slot, p->credits, p->t_tail > f->now ? p->t_tail : f->now);
        f->cnt.dropped_unroutable++;
        fabric_pkt_gone(f, p);
        f->mc->unroutable++;
        fabric_timeline(f, TLN_DROP, &s->n.port[in], p, 0, 0);
        pktpool_release(&f->pool, h);
    }
}

/* The head of (in, slot) has left its input at read_end: free its space, start the next. */
static void head_gone(struct fabric *f, struct sw *s, int in, int slot, int credits, simtime_t free_at)
{
    struct sw_mc *m = s->mc;
    pktq_pop(&m->q[qi(f, in, slot)], &f->pool);
    m->nheads--;
    port_return_credits(f, &s->n.port[in], slot, credits, free_at);
    if (new_head(f, s, in, slot)) {
        if (f->mc->fifo_mode)
            moves(f, s);
        else
            want_all(f, s, rem_of(f, m, in, slot));
    }
}

void mcast_arrive(struct fabric *f, struct sw *s, struct port *in, uint32_t pidx)
{
    struct sw_mc *m = s->mc;
    struct packet *p = pkt(&f->pool, pidx);
    int slot = fabric_slot(f, p->vl);
    if (!m || p->vl == VL15) {
        port_return_credits(f, in, slot, p->credits, p->t_tail > f->now ? p->t_tail : f->now);
        f->cnt.dropped_unroutable++;
        fabric_pkt_gone(f, p);
        f->mc->unroutable++;
        fabric_timeline(f, TLN_DROP, in, p, 0, 0);
        pktpool_release(&f->pool, pidx);
        return;
    }
    p->in_port = (uint8_t)in->num;
    struct pktq *q = &m->q[qi(f, in->num, slot)];
    pktq_push(q, &f->pool, pidx);
    if (q->n > 1 || m->buf[qi(f, in->num, slot)] != PKT_NIL || !new_head(f, s, in->num, slot))
        return;
    if (f->mc->fifo_mode)
        moves(f, s);
    else
        want_all(f, s, rem_of(f, m, in->num, slot));
    if (s->retry) {
        s->retry = 0;
        for (int w = 0; w < s->words; w++) {
            uint64_t bits = s->stalled[w];
            s->stalled[w] = 0;
            for (; bits; bits &= bits - 1)
                sw_kick(f, s, w * 64 + __builtin_ctzll(bits));
        }
    }
}

/* The FCFS order among multicast packets (seed 004: "the lowest timestamp" wins): by the tail's
 * arrival at this switch, or, under sync with sync_order = source, by the packet's injection at
 * its source, then its source LID and PSN, the same order at every switch (copies keep them).
 * Whether a comes strictly before b; callers break ties by input, then VL. */
static inline int mc_before(const struct fabric *f, const struct packet *a, const struct packet *b)
{
    if (!f->mc->by_source)
        return a->t_tail < b->t_tail;
    if (a->t_injected != b->t_injected)
        return a->t_injected < b->t_injected;
    if (a->src_lid != b->src_lid)
        return a->src_lid < b->src_lid;
    return a->psn < b->psn;
}

int mcast_before(const struct fabric *f, const struct packet *a, const struct packet *b)
{
    return mc_before(f, a, b);
}

/* The packet (in, slot) works on: the one whose copies are under way (async's buffer), else
 * its queue's head; PKT_NIL if none. */
static inline uint32_t active(const struct fabric *f, const struct sw_mc *m, int in, int slot)
{
    uint32_t b = m->buf[qi(f, in, slot)];
    return b != PKT_NIL ? b : m->q[qi(f, in, slot)].head;
}

/* The oldest active multicast packet (FCFS by mc_before, then input, then VL) that needs
 * output o (with want_slot >= 0: whose copy there goes on that VL slot). With `startable`, a
 * head not started yet counts only if it may start (async with one buffer per switch: when
 * that buffer is free). Returns its input, or -1; *slot_out gets its VL slot. */
static int oldest_for(const struct fabric *f, const struct sw *s, int o, int want_slot, int startable,
                      int *slot_out)
{
    const struct sw_mc *m = s->mc;
    int best = -1, bslot = -1;
    const struct packet *bp = NULL;
    int blocked = startable && f->mc->async_switch && m->nbuf > 0;
    for (int in = 0; in <= s->n.nports; in++)
        for (int sl = 0; sl < f->nvs; sl++) {
            uint32_t h = active(f, m, in, sl);
            if (h == PKT_NIL || !bit(&m->rem[qi(f, in, sl) * (size_t)m->words], o))
                continue;
            if (blocked && m->buf[qi(f, in, sl)] == PKT_NIL)
                continue;
            const struct packet *p = pkt(&f->pool, h);
            if (want_slot >= 0 && fabric_slot(f, copy_vl(f, s, in, o, p)) != want_slot)
                continue;
            if (best < 0 || mc_before(f, p, bp)) {
                best = in, bslot = sl, bp = p;
            }
        }
    *slot_out = bslot;
    return best;
}

int mcast_wants(const struct fabric *f, const struct sw *s, int out)
{
    const struct sw_mc *m = s->mc;
    if (!m)
        return 0;
    if (m->cq && m->cq[out].n)
        return 1;
    if (!m->nheads || f->mc->fifo_mode)
        return 0;
    int sl;
    return oldest_for(f, s, out, -1, 0, &sl) >= 0;
}

/* ---- synchronous replication ---- */

int mcast_output(struct fabric *f, struct sw *s, int out)
{
    struct sw_mc *m = s->mc;
    if (!m || !m->nheads || f->mc->scheme != MC_SYNC || f->mc->fifo_mode)
        return 0;
    int slot, in = oldest_for(f, s, out, -1, 0, &slot);
    if (in < 0)
        return 0;
    uint64_t *r = rem_of(f, m, in, slot);
    uint32_t pidx = m->q[qi(f, in, slot)].head;
    struct packet *p = pkt(&f->pool, pidx);
    /* It may start only when it owns every output it needs, all idle with the credits. */
    int ready = 1, last = -1;
    simtime_t longest = 0;
    for (int k = 0; k < m->words; k++)
        for (uint64_t b = r[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b), sl2;
            struct port *op = &s->n.port[o];
            last = o;
            if (port_busy(f, op)) {
                port_need_done(f, op);
                ready = 0;
                continue;
            }
            if (oldest_for(f, s, o, -1, 0, &sl2) != in || sl2 != slot) {
                ready = 0; /* an older multicast packet owns it: its departure wakes o */
                continue;
            }
            op->tx_busy = 0;
            port_absorb_credits(f, op);
            int vs = fabric_slot(f, copy_vl(f, s, in, o, p));
            if (vs != f->set.nvls && op->vl[vs].credits < p->credits) {
                port_wait_begin(op, vs, f->now);
                port_watch_credits(f, op, 1);
                ready = 0;
                continue;
            }
            simtime_t tx = byterate_time(op->rate, p->wire_bytes);
            if (tx > longest)
                longest = tx;
        }
    if (!ready) {
        f->mc->waits++;
        return 1; /* owned: the output waits for its multicast packet */
    }
    int in_slot = slot, credits = p->credits;
    simtime_t tail_here = p->t_tail;
    simtime_t read_end = f->now + (s->speedup == 1.0 ? longest : (simtime_t)((double)longest / s->speedup + 0.999));
    if (read_end < tail_here)
        read_end = tail_here;
    /* Copy to every output at once; the last copy is the packet itself. */
    uint64_t outs[4] = { 0 }; /* up to 256 ports */
    for (int k = 0; k < m->words && k < 4; k++)
        outs[k] = r[k];
    for (int k = 0; k < m->words && k < 4; k++)
        for (uint64_t b = outs[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            uint32_t c = o == last ? pidx : replica(f, pidx);
            struct packet *cp = pkt(&f->pool, c);
            int vl = copy_vl(f, s, in, o, cp);
            struct port *op = &s->n.port[o];
            cp->out_port = (uint8_t)o;
            cp->out_vl = (uint8_t)vl;
            cp->vl = (uint8_t)vl;
            port_wait_end(op, fabric_slot(f, vl), f->now);
            vlarb_charge(op->vlarb, &op->arb, vl, cp->wire_bytes);
            port_transmit(f, op, c, tail_here);
            port_need_done(f, op); /* it may own other waiting packets' outputs */
        }
    head_gone(f, s, in, in_slot, credits, read_end);
    return 1;
}

/* ---- asynchronous replication ---- */

/* Output FIFOs (central, and sync with output buffers): copy the head of (in, slot) into the
 * FIFO of every output it needs, if it may: central when every FIFO has room, sync when every
 * FIFO is empty (the output buffer holds one packet) and no older head reserved it. Returns
 * whether it moved. */
static int try_move(struct fabric *f, struct sw *s, int in, int slot, const uint64_t *reserved)
{
    struct sw_mc *m = s->mc;
    uint32_t pidx = m->q[qi(f, in, slot)].head;
    uint64_t *r = rem_of(f, m, in, slot);
    int credits = pkt(&f->pool, pidx)->credits, last = -1, sync = f->mc->scheme == MC_SYNC;
    for (int k = 0; k < m->words; k++)
        for (uint64_t b = r[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            if (sync ? m->cq[o].n || (reserved[k] >> (o & 63) & 1)
                     : m->cq_used[o] + credits > f->mc->cb_cap)
                return 0; /* waits until that FIFO frees space */
            last = o;
        }
    /* The packet leaves its input (its copies are written as its tail comes in), all copies at
     * once. */
    simtime_t tail = pkt(&f->pool, pidx)->t_tail;
    pktq_pop(&m->q[qi(f, in, slot)], &f->pool);
    m->nheads--;
    for (int k = 0; k < m->words; k++)
        for (uint64_t b = r[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            uint32_t c = o == last ? pidx : replica(f, pidx);
            struct packet *cp = pkt(&f->pool, c);
            cp->out_port = (uint8_t)o;
            cp->out_vl = (uint8_t)copy_vl(f, s, in, o, cp);
            pktq_push(&m->cq[o], &f->pool, c);
            m->cq_used[o] += credits;
            want(f, s, o);
        }
    port_return_credits(f, &s->n.port[in], slot, credits, tail > f->now ? tail : f->now);
    new_head(f, s, in, slot);
    return 1;
}

/* Move every head that may, oldest first (FCFS by mc_before, then input, then VL); under sync
 * an older head that cannot move reserves its outputs against younger ones. Repeats until
 * nothing moves. */
static void moves(struct fabric *f, struct sw *s)
{
    struct sw_mc *m = s->mc;
    uint64_t reserved[4];
    for (int moved = 1; moved && m->nheads;) {
        moved = 0;
        for (int k = 0; k < 4; k++)
            reserved[k] = 0;
        int tried = 0, n = m->nheads;
        struct packet lk; /* a copy of the head tried last, at (last_in, last_sl) (try_move may
                           * grow the pool) */
        const struct packet *lp = NULL;
        int last_in = -1, last_sl = -1;
        while (tried < n) {
            /* the next oldest head after (lp, last_in, last_sl) */
            int bi = -1, bs = -1;
            const struct packet *bp = NULL;
            for (int in = 0; in <= s->n.nports; in++)
                for (int sl = 0; sl < f->nvs; sl++) {
                    uint32_t h = m->q[qi(f, in, sl)].head;
                    if (h == PKT_NIL)
                        continue;
                    const struct packet *p = pkt(&f->pool, h);
                    int after = !lp || mc_before(f, lp, p) ||
                                (!mc_before(f, p, lp) && (in > last_in || (in == last_in && sl > last_sl)));
                    int before = bi < 0 || mc_before(f, p, bp) ||
                                 (!mc_before(f, bp, p) && (in < bi || (in == bi && sl < bs)));
                    if (after && before)
                        bi = in, bs = sl, bp = p;
                }
            if (bi < 0)
                break;
            tried++;
            lk = *bp, lp = &lk, last_in = bi, last_sl = bs;
            if (try_move(f, s, bi, bs, reserved)) {
                moved = 1;
            } else if (f->mc->scheme == MC_SYNC && !f->mc->no_reserve) {
                const uint64_t *r = rem_of(f, m, bi, bs);
                for (int k = 0; k < m->words && k < 4; k++)
                    reserved[k] |= r[k];
            }
        }
    }
}

int mcast_cand(struct fabric *f, struct sw *s, int out, int slot, int32_t credits, int *credit_blocked)
{
    struct sw_mc *m = s->mc;
    const struct packet *p = NULL;
    if (f->mc->fifo_mode) {
        if (m->cq[out].head != PKT_NIL) {
            p = pkt(&f->pool, m->cq[out].head);
            if (fabric_slot(f, p->out_vl) != slot)
                p = NULL;
        }
    } else if (m->nheads) {
        int sl, in = oldest_for(f, s, out, slot, 1, &sl);
        if (in >= 0)
            p = pkt(&f->pool, active(f, m, in, sl));
    }
    if (!p)
        return 0;
    if (slot == f->set.nvls || p->credits <= credits)
        return 1;
    *credit_blocked = 1;
    return 0;
}

void mcast_send(struct fabric *f, struct sw *s, int out, int slot)
{
    struct sw_mc *m = s->mc;
    struct port *op = &s->n.port[out];
    uint32_t c;
    if (f->mc->fifo_mode) {
        c = pktq_pop(&m->cq[out], &f->pool);
        m->cq_used[out] -= pkt(&f->pool, c)->credits;
    } else {
        int sl, in = oldest_for(f, s, out, slot, 1, &sl);
        size_t x = qi(f, in, sl);
        uint64_t *r = rem_of(f, m, in, sl);
        r[out >> 6] &= ~(1ULL << (out & 63));
        int more = any(r, m->words);
        if (m->buf[x] != PKT_NIL) { /* a further copy from the buffer */
            uint32_t pidx = m->buf[x];
            c = more ? replica(f, pidx) : pidx;
            pkt(&f->pool, c)->out_vl = (uint8_t)copy_vl(f, s, in, out, pkt(&f->pool, c));
            if (!more) { /* the counter reached 0: the buffer is free, the next head starts */
                m->buf[x] = PKT_NIL;
                m->nbuf--;
                m->nheads--;
                if (new_head(f, s, in, sl))
                    want_all(f, s, r);
                if (f->mc->async_switch) /* heads of other inputs may start now */
                    for (int o = 1; o <= s->n.nports; o++) {
                        int sl2;
                        if (o != out && s->n.port[o].peer && oldest_for(f, s, o, -1, 1, &sl2) >= 0)
                            want(f, s, o);
                    }
            }
        } else { /* the first copy: the packet leaves its input VL */
            uint32_t pidx = m->q[x].head;
            c = more ? replica(f, pidx) : pidx;
            struct packet *p = pkt(&f->pool, pidx);
            int credits = p->credits;
            simtime_t tx = byterate_time(op->rate, p->wire_bytes);
            simtime_t read_end = f->now + (s->speedup == 1.0 ? tx : (simtime_t)((double)tx / s->speedup + 0.999));
            if (read_end < p->t_tail)
                read_end = p->t_tail;
            pkt(&f->pool, c)->out_vl = (uint8_t)copy_vl(f, s, in, out, pkt(&f->pool, c));
            if (more) { /* the rest leave from the one-packet buffer */
                pktq_pop(&m->q[x], &f->pool);
                port_return_credits(f, &s->n.port[in], sl, credits, read_end);
                m->buf[x] = pidx;
                m->nbuf++;
            } else {
                head_gone(f, s, in, sl, credits, read_end);
            }
        }
    }
    struct packet *cp = pkt(&f->pool, c);
    cp->out_port = (uint8_t)out;
    cp->vl = cp->out_vl;
    vlarb_charge(op->vlarb, &op->arb, cp->vl, cp->wire_bytes);
    port_transmit(f, op, c, cp->t_tail);
    if (f->mc->fifo_mode) /* space freed in this output's FIFO: heads may move */
        moves(f, s);
}

void mcast_drop_check(struct fabric *f, struct sw *s, int in, int slot)
{
    struct sw_mc *m = s->mc;
    if (!m)
        return;
    size_t x = qi(f, in, slot);
    uint32_t h = active(f, m, in, slot);
    if (h == PKT_NIL)
        return;
    struct packet *p = pkt(&f->pool, h);
    int cause_sll;
    if (mc_due(f, m->since[x], p, &cause_sll) > f->now)
        return; /* another head since: its own event comes later */
    if (slot == f->set.nvls || p->flow == FLOW_CONTROL || (p->flags & PKT_KEEP)) {
        s->drop->kept[in]++;
        f->cnt.kept_past_limit++;
        return;
    }
    /* The outputs it still needed: they may serve others now. */
    uint64_t outs[4] = { 0 };
    uint64_t *r = rem_of(f, m, in, slot);
    int lost = 0;
    for (int k = 0; k < m->words && k < 4; k++) {
        outs[k] = r[k];
        lost += __builtin_popcountll(r[k]);
        r[k] = 0;
    }
    if (m->buf[x] != PKT_NIL) { /* async: some copies left; its input credits went back then */
        m->buf[x] = PKT_NIL;
        m->nbuf--;
        f->mc->dropped_partial++;
    } else {
        pktq_pop(&m->q[x], &f->pool);
        port_return_credits(f, &s->n.port[in], slot, p->credits, p->t_tail > f->now ? p->t_tail : f->now);
    }
    m->nheads--;
    if (cause_sll) {
        s->drop->sll[in]++;
        f->cnt.dropped_sll++;
        f->mc->dropped_sll++;
    } else {
        s->drop->hoq[in]++;
        f->cnt.dropped_hoq++;
        f->mc->dropped_hoq++;
    }
    fabric_pkt_gone(f, p);
    f->mc->dropped++;
    f->mc->copies_lost += (uint64_t)lost;
    pktpool_release(&f->pool, h);
    if (new_head(f, s, in, slot) && !f->mc->fifo_mode)
        want_all(f, s, rem_of(f, m, in, slot));
    if (f->mc->fifo_mode)
        moves(f, s);
    want_all(f, s, outs);
    if (f->mc->async_switch) /* heads of other inputs may start now */
        for (int o = 1; o <= s->n.nports; o++) {
            int sl2;
            if (s->n.port[o].peer && oldest_for(f, s, o, -1, 1, &sl2) >= 0)
                want(f, s, o);
        }
    if (s->retry) {
        s->retry = 0;
        for (int w = 0; w < s->words; w++) {
            uint64_t bits = s->stalled[w];
            s->stalled[w] = 0;
            for (; bits; bits &= bits - 1)
                sw_kick(f, s, w * 64 + __builtin_ctzll(bits));
        }
    }
}

uint64_t mcast_held(const struct fabric *f, const struct sw *s)
{
    const struct sw_mc *m = s->mc;
    if (!m)
        return 0;
    uint64_t n = (uint64_t)m->nbuf;
    for (int in = 0; in <= s->n.nports; in++)
        for (int sl = 0; sl < f->nvs; sl++)
            n += m->q[qi(f, in, sl)].n;
    if (m->cq)
        for (int o = 0; o <= s->n.nports; o++)
            n += m->cq[o].n;
    return n;
}

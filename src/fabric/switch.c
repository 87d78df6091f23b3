/* switch.c: the switch data path common to every switch architecture: routing and SL-to-VL on
 * arrival, output arbitration, crossbar read ports and cut-through timing. The input memory (its
 * queues, how a packet is classified into one, which packets an input offers) belongs to the
 * architecture (fabric/swarch.h: arch_voq.c, arch_fifo.c, ...). Each output arbitrates in two levels: round robin over the
 * inputs holding a packet for it on a VL ("an input that just had access does not get it again
 * until every other requesting input has been served"), then IBA VL arbitration over the VLs
 * with a sendable packet. Inputs feed the crossbar through a limited number of read ports;
 * speedup shortens how long a packet holds its read port. A packet for an output faster than its
 * input either starts at once and holds the output until its tail has arrived (cut_through =
 * hold) or is queued only once it can be sent without waiting for its tail (late).
 *
 * The fast path. Most runs use the same switch: virtual output queues, one data VL, an input
 * bitset in one word, no read-port limit, no multicast, iSLIP or speedup (dropping's head
 * lifetimes start where the general code starts them). For such a
 * switch (sw.fast, set by switch_prepare) enqueue_fast and arbitrate_fast below do what the
 * general code does, with the same decisions and the same state changes in the same order,
 * without the per-VL loops, the architecture's indirect calls and the read-port bookkeeping
 * that cannot bind; a request on VL15 sends the output to the general code. */
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "fabric/adapt.h"
#include "fabric/mcast.h"
#include "fabric/swarch.h"

/* Whether the data packet arriving now is lost (switch.loss_every, then switch.loss). */
static int switch_loses(struct fabric *f)
{
    f->loss_seen++;
    if (f->set.loss_every > 0 && f->loss_seen % (uint64_t)f->set.loss_every == 0)
        return 1;
    if (f->set.loss <= 0)
        return 0;
    f->loss_rng += 0x9e3779b97f4a7c15ULL;
    return (double)(rng_mix64(f->loss_rng) >> 11) * 0x1p-53 < f->set.loss;
}

extern const struct sw_arch sw_arch_voq;

/* The fast path's VOQ of (in, out) on the one data VL (slot 0; VL15 is slot 1). */
static inline struct pktq *voq_fast(struct sw *s, int in, int out)
{
    return &s->q[((size_t)in * (size_t)(s->n.nports + 1) + (size_t)out) * 2];
}

/* arch_voq.c's enqueue for a fast switch (with dropping, a new head's lifetime starts, as in
 * sw_req_set). */
static inline void enqueue_fast(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    const struct packet *p = pkt(&f->pool, pidx);
    int out = p->out_port, slot = fabric_slot(f, p->out_vl);
    struct pktq *q = &s->q[((size_t)in * (size_t)(s->n.nports + 1) + (size_t)out) * 2 + (size_t)slot];
    pktq_push(q, &f->pool, pidx);
    if (q->n == 1) {
        s->req[(size_t)out * 2 + (size_t)slot] |= 1ULL << in;
        s->req_slots[out] |= 1u << slot;
        if (s->drop)
            drop_head_start(f, s, in, out, slot);
    }
}

/* switch_arrive for a fast switch without adaptive routing, late cut-through or loss, for a
 * routable unicast packet: the same state changes in the same order. Returns 0, having changed
 * nothing, for a packet the general code must take (multicast, no route). */
static inline int arrive_fast(struct fabric *f, struct sw *s, struct port *in, struct packet *p,
                              uint32_t pidx)
{
    unsigned lid = p->dst_lid;
    if (lid_is_mcast((int)lid) || lid > (unsigned)s->max_lid)
        return 0;
    int out = s->lft[lid];
    if (out < 1 || out > s->n.nports || !s->n.port[out].peer)
        return 0;
    struct port *op = &s->n.port[out];
    if (f->hooks.on_enqueue) /* its state is read below, once the packet is queued */
        __builtin_prefetch(op->cc, 1);
    int in_num = in->num;
    p->in_port = (uint8_t)in_num;
    p->out_port = (uint8_t)out;
    if (p->vl == VL15)
        p->out_vl = VL15;
    else if (s->sl2vl)
        p->out_vl = s->sl2vl[((size_t)in_num * (size_t)(s->n.nports + 1) + (size_t)out) * 16 + p->sl];
    else
        p->out_vl = f->set.sl2vl[p->sl];
    enqueue_fast(f, s, in_num, pidx);
    if (f->hooks.on_enqueue)
        f->hooks.on_enqueue(f, in, op, p);
    if (port_busy(f, op))
        port_need_done(f, op);
    else
        switch_try_send(f, s, out);
    return 1;
}

void switch_arrive(struct fabric *f, struct port *in, uint32_t pidx)
{
    struct sw *s = node_sw(in->node);
    struct packet *p = pkt(&f->pool, pidx);
    if (s->fast_in && arrive_fast(f, s, in, p, pidx))
        return;
    if (lid_is_mcast(p->dst_lid)) { /* replicated per the MFT */
        if (s->arch->mcast && s->mc && p->vl != VL15) { /* by the architecture (arch_pipe) */
            p->in_port = (uint8_t)in->num;
            p->out_port = 0;
            s->arch->enqueue(f, s, in->num, pidx);
        } else { /* in multicast queues beside the architecture's (mcast_switch.c) */
            mcast_arrive(f, s, in, pidx);
        }
        return;
    }
    int out = p->dst_lid <= s->max_lid ? s->lft[p->dst_lid] : 255;
    if (out == 255 || out < 1 || out > s->n.nports || !s->n.port[out].peer) {
        /* No route: the packet is dropped and counted; its buffer space is freed once its
         * tail has arrived. */
        int slot = fabric_slot(f, p->vl);
        port_return_credits(f, in, slot, p->credits, p->t_tail > f->now ? p->t_tail : f->now);
        f->cnt.dropped_unroutable++;
        fabric_pkt_gone(f, p);
        fabric_timeline(f, TLN_DROP, in, p, 0, 0);
        pktpool_release(&f->pool, pidx);
        return;
    }
    p->in_port = (uint8_t)in->num;
    if (s->adapt) {
        if (p->pb & PB_ADAPTIVE)
            out = adapt_route(f, s, p, out);
        if (s->adapt->routed)
            s->adapt->routed(f, s, out, p);
    }
    p->out_port = (uint8_t)out;
    if (p->vl == VL15)
        p->out_vl = VL15;
    else if (s->sl2vl)
        p->out_vl = s->sl2vl[((size_t)in->num * (size_t)(s->n.nports + 1) + (size_t)out) * 16 + p->sl];
    else
        p->out_vl = f->set.sl2vl[p->sl];
    if (s->cut_through_late) {
        /* A faster output: the packet may not leave before its transmission can end as its
         * tail arrives (a packet goes on the wire without gaps); until then it waits outside
         * the queues and the output serves others. Arriving again then, it is queued. */
        simtime_t ready = p->t_tail - byterate_time(s->n.port[out].rate, p->wire_bytes);
        if (ready > f->now) {
            fabric_schedule(f, ready, EV_ARRIVE, in, pidx, 0);
            return;
        }
    }
    /* (Here, once per packet: a late cut-through arrives twice.) */
    if (__builtin_expect(f->loss_on, 0) && p->flow != FLOW_CONTROL && !(p->flags & PKT_MCAST) &&
        switch_loses(f)) {
        /* Lost (a CRC error): discarded as it arrives; its space frees once its tail is in. */
        port_return_credits(f, in, fabric_slot(f, p->vl), p->credits, p->t_tail > f->now ? p->t_tail : f->now);
        f->cnt.dropped_loss++;
        fabric_pkt_gone(f, p);
        fabric_timeline(f, TLN_DROP, in, p, 0, 3);
        pktpool_release(&f->pool, pidx);
        return;
    }
    if (s->fast) {
        enqueue_fast(f, s, in->num, pidx);
    } else if (s->arch->enqueue(f, s, in->num, pidx) != SW_QUEUED) {
        return;
    }
    if (f->hooks.on_enqueue)
        f->hooks.on_enqueue(f, in, &s->n.port[out], p);
    if (port_busy(f, &s->n.port[out]))
        port_need_done(f, &s->n.port[out]);
    else
        switch_try_send(f, s, out);
}

/* Whether input i's head for (out, slot) may go on `credits` (VL15 always); sets
 * *credit_blocked when it lacks them. */
static inline __attribute__((always_inline)) int head_fits(struct fabric *f, struct sw *s, int i, int out,
                                                           int slot, int32_t credits, int is15,
                                                           int *credit_blocked)
{
    uint32_t h = s->arch->head(f, s, i, out, slot);
    if (h == PKT_NIL)
        ibn_panic("switch %s: request bit set for input %d output %d with no packet", s->n.name, i, out);
    if (is15 || pkt(&f->pool, h)->credits <= credits)
        return 1;
    *credit_blocked = 1;
    return 0;
}

/* Round robin over the inputs requesting (out, slot), starting after the last one served.
 * Returns the input, or -1; sets *credit_blocked when a candidate lacked credits and
 * *read_blocked when one lacked a free read port. `exact` (a constant): *read_blocked says
 * whether an input before the one returned lacked a read port (iSLIP's grant reads it after a
 * pick); otherwise (arbitrate, which reads it only when no slot found an input, i.e. after a
 * full scan of every slot) it says whether any requesting input lacks one, and the inputs
 * whose read ports are all busy are masked out with the bitset rbusy (equal to reads[in] >=
 * read_ports) instead of being tested one by one: the same inputs are asked for their heads
 * in the same order, so the result is the same. */
static inline __attribute__((always_inline)) int pick_input_(struct fabric *f, struct sw *s, int out, int slot,
                                                             int32_t credits, int *credit_blocked,
                                                             int *read_blocked, const int exact)
{
    const uint64_t *bits = sw_req(s, f, out, slot);
    int n = s->n.nports + 1, last = s->rr[(size_t)out * (size_t)f->nvs + (size_t)slot];
    int is15 = slot == f->set.nvls;
    if (!exact && s->words == 1) {
        uint64_t all = bits[0], busy = all & s->rbusy[0];
        if (busy)
            *read_blocked = 1;
        uint64_t b = all & ~busy, after = b & (~1ULL << last), order[2] = { after, b & ~after };
        for (int pass = 0; pass < 2; pass++) {
            for (uint64_t w = order[pass]; w; w &= w - 1) {
                int i = __builtin_ctzll(w);
                if (head_fits(f, s, i, out, slot, credits, is15, credit_blocked))
                    return i;
            }
        }
        return -1;
    }
    if (!exact) {
        for (int w = 0; w < s->words; w++)
            if (bits[w] & s->rbusy[w])
                *read_blocked = 1;
    }
    /* Inputs after the last one served, then from the start up to it: set bits in order. */
    for (int pass = 0; pass < 2; pass++) {
        int from = pass == 0 ? last + 1 : 0, to = pass == 0 ? n : last + 1;
        for (int i = from; i < to;) {
            uint64_t w = (exact ? bits[i >> 6] : bits[i >> 6] & ~s->rbusy[i >> 6]) >> (i & 63);
            if (!w) {
                i = ((i >> 6) + 1) << 6;
                continue;
            }
            i += __builtin_ctzll(w);
            if (i >= to)
                break;
            if (exact && s->reads[i] >= s->read_ports) {
                *read_blocked = 1;
            } else if (head_fits(f, s, i, out, slot, credits, is15, credit_blocked)) {
                return i;
            }
            i++;
        }
    }
    return -1;
}

static inline void send_packet(struct fabric *f, struct sw *s, int out, int slot, int in, int vl, int move_rr);

/* Whether trying stalled output `out` again now would change nothing but mark it stalled again:
 * every input requesting it on every slot has all its read ports in use (so pick_input skips
 * each without looking at its head or the credits), no slot waits for credits without a
 * request (arbitrate would end that wait), no credit return is due to be absorbed, and
 * port_watch_credits would find its watch already set up. switch_try_send under these
 * conditions reaches exactly that end; skipping it keeps results byte-identical and saves most
 * of the cost of retry_stalled, which a design with one read port per input (ccfit, fbicm)
 * calls at every read end. Anything else (a busy or unwired port, multicast, iSLIP, a
 * distributed run's cut port, a transmission ended but not yet cleared) takes the full path. */
static inline int retry_is_noop(const struct fabric *f, const struct sw *s, int out)
{
    const struct port *op = &s->n.port[out];
    if (s->mc || s->islip || op->tx_busy || !op->peer || (op->watch & WATCH_CUT) || !op->credit_watch)
        return 0;
    if (op->cret_n && (op->cret_next <= f->now || !op->cret[op->cret_head].woken))
        return 0;
    uint32_t req = s->req_slots[out];
    if (!req || (op->waiting & ~req))
        return 0;
    for (; req; req &= req - 1) {
        const uint64_t *bits = sw_req((struct sw *)s, f, out, __builtin_ctz(req));
        for (int w = 0; w < s->words; w++)
            if (bits[w] & ~s->rbusy[w])
                return 0;
    }
    return 1;
}

/* The skip is on unless a test turns it off to check that it changes nothing
 * (switch_retry_skip_set); retry_skips counts the tries it saved in this process. */
static int retry_skip_on = 1;
static unsigned long long retry_skips;

void switch_retry_skip_set(int on)
{
    retry_skip_on = on;
}

unsigned long long switch_retry_skipped(void)
{
    return retry_skips;
}

/* Give every stalled output another chance. Each word is taken and cleared before its outputs
 * are tried, since an output that still cannot send marks itself stalled again (one whose try
 * would change nothing is only marked again: retry_is_noop). */
static void retry_stalled(struct fabric *f, struct sw *s)
{
    if (s->words == 1 && !s->stalled[0])
        return; /* nothing stalled (the loop below would find the same) */
    for (int w = 0; w < s->words; w++) {
        uint64_t bits = s->stalled[w];
        s->stalled[w] = 0;
        while (bits) {
            int o = w * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (retry_skip_on && retry_is_noop(f, s, o)) {
                s->stalled[w] |= 1ULL << (o & 63);
                retry_skips++;
            } else
                switch_try_send(f, s, o);
        }
    }
}

/* Arbitrate output `out` (idle, credits up to date) and send a packet if one may go. Returns
 * whether any input holds a packet for it. */
static int arbitrate(struct fabric *f, struct sw *s, int out)
{
    struct port *op = &s->n.port[out];
    int cand[VL_SLOTS];
    uint32_t ready = 0;
    int read_blocked = 0, work = 0;
    int mc_async = s->mc && (f->mc->scheme >= MC_ASYNC || f->mc->fifo_mode);
    /* The slots with a request, and those whose wait for credits is open (a slot with neither
     * would only have port_wait_end do nothing); every slot when multicast copies compete. */
    uint32_t req = s->req_slots[out];
    for (uint32_t scan = mc_async ? (1u << f->nvs) - 1 : req | op->waiting; scan; scan &= scan - 1) {
        int slot = __builtin_ctz(scan);
        int any = req >> slot & 1;
        int credit_blocked = 0;
        if (mc_async && mcast_cand(f, s, out, slot, op->vl[slot].credits, &credit_blocked)) {
            /* A multicast copy goes ahead of unicast packets on its VL (seed 004). */
            work = 1;
            cand[slot] = -1;
            ready |= 1u << fabric_slot_vl(f, slot);
            port_wait_end(op, slot, f->now);
            continue;
        }
        if (!any) {
            if (credit_blocked) {
                work = 1;
                port_wait_begin(op, slot, f->now);
            } else {
                port_wait_end(op, slot, f->now);
            }
            continue;
        }
        work = 1;
        int i = pick_input_(f, s, out, slot, op->vl[slot].credits, &credit_blocked, &read_blocked, 0);
        if (i >= 0) {
            cand[slot] = i;
            ready |= 1u << fabric_slot_vl(f, slot);
            port_wait_end(op, slot, f->now);
        } else if (credit_blocked) {
            port_wait_begin(op, slot, f->now);
        }
    }
    if (!ready) {
        if (read_blocked)
            s->stalled[out >> 6] |= 1ULL << (out & 63);
        return work;
    }
    int vl = vlarb_pick(op->vlarb, &op->arb, ready);
    if (vl < 0)
        return work; /* ready VLs have no weight in either table: they wait (reported at drain) */
    int slot = fabric_slot(f, vl), in = cand[slot];
    if (in < 0) {
        mcast_send(f, s, out, slot);
        if (s->retry) {
            s->retry = 0;
            retry_stalled(f, s);
        }
        return work;
    }
    send_packet(f, s, out, slot, in, vl, 1);
    return work;
}

/* The unslotted scheduler's calls inline these (as before they were shared with islip.c); the
 * exported sw_pick_input and sw_send below are for islip.c. */
static inline void send_packet(struct fabric *f, struct sw *s, int out, int slot, int in, int vl, int move_rr)
{
    struct port *op = &s->n.port[out];
    struct port *ip = &s->n.port[in];
    uint32_t pidx = s->arch->dequeue(f, s, in, out, slot);
    if (s->drop && (sw_req(s, f, out, slot)[in >> 6] >> (in & 63) & 1))
        drop_head_start(f, s, in, out, slot); /* the next head for (out, slot) */
    if (move_rr)
        s->rr[(size_t)out * (size_t)f->nvs + (size_t)slot] = (uint16_t)in;
    struct packet *p = pkt(&f->pool, pidx);
    vlarb_charge(op->vlarb, &op->arb, vl, p->wire_bytes);
    if (f->hooks.on_dequeue)
        f->hooks.on_dequeue(f, ip, op, p);
    int in_slot = fabric_slot(f, p->vl), credits = p->credits;
    simtime_t tail_here = p->t_tail;
    simtime_t tx = byterate_time(op->rate, p->wire_bytes);
    simtime_t read_end = f->now + (s->speedup == 1.0 ? tx : (simtime_t)((double)tx / s->speedup + 0.999));
    if (read_end < tail_here)
        read_end = tail_here;
    p->vl = p->out_vl;
    simtime_t end = port_transmit(f, op, pidx, tail_here);
    if (s->arch->departed)
        s->arch->departed(f, s, out, pidx, end); /* the input's credits went back already */
    else
        port_return_credits(f, ip, in_slot, credits, read_end);
    /* With a read port per output (the default) the limit can never bind: no event needed
     * unless the architecture wants to know when the read ends. EV_READ_DONE's argument: bit 0
     * frees a read port, the bits above are 1 + the input slot for the architecture. */
    uint32_t rd = 0;
    if (s->read_ports < s->n.nports) {
        if (++s->reads[in] >= s->read_ports)
            s->rbusy[in >> 6] |= 1ULL << (in & 63);
        rd = 1;
    }
    if (s->arch->read_done)
        rd |= (s->read_tag + 1) << 1;
    if (rd)
        fabric_schedule(f, read_end, EV_READ_DONE, ip, rd, 0);
    /* Outputs that new heads of this input ask for may now be able to send. */
    if (s->retry) {
        s->retry = 0;
        retry_stalled(f, s);
    }
}

int sw_pick_input(struct fabric *f, struct sw *s, int out, int slot, int32_t credits,
                  int *credit_blocked, int *read_blocked)
{
    return pick_input_(f, s, out, slot, credits, credit_blocked, read_blocked, 1);
}

void sw_send(struct fabric *f, struct sw *s, int out, int slot, int in, int vl, int move_rr)
{
    send_packet(f, s, out, slot, in, vl, move_rr);
}

/* arbitrate() and send_packet() for a fast switch whose output `out` (idle, credits up to date)
 * has no request on VL15. Returns whether any input holds a packet for it. */
static int arbitrate_fast(struct fabric *f, struct sw *s, int out)
{
    struct port *op = &s->n.port[out];
    uint64_t *req = &s->req[(size_t)out * 2];
    uint64_t bits = req[0];
    if (op->waiting & 2) /* VL15 never waits for credits; as arbitrate() does */
        port_wait_end(op, 1, f->now);
    if (!bits) {
        port_wait_end(op, 0, f->now);
        return 0;
    }
    /* Round robin: the inputs after the last one served, then from the first up to it. */
    uint16_t *rr = &s->rr[(size_t)out * 2];
    int32_t credits = op->vl[0].credits;
    uint64_t after = bits & (~1ULL << *rr), order[2] = { after, bits & ~after };
    int in = -1;
    for (int pass = 0; pass < 2 && in < 0; pass++) {
        for (uint64_t w = order[pass]; w; w &= w - 1) {
            int i = __builtin_ctzll(w);
            uint32_t h = voq_fast(s, i, out)->head;
            if (h == PKT_NIL)
                ibn_panic("switch %s: request bit set for input %d output %d with no packet",
                          s->n.name, i, out);
            if (pkt(&f->pool, h)->credits <= credits) {
                in = i;
                break;
            }
        }
    }
    if (in < 0) { /* every candidate lacks credits */
        port_wait_begin(op, 0, f->now);
        return 1;
    }
    port_wait_end(op, 0, f->now);
    if (vlarb_pick(op->vlarb, &op->arb, 1u) != 0)
        return 1; /* VL 0 has no weight in either table: it waits (reported at drain) */
    /* send_packet(f, s, out, 0, in, 0, 1) */
    struct port *ip = &s->n.port[in];
    struct pktq *q = voq_fast(s, in, out);
    uint32_t pidx = pktq_pop(q, &f->pool);
    if (!q->n) {
        if (!(req[0] &= ~(1ULL << in)))
            s->req_slots[out] &= ~1u;
        if (s->drop)
            drop_head_end(f, s, in, out, 0);
    } else if (s->drop) {
        drop_head_start(f, s, in, out, 0); /* the next head for (out, VL 0) */
    }
    *rr = (uint16_t)in;
    struct packet *p = pkt(&f->pool, pidx);
    vlarb_charge(op->vlarb, &op->arb, 0, p->wire_bytes);
    if (f->hooks.on_dequeue)
        f->hooks.on_dequeue(f, ip, op, p);
    int in_slot = fabric_slot(f, p->vl), ncred = p->credits;
    simtime_t tail_here = p->t_tail;
    simtime_t read_end = f->now + byterate_time(op->rate, p->wire_bytes);
    if (read_end < tail_here)
        read_end = tail_here;
    p->vl = p->out_vl;
    port_transmit(f, op, pidx, tail_here);
    port_return_credits(f, ip, in_slot, ncred, read_end);
    if (s->retry) {
        s->retry = 0;
        retry_stalled(f, s);
    }
    return 1;
}

void switch_prepare(struct fabric *f)
{
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        s->fast = !f->no_fast && s->arch == &sw_arch_voq && f->nvs == 2 && s->words == 1 &&
                  s->read_ports >= s->n.nports && s->speedup == 1.0 && !s->mc &&
                  !s->islip && !s->arch->departed && !s->arch->read_done;
        s->fast_in = s->fast && !s->adapt && !s->cut_through_late && !f->loss_on;
    }
}

void switch_try_send(struct fabric *f, struct sw *s, int out)
{
    struct port *op = &s->n.port[out];
    if (port_busy(f, op) || !op->peer)
        return;
    op->tx_busy = 0;
    port_absorb_credits(f, op);
    if (s->fast && !s->req[(size_t)out * 2 + 1]) { /* a fast switch has no multicast or iSLIP */
        int work = arbitrate_fast(f, s, out);
        if (!op->tx_busy)
            port_watch_credits(f, op, work);
        else if (s->req[(size_t)out * 2] | s->req[(size_t)out * 2 + 1])
            port_need_done(f, op);
        return;
    }
    if (s->mc && mcast_output(f, s, out)) { /* owned by a synchronous multicast packet */
        if (s->retry) {
            s->retry = 0;
            retry_stalled(f, s);
        }
        return;
    }
    if (s->islip) { /* slotted: the output waits for the next matching (islip.c) */
        if (sw_has_request(f, s, out))
            islip_request(f, s);
        return;
    }
    int work = arbitrate(f, s, out);
    if (!op->tx_busy) {
        port_watch_credits(f, op, work);
        return;
    }
    /* Sent: if more packets wait for this output, the end of the transmission is an event. */
    if (s->mc && mcast_wants(f, s, out)) {
        port_need_done(f, op);
        return;
    }
    if (sw_has_request(f, s, out))
        port_need_done(f, op);
}

int sw_has_request(const struct fabric *f, struct sw *s, int out)
{
    (void)f;
    return s->req_slots[out] != 0;
}

void switch_read_done(struct fabric *f, struct port *in, uint32_t what)
{
    struct sw *s = node_sw(in->node);
    if (what & 1) {
        s->reads[in->num]--;
        s->rbusy[in->num >> 6] &= ~(1ULL << (in->num & 63));
    }
    if (what >> 1)
        s->arch->read_done(f, s, in->num, (what >> 1) - 1);
    retry_stalled(f, s);
}

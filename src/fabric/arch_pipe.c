/* arch_pipe.c: the 5-stage pipelined switch of seed 004 (section 2.2, Fig. 1), which is also
 * the router of seed 003 (section 3.1, the MediaWorm pipeline) taken at packet level:
 *   1. the arriving packet is mapped to a VL by its SL and queued in that input VL buffer (a
 *      FIFO); its header goes on to stages 2 and 3 at once (cut-through);
 *   2. forwarding-table lookup (the output port);
 *   3. crossbar arbitration (reserve the crossbar output);
 *   4. crossbar traversal from the input VL buffer to the output VL buffer; each input moves
 *      one packet at a time, chosen among its VLs by IBA weighted round robin (the input port's
 *      VL arbitration table, a multiplexed crossbar), and each crossbar output takes one packet
 *      at a time, at the output link's rate times switch.speedup;
 *   5. the output VL buffer (switch.out_buffer bytes per VL), from which IBA VL arbitration
 *      sends one packet at a time on the link; CRC checking is deferred to this stage and does
 *      not delay the packet.
 * Timing (switch.stage1 .. stage5 = t1 .. t5): a header that reaches the switch at t is routed at
 * t + t1 + t2 + t3 (the switch latency; switch.latency does not apply to this design), may
 * cross the crossbar from then on once the input, the crossbar output and room for the whole
 * packet in the output VL buffer are free, reaches the output buffer t4 after it starts
 * crossing and is offered to the link t5 later. A packet's tail leaves each stage no earlier
 * than it arrived. An idle switch therefore delays a packet by t1 + ... + t5 and, with equal
 * link rates, adds no serialisation of its own.
 * Buffers and credits: the upstream link's credits cover the input VL buffer, so they go back
 * when the packet's tail has crossed the crossbar; the output VL buffer is the switch's own,
 * freed when the tail has left on the link (or when the packet is dropped there). Selective
 * dropping (drop.h) looks at the heads of the output VL buffers, the queues the link serves.
 * Multicast (seed 004: "multicast replication happens" at stage 4): a packet to an MLID waits in
 * its input VL buffer like any packet; at the head, the outputs it needs are the MFT's mask but
 * port 0, the arrival port and uncabled ports, and the crossbar copies it to several outputs
 * at once (the input is busy for the longest copy), each copy into that output's VL buffer
 * (its VL by the SL-to-VL map of that input and output), offered to the link t4 + t5 later:
 *   sync: to all its outputs at once, when every one's crossbar output is free and its output
 *         VL buffer empty ("if any of outports is not empty, synchronous replication cannot
 *         start");
 *   central: to all at once when every one is free with room (the output VL buffers play the
 *         central buffer's part);
 *   async: to every output free with room now, the rest later; the packet stays at the head of
 *         its input VL buffer until its last copy has crossed (the counter; no separate
 *         one-packet buffer).
 * The last copy is the packet itself; it leaves the input VL buffer then and its credits go
 * back as its tail crosses. By default multicast heads are served like unicast ones, by the
 * inputs' round robin and each input's WRR. With multicast.xbar_priority, the seed's priority of
 * multicast over unicast data in reserving crossbar outputs: after the VL15 (control) heads, which
 * keep the highest priority, the multicast heads of idle inputs go first, in FCFS order (mcast_before: by injection at the source under sync with sync_order =
 * source), and a sync head that cannot cross reserves its outputs against younger heads and
 * unicast packets (mc_priority). With FCFS by arrival at each switch that reservation
 * deadlocks Fig. 10's networks, as in the other designs (docs/multicast.md).
 * Not modelled: wormhole switching (seed 003's flit-level router with 10-flit buffers, where a
 * blocked message spans several routers): ibnetsim moves whole packets under virtual
 * cut-through, so every buffer must hold a whole packet (init refuses smaller ones). */
#include "fabric/mcast.h"
#include "fabric/swarch.h"

#include <stdlib.h>
#include <string.h>


enum { EVK_XFER_DONE = 1, EVK_READY = 2, EVK_FREE = 3 };

struct pipe_state {
    simtime_t t[5];
    int np;                    /* ports + 1 */
    struct pktq *inq;          /* [in][slot] input VL buffers */
    struct pktq *outq;         /* [out][slot] output VL buffers */
    uint16_t *in_mask;         /* [in] slots with a packet in their input buffer */
    uint8_t *in_busy;          /* [in] moving a packet through the crossbar */
    uint8_t *xbar_busy;        /* [out] crossbar output taken */
    int32_t *out_used;         /* [out][slot] output buffer bytes in use or reserved */
    uint32_t *nready;          /* [out][slot] packets of the output buffer offered to the link
                                * (a prefix of it: they cross in order, t4 + t5 apart) */
    int32_t out_cap;           /* bytes per output VL buffer */
    struct vlarb_state *arb;   /* [in] the input's WRR among its VLs (stage 4) */
    int rr;                    /* the input that last started a transfer */
    uint64_t xfers;            /* packets moved through the crossbar */
    /* Multicast (stage 4 replicates): for the multicast packet at the head of input VL buffer
     * (in, slot), the outputs it still needs (mrem, [in][slot][words]) once set up (mhead: that
     * packet, else PKT_NIL). */
    int words;
    uint64_t *mrem;
    uint32_t *mhead;
    int *cand;                 /* [in * nvs + slot] multicast heads in FCFS order (priority pass) */
};

static inline struct pipe_state *ps(const struct sw *s)
{
    return (struct pipe_state *)s->arch_state;
}
static inline struct pktq *inq(struct pipe_state *st, const struct fabric *f, int in, int slot)
{
    return &st->inq[(size_t)in * (size_t)f->nvs + (size_t)slot];
}
static inline struct pktq *outq(struct pipe_state *st, const struct fabric *f, int out, int slot)
{
    return &st->outq[(size_t)out * (size_t)f->nvs + (size_t)slot];
}

static int pipe_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    const simtime_t *t = f->set.stage;
    if (f->set.read_ports)
        return ibn_err_set(e, "switch.read_ports = %lld does not apply: the pipelined switch's "
                           "crossbar is multiplexed by design (one packet per input at a time); "
                           "leave it 0", f->set.read_ports);
    if (f->set.cut_through_late)
        return ibn_err_set(e, "switch.cut_through = late does not apply: in the pipelined switch a "
                           "packet's tail leaves every stage no earlier than it arrived");
    uint64_t cap = f->set.out_buffer ? f->set.out_buffer : f->set.switch_buffer;
    uint32_t biggest = pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh);
    if (cap < biggest)
        return ibn_err_set(e, "output VL buffer of %llu bytes cannot hold a whole %u-byte packet "
                           "(MTU %lld): a virtual cut-through switch needs at least one packet "
                           "per buffer (wormhole switching is not modelled)",
                           (unsigned long long)cap, biggest, f->set.mtu);
    if (cap > INT32_MAX)
        return ibn_err_set(e, "output VL buffer of %llu bytes is more than %d",
                           (unsigned long long)cap, INT32_MAX);
    struct pipe_state *st = xcalloc(1, sizeof *st);
    memcpy(st->t, t, sizeof st->t);
    st->np = s->n.nports + 1;
    size_t nq = (size_t)st->np * (size_t)f->nvs;
    st->inq = xmalloc(nq * sizeof *st->inq);
    st->outq = xmalloc(nq * sizeof *st->outq);
    for (size_t k = 0; k < nq; k++) {
        pktq_init(&st->inq[k]);
        pktq_init(&st->outq[k]);
    }
    st->in_mask = xcalloc((size_t)st->np, sizeof *st->in_mask);
    st->in_busy = xcalloc((size_t)st->np, 1);
    st->xbar_busy = xcalloc((size_t)st->np, 1);
    st->out_used = xcalloc(nq, sizeof *st->out_used);
    st->nready = xcalloc(nq, sizeof *st->nready);
    st->out_cap = (int32_t)cap;
    st->arb = xcalloc((size_t)st->np, sizeof *st->arb);
    for (int i = 0; i < st->np; i++)
        vlarb_state_init(&st->arb[i]);
    st->rr = 0;
    st->words = (st->np + 63) / 64;
    st->mrem = xcalloc(nq * (size_t)st->words, sizeof *st->mrem);
    st->mhead = xmalloc(nq * sizeof *st->mhead);
    for (size_t k = 0; k < nq; k++)
        st->mhead[k] = PKT_NIL;
    st->cand = xmalloc(nq * sizeof *st->cand);
    s->arch_state = st;
    /* The header pays stages 1-3 before it is routed and may ask for the crossbar. */
    s->latency = t[0] + t[1] + t[2];
    return 0;
}

static void pipe_free(struct sw *s)
{
    struct pipe_state *st = ps(s);
    if (!st)
        return;
    free(st->inq), free(st->outq), free(st->in_mask), free(st->in_busy), free(st->xbar_busy);
    free(st->out_used), free(st->nready), free(st->arb), free(st->mrem), free(st->mhead), free(st->cand), free(st);
    s->arch_state = NULL;
}

static inline uint64_t *mrem(struct pipe_state *st, const struct fabric *f, int in, int slot)
{
    return &st->mrem[((size_t)in * (size_t)f->nvs + (size_t)slot) * (size_t)st->words];
}

/* The multicast packet at the head of (in, slot): set up the outputs it needs (the MFT's mask
 * but port 0, the arrival port and uncabled ports). Returns 0 when it has none (then it has been
 * dropped as unroutable and the head is the next packet, if any). */
static int mc_setup(struct fabric *f, struct sw *s, int in, int slot)
{
    struct pipe_state *st = ps(s);
    size_t x = (size_t)in * (size_t)f->nvs + (size_t)slot;
    for (;;) {
        uint32_t h = inq(st, f, in, slot)->head;
        if (h == PKT_NIL)
            return 0;
        const struct packet *p = pkt(&f->pool, h);
        if (!lid_is_mcast(p->dst_lid) || st->mhead[x] == h)
            return 1;
        uint64_t *r = mrem(st, f, in, slot);
        int off = p->dst_lid - MLID_FIRST, any = 0;
        const struct sw_mc *m = s->mc;
        for (int k = 0; k < st->words; k++) {
            r[k] = off < f->mc->nmlid && k < m->words ? m->mft[(size_t)off * (size_t)m->words + (size_t)k] : 0;
            for (uint64_t b = r[k]; b; b &= b - 1) {
                int o = k * 64 + __builtin_ctzll(b);
                if (o == 0 || o == in || o > s->n.nports || !s->n.port[o].peer)
                    r[k] &= ~(1ULL << (o & 63));
            }
            any |= r[k] != 0;
        }
        if (any) {
            st->mhead[x] = h;
            return 1;
        }
        pktq_pop(inq(st, f, in, slot), &f->pool);
        if (!inq(st, f, in, slot)->n)
            st->in_mask[in] &= (uint16_t)~(1u << slot);
        port_return_credits(f, &s->n.port[in], slot, p->credits, p->t_tail > f->now ? p->t_tail : f->now);
        f->cnt.dropped_unroutable++;
        fabric_pkt_gone(f, p);
        f->mc->unroutable++;
        pktpool_release(&f->pool, h);
    }
}

/* Whether output o can take a copy of p from `in` now: its crossbar output is free and not
 * reserved by an older multicast head (resv, or NULL), and its output VL buffer has room
 * (`empty`: is empty, synchronous replication's condition). */
static inline int mc_out_ok(const struct fabric *f, const struct sw *s, int in, int o,
                            const struct packet *p, int empty, const uint64_t *resv)
{
    const struct pipe_state *st = ps(s);
    if (st->xbar_busy[o] || (resv && (resv[o >> 6] >> (o & 63) & 1)))
        return 0;
    int os = fabric_slot(f, mcast_copy_vl(f, s, in, o, p));
    int32_t used = st->out_used[(size_t)o * (size_t)f->nvs + (size_t)os];
    return empty ? used == 0 : used + p->wire_bytes <= st->out_cap;
}

/* Which outputs the multicast head of (in, slot) may cross to now, into *go (st->words words):
 * sync, all of them at once when every one is free and its output VL buffer empty; central,
 * all at once when every one has room; async, every one free with room now (the rest later).
 * Returns whether any. */
static int mc_ready(const struct fabric *f, const struct sw *s, int in, int slot, uint64_t *go,
                    const uint64_t *resv)
{
    struct pipe_state *st = ps(s);
    const struct packet *p = pkt(&f->pool, inq(st, f, in, slot)->head);
    const uint64_t *r = mrem(st, f, in, slot);
    int scheme = f->mc->scheme, all = scheme != MC_ASYNC, any = 0;
    for (int k = 0; k < st->words; k++) {
        go[k] = 0;
        for (uint64_t b = r[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            if (mc_out_ok(f, s, in, o, p, scheme == MC_SYNC, resv))
                go[k] |= 1ULL << (o & 63), any = 1;
            else if (all)
                return 0;
        }
    }
    return any;
}

/* Offer packet pidx, just put into output buffer (out, os) from `in`, to the link at ready_t. */
static void offer(struct fabric *f, struct sw *s, int in, int out, int os, uint32_t pidx, simtime_t ready_t)
{
    struct pipe_state *st = ps(s);
    if (ready_t == f->now) {
        if (++st->nready[(size_t)out * (size_t)f->nvs + (size_t)os] == 1) {
            sw_req_set(s, f, out, os, in);
            sw_kick(f, s, out);
        }
    } else {
        fabric_schedule(f, ready_t, EV_ARCH, &s->n.port[out], pidx, EVK_READY);
    }
}

/* Stage 4 for a multicast head: copy it across the crossbar to the outputs in go at once (the
 * crossbar connects one input to several outputs); the last copy is the packet itself, which
 * then leaves its input VL buffer (its credits go back as its tail crosses). */
static void mc_cross(struct fabric *f, struct sw *s, int in, int slot, const uint64_t *go)
{
    struct pipe_state *st = ps(s);
    uint64_t *r = mrem(st, f, in, slot);
    uint32_t pidx = inq(st, f, in, slot)->head;
    struct port *ip = &s->n.port[in];
    simtime_t xe = f->now, tail = pkt(&f->pool, pidx)->t_tail;
    int last_all = 1;
    for (int k = 0; k < st->words; k++) {
        for (uint64_t b = go[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            simtime_t tx = byterate_time(s->n.port[o].rate, pkt(&f->pool, pidx)->wire_bytes);
            if (s->speedup != 1.0)
                tx = (simtime_t)((double)tx / s->speedup + 0.999);
            if (f->now + tx > xe)
                xe = f->now + tx;
        }
        if ((r[k] & ~go[k]) != 0)
            last_all = 0;
    }
    if (xe < tail)
        xe = tail;
    int last = -1;
    if (last_all) { /* every copy made now: the packet itself goes to the highest output and
                     * leaves its input VL buffer, whose credits go back as its tail crosses */
        for (int k = st->words - 1; k >= 0 && last < 0; k--)
            if (go[k])
                last = k * 64 + 63 - __builtin_clzll(go[k]);
        pktq_pop(inq(st, f, in, slot), &f->pool);
        if (!inq(st, f, in, slot)->n)
            st->in_mask[in] &= (uint16_t)~(1u << slot);
        st->mhead[(size_t)in * (size_t)f->nvs + (size_t)slot] = PKT_NIL;
        port_return_credits(f, ip, slot, pkt(&f->pool, pidx)->credits, xe);
    }
    for (int k = 0; k < st->words; k++)
        for (uint64_t b = go[k]; b; b &= b - 1) {
            int o = k * 64 + __builtin_ctzll(b);
            uint32_t c = o == last ? pidx : mcast_replica(f, pidx); /* the pool may move */
            struct packet *cp = pkt(&f->pool, c);
            int vl = mcast_copy_vl(f, s, in, o, cp), os = fabric_slot(f, vl);
            cp->out_port = (uint8_t)o;
            cp->out_vl = (uint8_t)vl;
            cp->in_port = (uint8_t)in;
            cp->t_tail = xe + st->t[3] + st->t[4];
            st->xbar_busy[o] = 1;
            st->out_used[(size_t)o * (size_t)f->nvs + (size_t)os] += cp->wire_bytes;
            pktq_push(outq(st, f, o, os), &f->pool, c);
            offer(f, s, in, o, os, c, f->now + st->t[3] + st->t[4]);
            fabric_schedule(f, xe, EV_ARCH, ip, (uint32_t)o, EVK_XFER_DONE);
            r[k] &= ~(1ULL << (o & 63));
        }
    st->in_busy[in] = 1;
    st->rr = in;
    st->xfers++;
}

/* With multicast.xbar_priority (seed 004: "a multicast packet has higher priority than unicast
 * packets for reserving the crossbar output ports"), before any unicast transfer: the multicast
 * heads of the idle inputs, oldest first (mcast_before, then input, then VL), each crossing if it
 * may (outputs reserved by older heads excepted); under sync a head that may not yet reserves
 * every output it still needs (resv) against younger heads and unicast packets, unless
 * sync_order = none. An input crosses one packet at a time: a crossing head's input takes no
 * other. */
static void mc_priority(struct fabric *f, struct sw *s, uint64_t *resv)
{
    struct pipe_state *st = ps(s);
    int n = 0, reserve = f->mc->scheme == MC_SYNC && !f->mc->no_reserve;
    for (int in = 0; in < st->np; in++) {
        if (st->in_busy[in])
            continue;
        for (uint32_t m = st->in_mask[in]; m; m &= m - 1) {
            int slot = __builtin_ctz(m);
            if (!lid_is_mcast(pkt(&f->pool, inq(st, f, in, slot)->head)->dst_lid) ||
                !mc_setup(f, s, in, slot) ||
                !lid_is_mcast(pkt(&f->pool, inq(st, f, in, slot)->head)->dst_lid))
                continue;
            /* insert in FCFS order (ties: input, then VL: the scan's order) */
            int x = in * f->nvs + slot, j = n++;
            const struct packet *p = pkt(&f->pool, inq(st, f, in, slot)->head);
            for (; j > 0; j--) {
                int y = st->cand[j - 1];
                if (!mcast_before(f, p, pkt(&f->pool, inq(st, f, y / f->nvs, y % f->nvs)->head)))
                    break;
                st->cand[j] = y;
            }
            st->cand[j] = x;
        }
    }
    for (int i = 0; i < n; i++) {
        int in = st->cand[i] / f->nvs, slot = st->cand[i] % f->nvs;
        if (st->in_busy[in])
            continue; /* an older head of another VL crossed from this input */
        uint64_t go[4];
        if (mc_ready(f, s, in, slot, go, resv)) {
            struct port *ip = &s->n.port[in];
            vlarb_charge(ip->vlarb, &st->arb[in], fabric_slot_vl(f, slot),
                         pkt(&f->pool, inq(st, f, in, slot)->head)->wire_bytes);
            mc_cross(f, s, in, slot, go);
        } else if (reserve) {
            const uint64_t *r = mrem(st, f, in, slot);
            for (int k = 0; k < st->words && k < 4; k++)
                resv[k] |= r[k];
        }
    }
}

/* Whether the unicast head of (in, slot) may cross now: its crossbar output free and not reserved
 * by a multicast head (resv), and room for it in its output VL buffer. */
static int uni_ready(struct fabric *f, struct pipe_state *st, const struct packet *p, const uint64_t *resv)
{
    int os = fabric_slot(f, p->out_vl);
    return !st->xbar_busy[p->out_port] && !(resv[p->out_port >> 6] >> (p->out_port & 63) & 1) &&
           st->out_used[(size_t)p->out_port * (size_t)f->nvs + (size_t)os] + p->wire_bytes <= st->out_cap;
}

/* The unicast head of input in's VL vl crosses to its output VL buffer. */
static void uni_cross(struct fabric *f, struct sw *s, int in, int vl)
{
    struct pipe_state *st = ps(s);
    int slot = fabric_slot(f, vl);
    struct port *ip = &s->n.port[in];
    uint32_t pidx = pktq_pop(inq(st, f, in, slot), &f->pool);
    if (!inq(st, f, in, slot)->n)
        st->in_mask[in] &= (uint16_t)~(1u << slot);
    struct packet *p = pkt(&f->pool, pidx);
    vlarb_charge(ip->vlarb, &st->arb[in], vl, p->wire_bytes);
    int out = p->out_port, os = fabric_slot(f, p->out_vl);
    struct port *op = &s->n.port[out];
    simtime_t tx = byterate_time(op->rate, p->wire_bytes);
    if (s->speedup != 1.0)
        tx = (simtime_t)((double)tx / s->speedup + 0.999);
    simtime_t xe = f->now + tx;
    if (xe < p->t_tail)
        xe = p->t_tail; /* the tail cannot cross before it has arrived */
    st->in_busy[in] = 1;
    st->xbar_busy[out] = 1;
    st->out_used[(size_t)out * (size_t)f->nvs + (size_t)os] += p->wire_bytes;
    st->rr = in;
    st->xfers++;
    /* The input VL buffer frees as the tail crosses: its credits go upstream. */
    port_return_credits(f, ip, slot, p->credits, xe);
    /* Head in the output buffer after t4, offered to the link after t5; the tail follows. */
    p->t_tail = xe + st->t[3] + st->t[4];
    simtime_t ready_t = f->now + st->t[3] + st->t[4];
    struct pktq *q = outq(st, f, out, os);
    pktq_push(q, &f->pool, pidx);
    if (f->hooks.on_enqueue)
        f->hooks.on_enqueue(f, ip, op, p);
    if (ready_t == f->now) {
        if (++st->nready[(size_t)out * (size_t)f->nvs + (size_t)os] == 1) {
            sw_req_set(s, f, out, os, in);
            sw_kick(f, s, out);
        }
    } else {
        fabric_schedule(f, ready_t, EV_ARCH, op, pidx, EVK_READY);
    }
    fabric_schedule(f, xe, EV_ARCH, ip, (uint32_t)out, EVK_XFER_DONE);
}

/* With xbar_priority, before the multicast heads: the VL15 (subnet management, control) heads
 * of the idle inputs, in round-robin order. The seed's priority of multicast is over unicast
 * *data*; control keeps the highest priority everywhere (seed 004: control on VL15, served
 * first), and without this pass multicast heads took the crossbar outputs ahead of it. */
static void vl15_first(struct fabric *f, struct sw *s, const uint64_t *resv)
{
    struct pipe_state *st = ps(s);
    int slot = fabric_slot(f, VL15);
    for (int k = 1; k <= st->np; k++) {
        int in = (st->rr + k) % st->np;
        if (st->in_busy[in] || !(st->in_mask[in] >> slot & 1))
            continue;
        const struct packet *p = pkt(&f->pool, inq(st, f, in, slot)->head);
        if (!lid_is_mcast(p->dst_lid) && uni_ready(f, st, p, resv))
            uni_cross(f, s, in, VL15);
    }
}

/* Start every crossbar transfer that may start now: each idle input in round-robin order picks,
 * by its WRR among its VLs, a head packet whose crossbar output is free and whose output VL
 * buffer has room for it (a multicast head: mc_ready's outputs; with xbar_priority the VL15
 * heads went first, then the multicast heads, in mc_priority, and unicast packets keep off the
 * outputs they reserved). */
static void xbar_run(struct fabric *f, struct sw *s)
{
    struct pipe_state *st = ps(s);
    uint64_t resv[4] = { 0, 0, 0, 0 };
    int prio = f->mc && f->mc->xbar_prio;
    if (prio) {
        vl15_first(f, s, resv);
        mc_priority(f, s, resv);
    }
    for (int k = 1; k <= st->np; k++) {
        int in = (st->rr + k) % st->np;
        if (st->in_busy[in] || !st->in_mask[in])
            continue;
        uint32_t ready = 0;
        for (uint32_t m = st->in_mask[in]; m; m &= m - 1) {
            int slot = __builtin_ctz(m);
            if (lid_is_mcast(pkt(&f->pool, inq(st, f, in, slot)->head)->dst_lid) &&
                !mc_setup(f, s, in, slot))
                continue; /* dropped (no output), and nothing behind it */
            const struct packet *p = pkt(&f->pool, inq(st, f, in, slot)->head);
            if (lid_is_mcast(p->dst_lid)) { /* replicated here, stage 4 */
                uint64_t go[4];
                if (!prio && mc_ready(f, s, in, slot, go, NULL))
                    ready |= 1u << fabric_slot_vl(f, slot);
                continue;
            }
            if (uni_ready(f, st, p, resv))
                ready |= 1u << fabric_slot_vl(f, slot);
        }
        if (!ready)
            continue;
        struct port *ip = &s->n.port[in];
        int vl = vlarb_pick(ip->vlarb, &st->arb[in], ready);
        if (vl < 0) /* a VL without weight in the input's table: the lowest ready one goes */
            vl = __builtin_ctz(ready);
        int slot = fabric_slot(f, vl);
        if (lid_is_mcast(pkt(&f->pool, inq(st, f, in, slot)->head)->dst_lid)) {
            uint64_t go[4];
            mc_ready(f, s, in, slot, go, NULL);
            vlarb_charge(ip->vlarb, &st->arb[in], vl, pkt(&f->pool, inq(st, f, in, slot)->head)->wire_bytes);
            mc_cross(f, s, in, slot, go);
            continue;
        }
        uni_cross(f, s, in, vl);
    }
}

static int pipe_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    struct pipe_state *st = ps(s);
    const struct packet *p = pkt(&f->pool, pidx);
    int slot = fabric_slot(f, p->vl);
    pktq_push(inq(st, f, in, slot), &f->pool, pidx);
    st->in_mask[in] |= (uint16_t)(1u << slot);
    if (!st->in_busy[in])
        xbar_run(f, s);
    return SW_CONSUMED; /* it reaches its output's queue through the crossbar */
}

/* The head of the output VL buffer (out, slot) if the link may take it and it came from `in`:
 * the request bit of (out, slot) is set for the input of the head, once it is offered. */
static uint32_t pipe_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    uint32_t h = outq(ps(s), f, out, slot)->head;
    if (h != PKT_NIL && pkt(&f->pool, h)->in_port != in)
        return PKT_NIL;
    return h;
}

static uint32_t pipe_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct pipe_state *st = ps(s);
    struct pktq *q = outq(st, f, out, slot);
    uint32_t pidx = pktq_pop(q, &f->pool);
    /* The next packet is offered now if its READY event has passed, else by that event. From
     * the same input the bit stays set (the caller restarts the head's lifetime, as for a
     * VOQ). */
    if (--st->nready[(size_t)out * (size_t)f->nvs + (size_t)slot]) {
        int nin = pkt(&f->pool, q->head)->in_port;
        if (nin != in) {
            sw_req_clr(s, f, out, slot, in);
            sw_req_set(s, f, out, slot, nin);
        }
    } else {
        sw_req_clr(s, f, out, slot, in);
    }
    return pidx;
}

static void pipe_departed(struct fabric *f, struct sw *s, int out, uint32_t pidx, simtime_t t_free)
{
    const struct packet *p = pkt(&f->pool, pidx);
    fabric_schedule(f, t_free > f->now ? t_free : f->now, EV_ARCH, &s->n.port[out], p->wire_bytes,
                    (uint16_t)(EVK_FREE | fabric_slot(f, p->out_vl) << 4));
}

static void pipe_on_event(struct fabric *f, struct sw *s, int port, uint32_t a, uint16_t b)
{
    struct pipe_state *st = ps(s);
    switch (b & 15) {
    case EVK_XFER_DONE:
        st->in_busy[port] = 0;
        st->xbar_busy[a] = 0;
        xbar_run(f, s);
        break;
    case EVK_READY: {
        const struct packet *p = pkt(&f->pool, a);
        int slot = fabric_slot(f, p->out_vl);
        if (++st->nready[(size_t)port * (size_t)f->nvs + (size_t)slot] == 1) { /* the head */
            sw_req_set(s, f, port, slot, p->in_port);
            sw_kick(f, s, port);
        }
        break;
    }
    case EVK_FREE:
        st->out_used[(size_t)port * (size_t)f->nvs + (size_t)(b >> 4)] -= (int32_t)a;
        xbar_run(f, s);
        break;
    default:
        ibn_panic("switch %s: unknown pipeline event %u", s->n.name, b);
    }
}

static uint64_t pipe_held(const struct fabric *f, const struct sw *s)
{
    const struct pipe_state *st = ps(s);
    uint64_t n = 0;
    size_t nq = (size_t)st->np * (size_t)f->nvs;
    for (size_t k = 0; k < nq; k++)
        n += st->inq[k].n + st->outq[k].n;
    return n;
}

const struct sw_arch sw_arch_pipe = {
    .name = "pipe",
    .help = "seed 004's (and seed 003's) 5-stage pipelined switch: input VL buffers, a "
            "multiplexed crossbar with WRR at each input, output VL buffers, per-stage latencies "
            "(switch.stages)",
    .default_read_ports = 0,
    .init = pipe_init,
    .free = pipe_free,
    .enqueue = pipe_enqueue,
    .head = pipe_head,
    .dequeue = pipe_dequeue,
    .held = pipe_held,
    .departed = pipe_departed,
    .on_event = pipe_on_event,
    .mcast = 1,
};

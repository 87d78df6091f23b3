/* isol.c: the congested-flow isolation machinery of seed 002's CCFIT, FBICM, EcoCC and HFDI
 * switches (isol.h; docs/isolation.md says which reading of each open point this is).
 *
 * Per input port: base queues (one NFQ per VL for ccfit and fbicm; one CPQ = VOQ per output
 * and VL for ecocc and hfdi) and `queues` isolation queues (CFQs / HPQs), each with an input CAM line
 * {hops to the root, output towards it, the destinations it isolates, the output CAM line it
 * came from, propagated, sentStop, above High}. Ecocc also has one root CAM line per CPQ (no
 * queue of its own: the VOQ already isolates the root's packets). Per output port: the CAM
 * lines that Allocate messages from the switch downstream created {its line, hops, dList, stop
 * bit, dying}.
 *
 * - Post-processing: a packet reaching the head of a base queue whose destination is in an
 *   active input CAM line of its output moves to that line's queue; failing that, one whose
 *   destination is in an output CAM line of the output it requests gets a new isolation queue
 *   linked to that line (if one is free; else it stays, counted as "exhausted").
 * - Detection: ccfit, fbicm: the NFQ holds more than `detect` packets: the head's destination is
 *   isolated in a new root queue (hops 1, the output the head requests), or added to a root
 *   queue for that output with room. ecocc / hfdi: a CPQ holds more than HTh: its output is
 *   the root (exact); ecocc activates the CPQ's root line, hfdi allocates a root HPQ.
 * - Thresholds of a line's queue: a root line (hops 1) above High puts its output in the
 *   congestion state (a counter of such lines), at or below Low takes it out; above
 *   `propagate` the line sends Allocate upstream once; once propagated, at or above Stop it
 *   sends Stop, and after a Stop, at or below Go it sends Go. An isolation queue (and ecocc's
 *   root line on its CPQ) is freed when empty and not stopped, sending Deallocate if it had
 *   propagated.
 * - Upstream messages arrive at the output port facing the sender: Allocate creates or updates
 *   an output CAM line; Stop / Go set its stop bit, which makes the isolation queues linked to
 *   it ineligible for the crossbar; Deallocate marks it dying (it links no new queue and its
 *   queues free when they empty; it goes when the last does).
 * - The crossbar sees, per input and (output, VL), the base queue's offer and the isolation
 *   queues' offers, served round robin among them. Packets leaving an output in the congestion
 *   state are FECN-marked with probability `marking` (root-only marking).
 * Control packets (CNPs, ACKs) and VL15 are never isolated. */
#include "fabric/isol.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

#define OFF(field) offsetof(struct fabric_settings, isol.field)

const struct param isol_params[] = {
    { "queues", P_INT, OFF(queues), "2",
      "isolation queues per input port: CFQs (ccfit, fbicm) or HPQs (ecocc, hfdi); Papers V and "
      "VI use 2", NULL, 1, 64 },
    { "cam_lines", P_INT, OFF(cam_lines), "0",
      "CAM lines per input port: 0 = as many as the design needs (ccfit, fbicm: one per CFQ; "
      "ecocc and hfdi: one per CPQ, i.e. ports - 1, plus one per HPQ: 9 on 8-port switches); a "
      "smaller number is refused at build time", NULL, 0, 1024 },
    { "dlist", P_INT, OFF(dlist), "8",
      "destinations one CAM line holds (Paper VI's D: 8, 16, 32 for 64, 256, 1024 nodes)", NULL, 1,
      SW_MSG_DESTS },
    { "detect", P_DOUBLE, OFF(detect), "8",
      "ccfit, fbicm: NFQ occupancy, in MTU packets, above which the head packet's destination is "
      "taken as congested (Paper V gives no value; 8 sits between High and Stop)", NULL, 0.5, 1e6 },
    { "high", P_DOUBLE, OFF(high), "4",
      "ccfit: root CFQ occupancy (MTU packets) above which its output enters the congestion state "
      "(Paper V's ITh: 4; fbicm: only the default of propagate); ecocc and hfdi: HTh, the CPQ / "
      "HPQ occupancy that detects a root and propagates (Paper VI: 4)", NULL, 0.5, 1e6 },
    { "low", P_DOUBLE, OFF(low), "2",
      "ccfit: root CFQ occupancy at or below which its output leaves the congestion state (Paper "
      "V's ITh: 2); ecocc and hfdi: LTh (Go, end of marking, root release; Paper VI: HTh - LTh >= "
      "2 MTU)", NULL, 0, 1e6 },
    { "stop", P_DOUBLE, OFF(stop), "10",
      "ccfit, fbicm: CFQ occupancy (MTU packets) at or above which it sends Stop upstream (Paper "
      "V: 10)", NULL, 0.5, 1e6 },
    { "go", P_DOUBLE, OFF(go), "4",
      "ccfit, fbicm: CFQ occupancy at or below which a stopped-upstream CFQ sends Go (Paper V: 4)",
      NULL, 0, 1e6 },
    { "propagate", P_DOUBLE, OFF(propagate), "0",
      "ccfit, fbicm: CFQ occupancy above which it sends Allocate upstream; 0 = high (Paper V names "
      "no separate threshold)", NULL, 0, 1e6 },
    { "marking", P_DOUBLE, OFF(marking), "0.85",
      "probability that a packet leaving an output in the congestion state is FECN-marked (Paper "
      "V's Marking_Rate 85 %); hfdi and fbicm never mark", NULL, 0, 1 },
    { "eligibility", P_BOOL, OFF(eligibility), "true",
      "the end-node eligibility rule (Paper VI section 4.4): an adapter does not start a packet "
      "for a destination named by a stopped CAM line of the switch input it feeds (flows with a "
      "queue pair per destination: cc.plugin = ibcc, level = qp)", NULL, 0, 0 },
    PARAM_END,
};

struct iline {
    uint8_t active, own, hops, above_high, propagated, sent_stop;
    int16_t out;       /* output towards the root */
    int16_t oline;     /* output CAM line at `out` it is linked to; -1 at the root */
    uint16_t ndst;
    struct pktq q;     /* own queue (CFQ / HPQ); before dst, so that what the crossbar's offers
                        * read (active, out, oline, q.head) shares one cache line */
    uint16_t dst[SW_MSG_DESTS];
};

struct oline {
    uint8_t active, dying, stopped, hops;
    uint16_t next_line, refs, ndst;
    uint16_t dst[SW_MSG_DESTS];
};

/* An adapter's copy of the CAM lines of the isolation queues at the switch input it feeds. */
struct isol_hline {
    uint8_t active, stopped;
    uint16_t line, ndst;
    uint16_t dst[SW_MSG_DESTS];
};
struct isol_hca {
    int n;
    int nstopped;             /* lines stopped now (0: nothing to look up) */
    struct isol_hline *l;
};

#define TOUCH_MAX 64

/* Per port of an isolation switch, as input and as output: what the hot path reads (one
 * allocation, 8 bytes a port, rather than four arrays in four places). */
struct iport {
    uint16_t nactive;       /* as input: own lines active */
    uint16_t rr;            /* as input: last queue position served (0 base, 1..L own) */
    uint16_t nol;           /* as output: output CAM lines active (dying ones included) */
    uint16_t cong;          /* as output: root lines above High */
};

struct isol_sw {
    const struct isol_kind *k;
    int L, D, np, nvs, nb, ocap;
    int64_t detect, high, low, stop, go, prop;
    double marking;
    struct pktq *base;      /* [in][nb] */
    struct iline *own;      /* [in][L] */
    struct iline *root;     /* [in][np] (ecocc) or NULL */
    struct oline *ol;       /* [out][ocap] */
    struct iport *pt;       /* [port] the per-port counters, together in one cache line or two */
    uint64_t *kick;         /* outputs to wake after the operation */
    int nkick;              /* bits set in kick (0: nothing to flush) */
    /* The last pick isol_head made, which isol_dequeue reuses when it asks for the same
     * (in, out, slot) with nothing changed in between (every change clears `hit_ok`). */
    int hit_ok, hit_in, hit_out, hit_slot, hit_pos, hit_b;
    uint32_t hit_h;
    int arb_out;            /* output being arbitrated (inside dequeue), else -1 */
    int ntouch;
    struct { int16_t in, out; uint8_t slot; } touch[TOUCH_MAX];
    gsl_rng *rng;
    struct isol_hca *hcas;  /* [in] the adapters at this switch's ports (their tables) */
    /* Counters. */
    uint64_t allocs, root_allocs, exhausted, msgs[5], marked, oline_full, dst_full;
    uint32_t in_use, ports_full, peak_in_use, peak_full;
    double full_area;       /* ports_full x ps */
    simtime_t full_since;
};

static inline struct isol_sw *X(const struct sw *s)
{
    return s->arch_state;
}

static inline int is_data(const struct packet *p)
{
    return p->flow != FLOW_CONTROL && !(p->flags & (PKT_CNP | PKT_ACK | PKT_MCAST)) && p->vl != VL15 &&
           p->out_vl != VL15;
}

static inline struct iline *own(struct isol_sw *x, int in, int l)
{
    return &x->own[(size_t)in * (size_t)x->L + (size_t)l];
}

static inline struct oline *ol(struct isol_sw *x, int out, int i)
{
    return &x->ol[(size_t)out * (size_t)x->ocap + (size_t)i];
}

static inline struct pktq *baseq(struct isol_sw *x, int in, int b)
{
    return &x->base[(size_t)in * (size_t)x->nb + (size_t)b];
}

static inline int line_stopped(struct isol_sw *x, const struct iline *l)
{
    return l->oline >= 0 && ol(x, l->out, l->oline)->stopped;
}

static int has_dst(const uint16_t *d, int n, uint16_t v)
{
    for (int i = 0; i < n; i++)
        if (d[i] == v)
            return 1;
    return 0;
}

static void touch(struct isol_sw *x, int in, int out, int slot)
{
    for (int i = 0; i < x->ntouch; i++)
        if (x->touch[i].in == in && x->touch[i].out == out && x->touch[i].slot == slot)
            return;
    if (x->ntouch == TOUCH_MAX)
        ibn_panic("isol: more than %d offers changed in one operation", TOUCH_MAX);
    x->touch[x->ntouch].in = (int16_t)in;
    x->touch[x->ntouch].out = (int16_t)out;
    x->touch[x->ntouch].slot = (uint8_t)slot;
    x->ntouch++;
}

static void touch_head(struct fabric *f, struct isol_sw *x, int in, uint32_t h)
{
    if (h != PKT_NIL) {
        const struct packet *p = pkt(&f->pool, h);
        touch(x, in, p->out_port, fabric_slot(f, p->out_vl));
    }
}

/* The packet queue position `pos` of input `in` offers for (out, slot), or PKT_NIL; *b gets the
 * base queue it is in (position 0). */
static inline __attribute__((always_inline)) uint32_t offer(struct fabric *f, struct isol_sw *x, int in, int pos, int out, int slot, int *b)
{
    if (pos == 0) {
        if (x->k->base == ISOL_BASE_VOQ) {
            *b = out * x->nvs + slot;
            return baseq(x, in, *b)->head;
        }
        for (int v = 0; v < x->nvs; v++) {
            uint32_t h = baseq(x, in, v)->head;
            if (h != PKT_NIL) {
                const struct packet *p = pkt(&f->pool, h);
                if (p->out_port == out && fabric_slot(f, p->out_vl) == slot) {
                    *b = v;
                    return h;
                }
            }
        }
        return PKT_NIL;
    }
    struct iline *l = own(x, in, pos - 1);
    if (!l->active || l->out != out || l->q.head == PKT_NIL || line_stopped(x, l))
        return PKT_NIL;
    if (fabric_slot(f, pkt(&f->pool, l->q.head)->out_vl) != slot)
        return PKT_NIL;
    return l->q.head;
}

/* Round robin among the queues of `in` offering (out, slot), after the last served. */
static inline __attribute__((always_inline)) int pick(struct fabric *f, struct isol_sw *x, int in, int out, int slot, int *b, uint32_t *h)
{
    if (!x->pt[in].nactive) { /* no isolation queue in use: only the base queue can offer */
        *h = offer(f, x, in, 0, out, slot, b);
        return *h != PKT_NIL ? 0 : -1;
    }
    int n = x->L + 1, pos = x->pt[in].rr;
    for (int i = 1; i <= n; i++) {
        if (++pos == n) /* (rr + i) mod n: rr < n */
            pos = 0;
        *h = offer(f, x, in, pos, out, slot, b);
        if (*h != PKT_NIL)
            return pos;
    }
    return -1;
}

static void note(struct fabric *f, struct sw *s, struct isol_sw *x, int out)
{
    if (x->arb_out >= 0) {
        if (out == x->arb_out)
            return;
        struct port *op = &s->n.port[out];
        if (port_busy(f, op))
            port_need_done(f, op);
        else
            sw_stall(s, out);
        s->retry = 1;
    } else {
        x->kick[out >> 6] |= 1ULL << (out & 63);
        x->nkick = 1;
    }
}

/* Make the request bits of the touched (in, out, slot) true. */
static void settle_(struct fabric *f, struct sw *s, struct isol_sw *x)
{
    for (int i = 0; i < x->ntouch; i++) {
        int in = x->touch[i].in, out = x->touch[i].out, slot = x->touch[i].slot, b = 0;
        uint32_t h;
        int any = pick(f, x, in, out, slot, &b, &h) >= 0;
        uint64_t was = sw_req(s, f, out, slot)[in >> 6] >> (in & 63) & 1;
        if (any && !was) {
            sw_req_set(s, f, out, slot, in);
            note(f, s, x, out);
        } else if (!any && was) {
            sw_req_clr(s, f, out, slot, in);
        }
    }
    x->ntouch = 0;
}

/* settle_ without a call when nothing was touched (an enqueue behind other packets). */
static inline void settle(struct fabric *f, struct sw *s, struct isol_sw *x)
{
    if (x->ntouch)
        settle_(f, s, x);
}

static void flush_kicks(struct fabric *f, struct sw *s, struct isol_sw *x, int skip)
{
    if (!x->nkick)
        return;
    x->nkick = 0;
    int words = s->words;
    for (int w = 0; w < words; w++) {
        uint64_t bits = x->kick[w];
        x->kick[w] = 0;
        while (bits) {
            int o = w * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (o != skip)
                sw_kick(f, s, o);
        }
    }
}

static void usage_changed(struct fabric *f, struct isol_sw *x, int in, int delta)
{
    uint32_t full_before = x->pt[in].nactive == x->L;
    x->pt[in].nactive = (uint16_t)(x->pt[in].nactive + delta);
    x->in_use = (uint32_t)((int)x->in_use + delta);
    if (x->in_use > x->peak_in_use)
        x->peak_in_use = x->in_use;
    uint32_t full_after = x->pt[in].nactive == x->L;
    if (full_before != full_after) {
        x->full_area += (double)x->ports_full * (double)(f->now - x->full_since);
        x->full_since = f->now;
        x->ports_full = x->ports_full + full_after - full_before;
        if (x->ports_full > x->peak_full)
            x->peak_full = x->ports_full;
    }
}

static void send(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int type, int id,
                 const struct iline *l)
{
    struct sw_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    m.hops = l->hops;
    m.line = (uint16_t)id;
    if (type == ISOL_ALLOC) {
        m.ndst = l->ndst;
        memcpy(m.dst, l->dst, l->ndst * sizeof *l->dst);
    }
    x->msgs[type]++;
    sw_send_upstream(f, &s->n.port[in], &m);
}

/* Line id in messages: own lines 0..L-1, ecocc root lines L + output. */
static inline int own_id(int l)
{
    return l;
}

static void free_line(struct fabric *f, struct sw *s, struct isol_sw *x, int in, struct iline *l, int id)
{
    if (l->above_high)
        x->pt[l->out].cong--;
    if (l->propagated)
        send(f, s, x, in, ISOL_DEALLOC, id, l);
    if (l->oline >= 0) {
        struct oline *o = ol(x, l->out, l->oline);
        o->refs--;
        if (o->dying && !o->refs) {
            o->active = 0;
            x->pt[l->out].nol--;
        }
    }
    int was_own = l->own;
    l->active = l->above_high = l->propagated = l->sent_stop = 0;
    l->ndst = 0;
    if (was_own)
        usage_changed(f, x, in, -1);
}

/* The occupancy of line l's queue went from `before` to `after` bytes. */
static void level(struct fabric *f, struct sw *s, struct isol_sw *x, int in, struct iline *l, int id,
                  int64_t before, int64_t after)
{
    (void)before;
    if (x->k->marks && l->hops == 1) {
        if (!l->above_high && after > x->high) {
            l->above_high = 1;
            x->pt[l->out].cong++;
        } else if (l->above_high && after <= x->low) {
            l->above_high = 0;
            x->pt[l->out].cong--;
        }
    }
    if (!l->propagated) {
        if (after > x->prop) {
            send(f, s, x, in, ISOL_ALLOC, id, l);
            l->propagated = 1;
        }
    } else if (!l->sent_stop && after >= x->stop) {
        send(f, s, x, in, ISOL_STOP, id, l);
        l->sent_stop = 1;
    }
    if (l->sent_stop && after <= x->go) {
        send(f, s, x, in, ISOL_GO, id, l);
        l->sent_stop = 0;
    }
    if (after == 0 && !line_stopped(x, l))
        free_line(f, s, x, in, l, id);
}

/* A base queue's occupancy changed: ecocc's root line on that CPQ follows it. */
static void base_level(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int b, int64_t before,
                       int64_t after)
{
    if (!x->root || b % x->nvs != 0)
        return;
    int out = b / x->nvs;
    struct iline *r = &x->root[(size_t)in * (size_t)x->np + (size_t)out];
    if (r->active)
        level(f, s, x, in, r, x->L + out, before, after);
}

static void line_push(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int l, uint32_t h)
{
    struct iline *ln = own(x, in, l);
    int64_t before = ln->q.bytes;
    pktq_push(&ln->q, &f->pool, h);
    touch_head(f, x, in, ln->q.head);
    level(f, s, x, in, ln, own_id(l), before, ln->q.bytes);
}

static int free_own(struct isol_sw *x, int in)
{
    for (int l = 0; l < x->L; l++)
        if (!own(x, in, l)->active)
            return l;
    return -1;
}

static void line_init(struct iline *ln, int own_queue, int hops, int out, int oline)
{
    ln->active = 1;
    ln->own = (uint8_t)own_queue;
    ln->hops = (uint8_t)hops;
    ln->above_high = ln->propagated = ln->sent_stop = 0;
    ln->out = (int16_t)out;
    ln->oline = (int16_t)oline;
    ln->ndst = 0;
}

/* An own line at `in` isolating p (its output and destination), or -1. */
static int match_own(struct isol_sw *x, int in, const struct packet *p)
{
    for (int l = 0; l < x->L; l++) {
        struct iline *ln = own(x, in, l);
        if (ln->active && ln->out == p->out_port && has_dst(ln->dst, ln->ndst, p->dst_lid) &&
            (ln->oline < 0 || !ol(x, ln->out, ln->oline)->dying))
            return l;
    }
    return -1;
}

/* p requests an output with a matching CAM line from downstream: a new isolation queue linked
 * to it, or -1 (none matches, or none is free: counted). */
static int alloc_from_out(struct fabric *f, struct isol_sw *x, int in, const struct packet *p)
{
    int out = p->out_port;
    if (!x->pt[out].nol)
        return -1; /* no line from downstream at this output */
    for (int i = 0; i < x->ocap; i++) {
        struct oline *o = ol(x, out, i);
        if (!o->active || o->dying || !has_dst(o->dst, o->ndst, p->dst_lid))
            continue;
        int l = free_own(x, in);
        if (l < 0) {
            x->exhausted++;
            return -1;
        }
        struct iline *ln = own(x, in, l);
        line_init(ln, 1, o->hops, out, i);
        ln->ndst = o->ndst;
        memcpy(ln->dst, o->dst, o->ndst * sizeof *o->dst);
        o->refs++;
        x->allocs++;
        usage_changed(f, x, in, +1);
        return l;
    }
    return -1;
}

/* Post-processing at the head of base queue b of input in. */
static void post(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int b)
{
    struct pktq *q = baseq(x, in, b);
    for (;;) {
        uint32_t h = q->head;
        if (h == PKT_NIL)
            return;
        const struct packet *p = pkt(&f->pool, h);
        if (!is_data(p))
            return;
        if (!x->pt[in].nactive && !x->pt[p->out_port].nol)
            return; /* no own line to match, no line from downstream to allocate from */
        int l = match_own(x, in, p);
        if (l < 0)
            l = alloc_from_out(f, x, in, p);
        if (l < 0)
            return;
        touch_head(f, x, in, h);
        int64_t before = q->bytes;
        pktq_pop(q, &f->pool);
        touch_head(f, x, in, q->head);
        base_level(f, s, x, in, b, before, q->bytes);
        line_push(f, s, x, in, l, h);
    }
}

/* Destinations of the data packets in q, up to D, into ln. */
static void collect_dsts(struct fabric *f, struct isol_sw *x, struct iline *ln, const struct pktq *q)
{
    for (uint32_t i = q->head; i != PKT_NIL && ln->ndst < x->D; i = pkt(&f->pool, i)->next) {
        const struct packet *p = pkt(&f->pool, i);
        if (is_data(p) && !has_dst(ln->dst, ln->ndst, p->dst_lid))
            ln->dst[ln->ndst++] = p->dst_lid;
    }
}

/* Add destination d to a line (and tell upstream if it has propagated). */
static void add_dst(struct fabric *f, struct sw *s, struct isol_sw *x, int in, struct iline *ln, int id,
                    uint16_t d)
{
    if (has_dst(ln->dst, ln->ndst, d))
        return;
    if (ln->ndst >= x->D) {
        x->dst_full++;
        return;
    }
    ln->dst[ln->ndst++] = d;
    if (ln->propagated)
        send(f, s, x, in, ISOL_ALLOC, id, ln);
}

static void detect_fifo(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int b)
{
    struct pktq *q = baseq(x, in, b);
    if ((int64_t)q->bytes <= x->detect || q->head == PKT_NIL)
        return;
    const struct packet *p = pkt(&f->pool, q->head);
    if (!is_data(p))
        return;
    /* A root queue for the same output with room takes the destination. */
    for (int l = 0; l < x->L; l++) {
        struct iline *ln = own(x, in, l);
        if (ln->active && ln->hops == 1 && ln->oline < 0 && ln->out == p->out_port && ln->ndst < x->D) {
            add_dst(f, s, x, in, ln, own_id(l), p->dst_lid);
            post(f, s, x, in, b);
            return;
        }
    }
    int l = free_own(x, in);
    if (l < 0) {
        x->exhausted++;
        return;
    }
    struct iline *ln = own(x, in, l);
    line_init(ln, 1, 1, p->out_port, -1);
    ln->dst[ln->ndst++] = p->dst_lid;
    x->allocs++;
    x->root_allocs++;
    usage_changed(f, x, in, +1);
    post(f, s, x, in, b);
}

static void detect_voq(struct fabric *f, struct sw *s, struct isol_sw *x, int in, int b, uint16_t dst)
{
    if (b % x->nvs != 0)
        return;
    int out = b / x->nvs;
    struct pktq *q = baseq(x, in, b);
    if (x->root) { /* ecocc: the CPQ's own root line */
        struct iline *r = &x->root[(size_t)in * (size_t)x->np + (size_t)out];
        if (r->active) {
            add_dst(f, s, x, in, r, x->L + out, dst);
            return;
        }
        if ((int64_t)q->bytes <= x->high)
            return;
        line_init(r, 0, 1, out, -1);
        collect_dsts(f, x, r, q);
        x->root_allocs++;
        level(f, s, x, in, r, x->L + out, 0, q->bytes);
        return;
    }
    /* hfdi: a root HPQ. */
    for (int l = 0; l < x->L; l++) {
        struct iline *ln = own(x, in, l);
        if (ln->active && ln->hops == 1 && ln->oline < 0 && ln->out == out) {
            add_dst(f, s, x, in, ln, own_id(l), dst);
            post(f, s, x, in, b);
            return;
        }
    }
    if ((int64_t)q->bytes <= x->high)
        return;
    int l = free_own(x, in);
    if (l < 0) {
        x->exhausted++;
        return;
    }
    struct iline *ln = own(x, in, l);
    line_init(ln, 1, 1, out, -1);
    collect_dsts(f, x, ln, q);
    x->allocs++;
    x->root_allocs++;
    usage_changed(f, x, in, +1);
    post(f, s, x, in, b);
}

int isol_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    struct isol_sw *x = X(s);
    x->hit_ok = 0;
    const struct packet *p = pkt(&f->pool, pidx);
    int b = x->k->base == ISOL_BASE_VOQ ? p->out_port * x->nvs + fabric_slot(f, p->out_vl)
                                       : fabric_slot(f, p->vl);
    struct pktq *q = baseq(x, in, b);
    int64_t before = q->bytes;
    int was_empty = q->head == PKT_NIL;
    uint16_t dst = p->dst_lid;
    int data = is_data(p), out = p->out_port;
    pktq_push(q, &f->pool, pidx);
    if (was_empty) {
        touch_head(f, x, in, pidx);
        post(f, s, x, in, b);
    }
    base_level(f, s, x, in, b, before, q->bytes);
    if (data) {
        if (x->k->base == ISOL_BASE_FIFO)
            detect_fifo(f, s, x, in, b);
        else
            detect_voq(f, s, x, in, b, dst);
    }
    settle(f, s, x);
    flush_kicks(f, s, x, out);
    return SW_QUEUED;
}

uint32_t isol_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct isol_sw *x = X(s);
    int b = 0;
    uint32_t h;
    int pos = pick(f, x, in, out, slot, &b, &h);
    x->hit_ok = 1;
    x->hit_in = in;
    x->hit_out = out;
    x->hit_slot = slot;
    x->hit_pos = pos;
    x->hit_b = b;
    x->hit_h = h;
    return h;
}

uint32_t isol_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct isol_sw *x = X(s);
    int b = 0, pos;
    uint32_t h;
    if (x->hit_ok && x->hit_in == in && x->hit_out == out && x->hit_slot == slot) {
        pos = x->hit_pos; /* isol_head's pick, nothing changed since */
        b = x->hit_b;
        h = x->hit_h;
    } else {
        pos = pick(f, x, in, out, slot, &b, &h);
    }
    x->hit_ok = 0;
    if (pos < 0)
        ibn_panic("isol: switch %s input %d has no packet for output %d", s->n.name, in, out);
    x->pt[in].rr = (uint16_t)pos;
    x->arb_out = out;
    touch(x, in, out, slot);
    if (pos == 0) {
        struct pktq *q = baseq(x, in, b);
        int64_t before = q->bytes;
        pktq_pop(q, &f->pool);
        touch_head(f, x, in, q->head);
        base_level(f, s, x, in, b, before, q->bytes);
        post(f, s, x, in, b);
    } else {
        struct iline *ln = own(x, in, pos - 1);
        int64_t before = ln->q.bytes;
        pktq_pop(&ln->q, &f->pool);
        level(f, s, x, in, ln, own_id(pos - 1), before, ln->q.bytes);
    }
    settle(f, s, x);
    x->arb_out = -1;
    struct packet *p = pkt(&f->pool, h);
    if (x->k->marks && x->pt[out].cong && is_data(p) && !(p->flags & PKT_FECN) &&
        gsl_rng_uniform(x->rng) < x->marking) {
        p->flags |= PKT_FECN;
        x->marked++;
        fabric_timeline(f, TLN_FECN, &s->n.port[out], p, 0, 0);
    }
    return h;
}

uint64_t isol_held(const struct fabric *f, const struct sw *s)
{
    (void)f;
    const struct isol_sw *x = X(s);
    uint64_t n = 0;
    for (size_t i = 0; i < (size_t)x->np * (size_t)x->nb; i++)
        n += x->base[i].n;
    for (size_t i = 0; i < (size_t)x->np * (size_t)x->L; i++)
        n += x->own[i].q.n;
    return n;
}

/* The active, not dying output CAM line at `out` for the sender's line `id`, or -1. */
static int find_oline(struct isol_sw *x, int out, int id)
{
    for (int i = 0; i < x->ocap; i++) {
        struct oline *o = ol(x, out, i);
        if (o->active && !o->dying && o->next_line == id)
            return i;
    }
    return -1;
}

/* The isolation queues linked to output CAM line i of `out`: their offers may have changed;
 * empty ones that may now free do. */
static void linked_changed(struct fabric *f, struct sw *s, struct isol_sw *x, int out, int i, int may_free)
{
    for (int in = 1; in < x->np; in++)
        for (int l = 0; l < x->L; l++) {
            struct iline *ln = own(x, in, l);
            if (!ln->active || ln->out != out || ln->oline != i)
                continue;
            touch(x, in, out, 0);
            if (may_free && ln->q.head == PKT_NIL && !line_stopped(x, ln))
                free_line(f, s, x, in, ln, own_id(l));
        }
}

void isol_on_msg(struct fabric *f, struct sw *s, int out, const struct sw_msg *m)
{
    struct isol_sw *x = X(s);
    x->hit_ok = 0;
    int i = find_oline(x, out, m->line);
    switch (m->type) {
    case ISOL_ALLOC: {
        x->msgs[0]++;
        if (i < 0) {
            for (int k = 0; k < x->ocap && i < 0; k++)
                if (!ol(x, out, k)->active)
                    i = k;
            if (i < 0) {
                x->oline_full++;
                return;
            }
            struct oline *o = ol(x, out, i);
            memset(o, 0, sizeof *o);
            o->active = 1;
            x->pt[out].nol++;
            o->hops = (uint8_t)(m->hops + 1);
            o->next_line = m->line;
        }
        struct oline *o = ol(x, out, i);
        o->ndst = m->ndst < x->D ? m->ndst : (uint16_t)x->D;
        memcpy(o->dst, m->dst, o->ndst * sizeof *o->dst);
        /* Linked queues take the new list; heads already requesting `out` are post-processed. */
        for (int in = 1; in < x->np; in++) {
            for (int l = 0; l < x->L; l++) {
                struct iline *ln = own(x, in, l);
                if (ln->active && ln->out == out && ln->oline == i) {
                    for (int d = 0; d < o->ndst; d++)
                        add_dst(f, s, x, in, ln, own_id(l), o->dst[d]);
                }
            }
            if (x->k->base == ISOL_BASE_VOQ) {
                post(f, s, x, in, out * x->nvs);
            } else {
                for (int v = 0; v < x->nvs; v++) {
                    uint32_t h = baseq(x, in, v)->head;
                    if (h != PKT_NIL && pkt(&f->pool, h)->out_port == out)
                        post(f, s, x, in, v);
                }
            }
        }
        break;
    }
    case ISOL_STOP:
    case ISOL_GO:
        x->msgs[0]++;
        if (i < 0)
            return;
        ol(x, out, i)->stopped = m->type == ISOL_STOP;
        linked_changed(f, s, x, out, i, m->type == ISOL_GO);
        break;
    case ISOL_DEALLOC: {
        x->msgs[0]++;
        if (i < 0)
            return;
        struct oline *o = ol(x, out, i);
        o->dying = 1;
        o->stopped = 0;
        linked_changed(f, s, x, out, i, 1);
        if (!o->refs) {
            o->active = 0;
            x->pt[out].nol--;
        }
        break;
    }
    default:
        ibn_panic("isol: switch %s got message type %d", s->n.name, m->type);
    }
    settle(f, s, x);
    flush_kicks(f, s, x, -1);
}

int isol_hca_stopped(const struct isol_hca *h, uint16_t dst)
{
    if (!h->nstopped)
        return 0;
    for (int i = 0; i < h->n; i++)
        if (h->l[i].active && h->l[i].stopped && has_dst(h->l[i].dst, h->l[i].ndst, dst))
            return 1;
    return 0;
}

/* At an adapter: the switch input it feeds told it about one of its lines. A Go or Deallocate
 * may make destinations eligible again: the adapter's flows look again. */
static void isol_hca_msg(struct fabric *f, struct port *at, const struct sw_msg *m)
{
    struct isol_hca *h = at->hca ? at->hca->isol : NULL;
    if (!h)
        return;
    int i = -1, fr = -1;
    for (int k = 0; k < h->n; k++) {
        if (h->l[k].active && h->l[k].line == m->line)
            i = k;
        else if (!h->l[k].active && fr < 0)
            fr = k;
    }
    if (m->type == ISOL_ALLOC) {
        if (i < 0)
            i = fr;
        if (i < 0)
            return;
        struct isol_hline *l = &h->l[i];
        if (!l->active) {
            h->nstopped -= l->stopped;
            l->stopped = 0;
        }
        l->active = 1;
        l->line = m->line;
        l->ndst = m->ndst;
        memcpy(l->dst, m->dst, m->ndst * sizeof *m->dst);
        return;
    }
    if (i < 0)
        return;
    if (m->type == ISOL_STOP) {
        h->nstopped += !h->l[i].stopped;
        h->l[i].stopped = 1;
        return;
    }
    if (m->type == ISOL_DEALLOC)
        h->l[i].active = 0;
    h->nstopped -= h->l[i].stopped;
    h->l[i].stopped = 0;
    /* Flows paced per destination and flows to one host (the eligibility rule, hca.c) look
     * again. */
    for (uint32_t k = 0; k < f->nflows; k++)
        if (f->flows[k].src == at && f->flows[k].active && (f->flows[k].dest_paced || f->flows[k].pattern == 0))
            fabric_flow_repace(f, &f->flows[k]);
}

static int64_t pkts_bytes(double n, uint32_t mtu_wire)
{
    return (int64_t)(n * (double)mtu_wire + 0.5);
}

int isol_init(struct fabric *f, struct sw *s, const struct isol_kind *k, struct ibn_err *e)
{
    const struct isol_settings *c = &f->set.isol;
    if (f->set.nvls != 1)
        return ibn_err_set(e, "%s models one data VL (seed 002 Papers V and VI), fabric.vls = %lld",
                           k->name, f->set.nvls);
    int nports = s->n.nports;
    int need = k->base == ISOL_BASE_VOQ ? (nports - 1) + (int)c->queues : (int)c->queues;
    if (c->cam_lines > 0 && c->cam_lines < need) {
        if (k->base == ISOL_BASE_VOQ)
            return ibn_err_set(e, "%d-port switch needs %d CAM lines per input port (%d CPQs + %lld "
                               "HPQs), isolation.cam_lines = %lld", nports, need, nports - 1,
                               c->queues, c->cam_lines);
        return ibn_err_set(e, "needs %d CAM lines per input port (one per CFQ, isolation.queues = "
                           "%lld), isolation.cam_lines = %lld", need, c->queues, c->cam_lines);
    }
    uint32_t mtu_wire = pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh);
    uint64_t buf = f->set.switch_buffer;
    double top = k->base == ISOL_BASE_FIFO ? (c->stop > c->detect ? c->stop : c->detect) : c->high;
    const char *topname = k->base == ISOL_BASE_FIFO ? (c->stop > c->detect ? "stop" : "detect") : "high";
    if ((double)buf < (top + 1.0) * mtu_wire)
        return ibn_err_set(e, "isolation.%s = %g MTU packets (%lld B) plus one packet in flight "
                           "(%u B) do not fit the %llu-byte input buffer (switch.buffer)", topname, top,
                           (long long)pkts_bytes(top, mtu_wire), mtu_wire, (unsigned long long)buf);
    if (c->low >= c->high)
        return ibn_err_set(e, "isolation.low = %g must be below isolation.high = %g", c->low, c->high);
    if (k->base == ISOL_BASE_FIFO && c->go >= c->stop)
        return ibn_err_set(e, "isolation.go = %g must be below isolation.stop = %g", c->go, c->stop);
    if (f->max_lid > UINT16_MAX)
        return ibn_err_set(e, "LIDs up to %d do not fit a CAM line's 16-bit destinations", f->max_lid);
    struct isol_sw *x = xcalloc(1, sizeof *x);
    x->k = k;
    x->L = (int)c->queues;
    x->D = (int)c->dlist;
    x->np = nports + 1;
    x->nvs = f->nvs;
    x->nb = k->base == ISOL_BASE_VOQ ? x->np * x->nvs : x->nvs;
    /* Room for every line the switch downstream can name (its own lines 0..L-1 and, for ecocc,
     * its root lines L + port) plus as many dying ones still draining. */
    x->ocap = 2 * x->L;
    if (!k->root_queue) {
        int maxp = 0;
        for (int i = 0; i < f->nnodes; i++)
            if (f->nodes[i]->is_switch && f->nodes[i]->nports > maxp)
                maxp = f->nodes[i]->nports;
        x->ocap = 2 * (x->L + maxp + 1);
    }
    x->detect = pkts_bytes(c->detect, mtu_wire);
    x->high = pkts_bytes(c->high, mtu_wire);
    x->low = pkts_bytes(c->low, mtu_wire);
    if (k->base == ISOL_BASE_FIFO) {
        x->stop = pkts_bytes(c->stop, mtu_wire);
        x->go = pkts_bytes(c->go, mtu_wire);
        x->prop = c->propagate > 0 ? pkts_bytes(c->propagate, mtu_wire) : x->high;
    } else { /* Paper VI: HTh propagates (first time) and stops (later), LTh goes */
        x->stop = x->high;
        x->go = x->low;
        x->prop = x->high;
    }
    x->marking = k->marks ? c->marking : 0;
    x->base = xmalloc((size_t)x->np * (size_t)x->nb * sizeof *x->base);
    for (size_t i = 0; i < (size_t)x->np * (size_t)x->nb; i++)
        pktq_init(&x->base[i]);
    x->own = xcalloc((size_t)x->np * (size_t)x->L, sizeof *x->own);
    for (size_t i = 0; i < (size_t)x->np * (size_t)x->L; i++) {
        pktq_init(&x->own[i].q);
        x->own[i].oline = -1;
    }
    if (!k->root_queue)
        x->root = xcalloc((size_t)x->np * (size_t)x->np, sizeof *x->root);
    x->ol = xcalloc((size_t)x->np * (size_t)x->ocap, sizeof *x->ol);
    x->pt = xcalloc((size_t)x->np, sizeof *x->pt);
    x->kick = xcalloc((size_t)s->words, sizeof *x->kick);
    x->arb_out = -1;
    char key[96];
    snprintf(key, sizeof key, "isol/%s/%d", s->n.name ? s->n.name : "", s->n.index);
    x->rng = rng_stream(f->seed, key);
    /* The adapters cabled to this switch keep a copy of their input's lines (Allocate / Stop /
     * Go / Deallocate reach them): one line per isolation queue (and root line) of that input. */
    x->hcas = xcalloc((size_t)x->np, sizeof *x->hcas);
    for (int p = 1; p < x->np; p++) {
        struct port *peer = s->n.port[p].peer;
        if (c->eligibility && peer && !peer->is_switch && peer->hca) {
            x->hcas[p].n = 2 * (x->L + (x->root ? x->np : 0));
            x->hcas[p].l = xcalloc((size_t)x->hcas[p].n, sizeof *x->hcas[p].l);
            peer->hca->isol = &x->hcas[p];
        }
    }
    f->hca_on_msg = isol_hca_msg;
    s->arch_state = x;
    s->nq = 0;
    s->q = NULL;
    return 0;
}

void isol_free(struct sw *s)
{
    struct isol_sw *x = X(s);
    if (!x)
        return;
    free(x->base);
    free(x->own);
    free(x->root);
    free(x->ol);
    free(x->pt);
    free(x->kick);
    for (int p = 1; p < x->np; p++)
        free(x->hcas[p].l);
    free(x->hcas);
    if (x->rng)
        gsl_rng_free(x->rng);
    free(x);
    s->arch_state = NULL;
}

static int is_isol(const struct sw *s)
{
    return s->arch && s->arch->enqueue == isol_enqueue && s->arch_state;
}

void isol_usage(const struct fabric *f, struct isol_usage *u)
{
    memset(u, 0, sizeof *u);
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        const struct sw *s = node_sw(f->nodes[i]);
        if (!is_isol(s))
            continue;
        const struct isol_sw *x = X(s);
        u->queues_in_use += x->in_use;
        u->lines_in_use += x->in_use;
        u->ports_exhausted += x->ports_full;
        if (x->root)
            for (size_t r = 0; r < (size_t)x->np * (size_t)x->np; r++)
                u->lines_in_use += x->root[r].active;
    }
}

double isol_mean_ports_exhausted(const struct fabric *f, unsigned long long *events)
{
    double area = 0;
    *events = 0;
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        const struct sw *s = node_sw(f->nodes[i]);
        if (!is_isol(s))
            continue;
        const struct isol_sw *x = X(s);
        area += x->full_area + (double)x->ports_full * (double)(f->now - x->full_since);
        *events += x->exhausted;
    }
    return f->now > 0 ? area / (double)f->now : 0;
}

void isol_report(struct fabric *f, struct json_t *summary)
{
    uint64_t allocs = 0, roots = 0, exhausted = 0, marked = 0, ofull = 0, dfull = 0, msgs[5] = { 0 };
    uint64_t peak_use = 0, peak_full = 0, ports = 0;
    double area = 0;
    const char *name = NULL;
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        if (!is_isol(s))
            continue;
        struct isol_sw *x = X(s);
        name = x->k->name;
        allocs += x->allocs;
        roots += x->root_allocs;
        exhausted += x->exhausted;
        marked += x->marked;
        ofull += x->oline_full;
        dfull += x->dst_full;
        for (int t = 0; t < 5; t++)
            msgs[t] += x->msgs[t];
        peak_use += x->peak_in_use;
        peak_full += x->peak_full;
        area += x->full_area + (double)x->ports_full * (double)(f->now - x->full_since);
        ports += (uint64_t)(x->np - 1);
    }
    if (!name)
        return;
    json_t *o = json_object();
    json_object_set_new(o, "arch", json_string(name));
    json_object_set_new(o, "queues_per_input", json_integer(f->set.isol.queues));
    json_object_set_new(o, "input_ports", json_integer((json_int_t)ports));
    json_object_set_new(o, "queue_allocations", json_integer((json_int_t)allocs));
    json_object_set_new(o, "root_detections", json_integer((json_int_t)roots));
    json_object_set_new(o, "queues_exhausted", json_integer((json_int_t)exhausted));
    json_object_set_new(o, "msgs_received", json_integer((json_int_t)msgs[0]));
    json_object_set_new(o, "allocate_sent", json_integer((json_int_t)msgs[ISOL_ALLOC]));
    json_object_set_new(o, "stop_sent", json_integer((json_int_t)msgs[ISOL_STOP]));
    json_object_set_new(o, "go_sent", json_integer((json_int_t)msgs[ISOL_GO]));
    json_object_set_new(o, "deallocate_sent", json_integer((json_int_t)msgs[ISOL_DEALLOC]));
    json_object_set_new(o, "fecn_marked", json_integer((json_int_t)marked));
    json_object_set_new(o, "output_cam_full", json_integer((json_int_t)ofull));
    json_object_set_new(o, "dlist_full", json_integer((json_int_t)dfull));
    json_object_set_new(o, "peak_queues_in_use_sum", json_integer((json_int_t)peak_use));
    json_object_set_new(o, "peak_ports_exhausted_sum", json_integer((json_int_t)peak_full));
    json_object_set_new(o, "mean_ports_exhausted", json_real(f->now > 0 ? area / (double)f->now : 0));
    json_object_set_new(summary, "isolation", o);
}

int isol_line_view(const struct sw *s, int in, int q, struct isol_line_view *v)
{
    memset(v, 0, sizeof *v);
    if (!is_isol(s))
        return -1;
    struct isol_sw *x = X(s);
    if (in < 1 || in >= x->np || q < 0 || q >= x->L)
        return -1;
    struct iline *l = own(x, in, q);
    v->active = l->active;
    v->hops = l->hops;
    v->out = l->out;
    v->ndst = l->ndst;
    memcpy(v->dst, l->dst, sizeof v->dst);
    v->stopped = l->active && line_stopped(x, l);
    v->propagated = l->propagated;
    v->sent_stop = l->sent_stop;
    v->above_high = l->above_high;
    v->n = l->q.n;
    v->bytes = l->q.bytes;
    return 0;
}

int isol_congested(const struct sw *s, int out)
{
    return is_isol(s) && X(s)->pt[out].cong > 0;
}

void isol_out_lines(const struct sw *s, int out, int *active, int *stopped)
{
    *active = *stopped = 0;
    if (!is_isol(s))
        return;
    struct isol_sw *x = X(s);
    for (int i = 0; i < x->ocap; i++) {
        struct oline *o = ol(x, out, i);
        if (o->active && !o->dying) {
            (*active)++;
            *stopped += o->stopped;
        }
    }
}

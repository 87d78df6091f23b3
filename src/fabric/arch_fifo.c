/* arch_fifo.c: the input-queued switch with one FIFO per input and VL (1Q; with one VL, Paper
 * V's 1Q and Paper VI's 1VL "single read port" switch; Karol, Hluchyj and Morgan's input-queued
 * switch). Only the head packet of each FIFO is offered to the crossbar, so a packet for a
 * congested output blocks every packet behind it (head-of-line blocking). A FIFO is a single
 * queue with one read port: once its head is picked, the packet behind it is offered only when
 * the head has been read out of the input memory (its read ends: switch.c, read_done), so a
 * FIFO never feeds two outputs at once whatever switch.read_ports says. A head dropped by its
 * lifetime limit (drop.c) is not read: the next one is offered at once. */
#include "fabric/swarch.h"

#include <stdlib.h>

static inline struct pktq *fifo(struct sw *s, const struct fabric *f, int in, int slot)
{
    return &s->q[(size_t)in * (size_t)f->nvs + (size_t)slot];
}

/* reading[in * nvs + slot]: the FIFO's last head is still being read; its next is not offered. */
static inline uint8_t *reading(struct sw *s, const struct fabric *f, int in, int slot)
{
    return &((uint8_t *)s->arch_state)[(size_t)in * (size_t)f->nvs + (size_t)slot];
}

static int fifo_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    (void)e;
    s->nq = ((size_t)s->n.nports + 1) * (size_t)f->nvs;
    s->q = xmalloc(s->nq * sizeof *s->q);
    for (size_t k = 0; k < s->nq; k++)
        pktq_init(&s->q[k]);
    s->arch_state = xcalloc(s->nq, 1);
    return 0;
}

static void fifo_free(struct sw *s)
{
    free(s->q);
    free(s->arch_state);
}

static int fifo_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    const struct packet *p = pkt(&f->pool, pidx);
    int v = fabric_slot(f, p->vl);
    struct pktq *q = fifo(s, f, in, v);
    pktq_push(q, &f->pool, pidx);
    if (q->n == 1 && !*reading(s, f, in, v))
        sw_req_set(s, f, p->out_port, fabric_slot(f, p->out_vl), in);
    return SW_QUEUED;
}

/* The offered head packet of one of `in`'s FIFOs that asks for (out, slot), or PKT_NIL. */
static uint32_t fifo_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    for (int v = 0; v < f->nvs; v++) {
        uint32_t h = fifo(s, f, in, v)->head;
        if (h != PKT_NIL && !*reading(s, f, in, v)) {
            const struct packet *p = pkt(&f->pool, h);
            if (p->out_port == out && fabric_slot(f, p->out_vl) == slot)
                return h;
        }
    }
    return PKT_NIL;
}

/* Offer FIFO (in, v)'s head to its output. Returns the output, or -1 if the FIFO is empty. */
static int offer(struct fabric *f, struct sw *s, int in, int v)
{
    uint32_t h = fifo(s, f, in, v)->head;
    if (h == PKT_NIL)
        return -1;
    const struct packet *p = pkt(&f->pool, h);
    sw_req_set(s, f, p->out_port, fabric_slot(f, p->out_vl), in);
    return p->out_port;
}

static uint32_t fifo_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    uint32_t pidx = fifo_head(f, s, in, out, slot);
    int v = fabric_slot(f, pkt(&f->pool, pidx)->vl);
    pktq_pop(fifo(s, f, in, v), &f->pool);
    /* The FIFO is busy until this packet has been read (fifo_read_done); a dropped head
     * (drop.c) calls fifo_read_done at once. */
    *reading(s, f, in, v) = 1;
    /* Another FIFO of this input may still ask for (out, slot). */
    if (fifo_head(f, s, in, out, slot) == PKT_NIL)
        sw_req_clr(s, f, out, slot, in);
    return pidx;
}

/* The packet that left FIFO (in, v) has been read: its next head asks for its output. */
static void fifo_read_done(struct fabric *f, struct sw *s, int in, int v)
{
    *reading(s, f, in, v) = 0;
    int o = offer(f, s, in, v);
    if (o >= 0)
        sw_kick(f, s, o);
}

static uint64_t fifo_held(const struct fabric *f, const struct sw *s)
{
    (void)f;
    uint64_t n = 0;
    for (size_t k = 0; k < s->nq; k++)
        n += s->q[k].n;
    return n;
}

const struct sw_arch sw_arch_fifo = {
    .name = "fifo",
    .help = "one FIFO per input and VL (1Q): the head packet blocks the ones behind it until it "
            "has been read",
    .default_read_ports = 0,
    .init = fifo_init,
    .free = fifo_free,
    .enqueue = fifo_enqueue,
    .head = fifo_head,
    .dequeue = fifo_dequeue,
    .read_done = fifo_read_done,
    .held = fifo_held,
};

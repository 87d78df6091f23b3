/* arch_fifo.c: the input-queued switch with one FIFO per input and VL (1Q; with one VL, Paper
 * V's 1Q and Paper VI's "single read port" switch). Only the head packet of each FIFO is
 * offered to the crossbar, so a packet for a congested output blocks every packet behind it
 * (head-of-line blocking). When the head leaves, the new head asks for its own output. */
#include "fabric/swarch.h"

#include <stdlib.h>

static inline struct pktq *fifo(struct sw *s, const struct fabric *f, int in, int slot)
{
    return &s->q[(size_t)in * (size_t)f->nvs + (size_t)slot];
}

static int fifo_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    (void)e;
    s->nq = ((size_t)s->n.nports + 1) * (size_t)f->nvs;
    s->q = xmalloc(s->nq * sizeof *s->q);
    for (size_t k = 0; k < s->nq; k++)
        pktq_init(&s->q[k]);
    return 0;
}

static void fifo_free(struct sw *s)
{
    free(s->q);
}

static int fifo_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    const struct packet *p = pkt(&f->pool, pidx);
    struct pktq *q = fifo(s, f, in, fabric_slot(f, p->vl));
    pktq_push(q, &f->pool, pidx);
    if (q->n == 1)
        sw_req_set(s, f, p->out_port, fabric_slot(f, p->out_vl), in);
    return SW_QUEUED;
}

/* The head packet of one of `in`'s FIFOs that asks for (out, slot), or PKT_NIL. */
static uint32_t fifo_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    for (int v = 0; v < f->nvs; v++) {
        uint32_t h = fifo(s, f, in, v)->head;
        if (h != PKT_NIL) {
            const struct packet *p = pkt(&f->pool, h);
            if (p->out_port == out && fabric_slot(f, p->out_vl) == slot)
                return h;
        }
    }
    return PKT_NIL;
}

static uint32_t fifo_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    uint32_t pidx = fifo_head(f, s, in, out, slot);
    pktq_pop(fifo(s, f, in, fabric_slot(f, pkt(&f->pool, pidx)->vl)), &f->pool);
    /* Another FIFO of this input may still ask for (out, slot). */
    if (fifo_head(f, s, in, out, slot) == PKT_NIL)
        sw_req_clr(s, f, out, slot, in);
    /* The FIFO's new head may ask for another output. */
    for (int v = 0; v < f->nvs; v++) {
        uint32_t h = fifo(s, f, in, v)->head;
        if (h != PKT_NIL) {
            const struct packet *np = pkt(&f->pool, h);
            sw_req_set(s, f, np->out_port, fabric_slot(f, np->out_vl), in);
            struct port *np_out = &s->n.port[np->out_port];
            if (port_busy(f, np_out))
                port_need_done(f, np_out);
            else if (np->out_port != out)
                sw_stall(s, np->out_port);
        }
    }
    /* Outputs that the new heads ask for may now be able to send. */
    s->retry = 1;
    return pidx;
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
    .help = "one FIFO per input and VL (1Q): the head packet blocks the ones behind it",
    .default_read_ports = 0,
    .init = fifo_init,
    .free = fifo_free,
    .enqueue = fifo_enqueue,
    .head = fifo_head,
    .dequeue = fifo_dequeue,
    .held = fifo_held,
};

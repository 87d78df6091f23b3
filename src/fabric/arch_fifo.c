/* arch_fifo.c: the input-queued switch with one FIFO per input and VL (1Q; with one VL, Paper
 * V's 1Q and Paper VI's 1VL "single read port" switch; Karol, Hluchyj and Morgan's input-queued
 * switch). Only the head packet of each FIFO is offered to the crossbar, so a packet for a
 * congested output blocks every packet behind it (head-of-line blocking). A FIFO is a single
 * queue with one read port: once its head is picked, the packet behind it is offered only when
 * the head has been read out of the input memory (its read ends: switch.c, read_done), so a
 * FIFO never feeds two outputs at once whatever switch.read_ports says. A head dropped by its
 * lifetime limit (drop.c) is not read: the next one is offered at once.
 * The same code serves designs with several such FIFOs per input and VL, a packet classified
 * into one of them (fifoq.h: DBBM, arch_dbbm.c). */
#include "fabric/fifoq.h"

#include <stdlib.h>

static inline struct fifoq_state *fst(struct sw *s)
{
    return s->arch_state;
}

/* FIFO k of input `in`'s VL slot v. */
static inline struct pktq *fifo(struct sw *s, const struct fabric *f, int in, int v, int k)
{
    int nk = fst(s)->nk;
    return &s->q[((size_t)in * (size_t)f->nvs + (size_t)v) * (size_t)nk + (size_t)k];
}

/* reading[(in, v, k)]: the FIFO's last head is still being read; its next is not offered. */
static inline uint8_t *reading(struct sw *s, const struct fabric *f, int in, int v, int k)
{
    int nk = fst(s)->nk;
    return &fst(s)->reading[((size_t)in * (size_t)f->nvs + (size_t)v) * (size_t)nk + (size_t)k];
}

int fifoq_init(struct fabric *f, struct sw *s, int nk,
               int (*classify)(const struct fabric *f, const struct packet *p, int nk))
{
    struct fifoq_state *st = xcalloc(1, sizeof *st);
    st->nk = nk;
    st->classify = classify;
    s->arch_state = st;
    s->nq = ((size_t)s->n.nports + 1) * (size_t)f->nvs * (size_t)nk;
    s->q = xmalloc(s->nq * sizeof *s->q);
    for (size_t k = 0; k < s->nq; k++)
        pktq_init(&s->q[k]);
    st->reading = xcalloc(s->nq, 1);
    return 0;
}

static int fifo_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    (void)e;
    return fifoq_init(f, s, 1, NULL);
}

void fifoq_free(struct sw *s)
{
    free(s->q);
    if (fst(s))
        free(fst(s)->reading);
    free(s->arch_state);
}

static inline int klass(struct sw *s, const struct fabric *f, const struct packet *p)
{
    return fst(s)->classify ? fst(s)->classify(f, p, fst(s)->nk) : 0;
}

int fifoq_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    const struct packet *p = pkt(&f->pool, pidx);
    int v = fabric_slot(f, p->vl), k = klass(s, f, p);
    struct pktq *q = fifo(s, f, in, v, k);
    pktq_push(q, &f->pool, pidx);
    if (q->n == 1 && !*reading(s, f, in, v, k))
        sw_req_set(s, f, p->out_port, fabric_slot(f, p->out_vl), in);
    return SW_QUEUED;
}

/* The offered head packet of one of `in`'s FIFOs that asks for (out, slot), or PKT_NIL. */
uint32_t fifoq_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    int nk = fst(s)->nk;
    for (int v = 0; v < f->nvs; v++)
        for (int k = 0; k < nk; k++) {
            uint32_t h = fifo(s, f, in, v, k)->head;
            if (h != PKT_NIL && !*reading(s, f, in, v, k)) {
                const struct packet *p = pkt(&f->pool, h);
                if (p->out_port == out && fabric_slot(f, p->out_vl) == slot)
                    return h;
            }
        }
    return PKT_NIL;
}

uint32_t fifoq_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    uint32_t pidx = fifoq_head(f, s, in, out, slot);
    const struct packet *p = pkt(&f->pool, pidx);
    int v = fabric_slot(f, p->vl), k = klass(s, f, p);
    pktq_pop(fifo(s, f, in, v, k), &f->pool);
    /* The FIFO is busy until this packet has been read (fifoq_read_done); a dropped head
     * (drop.c) calls fifoq_read_done at once. */
    *reading(s, f, in, v, k) = 1;
    s->read_tag = (uint32_t)(v * fst(s)->nk + k);
    /* Another FIFO of this input may still ask for (out, slot). */
    if (fifoq_head(f, s, in, out, slot) == PKT_NIL)
        sw_req_clr(s, f, out, slot, in);
    return pidx;
}

/* The packet that left FIFO `tag` = v * nk + k of input `in` has been read: that FIFO's next
 * head asks for its output. */
void fifoq_read_done(struct fabric *f, struct sw *s, int in, uint32_t tag)
{
    int nk = fst(s)->nk, v = (int)tag / nk, k = (int)tag % nk;
    *reading(s, f, in, v, k) = 0;
    uint32_t h = fifo(s, f, in, v, k)->head;
    if (h == PKT_NIL)
        return;
    const struct packet *p = pkt(&f->pool, h);
    sw_req_set(s, f, p->out_port, fabric_slot(f, p->out_vl), in);
    sw_kick(f, s, p->out_port);
}

uint64_t fifoq_held(const struct fabric *f, const struct sw *s)
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
    .free = fifoq_free,
    .enqueue = fifoq_enqueue,
    .head = fifoq_head,
    .dequeue = fifoq_dequeue,
    .read_done = fifoq_read_done,
    .held = fifoq_held,
};

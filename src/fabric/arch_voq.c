/* arch_voq.c: the input-buffered switch with virtual output queues (VOQsw): at every input one
 * queue per (output, VL), all sharing the input's per-VL buffer space and so its credits. An
 * input offers the head of each non-empty VOQ to its output; with one read port per output
 * (the default) no packet waits behind a packet for another output (no low-order head-of-line
 * blocking), but a congested output's packets can still fill the shared buffer. The switch of
 * seed 002's OMNeT++ model and of Paper VI's 1VL. */
#include "fabric/swarch.h"

#include <stdlib.h>

static inline struct pktq *voq(struct sw *s, const struct fabric *f, int in, int out, int slot)
{
    return &s->q[((size_t)in * (size_t)(s->n.nports + 1) + (size_t)out) * (size_t)f->nvs + (size_t)slot];
}

static int voq_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    (void)e;
    size_t np = (size_t)s->n.nports + 1;
    s->nq = np * np * (size_t)f->nvs;
    s->q = xmalloc(s->nq * sizeof *s->q);
    for (size_t k = 0; k < s->nq; k++)
        pktq_init(&s->q[k]);
    return 0;
}

static void voq_free(struct sw *s)
{
    free(s->q);
}

static int voq_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    const struct packet *p = pkt(&f->pool, pidx);
    int out = p->out_port, slot = fabric_slot(f, p->out_vl);
    struct pktq *q = voq(s, f, in, out, slot);
    pktq_push(q, &f->pool, pidx);
    if (q->n == 1)
        sw_req_set(s, f, out, slot, in);
    return SW_QUEUED;
}

static uint32_t voq_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    return voq(s, f, in, out, slot)->head;
}

static uint32_t voq_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct pktq *q = voq(s, f, in, out, slot);
    uint32_t pidx = pktq_pop(q, &f->pool);
    if (!q->n)
        sw_req_clr(s, f, out, slot, in);
    return pidx;
}

static uint64_t voq_held(const struct fabric *f, const struct sw *s)
{
    (void)f;
    uint64_t n = 0;
    for (size_t k = 0; k < s->nq; k++)
        n += s->q[k].n;
    return n;
}

const struct sw_arch sw_arch_voq = {
    .name = "voq",
    .help = "virtual output queues per input, output and VL (VOQsw)",
    .default_read_ports = 0,
    .init = voq_init,
    .free = voq_free,
    .enqueue = voq_enqueue,
    .head = voq_head,
    .dequeue = voq_dequeue,
    .held = voq_held,
};

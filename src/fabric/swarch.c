/* swarch.c: the table of switch architectures, and what the common switch offers them: waking
 * an output that got a request, and congestion-management messages sent upstream (a pool of
 * messages delivered by EV_SW_MSG one propagation delay later). */
#include "fabric/swarch.h"

#include <string.h>

extern const struct sw_arch sw_arch_voq, sw_arch_fifo, sw_arch_pipe, sw_arch_voqnet, sw_arch_dbbm,
    sw_arch_ccfit, sw_arch_ecocc, sw_arch_hfdi, sw_arch_fbicm;

/* An alias is a second name for an earlier entry (the papers' names: 1Q, VOQsw). */
const struct sw_arch *const sw_archs[] = { &sw_arch_voq, &sw_arch_fifo, &sw_arch_pipe, &sw_arch_fifo, &sw_arch_voq,
                                           &sw_arch_voqnet, &sw_arch_dbbm, &sw_arch_ccfit, &sw_arch_ecocc, &sw_arch_hfdi,
                                           &sw_arch_fbicm, NULL };
const char *const sw_arch_names[] = { "voq", "fifo", "pipe", "1q", "voqsw", "voqnet", "dbbm", "ccfit", "ecocc",
                                      "hfdi", "fbicm", NULL };

/* A switch whose input memory was released (another rank of a distributed run handles it):
 * it holds no packet; anything else asked of it is a fault (NULL). */
static void released_free(struct sw *s) { (void)s; }
static uint64_t released_held(const struct fabric *f, const struct sw *s)
{
    (void)f;
    (void)s;
    return 0;
}
static const struct sw_arch sw_arch_released = {
    .name = "released",
    .help = "the input memory of a switch another rank handles (dist.c)",
    .free = released_free,
    .held = released_held,
};

void sw_release(struct sw *s)
{
    if (s->arch)
        s->arch->free(s);
    s->q = NULL;
    s->nq = 0;
    s->arch_state = NULL;
    s->arch = &sw_arch_released;
}

void sw_kick(struct fabric *f, struct sw *s, int out)
{
    struct port *op = &s->n.port[out];
    if (port_busy(f, op))
        port_need_done(f, op);
    else
        switch_try_send(f, s, out);
}

void switch_after_removal(struct fabric *f, struct sw *s, int out)
{
    if (s->retry) {
        s->retry = 0;
        for (int w = 0; w < s->words; w++) {
            uint64_t bits = s->stalled[w];
            s->stalled[w] = 0;
            while (bits) {
                int o = w * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                sw_kick(f, s, o);
            }
        }
    }
    sw_kick(f, s, out);
}

void sw_usage_add(const struct fabric *f, const struct sw *s, struct sw_usage *u)
{
    if (s->arch->usage) {
        s->arch->usage(f, s, u);
        return;
    }
    for (size_t k = 0; k < s->nq; k++)
        u->queues += s->q[k].n != 0;
}

void sw_send_upstream(struct fabric *f, struct port *in, const struct sw_msg *m)
{
    if (!in->peer)
        return;
    if (f->msgs_free == UINT32_MAX) { /* grow the pool: rare, the messages are few */
        uint32_t cap = f->msgs_cap ? 2 * f->msgs_cap : 64;
        f->msgs = xrealloc(f->msgs, cap * sizeof *f->msgs);
        for (uint32_t i = f->msgs_cap; i < cap; i++)
            f->msgs[i].next_free = i + 1 < cap ? i + 1 : f->msgs_free;
        f->msgs_free = f->msgs_cap;
        f->msgs_cap = cap;
    }
    uint32_t i = f->msgs_free;
    f->msgs_free = f->msgs[i].next_free;
    f->msgs[i] = *m;
    fabric_schedule_on(f, in->peer->node, f->now + in->delay, EV_SW_MSG, in->peer, i, 0);
}

void sw_msg_arrive(struct fabric *f, struct port *at, uint32_t i)
{
    struct sw_msg m = f->msgs[i];
    f->msgs[i].next_free = f->msgs_free;
    f->msgs_free = i;
    if (at->is_switch) {
        struct sw *s = node_sw(at->node);
        if (s->arch->on_msg)
            s->arch->on_msg(f, s, at->num, &m);
    } else if (f->hca_on_msg) {
        f->hca_on_msg(f, at, &m);
    }
}

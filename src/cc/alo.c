/* alo.c: the At-Least-One injection limitation of Baydal, Lopez and Duato (IPDPS 2000), one of
 * seed 003's comparison schemes (digest 003 section 2.6, gap 19), as a cc plug-in, `plugin =
 * "alo"`. A source may inject a new packet only if, at the switch its adapter is cabled to, at
 * least one VL is free in every useful output channel, or at least one output channel has all its
 * VLs free (an output to another switch: ejection channels to adapters do not count); otherwise
 * it waits and looks again `poll` later. Useful channels: the output the
 * switch's forwarding table gives the destination (routing here is deterministic: one useful
 * channel). A VL of an output is free when nothing waits in the switch for it (no request bit)
 * and the peer's buffer on it is empty (the output holds all its credits): the virtual
 * cut-through reading of "not allocated to a worm". The HCA buffer's status (seed 003's
 * modification) is the source queue of the flow: a message enters it only while it has room
 * (flows.max_pending), as without control. Every flow is paced per destination
 * (fabric_flow_pace_by_dest) and holds no message aside: the head message waits. */
#include <jansson.h>
#include <stdlib.h>

#include "cc/cc.h"
#include "cc/seed003cc.h"
#include "fabric/distio.h"
#include "fabric/swarch.h"

struct alo_desc {
    simtime_t poll;
};

#define OFF(field) offsetof(struct alo_desc, field)

const struct param alo_params[] = {
    { "poll", P_TIME, OFF(poll), "1 us",
      "how long a source ALO holds back waits before it looks at its switch again (ALO itself "
      "looks at every injection attempt; this is the granularity of the retry)", NULL, 1, 1e12 },
    PARAM_END,
};

struct alo {
    simtime_t poll;
    uint64_t checks, refused;   /* injection attempts, and those held back */
};

/* Whether VL slot `slot` of switch output port `out` is free. */
static int vl_free(struct fabric *f, struct sw *s, int out, int slot)
{
    struct port *p = &s->n.port[out];
    const uint64_t *req = sw_req(s, f, out, slot);
    for (int w = 0; w < s->words; w++)
        if (req[w])
            return 0;
    port_absorb_credits(f, p);
    return p->vl[slot].credits >= p->vl[slot].credit_cap;
}

int alo_allows(struct fabric *f, const struct port *src, int dst_host)
{
    struct port *sp = src->peer;
    if (!sp || !sp->is_switch)
        return 1; /* an adapter cabled to an adapter: no switch to look at */
    struct sw *s = node_sw(sp->node);
    int nd = (int)f->set.nvls;
    uint16_t lid = f->hosts[dst_host].port->lid;
    int useful = lid <= s->max_lid ? s->lft[lid] : 0;
    if (useful > 0 && useful <= s->n.nports && s->n.port[useful].peer)
        for (int v = 0; v < nd; v++)
            if (vl_free(f, s, useful, v))
                return 1;
    for (int o = 1; o <= s->n.nports; o++) {
        if (!s->n.port[o].peer || !s->n.port[o].peer->is_switch)
            continue; /* ejection channels to adapters are not the network's channels */
        int all = 1;
        for (int v = 0; v < nd && all; v++)
            all = vl_free(f, s, o, v);
        if (all)
            return 1;
    }
    return 0;
}

static int64_t ready(struct fabric *f, const struct flow *fl, int dst_host)
{
    struct alo *c = f->hooks.ctx;
    c->checks++;
    if (alo_allows(f, fl->src, dst_host))
        return f->now;
    c->refused++;
    return f->now + c->poll;
}

static void report(struct fabric *f, json_t *summary)
{
    struct alo *c = f->hooks.ctx;
    json_t *o = json_object();
    json_object_set_new(o, "plugin", json_string("alo"));
    json_object_set_new(o, "injection_checks", json_integer((json_int_t)c->checks));
    json_object_set_new(o, "injection_refused", json_integer((json_int_t)c->refused));
    json_object_set_new(summary, "cc", o);
}

/* A distributed run: a source reads only its own switch (adapters go with their switches, and
 * the switch's credit counters are exact over cut cables), so only the counts cross: each rank
 * counts its sources' attempts, rank 0 adds them. */
static void dist_walk(struct fabric *f, const int *part, int rank, struct dist_io *io)
{
    (void)part, (void)rank;
    struct alo *c = f->hooks.ctx;
    dist_io_sum_u64(io, &c->checks, 1);
    dist_io_sum_u64(io, &c->refused, 1);
}

static void destroy(struct fabric *f)
{
    free(f->hooks.ctx);
    f->hooks.ctx = NULL;
}

static int attach(struct fabric *f, const void *descp, struct ibn_err *e)
{
    (void)e;
    const struct alo_desc *d = descp;
    struct alo *c = xcalloc(1, sizeof *c);
    c->poll = d->poll;
    for (uint32_t i = 0; i < f->nflows; i++)
        fabric_flow_pace_by_dest(f, &f->flows[i], 0);
    f->hooks = (struct fabric_hooks){
        .name = "alo",
        .ctx = c,
        .dest_ready = ready,
        .report = report,
        .destroy = destroy,
        .dist_walk = dist_walk,
    };
    return 0;
}

const struct cc_plugin alo_plugin = {
    "alo",
    "seed 003's comparison scheme ALO (Baydal, Lopez, Duato): a source injects only while its "
    "switch has a free VL on every useful output, or an output with every VL free",
    alo_params,
    sizeof(struct alo_desc),
    attach,
};

/* selftuned.c: the Self-Tuned injection throttling of Thottethodi, Lebeck and Mukherjee (HPCA
 * 2001), one of seed 003's comparison schemes (digest 003 section 2.6, gap 20), as a cc plug-in,
 * `plugin = "selftuned"`. Every `period` an ideal side-band (no packets, no delay: the seed's
 * "exclusive side-band") gathers the number of full buffers in the fabric: switch input buffers
 * (port and data VL) that cannot take another packet of the largest size the flows send, plus
 * adapters whose source queue is full (seed 003's modification: the HCA buffer's status). Until
 * the next gather every source is throttled (starts no packet) when that number exceeds the
 * threshold T. T tunes itself by hill climbing on the delivered throughput: every `tune_every`
 * gathers, if the payload delivered in the tuning period fell by more than `drop` against the
 * period before, T is multiplied by `decrease`; otherwise, if the sources were throttled in the
 * period, T grows by `increase` x the number of buffers. The seed uses "the parameters of [15]"
 * without listing them: these defaults are approximations (docs/hostcc.md). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "cc/cc.h"
#include "cc/seed003cc.h"
#include "fabric/packet.h"

struct selftuned_desc {
    simtime_t period;
    long long tune_every;
    double threshold, increase, decrease, drop;
};

#define OFF(field) offsetof(struct selftuned_desc, field)

const struct param selftuned_params[] = {
    { "period", P_TIME, OFF(period), "2.56 us",
      "the side-band's gather period (digest 003 gap 20: 32 cycles of 80 ns)", NULL, 1, 1e12 },
    { "tune_every", P_INT, OFF(tune_every), "4",
      "gathers per tuning period (the hill climbing compares the throughput of successive "
      "tuning periods)", NULL, 1, 1e6 },
    { "threshold", P_DOUBLE, OFF(threshold), "0.1",
      "initial threshold T as a share of the buffers counted (switch input buffers per data VL "
      "plus adapters)", NULL, 0, 1 },
    { "increase", P_DOUBLE, OFF(increase), "0.01",
      "additive increase of T after a tuning period without a throughput drop in which the "
      "sources were throttled, as a share of the buffers (at least one buffer)", NULL, 0, 1 },
    { "decrease", P_DOUBLE, OFF(decrease), "0.96",
      "multiplicative decrease of T after a throughput drop", NULL, 0, 1 },
    { "drop", P_DOUBLE, OFF(drop), "0.02",
      "a throughput drop: the tuning period's delivered payload below (1 - drop) x the period "
      "before's", NULL, 0, 1 },
    PARAM_END,
};

struct selftuned {
    struct st_tuner tun;
    simtime_t period;
    long long tune_every, gathers_in_period;
    int32_t full_credits;       /* a buffer is full with less free than this */
    int nbuffers;
    int throttled;              /* until the next gather */
    int throttled_in_period;
    simtime_t next_gather;
    uint64_t delivered_mark;    /* payload delivered up to the last tuning */
    uint64_t gathers, throttled_gathers, tunings;
    struct fabric_call call;
};

double st_tune(struct st_tuner *t, double delivered, int throttled)
{
    if (t->have_prev && delivered < (1.0 - t->drop) * t->prev)
        t->threshold *= t->decrease;
    else if (throttled)
        t->threshold += t->step;
    t->prev = delivered;
    t->have_prev = 1;
    return t->threshold;
}

int st_count_full(struct fabric *f, int32_t full_credits)
{
    int n = 0;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *nd = f->nodes[i];
        if (!nd || !nd->is_switch)
            continue;
        for (int p = 1; p <= nd->nports; p++) {
            struct port *pt = &nd->port[p];
            if (!pt->peer)
                continue;
            for (int v = 0; v < f->set.nvls; v++)
                n += pt->vl[v].rx_cap - pt->vl[v].rx_used < full_credits;
        }
    }
    for (uint32_t i = 0; i < f->nflows; i++)
        n += f->flows[i].qn == f->flows[i].qmax;
    return n;
}

static uint64_t delivered_bytes(const struct fabric *f)
{
    uint64_t b = 0;
    for (int h = 0; h < f->nhosts; h++)
        b += f->hosts[h].interval_rx;
    return b;
}

static void gather(struct fabric *f, void *arg)
{
    struct selftuned *c = arg;
    if (f->ended) {
        c->throttled = 0;
        return;
    }
    int full = st_count_full(f, c->full_credits);
    c->gathers++;
    c->throttled = full > c->tun.threshold;
    c->throttled_gathers += (uint64_t)c->throttled;
    c->throttled_in_period |= c->throttled;
    if (++c->gathers_in_period >= c->tune_every) {
        uint64_t now = delivered_bytes(f);
        st_tune(&c->tun, (double)(now - c->delivered_mark), c->throttled_in_period);
        c->delivered_mark = now;
        c->gathers_in_period = 0;
        c->throttled_in_period = 0;
        c->tunings++;
    }
    c->next_gather = f->now + c->period;
    fabric_schedule_call(f, c->next_gather, &c->call);
}

static int64_t ready(struct fabric *f, const struct flow *fl, int dst_host)
{
    (void)fl, (void)dst_host;
    struct selftuned *c = f->hooks.ctx;
    return c->throttled ? c->next_gather : f->now;
}

static void report(struct fabric *f, json_t *summary)
{
    struct selftuned *c = f->hooks.ctx;
    json_t *o = json_object();
    json_object_set_new(o, "plugin", json_string("selftuned"));
    json_object_set_new(o, "buffers", json_integer(c->nbuffers));
    json_object_set_new(o, "threshold", json_real(c->tun.threshold));
    json_object_set_new(o, "gathers", json_integer((json_int_t)c->gathers));
    json_object_set_new(o, "throttled_gathers", json_integer((json_int_t)c->throttled_gathers));
    json_object_set_new(o, "tunings", json_integer((json_int_t)c->tunings));
    json_object_set_new(summary, "cc", o);
}

static void destroy(struct fabric *f)
{
    free(f->hooks.ctx);
    f->hooks.ctx = NULL;
}

static int attach(struct fabric *f, const void *descp, struct ibn_err *e)
{
    (void)e;
    const struct selftuned_desc *d = descp;
    struct selftuned *c = xcalloc(1, sizeof *c);
    /* The largest packet the flows send: a message of at most one MTU. */
    uint64_t big = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        uint64_t b = (uint64_t)f->flows[i].arr.d.msg_bytes;
        if (b > big)
            big = b;
    }
    if (big > (uint64_t)f->set.mtu || big == 0)
        big = (uint64_t)f->set.mtu;
    c->full_credits = (int32_t)bytes_to_credits(pkt_wire_bytes((uint32_t)big, f->set.grh));
    for (int i = 0; i < f->nnodes; i++) {
        struct node *nd = f->nodes[i];
        if (!nd || !nd->is_switch)
            continue;
        for (int p = 1; p <= nd->nports; p++)
            c->nbuffers += nd->port[p].peer ? (int)f->set.nvls : 0;
    }
    c->nbuffers += (int)f->nflows;
    c->tun.threshold = d->threshold * c->nbuffers;
    c->tun.step = fmax(1.0, d->increase * c->nbuffers);
    c->tun.decrease = d->decrease;
    c->tun.drop = d->drop;
    c->period = d->period;
    c->tune_every = d->tune_every;
    c->call = (struct fabric_call){ gather, c };
    c->next_gather = d->period;
    fabric_schedule_call(f, c->next_gather, &c->call);
    for (uint32_t i = 0; i < f->nflows; i++)
        fabric_flow_pace_by_dest(f, &f->flows[i], 0);
    f->hooks = (struct fabric_hooks){
        .name = "selftuned",
        .ctx = c,
        .dest_ready = ready,
        .report = report,
        .destroy = destroy,
    };
    return 0;
}

const struct cc_plugin selftuned_plugin = {
    "selftuned",
    "seed 003's comparison scheme Self-Tuned (Thottethodi et al.): sources throttled while the "
    "fabric's full buffers exceed a threshold tuned by hill climbing on throughput",
    selftuned_params,
    sizeof(struct selftuned_desc),
    attach,
};

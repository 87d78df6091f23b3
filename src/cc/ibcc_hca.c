/* ibcc_hca.c: the adapter side of IB congestion control. Under UD a destination answers a
 * FECN-marked data packet with a CNP carrying BECN, queued on the adapter's priority path
 * (multicast, ACK and CNP packets are never answered); under RC the transport's next ACK for the
 * queue pair carries the BECN (transport.c) and no CNP is sent. A source that receives a BECN raises the CCTI of the
 * flow's index (its QP, or its port SL) by CCTI_Increase up to CCTI_Limit and handles the
 * CCTI_Timer by the chosen policy; each expiry lowers the CCTIs of the port SL (or the flow) by
 * one, never below CCTI_Min. After each packet a throttled flow waits its transmission time
 * plus the inter-packet delay CCT[CCTI] before its next one; other flows of the adapter are not
 * held back (at SL level the whole port SL is). At QP level a flow to many hosts has a queue
 * pair per destination host, each with its own CCTI, timer and delay: the adapter sends to the
 * others while one waits (fabric_flow_pace_by_dest). */
#include "cc/ibcc_int.h"
#include "fabric/transport.h"

static inline struct ibcc *ctx(struct fabric *f)
{
    return f->hooks.ctx;
}

void ibcc_index_settle(struct ibcc_index *ix, simtime_t now)
{
    ix->integral += (double)ix->ccti * (double)(now - ix->last_change);
    ix->last_change = now;
}

/* A timeline is written: name the index that changed (by its address: only then) and tell it. */
static void ccti_note(struct fabric *f, const struct ibcc *c, const struct ibcc_index *ix)
{
    const char *a = (const char *)ix;
    const struct port *at = NULL;
    int64_t key = 0;
    if (a >= (const char *)c->flows && a < (const char *)(c->flows + f->nflows)) {
        size_t i = (size_t)(a - (const char *)c->flows) / sizeof *c->flows;
        at = f->flows[i].src;
        key = (int64_t)i;
    } else if (a >= (const char *)c->groups && a < (const char *)(c->groups + c->ngroups)) {
        const struct ibcc_group *g = &c->groups[(size_t)(a - (const char *)c->groups) / sizeof *c->groups];
        if (!g->n)
            return;
        at = f->flows[g->flows[0]].src;
        key = -1 - (int64_t)ix->sl;
    } else {
        for (uint32_t i = 0; i < f->nflows && !at; i++) {
            const struct ibcc_dest *d = c->flows[i].dest;
            if (d && a >= (const char *)d && a < (const char *)(d + f->nhosts)) {
                at = f->flows[i].src;
                key = (int64_t)i | (int64_t)((const struct ibcc_dest *)(const void *)a - d + 1) << 32;
            }
        }
    }
    if (at)
        fabric_timeline(f, TLN_CCTI, at, NULL, ix->ccti, key);
}

static void index_set(struct fabric *f, const struct ibcc *c, struct ibcc_index *ix, int v)
{
    ibcc_index_settle(ix, f->now);
    ix->ccti = (uint16_t)v;
    const struct ibcc_dest *d = (const struct ibcc_dest *)(const void *)ix;
    if (d >= c->dests && d < c->dests + c->ndests) /* a destination queue pair's: its copy */
        c->dest_send[d - c->dests].ccti = ix->ccti;
    if (ix->ccti > ix->ccti_max)
        ix->ccti_max = ix->ccti;
    if (f->timeline_fn)
        ccti_note(f, c, ix);
}

static simtime_t period(const struct ibcc *c, int sl)
{
    return (simtime_t)c->timer[sl] * 1024 * PS_PER_NS;
}

static void arm(struct fabric *f, struct ibcc_timer *t, simtime_t after)
{
    t->due = f->now + after;
    t->armed = 1;
    fabric_schedule_call(f, t->due, &t->call);
}

/* One decrement of an index; returns 1 if it is still above CCTI_Min. */
static int lower(struct fabric *f, struct ibcc *c, struct ibcc_index *ix)
{
    long long min = c->min[ix->sl];
    if (ix->ccti > min)
        index_set(f, c, ix, ix->ccti - 1);
    return ix->ccti > min;
}

/* An index rose above CCTI_Min: its port SL's timer must lower it (QP level). */
static void note_raised(struct ibcc *c, struct ibcc_group *g, struct ibcc_index *ix)
{
    if (!ix->raised && ix->ccti > c->min[ix->sl] && g->raised) {
        ix->raised = 1;
        g->raised[g->nraised++] = ix;
    }
}

void ibcc_group_expire(struct fabric *f, void *arg)
{
    struct ibcc_group *g = arg;
    struct ibcc *c = g->cc;
    if (!g->timer.armed || f->now != g->timer.due)
        return; /* a stale firing of a restarted timer */
    g->timer.armed = 0;
    int more = 0;
    if (c->d.level == IBCC_LEVEL_SL) {
        more = lower(f, c, &g->shared);
    } else {
        /* Every index above CCTI_Min, in the order they rose; those back at it leave. */
        uint32_t kept = 0;
        for (uint32_t k = 0; k < g->nraised; k++) {
            struct ibcc_index *ix = g->raised[k];
            if (lower(f, c, ix))
                g->raised[kept++] = ix;
            else
                ix->raised = 0;
        }
        g->nraised = kept;
        more = kept > 0;
    }
    if (more)
        arm(f, &g->timer, period(c, g->shared.sl));
}

void ibcc_flow_expire(struct fabric *f, void *arg)
{
    struct ibcc_flow *cf = arg;
    struct ibcc *c = cf->cc;
    if (!cf->timer.armed || f->now != cf->timer.due)
        return;
    cf->timer.armed = 0;
    if (lower(f, c, cf->ix))
        arm(f, &cf->timer, period(c, cf->ix->sl));
}

void ibcc_dest_expire(struct fabric *f, void *arg)
{
    struct ibcc_dest_timer *t = arg;
    struct ibcc *c = t->flow->cc;
    if (!t->timer.armed || f->now != t->timer.due)
        return;
    t->timer.armed = 0;
    struct ibcc_index *ix = &t->flow->dest[t->host].ix;
    if (lower(f, c, ix))
        arm(f, &t->timer, period(c, ix->sl));
}

int64_t ibcc_dest_ready(struct fabric *f, const struct flow *fl, int dst_host)
{
    (void)f;
    const struct ibcc_flow *cf = fl->cc;
    return cf->dest_send[dst_host].next_ok;
}

/* A BECN for flow fl from host `from` (the destination that saw the FECN). */
static void becn(struct fabric *f, struct ibcc *c, struct flow *fl, int from)
{
    struct ibcc_flow *cf = fl->cc;
    if (!cf)
        return; /* the flow's SL is not under congestion control */
    cf->becn_received++;
    struct ibcc_index *ix = cf->ix;
    struct ibcc_timer *own_timer = &cf->timer;
    if (cf->dest && from >= 0) {
        ix = &cf->dest[from].ix;
        own_timer = cf->dest_timer ? &cf->dest_timer[from].timer : NULL;
    }
    int sl = ix->sl;
    long long v = (long long)ix->ccti + c->increase[sl];
    if (v > c->ccti_limit)
        v = c->ccti_limit;
    index_set(f, c, ix, (int)v);
    note_raised(c, cf->group, ix);
    if (c->timer[sl] <= 0)
        return; /* CCTI_Timer 0: no recovery */
    switch (c->d.timer_policy) {
    case IBCC_TIMER_FREE:
        if (!cf->group->timer.armed)
            arm(f, &cf->group->timer, period(c, sl));
        break;
    case IBCC_TIMER_RESTART:
        arm(f, &cf->group->timer, period(c, sl));
        break;
    default:
        arm(f, own_timer, period(c, sl));
        break;
    }
}

void ibcc_on_receive(struct fabric *f, struct port *at, struct packet *p)
{
    struct ibcc *c = ctx(f);
    struct ibcc_aport *ap = at->cc;
    if (p->flags & PKT_BECN) {
        fabric_timeline(f, TLN_BECN, at, p, 0, 0);
        if (ap)
            ap->becn_received++;
        if (p->about_flow < f->nflows && f->flows[p->about_flow].src == at)
            becn(f, c, &f->flows[p->about_flow], f->host_of_lid[p->src_lid]);
        return;
    }
    if (p->flow == FLOW_CONTROL || (p->flags & (PKT_MCAST | PKT_ACK | PKT_CNP)))
        return;
    if (!(p->flags & PKT_FECN))
        return;
    struct ibcc_flow *cf = p->flow < f->nflows ? f->flows[p->flow].cc : NULL;
    if (cf)
        cf->fecn_received++;
    if (ap)
        ap->fecn_received++;
    if (f->set.transport == TRANSPORT_RC)
        return; /* the responder's next ACK carries the BECN (transport.c) */
    if (cf && cf->cnp_next) { /* cnp_interval: at most one CNP per interval per queue pair */
        const struct flow *src = &f->flows[p->flow];
        simtime_t *next = &cf->cnp_next[src->pattern != 0 ? at->hca->host : 0];
        if (f->now < *next) {
            if (ap)
                ap->cnp_paced++;
            return;
        }
        *next = f->now + c->d.cnp_interval;
    }
    if (ap)
        ap->cnp_sent++;
    fabric_timeline(f, TLN_CNP, at, p, 0, 0);
    fabric_send_control(f, at, p->src_lid, p->sl, PKT_CNP | PKT_BECN, p->flow);
}

static simtime_t ird(const struct ibcc *c, int ccti, simtime_t tx)
{
    if (c->d.cct_form == IBCC_CCT_ABSOLUTE)
        return c->cct_ps[ccti];
    return (tx >> c->cct_shift[ccti]) * (simtime_t)c->cct_mult[ccti];
}

void ibcc_on_source_send(struct fabric *f, struct flow *fl, struct packet *p)
{
    struct ibcc_flow *cf = fl->cc;
    if (!cf)
        return;
    struct ibcc *c = cf->cc;
    simtime_t tx = byterate_time(fl->src->rate, p->wire_bytes);
    if (cf->dest) { /* the queue pair to this destination waits; the flow goes on */
        int h = fabric_host_of_lid(f, p->dst_lid);
        if (h < 0)
            return; /* a multicast packet: never marked, so its group is never throttled */
        struct ibcc_dest_send *ds = &cf->dest_send[h];
        simtime_t gap = ird(c, ds->ccti, tx);
        if (gap > 0)
            ds->next_ok = f->now + tx + gap;
        return;
    }
    simtime_t gap = ird(c, cf->ix->ccti, tx);
    if (gap <= 0)
        return;
    simtime_t next = f->now + tx + gap;
    if (c->d.level != IBCC_LEVEL_SL) {
        if (next > fl->next_ok)
            fl->next_ok = next;
        return;
    }
    /* SL level: the port SL as a whole waits. */
    struct ibcc_group *g = cf->group;
    for (uint32_t k = 0; k < g->n; k++) {
        struct flow *o = &f->flows[g->flows[k]];
        if (next > o->next_ok) {
            o->next_ok = next;
            if (o != fl)
                fabric_flow_repace(f, o);
        }
    }
}

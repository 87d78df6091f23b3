/* walk.c: the gathering's walkers (walk.h): one per state, packing on its owner's rank and
 * unpacking at rank 0 through the same code. */
#include "dist/walk.h"
#include "dist/dist_int.h"

#include "fabric/drop.h"
#include "fabric/period.h"

#include <stdlib.h>
#include <string.h>

void dist_walk_ports(struct fabric *f, const int *part, int rank, struct dist_io *io)
{
    struct period *pd = f->period;
    for (int i = 0; i < f->nnodes; i++) {
        if (part[i] != rank)
            continue;
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            dist_io_bytes(io, pt->vl, (size_t)f->nvs * sizeof *pt->vl);
            DIST_IO(io, pt->rx_total);
            DIST_IO(io, pt->rx_peak);
            DIST_IO(io, pt->busy_until);
            DIST_IO(io, pt->tx_start);
            DIST_IO(io, pt->tx_wire);
            DIST_IO(io, pt->tx_busy);
            DIST_IO(io, pt->waiting);
            DIST_IO(io, pt->arb);
            DIST_IO(io, pt->sample_rx_credit_time);
            if (pd) {
                int ix = pd->base[i] + p - 1;
                for (int k = 0; k < pd->taken; k++) {
                    dist_io_bytes(io, &pd->snap[k][(size_t)ix * (size_t)f->nvs],
                                  (size_t)f->nvs * sizeof *pd->snap[k]);
                    DIST_IO(io, pd->sent[k][ix]);
                }
            }
        }
        if (n->is_switch && node_sw(n)->drop) { /* drops per input port, by cause */
            struct sw_drop *dr = node_sw(n)->drop;
            size_t len = ((size_t)n->nports + 1) * sizeof *dr->hoq;
            dist_io_bytes(io, dr->hoq, len);
            dist_io_bytes(io, dr->sll, len);
            dist_io_bytes(io, dr->kept, len);
        }
    }
}

/* The send side of a flow: its source's. */
static void walk_send(struct fabric *f, struct flow *fl, struct dist_io *io)
{
    struct flow_stats *st = &fl->st;
    DIST_IO(io, st->msgs_offered);
    DIST_IO(io, st->msgs_refused);
    DIST_IO(io, st->msgs_refused_adapter);
    DIST_IO(io, st->msgs_offered_measured);
    DIST_IO(io, st->msgs_refused_measured);
    DIST_IO(io, st->queue_area);
    DIST_IO(io, st->queue_last);
    DIST_IO(io, st->pkts_sent);
    DIST_IO(io, st->bytes_sent);
    DIST_IO(io, fl->qn);
    DIST_IO(io, fl->cur_open);
    DIST_IO(io, fl->svc_start);
    DIST_IO(io, fl->msg_seq);
    DIST_IO(io, st->vdl); /* the frame rule as the flow's start set it (judged at rank 0) */
    DIST_IO(io, fl->rc.psn_next); /* the requester (RC without retransmission) */
    DIST_IO(io, fl->rc.psn_acked);
    DIST_IO(io, fl->rc.msg_begun);
    DIST_IO(io, fl->rc.msg_acked);
    DIST_IO(io, fl->rc.snd);
    uint64_t acks = fl->rc.x->acks, drops = fl->rc.x->drops, lost = fl->rc.x->lost;
    DIST_IO(io, acks);
    DIST_IO(io, drops); /* a plug-in's drop and retry (hostcredit's real-time consumers) */
    DIST_IO(io, lost);
    if (io->dir == DIST_UNPACK && fl->rc.x != &rc_ext_none) { /* a UD flow's is the shared
                                                                 read-only one (no ACKs) */
        fl->rc.x->acks = acks;
        fl->rc.x->drops = drops;
        fl->rc.x->lost = lost;
    }
    DIST_IO(io, fl->rc.blocked);
    DIST_IO(io, fl->nheld);
    if (fl->nheld > fl->held_cap)
        ibn_panic("distributed run: flow %s holds %u messages, more than its %u", fl->name, fl->nheld,
                  fl->held_cap);
    dist_io_bytes(io, fl->held, fl->nheld * sizeof *fl->held);
    if (fl->rc.posted) { /* every message's posting time (a distributed run's own log) */
        struct rc_ext *x = fl->rc.x;
        DIST_IO(io, x->nposted);
        if (io->dir == DIST_UNPACK && x->nposted > x->posted_cap) {
            x->posted_log = xrealloc(x->posted_log, (size_t)x->nposted * sizeof *x->posted_log);
            x->posted_cap = x->nposted;
        }
        dist_io_bytes(io, x->posted_log, (size_t)x->nposted * sizeof *x->posted_log);
    }
    if (fl->path != PATH_BASE && fl->path != PATH_ADAPTIVE) /* chosen at the source */
        dist_io_bytes(io, fl->path_pkts, ((size_t)1 << f->max_lmc) * sizeof *fl->path_pkts);
}

/* A flow whose switches choose its LIDs counts them where its packets arrive (hca.c deliver):
 * `rank` has counted some. */
static int adaptive_counted(const struct fabric *f, const struct flow *fl)
{
    if (fl->path != PATH_ADAPTIVE)
        return 0;
    for (size_t k = 0; k < (size_t)1 << f->max_lmc; k++)
        if (fl->path_pkts[k])
            return 1;
    return 0;
}

/* `rank` has something of the flow's receive side. */
static int rside_here(const struct fabric *f, const struct flow *fl)
{
    return fl->st.e2e_latency.count > 0 || fl->st.pkts_delivered > 0 || adaptive_counted(f, fl);
}

/* A histogram with its bins (unpacked into fresh bins). */
static void walk_hist(struct dist_io *io, struct histogram *h)
{
    DIST_IO(io, *h);
    size_t n = hist_nbins_raw(h);
    if (io->dir == DIST_UNPACK) {
        h->bins = n ? xmalloc(n * sizeof *h->bins) : NULL;
        if (h->hi < h->lo)
            h->capsp = h->nsp;
    }
    if (n)
        dist_io_bytes(io, h->bins, n * sizeof *h->bins);
}

/* One rank's receive side of a flow (its deadlines and jitter are judged at rank 0 from the
 * deliveries' log). */
struct rside {
    uint8_t is_e2e;
    uint64_t pkts, bytes, msgs;
    struct histogram net, e2e, msg;
};

static void walk_rside(struct dist_io *io, struct rside *r)
{
    DIST_IO(io, r->pkts);
    DIST_IO(io, r->bytes);
    DIST_IO(io, r->msgs);
    DIST_IO(io, r->is_e2e);
    walk_hist(io, &r->net);
    walk_hist(io, &r->e2e);
    if (!r->is_e2e)
        walk_hist(io, &r->msg);
}

/* Rank 0 adds another rank's receive side to its own. */
static void merge_rside(struct flow_stats *st, const struct rside *r)
{
    st->pkts_delivered += r->pkts;
    st->bytes_delivered += r->bytes;
    st->msgs_delivered += r->msgs;
    if (st->msg_is_e2e && !r->is_e2e) { /* from now on apart */
        hist_copy(&st->msg_latency, &st->e2e_latency);
        st->msg_is_e2e = 0;
    }
    if (!st->msg_is_e2e)
        hist_merge(&st->msg_latency, r->is_e2e ? &r->e2e : &r->msg);
    hist_merge(&st->net_latency, &r->net);
    hist_merge(&st->e2e_latency, &r->e2e);
}

void dist_walk_dlv(struct dist_io *io, struct dlv_list *dl)
{
    int pack = io->dir == DIST_PACK;
    uint64_t n = pack ? dl->n : 0;
    DIST_IO(io, n);
    if (!pack && dl->n + n > dl->cap) {
        dl->cap = (dl->n + n) * 2;
        dl->a = xrealloc(dl->a, dl->cap * sizeof *dl->a);
    }
    if (!n)
        return;
    dist_io_bytes(io, pack ? dl->a : dl->a + dl->n, n * sizeof *dl->a);
    if (!pack)
        dl->n += n;
}

void dist_walk_flows(struct fabric *f, const int *part, int rank, struct dist_io *io,
                     struct dlv_list *dl, struct dlv_list *pl)
{
    int pack = io->dir == DIST_PACK;
    uint32_t cnt = 0, i = 0;
    for (uint32_t k = 0; pack && k < f->nflows; k++)
        cnt += part[f->flows[k].src->node->index] == rank;
    DIST_IO(io, cnt);
    for (uint32_t k = 0; k < cnt; k++, i++) {
        while (pack && part[f->flows[i].src->node->index] != rank)
            i++;
        DIST_IO(io, i);
        if (i >= f->nflows)
            ibn_panic("distributed run: a gathered flow %u of %u", i, f->nflows);
        walk_send(f, &f->flows[i], io);
    }
    cnt = 0;
    for (uint32_t k = 0; pack && k < f->nflows; k++)
        cnt += rside_here(f, &f->flows[k]);
    DIST_IO(io, cnt);
    i = 0;
    for (uint32_t k = 0; k < cnt; k++, i++) {
        while (pack && !rside_here(f, &f->flows[i]))
            i++;
        DIST_IO(io, i);
        if (i >= f->nflows)
            ibn_panic("distributed run: a gathered flow %u of %u", i, f->nflows);
        struct flow_stats *st = &f->flows[i].st;
        struct rside r;
        memset(&r, 0, sizeof r);
        if (pack) { /* the flow's own histograms, bins shared (not freed) */
            r.pkts = st->pkts_delivered;
            r.bytes = st->bytes_delivered;
            r.msgs = st->msgs_delivered;
            r.is_e2e = st->msg_is_e2e;
            r.net = st->net_latency;
            r.e2e = st->e2e_latency;
            r.msg = st->msg_latency;
        }
        walk_rside(io, &r);
        if (f->flows[i].path == PATH_ADAPTIVE) /* every rank's deliveries, added at rank 0 */
            dist_io_sum_u64(io, f->flows[i].path_pkts, (size_t)1 << f->max_lmc);
        if (!pack) {
            merge_rside(st, &r);
            hist_free(&r.net);
            hist_free(&r.e2e);
            if (!r.is_e2e)
                hist_free(&r.msg);
        }
    }
    dist_walk_dlv(io, dl);
    dist_walk_dlv(io, pl);
}

static int dlv_cmp(const void *a, const void *b)
{
    const struct dlv *x = a, *y = b;
    if (x->flow != y->flow)
        return x->flow < y->flow ? -1 : 1;
    return dist_key_lt(x->t, x->seq, y->t, y->seq) ? -1 : dist_key_lt(y->t, y->seq, x->t, x->seq);
}

void dist_replay_sums(struct fabric *f, struct dlv_list *dl)
{
    if (dl->n)
        qsort(dl->a, dl->n, sizeof *dl->a, dlv_cmp);
    for (size_t k = 0; k < dl->n;) {
        struct flow_stats *st = &f->flows[dl->a[k].flow].st;
        double ns = 0, nq = 0, es = 0, eq = 0, ms = 0, mq = 0;
        size_t e = k;
        for (; e < dl->n && dl->a[e].flow == dl->a[k].flow; e++) {
            const struct dlv *x = &dl->a[e];
            ns += (double)x->net;
            nq += (double)x->net * (double)x->net;
            es += (double)x->e2e;
            eq += (double)x->e2e * (double)x->e2e;
            if (x->last) {
                ms += (double)x->e2e;
                mq += (double)x->e2e * (double)x->e2e;
            }
        }
        st->net_latency.sum = ns;
        st->net_latency.sumsq = nq;
        st->e2e_latency.sum = es;
        st->e2e_latency.sumsq = eq;
        if (!st->msg_is_e2e) {
            st->msg_latency.sum = ms;
            st->msg_latency.sumsq = mq;
        }
        k = e;
    }
}

void dist_replay_posted(struct fabric *f, struct dlv_list *pl)
{
    if (pl->n)
        qsort(pl->a, pl->n, sizeof *pl->a, dlv_cmp);
    for (size_t k = 0; k < pl->n; k++) {
        const struct dlv *x = &pl->a[k];
        struct flow *fl = &f->flows[x->flow];
        const struct rc_ext *rx = fl->rc.x;
        uint64_t msg = (uint64_t)x->net;
        if (msg >= rx->nposted || rx->posted_log[msg] == SIMTIME_NEVER)
            ibn_panic("distributed run: flow %s delivered message %llu, which its source never "
                      "posted", fl->name, (unsigned long long)msg);
        hist_add(&fl->st.posted_latency, x->t - rx->posted_log[msg]);
    }
}

void dist_replay_judged(struct fabric *f, struct dlv_list *jl)
{
    if (jl->n)
        qsort(jl->a, jl->n, sizeof *jl->a, dlv_cmp);
    for (size_t k = 0; k < jl->n; k++) {
        const struct dlv *x = &jl->a[k];
        flow_judge_message(&f->flows[x->flow], x->t, x->net, (int)x->e2e);
    }
}

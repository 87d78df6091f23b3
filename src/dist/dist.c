/* dist.c: one run over MPI ranks (dist.h, docs/distributed.md section 3): the cut ports'
 * messages, the windows' exchange, the replays that make the receiving side's state what the
 * sequential run's would be, and the gathering of statistics at rank 0. */
#include "dist/dist.h"
#include "dist/partition.h"
#include "fabric/drop.h"
#include "fabric/period.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef IBN_HAVE_MPI

int dist_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 1;
}
int dist_active(void) { return 0; }
int dist_rank(void) { return 0; }
int dist_size(void) { return 1; }
void dist_finalize(void) {}
int dist_built(void) { return 0; }
int dist_go(int ok) { return ok; }
int dist_attach(struct fabric *f, const struct topo *t, int method, struct ibn_err *e)
{
    (void)f;
    (void)t;
    (void)method;
    return ibn_err_set(e, "ibnetsim was built without MPI (libopenmpi-dev): no distributed mode");
}
int dist_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
             struct ibn_err *e)
{
    return fabric_run(f, obs, r, e);
}
void dist_describe(const struct fabric *f, char *buf, size_t len)
{
    (void)f;
    if (len)
        buf[0] = 0;
}
void dist_detach(struct fabric *f) { (void)f; }

#else

#include <mpi.h>

static int g_inited, g_size = 1, g_rank;

int dist_init(int *argc, char ***argv)
{
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return 1;
    MPI_Init(argc, argv);
    g_inited = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    return g_size;
}
int dist_active(void) { return g_inited; }
int dist_rank(void) { return g_rank; }
int dist_size(void) { return g_size; }
int dist_built(void) { return 1; }
int dist_go(int ok)
{
    static int done;
    if (!g_inited || done)
        return ok;
    done = 1;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}
void dist_finalize(void)
{
    if (g_inited) {
        g_inited = 0;
        MPI_Finalize();
    }
}

/* (t, seq) order. */
static inline int key_lt(simtime_t t1, evseq_t s1, simtime_t t2, evseq_t s2)
{
    return t1 < t2 || (t1 == t2 && s1 < s2);
}

enum { LOG_CALL = 1, LOG_CLEAR = 2 };
struct logitem {
    simtime_t t;
    evseq_t seq;
    uint8_t kind, work, cl;
};
struct freeitem {
    simtime_t t;
    evseq_t seq;
    int32_t credits;
};

/* A port whose peer another rank handles. As a sender its credit returns come from that
 * rank; as a receiver its packets do. */
struct cport {
    struct port *p;
    int peer_rank;
    uint64_t stamp_tx, stamp_rx, stamp_in; /* window of the first touch in each role */
    uint8_t w0, low0, cleared;
    simtime_t ct;
    evseq_t cseq;
    struct logitem *log;
    uint32_t nlog, caplog;
    int32_t rx0;
    struct freeitem *fr;
    uint32_t nfr, capfr;
    /* What this window's exchange brought: indexes into the received records. */
    uint32_t *in;
    uint32_t nin, capin;
};

struct dmsg {
    uint8_t kind;            /* 1 a packet (event type `type`), 2 credits */
    uint8_t type;
    uint16_t slot;
    int32_t credits;
    uint32_t pid;            /* the receiving port: node base + number (the same on every rank) */
    uint32_t pidx;           /* sender: the packet in its pool until the exchange */
    simtime_t t;             /* the event's or the credit return's time and number */
    evseq_t seq;
    simtime_t kt;            /* when it happened at the sender: (now, now_seq) */
    evseq_t kseq;
    struct packet pkt;
};

/* What a flow's deliveries add to the latency histograms' floating-point sums, which depend
 * on the order of additions: replayed in (time, number) order at rank 0. */
struct dlv {
    simtime_t t;
    evseq_t seq;
    int64_t net, e2e;
    uint32_t flow;
    uint32_t last;
};

struct dist {
    struct fabric_dist fd;
    int *part;
    int *pbase;              /* per node: id of its port 0 */
    int nports;
    int32_t *cutix;          /* per port id: index into cp or -1 */
    struct cport *cp;
    int ncp;
    long long cut_cables;
    struct dmsg **out;       /* per rank */
    size_t *nout, *capout;
    struct dmsg *inbuf;
    size_t capin;
    uint32_t *touched;       /* cut ports touched this window */
    int ntouched;
    uint64_t window;
    simtime_t wend;
    int in_window;
    uint64_t windows, msgs_sent;
    uint8_t *multi;          /* per flow: its deliveries may happen on several ranks */
    struct dlv *dl;
    size_t ndl, capdl;
};

static struct dist *D(struct fabric *f)
{
    return (struct dist *)f->dist;
}

static int pid_of(const struct dist *d, const struct port *p)
{
    return d->pbase[p->node->index] + p->num;
}

static void *grow(void *a, uint32_t *cap, size_t elem, uint32_t need)
{
    if (need <= *cap)
        return a;
    uint32_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *cap = c;
    return xrealloc(a, (size_t)c * elem);
}

static void touch(struct dist *d, struct cport *c)
{
    if (c->stamp_tx != d->window && c->stamp_rx != d->window && c->stamp_in != d->window)
        d->touched[d->ntouched++] = (uint32_t)(c - d->cp);
}

static int low_head(const struct dist *d, const struct port *p)
{
    return p->cret_n && p->cret[p->cret_head].t < d->wend;
}

/* First touch in this window as a sender (its credit ring, its credit_watch). */
static void touch_tx(struct dist *d, struct cport *c)
{
    if (c->stamp_tx == d->window)
        return;
    touch(d, c);
    c->stamp_tx = d->window;
    c->w0 = c->p->credit_watch;
    c->low0 = (uint8_t)low_head(d, c->p);
    c->cleared = 0;
    c->nlog = 0;
}

static void log_item(struct fabric *f, struct cport *c, uint8_t kind, uint8_t work, uint8_t cl)
{
    c->log = grow(c->log, &c->caplog, sizeof *c->log, c->nlog + 1);
    c->log[c->nlog++] = (struct logitem){ f->now, f->now_seq, kind, work, cl };
}

static struct cport *cut_port(struct fabric *f, const struct port *p)
{
    struct dist *d = D(f);
    return &d->cp[d->cutix[pid_of(d, p)]];
}

static struct dmsg *out_msg(struct dist *d, int rank)
{
    if (d->nout[rank] == d->capout[rank]) {
        d->capout[rank] = d->capout[rank] ? 2 * d->capout[rank] : 64;
        d->out[rank] = xrealloc(d->out[rank], d->capout[rank] * sizeof **d->out);
    }
    struct dmsg *m = &d->out[rank][d->nout[rank]++];
    memset(m, 0, sizeof *m);
    return m;
}

/* port_transmit on a cut port: the arrival becomes a message. */
static void send_packet(struct fabric *f, struct port *out, uint32_t pidx)
{
    struct dist *d = D(f);
    struct cport *c = cut_port(f, out);
    touch_tx(d, c);
    log_item(f, c, LOG_CLEAR, 0, 0); /* port_transmit cleared credit_watch */
    const struct packet *p = pkt(&f->pool, pidx);
    struct port *peer = out->peer;
    struct dmsg *m = out_msg(d, c->peer_rank);
    m->kind = 1;
    if (peer->is_switch) {
        m->type = EV_ARRIVE;
        m->t = f->now + out->delay + node_sw(peer->node)->latency;
    } else {
        m->type = EV_SINK_ARRIVE;
        m->t = p->t_tail;
    }
    m->seq = eventq_reserve_seq(&f->q);
    m->kt = f->now;
    m->kseq = f->now_seq;
    if (m->t < d->wend)
        ibn_panic("distributed run: a packet from %s port %u arrives at %lld ps, inside the window "
                  "ending at %lld ps", out->node->name, out->num, (long long)m->t, (long long)d->wend);
    m->pid = (uint32_t)pid_of(d, peer);
    m->pidx = pidx;
    m->slot = (uint16_t)fabric_slot(f, p->vl);
    m->credits = p->credits;
}

/* port_return_credits on a cut port: the buffer use fell (kept for the peak's replay) and the
 * credits travel to the other rank. */
static void freed(struct fabric *f, struct port *in, int slot, int credits, simtime_t t)
{
    struct dist *d = D(f);
    struct cport *c = cut_port(f, in);
    if (c->stamp_rx != d->window) {
        touch(d, c);
        c->stamp_rx = d->window;
        c->rx0 = in->rx_total + credits;
        c->nfr = 0;
    }
    c->fr = grow(c->fr, &c->capfr, sizeof *c->fr, c->nfr + 1);
    c->fr[c->nfr++] = (struct freeitem){ f->now, f->now_seq, credits };
    if (slot == f->set.nvls) /* VL15 is not flow-controlled */
        return;
    struct dmsg *m = out_msg(d, c->peer_rank);
    m->kind = 2;
    m->slot = (uint16_t)slot;
    m->credits = credits;
    m->t = t + in->delay + f->set.credit_delay;
    if (m->t < d->wend)
        ibn_panic("distributed run: credits from %s port %u arrive at %lld ps, inside the window "
                  "ending at %lld ps", in->node->name, in->num, (long long)m->t, (long long)d->wend);
    m->seq = eventq_reserve_seq(&f->q);
    m->kt = f->now;
    m->kseq = f->now_seq;
    m->pid = (uint32_t)pid_of(d, in->peer);
}

static void wake(struct fabric *f, struct port *p, struct credit_return *r)
{
    r->woken = 1;
    eventq_push_seq_on(&f->q, (uint32_t)p->node->index, r->t, r->seq, EV_CREDIT, p, 0, 0);
}

/* port_watch_credits on a cut port: returns still on their way from the other rank may sort
 * before the head this rank knows; the head is woken now only if it lands inside the window
 * (then nothing unknown sorts before it), otherwise the exchange decides (replay_credits). */
static void watch(struct fabric *f, struct port *p, int work)
{
    struct dist *d = D(f);
    p->credit_watch = (uint8_t)work;
    if (!d->in_window) { /* after the run: as sequentially */
        if (work && p->cret_n && !p->cret[p->cret_head].woken)
            wake(f, p, &p->cret[p->cret_head]);
        return;
    }
    struct cport *c = cut_port(f, p);
    touch_tx(d, c);
    int low = low_head(d, p);
    log_item(f, c, LOG_CALL, (uint8_t)work, (uint8_t)!low);
    if (work && low && !p->cret[p->cret_head].woken)
        wake(f, p, &p->cret[p->cret_head]);
}

static void absorbed(struct fabric *f, struct port *p, uint32_t n, simtime_t t, evseq_t seq)
{
    struct dist *d = D(f);
    if (!d->in_window)
        return;
    struct cport *c = cut_port(f, p);
    if (c->stamp_tx != d->window) {
        touch_tx(d, c);
        c->low0 = n > 0 || low_head(d, p);
    }
    if (c->low0 && !c->cleared && !low_head(d, p)) {
        c->cleared = 1;
        c->ct = t;
        c->cseq = seq;
    }
}

static void delivered(struct fabric *f, uint32_t flow, int64_t net, int64_t e2e, int last)
{
    struct dist *d = D(f);
    if (!d->multi[flow])
        return;
    if (d->ndl == d->capdl) {
        d->capdl = d->capdl ? 2 * d->capdl : 1024;
        d->dl = xrealloc(d->dl, d->capdl * sizeof *d->dl);
    }
    d->dl[d->ndl++] = (struct dlv){ f->now, f->now_seq, net < 0 ? 0 : net, e2e < 0 ? 0 : e2e, flow,
                                    (uint32_t)last };
}

static simtime_t reduce_min(struct fabric *f, simtime_t v)
{
    (void)f;
    long long x = (long long)v, y;
    MPI_Allreduce(&x, &y, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    return (simtime_t)y;
}

static uint64_t reduce_sum(struct fabric *f, uint64_t v)
{
    (void)f;
    unsigned long long x = v, y;
    MPI_Allreduce(&x, &y, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return y;
}

static void window(struct fabric *f, simtime_t wend)
{
    struct dist *d = D(f);
    d->window++;
    d->windows++;
    d->wend = wend;
    d->in_window = 1;
    d->ntouched = 0;
}

static void port_in(struct dist *d, struct cport *c, uint32_t k)
{
    if (c->stamp_in != d->window) {
        touch(d, c);
        c->stamp_in = d->window;
        c->nin = 0;
    }
    c->in = grow(c->in, &c->capin, sizeof *c->in, c->nin + 1);
    c->in[c->nin++] = k;
}

/* The receive side's peak buffer use, as if the packets' arrivals had been counted when they
 * started (sequentially: port_transmit): this window's increments and frees in key order. */
static void replay_rx(struct dist *d, struct cport *c, const struct dmsg *in)
{
    struct port *p = c->p;
    int32_t r = c->stamp_rx == d->window ? c->rx0 : p->rx_total, peak = p->rx_peak, add = 0;
    uint32_t i = 0, j = 0, nfr = c->stamp_rx == d->window ? c->nfr : 0;
    uint32_t nin = c->stamp_in == d->window ? c->nin : 0;
    while (i < nin || j < nfr) {
        const struct dmsg *m = i < nin ? &in[c->in[i]] : NULL;
        if (m && m->kind != 1) {
            i++;
            continue;
        }
        if (m && (j == nfr || key_lt(m->kt, m->kseq, c->fr[j].t, c->fr[j].seq))) {
            r += m->credits;
            add += m->credits;
            if (r > peak)
                peak = r;
            i++;
        } else {
            r -= c->fr[j++].credits;
        }
    }
    p->rx_total += add;
    p->rx_peak = peak;
    if (r != p->rx_total)
        ibn_panic("distributed run: %s port %u: receive-buffer replay ends at %d, not %d",
                  p->node->name, p->num, r, p->rx_total);
}

/* The sender's credit ring as the sequential run would hold it at the window's end, with the
 * wake-ups it would have scheduled (port_return_credits and port_watch_credits), from the
 * returns that came in and this window's log of the sender's watch changes. */
static void replay_credits(struct fabric *f, struct dist *d, struct cport *c, const struct dmsg *in)
{
    struct port *p = c->p;
    int txt = c->stamp_tx == d->window;
    uint32_t nlog = txt ? c->nlog : 0, nin = c->stamp_in == d->window ? c->nin : 0;
    uint32_t nnew = 0;
    for (uint32_t i = 0; i < nin; i++)
        nnew += in[c->in[i]].kind == 2;
    int anycall = 0;
    for (uint32_t i = 0; i < nlog; i++)
        anycall |= c->log[i].kind == LOG_CALL && c->log[i].cl && c->log[i].work;
    if (!nnew && !anycall)
        return;
    uint32_t n = p->cret_n, cap = n + nnew;
    struct credit_return *ring = xmalloc((cap + 1) * sizeof *ring);
    uint8_t *was = xmalloc(cap + 1);
    for (uint32_t k = 0; k < n; k++) {
        ring[k] = p->cret[(p->cret_head + k) & (p->cret_cap - 1)];
        was[k] = ring[k].woken;
    }
    int w = txt ? c->w0 : p->credit_watch;
    int low0 = txt ? c->low0 : low_head(d, p);
    /* Insertions at keys after (ct, cseq) see no return landing inside the window. */
    uint32_t i = 0, j = 0;
    while (i < nlog || j < nin) {
        const struct dmsg *m = j < nin ? &in[c->in[j]] : NULL;
        if (m && m->kind != 2) {
            j++;
            continue;
        }
        const struct logitem *li = i < nlog ? &c->log[i] : NULL;
        if (li && (!m || key_lt(li->t, li->seq, m->kt, m->kseq))) {
            if (li->kind == LOG_CLEAR) {
                w = 0;
            } else {
                w = li->work;
                if (li->work && li->cl && n && !ring[0].woken)
                    ring[0].woken = 1;
            }
            i++;
            continue;
        }
        struct credit_return r = { m->t, m->seq, m->credits, m->slot, 0 };
        uint32_t pos = n;
        while (pos > 0 && key_lt(r.t, r.seq, ring[pos - 1].t, ring[pos - 1].seq)) {
            ring[pos] = ring[pos - 1];
            was[pos] = was[pos - 1];
            pos--;
        }
        int clear = !low0 || (c->cleared && key_lt(c->ct, c->cseq, m->kt, m->kseq));
        r.woken = (uint8_t)(pos == 0 && w && clear);
        ring[pos] = r;
        was[pos] = 0;
        n++;
        j++;
    }
    /* Back into the port's ring, unwrapped. */
    uint32_t rc = p->cret_cap;
    while (rc < n)
        rc *= 2;
    if (rc != p->cret_cap) {
        if (p->cret != p->cret_inline)
            free(p->cret);
        p->cret = xmalloc(rc * sizeof *p->cret);
        p->cret_cap = rc;
    }
    for (uint32_t k = 0; k < n; k++) {
        p->cret[k] = ring[k];
        if (ring[k].woken && !was[k])
            eventq_push_seq_on(&f->q, (uint32_t)p->node->index, ring[k].t, ring[k].seq, EV_CREDIT,
                               p, 0, 0);
    }
    p->cret_head = 0;
    p->cret_n = n;
    p->cret_next = n ? ring[0].t : SIMTIME_NEVER;
    free(ring);
    free(was);
}

static void exchange(struct fabric *f)
{
    struct dist *d = D(f);
    int nr = d->fd.nranks;
    int *sc = xcalloc((size_t)nr, sizeof *sc), *rcn = xcalloc((size_t)nr, sizeof *rcn);
    int *sd = xcalloc((size_t)nr, sizeof *sd), *rd = xcalloc((size_t)nr, sizeof *rd);
    size_t total_out = 0;
    for (int r = 0; r < nr; r++) {
        for (size_t k = 0; k < d->nout[r]; k++) {
            struct dmsg *m = &d->out[r][k];
            if (m->kind == 1) {
                m->pkt = *pkt(&f->pool, m->pidx);
                pktpool_release(&f->pool, m->pidx);
            }
        }
        sc[r] = (int)(d->nout[r] * sizeof(struct dmsg));
        total_out += d->nout[r];
    }
    d->msgs_sent += total_out;
    MPI_Alltoall(sc, 1, MPI_INT, rcn, 1, MPI_INT, MPI_COMM_WORLD);
    size_t nin = 0;
    for (int r = 0; r < nr; r++) {
        rd[r] = (int)nin;
        nin += (size_t)rcn[r];
    }
    nin /= sizeof(struct dmsg);
    if (nin > d->capin) {
        d->capin = nin * 2;
        d->inbuf = xrealloc(d->inbuf, d->capin * sizeof *d->inbuf);
    }
    /* One contiguous send buffer. */
    size_t so = 0;
    struct dmsg *sbuf = xmalloc((total_out + 1) * sizeof *sbuf);
    for (int r = 0; r < nr; r++) {
        sd[r] = (int)(so * sizeof(struct dmsg));
        if (d->nout[r])
            memcpy(sbuf + so, d->out[r], d->nout[r] * sizeof *sbuf);
        so += d->nout[r];
        d->nout[r] = 0;
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, d->inbuf, rcn, rd, MPI_BYTE, MPI_COMM_WORLD);
    free(sbuf);
    free(sc);
    free(rcn);
    free(sd);
    free(rd);
    d->in_window = 0;
    /* Packets into the pool and the queue; every record to its port's list. */
    for (size_t k = 0; k < nin; k++) {
        struct dmsg *m = &d->inbuf[k];
        int ci = d->cutix[m->pid];
        if (ci < 0)
            ibn_panic("distributed run: a message for port id %u, which is not cut", m->pid);
        struct cport *c = &d->cp[ci];
        port_in(d, c, (uint32_t)k);
        if (m->kind == 1) {
            struct port *q = c->p;
            uint32_t idx = pktpool_alloc(&f->pool);
            struct packet *x = pkt(&f->pool, idx);
            *x = m->pkt;
            x->next = PKT_NIL;
            struct port_vl *v = &q->vl[m->slot];
            v->ctr.rcv_bytes += m->pkt.wire_bytes;
            v->ctr.rcv_pkts++;
            v->rx_used += m->credits;
            eventq_push_seq_on(&f->q, (uint32_t)q->node->index, m->t, m->seq, m->type, q, idx, 0);
        }
    }
    for (int k = 0; k < d->ntouched; k++) {
        struct cport *c = &d->cp[d->touched[k]];
        replay_rx(d, c, d->inbuf);
        replay_credits(f, d, c, d->inbuf);
    }
    d->ntouched = 0;
    d->window++; /* stamps of this window no longer match */
}

/* ---- gathering at rank 0 ---- */

struct buf {
    char *b;
    size_t n, cap, at;
};
static void put(struct buf *b, const void *x, size_t n)
{
    if (!n)
        return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 4096;
        b->b = xrealloc(b->b, b->cap);
    }
    memcpy(b->b + b->n, x, n);
    b->n += n;
}
static void get(struct buf *b, void *x, size_t n)
{
    if (!n)
        return;
    if (b->at + n > b->n)
        ibn_panic("distributed run: a gathered record is short");
    memcpy(x, b->b + b->at, n);
    b->at += n;
}
static void io_put(void *io, const void *x, size_t n)
{
    put(io, x, n);
}
static void io_get(void *io, void *x, size_t n)
{
    get(io, x, n);
}
#define PUT(b, v) put(b, &(v), sizeof(v))
#define GET(b, v) get(b, &(v), sizeof(v))

static void put_hist(struct buf *b, const struct histogram *h)
{
    PUT(b, *h);
    size_t n = hist_nbins_raw(h);
    if (n)
        put(b, h->bins, n * sizeof *h->bins);
}
static void get_hist(struct buf *b, struct histogram *h)
{
    GET(b, *h);
    size_t n = hist_nbins_raw(h);
    h->bins = NULL;
    if (h->hi < h->lo)
        h->capsp = h->nsp;
    if (n) {
        h->bins = xmalloc(n * sizeof *h->bins);
        get(b, h->bins, n * sizeof *h->bins);
    }
}

static void sum_u64(uint64_t *v, size_t n)
{
    if (!n)
        return;
    uint64_t *o = xmalloc(n * sizeof *o);
    MPI_Reduce(v, o, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (g_rank == 0)
        memcpy(v, o, n * sizeof *o);
    free(o);
}

/* A rank's owned ports: the per-VL lines, the scalars the results read, the period's
 * snapshots. */
static void pack_ports(struct fabric *f, struct dist *d, struct buf *b)
{
    struct period *pd = f->period;
    for (int i = 0; i < f->nnodes; i++) {
        if (d->part[i] != d->fd.rank)
            continue;
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            put(b, pt->vl, (size_t)f->nvs * sizeof *pt->vl);
            PUT(b, pt->rx_total);
            PUT(b, pt->rx_peak);
            PUT(b, pt->busy_until);
            PUT(b, pt->tx_start);
            PUT(b, pt->tx_wire);
            PUT(b, pt->tx_busy);
            PUT(b, pt->waiting);
            PUT(b, pt->arb);
            PUT(b, pt->sample_rx_credit_time);
            if (pd) {
                int ix = pd->base[i] + p - 1;
                for (int k = 0; k < pd->taken; k++) {
                    put(b, &pd->snap[k][(size_t)ix * (size_t)f->nvs], (size_t)f->nvs * sizeof *pd->snap[k]);
                    PUT(b, pd->sent[k][ix]);
                }
            }
        }
        if (n->is_switch && node_sw(n)->drop) { /* drops per input port, by cause */
            const struct sw_drop *dr = node_sw(n)->drop;
            size_t len = ((size_t)n->nports + 1) * sizeof *dr->hoq;
            put(b, dr->hoq, len);
            put(b, dr->sll, len);
            put(b, dr->kept, len);
        }
    }
}
static void unpack_ports(struct fabric *f, struct dist *d, struct buf *b, int rank)
{
    struct period *pd = f->period;
    for (int i = 0; i < f->nnodes; i++) {
        if (d->part[i] != rank)
            continue;
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            get(b, pt->vl, (size_t)f->nvs * sizeof *pt->vl);
            GET(b, pt->rx_total);
            GET(b, pt->rx_peak);
            GET(b, pt->busy_until);
            GET(b, pt->tx_start);
            GET(b, pt->tx_wire);
            GET(b, pt->tx_busy);
            GET(b, pt->waiting);
            GET(b, pt->arb);
            GET(b, pt->sample_rx_credit_time);
            if (pd) {
                int ix = pd->base[i] + p - 1;
                for (int k = 0; k < pd->taken; k++) {
                    get(b, &pd->snap[k][(size_t)ix * (size_t)f->nvs], (size_t)f->nvs * sizeof *pd->snap[k]);
                    GET(b, pd->sent[k][ix]);
                }
            }
        }
        if (n->is_switch && node_sw(n)->drop) {
            struct sw_drop *dr = node_sw(n)->drop;
            size_t len = ((size_t)n->nports + 1) * sizeof *dr->hoq;
            get(b, dr->hoq, len);
            get(b, dr->sll, len);
            get(b, dr->kept, len);
        }
    }
}

/* Flows: the send side from the source's rank; the receive side from every rank that
 * delivered (counters added, histograms' bins merged, their sums replayed in order). */
/* A flow to one host whose host this rank handles. */
static int owns_dst(const struct fabric *f, const struct dist *d, const struct flow *fl)
{
    return fl->dst_host >= 0 && d->part[f->hosts[fl->dst_host].node->index] == d->fd.rank;
}
/* This rank has something of the flow's receive side. */
static int rside_here(const struct fabric *f, const struct dist *d, const struct flow *fl)
{
    return fl->st.e2e_latency.count > 0 || fl->st.pkts_delivered > 0 ||
           (owns_dst(f, d, fl) && (fl->st.has_deadlines || fl->st.has_jitter));
}

static void pack_flows(struct fabric *f, struct dist *d, struct buf *b)
{
    uint32_t cnt = 0;
    for (uint32_t i = 0; i < f->nflows; i++)
        cnt += d->part[f->flows[i].src->node->index] == d->fd.rank;
    PUT(b, cnt);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (d->part[fl->src->node->index] != d->fd.rank)
            continue;
        struct flow_stats *st = &fl->st;
        PUT(b, i);
        PUT(b, st->msgs_offered);
        PUT(b, st->msgs_refused);
        PUT(b, st->msgs_offered_measured);
        PUT(b, st->msgs_refused_measured);
        PUT(b, st->queue_area);
        PUT(b, st->queue_last);
        PUT(b, st->pkts_sent);
        PUT(b, st->bytes_sent);
        PUT(b, fl->qn);
        PUT(b, fl->cur_open);
        PUT(b, fl->svc_start);
        PUT(b, fl->msg_seq);
        PUT(b, fl->rc.psn_next); /* the requester (RC without retransmission) */
        PUT(b, fl->rc.psn_acked);
        PUT(b, fl->rc.msg_begun);
        PUT(b, fl->rc.msg_acked);
        PUT(b, fl->rc.snd);
        PUT(b, fl->rc.x->acks);
        PUT(b, fl->rc.blocked);
        PUT(b, fl->nheld);
        if (fl->nheld)
            put(b, fl->held, fl->nheld * sizeof *fl->held);
        if (fl->path != PATH_BASE)
            put(b, fl->path_pkts, ((size_t)1 << f->max_lmc) * sizeof *fl->path_pkts);
    }
    cnt = 0;
    for (uint32_t i = 0; i < f->nflows; i++)
        cnt += rside_here(f, d, &f->flows[i]);
    PUT(b, cnt);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow_stats *st = &f->flows[i].st;
        if (!rside_here(f, d, &f->flows[i]))
            continue;
        uint8_t own = owns_dst(f, d, &f->flows[i]);
        PUT(b, i);
        PUT(b, own);
        if (own) { /* deadlines and jitter: only the destination's rank has them */
            PUT(b, st->deadlines);
            PUT(b, st->jitter);
            PUT(b, st->vdl);
        }
        PUT(b, st->pkts_delivered);
        PUT(b, st->bytes_delivered);
        PUT(b, st->msgs_delivered);
        PUT(b, st->msg_is_e2e);
        put_hist(b, &st->net_latency);
        put_hist(b, &st->e2e_latency);
        if (!st->msg_is_e2e)
            put_hist(b, &st->msg_latency);
    }
    uint64_t ndl = d->ndl;
    PUT(b, ndl);
    if (ndl)
        put(b, d->dl, ndl * sizeof *d->dl);
}

/* Rank 0's own receive side, kept apart before the others' are merged into it. */
struct rside {
    uint64_t pkts, bytes, msgs;
    uint8_t e2e_only;
    struct histogram net, e2e, msg;
};

static void merge_rside(struct flow_stats *st, uint64_t pk, uint64_t by, uint64_t ms, uint8_t is_e2e,
                        const struct histogram *net, const struct histogram *e2e,
                        const struct histogram *msg)
{
    st->pkts_delivered += pk;
    st->bytes_delivered += by;
    st->msgs_delivered += ms;
    if (st->msg_is_e2e && !is_e2e) { /* from now on apart */
        hist_copy(&st->msg_latency, &st->e2e_latency);
        st->msg_is_e2e = 0;
    }
    if (!st->msg_is_e2e)
        hist_merge(&st->msg_latency, is_e2e ? e2e : msg);
    hist_merge(&st->net_latency, net);
    hist_merge(&st->e2e_latency, e2e);
}

static int dlv_cmp(const void *a, const void *b)
{
    const struct dlv *x = a, *y = b;
    if (x->flow != y->flow)
        return x->flow < y->flow ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void unpack_flows(struct fabric *f, struct dist *d, struct buf *b, struct dlv **dl, size_t *ndl,
                         size_t *capdl)
{
    uint32_t cnt;
    GET(b, cnt);
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t i;
        GET(b, i);
        struct flow *fl = &f->flows[i];
        struct flow_stats *st = &fl->st;
        GET(b, st->msgs_offered);
        GET(b, st->msgs_refused);
        GET(b, st->msgs_offered_measured);
        GET(b, st->msgs_refused_measured);
        GET(b, st->queue_area);
        GET(b, st->queue_last);
        GET(b, st->pkts_sent);
        GET(b, st->bytes_sent);
        GET(b, fl->qn);
        GET(b, fl->cur_open);
        GET(b, fl->svc_start);
        GET(b, fl->msg_seq);
        GET(b, fl->rc.psn_next);
        GET(b, fl->rc.psn_acked);
        GET(b, fl->rc.msg_begun);
        GET(b, fl->rc.msg_acked);
        GET(b, fl->rc.snd);
        uint64_t acks;
        GET(b, acks);
        if (fl->rc.x != &rc_ext_none) /* a UD flow's is the shared read-only one (no ACKs) */
            fl->rc.x->acks = acks;
        GET(b, fl->rc.blocked);
        GET(b, fl->nheld);
        if (fl->nheld > fl->held_cap)
            ibn_panic("distributed run: flow %s holds %u messages, more than its %u", fl->name,
                      fl->nheld, fl->held_cap);
        if (fl->nheld)
            get(b, fl->held, fl->nheld * sizeof *fl->held);
        if (fl->path != PATH_BASE)
            get(b, fl->path_pkts, ((size_t)1 << f->max_lmc) * sizeof *fl->path_pkts);
    }
    GET(b, cnt);
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t i;
        uint64_t pk, by, ms;
        uint8_t is_e2e;
        struct histogram net, e2e, msg;
        hist_init(&msg);
        GET(b, i);
        uint8_t own;
        GET(b, own);
        if (own) {
            GET(b, f->flows[i].st.deadlines);
            GET(b, f->flows[i].st.jitter);
            GET(b, f->flows[i].st.vdl);
        }
        GET(b, pk);
        GET(b, by);
        GET(b, ms);
        GET(b, is_e2e);
        get_hist(b, &net);
        get_hist(b, &e2e);
        if (!is_e2e)
            get_hist(b, &msg);
        merge_rside(&f->flows[i].st, pk, by, ms, is_e2e, &net, &e2e, &msg);
        hist_free(&net);
        hist_free(&e2e);
        hist_free(&msg);
    }
    uint64_t n;
    GET(b, n);
    if (!n)
        return;
    if (*ndl + n > *capdl) {
        *capdl = (*ndl + n) * 2;
        *dl = xrealloc(*dl, *capdl * sizeof **dl);
    }
    get(b, *dl + *ndl, n * sizeof **dl);
    *ndl += n;
    (void)d;
}

static void gather(struct fabric *f)
{
    struct dist *d = D(f);
    int nr = d->fd.nranks;
    /* Sums. */
    sum_u64((uint64_t *)&f->cnt, sizeof f->cnt / sizeof(uint64_t));
    sum_u64(&f->hops, 1);
    sum_u64(&d->msgs_sent, 1);
    sum_u64(&f->events, 1);
    sum_u64(f->events_by_type, 32);
    uint64_t *h = xcalloc((size_t)f->nhosts * 3 + 1, sizeof *h);
    for (int i = 0; i < f->nhosts; i++) {
        h[3 * i] = f->hosts[i].rx_bytes;
        h[3 * i + 1] = f->hosts[i].tx_bytes;
        h[3 * i + 2] = f->hosts[i].interval_rx;
    }
    sum_u64(h, (size_t)f->nhosts * 3);
    if (g_rank == 0)
        for (int i = 0; i < f->nhosts; i++) {
            f->hosts[i].rx_bytes = h[3 * i];
            f->hosts[i].tx_bytes = h[3 * i + 1];
            f->hosts[i].interval_rx = h[3 * i + 2];
        }
    free(h);
    /* Ports and flows, from each rank in turn. */
    if (g_rank != 0) {
        struct buf b = { 0 };
        pack_ports(f, d, &b);
        pack_flows(f, d, &b);
        if (f->hooks.dist_pack)
            f->hooks.dist_pack(f, d->part, d->fd.rank, io_put, &b);
        unsigned long long n = b.n;
        MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD);
        for (size_t off = 0; off < b.n; off += (size_t)1 << 30) {
            size_t len = b.n - off < ((size_t)1 << 30) ? b.n - off : (size_t)1 << 30;
            MPI_Send(b.b + off, (int)len, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
        free(b.b);
        return;
    }
    /* Rank 0's own deliveries first: its receive sides stay, the others' are merged in. */
    struct dlv *dl = NULL;
    size_t ndl = 0, capdl = 0;
    if (d->ndl) {
        capdl = d->ndl * 2;
        dl = xmalloc(capdl * sizeof *dl);
        memcpy(dl, d->dl, d->ndl * sizeof *dl);
        ndl = d->ndl;
    }
    for (int r = 1; r < nr; r++) {
        unsigned long long n;
        MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        struct buf b = { xmalloc(n + 1), n, n + 1, 0 };
        for (size_t off = 0; off < n; off += (size_t)1 << 30) {
            size_t len = n - off < ((size_t)1 << 30) ? n - off : (size_t)1 << 30;
            MPI_Recv(b.b + off, (int)len, MPI_BYTE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        unpack_ports(f, d, &b, r);
        unpack_flows(f, d, &b, &dl, &ndl, &capdl);
        if (f->hooks.dist_unpack)
            f->hooks.dist_unpack(f, d->part, r, io_get, &b);
        if (b.at != b.n)
            ibn_panic("distributed run: rank %d's statistics were not read whole", r);
        free(b.b);
    }
    /* The sums of the histograms of flows delivered on several ranks, in the sequential
     * order of the additions. */
    if (ndl)
        qsort(dl, ndl, sizeof *dl, dlv_cmp);
    for (size_t k = 0; k < ndl;) {
        struct flow_stats *st = &f->flows[dl[k].flow].st;
        double ns = 0, nq = 0, es = 0, eq = 0, ms = 0, mq = 0;
        size_t e = k;
        for (; e < ndl && dl[e].flow == dl[k].flow; e++) {
            ns += (double)dl[e].net;
            nq += (double)dl[e].net * (double)dl[e].net;
            es += (double)dl[e].e2e;
            eq += (double)dl[e].e2e * (double)dl[e].e2e;
            if (dl[e].last) {
                ms += (double)dl[e].e2e;
                mq += (double)dl[e].e2e * (double)dl[e].e2e;
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
    free(dl);
}

/* EV_SAMPLE (every rank handles it at the same key): the interval's delivered bytes per flow
 * and host, and every switch port's buffer use, summed at rank 0 before its observer writes
 * the time series. The window ended at the sample's time, so every transmission before it has
 * been exchanged, unless one at the sample's very time sorts before it (an event scheduled at
 * least a sample interval earlier sending across a cut: none in the engine, checked here). */
static void sample(struct fabric *f)
{
    struct dist *d = D(f);
    for (int r = 0; r < d->fd.nranks; r++)
        for (size_t k = 0; k < d->nout[r]; k++)
            if (d->out[r][k].kind == 1)
                ibn_panic("distributed run: a packet crossed ranks at the sample's time %lld ps before "
                          "the sample", (long long)f->now);
    size_t nf = f->nflows, nh = (size_t)f->nhosts, n = nf + nh + (size_t)d->nports;
    uint64_t *v = xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < nf; i++)
        v[i] = f->flows[i].st.interval_bytes;
    for (size_t h = 0; h < nh; h++)
        v[nf + h] = f->hosts[h].interval_rx;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *nd = f->nodes[i];
        if (!nd->is_switch || d->part[i] != d->fd.rank)
            continue;
        for (int p = 1; p <= nd->nports; p++) {
            int64_t used = 0;
            for (int s = 0; s < f->nvs; s++)
                used += nd->port[p].vl[s].rx_used;
            v[nf + nh + (size_t)d->pbase[i] + (size_t)p] = (uint64_t)used;
        }
    }
    sum_u64(v, n);
    if (f->hooks.dist_sample_get) { /* the plug-in's series (cc.csv) */
        int64_t *c = xcalloc(nf + 1, sizeof *c);
        f->hooks.dist_sample_get(f, d->part, d->fd.rank, c);
        sum_u64((uint64_t *)c, nf);
        if (d->fd.rank == 0)
            f->hooks.dist_sample_set(f, d->part, c);
        free(c);
    }
    if (d->fd.rank == 0) {
        for (size_t i = 0; i < nf; i++)
            f->flows[i].st.interval_bytes = v[i];
        for (size_t h = 0; h < nh; h++)
            f->hosts[h].interval_rx = v[nf + h];
        /* Another rank's switch ports: rank 0's copy shows their use (its first VL slot). */
        for (int i = 0; i < f->nnodes; i++) {
            struct node *nd = f->nodes[i];
            if (!nd->is_switch || d->part[i] == 0)
                continue;
            for (int p = 1; p <= nd->nports; p++) {
                for (int s = 0; s < f->nvs; s++)
                    nd->port[p].vl[s].rx_used = 0;
                nd->port[p].vl[0].rx_used = (int32_t)v[nf + nh + (size_t)d->pbase[i] + (size_t)p];
            }
        }
    } else { /* rank 0's observer resets its own */
        for (size_t i = 0; i < nf; i++)
            f->flows[i].st.interval_bytes = 0;
        for (size_t h = 0; h < nh; h++)
            f->hosts[h].interval_rx = 0;
    }
    free(v);
}

/* ---- set-up ---- */

int dist_attach(struct fabric *f, const struct topo *t, int method, struct ibn_err *e)
{
    if (f->until_delivered)
        return ibn_err_set(e, "simulation.until_delivered ends the run where one rank sees its last "
                              "flow reach the count: not available in a distributed run");
    struct dist *d = xcalloc(1, sizeof *d);
    d->part = xmalloc((size_t)t->nnodes * sizeof *d->part);
    struct partition_stats st;
    if (partition_topo(t, g_size, (enum partition_method)method, d->part, &st, e)) {
        free(d->part);
        free(d);
        return -1;
    }
    d->fd.rank = g_rank;
    d->fd.nranks = g_size;
    d->fd.part = d->part;
    d->pbase = xmalloc(((size_t)f->nnodes + 1) * sizeof *d->pbase);
    int np = 0;
    for (int i = 0; i < f->nnodes; i++) {
        d->pbase[i] = np;
        np += f->nodes[i]->nports + 1;
    }
    d->nports = np;
    d->cutix = xmalloc(((size_t)np + 1) * sizeof *d->cutix);
    simtime_t look = SIMTIME_NEVER;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 0; p <= n->nports; p++) {
            d->cutix[d->pbase[i] + p] = -1;
            struct port *pt = &n->port[p];
            if (p == 0 || !pt->peer || d->part[pt->peer->node->index] == d->part[i])
                continue;
            if (d->part[i] == g_rank) {
                d->cp = xrealloc(d->cp, ((size_t)d->ncp + 1) * sizeof *d->cp);
                memset(&d->cp[d->ncp], 0, sizeof *d->cp);
                d->cp[d->ncp].p = pt;
                d->cp[d->ncp].peer_rank = d->part[pt->peer->node->index];
                d->cutix[d->pbase[i] + p] = d->ncp++;
                pt->watch |= WATCH_CUT;
            }
            d->cut_cables++;
            if (pt->delay < look)
                look = pt->delay;
        }
    }
    d->cut_cables /= 2;
    if (look == 0)
        return ibn_err_set(e, "a cut cable has no propagation delay: the distributed mode needs a "
                           "delay on every cable between switches of different ranks");
    d->fd.lookahead = look;
    d->out = xcalloc((size_t)g_size, sizeof *d->out);
    d->nout = xcalloc((size_t)g_size, sizeof *d->nout);
    d->capout = xcalloc((size_t)g_size, sizeof *d->capout);
    d->touched = xmalloc(((size_t)d->ncp + 1) * sizeof *d->touched);
    d->multi = xcalloc((size_t)f->nflows + 1, 1);
    for (uint32_t i = 0; i < f->nflows; i++)
        d->multi[i] = f->flows[i].dst_host < 0;
    d->window = 1;
    d->fd.send_packet = send_packet;
    d->fd.freed = freed;
    d->fd.watch = watch;
    d->fd.absorbed = absorbed;
    d->fd.delivered = delivered;
    d->fd.reduce_min = reduce_min;
    d->fd.reduce_sum = reduce_sum;
    d->fd.window = window;
    d->fd.exchange = exchange;
    d->fd.gather = gather;
    d->fd.sample = sample;
    f->dist = &d->fd;
    return 0;
}

void dist_describe(const struct fabric *f, char *buf, size_t len)
{
    const struct dist *d = (const struct dist *)f->dist;
    if (!d) {
        snprintf(buf, len, "sequential");
        return;
    }
    unsigned long long msgs = d->msgs_sent, wins = d->windows; /* over all ranks after gather */
    snprintf(buf, len, "%d ranks, %lld cut cables, window %.3f ns, %llu windows, %llu messages",
             d->fd.nranks, d->cut_cables, (double)d->fd.lookahead / 1e3, wins, msgs);
}

int dist_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
             struct ibn_err *e)
{
    int rc = fabric_run(f, obs, r, e);
    /* Rank 0 checked the invariants on the gathered state: every rank returns its verdict. */
    int v[2] = { rc, (int)r->outcome };
    MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(r->violations, (int)sizeof r->violations, MPI_CHAR, 0, MPI_COMM_WORLD);
    r->outcome = (enum run_outcome)v[1];
    if (v[0] && g_rank != 0)
        ibn_err_set(e, "a model invariant is broken:\n%s", r->violations);
    return v[0];
}

void dist_detach(struct fabric *f)
{
    struct dist *d = D(f);
    if (!d)
        return;
    for (int i = 0; i < d->ncp; i++) {
        free(d->cp[i].log);
        free(d->cp[i].fr);
        free(d->cp[i].in);
    }
    for (int r = 0; r < d->fd.nranks; r++)
        free(d->out[r]);
    free(d->out);
    free(d->nout);
    free(d->capout);
    free(d->inbuf);
    free(d->cp);
    free(d->cutix);
    free(d->pbase);
    free(d->part);
    free(d->touched);
    free(d->multi);
    free(d->dl);
    free(d);
    f->dist = NULL;
}

#endif

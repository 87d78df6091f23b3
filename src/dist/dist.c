/* dist.c: one run over MPI ranks (dist.h, docs/distributed.md section 3): the cut ports'
 * messages, the windows' exchange, the replays that make the receiving side's state what the
 * sequential run's would be, and the gathering of statistics at rank 0. */
#include "dist/dist.h"
#include "dist/partition.h"
#include "dist/walk.h"
#include "dist/dist_int.h"
#include "core/output.h"
#include "fabric/drop.h"
#include "fabric/period.h"
#include "fabric/swarch.h"

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
void dist_set_timeout(double seconds) { (void)seconds; }
void dist_on_abort(void (*fn)(void *arg), void *arg)
{
    (void)fn;
    (void)arg;
}
int dist_partition(const struct topo *t, int method, int **part, struct ibn_err *e)
{
    (void)t;
    (void)method;
    *part = NULL;
    return ibn_err_set(e, "ibnetsim was built without MPI (libopenmpi-dev): no distributed mode");
}
int dist_attach(struct fabric *f, const struct topo *t, struct lfts *l, int *part, struct ibn_err *e)
{
    (void)f;
    (void)t;
    (void)l;
    free(part);
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
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

static int g_inited, g_size = 1, g_rank;
static double g_timeout = DIST_TIMEOUT_DEFAULT; /* seconds a rank waits for the others; 0: for ever */

static void (*g_abort_fn)(void *arg);
static void *g_abort_arg;

void dist_set_timeout(double seconds)
{
    g_timeout = seconds;
}

void dist_on_abort(void (*fn)(void *arg), void *arg)
{
    g_abort_fn = fn;
    g_abort_arg = arg;
}

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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

static struct dist *D(struct fabric *f)
{
    return (struct dist *)f->dist;
}

/* A rank waiting for the others spins on MPI_Test (inside which Open MPI yields the core when
 * mpirun sees more ranks than slots: mpi_yield_when_idle); past the timeout it aborts the run
 * (a rank stuck in a loop, stopped or dead: waiting for ever would hang the whole run without
 * a word). Yielding or sleeping here as well was measured slower (bench/bench_window.c,
 * bench/distributed.md): on a machine shared with other processes the core goes to them, and
 * every window then waits for the scheduler. `what` and the window name the place. */
struct waiter {
    double t0;
    unsigned k;
};

static void wait_more(struct fabric *f, struct waiter *w, const char *what)
{
    struct dist *d = D(f);
    if (w->k++ == 0) {
        w->t0 = mono_s();
        return;
    }
    if (w->k % 256 || g_timeout <= 0 || mono_s() - w->t0 <= g_timeout)
        return;
    fprintf(stderr, "ibnetsim run: distributed run: rank %d of %d waited %g s for the other "
            "ranks in %s of window %llu (simulated time up to %.6f us) and stops the run: a "
            "rank is stuck, stopped or dead (--rank-timeout SECONDS sets the wait, 0 = "
            "for ever)\n", d->fd.rank, d->fd.nranks, g_timeout, what,
            (unsigned long long)d->windows, (double)d->wend / 1e6);
    fflush(stderr);
    if (g_abort_fn) /* rank 0's temporary results folder */
        g_abort_fn(g_abort_arg);
    MPI_Abort(MPI_COMM_WORLD, IBN_EXIT_RANK_TIMEOUT);
    _exit(IBN_EXIT_RANK_TIMEOUT);
}

/* The wait is over: its time counts in the rank's waiting (dist_describe). */
static void wait_done(struct fabric *f, const struct waiter *w)
{
    struct dist *d = D(f);
    if (w->k) {
        d->wait_s += mono_s() - w->t0;
        d->waits++;
    }
}

/* Completes a collective operation (the sums and reductions outside the windows' exchange). */
static void wait_ranks(struct fabric *f, MPI_Request *rq, const char *what)
{
    struct waiter w = { 0, 0 };
    for (;;) {
        int done = 0;
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        wait_more(f, &w, what);
    }
    wait_done(f, &w);
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

/* First touch in this window as a sender (its credit ring, its credit_watch). */
static void touch_tx(struct dist *d, struct cport *c)
{
    if (c->stamp_tx == d->window)
        return;
    touch(d, c);
    c->stamp_tx = d->window;
    c->w0 = c->p->credit_watch;
    c->low0 = (uint8_t)dist_low_head(d, c->p);
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
    if (p->wire_bytes < c->min_wire && p->vl != VL15) { /* a smaller packet: its credits may come back sooner */
        c->min_wire = p->wire_bytes;
        simtime_t w = dist_credit_width(f, c);
        if (w < d->cred_width)
            d->cred_width = w;
    }
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
    int low = dist_low_head(d, p);
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
        c->low0 = n > 0 || dist_low_head(d, p);
    }
    if (c->low0 && !c->cleared && !dist_low_head(d, p)) {
        c->cleared = 1;
        c->ct = t;
        c->cseq = seq;
    }
}

/* Append a delivery to a log (grown by doubling). */
static void dlv_push(struct dlv_list *l, struct dlv x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->a = xrealloc(l->a, l->cap * sizeof *l->a);
    }
    l->a[l->n++] = x;
}

static void delivered(struct fabric *f, uint32_t flow, int64_t net, int64_t e2e, int last)
{
    struct dist *d = D(f);
    if (d->multi[flow])
        dlv_push(&d->dl, (struct dlv){ f->now, f->now_seq, net < 0 ? 0 : net, e2e < 0 ? 0 : e2e,
                                       flow, (uint32_t)last });
}

/* A copy of a delivery log with room to grow. */
static struct dlv_list dlv_copy(const struct dlv_list *from)
{
    struct dlv_list l = { NULL, 0, 0 };
    if (from->n) {
        l.cap = from->n * 2;
        l.a = xmalloc(l.cap * sizeof *l.a);
        memcpy(l.a, from->a, from->n * sizeof *l.a);
        l.n = from->n;
    }
    return l;
}

static void posted_delivered(struct fabric *f, uint32_t flow, uint32_t msg)
{
    dlv_push(&D(f)->pl, (struct dlv){ f->now, f->now_seq, (int64_t)msg, 0, flow, 0 });
}

static void judged(struct fabric *f, uint32_t flow, simtime_t created, int measured)
{
    dlv_push(&D(f)->jl, (struct dlv){ f->now, f->now_seq, created, measured, flow, 0 });
}

static simtime_t reduce_min(struct fabric *f, simtime_t v)
{
    long long x = (long long)v, y;
    MPI_Request rq;
    MPI_Iallreduce(&x, &y, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD, &rq);
    wait_ranks(f, &rq, "the reduction of the next event time");
    return (simtime_t)y;
}

static uint64_t reduce_sum(struct fabric *f, uint64_t v)
{
    unsigned long long x = v, y;
    MPI_Request rq;
    MPI_Iallreduce(&x, &y, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq);
    wait_ranks(f, &rq, "a reduction of counts");
    return y;
}

static void window(struct fabric *f, simtime_t wend)
{
    struct dist *d = D(f);
    d->window++;
    d->windows++;
    if (d->windows == d->stall_window && d->fd.rank == d->stall_rank) { /* the test hook */
        fprintf(stderr, "ibnetsim run: IBNETSIM_DIST_STALL: rank %d stops at window %llu\n",
                d->fd.rank, (unsigned long long)d->windows);
        for (;;)
            sleep(60);
    }
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

/* The exchange's MPI state, kept across windows (no allocation per window). */
struct xmpi {
    MPI_Request *sreq;
    MPI_Message *msg;
    int *len;                /* bytes from each rank; -1 until its message is matched */
};

enum { TAG_WINDOW = 7 };

/* A window ends (or, first, the run starts): one message to every other rank, a header and
 * the records that crossed, and one from each; no collective operation. The header says
 * where the sender's next event is at the earliest (its queue's first event, what it sends,
 * and a credit return of its own that the replay below may wake) and its bound on the delay
 * of credit returns; every rank takes the least of all, so the ranks agree on the next
 * window's start (at most the earliest event of any rank) and width. */
static simtime_t exchange(struct fabric *f, simtime_t *width)
{
    struct dist *d = D(f);
    struct xmpi *x = d->mpi;
    int nr = d->fd.nranks, me = d->fd.rank;
    simtime_t next = eventq_peek_time(&f->q);
    size_t total_out = 0;
    for (int r = 0; r < nr; r++) {
        for (size_t k = 1; k < d->nout[r]; k++) {
            struct dmsg *m = &d->out[r][k];
            if (m->kind == 1) {
                m->pkt = *pkt(&f->pool, m->pidx);
                pktpool_release(&f->pool, m->pidx);
            }
            if (m->t < next)
                next = m->t;
        }
        if (r != me)
            total_out += d->nout[r] - 1;
    }
    /* The replay may wake the head of a sender's credit ring (it lands at or after the
     * window's end: one landing inside was woken inside). */
    for (int k = 0; k < d->ntouched; k++) {
        const struct cport *c = &d->cp[d->touched[k]];
        if (c->stamp_tx == d->window && c->p->cret_n) {
            simtime_t t = c->p->cret[c->p->cret_head].t;
            if (t < d->wend)
                t = d->wend;
            if (t < next)
                next = t;
        }
    }
    d->msgs_sent += total_out;
    for (int r = 0; r < nr; r++) {
        if (r == me)
            continue;
        struct dmsg *h = &d->out[r][0];
        memset(h, 0, sizeof *h);
        h->t = next;
        h->kt = d->cred_width;
        h->pid = (uint32_t)(d->nout[r] - 1);
        MPI_Isend(d->out[r], (int)(d->nout[r] * sizeof(struct dmsg)), MPI_BYTE, r, TAG_WINDOW,
                  MPI_COMM_WORLD, &x->sreq[r]);
        x->len[r] = -1;
    }
    /* Every other rank's message: matched as it comes, received in rank order. */
    struct waiter w = { 0, 0 };
    for (int left = nr - 1; left > 0;) {
        for (int r = 0; r < nr; r++) {
            if (r == me || x->len[r] >= 0)
                continue;
            int flag = 0;
            MPI_Status st;
            MPI_Improbe(r, TAG_WINDOW, MPI_COMM_WORLD, &flag, &x->msg[r], &st);
            if (flag) {
                MPI_Get_count(&st, MPI_BYTE, &x->len[r]);
                left--;
            }
        }
        if (left)
            wait_more(f, &w, "the exchange of messages");
    }
    size_t nin = 0;
    for (int r = 0; r < nr; r++)
        if (r != me)
            nin += (size_t)x->len[r] / sizeof(struct dmsg);
    if (nin > d->capin) {
        d->capin = nin * 2;
        d->inbuf = xrealloc(d->inbuf, d->capin * sizeof *d->inbuf);
    }
    size_t at = 0;
    for (int r = 0; r < nr; r++) {
        if (r == me)
            continue;
        MPI_Mrecv(d->inbuf + at, x->len[r], MPI_BYTE, &x->msg[r], MPI_STATUS_IGNORE);
        at += (size_t)x->len[r] / sizeof(struct dmsg);
    }
    for (int done = 0; nr > 1 && !done;) {
        MPI_Testall(nr, x->sreq, &done, MPI_STATUSES_IGNORE); /* own slot: MPI_REQUEST_NULL */
        if (!done)
            wait_more(f, &w, "the exchange of messages");
    }
    wait_done(f, &w);
    for (int r = 0; r < nr; r++)
        d->nout[r] = 1;
    d->in_window = 0;
    /* Packets into the pool and the queue; every record to its port's list. */
    simtime_t cred = d->cred_width;
    for (size_t k = 0; k < nin; k++) {
        struct dmsg *m = &d->inbuf[k];
        if (m->kind == 0) { /* a rank's header */
            if (m->t < next)
                next = m->t;
            if (m->kt < cred)
                cred = m->kt;
            continue;
        }
        int ci = d->cutix[m->pid];
        if (ci < 0)
            ibn_panic("distributed run: a message for port id %u, which is not cut", m->pid);
        struct cport *c = &d->cp[ci];
        port_in(d, c, (uint32_t)k);
        if (m->kind == 1) {
            struct port *q = c->p;
            uint32_t idx = pktpool_alloc(&f->pool);
            struct packet *p = pkt(&f->pool, idx);
            *p = m->pkt;
            p->next = PKT_NIL;
            struct port_vl *v = &q->vl[m->slot];
            v->ctr.rcv_bytes += m->pkt.wire_bytes;
            v->ctr.rcv_pkts++;
            v->rx_used += m->credits;
            eventq_push_seq_on(&f->q, (uint32_t)q->node->index, m->t, m->seq, m->type, q, idx, 0);
        }
    }
    for (int k = 0; k < d->ntouched; k++) {
        struct cport *c = &d->cp[d->touched[k]];
        dist_replay_rx(d, c, d->inbuf);
        dist_replay_credits(f, d, c, d->inbuf);
    }
    d->ntouched = 0;
    d->window++; /* stamps of this window no longer match */
    d->cred_all = cred;
    d->width = cred < d->fd.lookahead ? cred : d->fd.lookahead;
    *width = d->width;
    return next;
}

/* ---- gathering at rank 0 ---- */

static void sum_u64(struct fabric *f, uint64_t *v, size_t n)
{
    if (!n)
        return;
    uint64_t *o = xmalloc(n * sizeof *o);
    MPI_Request rq;
    MPI_Ireduce(v, o, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD, &rq);
    wait_ranks(f, &rq, "a sum at rank 0");
    if (g_rank == 0)
        memcpy(v, o, n * sizeof *o);
    free(o);
}

static void gather(struct fabric *f)
{
    struct dist *d = D(f);
    int nr = d->fd.nranks;
    /* Sums. */
    sum_u64(f, (uint64_t *)&f->cnt, sizeof f->cnt / sizeof(uint64_t));
    sum_u64(f, &f->hops, 1);
    sum_u64(f, &d->msgs_sent, 1);
    d->wait_us = xcalloc((size_t)nr, sizeof *d->wait_us); /* each rank's waiting, for dist_describe */
    d->wait_us[d->fd.rank] = (uint64_t)(d->wait_s * 1e6 + 0.5);
    sum_u64(f, d->wait_us, (size_t)nr);
    sum_u64(f, &f->events, 1);
    sum_u64(f, f->events_by_type, 32);
    uint64_t *h = xcalloc((size_t)f->nhosts * 3 + 1, sizeof *h);
    for (int i = 0; i < f->nhosts; i++) {
        h[3 * i] = f->hosts[i].rx_bytes;
        h[3 * i + 1] = f->hosts[i].tx_bytes;
        h[3 * i + 2] = f->hosts[i].interval_rx;
    }
    sum_u64(f, h, (size_t)f->nhosts * 3);
    if (g_rank == 0)
        for (int i = 0; i < f->nhosts; i++) {
            f->hosts[i].rx_bytes = h[3 * i];
            f->hosts[i].tx_bytes = h[3 * i + 1];
            f->hosts[i].interval_rx = h[3 * i + 2];
        }
    free(h);
    /* Each flow's balance of data packets made and gone (fabric_pkt_made, fabric_pkt_gone):
     * made where its source sends or a switch copies, gone wherever the packet ends, so only
     * the sum over the ranks balances (modulo 2^64: a rank's share may be negative). */
    uint64_t *bal = xcalloc((size_t)f->nflows + 1, sizeof *bal);
    for (uint32_t i = 0; i < f->nflows; i++)
        bal[i] = (uint64_t)f->flows[i].in_fabric;
    sum_u64(f, bal, f->nflows);
    if (g_rank == 0)
        for (uint32_t i = 0; i < f->nflows; i++)
            f->flows[i].in_fabric = (int64_t)bal[i];
    free(bal);
    /* Ports, flows and the plug-in's state, from each rank in turn: each walked by one walker
     * (dist/walk.h, fabric/distio.h) that packs here and unpacks at rank 0. */
    if (g_rank != 0) {
        struct dist_io io = { .dir = DIST_PACK };
        dist_walk_ports(f, d->part, d->fd.rank, &io);
        dist_walk_flows(f, d->part, d->fd.rank, &io, &d->dl, &d->pl);
        dist_walk_dlv(&io, &d->jl);
        if (f->hooks.dist_walk)
            f->hooks.dist_walk(f, d->part, d->fd.rank, &io);
        dist_walk_watch(f, &io, d->fd.rank);
        unsigned long long n = io.n;
        MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD);
        for (size_t off = 0; off < io.n; off += (size_t)1 << 30) {
            size_t len = io.n - off < ((size_t)1 << 30) ? io.n - off : (size_t)1 << 30;
            MPI_Send(io.b + off, (int)len, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
        dist_io_free(&io);
        return;
    }
    /* Rank 0's own deliveries first: its receive sides stay, the others' are merged in. */
    struct dlv_list dl = dlv_copy(&d->dl), pl = dlv_copy(&d->pl), jl = dlv_copy(&d->jl);
    for (int r = 1; r < nr; r++) {
        unsigned long long n;
        MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        struct dist_io io = { .dir = DIST_UNPACK, .b = xmalloc(n + 1), .n = n, .cap = n + 1 };
        for (size_t off = 0; off < n; off += (size_t)1 << 30) {
            size_t len = n - off < ((size_t)1 << 30) ? n - off : (size_t)1 << 30;
            MPI_Recv(io.b + off, (int)len, MPI_BYTE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        dist_walk_ports(f, d->part, r, &io);
        dist_walk_flows(f, d->part, r, &io, &dl, &pl);
        dist_walk_dlv(&io, &jl);
        if (f->hooks.dist_walk)
            f->hooks.dist_walk(f, d->part, r, &io);
        dist_walk_watch(f, &io, r);
        if (!dist_io_done(&io))
            ibn_panic("distributed run: rank %d's statistics were not read whole", r);
        dist_io_free(&io);
    }
    /* The sums of the histograms of flows delivered on several ranks, in the sequential
     * order of the additions. */
    dist_replay_sums(f, &dl);
    free(dl.a);
    dist_replay_posted(f, &pl);
    free(pl.a);
    dist_replay_judged(f, &jl);
    free(jl.a);
    dist_watch_replay(f);
}

/* output.counter_series: the counters of every port at time t summed at rank 0 (each rank
 * gives its own nodes' ports, from `snap` / `sent` when given (a period snapshot), else as
 * they stand at t), where counters.csv reads them (counts_at). A double travels as its bits:
 * the sum is exact, only the port's rank giving it. */
static void gather_counts(struct fabric *f, simtime_t t, const struct port_counts *snap, const double *sent)
{
    struct dist *d = D(f);
    const struct period *pd = f->period;
    size_t nv = (size_t)f->nvs, per = sizeof(struct port_counts) / sizeof(uint64_t);
    size_t np = (size_t)pd->nports, n = np * nv * per + np;
    _Static_assert(sizeof(struct port_counts) % sizeof(uint64_t) == 0, "whole words");
    uint64_t *v = xcalloc(n + 1, sizeof *v);
    struct port_counts *c = (struct port_counts *)v;
    for (int i = 0; i < f->nnodes; i++) {
        if (d->part[i] != d->fd.rank)
            continue;
        struct node *nd = f->nodes[i];
        for (int p = 1; p <= nd->nports; p++) {
            size_t ix = (size_t)pd->base[i] + (size_t)p - 1;
            double s;
            if (snap) {
                memcpy(&c[ix * nv], &snap[ix * nv], nv * sizeof *c);
                s = sent[ix];
            } else
                s = port_counts_at(f, &nd->port[p], t, &c[ix * nv]);
            memcpy(&v[np * nv * per + ix], &s, sizeof s);
        }
    }
    sum_u64(f, v, n);
    if (d->fd.rank == 0) {
        if (!d->ctr) {
            d->ctr = xmalloc(np * nv * sizeof *d->ctr + 1);
            d->ctr_sent = xmalloc(np * sizeof *d->ctr_sent + 1);
        }
        memcpy(d->ctr, c, np * nv * sizeof *d->ctr);
        memcpy(d->ctr_sent, &v[np * nv * per], np * sizeof *d->ctr_sent);
        d->ctr_t = t;
    }
    free(v);
}

static void snapshot(struct fabric *f, int k)
{
    if (f->dist->counters)
        gather_counts(f, f->period->at[k], f->period->snap[k], f->period->sent[k]);
}

static int counts_at(const struct fabric *f, simtime_t t, const struct port_counts **c, const double **sent)
{
    const struct dist *d = (const struct dist *)f->dist;
    if (!d->ctr || d->ctr_t != t)
        return 0;
    *c = d->ctr;
    *sent = d->ctr_sent;
    return 1;
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
        for (size_t k = 1; k < d->nout[r]; k++)
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
    sum_u64(f, v, n);
    if (f->hooks.dist_sample_get) { /* the plug-in's series (cc.csv) */
        int64_t *c = xcalloc(nf + 1, sizeof *c);
        f->hooks.dist_sample_get(f, d->part, d->fd.rank, c);
        sum_u64(f, (uint64_t *)c, nf);
        if (d->fd.rank == 0)
            f->hooks.dist_sample_set(f, d->part, c);
        free(c);
    }
    if (d->fd.counters)
        gather_counts(f, f->now, NULL, NULL);
    if (d->fd.queues) {
        struct sw_usage u = { 0, 0, 0 };
        for (int i = 0; i < f->nnodes; i++)
            if (f->nodes[i]->is_switch && d->part[i] == d->fd.rank)
                sw_usage_add(f, node_sw(f->nodes[i]), &u);
        uint64_t w[3] = { u.queues, u.cam_lines, u.ports_exhausted };
        sum_u64(f, w, 3);
        memcpy(d->fd.usage, w, sizeof w);
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

/* Set-up is over (fabric_run calls it after its checks): what only other ranks' nodes need and
 * the build still made is freed, so that a rank's memory holds the heavy per-switch and
 * per-flow state of its part only: the switches' input memory (sw_release: the architecture's
 * queues, 44 KiB per 36-port VOQ switch on two VLs; the build already released them when it
 * knew the partition, run_desc.own_part), their forwarding-table rows (one byte per LID: the
 * checks before the run read every switch's), and the flows' random generators (MT19937,
 * 5 KiB each) of sources on other ranks (not made when the build knew the partition). What stays replicated: the
 * nodes, ports and their per-VL lines (rank 0 gathers every rank's into its own copy and writes
 * them), the flows' statistics (every rank records its deliveries of any flow), the counter
 * snapshots. docs/distributed.md section 3, "Memory". */
static void trim(struct fabric *f)
{
    struct dist *d = D(f);
    if (d->trimmed)
        return;
    d->trimmed = 1;
    dist_watch_start(f);
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (!n->is_switch || d->part[i] == d->fd.rank)
            continue;
        struct sw *s = node_sw(n);
        sw_release(s);
        if (d->lfts && i < d->lfts->nnodes && d->lfts->table && d->lfts->table[i] == s->lft) {
            free(d->lfts->table[i]);
            d->lfts->table[i] = NULL;
        }
        s->lft = NULL;
    }
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (d->part[fl->src->node->index] != d->fd.rank && fl->rng) {
            gsl_rng_free(fl->rng);
            fl->rng = NULL;
        }
    }
#ifdef __GLIBC__
    malloc_trim(0); /* the freed rows back to the system before the run's packets and events */
#endif
}

int dist_partition(const struct topo *t, int method, int **part, struct ibn_err *e)
{
    *part = xmalloc(((size_t)t->nnodes + 1) * sizeof **part);
    struct partition_stats st;
    if (partition_topo(t, g_size, (enum partition_method)method, *part, &st, e)) {
        free(*part);
        *part = NULL;
        return -1;
    }
    return 0;
}

int dist_attach(struct fabric *f, const struct topo *t, struct lfts *l, int *part, struct ibn_err *e)
{
    (void)t;
    if (f->until_delivered)
        return ibn_err_set(e, "simulation.until_delivered ends the run where one rank sees its last "
                              "flow reach the count: not available in a distributed run");
    struct dist *d = xcalloc(1, sizeof *d);
    d->lfts = l;
    d->part = part;
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
    simtime_t look = SIMTIME_NEVER, pkt_look = SIMTIME_NEVER;
    uint8_t *unrouted = xcalloc((size_t)f->nnodes + 1, 1); /* 1 routes every host, 2 misses one */
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
                d->cutix[d->pbase[i] + p] = d->ncp;
                dist_set_peer(f, &d->cp[d->ncp++], unrouted);
                pt->watch |= WATCH_CUT;
            }
            d->cut_cables++;
            if (pt->delay < look)
                look = pt->delay;
            /* A packet sent here acts at the far end one delay later, plus the receiving
             * switch's latency before it is routed (an adapter: when its tail is in). */
            const struct node *pn = pt->peer->node;
            simtime_t pl = pt->delay + (pn->is_switch ? node_sw((struct node *)pn)->latency : 0);
            if (pl < pkt_look)
                pkt_look = pl;
        }
    }
    free(unrouted);
    d->cut_cables /= 2;
    if (look == 0) { /* nothing attached: the ports unmarked, the partition still the caller's */
        for (int i = 0; i < d->ncp; i++)
            d->cp[i].p->watch &= (uint8_t)~WATCH_CUT;
        free(d->cp);
        free(d->cutix);
        free(d->pbase);
        free(d);
        return ibn_err_set(e, "a cut cable has no propagation delay: the distributed mode needs a "
                           "delay on every cable between switches of different ranks");
    }
    d->fd.lookahead = pkt_look;
    d->cred_width = d->cred_all = SIMTIME_NEVER;
    d->width = pkt_look;
    d->out = xcalloc((size_t)g_size, sizeof *d->out);
    d->nout = xcalloc((size_t)g_size, sizeof *d->nout);
    d->capout = xcalloc((size_t)g_size, sizeof *d->capout);
    for (int r = 0; r < g_size; r++) { /* each rank's records start with a header */
        d->capout[r] = 64;
        d->out[r] = xcalloc(d->capout[r], sizeof **d->out);
        d->nout[r] = 1;
    }
    struct xmpi *x = xcalloc(1, sizeof *x);
    x->sreq = xmalloc((size_t)g_size * sizeof *x->sreq);
    x->msg = xmalloc((size_t)g_size * sizeof *x->msg);
    x->len = xcalloc((size_t)g_size, sizeof *x->len);
    for (int r = 0; r < g_size; r++)
        x->sreq[r] = MPI_REQUEST_NULL;
    d->mpi = x;
    d->touched = xmalloc(((size_t)d->ncp + 1) * sizeof *d->touched);
    d->multi = xcalloc((size_t)f->nflows + 1, 1);
    for (uint32_t i = 0; i < f->nflows; i++)
        d->multi[i] = f->flows[i].dst_host < 0;
    d->window = 1;
    d->stall_rank = -1;
    d->fd.send_packet = send_packet;
    d->fd.freed = freed;
    d->fd.watch = watch;
    d->fd.absorbed = absorbed;
    d->fd.delivered = delivered;
    d->fd.posted_delivered = posted_delivered;
    d->fd.judged = judged;
    d->fd.reduce_min = reduce_min;
    d->fd.reduce_sum = reduce_sum;
    d->fd.trim = trim;
    d->fd.window = window;
    d->fd.exchange = exchange;
    d->fd.gather = gather;
    d->fd.sample = sample;
    d->fd.snapshot = snapshot;
    d->fd.counts_at = counts_at;
    f->dist = &d->fd;
    const char *stall = getenv("IBNETSIM_DIST_STALL");
    if (stall && *stall) {
        int r;
        unsigned long long w;
        char c;
        if (sscanf(stall, "%d:%llu%c", &r, &w, &c) != 2 || r < 0 || w < 1) {
            d->part = NULL; /* the caller's again */
            dist_detach(f);
            return ibn_err_set(e, "IBNETSIM_DIST_STALL=\"%s\": expected RANK:WINDOW (a rank that "
                               "stops at that window, for testing --rank-timeout)", stall);
        }
        d->stall_rank = r;
        d->stall_window = w;
    }
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
    double bytes = (double)msgs * (double)sizeof(struct dmsg);
    int n = snprintf(buf, len, "%d ranks, %lld cut cables, window %.3f ns (packets %.3f ns, credit "
                     "returns ", d->fd.nranks, d->cut_cables, (double)d->width / 1e3,
                     (double)d->fd.lookahead / 1e3);
    if (n >= 0 && (size_t)n < len)
        n += d->cred_all == SIMTIME_NEVER ? snprintf(buf + n, len - (size_t)n, "none")
                                          : snprintf(buf + n, len - (size_t)n, "%.3f ns",
                                                     (double)d->cred_all / 1e3);
    if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "), %llu windows, %llu messages (%zu-byte records: "
                      "%.4g bytes, %.4g per window); waited for the other ranks", wins, msgs,
                      sizeof(struct dmsg), bytes, wins ? bytes / (double)wins : 0.0);
    for (int r = 0; r < d->fd.nranks && d->wait_us && n >= 0 && (size_t)n < len; r++)
        n += snprintf(buf + n, len - (size_t)n, "%s %.3f s", r ? "," : "", (double)d->wait_us[r] / 1e6);
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
    free(d->wait_us);
    free(d->ctr);
    free(d->ctr_sent);
    free(d->wlog);
    free(d->dl.a);
    free(d->pl.a);
    free(d->jl.a);
    free(d->scr);
    free(d->scw);
    struct xmpi *x = d->mpi;
    if (x) {
        free(x->sreq);
        free(x->msg);
        free(x->len);
        free(x);
    }
    free(d);
    f->dist = NULL;
}

#endif

/* watchlog.c: the packet capture and the timeline of a distributed run (output.capture_*,
 * output.timeline_*). Each rank logs what its events tell the capture (a packet starting on a
 * watched link) and the timeline (its notes), with the key of the event being handled; after
 * the run rank 0 gathers the logs, puts them in key order (the order in which the sequential
 * run handles the events; within one event, the order they were told, which one rank saw) and
 * tells its own capture and timeline, the fabric's time set to each event's: capture.pcap,
 * capture.csv and timeline.json are the sequential run's, written at the end instead of as the
 * run goes. No MPI here: dist.c moves the logs with the other gathered state. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/dist_int.h"

struct wrec {
    simtime_t now;   /* the time of the event that told it */
    evseq_t seq;     /* that event's scheduling number */
    uint64_t k;      /* the logging rank's count: the order within the event */
    simtime_t t;     /* a note's time (timeline) */
    int64_t a, b;
    int32_t node, port;
    uint16_t rank;
    uint8_t kind;    /* 0 capture, 1 timeline note */
    uint8_t note, has_pkt;
    struct packet p;
};

static struct dist *DW(struct fabric *f)
{
    return (struct dist *)f->dist;
}

static struct wrec *push(struct fabric *f, int kind, const struct port *at, const struct packet *p)
{
    struct dist *d = DW(f);
    if (d->nw == d->capw) {
        d->capw = d->capw ? 2 * d->capw : 1024;
        d->wlog = xrealloc(d->wlog, d->capw * sizeof *d->wlog);
    }
    struct wrec *r = &d->wlog[d->nw];
    memset(r, 0, sizeof *r);
    r->now = f->now;
    r->seq = f->now_seq;
    r->k = d->nw++;
    r->node = at->node->index;
    r->port = at->num;
    r->rank = (uint16_t)d->fd.rank;
    r->kind = (uint8_t)kind;
    if (p) {
        r->has_pkt = 1;
        r->p = *p;
    }
    return r;
}

static void log_capture(struct fabric *f, const struct port *out, const struct packet *p)
{
    push(f, 0, out, p);
}

static void log_note(struct fabric *f, int note, const struct port *at, const struct packet *p,
                     simtime_t t, int64_t a, int64_t b)
{
    if (!(at->watch & WATCH_TIMELINE))
        return; /* the timeline would leave it out (the watch bits are the same on every rank) */
    struct wrec *r = push(f, 1, at, p);
    r->note = (uint8_t)note;
    r->t = t;
    r->a = a;
    r->b = b;
}

void dist_watch_start(struct fabric *f)
{
    struct dist *d = DW(f);
    d->capture_real = f->capture_fn; /* rank 0's; NULL elsewhere */
    d->timeline_real = f->timeline_fn;
    if (d->fd.capture)
        f->capture_fn = log_capture;
    if (d->fd.timeline)
        f->timeline_fn = log_note;
}

void dist_walk_watch(struct fabric *f, struct dist_io *io, int rank)
{
    struct dist *d = DW(f);
    if (!d->fd.capture && !d->fd.timeline)
        return;
    uint64_t n = d->nw;
    if (io->dir == DIST_PACK) {
        DIST_IO(io, n);
        dist_io_bytes(io, d->wlog, n * sizeof *d->wlog);
        return;
    }
    DIST_IO(io, n);
    if (d->nw + n > d->capw) {
        d->capw = d->nw + n;
        d->wlog = xrealloc(d->wlog, d->capw * sizeof *d->wlog);
    }
    dist_io_bytes(io, d->wlog + d->nw, n * sizeof *d->wlog);
    for (uint64_t i = 0; i < n; i++)
        d->wlog[d->nw + i].rank = (uint16_t)rank;
    d->nw += n;
}

static int cmp_rec(const void *x, const void *y)
{
    const struct wrec *a = x, *b = y;
    if (dist_key_lt(a->now, a->seq, b->now, b->seq))
        return -1;
    if (dist_key_lt(b->now, b->seq, a->now, a->seq))
        return 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

void dist_watch_replay(struct fabric *f)
{
    struct dist *d = DW(f);
    if (d->fd.rank != 0 || !d->nw)
        return;
    qsort(d->wlog, d->nw, sizeof *d->wlog, cmp_rec);
    simtime_t now = f->now;
    evseq_t seq = f->now_seq;
    for (size_t i = 0; i < d->nw; i++) {
        const struct wrec *r = &d->wlog[i];
        if (i && r->rank != r[-1].rank && r->now == r[-1].now && r->seq == r[-1].seq)
            ibn_panic("distributed run: one event (at %lld ps) told the capture or the timeline "
                      "on two ranks: their order is not known", (long long)r->now);
        const struct port *at = &f->nodes[r->node]->port[r->port];
        f->now = r->now;
        f->now_seq = r->seq;
        if (r->kind == 0 && d->capture_real)
            d->capture_real(f, at, &r->p);
        else if (r->kind == 1 && d->timeline_real)
            d->timeline_real(f, r->note, at, r->has_pkt ? &r->p : NULL, r->t, r->a, r->b);
    }
    f->now = now;
    f->now_seq = seq;
    free(d->wlog);
    d->wlog = NULL;
    d->nw = d->capw = 0;
}

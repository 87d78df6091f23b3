/* dist_int.h: the distributed mode's own state (dist.c) and the replays that make the
 * receiving side of a cut cable what the sequential run's would be (replay.c). No MPI here,
 * so that the replays are unit-tested on their own (tests/unit/test_dist.c). */
#ifndef IBN_DIST_INT_H
#define IBN_DIST_INT_H

#include "dist/walk.h"
#include "fabric/fabric.h"
#include "fabric/packet.h"

/* (t, seq) order. */
static inline int dist_key_lt(simtime_t t1, evseq_t s1, simtime_t t2, evseq_t s2)
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
    /* As a sender: how soon the peer's port can free buffer space for a packet of `min_wire`
     * bytes, the smallest (not VL15) sent to it yet: the crossbar read on its switch's
     * fastest port (byterate `peer_fast`, speedup `peer_speedup`), or at once (`free_now`: an
     * adapter, lifetime drops, a route missing for a host). dist.c, credit_width. */
    uint32_t min_wire;
    byterate_t peer_fast;
    double peer_speedup;
    uint8_t free_now;
};

struct dmsg {
    uint8_t kind;            /* 1 a packet (event type `type`), 2 credits; 0 the header of a
                              * rank's records for a window: t = the sender's earliest event,
                              * kt = its bound on credit returns' delay, pid = the records */
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


struct dist {
    struct fabric_dist fd;
    struct lfts *lfts;       /* the fabric's routes: rows of other ranks' switches freed by trim */
    int *part;
    int *pbase;              /* per node: id of its port 0 */
    int nports;
    int32_t *cutix;          /* per port id: index into cp or -1 */
    struct cport *cp;
    int ncp;
    long long cut_cables;
    struct dmsg **out;       /* per rank: a header, then this window's records */
    size_t *nout, *capout;
    struct dmsg *inbuf;
    size_t capin;
    simtime_t cred_width;    /* the least delay of a credit return this rank may send, given
                              * the packets sent so far (credit_width); SIMTIME_NEVER: none */
    simtime_t width, cred_all; /* the last window's width, the ranks' least cred_width */
    double wait_s;           /* wall time waited for other ranks in the windows' exchanges */
    uint64_t waits;          /* exchanges that had to wait */
    void *mpi;               /* MPI requests and messages of the exchange (dist.c) */
    uint32_t *touched;       /* cut ports touched this window */
    int ntouched;
    uint64_t window;
    simtime_t wend;
    int in_window;
    uint64_t windows, msgs_sent;
    int trimmed;
    int stall_rank;          /* IBNETSIM_DIST_STALL=RANK:WINDOW (tests): that rank stops there */
    uint64_t stall_window;
    uint8_t *multi;          /* per flow: its deliveries may happen on several ranks */
    struct dlv_list dl;
    struct dlv_list pl;      /* the last packets of messages with a posted latency (walk.h) */
    struct dlv_list jl;      /* messages of flows with deadlines or jitter: (time, seq, flow,
                                net = creation time, e2e = measured) */
    /* Scratch of the replays, kept across windows. */
    struct credit_return *scr;
    uint8_t *scw;
    uint32_t capscr;
    uint64_t *wait_us;       /* after the run: every rank's wait_s in microseconds */
    /* The capture and the timeline (watchlog.c): what this rank's events told them, with the
     * events' keys; rank 0's own capture and timeline functions, told in order at the end. */
    struct wrec *wlog;
    size_t nw, capw;
    void (*capture_real)(struct fabric *f, const struct port *out, const struct packet *p);
    void (*timeline_real)(struct fabric *f, int note, const struct port *at, const struct packet *p,
                          simtime_t t, int64_t a, int64_t b);
    /* output.counter_series at rank 0: every port's counters at time ctr_t (fd.counts_at) */
    struct port_counts *ctr;
    double *ctr_sent;
    simtime_t ctr_t;
};

/* The least delay of a credit return from c's peer port for the packets c has sent it
 * (c->min_wire), counted from the event that frees the space (replay.c). */
simtime_t dist_credit_width(const struct fabric *f, const struct cport *c);
/* Sets c's min_wire (none sent yet) and what dist_credit_width needs of c's peer;
 * unrouted[nnodes] caches per switch whether it routes every host (0 not known yet). */
void dist_set_peer(const struct fabric *f, struct cport *c, uint8_t *unrouted);
/* Whether the head of p's credit ring lands inside the current window. */
int dist_low_head(const struct dist *d, const struct port *p);
/* The receive side's peak buffer use after a window's exchange (in: the received records). */
void dist_replay_rx(struct dist *d, struct cport *c, const struct dmsg *in);
/* The sender's credit ring and wake-ups after a window's exchange. */
void dist_replay_credits(struct fabric *f, struct dist *d, struct cport *c, const struct dmsg *in);

/* The capture and the timeline (watchlog.c): at the run's start, log instead of telling them
 * (fd.capture, fd.timeline); pack this rank's log, or unpack rank `rank`'s at rank 0; at rank
 * 0 after the gathering, tell them every logged call in the sequential order. */
void dist_watch_start(struct fabric *f);
void dist_walk_watch(struct fabric *f, struct dist_io *io, int rank);
void dist_watch_replay(struct fabric *f);

#endif

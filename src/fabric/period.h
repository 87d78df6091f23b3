/* period.h: the measured period as the one time base of a port's counters. fabric_run takes a
 * snapshot of every port's perfquery counters (per VL slot) at the start of the measured period
 * (the end of the warm-up) and at its end (simulation.duration, or where an interrupted or
 * stuck run stopped), before the first event at or after each time. Warm-up = snapshot 0,
 * measured = snapshot 1 - snapshot 0, drain = the counters at the end of the run - snapshot 1.
 *
 * Counters count whole packets when their transmission starts (as a port's PortXmitData does),
 * so a period's bytes may include a packet that is partly outside it. Link busy time is
 * counted exactly: `sent` counts the wire bytes of a packet still on the wire at the snapshot
 * only for the part already sent (the packet occupies its link from its start to the end of
 * its transmission, busy_until), so that the utilisation of a period can never exceed 1. */
#ifndef IBN_PERIOD_H
#define IBN_PERIOD_H

#include "fabric/fabric.h"

/* One port's counters on one VL slot at a moment: bytes LRH..VCRC, PortXmitWait running to
 * that moment included. */
struct port_counts {
    uint64_t xmit_bytes, rcv_bytes, xmit_pkts, rcv_pkts;
    simtime_t wait;
};

enum { PERIOD_START, PERIOD_END };

struct period {
    int *base;               /* per node: index of its port 1 in the port arrays */
    int nports;              /* ports of all nodes */
    int taken;               /* snapshots taken (0, 1, 2) */
    simtime_t at[2];         /* when */
    struct port_counts *snap[2]; /* [port * nvs + slot] */
    double *sent[2];         /* [port]: wire bytes sent by then, a packet on the wire in part */
};

/* The counters of port p (all nvs slots into c[]) at time t >= the last event handled, and
 * the wire bytes it has sent by t (returned). */
double port_counts_at(const struct fabric *f, const struct port *p, simtime_t t, struct port_counts *c);

/* Set up the snapshots (fabric_run, before its first event); idempotent. */
void period_init(struct fabric *f);
/* Take the snapshots due at or before t (fabric_run, before handling an event at t). */
void period_reach(struct fabric *f, simtime_t t);
/* Take the snapshots still due, at their time or at `stop` if earlier (the run stopped). */
void period_finish(struct fabric *f, simtime_t stop);
void period_free(struct fabric *f);

/* Where the measured period ends: simulation.duration, or earlier where the run stopped. */
static inline simtime_t fabric_measured_to(const struct fabric *f)
{
    return f->period && f->period->taken == 2 ? f->period->at[PERIOD_END] : f->end;
}
/* Length of the measured period in seconds (0 if empty). */
static inline double fabric_measured_s(const struct fabric *f)
{
    simtime_t to = fabric_measured_to(f);
    return to > f->warmup ? (double)(to - f->warmup) / 1e12 : 0.0;
}

/* Snapshot `which` of node i's port p: the nvs slots' counters; *sent its wire bytes sent. */
const struct port_counts *period_snap(const struct fabric *f, int which, int node, int port,
                                      double *sent);

#endif

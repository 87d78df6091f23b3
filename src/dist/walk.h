/* walk.h: what rank 0 gathers from the other ranks at the end of a distributed run (dist.c,
 * docs/distributed.md section 3), each state by one walker (fabric/distio.h) that packs it on
 * the rank that owns it and unpacks it at rank 0 in the same order. Needs no MPI (unit
 * tests: tests/unit/test_dist.c). */
#ifndef IBN_DIST_WALK_H
#define IBN_DIST_WALK_H

#include "fabric/distio.h"
#include "fabric/fabric.h"

/* What a flow's deliveries add to the latency histograms' floating-point sums, which depend
 * on the order of additions: replayed in (time, number) order at rank 0. */
struct dlv {
    simtime_t t;
    evseq_t seq;
    int64_t net, e2e;
    uint32_t flow;
    uint32_t last;
};
struct dlv_list {
    struct dlv *a;
    size_t n, cap;
};

/* The ports of rank `rank`'s nodes: the per-VL lines, the scalars the results read, the
 * measured period's snapshots, the switches' drops per input. Unpacking overwrites them. */
void dist_walk_ports(struct fabric *f, const int *part, int rank, struct dist_io *io);
/* The flows: the send side of those whose source `rank` handles (overwritten), the receive
 * side of every flow `rank` delivered packets of (added and merged into rank 0's), and the
 * deliveries `dl` logged for flows delivered on several ranks and `pl` of messages with a posted
 * latency (packed from them, appended to them when unpacking). */
void dist_walk_flows(struct fabric *f, const int *part, int rank, struct dist_io *io,
                     struct dlv_list *dl, struct dlv_list *pl);
/* A log of deliveries: packed from dl, appended to dl when unpacking. */
void dist_walk_dlv(struct dist_io *io, struct dlv_list *dl);
/* Rank 0: the messages of flows with deadlines or jitter, judged in the sequential order
 * (flow_judge_message). */
void dist_replay_judged(struct fabric *f, struct dlv_list *jl);
/* The latency histograms' sums of the flows in dl, added in (flow, time, number) order, as
 * the sequential run added them (dl is sorted). */
void dist_replay_sums(struct fabric *f, struct dlv_list *dl);
/* The posted latencies of flows with message windows: pl logs the last packets' deliveries
 * (`net` holds the message number), each joined with its posting time from the source's log
 * (rc_ext.posted_log, walked with the send side) and added in (flow, time, number) order, the
 * sequential run's (pl is sorted). */
void dist_replay_posted(struct fabric *f, struct dlv_list *pl);

#endif

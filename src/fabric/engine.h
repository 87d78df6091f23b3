/* engine.h: running a built fabric: the event loop, the end of the measured run and the
 * drain, observers for sampling and progress, and the end-of-run invariants. */
#ifndef IBN_ENGINE_H
#define IBN_ENGINE_H

#include "core/error.h"
#include "fabric/fabric.h"

struct fabric_observer {
    void (*sample)(struct fabric *f, void *ctx);   /* every sample interval up to the end */
    void (*progress)(struct fabric *f, void *ctx); /* every 2^14 events */
    void *ctx;
    /* The measured period starts or ends at t (period.h; its snapshot is taken). */
    void (*boundary)(struct fabric *f, void *ctx, simtime_t t);
};

enum run_outcome { RUN_DRAINED, RUN_INTERRUPTED, RUN_DRAIN_TIMEOUT, RUN_STUCK };

struct run_report {
    enum run_outcome outcome;
    uint64_t in_flight;      /* packets still in the fabric when the run stopped */
    simtime_t drained_at;    /* when the last packet left (RUN_DRAINED) */
    simtime_t stalled_at;    /* RUN_STUCK found by stall detection: when a packet last moved */
    int invariants_ok;
    char violations[2048];   /* what broke, one per line */
};

/* Run until the end of the measured period, then let the fabric drain (sources stopped, queued
 * messages discarded) for at most the drain limit. Checks the invariants at the end. Returns 0
 * when the invariants hold (whatever the outcome), -1 with e set when one is broken. */
int fabric_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
               struct ibn_err *e);

/* The invariants on their own (used by fabric_run and by tests). */
int fabric_check_invariants(struct fabric *f, int drained, struct run_report *r);

#endif

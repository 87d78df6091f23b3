/* eventq.h: the simulator's pending-event set, a d-ary min-heap of events stored by value
 * (no allocation per event). Events are ordered by time, then by the order they were
 * scheduled, so that runs are deterministic. The arity was chosen by measurement
 * (bench/bench_eventq.c compares the binary and 4-ary heaps; see docs/architecture.md). */
#ifndef IBN_EVENTQ_H
#define IBN_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

#include "core/simtime.h"

struct event {
    simtime_t t;
    uint64_t seq;   /* scheduling order: the tie-breaker */
    void *obj;      /* the object the event is about (a port, a flow, a plug-in) */
    uint32_t a;     /* event-specific arguments */
    uint16_t b;
    uint8_t type;
    uint8_t pad;
};

struct eventq {
    struct event *heap;
    size_t n, cap;
    uint64_t next_seq;
    uint64_t pushes; /* statistics */
};

void eventq_init(struct eventq *q, size_t initial_cap);
void eventq_free(struct eventq *q);

/* The default queue (4-ary heap). */
void eventq_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
/* Remove the earliest event into *out; returns 0 when the queue is empty. */
int eventq_pop(struct eventq *q, struct event *out);
static inline simtime_t eventq_peek_time(const struct eventq *q)
{
    return q->n ? q->heap[0].t : SIMTIME_NEVER;
}

/* The binary-heap variant, kept for the benchmark that justifies the default. */
void eventq2_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
int eventq2_pop(struct eventq *q, struct event *out);

#endif

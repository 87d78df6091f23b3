/* eventq.h: the simulator's pending-event set. A binary heap of 16-byte keys (time, the order
 * the event was scheduled, and the index of its payload) over a side table of payloads, so
 * that the heap moves half the memory a heap of whole events would; removal is Floyd's
 * bottom-up. Events are ordered by time, then by scheduling order, so that runs are
 * deterministic and independent of the heap's shape. No allocation per event: the payload
 * table and the heap grow by doubling. The design was chosen by measurement
 * (bench/bench_eventq.c compares it with a 4-ary heap of whole events; docs/architecture.md). */
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

/* What the heap orders: time in the high 64 bits, then the scheduling order (40 bits) and
 * the payload slot (24 bits). */
typedef unsigned __int128 eventkey_t;

struct event_payload {
    void *obj;
    uint32_t a;       /* while free: the next free slot */
    uint16_t b;
    uint8_t type;
    uint8_t pad;
};

struct eventq {
    eventkey_t *heap;
    struct event_payload *slot;
    size_t n, cap;          /* events pending; capacity of heap and slots */
    uint32_t free_slot;     /* head of the free list of payload slots */
    uint64_t next_seq;
    uint64_t pushes;        /* statistics */
    /* The 4-ary heap of whole events (bench_eventq's comparison only). */
    struct event *heap4;
    size_t n4, cap4;
};

#define EVENTQ_MAX_PENDING ((size_t)1 << 24)

void eventq_init(struct eventq *q, size_t initial_cap);
void eventq_free(struct eventq *q);

void eventq_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
/* Remove the earliest event into *out; returns 0 when the queue is empty. */
int eventq_pop(struct eventq *q, struct event *out);
static inline simtime_t eventq_peek_time(const struct eventq *q)
{
    return q->n ? (simtime_t)(uint64_t)(q->heap[0] >> 64) : SIMTIME_NEVER;
}
/* The type of the i-th pending event (any order), for counting what is in flight. */
static inline uint8_t eventq_type_at(const struct eventq *q, size_t i)
{
    return q->slot[(uint32_t)(q->heap[i] & 0xffffff)].type;
}

/* The 4-ary heap of whole 32-byte events, kept for the benchmark that justifies the default. */
void eventq4_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
int eventq4_pop(struct eventq *q, struct event *out);

#endif

/* eventq.h: the simulator's pending-event set, a calendar queue (timing wheel) tuned to the
 * fabric model's pattern: almost every event is scheduled a few ns to a few µs ahead, about
 * ten events pending per ns of simulated time.
 *
 * Design. Time is cut into buckets of 2^shift ps. A wheel of 2^nbits buckets covers the near
 * future [cur, cur + 2^nbits) (cur: the bucket being served); each wheel bucket is an unsorted
 * list linked through the events' payload slots, and a bitmap of non-empty buckets finds the
 * next one with a few word scans. The bucket being served is a small binary heap ("front") of
 * 16-byte keys; events beyond the wheel wait in an overflow binary heap and join the front
 * when their bucket comes up. The bucket width follows the observed event density (about
 * one event per bucket) and the wheel's length follows the number of pending events; both
 * are re-estimated every few thousand removals and the queue is rebuilt (O(pending)) only when
 * they are off by more than a factor of two, so the cost is O(1) amortised per event while
 * bursts (thousands of events at the same instant) cost O(log burst) each in the front heap.
 *
 * Order. Keys are (time, scheduling order, payload slot); every structure orders by the whole
 * key, so events leave in (time, scheduling order) order exactly, whatever the bucket width:
 * runs are deterministic and independent of the queue's shape. A caller may reserve a
 * scheduling number now and push the event later with it (eventq_reserve_seq, eventq_push_seq);
 * the event then sorts where it would have sorted had it been pushed at the reservation.
 *
 * Memory. No allocation per event: payload slots, heaps and the wheel grow by doubling. The
 * pending events are also kept dense in a permutation of the slots (perm[0..n) live), so that
 * eventq_type_at can list them in O(1) each.
 *
 * The binary heap that preceded it (a heap of 16-byte keys over the same payload slots, Floyd's
 * bottom-up removal) and a 4-ary heap of whole events stay as struct eventq_heap and
 * struct eventq_heap4, for bench/bench_eventq.c, which compares the three on a hold workload
 * like the simulator's and on a burst. */
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

/* What the heaps order: time in the high 64 bits, then the scheduling order (40 bits) and
 * the payload slot (24 bits). */
typedef unsigned __int128 eventkey_t;

struct event_payload {
    void *obj;
    simtime_t t;      /* the key's time ... */
    uint64_t lo;      /* ... and its low half: scheduling order << 24 | this slot */
    uint32_t a;
    uint32_t next;    /* the next event of its wheel bucket; while free: the next free slot */
    uint32_t pos;     /* where the slot is in perm */
    uint16_t b;
    uint8_t type;
    uint8_t pad;
};

struct eventq {
    struct event_payload *slot;
    uint32_t *perm;         /* perm[0..n): slots of the pending events; perm[n..cap): free */
    size_t n, cap;          /* events pending; slots */
    uint64_t next_seq;
    /* The bucket being served: a binary heap of keys. */
    eventkey_t *front;
    size_t nfront, capfront;
    /* Events beyond the wheel: a binary heap of keys. */
    eventkey_t *over;
    size_t nover, capover;
    /* The wheel: bucket heads (slot lists), a bitmap of non-empty buckets. */
    uint32_t *head;
    uint64_t *bits;
    unsigned shift, nbits;  /* bucket width 2^shift ps, 2^nbits buckets */
    uint64_t cur;           /* absolute number of the bucket being served */
    size_t nwheel;          /* events in the wheel */
    /* Density estimate: removals and the time of the first since the last estimate. */
    uint64_t est_pops;
    simtime_t est_t0;
    uint64_t pushes, rebuilds; /* statistics */
};

#define EVENTQ_MAX_PENDING ((size_t)1 << 24)

void eventq_init(struct eventq *q, size_t initial_cap);
void eventq_free(struct eventq *q);

void eventq_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
/* Take the next scheduling number now, for an event pushed later with eventq_push_seq. */
static inline uint64_t eventq_reserve_seq(struct eventq *q)
{
    return q->next_seq++;
}
/* Push an event with a reserved scheduling number; (t, seq) must come after the last event
 * removed. */
void eventq_push_seq(struct eventq *q, simtime_t t, uint64_t seq, uint8_t type, void *obj, uint32_t a,
                     uint16_t b);
/* Remove the earliest event into *out; returns 0 when the queue is empty. */
int eventq_pop(struct eventq *q, struct event *out);
/* The front heap holds the earliest event whenever the queue is not empty. */
static inline simtime_t eventq_peek_time(const struct eventq *q)
{
    return q->n ? (simtime_t)(uint64_t)(q->front[0] >> 64) : SIMTIME_NEVER;
}
/* The type of the i-th pending event (0 <= i < n, any order), for counting what is in flight. */
static inline uint8_t eventq_type_at(const struct eventq *q, size_t i)
{
    return q->slot[q->perm[i]].type;
}

/* ---- for the comparison in bench_eventq ---- */

/* The binary heap of keys over payload slots (Floyd's bottom-up removal). */
struct eventq_heap {
    eventkey_t *heap;
    struct event_payload *slot;
    size_t n, cap;
    uint32_t free_slot;
    uint64_t next_seq;
};
void eventq_heap_init(struct eventq_heap *q, size_t initial_cap);
void eventq_heap_free(struct eventq_heap *q);
void eventq_heap_push(struct eventq_heap *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
int eventq_heap_pop(struct eventq_heap *q, struct event *out);

/* The 4-ary heap of whole 32-byte events. */
struct eventq_heap4 {
    struct event *heap;
    size_t n, cap;
    uint64_t next_seq;
};
void eventq_heap4_init(struct eventq_heap4 *q);
void eventq_heap4_free(struct eventq_heap4 *q);
void eventq_heap4_push(struct eventq_heap4 *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
int eventq_heap4_pop(struct eventq_heap4 *q, struct event *out);

#endif

/* eventq.h: the simulator's pending-event set, a calendar queue (timing wheel) tuned to the
 * fabric model's pattern: almost every event is scheduled a few ns to a few µs ahead, about
 * ten events pending per ns of simulated time.
 *
 * Design. Time is cut into buckets of 2^shift ps. A wheel of 2^nbits buckets covers the near
 * future [cur, cur + 2^nbits) (cur: the bucket being served); each wheel bucket is an unsorted
 * list linked through the events' payload slots, and a bitmap of non-empty buckets finds the
 * next one with a few word scans. The bucket being served ("front") is an array of its
 * 32-byte keys, sorted when the bucket comes up (insertion sort: the bucket's list gives them
 * in push order, which is their order among equal times; merge sort for long runs) and taken
 * from its head; an event scheduled into it while it is served is inserted from the end, where
 * it usually belongs. Events beyond the wheel wait in an overflow binary heap and join the
 * front when their bucket comes up. The bucket width follows the observed event density (about
 * four events per bucket) and the wheel's length follows the number of pending events; both
 * are re-estimated every few thousand removals and the queue is rebuilt (O(pending)) only when
 * they are off by more than a factor of two, so the cost is O(1) amortised per event while
 * bursts (thousands of events at the same instant) cost O(log burst) each to sort.
 *
 * Order. Keys are (time, scheduling number, payload slot); every structure orders by the whole
 * key, so events leave in (time, scheduling number) order exactly, whatever the bucket width:
 * runs are deterministic and independent of the queue's shape. The scheduling number is
 * (scheduling time, origin, count): when the event was scheduled (the time of the event being
 * handled then), the simulated entity (for the fabric: a node, or the fabric itself) whose
 * event that was, and how many numbers that origin had taken before. So events at the same
 * time leave first come, first served, and those scheduled at the same instant by different
 * entities in the order of the entities' numbers. Each origin counts on its own, so the order
 * does not depend
 * on how the handling of different entities interleaved: it is the same when the entities are
 * split over several processes (docs/distributed.md).
 * An event also names its handler, the entity that will handle it; removing it makes that
 * entity the current origin. A caller may reserve a scheduling number now and push the event
 * later with it (eventq_reserve_seq, eventq_push_seq); the event then sorts where it would
 * have sorted had it been pushed at the reservation.
 *
 * Keys are three words and the slot: time, scheduling time, origin << EVENTQ_COUNT_BITS |
 * count.
 *
 * Memory. No allocation per event: payload slots, heaps and the wheel grow by doubling. Free
 * payload slots form a list through their `next` field; a slot's `live` byte says whether it
 * holds a pending event, so that the pending events can be listed (eventq_slot_type) and re-filed
 * by walking the slots.
 *
 * Cost. Pushing into the wheel (the common case) and removing from the front are inline
 * (eventq_push_seq, eventq_pop below); the front's sorting and insertions, the overflow heap
 * and the move to the next bucket are out of line. (The front was a binary heap until
 * 2026-11-24: pushing a bucket's events into it and removing them cost about 470 instructions
 * per packet-hop on the 36-port switch, whose buckets hold about 16 events; bench/hop-diet.md.)
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

/* A scheduling number (below); 8-byte aligned so that structs holding one stay compact. */
typedef unsigned __int128 evseq_t __attribute__((aligned(8)));

struct event {
    simtime_t t;
    evseq_t seq;    /* scheduling number: the tie-breaker */
    void *obj;      /* the object the event is about (a port, a flow, a plug-in) */
    uint32_t a;     /* event-specific arguments */
    uint16_t b;
    uint8_t type;
    uint8_t pad;
};

/* What the heaps order: time, then the scheduling number (scheduling time; origin and count),
 * then the payload slot. */
struct eventkey {
    uint64_t t, ts, oc;
    uint32_t slot, pad;
};
static inline int eventkey_before(const struct eventkey *x, const struct eventkey *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    if (x->ts != y->ts)
        return x->ts < y->ts;
    if (x->oc != y->oc)
        return x->oc < y->oc;
    return x->slot < y->slot;
}

#define EVENTQ_ORIGIN_BITS 18
#define EVENTQ_COUNT_BITS 46
#define EVENTQ_MAX_ORIGINS ((uint32_t)1 << EVENTQ_ORIGIN_BITS)
/* A scheduling number as one value: scheduling time << 64 | origin << EVENTQ_COUNT_BITS | count
 * (compare them with < and >). */
static inline evseq_t evseq_make(simtime_t ts, uint64_t oc)
{
    return (evseq_t)(uint64_t)ts << 64 | oc;
}

struct event_payload {
    void *obj;
    simtime_t t;
    evseq_t seq;      /* the scheduling number */
    uint32_t a;
    uint32_t next;    /* the next event of its wheel bucket; while free: the next free slot */
    uint32_t node;    /* the handler: the origin while it is handled */
    uint16_t b;
    uint8_t type;
    uint8_t live;     /* holds a pending event */
};

struct eventq {
    struct event_payload *slot;
    uint32_t free_slot;     /* first free slot, EVENTQ_NIL if none */
    size_t n, cap;          /* events pending; slots */
    /* Scheduling numbers: per origin the next one (origin << EVENTQ_COUNT_BITS | count); the
     * current origin (the handler of the last event removed, or set by eventq_set_origin) and
     * its counter. */
    uint64_t *oseq;
    uint32_t norigins, origin;
    uint64_t *ocur;
    simtime_t now;          /* the time of the last event removed: scheduling time */
    /* The bucket being served: its keys sorted, the next to leave at front[fhead], the last at
     * front[nfront - 1] (fhead == nfront: empty). */
    struct eventkey *front;
    size_t fhead, nfront, capfront;
    struct eventkey *scratch; /* the merge sort's second buffer (front_sort), capscratch keys */
    size_t capscratch;
    /* Events beyond the wheel: a binary heap of keys, and its first event's bucket
     * (UINT64_MAX when empty). */
    struct eventkey *over;
    size_t nover, capover;
    uint64_t over_bucket;
    /* The wheel: bucket heads (slot lists), a bitmap of non-empty buckets. */
    uint32_t *head;
    uint64_t *bits;
    unsigned shift, nbits;  /* bucket width 2^shift ps, 2^nbits buckets */
    uint64_t cur;           /* absolute number of the bucket being served */
    size_t nwheel;          /* events in the wheel */
    /* Density estimate: events that entered the front (about the removals) since the last
     * estimate, and the time the count started. */
    uint64_t est_pops;
    simtime_t est_t0;
    uint64_t rebuilds;      /* statistics */
};

#define EVENTQ_MAX_PENDING ((size_t)1 << 24)
#define EVENTQ_NIL UINT32_MAX
#define EVENTQ_ESTIMATE_EVERY 4096 /* removals between density estimates */

/* A queue with one origin (0), current. */
void eventq_init(struct eventq *q, size_t initial_cap);
void eventq_free(struct eventq *q);
/* Origins 0 .. n - 1 (at most EVENTQ_MAX_ORIGINS), before any event is pushed. */
void eventq_set_origins(struct eventq *q, uint32_t n);
/* Make `o` the current origin (set-up code that schedules on an entity's behalf). */
static inline void eventq_set_origin(struct eventq *q, uint32_t o)
{
    q->origin = o;
    q->ocur = q->oseq + o;
}

/* Out of line, for the inline operations below. */
void eventq_grow_(struct eventq *q);
void eventq_place_far_(struct eventq *q, uint32_t s);
void eventq_after_pop_(struct eventq *q, simtime_t t);

/* Take the current origin's next scheduling number now, for an event pushed later with
 * eventq_push_seq. */
static inline evseq_t eventq_reserve_seq(struct eventq *q)
{
    return evseq_make(q->now, (*q->ocur)++);
}
/* Push an event with a reserved scheduling number, to be handled by entity `node`; (t, seq)
 * must come after the last event removed. */
static inline void eventq_push_seq_on(struct eventq *q, uint32_t node, simtime_t t, evseq_t seq,
                                      uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    if (__builtin_expect(q->free_slot == EVENTQ_NIL, 0))
        eventq_grow_(q);
    uint32_t s = q->free_slot;
    struct event_payload *pl = &q->slot[s];
    q->free_slot = pl->next;
    pl->obj = obj;
    pl->t = t;
    pl->seq = seq;
    pl->node = node;
    pl->a = a;
    pl->b = b;
    pl->type = type;
    pl->live = 1;
    uint64_t bucket = (uint64_t)t >> q->shift;
    if (q->n++ == 0)
        q->cur = bucket; /* an empty queue serves the new event's bucket */
    /* In the wheel when cur < bucket < cur + 2^nbits (one unsigned comparison). */
    uint64_t d = bucket - q->cur, len = (uint64_t)1 << q->nbits;
    if (__builtin_expect(d - 1 < len - 1, 1)) {
        size_t i = (size_t)(bucket & (len - 1));
        pl->next = q->head[i];
        q->head[i] = s;
        q->bits[i >> 6] |= 1ULL << (i & 63);
        q->nwheel++;
    } else {
        eventq_place_far_(q, s);
    }
}
/* The same, handled by the current origin. */
static inline void eventq_push_seq(struct eventq *q, simtime_t t, evseq_t seq, uint8_t type, void *obj,
                                   uint32_t a, uint16_t b)
{
    eventq_push_seq_on(q, q->origin, t, seq, type, obj, a, b);
}
/* Push with the current origin's next number, handled by entity `node`, or by the current
 * origin. */
static inline void eventq_push_on(struct eventq *q, uint32_t node, simtime_t t, uint8_t type, void *obj,
                                  uint32_t a, uint16_t b)
{
    eventq_push_seq_on(q, node, t, evseq_make(q->now, (*q->ocur)++), type, obj, a, b);
}
static inline void eventq_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    eventq_push_seq_on(q, q->origin, t, evseq_make(q->now, (*q->ocur)++), type, obj, a, b);
}
/* Remove the earliest event into *out, and make its handler the current origin; returns 0
 * when the queue is empty. Out of line: the next bucket once the front is empty, and there,
 * once EVENTQ_ESTIMATE_EVERY events have entered the front since the last one, the density
 * estimate (which may rebuild the queue). */
static inline int eventq_pop(struct eventq *q, struct event *out)
{
    if (!q->n)
        return 0;
    uint32_t s = q->front[q->fhead].slot;
    struct event_payload *pl = &q->slot[s];
    out->t = pl->t;
    out->seq = pl->seq;
    q->now = pl->t;
    q->origin = pl->node;
    q->ocur = q->oseq + pl->node;
    out->obj = pl->obj;
    out->a = pl->a;
    out->b = pl->b;
    out->type = pl->type;
    out->pad = 0;
    pl->live = 0; /* the slot goes back to the free list */
    pl->next = q->free_slot;
    q->free_slot = s;
    q->n--;
    if (++q->fhead == q->nfront) { /* the front is empty: the next bucket, if any */
        q->fhead = q->nfront = 0;
        if (q->n)
            eventq_after_pop_(q, out->t);
    }
    return 1;
}
/* The front holds the earliest event whenever the queue is not empty. */
static inline simtime_t eventq_peek_time(const struct eventq *q)
{
    return q->n ? (simtime_t)q->front[q->fhead].t : SIMTIME_NEVER;
}
/* Listing the pending events: for each slot i < q->cap, the type of the event it holds, or -1
 * if it is free. */
static inline int eventq_slot_type(const struct eventq *q, size_t i)
{
    return q->slot[i].live ? q->slot[i].type : -1;
}

/* ---- for the comparison in bench_eventq ---- */

/* The binary heap of keys over payload slots (Floyd's bottom-up removal). */
struct eventq_heap {
    struct eventkey *heap;
    struct event_payload *slot;
    size_t n, cap;
    uint32_t free_slot;
    uint64_t next_seq;
    simtime_t now;     /* the scheduling time of the next push (the last removal's) */
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
    simtime_t now;
};
void eventq_heap4_init(struct eventq_heap4 *q);
void eventq_heap4_free(struct eventq_heap4 *q);
void eventq_heap4_push(struct eventq_heap4 *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b);
int eventq_heap4_pop(struct eventq_heap4 *q, struct event *out);

#endif

/* eventq.c: the pending-event set: a binary heap of 128-bit keys with bottom-up removal over a
 * table of payload slots; and, for comparison in bench_eventq, a 4-ary heap of whole events. */
#include "core/eventq.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define SLOT_NIL UINT32_MAX

static void link_slots(struct eventq *q, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        q->slot[i].a = i + 1 < to ? (uint32_t)(i + 1) : q->free_slot;
    q->free_slot = (uint32_t)from;
}

void eventq_init(struct eventq *q, size_t initial_cap)
{
    memset(q, 0, sizeof *q);
    q->cap = initial_cap ? initial_cap : 1024;
    if (q->cap > EVENTQ_MAX_PENDING)
        q->cap = EVENTQ_MAX_PENDING;
    q->heap = xmalloc(q->cap * sizeof *q->heap);
    q->slot = xmalloc(q->cap * sizeof *q->slot);
    q->free_slot = SLOT_NIL;
    link_slots(q, 0, q->cap);
}

void eventq_free(struct eventq *q)
{
    free(q->heap);
    free(q->slot);
    free(q->heap4);
    memset(q, 0, sizeof *q);
}

static void grow(struct eventq *q)
{
    if (q->cap >= EVENTQ_MAX_PENDING)
        ibn_panic("more than %zu events pending", EVENTQ_MAX_PENDING);
    size_t old = q->cap;
    q->cap *= 2;
    q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    q->slot = xrealloc(q->slot, q->cap * sizeof *q->slot);
    link_slots(q, old, q->cap);
}

void eventq_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    if (q->n == q->cap)
        grow(q);
    uint32_t s = q->free_slot;
    q->free_slot = q->slot[s].a;
    q->slot[s] = (struct event_payload){ obj, a, b, type, 0 };
    eventkey_t k = (eventkey_t)(uint64_t)t << 64 | (eventkey_t)(q->next_seq++ & 0xffffffffffULL) << 24 | s;
    eventkey_t *h = q->heap;
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (k >= h[p])
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = k;
    q->pushes++;
}

int eventq_pop(struct eventq *q, struct event *out)
{
    if (!q->n)
        return 0;
    eventkey_t *h = q->heap, top = h[0];
    uint32_t s = (uint32_t)(top & 0xffffff);
    const struct event_payload *pl = &q->slot[s];
    out->t = (simtime_t)(uint64_t)(top >> 64);
    out->seq = (uint64_t)(top >> 24) & 0xffffffffffULL;
    out->obj = pl->obj;
    out->a = pl->a;
    out->b = pl->b;
    out->type = pl->type;
    out->pad = 0;
    q->slot[s].a = q->free_slot;
    q->free_slot = s;
    size_t n = --q->n, i = 0;
    if (!n)
        return 1;
    /* Floyd: the hole descends along the smaller children (a branch-free choice), then the
     * last key rises from the leaf it reached. */
    eventkey_t last = h[n];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c + 1 >= n) {
            if (c < n) {
                h[i] = h[c];
                i = c;
            }
            break;
        }
        c += (size_t)(h[c + 1] < h[c]);
        h[i] = h[c];
        i = c;
    }
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (last >= h[p])
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = last;
    return 1;
}

/* ---- the 4-ary heap of whole events, for the comparison ---- */

static inline int ev_before(const struct event *x, const struct event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

void eventq4_push(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    if (q->n4 == q->cap4) {
        q->cap4 = q->cap4 ? 2 * q->cap4 : 1024;
        q->heap4 = xrealloc(q->heap4, q->cap4 * sizeof *q->heap4);
    }
    struct event e = { t, q->next_seq++, obj, a, b, type, 0 };
    struct event *h = q->heap4;
    size_t i = q->n4++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ev_before(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

int eventq4_pop(struct eventq *q, struct event *out)
{
    if (!q->n4)
        return 0;
    struct event *h = q->heap4;
    *out = h[0];
    struct event last = h[--q->n4];
    size_t n = q->n4, i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t best = c, end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (ev_before(&h[k], &h[best]))
                best = k;
        if (!ev_before(&h[best], &last))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
    return 1;
}

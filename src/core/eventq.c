/* eventq.c: d-ary heaps of events by value, keyed on (time, scheduling order). Two arities are
 * generated from one body: 4 (the default) and 2 (for comparison in bench/bench_eventq.c). */
#include "core/eventq.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void eventq_init(struct eventq *q, size_t initial_cap)
{
    memset(q, 0, sizeof *q);
    q->cap = initial_cap ? initial_cap : 1024;
    q->heap = xmalloc(q->cap * sizeof *q->heap);
}

void eventq_free(struct eventq *q)
{
    free(q->heap);
    memset(q, 0, sizeof *q);
}

static inline int ev_before(const struct event *x, const struct event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void grow(struct eventq *q)
{
    q->cap *= 2;
    q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
}

#define EVENTQ_DEFINE(PUSH, POP, D)                                                           \
    void PUSH(struct eventq *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b) \
    {                                                                                         \
        if (q->n == q->cap)                                                                   \
            grow(q);                                                                          \
        struct event e = { t, q->next_seq++, obj, a, b, type, 0 };                            \
        struct event *h = q->heap;                                                            \
        size_t i = q->n++;                                                                    \
        while (i > 0) {                                                                       \
            size_t p = (i - 1) / (D);                                                         \
            if (!ev_before(&e, &h[p]))                                                        \
                break;                                                                        \
            h[i] = h[p];                                                                      \
            i = p;                                                                            \
        }                                                                                     \
        h[i] = e;                                                                             \
        q->pushes++;                                                                          \
    }                                                                                         \
    int POP(struct eventq *q, struct event *out)                                              \
    {                                                                                         \
        if (!q->n)                                                                            \
            return 0;                                                                         \
        struct event *h = q->heap;                                                            \
        *out = h[0];                                                                          \
        struct event last = h[--q->n];                                                        \
        size_t n = q->n, i = 0;                                                               \
        for (;;) {                                                                            \
            size_t c = (D) * i + 1;                                                           \
            if (c >= n)                                                                       \
                break;                                                                        \
            size_t best = c, end = c + (D) < n ? c + (D) : n;                                 \
            for (size_t k = c + 1; k < end; k++)                                              \
                if (ev_before(&h[k], &h[best]))                                               \
                    best = k;                                                                 \
            if (!ev_before(&h[best], &last))                                                  \
                break;                                                                        \
            h[i] = h[best];                                                                   \
            i = best;                                                                         \
        }                                                                                     \
        h[i] = last;                                                                          \
        return 1;                                                                             \
    }

EVENTQ_DEFINE(eventq_push, eventq_pop, 4)
EVENTQ_DEFINE(eventq2_push, eventq2_pop, 2)

/* eventq.c: the pending-event set: a calendar queue (a wheel of bucket lists, a front heap for
 * the bucket being served, an overflow heap) whose bucket width and length adapt to the event
 * density; and, for comparison in bench_eventq, the binary heap of keys it replaced and a
 * 4-ary heap of whole events. */
#include "core/eventq.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define SLOT_NIL EVENTQ_NIL
#define ESTIMATE_EVERY EVENTQ_ESTIMATE_EVERY
#define MIN_NBITS 8
#define MAX_NBITS 22
#define MAX_SHIFT 48
/* Events per bucket the width aims at (the width is the power of two at or below that many
 * mean spacings), and how many times the pending events' mean look-ahead the wheel covers.
 * Chosen with bench_eventq and bench_fabric: with a binary heap as the front, one event per
 * bucket beat 2, 3 and 6 on the fabric mix, and 4 look-aheads beat 2 and 8. With the sorted
 * front (2026-11-24, bench/hop.sh), 4 events per bucket beat 1, 2, 8 and 16: 1,214 -> 1,165
 * instructions per packet-hop on the 648-node fat tree, the 36-port switch unchanged (its
 * buckets are set by its bursts); 8 and 16 cost the switch 90 and 155 more. */
#define TARGET_PER_BUCKET 4
#define WHEEL_COVER 4

/* ---- binary heaps of keys, shared by the variants ---- */

static inline void heap_up(struct eventkey *h, size_t i, struct eventkey k)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!eventkey_before(&k, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = k;
}

/* Remove h[0] from a heap of n + 1 keys (n after removal). Floyd: the hole descends along the
 * smaller children (a branch-free choice), then the last key rises from the leaf it reached. */
static inline void heap_remove_top(struct eventkey *h, size_t n)
{
    if (!n)
        return;
    struct eventkey last = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c + 1 >= n) {
            if (c < n) {
                h[i] = h[c];
                i = c;
            }
            break;
        }
        c += (size_t)eventkey_before(&h[c + 1], &h[c]);
        h[i] = h[c];
        i = c;
    }
    heap_up(h, i, last);
}

static void keys_push(struct eventkey **h, size_t *n, size_t *cap, struct eventkey k)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *h = xrealloc(*h, *cap * sizeof **h);
    }
    heap_up(*h, (*n)++, k);
}

/* ---- the front: the bucket being served, its keys sorted ---- */

/* Room for one more key at the end of the front. */
static void front_room(struct eventq *q)
{
    if (q->nfront < q->capfront)
        return;
    if (q->fhead > 0) { /* slide the pending keys down */
        memmove(q->front, q->front + q->fhead, (q->nfront - q->fhead) * sizeof *q->front);
        q->nfront -= q->fhead;
        q->fhead = 0;
        return;
    }
    q->capfront = q->capfront ? 2 * q->capfront : 64;
    q->front = xrealloc(q->front, q->capfront * sizeof *q->front);
}

/* Append a key to the front without keeping it sorted (front_sort follows). */
static inline void front_append(struct eventq *q, struct eventkey k)
{
    front_room(q);
    q->front[q->nfront++] = k;
}

/* Insert a key into the sorted front: from the end, where an event scheduled while its bucket
 * is served usually belongs. */
static void front_insert(struct eventq *q, struct eventkey k)
{
    front_room(q);
    struct eventkey *f = q->front;
    size_t i = q->nfront++;
    while (i > q->fhead && eventkey_before(&k, &f[i - 1])) {
        f[i] = f[i - 1];
        i--;
    }
    f[i] = k;
}

/* Merge sort of h[0 .. n) into ascending order, with q's scratch buffer: runs of MERGE_RUN keys
 * by insertion, then merged pairwise, a pair already in order copied whole. Keys are unique, so
 * the order is the one any sort gives. (A heap sort until 2026-11-29: on a run where every
 * source saturates equal links from time 0, hundreds of events share one instant, and sifting
 * them was 18 % of the run; a merge reads and writes sequentially and compares about half as
 * often.) */
#define MERGE_RUN 16
/* Insertion sort of h[0 .. n), of which h[0 .. from) is in order already (from >= 1). */
static inline __attribute__((always_inline)) void keys_insertion(struct eventkey *h, size_t from, size_t n)
{
    for (size_t j = from; j < n; j++) {
        struct eventkey k = h[j];
        size_t i = j;
        while (i > 0 && eventkey_before(&k, &h[i - 1])) {
            h[i] = h[i - 1];
            i--;
        }
        h[i] = k;
    }
}
static void keys_mergesort(struct eventq *q, struct eventkey *h, size_t n)
{
    if (q->capscratch < n) {
        while (q->capscratch < n)
            q->capscratch = q->capscratch ? 2 * q->capscratch : 256;
        q->scratch = xrealloc(q->scratch, q->capscratch * sizeof *q->scratch);
    }
    for (size_t lo = 0; lo < n; lo += MERGE_RUN)
        keys_insertion(h + lo, 1, n - lo < MERGE_RUN ? n - lo : MERGE_RUN);
    struct eventkey *src = h, *dst = q->scratch;
    for (size_t w = MERGE_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            if (mid == hi || !eventkey_before(&src[mid], &src[mid - 1])) {
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
                continue;
            }
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                dst[o++] = eventkey_before(&src[b], &src[a]) ? src[b++] : src[a++];
            memcpy(dst + o, src + a, (mid - a) * sizeof *src);
            o += mid - a;
            memcpy(dst + o, src + b, (hi - b) * sizeof *src);
        }
        struct eventkey *t = src;
        src = dst;
        dst = t;
    }
    if (src != h)
        memcpy(h, src, n * sizeof *h);
}

/* Sort the front's keys front[from .. nfront), appended in any order, into the sorted
 * front[fhead .. from). Small runs (a bucket holds about one event) by insertion; long ones
 * (bursts, rebuilds) by merge sort, so that a burst costs O(k log k). */
#define FRONT_INSERTION_MAX 32
static void front_sort(struct eventq *q, size_t from)
{
    struct eventkey *f = q->front;
    size_t lo = q->fhead, n = q->nfront;
    if (n - lo <= FRONT_INSERTION_MAX) {
        keys_insertion(f + lo, from > lo ? from - lo : 1, n - lo);
        return;
    }
    size_t i = from > lo ? from : lo + 1; /* already in order? (a burst from the overflow heap) */
    while (i < n && !eventkey_before(&f[i], &f[i - 1]))
        i++;
    if (i == n)
        return;
    keys_mergesort(q, f + lo, n - lo);
}

static inline struct eventkey make_key(simtime_t t, evseq_t seq, uint32_t s)
{
    return (struct eventkey){ (uint64_t)t, (uint64_t)(seq >> 64), (uint64_t)seq, s, 0 };
}
static inline struct eventkey slot_key(const struct eventq *q, uint32_t s)
{
    return make_key(q->slot[s].t, q->slot[s].seq, s);
}

static inline void fill_out(struct event *out, const struct event_payload *pl)
{
    out->t = pl->t;
    out->seq = pl->seq;
    out->obj = pl->obj;
    out->a = pl->a;
    out->b = pl->b;
    out->type = pl->type;
    out->pad = 0;
}

/* ---- the calendar queue ---- */

static void wheel_alloc(struct eventq *q, unsigned nbits)
{
    size_t nb = (size_t)1 << nbits;
    q->nbits = nbits;
    q->head = xrealloc(q->head, nb * sizeof *q->head);
    q->bits = xrealloc(q->bits, nb / 64 * sizeof *q->bits);
    memset(q->head, 0xff, nb * sizeof *q->head);
    memset(q->bits, 0, nb / 64 * sizeof *q->bits);
}

/* Slots [from, to) become the free list (which is empty when this is called). */
static void slots_link(struct eventq *q, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        q->slot[i].next = i + 1 < to ? (uint32_t)(i + 1) : SLOT_NIL;
        q->slot[i].live = 0;
    }
    q->free_slot = from < to ? (uint32_t)from : SLOT_NIL;
}

void eventq_init(struct eventq *q, size_t initial_cap)
{
    memset(q, 0, sizeof *q);
    q->cap = initial_cap ? initial_cap : 1024;
    if (q->cap > EVENTQ_MAX_PENDING)
        q->cap = EVENTQ_MAX_PENDING;
    q->slot = xmalloc(q->cap * sizeof *q->slot);
    slots_link(q, 0, q->cap);
    q->oseq = xcalloc(1, sizeof *q->oseq);
    q->norigins = 1;
    eventq_set_origin(q, 0);
    q->over_bucket = UINT64_MAX;
    q->shift = 10;
    wheel_alloc(q, 12);
}

void eventq_free(struct eventq *q)
{
    free(q->slot);
    free(q->front);
    free(q->scratch);
    free(q->over);
    free(q->head);
    free(q->bits);
    free(q->oseq);
    memset(q, 0, sizeof *q);
}

void eventq_set_origins(struct eventq *q, uint32_t n)
{
    if (n == 0 || n > EVENTQ_MAX_ORIGINS)
        ibn_panic("%u event origins: between 1 and %u are possible", n, EVENTQ_MAX_ORIGINS);
    q->oseq = xrealloc(q->oseq, n * sizeof *q->oseq);
    for (uint32_t i = q->norigins; i < n; i++)
        q->oseq[i] = (uint64_t)i << EVENTQ_COUNT_BITS;
    q->norigins = n;
    eventq_set_origin(q, q->origin < n ? q->origin : 0);
}

/* No free slot is left: double the slots (the free list is empty). */
void eventq_grow_(struct eventq *q)
{
    if (q->cap >= EVENTQ_MAX_PENDING)
        ibn_panic("more than %zu events pending", EVENTQ_MAX_PENDING);
    size_t old = q->cap;
    q->cap *= 2;
    q->slot = xrealloc(q->slot, q->cap * sizeof *q->slot);
    slots_link(q, old, q->cap);
}

static inline void over_top_changed(struct eventq *q)
{
    q->over_bucket = q->nover ? q->over[0].t >> q->shift : UINT64_MAX;
}

/* Pending slot s is not for the wheel: the front (its bucket is being served) or the overflow
 * heap (beyond the wheel). */
void eventq_place_far_(struct eventq *q, uint32_t s)
{
    struct eventkey k = slot_key(q, s);
    if (k.t >> q->shift <= q->cur) {
        q->est_pops++;
        front_insert(q, k);
    } else {
        keys_push(&q->over, &q->nover, &q->capover, k);
        over_top_changed(q);
    }
}

/* File pending slot s where its bucket says: the front, the wheel or the overflow heap. */
static inline void place(struct eventq *q, uint32_t s)
{
    struct event_payload *pl = &q->slot[s];
    uint64_t b = (uint64_t)pl->t >> q->shift;
    if (b > q->cur && b - q->cur < ((uint64_t)1 << q->nbits)) {
        size_t i = (size_t)(b & (((uint64_t)1 << q->nbits) - 1));
        pl->next = q->head[i];
        q->head[i] = s;
        q->bits[i >> 6] |= 1ULL << (i & 63);
        q->nwheel++;
    } else {
        eventq_place_far_(q, s);
    }
}

/* Re-file every pending event with a new bucket width and wheel length. */
static void rebuild(struct eventq *q, unsigned shift, unsigned nbits)
{
    q->shift = shift;
    wheel_alloc(q, nbits);
    q->fhead = q->nfront = q->nover = q->nwheel = 0;
    q->over_bucket = UINT64_MAX;
    if (!q->n)
        return;
    uint64_t tmin = UINT64_MAX;
    for (size_t i = 0; i < q->cap; i++)
        if (q->slot[i].live && (uint64_t)q->slot[i].t < tmin)
            tmin = (uint64_t)q->slot[i].t;
    q->cur = tmin >> shift;
    for (size_t i = 0; i < q->cap; i++) {
        if (!q->slot[i].live)
            continue;
        if ((uint64_t)q->slot[i].t >> shift == q->cur)
            front_append(q, slot_key(q, (uint32_t)i)); /* sorted below */
        else
            place(q, (uint32_t)i);
    }
    front_sort(q, 0);
    q->rebuilds++;
}

static unsigned log2_floor(uint64_t x)
{
    return x ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* Every ESTIMATE_EVERY events served (or as many as are pending, if more; counted as they
 * enter the front, checked when it empties): the width that puts
 * TARGET_PER_BUCKET events in a bucket, and the wheel length that covers WHEEL_COVER times
 * the pending events' mean look-ahead (n / rate, by Little's law). Rebuild when either is
 * off by more than a factor of two. Returns whether it rebuilt. */
static int adapt(struct eventq *q, simtime_t now)
{
    uint64_t pops = q->est_pops, span = (uint64_t)(now - q->est_t0);
    q->est_pops = 0; /* the next estimate counts from here */
    q->est_t0 = now;
    if (span == 0) /* a burst at one instant says nothing about the spacing */
        return 0;
    unsigned shift = log2_floor(span * TARGET_PER_BUCKET / pops);
    if (shift > MAX_SHIFT)
        shift = MAX_SHIFT;
    unsigned nbits = log2_floor((uint64_t)q->n * WHEEL_COVER / TARGET_PER_BUCKET) + 1;
    nbits = nbits < MIN_NBITS ? MIN_NBITS : nbits > MAX_NBITS ? MAX_NBITS : nbits;
    int dshift = (int)shift - (int)q->shift;
    if (dshift > 1 || dshift < -1 || nbits > q->nbits || nbits + 2 < q->nbits) {
        rebuild(q, shift, nbits);
        return 1;
    }
    return 0;
}

/* The front is empty and events remain: serve the next non-empty bucket. */
static void advance(struct eventq *q)
{
    uint64_t mask = ((uint64_t)1 << q->nbits) - 1, wnext = UINT64_MAX;
    size_t wi = 0;
    if (q->nwheel) {
        size_t i = (size_t)((q->cur + 1) & mask), w = i >> 6, words = (size_t)(mask + 1) / 64;
        uint64_t word = q->bits[w] & (~0ULL << (i & 63));
        while (!word) {
            w = (w + 1) & (words - 1);
            word = q->bits[w];
        }
        wi = w * 64 + (size_t)__builtin_ctzll(word);
        wnext = q->cur + ((wi - q->cur) & mask);
    }
    uint64_t ob = q->over_bucket;
    uint64_t next = ob < wnext ? ob : wnext;
    q->cur = next;
    /* The front is empty (fhead = nfront = 0). A bucket's list holds the last pushed first:
     * filled from the end, the front gets them in push order, which for equal times is their
     * order, so the sort below has little to do. */
    if (wnext == next) {
        uint32_t s = q->head[wi];
        q->head[wi] = SLOT_NIL;
        q->bits[wi >> 6] &= ~(1ULL << (wi & 63));
        size_t k = 0;
        for (uint32_t x = s; x != SLOT_NIL; x = q->slot[x].next)
            k++;
        if (q->capfront < k) {
            while (q->capfront < k)
                q->capfront = q->capfront ? 2 * q->capfront : 64;
            q->front = xrealloc(q->front, q->capfront * sizeof *q->front);
        }
        q->nfront = k;
        q->nwheel -= k;
        q->est_pops += k;
        struct eventkey *f = q->front;
        while (s != SLOT_NIL) {
            f[--k] = slot_key(q, s);
            s = q->slot[s].next;
        }
    }
    if (ob == next) {
        while (q->nover && q->over[0].t >> q->shift == next) {
            q->est_pops++;
            front_append(q, q->over[0]);
            heap_remove_top(q->over, --q->nover);
        }
        over_top_changed(q);
    }
    size_t n = q->nfront;
    if (n > 1 && n <= 8) { /* the common short run (about 5 keys on the fat tree) without a
                              * call: 12 instructions per hop less there (bench/hop-diet.md) */
        keys_insertion(q->front, 1, n);
    } else if (n > 8) {
        front_sort(q, 1);
    }
}

/* The front has just been emptied at time t and events remain. */
void eventq_after_pop_(struct eventq *q, simtime_t t)
{
    if (q->est_pops >= ESTIMATE_EVERY && q->est_pops >= q->n && adapt(q, t))
        return;
    advance(q);
}

/* ---- the binary heap of keys over payload slots, for the comparison ---- */

void eventq_heap_init(struct eventq_heap *q, size_t initial_cap)
{
    memset(q, 0, sizeof *q);
    q->cap = initial_cap ? initial_cap : 1024;
    q->heap = xmalloc(q->cap * sizeof *q->heap);
    q->slot = xmalloc(q->cap * sizeof *q->slot);
    for (size_t i = 0; i < q->cap; i++)
        q->slot[i].next = i + 1 < q->cap ? (uint32_t)(i + 1) : SLOT_NIL;
    q->free_slot = 0;
}

void eventq_heap_free(struct eventq_heap *q)
{
    free(q->heap);
    free(q->slot);
    memset(q, 0, sizeof *q);
}

void eventq_heap_push(struct eventq_heap *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    if (q->n == q->cap) {
        if (q->cap >= EVENTQ_MAX_PENDING)
            ibn_panic("more than %zu events pending", EVENTQ_MAX_PENDING);
        size_t old = q->cap;
        q->cap *= 2;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
        q->slot = xrealloc(q->slot, q->cap * sizeof *q->slot);
        for (size_t i = old; i < q->cap; i++)
            q->slot[i].next = i + 1 < q->cap ? (uint32_t)(i + 1) : q->free_slot;
        q->free_slot = (uint32_t)old;
    }
    uint32_t s = q->free_slot;
    q->free_slot = q->slot[s].next;
    evseq_t seq = evseq_make(q->now, q->next_seq++);
    q->slot[s] = (struct event_payload){ .obj = obj, .t = t, .seq = seq, .a = a, .next = SLOT_NIL,
                                         .b = b, .type = type, .live = 1 };
    heap_up(q->heap, q->n++, make_key(t, seq, s));
}

int eventq_heap_pop(struct eventq_heap *q, struct event *out)
{
    if (!q->n)
        return 0;
    uint32_t s = q->heap[0].slot;
    fill_out(out, &q->slot[s]);
    q->now = out->t;
    q->slot[s].next = q->free_slot;
    q->free_slot = s;
    heap_remove_top(q->heap, --q->n);
    return 1;
}

/* ---- the 4-ary heap of whole events, for the comparison ---- */

static inline int ev_before(const struct event *x, const struct event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

void eventq_heap4_init(struct eventq_heap4 *q)
{
    memset(q, 0, sizeof *q);
}

void eventq_heap4_free(struct eventq_heap4 *q)
{
    free(q->heap);
    memset(q, 0, sizeof *q);
}

void eventq_heap4_push(struct eventq_heap4 *q, simtime_t t, uint8_t type, void *obj, uint32_t a, uint16_t b)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 1024;
        q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
    }
    struct event e = { t, evseq_make(q->now, q->next_seq++), obj, a, b, type, 0 };
    struct event *h = q->heap;
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ev_before(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

int eventq_heap4_pop(struct eventq_heap4 *q, struct event *out)
{
    if (!q->n)
        return 0;
    struct event *h = q->heap;
    *out = h[0];
    q->now = out->t;
    struct event last = h[--q->n];
    size_t n = q->n, i = 0;
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

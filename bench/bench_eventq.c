/* bench_eventq.c: the measurement behind the event queue's design. A "hold" workload (a steady
 * population of pending events, each removal followed by a push some time later) is run on the
 * calendar queue, the binary heap of keys with bottom-up removal and the 4-ary heap of whole
 * events: with look-aheads uniform in [0, 1 µs) at several queue sizes, and with the fabric
 * benchmark's mix (packet transmissions of ~1 µs, switch arrivals ~100 ns ahead, credit
 * returns, exponential message gaps) at its ~4400 pending events. A burst (many events at one
 * instant, then their reactions) is timed too. Prints millions of operations per second. */
#include <stdio.h>
#include <time.h>

#include "core/eventq.h"
#include "core/rng.h"

enum variant { CAL, HEAP, HEAP4 };
enum workload { UNIFORM, FABRIC };

struct anyq {
    enum variant v;
    struct eventq c;
    struct eventq_heap h;
    struct eventq_heap4 h4;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void q_init(struct anyq *q, enum variant v, size_t cap)
{
    q->v = v;
    if (v == CAL)
        eventq_init(&q->c, cap);
    else if (v == HEAP)
        eventq_heap_init(&q->h, cap);
    else
        eventq_heap4_init(&q->h4);
}

static void q_free(struct anyq *q)
{
    if (q->v == CAL)
        eventq_free(&q->c);
    else if (q->v == HEAP)
        eventq_heap_free(&q->h);
    else
        eventq_heap4_free(&q->h4);
}

static inline void q_push(struct anyq *q, simtime_t t)
{
    if (q->v == CAL)
        eventq_push(&q->c, t, 1, NULL, 0, 0);
    else if (q->v == HEAP)
        eventq_heap_push(&q->h, t, 1, NULL, 0, 0);
    else
        eventq_heap4_push(&q->h4, t, 1, NULL, 0, 0);
}

static inline int q_pop(struct anyq *q, struct event *e)
{
    return q->v == CAL ? eventq_pop(&q->c, e) : q->v == HEAP ? eventq_heap_pop(&q->h, e)
                                                               : eventq_heap4_pop(&q->h4, e);
}

/* A look-ahead in ps. */
static inline simtime_t ahead(enum workload w, uint64_t s)
{
    if (w == UNIFORM)
        return (simtime_t)(s % 1000000);
    unsigned k = (unsigned)(s >> 58); /* 0..63 */
    uint64_t r = s & 0xffffffff;
    if (k < 20)                  /* end of a transmission: 4 KiB packets, some smaller */
        return k < 18 ? 1039500 : (simtime_t)(r % 1039500);
    if (k < 36)                  /* head at the next switch plus its latency */
        return 105000;
    if (k < 56)                  /* credits back after the space frees */
        return 5000 + (simtime_t)(r % 1100000);
    if (k < 60)                  /* tail at the adapter */
        return 1044500;
    return (simtime_t)((double)1700000 * -__builtin_log(((double)r + 1) / 4294967297.0)); /* message gap */
}

static double hold(enum variant v, enum workload w, size_t population, long ops)
{
    struct anyq q;
    q_init(&q, v, population * 2);
    uint64_t s = 42;
    for (size_t i = 0; i < population; i++) {
        s = rng_mix64(s);
        q_push(&q, ahead(w, s));
    }
    struct event e;
    for (long i = 0; i < ops / 4; i++) { /* warm up: reach the steady state (and the width) */
        s = rng_mix64(s);
        q_pop(&q, &e);
        q_push(&q, e.t + ahead(w, s));
    }
    double t0 = now_s();
    for (long i = 0; i < ops; i++) {
        s = rng_mix64(s);
        q_pop(&q, &e);
        q_push(&q, e.t + ahead(w, s));
    }
    double dt = now_s() - t0;
    q_free(&q);
    return (double)ops / dt / 1e6;
}

/* `n` events at t = 0; each removal of one in three schedules a reaction at the same instant,
 * each other one a reaction 1 µs later; then everything is drained. */
static double burst(enum variant v, size_t n)
{
    struct anyq q;
    q_init(&q, v, 1024);
    double t0 = now_s();
    for (size_t i = 0; i < n; i++)
        q_push(&q, 0);
    struct event e;
    size_t ops = n;
    for (size_t i = 0; i < n; i++) {
        q_pop(&q, &e);
        q_push(&q, i % 3 ? PS_PER_US : 0);
        ops += 2;
    }
    while (q_pop(&q, &e))
        ops++;
    double dt = now_s() - t0;
    q_free(&q);
    return (double)ops / dt / 1e6;
}

int main(void)
{
    static const char *const names[] = { "calendar", "binary heap", "4-ary heap" };
    struct {
        enum workload w;
        size_t n;
        const char *what;
    } runs[] = {
        { FABRIC, 4400, "fabric mix" }, { UNIFORM, 1000, "uniform 0-1 us" },
        { UNIFORM, 30000, "uniform 0-1 us" }, { UNIFORM, 1000000, "uniform 0-1 us" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        printf("hold, %-15s %8zu pending (M ops/s):", runs[i].what, runs[i].n);
        for (int v = CAL; v <= HEAP4; v++)
            printf("  %s %.3g", names[v], hold((enum variant)v, runs[i].w, runs[i].n, 5000000));
        printf("\n");
    }
    printf("burst of 1000000 at one instant   (M ops/s):");
    for (int v = CAL; v <= HEAP4; v++)
        printf("  %s %.3g", names[v], burst((enum variant)v, 1000000));
    printf("\n");
    return 0;
}

/* bench_eventq.c: the measurement behind the event queue's arity. A "hold" workload like the
 * simulator's (a steady population of pending events, each pop followed by a push a random
 * time later) is run on the binary heap with bottom-up removal and the 4-ary heap at several queue sizes; the
 * operation rate of each is printed. */
#include <stdio.h>
#include <time.h>

#include "core/eventq.h"
#include "core/rng.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double hold(size_t population, int arity, long ops)
{
    struct eventq q;
    eventq_init(&q, population * 2);
    uint64_t s = 42;
    for (size_t i = 0; i < population; i++) {
        s = rng_mix64(s);
        if (arity == 4)
            eventq4_push(&q, (simtime_t)(s % 1000000), 1, NULL, 0, 0);
        else
            eventq_push(&q, (simtime_t)(s % 1000000), 1, NULL, 0, 0);
    }
    struct event e;
    double t0 = now_s();
    for (long i = 0; i < ops; i++) {
        s = rng_mix64(s);
        if (arity == 4) {
            eventq4_pop(&q, &e);
            eventq4_push(&q, e.t + (simtime_t)(s % 1000000), 1, NULL, 0, 0);
        } else {
            eventq_pop(&q, &e);
            eventq_push(&q, e.t + (simtime_t)(s % 1000000), 1, NULL, 0, 0);
        }
    }
    double dt = now_s() - t0;
    eventq_free(&q);
    return (double)ops / dt;
}

int main(void)
{
    static const size_t sizes[] = { 1000, 30000, 1000000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double b = hold(sizes[i], 2, 5000000), d = hold(sizes[i], 4, 5000000);
        printf("event queue, %7zu pending: binary heap (bottom-up) %.3g hold ops/s, 4-ary heap %.3g "
               "hold ops/s (binary %+.0f %%)\n", sizes[i], b, d, 100.0 * (b - d) / d);
    }
    return 0;
}

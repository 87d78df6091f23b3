/* bench_cc.c: speed and memory of the congestion-control model at scale: seed 002 Paper IV's
 * silent forest (scenarios/seed002/paper4-silent-ccon.cfg: 648-node fat tree of 36-port
 * switches, 518 contributors into 8 hot spots, 130 uniform senders, IB CC on) run for 0.5 s of
 * simulated time on one core. Prints wall time, events/s, packet-hops/s, simulated seconds per
 * wall second and peak RSS (getrusage). Goal: under 2 minutes and 2 GiB.
 * Usage: bench_cc [SIMULATED_TIME] (default "500 ms"). Not a timed test. */
#include <stdio.h>
#include <sys/resource.h>

#include "repro/repro.h"

int main(int argc, char **argv)
{
    const char *dur = argc > 1 ? argv[1] : "500 ms";
    char o1[96];
    snprintf(o1, sizeof o1, "simulation.duration=%s", dur);
    const char *over[] = { o1, "simulation.warmup=0 s", "simulation.sample_interval=10 ms" };
    struct repro_series s;
    struct ibn_err e;
    if (repro_run("seed002/paper4-silent-ccon.cfg", over, 3, &s, &e)) {
        fprintf(stderr, "bench_cc: %s\n", e.msg);
        return 1;
    }
    double total = 0;
    for (int h = 0; h < s.nhosts; h++)
        total += s.host_rx[h];
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double sim = s.nsamples ? s.t[s.nsamples - 1] : 0;
    printf("bench_cc: Paper IV silent forest, IB CC on, 648 hosts, %s simulated\n", dur);
    printf("  wall            %.2f s\n", s.wall_s);
    printf("  events          %llu (%.3g events/s)\n", s.events, s.events / s.wall_s);
    printf("  packet-hops     %llu (%.3g hops/s)\n", s.hops, s.hops / s.wall_s);
    printf("  simulated/wall  %.4f s per s\n", sim / s.wall_s);
    printf("  peak RSS        %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    printf("  total received  %.1f Gb/s (payload, whole run)\n", total);
    printf("  goal            0.5 s simulated in < 120 s wall and < 2048 MiB: %s\n",
           s.wall_s < 120 && ru.ru_maxrss < 2048 * 1024 ? "met" : "NOT met");
    repro_series_free(&s);
    return 0;
}

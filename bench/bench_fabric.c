/* bench_fabric.c: runs scenarios and reports the simulator's speed: events/s, packet-hops/s
 * (packet transmissions on links per wall second, and per CPU second of the run, the figure to
 * quote on a shared machine), simulated seconds per wall second, wall time and peak resident
 * memory. Usage: bench_fabric SCENARIO [-s key=value]... [--retry-all] (every stalled output
 * tried again at every read end, without switch.c's skip of tries that change nothing: the
 * instructions that skip saves, bench/isolation.md); one line per
 * scenario, and a machine-readable line starting with "BENCH". Results are not written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cc/cc.h"
#include "config/scenario.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "fabric/swarch.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_fabric SCENARIO [-s section.key=value]... [--retry-all]\n");
        return 2;
    }
    char **over = calloc((size_t)argc, sizeof *over);
    int nover = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--retry-all"))
            switch_retry_skip_set(0); /* every stalled output tried again (switch.c) */
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            over[nover++] = argv[++i];
    }
    struct ibn_err e;
    struct scenario sc;
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    double t0 = now_s(), c0 = cpu_s();
    if (scenario_load(argv[1], over, nover, &sc, &e) || scenario_topology(&sc, &t, &l, &e) ||
        scenario_run_desc(&sc, &t, &d, &e) || fabric_build(&f, &t, &l, &d, &e) ||
        scenario_apply(&sc, &f, &e) || cc_attach(&f, sc.ccp, sc.cc_desc, &e)) {
        fprintf(stderr, "bench_fabric: %s\n", e.msg);
        return 2;
    }
    double t1 = now_s(), c1 = cpu_s();
    struct run_report r;
    int rc = fabric_run(&f, NULL, &r, &e);
    double t2 = now_s(), cpu = cpu_s() - c1;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double wall = t2 - t1, sim = (double)f.now / 1e12;
    printf("%-40s build %.2f s, run %.2f s wall for %.4g s simulated (%.3g sim-s/wall-s): "
           "%.3g events/s, %.3g packet-hops/s, %llu events, %llu hops, peak RSS %.1f MiB%s\n",
           sc.sim.name && *sc.sim.name ? sc.sim.name : argv[1], t1 - t0, wall, sim, sim / wall,
           (double)f.events / wall, (double)f.hops / wall, (unsigned long long)f.events,
           (unsigned long long)f.hops, (double)ru.ru_maxrss / 1024.0,
           rc || !r.invariants_ok ? " INVARIANT BROKEN" : "");
    printf("  build %.2f CPU s (admission included); run %.2f CPU s: %.3g events/CPU-s, %.3g "
           "packet-hops/CPU-s; peak pending events %zu; events by type:", c1 - c0, cpu,
           (double)f.events / cpu, (double)f.hops / cpu, f.peak_pending);
    for (int i = 0; i < 16; i++)
        if (f.events_by_type[i])
            printf(" %d:%llu", i, (unsigned long long)f.events_by_type[i]);
    printf("\n");
    if (f.until_delivered) { /* simulation.until_delivered: where the measured run ended */
        if (f.until_at != SIMTIME_NEVER)
            printf("  until_delivered %llu: reached at %.6f s simulated\n",
                   (unsigned long long)f.until_delivered, (double)f.until_at / 1e12);
        else
            printf("  until_delivered %llu: not reached by the duration (%u of %u flows short)\n",
                   (unsigned long long)f.until_delivered, f.until_left, f.nflows);
    }
    printf("BENCH name=\"%s\" wall_s=%.3f cpu_s=%.3f sim_s=%.6f events=%llu hops=%llu events_per_s=%.4g "
           "hops_per_s=%.4g hops_per_cpu_s=%.4g peak_rss_mib=%.1f build_cpu_s=%.3f\n", argv[1], wall, cpu, sim,
           (unsigned long long)f.events, (unsigned long long)f.hops, (double)f.events / wall,
           (double)f.hops / wall, (double)f.hops / cpu, (double)ru.ru_maxrss / 1024.0, c1 - c0);
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    free(over);
    return rc ? 1 : 0;
}

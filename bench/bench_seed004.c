/* bench_seed004.c: the two speed figures issue 16 asks of seed 004's mechanisms.
 * 1. The 30-node Fig. 9 sweep on one core: every scheme of Figs. 7-9 (Up/Down, SPF, SPF+Drop,
 *    Multipath+LFU, +Drop, Multipath+Credit, +Drop) at every load (10, 15, 20, 25, 28 %), the
 *    MPEG-2 70:30 mix of scenarios/seed004/net15-mix.cfg on a generated 30-switch, 46-link
 *    network, one topology seed, run one after the other: total wall and CPU time (target: under
 *    5 minutes).
 * 2. The CPU cost per packet-hop of adaptive choice against deterministic routing:
 *    scenarios/seed004/net15-be.cfg at 30 % best-effort load for 500 ms, with SPF, with the
 *    multipath tables (topology.routing = pathbits, 7 bits) and random path bits chosen at the
 *    source (a table lookup per hop), and with flows.BE.path = adaptive and switch.adaptive =
 *    lfu or max_credit (target: at most 1.5x); and SPF with the multipath runs' dropping (HV 4),
 *    to compare the routing alone.
 * Usage: bench_seed004 [SOURCE_DIR [--hops]] (default: the source tree it was built from;
 * --hops: only the second part). On a shared machine quote the CPU seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cc/cc.h"
#include "config/scenario.h"
#include "fabric/build.h"
#include "fabric/engine.h"

static double clk(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct res {
    double wall, cpu;
    unsigned long long events, hops;
    int drained;
};

static int run(const char *path, const char *const *over, int nover, struct res *r)
{
    struct ibn_err e;
    struct scenario sc;
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    memset(&f, 0, sizeof f);
    double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
    if (scenario_load(path, (char *const *)over, nover, &sc, &e) || scenario_topology(&sc, &t, &l, &e) ||
        scenario_run_desc(&sc, &t, &d, &e) || fabric_build(&f, &t, &l, &d, &e) ||
        scenario_apply(&sc, &f, &e) || cc_attach(&f, sc.ccp, sc.cc_desc, &e)) {
        fprintf(stderr, "bench_seed004: %s\n", e.msg);
        return -1;
    }
    struct run_report rep;
    if (fabric_run(&f, NULL, &rep, &e)) {
        fprintf(stderr, "bench_seed004: %s\n", e.msg);
        return -1;
    }
    r->wall = clk(CLOCK_MONOTONIC) - w0;
    r->cpu = clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
    r->events = f.events;
    r->hops = f.hops;
    r->drained = rep.outcome == RUN_DRAINED;
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return 0;
}

int main(int argc, char **argv)
{
    int only_hops = argc > 2 && !strcmp(argv[2], "--hops");
    const char *src = argc > 1 ? argv[1] : IBN_SOURCE_DIR;
    char mix[4096], be[4096];
    snprintf(mix, sizeof mix, "%s/scenarios/seed004/net15-mix.cfg", src);
    snprintf(be, sizeof be, "%s/scenarios/seed004/net15-be.cfg", src);
    static const char *const scheme[7][3] = {
        { "topology.routing=updn_tree" }, { NULL }, { "switch.hoq_life=8" },
        { "topology.routing=pathbits", "switch.adaptive=lfu" },
        { "topology.routing=pathbits", "switch.adaptive=lfu", "switch.hoq_life=8" },
        { "topology.routing=pathbits", "switch.adaptive=max_credit" },
        { "topology.routing=pathbits", "switch.adaptive=max_credit", "switch.hoq_life=8" },
    };
    static const double loads[5] = { 0.10, 0.15, 0.20, 0.25, 0.28 };
    static const double w[7] = { 0.55, 0.7, 0.85, 1.0, 1.15, 1.3, 1.45 };
    double wall = 0, cpu = 0;
    unsigned long long ev = 0, hops = 0;
    int runs = 0, stuck = 0;
    for (int s = 0; s < 7 && !only_hops; s++)
        for (int l = 0; l < 5; l++) {
            char buf[10][96];
            const char *over[14];
            int n = 0;
            for (int k = 0; k < 7; k++) {
                snprintf(buf[k], sizeof buf[k], "flows.V%d.load=%.9g", k + 1, loads[l] * 0.7 * w[k] / 7);
                over[n++] = buf[k];
            }
            snprintf(buf[7], sizeof buf[7], "flows.RD.load=%.9g", loads[l] * 0.15);
            snprintf(buf[8], sizeof buf[8], "flows.UD.load=%.9g", loads[l] * 0.15);
            over[n++] = buf[7];
            over[n++] = buf[8];
            over[n++] = "topology.args=switches=30,ports=5,hosts=1,links=46,planar=1,link=2.5Gb/s";
            for (int i = 0; i < 3 && scheme[s][i]; i++)
                over[n++] = scheme[s][i];
            struct res r;
            if (run(mix, over, n, &r))
                return 1;
            wall += r.wall, cpu += r.cpu, ev += r.events, hops += r.hops;
            runs++;
            stuck += !r.drained;
        }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (!only_hops) {
    printf("seed 004 Fig. 9 sweep (30 nodes, 7 schemes x 5 loads, 200 ms each, one core): %d runs "
           "(%d stuck), %.1f s wall, %.1f CPU s, %.3g events/CPU-s, %.3g packet-hops/CPU-s, peak RSS "
           "%.1f MiB (target: under 300 s)\n", runs, stuck, wall, cpu, (double)ev / cpu,
           (double)hops / cpu, (double)ru.ru_maxrss / 1024.0);
    printf("BENCH name=\"seed004-fig9-sweep\" wall_s=%.3f cpu_s=%.3f events=%llu hops=%llu\n", wall,
           cpu, ev, hops);
    }
    /* Dropping (HV 4) on every multipath run: path-bit routes are cyclic and would otherwise
     * deadlock (docs/seed004.md); SPF runs as it is, and once with the same dropping, so that
     * the routing's cost is compared with all else equal. */
    enum { NAD = 5 };
    static const struct { const char *name; const char *over[6]; } ad[NAD] = {
        { "SPF (deterministic)", { NULL } },
        { "pathbits, random bits (table lookup)", { "topology.routing=pathbits", "topology.path_bits=7",
                                         "switch.hoq_life=4", "flows.BE.path=random" } },
        { "pathbits, adaptive LFU", { "topology.routing=pathbits", "topology.path_bits=7",
                                      "switch.hoq_life=4", "flows.BE.path=adaptive",
                                      "switch.adaptive=lfu" } },
        { "pathbits, adaptive Max-Credit", { "topology.routing=pathbits", "topology.path_bits=7",
                                             "switch.hoq_life=4", "flows.BE.path=adaptive",
                                             "switch.adaptive=max_credit" } },
        { "SPF with the same dropping (HV 4)", { "switch.hoq_life=4" } },
    };
    double per_hop[NAD];
    for (int i = 0; i < NAD; i++) {
        const char *over[10] = { "flows.BE.load=0.3", "simulation.drain_limit=1 s",
                                 "simulation.duration=500 ms" };
        int n = 3;
        for (int k = 0; k < 6 && ad[i].over[k]; k++)
            over[n++] = ad[i].over[k];
        struct res r;
        if (run(be, over, n, &r))
            return 1;
        per_hop[i] = r.cpu / (double)r.hops * 1e9;
        printf("15-node best effort 30 %%, %-36s %.3f CPU s, %llu packet-hops, %.1f ns CPU per "
               "packet-hop (%.3g hops/CPU-s)%s\n", ad[i].name, r.cpu, r.hops, per_hop[i],
               (double)r.hops / r.cpu, r.drained ? "" : ", STUCK");
        printf("BENCH name=\"seed004-hop-%d\" cpu_s=%.3f hops=%llu ns_per_hop=%.2f\n", i, r.cpu,
               r.hops, per_hop[i]);
    }
    printf("adaptive choice CPU per packet-hop / deterministic SPF: LFU %.2fx, Max-Credit %.2fx; "
           "/ table lookup with random bits: LFU %.2fx, Max-Credit %.2fx (target: at most 1.5x)\n",
           per_hop[2] / per_hop[0], per_hop[3] / per_hop[0], per_hop[2] / per_hop[1],
           per_hop[3] / per_hop[1]);
    printf("adaptive choice CPU per packet-hop / SPF with the same dropping: LFU %.2fx, "
           "Max-Credit %.2fx\n", per_hop[2] / per_hop[4], per_hop[3] / per_hop[4]);
    return 0;
}

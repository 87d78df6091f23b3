/* bench_routing.c: how long routing takes and how much memory it needs. Builds the 648-node
 * three-stage fat tree (36-port switches), the 11,664-node three-level fat tree of 36-port
 * switches and the 27,648-node one of 48-port switches, routes each with minhop and ftree, and
 * prints the time to generate and check the topology (names, cabling, connectivity, LIDs), the
 * time to route, and peak RSS (getrusage). Each case runs in its own child process so that its
 * peak RSS is its own. Targets (checking plus routing): under 1 s for 648 nodes, 10 s for
 * 11,664 and 60 s for 27,648 (issue 12), and 2 GiB.
 * Usage: bench_routing [ENGINE...] (default: minhop ftree). Not a timed test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "routing/route.h"
#include "topology/generate.h"

/* CPU seconds of this process: the targets are per core, and a loaded machine does not
 * change them (the wall time is printed beside). */
static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
}

/* One case in this process: prints its row; exit status 1 when over target. */
static int run_case(const char *label, const char *gen, const char *args, double limit_s,
                    const char *engine)
{
    struct topo t;
    struct ibn_err e = { { 0 } };
    double t0 = cpu(), w0 = now();
    if (topo_generate(gen, args, 1, &t, &e)) {
        fprintf(stderr, "bench_routing: %s\n", e.msg);
        return 2;
    }
    double t1 = cpu();
    struct lfts l;
    if (route_compute(&t, engine, NULL, &l, &e)) {
        fprintf(stderr, "bench_routing: %s: %s\n", engine, e.msg);
        topo_free(&t);
        return 2;
    }
    double t2 = cpu(), w2 = now();
    double rss = peak_rss_mib();
    int over = t2 - t0 > limit_s || rss > 2048;
    printf("%-40s %-8s %8d %10.3f %10.3f %10.3f %12.1f%s\n", label, engine,
           topo_count(&t, TOPO_CA), t1 - t0, t2 - t1, w2 - w0, rss, over ? "  OVER TARGET" : "");
    fflush(stdout);
    lfts_free(&l);
    topo_free(&t);
    return over;
}

int main(int argc, char **argv)
{
    const char *def[] = { "minhop", "ftree" };
    const char **engines = argc > 1 ? (const char **)argv + 1 : def;
    int nengines = argc > 1 ? argc - 1 : 2;
    const struct {
        const char *label, *gen, *args;
        double limit_s;
    } cases[] = {
        { "648-node 3-stage fat tree (36-port)", "fattree", "ports=36,levels=2", 1.0 },
        { "11664-node 3-level fat tree (36-port)", "fattree", "ports=36,levels=3", 10.0 },
        { "27648-node 3-level fat tree (48-port)", "fattree", "ports=48,levels=3", 60.0 },
    };
    int fail = 0;
    printf("%-40s %-8s %8s %10s %10s %10s %12s\n", "topology", "engine", "hosts", "check cpu",
           "route cpu", "wall s", "peak RSS MiB");
    fflush(stdout);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int k = 0; k < nengines; k++) {
            pid_t pid = fork();
            if (pid < 0) {
                perror("bench_routing: fork");
                return 2;
            }
            if (pid == 0)
                _exit(run_case(cases[c].label, cases[c].gen, cases[c].args, cases[c].limit_s,
                               engines[k]));
            int status = 0;
            if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
                return 2;
            fail |= WEXITSTATUS(status);
        }
    return fail;
}

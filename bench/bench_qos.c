/* bench_qos.c: how long connection admission takes. Builds the 648-node three-stage fat tree
 * (36-port switches, ftree routes) and asks seed 001's hop-by-hop admission control (CESY
 * tables, 80 % cap, Table 2's SLs) for 10,000 connections between random hosts; then the
 * same until 1,000 consecutive refusals on seed 001's 64-switch irregular network (Table 3's
 * largest). Prints requests per second and wall time. Target: 10,000 requests on the fat tree
 * in under 1 s. Not a timed test. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "qos/admit.h"
#include "qos/conn.h"
#include "routing/route.h"
#include "topology/generate.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run(const char *label, const char *gen, const char *args, const char *engine, long long requests,
               long long stop_fails, double limit_s)
{
    struct topo t;
    struct lfts l;
    struct ibn_err e = { { 0 } };
    if (topo_generate(gen, args, 1, &t, &e)) {
        fprintf(stderr, "bench_qos: %s\n", e.msg);
        return 1;
    }
    struct route_opts ro = { .seed = 1 };
    if (route_compute(&t, engine, &ro, &l, &e)) {
        fprintf(stderr, "bench_qos: %s\n", e.msg);
        return 1;
    }
    struct cac a;
    struct cac_cfg c;
    struct conn_gen g;
    cac_cfg_defaults(&c);
    memset(&g, 0, sizeof g);
    conn_table2(&g, &c);
    g.mode = CONN_FILL;
    g.max_requests = requests;
    g.stop_fails = stop_fails;
    g.seed = 1;
    cac_init(&a, &t, &l, &c, &e);
    struct conn_set s;
    double t0 = now();
    if (conn_run(&a, &g, &s, &e)) {
        fprintf(stderr, "bench_qos: %s\n", e.msg);
        return 1;
    }
    double dt = now() - t0;
    printf("%-34s %9llu requests %8llu accepted  %.3f s  %.2f M requests/s%s\n", label,
           (unsigned long long)a.st.requests, (unsigned long long)a.st.accepted, dt,
           (double)a.st.requests / dt / 1e6, limit_s > 0 && dt > limit_s ? "  OVER TARGET" : "");
    int over = limit_s > 0 && dt > limit_s;
    conn_set_free(&s);
    cac_free(&a);
    lfts_free(&l);
    topo_free(&t);
    return over;
}

int main(void)
{
    int bad = run("fat tree 648, 10,000 requests", "fattree", "ports=36,levels=2", "ftree", 10000, 0, 1.0);
    bad |= run("irregular 64 switches, 1,000 refusals", "irregular", "switches=64,link=2.5Gb/s", "updn", 0, 1000, 0);
    return bad;
}

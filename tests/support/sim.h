/* sim.h: helpers for tests that build and run a fabric directly (without a scenario file):
 * a topology from a generator, minhop routes, default settings, flows added one by one; and
 * for tests that run a scenario file through the whole chain (struct scenario_run). */
#ifndef IBN_TEST_SIM_H
#define IBN_TEST_SIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/scenario.h"
#include "core/params.h"
#include "core/units.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "fabric/settings.h"
#include "routing/route.h"
#include "topology/generate.h"

struct testsim {
    struct topo topo;
    struct lfts lfts;
    struct run_desc d;
    struct fabric f;
    struct run_report rep;
    struct ibn_err err;
};

static inline void ts_init(struct testsim *s, const char *gen, const char *args)
{
    memset(s, 0, sizeof *s);
    if (topo_generate(gen, args, 1, &s->topo, &s->err) ||
        route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err)) {
        fprintf(stderr, "test setup: %s\n", s->err.msg);
        abort();
    }
    fabric_settings_defaults(&s->d.set);
    s->d.warmup = 0;
    s->d.end = PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
}

/* A line: H1 -- S1 -- H2 with the given cables (width/speed or rate text) and delays, and
 * minhop routes; settings at their defaults. */
static inline void ts_init_line(struct testsim *s, const char *link_in, const char *link_out,
                                simtime_t delay)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int sw = topo_add_node(&s->topo, TOPO_SWITCH, "S1", 2);
    int h1 = topo_add_node(&s->topo, TOPO_CA, "H1", 1), h2 = topo_add_node(&s->topo, TOPO_CA, "H2", 1);
    const char *links[2] = { link_in, link_out };
    int hosts[2] = { h1, h2 };
    for (int i = 0; i < 2; i++) {
        int w = 4;
        enum ib_speed sp = IB_SDR;
        double rate = 0;
        char why[128];
        if (ib_parse_width_speed(links[i], &w, &sp) && units_parse_rate(links[i], &rate, why, sizeof why))
            abort();
        if (topo_connect(&s->topo, sw, i + 1, hosts[i], 1, w, sp, rate, delay, &s->err))
            abort();
    }
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    s->d.end = PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
}

/* A star: S1 with hosts H1..Hn on 4x QDR cables, each of `delay` (or per_host[i] when given),
 * minhop routes; settings at their defaults, the end left to the caller. */
static inline void ts_init_star(struct testsim *s, int n, simtime_t delay, const simtime_t *per_host)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int sw = topo_add_node(&s->topo, TOPO_SWITCH, "S1", n);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "H%d", i + 1);
        int h = topo_add_node(&s->topo, TOPO_CA, name, 1);
        if (topo_connect(&s->topo, sw, i + 1, h, 1, 4, IB_QDR, 0, per_host ? per_host[i] : delay, &s->err))
            abort();
    }
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
}

/* Add a flow: kind is an arrival kind name ("saturate", "poisson", ...). */
static inline struct flow_desc *ts_flow(struct testsim *s, const char *name, const char *src,
                                        const char *dst, const char *kind, const char *rate,
                                        const char *msg_size, simtime_t start, simtime_t stop)
{
    s->d.flows = realloc(s->d.flows, (size_t)(s->d.nflows + 1) * sizeof *s->d.flows);
    struct flow_desc *fd = &s->d.flows[s->d.nflows++];
    memset(fd, 0, sizeof *fd);
    fd->name = strdup(name);
    fd->src = strdup(src);
    fd->dst = strdup(dst);
    fd->start = start;
    fd->stop = stop;
    char why[256];
    if (params_set_defaults(arrival_params, &fd->arr, why, sizeof why) ||
        param_set(params_find(arrival_params, "kind"), &fd->arr, kind, why, sizeof why) ||
        (rate && param_set(params_find(arrival_params, "rate"), &fd->arr, rate, why, sizeof why)) ||
        (msg_size && param_set(params_find(arrival_params, "msg_size"), &fd->arr, msg_size, why, sizeof why))) {
        fprintf(stderr, "test flow: %s\n", why);
        abort();
    }
    fd->arr.random_phase = 0;
    return fd;
}

/* Build and run; aborts the test on a build error or a broken invariant. */
static inline void ts_run(struct testsim *s)
{
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err)) {
        fprintf(stderr, "build: %s\n", s->err.msg);
        abort();
    }
    if (fabric_run(&s->f, NULL, &s->rep, &s->err)) {
        fprintf(stderr, "run: %s\n", s->err.msg);
        abort();
    }
}

static inline struct flow *ts_find(struct testsim *s, const char *name)
{
    for (uint32_t i = 0; i < s->f.nflows; i++)
        if (!strcmp(s->f.flows[i].name, name))
            return &s->f.flows[i];
    fprintf(stderr, "no flow %s\n", name);
    abort();
}

/* Payload throughput of a flow over the measured period, Gb/s. */
static inline double ts_gbps(struct testsim *s, const char *name)
{
    struct flow *fl = ts_find(s, name);
    return (double)fl->st.bytes_delivered * 8.0 / ((double)(s->f.end - s->f.warmup) / 1e12) / 1e9;
}

static inline void ts_free(struct testsim *s)
{
    fabric_free(&s->f);
    for (int i = 0; i < s->d.nflows; i++) {
        free(s->d.flows[i].name);
        free(s->d.flows[i].src);
        free(s->d.flows[i].dst);
        params_free(arrival_params, &s->d.flows[i].arr);
    }
    free(s->d.flows);
    lfts_free(&s->lfts);
    topo_free(&s->topo);
}

/* A scenario file run through the whole chain: loaded with overrides, its topology and
 * routes, the run's description, the fabric, the scenario's own settings (connections,
 * tables), the run. Everything it made stays readable until sr_free. */
struct scenario_run {
    struct scenario sc;
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    struct run_report rep;
    struct ibn_err e;
};

/* Load `path` with `nover` overrides ("section.key=value") and run it: 0, or -1 with r->e. */
static inline int sr_run(struct scenario_run *r, const char *path, const char *const *over, int nover)
{
    memset(r, 0, sizeof *r);
    int rc = scenario_load(path, (char *const *)over, nover, &r->sc, &r->e) ||
             scenario_topology(&r->sc, &r->t, &r->l, &r->e) ||
             scenario_run_desc(&r->sc, &r->t, &r->d, &r->e) ||
             fabric_build(&r->f, &r->t, &r->l, &r->d, &r->e) || scenario_apply(&r->sc, &r->f, &r->e) ||
             fabric_run(&r->f, NULL, &r->rep, &r->e);
    return rc ? -1 : 0;
}

static inline void sr_free(struct scenario_run *r)
{
    fabric_free(&r->f);
    lfts_free(&r->l);
    topo_free(&r->t);
    scenario_free(&r->sc);
}

#endif

/* cmd_run.c: `ibnetsim run SCENARIO [-s section.key=value]... [-o DIR] [-q]`: loads the
 * scenario, builds the fabric, runs it with a progress line on a terminal, and writes the
 * results folder: scenario.cfg (the resolved scenario), summary.json, flows.csv, ports.csv.
 * An interrupt (Ctrl-C) stops the run early; what was measured so far is still written. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/scenario.h"
#include "cc/cc.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "stats/latency_csv.h"
#include "stats/results.h"

static volatile int interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim run SCENARIO [-s section.key=value]... [-o DIR] [-q] [--check]\n\n"
            "Runs the scenario and writes its results into DIR (default: runs/NAME, NAME being the\n"
            "scenario file's name without .cfg):\n"
            "  scenario.cfg   the resolved scenario: every key, defaults made explicit\n"
            "  summary.json   per flow, per class (SL) and per port (perfquery counters), the run's\n"
            "                 outcome and its invariants\n"
            "  flows.csv      throughput of every flow (Gb/s, payload) per sample interval\n"
            "  hosts.csv      payload received by every host (Gb/s) per sample interval\n"
            "  classes.csv    throughput of every SL (Gb/s) per sample interval\n"
            "  latency.csv    latency distributions (network, end to end) per SL and overall\n"
            "  ports.csv      receive-buffer occupancy of every switch port (bytes) per sample\n"
            "  cc.csv         with congestion control: every flow's CCTI per sample\n"
            "  cc_ports.csv   with congestion control: FECN marks and time in the congestion state\n"
            "                 per switch port and VL; FECNs, CNPs and BECNs per adapter port\n"
            "  cc_flows.csv   with congestion control: FECN and BECN counts and CCTI per flow\n\n"
            "  -s KEY=VALUE   override a scenario key, e.g. -s switch.arch=fifo, -s simulation.seed=2,\n"
            "                 -s flows.F1.rate=\"5 Gb/s\", -s flows.*.msg_size=4096\n"
            "  -o DIR         the results folder (created if needed)\n"
            "  -q             no summary on standard output, no progress line\n"
            "  --check        only load the scenario and build the fabric, then stop\n\n"
            "Exit status: 0 success, 1 the run broke a model invariant or did not drain, 2 bad input.\n"
            "The scenario format is described in docs/scenario.md; `ibnetsim keys` lists every key.\n");
}

static int mkdirs(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

struct progress {
    struct timespec start, last;
    int on;
};

static double since(const struct timespec *a)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - a->tv_sec) + (double)(now.tv_nsec - a->tv_nsec) / 1e9;
}

static void progress(struct fabric *f, void *ctx)
{
    struct progress *p = ctx;
    if (!p->on || since(&p->last) < 0.5)
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    double wall = since(&p->start);
    if (wall < 1.0)
        return;
    fprintf(stderr, "\r  t = %.6f s of %.6f s (%3.0f %%), %.2f M events/s   ",
            (double)f->now / 1e12, (double)f->end / 1e12,
            f->now >= f->end ? 100.0 : 100.0 * (double)f->now / (double)f->end,
            (double)f->events / wall / 1e6);
}

struct observer_ctx {
    struct series series;
    struct progress prog;
};

static void sample(struct fabric *f, void *ctx)
{
    series_sample(f, &((struct observer_ctx *)ctx)->series);
}

static void tick(struct fabric *f, void *ctx)
{
    progress(f, &((struct observer_ctx *)ctx)->prog);
}

/* The resolved settings as JSON (every key of the model's sections), so that every result
 * says which model made it. */
static json_t *settings_json(const struct scenario *sc)
{
    static const struct { const char *name; const struct param *tab; size_t off; } secs[] = {
        { "simulation", sim_params, offsetof(struct scenario, sim) },
        { "topology", topo_params, offsetof(struct scenario, topo) },
        { "fabric", fabric_params, offsetof(struct scenario, set) },
        { "switch", switch_params, offsetof(struct scenario, set) },
        { "hca", hca_params, offsetof(struct scenario, set) },
        { "transport", transport_params, offsetof(struct scenario, set) },
        { "qos", qos_params, offsetof(struct scenario, qos) },
    };
    json_t *o = json_object();
    char buf[1024];
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
        json_t *g = json_object();
        for (const struct param *p = secs[i].tab; p->key; p++) {
            param_format_value(p, (const char *)sc + secs[i].off, buf, sizeof buf);
            json_object_set_new(g, p->key, json_string(buf));
        }
        json_object_set_new(o, secs[i].name, g);
    }
    json_t *cc = json_object();
    json_object_set_new(cc, "plugin", json_string(sc->cc));
    for (const struct param *p = sc->ccp->params; p->key; p++) {
        param_format(p, sc->cc_desc, buf, sizeof buf);
        size_t n = strlen(buf);
        if (n >= 2 && buf[0] == '"') {
            buf[n - 1] = 0;
            json_object_set_new(cc, p->key, json_string(buf + 1));
        } else {
            json_object_set_new(cc, p->key, json_string(buf));
        }
    }
    if (sc->cc_note)
        json_object_set_new(cc, "opensm_conf_note", json_string(sc->cc_note));
    json_object_set_new(o, "cc", cc);
    return o;
}

int cmd_run(int argc, char **argv)
{
    const char *scen = NULL, *outdir = NULL;
    int quiet = 0, nover = 0, check_only = 0;
    char **over = calloc((size_t)argc + 1, sizeof *over);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(over);
            return 0;
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            over[nover++] = argv[++i];
        } else if (!strncmp(argv[i], "-s", 2) && argv[i][2]) {
            over[nover++] = argv[i] + 2;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            outdir = argv[++i];
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--check")) {
            check_only = 1;
        } else if (argv[i][0] == '-' || scen) {
            fprintf(stderr, "ibnetsim run: unexpected argument \"%s\"\n\n", argv[i]);
            usage(stderr);
            free(over);
            return 2;
        } else {
            scen = argv[i];
        }
    }
    if (!scen) {
        usage(stderr);
        free(over);
        return 2;
    }
    struct ibn_err e;
    struct scenario sc;
    int rc = scenario_load(scen, over, nover, &sc, &e);
    free(over);
    if (rc) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        scenario_free(&sc);
        return 2;
    }
    char dir[4096];
    if (outdir) {
        snprintf(dir, sizeof dir, "%s", outdir);
    } else {
        const char *base = strrchr(scen, '/');
        base = base ? base + 1 : scen;
        snprintf(dir, sizeof dir, "runs/%s", base);
        char *dot = strrchr(dir, '.');
        if (dot && dot > dir + 5)
            *dot = 0;
    }
    struct topo t;
    struct lfts l;
    memset(&t, 0, sizeof t);
    memset(&l, 0, sizeof l);
    struct run_desc d;
    struct fabric f;
    memset(&f, 0, sizeof f);
    if (scenario_topology(&sc, &t, &l, &e) || scenario_run_desc(&sc, &t, &d, &e) ||
        fabric_build(&f, &t, &l, &d, &e) || scenario_apply(&sc, &f, &e) ||
        cc_attach(&f, sc.ccp, sc.cc_desc, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        fabric_free(&f);
        lfts_free(&l);
        topo_free(&t);
        scenario_free(&sc);
        return 2;
    }
    if (check_only) {
        printf("%s: the scenario loads and the fabric builds (%d nodes, %d hosts, %u flows)\n", scen,
               f.nnodes, f.nhosts, f.nflows);
        fabric_free(&f);
        lfts_free(&l);
        topo_free(&t);
        scenario_free(&sc);
        return 0;
    }
    if (mkdirs(dir)) {
        fprintf(stderr, "ibnetsim run: cannot create the results folder %s: %s\n", dir, strerror(errno));
        return 2;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/scenario.cfg", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "ibnetsim run: cannot write %s\n", path);
        return 2;
    }
    scenario_write(&sc, fp);
    fclose(fp);

    struct observer_ctx oc;
    memset(&oc, 0, sizeof oc);
    if (series_open(&oc.series, &f, dir, sc.out.flow_series, sc.out.port_series,
                    sc.out.contributors, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        return 2;
    }
    oc.prog.on = !quiet && sc.out.progress == 1 && isatty(2);
    clock_gettime(CLOCK_MONOTONIC, &oc.prog.start);
    oc.prog.last = oc.prog.start;
    struct fabric_observer obs = { sample, tick, &oc };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    f.interrupt = &interrupted;

    struct run_report rep;
    int broken = fabric_run(&f, &obs, &rep, &e);
    double wall = since(&oc.prog.start);
    if (oc.prog.on && wall >= 1.0)
        fprintf(stderr, "\n");
    json_t *j = results_summary(&f, &rep, settings_json(&sc), &oc.series);
    series_close(&oc.series);
    if (f.hooks.report)
        f.hooks.report(&f, j);
    struct ibn_err te;
    if (results_write_cc_tables(&f, dir, &te))
        fprintf(stderr, "ibnetsim run: %s\n", te.msg);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    struct ibn_err we;
    int werr = results_write_json(j, path, &we);
    if (!werr)
        werr = latency_csv_write(&f, dir, &we);
    json_decref(j);
    if (!quiet) {
        results_print(stdout, &f, &rep);
        printf("wall %.3f s, %.3g events/s, %.3g packet-hops/s; results in %s/\n", wall,
               wall > 0 ? (double)f.events / wall : 0.0, wall > 0 ? (double)f.hops / wall : 0.0, dir);
    }
    int status = 0;
    if (werr) {
        fprintf(stderr, "ibnetsim run: %s\n", we.msg);
        status = 1;
    }
    if (broken) {
        fprintf(stderr, "ibnetsim run: %s", e.msg);
        status = 1;
    } else if (rep.outcome == RUN_STUCK || rep.outcome == RUN_DRAIN_TIMEOUT) {
        fprintf(stderr, "ibnetsim run: the fabric did not drain: %llu packets still in it %s\n",
                (unsigned long long)rep.in_flight,
                rep.outcome == RUN_STUCK ? "and nothing can move (a deadlock)"
                                         : "when the drain limit (simulation.drain_limit) ran out");
        status = 1;
    } else if (rep.outcome == RUN_INTERRUPTED) {
        fprintf(stderr, "ibnetsim run: interrupted; results so far are in %s/\n", dir);
        status = 130;
    }
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return status;
}

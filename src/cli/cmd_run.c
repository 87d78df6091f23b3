/* cmd_run.c: `ibnetsim run SCENARIO [-s section.key=value]... [-o DIR] [-q]`: loads the
 * scenario, builds the fabric, runs it with a progress line on a terminal, and writes the
 * results folder: scenario.cfg (the resolved scenario), summary.json, flows.csv, ports.csv.
 * The folder is written beside its target and renamed into place (cli/resdir). An interrupt
 * (Ctrl-C, SIGTERM) stops the run early; what was measured so far is still written, as
 * DIR.partial. Every output is checked (core/output): a failed write exits 3. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/scenario.h"
#include "dist/dist.h"
#include "dist/partition.h"
#include "cc/cc.h"
#include "cli/distexe.h"
#include "cli/resdir.h"
#include "core/output.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "fabric/swarch.h"
#include "stats/latency_csv.h"
#include "core/units.h"
#include "stats/capture.h"
#include "stats/watch.h"
#include "stats/timeline.h"
#include "stats/results.h"

/* Why the run stops early: 0 it does not, SIGINT or SIGTERM, or STOP_OUTPUT (a series file
 * could not be written). The engine polls it (fabric.interrupt) every 2^14 events. */
#define STOP_OUTPUT (-1)
static volatile int stop;
static char again_msg[4400];
static size_t again_len;

/* The first SIGINT/SIGTERM stops the run, whose results so far are still written (as
 * DIR.partial); a second one exits at once, leaving the temporary folder. */
/* What a second signal says before exiting: "...; WHERE" (NULL: nothing more). Called with the
 * signals blocked, or before the handler is installed. */
static void say_again(const char *where)
{
    snprintf(again_msg, sizeof again_msg, "\nibnetsim run: interrupted again: exiting at once%s%s\n",
             where ? "; " : "", where ? where : "");
    again_len = strlen(again_msg);
}

static void on_signal(int sig)
{
    if (stop > 0) {
        if (write(2, again_msg, again_len) < 0) {
            /* nothing more can be done */
        }
        _exit(sig == SIGTERM ? IBN_EXIT_SIGTERM : IBN_EXIT_SIGINT);
    }
    stop = sig;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim run SCENARIO [-s section.key=value]... [-o DIR] [-q] [--check]\n"
            "                    [--ranks N] [--partition auto|bfs|metis] [--rank-timeout S]\n\n"
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
            "  ports_index.csv  each ports.csv column's switch, port, LID, GUID and peer\n"
            "  cc.csv         with congestion control: every flow's CCTI per sample\n"
            "  cc_ports.csv   with congestion control: FECN marks and time in the congestion state\n"
            "                 per switch port and VL; FECNs, CNPs and BECNs per adapter port\n"
            "  cc_flows.csv   with congestion control: FECN and BECN counts and CCTI per flow\n"
            "and on request: counters.csv (output.counter_series: perfquery counters per interval),\n"
            "flow-latency.csv (output.flow_latency: latency distributions per flow), capture.pcap\n"
            "(output.capture_ports: Wireshark), timeline.json (output.timeline_ports: a trace for\n"
            "ui.perfetto.dev or chrome://tracing).\n\n"
            "  -s KEY=VALUE   override a scenario key, e.g. -s switch.arch=fifo, -s simulation.seed=2,\n"
            "                 -s flows.F1.rate=\"5 Gb/s\", -s flows.*.msg_size=4096\n"
            "  -o DIR         the results folder (created if needed)\n"
            "  -q             no summary on standard output, no progress line\n"
            "  --check        only load the scenario and build the fabric, then stop\n"
            "  --ranks N      run on N MPI ranks (starts mpirun -n N --oversubscribe; the same as\n"
            "                 'mpirun -n N ibnetsim run ...'): one run split over processes, with\n"
            "                 results byte-identical to the sequential run (docs/distributed.md;\n"
            "                 features not distributed yet are refused, naming their key)\n"
            "  --partition M  the distributed run's partitioner: auto (METIS if built), bfs, metis\n"
            "  --rank-timeout S  a rank that waits for the others longer than S seconds at a\n"
            "                 window's exchange stops the distributed run with exit status 4,\n"
            "                 naming itself and the window (default 300; 0 waits for ever)\n\n"
            "The results are written into DIR.tmp-XXXXXX beside DIR and renamed to DIR when complete,\n"
            "replacing an earlier results folder DIR as a whole (a folder that is not a results folder\n"
            "is refused). An interrupted run (SIGINT, SIGTERM) puts what it measured in DIR.partial\n"
            "and leaves DIR as it was; a second signal exits at once, leaving DIR.tmp-XXXXXX.\n\n"
            "Exit status: 0 success, 1 the run broke a model invariant or did not drain, 2 bad input,\n"
            "3 an output could not be written (the message names the file and the reason),\n"
            "4 a rank of a distributed run waited for the others beyond --rank-timeout,\n"
            "130 interrupted by SIGINT, 143 stopped by SIGTERM.\n"
            "The scenario format is described in docs/scenario.md; `ibnetsim keys` lists every key.\n");
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
    struct observer_ctx *oc = ctx;
    series_sample(f, &oc->series);
    if (series_failed(&oc->series))
        stop = STOP_OUTPUT; /* no use running on: the results cannot be written */
}

static void boundary(struct fabric *f, void *ctx, simtime_t t)
{
    series_boundary(f, &((struct observer_ctx *)ctx)->series, t);
}

static void tick(struct fabric *f, void *ctx)
{
    progress(f, &((struct observer_ctx *)ctx)->prog);
}

/* One setting as JSON with its JSON type: whole numbers and numbers as numbers, switches as
 * true/false, names and quantities with their unit ("10 ms", "64 KiB", "13.5 Gb/s") as the
 * scenario writes them. */
static json_t *param_json(const struct param *p, const void *obj)
{
    const char *field = (const char *)obj + p->offset;
    switch (p->type) {
    case P_INT:
        return json_integer((json_int_t)*(const long long *)field);
    case P_DOUBLE:
        return json_real(*(const double *)field);
    case P_BOOL:
        return json_boolean(*(const int *)field);
    default: {
        char buf[1024];
        param_format_value(p, obj, buf, sizeof buf);
        return json_string(buf);
    }
    }
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
        { "isolation", isol_params, offsetof(struct scenario, set) },
        { "draw", draw_params, offsetof(struct scenario, set) },
        { "qos", qos_params, offsetof(struct scenario, qos) },
        { "connections", conn_params, offsetof(struct scenario, conns) },
    };
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
        json_t *g = json_object();
        for (const struct param *p = secs[i].tab; p->key; p++)
            json_object_set_new(g, p->key, param_json(p, (const char *)sc + secs[i].off));
        json_object_set_new(o, secs[i].name, g);
    }
    if (sc->qos_note)
        json_object_set_new(json_object_get(o, "qos"), "opensm_conf_note", json_string(sc->qos_note));
    json_t *cc = json_object();
    json_object_set_new(cc, "plugin", json_string(sc->cc));
    for (const struct param *p = sc->ccp->params; p->key; p++)
        json_object_set_new(cc, p->key, param_json(p, sc->cc_desc));
    if (sc->cc_note)
        json_object_set_new(cc, "opensm_conf_note", json_string(sc->cc_note));
    json_object_set_new(o, "cc", cc);
    return o;
}

/* Run the built fabric and write its results folder DIR (cli/resdir); the exit status. */
/* A distributed run's rank other than 0: it runs its part and writes nothing (rank 0
 * gathers and writes). Waits for rank 0's go (its results folder is open). */
static int run_rank(struct fabric *f)
{
    if (!dist_go(1))
        return IBN_EXIT_INPUT;
    struct run_report rep;
    struct ibn_err e;
    int broken = dist_run(f, NULL, &rep, &e);
    return broken || rep.outcome == RUN_STUCK || rep.outcome == RUN_DRAIN_TIMEOUT ? IBN_EXIT_BROKEN : 0;
}

static int run_and_write_(struct scenario *sc, struct fabric *f, const struct lfts *l,
                          const char *dir, int quiet);
static int run_and_write(struct scenario *sc, struct fabric *f, const struct lfts *l,
                         const char *dir, int quiet)
{
    if (dist_active() && dist_rank() != 0)
        return run_rank(f);
    int status = run_and_write_(sc, f, l, dir, quiet);
    dist_on_abort(NULL, NULL); /* the temporary folder is gone or in place */
    dist_go(0); /* rank 0 failed before its run: the others stop (no effect after the go) */
    return status;
}

static void abandon(void *rd)
{
    resdir_abandon(rd);
}

static int run_and_write_(struct scenario *sc, struct fabric *f, const struct lfts *l,
                          const char *dir, int quiet)
{
    struct resdir rd;
    struct ibn_err e;
    if (series_check_size(f, sc->out.flow_series, sc->out.port_series, sc->out.counter_series, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        return IBN_EXIT_INPUT;
    }
    if (resdir_begin(&rd, dir, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        return e.output ? IBN_EXIT_OUTPUT : IBN_EXIT_INPUT;
    }
    dist_on_abort(abandon, &rd); /* a rank timeout removes the temporary folder */
    char where[4400];
    snprintf(where, sizeof where, "what was written is in %s", rd.tmp);
    say_again(where);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    f->interrupt = &stop;

    char path[4300];
    struct ibn_err we;
    int werr = 0;
    snprintf(path, sizeof path, "%s/scenario.cfg", rd.tmp);
    struct outfile *cfg = out_open(path, &we);
    if (!cfg)
        werr = -1;
    else {
        scenario_write(sc, cfg->fp);
        werr = out_close(cfg, &we);
    }
    struct observer_ctx oc;
    memset(&oc, 0, sizeof oc);
    if (!werr && series_open(&oc.series, f, rd.tmp, sc->out.flow_series, sc->out.port_series,
                             sc->out.contributors, &we))
        werr = -1;
    if (!werr && sc->out.queue_series && series_open_queues(&oc.series, rd.tmp, &we))
        werr = -1;
    if (!werr && sc->out.counter_series && series_open_counters(&oc.series, rd.tmp, &we))
        werr = -1;
    if (werr) { /* a file could not be written, or output.contributors names no flow */
        int output = we.output;
        series_close(&oc.series, NULL);
        resdir_abandon(&rd);
        fprintf(stderr, "ibnetsim run: %s\n", we.msg);
        return output ? IBN_EXIT_OUTPUT : IBN_EXIT_INPUT;
    }
    struct capture_desc cd = { sc->out.capture_ports, sc->out.capture_flows, sc->out.capture_start,
                               sc->out.capture_stop,
                               sc->out.capture_payload };
    snprintf(path, sizeof path, "%s/capture.pcap", rd.tmp);
    struct timeline_desc td = { sc->out.timeline_ports, sc->out.timeline_flows,
                                sc->out.timeline_start, sc->out.timeline_stop,
                                sc->out.timeline_max_events };
    int opened = capture_open(f, &cd, path, &we);
    if (!opened) {
        snprintf(path, sizeof path, "%s/timeline.json", rd.tmp);
        opened = timeline_open(f, &td, path, &we);
    }
    if (opened) {
        int output = we.output;
        struct ibn_err ignore;
        series_close(&oc.series, NULL);
        capture_close(f, &ignore);
        resdir_abandon(&rd);
        fprintf(stderr, "ibnetsim run: %s\n", we.msg);
        return output ? IBN_EXIT_OUTPUT : IBN_EXIT_INPUT;
    }
    oc.prog.on = !quiet && sc->out.progress == 1 && isatty(2);
    clock_gettime(CLOCK_MONOTONIC, &oc.prog.start);
    oc.prog.last = oc.prog.start;
    struct fabric_observer obs = { sample, tick, &oc, boundary };

    struct run_report rep;
    int nwarn = f->nwarn;
    int broken;
    if (dist_active()) {
        dist_go(1);
        broken = dist_run(f, &obs, &rep, &e);
    } else {
        broken = fabric_run(f, &obs, &rep, &e);
    }
    series_finish(&oc.series);
    double wall = since(&oc.prog.start);
    if (oc.prog.on && wall >= 1.0)
        fprintf(stderr, "\n");
    for (int i = nwarn; i < f->nwarn; i++) /* what the run itself warns about */
        fprintf(stderr, "ibnetsim run: warning: %s\n", f->warn[i]);
    json_t *j = results_summary(f, &rep, settings_json(sc), &oc.series);
    json_t *routing = json_object();
    json_object_set_new(routing, "engine", json_string(*sc->topo.lft_file ? "lft_file"
                                                       : l->engine));
    if (!*sc->topo.lft_file && strcmp(l->engine, scenario_routing_engine(&sc->topo)))
        json_object_set_new(routing, "chain", json_string(scenario_routing_engine(&sc->topo)));
    json_object_set_new(routing, "note", json_string(l->note));
    json_object_set_new(j, "routing", routing);
    if (*sc->cst)
        json_object_set_new(j, "connections", connections_json(*sc->cst, f));
    werr = series_close(&oc.series, &we);
    if (capture_count(f))
        json_object_set_new(j, "capture_packets", json_integer((json_int_t)capture_count(f)));
    if (capture_close(f, werr ? &e : &we) && !werr)
        werr = -1;
    if (f->timeline) {
        json_object_set_new(j, "timeline_events", json_integer((json_int_t)timeline_count(f)));
        json_object_set_new(j, "timeline_truncated", json_boolean(timeline_truncated(f)));
    }
    if (timeline_close(f, werr ? &e : &we) && !werr)
        werr = -1;
    if (f->hooks.report)
        f->hooks.report(f, j);
    if (sw_archs[f->set.arch]->report)
        sw_archs[f->set.arch]->report(f, j);
    if (!werr)
        werr = results_write_cc_tables(f, rd.tmp, &we);
    snprintf(path, sizeof path, "%s/summary.json", rd.tmp);
    if (!werr)
        werr = results_write_json(j, f, path, &we);
    if (!werr)
        werr = latency_csv_write(f, rd.tmp, &we);
    if (!werr && sc->out.flow_latency)
        werr = latency_csv_write_flows(f, rd.tmp, &we);
    json_decref(j);
    int partial = rep.outcome == RUN_INTERRUPTED;
    char final[4300];
    /* A second signal during the renaming must not name the temporary folder once it has
     * become DIR (or DIR.partial): the signals wait while the folder moves and the message
     * changes, and one that came meanwhile is handled after, naming where the results are. */
    sigset_t sigs, old_sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigprocmask(SIG_BLOCK, &sigs, &old_sigs);
    if (werr) {
        resdir_abandon(&rd);
        say_again(NULL);
    } else if (resdir_commit(&rd, partial, final, sizeof final, &we)) {
        werr = -1;
    } else {
        char done_at[4400];
        snprintf(done_at, sizeof done_at, "the results are in %s", final);
        say_again(done_at);
    }
    sigprocmask(SIG_SETMASK, &old_sigs, NULL);
    if (!quiet && dist_active()) {
        char how[256];
        dist_describe(f, how, sizeof how);
        printf("distributed run: %s\n", how);
    }
    if (!quiet) {
        results_print(stdout, f, &rep);
        printf("wall %.3f s, %.3g events/s, %.3g packet-hops/s; ", wall,
               wall > 0 ? (double)f->events / wall : 0.0, wall > 0 ? (double)f->hops / wall : 0.0);
        if (werr)
            printf("the results could not be written\n");
        else
            printf("results in %s/\n", final);
    }
    int status = 0;
    if (broken) {
        fprintf(stderr, "ibnetsim run: %s", e.msg);
        status = IBN_EXIT_BROKEN;
    } else if (rep.outcome == RUN_STUCK || rep.outcome == RUN_DRAIN_TIMEOUT) {
        char at[96] = "";
        if (rep.stalled_at) {
            char t[64];
            units_format_time(rep.stalled_at, t, sizeof t);
            snprintf(at, sizeof at, "; no packet moved after %s (simulation.stall_limit)", t);
        }
        fprintf(stderr, "ibnetsim run: the fabric did not drain: %llu packets still in it %s%s\n",
                (unsigned long long)rep.in_flight,
                rep.outcome == RUN_STUCK ? "and nothing can move (a deadlock)"
                                         : "when the drain limit (simulation.drain_limit) ran out",
                at);
        status = IBN_EXIT_BROKEN;
    } else if (partial && stop > 0) {
        if (!werr)
            fprintf(stderr, "ibnetsim run: %s; results so far are in %s/\n",
                    stop == SIGTERM ? "stopped by SIGTERM" : "interrupted", final);
        status = stop == SIGTERM ? IBN_EXIT_SIGTERM : IBN_EXIT_SIGINT;
    }
    if (werr) {
        fprintf(stderr, "ibnetsim run: %s\n", we.msg);
        status = IBN_EXIT_OUTPUT;
    }
    return status;
}

/* What a distributed run cannot do yet (docs/distributed.md section 3): the key that asks for
 * it, or NULL. Every rank decides the same from the same scenario. */
static const char *dist_unsupported(const struct scenario *sc, const struct fabric *f)
{
    if (strcmp(sc->cc, "none") && !f->hooks.dist_walk)
        return "cc.plugin (none, ibcc, alo, hostcredit, and ecnrate with cc.trigger = output_packets are distributed)";
    if (sc->sim.sample_interval > 0 && f->hooks.series_row && !f->hooks.dist_sample_get)
        return "simulation.sample_interval with this congestion control (cc.csv)";
    if (f->rtx)
        return "transport.retransmit (go-back-N: switch.loss, the lifetime limits under RC)";
    const char *arch = sw_archs[f->set.arch]->name;
    if (strcmp(arch, "voq") && strcmp(arch, "fifo") && strcmp(arch, "dbbm") && strcmp(arch, "pipe"))
        return "switch.arch (voq, fifo, dbbm and pipe are distributed)";
    if (f->loss_on)
        return "switch.loss / switch.loss_every";
    if (f->mc)
        return "multicast groups";
    if (sc->conns.live)
        return "connections.live";
    if (f->hca_on_msg)
        return "switch.arch (upstream messages)";
    for (uint32_t i = 0; i < f->nflows; i++) {
        const struct flow *fl = &f->flows[i];
        if (fl->pattern >= 4)
            return "flows: multicast";
    }
    return NULL;
}

/* --ranks N outside mpirun: run this command again under mpirun -n N. */
static int run_ranks(int argc, char **argv, long ranks)
{
    char **av = xcalloc((size_t)argc + 16, sizeof *av);
    int n = 0;
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%ld", ranks);
    av[n++] = "mpirun";
    av[n++] = "-n";
    av[n++] = nbuf;
    av[n++] = "--oversubscribe";
    if (geteuid() == 0)
        av[n++] = "--allow-run-as-root";
    int exe = n; /* the executable's place: after --allow-run-as-root or not */
    av[n++] = "/proc/self/exe";
    av[n++] = "run";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ranks")) {
            i++;
            continue;
        }
        av[n++] = argv[i];
    }
    av[n] = NULL;
    /* The ranks run the distributed executable: this one when it is (ibnetsim-dist), else
     * ibnetsim-dist found next to this one or in the install directory (cli/distexe.h). */
    static char self[4096];
    if (dist_built()) {
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k > 0) {
            self[k] = 0;
            av[exe] = self;
        }
    } else {
        char why[9000];
        if (distexe_find(self, sizeof self, why, sizeof why)) {
            fprintf(stderr, "ibnetsim run: --ranks: %s\n", why);
            free(av);
            return 2;
        }
        av[exe] = self;
    }
    fflush(stdout);
    execvp("mpirun", av);
    fprintf(stderr, "ibnetsim run: --ranks: cannot start mpirun: %s\n", strerror(errno));
    free(av);
    return 2;
}

int cmd_run(int argc, char **argv)
{
    const char *scen = NULL, *outdir = NULL;
    int quiet = 0, nover = 0, check_only = 0, method = PARTITION_AUTO;
    long ranks = 0;
    char **over = xcalloc((size_t)argc + 1, sizeof *over);
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
        } else if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
            char *end;
            ranks = strtol(argv[++i], &end, 10);
            if (*end || ranks < 1 || ranks > 4096) {
                fprintf(stderr, "ibnetsim run: --ranks expects a number of ranks from 1 to 4096, "
                        "got \"%s\"\n", argv[i]);
                free(over);
                return 2;
            }
        } else if (!strcmp(argv[i], "--rank-timeout") && i + 1 < argc) {
            char *end;
            double v = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(v >= 0) || v > 1e9) {
                fprintf(stderr, "ibnetsim run: --rank-timeout expects seconds from 0 (wait for ever) "
                        "to 1e9, got \"%s\"\n", argv[i]);
                free(over);
                return 2;
            }
            dist_set_timeout(v);
        } else if (!strcmp(argv[i], "--partition") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "auto"))
                method = PARTITION_AUTO;
            else if (!strcmp(argv[i], "bfs"))
                method = PARTITION_BFS;
            else if (!strcmp(argv[i], "metis"))
                method = PARTITION_METIS;
            else {
                fprintf(stderr, "ibnetsim run: --partition expects auto, bfs or metis, got \"%s\"\n",
                        argv[i]);
                free(over);
                return 2;
            }
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
    if (ranks > 0 && !dist_active()) { /* start the ranks: mpirun runs this command again */
        free(over);
        return run_ranks(argc, argv, ranks);
    }
    if (dist_active() && dist_rank() != 0)
        quiet = 1;
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
    int status;
    const char *why;
    int *part = NULL; /* a distributed run's partition: known before the build (dist.h) */
    int bad = scenario_topology(&sc, &t, &l, &e) || scenario_run_desc(&sc, &t, &d, &e);
    if (!bad && dist_active() && !check_only) {
        if (dist_partition(&t, method, &part, &e)) {
            if (dist_rank() == 0)
                fprintf(stderr, "ibnetsim run: %s\n", e.msg);
            status = IBN_EXIT_INPUT;
            goto done;
        }
        d.own_part = part;
        d.own_rank = dist_rank();
    }
    if (bad || fabric_build(&f, &t, &l, &d, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        status = IBN_EXIT_INPUT;
        goto done;
    }
    /* What the topology reader, the LFT dump reader and a routing fallback warn about. */
    for (int i = 0; i < t.nwarn; i++)
        fabric_warn(&f, "%s", t.warn[i]);
    if (l.note[0] && (*sc.topo.lft_file || strstr(l.note, "fell back") ||
                      strstr(l.note, "skipped, as OpenSM")))
        fabric_warn(&f, "%s", l.note);
    if (scenario_apply(&sc, &f, &e) || cc_attach(&f, sc.ccp, sc.cc_desc, &e)) {
        fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        status = IBN_EXIT_INPUT;
    } else if (check_only) {
        printf("%s: the scenario loads and the fabric builds (%d nodes, %d hosts, %u flows)\n", scen,
               f.nnodes, f.nhosts, f.nflows);
        status = IBN_EXIT_OK;
    } else if (dist_active() && (why = dist_unsupported(&sc, &f)) != NULL) {
        if (dist_rank() == 0)
            fprintf(stderr, "ibnetsim run: %s: not available in a distributed run yet "
                    "(docs/distributed.md); run it sequentially\n", why);
        status = IBN_EXIT_INPUT;
    } else if (dist_active() && (dist_attach(&f, &t, &l, part, &e) || (part = NULL))) {
        if (dist_rank() == 0)
            fprintf(stderr, "ibnetsim run: %s\n", e.msg);
        status = IBN_EXIT_INPUT;
    } else {
        if (f.dist) {
            f.dist->counters = (uint8_t)sc.out.counter_series;
            f.dist->queues = (uint8_t)(sc.out.queue_series && sc.sim.sample_interval > 0);
            f.dist->capture = (uint8_t)(*sc.out.capture_ports != 0);
            f.dist->timeline = (uint8_t)(*sc.out.timeline_ports != 0);
            /* The links watched, on every rank (rank 0's capture and timeline set their own
             * when they open; a bad name is reported there, and the others then stop). */
            struct ibn_err ignore;
            if (dist_rank() != 0 && f.dist->capture)
                watch_links(&f, sc.out.capture_ports, WATCH_CAPTURE, "output.capture_ports", &ignore);
            if (dist_rank() != 0 && f.dist->timeline)
                watch_links(&f, sc.out.timeline_ports, WATCH_TIMELINE, "output.timeline_ports", &ignore);
        }
        for (int i = 0; (!dist_active() || dist_rank() == 0) && i < f.nwarn; i++)
            fprintf(stderr, "ibnetsim run: warning: %s\n", f.warn[i]);
        status = run_and_write(&sc, &f, &l, dir, quiet);
    }
done:
    free(part);
    dist_detach(&f);
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return status;
}

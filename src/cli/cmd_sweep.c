/* cmd_sweep.c: `ibnetsim sweep SCENARIO -k KEY=VALUES [-k ...] [-s KEY=VALUE]... [-m PATH]...
 * [-j JOBS] [-o DIR]`: runs a scenario over a grid of parameter values on the cores of one
 * machine (one `ibnetsim run` child process per point, at most JOBS at once), or writes the
 * points as a Slurm job array / GNU parallel command list (--emit) and collects them later
 * (--merge); resumes an interrupted sweep (--resume); then writes DIR/sweep.csv (one row per
 * point, in grid order, so the file does not depend on JOBS: the fixed measures, the -m
 * measures, whether the point is saturated) and a gnuplot figure against the first swept key
 * with the saturation points marked. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/gnuplot.h"
#include "cli/sweep_measure.h"
#include "config/scenario.h"
#include "core/error.h"
#include "fabric/build.h"

#define MAX_POINTS 100000

static volatile sig_atomic_t sweep_interrupted;

static void on_signal(int sig)
{
    (void)sig;
    sweep_interrupted = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim sweep SCENARIO -k KEY=VALUES [-k KEY=VALUES]... [-s KEY=VALUE]...\n"
            "                      [-m PATH]... [--saturation FRAC] [--log-latency] [-j JOBS] [-o DIR]\n"
            "                      [-q] [--no-plot] [--resume | --emit slurm|parallel | --merge]\n\n"
            "Runs SCENARIO once per point of a grid of parameter values, on all cores, and\n"
            "collects the results in one folder DIR (default: sweeps/NAME):\n"
            "  point-NNN/    each point's results folder (as `ibnetsim run -o`); point-NNN.log its messages\n"
            "  sweep.csv     one row per point: the swept keys' values, offered_gbps (sum of the\n"
            "                flows' configured rates; empty if a flow has none, e.g. saturate),\n"
            "                accepted_gbps (payload delivered in the measured period),\n"
            "                net_latency_mean_ns, net_latency_p99_ns (network latency over all\n"
            "                flows' packets), e2e_latency_mean_ns, e2e_latency_p99_ns, the -m\n"
            "                measures, saturated (yes when accepted_gbps is more than FRAC below\n"
            "                the flows' offered payload, no, or empty when unknown), outcome\n"
            "  sweep.png/.svg  latency and accepted traffic against the first key (one curve per\n"
            "                combination of the other keys; the -m measures in a third panel;\n"
            "                the first saturated point of each curve marked), from plot-sweep.gp\n\n"
            "  -k KEY=VALUES  a swept key (scenario override syntax, e.g. flows.*.load) and its\n"
            "                 values: a list \"a,b,c\" (numbers or words) or a range FROM:TO:STEP of\n"
            "                 numbers (TO included). Several -k make a grid; the first key varies\n"
            "                 fastest, so point-000.. point-(n1-1) sweep the first key.\n"
            "  -s KEY=VALUE   a fixed override for every point (as for `ibnetsim run`)\n"
            "  -m PATH        a measure from each point's summary.json as a column: a dotted path\n"
            "                 where lists are entered by name (a flow, host, NODE:PORT port, slN\n"
            "                 class, or index), e.g. flows.victim.throughput_gbps,\n"
            "                 ports.S1:3.PortXmitWait, classes.sl1.network_latency.p99_ns; a glob\n"
            "                 matching several takes :sum, :mean, :min or :max\n"
            "                 (flows.*.throughput_gbps:min); [a.b] quotes a name with dots\n"
            "  --saturation FRAC  how far below the offered payload the accepted traffic must\n"
            "                 fall for a point to count as saturated (default 0.05)\n"
            "  --log-latency  a logarithmic latency axis\n"
            "  -j JOBS        points run at once (default: the number of cores)\n"
            "  -o DIR         the sweep's folder (created if needed)\n"
            "  -q             no progress or summary lines\n"
            "  --no-plot      do not draw sweep.png/.svg (plot-sweep.gp is still written)\n"
            "  --resume       run only the points of DIR without a finished results folder (the\n"
            "                 sweep must be the same one: DIR/sweep.args is compared)\n"
            "  --emit slurm|parallel  run nothing: write DIR/points.txt (one command per point)\n"
            "                 and DIR/sweep.sbatch (a Slurm job array over it), or print the GNU\n"
            "                 parallel command; then collect with --merge\n"
            "  --merge        run nothing: write sweep.csv and the plot from DIR's point folders\n\n"
            "Example: ibnetsim sweep scenarios/examples/fattree-load.cfg \\\n"
            "           -k flows.*.load=0.1:1.0:0.1 -k switch.arch=voq,fifo -o sweeps/load\n\n"
            "Percentiles come from each point's latency.csv: the upper bound of the histogram\n"
            "bucket holding the 99th percentile (within 0.8 %%). Same inputs give a byte-identical\n"
            "sweep.csv whatever JOBS is.\n"
            "Exit status: 0 success; 1 a point failed (each failure is reported with its exit\n"
            "status and error; the other points still run and sweep.csv has all rows) or the\n"
            "plot failed; 2 bad usage or a point's scenario is invalid; 130 interrupted.\n");
}

struct sweep_key {
    char *key;
    char **vals;
    int nvals;
    int numeric;   /* every value is a number */
};

struct point {
    int *vi;              /* value index per key */
    double offered_bps;   /* < 0 unknown */
    pid_t pid;
    int done, status;     /* status: wait() status */
    /* From the point's results (collect()): */
    int have;             /* its summary.json was read */
    double accepted, offered_payload, lat[4]; /* Gb/s; net mean, net p99, e2e mean, e2e p99 (ns) */
    double *mv;           /* the -m measures (NAN when absent) */
    int saturated;        /* 1 yes, 0 no, -1 unknown */
    char outcome[64];
};

struct sweep {
    const char *scenario, *dir;
    struct sweep_key *keys;
    int nkeys;
    char **fixed;
    int nfixed;
    struct point *pts;
    int npts;
    int width;            /* digits of point numbers */
    struct measure *ms;   /* -m */
    int nms;
    double sat_frac;      /* --saturation */
    int log_latency;
    char *name;           /* the scenario's simulation.name, for titles */
    FILE *args;           /* what defines the sweep (scenario, -k, -s), for sweep.args */
    char *args_text;
    size_t args_len;
};

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

static int is_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return 0;
    if (v)
        *v = x;
    return 1;
}

static void add_val(struct sweep_key *k, const char *s, size_t n)
{
    k->vals = xrealloc(k->vals, (size_t)(k->nvals + 1) * sizeof *k->vals);
    char *v = xmalloc(n + 1);
    memcpy(v, s, n);
    v[n] = 0;
    k->vals[k->nvals++] = v;
}

/* KEY=a,b,c or KEY=FROM:TO:STEP. */
static int parse_key(const char *arg, struct sweep_key *k, struct ibn_err *e)
{
    memset(k, 0, sizeof *k);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return ibn_err_set(e, "-k %s: expected KEY=VALUES (a list a,b,c or a range FROM:TO:STEP)", arg);
    k->key = xmalloc((size_t)(eq - arg) + 1);
    memcpy(k->key, arg, (size_t)(eq - arg));
    k->key[eq - arg] = 0;
    const char *spec = eq + 1;
    char a[128], b[128], c[128];
    double from, to, step;
    if (!strchr(spec, ',') && sscanf(spec, "%127[^:]:%127[^:]:%127s", a, b, c) == 3 &&
        strlen(a) + strlen(b) + strlen(c) + 2 == strlen(spec)) {
        if (!is_number(a, &from) || !is_number(b, &to) || !is_number(c, &step))
            return ibn_err_set(e, "-k %s: a range FROM:TO:STEP takes three numbers", arg);
        if (step == 0 || (to - from) / step < 0)
            return ibn_err_set(e, "-k %s: the step must be non-zero and lead from %g to %g", arg, from, to);
        double n = floor((to - from) / step + 1e-9) + 1;
        if (n > MAX_POINTS)
            return ibn_err_set(e, "-k %s: %.0f values, more than %d", arg, n, MAX_POINTS);
        for (int i = 0; i < (int)n; i++) {
            char buf[64];
            double v = from + (double)i * step;
            if (fabs(v) < fabs(step) * 1e-9)
                v = 0;
            snprintf(buf, sizeof buf, "%.12g", v);
            add_val(k, buf, strlen(buf));
        }
    } else {
        for (const char *p = spec;;) {
            const char *comma = strchr(p, ',');
            size_t n = comma ? (size_t)(comma - p) : strlen(p);
            if (!n)
                return ibn_err_set(e, "-k %s: an empty value in the list", arg);
            add_val(k, p, n);
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    k->numeric = 1;
    for (int i = 0; i < k->nvals; i++)
        if (!is_number(k->vals[i], NULL))
            k->numeric = 0;
    return 0;
}

/* The overrides of point p: the fixed ones, then the swept values ("KEY=VALUE"). */
static char **point_overrides(const struct sweep *s, int p, int *n)
{
    char **ov = xcalloc((size_t)(s->nfixed + s->nkeys + 1), sizeof *ov);
    int k = 0;
    for (int i = 0; i < s->nfixed; i++)
        ov[k++] = xstrdup(s->fixed[i]);
    for (int i = 0; i < s->nkeys; i++) {
        const char *key = s->keys[i].key, *val = s->keys[i].vals[s->pts[p].vi[i]];
        ov[k] = xmalloc(strlen(key) + strlen(val) + 2);
        sprintf(ov[k++], "%s=%s", key, val);
    }
    *n = k;
    return ov;
}

static void free_strv(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void point_label(const struct sweep *s, int p, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < s->nkeys && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", i ? " " : "", s->keys[i].key,
                                 s->keys[i].vals[s->pts[p].vi[i]]);
}

/* Whether the topology can differ between points (then it is built per point). */
static int topology_swept(const struct sweep *s)
{
    for (int i = 0; i < s->nkeys; i++)
        if (!strncmp(s->keys[i].key, "topology.", 9) || !strcmp(s->keys[i].key, "simulation.seed"))
            return 1;
    return 0;
}

/* Load every point's scenario before running anything (bad values stop the sweep at once)
 * and compute its offered load from the built fabric's flows. */
static int check_points(struct sweep *s, struct ibn_err *e)
{
    int per_point = topology_swept(s), have_topo = 0;
    struct topo t;
    struct lfts l;
    memset(&t, 0, sizeof t);
    memset(&l, 0, sizeof l);
    int rc = 0;
    for (int p = 0; p < s->npts && !rc; p++) {
        int n;
        char **ov = point_overrides(s, p, &n);
        struct scenario sc;
        rc = scenario_load(s->scenario, ov, n, &sc, e);
        free_strv(ov, n);
        if (!rc && (per_point || !have_topo)) {
            lfts_free(&l);
            topo_free(&t);
            memset(&t, 0, sizeof t);
            memset(&l, 0, sizeof l);
            rc = scenario_topology(&sc, &t, &l, e);
            have_topo = !rc;
        }
        struct run_desc d;
        struct fabric f;
        memset(&f, 0, sizeof f);
        if (!rc)
            rc = scenario_run_desc(&sc, &t, &d, e) || fabric_build(&f, &t, &l, &d, e) ? -1 : 0;
        if (!rc && p == 0) {
            s->name = xstrdup(sc.sim.name && *sc.sim.name ? sc.sim.name : s->scenario);
            const char **names = xcalloc((size_t)f.nflows + 1, sizeof *names);
            for (uint32_t i = 0; i < f.nflows; i++)
                names[i] = f.flows[i].name;
            for (int i = 0; i < s->nms && !rc; i++)
                rc = measure_check_flows(&s->ms[i], names, (int)f.nflows, e);
            free(names);
            if (rc) {
                fabric_free(&f);
                scenario_free(&sc);
                break;
            }
        }
        if (!rc) {
            double sum = 0;
            for (uint32_t i = 0; i < f.nflows; i++) {
                const struct arrival_desc *a = &f.flows[i].arr.d;
                switch (a->kind) {
                case ARRIVAL_CONSTANT: case ARRIVAL_POISSON: case ARRIVAL_BERNOULLI:
                case ARRIVAL_ONOFF: case ARRIVAL_GE:
                    sum += a->rate_bps;
                    break;
                default:
                    sum = -INFINITY;
                }
            }
            s->pts[p].offered_bps = sum >= 0 ? sum : -1;
        } else {
            char label[1024];
            point_label(s, p, label, sizeof label);
            ibn_err_prefix(e, "point-%0*d (%s): ", s->width, p, label);
        }
        fabric_free(&f);
        scenario_free(&sc);
    }
    lfts_free(&l);
    topo_free(&t);
    return rc;
}

static void point_dir(const struct sweep *s, int p, char *buf, size_t size)
{
    snprintf(buf, size, "%s/point-%0*d", s->dir, s->width, p);
}

static pid_t launch(const struct sweep *s, int p, struct ibn_err *e)
{
    char dir[4200], path[4300];
    point_dir(s, p, dir, sizeof dir);
    /* The run replaces the folder as a whole (cli/resdir), so its log lives beside it. */
    snprintf(path, sizeof path, "%s.log", dir);
    int log = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (log < 0) {
        ibn_err_set(e, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int n;
    char **ov = point_overrides(s, p, &n);
    char **argv = xcalloc((size_t)(2 * n + 7), sizeof *argv);
    int a = 0;
    argv[a++] = "ibnetsim";
    argv[a++] = "run";
    argv[a++] = (char *)s->scenario;
    for (int i = 0; i < n; i++) {
        argv[a++] = "-s";
        argv[a++] = ov[i];
    }
    argv[a++] = "-o";
    argv[a++] = dir;
    argv[a++] = "-q";
    argv[a] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(log, 1);
        dup2(log, 2);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "ibnetsim sweep: cannot run /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    int err = errno;
    close(log);
    free(argv);
    free_strv(ov, n);
    if (pid < 0) {
        ibn_err_set(e, "cannot start a run: %s", strerror(err));
        return -1;
    }
    return pid;
}

/* The last non-empty line of a point's run.log, for failure reports. */
static void last_error(const struct sweep *s, int p, char *buf, size_t size)
{
    char path[4300];
    point_dir(s, p, path, sizeof path);
    strncat(path, ".log", sizeof path - strlen(path) - 1);
    buf[0] = 0;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[1024];
    while (fgets(line, sizeof line, fp)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (n)
            snprintf(buf, size, "%s", line);
    }
    fclose(fp);
}

static void report_failure(const struct sweep *s, int p)
{
    char label[1024], err[1024];
    point_label(s, p, label, sizeof label);
    last_error(s, p, err, sizeof err);
    int st = s->pts[p].status;
    char how[64];
    if (WIFEXITED(st))
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(st));
    else
        snprintf(how, sizeof how, "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    fprintf(stderr, "ibnetsim sweep: point-%0*d (%s) failed, %s%s%s (log: %s/point-%0*d.log)\n",
            s->width, p, label, how, *err ? ": " : "", err, s->dir, s->width, p);
}

/* Run every point, at most `jobs` at once. Returns the number of failed points. */
static int run_points(struct sweep *s, int jobs, int quiet, struct ibn_err *e)
{
    int next = 0, running = 0, done = 0, failed = 0, progress = !quiet && isatty(2);
    for (int p = 0; p < s->npts; p++)
        done += s->pts[p].done; /* resumed: finished before */
    while ((next < s->npts && !sweep_interrupted) || running) {
        if (next < s->npts && s->pts[next].done) {
            next++;
            continue;
        }
        if (running < jobs && next < s->npts && !sweep_interrupted) {
            pid_t pid = launch(s, next, e);
            if (pid < 0) {
                fprintf(stderr, "ibnetsim sweep: point-%0*d: %s\n", s->width, next, e->msg);
                s->pts[next].done = 1;
                s->pts[next].status = 127 << 8;
                failed++;
                done++;
            } else {
                s->pts[next].pid = pid;
                running++;
            }
            next++;
            continue;
        }
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int p = 0; p < s->npts; p++)
            if (s->pts[p].pid == pid && !s->pts[p].done) {
                s->pts[p].done = 1;
                s->pts[p].status = st;
                running--;
                done++;
                if (!WIFEXITED(st) || WEXITSTATUS(st)) {
                    failed++;
                    if (progress)
                        fprintf(stderr, "\r%60s\r", "");
                    report_failure(s, p);
                }
                break;
            }
        if (progress)
            fprintf(stderr, "\r  sweep: %d of %d points done, %d running, %d failed   ", done, s->npts,
                    running, failed);
    }
    if (progress)
        fprintf(stderr, "\n");
    return failed;
}

/* Network or end-to-end latency over all flows: the sample-weighted mean from summary.json. */
static double mean_latency(json_t *summary, const char *which)
{
    json_t *flows = json_object_get(summary, "flows");
    double sum = 0, n = 0;
    for (size_t i = 0; i < json_array_size(flows); i++) {
        json_t *l = json_object_get(json_array_get(flows, i), which);
        double c = (double)json_integer_value(json_object_get(l, "samples"));
        sum += c * json_number_value(json_object_get(l, "mean_ns"));
        n += c;
    }
    return n > 0 ? sum / n : NAN;
}

/* The 99th percentile of one latency over all flows, from latency.csv's "all" rows: the
 * smallest bucket bound with cdf >= 0.99. */
static double p99_latency(const char *dir, const char *kind)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NAN;
    char line[512], prefix[64];
    snprintf(prefix, sizeof prefix, "%s,all,", kind);
    double v = NAN;
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, prefix, strlen(prefix)))
            continue;
        double value, cdf;
        unsigned long long count;
        if (sscanf(line + strlen(prefix), "%lf,%llu,%lf", &value, &count, &cdf) == 3 && cdf >= 0.99 - 1e-12) {
            v = value;
            break;
        }
    }
    fclose(fp);
    return v;
}

static void put_num(FILE *fp, double v, const char *fmt)
{
    fputc(',', fp);
    if (isfinite(v))
        fprintf(fp, fmt, v);
}

/* Read every finished point's results: the fixed measures, the -m measures and whether the
 * point is saturated. A measure that no finished point has is an error (-1 and e, naming it
 * and what summary.json holds there); one missing in some points only leaves their cells empty. */
static int collect(struct sweep *s, struct ibn_err *e)
{
    int *found = xcalloc((size_t)s->nms + 1, sizeof *found), rc = 0, any = 0;
    char (*why)[512] = xcalloc((size_t)s->nms + 1, sizeof *why);
    for (int p = 0; p < s->npts; p++) {
        struct point *pt = &s->pts[p];
        pt->saturated = -1;
        pt->mv = xcalloc((size_t)s->nms + 1, sizeof *pt->mv);
        char dir[4200], jpath[4300];
        point_dir(s, p, dir, sizeof dir);
        snprintf(jpath, sizeof jpath, "%s/summary.json", dir);
        int st = pt->status;
        json_t *j = pt->done && WIFEXITED(st) && !WEXITSTATUS(st) ? json_load_file(jpath, 0, NULL) : NULL;
        if (!j)
            continue;
        any = pt->have = 1;
        pt->accepted = json_number_value(json_object_get(j, "total_throughput_gbps"));
        pt->lat[0] = mean_latency(j, "network_latency");
        pt->lat[1] = p99_latency(dir, "network");
        pt->lat[2] = mean_latency(j, "end_to_end_latency");
        pt->lat[3] = p99_latency(dir, "end_to_end");
        const char *o = json_string_value(json_object_get(json_object_get(j, "run"), "outcome"));
        snprintf(pt->outcome, sizeof pt->outcome, "%s", o ? o : "");
        /* The flows' offered payload (unknown if a flow has none, e.g. a saturating one). */
        json_t *flows = json_object_get(j, "flows");
        double off = 0;
        for (size_t i = 0; i < json_array_size(flows); i++) {
            json_t *v = json_object_get(json_array_get(flows, i), "offered_payload_gbps");
            off = json_is_number(v) && off >= 0 ? off + json_number_value(v) : -1;
        }
        pt->offered_payload = json_array_size(flows) ? off : -1;
        if (pt->offered_payload > 0 && isfinite(pt->accepted))
            pt->saturated = pt->accepted < (1 - s->sat_frac) * pt->offered_payload;
        for (int m = 0; m < s->nms; m++) {
            char w[512];
            if (measure_eval(&s->ms[m], j, &pt->mv[m], w, sizeof w)) {
                pt->mv[m] = NAN;
                snprintf(why[m], sizeof why[m], "%s", w);
            } else {
                found[m] = 1;
            }
        }
        json_decref(j);
    }
    for (int m = 0; m < s->nms && any; m++)
        if (!found[m]) {
            rc = ibn_err_set(e, "-m %s: no point's summary.json has it: %s", s->ms[m].path, why[m]);
            break;
        }
    free(found);
    free(why);
    return rc;
}

/* The first saturated point along the first key in the block of combination c, or -1. */
static int saturation_point(const struct sweep *s, int c)
{
    int n1 = s->keys[0].nvals;
    for (int i = 0; i < n1; i++)
        if (s->pts[c * n1 + i].saturated == 1)
            return c * n1 + i;
    return -1;
}

static int write_csv(const struct sweep *s, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/sweep.csv", s->dir);
    struct outfile *out = out_open(path, e);
    if (!out)
        return -1;
    FILE *fp = out->fp;
    for (int i = 0; i < s->nkeys; i++) {
        csv_field(fp, s->keys[i].key);
        fputc(',', fp);
    }
    fprintf(fp, "offered_gbps,accepted_gbps,net_latency_mean_ns,net_latency_p99_ns,"
                "e2e_latency_mean_ns,e2e_latency_p99_ns");
    for (int m = 0; m < s->nms; m++) {
        fputc(',', fp);
        csv_field(fp, s->ms[m].path);
    }
    fprintf(fp, ",saturated,outcome\n");
    for (int p = 0; p < s->npts; p++) {
        const struct point *pt = &s->pts[p];
        for (int i = 0; i < s->nkeys; i++) {
            csv_field(fp, s->keys[i].vals[pt->vi[i]]);
            fputc(',', fp);
        }
        if (pt->offered_bps >= 0)
            fprintf(fp, "%.6f", pt->offered_bps / 1e9);
        if (pt->have) {
            put_num(fp, pt->accepted, "%.6f");
            for (int k = 0; k < 4; k++)
                put_num(fp, pt->lat[k], "%.3f");
            for (int m = 0; m < s->nms; m++)
                put_num(fp, pt->mv[m], "%.9g");
            fprintf(fp, ",%s,%s\n", pt->saturated < 0 ? "" : pt->saturated ? "yes" : "no", pt->outcome);
            continue;
        }
        for (int k = 0; k < 5 + s->nms + 1; k++)
            fputc(',', fp);
        int st = pt->status;
        if (!pt->done)
            fprintf(fp, ",not run\n");
        else if (WIFEXITED(st))
            fprintf(fp, ",failed (exit status %d)\n", WEXITSTATUS(st));
        else
            fprintf(fp, ",failed (signal %d)\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    return out_close(out, e);
}

/* The first key's description for the x axis: "KEY: what it is" (the meaning up to its first
 * ';' or '(' from the tables of `ibnetsim keys`). */
static void axis_label(const char *key, char *buf, size_t size)
{
    const char *help = keys_help(key);
    size_t n = help ? strcspn(help, ";(") : 0;
    while (n && help[n - 1] == ' ')
        n--;
    if (n > 70)
        n = 70;
    if (n)
        snprintf(buf, size, "%s: %.*s", key, (int)n, help);
    else
        snprintf(buf, size, "%s", key);
}

/* Whether measure m has a value at some point (gnuplot refuses a curve without any). */
static int measure_drawn(const struct sweep *s, int m)
{
    for (int p = 0; p < s->npts; p++)
        if (s->pts[p].have && isfinite(s->pts[p].mv[m]))
            return 1;
    return 0;
}

/* plot-sweep.gp: latency (top), accepted/offered traffic (middle) and the -m measures (bottom)
 * against the first key, one colour per combination of the other keys, the first saturated
 * point of each combination marked with a dotted line. */
static int write_plot(const struct sweep *s, struct ibn_err *e)
{
    struct outfile *go = gp_open(s->dir, "sweep", "latency and accepted traffic against the first swept key, "
                                        "from sweep.csv", e);
    if (!go)
        return -1;
    FILE *fp = go->fp;
    const struct sweep_key *k0 = &s->keys[0];
    int nk = s->nkeys, c_off = nk + 1, n1 = k0->nvals, m_off = nk + 7;
    fprintf(fp, "# sweep.csv columns: the %d swept keys, then offered_gbps (%d), accepted_gbps (%d),\n"
                "# net_latency_mean_ns (%d), net_latency_p99_ns (%d), e2e_latency_mean_ns (%d),\n"
                "# e2e_latency_p99_ns (%d), %d -m measures from %d, saturated (%d), outcome (%d)\n",
            nk, c_off, c_off + 1, c_off + 2, c_off + 3, c_off + 4, c_off + 5, s->nms, m_off,
            m_off + s->nms, m_off + s->nms + 1);
    fprintf(fp, "n1 = %d  # values of the first key; it varies fastest in sweep.csv\n", n1);
    if (k0->numeric) {
        fprintf(fp, "x(dummy) = column(1)\n");
    } else {
        fprintf(fp, "x(dummy) = int(column(0)) %% n1\nset xtics (");
        for (int i = 0; i < n1; i++) {
            fprintf(fp, "%s\"", i ? ", " : "");
            gp_quote(fp, k0->vals[i]);
            fprintf(fp, "\" %d", i);
        }
        fprintf(fp, ")\nset xrange [-0.5:%d.5]\n", n1 - 1);
    }
    /* Combinations of the other keys: one block of n1 rows each. */
    int ndrawn = 0;
    for (int m = 0; m < s->nms; m++)
        ndrawn += measure_drawn(s, m);
    int ncomb = s->npts / n1, npanels = ndrawn ? 3 : 2;
    for (int c = 0; c < ncomb; c++) {
        int sp = saturation_point(s, c);
        if (sp < 0)
            continue;
        int i = s->pts[sp].vi[0];
        fprintf(fp, "# the first saturated point of curve %d: %s = %s\n", c + 1, k0->key, k0->vals[i]);
        if (k0->numeric)
            fprintf(fp, "set arrow from %s, graph 0 to %s, graph 1 nohead dt 3 lw 1.5 lc %d\n",
                    k0->vals[i], k0->vals[i], c + 1);
        else
            fprintf(fp, "set arrow from %d, graph 0 to %d, graph 1 nohead dt 3 lw 1.5 lc %d\n", i, i, c + 1);
    }
    char xl[256];
    axis_label(k0->key, xl, sizeof xl);
    char *block = NULL;
    size_t blen = 0;
    FILE *b = open_memstream(&block, &blen);
    fprintf(b, "set multiplot layout %d,1 title \"", npanels);
    gp_quote(b, s->name ? s->name : s->scenario);
    fprintf(b, " (dotted: the first saturated point, accepted more than %g %% below offered)\"\n"
               "set lmargin 12\n"
               "set title \"Latency (network: solid mean, dashed p99; end-to-end: dotted mean)\"\n"
               "set ylabel \"latency (ns)\"\n"
               "set xlabel \"\"\n"
               "%s\n"
               "set key outside right top\n"
               "plot \\\n",
            s->sat_frac * 100, s->log_latency ? "set logscale y\nset yrange [*:*]" : "set yrange [0:*]");
    static const struct { int col; int dt; const char *what; } lat[3] = {
        { 2, 1, "net mean" }, { 3, 2, "net p99" }, { 4, 3, "e2e mean" } };
    for (int pass = 0; pass < npanels; pass++) {
        if (pass == 1) {
            fprintf(b, "\n%sset title \"Accepted traffic (solid) and offered load (dashed)\"\n"
                       "set ylabel \"traffic (Gb/s, payload, all flows)\"\n"
                       "set yrange [0:*]\n"
                       "set xlabel \"",
                    s->log_latency ? "unset logscale y\n" : "");
            gp_quote(b, npanels == 2 ? xl : "");
            fprintf(b, "\"\nplot \\\n");
        } else if (pass == 2) {
            fprintf(b, "\nset title \"The -m measures\"\nset ylabel \"value\"\nset yrange [*:*]\nset xlabel \"");
            gp_quote(b, xl);
            fprintf(b, "\"\nplot \\\n");
        }
        int nplots = 0;
        for (int c = 0; c < ncomb; c++) {
            char cond[2048] = "1", title[1024] = "";
            size_t cl = 1, tl = 0;
            int first_pt = c * n1;
            for (int i = 1; i < nk; i++) {
                const char *v = s->keys[i].vals[s->pts[first_pt].vi[i]];
                cl += (size_t)snprintf(cond + cl, sizeof cond - cl > cl ? sizeof cond - cl : 0,
                                       " && strcol(%d) eq \"%s\"", i + 1, v);
                tl += (size_t)snprintf(title + tl, sizeof title > tl ? sizeof title - tl : 0, "%s%s=%s",
                                       tl ? " " : "", s->keys[i].key, v);
                if (cl >= sizeof cond || tl >= sizeof title)
                    break;
            }
            int ncurves = pass == 0 ? 3 : pass == 1 ? 2 : s->nms;
            for (int m = 0; m < ncurves; m++) {
                if (pass == 2 && !measure_drawn(s, m))
                    continue;
                int col = pass == 0 ? c_off + lat[m].col : pass == 1 ? c_off + 1 - m : m_off + m;
                const char *what = pass == 0 ? lat[m].what : pass == 1 ? (m == 0 ? "accepted" : "offered")
                                                                       : s->ms[m].path;
                int dt = pass == 0 ? lat[m].dt : pass == 1 ? (m == 0 ? 1 : 2) : 1 + m % 5;
                fprintf(b, "%s  \"sweep.csv\" skip 1 using (x(0)):((%s) ? column(%d) : NaN) with linespoints "
                           "lw 1.5 pt %d ps 0.6 dt %d lc %d title \"",
                        nplots++ ? ", \\\n" : "", cond, col, pass == 2 ? 5 + m % 8 : 7, dt, c + 1);
                gp_quote(b, *title ? title : what);
                if (*title) {
                    fputc(' ', b);
                    gp_quote(b, what);
                }
                fputc('"', b);
            }
        }
    }
    fprintf(b, "\nunset multiplot");
    fclose(b);
    gp_png(fp, "sweep", 1000, npanels == 3 ? 1250 : 900);
    fprintf(fp, "%s\n", block);
    gp_svg(fp, "sweep", 1000, npanels == 3 ? 1250 : 900, block);
    free(block);
    return gp_close(go, e);
}

static void sweep_free(struct sweep *s)
{
    for (int i = 0; i < s->nkeys; i++) {
        free(s->keys[i].key);
        free_strv(s->keys[i].vals, s->keys[i].nvals);
    }
    free(s->keys);
    free(s->fixed);
    if (s->pts)
        for (int p = 0; p < s->npts; p++) {
            free(s->pts[p].vi);
            free(s->pts[p].mv);
        }
    free(s->pts);
    for (int i = 0; i < s->nms; i++)
        measure_free(&s->ms[i]);
    free(s->ms);
    free(s->name);
    if (s->args)
        fclose(s->args);
    free(s->args_text);
}

/* A word for a POSIX shell, single-quoted. */
static void sh_quote(FILE *fp, const char *w)
{
    fputc('\'', fp);
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", fp);
        else
            fputc(*w, fp);
    fputc('\'', fp);
}

/* --emit: DIR/points.txt, one shell command per point (absolute paths, so that any node of a
 * cluster sharing the file system can run it), and for slurm DIR/sweep.sbatch, a job array
 * whose task i runs line i. */
static int emit(const struct sweep *s, const char *how, int jobs, struct ibn_err *e)
{
    char bin[4096], scen[4096], dir[4096], path[4300];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 1);
    if (n < 0)
        return ibn_err_set(e, "cannot find the ibnetsim binary (/proc/self/exe): %s", strerror(errno));
    bin[n] = 0;
    if (!realpath(s->scenario, scen))
        return ibn_err_set(e, "%s: %s", s->scenario, strerror(errno));
    if (!realpath(s->dir, dir))
        return ibn_err_set(e, "%s: %s", s->dir, strerror(errno));
    snprintf(path, sizeof path, "%s/points.txt", s->dir);
    struct outfile *out = out_open(path, e);
    if (!out)
        return -1;
    for (int p = 0; p < s->npts; p++) {
        int nov;
        char **ov = point_overrides(s, p, &nov);
        char pd[4200];
        snprintf(pd, sizeof pd, "%s/point-%0*d", dir, s->width, p);
        sh_quote(out->fp, bin);
        fputs(" run ", out->fp);
        sh_quote(out->fp, scen);
        for (int i = 0; i < nov; i++) {
            fputs(" -s ", out->fp);
            sh_quote(out->fp, ov[i]);
        }
        fputs(" -o ", out->fp);
        sh_quote(out->fp, pd);
        fputs(" -q > ", out->fp);
        strncat(pd, ".log", sizeof pd - strlen(pd) - 1);
        sh_quote(out->fp, pd);
        fputs(" 2>&1\n", out->fp);
        free_strv(ov, nov);
    }
    if (out_close(out, e))
        return -1;
    if (!strcmp(how, "slurm")) {
        snprintf(path, sizeof path, "%s/sweep.sbatch", s->dir);
        out = out_open(path, e);
        if (!out)
            return -1;
        fprintf(out->fp, "#!/bin/bash\n"
                         "# A Slurm job array over the %d points of an ibnetsim sweep (ibnetsim sweep --emit slurm):\n"
                         "# task i runs line i of points.txt. Submit with `sbatch sweep.sbatch`; when every task\n"
                         "# has ended, collect with the same sweep command and --merge.\n"
                         "#SBATCH --job-name=ibnetsim-sweep\n"
                         "#SBATCH --array=1-%d\n"
                         "#SBATCH --ntasks=1\n"
                         "#SBATCH --cpus-per-task=1\n"
                         "#SBATCH --output=/dev/null\n"
                         "set -eu\n"
                         "cmd=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" ",
                s->npts, s->npts);
        sh_quote(out->fp, dir);
        fprintf(out->fp, "/points.txt)\neval \"$cmd\"\n");
        if (out_close(out, e))
            return -1;
        printf("%d points in %s/points.txt; submit with: sbatch %s/sweep.sbatch\n", s->npts, s->dir, s->dir);
    } else {
        printf("%d points in %s/points.txt; run them with GNU parallel: parallel -j %d < %s/points.txt\n",
               s->npts, s->dir, jobs, s->dir);
    }
    printf("then collect them: the same ibnetsim sweep command with --merge\n");
    return 0;
}

/* Points of DIR with a finished results folder (a run renames it into place only at its end)
 * count as done. */
static int mark_finished(struct sweep *s)
{
    int n = 0;
    for (int p = 0; p < s->npts; p++) {
        char dir[4200], path[4300];
        point_dir(s, p, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/summary.json", dir);
        if (!access(path, R_OK)) {
            s->pts[p].done = 1;
            s->pts[p].status = 0;
            n++;
        }
    }
    return n;
}

/* DIR/sweep.args: what defines the sweep (scenario, -k, -s), so that --resume and --merge
 * never mix two different sweeps in one folder. mode 0 writes it; otherwise it must match. */
static int sweep_args(const struct sweep *s, const char *text, int mode, struct ibn_err *e)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/sweep.args", s->dir);
    if (!mode) {
        struct outfile *out = out_open(path, e);
        if (!out)
            return -1;
        fputs(text, out->fp);
        return out_close(out, e);
    }
    FILE *fp = fopen(path, "r");
    if (!fp)
        return ibn_err_set(e, "%s: %s: not the folder of a sweep to %s", path, strerror(errno),
                           mode == 1 ? "resume" : "merge");
    char *old = NULL;
    size_t cap = 0;
    ssize_t len = getdelim(&old, &cap, 0, fp);
    fclose(fp);
    int same = len >= 0 && !strcmp(old, text);
    free(old);
    if (!same)
        return ibn_err_set(e, "%s holds a different sweep (another scenario, -k or -s): %s would mix "
                              "them; use another -o", path, mode == 1 ? "resuming" : "merging");
    return 0;
}

/* The saturation point of each curve, for the terminal. */
static void print_saturation(const struct sweep *s)
{
    const struct sweep_key *k0 = &s->keys[0];
    int n1 = k0->nvals;
    for (int c = 0; c < s->npts / n1; c++) {
        char label[1024] = "", *l = label;
        for (int i = 1; i < s->nkeys; i++)
            l += snprintf(l, sizeof label - (size_t)(l - label), "%s%s=%s", i > 1 ? " " : " (",
                          s->keys[i].key, s->keys[i].vals[s->pts[c * n1].vi[i]]);
        if (s->nkeys > 1)
            snprintf(l, sizeof label - (size_t)(l - label), ")");
        int sp = saturation_point(s, c), known = 0;
        for (int i = 0; i < n1; i++)
            known += s->pts[c * n1 + i].saturated >= 0;
        if (sp >= 0)
            printf("saturation%s: %s = %s (accepted %.4g Gb/s, more than %g %% below the offered %.4g)\n", label,
                   k0->key, k0->vals[s->pts[sp].vi[0]], s->pts[sp].accepted, s->sat_frac * 100,
                   s->pts[sp].offered_payload);
        else if (known)
            printf("saturation%s: not reached (accepted within %g %% of offered at every point)\n", label,
                   s->sat_frac * 100);
        else
            printf("saturation%s: unknown (a flow has no offered rate, or no point finished)\n", label);
    }
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep s;
    memset(&s, 0, sizeof s);
    s.fixed = xcalloc((size_t)argc + 1, sizeof *s.fixed);
    s.keys = xcalloc((size_t)argc + 1, sizeof *s.keys);
    s.ms = xcalloc((size_t)argc + 1, sizeof *s.ms);
    s.sat_frac = 0.05;
    int jobs = 0, quiet = 0, plot = 1, drawn = 0, resume = 0, merge = 0;
    const char *emit_how = NULL;
    s.args = open_memstream(&s.args_text, &s.args_len);
    struct ibn_err e;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            sweep_free(&s);
            return 0;
        } else if ((!strcmp(a, "-k") && i + 1 < argc) || (!strncmp(a, "-k", 2) && a[2])) {
            if (parse_key(a[2] ? a + 2 : argv[++i], &s.keys[s.nkeys], &e)) {
                s.nkeys++;
                fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
                sweep_free(&s);
                return 2;
            }
            for (int k = 0; k < s.nkeys; k++)
                if (!strcmp(s.keys[k].key, s.keys[s.nkeys].key)) {
                    fprintf(stderr, "ibnetsim sweep: -k %s given twice\n", s.keys[k].key);
                    s.nkeys++;
                    sweep_free(&s);
                    return 2;
                }
            fprintf(s.args, "-k %s\n", a[2] ? a + 2 : argv[i]);
            s.nkeys++;
        } else if ((!strcmp(a, "-s") && i + 1 < argc) || (!strncmp(a, "-s", 2) && a[2])) {
            s.fixed[s.nfixed++] = a[2] ? (char *)a + 2 : argv[++i];
            fprintf(s.args, "-s %s\n", s.fixed[s.nfixed - 1]);
        } else if ((!strcmp(a, "-m") && i + 1 < argc) || (!strncmp(a, "-m", 2) && a[2])) {
            if (measure_parse(a[2] ? a + 2 : argv[++i], &s.ms[s.nms++], &e)) {
                fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
                goto bad_usage;
            }
        } else if (!strcmp(a, "--saturation") && i + 1 < argc) {
            char *end;
            s.sat_frac = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(s.sat_frac > 0 && s.sat_frac < 1)) {
                fprintf(stderr, "ibnetsim sweep: --saturation %s: expected a fraction between 0 and 1 "
                                "(0.05: accepted 5 %% below offered)\n", argv[i]);
                goto bad_usage;
            }
        } else if (!strcmp(a, "--log-latency")) {
            s.log_latency = 1;
        } else if (!strcmp(a, "--resume")) {
            resume = 1;
        } else if (!strcmp(a, "--merge")) {
            merge = 1;
        } else if (!strcmp(a, "--emit") && i + 1 < argc) {
            emit_how = argv[++i];
            if (strcmp(emit_how, "slurm") && strcmp(emit_how, "parallel")) {
                fprintf(stderr, "ibnetsim sweep: --emit %s: expected slurm or parallel\n", emit_how);
                goto bad_usage;
            }
        } else if ((!strcmp(a, "-j") && i + 1 < argc) || (!strncmp(a, "-j", 2) && a[2])) {
            const char *v = a[2] ? a + 2 : argv[++i];
            char *end;
            long j = strtol(v, &end, 10);
            if (*end || end == v || j < 1 || j > 4096) {
                fprintf(stderr, "ibnetsim sweep: -j %s: expected a number of jobs from 1 to 4096\n", v);
                sweep_free(&s);
                return 2;
            }
            jobs = (int)j;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            s.dir = argv[++i];
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
        } else if (!strcmp(a, "--no-plot")) {
            plot = 0;
        } else if (a[0] == '-' || s.scenario) {
            fprintf(stderr, "ibnetsim sweep: unexpected argument \"%s\"%s\n\n", a,
                    (!strcmp(a, "-k") || !strcmp(a, "-s") || !strcmp(a, "-j") || !strcmp(a, "-o") ||
                     !strcmp(a, "-m") || !strcmp(a, "--saturation") || !strcmp(a, "--emit"))
                        ? " (it needs a value)" : "");
            usage(stderr);
            sweep_free(&s);
            return 2;
        } else {
            s.scenario = a;
        }
    }
    if (!s.scenario || !s.nkeys) {
        fprintf(stderr, "ibnetsim sweep: %s\n\n", !s.scenario ? "which scenario? (expected SCENARIO)"
                                                               : "nothing to sweep (expected -k KEY=VALUES)");
        usage(stderr);
        sweep_free(&s);
        return 2;
    }
    if (resume + merge + !!emit_how > 1) {
        fprintf(stderr, "ibnetsim sweep: --resume, --emit and --merge exclude each other\n");
        goto bad_usage;
    }
    fprintf(s.args, "scenario %s\n", s.scenario);
    fclose(s.args);
    s.args = NULL;
    char defdir[4096];
    if (!s.dir) {
        const char *base = strrchr(s.scenario, '/');
        base = base ? base + 1 : s.scenario;
        snprintf(defdir, sizeof defdir, "sweeps/%s", base);
        char *dot = strrchr(defdir, '.');
        if (dot && dot > defdir + 7)
            *dot = 0;
        s.dir = defdir;
    }
    if (jobs <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (int)n : 1;
    }
    double total = 1;
    for (int i = 0; i < s.nkeys; i++)
        total *= s.keys[i].nvals;
    if (total > MAX_POINTS) {
        fprintf(stderr, "ibnetsim sweep: the grid has %.0f points, more than %d\n", total, MAX_POINTS);
        sweep_free(&s);
        return 2;
    }
    s.npts = (int)total;
    s.width = s.npts > 1000 ? (int)floor(log10(s.npts - 1)) + 1 : 3;
    s.pts = xcalloc((size_t)s.npts, sizeof *s.pts);
    for (int p = 0; p < s.npts; p++) {
        s.pts[p].vi = xcalloc((size_t)s.nkeys, sizeof(int));
        for (int i = 0, r = p; i < s.nkeys; i++) { /* the first key varies fastest */
            s.pts[p].vi[i] = r % s.keys[i].nvals;
            r /= s.keys[i].nvals;
        }
    }
    if (check_points(&s, &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        sweep_free(&s);
        return 2;
    }
    if (mkdirs(s.dir)) {
        fprintf(stderr, "ibnetsim sweep: cannot create the sweep folder %s: %s\n", s.dir, strerror(errno));
        sweep_free(&s);
        return 2;
    }
    if (sweep_args(&s, s.args_text, resume ? 1 : merge ? 2 : 0, &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        sweep_free(&s);
        return e.output ? IBN_EXIT_OUTPUT : 2;
    }
    if (emit_how) {
        int rc = emit(&s, emit_how, jobs, &e);
        if (rc)
            fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        sweep_free(&s);
        return rc ? (e.output ? IBN_EXIT_OUTPUT : 2) : 0;
    }
    int finished = resume || merge ? mark_finished(&s) : 0, failed = 0;
    if (resume && !quiet)
        printf("resuming: %d of %d points finished before\n", finished, s.npts);
    if (!merge) {
        struct sigaction sa, old_int, old_term;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        failed = run_points(&s, jobs, quiet, &e);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    int status = failed ? 1 : 0, missing = merge ? s.npts - finished : 0;
    if (missing) {
        fprintf(stderr, "ibnetsim sweep: %d of %d points have no finished results folder in %s "
                        "(marked \"not run\" in sweep.csv)\n", missing, s.npts, s.dir);
        status = 1;
    }
    if (collect(&s, &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        status = 1;
    }
    if (write_csv(&s, &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        status = e.output ? IBN_EXIT_OUTPUT : 1;
    }
    if (write_plot(&s, &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        status = e.output ? IBN_EXIT_OUTPUT : 1;
    } else if (plot && failed == s.npts) {
        fprintf(stderr, "ibnetsim sweep: no point succeeded: no sweep.png/.svg\n");
    } else if (plot && !gp_available()) {
        fprintf(stderr, "ibnetsim sweep: gnuplot is not installed (not found on the PATH): no sweep.png/.svg; "
                        "install gnuplot (Debian/Ubuntu: gnuplot-nox) and run `gnuplot plot-sweep.gp` in %s\n",
                s.dir);
    } else if (plot && gp_run(s.dir, "sweep", &e)) {
        fprintf(stderr, "ibnetsim sweep: %s\n", e.msg);
        status = 1;
    } else if (plot) {
        drawn = 1;
    }
    if (!quiet) {
        print_saturation(&s);
        printf("%d points, %d failed%s; results in %s/sweep.csv%s\n", s.npts, failed,
               merge ? ", merged" : "", s.dir, drawn ? " and sweep.png/.svg" : "");
    }
    if (sweep_interrupted) {
        fprintf(stderr, "ibnetsim sweep: interrupted; sweep.csv has the points that finished\n");
        status = IBN_EXIT_SIGINT;
    }
    sweep_free(&s);
    return status;
bad_usage:
    sweep_free(&s);
    return 2;
}

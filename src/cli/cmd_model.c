/* cmd_model.c: `ibnetsim model NAME [key=value]... [sweep=KEY:FROM:TO[:STEP]] [--json]
 * [-o DIR]`: solves one analytic model of src/analytic/ (GE distribution, GE/GE/1/N, the
 * credit chain, Entry and Arrival Job Threshold, M/M/1/K, M/D/1, M/G/1), prints a table or
 * JSON, and sweeps one parameter into DIR/model.csv, DIR/model.gp and (with gnuplot)
 * DIR/model.png. Each model's keys are a declarative parameter table (core/params.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "analytic/classic.h"
#include "analytic/credit_chain.h"
#include "analytic/ge.h"
#include "analytic/gequeue.h"
#include "analytic/threshold.h"
#include "core/error.h"
#include "core/output.h"
#include "core/params.h"
#include "core/rng.h"

int cmd_model_memcost(int argc, char **argv); /* cmd_memcost.c */

/* Every key of every model; each model's table names the ones it uses. */
struct model_args {
    double lambda, mu, mu1, mu2, mu3, mu4, ca2, cs2, rate, scv;
    long long N, K, n1, n2, t, lanes, T1, T2, T3, samples, seed;
};

#define MAX_ROWS 16
#define MAX_COLS 3

/* A model's answer: named rows (metrics) by columns (solutions). NAN = not available. */
struct model_result {
    int ncols, nrows;
    const char *cols[MAX_COLS];
    char rows[MAX_ROWS][16];
    double v[MAX_ROWS][MAX_COLS];
    char note[512]; /* printed under the table (e.g. why a column is missing) */
};

struct model {
    const char *name;
    const char *summary;
    const struct param *params;
    int (*solve)(const struct model_args *a, struct model_result *r, struct ibn_err *err);
};

#define OFF(f) offsetof(struct model_args, f)
#define PD(key, f, def, help, lo, hi) { key, P_DOUBLE, OFF(f), def, help, NULL, lo, hi }
#define PI(key, f, def, help, lo, hi) { key, P_INT, OFF(f), def, help, NULL, lo, hi }

static const struct param ge_params[] = {
    PD("rate", rate, "1", "rate r: the mean is 1/r", 1e-300, 1e300),
    PD("scv", scv, "5", "squared coefficient of variation C2 (>= 1)", 1, 1e12),
    PI("samples", samples, "0", "draw this many variates and report their moments (0: none)", 0,
       1e9),
    PI("seed", seed, "1", "seed of the sampling stream", 0, 9.2e18),
    PARAM_END,
};

static const struct param gequeue_params[] = {
    PD("lambda", lambda, "4", "arrival rate", 1e-300, 1e300),
    PD("ca2", ca2, "5", "arrival SCV (>= 1)", 1, 1e12),
    PD("mu", mu, "8", "service rate", 1e-300, 1e300),
    PD("cs2", cs2, "7", "service SCV (>= 1)", 1, 1e12),
    PI("N", N, "8", "capacity, including the packet in service", 1, GEQ_MAX_CAPACITY),
    PARAM_END,
};

static const struct param credit_params_tab[] = {
    PD("lambda", lambda, "5", "Poisson arrival rate at the upstream node", 1e-300, 1e300),
    PD("mu1", mu1, "6", "upstream service rate", 1e-300, 1e300),
    PD("mu2", mu2, "8", "downstream service rate", 1e-300, 1e300),
    PI("n1", n1, "12", "upstream buffer (packets)", 1, CREDIT_MAX_STATES),
    PI("n2", n2, "2", "downstream buffer = credits (packets)", 1, CREDIT_MAX_STATES),
    PARAM_END,
};

static const struct param et_params_tab[] = {
    PD("lambda", lambda, "4", "arrival rate", 1e-300, 1e300),
    PD("ca2", ca2, "5", "arrival SCV (>= 1)", 1, 1e12),
    PD("cs2", cs2, "7", "service SCV (>= 1)", 1, 1e12),
    PD("mu1", mu1, "8", "service rate below the threshold", 1e-300, 1e300),
    PD("mu2", mu2, "16", "service rate with the borrowed VL", 1e-300, 1e300),
    PI("N", N, "8", "capacity of one VL (2N with the borrowed one)", 1, GEQ_MAX_CAPACITY / 2),
    PI("t", t, "0", "threshold in packets, 1..2N-1 (0: t = N)", 0, GEQ_MAX_CAPACITY),
    PARAM_END,
};

static const struct param ajt_params_tab[] = {
    PD("lambda", lambda, "4", "arrival rate", 1e-300, 1e300),
    PD("ca2", ca2, "5", "arrival SCV (>= 1)", 1, 1e12),
    PD("cs2", cs2, "7", "service SCV (>= 1)", 1, 1e12),
    PI("N", N, "8", "capacity per lane (lanes*N in all)", 1, GEQ_MAX_CAPACITY / 4),
    PI("lanes", lanes, "3", "lanes i: the VL itself plus i-1 shared VLs (1..4)", 1, 4),
    PD("mu1", mu1, "8", "service rate with one lane", 1e-300, 1e300),
    PD("mu2", mu2, "16", "service rate with two lanes", 1e-300, 1e300),
    PD("mu3", mu3, "12", "service rate with three lanes", 1e-300, 1e300),
    PD("mu4", mu4, "12", "service rate with four lanes", 1e-300, 1e300),
    PI("T1", T1, "0", "job threshold taking lane 2 (0: N)", 0, GEQ_MAX_CAPACITY),
    PI("T2", T2, "0", "job threshold taking lane 3 (0: 2N)", 0, GEQ_MAX_CAPACITY),
    PI("T3", T3, "0", "job threshold taking lane 4 (0: 3N)", 0, GEQ_MAX_CAPACITY),
    PARAM_END,
};

static const struct param mm1k_params[] = {
    PD("lambda", lambda, "4", "Poisson arrival rate", 1e-300, 1e300),
    PD("mu", mu, "8", "exponential service rate", 1e-300, 1e300),
    PI("K", K, "8", "capacity, including the customer in service", 1, 1000000),
    PARAM_END,
};

static const struct param md1_params[] = {
    PD("lambda", lambda, "4", "Poisson arrival rate", 1e-300, 1e300),
    PD("mu", mu, "8", "service rate (deterministic service 1/mu)", 1e-300, 1e300),
    PARAM_END,
};

static const struct param mg1_params[] = {
    PD("lambda", lambda, "4", "Poisson arrival rate", 1e-300, 1e300),
    PD("mu", mu, "8", "service rate (mean service 1/mu)", 1e-300, 1e300),
    PD("cs2", cs2, "1", "service SCV (>= 0)", 0, 1e12),
    PARAM_END,
};

/* ---- results ---- */

static void result_init(struct model_result *r, int ncols, const char *c0, const char *c1,
                        const char *c2)
{
    memset(r, 0, sizeof *r);
    r->ncols = ncols;
    r->cols[0] = c0, r->cols[1] = c1, r->cols[2] = c2;
}

static int row(struct model_result *r, const char *name, double a, double b, double c)
{
    if (r->nrows >= MAX_ROWS)
        ibn_panic("model result: more than %d rows", MAX_ROWS);
    int i = r->nrows++;
    snprintf(r->rows[i], sizeof r->rows[i], "%s", name);
    r->v[i][0] = a, r->v[i][1] = b, r->v[i][2] = c;
    return i;
}

/* Rows of the GE-type queues: exact, ME and the error measure of ME against exact. */
static void geq_rows(struct model_result *r, const struct geq_metrics *ex,
                     const struct geq_metrics *me, int have_me, int regimes)
{
    result_init(r, 3, "exact", "me", "em");
#define ROW3(name, f)                                                                         \
    row(r, name, ex->f, have_me ? me->f : NAN, have_me ? analytic_em(ex->f, me->f) : NAN)
    ROW3("L", L);
    ROW3("U", U);
    if (regimes > 1)
        for (int k = 0; k < regimes; k++) {
            char name[16];
            snprintf(name, sizeof name, "U%d", k + 1);
            row(r, name, ex->U_regime[k], have_me ? me->U_regime[k] : NAN,
                have_me ? analytic_em(ex->U_regime[k], me->U_regime[k]) : NAN);
        }
    ROW3("X", X);
    ROW3("blocking", blocking);
    ROW3("p_full", p_full);
    ROW3("W", W);
#undef ROW3
}

/* ME is an approximation that needs rho < 1 per regime: when it has no solution the exact
 * column stands alone and the note says why. */
static int solve_geq(const struct model_args *a, const struct geq_regimes *reg,
                     struct model_result *r, struct ibn_err *err)
{
    struct geq_metrics ex, me;
    if (geq_exact(a->lambda, a->ca2, a->cs2, reg, NULL, &ex, err))
        return -1;
    struct ibn_err meerr;
    int have_me = geq_me(a->lambda, a->ca2, a->cs2, reg, NULL, &me, &meerr) == 0;
    geq_rows(r, &ex, &me, have_me, reg->count);
    if (!have_me)
        snprintf(r->note, sizeof r->note, "no ME column: %s", meerr.msg);
    return 0;
}

static int solve_ge(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct ge_dist d = { a->rate, a->scv };
    if (ge_check(&d, "GE", err))
        return -1;
    result_init(r, 2, "formula", "sample", NULL);
    double sm = NAN, sv = NAN, sz = NAN;
    if (a->samples > 0) {
        gsl_rng *g = rng_stream((uint64_t)a->seed, "model/ge");
        double s = 0, s2 = 0;
        long long zeros = 0;
        for (long long i = 0; i < a->samples; i++) {
            double x = ge_sample(&d, g);
            s += x, s2 += x * x;
            zeros += x == 0;
        }
        gsl_rng_free(g);
        sm = s / (double)a->samples;
        sv = s2 / (double)a->samples - sm * sm;
        sz = (double)zeros / (double)a->samples;
    }
    row(r, "tau", ge_tau(a->scv), NAN, 0);
    row(r, "batch_rate", ge_batch_rate(&d), NAN, 0);
    row(r, "batch_mean", ge_batch_mean(&d), NAN, 0);
    row(r, "p_zero", ge_p_zero(&d), sz, 0);
    row(r, "mean", ge_mean(&d), sm, 0);
    row(r, "variance", ge_variance(&d), sv, 0);
    row(r, "scv", a->scv, a->samples > 0 ? sv / (sm * sm) : NAN, 0);
    return 0;
}

static int solve_gequeue(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct geq_regimes reg = { 1, { (int)a->N }, { a->mu } };
    return solve_geq(a, &reg, r, err);
}

static int solve_et(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct et_params p = { a->lambda, a->ca2, a->cs2, a->mu1, a->mu2, (int)a->N,
                           a->t ? (int)a->t : (int)a->N };
    struct geq_regimes reg;
    if (et_regimes(&p, &reg, err))
        return -1;
    return solve_geq(a, &reg, r, err);
}

static int solve_ajt(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct ajt_params p = { .lambda = a->lambda, .ca2 = a->ca2, .cs2 = a->cs2, .N = (int)a->N,
                            .lanes = (int)a->lanes, .mu = { a->mu1, a->mu2, a->mu3, a->mu4 } };
    long long T[3] = { a->T1, a->T2, a->T3 };
    for (int k = 0; k < 3; k++)
        p.T[k] = T[k] ? (int)T[k] : (k + 1) * (int)a->N;
    struct geq_regimes reg;
    if (ajt_regimes(&p, &reg, err))
        return -1;
    return solve_geq(a, &reg, r, err);
}

static int solve_credit(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct credit_params p = { a->lambda, a->mu1, a->mu2, (int)a->n1, (int)a->n2 };
    struct credit_metrics m;
    if (credit_solve(&p, &m, err))
        return -1;
    result_init(r, 1, "exact", NULL, NULL);
    row(r, "L1", m.L1, 0, 0);
    row(r, "L2", m.L2, 0, 0);
    row(r, "L", m.L, 0, 0);
    row(r, "T", m.T, 0, 0);
    row(r, "R", m.R, 0, 0);
    row(r, "P_loss", m.P_loss, 0, 0);
    row(r, "P_blocked", m.P_blocked, 0, 0);
    return 0;
}

static void queue_rows(struct model_result *r, const struct queue_metrics *m, int finite)
{
    result_init(r, 1, "value", NULL, NULL);
    row(r, "rho", m->rho, 0, 0);
    row(r, "p0", m->p0, 0, 0);
    row(r, "L", m->L, 0, 0);
    row(r, "Lq", m->Lq, 0, 0);
    row(r, "W", m->W, 0, 0);
    row(r, "Wq", m->Wq, 0, 0);
    row(r, "X", m->X, 0, 0);
    if (finite)
        row(r, "blocking", m->blocking, 0, 0);
}

static int solve_mm1k(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct queue_metrics m;
    if (mm1k_solve(a->lambda, a->mu, (int)a->K, &m, err))
        return -1;
    queue_rows(r, &m, 1);
    return 0;
}

static int solve_md1(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct queue_metrics m;
    if (md1_solve(a->lambda, a->mu, &m, err))
        return -1;
    queue_rows(r, &m, 0);
    return 0;
}

static int solve_mg1(const struct model_args *a, struct model_result *r, struct ibn_err *err)
{
    struct queue_metrics m;
    if (mg1_solve(a->lambda, a->mu, a->cs2, &m, err))
        return -1;
    queue_rows(r, &m, 0);
    return 0;
}

static const struct model models[] = {
    { "ge", "GE distribution: moments, batch form, sampled moments", ge_params, solve_ge },
    { "gequeue", "GE/GE/1/N queue: exact chain and maximum entropy", gequeue_params,
      solve_gequeue },
    { "credit", "credit-based flow control between two nodes (CTMC)", credit_params_tab,
      solve_credit },
    { "et", "Entry Threshold: GE/GE/1 with rate mu1 -> mu2, capacity N -> 2N at t",
      et_params_tab, solve_et },
    { "ajt", "Arrival Job Threshold: lanes borrowed at T1, T2, ... (capacity lanes*N)",
      ajt_params_tab, solve_ajt },
    { "mm1k", "M/M/1/K closed form", mm1k_params, solve_mm1k },
    { "md1", "M/D/1 (Pollaczek-Khinchine with Cs2 = 0)", md1_params, solve_md1 },
    { "mg1", "M/G/1 by Pollaczek-Khinchine", mg1_params, solve_mg1 },
    { NULL, NULL, NULL, NULL },
};

/* Keys whose 0 means "follow N" (ET's t, AJT's T1..T3) take their value here, so that the
 * solvers and the printed parameters see every default made explicit. */
static void resolve_args(const struct model *m, struct model_args *a)
{
    if (!strcmp(m->name, "et") && a->t == 0)
        a->t = a->N;
    if (!strcmp(m->name, "ajt")) {
        long long *T[3] = { &a->T1, &a->T2, &a->T3 };
        for (int k = 0; k < 3; k++)
            if (*T[k] == 0)
                *T[k] = (k + 1) * a->N;
    }
}

/* ---- usage ---- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim model NAME [key=value]... [sweep=KEY[,KEY...]:FROM:TO[:STEP]] "
            "[--json] [-o DIR]\n"
            "       ibnetsim model NAME --help      (the keys of one model)\n\n"
            "Solves an analytic queueing model of seed 000 (Yan 2012) or a classic reference\n"
            "queue and prints its metrics as a table (--json: as JSON).\n\n"
            "models:\n");
    for (const struct model *m = models; m->name; m++)
        fprintf(f, "  %-8s %s\n", m->name, m->summary);
    fprintf(f, "  %-8s %s\n", "memcost", "memory per input port of seed 002's switch architectures (1Q, "
               "VOQsw, VOQnet, DBBM, FBICM, CCFIT, HFDI, EcoCC): its own keys, 'model memcost --help'");
    fprintf(f,
            "\nsweep=KEY:FROM:TO[:STEP] solves the model for KEY = FROM, FROM+STEP, ... <= TO\n"
            "(STEP defaults to 1; integer keys take integer values) and prints one CSV line per\n"
            "point; sweep=KEY1,KEY2:FROM:TO[:STEP] moves several keys together (n1 = n2).\n"
            "-o DIR writes DIR/model.csv (one row per point) and DIR/model.json; with a sweep\n"
            "also DIR/model.gp, a gnuplot script, and DIR/model.png when gnuplot is installed.\n\n"
            "Columns: exact = the exact Markov chain, me = maximum entropy, em = |exact - me| /\n"
            "|exact| (the thesis's error measure). Metrics: L mean number in system, U\n"
            "utilisation, Uk share of regime k, X throughput, blocking per-packet loss\n"
            "probability, p_full P(n = capacity), W = L/X; credit: L1, L2, L, T, R = L/T,\n"
            "P_loss, P_blocked (upstream holds packets but no credit).\n\n"
            "examples:\n"
            "  ibnetsim model credit lambda=5 mu1=6 mu2=8 n1=12 sweep=n2:2:11 -o out\n"
            "  ibnetsim model credit sweep=n1,n2:4:10\n"
            "  ibnetsim model et lambda=4 --json\n"
            "  ibnetsim model gequeue lambda=1 ca2=5 mu=8 cs2=7 N=8 sweep=lambda:1:7\n"
            "  ibnetsim model ge rate=2 scv=5 samples=1000000\n\n"
            "docs/analytic.md gives the formulas, the reference numbers and where ME is off.\n");
}

static void model_help(const struct model *m, FILE *f)
{
    fprintf(f, "ibnetsim model %s: %s\n\nkeys:\n", m->name, m->summary);
    struct model_args a;
    char why[256];
    memset(&a, 0, sizeof a);
    params_set_defaults(m->params, &a, why, sizeof why);
    for (const struct param *p = m->params; p->key; p++) {
        char def[64];
        param_format(p, &a, def, sizeof def);
        fprintf(f, "  %-8s %-10s %s\n", p->key, def, p->help);
    }
}

/* ---- output ---- */

static void fmt_value(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.6g", v);
}

static void print_table(const struct model_result *r, FILE *f)
{
    fprintf(f, "%-10s", "metric");
    for (int c = 0; c < r->ncols; c++)
        fprintf(f, " %14s", r->cols[c]);
    fputc('\n', f);
    for (int i = 0; i < r->nrows; i++) {
        fprintf(f, "%-10s", r->rows[i]);
        for (int c = 0; c < r->ncols; c++) {
            char v[32];
            fmt_value(r->v[i][c], v, sizeof v);
            fprintf(f, " %14s", v);
        }
        fputc('\n', f);
    }
    if (r->note[0])
        fprintf(f, "note: %s\n", r->note);
}

static json_t *json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *params_json(const struct model *m, const struct model_args *a)
{
    json_t *o = json_object();
    for (const struct param *p = m->params; p->key; p++) {
        const char *base = (const char *)a + p->offset;
        if (p->type == P_INT)
            json_object_set_new(o, p->key, json_integer(*(const long long *)base));
        else
            json_object_set_new(o, p->key, json_num(*(const double *)base));
    }
    return o;
}

/* {"exact": {"L": ..., ...}, "me": {...}} */
static json_t *results_json(const struct model_result *r)
{
    json_t *o = json_object();
    for (int c = 0; c < r->ncols; c++) {
        json_t *col = json_object();
        for (int i = 0; i < r->nrows; i++)
            json_object_set_new(col, r->rows[i], json_num(r->v[i][c]));
        json_object_set_new(o, r->cols[c], col);
    }
    if (r->note[0])
        json_object_set_new(o, "note", json_string(r->note));
    return o;
}

static void csv_header(const struct model_result *r, const char *key, FILE *f)
{
    fprintf(f, "%s", key ? key : "point");
    for (int i = 0; i < r->nrows; i++)
        for (int c = 0; c < r->ncols; c++) {
            if (r->ncols == 1)
                fprintf(f, ",%s", r->rows[i]);
            else
                fprintf(f, ",%s_%s", r->rows[i], r->cols[c]);
        }
    fputc('\n', f);
}

static void csv_row(const struct model_result *r, double x, FILE *f)
{
    fprintf(f, "%.10g", x);
    for (int i = 0; i < r->nrows; i++)
        for (int c = 0; c < r->ncols; c++) {
            if (isnan(r->v[i][c]))
                fprintf(f, ",");
            else
                fprintf(f, ",%.10g", r->v[i][c]);
        }
    fputc('\n', f);
}

/* A gnuplot script: one panel per metric, each solution a line (the em column is left out). */
static void write_gp(const struct model *m, const struct model_result *r, const char *key,
                     FILE *f)
{
    int plotted_cols = r->ncols == 3 ? 2 : r->ncols;
    int cols = r->nrows <= 4 ? 2 : 3;
    int rows = (r->nrows + cols - 1) / cols;
    fprintf(f,
            "# ibnetsim model %s: gnuplot script; run `gnuplot model.gp` in this folder.\n"
            "set terminal png size %d,%d noenhanced\n"
            "set output 'model.png'\n"
            "set datafile separator ','\n"
            "set key top left\n"
            "set grid\n"
            "set multiplot layout %d,%d title 'ibnetsim model %s'\n",
            m->name, 420 * cols, 320 * rows, rows, cols, m->name);
    for (int i = 0; i < r->nrows; i++) {
        fprintf(f, "set xlabel '%s'\nset title '%s'\nplot ", key, r->rows[i]);
        for (int c = 0; c < plotted_cols; c++) {
            int column = 2 + i * r->ncols + c; /* 1-based; column 1 is the swept key */
            fprintf(f, "%s'model.csv' using 1:%d with linespoints title '%s'",
                    c ? ", " : "", column, r->cols[c]);
        }
        fputc('\n', f);
    }
    fprintf(f, "unset multiplot\n");
}

static int run_gnuplot(const char *dir)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", "model.gp", (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return 1; /* not installed */
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* ---- arguments ---- */

/* One sweep moves one key, or several keys together (KEY1,KEY2:...: e.g. n1 = n2). */
#define SWEEP_MAX_KEYS 4

struct sweep {
    const struct param *p[SWEEP_MAX_KEYS];
    int np;
    char label[128]; /* the keys joined by '=', the CSV column and JSON name */
    double from, to, step;
    int n;
};

static int parse_sweep(const struct model *m, const char *spec, struct sweep *s,
                       struct ibn_err *err)
{
    char keys[128];
    const char *colon = strchr(spec, ':');
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof keys)
        return ibn_err_set(err, "sweep expects KEY[,KEY...]:FROM:TO[:STEP], got \"%s\"", spec);
    memcpy(keys, spec, (size_t)(colon - spec));
    keys[colon - spec] = 0;
    s->np = 0;
    s->label[0] = 0;
    char *save = NULL;
    for (char *k = strtok_r(keys, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        const struct param *p = params_find(m->params, k);
        if (!p) {
            char list[256];
            params_list_keys(m->params, list, sizeof list);
            return ibn_err_set(err, "sweep: model %s has no key \"%s\"; its keys are: %s",
                               m->name, k, list);
        }
        if (p->type != P_INT && p->type != P_DOUBLE)
            return ibn_err_set(err, "sweep: %s cannot be swept", p->key);
        if (s->np == SWEEP_MAX_KEYS)
            return ibn_err_set(err, "sweep: at most %d keys move together", SWEEP_MAX_KEYS);
        s->p[s->np++] = p;
        size_t len = strlen(s->label);
        snprintf(s->label + len, sizeof s->label - len, "%s%s", len ? "=" : "", p->key);
    }
    if (s->np == 0)
        return ibn_err_set(err, "sweep expects KEY[,KEY...]:FROM:TO[:STEP], got \"%s\"", spec);
    char *end;
    const char *q = colon + 1;
    s->from = strtod(q, &end);
    if (end == q || *end != ':')
        return ibn_err_set(err, "sweep expects KEY[,KEY...]:FROM:TO[:STEP], got \"%s\"", spec);
    q = end + 1;
    s->to = strtod(q, &end);
    if (end == q || (*end && *end != ':'))
        return ibn_err_set(err, "sweep expects KEY[,KEY...]:FROM:TO[:STEP], got \"%s\"", spec);
    s->step = 1;
    if (*end == ':') {
        q = end + 1;
        s->step = strtod(q, &end);
        if (end == q || *end)
            return ibn_err_set(err, "sweep: bad STEP in \"%s\"", spec);
    }
    if (!isfinite(s->from) || !isfinite(s->to) || !isfinite(s->step) || !(s->step > 0) ||
        s->to < s->from)
        return ibn_err_set(err, "sweep: need FROM <= TO and STEP > 0, got \"%s\"", spec);
    double n = floor((s->to - s->from) / s->step + 1e-9) + 1;
    if (n > 100000)
        return ibn_err_set(err, "sweep: %g points is more than 100000", n);
    s->n = (int)n;
    for (int k = 0; k < s->np; k++)
        if (s->p[k]->type == P_INT && (s->from != floor(s->from) || s->step != floor(s->step)))
            return ibn_err_set(err, "sweep: %s is a whole number; FROM and STEP must be too",
                               s->p[k]->key);
    return 0;
}

static int set_point(const struct sweep *s, int i, struct model_args *a, double *x,
                     struct ibn_err *err)
{
    *x = s->from + i * s->step;
    for (int k = 0; k < s->np; k++) {
        char text[64], why[256];
        if (s->p[k]->type == P_INT)
            snprintf(text, sizeof text, "%.0f", *x);
        else
            snprintf(text, sizeof text, "%.17g", *x);
        if (param_set(s->p[k], a, text, why, sizeof why))
            return ibn_err_set(err, "sweep: %s", why);
    }
    return 0;
}

/* Whether the sweep moves `key`. */
static int sweeps(const struct sweep *s, const char *key)
{
    for (int k = 0; k < s->np; k++)
        if (!strcmp(s->p[k]->key, key))
            return 1;
    return 0;
}

static int make_dir(const char *dir, struct ibn_err *err)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
    }
    return ibn_err_set(err, "cannot create output folder %s: %s", dir,
                       errno ? strerror(errno) : "not a folder");
}

static struct outfile *open_out(const char *dir, const char *name, struct ibn_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return out_open(path, err);
}

static int write_json_file(const char *dir, json_t *doc, struct ibn_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/model.json", dir);
    struct outfile *o = out_open(path, err);
    if (!o)
        return -1;
    json_dumpf(doc, o->fp, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
    return out_close(o, err);
}

int cmd_model(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "memcost"))
        return cmd_model_memcost(argc, argv);
    const struct model *m = NULL;
    for (const struct model *k = models; k->name; k++)
        if (!strcmp(k->name, argv[1]))
            m = k;
    if (!m) {
        fprintf(stderr, "ibnetsim model: unknown model \"%s\"; expected one of:", argv[1]);
        for (const struct model *k = models; k->name; k++)
            fprintf(stderr, " %s", k->name);
        fputs(" memcost\n", stderr);
        return 2;
    }

    struct model_args a;
    memset(&a, 0, sizeof a);
    char why[512];
    if (params_set_defaults(m->params, &a, why, sizeof why))
        ibn_panic("model %s: bad default: %s", m->name, why);

    int json = 0, have_sweep = 0;
    const char *outdir = NULL, *sweep_spec = NULL;
    struct ibn_err err;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            model_help(m, stdout);
            return 0;
        }
        if (!strcmp(arg, "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(arg, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ibnetsim model: -o needs a folder\n");
                return 2;
            }
            outdir = argv[++i];
            continue;
        }
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg) {
            fprintf(stderr, "ibnetsim model %s: expected key=value, got \"%s\" (see "
                            "'ibnetsim model %s --help')\n",
                    m->name, arg, m->name);
            return 2;
        }
        char key[64];
        size_t klen = (size_t)(eq - arg);
        if (klen >= sizeof key)
            klen = sizeof key - 1;
        memcpy(key, arg, klen);
        key[klen] = 0;
        if (!strcmp(key, "sweep")) {
            sweep_spec = eq + 1;
            have_sweep = 1;
            continue;
        }
        const struct param *p = params_find(m->params, key);
        if (!p) {
            char keys[256];
            params_list_keys(m->params, keys, sizeof keys);
            fprintf(stderr, "ibnetsim model %s: unknown key \"%s\"; expected one of: %s, sweep\n",
                    m->name, key, keys);
            return 2;
        }
        if (param_set(p, &a, eq + 1, why, sizeof why)) {
            fprintf(stderr, "ibnetsim model %s: %s\n", m->name, why);
            return 2;
        }
    }

    struct sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.n = 1;
    if (have_sweep && parse_sweep(m, sweep_spec, &sw, &err)) {
        fprintf(stderr, "ibnetsim model %s: %s\n", m->name, err.msg);
        return 2;
    }
    if (outdir && make_dir(outdir, &err)) {
        fprintf(stderr, "ibnetsim model %s: %s\n", m->name, err.msg);
        return 1;
    }

    /* Solve every point first: bad input is reported before anything is written. */
    struct model_result *res = xcalloc((size_t)sw.n, sizeof *res);
    double *xs = xcalloc((size_t)sw.n, sizeof *xs);
    int rc = 0;
    for (int i = 0; i < sw.n && rc == 0; i++) {
        struct model_args pa = a;
        if (have_sweep && set_point(&sw, i, &pa, &xs[i], &err)) {
            fprintf(stderr, "ibnetsim model %s: %s\n", m->name, err.msg);
            rc = 2;
            break;
        }
        resolve_args(m, &pa);
        if (m->solve(&pa, &res[i], &err)) {
            if (have_sweep)
                fprintf(stderr, "ibnetsim model %s: at %s = %g: %s\n", m->name, sw.label, xs[i],
                        err.msg);
            else
                fprintf(stderr, "ibnetsim model %s: %s\n", m->name, err.msg);
            rc = 2;
        }
    }
    if (rc) {
        free(res);
        free(xs);
        return rc;
    }

    /* The printed parameters: resolved, unless the sweep moves N (then 0 keeps "follow N"). */
    if (!have_sweep || !sweeps(&sw, "N"))
        resolve_args(m, &a);
    json_t *doc = json_object();
    json_object_set_new(doc, "model", json_string(m->name));
    json_object_set_new(doc, "params", params_json(m, &a));
    if (have_sweep) {
        json_t *pts = json_array();
        json_object_set_new(doc, "sweep", json_string(sw.label));
        for (int i = 0; i < sw.n; i++) {
            json_t *pt = json_object();
            json_object_set_new(pt, sw.label, json_real(xs[i]));
            json_object_set_new(pt, "results", results_json(&res[i]));
            json_array_append_new(pts, pt);
        }
        json_object_set_new(doc, "points", pts);
    } else {
        json_object_set_new(doc, "results", results_json(&res[0]));
    }

    if (json) {
        json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
        fputc('\n', stdout);
    } else if (have_sweep) {
        csv_header(&res[0], sw.label, stdout);
        for (int i = 0; i < sw.n; i++)
            csv_row(&res[i], xs[i], stdout);
        for (int i = 0; i < sw.n; i++)
            if (res[i].note[0])
                printf("note at %s = %g: %s\n", sw.label, xs[i], res[i].note);
    } else {
        printf("ibnetsim model %s:", m->name);
        for (const struct param *p = m->params; p->key; p++) {
            char v[64];
            param_format(p, &a, v, sizeof v);
            printf(" %s=%s", p->key, v);
        }
        printf("\n\n");
        print_table(&res[0], stdout);
    }

    if (outdir) {
        struct outfile *f = open_out(outdir, "model.csv", &err);
        if (!f) {
            rc = 1;
        } else {
            csv_header(&res[0], have_sweep ? sw.label : NULL, f->fp);
            for (int i = 0; i < sw.n; i++)
                csv_row(&res[i], have_sweep ? xs[i] : 0, f->fp);
            if (out_close(f, &err))
                rc = 1;
        }
        if (rc == 0 && write_json_file(outdir, doc, &err))
            rc = 1;
        if (rc == 0 && have_sweep) {
            f = open_out(outdir, "model.gp", &err);
            if (!f) {
                rc = 1;
            } else {
                write_gp(m, &res[0], sw.label, f->fp);
                int g = out_close(f, &err) ? (rc = 1, 0) : run_gnuplot(outdir);
                if (g == 1)
                    fprintf(stderr, "ibnetsim model: gnuplot not found; %s/model.gp written\n",
                            outdir);
                else if (g < 0)
                    fprintf(stderr, "ibnetsim model: gnuplot failed on %s/model.gp\n", outdir);
            }
        }
        if (rc) {
            fprintf(stderr, "ibnetsim model %s: %s\n", m->name, err.msg);
            rc = err.output ? IBN_EXIT_OUTPUT : 1;
        }
    }
    json_decref(doc);
    free(res);
    free(xs);
    return rc;
}

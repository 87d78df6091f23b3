/* repro.h: reproductions of the seed works' numbers. A reproduction runs scenarios from
 * scenarios/ (with overrides) and appends rows to a table: id, the paper's claim, the paper's
 * number, ibnetsim's number, the unit and the tolerance. `ibnetsim repro NAME...` prints the
 * table and writes repro.csv; the repro tests assert the same rows. A number that does not
 * come out is reported as it is. */
#ifndef IBN_REPRO_H
#define IBN_REPRO_H

#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/simtime.h"
#include "stats/results.h"

struct scenario;

/* What a row is evidence of (docs/cc.md "How rows are classified"). Only evidence and trend
 * rows count as passes; the others are printed for the record.
 *   EVIDENCE    a number compared with the paper, independent of any fitted value and not fixed
 *               by a configured limit (the default of repro_add with tol >= 0)
 *   DERIVED     arithmetic on other rows (a ratio, a sum): declared by the reproduction
 *   CAP         ibnetsim's number sits at a configured limit (host injection or receive limit
 *               of the reproduction's runs) and so does the paper's: decided by repro_classify,
 *               never declared
 *   CALIBRATED  the number a fitted parameter was fitted to: declared
 *   TREND       a direction or an order, not a number (the default of repro_add with tol < 0)
 *   INFO        a number with nothing to compare it with (paper value NAN): cannot fail */
enum repro_kind { REPRO_EVIDENCE, REPRO_DERIVED, REPRO_CAP, REPRO_CALIBRATED, REPRO_TREND, REPRO_INFO };
const char *repro_kind_name(enum repro_kind k);

struct repro_row {
    char id[48];
    char claim[224];
    char paper[32];        /* the paper's number as text ("13", "1/4", "> 1") */
    double paper_v;        /* NAN: the paper gives no number (the row is INFO) */
    double ours;           /* ibnetsim's number; the mean over the replications */
    double ci;             /* half-width of the 95 % confidence interval of `ours` (0: one run) */
    int nrep;              /* replications (seeds) behind `ours` */
    char unit[16];
    double tol;            /* allowed |ours - paper| (absolute, in unit); < 0: a trend check */
    double lo, hi;         /* a trend from replications: the band the whole interval must lie in */
    int ok;                /* within tolerance (or the trend holds) */
    enum repro_kind kind;
    char basis[48];        /* why the row has its kind when a rule decided it ("hca.sink_limit 13.6") */
};

struct repro_table {
    struct repro_row *rows;
    int n, cap;
};

struct repro {
    const char *name;
    const char *summary;
    int (*run)(struct repro_table *t, struct ibn_err *e);
};

extern const struct repro repro_list[];

/* Add a row; tol >= 0 checks |ours - paper_v| <= tol (an EVIDENCE row); tol < 0 takes `ok` as
 * given (a TREND row). */
void repro_add(struct repro_table *t, const char *id, const char *claim, const char *paper,
               double paper_v, double ours, const char *unit, double tol, int ok);
/* The same with the row's kind declared (REPRO_DERIVED, REPRO_CALIBRATED, REPRO_INFO, ...). */
void repro_add_kind(struct repro_table *t, enum repro_kind kind, const char *id, const char *claim,
                    const char *paper, double paper_v, double ours, const char *unit, double tol,
                    int ok);
/* A row from replications: v[0..n-1] one value per seed. `ours` is their mean, `ci` the half-width
 * of its 95 % confidence interval (Student's t, n - 1 degrees of freedom); the row is within
 * tolerance when the interval overlaps [paper_v - tol, paper_v + tol] and is no wider than
 * REPRO_CI_MAX (else the seeds disagree and the row is not a pass whatever its mean). */
#define REPRO_CI_MAX(tol, paper_v) fmax((tol), 0.1 * fabs(paper_v))
void repro_add_reps(struct repro_table *t, enum repro_kind kind, const char *id, const char *claim,
                    const char *paper, double paper_v, const double *v, int n, const char *unit,
                    double tol);
/* A TREND row from replications: it holds when the whole 95 % interval of the mean of v lies in
 * [lo, hi] (use -INFINITY / INFINITY for a one-sided claim), i.e. in every plausible mean. */
void repro_add_trend(struct repro_table *t, const char *id, const char *claim, const char *paper,
                     const double *v, int n, const char *unit, double lo, double hi);
/* The tolerance the paper's own precision gives a number, from its text (docs/cc.md "Tolerances"):
 * "~X" (approximate, read off a figure or "about X" in the text): 10 % of |v|; otherwise half a
 * unit of the last digit printed, but at least 1 % of |v| (the smallest effect the papers report
 * is the hot spots' 2.2-2.5 % loss with CC; a band of +-1 % keeps the value without it out). */
double repro_tol(const char *paper, double v);
/* Mean and 95 % half-width of v[0..n-1] (half-width 0 for n < 2). */
void repro_ci95(const double *v, int n, double *mean, double *half);

/* The rules of docs/cc.md applied to rows[from..]: a row without a paper number is INFO; an
 * EVIDENCE row whose value is within REPRO_CAP_MARGIN of a configured limit of the runs made
 * since the last repro_caps_clear, while the paper's number is within tolerance of that limit
 * too, is CAP. repro_exec does it for every reproduction. */
#define REPRO_CAP_MARGIN 0.02
void repro_classify(struct repro_table *t, int from);
/* Configured limits (Gb/s) that bound rows: repro_run notes every run's host injection and
 * receive limits; a reproduction may add others. */
void repro_caps_clear(void);
void repro_cap_note(const char *name, double gbps);
/* Run one reproduction: clears the limits, runs it, classifies its rows. */
int repro_exec(const struct repro *r, struct repro_table *t, struct ibn_err *e);

const struct repro *repro_find(const char *name);
/* `repro isolation` (seed002_isolation.c) is these parts in this order; one part's rows (the
 * repro test runs them apart; the caller classifies them). */
extern const char *const repro_isolation_parts[];
int repro_isolation_part(const char *part, struct repro_table *t, struct ibn_err *e);
/* `repro s003` (seed003.c) is the parts "fig3", "fig4" and "fig5" in that order; one part's rows
 * (the repro test runs them apart, each well inside ctest's timeout). */
int repro_seed003_part(struct repro_table *t, const char *part, struct ibn_err *e);
int repro_s003_fig3(struct repro_table *t, struct ibn_err *e);
int repro_s003_fig4(struct repro_table *t, struct ibn_err *e);
int repro_s003_fig5(struct repro_table *t, struct ibn_err *e);
/* `repro seed004`'s Fig. 10 rows alone (the multicast schemes and Fig. 10f's policies). */
int repro_s004_fig10(struct repro_table *t, struct ibn_err *e);
/* Seed 003 Fig. 4's admission (probe, cap 1) of setup 0, 1 or 2's streams V1..: the scenario
 * loaded with `over` and then repro_set_overrides' (as its runs are), each stream asking for
 * its load times its source link's rate; admitted[k] for stream k + 1, *nstreams set. */
int repro_s003_f4_admit(int setup, const char *const *over, int nover, int *admitted,
                        int *nstreams, struct ibn_err *e);
/* Seed 003 Fig. 5's admission A (probe, cap 1) of the streams RT1..RT25 of fig5-mesh5x5.cfg,
 * loaded with `over` and then repro_set_overrides' (as its runs are), each asking for its
 * mean rate (its load times its source link's rate, or its rate); admitted[k] for RTk+1. */
int repro_s003_f5_admit(const char *const *over, int nover, int admitted[25], struct ibn_err *e);
void repro_print(FILE *out, const struct repro_table *t);
/* "N of M evidence rows within tolerance; ..." */
void repro_print_summary(FILE *out, const struct repro_table *t);
/* Evidence rows and those within tolerance; trend rows and those that hold. */
void repro_count(const struct repro_table *t, int *ev, int *ev_ok, int *tr, int *tr_ok);
int repro_write_csv(const struct repro_table *t, const char *path, struct ibn_err *e);
void repro_table_free(struct repro_table *t);

/* Per-flow throughput series of one run (Gb/s of payload per sample interval). */
struct repro_series {
    int nflows, nsamples;
    char **names;
    double *t;             /* sample end times, s */
    double *x;             /* [k * nflows + i] */
    double *ccti;          /* [k * nflows + i], when congestion control is on (else 0) */
    int nhosts;
    double *host_rx;       /* per host: payload received in the measured period, Gb/s */
    struct receive_classes rc; /* hot spots / other hosts, when the first pattern has hot spots */
    double inject_gbps, sink_gbps; /* the run's hca.inject_limit and hca.sink_limit (0: none) */
    double wall_s;
    unsigned long long events, hops;
    /* Isolation switches (fabric/isol.h): time-average number of input ports with every
     * isolation queue in use, and packets that found none free (0 for other designs). */
    double isol_ports_exhausted;
    unsigned long long isol_exhausted;
    /* Packet-weighted mean network latency over every flow's measured packets (us), packets
     * delivered and dropped, and whether the fabric drained (0: stuck, a deadlock). */
    double net_latency_us;
    /* Message-weighted mean latency from the posting to the adapter to the last packet's
     * delivery (seed 003's message latency, docs/hostcc.md): posted_latency of flows with
     * credits, message_latency of the others (they post on arrival), us. */
    double posted_latency_us;
    double sl_latency_us[16];  /* the same per SL of the flows (0: no message) */
    unsigned long long delivered, dropped;
    int drained;
    int nports;            /* switch ports */
    char **port_names;     /* "SWITCH:PORT" */
    double *port_wait;     /* PortXmitWait over all VLs / the run's length (warm-up included) */
    /* Per flow: mean latency from message creation to delivery of its measured packets (us),
     * their number, and frames (messages with deadlines) measured and missed. */
    double *flow_e2e_us, *flow_e2e_n, *flow_frames, *flow_missed;
    /* Multicast: mean latency over every member's measured packets (us) and their number. */
    double mcast_lat_us, mcast_n;
    /* Per service level, over the measured packets and frames of its flows: network latency
     * (head injected to delivered) sums, frames against their deadlines (seed 004's DMP/DMT). */
    struct repro_sl {
        double net_ps;         /* sum of network latencies, ps */
        unsigned long long net_n;
        unsigned long long frames, missed;
        double miss_ps;        /* sum of lateness over missed frames, ps */
    } sl[16];
};
/* Column of switch port "SWITCH:PORT" in port_wait, or -1. */
int repro_port(const struct repro_series *s, const char *name);

/* Overrides added to every later repro_run (`ibnetsim repro -s`); keys under `cc.` (except
 * cc.plugin) reach only the runs with congestion control. The strings must outlive the runs. */
void repro_set_overrides(const char *const *over, int nover);
/* Run scenarios/<file> (relative to the source tree) with `-s`-style overrides. */
/* Load the scenario file `path` with the reproduction's overrides and then those of
 * `ibnetsim repro -s` (a plug-in key only for runs with a plug-in). Every run of a
 * reproduction loads its scenario through this, so that -s reaches it. */
int repro_load(const char *path, const char *const *over, int nover, struct scenario *sc,
               struct ibn_err *e);
int repro_run(const char *file, const char *const *over, int nover, struct repro_series *s,
              struct ibn_err *e);
/* The same, but a fabric that does not drain (a deadlock) is a result (s->drained = 0), not an
 * error. */
int repro_run_may_stick(const char *file, const char *const *over, int nover,
                        struct repro_series *s, struct ibn_err *e);
void repro_series_free(struct repro_series *s);

/* Replications and parallel runs. A stochastic run is repeated over repro_seeds() seeds
 * (simulation.seed = 1, 2, ...; default 5, `ibnetsim repro -n N`); independent runs go to
 * repro_run_jobs, which runs them in child processes, at most repro_jobs() at once (default:
 * the number of cores, `ibnetsim repro -j N`), as `ibnetsim sweep` does. The results do not
 * depend on the number of jobs. */
struct repro_job {
    const char *file;             /* under scenarios/ */
    const char *over[160];        /* overrides, as for repro_run */
    int nover;
    int may_stick;                /* a run that does not drain is a result (repro_run_may_stick) */
    char seed[40];                /* "simulation.seed=K" when set by repro_job_seeds */
};
int repro_seeds(void);
void repro_set_seeds(int n);
int repro_jobs(void);
void repro_set_jobs(int n);
/* Fill jobs[0..n-1] with `file` and `over`, seed k + 1 for jobs[k]. */
void repro_job_seeds(struct repro_job *jobs, int n, const char *file, const char *const *over,
                     int nover);
/* Run jobs[0..n-1] in parallel; out[i] is job i's series (free each with repro_series_free).
 * On failure every series is freed and e names the first job that failed. */
int repro_run_jobs(const struct repro_job *jobs, int n, struct repro_series *out,
                   struct ibn_err *e);
int repro_flow(const struct repro_series *s, const char *name); /* column, or -1 */
/* Mean and population SD of flow i's samples with time in (from, to]. */
double repro_mean(const struct repro_series *s, int i, double from, double to);
double repro_sd(const struct repro_series *s, int i, double from, double to);

#endif

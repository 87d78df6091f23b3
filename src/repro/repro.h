/* repro.h: reproductions of the seed works' numbers. A reproduction runs scenarios from
 * scenarios/ (with overrides) and appends rows to a table: id, the paper's claim, the paper's
 * number, ibnetsim's number, the unit and the tolerance. `ibnetsim repro NAME...` prints the
 * table and writes repro.csv; the repro tests assert the same rows. A number that does not
 * come out is reported as it is. */
#ifndef IBN_REPRO_H
#define IBN_REPRO_H

#include <stdio.h>

#include "core/error.h"
#include "core/simtime.h"
#include "stats/results.h"

struct repro_row {
    char id[48];
    char claim[160];
    char paper[32];        /* the paper's number as text ("13", "1/4", "> 1") */
    double paper_v;
    double ours;
    char unit[16];
    double tol;            /* allowed |ours - paper| (absolute, in unit); < 0: a trend check */
    int ok;                /* within tolerance (or the trend holds) */
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

/* Add a row; tol >= 0 checks |ours - paper_v| <= tol; tol < 0 takes `ok` as given (trends). */
void repro_add(struct repro_table *t, const char *id, const char *claim, const char *paper,
               double paper_v, double ours, const char *unit, double tol, int ok);
const struct repro *repro_find(const char *name);
void repro_print(FILE *out, const struct repro_table *t);
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
    double wall_s;
    unsigned long long events, hops;
    /* Packet-weighted mean network latency over every flow's measured packets (us), packets
     * delivered and dropped, and whether the fabric drained (0: stuck, a deadlock). */
    double net_latency_us;
    unsigned long long delivered, dropped;
    int drained;
};

/* Overrides added to every later repro_run (`ibnetsim repro -s`); keys under `cc.` (except
 * cc.plugin) reach only the runs with congestion control. The strings must outlive the runs. */
void repro_set_overrides(const char *const *over, int nover);
/* Run scenarios/<file> (relative to the source tree) with `-s`-style overrides. */
int repro_run(const char *file, const char *const *over, int nover, struct repro_series *s,
              struct ibn_err *e);
/* The same, but a fabric that does not drain (a deadlock) is a result (s->drained = 0), not an
 * error. */
int repro_run_may_stick(const char *file, const char *const *over, int nover,
                        struct repro_series *s, struct ibn_err *e);
void repro_series_free(struct repro_series *s);
int repro_flow(const struct repro_series *s, const char *name); /* column, or -1 */
/* Mean and population SD of flow i's samples with time in (from, to]. */
double repro_mean(const struct repro_series *s, int i, double from, double to);
double repro_sd(const struct repro_series *s, int i, double from, double to);

#endif

/* results.h: what a run writes: DIR/summary.json (per flow, per traffic class, per port with
 * perfquery counter names, the run's outcome and invariants), the time series DIR/flows.csv
 * (throughput of every flow per sample interval) and DIR/ports.csv (receive-buffer occupancy
 * of every switch port), and a short summary for the terminal. Everything written is a
 * function of the scenario and seed only (no wall-clock time), so runs are byte-identical. */
#ifndef IBN_RESULTS_H
#define IBN_RESULTS_H

#include <jansson.h>
#include <stdio.h>

#include "core/error.h"
#include "core/output.h"
#include "fabric/engine.h"
#include "fabric/fabric.h"
#include "stats/counters.h"

struct series {
    FILE *flows, *ports, *cc, *hosts, *classes, *queues;
    struct outfile *out_flows, *out_ports, *out_cc, *out_hosts, *out_classes, *out_queues;
    uint16_t class_mask;     /* SLs that have flows */
    struct fabric *f;
    /* Treatment variation over the contributors' per-interval throughput. */
    int ncontrib;
    uint32_t *contrib;
    double *x;
    unsigned char *active;
    struct tv_acc tv;
    struct counter_series *ctr; /* DIR/counters.csv (stats/counters.h), or NULL */
};

/* Open DIR/flows.csv (with DIR/hosts.csv: receive rate per host, and DIR/classes.csv: rate per
 * SL) and DIR/ports.csv (either group may be disabled) and write their headers.
 * `contributors` ("F2,F3", may be empty) names the flows whose treatment variation is measured. */
int series_open(struct series *s, struct fabric *f, const char *dir, int flows, int ports,
                const char *contributors, struct ibn_err *e);
/* Also DIR/queues.csv (output.queue_series): per sample, the switch queues in use, CAM lines
 * allocated and input ports out of special queues, over the fabric (swarch.h, sw_usage_add). */
int series_open_queues(struct series *s, const char *dir, struct ibn_err *e);
/* Also DIR/counters.csv (output.counter_series): every port's perfquery counters per interval. */
int series_open_counters(struct series *s, const char *dir, struct ibn_err *e);
/* The observer's boundary (fabric/engine.h): the measured period starts or ends at t. */
void series_boundary(struct fabric *f, void *ctx, simtime_t t);
/* After the run: the last interval (the drain, or up to where the run stopped). */
void series_finish(struct series *s);
/* The time series of one run may take at most this much (estimated before the run). */
#define SERIES_MAX_BYTES 4e9
int series_check_size(const struct fabric *f, int flows, int ports, int counters, struct ibn_err *e);
/* The sampling observer: one row per call, flushed so that an interrupted run keeps it. */
void series_sample(struct fabric *f, void *ctx);
/* Close the series files: -1 with the first output error (e->output set). */
int series_close(struct series *s, struct ibn_err *e);
/* Has a write to a series file failed already? (checked by the run between samples) */
int series_failed(const struct series *s);

/* A congestion-control plug-in's end-of-run tables: DIR/cc_ports.csv, DIR/cc_flows.csv
 * (nothing when the plug-in has none). */
int results_write_cc_tables(struct fabric *f, const char *dir, struct ibn_err *e);

/* The summary as JSON; `settings` (may be NULL) is attached as "settings" and its reference
 * is taken over; `s` (may be NULL) adds the treatment variation. Its "flows" and "ports"
 * members are empty arrays: results_write_json fills them from the fabric as it writes. */
json_t *results_summary(struct fabric *f, const struct run_report *r, json_t *settings,
                        const struct series *s);
/* Writes j to path. With a fabric: the root's "flows" and "ports" members, left empty by
 * results_summary, are filled with the fabric's flows and cabled ports as they are written,
 * one element's tree at a time (never the whole array's tree or text at once). */
int results_write_json(json_t *j, struct fabric *f, const char *path, struct ibn_err *e);
/* A few lines for a person: flows, totals, outcome. */
void results_print(FILE *out, struct fabric *f, const struct run_report *r);

/* Paper IV's receive rates for a run whose first destination pattern has hot spots (hotspot,
 * silent, windy, moving): the average payload receive rate of the hot spots (those of the end
 * of the run) and of the other hosts, over the measured period, and the total of all hosts;
 * the counts of C, B and V nodes. Returns 0 (and leaves *c zero) without such a pattern. */
struct receive_classes {
    int hot, other;                 /* hosts in each class */
    double hot_gbps, other_gbps;    /* average receive rate per host */
    double all_gbps, total_gbps;    /* average over all hosts; the sum */
    int c_nodes, b_nodes, v_nodes;
};
int results_receive_classes(struct fabric *f, struct receive_classes *c);

/* Payload throughput of a flow over the measured period, Gb/s. */
double flow_throughput_gbps(const struct fabric *f, const struct flow *fl);

#endif

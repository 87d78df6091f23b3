/* plot.h: what the figures of `ibnetsim plot` share (cmd_plot.c draws one run's figures,
 * plot_compare.c overlays several runs, plot_topology.c draws the fabric with graphviz): the
 * wide time-series CSVs of a results folder, the run's name for titles, a time unit. */
#ifndef IBN_PLOT_H
#define IBN_PLOT_H

#include <jansson.h>

#include "core/error.h"

/* A wide time-series CSV (time_s,NAME,NAME...): its column names and last time. */
struct wide_csv {
    int ncols;          /* data columns, without time_s */
    char **names;       /* their names (RFC 4180 quotes removed) */
    double last_time;
    int rows;
};

int read_wide(const char *dir, const char *file, struct wide_csv *w, struct ibn_err *e);
void wide_free(struct wide_csv *w);
/* The data column (1-based, gnuplot's numbering: time_s is 1) named `name`, or 0. */
int wide_column(const struct wide_csv *w, const char *name);

/* Split one CSV line in place into at most max fields (RFC 4180: quoted fields, "" inside
 * quotes); the number of fields. */
int csv_fields(char *line, char **f, int max);

/* A time axis unit that keeps the numbers readable. */
void time_unit(double last, const char **name, double *scale);

/* The run's name for titles: summary.json's settings.simulation.name, else the folder. */
const char *run_name(json_t *summary, const char *dir);

/* The overlay of several runs (`ibnetsim plot A B ... -o DIR`): DIR/plot-compare.gp. */
int plot_compare(const char *out, char *const *dirs, int ndirs, const char *highlight, struct ibn_err *e);

/* The fabric as a graph (`topology.dot` for graphviz): switches and, while the picture stays
 * readable, adapters; each cable coloured by the higher utilisation of its two directions,
 * with an arrow towards the peer on a direction whose transmitter waited for credits
 * (PortXmitWait > 0: the congestion tree). Sets *engine to the graphviz layout program. */
int plot_topology(const char *dir, json_t *summary, const char **engine, struct ibn_err *e);

/* Heat maps over time (plot_heat.c): x = time, y = port, colour = value. `buffers` from
 * ports.csv (each switch port's receive-buffer occupancy at each sample), `xmitwait` from
 * counters.csv (each port's PortXmitWait per interval over the interval). At most
 * HEAT_MAX_ROWS ports: those with the largest peak; ports never non-zero are left out. 0 when
 * DIR/plot-NAME.gp is written, 1 when the source file is missing (nothing written), -1 (e) on
 * an error. */
#define HEAT_MAX_ROWS 64
int plot_heat_buffers(const char *dir, const char *rname, struct ibn_err *e);
int plot_heat_xmitwait(const char *dir, const char *rname, struct ibn_err *e);

/* Per-flow latency CDFs (plot_flow_latency.c) from flow-latency.csv: network and end-to-end,
 * one curve per flow in the palette's colours, the named flows highlighted and the others grey.
 * 0 written, 1 no flow-latency.csv, -2 a highlighted flow the file lacks, -1 (e) an error. */
int plot_flow_latency(const char *dir, const char *rname, const char *highlight,
                      struct ibn_err *e);

#endif

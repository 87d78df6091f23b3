/* sweep_measure.h: the measures a sweep adds to sweep.csv (`-m PATH`): a dotted path into each
 * point's summary.json, where a list is entered by naming its elements (a flow, class, host or
 * port), e.g. flows.victim.throughput_gbps, ports.S1:3.PortXmitWait, classes.sl1.network_latency.p99_ns,
 * with an aggregate (:sum, :mean, :min, :max) when a name is a glob matching several elements. */
#ifndef IBN_SWEEP_MEASURE_H
#define IBN_SWEEP_MEASURE_H

#include <jansson.h>
#include <stddef.h>

#include "core/error.h"

enum measure_agg { AGG_NONE, AGG_SUM, AGG_MEAN, AGG_MIN, AGG_MAX };

struct measure {
    char *path;            /* as given, the sweep.csv column name */
    char **seg;            /* the path's segments */
    int nseg;
    enum measure_agg agg;
};

/* Parse "-m PATH[:AGG]"; -1 and e on a malformed path. */
int measure_parse(const char *arg, struct measure *m, struct ibn_err *e);
void measure_free(struct measure *m);

/* Before any run: a path that selects flows must name at least one of the scenario's flows, and
 * exactly one unless it aggregates. -1 and e otherwise (listing the names). */
int measure_check_flows(const struct measure *m, const char *const *names, int n, struct ibn_err *e);

/* The measure's value in one summary.json: 0 and *v (NAN for a JSON null, e.g. a latency with
 * no samples), or -1 and `why` (what the path does not find, and what is there). */
int measure_eval(const struct measure *m, json_t *summary, double *v, char *why, size_t size);

#endif

/* counters.h: DIR/counters.csv (output.counter_series): every cabled port's perfquery counters
 * (PortXmitData, PortRcvData in 4-byte words LRH..ICRC, PortXmitPkts, PortRcvPkts,
 * PortXmitWait in 1 ns ticks) and its link utilisation as a time series, one row per port
 * (and per data VL with traffic) and interval, with the node, port number, LID and node GUID.
 * Intervals end at every sample, at the start and the end of the measured period (so no
 * interval straddles them) and where the run stopped; each row names its period (warmup,
 * measured, drain). Counters count a packet when its transmission starts; the utilisation is
 * the link's busy time in the interval over its length (fabric/period.h), never above 1. */
#ifndef IBN_COUNTERS_H
#define IBN_COUNTERS_H

#include "core/error.h"
#include "core/output.h"
#include "fabric/fabric.h"
#include "fabric/period.h"

struct counter_series {
    struct outfile *out;
    struct port_counts *prev, *cur; /* [port * nvs + slot] at prev_t; scratch */
    double *prev_sent;
    simtime_t prev_t;
    char **label;            /* [port]: "node,port,lid,node_guid" */
    int nlabels;
};

/* Open DIR/counters.csv and write its header: NULL with e set on failure. */
struct counter_series *counters_open(struct fabric *f, const char *dir, struct ibn_err *e);
/* The rows of the interval that ends at t (nothing if it is empty). */
void counters_row(struct counter_series *c, struct fabric *f, simtime_t t);
/* Close (rc 0) or, with e NULL or after an error, abandon; frees c. */
int counters_close(struct counter_series *c, struct ibn_err *e);
int counters_failed(const struct counter_series *c);

#endif

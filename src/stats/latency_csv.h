/* latency_csv.h: DIR/latency.csv, the latency distributions of a run for CDF plots: network
 * (head injected to delivered) and end-to-end (message created to delivered) latency of every
 * packet, per traffic class (SL) and for all flows together, as the non-empty buckets of the
 * log-linear histograms. One row per bucket, long format:
 *   latency,class,value_ns,count,cdf
 *   network,all,1234.567,17,0.0123
 * `latency` is "network" or "end_to_end", `class` is "all" or "slN", `value_ns` the bucket's
 * upper bound (every sample in it is <= value_ns), `count` the samples in the bucket and `cdf`
 * the fraction of the class's samples <= value_ns (exact at bucket bounds). Rows of one
 * (latency, class) pair are contiguous and in increasing value_ns. DIR/flow-latency.csv has the
 * same form per flow. */
#ifndef IBN_LATENCY_CSV_H
#define IBN_LATENCY_CSV_H

#include "core/error.h"
#include "fabric/fabric.h"

/* Write DIR/latency.csv from the flows' histograms. */
int latency_csv_write(const struct fabric *f, const char *dir, struct ibn_err *e);

/* Write DIR/flow-latency.csv: the same rows per flow (output.flow_latency), from the histograms
 * every flow keeps anyway (nothing more is recorded while the run lasts):
 *   latency,flow,value_ns,count,cdf
 *   network,A,1327.103,50,1.000000000
 * the flow's name as an RFC 4180 field; flows without a delivered packet are left out. */
int latency_csv_write_flows(const struct fabric *f, const char *dir, struct ibn_err *e);

#endif

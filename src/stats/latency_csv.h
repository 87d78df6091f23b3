/* latency_csv.h: DIR/latency.csv, the latency distributions of a run for CDF plots: network
 * (head injected to delivered) and end-to-end (message created to delivered) latency of every
 * packet, per traffic class (SL) and for all flows together, as the non-empty buckets of the
 * log-linear histograms. One row per bucket, long format:
 *   latency,class,value_ns,count,cdf
 *   network,all,1234.567,17,0.0123
 * `latency` is "network" or "end_to_end", `class` is "all" or "slN", `value_ns` the bucket's
 * upper bound (every sample in it is <= value_ns), `count` the samples in the bucket and `cdf`
 * the fraction of the class's samples <= value_ns (exact at bucket bounds). Rows of one
 * (latency, class) pair are contiguous and in increasing value_ns. */
#ifndef IBN_LATENCY_CSV_H
#define IBN_LATENCY_CSV_H

#include "core/error.h"
#include "fabric/fabric.h"

/* Write DIR/latency.csv from the flows' histograms. */
int latency_csv_write(const struct fabric *f, const char *dir, struct ibn_err *e);

#endif

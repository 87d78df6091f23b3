/* histogram.h: log-linear histograms of non-negative integer samples (latencies in ps, queue
 * lengths, sizes), with exact count, sum, min and max, and percentiles to within 1/128
 * (0.8 %) relative error. A histogram starts sparse (a sorted list of the bins in use, at most
 * HIST_SPARSE_MAX of them: a flow of a few thousand connections' worth sees a handful) and
 * turns dense (whole octaves, allocated as samples first reach them) when more bins are used.
 * The two forms hold the same counts: every result is the same whichever form it is in. */
#ifndef IBN_HISTOGRAM_H
#define IBN_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7

#define HIST_SPARSE_MAX 128  /* bins a sparse histogram holds before it turns dense */

struct histogram {
    uint64_t count;
    double sum, sumsq;
    int64_t min, max;
    int16_t lo, hi;      /* dense: octave range allocated, hi < lo when empty */
    uint16_t nsp, capsp; /* sparse (capsp > 0): bins in use and allocated */
    uint64_t *bins;      /* dense: (hi - lo + 1) << HIST_SUB_BITS counters; sparse: nsp entries
                          * (bin number << 40 | count), by bin number; NULL while empty */
};

void hist_init(struct histogram *h);
void hist_free(struct histogram *h);
void hist_add(struct histogram *h, int64_t v);
/* Start fetching the counter hist_add(h, v) will increment (a hint; no effect on results). */
void hist_prefetch(const struct histogram *h, int64_t v);
void hist_merge(struct histogram *into, const struct histogram *from);
/* How many 64-bit words `bins` holds (to copy a histogram between processes). */
size_t hist_nbins_raw(const struct histogram *h);
/* Bytes of bins the histogram holds (0 while empty): for memory accounting. */
size_t hist_bytes(const struct histogram *h);
/* `into` (initialised or freed) becomes an exact copy of `from`, bins of its own. */
void hist_copy(struct histogram *into, const struct histogram *from);
double hist_mean(const struct histogram *h);
double hist_stddev(const struct histogram *h);
/* The value below which a fraction q (0..1) of samples lie; returns the bucket's midpoint,
 * clamped to [min, max]. 0 for an empty histogram. */
double hist_quantile(const struct histogram *h, double q);
/* Fraction of samples <= v (for CDF plots): exact at bucket edges. */
double hist_cdf(const struct histogram *h, int64_t v);
/* Iterate non-empty buckets in increasing order: returns the next one's bounds and count, or
 * 0 when done. Start with *i = 0 (an opaque position). */
int hist_next_bucket(const struct histogram *h, int *i, int64_t *low, int64_t *high, uint64_t *n);

#endif

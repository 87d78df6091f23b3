/* histogram.h: log-linear histograms of non-negative integer samples (latencies in ps, queue
 * lengths, sizes), with exact count, sum, min and max, and percentiles to within 1/128
 * (0.8 %) relative error. Octaves are allocated as samples first reach them, so memory
 * follows the range actually seen. */
#ifndef IBN_HISTOGRAM_H
#define IBN_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 7

struct histogram {
    uint64_t count;
    double sum, sumsq;
    int64_t min, max;
    int lo, hi;          /* octave range allocated, hi < lo when empty */
    uint64_t *bins;      /* (hi - lo + 1) << HIST_SUB_BITS counters */
};

void hist_init(struct histogram *h);
void hist_free(struct histogram *h);
void hist_add(struct histogram *h, int64_t v);
/* Start fetching the counter hist_add(h, v) will increment (a hint; no effect on results). */
void hist_prefetch(const struct histogram *h, int64_t v);
void hist_merge(struct histogram *into, const struct histogram *from);
double hist_mean(const struct histogram *h);
double hist_stddev(const struct histogram *h);
/* The value below which a fraction q (0..1) of samples lie; returns the bucket's midpoint,
 * clamped to [min, max]. 0 for an empty histogram. */
double hist_quantile(const struct histogram *h, double q);
/* Fraction of samples <= v (for CDF plots): exact at bucket edges. */
double hist_cdf(const struct histogram *h, int64_t v);
/* Iterate non-empty buckets: returns the next index >= *i with a count, its bounds and count;
 * returns 0 when done. Start with *i = 0. */
int hist_next_bucket(const struct histogram *h, int *i, int64_t *low, int64_t *high, uint64_t *n);

#endif

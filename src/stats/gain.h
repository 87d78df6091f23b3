/* gain.h: the "average gain" of one technique over another, as seed 002 Paper VI's Table 3
 * reports it (digest 002b section 7 item 13; the paper does not define it). From two throughput
 * series sampled at the same times: (1) the mean over the samples of a_i / b_i - 1, the
 * digest's default; (2) the ratio of the means, sum a_i / sum b_i - 1, less sensitive to
 * samples where b is near zero. Either is computed over the whole run or over a window
 * [from, to] (the congestion period, e.g. [1, 2] ms for Paper VI's patterns). */
#ifndef IBN_GAIN_H
#define IBN_GAIN_H

#include <stddef.h>

struct gain {
    double mean_of_ratios;   /* mean of a_i / b_i - 1 over the samples with b_i > 0 */
    double ratio_of_means;   /* sum a_i / sum b_i - 1 */
    size_t samples;          /* samples in the window */
    size_t skipped;          /* of those, samples with b_i <= 0 (left out of mean_of_ratios) */
};

/* Over the samples i with from <= t[i] <= to (from = -inf, to = +inf for the whole run).
 * Returns -1 if no sample with b_i > 0 lies in the window (both gains are then NaN). */
int gain_compute(const double *t, const double *a, const double *b, size_t n, double from, double to,
                 struct gain *g);

#endif

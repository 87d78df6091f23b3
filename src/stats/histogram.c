/* histogram.c: log-linear histograms with lazily grown octave ranges. */
#include "stats/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define SUB (1 << HIST_SUB_BITS)

void hist_init(struct histogram *h)
{
    memset(h, 0, sizeof *h);
    h->lo = 0;
    h->hi = -1;
    h->min = INT64_MAX;
    h->max = INT64_MIN;
}

void hist_free(struct histogram *h)
{
    free(h->bins);
    hist_init(h);
}

/* Octave 0 holds 0..SUB-1 exactly (one value per bin); octave k >= 1 holds
 * [SUB << (k-1), SUB << k) in SUB bins of width 1 << (k-1). */
static inline void locate(int64_t v, int *oct, int *sub)
{
    uint64_t u = (uint64_t)v;
    if (u < SUB) {
        *oct = 0;
        *sub = (int)u;
        return;
    }
    int msb = 63 - __builtin_clzll(u);
    int k = msb - HIST_SUB_BITS + 1;
    *oct = k;
    *sub = (int)((u >> (k - 1)) - SUB);
}

static inline int64_t bin_low(int oct, int sub)
{
    return oct == 0 ? sub : (int64_t)((uint64_t)(SUB + sub) << (oct - 1));
}

static inline int64_t bin_width(int oct)
{
    return oct == 0 ? 1 : (int64_t)1 << (oct - 1);
}

static void ensure(struct histogram *h, int oct)
{
    if (h->hi >= h->lo && oct >= h->lo && oct <= h->hi)
        return;
    int lo = h->hi < h->lo ? oct : (oct < h->lo ? oct : h->lo);
    int hi = h->hi < h->lo ? oct : (oct > h->hi ? oct : h->hi);
    uint64_t *nb = xcalloc((size_t)(hi - lo + 1) * SUB, sizeof *nb);
    if (h->bins)
        memcpy(nb + (size_t)(h->lo - lo) * SUB, h->bins, (size_t)(h->hi - h->lo + 1) * SUB * sizeof *nb);
    free(h->bins);
    h->bins = nb;
    h->lo = lo;
    h->hi = hi;
}

void hist_prefetch(const struct histogram *h, int64_t v)
{
    int oct, sub;
    locate(v < 0 ? 0 : v, &oct, &sub);
    if (oct >= h->lo && oct <= h->hi)
        __builtin_prefetch(&h->bins[(size_t)(oct - h->lo) * SUB + (size_t)sub], 1);
}

void hist_add(struct histogram *h, int64_t v)
{
    if (v < 0)
        v = 0;
    int oct, sub;
    locate(v, &oct, &sub);
    ensure(h, oct);
    h->bins[(size_t)(oct - h->lo) * SUB + (size_t)sub]++;
    h->count++;
    h->sum += (double)v;
    h->sumsq += (double)v * (double)v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

void hist_merge(struct histogram *into, const struct histogram *from)
{
    if (!from->count)
        return;
    ensure(into, from->lo);
    ensure(into, from->hi);
    for (int o = from->lo; o <= from->hi; o++)
        for (int s = 0; s < SUB; s++)
            into->bins[(size_t)(o - into->lo) * SUB + (size_t)s] += from->bins[(size_t)(o - from->lo) * SUB + (size_t)s];
    into->count += from->count;
    into->sum += from->sum;
    into->sumsq += from->sumsq;
    if (from->min < into->min)
        into->min = from->min;
    if (from->max > into->max)
        into->max = from->max;
}

double hist_mean(const struct histogram *h)
{
    return h->count ? h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct histogram *h)
{
    if (h->count < 2)
        return 0.0;
    double m = hist_mean(h), var = h->sumsq / (double)h->count - m * m;
    return var > 0 ? sqrt(var) : 0.0;
}

double hist_quantile(const struct histogram *h, double q)
{
    if (!h->count)
        return 0.0;
    if (q <= 0)
        return (double)h->min;
    if (q >= 1)
        return (double)h->max;
    uint64_t rank = (uint64_t)ceil(q * (double)h->count), seen = 0;
    for (int o = h->lo; o <= h->hi; o++)
        for (int s = 0; s < SUB; s++) {
            seen += h->bins[(size_t)(o - h->lo) * SUB + (size_t)s];
            if (seen >= rank) {
                double mid = (double)bin_low(o, s) + (double)(bin_width(o) - 1) / 2.0;
                if (mid < (double)h->min)
                    mid = (double)h->min;
                if (mid > (double)h->max)
                    mid = (double)h->max;
                return mid;
            }
        }
    return (double)h->max;
}

double hist_cdf(const struct histogram *h, int64_t v)
{
    if (!h->count)
        return 0.0;
    uint64_t below = 0;
    for (int o = h->lo; o <= h->hi; o++)
        for (int s = 0; s < SUB; s++)
            if (bin_low(o, s) + bin_width(o) - 1 <= v)
                below += h->bins[(size_t)(o - h->lo) * SUB + (size_t)s];
    return (double)below / (double)h->count;
}

int hist_next_bucket(const struct histogram *h, int *i, int64_t *low, int64_t *high, uint64_t *n)
{
    int total = h->hi < h->lo ? 0 : (h->hi - h->lo + 1) * SUB;
    for (; *i < total; (*i)++) {
        uint64_t c = h->bins[*i];
        if (!c)
            continue;
        int o = h->lo + *i / SUB, s = *i % SUB;
        *low = bin_low(o, s);
        *high = *low + bin_width(o) - 1;
        *n = c;
        (*i)++;
        return 1;
    }
    return 0;
}

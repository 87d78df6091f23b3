/* histogram.c: log-linear histograms, sparse (the bins in use) until they use many bins, then
 * dense over lazily grown octave ranges. */
#include "stats/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define SUB (1 << HIST_SUB_BITS)

/* A histogram is dense once it has octaves allocated (hi >= lo), else sparse (possibly with
 * nothing allocated yet). */
static inline int is_dense(const struct histogram *h)
{
    return h->hi >= h->lo;
}

#define SP_SHIFT 40
#define SP_CNT (((uint64_t)1 << SP_SHIFT) - 1)

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

/* Dense: make octave oct part of the allocated range. */
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
    h->lo = (int16_t)lo;
    h->hi = (int16_t)hi;
}

/* The next non-empty bin at or after position *i (dense: bin index; sparse: entry), in
 * increasing order of value; 0 when there is none. */
static inline int next_bin(const struct histogram *h, int *i, int *oct, int *sub, uint64_t *c)
{
    if (is_dense(h)) {
        int total = (h->hi - h->lo + 1) * SUB;
        for (; *i < total; (*i)++)
            if (h->bins[*i]) {
                *oct = h->lo + *i / SUB;
                *sub = *i % SUB;
                *c = h->bins[(*i)++];
                return 1;
            }
        return 0;
    }
    if (*i >= h->nsp)
        return 0;
    uint64_t e = h->bins[(*i)++];
    *oct = (int)(e >> SP_SHIFT) / SUB;
    *sub = (int)(e >> SP_SHIFT) % SUB;
    *c = e & SP_CNT;
    return 1;
}

/* A sparse histogram with too many bins (or a count too large for an entry) turns dense. */
static void to_dense(struct histogram *h)
{
    uint64_t *sp = h->bins;
    int n = h->nsp;
    h->bins = NULL;
    h->nsp = h->capsp = 0;
    h->lo = 0;
    h->hi = -1;
    for (int k = 0; k < n; k++) {
        int b = (int)(sp[k] >> SP_SHIFT);
        ensure(h, b / SUB);
        h->bins[(size_t)(b / SUB - h->lo) * SUB + (size_t)(b % SUB)] += sp[k] & SP_CNT;
    }
    free(sp);
}

/* Add n samples to one bin. */
static void add_bin(struct histogram *h, int oct, int sub, uint64_t n)
{
    if (!is_dense(h)) {
        uint64_t key = (uint64_t)(oct * SUB + sub);
        int a = 0, b = h->nsp; /* first entry whose bin is >= key */
        while (a < b) {
            int m = (a + b) / 2;
            if ((h->bins[m] >> SP_SHIFT) < key)
                a = m + 1;
            else
                b = m;
        }
        if (a < h->nsp && (h->bins[a] >> SP_SHIFT) == key) {
            if ((h->bins[a] & SP_CNT) + n <= SP_CNT) {
                h->bins[a] += n;
                return;
            }
        } else if (h->nsp < HIST_SPARSE_MAX && n <= SP_CNT) {
            if (h->nsp == h->capsp) {
                int cap = h->capsp ? 2 * h->capsp : 4;
                h->bins = xrealloc(h->bins, (size_t)cap * sizeof *h->bins);
                h->capsp = (uint16_t)cap;
            }
            memmove(h->bins + a + 1, h->bins + a, (size_t)(h->nsp - a) * sizeof *h->bins);
            h->bins[a] = key << SP_SHIFT | n;
            h->nsp++;
            return;
        }
        to_dense(h);
    }
    ensure(h, oct);
    h->bins[(size_t)(oct - h->lo) * SUB + (size_t)sub] += n;
}

size_t hist_bytes(const struct histogram *h)
{
    if (is_dense(h))
        return (size_t)(h->hi - h->lo + 1) * SUB * sizeof *h->bins;
    return (size_t)h->capsp * sizeof *h->bins;
}

void hist_prefetch(const struct histogram *h, int64_t v)
{
    if (!is_dense(h))
        return;
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
    if (is_dense(h) && oct >= h->lo && oct <= h->hi)
        h->bins[(size_t)(oct - h->lo) * SUB + (size_t)sub]++;
    else
        add_bin(h, oct, sub, 1);
    h->count++;
    h->sum += (double)v;
    h->sumsq += (double)v * (double)v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

size_t hist_nbins_raw(const struct histogram *h)
{
    return is_dense(h) ? (size_t)(h->hi - h->lo + 1) * SUB : h->nsp;
}

void hist_merge(struct histogram *into, const struct histogram *from)
{
    if (!from->count)
        return;
    int i = 0, oct, sub;
    uint64_t c;
    if (is_dense(from)) { /* many bins: dense at once */
        if (!is_dense(into))
            to_dense(into);
        ensure(into, from->lo);
        ensure(into, from->hi);
    }
    while (next_bin(from, &i, &oct, &sub, &c))
        add_bin(into, oct, sub, c);
    into->count += from->count;
    into->sum += from->sum;
    into->sumsq += from->sumsq;
    if (from->min < into->min)
        into->min = from->min;
    if (from->max > into->max)
        into->max = from->max;
}

void hist_copy(struct histogram *into, const struct histogram *from)
{
    free(into->bins);
    *into = *from;
    into->bins = NULL;
    size_t n = is_dense(from) ? (size_t)(from->hi - from->lo + 1) * SUB : from->nsp;
    if (!is_dense(from))
        into->capsp = from->nsp;
    if (n) {
        into->bins = xmalloc(n * sizeof *into->bins);
        memcpy(into->bins, from->bins, n * sizeof *into->bins);
    }
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
    uint64_t rank = (uint64_t)ceil(q * (double)h->count), seen = 0, c;
    int i = 0, o, s;
    while (next_bin(h, &i, &o, &s, &c)) {
        seen += c;
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
    uint64_t below = 0, c;
    int i = 0, o, s;
    while (next_bin(h, &i, &o, &s, &c))
        if (bin_low(o, s) + (bin_width(o) - 1) <= v) /* no overflow in the top bin */
            below += c;
    return (double)below / (double)h->count;
}

int hist_next_bucket(const struct histogram *h, int *i, int64_t *low, int64_t *high, uint64_t *n)
{
    int o, s;
    if (!next_bin(h, i, &o, &s, n))
        return 0;
    *low = bin_low(o, s);
    *high = *low + (bin_width(o) - 1);
    return 1;
}

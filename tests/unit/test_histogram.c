/* test_histogram.c: the log-linear histogram (stats/histogram.h) against a plain reference (a
 * count per bin computed here from the bin rule): quantiles, CDF, bucket iteration, merge and
 * copy give the same answers in the sparse form, the dense form and across the change from
 * one to the other; memory follows the bins in use (hist_bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/histogram.h"

#define SUB (1 << HIST_SUB_BITS)
#define NREF (64 * SUB)

/* The reference: the bin of v by the documented rule (octave 0 exact, octave k >= 1 in SUB
 * bins of width 2^(k-1)), counts in a flat array. */
static int ref_bin(int64_t v)
{
    uint64_t u = (uint64_t)(v < 0 ? 0 : v);
    if (u < SUB)
        return (int)u;
    int msb = 63 - __builtin_clzll(u), k = msb - HIST_SUB_BITS + 1;
    return k * SUB + (int)((u >> (k - 1)) - SUB);
}

static int64_t ref_low(int b)
{
    int k = b / SUB, s = b % SUB;
    return k == 0 ? s : (int64_t)((uint64_t)(SUB + s) << (k - 1));
}

static int64_t ref_width(int b)
{
    return b / SUB == 0 ? 1 : (int64_t)1 << (b / SUB - 1);
}

struct ref {
    uint64_t n[NREF];
    uint64_t count;
    int64_t min, max;
};

static void ref_add(struct ref *r, int64_t v)
{
    if (v < 0)
        v = 0;
    r->n[ref_bin(v)]++;
    if (!r->count || v < r->min)
        r->min = v;
    if (!r->count || v > r->max)
        r->max = v;
    r->count++;
}

/* Everything a reader sees equals the reference. */
static void check(const struct histogram *h, const struct ref *r)
{
    assert_int_equal(h->count, r->count);
    if (!r->count)
        return;
    assert_int_equal(h->min, r->min);
    assert_int_equal(h->max, r->max);
    /* Buckets in increasing order, exactly the non-empty ones. */
    int it = 0, b = 0;
    int64_t lo, hi;
    uint64_t c;
    while (hist_next_bucket(h, &it, &lo, &hi, &c)) {
        while (b < NREF && !r->n[b])
            b++;
        assert_true(b < NREF);
        assert_int_equal(lo, ref_low(b));
        assert_int_equal(hi, ref_low(b) + (ref_width(b) - 1));
        assert_int_equal(c, r->n[b]);
        b++;
    }
    while (b < NREF && !r->n[b])
        b++;
    assert_int_equal(b, NREF);
    /* Quantiles: the midpoint of the bin where the rank is reached, clamped to [min, max]. */
    const double qs[] = { 0.001, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999 };
    for (size_t k = 0; k < sizeof qs / sizeof *qs; k++) {
        uint64_t rank = (uint64_t)ceil(qs[k] * (double)r->count), seen = 0;
        double want = (double)r->max;
        for (int x = 0; x < NREF; x++) {
            seen += r->n[x];
            if (r->n[x] && seen >= rank) {
                want = (double)ref_low(x) + (double)(ref_width(x) - 1) / 2.0;
                want = fmax((double)r->min, fmin((double)r->max, want));
                break;
            }
        }
        assert_true(hist_quantile(h, qs[k]) == want);
    }
    /* The CDF at a few bin edges and inside bins. */
    for (int x = 0; x < NREF; x += 37) {
        if (ref_low(x) > r->max * 2 + 10)
            break;
        int64_t v = ref_low(x) + ref_width(x) / 2;
        uint64_t below = 0;
        for (int y = 0; y < NREF; y++)
            if (ref_low(y) + (ref_width(y) - 1) <= v) /* the top bin ends at INT64_MAX */
                below += r->n[y];
        assert_true(hist_cdf(h, v) == (double)below / (double)r->count);
    }
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Few distinct bins: the histogram stays sparse and holds only those bins. */
static void test_sparse(void **st)
{
    (void)st;
    struct histogram h;
    struct ref *r = calloc(1, sizeof *r);
    hist_init(&h);
    assert_int_equal(hist_bytes(&h), 0);
    check(&h, r);
    assert_true(hist_quantile(&h, 0.5) == 0.0 && hist_cdf(&h, 5) == 0.0);
    const int64_t vals[] = { 5000000, 5000000, 4000000, 123, 0, -7, 9000000, 5000001, 77 };
    for (int rep = 0; rep < 3; rep++)
        for (size_t k = 0; k < sizeof vals / sizeof *vals; k++) {
            hist_add(&h, vals[k]);
            ref_add(r, vals[k]);
            check(&h, r);
        }
    /* 8 distinct bins over 17 octaves: a dense form would hold 17 KiB. */
    assert_true(hist_bytes(&h) <= 8 * sizeof(uint64_t));
    hist_free(&h);
    free(r);
}

/* Many distinct bins: it turns dense past HIST_SPARSE_MAX, results unchanged through it. */
static void test_dense_transition(void **st)
{
    (void)st;
    struct histogram h;
    struct ref *r = calloc(1, sizeof *r);
    hist_init(&h);
    uint64_t s = 88172645463325252ULL;
    size_t sparse_bytes = 0;
    for (int i = 0; i < 20000; i++) {
        int64_t v = (int64_t)(rnd(&s) % 3000000) + 1000000; /* 3 octaves, ~370 bins */
        hist_add(&h, v);
        ref_add(r, v);
        if (i < 300 || i % 997 == 0)
            check(&h, r);
        if (h.hi < h.lo && hist_bytes(&h) > sparse_bytes)
            sparse_bytes = hist_bytes(&h);
    }
    check(&h, r);
    assert_true(h.hi >= h.lo); /* dense */
    assert_true(sparse_bytes > 0 && sparse_bytes <= HIST_SPARSE_MAX * sizeof(uint64_t));
    hist_free(&h);
    free(r);
}

/* Merge and copy in every combination of forms. */
static void test_merge_copy(void **st)
{
    (void)st;
    uint64_t s = 12345;
    for (int ca = 0; ca < 3; ca++)
        for (int cb = 0; cb < 3; cb++) {
            /* 0 empty, 1 sparse, 2 dense */
            struct histogram a, b, c;
            struct ref *ra = calloc(1, sizeof *ra), *rb = calloc(1, sizeof *rb);
            hist_init(&a);
            hist_init(&b);
            int na = ca == 0 ? 0 : ca == 1 ? 20 : 5000, nb = cb == 0 ? 0 : cb == 1 ? 30 : 4000;
            for (int i = 0; i < na; i++) {
                int64_t v = ca == 1 ? (int64_t)(rnd(&s) % 40) * 100000 : (int64_t)(rnd(&s) % 100000000);
                hist_add(&a, v);
                ref_add(ra, v);
                ref_add(rb, v); /* rb: the merge of both */
            }
            for (int i = 0; i < nb; i++) {
                int64_t v = cb == 1 ? (int64_t)(rnd(&s) % 40) * 77777 : (int64_t)(rnd(&s) % 50000);
                hist_add(&b, v);
                ref_add(rb, v);
            }
            hist_init(&c);
            hist_copy(&c, &a);
            check(&c, ra);
            hist_add(&c, 42); /* the copy has bins of its own */
            check(&a, ra);
            hist_merge(&a, &b);
            check(&a, rb);
            hist_free(&a);
            hist_free(&b);
            hist_free(&c);
            free(ra);
            free(rb);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_dense_transition),
        cmocka_unit_test(test_merge_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

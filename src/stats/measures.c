/* measures.c: Jain's fairness index, Paper III's treatment variation, seed 001's jitter bins,
 * DMP/DMT accumulators and the seed 003/004 video deadline rule. */
#include "stats/measures.h"

#include <string.h>

#include <gsl/gsl_statistics_double.h>

double jain_index(const double *x, size_t n)
{
    double s = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        s2 += x[i] * x[i];
    }
    if (n == 0 || s2 == 0)
        return 1.0;
    return s * s / ((double)n * s2);
}

void tv_init(struct tv_acc *a)
{
    memset(a, 0, sizeof *a);
}

static int all_active(const unsigned char *active, size_t n)
{
    if (!active)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (!active[i])
            return 0;
    return 1;
}

int tv_add(struct tv_acc *a, const double *x, const unsigned char *active, size_t n)
{
    if (n == 0 || !all_active(active, n))
        return 0;
    double lo, hi;
    gsl_stats_minmax(&lo, &hi, x, 1, n);
    double delta = hi - lo;
    a->k++;
    double d = delta - a->mean;
    a->mean += d / (double)a->k;
    a->m2 += d * (delta - a->mean);
    return 1;
}

double tv_value(const struct tv_acc *a)
{
    return a->k ? a->m2 / (double)a->k : 0.0;
}

double tv_mean_delta(const struct tv_acc *a)
{
    return a->mean;
}

double treatment_variation(const double *x, const unsigned char *active, size_t n, size_t K)
{
    struct tv_acc a;
    tv_init(&a);
    for (size_t k = 0; k < K; k++)
        tv_add(&a, x + k * n, active ? active + k * n : NULL, n);
    return tv_value(&a);
}

void jitter_init(struct jitter *j, simtime_t iat, int k)
{
    memset(j, 0, sizeof *j);
    j->iat = iat;
    j->k = k > 0 ? k : 8;
}

int jitter_bin(simtime_t sample, simtime_t iat)
{
    /* compare 8 x sample with multiples of IAT: exact in integers */
    simtime_t x = 8 * sample;
    if (x < -8 * iat)
        return 0;
    if (x < -4 * iat)
        return 1;
    if (x < -2 * iat)
        return 2;
    if (x < -iat)
        return 3;
    if (x <= iat)
        return 4;
    if (x <= 2 * iat)
        return 5;
    if (x <= 4 * iat)
        return 6;
    if (x <= 8 * iat)
        return 7;
    return 8;
}

void jitter_add(struct jitter *j, simtime_t arrival)
{
    if (j->have_last) {
        simtime_t s = (arrival - j->last) - j->iat;
        j->bins[jitter_bin(s, j->iat)]++;
        simtime_t mag = s < 0 ? -s : s;
        j->within += mag * j->k <= j->iat;
        j->n++;
    }
    j->last = arrival;
    j->have_last = 1;
}

void jitter_merge(struct jitter *into, const struct jitter *from)
{
    into->n += from->n;
    into->within += from->within;
    for (int b = 0; b < JITTER_BINS; b++)
        into->bins[b] += from->bins[b];
}

double jitter_share_within(const struct jitter *j)
{
    return j->n ? (double)j->within / (double)j->n : 0.0;
}

double jitter_bin_share(const struct jitter *j, int bin)
{
    if (!j->n || bin < 0 || bin >= JITTER_BINS)
        return 0.0;
    return (double)j->bins[bin] / (double)j->n;
}

void deadline_init(struct deadline_acc *a)
{
    memset(a, 0, sizeof *a);
}

int deadline_add(struct deadline_acc *a, simtime_t arrival, simtime_t deadline)
{
    a->frames++;
    if (arrival <= deadline)
        return 0;
    a->missed++;
    a->miss_ps += (double)(arrival - deadline);
    return 1;
}

double deadline_dmp(const struct deadline_acc *a)
{
    return a->frames ? (double)a->missed / (double)a->frames : 0.0;
}

void deadline_merge(struct deadline_acc *into, const struct deadline_acc *from)
{
    into->frames += from->frames;
    into->missed += from->missed;
    into->miss_ps += from->miss_ps;
}

simtime_t deadline_dmt(const struct deadline_acc *a)
{
    return a->missed ? (simtime_t)(a->miss_ps / (double)a->missed + 0.5) : 0;
}

void vdl_init(struct video_deadline *v, simtime_t start, simtime_t period, simtime_t first)
{
    v->period = period;
    v->next = start + first;
    v->frame = 0;
}

int vdl_frame(struct video_deadline *v, simtime_t arrival, struct deadline_acc *acc)
{
    simtime_t dl = v->next;
    int missed = arrival > dl;
    if (acc)
        deadline_add(acc, arrival, dl);
    v->next = missed ? arrival + v->period : dl + v->period;
    v->frame++;
    return missed;
}

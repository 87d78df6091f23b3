/* threshold.h: the VL-arbitration threshold schemes of seed 000 chapter 5 as GE-type queues
 * with queue-length dependent service (solved by gequeue.h, exactly and by maximum entropy):
 *  - Entry Threshold (ET): rate mu1 and capacity N until the queue reaches t packets; then
 *    the VL borrows an empty VL: rate mu2, capacity 2N (regimes n <= t and t < n <= 2N);
 *  - Arrival Job Threshold (AJT): a high-priority VL borrows shared VLs one by one at the job
 *    thresholds T1 < T2 < ...: rates mu1, mu2, ..., mu_i, capacity i*N.
 * The thresholds count packets (digest 000 gap 8); defaults t = T1 = N, T_k = k*N. */
#ifndef IBN_ANALYTIC_THRESHOLD_H
#define IBN_ANALYTIC_THRESHOLD_H

#include "analytic/gequeue.h"

struct et_params {
    double lambda, ca2, cs2; /* GE arrivals and service SCV */
    double mu1, mu2;         /* service rate below / above the threshold */
    int N;                   /* capacity of one VL; the borrowed VL doubles it */
    int t;                   /* queue-length threshold, 1 <= t < 2N */
};

#define AJT_MAX_LANES GEQ_MAX_REGIMES

struct ajt_params {
    double lambda, ca2, cs2;
    int N;                       /* capacity per lane; total lanes*N */
    int lanes;                   /* i: the own VL plus i-1 shared VLs, 1..AJT_MAX_LANES */
    double mu[AJT_MAX_LANES];    /* mu[k]: rate with k+1 lanes in use */
    int T[AJT_MAX_LANES - 1];    /* T[k]: job count at which lane k+2 is taken */
};

/* The regime table of each scheme (checked). */
int et_regimes(const struct et_params *p, struct geq_regimes *r, struct ibn_err *err);
int ajt_regimes(const struct ajt_params *p, struct geq_regimes *r, struct ibn_err *err);

int et_exact(const struct et_params *p, struct geq_metrics *out, struct ibn_err *err);
int et_me(const struct et_params *p, struct geq_metrics *out, struct ibn_err *err);
int ajt_exact(const struct ajt_params *p, struct geq_metrics *out, struct ibn_err *err);
int ajt_me(const struct ajt_params *p, struct geq_metrics *out, struct ibn_err *err);

/* The thesis's error measure (3.6): |(reference - approximation) / reference|; 0 when both
 * are 0, infinite when only the reference is. */
double analytic_em(double reference, double approximation);

#endif

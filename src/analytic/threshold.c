/* threshold.c: Entry Threshold and Arrival Job Threshold as regime tables of the GE-type
 * queue (see threshold.h), and the thesis's error measure. */
#include "analytic/threshold.h"

#include <math.h>
#include <string.h>

int et_regimes(const struct et_params *p, struct geq_regimes *r, struct ibn_err *err)
{
    if (p->N < 1)
        return ibn_err_set(err, "ET: the capacity N must be at least 1, got %d", p->N);
    if (p->t < 1 || p->t >= 2 * p->N)
        return ibn_err_set(err, "ET: the threshold t must be in 1..2N-1 = 1..%d, got %d",
                           2 * p->N - 1, p->t);
    memset(r, 0, sizeof *r);
    r->count = 2;
    r->upper[0] = p->t;
    r->upper[1] = 2 * p->N;
    r->mu[0] = p->mu1;
    r->mu[1] = p->mu2;
    if (geq_regimes_check(r, err))
        return ibn_err_prefix(err, "ET: ");
    return 0;
}

int ajt_regimes(const struct ajt_params *p, struct geq_regimes *r, struct ibn_err *err)
{
    if (p->N < 1)
        return ibn_err_set(err, "AJT: the capacity N must be at least 1, got %d", p->N);
    if (p->lanes < 1 || p->lanes > AJT_MAX_LANES)
        return ibn_err_set(err, "AJT: the number of lanes must be 1..%d, got %d", AJT_MAX_LANES,
                           p->lanes);
    memset(r, 0, sizeof *r);
    r->count = p->lanes;
    for (int k = 0; k < p->lanes; k++) {
        r->mu[k] = p->mu[k];
        r->upper[k] = k < p->lanes - 1 ? p->T[k] : p->lanes * p->N;
    }
    if (geq_regimes_check(r, err))
        return ibn_err_prefix(err, "AJT (thresholds must rise and stay below lanes*N = %d): ",
                              p->lanes * p->N);
    return 0;
}

int et_exact(const struct et_params *p, struct geq_metrics *out, struct ibn_err *err)
{
    struct geq_regimes r;
    if (et_regimes(p, &r, err))
        return -1;
    return geq_exact(p->lambda, p->ca2, p->cs2, &r, NULL, out, err);
}

int et_me(const struct et_params *p, struct geq_metrics *out, struct ibn_err *err)
{
    struct geq_regimes r;
    if (et_regimes(p, &r, err))
        return -1;
    return geq_me(p->lambda, p->ca2, p->cs2, &r, NULL, out, err);
}

int ajt_exact(const struct ajt_params *p, struct geq_metrics *out, struct ibn_err *err)
{
    struct geq_regimes r;
    if (ajt_regimes(p, &r, err))
        return -1;
    return geq_exact(p->lambda, p->ca2, p->cs2, &r, NULL, out, err);
}

int ajt_me(const struct ajt_params *p, struct geq_metrics *out, struct ibn_err *err)
{
    struct geq_regimes r;
    if (ajt_regimes(p, &r, err))
        return -1;
    return geq_me(p->lambda, p->ca2, p->cs2, &r, NULL, out, err);
}

double analytic_em(double reference, double approximation)
{
    if (reference == 0)
        return approximation == 0 ? 0.0 : INFINITY;
    return fabs((reference - approximation) / reference);
}

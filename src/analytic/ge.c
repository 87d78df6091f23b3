/* ge.c: the GE distribution: checks, moments, its batch form, sampling, and the infinite
 * GE/GE/1 mean queue length. */
#include "analytic/ge.h"

#include <math.h>
#include <gsl/gsl_randist.h>

int ge_check(const struct ge_dist *d, const char *what, struct ibn_err *err)
{
    if (!(isfinite(d->rate) && d->rate > 0))
        return ibn_err_set(err, "%s: the rate must be a positive number, got %g", what, d->rate);
    if (!(isfinite(d->scv) && d->scv >= 1))
        return ibn_err_set(err,
                           "%s: the squared coefficient of variation of a GE distribution must be "
                           ">= 1, got %g",
                           what, d->scv);
    return 0;
}

double ge_tau(double scv)
{
    return 2.0 / (scv + 1.0);
}

double ge_mean(const struct ge_dist *d)
{
    return 1.0 / d->rate;
}

double ge_variance(const struct ge_dist *d)
{
    return d->scv / (d->rate * d->rate);
}

double ge_p_zero(const struct ge_dist *d)
{
    return 1.0 - ge_tau(d->scv);
}

double ge_cdf(const struct ge_dist *d, double t)
{
    if (t < 0)
        return 0.0;
    double tau = ge_tau(d->scv);
    return 1.0 - tau * exp(-tau * d->rate * t);
}

double ge_batch_rate(const struct ge_dist *d)
{
    return ge_tau(d->scv) * d->rate;
}

double ge_batch_pmf(const struct ge_dist *d, unsigned k)
{
    if (k == 0)
        return 0.0;
    double tau = ge_tau(d->scv);
    return tau * pow(1.0 - tau, (double)(k - 1));
}

double ge_batch_mean(const struct ge_dist *d)
{
    return 1.0 / ge_tau(d->scv);
}

double ge_batch_variance(const struct ge_dist *d)
{
    double tau = ge_tau(d->scv);
    return (1.0 - tau) / (tau * tau);
}

double ge_sample(const struct ge_dist *d, gsl_rng *rng)
{
    double tau = ge_tau(d->scv);
    if (gsl_rng_uniform(rng) < tau)
        return gsl_ran_exponential(rng, 1.0 / (tau * d->rate));
    return 0.0;
}

void ge_sample_batch(const struct ge_dist *d, gsl_rng *rng, double *gap, unsigned *size)
{
    double tau = ge_tau(d->scv);
    *gap = gsl_ran_exponential(rng, 1.0 / (tau * d->rate));
    *size = tau >= 1.0 ? 1u : gsl_ran_geometric(rng, tau);
}

double ge_queue_mean_inf(double rho, double ca2, double cs2)
{
    if (!(rho >= 0 && rho < 1))
        return NAN;
    return 0.5 * rho * (1.0 + (ca2 + rho * cs2) / (1.0 - rho));
}

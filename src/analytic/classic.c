/* classic.c: closed forms of M/M/1/K, M/M/1, M/G/1 (Pollaczek-Khinchine) and M/D/1. */
#include "analytic/classic.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_sf_gamma.h>

static int rates_ok(double lambda, double mu, struct ibn_err *err)
{
    if (!(isfinite(lambda) && lambda > 0 && isfinite(mu) && mu > 0))
        return ibn_err_set(err, "the arrival and service rates must be positive (got %g, %g)",
                           lambda, mu);
    return 0;
}

double mm1k_pn(double lambda, double mu, int K, int n)
{
    if (n < 0 || n > K)
        return 0.0;
    double rho = lambda / mu;
    if (fabs(rho - 1.0) < 1e-12)
        return 1.0 / (K + 1);
    /* Divide by the largest term to stay finite for large K and rho far from 1. */
    if (rho < 1)
        return (1.0 - rho) * pow(rho, n) / (1.0 - pow(rho, K + 1));
    double r = 1.0 / rho; /* p(n) = p'(K-n) of the reversed ratio */
    return (1.0 - r) * pow(r, K - n) / (1.0 - pow(r, K + 1));
}

int mm1k_solve(double lambda, double mu, int K, struct queue_metrics *out, struct ibn_err *err)
{
    if (rates_ok(lambda, mu, err))
        return -1;
    if (K < 1)
        return ibn_err_set(err, "M/M/1/K: the capacity K must be at least 1, got %d", K);
    memset(out, 0, sizeof *out);
    out->rho = lambda / mu;
    for (int n = 0; n <= K; n++)
        out->L += n * mm1k_pn(lambda, mu, K, n);
    out->p0 = mm1k_pn(lambda, mu, K, 0);
    out->blocking = mm1k_pn(lambda, mu, K, K);
    out->U = 1.0 - out->p0;
    out->Lq = out->L - out->U;
    out->X = lambda * (1.0 - out->blocking);
    out->W = out->L / out->X;
    out->Wq = out->Lq / out->X;
    return 0;
}

int mg1_solve(double lambda, double mu, double cs2, struct queue_metrics *out,
              struct ibn_err *err)
{
    if (rates_ok(lambda, mu, err))
        return -1;
    if (!(isfinite(cs2) && cs2 >= 0))
        return ibn_err_set(err, "M/G/1: the service SCV must be >= 0, got %g", cs2);
    double rho = lambda / mu;
    if (rho >= 1)
        return ibn_err_set(err, "M/G/1: unstable, rho = lambda/mu = %g >= 1", rho);
    memset(out, 0, sizeof *out);
    out->rho = rho;
    out->p0 = 1.0 - rho;
    out->U = rho;
    out->Lq = rho * rho * (1.0 + cs2) / (2.0 * (1.0 - rho));
    out->L = out->Lq + rho;
    out->X = lambda;
    out->Wq = out->Lq / lambda;
    out->W = out->L / lambda;
    return 0;
}

int mm1_solve(double lambda, double mu, struct queue_metrics *out, struct ibn_err *err)
{
    if (rates_ok(lambda, mu, err))
        return -1;
    double rho = lambda / mu;
    if (rho >= 1)
        return ibn_err_set(err, "M/M/1: unstable, rho = lambda/mu = %g >= 1", rho);
    memset(out, 0, sizeof *out);
    out->rho = rho;
    out->p0 = 1.0 - rho;
    out->U = rho;
    out->L = rho / (1.0 - rho);
    out->Lq = rho * rho / (1.0 - rho);
    out->X = lambda;
    out->W = 1.0 / (mu - lambda);
    out->Wq = rho / (mu - lambda);
    return 0;
}

int md1_solve(double lambda, double mu, struct queue_metrics *out, struct ibn_err *err)
{
    if (mg1_solve(lambda, mu, 0.0, out, err))
        return ibn_err_prefix(err, "M/D/1: ");
    return 0;
}

double md1_pn(double rho, int n)
{
    if (n < 0)
        return 0.0;
    if (n == 0)
        return 1.0 - rho;
    if (n == 1)
        return (1.0 - rho) * (exp(rho) - 1.0);
    double s = 0;
    for (int k = 1; k <= n; k++) {
        double kr = k * rho;
        double t = pow(kr, n - k) / gsl_sf_fact((unsigned)(n - k));
        if (k < n)
            t += pow(kr, n - k - 1) / gsl_sf_fact((unsigned)(n - k - 1));
        s += ((n - k) % 2 ? -1.0 : 1.0) * exp(kr) * t;
    }
    return (1.0 - rho) * s;
}

/* ge.h: the generalised exponential (GE) distribution of seed 000 (Kouvatsos): a variable with
 * rate r (mean 1/r) and squared coefficient of variation C2 >= 1 that is zero with probability
 * 1 - tau and Exp(tau*r) with probability tau, tau = 2/(C2+1). As a counting process it is a
 * compound Poisson process: batches at rate tau*r with geometric sizes P(B=k) = tau(1-tau)^(k-1).
 * Also the mean number in the infinite GE/GE/1 queue, formula (5.14) of the thesis. */
#ifndef IBN_ANALYTIC_GE_H
#define IBN_ANALYTIC_GE_H

#include <gsl/gsl_rng.h>

#include "core/error.h"

struct ge_dist {
    double rate; /* r > 0: the mean is 1/r */
    double scv;  /* C2 >= 1 */
};

/* 0 if rate > 0 and scv >= 1 (both finite), else -1 with a message naming `what`. */
int ge_check(const struct ge_dist *d, const char *what, struct ibn_err *err);

/* tau = 2/(C2+1): probability of the exponential branch, and 1/mean batch size. */
double ge_tau(double scv);
double ge_mean(const struct ge_dist *d);
double ge_variance(const struct ge_dist *d);
/* P(X = 0) = 1 - tau. */
double ge_p_zero(const struct ge_dist *d);
/* CDF F(t) = 1 - tau exp(-tau r t), t >= 0 (2.2). */
double ge_cdf(const struct ge_dist *d, double t);

/* Batch (compound Poisson) form: batch rate sigma = tau*r, P(B = k) = tau (1-tau)^(k-1),
 * E[B] = 1/tau, Var[B] = (1-tau)/tau^2. */
double ge_batch_rate(const struct ge_dist *d);
double ge_batch_pmf(const struct ge_dist *d, unsigned k);
double ge_batch_mean(const struct ge_dist *d);
double ge_batch_variance(const struct ge_dist *d);

/* One GE variate: Exp(tau*r) with probability tau, else 0. */
double ge_sample(const struct ge_dist *d, gsl_rng *rng);
/* One batch of the compound Poisson form: the time to the next batch (Exp(tau*r)) and its
 * size (geometric with success probability tau, >= 1). */
void ge_sample_batch(const struct ge_dist *d, gsl_rng *rng, double *gap, unsigned *size);

/* Mean number in the infinite GE/GE/1 queue, rho = lambda/mu < 1 (5.14):
 *   L = (rho/2) (1 + (Ca2 + rho Cs2)/(1 - rho)).
 * With Ca2 = 1 it is Pollaczek-Khinchine for M/GE/1. Returns NAN if rho is not in [0,1). */
double ge_queue_mean_inf(double rho, double ca2, double cs2);

#endif

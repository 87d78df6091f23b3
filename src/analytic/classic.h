/* classic.h: the textbook queues that anchor the seed-000 models: M/M/1/K, M/M/1, M/G/1 by
 * Pollaczek-Khinchine and M/D/1 (its mean values and its queue-length distribution). Rates are
 * per unit time; "L" counts the packet in service, "Lq" does not. */
#ifndef IBN_ANALYTIC_CLASSIC_H
#define IBN_ANALYTIC_CLASSIC_H

#include "core/error.h"

struct queue_metrics {
    double rho;      /* offered load lambda/mu */
    double p0;       /* P(empty) */
    double L, Lq;    /* mean number in system / waiting */
    double W, Wq;    /* mean time in system / waiting (per accepted customer) */
    double X;        /* throughput */
    double U;        /* utilisation 1 - p0 */
    double blocking; /* P(arrival lost): p(K) for M/M/1/K, 0 otherwise */
};

/* M/M/1/K: p(n) = (1-rho) rho^n / (1 - rho^(K+1)) (uniform when rho = 1). Any rho > 0. */
int mm1k_solve(double lambda, double mu, int K, struct queue_metrics *out, struct ibn_err *err);
/* p(n) of M/M/1/K, n = 0..K. */
double mm1k_pn(double lambda, double mu, int K, int n);
/* M/M/1, rho < 1: L = rho/(1-rho). */
int mm1_solve(double lambda, double mu, struct queue_metrics *out, struct ibn_err *err);
/* M/G/1 by Pollaczek-Khinchine, rho < 1: Lq = rho^2 (1 + Cs2) / (2 (1 - rho)). */
int mg1_solve(double lambda, double mu, double cs2, struct queue_metrics *out,
              struct ibn_err *err);
/* M/D/1 = M/G/1 with Cs2 = 0. */
int md1_solve(double lambda, double mu, struct queue_metrics *out, struct ibn_err *err);
/* P(N = n) in M/D/1 (number in system), by the classical closed form
 *   p0 = 1 - rho, p1 = (1 - rho)(e^rho - 1),
 *   pn = (1 - rho) sum_{k=1..n} (-1)^(n-k) e^(k rho) [ (k rho)^(n-k)/(n-k)!
 *                                                   + (k rho)^(n-k-1)/(n-k-1)! ]  (n >= 2),
 * the second term absent for k = n. The sum alternates, so rounding grows with n: use it for
 * n <= 20 or so (at rho = 0.5 the first 20 terms sum to 1 within 1e-10). */
double md1_pn(double rho, int n);

#endif

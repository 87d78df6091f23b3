/* gequeue.h: the single-server finite GE-type queue of seed 000 (GE/GE/1/K with batch
 * arrivals, batch services and partial batch blocking), with a service rate that may depend on
 * the queue length through "regimes" (the threshold schemes of threshold.h). Two solutions:
 *  - exact: the finite CTMC of digest 000 section 3.4 "C" (GSL LU);
 *  - maximum entropy (ME): the Kouvatsos form of digest 000 section 3.2 "C" for one regime
 *    (unknown y on the full state) and the piecewise-geometric form of section 3.4 "C" for
 *    several regimes (unknown G on the states above the first threshold), each with its
 *    unknown found from flow balance by GSL root finding.
 * Conventions (digest 000 gap 11): a batch arriving at an empty queue is served packet by
 * packet, each leaving at once with probability 1 - tau_s until one takes the exponential
 * branch; a batch that does not fit is partly accepted; a service completion at n >= 1 is
 * followed by instant (zero-length) completions with probability 1 - tau_s each. */
#ifndef IBN_ANALYTIC_GEQUEUE_H
#define IBN_ANALYTIC_GEQUEUE_H

#include "core/error.h"

#define GEQ_MAX_REGIMES 8
#define GEQ_MAX_CAPACITY 2000 /* dense exact solver */

/* Service regimes: regime k serves at rate mu[k] while upper[k-1] < n <= upper[k]
 * (upper[-1] = 0). The capacity K is upper[count-1]. */
struct geq_regimes {
    int count;
    int upper[GEQ_MAX_REGIMES];
    double mu[GEQ_MAX_REGIMES];
};

struct geq_metrics {
    double L;                    /* mean number in the system, sum n p(n) */
    double U;                    /* utilisation, 1 - p(0) */
    double X;                    /* throughput: packets served per unit time */
    double blocking;             /* per-packet blocking probability, 1 - X/lambda */
    double p_full;               /* time-average probability that n = K */
    double W;                    /* mean response time of accepted packets, L/X */
    double U_regime[GEQ_MAX_REGIMES]; /* probability of each regime's states (sum = U) */
};

/* Check a regime table: 1 <= count <= GEQ_MAX_REGIMES, 0 < upper strictly increasing,
 * K <= GEQ_MAX_CAPACITY, rates positive. */
int geq_regimes_check(const struct geq_regimes *r, struct ibn_err *err);

/* Exact CTMC solution. p, if not NULL, receives p(0..K). */
int geq_exact(double lambda, double ca2, double cs2, const struct geq_regimes *r, double *p,
              struct geq_metrics *out, struct ibn_err *err);
/* The blocking probability of the exact chain counted from the lost packets (rather than from
 * the departures as in geq_metrics.blocking); the two agree when the chain is right. */
double geq_exact_loss_blocking(double lambda, double ca2, double cs2, int K, const double *p);

/* Maximum-entropy solution. Needs rho_k = lambda/mu[k] < 1 in every regime (the infinite
 * GE/GE/1 mean queue length (5.14) sets each regime's geometric ratio). */
int geq_me(double lambda, double ca2, double cs2, const struct geq_regimes *r, double *p,
           struct geq_metrics *out, struct ibn_err *err);

/* The GE/GE/1/N queue with one service rate: arrival rate and SCV, service rate and SCV,
 * capacity N (including the packet in service). */
int gege1n_exact(double lambda, double ca2, double mu, double cs2, int N, struct geq_metrics *out,
                 struct ibn_err *err);
int gege1n_me(double lambda, double ca2, double mu, double cs2, int N, struct geq_metrics *out,
              struct ibn_err *err);

#endif

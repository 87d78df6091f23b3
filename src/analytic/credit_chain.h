/* credit_chain.h: the credit-based link-level flow control model of seed 000 chapter 4: two
 * nodes in tandem, Poisson arrivals (lambda) at the upstream node (capacity n1), exponential
 * services mu1 upstream and mu2 downstream (capacity n2). The upstream node holds n2 - j
 * credits and serves only while it has one (blocking before service); a departure downstream
 * returns its credit at once. State (i, j), solved exactly as a CTMC (GSL LU) with the
 * corrected boundary equations of digest 000 section 3.3. */
#ifndef IBN_ANALYTIC_CREDIT_CHAIN_H
#define IBN_ANALYTIC_CREDIT_CHAIN_H

#include "core/error.h"

#define CREDIT_MAX_STATES 2000 /* dense solver: (n1+1)(n2+1) states at most */

struct credit_params {
    double lambda, mu1, mu2;
    int n1; /* upstream buffer, including the packet in service */
    int n2; /* downstream buffer = initial credits */
};

struct credit_metrics {
    double L1, L2, L; /* mean numbers upstream, downstream, total */
    double T;         /* throughput mu2 (1 - sum_i P(i,0)) */
    double T_arrivals;/* the same from the accepted arrivals, lambda (1 - sum_j P(n1,j)) */
    double T_upstream;/* the same from upstream services, mu1 sum_{i>=1, j<n2} P(i,j) (the
                         corrected middle term of (4.10)) */
    double T_printed; /* the middle term of (4.10) as printed, mu1 (1 - sum_i P(i,0)): wrong,
                         kept to show the misprint (3.316 against 4.421 at n1=12, n2=2) */
    double R;         /* mean response time L/T (Little) */
    double P_loss;    /* probability an arrival finds the upstream buffer full, 1 - T/lambda */
    double P_blocked; /* probability the upstream node holds packets but no credit */
};

int credit_solve(const struct credit_params *p, struct credit_metrics *out, struct ibn_err *err);

#endif

/* ctmc.h: stationary distribution of a small finite continuous-time Markov chain given by its
 * dense generator, solved with GSL's LU decomposition (one balance equation replaced by the
 * normalisation sum p e = 1). Used by every exact model of src/analytic/. */
#ifndef IBN_ANALYTIC_CTMC_H
#define IBN_ANALYTIC_CTMC_H

#include <stddef.h>

#include "core/error.h"

/* A dense n x n generator, row-major: q[i*n + j] is the rate i -> j (i != j). */
struct ctmc {
    size_t n;
    double *q;
};

/* Allocate an n-state chain with all rates zero. Free with ctmc_free. */
void ctmc_init(struct ctmc *c, size_t n);
void ctmc_free(struct ctmc *c);
/* Add rate to the transition i -> j (ignored when i == j: a self-loop changes nothing). */
void ctmc_add(struct ctmc *c, size_t i, size_t j, double rate);
/* Solve p Q = 0, sum p = 1 into p[0..n-1]. The diagonal is set from the row sums here.
 * Fails (-1) if the system is singular (the chain is not irreducible on its states) or the
 * solution is not a probability vector to rounding. */
int ctmc_stationary(const struct ctmc *c, double *p, struct ibn_err *err);

#endif

/* ctmc.c: stationary distributions of finite CTMCs by GSL LU (see ctmc.h). */
#include "analytic/ctmc.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

void ctmc_init(struct ctmc *c, size_t n)
{
    c->n = n;
    c->q = xcalloc(n * n, sizeof *c->q);
}

void ctmc_free(struct ctmc *c)
{
    free(c->q);
    c->q = NULL;
    c->n = 0;
}

void ctmc_add(struct ctmc *c, size_t i, size_t j, double rate)
{
    if (i >= c->n || j >= c->n)
        ibn_panic("ctmc_add: state %zu -> %zu outside 0..%zu", i, j, c->n - 1);
    if (i != j)
        c->q[i * c->n + j] += rate;
}

int ctmc_stationary(const struct ctmc *c, double *p, struct ibn_err *err)
{
    size_t n = c->n;
    if (n == 0)
        return ibn_err_set(err, "Markov chain with no states");
    if (n == 1) {
        p[0] = 1.0;
        return 0;
    }
    /* A = Q^T with the last equation replaced by sum p = 1; b = e_n. */
    gsl_matrix *a = gsl_matrix_alloc(n, n);
    gsl_vector *b = gsl_vector_calloc(n);
    gsl_vector *x = gsl_vector_alloc(n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    for (size_t i = 0; i < n; i++) {
        double out = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                out += c->q[i * n + j];
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(a, j, i, j == i ? -out : c->q[i * n + j]);
    }
    for (size_t j = 0; j < n; j++)
        gsl_matrix_set(a, n - 1, j, 1.0);
    gsl_vector_set(b, n - 1, 1.0);

    int rc = 0, signum;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (gsl_linalg_LU_decomp(a, perm, &signum) != GSL_SUCCESS) {
        rc = ibn_err_set(err, "LU decomposition of the generator failed");
    } else {
        /* A zero pivot means a reducible chain: report instead of dividing by it. */
        for (size_t i = 0; i < n && rc == 0; i++)
            if (fabs(gsl_matrix_get(a, i, i)) <= 1e-300)
                rc = ibn_err_set(err, "the Markov chain is not irreducible (singular generator)");
        if (rc == 0 && gsl_linalg_LU_solve(a, perm, b, x) != GSL_SUCCESS)
            rc = ibn_err_set(err, "solving for the stationary distribution failed");
    }
    gsl_set_error_handler(old);

    if (rc == 0) {
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            double v = gsl_vector_get(x, i);
            if (!isfinite(v) || v < -1e-9) {
                rc = ibn_err_set(err, "the stationary solution is not a probability vector "
                                      "(p[%zu] = %g)",
                                 i, v);
                break;
            }
            p[i] = v < 0 ? 0.0 : v;
            sum += p[i];
        }
        if (rc == 0)
            for (size_t i = 0; i < n; i++)
                p[i] /= sum;
    }
    /* Every balance equation, including the one the normalisation replaced, must hold:
     * |(pQ)_j| small against the largest flow through state j. */
    for (size_t j = 0; j < n && rc == 0; j++) {
        double in = 0, out = 0, flow = 0;
        for (size_t i = 0; i < n; i++) {
            if (i == j)
                continue;
            in += p[i] * c->q[i * n + j];
            out += p[j] * c->q[j * n + i];
        }
        flow = in > out ? in : out;
        if (fabs(in - out) > 1e-8 * flow + 1e-300 && fabs(in - out) > 1e-12)
            rc = ibn_err_set(err, "the Markov chain has no unique stationary distribution "
                                  "(balance of state %zu off by %g)",
                             j, in - out);
    }
    gsl_permutation_free(perm);
    gsl_vector_free(x);
    gsl_vector_free(b);
    gsl_matrix_free(a);
    return rc;
}

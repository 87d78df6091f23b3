/* credit_chain.c: the two-node credit-based flow control CTMC (see credit_chain.h). */
#include "analytic/credit_chain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analytic/ctmc.h"

int credit_solve(const struct credit_params *p, struct credit_metrics *out, struct ibn_err *err)
{
    if (!(isfinite(p->lambda) && p->lambda > 0 && isfinite(p->mu1) && p->mu1 > 0 &&
          isfinite(p->mu2) && p->mu2 > 0))
        return ibn_err_set(err, "credit chain: lambda, mu1 and mu2 must be positive");
    if (p->n1 < 1 || p->n2 < 1)
        return ibn_err_set(err, "credit chain: the buffers n1 and n2 must be at least 1 (got %d, "
                                "%d)",
                           p->n1, p->n2);
    size_t rows = (size_t)p->n1 + 1, cols = (size_t)p->n2 + 1;
    if (rows * cols > CREDIT_MAX_STATES)
        return ibn_err_set(err, "credit chain: %zu states is more than this dense solver takes "
                                "(%d)",
                           rows * cols, CREDIT_MAX_STATES);
#define S(i, j) ((size_t)(i) * cols + (size_t)(j))
    struct ctmc c;
    ctmc_init(&c, rows * cols);
    for (int i = 0; i <= p->n1; i++)
        for (int j = 0; j <= p->n2; j++) {
            if (i < p->n1)
                ctmc_add(&c, S(i, j), S(i + 1, j), p->lambda);
            if (i >= 1 && j < p->n2)
                ctmc_add(&c, S(i, j), S(i - 1, j + 1), p->mu1);
            if (j >= 1)
                ctmc_add(&c, S(i, j), S(i, j - 1), p->mu2);
        }
    double *pr = xmalloc(rows * cols * sizeof *pr);
    int rc = ctmc_stationary(&c, pr, err);
    ctmc_free(&c);
    if (rc) {
        free(pr);
        return ibn_err_prefix(err, "credit chain: ");
    }
    memset(out, 0, sizeof *out);
    double empty2 = 0, full1 = 0;
    for (int i = 0; i <= p->n1; i++)
        for (int j = 0; j <= p->n2; j++) {
            double q = pr[S(i, j)];
            out->L1 += i * q;
            out->L2 += j * q;
            if (j == 0)
                empty2 += q;
            if (i == p->n1)
                full1 += q;
            if (i >= 1 && j == p->n2)
                out->P_blocked += q;
            if (i >= 1 && j < p->n2)
                out->T_upstream += q;
        }
#undef S
    free(pr);
    out->L = out->L1 + out->L2;
    out->T = p->mu2 * (1.0 - empty2);
    out->T_arrivals = p->lambda * (1.0 - full1);
    out->T_upstream *= p->mu1;
    out->T_printed = p->mu1 * (1.0 - empty2);
    out->R = out->L / out->T;
    out->P_loss = 1.0 - out->T / p->lambda;
    return 0;
}

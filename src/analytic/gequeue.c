/* gequeue.c: the finite GE-type queue with queue-length dependent service: the exact CTMC and
 * the maximum-entropy solutions (see gequeue.h and digest 000 sections 3.2 and 3.4). */
#include "analytic/gequeue.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "analytic/ctmc.h"
#include "analytic/ge.h"

int geq_regimes_check(const struct geq_regimes *r, struct ibn_err *err)
{
    if (r->count < 1 || r->count > GEQ_MAX_REGIMES)
        return ibn_err_set(err, "the number of service regimes must be 1..%d, got %d",
                           GEQ_MAX_REGIMES, r->count);
    int prev = 0;
    for (int k = 0; k < r->count; k++) {
        if (r->upper[k] <= prev)
            return ibn_err_set(err,
                               "regime %d ends at queue length %d, which must be above the "
                               "previous bound %d",
                               k + 1, r->upper[k], prev);
        if (!(isfinite(r->mu[k]) && r->mu[k] > 0))
            return ibn_err_set(err, "the service rate of regime %d must be positive, got %g",
                               k + 1, r->mu[k]);
        prev = r->upper[k];
    }
    if (prev > GEQ_MAX_CAPACITY)
        return ibn_err_set(err, "capacity %d is above the supported %d", prev, GEQ_MAX_CAPACITY);
    return 0;
}

static int regime_of(const struct geq_regimes *r, int n)
{
    int k = 0;
    while (k < r->count - 1 && n > r->upper[k])
        k++;
    return k;
}

static int check_inputs(double lambda, double ca2, double cs2, const struct geq_regimes *r,
                        struct ibn_err *err)
{
    struct ge_dist a = { lambda, ca2 }, s = { 1.0, cs2 };
    if (ge_check(&a, "arrivals", err) || ge_check(&s, "service", err))
        return -1;
    return geq_regimes_check(r, err);
}

/* Fill the metrics common to both solutions from p and the throughput. */
static void fill_metrics(double lambda, const struct geq_regimes *r, const double *p, double x,
                         struct geq_metrics *m)
{
    int K = r->upper[r->count - 1];
    memset(m, 0, sizeof *m);
    for (int n = 0; n <= K; n++) {
        m->L += n * p[n];
        if (n > 0)
            m->U_regime[regime_of(r, n)] += p[n];
    }
    m->U = 1.0 - p[0];
    m->X = x;
    m->blocking = 1.0 - x / lambda;
    if (m->blocking < 0 && m->blocking > -1e-12)
        m->blocking = 0;
    m->p_full = p[K];
    m->W = x > 0 ? m->L / x : NAN;
}

int geq_exact(double lambda, double ca2, double cs2, const struct geq_regimes *r, double *p,
              struct geq_metrics *out, struct ibn_err *err)
{
    if (check_inputs(lambda, ca2, cs2, r, err))
        return -1;
    int K = r->upper[r->count - 1];
    double ta = ge_tau(ca2), ts = ge_tau(cs2);
    double qa = 1.0 - ta, qs = 1.0 - ts;
    double beta = ta * lambda; /* batch arrival rate */
    struct ctmc c;
    ctmc_init(&c, (size_t)K + 1);

    /* Batch at an empty queue: end state s >= 1 with probability cst * qa^(s-1), the tail
     * s >= K lumped into K; with the remaining probability every packet left at once. */
    double cst = ts * ta / (1.0 - qs * qa);
    for (int s = 1; s < K; s++)
        ctmc_add(&c, 0, (size_t)s, beta * cst * pow(qa, s - 1));
    ctmc_add(&c, 0, (size_t)K, beta * cst * pow(qa, K - 1) / ta);

    for (int n = 1; n <= K; n++) {
        /* Batch at n >= 1: n -> n + j, j < K - n, or n -> K (partial acceptance). */
        for (int j = 1; j < K - n; j++)
            ctmc_add(&c, (size_t)n, (size_t)(n + j), beta * ta * pow(qa, j - 1));
        if (n < K)
            ctmc_add(&c, (size_t)n, (size_t)K, beta * pow(qa, K - n - 1));
        /* Exponential completion at rate ts*mu(n), then d-1 instant ones. */
        double srate = ts * r->mu[regime_of(r, n)];
        for (int d = 1; d < n; d++)
            ctmc_add(&c, (size_t)n, (size_t)(n - d), srate * ts * pow(qs, d - 1));
        ctmc_add(&c, (size_t)n, 0, srate * pow(qs, n - 1));
    }

    double *pp = p ? p : xmalloc(((size_t)K + 1) * sizeof *pp);
    int rc = ctmc_stationary(&c, pp, err);
    ctmc_free(&c);
    if (rc == 0) {
        /* Departures: mu(n) (1 - qs^n) from n >= 1 (mean batch of completions
         * (1 - qs^n)/ts at rate ts mu(n)), plus the packets of a batch served at once at an
         * empty queue: qs / (1 - qa qs) per batch. */
        double x = pp[0] * beta * qs / (1.0 - qa * qs);
        for (int n = 1; n <= K; n++)
            x += pp[n] * r->mu[regime_of(r, n)] * (1.0 - pow(qs, n));
        fill_metrics(lambda, r, pp, x, out);
    } else {
        ibn_err_prefix(err, "exact GE-type queue: ");
    }
    if (!p)
        free(pp);
    return rc;
}

double geq_exact_loss_blocking(double lambda, double ca2, double cs2, int K, const double *p)
{
    double ta = ge_tau(ca2), ts = ge_tau(cs2), qa = 1.0 - ta, qs = 1.0 - ts;
    /* From n >= 1 a batch loses E[(B - (K - n))^+] = qa^(K-n)/ta packets at batch rate
     * ta*lambda; from 0 the packets beyond K after the instant services are lost. */
    double cst = ts * ta / (1.0 - qs * qa);
    double loss = p[0] * lambda * cst * pow(qa, K) / ta;
    for (int n = 1; n <= K; n++)
        loss += p[n] * lambda * pow(qa, K - n);
    return loss / lambda;
}

/* ---- maximum entropy ---- */

struct me_ctx {
    double lambda, qa;
    const struct geq_regimes *r;
    int K;
    const double *shape; /* w(n) without the unknown multiplier */
    int from;            /* the multiplier applies to n >= from */
    double *p;           /* scratch, K+1 */
};

/* p(n) for multiplier exp(u); returns pi_K (per-packet blocking). */
static double me_distribution(const struct me_ctx *c, double u, double *served)
{
    double m = exp(u), z = 0;
    for (int n = 0; n <= c->K; n++) {
        c->p[n] = c->shape[n] * (n >= c->from ? m : 1.0);
        z += c->p[n];
    }
    double pik = 0, x = 0;
    for (int n = 0; n <= c->K; n++) {
        c->p[n] /= z;
        pik += c->p[n] * pow(c->qa, c->K - n);
        if (n > 0)
            x += c->r->mu[regime_of(c->r, n)] * c->p[n];
    }
    *served = x;
    return pik;
}

/* Flow balance residual, scaled by lambda: (1 - pi_K) - sum mu(n) p(n) / lambda. */
static double me_residual(double u, void *arg)
{
    const struct me_ctx *c = arg;
    double served, pik = me_distribution(c, u, &served);
    return (1.0 - pik) - served / c->lambda;
}

int geq_me(double lambda, double ca2, double cs2, const struct geq_regimes *r, double *p,
           struct geq_metrics *out, struct ibn_err *err)
{
    if (check_inputs(lambda, ca2, cs2, r, err))
        return -1;
    int K = r->upper[r->count - 1];
    double x[GEQ_MAX_REGIMES];
    for (int k = 0; k < r->count; k++) {
        double rho = lambda / r->mu[k];
        if (rho >= 1)
            return ibn_err_set(err,
                               "maximum entropy needs lambda < mu in every regime; regime %d has "
                               "rho = %g",
                               k + 1, rho);
        double l = ge_queue_mean_inf(rho, ca2, cs2);
        x[k] = (l - rho) / l;
    }
    double rho1 = lambda / r->mu[0];
    double g = rho1 * (1.0 - x[0]) / (x[0] * (1.0 - rho1));

    double *shape = xmalloc(((size_t)K + 1) * sizeof *shape);
    double *pp = p ? p : xmalloc(((size_t)K + 1) * sizeof *pp);
    shape[0] = 1.0;
    /* In log space to keep w(n) representable for long queues. */
    double lw = log(g);
    for (int n = 1; n <= K; n++) {
        lw += log(x[regime_of(r, n)]);
        shape[n] = exp(lw);
    }
    struct me_ctx c = { lambda, 1.0 - ge_tau(ca2), r, K, shape, 0, pp };
    /* One regime: y on the full state (3.2); several: G on every state above T_1 (3.4). */
    c.from = r->count == 1 ? K : r->upper[0] + 1;

    gsl_function f = { me_residual, &c };
    double lo = -50, hi = 50;
    double flo = me_residual(lo, &c), fhi = me_residual(hi, &c);
    for (int i = 0; i < 3 && flo * fhi > 0; i++) { /* up to [-400, 400]: no overflow */
        lo *= 2, hi *= 2;
        flo = me_residual(lo, &c);
        fhi = me_residual(hi, &c);
    }
    int rc = 0;
    if (!(flo * fhi <= 0)) {
        rc = ibn_err_set(err, "maximum entropy: flow balance has no solution for these inputs");
    } else {
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
        gsl_root_fsolver_set(s, &f, lo, hi);
        int status = GSL_CONTINUE;
        for (int it = 0; it < 300 && status == GSL_CONTINUE; it++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s),
                                            gsl_root_fsolver_x_upper(s), 1e-13, 1e-14);
        }
        double u = gsl_root_fsolver_root(s);
        gsl_root_fsolver_free(s);
        gsl_set_error_handler(old);
        if (status != GSL_SUCCESS) {
            rc = ibn_err_set(err, "maximum entropy: root finding did not converge");
        } else {
            me_distribution(&c, u, &(double){ 0 });
            double pik = 0;
            for (int n = 0; n <= K; n++)
                pik += pp[n] * pow(c.qa, K - n);
            fill_metrics(lambda, r, pp, lambda * (1.0 - pik), out);
        }
    }
    free(shape);
    if (!p)
        free(pp);
    return rc;
}

static int one_regime(double mu, int N, struct geq_regimes *r, struct ibn_err *err)
{
    if (N < 1)
        return ibn_err_set(err, "the capacity N must be at least 1, got %d", N);
    memset(r, 0, sizeof *r);
    r->count = 1;
    r->upper[0] = N;
    r->mu[0] = mu;
    return 0;
}

int gege1n_exact(double lambda, double ca2, double mu, double cs2, int N, struct geq_metrics *out,
                 struct ibn_err *err)
{
    struct geq_regimes r;
    if (one_regime(mu, N, &r, err))
        return -1;
    return geq_exact(lambda, ca2, cs2, &r, NULL, out, err);
}

int gege1n_me(double lambda, double ca2, double mu, double cs2, int N, struct geq_metrics *out,
              struct ibn_err *err)
{
    struct geq_regimes r;
    if (one_regime(mu, N, &r, err))
        return -1;
    return geq_me(lambda, ca2, cs2, &r, NULL, out, err);
}

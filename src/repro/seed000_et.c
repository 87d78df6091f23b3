/* seed000_et.c: seed 000 chapter 5 in the packet simulator (`ibnetsim repro s000et`; digest 000
 * sections 2.6-2.7, 3.4-3.6, 6.3; docs/analytic.md section 11). On digest 000 section 6.3's grid
 * (Ca^2 = 5, Cs^2 = 7, N = 8, lambda = 1..7, rates in units of 1/16 of the link) the simulator
 * runs three queues at one flow's source adapter: no threshold (mu = 8, K = 8: lanes "0.5"),
 * Entry Threshold (t = 8, mu 8 -> 16, K = 16: "0.5,8:1") and Arrival Job Threshold (T = 8, 16,
 * mu 8 / 16 / 12, K = 24: "0.5,8:1,16:0.75"), with the mapping of validation/test_threshold_sim
 * (H1 cabled to H2 at 32 Gb/s, MTU 4096, GE batch arrivals, ge message sizes of mean 16 KiB).
 * Each point is repro_seeds() runs of 1e6 arrivals (seeds 1, 2, ...).
 * Tolerances, stated before the first run: the simulated L and blocking against the exact chain
 * (analytic/threshold.h) within 2 % (blocking: or 0.001 absolute), as in the validation test;
 * the thesis's claims as trends: ME's average EM on L against the simulation at most 0.10 ("5 %
 * ~ 10 %"), ET and AJT cut the blocking of the no-threshold queue at every lambda, and ET and AJT
 * "reduce the mean queue length" (every lambda). Each point's EM is an info row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytic/gequeue.h"
#include "analytic/threshold.h"
#include "core/params.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "fabric/settings.h"
#include "repro/repro.h"
#include "routing/route.h"

#define MEAN_BYTES 16384.0
#define LINK_BPS 32e9
#define NLAM 7
#define RMAX 32
enum { Q_NONE, Q_ET, Q_AJT, NQ };
static const char *const q_id[NQ] = { "none", "et", "ajt" };
static const char *const q_name[NQ] = { "no threshold", "ET", "AJT" };
static const char *const q_lanes[NQ] = { "0.5", "0.5,8:1", "0.5,8:1,16:0.75" };
static const int q_K[NQ] = { 8, 16, 24 };

/* Mean wire bytes of a ge message (validation/test_gege1n_sim.c). */
static double mean_wire_bytes(double M, double cs2)
{
    double tau = 2.0 / (1.0 + cs2), p = tau / M, q = 1.0 - p;
    double packets = 1.0 / (1.0 - pow(q, 4096)), pad = p * (3 + 2 * q + q * q) / (1 - pow(q, 4));
    return (1.0 - tau) * 26.0 + tau * (M / tau + 26.0 * packets + pad);
}

/* One run: L and blocking of the flow's source queue. */
static int simulate(double lam, int q, uint64_t seed, double msgs, double *L, double *blocking,
                    struct ibn_err *e)
{
    struct topo t;
    struct lfts l;
    memset(&l, 0, sizeof l);
    topo_init(&t);
    int a = topo_add_node(&t, TOPO_CA, "H1", 1), b = topo_add_node(&t, TOPO_CA, "H2", 1);
    if (topo_connect(&t, a, 1, b, 1, 4, IB_QDR, LINK_BPS, 10 * PS_PER_NS, e) ||
        topo_assign_lids(&t, 0) < 0 || route_compute(&t, "minhop", NULL, &l, e)) {
        topo_free(&t);
        return -1;
    }
    struct run_desc d;
    memset(&d, 0, sizeof d);
    fabric_settings_defaults(&d.set);
    char why[256];
    struct flow_desc fd;
    memset(&fd, 0, sizeof fd);
    int rc = param_set(params_find(fabric_params, "mtu"), &d.set, "4096", why, sizeof why) ||
             params_set_defaults(arrival_params, &fd.arr, why, sizeof why) ||
             param_set(params_find(arrival_params, "kind"), &fd.arr, "ge", why, sizeof why);
    if (rc) {
        lfts_free(&l);
        topo_free(&t);
        params_free(arrival_params, &fd.arr);
        return ibn_err_set(e, "s000et: %s", why);
    }
    d.set.max_pending = q_K[q] - 1;
    d.seed = seed;
    d.drain_limit = 100 * PS_PER_MS;
    d.warmup = (simtime_t)(1000.0 / lam * 1e12);
    d.end = d.warmup + (simtime_t)(msgs / lam * 1e12);
    fd.name = "Q";
    fd.src = "H1";
    fd.dst = "H2";
    fd.lanes = (char *)q_lanes[q];
    fd.arr.random_phase = 0;
    fd.arr.rate_bps = lam * 8.0 * MEAN_BYTES;
    fd.arr.msg_bytes = (uint64_t)MEAN_BYTES;
    fd.arr.size_dist = SIZE_GE;
    fd.arr.size_scv = 7;
    fd.arr.ge_scv = 5;
    fd.arr.ge_form = GE_BATCH;
    fd.arr.ge_batch_gap = 2 * (simtime_t)(26 * 8e12 / LINK_BPS) + PS_PER_NS;
    d.nflows = 1;
    d.flows = &fd;
    struct fabric f;
    struct run_report rep;
    rc = fabric_build(&f, &t, &l, &d, e) || fabric_run(&f, NULL, &rep, e);
    if (!rc) {
        const struct flow *fl = &f.flows[0];
        *L = flow_source_queue_mean(&f, fl);
        *blocking = (double)fl->st.msgs_refused_measured / (double)fl->st.msgs_offered_measured;
        if (rep.outcome != RUN_DRAINED)
            rc = ibn_err_set(e, "s000et: the queue did not drain");
    }
    fabric_free(&f);
    params_free(arrival_params, &fd.arr);
    lfts_free(&l);
    topo_free(&t);
    return rc ? -1 : 0;
}

static int model(int q, double lam, int exact, struct geq_metrics *m, struct ibn_err *e)
{
    if (q == Q_NONE)
        return exact ? gege1n_exact(lam, 5, 8, 7, 8, m, e) : gege1n_me(lam, 5, 8, 7, 8, m, e);
    if (q == Q_ET) {
        struct et_params p = { .lambda = lam, .ca2 = 5, .cs2 = 7, .mu1 = 8, .mu2 = 16, .N = 8, .t = 8 };
        return exact ? et_exact(&p, m, e) : et_me(&p, m, e);
    }
    struct ajt_params p = { .lambda = lam, .ca2 = 5, .cs2 = 7, .N = 8, .lanes = 3,
                            .mu = { 8, 16, 12 }, .T = { 8, 16 } };
    return exact ? ajt_exact(&p, m, e) : ajt_me(&p, m, e);
}

int repro_seed000_et(struct repro_table *t, struct ibn_err *e)
{
    int n = repro_seeds();
    if (n > RMAX)
        n = RMAX;
    double unit = 1.0 / (16.0 * mean_wire_bytes(MEAN_BYTES, 7) * 8.0 / LINK_BPS);
    static double L[NQ][NLAM][RMAX], B[NQ][NLAM][RMAX];
    static struct geq_metrics ex[NQ][NLAM], me[NQ][NLAM];
    for (int q = 0; q < NQ; q++)
        for (int i = 0; i < NLAM; i++) {
            double lam = i + 1;
            if (model(q, lam, 1, &ex[q][i], e) || model(q, lam, 0, &me[q][i], e))
                return -1;
            for (int k = 0; k < n; k++)
                if (simulate(lam * unit, q, (uint64_t)k + 1, 1e6, &L[q][i][k], &B[q][i][k], e))
                    return -1;
        }
    char id[48], claim[224], paper[32];
    double v[RMAX];
    for (int q = 0; q < NQ; q++)
        for (int i = 0; i < NLAM; i++) {
            int lam = i + 1;
            snprintf(id, sizeof id, "s0.%s.L.l%d", q_id[q], lam);
            snprintf(claim, sizeof claim, "%s, lambda %d: simulated mean queue length vs the exact "
                     "chain (digest 000 section 6.3; within 2 %%)", q_name[q], lam);
            snprintf(paper, sizeof paper, "%.4f", ex[q][i].L);
            repro_add_reps(t, REPRO_EVIDENCE, id, claim, paper, ex[q][i].L, L[q][i], n, "msgs",
                           0.02 * ex[q][i].L);
            snprintf(id, sizeof id, "s0.%s.block.l%d", q_id[q], lam);
            snprintf(claim, sizeof claim, "%s, lambda %d: simulated blocking vs the exact chain "
                     "(within 2 %% or 0.001)", q_name[q], lam);
            snprintf(paper, sizeof paper, "%.5f", ex[q][i].blocking);
            repro_add_reps(t, REPRO_EVIDENCE, id, claim, paper, ex[q][i].blocking, B[q][i], n, "P",
                           fmax(0.02 * ex[q][i].blocking, 0.001));
            for (int k = 0; k < n; k++)
                v[k] = analytic_em(L[q][i][k], me[q][i].L);
            snprintf(id, sizeof id, "s0.%s.em.l%d", q_id[q], lam);
            snprintf(claim, sizeof claim, "%s, lambda %d: EM of the ME mean queue length (%.4f) "
                     "against the simulation", q_name[q], lam, me[q][i].L);
            repro_add_reps(t, REPRO_INFO, id, claim, "-", NAN, v, n, "EM", 0);
        }
    for (int q = Q_ET; q <= Q_AJT; q++) {
        for (int k = 0; k < n; k++) {
            v[k] = 0;
            for (int i = 0; i < NLAM; i++)
                v[k] += analytic_em(L[q][i][k], me[q][i].L) / NLAM;
        }
        snprintf(id, sizeof id, "s0.%s.em_avg", q_id[q]);
        snprintf(claim, sizeof claim, "Ch. 5: the average EM of ME's mean queue length against the "
                 "simulation, %s, lambda 1-7, is about 5-10 %% (at most 0.10)", q_name[q]);
        repro_add_trend(t, id, claim, "0.05~0.1", v, n, "EM", -INFINITY, 0.10);
        for (int k = 0; k < n; k++) {
            v[k] = INFINITY;
            for (int i = 0; i < NLAM; i++)
                v[k] = fmin(v[k], B[Q_NONE][i][k] - B[q][i][k]);
        }
        snprintf(id, sizeof id, "s0.%s.block_cut", q_id[q]);
        snprintf(claim, sizeof claim, "Ch. 5: %s reduces the blocking probability against no "
                 "threshold (simulated; the smallest cut over lambda 1-7)", q_name[q]);
        repro_add_trend(t, id, claim, "> 0", v, n, "P", 0, INFINITY);
        for (int k = 0; k < n; k++) {
            v[k] = INFINITY;
            for (int i = 0; i < NLAM; i++)
                v[k] = fmin(v[k], L[Q_NONE][i][k] - L[q][i][k]);
        }
        snprintf(id, sizeof id, "s0.%s.L_cut", q_id[q]);
        snprintf(claim, sizeof claim, "Ch. 5: %s reduces the mean queue length against no "
                 "threshold (simulated; the smallest cut over lambda 1-7)", q_name[q]);
        repro_add_trend(t, id, claim, "> 0", v, n, "msgs", 0, INFINITY);
    }
    return 0;
}

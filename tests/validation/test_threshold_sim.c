/* test_threshold_sim.c: seed 000's threshold schemes (Entry Threshold and Arrival Job
 * Threshold, digest 000 sections 2.6-2.7) simulated by the packet simulator (a flow's `lanes`,
 * fabric/lanes.h) agree with the exact chain of analytic/threshold.h (et_exact, ajt_exact), and
 * the maximum-entropy solution (et_me, ajt_me) is judged against the simulation with the
 * thesis's error measure EM = |(sim - ME) / sim| (digest 000 section 3.6).
 *
 * The mapping is that of test_gege1n_sim.c (docs/analytic.md section 10): the queue is one
 * flow's message queue at H1, cabled straight to H2 (32 Gb/s of data, MTU 4096), capacity
 * K = fabric.max_pending + 1, GE arrivals in batch form (Ca^2 = 5), ge message sizes of mean
 * 16 KiB (Cs^2 = 7); the thesis's rates are in units of 1/16 of the link: mu = 8 is half the
 * link (the flow's own lane), 16 the whole link (with a borrowed lane), 12 three quarters.
 * Digest 000 section 6.3's points with a quick simulation there: ET (N = 8, t = 8, mu 8 -> 16,
 * K = 16) at lambda = 5 and AJT (N = 8, T = 8, 16, mu 8 / 16 / 12, K = 24) at lambda = 7.
 * The messages of a batch are posted 2 x 6.5 ns + 1 ns apart, longer than an empty packet at
 * half the link.
 *
 * Tolerances (as test_gege1n_sim, whose known biases stay below 1 %; one more here: a regime
 * changes at a packet's start, not at the instant the count crosses the threshold): 2 %
 * relative on L and X; blocking 2 % relative or 0.001 absolute, the larger (both points have
 * blocking near 0.037, where 2.5e6 arrivals leave a batch-means error of about 2 %). ME against
 * the simulation: EM on L at most 0.05 (digest 000 section 6.3 puts ME's L within 1-4 % of the
 * exact chain; the thesis reports average EMs of 5-10 %). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"
#include "analytic/threshold.h"

#define MEAN_BYTES 16384.0
#define LINK_BPS 32e9
#define BATCHES 20
#define T95_19 2.093

/* Mean wire bytes of a ge message of mean M and SCV cs2 (test_gege1n_sim.c). */
static double mean_wire_bytes(double M, double cs2)
{
    double tau = 2.0 / (1.0 + cs2), p = tau / M, q = 1.0 - p;
    double packets = 1.0 / (1.0 - pow(q, 4096)), pad = p * (3 + 2 * q + q * q) / (1 - pow(q, 4));
    return (1.0 - tau) * 26.0 + tau * (M / tau + 26.0 * packets + pad);
}

struct point {
    double L, X, blocking, ci_L, ci_X, ci_b;
};

struct batches {
    struct fabric_call call;
    struct flow *fl;
    simtime_t dt;
    int k;
    double area[BATCHES + 1], del[BATCHES + 1], off[BATCHES + 1], ref[BATCHES + 1];
};

static void snapshot(struct fabric *f, void *arg)
{
    struct batches *b = arg;
    struct flow *fl = b->fl;
    b->k++;
    b->area[b->k] = flow_source_queue_mean(f, fl) * (double)(f->end - f->warmup);
    b->del[b->k] = (double)fl->st.msgs_delivered;
    b->off[b->k] = (double)fl->st.msgs_offered_measured;
    b->ref[b->k] = (double)fl->st.msgs_refused_measured;
    if (b->k < BATCHES)
        fabric_schedule_call(f, f->now + b->dt, &b->call);
}

static double rel_ci(const double *x, int n)
{
    double m = 0, v = 0;
    for (int i = 0; i < n; i++)
        m += x[i];
    m /= n;
    for (int i = 0; i < n; i++)
        v += (x[i] - m) * (x[i] - m);
    return m > 0 ? T95_19 * sqrt(v / (n - 1) / n) / m : 0.0;
}

/* Simulate arrival rate lam (messages/s) with the given lanes and capacity K. */
static void simulate(double lam, const char *lanes, int K, double msgs, struct point *out)
{
    struct testsim s;
    memset(&s, 0, sizeof s);
    topo_init(&s.topo);
    int a = topo_add_node(&s.topo, TOPO_CA, "H1", 1), b = topo_add_node(&s.topo, TOPO_CA, "H2", 1);
    if (topo_connect(&s.topo, a, 1, b, 1, 4, IB_QDR, LINK_BPS, 10 * PS_PER_NS, &s.err) ||
        topo_assign_lids(&s.topo, 0) < 0 ||
        route_compute(&s.topo, "minhop", NULL, &s.lfts, &s.err)) {
        fprintf(stderr, "test setup: %s\n", s.err.msg);
        abort();
    }
    fabric_settings_defaults(&s.d.set);
    s.d.drain_limit = 100 * PS_PER_MS;
    char why[128];
    assert_int_equal(param_set(params_find(fabric_params, "mtu"), &s.d.set, "4096", why, sizeof why), 0);
    s.d.set.max_pending = K - 1;
    s.d.seed = 1;
    s.d.warmup = (simtime_t)(1000.0 / lam * 1e12);
    s.d.end = s.d.warmup + (simtime_t)(msgs / lam * 1e12);
    struct flow_desc *fd = ts_flow(&s, "Q", "H1", "H2", "ge", NULL, NULL, 0, 0);
    fd->arr.rate_bps = lam * 8.0 * MEAN_BYTES;
    fd->arr.msg_bytes = (uint64_t)MEAN_BYTES;
    fd->arr.size_dist = SIZE_GE;
    fd->arr.size_scv = 7;
    fd->arr.ge_scv = 5;
    fd->arr.ge_form = GE_BATCH;
    fd->arr.ge_batch_gap = 2 * (simtime_t)(26 * 8e12 / LINK_BPS) + PS_PER_NS;
    fd->lanes = strdup(lanes);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err)) {
        fprintf(stderr, "build: %s\n", s.err.msg);
        abort();
    }
    struct flow *fl = &s.f.flows[0];
    struct batches bt;
    memset(&bt, 0, sizeof bt);
    bt.fl = fl;
    bt.dt = (s.d.end - s.d.warmup) / BATCHES;
    bt.call.fn = snapshot;
    bt.call.arg = &bt;
    fabric_schedule_call(&s.f, s.d.warmup + bt.dt, &bt.call);
    if (fabric_run(&s.f, NULL, &s.rep, &s.err)) {
        fprintf(stderr, "run: %s\n", s.err.msg);
        abort();
    }
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    double secs = (double)(s.d.end - s.d.warmup) / 1e12;
    out->L = flow_source_queue_mean(&s.f, fl);
    out->X = (double)fl->st.msgs_delivered / secs;
    out->blocking = (double)fl->st.msgs_refused_measured / (double)fl->st.msgs_offered_measured;
    double l[BATCHES], x[BATCHES], p[BATCHES];
    for (int i = 0; i < BATCHES; i++) {
        l[i] = bt.area[i + 1] - bt.area[i];
        x[i] = bt.del[i + 1] - bt.del[i];
        p[i] = (bt.ref[i + 1] - bt.ref[i]) / (bt.off[i + 1] - bt.off[i]);
    }
    out->ci_L = rel_ci(l, BATCHES);
    out->ci_X = rel_ci(x, BATCHES);
    out->ci_b = rel_ci(p, BATCHES);
    free(fd->lanes);
    fd->lanes = NULL;
    ts_free(&s);
}

static int within(double got, double want, double rel, double abs_floor)
{
    return fabs(got - want) <= fmax(rel * fabs(want), abs_floor);
}

/* Compare one point; `unit` converts the thesis's rates to messages/s. */
static void check(const char *name, double lambda, double unit, const char *lanes, int K,
                  const struct geq_metrics *ex, const struct geq_metrics *me)
{
    struct point sim;
    simulate(lambda * unit, lanes, K, 2.5e6, &sim);
    double X = sim.X / unit; /* in the thesis's units */
    int ok = within(sim.L, ex->L, 0.02, 0) && within(X, ex->X, 0.02, 0) &&
             within(sim.blocking, ex->blocking, 0.02, 0.001);
    double em_L = analytic_em(sim.L, me->L), em_b = analytic_em(sim.blocking, me->blocking);
    printf("| %s | %g | %s | exact L %.4f, sim %.4f (%+.2f %%, CI %.2f %%), ME %.4f (EM %.3f) | "
           "X exact %.4f, sim %.4f (%+.2f %%, CI %.2f %%) | blocking exact %.5f, sim %.5f "
           "(CI %.1f %%), ME %.5f (EM %.3f) | %s\n",
           name, lambda, lanes, ex->L, sim.L, 100 * (sim.L / ex->L - 1), 100 * sim.ci_L, me->L,
           em_L, ex->X, X, 100 * (X / ex->X - 1), 100 * sim.ci_X, ex->blocking, sim.blocking,
           100 * sim.ci_b, me->blocking, em_b, ok && em_L <= 0.05 ? "ok" : "FAIL");
    fflush(stdout);
    assert_true(ok);
    assert_true(em_L <= 0.05);
}

/* The rate unit: the link serves 16 of them (mu = 16 is the whole link). */
static double rate_unit(void)
{
    return 1.0 / (16.0 * mean_wire_bytes(MEAN_BYTES, 7) * 8.0 / LINK_BPS);
}

static void test_et(void **st)
{
    (void)st;
    struct et_params p = { .lambda = 5, .ca2 = 5, .cs2 = 7, .mu1 = 8, .mu2 = 16, .N = 8, .t = 8 };
    struct geq_metrics ex, me;
    struct ibn_err e;
    assert_int_equal(et_exact(&p, &ex, &e), 0);
    assert_int_equal(et_me(&p, &me, &e), 0);
    check("ET", p.lambda, rate_unit(), "0.5,8:1", 2 * p.N, &ex, &me);
}

static void test_ajt(void **st)
{
    (void)st;
    struct ajt_params p = { .lambda = 7, .ca2 = 5, .cs2 = 7, .N = 8, .lanes = 3,
                            .mu = { 8, 16, 12 }, .T = { 8, 16 } };
    struct geq_metrics ex, me;
    struct ibn_err e;
    assert_int_equal(ajt_exact(&p, &ex, &e), 0);
    assert_int_equal(ajt_me(&p, &me, &e), 0);
    check("AJT", p.lambda, rate_unit(), "0.5,8:1,16:0.75", 3 * p.N, &ex, &me);
}

/* Bad lane texts are refused with the reason, naming the flow. */
static void test_bad_lanes(void **st)
{
    (void)st;
    static const char *const bad[] = { "", "0", "1.5", "0.5,8", "0.5,8:1,8:0.5", "0.5,0:1", "0.5;1" };
    for (size_t i = 1; i < sizeof bad / sizeof bad[0]; i++) {
        struct testsim s;
        ts_init(&s, "single_switch", "ports=2");
        struct flow_desc *fd = ts_flow(&s, "Q", "H1", "H2", "poisson", "1 Gb/s", "1024", 0, 0);
        fd->lanes = strdup(bad[i]);
        assert_int_not_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
        printf("lanes = \"%s\": %s\n", bad[i], s.err.msg);
        assert_non_null(strstr(s.err.msg, "flow Q: lanes"));
        free(fd->lanes);
        fd->lanes = NULL;
        ts_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_lanes),
        cmocka_unit_test(test_et),
        cmocka_unit_test(test_ajt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

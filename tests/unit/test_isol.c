/* test_isol.c: the CAM-line / isolation-queue state machine of fabric/isol.c (CCFIT, EcoCC,
 * HFDI), seen from outside during a run of Paper V's configuration #1 (S0 with H0..H2, S1 with
 * H3..H6, hot spot H4, victim H0 -> H3), and the designs' build-time refusals.
 * At 30 us (no throttling), CCFIT must have: at S1, the input from S0 isolating H4 in a root
 * CFQ (hops 1, output towards H4), which has propagated and sent Stop; S1's output to H4 in
 * the congestion state and S0's output to S1 not (root-only marking); at S0's output to S1 one
 * stopped CAM line from downstream; at S0's inputs from H1 and H2 CFQs linked to it (hops 2,
 * stopped) and none at the victim's input. After the drain every line is free. EcoCC at the
 * same moment: no HPQ at the root switch (the VOQ is the root's queue), HPQs for H4 at S0's
 * hot inputs only; HFDI: a root HPQ at S1 too. The adapter H1 (a hot source) sees its
 * switch input's line for H4 stopped at times in the first 100 us, never one for H3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "fabric/isol.h"

static void config1(struct testsim *s, const char *arch)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int s0 = topo_add_node(&s->topo, TOPO_SWITCH, "S0", 4), s1 = topo_add_node(&s->topo, TOPO_SWITCH, "S1", 5);
    int h[7];
    for (int i = 0; i < 7; i++) {
        char n[8];
        snprintf(n, sizeof n, "H%d", i);
        h[i] = topo_add_node(&s->topo, TOPO_CA, n, 1);
    }
    simtime_t d = 20 * PS_PER_NS;
    for (int i = 0; i < 3; i++)
        if (topo_connect(&s->topo, h[i], 1, s0, i + 1, 4, IB_SDR, 20e9, d, &s->err))
            abort();
    if (topo_connect(&s->topo, s0, 4, s1, 1, 4, IB_SDR, 40e9, d, &s->err))
        abort();
    for (int i = 3; i < 7; i++)
        if (topo_connect(&s->topo, h[i], 1, s1, i - 1, 4, IB_SDR, 20e9, d, &s->err))
            abort();
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    char why[128];
    if (param_set(params_find(switch_params, "arch"), &s->d.set, arch, why, sizeof why) ||
        param_set(params_find(switch_params, "speedup"), &s->d.set, "2", why, sizeof why))
        abort();
    s->d.end = 100 * PS_PER_US;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
    ts_flow(s, "F0", "H0", "H3", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "F1", "H1", "H4", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "F2", "H2", "H4", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "F5", "H5", "H4", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "F6", "H6", "H4", "saturate", NULL, "2048 B", 0, 0);
}

/* A snapshot of the state at a moment of the run. */
struct snap {
    struct fabric_call call;
    struct isol_line_view s1in1[2], s0in[4][2], s1in4[2];
    int cong_s1_h4, cong_s0_up, s0_out_active, s0_out_stopped;
    uint16_t h4;
};

static void take(struct fabric *f, void *arg)
{
    struct snap *n = arg;
    struct sw *s0 = node_sw(f->nodes[0]), *s1 = node_sw(f->nodes[1]);
    for (int q = 0; q < 2; q++) {
        isol_line_view(s1, 1, q, &n->s1in1[q]);
        isol_line_view(s1, 4, q, &n->s1in4[q]);
        for (int in = 1; in <= 3; in++)
            isol_line_view(s0, in, q, &n->s0in[in][q]);
    }
    n->cong_s1_h4 = isol_congested(s1, 3);
    n->cong_s0_up = isol_congested(s0, 4);
    isol_out_lines(s0, 4, &n->s0_out_active, &n->s0_out_stopped);
    n->h4 = f->hosts[4].port->lid;
}

static int active_lines(const struct isol_line_view v[2])
{
    return v[0].active + v[1].active;
}

static const struct isol_line_view *find(const struct isol_line_view v[2], int out)
{
    for (int q = 0; q < 2; q++)
        if (v[q].active && v[q].out == out)
            return &v[q];
    return NULL;
}

static void run_snap(const char *arch, struct snap *n, struct testsim *s)
{
    config1(s, arch);
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err)) {
        fprintf(stderr, "build: %s\n", s->err.msg);
        abort();
    }
    memset(n, 0, sizeof *n);
    n->call.fn = take;
    n->call.arg = n;
    fabric_schedule_call(&s->f, 30 * PS_PER_US, &n->call);
    if (fabric_run(&s->f, NULL, &s->rep, &s->err))
        abort();
    assert_true(s->rep.invariants_ok);
}

static void all_free(struct testsim *s)
{
    for (int i = 0; i < 2; i++) {
        struct sw *sw = node_sw(s->f.nodes[i]);
        for (int in = 1; in <= sw->n.nports; in++) {
            struct isol_line_view v;
            for (int q = 0; q < 2; q++) {
                assert_int_equal(isol_line_view(sw, in, q, &v), 0);
                assert_false(v.active);
            }
            int a, st;
            isol_out_lines(sw, in, &a, &st);
            assert_int_equal(a, 0);
            assert_false(isol_congested(sw, in));
        }
    }
    struct isol_usage u;
    isol_usage(&s->f, &u);
    assert_int_equal(u.queues_in_use, 0);
}

static void test_ccfit_tree(void **st)
{
    (void)st;
    struct testsim s;
    struct snap n;
    run_snap("ccfit", &n, &s);
    /* The root CFQ at S1's input from S0. */
    const struct isol_line_view *r = find(n.s1in1, 3);
    assert_non_null(r);
    assert_int_equal(r->hops, 1);
    assert_int_equal(r->ndst, 1);
    assert_int_equal(r->dst[0], n.h4);
    assert_true(r->propagated);
    assert_true(r->sent_stop);
    assert_int_equal(active_lines(n.s1in1), 1); /* the victim's packets stay in the NFQ */
    /* Root-only congestion state. */
    assert_true(n.cong_s1_h4);
    assert_false(n.cong_s0_up);
    /* Upstream: one stopped output CAM line, CFQs at the hot inputs only. */
    assert_int_equal(n.s0_out_active, 1);
    assert_int_equal(n.s0_out_stopped, 1);
    assert_int_equal(active_lines(n.s0in[1]), 0);
    for (int in = 2; in <= 3; in++) {
        const struct isol_line_view *v = find(n.s0in[in], 4);
        assert_non_null(v);
        assert_int_equal(v->hops, 2);
        assert_true(v->stopped);
        assert_int_equal(v->dst[0], n.h4);
        assert_true(v->n > 0);
    }
    all_free(&s);
    ts_free(&s);
}

static void test_ecocc_tree(void **st)
{
    (void)st;
    struct testsim s;
    struct snap n;
    run_snap("ecocc", &n, &s);
    /* No HPQ at the root switch; the root output marks; S0 isolates the hot inputs. */
    assert_int_equal(active_lines(n.s1in1), 0);
    assert_int_equal(active_lines(n.s1in4), 0);
    assert_true(n.cong_s1_h4);
    assert_false(n.cong_s0_up);
    assert_true(n.s0_out_active >= 1);
    /* The victim's input holds no line for H4 (it may isolate H3: the victim saturates H3's
     * link, fed by a link twice as fast, and its VOQ at S1 crosses HTh, which is a root). */
    for (int q = 0; q < 2; q++)
        assert_false(n.s0in[1][q].active && n.s0in[1][q].dst[0] == n.h4);
    for (int in = 2; in <= 3; in++) {
        const struct isol_line_view *v = find(n.s0in[in], 4);
        assert_non_null(v);
        assert_int_equal(v->hops, 2);
        assert_int_equal(v->dst[0], n.h4);
    }
    all_free(&s);
    ts_free(&s);
}

static void test_hfdi_tree(void **st)
{
    (void)st;
    struct testsim s;
    struct snap n;
    run_snap("hfdi", &n, &s);
    /* A root HPQ at S1 (from S0 and from H5), no congestion state (no marking). */
    const struct isol_line_view *r = find(n.s1in1, 3);
    assert_non_null(r);
    assert_int_equal(r->hops, 1);
    assert_non_null(find(n.s1in4, 3));
    assert_false(n.cong_s1_h4);
    assert_int_equal(n.s0_out_active, 1);
    assert_non_null(find(n.s0in[2], 4));
    all_free(&s);
    ts_free(&s);
}

/* The end-node eligibility rule: the adapters keep their switch input's lines and stop bits. */
struct elig { struct fabric_call call; int stopped_h4, stopped_h3, samples; };

static void elig_sample(struct fabric *f, void *arg)
{
    struct elig *g = arg;
    const struct isol_hca *h = f->hosts[1].port->hca->isol; /* H1, a hot source */
    uint16_t h3 = f->hosts[3].port->lid, h4 = f->hosts[4].port->lid;
    if (h) {
        g->stopped_h4 += isol_hca_stopped(h, h4);
        g->stopped_h3 += isol_hca_stopped(h, h3);
    }
    g->samples++;
    if (f->now < 100 * PS_PER_US)
        fabric_schedule_call(f, f->now + PS_PER_US, &g->call);
}

static void test_ecocc_adapter_stop(void **st)
{
    (void)st;
    struct testsim s;
    config1(&s, "ecocc");
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        abort();
    assert_non_null(s.f.hosts[1].port->hca->isol);
    struct elig g = { { elig_sample, &g }, 0, 0, 0 };
    fabric_schedule_call(&s.f, 5 * PS_PER_US, &g.call);
    if (fabric_run(&s.f, NULL, &s.rep, &s.err))
        abort();
    printf("  H1's adapter: H4 stopped in %d of %d samples, H3 in %d\n", g.stopped_h4, g.samples, g.stopped_h3);
    assert_true(g.stopped_h4 > 0);
    assert_int_equal(g.stopped_h3, 0);
    ts_free(&s);
    /* With the rule off the adapters keep no table. */
    config1(&s, "ecocc");
    char why[64];
    assert_int_equal(param_set(params_find(isol_params, "eligibility"), &s.d.set, "false", why, sizeof why), 0);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        abort();
    assert_null(s.f.hosts[1].port->hca->isol);
    ts_free(&s);
}

static void expect_refusal(const char *arch, const char *sec_key, const char *value, const char *needle)
{
    struct testsim s;
    config1(&s, arch);
    char why[128], key[64];
    snprintf(key, sizeof key, "%s", sec_key);
    char *dot = strchr(key, '.');
    *dot = 0;
    const struct param *tab = !strcmp(key, "fabric") ? fabric_params
                              : !strcmp(key, "switch") ? switch_params : isol_params;
    assert_int_equal(param_set(params_find(tab, dot + 1), &s.d.set, value, why, sizeof why), 0);
    int rc = fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err);
    printf("  %s %s = %s: %s\n", arch, sec_key, value, rc ? s.err.msg : "(built)");
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(s.err.msg, needle));
    ts_free(&s);
}

static void test_refusals(void **st)
{
    (void)st;
    expect_refusal("ccfit", "fabric.vls", "2", "fabric.vls = 2");
    expect_refusal("ccfit", "isolation.cam_lines", "1", "needs 2 CAM lines");
    /* S1 has 5 ports: 4 CPQs + 2 HPQs = 6 lines. */
    expect_refusal("ecocc", "isolation.cam_lines", "5", "needs 6 CAM lines per input port (4 CPQs + 2 HPQs)");
    /* Stop at 10 packets of 2074 B does not fit 16 KiB. */
    expect_refusal("ccfit", "switch.buffer", "16 KiB", "isolation.stop = 10 MTU packets (20740 B)");
    expect_refusal("hfdi", "isolation.low", "4", "isolation.low = 4 must be below isolation.high = 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccfit_tree),
        cmocka_unit_test(test_ecocc_tree),
        cmocka_unit_test(test_hfdi_tree),
        cmocka_unit_test(test_ecocc_adapter_stop),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

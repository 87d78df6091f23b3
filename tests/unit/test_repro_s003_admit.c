/* test_repro_s003_admit.c: seed 003 Fig. 4's and Fig. 5's admission (repro s003,
 * src/repro/seed003.c) see the scenario their runs see, `ibnetsim repro -s` overrides included
 * (issue 13: before 2026-11-24 Fig. 4's loaded the file without them and built its own
 * 1.6 Gb/s switch, and Fig. 5's built its own 5x5 mesh and gave every stream the load's rate,
 * so a user's -s changed the runs but not which streams admission let in). Without -s each
 * admits what the former code admitted (the rows do not move). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "config/scenario.h"
#include "qos/admit.h"
#include "repro/repro.h"
#include "routing/route.h"
#include "topology/generate.h"

static const double loads[3] = { 0.6, 0.7, 0.8 };
static const int per[3] = { 4, 16, 128 };
static const char *const files[3] = { "seed003/fig4-switch8.cfg", "seed003/fig4-switch8-s16.cfg",
                                      "seed003/fig4-switch8-vl11.cfg" };

static int node_named(const struct topo *t, const char *name)
{
    for (int i = 0; i < t->nnodes; i++)
        if (!strcmp(t->node[i].name, name))
            return i;
    return -1;
}

/* The former admissions' fabric: a generated topology routed by one engine, and the probe
 * scheme at cap 1 on it. */
static void probe_fabric(const char *gen, const char *args, const char *engine, struct topo *t,
                         struct lfts *l, struct cac *a)
{
    struct ibn_err e;
    assert_int_equal(topo_generate(gen, args, 1, t, &e), 0);
    assert_int_equal(route_compute(t, engine, NULL, l, &e), 0);
    struct cac_cfg c;
    cac_cfg_defaults(&c);
    c.scheme = CAC_PROBE;
    c.cap = 1.0;
    assert_int_equal(cac_init(a, t, l, &c, &e), 0);
}

/* Whether the probe admits request r (1) or refuses it (0). */
static int probe_admits(struct cac *a, const struct cac_req *r)
{
    struct cac_conn conn;
    int hop;
    simtime_t lat;
    return cac_admit(a, r, &conn, &hop, &lat) == CAC_OK;
}

/* The former admission, written out: the file without overrides, the 1.6 Gb/s switch built
 * apart, minhop, probe at cap 1, every stream asking for share x 1.6 Gb/s. */
static int former(int setup, double share, int *adm)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/scenarios/%s", IBN_SOURCE_DIR, files[setup]);
    struct scenario sc;
    struct ibn_err e;
    assert_int_equal(scenario_load(path, NULL, 0, &sc, &e), 0);
    struct topo t;
    struct lfts l;
    struct cac a;
    probe_fabric("single_switch", "ports=8,link=1.6Gb/s", "minhop", &t, &l, &a);
    int n = 0;
    for (int k = 0; k < 8 * per[setup]; k++) {
        char name[16];
        snprintf(name, sizeof name, "V%d", k + 1);
        const struct flow_desc *fd = NULL;
        for (int i = 0; i < sc.nflows && !fd; i++)
            if (!strcmp(sc.flows[i].name, name))
                fd = &sc.flows[i];
        assert_non_null(fd);
        struct cac_req r = { node_named(&t, fd->src), node_named(&t, fd->dst), (int)fd->sl,
                             share * 1.6e9, 0 };
        adm[k] = probe_admits(&a, &r);
        n += adm[k];
    }
    cac_free(&a);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return n;
}

/* The loads the reproduction gives its runs (seed003.c, f4_load_overrides). */
static int run_overrides(int setup, int li, char text[4][64], const char **over)
{
    snprintf(text[0], 64, "flows.*.load=%.6f", 0.8 * loads[li] / per[setup]);
    over[0] = text[0];
    return 1;
}

static void test_defaults_unchanged(void **st)
{
    (void)st;
    static int adm[1024], old[1024];
    repro_set_overrides(NULL, 0);
    for (int setup = 0; setup < 3; setup++)
        for (int li = 0; li < 3; li++) {
            char text[4][64];
            const char *over[4];
            int no = run_overrides(setup, li, text, over), ns = 0;
            struct ibn_err e;
            if (repro_s003_f4_admit(setup, over, no, adm, &ns, &e))
                fail_msg("%s", e.msg);
            assert_int_equal(ns, 8 * per[setup]);
            int nold = former(setup, 0.8 * loads[li] / per[setup], old), n = 0;
            for (int k = 0; k < ns; k++) {
                n += adm[k];
                assert_int_equal(adm[k], old[k]);
            }
            assert_int_equal(n, nold);
        }
}

/* -s flows.V1.load=0.9: V1 (H1's first stream) takes 0.9 of H1's link, so H1's other three
 * streams (0.12 each at load 0.6) no longer fit its link and are refused; without it all 32
 * fit (at most 7 x 0.12 = 0.84 of any link). */
static void test_user_override_reaches_admission(void **st)
{
    (void)st;
    int adm[32], ns = 0;
    char text[4][64];
    const char *over[4];
    int no = run_overrides(0, 0, text, over);
    struct ibn_err e;
    repro_set_overrides(NULL, 0);
    if (repro_s003_f4_admit(0, over, no, adm, &ns, &e))
        fail_msg("%s", e.msg);
    int n = 0;
    for (int k = 0; k < 32; k++)
        n += adm[k];
    assert_int_equal(n, 32);

    static const char *const user[1] = { "flows.V1.load=0.9" };
    repro_set_overrides(user, 1);
    if (repro_s003_f4_admit(0, over, no, adm, &ns, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(adm[0], 1);
    assert_int_equal(adm[1] + adm[2] + adm[3], 0);

    /* A topology the user names is the one admission uses: with 0.1 Gb/s host links a
     * stream's load is a share of those, and the switch of 8 ports becomes one of 9 (a host
     * H9 without streams) without changing which streams fit. A missing stream host is an
     * error, not a stream left out. */
    static const char *const topo9[1] = { "topology.args=ports=9,link=0.1Gb/s" };
    repro_set_overrides(topo9, 1);
    if (repro_s003_f4_admit(0, over, no, adm, &ns, &e))
        fail_msg("%s", e.msg);
    n = 0;
    for (int k = 0; k < 32; k++)
        n += adm[k];
    assert_int_equal(n, 32);
    static const char *const topo4[1] = { "topology.args=ports=4,link=1.6Gb/s" };
    repro_set_overrides(topo4, 1);
    assert_int_not_equal(repro_s003_f4_admit(0, over, no, adm, &ns, &e), 0);
    assert_non_null(strstr(e.msg, "has no stream"));
    repro_set_overrides(NULL, 0);
}

/* ---- Fig. 5 ---- */

static const double f5_loads[4] = { 0.2, 0.4, 0.6, 0.8 };

/* The former Fig. 5 admission, written out: the 5x5 mesh of 1.6 Gb/s links built apart,
 * dimension order, probe at cap 1, stream k from Hk to the fixed permutation below, every
 * stream asking for b. */
static int former5(double b, int adm[25])
{
    struct topo t;
    struct lfts l;
    struct cac a;
    probe_fabric("mesh", "dims=5x5,hosts=1,link=1.6Gb/s", "dor", &t, &l, &a);
    int n = 0;
    for (int k = 1; k <= 25; k++) {
        int d = ((k - 1) * 7 + 5) % 25 + 1;
        d = d == k ? k % 25 + 1 : d;
        char sn[16], dn[16];
        snprintf(sn, sizeof sn, "H%d", k);
        snprintf(dn, sizeof dn, "H%d", d);
        struct cac_req r = { node_named(&t, sn), node_named(&t, dn), 1, b, 0 };
        assert_true(r.src >= 0 && r.dst >= 0);
        adm[k - 1] = probe_admits(&a, &r);
        n += adm[k - 1];
    }
    cac_free(&a);
    lfts_free(&l);
    topo_free(&t);
    return n;
}

/* The overrides the reproduction gives Fig. 5's runs without admission (seed003.c, fig5()):
 * every stream at the mean rate b, best effort at 0.2 x load. */
static int f5_overrides(int li, char text[26][64], const char **over)
{
    double b = 0.8 * f5_loads[li] * 1.6e9;
    for (int k = 0; k < 25; k++) {
        snprintf(text[k], 64, "flows.RT%d.rate=%.6f Gb/s", k + 1, b / 1e9);
        over[k] = text[k];
    }
    snprintf(text[25], 64, "flows.BE.load=%.3f", 0.2 * f5_loads[li]);
    over[25] = text[25];
    return 26;
}

static int count(const int *adm, int n)
{
    int c = 0;
    for (int k = 0; k < n; k++)
        c += adm[k];
    return c;
}

static void test_f5_defaults_unchanged(void **st)
{
    (void)st;
    repro_set_overrides(NULL, 0);
    int total = 0;
    for (int li = 0; li < 4; li++) {
        char text[26][64];
        const char *over[26];
        int no = f5_overrides(li, text, over), adm[25], old[25];
        struct ibn_err e;
        if (repro_s003_f5_admit(over, no, adm, &e))
            fail_msg("%s", e.msg);
        int nold = former5(0.8 * f5_loads[li] * 1.6e9, old);
        for (int k = 0; k < 25; k++)
            assert_int_equal(adm[k], old[k]);
        assert_int_equal(count(adm, 25), nold);
        total += nold;
    }
    /* Not every load admits every stream, else the comparison would say little. */
    assert_true(total < 100);
}

/* A user's -s reaches Fig. 5's admission: the streams' rates, the topology's links, and a
 * missing stream is an error. */
static void test_f5_user_override_reaches_admission(void **st)
{
    (void)st;
    char text[26][64];
    const char *over[26];
    int no = f5_overrides(0, text, over), adm[25], base[25];
    struct ibn_err e;
    repro_set_overrides(NULL, 0);
    if (repro_s003_f5_admit(over, no, base, &e))
        fail_msg("%s", e.msg);
    int n0 = count(base, 25);

    assert_int_equal(n0, 25); /* at load 0.2 every stream fits */

    /* RT1 (H1 to H6) at the whole 1.6 Gb/s link, and RT11 sent to H6 as well: RT1 is admitted
     * (it asks first), RT11 is refused on H6's link, and the others are as before. */
    static const char *const rt1[2] = { "flows.RT1.rate=1.6 Gb/s", "flows.RT11.dst=H6" };
    repro_set_overrides(rt1, 2);
    if (repro_s003_f5_admit(over, no, adm, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(adm[0], 1);
    assert_int_equal(adm[10], 0);
    assert_int_equal(count(adm, 25), 24);

    /* Links of a quarter of the rate: fewer streams fit (the former code kept 1.6 Gb/s). */
    static const char *const slow[1] = { "topology.args=dims=5x5,hosts=1,link=0.4Gb/s" };
    repro_set_overrides(slow, 1);
    if (repro_s003_f5_admit(over, no, adm, &e))
        fail_msg("%s", e.msg);
    assert_true(count(adm, 25) < n0);

    /* A 4x4 mesh has no H17..H25: an error naming the stream, not streams left out. */
    static const char *const small[1] = { "topology.args=dims=4x4,hosts=1,link=1.6Gb/s" };
    repro_set_overrides(small, 1);
    assert_int_not_equal(repro_s003_f5_admit(over, no, adm, &e), 0);
    assert_non_null(strstr(e.msg, "has no stream RT"));
    repro_set_overrides(NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_unchanged),
        cmocka_unit_test(test_user_override_reaches_admission),
        cmocka_unit_test(test_f5_defaults_unchanged),
        cmocka_unit_test(test_f5_user_override_reaches_admission),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

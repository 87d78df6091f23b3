/* test_torus2qos_sim.c: torus-2QoS in the simulator: the fabric holds the engine's SL2VL table
 * on every switch (input port, output port) pair and its adapter map, each host's path SLs by
 * DLID equal the engine's, and packets travel on the VLs torus-2QoS(8) gives: on a 5x5 torus a
 * flow whose shorter x way wraps (S4_0 -> S1_0) rides the loop VL (1) on every x hop, a flow
 * that does not (S0_0 -> S2_0) VL 0, and the same flow on SL 8 (QoS level 1) VL 4 between
 * switches and VL 1 on its adapter link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "fabric/vlarb.h"

static uint64_t pkts(struct fabric *f, const struct topo *t, const char *node, const char *peer,
                     int vl)
{
    int n = topo_find(t, node), m = topo_find(t, peer);
    for (int p = 1; p <= t->node[n].nports; p++)
        if (t->node[n].port[p].peer_node == m)
            return f->nodes[n]->port[p].vl[fabric_slot(f, vl)].ctr.xmit_pkts;
    fail_msg("%s has no port to %s", node, peer);
    return 0;
}

static void test_tables_and_vls(void **state)
{
    (void)state;
    struct testsim s;
    ts_init(&s, "torus", "dims=5x5,hosts=1");
    lfts_free(&s.lfts);
    assert_int_equal(route_compute(&s.topo, "torus-2QoS", NULL, &s.lfts, &s.err), 0);
    s.d.set.nvls = 8;
    vlarb_table_default(&s.d.set.vlarb_sw, 8, 64);
    vlarb_table_default(&s.d.set.vlarb_ca, 8, 64);
    s.d.end = 200 * PS_PER_US;
    /* H5 is on S4_0, H2 on S1_0, H1 on S0_0, H3 on S2_0. */
    ts_flow(&s, "wrap", "H5", "H2", "poisson", "8 Gb/s", "2048", 0, SIMTIME_NEVER);
    ts_flow(&s, "direct", "H1", "H3", "poisson", "8 Gb/s", "2048", 0, SIMTIME_NEVER);
    ts_flow(&s, "qos1", "H1", "H3", "poisson", "8 Gb/s", "2048", 0, SIMTIME_NEVER)->sl = 8;
    ts_run(&s);
    struct fabric *f = &s.f;
    const struct topo *t = &s.topo;
    const struct lft_vlmap *m = s.lfts.vlmap;
    /* The tables the fabric holds are the engine's. */
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_SWITCH)
            continue;
        size_t np = (size_t)t->node[i].nports + 1;
        assert_non_null(node_sw(f->nodes[i])->sl2vl);
        assert_memory_equal(node_sw(f->nodes[i])->sl2vl, m->sw[i], np * np * 16);
    }
    assert_memory_equal(f->set.sl2vl_ca, m->ca, 16);
    for (int h = 0; h < f->nhosts; h++) {
        int src = -1;
        for (int i = 0; i < t->nnodes; i++)
            if (f->nodes[i] == f->hosts[h].node)
                src = i;
        for (int i = 0; i < t->nnodes; i++) {
            int lid = t->node[i].type == TOPO_SWITCH ? t->node[i].port[0].lid : t->node[i].port[1].lid;
            assert_int_equal(f->host_sl[h][lid], lft_vlmap_path_sl(m, t, src, i, 0));
        }
    }
    assert_true(ts_gbps(&s, "wrap") > 6 && ts_gbps(&s, "direct") > 6 && ts_gbps(&s, "qos1") > 6);
    /* wrap: S4_0 -> S0_0 -> S1_0 on VL 1; its adapter link on VL 0. */
    assert_true(pkts(f, t, "H5", "S4_0", 0) > 0);
    assert_int_equal(pkts(f, t, "H5", "S4_0", 1), 0);
    assert_true(pkts(f, t, "S4_0", "S0_0", 1) > 0);
    assert_int_equal(pkts(f, t, "S4_0", "S0_0", 0), 0);
    /* S0_0 -> S1_0 carries wrap (VL 1), direct (VL 0) and qos1 (VL 4). */
    uint64_t v1 = pkts(f, t, "S0_0", "S1_0", 1), v0 = pkts(f, t, "S0_0", "S1_0", 0);
    uint64_t v4 = pkts(f, t, "S0_0", "S1_0", 4);
    assert_true(v1 > 0 && v0 > 0 && v4 > 0);
    assert_int_equal(v1, pkts(f, t, "S4_0", "S0_0", 1));
    assert_int_equal(pkts(f, t, "S0_0", "S1_0", 5), 0);
    /* S1_0 -> S2_0: direct on VL 0, qos1 on VL 4; wrap has left at S1_0. */
    assert_int_equal(pkts(f, t, "S1_0", "S2_0", 1), 0);
    assert_int_equal(pkts(f, t, "S1_0", "S2_0", 0), v0);
    assert_int_equal(pkts(f, t, "S1_0", "S2_0", 4), v4);
    /* Adapter links: QoS level 1 on VL 1, towards the hosts too. */
    assert_true(pkts(f, t, "H1", "S0_0", 1) > 0 && pkts(f, t, "H1", "S0_0", 0) > 0);
    assert_true(pkts(f, t, "S2_0", "H3", 1) > 0 && pkts(f, t, "S2_0", "H3", 0) > 0);
    assert_int_equal(pkts(f, t, "S1_0", "H2", 1), 0);
    ts_free(&s);
}

/* Too few VLs for the tables: refused at build. */
static void test_too_few_vls(void **state)
{
    (void)state;
    struct testsim s;
    ts_init(&s, "torus", "dims=5x5,hosts=1");
    lfts_free(&s.lfts);
    assert_int_equal(route_compute(&s.topo, "torus-2QoS", NULL, &s.lfts, &s.err), 0);
    s.d.set.nvls = 4;
    assert_int_not_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    assert_non_null(strstr(s.err.msg, "programs VLs 0-7, but only 4 data VLs"));
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_and_vls),
        cmocka_unit_test(test_too_few_vls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_multipath_lmc.c: LMC multipath in the data path. On a 4-ary 2-tree with LMC 2 (4 LIDs
 * per host, which minhop routes over the 4 up ports of a leaf), one queue pair H1 -> H16 sends
 * 2-packet messages; the policy of its `path` key decides which LIDs, and so which up ports of
 * H1's leaf, its packets take:
 *   base      every packet on one up port (the base LID);
 *   message   round robin per message: each up port exactly a quarter (+-1 message);
 *   random    per packet: each port within 4 standard deviations of a quarter (binomial);
 *   qp        a fixed offset per queue pair: QP i uses offset i mod 4, one port each.
 * The per-offset counts the summary reports (flow.path_pkts) agree with the port counters.
 * With seed 004's path bits (routing pathbits, 7 bits, a 15-switch 23-link network), `shortest`
 * gives every pair of hosts a LID whose route is as short as the links the 7 bits use allow, and
 * `random` spreads packets over all 128 LIDs; beyond IBA (LMC 9, the paper's 9 bits) over all
 * 512, and adaptive packets get bits 8 and 9 chosen at the switches.
 * And the LID space: LMC 7 on the 648-host fat tree needs 82,944+ LIDs and is refused with the
 * numbers; LMC 6 fits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"
#include "routing/pathbits.h"

/* Packets sent on each up port of H1's leaf (up[0..3]); returns the number of up ports. */
static int leaf_up_pkts(struct testsim *s, uint64_t up[8])
{
    struct port *h1 = s->f.hosts[fabric_find_host(&s->f, "H1")].port;
    struct node *leaf = h1->peer->node;
    int n = 0;
    for (int p = 1; p <= leaf->nports; p++) {
        struct port *pt = &leaf->port[p];
        if (pt->peer && pt->peer->node->is_switch) {
            uint64_t x = 0;
            for (int v = 0; v < s->f.nvs; v++)
                x += pt->vl[v].ctr.xmit_pkts;
            up[n++] = x;
        }
    }
    return n;
}

static void run_policy(struct testsim *s, int path, int nflows)
{
    ts_init(s, "kary_ntree", "k=4,n=2");
    assert_int_equal(topo_set_lmc(&s->topo, 2, &s->err), 0);
    lfts_free(&s->lfts);
    assert_int_equal(route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err), 0);
    for (int i = 0; i < nflows; i++) {
        char name[16];
        snprintf(name, sizeof name, "Q%d", i);
        struct flow_desc *fd = ts_flow(s, name, "H1", "H16", "constant", "2 Gb/s", "4096 B", 0, 0);
        fd->path = path;
    }
    ts_run(s);
}

static void test_policies_spread(void **st)
{
    (void)st;
    struct testsim s;
    uint64_t up[8];

    run_policy(&s, PATH_BASE, 1);
    uint64_t sent = ts_find(&s, "Q0")->st.pkts_sent;
    assert_true(sent > 100);
    assert_int_equal(leaf_up_pkts(&s, up), 4);
    int used = 0;
    for (int k = 0; k < 4; k++)
        used += up[k] > 0;
    assert_int_equal(used, 1);
    ts_free(&s);

    run_policy(&s, PATH_MESSAGE, 1);
    struct flow *fl = ts_find(&s, "Q0");
    assert_int_equal(leaf_up_pkts(&s, up), 4);
    for (int k = 0; k < 4; k++) {
        assert_true(fabs((double)up[k] - (double)fl->st.pkts_sent / 4) <= 2.0);
        assert_true(fabs((double)fl->path_pkts[k] - (double)fl->st.pkts_sent / 4) <= 2.0);
    }
    ts_free(&s);

    run_policy(&s, PATH_RANDOM, 1);
    fl = ts_find(&s, "Q0");
    double n = (double)fl->st.pkts_sent, sd = sqrt(n * 0.25 * 0.75);
    assert_int_equal(leaf_up_pkts(&s, up), 4);
    uint64_t sum = 0;
    for (int k = 0; k < 4; k++) {
        assert_true(fabs((double)up[k] - n / 4) <= 4 * sd);
        assert_true(up[k] > 0);
        sum += fl->path_pkts[k];
    }
    assert_int_equal(sum, fl->st.pkts_sent);
    ts_free(&s);

    /* Four queue pairs: offsets 0..3, one up port each, all four used. */
    run_policy(&s, PATH_QP, 4);
    assert_int_equal(leaf_up_pkts(&s, up), 4);
    for (int k = 0; k < 4; k++) {
        fl = ts_find(&s, (char[]){ 'Q', (char)('0' + k), 0 });
        assert_int_equal(fl->path_pkts[k], fl->st.pkts_sent);
        assert_true(up[k] > 0);
    }
    ts_free(&s);
}

/* Switches on the route from host a to LID lid through the tables. */
static int lft_hops(struct testsim *s, int a, int lid)
{
    struct port *at = s->f.hosts[a].port->peer;
    int hops = 0;
    while (at->node->is_switch && hops < 64) {
        struct sw *w = node_sw(at->node);
        at = at->node->port[w->lft[lid]].peer;
        hops++;
    }
    return at->node->is_switch ? -1 : hops;
}

static void test_pathbits_shortest(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "irregular", "switches=15,ports=5,hosts=1,links=23,planar=1");
    assert_int_equal(topo_set_lmc(&s.topo, 7, &s.err), 0);
    lfts_free(&s.lfts);
    struct route_opts o = { .path_bits = 7 };
    assert_int_equal(route_compute(&s.topo, "pathbits", &o, &s.lfts, &s.err), 0);
    /* The graph the 7 path bits use (2 of the 9 non-tree links left out) and its distances. */
    struct pathbits pb;
    assert_int_equal(pathbits_build(&s.topo, NULL, 7, 0, &pb, &s.err), 0);
    ts_flow(&s, "S", "*", "uniform", "poisson", "1 Gb/s", "1024 B", 0, 0)->path = PATH_SHORTEST;
    ts_flow(&s, "R", "H1", "uniform", "poisson", "16 Gb/s", "1024 B", 0, 0)->path = PATH_RANDOM;
    ts_run(&s);
    assert_int_equal(s.f.max_lmc, 7);
    int longer = 0;
    for (int a = 0; a < s.f.nhosts; a++)
        for (int b = 0; b < s.f.nhosts; b++) {
            if (a == b)
                continue;
            int base = s.f.hosts[b].port->lid;
            int off = s.f.short_off[a * s.f.nhosts + b];
            int sa = pb.vert[s.f.hosts[a].port->peer->node->index];
            int sb = pb.vert[s.f.hosts[b].port->peer->node->index];
            int min = pb.dist[sa * pb.nsw + sb] + 1;
            assert_int_equal(lft_hops(&s, a, base + off), min);
            for (int k = 0; k < 128; k++) {
                int h = lft_hops(&s, a, base + k);
                assert_true(h >= min);
                longer += h > min;
            }
        }
    assert_true(longer > 0); /* the other patterns do take longer paths */
    struct flow *r = ts_find(&s, "R");
    for (int k = 0; k < 128; k++)
        assert_true(r->path_pkts[k] > 0);
    pathbits_free(&pb);
    ts_free(&s);
}

/* Beyond IBA (topology.lmc_beyond_iba): the 15-node network's 9 path bits as LMC 9. Random
 * bits reach all 512 LIDs of a host; adaptive packets (LFU) get bits 8 and 9 decided at the
 * switches as the others (packet.pb holds them), and every packet arrives at a LID of its
 * destination. */
static void test_pathbits_beyond_iba(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "irregular", "switches=15,ports=5,hosts=1,links=23,planar=1");
    assert_int_equal(topo_set_lmc(&s.topo, 9, &s.err), 0);
    lfts_free(&s.lfts);
    struct route_opts o = { .max_path_bits = PB_SIM_MAX };
    assert_int_equal(route_compute(&s.topo, "pathbits", &o, &s.lfts, &s.err), 0);
    s.d.end = 5 * PS_PER_MS;
    s.d.set.adaptive = 1; /* lfu */
    ts_flow(&s, "R", "H1", "uniform", "poisson", "16 Gb/s", "1024 B", 0, 0)->path = PATH_RANDOM;
    ts_flow(&s, "A", "*", "uniform", "poisson", "0.2 Gb/s", "1024 B", 0, 0)->path = PATH_ADAPTIVE;
    ts_run(&s);
    assert_int_equal(s.f.max_lmc, 9);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    assert_int_equal(s.f.cnt.misdelivered, 0);
    struct flow *r = ts_find(&s, "R");
    for (int k = 0; k < 512; k++)
        assert_true(r->path_pkts[k] > 0);
    uint64_t upper = 0, all = 0;
    for (uint32_t i = 0; i < s.f.nflows; i++) {
        struct flow *a = &s.f.flows[i];
        if (a->path != PATH_ADAPTIVE)
            continue;
        for (int k = 0; k < 512; k++)
            all += a->path_pkts[k], upper += k >= 128 ? a->path_pkts[k] : 0;
    }
    printf("adaptive: %llu of %llu packets arrived on a LID with bit 8 or 9 set\n",
           (unsigned long long)upper, (unsigned long long)all);
    assert_true(all > 1000);
    assert_true(upper > all / 10);
    ts_free(&s);
}

static void test_lid_space(void **st)
{
    (void)st;
    struct topo t;
    struct ibn_err e = { { 0 } };
    assert_int_equal(topo_generate("fattree", "ports=36,levels=2", 1, &t, &e), 0);
    assert_int_equal(topo_set_lmc(&t, 7, &e), -1);
    assert_non_null(strstr(e.msg, "648 adapter ports"));
    assert_non_null(strstr(e.msg, "128 LIDs"));
    assert_non_null(strstr(e.msg, "49151"));
    assert_int_equal(topo_set_lmc(&t, 6, &e), 0);
    assert_true(topo_max_lid(&t) <= TOPO_MAX_UCAST_LID);
    assert_true(topo_max_lid(&t) >= 648 * 64);
    assert_int_equal(topo_set_lmc(&t, 8, &e), -1);
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policies_spread),
        cmocka_unit_test(test_pathbits_shortest),
        cmocka_unit_test(test_pathbits_beyond_iba),
        cmocka_unit_test(test_lid_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

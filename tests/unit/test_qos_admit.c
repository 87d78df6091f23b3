/* test_qos_admit.c: connection admission control along routes (src/qos/admit.c, conn.c) on
 * a chain of three switches H1-S0-S1-S2-H3 at 2.5 Gb/s: routes as output ports, hop-by-hop
 * admission with rollback of upstream reservations, the subnet-manager form giving the same
 * reservations, seed 000's per-SL sum (strict p + s_sl < bw_sl), seed 003's probe (weights
 * from bandwidth only, ACK/NACK latency), impossible requests refused with their reason,
 * deadlines turned into distances and the guaranteed bound within the deadline, the setup
 * latency model, and the dynamic request process releasing everything it reserved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "qos/admit.h"
#include "qos/arbtab.h"
#include "qos/conn.h"
#include "routing/route.h"
#include "topology/generate.h"

struct net {
    struct topo t;
    struct lfts l;
    int h1, h2, h3;
};

static void net_init(struct net *n)
{
    struct ibn_err e;
    assert_int_equal(topo_generate("mesh", "dims=3x1,hosts=1,link=2.5Gb/s", 1, &n->t, &e), 0);
    struct route_opts ro = { .seed = 1 };
    assert_int_equal(route_compute(&n->t, "minhop", &ro, &n->l, &e), 0);
    n->h1 = topo_find(&n->t, "H1");
    n->h2 = topo_find(&n->t, "H2");
    n->h3 = topo_find(&n->t, "H3");
    assert_true(n->h1 >= 0 && n->h2 >= 0 && n->h3 >= 0);
}

static void net_free(struct net *n)
{
    lfts_free(&n->l);
    topo_free(&n->t);
}

/* The chain, Table 2's SLs and admission control with `scheme`. */
static void setup(struct net *n, struct cac *a, struct cac_cfg *c, enum cac_scheme scheme)
{
    struct ibn_err e;
    struct conn_gen g;
    net_init(n);
    cac_cfg_defaults(c);
    conn_table2(&g, c);
    c->scheme = scheme;
    assert_int_equal(cac_init(a, &n->t, &n->l, c, &e), 0);
}

static struct cac_req req(int src, int dst, int sl, double bw)
{
    struct cac_req r = { .src = src, .dst = dst, .sl = sl, .bw = bw };
    return r;
}

static void test_route(void **st)
{
    (void)st;
    struct net n;
    net_init(&n);
    struct cac a;
    struct cac_cfg c;
    struct ibn_err e;
    cac_cfg_defaults(&c);
    assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
    int32_t hop[CAC_MAX_HOPS];
    assert_int_equal(cac_route(&a, n.h1, n.h3, hop, CAC_MAX_HOPS), 4); /* H1, S0, S1, S2 */
    assert_int_equal(hop[0], cac_port(&a, n.h1, 1));
    assert_int_equal(cac_route(&a, n.h1, n.h2, hop, CAC_MAX_HOPS), 3);
    assert_int_equal(cac_route(&a, n.h1, n.h1, hop, CAC_MAX_HOPS), -1);
    cac_free(&a);
    net_free(&n);
}

static void test_rollback_and_sm(void **st)
{
    (void)st;
    struct net n;
    net_init(&n);
    for (int scheme = CAC_HOP; scheme <= CAC_SM; scheme++) {
        struct cac a;
        struct cac_cfg c;
        struct ibn_err e;
        struct conn_gen g;
        cac_cfg_defaults(&c);
        conn_table2(&g, &c);
        c.scheme = (enum cac_scheme)scheme;
        assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
        struct cac_conn cn;
        int at;
        simtime_t lat;
        /* Fill S1 -> S2 with H2 -> H3 connections of 250 Mb/s (SL 9): 8 fit under 2000 Mb/s. */
        int k = 0;
        while (cac_admit(&a, &(struct cac_req){ .src = n.h2, .dst = n.h3, .sl = 9, .bw = 250e6 }, &cn, &at,
                         &lat) == CAC_OK)
            k++;
        assert_int_equal(k, 8);
        assert_int_equal(at, 0); /* H2's own port is as full: the source adapter refuses */
        int32_t hop[CAC_MAX_HOPS];
        assert_int_equal(cac_route(&a, n.h1, n.h3, hop, CAC_MAX_HOPS), 4);
        /* H1 -> H3 is refused at hop 2 (S1 -> S2); H1's port and S0 -> S1 keep nothing. */
        struct cac_req r = req(n.h1, n.h3, 9, 100e6);
        assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), (int)QP_REJ_BW);
        assert_int_equal(at, 2);
        assert_true(a.port[hop[0]].reserved == 0 && a.port[hop[0]].taken == 0);
        assert_true(a.port[hop[1]].reserved == 0 && a.port[hop[1]].taken == 0);
        assert_int_equal(a.st.rejected_at_hop[2], 1);
        /* Latency: hop-by-hop refusal crosses 2 links and back (through S0 to H1); the SM
         * (S0) is one link away. A link: 64 B at 2.5 Gb/s + 10 ns, + 100 ns into a switch. */
        simtime_t link_sw = 204800 + 10000 + 100000, link_ca = 204800 + 10000;
        if (scheme == CAC_HOP)
            assert_int_equal(lat, 2 * link_sw + (link_sw + link_ca));
        else
            assert_int_equal(lat, link_sw + link_ca);
        /* An accepted H1 -> H2 connection holds its entries at all three output ports. */
        r = req(n.h1, n.h2, 3, 1e6);
        assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
        assert_int_equal(cn.nhops, 3);
        for (int h = 0; h < 3; h++) {
            assert_int_equal(a.port[cn.hop[h]].vl[3].dist, 16);
            assert_int_equal(a.port[cn.hop[h]].vl[3].entries, 4);
        }
        /* bound: three hop bounds at distance 16 plus three 10-ns links */
        assert_int_equal(cn.bound, 3 * arbtab_hop_bound(16, 256, 2.5e9, 3, 0) + 30000);
        cac_release(&a, &cn);
        for (int h = 0; h < 3; h++)
            assert_int_equal(a.port[cn.hop[h]].taken, 0);
        cac_free(&a);
    }
    net_free(&n);
}

static void test_impossible(void **st)
{
    (void)st;
    struct net n;
    struct cac a;
    struct cac_cfg c;
    struct ibn_err e;
    setup(&n, &a, &c, CAC_HOP);
    struct cac_conn cn;
    int at;
    simtime_t lat;
    struct cac_req r = req(n.h1, n.h3, 9, 3e9);
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), (int)QP_REJ_LINK);
    assert_int_equal(at, -1);
    r = req(n.h1, n.h3, 12, 1e6); /* SL 12 is not guaranteed traffic in Table 2's set-up */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_SL);
    cac_free(&a);
    /* Deadlines decide distances when the SLs have none. */
    for (int s = 0; s < 16; s++)
        c.sl_dist[s] = 0;
    assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
    r = req(n.h1, n.h3, 3, 1e6);
    r.deadline = 4 * arbtab_hop_bound(2, 256, 2.5e9, 3, 0) - 1; /* each hop's share below T_hop(2) */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_DEADLINE);
    r.deadline = 50000000000LL; /* 50 ms: 12.5 ms per hop -> distance 60 -> CESY 32 */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    assert_int_equal(cn.dist, arbtab_distance_for((r.deadline - 40000) / 4, 256, 2.5e9, 3, 0));
    assert_int_equal(a.port[cn.hop[0]].vl[3].dist, 32);
    assert_true(cn.bound <= r.deadline);
    assert_int_equal(a.st.rejected[CAC_DEADLINE], 1);
    cac_free(&a);
    net_free(&n);
}

/* The hop bound with the multiplexed crossbar (docs/qos.md "The hop bound"): switch output
 * ports add the turns their inputs' read port can take (k = 59 for one read port and 60
 * packets per input), the source adapter's port none; with a read port per output the bound
 * is the table's alone; a deadline then maps to a shorter distance. */
static void test_crossbar_bound(void **st)
{
    (void)st;
    struct net n;
    struct cac a;
    struct cac_cfg c;
    struct ibn_err e;
    struct conn_gen g;
    struct cac_conn cn;
    int at;
    simtime_t lat;
    net_init(&n);
    cac_cfg_defaults(&c);
    conn_table2(&g, &c);
    for (int rp = 0; rp <= 1; rp++) {
        c.read_ports = rp;
        c.in_pkts = 60;
        assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
        struct cac_req r = req(n.h1, n.h2, 0, 1e6); /* SL 0: distance 2 */
        assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
        assert_int_equal(cn.nhops, 3);
        assert_int_equal(cac_xbar_turns(&a, cn.hop[0]), 0); /* H1's adapter port */
        for (int h = 1; h < 3; h++)
            assert_int_equal(cac_xbar_turns(&a, cn.hop[h]), rp ? 59 : 0);
        simtime_t t0 = arbtab_hop_bound(2, 256, 2.5e9, 3, 0), tx = arbtab_hop_bound(2, 256, 2.5e9, 3, 59);
        assert_int_equal(cn.bound, t0 + 2 * (rp ? tx : t0) + 30000);
        cac_free(&a);
    }
    /* Deadlines: 45 ms from H1 to H2 (3 ports, 15 ms each) is distance 64 for the table alone;
     * with the crossbar the switch ports need 5 (CESY: 4) and the bound stays within it. */
    for (int s = 0; s < 16; s++)
        c.sl_dist[s] = 0;
    c.read_ports = 1;
    assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
    struct cac_req r = req(n.h1, n.h2, 3, 1e6);
    r.deadline = 45000000000LL;
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    simtime_t share = (r.deadline - 30000) / 3;
    assert_int_equal(arbtab_distance_for(share, 256, 2.5e9, 3, 0), 64);
    assert_int_equal(arbtab_distance_for(share, 256, 2.5e9, 3, 59), 5);
    assert_int_equal(a.port[cn.hop[0]].vl[3].dist, 64);
    assert_int_equal(a.port[cn.hop[1]].vl[3].dist, 4);
    assert_true(cn.bound <= r.deadline);
    cac_free(&a);
    net_free(&n);
}

static void test_sum_and_probe(void **st)
{
    (void)st;
    struct net n;
    struct cac a;
    struct cac_cfg c;
    struct ibn_err e;
    setup(&n, &a, &c, CAC_SUM); /* sum: bw_sl = 0.1 * 0.8 * 2.5 Gb/s = 200 Mb/s */
    struct cac_conn cn;
    int at;
    simtime_t lat;
    struct cac_req r = req(n.h1, n.h2, 9, 100e6);
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    /* accepted: the probe reaches the destination over three links */
    simtime_t link_sw = 204800 + 10000 + 100000, link_ca = 204800 + 10000;
    assert_int_equal(lat, 2 * link_sw + link_ca);
    /* 100 + 100 = 200 is not < 200: refused (strict), at the source adapter */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_SL_SHARE);
    assert_int_equal(at, 0);
    r.bw = 99e6;
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    r.sl = 8; /* other SLs have their own share */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    cac_free(&a);

    c.scheme = CAC_PROBE;
    assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
    r = req(n.h1, n.h3, 0, 1e6); /* SL 0 wants distance 2; the probe scheme ignores distances */
    assert_int_equal(cac_admit(&a, &r, &cn, &at, &lat), CAC_OK);
    assert_int_equal(a.port[cn.hop[0]].vl[0].dist, 64);
    assert_int_equal(a.port[cn.hop[0]].vl[0].entries, 1);
    /* probe forward over 4 links (3 to switches, 1 to H3), ACK from S2 back to H1 (3 links) */
    assert_int_equal(lat, (3 * link_sw + link_ca) + (2 * link_sw + link_ca));
    cac_free(&a);
    net_free(&n);
}

static void test_dynamic_releases(void **st)
{
    (void)st;
    struct net n;
    net_init(&n);
    struct cac a;
    struct cac_cfg c;
    struct ibn_err e;
    struct conn_gen g;
    cac_cfg_defaults(&c);
    memset(&g, 0, sizeof g);
    conn_table2(&g, &c);
    g.mode = CONN_DYNAMIC;
    g.rate = 1000;
    g.hold = 0.5; /* ~500 live on average: the links are near full */
    g.max_requests = 20000;
    g.seed = 3;
    assert_int_equal(cac_init(&a, &n.t, &n.l, &c, &e), 0);
    struct conn_set s;
    assert_int_equal(conn_run(&a, &g, &s, &e), 0);
    assert_true(s.n > 50);
    assert_true(a.st.released > 1000);
    assert_true(a.st.accepted - a.st.released == (uint64_t)s.n);
    char why[160];
    for (int i = 0; i < a.nports; i++) {
        struct qport_cfg pc = { a.rate[i] > 0 ? a.rate[i] : 1, c.cap, c.method, c.repack, c.allowed };
        if (qport_check(&a.port[i], &pc, why, sizeof why))
            fail_msg("port %d: %s", i, why);
    }
    for (int i = 0; i < s.n; i++)
        cac_release(&a, &s.c[i].conn);
    for (int i = 0; i < a.nports; i++)
        assert_true(a.port[i].taken == 0 && a.port[i].reserved == 0);
    conn_set_free(&s);
    cac_free(&a);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route),      cmocka_unit_test(test_rollback_and_sm),
        cmocka_unit_test(test_impossible), cmocka_unit_test(test_crossbar_bound), cmocka_unit_test(test_sum_and_probe),
        cmocka_unit_test(test_dynamic_releases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_adaptive.c: adaptive output choice at switches (seed 004's unreliable datagrams) on the
 * Fig. 4 network with its 2 path bits as LMC 2 (routing pathbits, root b).
 *  - The candidates at switch a for Hd are its two table ports (P1 = 0: port 1 to b, P1 = 1:
 *    port 2 to c): LFU takes the one that has routed fewer packets, and the packet's DLID and
 *    fixed bits follow (P1 fixed, P2 left to the switches on C2).
 *  - Max-Credit takes the port whose downstream buffer grants more credits.
 *  - In a run (Ha -> Hd, adaptive, LFU), a's two ports carry the flow's packets within one of
 *    each other, every packet arrives at its LID (no misdelivery), the LID a packet ended with
 *    says which way it went, and b's two ports for it are balanced as well; without a policy
 *    every packet keeps the base LID and one port. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/fig4.h"
#include "../support/sim.h"
#include "fabric/adapt.h"

static void fig4_sim(struct testsim *s, int adaptive)
{
    memset(s, 0, sizeof *s);
    fig4_topo(&s->topo);
    assert_int_equal(topo_set_lmc(&s->topo, 2, &s->err), 0);
    struct route_opts o = { .roots = "b" };
    assert_int_equal(route_compute(&s->topo, "pathbits", &o, &s->lfts, &s->err), 0);
    fabric_settings_defaults(&s->d.set);
    s->d.set.adaptive = adaptive;
    s->d.end = PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
}

static struct packet *probe(struct testsim *s, uint32_t *idx)
{
    *idx = pktpool_alloc(&s->f.pool);
    struct packet *p = pkt(&s->f.pool, *idx);
    memset(p, 0, sizeof *p);
    p->dst_lid = s->f.hosts[fabric_find_host(&s->f, "Hd")].port->lid;
    p->pb = PB_ADAPTIVE;
    p->in_port = 5;
    return p;
}

static void test_choice(void **st)
{
    (void)st;
    struct testsim s;
    fig4_sim(&s, 1); /* lfu */
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    struct sw *a = node_sw(s.f.nodes[topo_find(&s.topo, "a")]);
    assert_int_equal(a->pb_local, 1); /* a lies on C1 only */
    int base = s.f.hosts[fabric_find_host(&s.f, "Hd")].port->lid;
    uint64_t *used = a->adapt_state;
    used[1] = 5, used[2] = 3;
    uint32_t i;
    struct packet *p = probe(&s, &i);
    assert_int_equal(adapt_route(&s.f, a, p, 1), 2);
    assert_int_equal(p->dst_lid, base + 1); /* P1 = 1 */
    assert_int_equal(p->pb, PB_ADAPTIVE | 1);
    /* Fixed: a second visit cannot change it. */
    used[2] = 99;
    assert_int_equal(adapt_route(&s.f, a, p, 2), 2);
    used[1] = 2;
    p = probe(&s, &i);
    assert_int_equal(adapt_route(&s.f, a, p, 2), 1);
    assert_int_equal(p->dst_lid, base);
    fabric_free(&s.f);
    lfts_free(&s.lfts);
    topo_free(&s.topo);

    fig4_sim(&s, 2); /* max_credit */
    assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    a = node_sw(s.f.nodes[topo_find(&s.topo, "a")]);
    a->n.port[1].vl[0].credits = 10;
    a->n.port[2].vl[0].credits = 40;
    p = probe(&s, &i);
    assert_int_equal(adapt_route(&s.f, a, p, 1), 2);
    a->n.port[1].vl[0].credits = 41;
    p = probe(&s, &i);
    assert_int_equal(adapt_route(&s.f, a, p, 2), 1);
    fabric_free(&s.f);
    lfts_free(&s.lfts);
    topo_free(&s.topo);
}

static void run_flow(struct testsim *s, int adaptive, uint64_t ports[3])
{
    fig4_sim(s, adaptive);
    ts_flow(s, "U", "Ha", "Hd", "poisson", "1 Gb/s", "1024 B", 0, 0)->path = PATH_ADAPTIVE;
    ts_run(s);
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
    assert_int_equal(s->f.cnt.misdelivered, 0);
    struct node *a = s->f.nodes[topo_find(&s->topo, "a")];
    for (int k = 1; k <= 2; k++)
        ports[k] = a->port[k].vl[0].ctr.xmit_pkts;
}

static void test_run(void **st)
{
    (void)st;
    struct testsim s;
    uint64_t ports[3];
    run_flow(&s, 1, ports);
    struct flow *u = ts_find(&s, "U");
    assert_true(u->st.pkts_delivered > 50);
    assert_true(ports[1] + ports[2] == u->st.pkts_sent);
    assert_true(ports[1] > ports[2] ? ports[1] - ports[2] <= 1 : ports[2] - ports[1] <= 1);
    /* The LID each packet ended with is the route it took: P1 = 1 went through c. */
    assert_int_equal(u->path_pkts[1] + u->path_pkts[3], ports[2]);
    assert_int_equal(u->path_pkts[0] + u->path_pkts[2], ports[1]);
    /* At b the packets for d (from a directly, or back from c) and those sent on to c are
     * balanced too: LFU sends a's share on through c, so the longer routes abcd and acbd
     * carry nearly everything (offsets 2 and 1), the way LFU counts every packet a port
     * routes. */
    uint64_t *bu = node_sw(s.f.nodes[topo_find(&s.topo, "b")])->adapt_state;
    assert_true(bu[3] > bu[2] ? bu[3] - bu[2] <= 1 : bu[2] - bu[3] <= 1);
    assert_true(u->path_pkts[1] + u->path_pkts[2] > u->path_pkts[0] + u->path_pkts[3]);
    ts_free(&s);
    run_flow(&s, 0, ports);
    u = ts_find(&s, "U");
    assert_int_equal(u->path_pkts[0], u->st.pkts_sent);
    assert_true(ports[1] == 0 || ports[2] == 0);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

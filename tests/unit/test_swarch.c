/* test_swarch.c: the switch-architecture interface (fabric/swarch.h): the table of
 * architectures is complete (an alias names an earlier entry), switch.arch names every entry, congestion-management messages sent
 * upstream reach the output port (or adapter) at the other end of the cable one propagation
 * delay later with their contents, and the message pool reuses its slots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../support/sim.h"
#include "fabric/swarch.h"

static void test_table(void **st)
{
    (void)st;
    int n = 0;
    for (; sw_archs[n]; n++) {
        const struct sw_arch *a = sw_archs[n];
        assert_non_null(sw_arch_names[n]);
        if (strcmp(a->name, sw_arch_names[n])) { /* an alias: of an earlier entry */
            int k = 0;
            while (k < n && strcmp(sw_arch_names[k], a->name))
                k++;
            assert_true(k < n);
            assert_ptr_equal(sw_archs[k], a);
        }
        assert_non_null(a->init);
        assert_non_null(a->free);
        assert_non_null(a->enqueue);
        assert_non_null(a->head);
        assert_non_null(a->dequeue);
        assert_non_null(a->held);
        assert_true(a->default_read_ports >= 0);
    }
    assert_null(sw_arch_names[n]);
    assert_true(n >= 2);
    /* The switch.arch key offers exactly these names. */
    char why[128];
    struct fabric_settings set;
    fabric_settings_defaults(&set);
    const struct param *p = params_find(switch_params, "arch");
    for (int i = 0; i < n; i++) {
        assert_int_equal(param_set(p, &set, sw_arch_names[i], why, sizeof why), 0);
        assert_int_equal(set.arch, i);
    }
    assert_int_not_equal(param_set(p, &set, "crossbar", why, sizeof why), 0);
}

/* H1 -- S1 -- S2 -- H2, every cable 30 ns long. */
static void line2(struct testsim *s)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int s1 = topo_add_node(&s->topo, TOPO_SWITCH, "S1", 2), s2 = topo_add_node(&s->topo, TOPO_SWITCH, "S2", 2);
    int h1 = topo_add_node(&s->topo, TOPO_CA, "H1", 1), h2 = topo_add_node(&s->topo, TOPO_CA, "H2", 1);
    simtime_t d = 30 * PS_PER_NS;
    if (topo_connect(&s->topo, h1, 1, s1, 1, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, s1, 2, s2, 1, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, s2, 2, h2, 1, 4, IB_QDR, 0, d, &s->err))
        abort();
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    s->d.end = PS_PER_US;
    s->d.drain_limit = PS_PER_MS;
    s->d.seed = 1;
}

/* What the receiving ends saw. */
static struct { int n; simtime_t t[8]; int port[8]; int is_sw[8]; struct sw_msg m[8]; } seen;

static void record(struct fabric *f, struct port *at, const struct sw_msg *m)
{
    if (seen.n < 8) {
        seen.t[seen.n] = f->now;
        seen.port[seen.n] = at->num;
        seen.is_sw[seen.n] = at->is_switch;
        seen.m[seen.n] = *m;
    }
    seen.n++;
}

static void sw_on_msg(struct fabric *f, struct sw *s, int out, const struct sw_msg *m)
{
    record(f, &s->n.port[out], m);
}

static struct sw_arch probe; /* the VOQ switch with an on_msg that records */

struct send_at { struct fabric_call call; struct port *from; struct sw_msg m; };

static void do_send(struct fabric *f, void *arg)
{
    struct send_at *x = arg;
    sw_send_upstream(f, x->from, &x->m);
}

static void test_upstream_messages(void **st)
{
    (void)st;
    struct testsim s;
    line2(&s);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        abort();
    probe = *sw_archs[0];
    probe.on_msg = sw_on_msg;
    struct sw *s1 = node_sw(s.f.nodes[0]), *s2 = node_sw(s.f.nodes[1]);
    s1->arch = s2->arch = &probe;
    s.f.hca_on_msg = record;
    memset(&seen, 0, sizeof seen);
    /* S2's input 1 tells S1 (its output 2); S1's input 1 tells adapter H1. Three messages,
     * two at the same time, the third after the first has been delivered (slot reuse). */
    struct send_at a = { { do_send, &a }, &s2->n.port[1], { .type = 7, .hops = 1, .line = 3, .ndst = 2, .dst = { 4, 5 } } };
    struct send_at b = { { do_send, &b }, &s1->n.port[1], { .type = 8, .hops = 2, .line = 1, .ndst = 1, .dst = { 9 } } };
    struct send_at c = { { do_send, &c }, &s2->n.port[1], { .type = 9, .hops = 1, .line = 0, .ndst = 0 } };
    fabric_schedule_call(&s.f, 100 * PS_PER_NS, &a.call);
    fabric_schedule_call(&s.f, 100 * PS_PER_NS, &b.call);
    fabric_schedule_call(&s.f, 200 * PS_PER_NS, &c.call);
    if (fabric_run(&s.f, NULL, &s.rep, &s.err))
        abort();
    assert_int_equal(seen.n, 3);
    /* At S1 output 2, 30 ns later, with its contents. */
    assert_true(seen.t[0] == 130 * PS_PER_NS && seen.is_sw[0] && seen.port[0] == 2);
    assert_int_equal(seen.m[0].type, 7);
    assert_int_equal(seen.m[0].hops, 1);
    assert_int_equal(seen.m[0].line, 3);
    assert_int_equal(seen.m[0].ndst, 2);
    assert_int_equal(seen.m[0].dst[1], 5);
    /* At adapter H1. */
    assert_true(seen.t[1] == 130 * PS_PER_NS && !seen.is_sw[1] && seen.port[1] == 1);
    assert_int_equal(seen.m[1].type, 8);
    assert_int_equal(seen.m[1].dst[0], 9);
    assert_true(seen.t[2] == 230 * PS_PER_NS && seen.m[2].type == 9);
    /* Two slots were ever in use at once: the pool holds them all free again. */
    uint32_t nfree = 0;
    for (uint32_t i = s.f.msgs_free; i != UINT32_MAX; i = s.f.msgs[i].next_free)
        nfree++;
    assert_int_equal(nfree, s.f.msgs_cap);
    assert_true(s.rep.invariants_ok);
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_upstream_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

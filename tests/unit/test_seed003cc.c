/* test_seed003cc.c: seed 003's comparison schemes (src/cc/alo.c, src/cc/selftuned.c), their
 * defining rules. ALO on a line of three switches (H1 - S0_0 - S1_0 - S2_0 - H3, H2 on S1_0): a
 * packet from H2 to H3 may go while the useful output (S1_0 towards S2_0) has a free VL, or
 * another switch output of S1_0 has every VL free, and not otherwise; a VL with a packet
 * waiting for it is not free. Self-Tuned: the hill climbing (additive increase while throttled
 * without a throughput drop, multiplicative decrease on a drop), the count of full buffers, and
 * in a run: with T at every buffer it never throttles and the run is the one without control;
 * with T = 0 under a hot spot it throttles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>

#include "../support/sim.h"
#include "cc/cc.h"
#include "cc/seed003cc.h"
#include "fabric/swarch.h"

static void dset(const struct param *t, void *d, const char *key, const char *value)
{
    char why[256];
    if (param_set(params_find(t, key), d, value, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", key, why);
        fail();
    }
}

static struct sw *find_sw(struct fabric *f, const char *name)
{
    for (int i = 0; i < f->nnodes; i++)
        if (f->nodes[i] && f->nodes[i]->is_switch && !strcmp(f->nodes[i]->name, name))
            return node_sw(f->nodes[i]);
    fail();
    return NULL;
}

static int host_index(struct fabric *f, const char *name)
{
    for (int h = 0; h < f->nhosts; h++)
        if (!strcmp(f->hosts[h].node->name, name))
            return h;
    fail();
    return -1;
}

static void line3(struct testsim *s, int nvls)
{
    ts_init(s, "mesh", "dims=3x1,hosts=1");
    s->d.set.nvls = nvls;
    ts_flow(s, "F", "H2", "H3", "poisson", "1 Gb/s", "640 B", 0, 0);
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err))
        fail();
    assert_int_equal(cc_attach(&s->f, &alo_plugin, NULL, &s->err), 0);
}

/* Mesh ports with one host: 1 the host, 2 the lower x neighbour, 3 the higher. */
static void occupy(struct sw *s, int port, int slot)
{
    s->n.port[port].vl[slot].credits = s->n.port[port].vl[slot].credit_cap - 1;
}

static void test_alo_rule(void **st)
{
    (void)st;
    struct testsim s;
    line3(&s, 1);
    struct fabric *f = &s.f;
    struct sw *mid = find_sw(f, "S1_0");
    struct port *src = f->hosts[host_index(f, "H2")].port;
    int h3 = host_index(f, "H3");
    assert_int_equal(mid->lft[f->hosts[h3].port->lid], 3); /* the useful channel */
    assert_true(alo_allows(f, src, h3));                   /* everything free */
    occupy(mid, 3, 0);
    assert_true(alo_allows(f, src, h3));  /* the useful VL taken, but S1_0 -> S0_0 all free */
    occupy(mid, 2, 0);
    assert_false(alo_allows(f, src, h3)); /* neither condition */
    /* The ejection channel to H2 (free) is no physical channel of the network for ALO. */
    assert_int_equal(f->hooks.dest_ready(f, &f->flows[0], h3), f->now + PS_PER_US);
    ts_free(&s);

    line3(&s, 2);
    f = &s.f;
    mid = find_sw(f, "S1_0");
    src = f->hosts[host_index(f, "H2")].port;
    h3 = host_index(f, "H3");
    occupy(mid, 3, 0);
    occupy(mid, 2, 0);
    assert_true(alo_allows(f, src, h3));  /* VL 1 of the useful channel is free */
    sw_req(mid, f, 3, 1)[0] |= 1;         /* a packet waits at an input for (port 3, VL 1) */
    assert_false(alo_allows(f, src, h3));
    sw_req(mid, f, 3, 1)[0] = 0;
    occupy(mid, 3, 1);
    assert_false(alo_allows(f, src, h3));
    ts_free(&s);
}

static void test_st_tune(void **st)
{
    (void)st;
    struct st_tuner t = { .threshold = 10, .step = 1, .decrease = 0.5, .drop = 0.1 };
    assert_true(fabs(st_tune(&t, 100, 1) - 11) < 1e-12); /* no history: throttled, so up */
    assert_true(fabs(st_tune(&t, 95, 1) - 12) < 1e-12);  /* 95 >= 0.9 x 100: no drop */
    assert_true(fabs(st_tune(&t, 80, 1) - 6) < 1e-12);   /* 80 < 0.9 x 95: halved */
    assert_true(fabs(st_tune(&t, 80, 0) - 6) < 1e-12);   /* not throttled: unchanged */
    assert_true(fabs(st_tune(&t, 71, 0) - 3) < 1e-12);   /* a drop halves it throttled or not */
}

static void test_st_count(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    ts_flow(&s, "F", "H1", "H2", "poisson", "1 Gb/s", "640 B", 0, 0);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        fail();
    struct fabric *f = &s.f;
    struct sw *sw = find_sw(f, "S1");
    assert_int_equal(st_count_full(f, 11), 0);
    struct port_vl *v = &sw->n.port[1].vl[0];
    v->rx_used = v->rx_cap - 11;   /* room for one more 11-credit packet: not full */
    assert_int_equal(st_count_full(f, 11), 0);
    v->rx_used = v->rx_cap - 10;
    assert_int_equal(st_count_full(f, 11), 1);
    sw->n.port[4].vl[0].rx_used = sw->n.port[4].vl[0].rx_cap;
    assert_int_equal(st_count_full(f, 11), 2);
    f->flows[0].qn = f->flows[0].qmax; /* a full source queue (the HCA buffer) counts */
    assert_int_equal(st_count_full(f, 11), 3);
    f->flows[0].qn = 0;
    ts_free(&s);
}

/* Three saturating sources to H4 on a 1.6 Gb/s switch with buffers of two packets: with T = every buffer Self-Tuned never
 * throttles and delivers exactly what no control delivers; with T = 0 it throttles. */
static void st_run(const char *threshold, uint64_t *bytes, double *throttled)
{
    struct testsim s;
    ts_init(&s, "single_switch", "ports=4, link=1.6 Gb/s");
    s.d.end = 200 * PS_PER_US;
    s.d.set.switch_buffer = 1408; /* two 640-byte packets per input */
    s.d.set.mtu = 1024;
    ts_flow(&s, "A", "H1", "H4", "saturate", NULL, "640 B", 0, 0);
    ts_flow(&s, "B", "H2", "H4", "saturate", NULL, "640 B", 0, 0);
    ts_flow(&s, "C", "H3", "H4", "saturate", NULL, "640 B", 0, 0);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err)) {
        fprintf(stderr, "build: %s\n", s.err.msg);
        fail();
    }
    *throttled = -1;
    if (threshold) {
        void *d = cc_desc_new(&selftuned_plugin);
        dset(selftuned_params, d, "threshold", threshold);
        dset(selftuned_params, d, "increase", "0");
        assert_int_equal(cc_attach(&s.f, &selftuned_plugin, d, &s.err), 0);
        cc_desc_free(&selftuned_plugin, d);
    }
    assert_int_equal(fabric_run(&s.f, NULL, &s.rep, &s.err), 0);
    *bytes = 0;
    for (uint32_t i = 0; i < s.f.nflows; i++)
        *bytes += s.f.flows[i].st.bytes_delivered;
    if (threshold) {
        json_t *o = json_object();
        s.f.hooks.report(&s.f, o);
        json_t *cc = json_object_get(o, "cc");
        *throttled = (double)json_integer_value(json_object_get(cc, "throttled_gathers")) /
                     (double)json_integer_value(json_object_get(cc, "gathers"));
        json_decref(o);
    }
    ts_free(&s);
}

static void test_st_run(void **st)
{
    (void)st;
    uint64_t none, high, zero;
    double th, tz, tn;
    st_run(NULL, &none, &tn);
    st_run("1", &high, &th);
    st_run("0", &zero, &tz);
    printf("delivered: no control %llu, T = all %llu (throttled %.3f), T = 0 %llu (throttled %.3f)\n",
           (unsigned long long)none, (unsigned long long)high, th, (unsigned long long)zero, tz);
    assert_true(none == high);
    assert_true(th == 0);
    assert_true(tz > 0.05);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alo_rule),
        cmocka_unit_test(test_st_tune),
        cmocka_unit_test(test_st_count),
        cmocka_unit_test(test_st_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

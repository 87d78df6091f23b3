/* test_torus2qos.c: the torus-2QoS engine: dimension-order shortest routes in tori and meshes
 * (checked route by route against coordinates taken from the switch names), OpenSM's tie rule,
 * the path SL bits and SL2VL entries of torus-2QoS(8), deadlock freedom with its VLs where
 * dimension-order routing on one VL has a cycle, the torus-2QoS.conf reader with file:line
 * errors, seeds and datelines, and the fabrics it refuses. (e2e/opensm_torus2qos compares the
 * tables with OpenSM's byte for byte.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routing/route.h"
#include "routing/route_check.h"
#include "routing/torus2qos.h"
#include "topology/generate.h"

static void gen(const char *name, const char *args, struct topo *t)
{
    struct ibn_err e = { { 0 } };
    if (topo_generate(name, args, 1, t, &e))
        print_error("%s %s: %s\n", name, args, e.msg);
    assert_int_equal(e.msg[0], 0);
}

static int route(const struct topo *t, const char *engine, const struct route_opts *o,
                 struct lfts *l, struct ibn_err *e)
{
    memset(e, 0, sizeof *e);
    return route_compute(t, engine, o, l, e);
}

/* Coordinates from an S<x>_<y>[_<z>] name. */
static void coords(const struct topo *t, int n, int c[3])
{
    c[0] = c[1] = c[2] = 0;
    sscanf(t->node[n].name, "S%d_%d_%d", &c[0], &c[1], &c[2]);
}

static int host_switch(const struct topo *t, int h)
{
    return t->node[h].port[1].peer_node;
}

/* Every host-to-host route: the dimensions it moves in never decrease (x, then y, then z), each
 * dimension takes the shorter way around a ring (ties: towards larger coordinates when the
 * destination's is larger), straight in a mesh, so the route has exactly that many hops. */
static void check_dor(const struct topo *t, const struct lfts *l, const int R[3], int torus)
{
    int routes = 0;
    for (int s = 0; s < t->nnodes; s++) {
        if (t->node[s].type != TOPO_CA)
            continue;
        for (int d = 0; d < t->nnodes; d++) {
            if (t->node[d].type != TOPO_CA || d == s)
                continue;
            int lid = t->node[d].port[1].lid, a[3], b[3];
            int u = host_switch(t, s), dst = host_switch(t, d);
            coords(t, u, a);
            coords(t, dst, b);
            int want = 0;
            int dir[3];
            for (int k = 0; k < 3; k++) {
                int diff = b[k] - a[k];
                dir[k] = diff > 0 ? 1 : diff < 0 ? -1 : 0;
                int direct = abs(diff), wrap = R[k] - direct;
                if (torus && diff && wrap < direct)
                    dir[k] = -dir[k];
                want += torus && wrap < direct ? wrap : direct;
            }
            int hops = 0, lastdim = 0;
            while (u != dst) {
                int p = lft_port(l, u, lid);
                assert_true(p >= 1 && p <= t->node[u].nports);
                int v = t->node[u].port[p].peer_node, x[3], y[3];
                coords(t, u, x);
                coords(t, v, y);
                int moved = -1;
                for (int k = 0; k < 3; k++)
                    if (x[k] != y[k]) {
                        assert_int_equal(moved, -1);
                        moved = k;
                        int step = torus ? ((y[k] - x[k] + R[k]) % R[k] == 1 ? 1 : -1)
                                         : y[k] - x[k];
                        assert_int_equal(step, dir[k]);
                    }
                assert_true(moved >= lastdim);
                lastdim = moved;
                u = v;
                assert_true(++hops <= want);
            }
            int last = lft_port(l, dst, lid);
            assert_true(last >= 1 && last <= t->node[dst].nports);
            assert_int_equal(t->node[dst].port[last].peer_node, d);
            assert_int_equal(hops, want);
            routes++;
        }
    }
    assert_true(routes > 0);
}

static void test_dor_routes(void **state)
{
    (void)state;
    static const struct { const char *gen, *args; int R[3], torus; } c[] = {
        { "torus", "dims=4x4,hosts=1", { 4, 4, 1 }, 1 },
        { "torus", "dims=5x5,hosts=1", { 5, 5, 1 }, 1 },
        { "torus", "dims=6x4,hosts=1", { 6, 4, 1 }, 1 },
        { "torus", "dims=3x3x3,hosts=1", { 3, 3, 3 }, 1 },
        { "torus", "dims=4x5x6,hosts=1", { 4, 5, 6 }, 1 },
        { "mesh", "dims=4x4,hosts=1", { 4, 4, 1 }, 0 },
        { "mesh", "dims=3x4x5,hosts=1", { 3, 4, 5 }, 0 },
        { "mesh", "dims=2x3,hosts=1", { 2, 3, 1 }, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct topo t;
        struct lfts l;
        struct ibn_err e;
        gen(c[i].gen, c[i].args, &t);
        struct route_opts o = { 0 };
        if (route(&t, "torus-2QoS", &o, &l, &e))
            print_error("%s %s: %s\n", c[i].gen, c[i].args, e.msg);
        assert_int_equal(e.msg[0], 0);
        assert_string_equal(l.engine, "torus-2QoS");
        assert_non_null(l.vlmap);
        assert_int_equal(lfts_validate(&t, &l, NULL, &e), 0);
        check_dor(&t, &l, c[i].R, c[i].torus);
        /* A switch's own LID goes to port 0. */
        for (int n = 0; n < t.nnodes; n++)
            if (t.node[n].type == TOPO_SWITCH)
                assert_int_equal(lft_port(&l, n, t.node[n].port[0].lid), 0);
        lfts_free(&l);
        topo_free(&t);
    }
}

static int port_to(const struct topo *t, int from, const char *to)
{
    int m = topo_find(t, to);
    for (int p = 1; p <= t->node[from].nports; p++)
        if (t->node[from].port[p].peer_node == m)
            return p;
    return -1;
}

static int sl_of(const struct topo *t, const struct lfts *l, const char *a, const char *b, int qos)
{
    return lft_vlmap_path_sl(l->vlmap, t, topo_find(t, a), topo_find(t, b), qos);
}

/* torus-2QoS(8): SL bit d = the path's shorter way in d crosses the dateline (between R-1 and
 * 0), bit 3 the QoS level; VL on a switch-switch output along d = SL bit d, | 2 on a turn from a
 * higher dimension to a lower one, | 4 for QoS level 1; towards a CA or on CA ports VL = the QoS
 * level. Fewer data VLs drop the higher bits. Ties in an even ring go the direct way. */
static void test_sl_vl(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    struct ibn_err e;
    gen("torus", "dims=6x5,hosts=1", &t); /* ports: 1 host, 2 -x, 3 +x, 4 -y, 5 +y */
    struct route_opts o = { 0 };
    assert_int_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
    assert_int_equal(sl_of(&t, &l, "S0_0", "S2_0", 0), 0);     /* direct 2 < wrap 4 */
    assert_int_equal(sl_of(&t, &l, "S5_0", "S1_0", 0), 1);     /* wrap 2 < direct 4 */
    assert_int_equal(sl_of(&t, &l, "S0_0", "S3_0", 0), 0);     /* tie: direct */
    assert_int_equal(sl_of(&t, &l, "S3_0", "S0_0", 0), 0);
    assert_int_equal(sl_of(&t, &l, "S0_4", "S0_1", 0), 2);     /* y: wrap 2 < direct 3 */
    assert_int_equal(sl_of(&t, &l, "S5_4", "S0_0", 1), 8 | 2 | 1);
    assert_int_equal(sl_of(&t, &l, "H1", "S1_0", 0), 0);       /* a host stands for its switch */
    /* The tie in the ring of 6: S0_0 -> S3_0 leaves by +x, S3_0 -> S0_0 by -x. */
    int s00 = topo_find(&t, "S0_0"), s30 = topo_find(&t, "S3_0");
    assert_int_equal(lft_port(&l, s00, t.node[s30].port[0].lid), port_to(&t, s00, "S1_0"));
    assert_int_equal(lft_port(&l, s30, t.node[s00].port[0].lid), port_to(&t, s30, "S2_0"));
    /* The wrap: S5_0 -> S1_0 leaves by +x to S0_0. */
    int s50 = topo_find(&t, "S5_0"), s10 = topo_find(&t, "S1_0");
    assert_int_equal(lft_port(&l, s50, t.node[s10].port[0].lid), port_to(&t, s50, "S0_0"));
    const struct lft_vlmap *m = l.vlmap;
    assert_int_equal(m->nvl, 8);
    for (int sl = 0; sl < 16; sl++) {
        int loopx = sl & 1, loopy = sl >> 1 & 1, q = sl >> 3 & 1;
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 1, 3, sl), loopx | q << 2); /* CA in, +x */
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 2, 3, sl), loopx | q << 2); /* x straight */
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 0, 2, sl), loopx | q << 2); /* port 0 in */
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 3, 5, sl), loopy | q << 2); /* x -> y turn */
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 4, 3, sl), loopx | 2 | q << 2); /* y -> x */
        assert_int_equal(lft_vlmap_vl(m, &t, s00, 4, 1, sl), q);             /* to the CA */
        assert_int_equal(m->ca[sl], q);
    }
    lfts_free(&l);
    /* 4 data VLs: no QoS bit on switch links; 2: the loop bit only. */
    o.max_vls = 4;
    assert_int_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
    assert_int_equal(lft_vlmap_vl(l.vlmap, &t, s00, 4, 3, 9), 1 | 2);
    assert_int_equal(l.vlmap->nvl, 4);
    lfts_free(&l);
    o.max_vls = 2;
    assert_int_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
    assert_int_equal(lft_vlmap_vl(l.vlmap, &t, s00, 4, 3, 9), 1);
    assert_int_equal(lft_vlmap_vl(l.vlmap, &t, s00, 4, 1, 9), 1);
    assert_int_equal(l.vlmap->nvl, 2);
    lfts_free(&l);
    o.max_vls = 1;
    assert_int_not_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
    assert_non_null(strstr(e.msg, "at least 2 data VLs"));
    topo_free(&t);
}

/* Dimension-order routing on a torus deadlocks on one VL; torus-2QoS's VLs break every cycle.
 * The same tables with every hop on VL 0, or with the dateline bits taken out of the SLs, have
 * a cycle again, so the check can fail. */
static void test_deadlock(void **state)
{
    (void)state;
    static const char *const dims[] = { "dims=5x5,hosts=1", "dims=6x6,hosts=1",
                                        "dims=5x5x5,hosts=1", "dims=4x6x3,hosts=2" };
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        struct topo t;
        struct lfts l, d;
        struct ibn_err e;
        char cycle[4096];
        gen("torus", dims[i], &t);
        struct route_opts o = { 0 };
        assert_int_equal(route(&t, "dor", &o, &d, &e), 0);
        assert_int_equal(route_deadlock_check(&t, &d, NULL, cycle, sizeof cycle), 1);
        assert_non_null(strstr(cycle, "on VL 0"));
        assert_int_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
        /* On one VL: a cycle around a ring. */
        assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 1);
        int nvl = 0;
        for (int q = 0; q < 2; q++) {
            if (route_deadlock_check_vlmap(&t, &l, q, cycle, sizeof cycle, &nvl))
                print_error("%s QoS %d: %s\n", dims[i], q, cycle);
            assert_int_equal(route_deadlock_check_vlmap(&t, &l, q, NULL, 0, &nvl), 0);
            assert_int_equal(nvl, q ? 3 : 2); /* 0,1 (+4,5 and CA VL 1 at level 1) */
        }
        /* Without the dateline bits every path rides the ring on VL 0 (or 4): cycles. */
        struct lft_vlmap *m = l.vlmap;
        size_t n = (size_t)m->nsw * (size_t)m->nsw;
        uint8_t *keep = malloc(n);
        memcpy(keep, m->path_sl, n);
        memset(m->path_sl, 0, n);
        assert_int_equal(route_deadlock_check_vlmap(&t, &l, 0, cycle, sizeof cycle, NULL), 1);
        assert_non_null(strstr(cycle, " VL 0"));
        assert_int_equal(route_deadlock_check_vlmap(&t, &l, 1, cycle, sizeof cycle, NULL), 1);
        assert_non_null(strstr(cycle, " VL 4"));
        memcpy(m->path_sl, keep, n);
        free(keep);
        assert_int_equal(route_deadlock_check_vlmap(&t, &l, 0, NULL, 0, NULL), 0);
        lfts_free(&l);
        lfts_free(&d);
        topo_free(&t);
    }
}

static char conf_path[64];

static const char *write_conf(const char *text)
{
    snprintf(conf_path, sizeof conf_path, "/tmp/ibnetsim-t2q-XXXXXX");
    int fd = mkstemp(conf_path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return conf_path;
}

static void expect_conf_error(const char *text, int line, const char *what)
{
    struct t2q_conf c;
    struct ibn_err e = { { 0 } };
    const char *p = write_conf(text);
    assert_int_equal(t2q_conf_read(p, &c, &e), -1);
    char where[96];
    snprintf(where, sizeof where, "%s:%d: ", p, line);
    if (!strstr(e.msg, where) || !strstr(e.msg, what))
        print_error("expected \"%s...%s\", got \"%s\"\n", where, what, e.msg);
    assert_non_null(strstr(e.msg, where));
    assert_non_null(strstr(e.msg, what));
    unlink(p);
}

static void test_conf_read(void **state)
{
    (void)state;
    struct t2q_conf c;
    struct ibn_err e = { { 0 } };
    const char *p = write_conf("# a comment\n\n  torus 3m 4 2T  trailing words\n"
                               "xp_link 0x2000 0x2001 # comment\n"
                               "ym_link 0x2000 8195\n"
                               "x_dateline -2\n"
                               "next_seed\n"
                               "yp_link 0x3000 0x3001\n"
                               "y_dateline 3\n"
                               "port_order 7 10 7 8\n"
                               "portgroup_max_ports 20\n"
                               "max_changes 5\n");
    assert_int_equal(t2q_conf_read(p, &c, &e), 0);
    unlink(p);
    assert_int_equal(c.radix[0], 3);
    assert_int_equal(c.radix[1], 4);
    assert_int_equal(c.radix[2], 2);
    assert_int_equal(c.mesh[0], 1);
    assert_int_equal(c.mesh[1], 0);
    assert_int_equal(c.mesh[2], 1); /* radix 2 is a mesh, even with T */
    assert_int_equal(c.nseed, 2);
    assert_true(c.seed[0].has[0][1] && !c.seed[0].has[0][0]);
    assert_true(c.seed[0].from[0][1] == 0x2000 && c.seed[0].to[0][1] == 0x2001);
    assert_true(c.seed[0].has[1][0] && c.seed[0].to[1][0] == 8195);
    assert_int_equal(c.seed[0].dateline[0], -2);
    assert_int_equal(c.seed[1].dateline[1], 3);
    assert_int_equal(c.seed[1].line, 7);
    assert_int_equal(c.port_order[0], 7);
    assert_int_equal(c.port_order[1], 10);
    assert_int_equal(c.port_order[2], 8);
    assert_int_equal(c.port_order[3], 0);
    assert_int_equal(c.port_order[10], 9);
    assert_int_equal(c.port_order[11], 11);
    assert_int_equal(c.portgroup_max_ports, 20);
    assert_int_equal(c.max_changes, 5);

    expect_conf_error("torus 4 4 1\nxq_link 1 2\n", 2, "unknown keyword \"xq_link\"");
    expect_conf_error("torus 4 4\n", 1, "expected the z radix");
    expect_conf_error("torus 4 0 1\n", 1, "the y radix must be 1 to 1024");
    expect_conf_error("torus 4 4x 1\n", 1, "got \"4x\"");
    expect_conf_error("torus 4 4 1\nmesh 4 4 1\n", 2, "a second torus/mesh line");
    expect_conf_error("x_dateline 1\ntorus 4 4 1\n", 1, "comes before the torus/mesh line");
    expect_conf_error("torus 4 4 1\n\ny_dateline 4\n", 3, "must be -4 < dateline < 4");
    expect_conf_error("torus 4 4 1\nxp_link 0x10\n", 2, "expected two switch GUIDs");
    expect_conf_error("torus 4 4 1\nxp_link 0x10 zz\n", 2, "expected a switch GUID");
    expect_conf_error("torus 4 4 1\nport_order 1 x\n", 2, "port_order: expected port numbers");
    expect_conf_error("torus 4 4 1\nmax_changes\n", 2, "expected a number");
    struct ibn_err e2 = { { 0 } };
    const char *q = write_conf("# only a comment\n");
    assert_int_equal(t2q_conf_read(q, &c, &e2), -1);
    assert_non_null(strstr(e2.msg, "no torus or mesh line"));
    unlink(q);
    assert_int_equal(t2q_conf_read("/nonexistent/torus-2QoS.conf", &c, &e2), -1);
    assert_non_null(strstr(e2.msg, "cannot open"));
}

static void guidline(char *buf, size_t n, const struct topo *t, const char *kw, const char *a,
                     const char *b)
{
    size_t k = strlen(buf);
    snprintf(buf + k, n - k, "%s 0x%016llx 0x%016llx\n", kw,
             (unsigned long long)t->node[topo_find(t, a)].guid,
             (unsigned long long)t->node[topo_find(t, b)].guid);
}

static int tables_equal(const struct topo *t, const struct lfts *a, const struct lfts *b)
{
    int diff = 0;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n].type == TOPO_SWITCH)
            diff += memcmp(a->table[n], b->table[n], (size_t)a->max_lid + 1) != 0;
    return !diff;
}

/* A seed away from S0_0 with datelines that bring the origin back routes as the derived
 * configuration does; other datelines move the origin and the ties of the 6-ring with it, and
 * the path SLs follow the new dateline. A seed switch missing from the fabric passes to the next
 * seed. */
static void test_conf_seeds(void **state)
{
    (void)state;
    struct topo t;
    struct lfts a, b;
    struct ibn_err e;
    gen("torus", "dims=6x5,hosts=1", &t);
    struct route_opts o = { 0 };
    assert_int_equal(route(&t, "torus-2QoS", &o, &a, &e), 0);
    /* A leading next_seed starts seed 1, as in OpenSM; seed 1 names a GUID the fabric lacks,
     * so seed 2 (from S2_3, datelines bringing the origin back to S0_0) is used. */
    char buf[2048] = "torus 6 5 1\nnext_seed\n";
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
             "xp_link 0x00000000deadbeef 0x%016llx\nyp_link 0x00000000deadbeef 0x%016llx\n",
             (unsigned long long)t.node[topo_find(&t, "S1_0")].guid,
             (unsigned long long)t.node[topo_find(&t, "S0_1")].guid);
    strcat(buf, "next_seed\n");
    guidline(buf, sizeof buf, &t, "xm_link", "S2_3", "S1_3");
    guidline(buf, sizeof buf, &t, "ym_link", "S2_3", "S2_2");
    strcat(buf, "x_dateline -2\ny_dateline -3\n");
    o.torus_conf = write_conf(buf);
    if (route(&t, "torus-2QoS", &o, &b, &e))
        print_error("%s\n", e.msg);
    assert_int_equal(e.msg[0], 0);
    assert_true(tables_equal(&t, &a, &b));
    assert_non_null(strstr(b.note, "0,0,0 at S0_0"));
    assert_int_equal(sl_of(&t, &b, "S1_3", "S2_3", 0), 0);
    lfts_free(&b);
    unlink(o.torus_conf);
    /* The same seed, datelines left at 0: S2_3 is the origin. */
    buf[0] = 0;
    strcat(buf, "torus 6 5 1\n");
    guidline(buf, sizeof buf, &t, "xm_link", "S2_3", "S1_3");
    guidline(buf, sizeof buf, &t, "yp_link", "S2_3", "S2_4");
    o.torus_conf = write_conf(buf);
    assert_int_equal(route(&t, "torus-2QoS", &o, &b, &e), 0);
    assert_non_null(strstr(b.note, "0,0,0 at S2_3"));
    assert_false(tables_equal(&t, &a, &b)); /* the 6-ring's ties turn with the origin */
    assert_int_equal(lfts_validate(&t, &b, NULL, &e), 0);
    /* The x dateline is now between S1_y (x = 5) and S2_y (x = 0), the y one between S2_2
     * (y = 4) and S2_3 (y = 0). */
    assert_int_equal(sl_of(&t, &b, "S1_3", "S2_3", 0), 1);
    assert_int_equal(sl_of(&t, &b, "S2_2", "S2_3", 0), 2);
    assert_int_equal(sl_of(&t, &b, "S2_3", "S4_3", 0), 0);
    assert_int_equal(route_deadlock_check_vlmap(&t, &b, 0, NULL, 0, NULL), 0);
    lfts_free(&b);
    unlink(o.torus_conf);
    lfts_free(&a);
    topo_free(&t);
}

static void expect_refused(const char *gen_name, const char *args, const char *conf,
                           const char *what)
{
    struct topo t;
    struct lfts l;
    struct ibn_err e;
    gen(gen_name, args, &t);
    struct route_opts o = { 0 };
    if (conf)
        o.torus_conf = write_conf(conf);
    assert_int_not_equal(route(&t, "torus-2QoS", &o, &l, &e), 0);
    if (!strstr(e.msg, what))
        print_error("%s %s: expected \"%s\", got \"%s\"\n", gen_name, args, what, e.msg);
    assert_non_null(strstr(e.msg, what));
    if (conf)
        unlink(o.torus_conf);
    topo_free(&t);
}

static void test_refused(void **state)
{
    (void)state;
    /* A ring of 2 has parallel links. */
    expect_refused("torus", "dims=2x4,hosts=1", NULL, "parallel links");
    /* Not a torus at all: no S<x>_<y> names, and no minhop fallback after torus-2QoS. */
    expect_refused("irregular", "switches=8,hosts=2", NULL, "is not named S<x>_<y>");
    expect_refused("irregular", "switches=8,hosts=2", "torus 2 1 1\nxp_link 0x1 0x2\n",
                   "no seed of");
    /* The wrong radix for the cabling. */
    struct topo t;
    gen("torus", "dims=4x4,hosts=1", &t);
    char buf[1024] = "torus 8 2 1\n";
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S1_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S0_0", "S0_1");
    expect_refused("torus", "dims=4x4,hosts=1", buf, "switch-to-switch links");
    /* A ring of 4 needs both directions. */
    strcpy(buf, "torus 4 4 1\n");
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S1_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S0_0", "S0_1");
    guidline(buf, sizeof buf, &t, "ym_link", "S0_0", "S0_3");
    expect_refused("torus", "dims=4x4,hosts=1", buf, "needs both xp_link and xm_link");
    /* A seed link between switches that are not cabled. */
    strcpy(buf, "torus 4 4 1\n");
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S2_0");
    guidline(buf, sizeof buf, &t, "xm_link", "S0_0", "S3_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S0_0", "S0_1");
    guidline(buf, sizeof buf, &t, "ym_link", "S0_0", "S0_3");
    expect_refused("torus", "dims=4x4,hosts=1", buf, "are not cabled to each other");
    /* Seed links from two switches. */
    strcpy(buf, "torus 4 4 1\n");
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S1_0");
    guidline(buf, sizeof buf, &t, "xm_link", "S0_0", "S3_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S1_0", "S1_1");
    guidline(buf, sizeof buf, &t, "ym_link", "S1_0", "S1_3");
    expect_refused("torus", "dims=4x4,hosts=1", buf, "must start at the same switch");
    /* A mesh configuration on a torus: the wrap links are too many. */
    strcpy(buf, "mesh 4 4 1\n");
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S1_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S0_0", "S0_1");
    expect_refused("torus", "dims=4x4,hosts=1", buf, "switch-to-switch links");
    /* Too many CA ports for the port groups. */
    strcpy(buf, "torus 4 4 1\nportgroup_max_ports 2\n");
    guidline(buf, sizeof buf, &t, "xp_link", "S0_0", "S1_0");
    guidline(buf, sizeof buf, &t, "xm_link", "S0_0", "S3_0");
    guidline(buf, sizeof buf, &t, "yp_link", "S0_0", "S0_1");
    guidline(buf, sizeof buf, &t, "ym_link", "S0_0", "S0_3");
    expect_refused("torus", "dims=4x4,hosts=2", buf, "portgroup_max_ports");
    topo_free(&t);
    /* The option is refused by other engines; a chain passes on after torus-2QoS. */
    gen("irregular", "switches=8,hosts=2", &t);
    struct lfts l;
    struct ibn_err e;
    struct route_opts o = { .torus_conf = "x.conf" };
    assert_int_not_equal(route(&t, "minhop", &o, &l, &e), 0);
    assert_non_null(strstr(e.msg, "takes no torus_config"));
    o.torus_conf = NULL;
    assert_int_equal(route(&t, "torus-2QoS,updn", &o, &l, &e), 0);
    assert_string_not_equal(l.engine, "torus-2QoS");
    assert_non_null(strstr(l.note, "torus-2QoS"));
    lfts_free(&l);
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dor_routes),
        cmocka_unit_test(test_sl_vl),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_conf_read),
        cmocka_unit_test(test_conf_seeds),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

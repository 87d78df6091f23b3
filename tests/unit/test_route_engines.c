/* test_route_engines.c: the routing engines' results: valid on every topology kind, shortest
 * where they promise it, balanced the way OpenSM balances, deadlock-free where the theory says
 * so (up*-down*, ftree) and caught deadlocking where it is not (shortest paths on a ring); LMC
 * multipath and the per-QP DLID choice. */
#define _DEFAULT_SOURCE /* srandom, random */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rng.h"
#include "routing/hoptab.h"
#include "routing/lft_build.h"
#include "routing/lmc.h"
#include "routing/osm_random.h"
#include "routing/route.h"
#include "routing/route_check.h"
#include "topology/generate.h"

static void gen(const char *name, const char *args, struct topo *t)
{
    struct ibn_err e = { { 0 } };
    if (topo_generate(name, args, 3, t, &e))
        print_error("%s %s: %s\n", name, args, e.msg);
    assert_int_equal(e.msg[0], 0);
}

static void route(const struct topo *t, const char *engine, const struct route_opts *o,
                  struct lfts *l)
{
    struct ibn_err e = { { 0 } };
    if (route_compute(t, engine, o, l, &e))
        print_error("%s: %s\n", engine, e.msg);
    assert_int_equal(e.msg[0], 0);
    int hops;
    if (lfts_validate(t, l, &hops, &e))
        print_error("%s: %s\n", engine, e.msg);
    assert_int_equal(e.msg[0], 0);
}

/* Every CA-to-CA route takes exactly dist + 1 switches. */
static void assert_shortest(const struct topo *t, const struct lfts *l)
{
    struct hoptab h;
    hoptab_index(&h, t);
    uint16_t *d = hoptab_distances(t, &h);
    for (int a = 0; a < t->nnodes; a++) {
        if (t->node[a].type != TOPO_CA)
            continue;
        int sa = t->node[a].port[1].peer_node;
        for (int b = 0; b < t->nnodes; b++) {
            if (t->node[b].type != TOPO_CA || a == b)
                continue;
            int sb = t->node[b].port[1].peer_node, lid = t->node[b].port[1].lid, u = sa, n = 1;
            while (u != sb) {
                u = t->node[u].port[lft_port(l, u, lid)].peer_node;
                n++;
            }
            assert_int_equal(n, d[(size_t)h.swidx[sa] * h.nsw + h.swidx[sb]] + 1);
        }
    }
    free(d);
    hoptab_free(&h);
}

static void test_minhop_fattree(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    gen("fattree", "ports=36,levels=2", &t);
    route(&t, "minhop", NULL, &l);
    assert_shortest(&t, &l);
    /* OpenSM's balancing: a leaf spreads the 630 remote hosts evenly, 35 per up port. */
    int leaf = topo_find(&t, "S0_0");
    int per_port[37] = { 0 };
    for (int c = 0; c < t.nnodes; c++)
        if (t.node[c].type == TOPO_CA && t.node[c].port[1].peer_node != leaf)
            per_port[lft_port(&l, leaf, t.node[c].port[1].lid)]++;
    for (int p = 19; p <= 36; p++)
        assert_int_equal(per_port[p], 35);
    for (int p = 1; p <= 18; p++)
        assert_int_equal(per_port[p], 0);
    struct route_stats s;
    struct ibn_err e;
    assert_int_equal(route_stats_compute(&t, &l, &s, &e), 0);
    assert_int_equal(s.routes, 648L * 647);
    assert_int_equal(s.max_port_routes, 647); /* a host's own port */
    assert_int_equal(s.hop_hist[1], 36L * 18 * 17); /* within a leaf */
    assert_int_equal(s.hop_hist[3], 648L * 647 - 36L * 18 * 17); /* leaf, spine, leaf */
    assert_int_equal(s.hop_hist[2], 0);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 0);
    route_stats_free(&s);
    lfts_free(&l);
    topo_free(&t);
}

static void test_deadlock_ring(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    gen("torus", "dims=6x1", &t); /* a ring of 6 switches */
    route(&t, "spf", NULL, &l);
    assert_shortest(&t, &l);
    char cycle[1024];
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 1);
    /* The cycle goes round the ring: every switch appears, it closes on its start. */
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "S%d_0 port", i);
        assert_non_null(strstr(cycle, name));
    }
    assert_non_null(strstr(cycle, "on VL 0"));
    char first[32];
    sscanf(cycle, "%31[^-]", first);
    assert_non_null(strstr(cycle + strlen(first), first));
    lfts_free(&l);
    /* Minhop is also shortest-path and deadlocks; up*-down* on the same ring does not. */
    route(&t, "minhop", NULL, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 1);
    lfts_free(&l);
    struct route_opts o = { .roots = "S0_0" };
    route(&t, "updn", &o, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 0);
    lfts_free(&l);
    route(&t, "updn_tree", NULL, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 0);
    lfts_free(&l);
    /* On separate VLs per destination half, the ring's SPF cycle can disappear; the check
     * works per VL: every LID on VL 1 still has the cycle. */
    route(&t, "spf", NULL, &l);
    uint8_t vl[64] = { 0 };
    for (int i = 0; i < 64; i++)
        vl[i] = 1;
    assert_int_equal(route_deadlock_check(&t, &l, vl, cycle, sizeof cycle), 1);
    assert_non_null(strstr(cycle, "on VL 1"));
    lfts_free(&l);
    topo_free(&t);
}

static void test_updn_ftree_deadlock_free(void **state)
{
    (void)state;
    const char *cases[][2] = { { "kary_ntree", "k=4,n=3" }, { "fattree", "ports=8,levels=3" },
                               { "fattree", "ports=12,levels=2" }, { "clos3", "ports=8,leaves=4,spines=2,hosts=6" },
                               { "irregular", "switches=16" }, { "mesh", "dims=4x4" },
                               { "torus", "dims=5x5" },
                               { "irregular", "switches=15,ports=5,hosts=1,links=23,planar=1" } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct topo t;
        struct lfts l;
        char cycle[512];
        gen(cases[c][0], cases[c][1], &t);
        int is_tree = strcmp(cases[c][0], "irregular") && strcmp(cases[c][0], "mesh") &&
                      strcmp(cases[c][0], "torus");
        const char *engines[] = { "updn", "updn_tree", "ftree" };
        for (int k = 0; k < (is_tree ? 3 : 2); k++) {
            struct route_opts o = { 0 };
            /* OpenSM's automatic roots need a tree-like fabric; elsewhere give one. */
            if (!is_tree && k == 0)
                o.roots = t.node[0].name;
            route(&t, engines[k], &o, &l);
            if (route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle))
                print_error("%s on %s %s: %s\n", engines[k], cases[c][0], cases[c][1], cycle);
            assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 0);
            if (k == 2)
                assert_shortest(&t, &l); /* ftree routes are minimal in fat trees */
            lfts_free(&l);
        }
        topo_free(&t);
    }
}

static void test_ftree_fallback(void **state)
{
    (void)state;
    /* A mesh is not a fat tree: like OpenSM, ftree falls back to minhop and says why. */
    struct topo t;
    struct lfts l, m;
    gen("mesh", "dims=3x3", &t);
    route(&t, "ftree", NULL, &l);
    assert_non_null(strstr(l.note, "not a fat tree"));
    assert_non_null(strstr(l.note, "fell back to minhop"));
    route(&t, "minhop", NULL, &m);
    for (int i = 0; i < t.nnodes; i++)
        if (l.table[i])
            assert_memory_equal(l.table[i], m.table[i], (size_t)l.max_lid + 1);
    lfts_free(&l);
    lfts_free(&m);
    topo_free(&t);
}

static void same_tables(const struct lfts *a, const struct lfts *b)
{
    assert_int_equal(a->max_lid, b->max_lid);
    for (int i = 0; i < a->nnodes; i++)
        if (a->table[i])
            assert_memory_equal(a->table[i], b->table[i], (size_t)a->max_lid + 1);
}

/* Engine chains as OpenSM's routing_engine list: an engine that cannot route the fabric passes
 * to the next; minhop when none could; the engine that routed is reported. */
static void test_chain(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l, m;
    struct ibn_err e = { { 0 } };
    /* A 4-ary 3-tree: ftree routes, the rest of the chain is not tried. */
    gen("kary_ntree", "k=4,n=3", &t);
    route(&t, "ftree,updn", NULL, &l);
    route(&t, "ftree", NULL, &m);
    assert_string_equal(l.engine, "ftree");
    same_tables(&l, &m);
    lfts_free(&l);
    lfts_free(&m);
    /* Chains are split at commas and blanks. */
    route(&t, "updn, minhop", NULL, &l);
    assert_string_equal(l.engine, "updn");
    lfts_free(&l);
    topo_free(&t);
    /* A mesh: ftree cannot, updn (with a root) can. */
    gen("mesh", "dims=3x3", &t);
    struct route_opts o = { .roots = "S1_1" };
    route(&t, "ftree,updn", &o, &l);
    route(&t, "updn", &o, &m);
    assert_string_equal(l.engine, "updn");
    assert_non_null(strstr(l.note, "not a fat tree; fell back to updn; updn: 1 root"));
    same_tables(&l, &m);
    lfts_free(&l);
    lfts_free(&m);
    /* Without roots updn finds none on a mesh: then dor, and with nothing left minhop. */
    route(&t, "ftree,updn,dor", NULL, &l);
    route(&t, "dor", NULL, &m);
    assert_string_equal(l.engine, "dor");
    same_tables(&l, &m);
    lfts_free(&l);
    lfts_free(&m);
    route(&t, "ftree,updn", NULL, &l);
    route(&t, "minhop", NULL, &m);
    assert_string_equal(l.engine, "minhop");
    assert_non_null(strstr(l.note, "updn: no root switch found; fell back to minhop, as OpenSM does"));
    same_tables(&l, &m);
    lfts_free(&l);
    lfts_free(&m);
    /* Unknown names, empty chains and options no engine of the chain uses are errors. */
    assert_int_equal(route_compute(&t, "ftree,bogus", NULL, &l, &e), -1);
    assert_non_null(strstr(e.msg, "unknown routing engine \"bogus\" in the chain"));
    assert_int_equal(route_compute(&t, " , ", NULL, &l, &e), -1);
    assert_non_null(strstr(e.msg, "no routing engine given"));
    assert_int_equal(route_compute(&t, "ftree,dor", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no roots"));
    assert_int_equal(route_chain_check("minhop,updn_tree", &e), 0);
    assert_int_equal(route_chain_check("minhop,x", &e), -1);
    topo_free(&t);
}

/* OpenSM's guid_routing_order_file: the ports it lists are routed first, in its order. */
static void test_guid_order(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l, m;
    struct ibn_err e = { { 0 } };
    gen("mesh", "dims=3x3,hosts=2", &t);
    int ca[64], nca = 0;
    for (int i = 0; i < t.nnodes && nca < 64; i++)
        if (t.node[i].type == TOPO_CA)
            ca[nca++] = i;
    assert_true(nca >= 4);
    char path[] = "/tmp/ibnetsim-order-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    /* The hosts in reverse order, a comment, a name after a GUID, a GUID of no port, a
     * repeated one. */
    fprintf(f, "# order\n");
    for (int i = nca - 1; i >= 0; i--)
        fprintf(f, "0x%016llx name%d\n", (unsigned long long)t.node[ca[i]].port[1].guid, i);
    fprintf(f, "0xbeef\n0x%llx\n", (unsigned long long)t.node[ca[0]].port[1].guid);
    fclose(f);
    struct route_opts o = { .guid_order = path };
    struct lft_order ord;
    char note[256] = "";
    assert_int_equal(lft_order_read(&t, path, &ord, note, sizeof note, &e), 0);
    assert_int_equal(ord.n, nca);
    assert_int_equal(ord.node[0], ca[nca - 1]);
    assert_int_equal(ord.node[nca - 1], ca[0]);
    assert_non_null(strstr(note, "1 GUID no port of the topology has, 1 repeated"));
    struct hoptab h;
    hoptab_init(&h, &t);
    hoptab_minhop(&h, &t);
    struct lft_dest *d;
    int nd = lft_dest_order(&t, &h, &ord, &d);
    assert_int_equal(d[0].node, ca[nca - 1]);
    assert_int_equal(d[1].node, ca[nca - 2]);
    /* Every port once. */
    int seen = 0;
    for (int i = 0; i < nd; i++)
        seen += t.node[d[i].node].type == TOPO_CA;
    assert_int_equal(seen, nca);
    free(d);
    hoptab_free(&h);
    lft_order_free(&ord);
    /* The order changes minhop's balancing (the entries differ from the default order). */
    route(&t, "minhop", &o, &l);
    route(&t, "minhop", NULL, &m);
    assert_non_null(strstr(l.note, "skipped, as OpenSM skips them"));
    long diff = 0;
    for (int i = 0; i < t.nnodes; i++)
        if (l.table[i])
            for (int lid = 0; lid <= l.max_lid; lid++)
                diff += l.table[i][lid] != m.table[i][lid];
    assert_true(diff > 0);
    lfts_free(&l);
    lfts_free(&m);
    /* Engines that do not take it refuse it; a malformed line is an error at file:line. */
    assert_int_equal(route_compute(&t, "ftree", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no guid_routing_order_file"));
    f = fopen(path, "w");
    fprintf(f, "0x1\n\n0x12zz host\n");
    fclose(f);
    assert_int_equal(route_compute(&t, "minhop", &o, &l, &e), -1);
    char where[64];
    snprintf(where, sizeof where, "%s:3:", path);
    assert_non_null(strstr(e.msg, where));
    assert_non_null(strstr(e.msg, "\"0x12zz\""));
    unlink(path);
    assert_int_equal(route_compute(&t, "updn", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
    topo_free(&t);
}

/* OpenSM's port_shifting: still shortest and valid, other ports than without it (e2e/opensm_compare
 * checks the entries against OpenSM's); engines other than minhop, updn and dor refuse it. */
static void test_port_shifting(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l, m;
    struct ibn_err e = { { 0 } };
    gen("clos3", "ports=8,leaves=4,spines=2,hosts=6", &t);
    struct route_opts o = { .port_shifting = 1 };
    const char *eng[] = { "minhop", "updn", "dor" };
    for (int k = 0; k < 3; k++) {
        route(&t, eng[k], &o, &l);
        route(&t, eng[k], NULL, &m);
        assert_shortest(&t, &l);
        long diff = 0;
        for (int i = 0; i < t.nnodes; i++)
            if (l.table[i])
                for (int lid = 0; lid <= l.max_lid; lid++)
                    diff += l.table[i][lid] != m.table[i][lid];
        if (k < 2)
            assert_true(diff > 0);
        lfts_free(&l);
        lfts_free(&m);
    }
    assert_int_equal(route_compute(&t, "ftree", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no port_shifting"));
    topo_free(&t);
}

/* OpenSM's scatter_ports draws from glibc's random(): the reproduction gives the C library's
 * values (this machine's libc is glibc), and the engines' tables depend on the seed. */
static void test_scatter_ports(void **state)
{
    (void)state;
    const uint32_t seeds[] = { 1, 7, 12345, 4000000000u };
    for (int s = 0; s < 4; s++) {
        struct osm_random g;
        osm_srandom(&g, seeds[s]);
        srandom(seeds[s]);
        for (int i = 0; i < 2000; i++)
            assert_int_equal(osm_random(&g), random());
    }
    struct topo t;
    struct lfts a, b, c;
    struct ibn_err e = { { 0 } };
    gen("clos3", "ports=8,leaves=4,spines=2,hosts=6", &t);
    struct route_opts o7 = { .scatter_ports = 7 }, o8 = { .scatter_ports = 8 };
    route(&t, "minhop", &o7, &a);
    route(&t, "minhop", &o7, &b);
    route(&t, "minhop", &o8, &c);
    assert_shortest(&t, &a);
    long same = 0, diff = 0;
    for (int i = 0; i < t.nnodes; i++)
        if (a.table[i])
            for (int lid = 0; lid <= a.max_lid; lid++) {
                same += a.table[i][lid] != b.table[i][lid];
                diff += a.table[i][lid] != c.table[i][lid];
            }
    assert_int_equal(same, 0);
    assert_true(diff > 0);
    lfts_free(&a);
    lfts_free(&b);
    lfts_free(&c);
    assert_int_equal(route_compute(&t, "sssp", &o7, &a, &e), -1);
    assert_non_null(strstr(e.msg, "takes no scatter_ports"));
    topo_free(&t);
}

static void test_ftree_balance(void **state)
{
    (void)state;
    /* D-mod-k in a full k-ary n-tree: under all-to-all every switch-switch channel between the
     * same two levels carries the same number of routes (4-ary 3-tree: 60 between levels 0
     * and 1, 48 between levels 1 and 2), and every down channel serves one destination. */
    struct topo t;
    struct lfts l;
    gen("kary_ntree", "k=4,n=3", &t);
    route(&t, "ftree", NULL, &l);
    struct route_stats s;
    struct ibn_err e;
    assert_int_equal(route_stats_compute(&t, &l, &s, &e), 0);
    for (int i = 0; i < t.nnodes; i++)
        for (int p = 1; p <= t.node[i].nports; p++) {
            int q = t.node[i].port[p].peer_node;
            if (t.node[i].type != TOPO_SWITCH || q < 0 || t.node[q].type != TOPO_SWITCH)
                continue;
            int low = t.node[i].rank < t.node[q].rank ? t.node[i].rank : t.node[q].rank;
            assert_int_equal(s.port_routes[s.port_off[i] + p], low == 0 ? 60 : 48);
        }
    /* Down channels: the LFT entries of a top switch's down port, restricted to the routes
     * that use it, go to one destination: each destination enters the top level at one
     * switch (the one its D-mod-k digits name). */
    int top_of[64];
    for (int j = 0; j < 64; j++)
        top_of[j] = -1;
    for (int c = 0; c < t.nnodes; c++) {
        if (t.node[c].type != TOPO_CA)
            continue;
        int lid = t.node[c].port[1].lid;
        /* From a leaf that shares no subtree with it, follow the route to the top. */
        int j = atoi(t.node[c].name + 1) - 1; /* H1.. in leaf order, 4 per leaf */
        int u = topo_find(&t, j / 4 >= 4 ? "S0_0" : "S0_15");
        while (t.node[u].type == TOPO_SWITCH && t.node[u].rank < 2)
            u = t.node[u].port[lft_port(&l, u, lid)].peer_node;
        assert_int_equal(t.node[u].type, TOPO_SWITCH);
        top_of[j] = u;
    }
    int per_top[256] = { 0 };
    for (int j = 0; j < 64; j++) {
        assert_true(top_of[j] >= 0);
        per_top[top_of[j]]++;
    }
    for (int i = 0; i < t.nnodes; i++)
        if (t.node[i].type == TOPO_SWITCH && t.node[i].rank == 2)
            assert_int_equal(per_top[i], 4); /* 64 destinations over 16 top switches */
    route_stats_free(&s);
    lfts_free(&l);
    topo_free(&t);
}

static void test_updn_roots(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    gen("kary_ntree", "k=4,n=3", &t);
    route(&t, "updn", NULL, &l);
    /* OpenSM's histogram rule picks the 16 top switches of a 4-ary 3-tree. */
    assert_non_null(strstr(l.note, "16 roots"));
    assert_non_null(strstr(l.note, "S2_0"));
    assert_shortest(&t, &l);
    lfts_free(&l);
    char roots[64];
    snprintf(roots, sizeof roots, "S2_5,0x%016llx",
             (unsigned long long)t.node[topo_find(&t, "S2_6")].guid);
    struct route_opts o = { .roots = roots };
    route(&t, "updn", &o, &l);
    assert_non_null(strstr(l.note, "2 roots"));
    lfts_free(&l);
    o.roots = "H1";
    struct ibn_err e;
    assert_int_equal(route_compute(&t, "updn", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "\"H1\" is not a switch"));
    lfts_free(&l);
    topo_free(&t);
    /* No switch passes the histogram test in a ring: updn falls back to minhop, as OpenSM. */
    gen("torus", "dims=6x1", &t);
    route(&t, "updn", NULL, &l);
    assert_non_null(strstr(l.note, "fell back to minhop"));
    lfts_free(&l);
    topo_free(&t);
}

/* dnup (OpenSM's): leaf switches are rank 0. In a k-ary n-tree its routes are shortest and
 * deadlock-free (no valleys); in a ring where every switch has a host every link joins equal
 * ranks, nothing is restricted, and dnup is minhop entry for entry, cycle included. The entries
 * themselves are compared with OpenSM's dnup in e2e/opensm_compare. */
static void test_dnup(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l, m;
    char cycle[1024];
    gen("kary_ntree", "k=4,n=3", &t);
    route(&t, "dnup", NULL, &l);
    assert_string_equal(l.engine, "dnup");
    assert_non_null(strstr(l.note, "dnup: 16 leaf switches at rank 0, highest rank 2"));
    assert_shortest(&t, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 0);
    lfts_free(&l);
    topo_free(&t);
    gen("torus", "dims=6x1", &t);
    route(&t, "dnup", NULL, &l);
    route(&t, "minhop", NULL, &m);
    assert_non_null(strstr(l.note, "6 leaf switches at rank 0, highest rank 0"));
    for (int n = 0; n < t.nnodes; n++)
        if (t.node[n].type != TOPO_CA)
            for (int lid = 1; lid <= l.max_lid; lid++)
                assert_int_equal(lft_port(&l, n, lid), lft_port(&m, n, lid));
    assert_int_equal(route_deadlock_check(&t, &l, NULL, cycle, sizeof cycle), 1);
    lfts_free(&l);
    lfts_free(&m);
    /* Roots mean nothing to dnup: refused, not ignored. */
    struct route_opts o = { .roots = "S0_0" };
    struct ibn_err e = { { 0 } };
    assert_int_equal(route_compute(&t, "dnup", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no roots"));
    topo_free(&t);
}

/* OpenSM's port_prof_ignore_file: routes through an ignored port are not counted, so the
 * balancing keeps choosing it: with a leaf's first up port ignored, every remote destination
 * of that leaf goes out of it (it always looks unloaded); skipped lines are noted; a malformed
 * line is an error naming file:line; engines that do not balance refuse the option. */
static void test_prof_ignore(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    struct ibn_err e = { { 0 } };
    gen("fattree", "ports=4,levels=2", &t); /* 4 leaves of 2 hosts, 2 spines */
    int leaf = topo_find(&t, "S0_0"), up = -1, nremote = 0;
    assert_true(leaf >= 0);
    for (int p = 1; p <= t.node[leaf].nports && up < 0; p++) {
        int q = t.node[leaf].port[p].peer_node;
        if (q >= 0 && t.node[q].type == TOPO_SWITCH)
            up = p;
    }
    assert_true(up > 0);
    char path[] = "/tmp/ibnetsim-ignore-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# ignored\n0x%016llx %d\n0x000000000000beef 1\n0x%llx 0\n",
            (unsigned long long)t.node[leaf].guid, up, (unsigned long long)t.node[leaf].guid);
    fclose(f);
    struct route_opts o = { .prof_ignore = path };
    route(&t, "minhop", &o, &l);
    assert_non_null(strstr(l.note, "2 lines naming no switch port"));
    for (int n = 0; n < t.nnodes; n++) {
        if (t.node[n].type != TOPO_CA || t.node[n].port[1].peer_node == leaf)
            continue;
        nremote++;
        assert_int_equal(lft_port(&l, leaf, t.node[n].port[1].lid), up);
    }
    assert_int_equal(nremote, 6);
    lfts_free(&l);
    route(&t, "minhop", NULL, &l); /* without it the leaf spreads them over both up ports */
    int on_up = 0;
    for (int n = 0; n < t.nnodes; n++)
        if (t.node[n].type == TOPO_CA && t.node[n].port[1].peer_node != leaf)
            on_up += lft_port(&l, leaf, t.node[n].port[1].lid) == up;
    assert_int_equal(on_up, 3);
    lfts_free(&l);
    f = fopen(path, "w");
    fprintf(f, "0x%llx 1\nnot-a-guid 2\n", (unsigned long long)t.node[leaf].guid);
    fclose(f);
    assert_int_equal(route_compute(&t, "minhop", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, ":2: expected a switch GUID and a port number"));
    lfts_free(&l);
    assert_int_equal(route_compute(&t, "ftree", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no port_prof_ignore_file"));
    lfts_free(&l);
    unlink(path);
    topo_free(&t);
}

/* OpenSM's cn_guid_file / io_guid_file (-u / -G) in ftree and (df)sssp. */
static char *guid_file(const struct topo *t, const char *const *hosts, int n, int all)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ibnetsim-guids-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# port GUIDs, as OpenSM's parse_node_map reads them\n");
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_CA)
            continue;
        int listed = all;
        for (int k = 0; k < n; k++)
            listed |= !strcmp(t->node[i].name, hosts[k]);
        if (listed)
            fprintf(f, "0x%016llx %s\n", (unsigned long long)t->node[i].port[1].guid, t->node[i].name);
    }
    fclose(f);
    return path;
}

static int tables_equal(const struct topo *t, const struct lfts *a, const struct lfts *b)
{
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n].type == TOPO_SWITCH)
            for (int lid = 1; lid <= a->max_lid; lid++)
                if (lft_port(a, n, lid) != lft_port(b, n, lid))
                    return 0;
    return 1;
}

/* Host `name`'s column (its LID's entry at every switch but its own leaf) equals host
 * `like`'s column in the full tree's tables. */
static int same_column(const struct topo *t, const struct lfts *a, const char *name,
                       const struct lfts *full, const char *like)
{
    int h = topo_find(t, name), g = topo_find(t, like);
    int la = t->node[h].port[1].lid, lb = t->node[g].port[1].lid, leaf = t->node[h].port[1].peer_node;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n].type == TOPO_SWITCH && n != leaf && lft_port(a, n, la) != lft_port(full, n, lb))
            return 0;
    return 1;
}

static void test_cn_io_files(void **state)
{
    (void)state;
    struct topo t;
    struct lfts full, l;
    struct ibn_err e = { { 0 } };
    gen("kary_ntree", "k=4,n=3", &t); /* 16 leaves of 4 hosts (H1-H4 on the first) */
    route(&t, "ftree", NULL, &full);
    /* Every host a compute node: the same tables as without the file. */
    char *all = guid_file(&t, NULL, 0, 1), allp[64];
    snprintf(allp, sizeof allp, "%s", all);
    struct route_opts o = { .cn_guids = allp };
    route(&t, "ftree", &o, &l);
    assert_true(tables_equal(&t, &l, &full));
    assert_non_null(strstr(l.note, "64 compute-node LIDs"));
    lfts_free(&l);
    /* H1 (first of its leaf), H6 (second of the second leaf) and H40 (last of the tenth) are I/O
     * nodes: the compute nodes keep the D-mod-K pattern of a full tree, each leaf's k-th
     * compute node taking the column of the leaf's k-th host (OpenSM's padding with dummy CAs);
     * without the file H2 keeps its own column, the second host's. */
    const char *io_hosts[] = { "H1", "H6", "H40" };
    char *io = guid_file(&t, io_hosts, 3, 0), iop[64];
    snprintf(iop, sizeof iop, "%s", io);
    struct route_opts oi = { .io_guids = iop };
    route(&t, "ftree", &oi, &l);
    assert_non_null(strstr(l.note, "61 compute-node LIDs indexed first (at most 4 per leaf), 3 other"));
    assert_true(same_column(&t, &l, "H2", &full, "H1"));
    assert_true(same_column(&t, &l, "H4", &full, "H3"));
    assert_true(same_column(&t, &l, "H5", &full, "H5"));
    assert_true(same_column(&t, &l, "H7", &full, "H6"));
    assert_true(same_column(&t, &l, "H37", &full, "H37"));
    assert_true(same_column(&t, &l, "H64", &full, "H64"));
    assert_false(same_column(&t, &full, "H2", &full, "H1"));
    assert_false(tables_equal(&t, &l, &full));
    lfts_free(&l);
    /* Six hosts listed as the only compute nodes of a cn_guid_file (three on each of the first
     * two leaves): each leaf padded to three, the first leaf's compute nodes indexed 0-2. */
    const char *cn_hosts[] = { "H2", "H3", "H4", "H5", "H7", "H8" };
    char *cn = guid_file(&t, cn_hosts, 6, 0), cnp[64];
    snprintf(cnp, sizeof cnp, "%s", cn);
    struct route_opts oc = { .cn_guids = cnp };
    route(&t, "ftree", &oc, &l);
    assert_non_null(strstr(l.note, "6 compute-node LIDs indexed first (at most 3 per leaf), 58 other"));
    assert_true(same_column(&t, &l, "H2", &full, "H1"));
    assert_true(same_column(&t, &l, "H4", &full, "H3"));
    lfts_free(&l);
    /* sssp and dfsssp: the listed compute nodes routed first change the balancing; all of them
     * listed is the default order. */
    struct lfts s0, s1;
    route(&t, "sssp", NULL, &s0);
    route(&t, "sssp", &o, &s1);
    assert_true(tables_equal(&t, &s0, &s1));
    lfts_free(&s1);
    route(&t, "sssp", &oc, &s1);
    assert_false(tables_equal(&t, &s0, &s1));
    lfts_free(&s1);
    route(&t, "dfsssp", &oi, &s1);
    assert_non_null(strstr(s1.note, "dfsssp: 1 VL used"));
    lfts_free(&s1);
    lfts_free(&s0);
    /* Refused: an engine that does not use them, a malformed line (file and line named). */
    assert_int_equal(route_compute(&t, "minhop", &oc, &l, &e), -1);
    assert_non_null(strstr(e.msg, "takes no cn_guid_file"));
    FILE *f = fopen(cnp, "a");
    fprintf(f, "H9\n");
    fclose(f);
    assert_int_equal(route_compute(&t, "ftree", &oc, &l, &e), -1);
    assert_non_null(strstr(e.msg, ":8: expected a port GUID"));
    assert_non_null(strstr(e.msg, "cn_guid_file"));
    unlink(allp);
    unlink(iop);
    unlink(cnp);
    lfts_free(&full);
    topo_free(&t);
}

static void test_updn_tree(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    gen("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1", &t);
    route(&t, "updn_tree", NULL, &l);
    assert_non_null(strstr(l.note, "updn_tree: root"));
    /* Only spanning-tree links carry routes: at most 2 * (15 - 1) switch-switch channels. */
    struct route_stats s;
    struct ibn_err e;
    assert_int_equal(route_stats_compute(&t, &l, &s, &e), 0);
    int used = 0;
    for (int i = 0; i < t.nnodes; i++)
        for (int p = 1; p <= t.node[i].nports; p++) {
            int q = t.node[i].port[p].peer_node;
            if (t.node[i].type == TOPO_SWITCH && q >= 0 && t.node[q].type == TOPO_SWITCH &&
                s.port_routes[s.port_off[i] + p] > 0)
                used++;
        }
    assert_true(used <= 28);
    assert_true(used >= 14);
    /* Classic up*-down* over all links with seed 004's best of three roots: deadlock-free,
     * and its routes are no longer than with any single one of the three roots. */
    struct lfts b3;
    struct route_opts o3 = { .roots = "best3" };
    route(&t, "updn", &o3, &b3);
    assert_non_null(strstr(b3.note, "best of three roots"));
    assert_int_equal(route_deadlock_check(&t, &b3, NULL, NULL, 0), 0);
    struct route_stats sb;
    assert_int_equal(route_stats_compute(&t, &b3, &sb, &e), 0);
    char name[3][32];
    const char *tried = strstr(b3.note, "by root: ") + 9;
    assert_int_equal(sscanf(tried, "%31s %*f, %31s %*f, %31s", name[0], name[1], name[2]), 3);
    for (int k = 0; k < 3; k++) {
        struct route_opts one = { .roots = name[k] };
        struct lfts lk;
        struct route_stats sk;
        route(&t, "updn", &one, &lk);
        assert_int_equal(route_stats_compute(&t, &lk, &sk, &e), 0);
        assert_true(sb.avg_hops <= sk.avg_hops + 1e-9);
        route_stats_free(&sk);
        lfts_free(&lk);
    }
    assert_true(sb.avg_hops <= s.avg_hops + 1e-9); /* all links beat tree links only */
    route_stats_free(&sb);
    lfts_free(&b3);
    /* SPF uses more links and shorter paths (seed 004: SPF beats Up/Down). */
    struct lfts sp;
    route(&t, "spf", NULL, &sp);
    struct route_stats ss;
    assert_int_equal(route_stats_compute(&t, &sp, &ss, &e), 0);
    assert_true(ss.avg_hops < s.avg_hops);
    route_stats_free(&s);
    route_stats_free(&ss);
    lfts_free(&sp);
    lfts_free(&l);
    topo_free(&t);
}

static void test_spf_ties(void **state)
{
    (void)state;
    struct topo t;
    struct lfts lo, hi;
    gen("mesh", "dims=4x4", &t);
    struct route_opts o = { .tie = "lowest" };
    route(&t, "spf", &o, &lo);
    o.tie = "highest";
    route(&t, "spf", &o, &hi);
    assert_shortest(&t, &lo);
    assert_shortest(&t, &hi);
    int diff = 0;
    for (int i = 0; i < t.nnodes; i++)
        if (lo.table[i])
            for (int lid = 1; lid <= lo.max_lid; lid++)
                diff += lo.table[i][lid] != hi.table[i][lid];
    assert_true(diff > 0);
    /* Lowest: S0_0 reaches S1_1's host through port 3 (+x), never port 5 (+y). */
    int s00 = topo_find(&t, "S0_0"), h = topo_find(&t, "H6"); /* H6 is on S1_1 */
    assert_int_equal(lft_port(&lo, s00, t.node[h].port[1].lid), 3);
    assert_int_equal(lft_port(&hi, s00, t.node[h].port[1].lid), 5);
    lfts_free(&lo);
    lfts_free(&hi);
    o.tie = "sideways";
    struct ibn_err e;
    assert_int_equal(route_compute(&t, "spf", &o, &lo, &e), -1);
    assert_non_null(strstr(e.msg, "tie=sideways"));
    lfts_free(&lo);
    topo_free(&t);
}

static void test_lmc(void **state)
{
    (void)state;
    struct topo t;
    gen("fattree", "ports=8,levels=2", &t);
    for (int i = 0; i < t.nnodes; i++)
        if (t.node[i].type == TOPO_CA)
            t.node[i].port[1].lid = 0;
    topo_assign_lids(&t, 2);
    struct lfts l;
    route(&t, "minhop", NULL, &l); /* validates all 4 LIDs of every host */
    /* The 4 LIDs of a remote host leave a leaf through 4 different up ports. */
    int leaf = topo_find(&t, "S0_0"), h = topo_find(&t, "H32");
    int base = t.node[h].port[1].lid;
    assert_int_equal(base % 4, 0);
    assert_int_equal(t.node[h].port[1].lmc, 2);
    int seen[9] = { 0 };
    for (int k = 0; k < 4; k++) {
        int p = lft_port(&l, leaf, base + k);
        assert_true(p >= 5 && p <= 8);
        seen[p]++;
    }
    for (int p = 5; p <= 8; p++)
        assert_int_equal(seen[p], 1);
    lfts_free(&l);
    route(&t, "updn", NULL, &l);
    lfts_free(&l);
    route(&t, "ftree", NULL, &l);
    lfts_free(&l);
    topo_free(&t);

    /* The per-QP DLID choice. */
    for (uint64_t q = 0; q < 16; q++)
        assert_int_equal(route_pick_lid(100, 2, LMC_ROUND_ROBIN, q, NULL), 100 + (int)(q % 4));
    assert_int_equal(route_pick_lid(37, 0, LMC_RANDOM, 5, NULL), 37);
    gsl_rng *r = rng_stream(1, "test/lmc");
    int hist[8] = { 0 };
    for (int i = 0; i < 8000; i++) {
        int lid = route_pick_lid(64, 3, LMC_RANDOM, 0, r);
        assert_true(lid >= 64 && lid < 72);
        hist[lid - 64]++;
    }
    for (int i = 0; i < 8; i++)
        assert_true(hist[i] > 800 && hist[i] < 1200);
    gsl_rng_free(r);
    int hh[4] = { 0 };
    for (uint64_t q = 0; q < 400; q++) {
        int a = route_pick_lid(8, 2, LMC_HASH, q, NULL);
        assert_int_equal(a, route_pick_lid(8, 2, LMC_HASH, q, NULL));
        hh[a - 8]++;
    }
    for (int i = 0; i < 4; i++)
        assert_true(hh[i] > 50);
    enum lmc_policy pol;
    assert_int_equal(lmc_policy_parse("rr", &pol), 0);
    assert_int_equal(pol, LMC_ROUND_ROBIN);
    assert_int_equal(lmc_policy_parse("hash", &pol), 0);
    assert_int_equal(pol, LMC_HASH);
    assert_int_equal(lmc_policy_parse("sometimes", &pol), -1);
}

static void test_dor(void **state)
{
    (void)state;
    struct topo t;
    struct lfts l;
    gen("mesh", "dims=4x4", &t);
    route(&t, "dor", NULL, &l);
    assert_shortest(&t, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 0);
    /* XY: from S0_0 towards S2_3's host, x first (port 3 = +x), at S2_0 then +y (port 5). */
    int h = topo_find(&t, "H15"); /* hosts in switch order, x fastest: H15 is on S2_3 */
    int lid = t.node[h].port[1].lid;
    assert_int_equal(t.node[h].port[1].peer_node, topo_find(&t, "S2_3"));
    assert_int_equal(lft_port(&l, topo_find(&t, "S0_0"), lid), 3);
    assert_int_equal(lft_port(&l, topo_find(&t, "S1_0"), lid), 3);
    assert_int_equal(lft_port(&l, topo_find(&t, "S2_0"), lid), 5);
    assert_int_equal(lft_port(&l, topo_find(&t, "S2_1"), lid), 5);
    lfts_free(&l);
    topo_free(&t);
    /* In a torus the wrap links close a cycle in every ring. */
    gen("torus", "dims=4x4", &t);
    route(&t, "dor", NULL, &l);
    assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 1);
    lfts_free(&l);
    topo_free(&t);
}

static void test_sssp_dfsssp(void **state)
{
    (void)state;
    const char *cases[][2] = { { "torus", "dims=6x1" }, { "torus", "dims=4x4" },
                               { "irregular", "switches=16" },
                               { "irregular", "switches=15,ports=5,hosts=1,links=23,planar=1" },
                               { "torus", "dims=3x3x3" } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct topo t;
        struct lfts l;
        gen(cases[c][0], cases[c][1], &t);
        route(&t, "sssp", NULL, &l);
        assert_shortest(&t, &l);
        assert_null(l.dlid_vl);
        assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 1); /* all of these cycle */
        lfts_free(&l);
        route(&t, "dfsssp", NULL, &l);
        assert_shortest(&t, &l);
        assert_non_null(l.dlid_vl);
        assert_true(l.nvl >= 2 && l.nvl <= 8);
        char cycle[512];
        if (route_deadlock_check(&t, &l, l.dlid_vl, cycle, sizeof cycle))
            print_error("dfsssp on %s %s: %s\n", cases[c][0], cases[c][1], cycle);
        assert_int_equal(route_deadlock_check(&t, &l, l.dlid_vl, NULL, 0), 0);
        /* The same tables on one VL deadlock: the lanes are what breaks the cycles. */
        assert_int_equal(route_deadlock_check(&t, &l, NULL, NULL, 0), 1);
        lfts_free(&l);
        topo_free(&t);
    }
    /* Too few VLs for a ring is an error that says so. */
    struct topo t;
    struct lfts l;
    gen("torus", "dims=6x1", &t);
    struct route_opts o = { .max_vls = 1 };
    struct ibn_err e;
    assert_int_equal(route_compute(&t, "dfsssp", &o, &l, &e), -1);
    assert_non_null(strstr(e.msg, "more than 1 VLs"));
    topo_free(&t);
    /* Global balancing: in the 4-ary 3-tree, sssp loads switch links like ftree (60), where
     * minhop's local balancing reaches 192. */
    gen("kary_ntree", "k=4,n=3", &t);
    route(&t, "sssp", NULL, &l);
    struct route_stats st;
    assert_int_equal(route_stats_compute(&t, &l, &st, &e), 0);
    assert_int_equal(st.max_isl_routes, 60);
    route_stats_free(&st);
    lfts_free(&l);
    route(&t, "minhop", NULL, &l);
    assert_int_equal(route_stats_compute(&t, &l, &st, &e), 0);
    assert_int_equal(st.max_isl_routes, 192);
    route_stats_free(&st);
    lfts_free(&l);
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minhop_fattree),
        cmocka_unit_test(test_deadlock_ring),
        cmocka_unit_test(test_updn_ftree_deadlock_free),
        cmocka_unit_test(test_ftree_balance),
        cmocka_unit_test(test_ftree_fallback),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_guid_order),
        cmocka_unit_test(test_port_shifting),
        cmocka_unit_test(test_scatter_ports),
        cmocka_unit_test(test_updn_roots),
        cmocka_unit_test(test_updn_tree),
        cmocka_unit_test(test_dnup),
        cmocka_unit_test(test_prof_ignore),
        cmocka_unit_test(test_cn_io_files),
        cmocka_unit_test(test_spf_ties),
        cmocka_unit_test(test_lmc),
        cmocka_unit_test(test_dor),
        cmocka_unit_test(test_sssp_dfsssp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

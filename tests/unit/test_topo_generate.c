/* test_topo_generate.c: every generator's output has the structure its definition gives
 * (switch and host counts, port use, degrees, connectivity, distances) for several sizes, and
 * the random generators are reproducible from their seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/generate.h"

static void gen(const char *name, const char *args, uint64_t seed, struct topo *t)
{
    struct ibn_err e = { { 0 } };
    if (topo_generate(name, args, seed, t, &e))
        print_error("%s %s: %s\n", name, args, e.msg);
    assert_int_equal(e.msg[0], 0);
}

/* Switch neighbours of a switch: counts of cabled ports to switches and to CAs. */
static void degree(const struct topo *t, int s, int *to_sw, int *to_ca, int *dup)
{
    *to_sw = *to_ca = *dup = 0;
    const struct topo_node *n = &t->node[s];
    for (int p = 1; p <= n->nports; p++) {
        int q = n->port[p].peer_node;
        if (q < 0)
            continue;
        if (t->node[q].type == TOPO_CA) {
            (*to_ca)++;
            continue;
        }
        (*to_sw)++;
        if (q == s)
            (*dup)++;
        for (int p2 = 1; p2 < p; p2++)
            if (n->port[p2].peer_node == q)
                (*dup)++;
    }
}

/* Largest switch-hop distance between switches that have hosts. */
static int host_diameter(const struct topo *t)
{
    int n = t->nnodes, worst = 0;
    int *dist = malloc((size_t)n * sizeof *dist), *q = malloc((size_t)n * sizeof *q);
    for (int s = 0; s < n; s++) {
        int d0, h0, x;
        if (t->node[s].type != TOPO_SWITCH)
            continue;
        degree(t, s, &d0, &h0, &x);
        if (!h0)
            continue;
        for (int i = 0; i < n; i++)
            dist[i] = -1;
        int head = 0, tail = 0;
        dist[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            int u = q[head++];
            for (int p = 1; p <= t->node[u].nports; p++) {
                int v = t->node[u].port[p].peer_node;
                if (v >= 0 && t->node[v].type == TOPO_SWITCH && dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    q[tail++] = v;
                }
            }
        }
        for (int v = 0; v < n; v++) {
            int d1, h1;
            if (t->node[v].type != TOPO_SWITCH)
                continue;
            degree(t, v, &d1, &h1, &x);
            assert_true(dist[v] >= 0);
            if (h1 && dist[v] > worst)
                worst = dist[v];
        }
    }
    free(dist);
    free(q);
    return worst;
}

static void test_kary_ntree(void **state)
{
    (void)state;
    int sizes[][2] = { { 4, 3 }, { 4, 4 }, { 4, 5 }, { 2, 3 }, { 3, 2 }, { 5, 1 } };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int k = sizes[c][0], n = sizes[c][1];
        char args[64];
        snprintf(args, sizeof args, "k=%d,n=%d", k, n);
        struct topo t;
        gen("kary_ntree", args, 1, &t);
        int kn = 1, kn1 = 1;
        for (int i = 0; i < n; i++)
            kn *= k;
        kn1 = kn / k;
        assert_int_equal(topo_count(&t, TOPO_CA), kn);
        assert_int_equal(topo_count(&t, TOPO_SWITCH), n * kn1);
        int per_rank[16] = { 0 };
        for (int s = 0; s < t.nnodes; s++) {
            if (t.node[s].type != TOPO_SWITCH)
                continue;
            int sw, ca, dup, r = t.node[s].rank;
            assert_int_equal(t.node[s].nports, 2 * k);
            per_rank[r]++;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(ca, r == 0 ? k : 0);
            assert_int_equal(sw, (r == 0 ? 0 : k) + (r == n - 1 ? 0 : k));
            /* Down ports lead one level down (or to hosts), up ports one level up. */
            for (int p = 1; p <= 2 * k; p++) {
                int q = t.node[s].port[p].peer_node;
                if (q < 0) {
                    assert_true(r == n - 1 && p > k);
                    continue;
                }
                if (p <= k)
                    assert_int_equal(t.node[q].type == TOPO_CA ? -1 : t.node[q].rank,
                                     r == 0 ? -1 : r - 1);
                else
                    assert_int_equal(t.node[q].rank, r + 1);
            }
        }
        for (int r = 0; r < n; r++)
            assert_int_equal(per_rank[r], kn1);
        assert_int_equal(host_diameter(&t), 2 * (n - 1));
        topo_free(&t);
    }
}

static void test_fattree(void **state)
{
    (void)state;
    int sizes[][2] = { { 36, 2 }, { 8, 3 }, { 4, 4 }, { 12, 2 } };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int m = sizes[c][0], n = sizes[c][1], k = m / 2;
        char args[64];
        snprintf(args, sizeof args, "ports=%d,levels=%d", m, n);
        struct topo t;
        gen("fattree", args, 1, &t);
        int kn1 = 1;
        for (int i = 0; i < n - 1; i++)
            kn1 *= k;
        assert_int_equal(topo_count(&t, TOPO_CA), 2 * kn1 * k);
        assert_int_equal(topo_count(&t, TOPO_SWITCH), (2 * n - 1) * kn1);
        for (int s = 0; s < t.nnodes; s++) {
            if (t.node[s].type != TOPO_SWITCH)
                continue;
            int sw, ca, dup;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(sw + ca, m); /* every port used */
            assert_int_equal(ca, t.node[s].rank == 0 ? k : 0);
            assert_int_equal(dup, 0);
        }
        assert_int_equal(host_diameter(&t), 2 * (n - 1));
        topo_free(&t);
    }
    /* The 648-node network: 36 leaves, 18 spines, each leaf linked once to every spine. */
    struct topo t;
    gen("fattree", "", 1, &t);
    assert_int_equal(topo_count(&t, TOPO_CA), 648);
    int leaves = 0, spines = 0;
    for (int s = 0; s < t.nnodes; s++) {
        if (t.node[s].type != TOPO_SWITCH)
            continue;
        if (t.node[s].rank == 0) {
            leaves++;
            int sw, ca, dup;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(ca, 18);
            assert_int_equal(sw, 18);
            assert_int_equal(dup, 0);
        } else {
            spines++;
        }
    }
    assert_int_equal(leaves, 36);
    assert_int_equal(spines, 18);
    topo_free(&t);
    /* clos3 with its defaults is the same network; an oversubscribed variant. */
    gen("clos3", "", 1, &t);
    assert_int_equal(topo_count(&t, TOPO_CA), 648);
    assert_int_equal(topo_count(&t, TOPO_SWITCH), 54);
    assert_int_equal(topo_count_links(&t), 648 + 648);
    topo_free(&t);
    gen("clos3", "ports=8,leaves=4,spines=2,hosts=6", 1, &t);
    assert_int_equal(topo_count(&t, TOPO_CA), 24);
    assert_int_equal(topo_count_links(&t), 24 + 8);
    topo_free(&t);
    struct ibn_err e;
    assert_int_equal(topo_generate("clos3", "ports=8,spines=3", 1, &t, &e), -1);
    assert_non_null(strstr(e.msg, "spread evenly"));
    assert_int_equal(topo_generate("fattree", "ports=7", 1, &t, &e), -1);
}

static void test_mesh_torus(void **state)
{
    (void)state;
    struct {
        const char *name, *args;
        int switches, hosts, isl, mindeg, maxdeg, diam;
    } cases[] = {
        { "mesh", "dims=4x4", 16, 16, 24, 2, 4, 6 },
        { "mesh", "dims=5x5", 25, 25, 40, 2, 4, 8 },
        { "mesh", "dims=3x4x2,hosts=2", 24, 48, 2 * 4 * 2 + 3 * 3 * 2 + 3 * 4, 3, 6, 6 },
        { "torus", "dims=4x4", 16, 16, 32, 4, 4, 4 },
        { "torus", "dims=5x3", 15, 15, 30, 4, 4, 3 },
        { "torus", "dims=3x3x3,hosts=2", 27, 54, 81, 6, 6, 3 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct topo t;
        gen(cases[c].name, cases[c].args, 1, &t);
        assert_int_equal(topo_count(&t, TOPO_SWITCH), cases[c].switches);
        assert_int_equal(topo_count(&t, TOPO_CA), cases[c].hosts);
        assert_int_equal(topo_count_links(&t), cases[c].isl + cases[c].hosts);
        int hps = cases[c].hosts / cases[c].switches;
        for (int s = 0; s < t.nnodes; s++) {
            if (t.node[s].type != TOPO_SWITCH)
                continue;
            int sw, ca, dup;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(ca, hps);
            assert_true(sw >= cases[c].mindeg && sw <= cases[c].maxdeg);
            assert_int_equal(dup, 0);
        }
        assert_int_equal(host_diameter(&t), cases[c].diam);
        topo_free(&t);
    }
    /* Seed 003's routers have 5 ports: 4 neighbours and one HCA. */
    struct topo t;
    gen("mesh", "dims=4x4", 1, &t);
    assert_int_equal(t.node[topo_find(&t, "S1_1")].nports, 5);
    topo_free(&t);
}

static int same_graph(const struct topo *a, const struct topo *b)
{
    if (a->nnodes != b->nnodes)
        return 0;
    for (int i = 0; i < a->nnodes; i++)
        for (int p = 1; p <= a->node[i].nports; p++)
            if (a->node[i].port[p].peer_node != b->node[i].port[p].peer_node)
                return 0;
    return 1;
}

static void test_irregular(void **state)
{
    (void)state;
    int sizes[] = { 8, 16, 32, 64 };
    for (int c = 0; c < 4; c++) {
        char args[64];
        snprintf(args, sizeof args, "switches=%d", sizes[c]);
        struct topo t, u, v;
        gen("irregular", args, 7, &t);
        assert_int_equal(topo_count(&t, TOPO_SWITCH), sizes[c]);
        assert_int_equal(topo_count(&t, TOPO_CA), 4 * sizes[c]);
        for (int s = 0; s < t.nnodes; s++) {
            if (t.node[s].type != TOPO_SWITCH)
                continue;
            int sw, ca, dup;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(t.node[s].nports, 8);
            assert_int_equal(ca, 4);
            assert_int_equal(sw, 4);
            assert_int_equal(dup, 0);
        }
        host_diameter(&t); /* asserts connectivity */
        gen("irregular", args, 7, &u);
        gen("irregular", args, 8, &v);
        assert_true(same_graph(&t, &u));
        assert_false(same_graph(&t, &v));
        topo_free(&t);
        topo_free(&u);
        topo_free(&v);
    }
    /* Seed 004: 15 five-port switches, one HCA each, 23 links (9 independent cycles). */
    for (uint64_t seed = 1; seed <= 5; seed++) {
        struct topo t;
        gen("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1", seed, &t);
        assert_int_equal(topo_count(&t, TOPO_SWITCH), 15);
        assert_int_equal(topo_count(&t, TOPO_CA), 15);
        assert_int_equal(topo_count_links(&t), 23 + 15);
        for (int s = 0; s < t.nnodes; s++) {
            if (t.node[s].type != TOPO_SWITCH)
                continue;
            int sw, ca, dup;
            degree(&t, s, &sw, &ca, &dup);
            assert_int_equal(ca, 1);
            assert_true(sw >= 1 && sw <= 4);
            assert_int_equal(dup, 0);
        }
        host_diameter(&t);
        topo_free(&t);
    }
    struct topo t;
    struct ibn_err e;
    assert_int_equal(topo_generate("irregular", "switches=4,ports=8,hosts=4", 1, &t, &e), 0);
    topo_free(&t); /* 4 switches can only use 3 links each: links default to the complete graph */
    assert_int_equal(topo_generate("irregular", "ports=4,hosts=4", 1, &t, &e), -1);
    assert_non_null(strstr(e.msg, "must exceed hosts"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kary_ntree),
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_mesh_torus),
        cmocka_unit_test(test_irregular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

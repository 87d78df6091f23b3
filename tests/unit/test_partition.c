/* test_partition.c: the partitioner of the distributed mode (dist/partition.h): every switch
 * whole with its adapters (only switch-to-switch cables cut), every part non-empty, the parts
 * balanced within the stated bound, the cut counted right (checked against a count made here)
 * and near the optimum where it is known: a mesh cut in two across its middle (n cables for
 * an n x n mesh), the 648-node two-level fat tree in two (every leaf keeps half its up-links:
 * 36 x 9 = 324 of its 648 switch cables, the least with the spines split evenly). Both
 * partitioners (own and METIS, when built) are run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/partition.h"
#include "topology/generate.h"

static void gen(const char *name, const char *args, struct topo *t)
{
    struct ibn_err e = { { 0 } };
    topo_init(t);
    if (topo_generate(name, args, 1, t, &e))
        print_error("%s %s: %s\n", name, args, e.msg);
    assert_int_equal(e.msg[0], 0);
}

/* Checks every property; returns the cut. */
static long long check(const struct topo *t, int k, enum partition_method m, double max_imbalance)
{
    int *part = malloc((size_t)t->nnodes * sizeof *part);
    struct partition_stats st;
    struct ibn_err e = { { 0 } };
    assert_int_equal(partition_topo(t, k, m, part, &st, &e), 0);
    int *used = calloc((size_t)k, sizeof *used);
    long long cut = 0, wmax = 0, wtot = 0;
    long long *w = calloc((size_t)k, sizeof *w);
    for (int i = 0; i < t->nnodes; i++) {
        assert_true(part[i] >= 0 && part[i] < k);
        used[part[i]]++;
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_CA) {
            int s = partition_host_switch(t, i);
            assert_true(s >= 0);
            assert_int_equal(part[i], part[s]); /* with its switch */
        }
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q < 0)
                continue;
            w[part[i]]++;
            if (q > i && part[q] != part[i]) {
                cut++;
                assert_int_equal(n->type, TOPO_SWITCH); /* only switch-to-switch cables */
                assert_int_equal(t->node[q].type, TOPO_SWITCH);
            }
        }
    }
    for (int r = 0; r < k; r++) {
        assert_true(used[r] > 0);
        wtot += w[r];
        if (w[r] > wmax)
            wmax = w[r];
    }
    assert_int_equal(st.cut, cut);
    assert_int_equal(st.weight_total, wtot);
    assert_int_equal(st.weight_max, wmax);
    double imb = (double)wmax * k / (double)wtot;
    if (imb > max_imbalance)
        print_error("k=%d method %d: imbalance %.3f > %.3f\n", k, st.method, imb, max_imbalance);
    assert_true(imb <= max_imbalance);
    free(part);
    free(used);
    free(w);
    return cut;
}

static void test_mesh(void **state)
{
    (void)state;
    struct topo t;
    gen("mesh", "dims=8x8", &t);
    for (int m = PARTITION_BFS; m <= PARTITION_METIS; m++) {
        if (m == PARTITION_METIS && !partition_have_metis())
            continue;
        long long c1 = check(&t, 1, m, 1.0);
        assert_int_equal(c1, 0);
        long long c2 = check(&t, 2, m, 1.10);
        print_message("mesh 8x8: method %d cut %lld in 2 parts\n", m, c2);
        assert_true(c2 >= 8 && c2 <= 12); /* optimum 8; within 1.5x */
        long long c4 = check(&t, 4, m, 1.15);
        print_message("mesh 8x8: method %d cut %lld in 4 parts\n", m, c4);
        /* optimum 16 (quadrants): METIS within 1.5x, the own sweeps within 2x */
        assert_true(c4 >= 16 && c4 <= (m == PARTITION_METIS ? 24 : 32));
        check(&t, 3, m, 1.15);
        check(&t, 64, m, 1.5);
    }
    struct ibn_err e = { { 0 } };
    int part[200];
    assert_int_equal(partition_topo(&t, 65, PARTITION_BFS, part, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "64 switches"));
    topo_free(&t);
}

static void test_fattree(void **state)
{
    (void)state;
    struct topo t;
    gen("fattree", "ports=36,levels=2", &t);
    for (int m = PARTITION_BFS; m <= PARTITION_METIS; m++) {
        if (m == PARTITION_METIS && !partition_have_metis())
            continue;
        long long c2 = check(&t, 2, m, 1.10);
        print_message("fat tree 648: method %d cut %lld of 648 switch cables in 2 parts\n", m, c2);
        assert_true(c2 >= 324 && c2 <= 400);
        check(&t, 3, m, 1.15);
        check(&t, 4, m, 1.15);
    }
    topo_free(&t);
}

static void test_small(void **state)
{
    (void)state;
    struct topo t;
    gen("testbed002", "", &t); /* two switches */
    long long c = check(&t, 2, PARTITION_BFS, 1.5);
    assert_int_equal(c, 1); /* the inter-switch link (one cable) */
    topo_free(&t);
    gen("single_switch", "ports=8", &t);
    assert_int_equal(check(&t, 1, PARTITION_AUTO, 1.0), 0);
    topo_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh),
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

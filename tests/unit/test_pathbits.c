/* test_pathbits.c: seed 004's path bits against the paper's worked example (Figs. 4 and 5) and
 * its 15-node network's counts, exactly:
 *  - Fig. 4: vertices a, b, c, d, edges ab ac bc bd cd; BFS tree from b; cycles C1 = acba and
 *    C2 = cdbc; path bits ba = 1X, bca = 01, bdca = 00, ab = 0X, acb = 10, acdb = 11;
 *  - Fig. 5: the tables at a: SPF b->1, c->2, d->2 (ties to the highest port, as drawn); Up/Down
 *    (tree links only, root b) all to port 1; multipath 2^1 x 3 entries, b0X->1, b1X->2,
 *    c0X->1, c1X->2, d0X->1, d1X->2; walking the tables with a path's bits follows that path;
 *  - a 15-switch, 23-link network (generated, several seeds) has 9 cycles, 9 path bits, tables
 *    of 15 x 2^k entries where k is the number of cycles through the switch, and every
 *    (source, destination, pattern) walk arrives (checked here independently of the builder);
 *  - the engine refuses 9 path bits (IBA's LMC holds 7) with the numbers, and the LMC-limited
 *    form (path_bits=7) routes every one of the 128 LIDs of every host; beyond IBA (LMC 9,
 *    topology.lmc_beyond_iba) the paper's 9 bits route every one of the 512, and more than 15
 *    are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "routing/pathbits.h"
#include "routing/route.h"
#include "topology/generate.h"
#include "../support/fig4.h"

static const char *bits_of(struct pathbits *pb, struct topo *t, const char *path)
{
    static char buf[64];
    int v[16], n = (int)strlen(path);
    for (int i = 0; i < n; i++) {
        char name[2] = { path[i], 0 };
        v[i] = pathbits_vertex(pb, t, name);
    }
    uint64_t val, care;
    if (pathbits_of_path(pb, v, n, &val, &care))
        return "undefined";
    pathbits_format(pb, val, care, buf);
    return buf;
}

static void cycle_text(struct pathbits *pb, struct topo *t, int c, char *buf)
{
    int i;
    for (i = 0; i <= pb->cyc_len[c]; i++)
        buf[i] = t->node[pb->node[pb->cyc[c][i]]].name[0];
    buf[i] = 0;
}

static void test_fig4_path_bits(void **st)
{
    (void)st;
    struct topo t;
    struct pathbits pb;
    struct ibn_err e = { { 0 } };
    fig4_topo(&t);
    assert_int_equal(pathbits_build(&t, "b", 0, -1, &pb, &e), 0);
    assert_int_equal(pb.ncycles, 2);
    char cyc[16];
    cycle_text(&pb, &t, 0, cyc);
    assert_string_equal(cyc, "acba");
    cycle_text(&pb, &t, 1, cyc);
    assert_string_equal(cyc, "cdbc");
    assert_string_equal(bits_of(&pb, &t, "ba"), "1X");
    assert_string_equal(bits_of(&pb, &t, "bca"), "01");
    assert_string_equal(bits_of(&pb, &t, "bdca"), "00");
    assert_string_equal(bits_of(&pb, &t, "ab"), "0X");
    assert_string_equal(bits_of(&pb, &t, "acb"), "10");
    assert_string_equal(bits_of(&pb, &t, "acdb"), "11");
    /* The other pairs the digest's independent script gives. */
    assert_string_equal(bits_of(&pb, &t, "ac"), "1X");
    assert_string_equal(bits_of(&pb, &t, "abc"), "01");
    assert_string_equal(bits_of(&pb, &t, "abdc"), "00");
    assert_string_equal(bits_of(&pb, &t, "abd"), "00");
    assert_string_equal(bits_of(&pb, &t, "abcd"), "01");
    assert_string_equal(bits_of(&pb, &t, "acbd"), "10");
    assert_string_equal(bits_of(&pb, &t, "acd"), "11");
    assert_string_equal(bits_of(&pb, &t, "dba"), "11");
    assert_string_equal(bits_of(&pb, &t, "dbca"), "01");
    assert_string_equal(bits_of(&pb, &t, "dca"), "00");
    assert_string_equal(bits_of(&pb, &t, "dcba"), "10");

    /* Fig. 5c: a lies on C1 only: 2^1 entries per destination, first path bit decides. */
    int a = pathbits_vertex(&pb, &t, "a"), b = pathbits_vertex(&pb, &t, "b");
    int c = pathbits_vertex(&pb, &t, "c"), d = pathbits_vertex(&pb, &t, "d");
    assert_int_equal(pb.nloc[a], 1);
    assert_int_equal(pathbits_entries_per_dest(&pb, a) * 3, 6);
    int dest[3] = { b, c, d };
    for (int i = 0; i < 3; i++)
        for (uint64_t P = 0; P < 4; P++) {
            /* bit 0 of P is P1: 0 -> port 1 (b), 1 -> port 2 (c) */
            int w = pathbits_next(&pb, a, dest[i], P);
            assert_int_equal(w, (P & 1) ? c : b);
        }
    /* Walking the tables with a path's bits follows the path (bits written P1 P2). */
    struct { const char *path; uint64_t P; } walk[] = {
        { "bca", 2 }, { "bdca", 0 }, { "acb", 1 }, { "acdb", 3 }, { "ba", 1 }, { "ab", 0 },
    };
    for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++) {
        const char *p = walk[i].path;
        int n = (int)strlen(p);
        int dst = pathbits_vertex(&pb, &t, (char[]){ p[n - 1], 0 });
        int v = pathbits_vertex(&pb, &t, (char[]){ p[0], 0 });
        for (int k = 1; k < n; k++) {
            v = pathbits_next(&pb, v, dst, walk[i].P);
            assert_int_equal(v, pathbits_vertex(&pb, &t, (char[]){ p[k], 0 }));
        }
    }
    assert_int_equal(pb.walks, 4 * 3 * 4);
    pathbits_free(&pb);
    topo_free(&t);
}

static void test_fig5_spf_updn(void **st)
{
    (void)st;
    struct topo t;
    struct lfts l;
    struct ibn_err e = { { 0 } };
    fig4_topo(&t);
    int a = topo_find(&t, "a");
    int lid_b = t.node[topo_find(&t, "Hb")].port[1].lid, lid_c = t.node[topo_find(&t, "Hc")].port[1].lid;
    int lid_d = t.node[topo_find(&t, "Hd")].port[1].lid;
    struct route_opts o = { .tie = "highest" };
    assert_int_equal(route_compute(&t, "spf", &o, &l, &e), 0);
    assert_int_equal(lft_port(&l, a, lid_b), 1);
    assert_int_equal(lft_port(&l, a, lid_c), 2);
    assert_int_equal(lft_port(&l, a, lid_d), 2);
    lfts_free(&l);
    struct route_opts u = { .roots = "b" };
    assert_int_equal(route_compute(&t, "updn_tree", &u, &l, &e), 0);
    assert_int_equal(lft_port(&l, a, lid_b), 1);
    assert_int_equal(lft_port(&l, a, lid_c), 1);
    assert_int_equal(lft_port(&l, a, lid_d), 1);
    lfts_free(&l);
    /* The engine: LMC 2, DLID = base + P1 + 2 P2; at a the offset's P1 picks the port. */
    assert_int_equal(topo_set_lmc(&t, 2, &e), 0);
    struct route_opts pbo = { .roots = "b" };
    assert_int_equal(route_compute(&t, "pathbits", &pbo, &l, &e), 0);
    int hops;
    assert_int_equal(lfts_validate(&t, &l, &hops, &e), 0);
    lid_b = t.node[topo_find(&t, "Hb")].port[1].lid;
    for (int off = 0; off < 4; off++)
        assert_int_equal(lft_port(&l, a, lid_b + off), (off & 1) ? 2 : 1);
    lfts_free(&l);
    /* Too few LIDs for the path bits: refused with the numbers. */
    assert_int_equal(topo_set_lmc(&t, 1, &e), 0);
    assert_int_equal(route_compute(&t, "pathbits", &pbo, &l, &e), -1);
    assert_non_null(strstr(e.msg, "2 path bits need LMC 2"));
    topo_free(&t);
}

/* Every (source, destination, pattern) walk arrives within nsw hops. */
static void walk_all(const struct pathbits *pb)
{
    for (uint64_t P = 0; P < 1ULL << pb->ncycles; P++)
        for (int s = 0; s < pb->nsw; s++)
            for (int d = 0; d < pb->nsw; d++) {
                int v = s, k = 0;
                while (v != d && k++ <= pb->nsw)
                    v = pathbits_next(pb, v, d, P);
                assert_int_equal(v, d);
            }
}

static void test_fifteen_node(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct topo t;
        struct pathbits pb;
        struct ibn_err e = { { 0 } };
        assert_int_equal(topo_generate("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1",
                                       seed, &t, &e), 0);
        assert_int_equal(pathbits_build(&t, NULL, 0, PB_SLACK_DEFAULT, &pb, &e), 0);
        assert_int_equal(pb.nsw, 15);
        assert_int_equal(pb.nedges, 23);
        assert_int_equal(pb.ncycles, 9);
        int hist[8] = { 0 };
        for (int v = 0; v < pb.nsw; v++) {
            /* k counted from the cycles themselves */
            int k = 0;
            for (int c = 0; c < pb.ncycles; c++) {
                int on = 0;
                for (int i = 0; i < pb.cyc_len[c]; i++)
                    on |= pb.cyc[c][i] == v;
                k += on;
            }
            assert_int_equal(pb.nloc[v], k);
            assert_int_equal(15 * pathbits_entries_per_dest(&pb, v), 15 << k);
            hist[k < 7 ? k : 7]++;
        }
        assert_int_equal(pb.walks, 15 * 14 * 512);
        walk_all(&pb);
        printf("seed %llu: switches on k cycles: k=1 %d, k=2 %d, k=3 %d, k=4 %d, k>=5 %d; %ld paths, "
               "%ld undefined, %ld entries from SPF, %ld conflicts\n", (unsigned long long)seed,
               hist[1], hist[2], hist[3], hist[4], hist[5] + hist[6] + hist[7], pb.npaths,
               pb.undefined, pb.unset, pb.conflicts);
        pathbits_free(&pb);
        /* The engine: 9 path bits do not fit an LMC. */
        struct lfts l;
        assert_int_equal(topo_set_lmc(&t, 7, &e), 0);
        assert_int_equal(route_compute(&t, "pathbits", NULL, &l, &e), -1);
        assert_non_null(strstr(e.msg, "15 switches and 23 links make 9 independent cycles"));
        assert_non_null(strstr(e.msg, "at most 7"));
        struct route_opts o = { .path_bits = 7 };
        assert_int_equal(route_compute(&t, "pathbits", &o, &l, &e), 0);
        int hops;
        assert_int_equal(lfts_validate(&t, &l, &hops, &e), 0);
        lfts_free(&l);
        struct route_opts o8 = { .path_bits = 8 };
        assert_int_equal(route_compute(&t, "pathbits", &o8, &l, &e), -1);
        assert_non_null(strstr(e.msg, "at most 7"));
        /* Beyond IBA (topology.lmc_beyond_iba): the paper's 9 path bits as LMC 9, every one of
         * the 512 LIDs of every host routed; at most 15. */
        struct route_opts o9 = { .max_path_bits = PB_SIM_MAX };
        assert_int_equal(topo_set_lmc(&t, 9, &e), 0);
        assert_int_equal(route_compute(&t, "pathbits", &o9, &l, &e), 0);
        assert_int_equal(lfts_validate(&t, &l, &hops, &e), 0);
        int h = 0; /* the first adapter */
        while (t.node[h].type != TOPO_CA)
            h++;
        int base = t.node[h].port[1].lid, upper = 0;
        /* LIDs with bit 8 or 9 set whose route leaves some switch by another port than the LID
         * without them: the two bits beyond IBA's 7 select paths. */
        for (int off = 128; off < 512; off++)
            for (int n = 0; n < t.nnodes; n++)
                if (t.node[n].type == TOPO_SWITCH &&
                    l.table[n][base + off] != l.table[n][base + (off & 127)]) {
                    upper++;
                    break;
                }
        printf("seed %llu, 9 path bits: %d of the 384 LIDs with bit 8 or 9 set route otherwise\n",
               (unsigned long long)seed, upper);
        assert_true(upper >= 64);
        lfts_free(&l);
        struct route_opts o16 = { .path_bits = 16, .max_path_bits = PB_SIM_MAX };
        assert_int_equal(route_compute(&t, "pathbits", &o16, &l, &e), -1);
        assert_non_null(strstr(e.msg, "ibnetsim holds at most 15"));
        assert_int_equal(topo_set_lmc(&t, 16, &e), -1);
        assert_non_null(strstr(e.msg, "at most 15"));
        topo_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig4_path_bits),
        cmocka_unit_test(test_fig5_spf_updn),
        cmocka_unit_test(test_fifteen_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_qos_table.c: seed 001's arbitration-table algorithms on their own: the cyclic
 * measures, Table 1 (CESY's rounding and extra entries), the bit-reversal first fit and the
 * paper's worked example (Fig. 6c), CESY's "always placeable while entries are free" with
 * allocations only, repacking after releases, CENRE's placement rules, and the conversions
 * from bandwidth to weight and from deadline to distance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "qos/arbtab.h"
#include "qos/cenre.h"
#include "qos/cesy.h"

static void test_runs_and_gaps(void **st)
{
    (void)st;
    assert_int_equal(arbtab_longest_run(0), 0);
    assert_int_equal(arbtab_longest_run(~0ull), 64);
    assert_int_equal(arbtab_longest_run(0x7ull), 3);
    /* A run across the end: entries 62, 63, 0, 1. */
    assert_int_equal(arbtab_longest_run((3ull << 62) | 3ull), 4);
    assert_int_equal(arbtab_shortest_free_run(0), 64);
    assert_int_equal(arbtab_shortest_free_run(~0ull), 64);
    /* taken 0 and 2: free runs of 1 (entry 1) and 61. */
    assert_int_equal(arbtab_shortest_free_run(0x5ull), 1);
    assert_int_equal(arbtab_max_gap(1ull), 64);
    assert_int_equal(arbtab_max_gap(0), 0);
    assert_int_equal(arbtab_max_gap((1ull << 0) | (1ull << 32)), 32);
    assert_int_equal(arbtab_max_gap((1ull << 10) | (1ull << 20)), 54);
}

/* Table 1 of seed 001, verbatim: distance needed -> treated as -> exceeding entries. */
static void test_table1(void **st)
{
    (void)st;
    static const struct { int lo, hi, as, extra; } t1[] = {
        { 2, 2, 2, 0 },     { 3, 3, 2, 10 },    { 4, 4, 4, 0 },     { 5, 5, 4, 3 },
        { 6, 6, 4, 5 },     { 7, 7, 4, 6 },     { 8, 9, 8, 0 },     { 10, 10, 8, 1 },
        { 11, 12, 8, 2 },   { 13, 15, 8, 3 },   { 16, 21, 16, 0 },  { 22, 31, 16, 1 },
        { 32, 63, 32, 0 },  { 64, 64, 64, 0 },
    };
    for (size_t i = 0; i < sizeof t1 / sizeof t1[0]; i++)
        for (int d = t1[i].lo; d <= t1[i].hi; d++) {
            assert_int_equal(cesy_round(d, 0), t1[i].as);
            assert_int_equal(cesy_extra(d), t1[i].extra);
        }
    assert_int_equal(cesy_round(1, 0), 0);
    /* The 4-VL variant offers 16 and 64 only: 32 becomes 16, below 16 nothing. */
    unsigned vl4 = (1u << 4) | (1u << 6);
    assert_int_equal(cesy_round(45, vl4), 16);
    assert_int_equal(cesy_round(64, vl4), 64);
    assert_int_equal(cesy_round(15, vl4), 0);
}

static void test_find_first_order(void **st)
{
    (void)st;
    /* Empty table: entry 0. With entry 0 taken, distance 64 goes to 32, then 16, 48, 8. */
    assert_int_equal(cesy_find_first(0, 2), 0);
    uint64_t t = 0;
    int want[] = { 0, 32, 16, 48, 8, 40, 24, 56, 4 };
    for (int i = 0; i < 9; i++) {
        int f = cesy_find_first(t, 64);
        assert_int_equal(f, want[i]);
        t |= cesy_mask(f, 64);
    }
    assert_int_equal(cesy_find_first(~0ull, 64), -1);
    assert_int_equal(arbtab_count(cesy_mask(3, 8)), 8);
    assert_int_equal(arbtab_max_gap(cesy_mask(3, 8)), 8);
}

/* Fig. 6c: 45, 8, 53, 61, 60, 55, 24, 3, 9 all placed, exactly entries 19 and 51 (1-based)
 * left free, each request's entries as digest 001 section 5.2 lists them. */
static void test_worked_example(void **st)
{
    (void)st;
    static const int req[9] = { 45, 8, 53, 61, 60, 55, 24, 3, 9 };
    static const int first1[9] = { 1, 5, 17, 9, 25, 3, 11, 2, 7 }; /* 1-based first entries */
    uint64_t t = 0;
    for (int i = 0; i < 9; i++) {
        int d = cesy_round(req[i], 0);
        assert_true(cesy_entries(d) <= 64 - arbtab_count(t));
        int f = cesy_find_first(t, d);
        assert_int_equal(f + 1, first1[i]);
        t |= cesy_mask(f, d);
    }
    assert_int_equal(arbtab_count(t), 62);
    assert_int_equal(~t, (1ull << 18) | (1ull << 50));
}

/* Allocation only: whenever 64/d entries are free, FindFirst finds a sequence. */
static void test_always_placeable(void **st)
{
    (void)st;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (int k = 0; k < 5000; k++) {
        uint64_t t = 0;
        for (int tries = 0; tries < 400 && t != ~0ull; tries++) {
            int d = cesy_round(2 + (int)gsl_rng_uniform_int(r, 63), 0);
            if (cesy_entries(d) > 64 - arbtab_count(t))
                continue;
            int f = cesy_find_first(t, d);
            assert_true(f >= 0);
            t |= cesy_mask(f, d);
        }
    }
    gsl_rng_free(r);
}

/* After releases FindFirst can fail with enough free entries; repacking then always fits. */
static void test_fragmentation_repack(void **st)
{
    (void)st;
    /* Eight d=64 sequences at 0, 32, 16, 48, 8, 40, 24, 56; free those at 32, 48, 40, 56:
     * 4 entries free but no d=16 sequence (entries f, f+16, f+32, f+48) is whole. */
    uint64_t t = 0;
    int d[9];
    uint64_t m[9];
    int firsts[] = { 0, 16, 8, 24 };
    for (int i = 0; i < 4; i++)
        t |= cesy_mask(firsts[i], 64), d[i] = 64;
    /* fill the rest of the table so that only 32, 48, 40, 56 are free */
    uint64_t rest = ~t & ~(cesy_mask(32, 64) | cesy_mask(48, 64) | cesy_mask(40, 64) | cesy_mask(56, 64));
    assert_int_equal(arbtab_count(rest), 56);
    int n = 4;
    while (rest) { /* as d=64 singles, enough for this test */
        int e = __builtin_ctzll(rest);
        rest &= rest - 1;
        t |= cesy_mask(e, 64);
        (void)e;
    }
    assert_int_equal(64 - arbtab_count(t), 4);
    assert_int_equal(cesy_find_first(t, 16), -1);
    /* A smaller set for the repack: the four singles plus one d=16 request fit after it. */
    d[n++] = 16;
    assert_int_equal(cesy_repack(d, n, m), 0);
    uint64_t all = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(all & m[i], 0);
        all |= m[i];
        assert_int_equal(arbtab_count(m[i]), 64 / d[i]);
        assert_int_equal(arbtab_max_gap(m[i]), d[i]);
    }
    int big[3] = { 2, 2, 64 }; /* 65 entries: cannot */
    assert_int_equal(cesy_repack(big, 3, m), -1);
}

static void test_cenre_rules(void **st)
{
    (void)st;
    assert_int_equal(cenre_spacing(45), 32);
    assert_int_equal(cenre_spacing(15), 13);
    assert_int_equal(cenre_spacing(9), 8);
    assert_int_equal(cenre_spacing(3), 3);
    uint64_t m;
    /* Empty table: exact count, gaps within d. */
    for (int d = 2; d <= 64; d++) {
        int n = cenre_place(0, d, &m);
        assert_int_equal(n, arbtab_entries_for(d));
        assert_true(arbtab_max_gap(m) <= d);
    }
    /* A run of 9 taken entries forbids distance 9 and allows 10. */
    uint64_t t = 0x1ffull;
    assert_int_equal(cenre_place(t, 9, &m), -1);
    assert_true(cenre_place(t, 10, &m) >= 7);
    assert_int_equal(m & t, 0);
    assert_true(arbtab_max_gap(m) <= 10);
    /* Fewer free entries than needed: refused. */
    /* Entries 0 and 1 free: a run of 62 taken entries forbids every distance below 63. */
    assert_int_equal(cenre_place(~0ull << 2, 32, &m), -1);
    assert_int_equal(cenre_place(~0ull << 2, 64, &m), 1);
    assert_int_equal(m, 1ull);
}

static void test_conversions(void **st)
{
    (void)st;
    /* One entry at 255 is C/64: 39.0625 Mb/s at 2.5 Gb/s. */
    assert_float_equal(arbtab_weight_units(39.0625e6, 2.5e9), 255.0, 1e-9);
    /* Digest 001 3.11: 256-B packets at 2.5 Gb/s, q = 3: T_hop(2) = 215 us, T_hop(64) = 13.3 ms,
     * T_hop(4) = 638 us. */
    assert_true(fabs((double)arbtab_hop_bound(2, 256, 2.5e9, 3, 0) - 215e6) < 1e6);
    assert_true(fabs((double)arbtab_hop_bound(64, 256, 2.5e9, 3, 0) - 13.32e9) < 0.01e9);
    assert_true(fabs((double)arbtab_hop_bound(4, 256, 2.5e9, 3, 0) - 638e6) < 1e6);
    assert_int_equal(arbtab_distance_for(arbtab_hop_bound(17, 256, 2.5e9, 3, 0), 256, 2.5e9, 3, 0), 17);
    assert_int_equal(arbtab_distance_for(1000000, 256, 2.5e9, 3, 0), 0); /* 1 us: too short */
    /* The crossbar's turns (docs/qos.md "The hop bound"): none with a read port per output
     * (0, or as many as ports) or an input holding one packet; else every other packet the
     * input holds, shared by its read ports. Seed 001's switch: 8 ports, one read port, 15
     * data VLs of 4 packets: 59 turns. */
    assert_int_equal(arbtab_xbar_turns(0, 8, 60), 0);
    assert_int_equal(arbtab_xbar_turns(8, 8, 60), 0);
    assert_int_equal(arbtab_xbar_turns(1, 8, 1), 0);
    assert_int_equal(arbtab_xbar_turns(1, 8, 60), 59);
    assert_int_equal(arbtab_xbar_turns(2, 8, 60), 29);
    assert_int_equal(arbtab_xbar_turns(7, 8, 60), 8);
    /* Each lost turn costs one gap G(d): T_hop = (q + 1 + k) G(d) + MTU/C, exactly. At d = 2,
     * 256 B, 2.5 Gb/s: G = (16512 + 256) B = 53.6576 us, MTU/C = 0.8192 us; k = 59 gives
     * 63 G + 0.8192 us = 3381.248 us (old: 4 G + 0.8192 us = 215.4496 us). */
    assert_int_equal(arbtab_hop_bound(2, 256, 2.5e9, 3, 0), 215449600);
    assert_int_equal(arbtab_hop_bound(2, 256, 2.5e9, 3, 59), 3381248000LL);
    for (int d = 2; d <= 64; d++) {
        simtime_t g = ((simtime_t)(d - 1) * (254 * 64 + 256) + 256) * 3200; /* G(d): 3.2 ns a byte */
        for (int k = 0; k <= 59; k += 59)
            assert_true(llabs(arbtab_hop_bound(d, 256, 2.5e9, 3, k) - ((4 + k) * g + 819200)) <= 1);
    }
    /* A deadline maps to a shorter distance when turns can be lost: 20 ms per hop is
     * distance 64 for the table alone, 6 with 59 lost turns. */
    assert_int_equal(arbtab_distance_for(20000000000LL, 256, 2.5e9, 3, 0), 64);
    assert_int_equal(arbtab_distance_for(20000000000LL, 256, 2.5e9, 3, 59), 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_and_gaps),     cmocka_unit_test(test_table1),
        cmocka_unit_test(test_find_first_order),  cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_always_placeable),  cmocka_unit_test(test_fragmentation_repack),
        cmocka_unit_test(test_cenre_rules),       cmocka_unit_test(test_conversions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_vlarb.c: IBA VL arbitration as a pure function of the ready VLs: weighted round robin
 * within a table (weights in 64-byte units, whole packets overrunning their entry), the
 * high-priority table bounded by LimitOfHighPriority (4096-byte units, 255 unbounded, 0 one
 * packet), VL15 first, and OpenSM's "VL:weight" table syntax. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "fabric/vlarb.h"

/* Serve `n` packets of `bytes` each with all VLs in `ready` always ready; count per VL. */
static void serve(const struct vlarb_table *t, uint32_t ready, uint32_t bytes, int n, int *count)
{
    struct vlarb_state s;
    vlarb_state_init(&s);
    memset(count, 0, 16 * sizeof *count);
    for (int i = 0; i < n; i++) {
        int vl = vlarb_pick(t, &s, ready);
        assert_true(vl >= 0);
        count[vl]++;
        vlarb_charge(t, &s, vl, bytes);
    }
}

static void test_weights_share(void **st)
{
    (void)st;
    struct vlarb_table t;
    char why[128];
    memset(&t, 0, sizeof t);
    t.limit_high = VLARB_UNBOUNDED;
    assert_int_equal(vlarb_parse_entries("0:4,1:12", t.low, &t.nlow, why, sizeof why), 0);
    int c[16];
    serve(&t, 0x3, 256, 16000, c); /* 256-byte packets: 1 and 3 packets per turn */
    assert_int_equal(c[0], 4000);
    assert_int_equal(c[1], 12000);
}

static void test_overrun_finishes_entry(void **st)
{
    (void)st;
    struct vlarb_table t;
    char why[128];
    memset(&t, 0, sizeof t);
    t.limit_high = VLARB_UNBOUNDED;
    /* Weight 1 (64 bytes) but 2048-byte packets: each entry sends exactly one whole packet. */
    assert_int_equal(vlarb_parse_entries("0:1,1:1", t.low, &t.nlow, why, sizeof why), 0);
    int c[16];
    serve(&t, 0x3, 2048, 1000, c);
    assert_int_equal(c[0], 500);
    assert_int_equal(c[1], 500);
}

static void test_unready_vl_skipped(void **st)
{
    (void)st;
    struct vlarb_table t;
    vlarb_table_default(&t, 4, 64);
    int c[16];
    serve(&t, 1u << 2, 512, 100, c);
    assert_int_equal(c[2], 100);
    struct vlarb_state s;
    vlarb_state_init(&s);
    assert_int_equal(vlarb_pick(&t, &s, 1u << 7), -1); /* VL 7 is in no table */
}

static void test_vl15_first(void **st)
{
    (void)st;
    struct vlarb_table t;
    vlarb_table_default(&t, 2, 64);
    struct vlarb_state s;
    vlarb_state_init(&s);
    for (int i = 0; i < 10; i++)
        assert_int_equal(vlarb_pick(&t, &s, 0x3 | (1u << 15)), 15);
}

static void test_high_limit(void **st)
{
    (void)st;
    struct vlarb_table t;
    char why[128];
    memset(&t, 0, sizeof t);
    assert_int_equal(vlarb_parse_entries("1:255", t.high, &t.nhigh, why, sizeof why), 0);
    assert_int_equal(vlarb_parse_entries("0:255", t.low, &t.nlow, why, sizeof why), 0);
    int c[16];
    /* Limit 2 (8192 bytes) with 2048-byte packets: 4 high packets, then one low. */
    t.limit_high = 2;
    serve(&t, 0x3, 2048, 5000, c);
    assert_int_equal(c[1], 4000);
    assert_int_equal(c[0], 1000);
    /* Limit 0: one high packet, then one low. */
    t.limit_high = 0;
    serve(&t, 0x3, 2048, 5000, c);
    assert_int_equal(c[1], 2500);
    assert_int_equal(c[0], 2500);
    /* Unbounded: the low table starves while high has packets. */
    t.limit_high = VLARB_UNBOUNDED;
    serve(&t, 0x3, 2048, 5000, c);
    assert_int_equal(c[1], 5000);
    /* Without high-priority packets the low table goes at once. */
    serve(&t, 0x1, 2048, 10, c);
    assert_int_equal(c[0], 10);
}

static void test_parse_errors(void **st)
{
    (void)st;
    struct vlarb_entry e[64];
    uint8_t n;
    char why[128];
    assert_int_equal(vlarb_parse_entries("0:4,1:0,2:64", e, &n, why, sizeof why), 0);
    assert_int_equal(n, 3);
    assert_int_equal(e[2].weight, 64);
    assert_int_equal(vlarb_parse_entries("0:256", e, &n, why, sizeof why), -1);
    assert_int_equal(vlarb_parse_entries("15:4", e, &n, why, sizeof why), -1);
    assert_int_equal(vlarb_parse_entries("0-4", e, &n, why, sizeof why), -1);
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The inline fast path of vlarb_pick (no high table, the current low entry going on) decides
 * exactly as the general vlarb_pick_: the same VL and the same state after every pick and
 * charge, over random tables (zero weights, repeated VLs, high tables or none, entries
 * changed under a running state), ready masks and packet sizes. */
static void test_fast_pick_matches(void **st)
{
    (void)st;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
#define RND() xorshift(&x)
    int fast_hits = 0;
    for (int round = 0; round < 400; round++) {
        struct vlarb_table t;
        memset(&t, 0, sizeof t);
        t.limit_high = (uint8_t)(RND() % 3 == 0 ? VLARB_UNBOUNDED : RND() % 4);
        t.nhigh = (uint8_t)(RND() % 2 ? 0 : RND() % 4);
        t.nlow = (uint8_t)(RND() % 5);
        for (int i = 0; i < t.nhigh; i++)
            t.high[i] = (struct vlarb_entry){ (uint8_t)(RND() % 4), (uint8_t)(RND() % 4 == 0 ? 0 : RND() % 8) };
        for (int i = 0; i < t.nlow; i++)
            t.low[i] = (struct vlarb_entry){ (uint8_t)(RND() % 4), (uint8_t)(RND() % 4 == 0 ? 0 : RND() % 8) };
        struct vlarb_state a, b;
        vlarb_state_init(&a);
        vlarb_state_init(&b);
        for (int k = 0; k < 200; k++) {
            if (k % 50 == 49) /* the table changes under a running state (live QoS tables) */
                for (int i = 0; i < t.nlow; i++)
                    t.low[i].weight = (uint8_t)(RND() % 3 == 0 ? 0 : RND() % 8);
            if (k % 70 == 69)
                t.nlow = (uint8_t)(RND() % 5);
            uint32_t ready = (uint32_t)(RND() % 16) | (RND() % 16 == 0 ? 1u << 15 : 0);
            uint32_t bytes = 26 + (uint32_t)(RND() % 600);
            struct vlarb_state before = a;
            int va = vlarb_pick(&t, &a, ready), vb = vlarb_pick_(&t, &b, ready);
            assert_int_equal(va, vb);
            assert_memory_equal(&a, &b, sizeof a);
            if (va >= 0 && va != 15 && t.nhigh == 0 && before.lo_left > 0)
                fast_hits++;
            if (va >= 0) {
                vlarb_charge(&t, &a, va, bytes);
                vlarb_charge(&t, &b, vb, bytes);
            }
        }
    }
    assert_true(fast_hits > 1000); /* the fast path was taken often */
#undef RND
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_share), cmocka_unit_test(test_overrun_finishes_entry),
        cmocka_unit_test(test_unready_vl_skipped), cmocka_unit_test(test_vl15_first),
        cmocka_unit_test(test_high_limit), cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_fast_pick_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

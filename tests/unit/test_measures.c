/* test_measures.c: unit tests of the derived measures on hand-computed examples: Jain's
 * index, treatment variation (population variance of max-min deltas over all-active times),
 * seed 001 jitter bins and share within IAT/k, DMP/DMT and the video deadline rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/measures.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-12)

static void test_jain(void **state)
{
    (void)state;
    const double eq[] = { 3, 3, 3, 3 }, one[] = { 5, 0, 0, 0 }, ramp[] = { 1, 2, 3, 4 },
                 three[] = { 2, 2, 4 }, zero[] = { 0, 0 };
    NEAR(jain_index(eq, 4), 1.0);
    NEAR(jain_index(one, 4), 0.25);
    NEAR(jain_index(ramp, 4), 100.0 / 120.0); /* (1+2+3+4)^2 / (4 x 30) */
    NEAR(jain_index(three, 3), 64.0 / 72.0);  /* 8^2 / (3 x 24) */
    NEAR(jain_index(zero, 2), 1.0);
    NEAR(jain_index(ramp, 1), 1.0);
}

static void test_treatment_variation(void **state)
{
    (void)state;
    /* four contributors, four sample times; at the last one flow 3 is not active */
    const double x[] = {
        10, 8, 7, 9,  /* delta 3 */
        5, 5, 5, 5,   /* delta 0 */
        12, 6, 9, 9,  /* delta 6 */
        100, 0, 0, 0, /* not all active: skipped */
    };
    const unsigned char act[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1 };
    /* deltas 3, 0, 6: mean 3, population variance (0 + 9 + 9) / 3 = 6 */
    NEAR(treatment_variation(x, act, 4, 4), 6.0);
    struct tv_acc a;
    tv_init(&a);
    assert_int_equal(tv_add(&a, x, act, 4), 1);
    assert_int_equal(tv_add(&a, x + 4, act + 4, 4), 1);
    assert_int_equal(tv_add(&a, x + 8, act + 8, 4), 1);
    assert_int_equal(tv_add(&a, x + 12, act + 12, 4), 0);
    assert_int_equal(a.k, 3);
    NEAR(tv_mean_delta(&a), 3.0);
    NEAR(tv_value(&a), 6.0);
    /* without the activity mask the last row counts: deltas 3, 0, 6, 100 */
    double m = (3 + 0 + 6 + 100) / 4.0;
    double v = ((3 - m) * (3 - m) + m * m + (6 - m) * (6 - m) + (100 - m) * (100 - m)) / 4;
    NEAR(treatment_variation(x, NULL, 4, 4), v);
    /* perfectly fair treatment: constant delta 0 -> Var 0 */
    const double fair[] = { 1, 1, 2, 2, 3, 3 };
    NEAR(treatment_variation(fair, NULL, 2, 3), 0.0);
    tv_init(&a);
    NEAR(tv_value(&a), 0.0);
}

static void test_jitter(void **state)
{
    (void)state;
    const simtime_t I = 800000; /* 800 ns; IAT/8 = 100 ns */
    /* bin edges exactly as in digest 001 */
    assert_int_equal(jitter_bin(0, I), 4);
    assert_int_equal(jitter_bin(I / 8, I), 4);
    assert_int_equal(jitter_bin(-I / 8, I), 4);
    assert_int_equal(jitter_bin(-I / 8 - 1, I), 3);
    assert_int_equal(jitter_bin(I / 8 + 1, I), 5);
    assert_int_equal(jitter_bin(I / 4, I), 5);
    assert_int_equal(jitter_bin(-I / 4, I), 3);
    assert_int_equal(jitter_bin(-I / 4 - 1, I), 2);
    assert_int_equal(jitter_bin(I / 2, I), 6);
    assert_int_equal(jitter_bin(-I / 2, I), 2);
    assert_int_equal(jitter_bin(-I / 2 - 1, I), 1);
    assert_int_equal(jitter_bin(I, I), 7);
    assert_int_equal(jitter_bin(I + 1, I), 8);
    assert_int_equal(jitter_bin(-I, I), 1);
    assert_int_equal(jitter_bin(-I - 1, I), 0);

    struct jitter j;
    jitter_init(&j, I, 8);
    const simtime_t arr[] = { 0, 800000, 1700000, 2500001, 3200000, 5000000, 5000000 };
    /* samples: 0, +100000, +1, -100001, +1000000, -800000 */
    for (int i = 0; i < 7; i++)
        jitter_add(&j, arr[i]);
    assert_int_equal(j.n, 6);
    NEAR(jitter_share_within(&j), 0.5);
    assert_int_equal(j.bins[4], 3);
    assert_int_equal(j.bins[3], 1);
    assert_int_equal(j.bins[8], 1);
    assert_int_equal(j.bins[1], 1);
    NEAR(jitter_bin_share(&j, 4), 0.5);
    /* a wider central interval, IAT/2: adds the -100001 sample */
    jitter_init(&j, I, 2);
    for (int i = 0; i < 7; i++)
        jitter_add(&j, arr[i]);
    NEAR(jitter_share_within(&j), 4.0 / 6);
    /* aggregate two connections of one SL: the 6 samples above and 2 perfect ones */
    struct jitter sl, other;
    jitter_init(&sl, 0, 2);
    jitter_merge(&sl, &j);
    jitter_init(&other, 1000, 2);
    jitter_add(&other, 0);
    jitter_add(&other, 1000);
    jitter_add(&other, 2000);
    jitter_merge(&sl, &other);
    assert_int_equal(sl.n, 8);
    NEAR(jitter_share_within(&sl), 6.0 / 8);
    assert_int_equal(sl.bins[4], 5);
    jitter_init(&j, I, 8);
    jitter_add(&j, 42);
    NEAR(jitter_share_within(&j), 0.0);
}

static void test_deadlines(void **state)
{
    (void)state;
    struct deadline_acc a;
    deadline_init(&a);
    assert_int_equal(deadline_add(&a, 100, 100), 0); /* on time */
    assert_int_equal(deadline_add(&a, 90, 100), 0);
    assert_int_equal(deadline_add(&a, 130, 100), 1);
    assert_int_equal(deadline_add(&a, 110, 100), 1);
    NEAR(deadline_dmp(&a), 0.5);
    assert_int_equal(deadline_dmt(&a), 20);

    /* video rule with the papers' 33.3 ms: frames at 30, 70, 100, 136.6, 180 ms from start 0 */
    struct video_deadline v;
    deadline_init(&a);
    vdl_init(&v, 0, VIDEO_DEADLINE_PERIOD, VIDEO_DEADLINE_PERIOD);
    const simtime_t ms = PS_PER_MS;
    assert_int_equal(vdl_frame(&v, 30 * ms, &a), 0);     /* deadline 33.3: met */
    assert_int_equal(v.next, 666 * ms / 10);
    assert_int_equal(vdl_frame(&v, 70 * ms, &a), 1);     /* deadline 66.6: late by 3.4 */
    assert_int_equal(v.next, 1033 * ms / 10);            /* reset: 70 + 33.3 */
    assert_int_equal(vdl_frame(&v, 100 * ms, &a), 0);    /* deadline 103.3: met */
    assert_int_equal(vdl_frame(&v, 1366 * ms / 10, &a), 0); /* exactly at 136.6: met */
    assert_int_equal(vdl_frame(&v, 180 * ms, &a), 1);    /* deadline 169.9: late by 10.1 */
    assert_int_equal(a.frames, 5);
    NEAR(deadline_dmp(&a), 0.4);
    assert_int_equal(deadline_dmt(&a), 675 * ms / 100); /* (3.4 + 10.1) / 2 = 6.75 ms */
    assert_int_equal(v.frame, 5);
    struct deadline_acc all;
    deadline_init(&all);
    deadline_merge(&all, &a);
    deadline_merge(&all, &a);
    assert_int_equal(all.frames, 10);
    NEAR(deadline_dmp(&all), 0.4);
    assert_int_equal(deadline_dmt(&all), 675 * ms / 100);
    /* a stream starting later */
    vdl_init(&v, 5 * ms, 10 * ms, 10 * ms);
    assert_int_equal(vdl_frame(&v, 16 * ms, NULL), 1);
    assert_int_equal(v.next, 26 * ms);
    /* a playout delay of 25 ms on a 10 ms frame clock: the first deadline is 25 ms after the
     * first frame, later ones advance by the period, a miss restarts one period after it */
    vdl_init(&v, 5 * ms, 10 * ms, 25 * ms);
    assert_int_equal(v.next, 30 * ms);
    assert_int_equal(vdl_frame(&v, 29 * ms, NULL), 0);   /* deadline 30: met */
    assert_int_equal(vdl_frame(&v, 41 * ms, NULL), 1);   /* deadline 40: late */
    assert_int_equal(v.next, 51 * ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jain),
        cmocka_unit_test(test_treatment_variation),
        cmocka_unit_test(test_jitter),
        cmocka_unit_test(test_deadlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_msgtab.c: the table from message number to value (src/fabric/msgtab.c) against a plain
 * array: random puts, overwrites and takes of numbers that share home entries (multiples of the
 * size) and wrap past the table's end, through several doublings and back down to empty; every
 * value taken is the one last put, nothing is lost by a backward shift, and the count in use
 * stays right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "fabric/msgtab.h"

#define NUMS 300

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_against_array(void **st)
{
    (void)st;
    struct msgtab t;
    msgtab_init(&t, 4);
    int64_t ref[NUMS];
    int in[NUMS];
    memset(in, 0, sizeof in);
    uint32_t seed = 7, used = 0, grew = 0;
    for (int step = 0; step < 200000; step++) {
        /* numbers clustered on few homes: k x 64 + small, and some near UINT32_MAX - 1 */
        uint32_t k = lcg(&seed) % NUMS;
        uint32_t msg = k < NUMS - 20 ? (k / 8) * 64 + k % 8 : UINT32_MAX - 1 - (NUMS - k);
        int take = step < 100000 ? lcg(&seed) % 3 == 0 : lcg(&seed) % 3 != 0;
        if (take && in[k]) {
            assert_int_equal(msgtab_take(&t, msg, "test"), ref[k]);
            in[k] = 0;
            used--;
        } else if (!take) {
            int64_t v = (int64_t)lcg(&seed) * 1000 + step;
            msgtab_put(&t, msg, v);
            used += !in[k];
            in[k] = 1;
            ref[k] = v;
        }
        assert_int_equal(t.used, used);
        assert_true(t.used < t.slots);
        grew = t.slots > grew ? t.slots : grew;
    }
    for (int k = 0; k < NUMS; k++)
        if (in[k]) {
            uint32_t msg = k < NUMS - 20 ? (uint32_t)(k / 8) * 64 + (uint32_t)k % 8
                                          : UINT32_MAX - 1 - (uint32_t)(NUMS - k);
            assert_int_equal(msgtab_take(&t, msg, "test"), ref[k]);
        }
    assert_int_equal(t.used, 0);
    assert_true(grew >= 256); /* it doubled from 4 past the 150-odd numbers at once in use */
    msgtab_free(&t);
    msgtab_free(&t); /* freeing twice (a freed table is zeroed) is harmless */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

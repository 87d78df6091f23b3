/* test_seed001_tables.c: seed 001's table numbers through `ibnetsim repro tables`: Table 1
 * exactly, the Fig. 6c worked example exactly (entries 19 and 51 left free), CESY's wasted
 * entries over random fillings within 3 % of 8.78 and 5.68. Every row must be within its
 * stated tolerance except CENRE's two waste rows, known misses (2.37 vs 1.96, 0.98 vs 0.86: its
 * FindEntries is a reconstruction, docs/qos.md); a known miss that starts to match only prints
 * a note. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

static void test_rows(void **st)
{
    (void)st;
    const struct repro *r = repro_find("tables");
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    assert_int_equal(r->run(&t, &e), 0);
    repro_print(stdout, &t);
    assert_true(t.n >= 20);
    for (int i = 0; i < t.n; i++) {
        int known = !strcmp(t.rows[i].id, "waste.cenre.uniform") ||
                    !strcmp(t.rows[i].id, "waste.cenre.prop");
        if (!t.rows[i].ok && !known)
            fail_msg("%s: %g, paper %s", t.rows[i].id, t.rows[i].ours, t.rows[i].paper);
        if (t.rows[i].ok && known)
            printf("note: %s now matches the paper: update docs/qos.md\n", t.rows[i].id);
    }
    repro_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rows) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

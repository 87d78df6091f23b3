/* test_tree_fractions.c: Paper II section 4.4's worst-case round-robin fractions through
 * `ibnetsim repro p2tree` (src/repro/seed002_fairness.c): every other host of a k-ary n-tree
 * routed D-mod-K (ftree) saturates one host, congestion control off, and each source's share
 * of that host's link must be the paper's, derived from per-input round robin: 1/4, 1/64 and
 * 1/768 in the 4-ary 3-tree, and in a 2-ary 4-tree 1/2 for the nearest and
 * 1/(k^(2n-1) - k^(2n-2)) = 1/64 for the furthest sources, within 2 %, with the sources of
 * one level within 5 % of each other. Per-flow round robin, a FIFO input or other routing
 * gives other fractions. A fraction of a second: in the default suite. */
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
    const struct repro *r = repro_find("p2tree");
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    if (repro_exec(r, &t, &e))
        fail_msg("p2tree: %s", e.msg);
    repro_print(stdout, &t);
    assert_int_equal(t.n, (3 + 3) + (4 + 3)); /* levels, and spreads of levels with 2+ sources */
    for (int i = 0; i < t.n; i++) {
        assert_int_equal(t.rows[i].kind, REPRO_EVIDENCE);
        if (!t.rows[i].ok)
            fail_msg("%s: %g, paper %s", t.rows[i].id, t.rows[i].ours, t.rows[i].paper);
    }
    repro_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rows) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

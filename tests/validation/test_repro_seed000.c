/* test_repro_seed000.c: the seed 000 rate-control reproduction (`ibnetsim repro s000`,
 * src/repro/seed000_cc.c; docs/ecnrate.md). Every row within its tolerance (or whose trend
 * holds) must stay so; the rows that do not reproduce must stay in the ranges docs/ecnrate.md
 * reports, so that a change of the model shows either way. Runs in about a second. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../support/repro_check.h"

static const struct repro_known known[] = {
    { "s0.pipd.A.r2", 40e3, 100e3 },        /* 67k vs 150k: below the factor 2 */
    { "s0.pipd.B.r2", 50e3, 130e3 },        /* 85k vs 260k */
    { "s0.fimd_pipd.A.r2", 1.1, 1.8 },      /* r2 gains when r1 uses FIMD (thesis: loses) */
    { "s0.fimd_pipd.B.r2", 1.2, 1.9 },
    { "s0.nocc.A_blocked", 0.0, 0.05 },     /* a symmetric fabric: no credit wait at A's port */
    { "s0.pipd.A_blocked", 0.0, 0.01 },
    { "s0.pipd.victim_gain", 0.2, 0.6 },    /* the victim is marked at A too and loses */
};

static void test_s000(void **st)
{
    (void)st;
    assert_int_equal(repro_check("s000", known, sizeof known / sizeof known[0], "docs/ecnrate.md)"), 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_s000) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

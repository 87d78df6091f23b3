/* test_seed001_table3.c: seed 001's network results through `ibnetsim repro table3` (8 and 16
 * switches simulated; several minutes): every evidence row within its tolerance (stated in
 * src/repro/seed001_table3.c before the runs) except the known misses docs/qos.md explains: the
 * connection counts (the paper's request process is not given; ours stops after 10 000
 * consecutive refusals and admits 31-80 % more, mostly tiny SL 6 connections), the 16-switch
 * host utilisation (3.0 points above the paper: our reservation is 42 Mb/s higher and the
 * traffic delivers exactly what is reserved, where the paper's is 1-2 % below), and Fig. 8's
 * "never beyond +-IAT" for the high-bandwidth SLs 5, 8 and 9 (0.1-2 % of their samples are:
 * mostly waits for the input's one crossbar read port, the rest the high table's service;
 * docs/qos.md). A known miss that starts to match only prints a note. In this part (`small`)
 * every packet delivered and none late are never misses. */
/* Part `big` (`ibnetsim repro table3big`, 32 and 64 switches with 309 325 and 628 034
 * connections carrying traffic for 10 ms; about 5 minutes and 1.7 GB): the same rules; its
 * known misses are the connection counts. No packet may be late: since 2026-11-24 the hop
 * bound includes the turns an input's crossbar read port can take (docs/qos.md "The hop
 * bound"); with the bound of the output's table alone 771 of 2.2 M SL 0 packets on 64
 * switches were past it, at most 1.79 times. */
/* ctest-label: repro */
/* ctest-parts: small big */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

static int known_miss(const char *id)
{
    static const char *const miss[] = { "t3.8.connections", "t3.16.connections", "t3.16.host_util",
                                        "t3.16.fig8.sl5.beyond",
                                        "t3.16.fig8.sl8.beyond", "t3.16.fig8.sl9.beyond",
                                        "t3.32.connections", "t3.64.connections", NULL };
    for (int i = 0; miss[i]; i++)
        if (!strcmp(id, miss[i]))
            return 1;
    return 0;
}

static const char *which = "table3";

static void test_rows(void **st)
{
    (void)st;
    int big = !strcmp(which, "table3big");
    const struct repro *r = repro_find(which);
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    assert_int_equal(repro_exec(r, &t, &e), 0);
    repro_print(stdout, &t);
    int must = 0;
    for (int i = 0; i < t.n; i++) {
        const struct repro_row *x = &t.rows[i];
        if (x->kind != REPRO_EVIDENCE)
            continue;
        size_t l = strlen(x->id);
        if (l > 4 && (!strcmp(x->id + l - 4, "lost") || !strcmp(x->id + l - 4, "late")))
            must++;
        if (!x->ok && known_miss(x->id) && (!strcmp(x->id + l - 4, "lost") || !strcmp(x->id + l - 4, "late")))
            printf("known miss (docs/qos.md): %s: %g packets\n", x->id, x->ours);
        if (!x->ok && !known_miss(x->id))
            fail_msg("%s: %g, paper %s", x->id, x->ours, x->paper);
        if (x->ok && known_miss(x->id))
            printf("note: %s now matches the paper: update docs/qos.md\n", x->id);
    }
    /* lost and late for both sizes, and (table3) late on other VLs under excess */
    assert_int_equal(must, big ? 4 : 5);
    repro_table_free(&t);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "big"))
        which = "table3big";
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_rows) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

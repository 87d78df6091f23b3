/* ctest-label: repro */
/* test_repro_seed004.c: seed 004's reproductions (`ibnetsim repro seed004`, src/repro/seed004.c):
 * the worked example of Figs. 4 and 5, the 15-node network's path bits, the HLL law, dropping
 * breaking an SPF deadlock, the best-effort-only claims, and Figs. 7-9 with the MPEG-2 mix on
 * generated irregular networks (3 topology seeds; the paper's are not printed), and Fig. 10's
 * multicast rows (8 topology seeds; docs/multicast.md). Two checks per
 * row, as for seed 002:
 *  - its kind is the one listed below (unlisted rows: evidence), so a change of classification
 *    is made in docs/seed004.md and here;
 *  - every evidence row is within the paper's tolerance and every trend row holds, except the
 *    known misses listed (docs/seed004.md gives the cause of each). A known miss that starts to
 *    reproduce only prints a note. No ranges around ibnetsim's own earlier output.
 * Takes several minutes: labelled repro. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../support/repro_check.h"

static const struct repro_kind_of kinds[] = {
    { "net15-path-bits", REPRO_DERIVED },
    { "net15-table-sizes", REPRO_INFO },
    { "hll-hv8", REPRO_DERIVED },
    { "drop-breaks-deadlock", REPRO_TREND },
    { "fig9-mp-low-load", REPRO_TREND },
    { "fig7-mp-high-load", REPRO_TREND },
    { "fig7-mp-high-load-9bits", REPRO_TREND },
    { "be50-links-per-packet", REPRO_INFO },
    { "be50-delivered-share", REPRO_INFO },
    { "be50-slack1", REPRO_INFO },
    { "fig7-spf-vs-updn-mix", REPRO_TREND },
    { "fig7-low-load", REPRO_TREND },
    { "fig7-lfu-rt-ct", REPRO_TREND },
    { "fig7-credit-be", REPRO_TREND },
    { "fig8-dmp-smaller", REPRO_TREND },
    { "fig8-mpdrop-dmp", REPRO_TREND },
    { "fig8-lfu-rt-ct", REPRO_TREND },
    { "fig8-credit-be", REPRO_TREND },
    { "fig9-be-20-up", REPRO_TREND },
    { "fig9-rt-ct-20-down", REPRO_TREND },
    { "fig10c-unicast-worst", REPRO_TREND },
    { "fig10c-sync-eq-async", REPRO_TREND },
    { "fig10c-central-best", REPRO_TREND },
    { "fig10a-dmp", REPRO_TREND },
    { "fig10e-best-effort", REPRO_TREND },
    { "fig10d-control", REPRO_TREND },
    { "fig10c-unicast-worst-pipe", REPRO_TREND },
    { "fig10c-sync-eq-async-pipe", REPRO_TREND },
    { "fig10c-central-best-pipe", REPRO_TREND },
    { "fig10a-dmp-pipe", REPRO_TREND },
    { "fig10e-best-effort-pipe", REPRO_TREND },
    { "fig10d-control-pipe", REPRO_TREND },
    { "fig10f-policy1-best", REPRO_TREND },
    { "fig10f-log-best", REPRO_TREND },
};

/* Rows that miss the paper (docs/seed004.md section "Known misses" gives the cause of each). */
static const char *const misses[] = {
    "fig7-mp-high-load", /* best effort only: 2.7x instead of 0.5x (longer, cyclic path-bit routes) */
    "fig7-mp-high-load-9bits", /* the same with the paper's 9 path bits: 3.9x */
    "fig7-spf-vs-updn-mix", /* SPF's best effort deadlocks at 50-60 % where Up/Down's does not */
    "fig7-low-load",     /* DMP differs by up to 0.026 at 40 % */
    "fig7-dmp60-lfu-drop", "fig7-dmt60-lfu-drop", "fig7-dmp60-credit-drop",
    "fig7-dmt60-credit-drop", "fig7-mp-half-lfu", "fig7-mp-half-credit", /* multipath worse */
    "fig7-dmp60-lfu-drop-9bits", "fig7-dmt60-lfu-drop-9bits", "fig7-dmp60-credit-drop-9bits",
    "fig7-dmt60-credit-drop-9bits", "fig7-mp-half-lfu-9bits", "fig7-mp-half-credit-9bits",
    /* 9 path bits: no longer worse than SPF for real time, far from the paper's gains */
    "fig7-lfu-rt-ct", "fig7-credit-be", "fig8-mpdrop-dmp", "fig8-credit-be",
    "fig9-rt-28", "fig9-ct-28", "fig9-be-28", "fig9-be-20-up", "fig9-rt-ct-20-down",
    "fig10a-dmp",     /* no frame late under replicated unicast: undefined (docs/seed004.md 3) */
    "fig10d-control", /* not below 1 on every network */
    "fig10f-log-best", /* multicast latency falls as its VL's weight grows: linear (n) beats
                        * 1 + ln n (docs/multicast.md, Bandwidth and VL allocation) */
    /* on the seed's pipelined switch (the -pipe rows, docs/seed004.md 4): synchronous
     * replication 1.3-3.6x asynchronous's latency, the central buffer above asynchronous, and the
     * eight networks' spread wider than the best-effort and control margins */
    "fig10c-sync-eq-async-pipe", "fig10c-central-best-pipe",
    "fig10a-dmp-pipe", "fig10e-best-effort-pipe", "fig10d-control-pipe",
};

static void test_seed004(void **st)
{
    (void)st;
    repro_check_kinds("seed004", kinds, sizeof kinds / sizeof kinds[0], misses,
                      sizeof misses / sizeof misses[0], "docs/seed004.md");
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_seed004) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_paper4_fig8_ends.c: the p = 100 end of seed 002 Paper IV Fig. 8 (100 % B nodes), scaled
 * down for the default suite: scenarios/seed002/paper4-windy-b100(-ccon).cfg on a fat tree of
 * 8-port switches (32 hosts) with 2 hot spots, 20 ms measured from 10 ms. At p = 1 every B
 * node's byte budget goes to its hot spot and none to the uniform class (Frame I). Only a hot
 * spot that is a B node of its own subset sends elsewhere (it cannot send to itself; the
 * pattern then sends uniformly, traffic/pattern.c), so from first principles the non-hot spots
 * together receive at most 2 x 13.5 Gb/s, with or without congestion control, and without CC
 * each hot spot, fed by about 15 senders of 13.5 Gb/s, receives its 13.6 Gb/s limit (within
 * 1 %). With CC a hot spot cannot receive more than its limit either. (Paper IV calls CC's
 * effect at p = 100 "virtually no effect"; the 648-node rows: `ibnetsim repro fig8`,
 * tests/repro.) A p = 0.9 run checks the other side of the budget: the hot spots still
 * saturated, and the non-hot spots' receive rate at most the B nodes' uniform budget, 10 % of
 * 13.5 Gb/s each, plus the hot spots' own traffic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "repro/repro.h"

static void run(const char *file, const char *p, struct repro_series *s)
{
    char po[48];
    snprintf(po, sizeof po, "flows.Q.pattern.p=%s", p);
    const char *over[] = { "topology.args=ports=8, levels=2, link=4xDDR, delay=10 ns",
                           "flows.Q.pattern.hotspots=2", po, "simulation.duration=30 ms",
                           "simulation.warmup=10 ms" };
    struct ibn_err e;
    if (repro_run(file, over, 5, s, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
}

static void test_p100(void **st)
{
    (void)st;
    struct repro_series off, on;
    run("seed002/paper4-windy-b100.cfg", "1", &off);
    run("seed002/paper4-windy-b100-ccon.cfg", "1", &on);
    printf("  CC off: %d hosts, %d hot spots %.3f Gb/s, %d others %.4f Gb/s, total %.2f Gb/s\n",
           off.nhosts, off.rc.hot, off.rc.hot_gbps, off.rc.other, off.rc.other_gbps,
           off.rc.total_gbps);
    printf("  CC on:  hot spots %.3f Gb/s, others %.4f Gb/s, total %.2f Gb/s\n", on.rc.hot_gbps,
           on.rc.other_gbps, on.rc.total_gbps);
    assert_int_equal(off.nhosts, 32);
    assert_int_equal(off.rc.hot, 2);
    double uni_off = off.rc.other_gbps * off.rc.other, uni_on = on.rc.other_gbps * on.rc.other;
    assert_true(uni_off <= 2 * 13.5 * 1.001 && uni_on <= 2 * 13.5 * 1.001);
    assert_true(fabs(off.rc.hot_gbps - 13.6) <= 0.01 * 13.6);
    assert_true(on.rc.hot_gbps <= 13.6 * 1.001);
    repro_series_free(&off);
    repro_series_free(&on);
}

static void test_p90(void **st)
{
    (void)st;
    struct repro_series off;
    run("seed002/paper4-windy-b100.cfg", "0.9", &off);
    printf("  p = 0.9, CC off: hot spots %.3f Gb/s, others %.4f Gb/s\n", off.rc.hot_gbps,
           off.rc.other_gbps);
    assert_true(off.rc.other_gbps > 0);
    assert_true(off.rc.other_gbps * off.rc.other <= 32 * 1.35 + 2 * 13.5);
    assert_true(fabs(off.rc.hot_gbps - 13.6) <= 0.01 * 13.6);
    repro_series_free(&off);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_p100), cmocka_unit_test(test_p90) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_paper6_generation.c: no head-of-line blocking at traffic generation in seed 002's Paper VI
 * scenarios (scenarios/seed002/paper6-pattern2-64.cfg as shipped, shortened to 3 ms, seed 1).
 *
 * Paper VI section 3.2 (seed 002 line 2301): every HCA has "as many generation queues as endnodes
 * in the network ... Thus, the HoL-blocking is prevented at traffic generation"; a source whose
 * destination must wait (throttled by its CCTI, or named by a stopped CAM line: the eligibility
 * rule) sends to the others meanwhile. In ibnetsim that is a queue pair per destination (IB CC,
 * level = qp) with room to set aside started messages (cc.held_messages). With the default 16, a
 * uniform source under EcoCC soon has all 16 taken by messages to stopped or throttled hot spots
 * and then waits, idle, for one of them: EcoCC fell 14 % below VOQnet over (1, 3] ms (the
 * Table 3 reproduction, 5 seeds), where Paper VI Table 3 says EcoCC's gain over VOQnet is about 0
 * on this network.
 *
 * Checked: EcoCC (ecocc switches, IB CC adapters with the switch side off, as `ibnetsim repro
 * isolation` runs it) against VOQnet (a queue per destination at every input, 128 KiB each) on
 * the scenario as shipped: the mean over the 20 us samples in (1, 3] ms of thr_EcoCC / thr_VOQnet
 * - 1 (thr = payload of all flows) within 10 points of 0 (the bound for Table 3). And the
 * check can fail: with -s cc.held_messages=16 (the generation HoL) the same gain is below -10.
 * Measured 2026-11-24 with the scenario's IB CC values of Paper III (Paper VI's [20], the
 * default since that day): -0.1 % as shipped, -12.8 % with 16 set-aside messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "repro/repro.h"

#define FILE6 "seed002/paper6-pattern2-64.cfg"

static double total(const struct repro_series *s, int k)
{
    double x = 0;
    for (int i = 0; i < s->nflows; i++)
        x += s->x[(size_t)k * (size_t)s->nflows + (size_t)i];
    return x;
}

/* Mean of thr_a / thr_b - 1 over the samples in (1, 3] ms, percent. */
static double gain(const struct repro_series *a, const struct repro_series *b)
{
    double sum = 0;
    int n = 0;
    int ns = a->nsamples < b->nsamples ? a->nsamples : b->nsamples;
    for (int k = 0; k < ns; k++)
        if (a->t[k] > 1e-3 && a->t[k] <= 3e-3 + 1e-12 && total(b, k) > 0) {
            sum += total(a, k) / total(b, k) - 1;
            n++;
        }
    assert_true(n >= 90); /* 100 samples of 20 us */
    return 100 * sum / n;
}

static void run(const char *const *over, int nover, struct repro_series *s)
{
    struct ibn_err e;
    if (repro_run(FILE6, over, nover, s, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    assert_true(s->drained);
}

static void test_ecocc_close_to_voqnet(void **st)
{
    (void)st;
    static const char *const voqnet[] = { "simulation.duration=3 ms", "simulation.seed=1",
                                          "switch.arch=voqnet", "cc.plugin=none",
                                          "switch.voqnet_queue=128 KiB", "switch.buffer=8 MiB" };
    static const char *const eco[] = { "simulation.duration=3 ms", "simulation.seed=1", "switch.arch=ecocc",
                                       "cc.plugin=ibcc", "cc.threshold=0" };
    static const char *const eco16[] = { "simulation.duration=3 ms", "simulation.seed=1",
                                         "switch.arch=ecocc", "cc.plugin=ibcc", "cc.threshold=0",
                                         "cc.held_messages=16" };
    struct repro_series v, a, b;
    run(voqnet, 6, &v);
    run(eco, 5, &a);
    run(eco16, 6, &b);
    double g = gain(&a, &v), g16 = gain(&b, &v);
    printf("  EcoCC over VOQnet, (1, 3] ms: %.1f %% as shipped (Paper VI Table 3: about 0, +-10), "
           "%.1f %% with 16 set-aside messages (generation HoL)\n", g, g16);
    assert_true(fabs(g) <= 10);
    assert_true(g16 < -10);
    repro_series_free(&v);
    repro_series_free(&a);
    repro_series_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ecocc_close_to_voqnet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

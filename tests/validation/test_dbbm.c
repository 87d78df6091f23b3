/* test_dbbm.c: DBBM (switch.arch = dbbm) removes head-of-line blocking between destinations in
 * different FIFOs and only there. One 16-port switch, every host saturating with 2048-byte
 * messages to uniformly random other hosts (as test_hol_blocking). With Q = 1 FIFO per input
 * DBBM is the 1Q switch: exactly its throughput (Karol's ~0.60 here); with Q = 16 every
 * destination has its own FIFO and there is no head-of-line blocking left: the VOQ switch's
 * throughput, within 0.03; in between, more FIFOs separate more destinations and the throughput
 * rises strictly with Q = 1, 2, 4, 8, 16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static double saturation(const char *arch, const char *q)
{
    struct testsim s;
    char why[128];
    ts_init(&s, "single_switch", "ports=16,link=4xQDR");
    if (param_set(params_find(switch_params, "arch"), &s.d.set, arch, why, sizeof why) ||
        (q && param_set(params_find(switch_params, "dbbm_queues"), &s.d.set, q, why, sizeof why)))
        fail_msg("%s", why);
    s.d.warmup = PS_PER_MS;
    s.d.end = 3 * PS_PER_MS;
    ts_flow(&s, "U", "*", "uniform", "saturate", NULL, "2048 B", 0, 0);
    ts_run(&s);
    assert_true(s.rep.invariants_ok);
    double total = 0;
    for (uint32_t i = 0; i < s.f.nflows; i++)
        total += (double)s.f.flows[i].st.bytes_delivered * 8.0 / 2e-3 / 1e9;
    ts_free(&s);
    return total / (16 * 32.0 * 2048.0 / 2074.0);
}

static void test_dbbm_between_1q_and_voq(void **st)
{
    (void)st;
    double one = saturation("1q", NULL), voq = saturation("voq", NULL);
    const char *qs[5] = { "1", "2", "4", "8", "16" };
    double d[5];
    for (int i = 0; i < 5; i++)
        d[i] = saturation("dbbm", qs[i]);
    printf("  1Q %.4f, VOQ %.4f; DBBM Q=1 %.4f, 2 %.4f, 4 %.4f, 8 %.4f, 16 %.4f\n", one, voq, d[0], d[1],
           d[2], d[3], d[4]);
    assert_true(d[0] == one);
    for (int i = 1; i < 5; i++)
        assert_true(d[i] > d[i - 1]);
    assert_true(fabs(d[4] - voq) < 0.03);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_dbbm_between_1q_and_voq) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

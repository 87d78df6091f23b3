/* test_link_rate.c: a saturated link delivers exactly its data rate times
 * payload / (payload + header bytes), for several widths, speeds and MTUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static void check(const char *link, double data_gbps, const char *mtu)
{
    struct testsim s;
    char args[64];
    snprintf(args, sizeof args, "ports=2,link=%s", link);
    ts_init(&s, "single_switch", args);
    char why[128];
    assert_int_equal(param_set(params_find(fabric_params, "mtu"), &s.d.set, mtu, why, sizeof why), 0);
    /* Measure about 5000 packets after a warm-up of 100 packet times. */
    double pkt_ps = (atof(mtu) + 26) * 8.0 / data_gbps * 1e3;
    s.d.warmup = (simtime_t)(100 * pkt_ps);
    s.d.end = s.d.warmup + (simtime_t)(5000 * pkt_ps);
    ts_flow(&s, "F", "H1", "H2", "saturate", NULL, "65536 B", 0, 0);
    ts_run(&s);
    double payload = (double)s.d.set.mtu, wire = payload + 8 + 12 + 4 + 2;
    double expect = data_gbps * payload / wire, got = ts_gbps(&s, "F");
    /* Tolerance 0.1 %: counting whole packets in the window quantises by 1/5000 = 0.02 %. */
    printf("%s MTU %s: expect %.4f Gb/s, got %.4f Gb/s\n", link, mtu, expect, got);
    assert_true(fabs(got - expect) / expect < 1e-3);
    assert_int_equal(s.rep.outcome, RUN_DRAINED);
    ts_free(&s);
}

static void test_qdr_2048(void **st) { (void)st; check("4xQDR", 32.0, "2048"); }
static void test_ddr_4096(void **st) { (void)st; check("4xDDR", 16.0, "4096"); }
static void test_sdr1x_256(void **st) { (void)st; check("1xSDR", 2.0, "256"); }
static void test_edr_4096(void **st) { (void)st; check("4xEDR", 100.0, "4096"); }
static void test_abstract_rate(void **st) { (void)st; check("2.5 Gb/s", 2.5, "2048"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qdr_2048), cmocka_unit_test(test_ddr_4096),
        cmocka_unit_test(test_sdr1x_256), cmocka_unit_test(test_edr_4096),
        cmocka_unit_test(test_abstract_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

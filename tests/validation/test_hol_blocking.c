/* test_hol_blocking.c: head-of-line blocking of the 1Q switch (switch.arch = fifo, alias 1q)
 * against Karol, Hluchyj and Morgan (1987), and the VOQ switch without it. One N-port switch,
 * every host saturating with single-packet messages (2048 B) to uniformly random other hosts;
 * throughput as a fraction of the payload capacity.
 *
 * Theory: the saturation throughput of an input-queued switch with FIFO inputs under uniform
 * traffic, Karol et al. Table I (exact, finite N): N=4 0.6553, N=8 0.6184; the limit is
 * 2 - sqrt(2) = 0.5858. For N = 16 and 32 the finite-N value is taken as the limit plus
 * Karol's N=8 excess scaled by 8/N (the excess falls as 1/N: this rule puts N=4 at 0.651,
 * 0.004 below Karol's exact 0.6553): 0.6021 and 0.5940.
 *
 * Tolerance: ibnetsim differs from Karol's model in three ways. (1) A host never addresses
 * itself, so a head's output is uniform over N - 1 outputs: two heads collide with probability
 * (N-2)/(N-1)^2 instead of 1/N, a relative reduction of 1/(N-1)^2 (11 % at N=4, 2 % at N=8,
 * 0.1 % at N=32); less contention can only raise the throughput, by an O(1/N^2) amount. (2) The
 * switch is not slotted (a new head appears when the previous one has been read, at staggered
 * times) and (3) its buffers are finite (32 packets per input), which at saturation hardly
 * matters since every input stays backlogged. So the check is one-sided with room for (1):
 *     Karol(N) - 0.005 <= measured <= Karol(N) + 0.5/N^2 + 0.005
 * (0.005: the statistical error of a 2 ms measurement, and the 1/N rule's error for N > 8).
 * Measured when written: N=4 0.687, N=8 0.628, N=16 0.603, N=32 0.593; VOQ 0.981 (N=16).
 *
 * Before the 1Q fix a FIFO input fed several outputs at once (its next head was offered as soon
 * as the previous one started) and this switch gave 0.744 at N=16; the check above fails on
 * that model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static double saturation_rp(int ports, const char *arch, const char *read_ports)
{
    struct testsim s;
    char args[64], why[128];
    snprintf(args, sizeof args, "ports=%d,link=4xQDR", ports);
    ts_init(&s, "single_switch", args);
    if (param_set(params_find(switch_params, "arch"), &s.d.set, arch, why, sizeof why) ||
        param_set(params_find(switch_params, "read_ports"), &s.d.set, read_ports, why, sizeof why))
        fail_msg("switch.arch=%s: %s", arch, why);
    s.d.warmup = PS_PER_MS;
    s.d.end = 3 * PS_PER_MS;
    ts_flow(&s, "U", "*", "uniform", "saturate", NULL, "2048 B", 0, 0);
    ts_run(&s);
    double total = 0;
    for (uint32_t i = 0; i < s.f.nflows; i++)
        total += (double)s.f.flows[i].st.bytes_delivered * 8.0 / 2e-3 / 1e9;
    ts_free(&s);
    return total / (ports * 32.0 * 2048.0 / 2074.0);
}

static double saturation(int ports, const char *arch)
{
    return saturation_rp(ports, arch, "0");
}

static const double KAROL_LIMIT = 0.58578643762690485; /* 2 - sqrt(2) */

static double karol(int n)
{
    if (n == 4)
        return 0.6553;
    if (n == 8)
        return 0.6184;
    return KAROL_LIMIT + (0.6184 - KAROL_LIMIT) * 8.0 / n;
}

static void check_karol(int n, double measured)
{
    double k = karol(n), lo = k - 0.005, hi = k + 0.5 / ((double)n * n) + 0.005;
    printf("  1Q N=%d: %.4f (Karol %.4f, accepted %.4f..%.4f)\n", n, measured, k, lo, hi);
    assert_true(measured >= lo);
    assert_true(measured <= hi);
}

static void test_1q_against_karol(void **st)
{
    (void)st;
    double m[4];
    const int n[4] = { 4, 8, 16, 32 };
    for (int i = 0; i < 4; i++) {
        m[i] = saturation(n[i], "1q");
        check_karol(n[i], m[i]);
    }
    /* It falls with N towards the limit. */
    assert_true(m[0] > m[1] && m[1] > m[2] && m[2] > m[3] && m[3] > KAROL_LIMIT);
}

static void test_voq_has_no_hol(void **st)
{
    (void)st;
    double voq = saturation(16, "voq"), v32 = saturation(32, "voq"), fifo = saturation(16, "fifo");
    printf("  N=16: VOQ %.3f, FIFO %.3f; VOQ N=32 %.3f\n", voq, fifo, v32);
    /* Output contention alone (no head-of-line blocking) costs a few per cent at saturation
     * with finite buffers; the FIFO switch stays near Karol's figure. */
    assert_true(voq > 0.96 && v32 > 0.96);
    assert_true(voq - fifo > 0.3);
}

/* VOQs with one crossbar read port per input (a multiplexed crossbar: an input sends one
 * packet at a time), matched by the round-robin output arbitration (an input just served goes
 * last, an input whose read port is busy is skipped): McKeown's iSLIP with one iteration reaches
 * 100 % under uniform traffic with unbounded VOQs; here the VOQs share 32 packets of buffer per
 * input and the switch is unslotted. Accepted: >= 0.94 (measured 0.956), and within 0.04 of the
 * same switch with a read port per output (no input constraint: 0.981). */
static void test_voq_one_read_port(void **st)
{
    (void)st;
    double one = saturation_rp(16, "voq", "1"), all = saturation_rp(16, "voq", "0");
    printf("  VOQ N=16, one read port per input %.4f, one per output %.4f\n", one, all);
    assert_true(one >= 0.94);
    assert_true(all - one < 0.04);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1q_against_karol),
        cmocka_unit_test(test_voq_has_no_hol),
        cmocka_unit_test(test_voq_one_read_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

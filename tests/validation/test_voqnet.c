/* test_voqnet.c: VOQnet against VOQsw under a congestion tree (seed 002 Papers V/VI: VOQnet
 * removes head-of-line blocking altogether, VOQsw only the low-order kind). Two switches: A1
 * and A2 on S1; B1..B4 on S2; S1 -> S2 a 12x QDR cable (96 Gb/s), every host 4x QDR (32 Gb/s).
 * A1, B3 and B4 saturate hot spot B1 (the root: each gets a third of its link); victim A2
 * saturates B2, sharing only the S1 -> S2 cable with A1, which has room for both (a third plus
 * one host link). Theory: with no head-of-line blocking anywhere the victim gets its whole link,
 * 2048/2074 x 32 = 31.6 Gb/s of payload, and each contributor a third of that. VOQsw: A1's
 * packets for the root fill S2's input buffer from S1 (one VL, shared by the VOQs) and the
 * cable then carries only what the root drains: the victim gets about as much as A1, a third.
 * Checked: VOQnet victim >= 95 % of its link and every contributor within 5 % of a third;
 * VOQsw victim <= 60 % of its link (the congestion tree's high-order blocking). Also the
 * build-time refusal when switch.buffer cannot hold a queue per destination, with the numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"

static void tree(struct testsim *s, const char *arch, const char *buffer, const char *queue)
{
    memset(s, 0, sizeof *s);
    topo_init(&s->topo);
    int s1 = topo_add_node(&s->topo, TOPO_SWITCH, "S1", 3), s2 = topo_add_node(&s->topo, TOPO_SWITCH, "S2", 5);
    const char *names[6] = { "A1", "A2", "B1", "B2", "B3", "B4" };
    int h[6];
    for (int i = 0; i < 6; i++)
        h[i] = topo_add_node(&s->topo, TOPO_CA, names[i], 1);
    simtime_t d = 10 * PS_PER_NS;
    if (topo_connect(&s->topo, h[0], 1, s1, 1, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, h[1], 1, s1, 2, 4, IB_QDR, 0, d, &s->err) ||
        topo_connect(&s->topo, s1, 3, s2, 5, 12, IB_QDR, 0, d, &s->err))
        abort();
    for (int i = 2; i < 6; i++)
        if (topo_connect(&s->topo, h[i], 1, s2, i - 1, 4, IB_QDR, 0, d, &s->err))
            abort();
    topo_assign_lids(&s->topo, 0);
    if (route_compute(&s->topo, "minhop", NULL, &s->lfts, &s->err))
        abort();
    fabric_settings_defaults(&s->d.set);
    char why[256];
    if (param_set(params_find(switch_params, "arch"), &s->d.set, arch, why, sizeof why) ||
        param_set(params_find(switch_params, "buffer"), &s->d.set, buffer, why, sizeof why) ||
        param_set(params_find(switch_params, "voqnet_queue"), &s->d.set, queue, why, sizeof why))
        fail_msg("%s", why);
    s->d.warmup = PS_PER_MS / 2;
    s->d.end = 2 * PS_PER_MS;
    s->d.drain_limit = 100 * PS_PER_MS;
    s->d.seed = 1;
    ts_flow(s, "hot_A1", "A1", "B1", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "hot_B3", "B3", "B1", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "hot_B4", "B4", "B1", "saturate", NULL, "2048 B", 0, 0);
    ts_flow(s, "victim", "A2", "B2", "saturate", NULL, "2048 B", 0, 0);
}

static const double LINK = 32.0 * 2048.0 / 2074.0; /* payload Gb/s of a 4x QDR host link */

static void test_voqnet_no_hol(void **st)
{
    (void)st;
    struct testsim s;
    tree(&s, "voqnet", "128 KiB", "16 KiB");
    ts_run(&s);
    double v = ts_gbps(&s, "victim"), a1 = ts_gbps(&s, "hot_A1"), b3 = ts_gbps(&s, "hot_B3"),
           b4 = ts_gbps(&s, "hot_B4");
    printf("  VOQnet: victim %.2f Gb/s (link %.2f), contributors %.2f %.2f %.2f (a third: %.2f)\n", v, LINK,
           a1, b3, b4, LINK / 3);
    assert_true(s.rep.invariants_ok);
    assert_true(v >= 0.95 * LINK);
    assert_true(fabs(a1 - LINK / 3) < 0.05 * LINK / 3);
    assert_true(fabs(b3 - LINK / 3) < 0.05 * LINK / 3);
    assert_true(fabs(b4 - LINK / 3) < 0.05 * LINK / 3);
    ts_free(&s);
}

static void test_voqsw_congestion_tree(void **st)
{
    (void)st;
    struct testsim s;
    tree(&s, "voqsw", "128 KiB", "16 KiB");
    ts_run(&s);
    double v = ts_gbps(&s, "victim"), a1 = ts_gbps(&s, "hot_A1");
    printf("  VOQsw: victim %.2f Gb/s, A1 %.2f\n", v, a1);
    assert_true(v <= 0.6 * LINK);
    ts_free(&s);
}

static void test_voqnet_memory_refused(void **st)
{
    (void)st;
    struct testsim s;
    tree(&s, "voqnet", "16 KiB", "4 KiB");
    assert_int_not_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
    printf("  %s\n", s.err.msg);
    assert_non_null(strstr(s.err.msg, "6 destination queues"));
    assert_non_null(strstr(s.err.msg, "24576 B"));
    assert_non_null(strstr(s.err.msg, "switch.buffer is 16384 B"));
    ts_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_voqnet_no_hol),
        cmocka_unit_test(test_voqsw_congestion_tree),
        cmocka_unit_test(test_voqnet_memory_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

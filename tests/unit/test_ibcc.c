/* test_ibcc.c: IB congestion control (src/cc/ibcc*.c): the Threshold mapping, per-SL lists,
 * FECN -> CNP -> BECN accounting (a BECN per marked packet; in RC ACKs per packet or per message;
 * at most one CNP per cnp_interval per queue pair), Packet_Size, Marking_Rate as counter and as probability,
 * mark_probability (any probability, binomial bound),
 * CCTI_Increase / CCTI_Limit / CCTI_Min / CCTI_Timer, the CCT in absolute and in spec form,
 * throttling only the flow (QP level) or the whole port SL (SL level), the inter-packet delay
 * honoured by every packet of a queue pair in a whole run, multicast packets never
 * marked, the detect modes' state machine and the root condition, and bad settings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "fabric/distio.h"
#include "../support/sim.h"
#include "cc/ibcc.h"
#include "cc/ibcc_int.h"
#include "fabric/mcast.h"

static void set(void *desc, const char *key, const char *value)
{
    char why[256];
    const struct param *p = params_find(ibcc_params, key);
    assert_non_null(p);
    if (param_set(p, desc, value, why, sizeof why)) {
        fprintf(stderr, "%s=%s: %s\n", key, value, why);
        fail();
    }
}

/* One switch, hosts H1..H4 on 4x DDR, hosts limited to 13 Gb/s both ways. */
static void setup(struct testsim *s, simtime_t end)
{
    ts_init(s, "single_switch", "ports=4, link=4xDDR");
    char why[128];
    param_set(params_find(hca_params, "inject_limit"), &s->d.set, "13 Gb/s", why, sizeof why);
    param_set(params_find(hca_params, "sink_limit"), &s->d.set, "13 Gb/s", why, sizeof why);
    s->d.end = end;
    s->d.warmup = 0;
}

/* setup() with the two saturating contributors A (H1) and B (H2) into H3 (26 Gb/s offered, 13
 * sunk), messages of msg, sending until stop (0: the whole run). */
static void two_into_h3(struct testsim *s, simtime_t end, const char *msg, simtime_t stop)
{
    setup(s, end);
    ts_flow(s, "A", "H1", "H3", "saturate", NULL, msg, 0, stop);
    ts_flow(s, "B", "H2", "H3", "saturate", NULL, msg, 0, stop);
}

static void run_cc(struct testsim *s, struct ibcc_desc *d)
{
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err) ||
        cc_attach(&s->f, &ibcc_plugin, d, &s->err)) {
        fprintf(stderr, "build: %s\n", s->err.msg);
        fail();
    }
    if (fabric_run(&s->f, NULL, &s->rep, &s->err)) {
        fprintf(stderr, "run: %s\n", s->err.msg);
        fail();
    }
    assert_int_equal(s->rep.outcome, RUN_DRAINED);
}

static struct ibcc *ctx(struct testsim *s)
{
    return s->f.hooks.ctx;
}

/* CNPs sent by all adapters. */
static uint64_t cnp_total(struct testsim *s)
{
    uint64_t n = 0;
    for (size_t i = 0; i < ctx(s)->naports; i++)
        n += ctx(s)->aports[i].cnp_sent;
    return n;
}

static struct ibcc_flow *ccf(struct testsim *s, const char *name)
{
    return ts_find(s, name)->cc;
}

static uint64_t marks_total(struct testsim *s)
{
    uint64_t m = 0;
    struct ibcc *c = ctx(s);
    for (size_t i = 0; i < c->noports; i++)
        for (int v = 0; v < VL_SLOTS; v++)
            m += c->oports[i].marked[v];
    return m;
}

static void test_threshold_mapping(void **st)
{
    (void)st;
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    int64_t hi, lo;
    set(d, "thresholds", "single");
    assert_int_equal(ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo), 0);
    assert_int_equal(hi, 4096); /* T = 15: 1/16 of the buffer */
    assert_int_equal(lo, hi);
    set(d, "threshold", "1");
    ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo);
    assert_int_equal(hi, 61440); /* T = 1: 15/16 */
    set(d, "threshold_map", "mtu");
    ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo);
    assert_int_equal(hi, 15 * 2112);
    set(d, "threshold_map", "bytes");
    set(d, "threshold_bytes", "10 KiB");
    ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo);
    assert_int_equal(hi, 10240);
    set(d, "thresholds", "double");
    set(d, "hysteresis", "3");
    ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo);
    assert_int_equal(lo, 10240 - 3 * 2112);
    set(d, "hysteresis", "10");
    ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo);
    assert_int_equal(lo, 0); /* the lower threshold stops at 0 */
    set(d, "threshold", "0");
    assert_int_equal(ibcc_thresholds_bytes(d, 65536, 2112, &hi, &lo), -1);
    cc_desc_free(&ibcc_plugin, d);
}

static void test_per_sl_lists(void **st)
{
    (void)st;
    long long v[16];
    char why[256];
    assert_int_equal(ibcc_parse_per_sl("150", 0, 65535, v, why, sizeof why), 0);
    for (int i = 0; i < 16; i++)
        assert_int_equal(v[i], 150);
    assert_int_equal(ibcc_parse_per_sl("150, 3:300,0x0f:7", 0, 65535, v, why, sizeof why), 0);
    assert_int_equal(v[0], 150);
    assert_int_equal(v[3], 300);
    assert_int_equal(v[15], 7);
    assert_int_equal(ibcc_parse_per_sl("16:5", 0, 65535, v, why, sizeof why), -1);
    assert_non_null(strstr(why, "SL 16"));
    assert_int_equal(ibcc_parse_per_sl("3:300", 0, 255, v, why, sizeof why), -1);
    assert_int_equal(ibcc_parse_per_sl("abc", 0, 255, v, why, sizeof why), -1);
    assert_int_equal(ibcc_parse_per_sl("", 0, 255, v, why, sizeof why), -1);
}

/* Two contributors into H3 (26 Gb/s offered, 13 sunk): marks, CNPs and BECNs add up. */
static void test_fecn_cnp_becn_accounting(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    ts_flow(&s, "V", "H4", "H1", "saturate", NULL, "64 KiB", 0, 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    run_cc(&s, d);
    struct ibcc_flow *a = ccf(&s, "A"), *b = ccf(&s, "B"), *v = ccf(&s, "V");
    uint64_t marks = marks_total(&s);
    assert_true(marks > 100);
    /* Every mark reaches the destination and comes back as one BECN (the run drained). */
    assert_int_equal(a->fecn_marked + b->fecn_marked + v->fecn_marked, marks);
    assert_int_equal(a->fecn_received, a->fecn_marked);
    assert_int_equal(a->becn_received, a->fecn_received);
    assert_int_equal(b->becn_received, b->fecn_received);
    assert_int_equal(v->fecn_marked, 0); /* H1's port is not congested */
    uint64_t cnp = 0, becn = 0;
    for (size_t i = 0; i < ctx(&s)->naports; i++) {
        cnp += ctx(&s)->aports[i].cnp_sent;
        becn += ctx(&s)->aports[i].becn_received;
    }
    assert_int_equal(cnp, marks);
    assert_int_equal(becn, marks);
    assert_int_equal(s.f.cnt.ctrl_created, marks);
    /* Throttled to about half of H3 each; the rest of the fabric unaffected. */
    assert_true(fabs(ts_gbps(&s, "A") - ts_gbps(&s, "B")) < 1.5);
    assert_true(ts_gbps(&s, "V") > 12.5);
    assert_true(a->ix->ccti_max > 0);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* cc.threshold = 0: the switch side is off, so the switch hooks (occupancy counts, congestion
 * state, marking) are not installed at all, while the adapters' are (an isolation switch marks
 * by itself and the adapters throttle: docs/isolation.md). The congested two-into-H3 case then
 * marks nothing and sends no CNP; with the default threshold it marks (the hooks are there). */
static void test_threshold_zero_no_switch_hooks(void **st)
{
    (void)st;
    for (int thr0 = 0; thr0 < 2; thr0++) {
        struct testsim s;
        two_into_h3(&s, 2 * PS_PER_MS, "64 KiB", 0);
        struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
        if (thr0)
            set(d, "threshold", "0");
        run_cc(&s, d);
        if (thr0) {
            assert_null(s.f.hooks.on_enqueue);
            assert_null(s.f.hooks.on_dequeue);
            assert_null(s.f.hooks.on_depart);
            assert_int_equal(marks_total(&s), 0);
            assert_int_equal(cnp_total(&s), 0);
        } else {
            assert_non_null(s.f.hooks.on_enqueue);
            assert_non_null(s.f.hooks.on_dequeue);
            assert_non_null(s.f.hooks.on_depart);
            assert_true(marks_total(&s) > 0);
        }
        assert_non_null(s.f.hooks.on_receive);
        assert_non_null(s.f.hooks.on_source_send);
        cc_desc_free(&ibcc_plugin, d);
        ts_free(&s);
    }
}

/* cnp_interval: the destination answers at most one FECN per interval per source queue pair;
 * the others are counted as paced, and every CNP still comes back as one BECN. Two contributors
 * into H3 for 5 ms with 50 us: at most 5 ms / 50 us + 1 = 101 CNPs each, far fewer than their
 * marks (a CNP per mark without the option: test_fecn_cnp_becn_accounting). */
static void test_cnp_interval(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "cnp_interval", "50 us");
    run_cc(&s, d);
    struct ibcc_flow *a = ccf(&s, "A"), *b = ccf(&s, "B");
    struct ibcc_aport *h3 = NULL;
    uint64_t cnp = 0, paced = 0;
    for (size_t i = 0; i < ctx(&s)->naports; i++) {
        cnp += ctx(&s)->aports[i].cnp_sent;
        paced += ctx(&s)->aports[i].cnp_paced;
        if (ctx(&s)->aports[i].fecn_received)
            h3 = &ctx(&s)->aports[i];
    }
    assert_non_null(h3);
    assert_int_equal(a->fecn_received + b->fecn_received, h3->fecn_received);
    assert_int_equal(h3->cnp_sent + h3->cnp_paced, h3->fecn_received);
    assert_int_equal(cnp, h3->cnp_sent);
    assert_int_equal(a->becn_received + b->becn_received, cnp);
    assert_true(a->becn_received > 10 && b->becn_received > 10);
    assert_true(a->becn_received <= 101 && b->becn_received <= 101);
    assert_true(paced > cnp); /* the marks far outnumber what the interval lets through */
    assert_true(a->fecn_received > 2 * a->becn_received);
    assert_non_null(strstr(ctx(&s)->resolved, "at most one CNP per 50.000 us"));
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* IB CC's rule for multicast: a switch never marks FECN on a multicast packet, so a multicast
 * stream through the congested port is never throttled while the unicast ones are. */
static void test_multicast_never_marked(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    struct mcast_desc md;
    struct mgroup_desc g = { (char *)"G", 0xC000, (char *)"H3,H2", (char *)"H4", "test", 1 };
    mcast_desc_defaults(&md);
    md.scheme = MC_ASYNC;
    md.groups = &g;
    md.ngroups = 1;
    s.d.mc = &md;
    ts_flow(&s, "M", "H4", "mcast:G", "poisson", "3 Gb/s", "4 KiB", 0, 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    run_cc(&s, d);
    struct ibcc_flow *a = ccf(&s, "A"), *b = ccf(&s, "B"), *m = ccf(&s, "M");
    uint64_t marks = marks_total(&s);
    assert_true(a->fecn_marked + b->fecn_marked > 100);
    assert_int_equal(m->fecn_marked, 0);
    assert_int_equal(m->becn_received, 0);
    assert_int_equal(a->fecn_marked + b->fecn_marked, marks);
    assert_true(ts_find(&s, "M")->st.pkts_sent > 100);
    assert_int_equal(s.f.mc->g[0].pkts[0], ts_find(&s, "M")->st.pkts_sent); /* H2 got them all */
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
    params_free(mcast_params, &md);
}

/* becn = message (deprecated) maps onto the reliable connection with an ACK per message: at
 * most one BECN per message, however many of its packets were marked, riding the message's
 * ACK; no CNP. */
static void test_becn_per_message(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "becn", "message");
    run_cc(&s, d);
    assert_int_equal(s.f.set.transport, TRANSPORT_RC);
    assert_int_equal(s.f.set.ack_per, ACK_PER_MESSAGE);
    struct ibcc_flow *a = ccf(&s, "A"), *b = ccf(&s, "B");
    struct flow *fa = ts_find(&s, "A"), *fb = ts_find(&s, "B");
    assert_int_equal(a->fecn_received, a->fecn_marked);
    assert_true(a->becn_received > 0 && b->becn_received > 0);
    assert_true(a->becn_received < a->fecn_received);
    /* One ACK per message (the run drained: every begun message was finished and acknowledged),
     * and no more BECNs than ACKs. */
    assert_int_equal(fa->rc.x->acks, fa->rc.msg_begun);
    assert_int_equal(fb->rc.x->acks, fb->rc.msg_begun);
    assert_true(a->becn_received <= fa->rc.x->acks && b->becn_received <= fb->rc.x->acks);
    assert_int_equal(cnp_total(&s), 0);
    assert_int_equal(s.f.cnt.ctrl_created, s.f.cnt.acks_created);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* Transport RC with an ACK per packet: each marked packet's ACK carries its BECN, so BECNs
 * equal marks exactly as with CNPs, and no CNP is sent; the ACKs are all the control packets. */
static void test_becn_in_rc_ack(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    char why[128];
    assert_int_equal(param_set(params_find(transport_params, "mode"), &s.d.set, "rc", why, sizeof why), 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    run_cc(&s, d);
    struct ibcc_flow *a = ccf(&s, "A"), *b = ccf(&s, "B");
    uint64_t marks = marks_total(&s);
    assert_true(marks > 100);
    assert_int_equal(a->becn_received, a->fecn_marked);
    assert_int_equal(b->becn_received, b->fecn_marked);
    assert_int_equal(a->becn_received + b->becn_received, marks);
    assert_int_equal(cnp_total(&s), 0);
    struct flow *fa = ts_find(&s, "A"), *fb = ts_find(&s, "B");
    assert_int_equal(fa->rc.x->acks, fa->st.pkts_sent);
    assert_int_equal(s.f.cnt.acks_created, fa->st.pkts_sent + fb->st.pkts_sent);
    assert_int_equal(s.f.cnt.ctrl_created, s.f.cnt.acks_created);
    /* Throttled as with CNPs: about half of H3 each. */
    assert_true(fabs(ts_gbps(&s, "A") - ts_gbps(&s, "B")) < 1.5);
    assert_true(a->ix->ccti_max > 0);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

static uint64_t run_marks(const char *key, const char *value, const char *key2, const char *value2,
                          const char *msg)
{
    struct testsim s;
    two_into_h3(&s, 3 * PS_PER_MS, msg, 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "ccti_increase", "0"); /* BECNs change nothing: the congestion is the same in every run */
    set(d, "marking_rate", "0");
    if (key)
        set(d, key, value);
    if (key2)
        set(d, key2, value2);
    run_cc(&s, d);
    uint64_t m = marks_total(&s);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
    return m;
}

static void test_marking_rate_and_packet_size(void **st)
{
    (void)st;
    uint64_t all = run_marks(NULL, NULL, NULL, NULL, "64 KiB");
    assert_true(all > 1000);
    /* Counter: every 4th eligible packet (one marking port here). */
    uint64_t cnt = run_marks("marking", "counter", "marking_rate", "3", "64 KiB");
    assert_int_equal(cnt, all / 4);
    /* Probability 1/4: binomial, within 5 standard deviations. */
    uint64_t pr = run_marks("marking", "probability", "marking_rate", "3", "64 KiB");
    printf("  marks: every eligible %llu, counter 1/4 %llu, probability 1/4 %llu\n",
           (unsigned long long)all, (unsigned long long)cnt, (unsigned long long)pr);
    double sd = sqrt((double)all * 0.25 * 0.75);
    assert_true(fabs((double)pr - (double)all / 4) < 5 * sd);
    /* Packet_Size 8 credits: 256-byte packets (282 bytes, 5 credits) are never marked. */
    assert_int_equal(run_marks("packet_size", "8", NULL, NULL, "256 B"), 0);
    assert_true(run_marks("packet_size", "5", NULL, NULL, "256 B") > 0);
    /* Threshold 0: no detection at all. */
    assert_int_equal(run_marks("threshold", "0", NULL, NULL, "64 KiB"), 0);
}

/* mark_probability: any probability, not only IBA's 1/(n+1). The packets eligible for marking
 * are the same in every run (ccti_increase = 0: BECNs change nothing), counted by marking them
 * all; the marks with probability p are then binomial(n, p): within 3.29 standard deviations
 * (a two-sided 99.9 % bound). The stream is per port and run seed: the same seed gives the same
 * count, another seed another one. */
static void test_mark_probability(void **st)
{
    (void)st;
    uint64_t all = run_marks(NULL, NULL, NULL, NULL, "64 KiB");
    const double ps[] = { 0.85, 0.3 };
    for (int i = 0; i < 2; i++) {
        char v[16];
        snprintf(v, sizeof v, "%g", ps[i]);
        uint64_t m = run_marks("mark_probability", v, "marking_rate", "7", "64 KiB");
        double n = (double)all, sd = sqrt(n * ps[i] * (1 - ps[i]));
        printf("  mark_probability %g: %llu of %llu eligible (expected %.0f +- %.0f at 99.9 %%)\n", ps[i],
               (unsigned long long)m, (unsigned long long)all, n * ps[i], 3.29 * sd);
        assert_true(fabs((double)m - n * ps[i]) < 3.29 * sd);
        /* Deterministic: the same run, the same marks. */
        assert_int_equal(run_marks("mark_probability", v, "marking_rate", "7", "64 KiB"), m);
    }
    /* It overrides marking_rate: 0 marks nothing, 1 everything. */
    assert_int_equal(run_marks("mark_probability", "0", NULL, NULL, "64 KiB"), 0);
    assert_int_equal(run_marks("mark_probability", "1", "marking_rate", "7", "64 KiB"), all);
    /* Bad values. */
    char why[256];
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    const struct param *p = params_find(ibcc_params, "mark_probability");
    assert_int_not_equal(param_set(p, d, "1.5", why, sizeof why), 0);
    assert_int_not_equal(param_set(p, d, "-0.5", why, sizeof why), 0);
    assert_non_null(strstr(why, "probability from 0 to 1"));
    cc_desc_free(&ibcc_plugin, d);
}

static void test_ccti_limit_min_timer(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 10 * PS_PER_MS, "64 KiB", 2 * PS_PER_MS);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "ccti_increase", "5");
    set(d, "ccti_limit", "40");
    set(d, "ccti_min", "2");
    set(d, "ccti_timer", "20"); /* 20.48 us: 38 steps take < 1 ms */
    run_cc(&s, d);
    struct ibcc_flow *a = ccf(&s, "A");
    assert_int_equal(a->ix->ccti_max, 40); /* reached and capped at CCTI_Limit */
    assert_int_equal(a->ix->ccti, 2);      /* recovered to CCTI_Min, not below */
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
    /* CCTI_Timer 0: never lowered. */
    two_into_h3(&s, 10 * PS_PER_MS, "64 KiB", 2 * PS_PER_MS);
    d = cc_desc_new(&ibcc_plugin);
    set(d, "ccti_timer", "0");
    run_cc(&s, d);
    a = ccf(&s, "A");
    assert_true(a->ix->ccti > 0);
    assert_int_equal(a->ix->ccti, a->ix->ccti_max);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* A single flow at a constant CCT entry: its rate is one packet per (transmission + IRD). */
static double paced(const char *form, const char *cct, const char *level, const char *map,
                    double *other)
{
    struct testsim s;
    setup(&s, 4 * PS_PER_MS);
    ts_flow(&s, "A", "H1", "H2", "saturate", NULL, "64 KiB", 0, 0)->sl = 1;
    ts_flow(&s, "B", "H1", "H3", "saturate", NULL, "64 KiB", 0, 0)->sl = 1;
    char why[128];
    param_set(params_find(hca_params, "inject_limit"), &s.d.set, "0 Gb/s", why, sizeof why);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "threshold", "0");
    set(d, "cct_form", form);
    set(d, "cct", cct);
    set(d, "level", level);
    set(d, "control_map", map);
    run_cc(&s, d);
    double a = ts_gbps(&s, "A");
    *other = ts_gbps(&s, "B");
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
    return a;
}

static void test_cct_forms_and_levels(void **st)
{
    (void)st;
    double tx_us = 2074.0 * 8 / 16e3;           /* 2 KiB packet on 4x DDR */
    double link = 2048.0 * 8 / tx_us / 1e3;      /* payload Gb/s at line rate */
    double b;
    /* QP level, both flows throttled by a 2 us IRD; each paces itself. */
    double a = paced("absolute", "2.0", "qp", "65535", &b);
    double expect = 2048.0 * 8 / (tx_us + 2.0) / 1e3;
    printf("  IRD 2 us: A %.3f B %.3f Gb/s, expected %.3f each\n", a, b, expect);
    assert_true(fabs(a - expect) < 0.01 * expect);
    assert_true(fabs(b - expect) < 0.01 * expect);
    /* Spec form 1:4 = (tx >> 1) x 4 = 2 tx: a third of the line. */
    a = paced("spec", "1:4", "qp", "65535", &b);
    assert_true(fabs(a - link / 3) < 0.01 * link / 3);
    /* Only SL 1 is under congestion control (control_map 2): both flows are SL 1 -> paced. */
    a = paced("absolute", "2.0", "qp", "2", &b);
    assert_true(fabs(a - expect) < 0.01 * expect);
    /* control_map 1 (SL 0 only): nothing paced, the two share the line. */
    a = paced("absolute", "2.0", "qp", "1", &b);
    assert_true(fabs(a + b - link) < 0.02 * link);
    /* SL level: the port SL waits after each packet of either flow, so the two share one
     * paced stream. */
    a = paced("absolute", "2.0", "sl", "65535", &b);
    assert_true(fabs(a + b - expect) < 0.02 * expect);
}

/* QP level: a throttled flow does not hold back another flow of the same adapter. */
static void test_throttled_flow_does_not_block_others(void **st)
{
    (void)st;
    struct testsim s;
    two_into_h3(&s, 5 * PS_PER_MS, "64 KiB", 0);
    ts_flow(&s, "C", "H2", "H4", "saturate", NULL, "64 KiB", 0, 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    run_cc(&s, d);
    /* H2 injects 13 Gb/s: B is throttled towards the congested H3, C takes the rest. */
    double b = ts_gbps(&s, "B"), c = ts_gbps(&s, "C");
    assert_true(ccf(&s, "B")->becn_received > 0);
    assert_int_equal(ccf(&s, "C")->becn_received, 0);
    assert_true(c > b);
    assert_true(b + c > 12.0);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* Bytes delivered to every host but H1 (the uniform senders' traffic that avoids the hot
 * spot). */
static double cold_rx_gbps(struct testsim *s)
{
    double sum = 0;
    for (int h = 1; h < s->f.nhosts; h++)
        sum += (double)s->f.hosts[h].rx_bytes;
    return sum * 8.0 / ((double)(s->f.end - s->f.warmup) / 1e12) / 1e9;
}

/* Sixteen hosts on one switch; H1 is a hot spot fed by twelve saturating contributors
 * (H2..H13); H15 and H16 send Poisson messages of 4 KiB at 9 Gb/s to uniformly chosen hosts,
 * H1 included. With a queue pair per destination (level = qp, the default) only their queue
 * pairs to H1 are throttled: their messages to H1 are held while the others go, so the other
 * hosts receive what was offered to them (2 x 9 x 14/15 = 16.8 Gb/s) within 5 %, and their
 * queue pairs to other hosts stay far below the one to H1 (raised only by the short queues
 * where two Poisson streams meet). With one CCTI per flow (level = flow) the BECNs from H1 slow
 * all of H15's and H16's traffic: the other hosts get less than 90 % of it. */
static void hot_and_uniform_flows(struct testsim *s, simtime_t warmup, simtime_t end)
{
    ts_init(s, "single_switch", "ports=16, link=4xDDR");
    char why[128];
    param_set(params_find(hca_params, "inject_limit"), &s->d.set, "13.5 Gb/s", why, sizeof why);
    param_set(params_find(hca_params, "sink_limit"), &s->d.set, "13.6 Gb/s", why, sizeof why);
    s->d.end = end;
    s->d.warmup = warmup;
    char name[8], src[8];
    for (int i = 2; i <= 13; i++) {
        snprintf(name, sizeof name, "C%d", i);
        snprintf(src, sizeof src, "H%d", i);
        ts_flow(s, name, src, "H1", "saturate", NULL, "4 KiB", 0, 0);
    }
    ts_flow(s, "V15", "H15", "uniform", "poisson", "9 Gb/s", "4 KiB", 0, 0);
    ts_flow(s, "V16", "H16", "uniform", "poisson", "9 Gb/s", "4 KiB", 0, 0);
}

static void uniform_and_hot(struct testsim *s, const char *level)
{
    hot_and_uniform_flows(s, 10 * PS_PER_MS, 40 * PS_PER_MS);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "level", level);
    set(d, "marking_rate", "0");
    set(d, "packet_size", "0");
    set(d, "cct_scale_us", "70");
    run_cc(s, d);
    cc_desc_free(&ibcc_plugin, d);
}

static void test_queue_pair_per_destination(void **st)
{
    (void)st;
    const double offered = 2 * 9.0 * 14 / 15;
    struct testsim s;
    uniform_and_hot(&s, "qp");
    double per_qp = cold_rx_gbps(&s);
    int hot_host = 0;
    for (int k = 0; k < 2; k++) {
        struct flow *v = ts_find(&s, k ? "V16" : "V15");
        struct ibcc_flow *cf = v->cc;
        assert_non_null(cf->dest);
        assert_int_equal(ibcc_flow_ccti(&s.f, cf).qps, 15);
        int cold_max = 0;
        for (int h = 1; h < s.f.nhosts; h++)
            if (cf->dest[h].ix.ccti_max > cold_max)
                cold_max = cf->dest[h].ix.ccti_max;
        printf("  %s: CCTI max %d towards H1, at most %d towards the others\n", v->name,
               cf->dest[hot_host].ix.ccti_max, cold_max);
        assert_true(cf->dest[hot_host].ix.ccti_max > 0);
        assert_true(cold_max < cf->dest[hot_host].ix.ccti_max);
        assert_true(v->held_cap == 16);
    }
    ts_free(&s);
    uniform_and_hot(&s, "flow");
    double per_flow = cold_rx_gbps(&s);
    assert_null(((struct ibcc_flow *)ts_find(&s, "V15")->cc)->dest);
    ts_free(&s);
    printf("  other hosts receive %.3f Gb/s with a QP per destination, %.3f with one CCTI per "
           "flow (offered %.3f)\n", per_qp, per_flow, offered);
    assert_true(fabs(per_qp - offered) < 0.05 * offered);
    assert_true(per_flow < 0.9 * offered);
}

/* Many packets alive (2 MiB buffers, MTU 256) while CNPs are created at delivery: the packet
 * pool grows beyond its initial 4096 packets during the run, and every mark still comes back as
 * exactly one BECN. (Whether a growth falls inside the on_receive hook depends on timing; the
 * data path re-fetches the packet after the hook for that case.) */
static void test_pool_growth_during_cnp(void **st)
{
    (void)st;
    struct testsim s;
    ts_init(&s, "single_switch", "ports=8, link=4xDDR");
    char why[128];
    param_set(params_find(switch_params, "buffer"), &s.d.set, "2 MiB", why, sizeof why);
    param_set(params_find(hca_params, "buffer"), &s.d.set, "2 MiB", why, sizeof why);
    param_set(params_find(fabric_params, "mtu"), &s.d.set, "256", why, sizeof why);
    param_set(params_find(hca_params, "sink_limit"), &s.d.set, "2 Gb/s", why, sizeof why);
    s.d.end = 3 * PS_PER_MS;
    const char *src[] = { "H1", "H2", "H3", "H4", "H5", "H6", "H7" };
    char name[8];
    for (int i = 0; i < 7; i++) {
        snprintf(name, sizeof name, "F%d", i);
        ts_flow(&s, name, src[i], "H8", "saturate", NULL, "64 KiB", 0, 0);
    }
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "marking_rate", "0");
    set(d, "packet_size", "0");
    run_cc(&s, d);
    assert_true(s.f.pool.cap > 4096);
    uint64_t marks = marks_total(&s), becn = 0;
    for (uint32_t i = 0; i < s.f.nflows; i++)
        becn += ((struct ibcc_flow *)s.f.flows[i].cc)->becn_received;
    printf("  pool grew to %u packets; %llu marks, %llu BECNs\n", s.f.pool.cap,
           (unsigned long long)marks, (unsigned long long)becn);
    assert_true(marks > 0);
    assert_int_equal(becn, marks);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

static void test_bad_settings(void **st)
{
    (void)st;
    const char *bad[][2] = {
        { "cct", "1:2,x" }, { "ccti_timer", "20:1" }, { "victim_mask", "0xZZ" },
        { "ccti_limit", "500" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct testsim s;
        setup(&s, PS_PER_MS);
        ts_flow(&s, "A", "H1", "H3", "saturate", NULL, "64 KiB", 0, 0);
        struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
        if (!strcmp(bad[i][0], "cct"))
            set(d, "cct_form", "spec");
        set(d, bad[i][0], bad[i][1]);
        assert_int_equal(fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err), 0);
        assert_int_equal(cc_attach(&s.f, &ibcc_plugin, d, &s.err), -1);
        assert_non_null(strstr(s.err.msg, "cc"));
        cc_desc_free(&ibcc_plugin, d);
        ts_free(&s);
    }
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    char why[256];
    assert_int_equal(param_set(params_find(ibcc_params, "threshold"), d, "16", why, sizeof why), -1);
    assert_int_equal(param_set(params_find(ibcc_params, "detect"), d, "max", why, sizeof why), -1);
    cc_desc_free(&ibcc_plugin, d);
}

/* A distributed run's gathering of IB CC's state (hooks.dist_walk, one walker for both
 * directions): the state of a run packed as rank 1's and unpacked into a fresh fabric (built,
 * not run) gives that fabric the run's marks, per-port counts and indices; unpacking it once
 * more adds the shared per-flow counters again (they are summed over ranks) while the owned
 * state is only overwritten. */
/* The switch port cabled to host `host`. */
static struct port *sw_port_to(struct testsim *s, const char *host)
{
    for (int i = 0; i < s->f.nnodes; i++) {
        struct node *n = s->f.nodes[i];
        if (!n->is_switch)
            continue;
        for (int p = 1; p <= n->nports; p++)
            if (n->port[p].peer && !strcmp(n->port[p].peer->node->name, host))
                return &n->port[p];
    }
    fail();
    return NULL;
}

/* A queue pair per destination, driven by hand: BECNs from H3 raises the index of the flow's
 * queue pair to H3 only (and its copy in the sending state), a packet sent to H3 then holds the
 * next one to H3 back by the CCT's delay for that index, one to H2 holds nothing back, and the
 * timer's decrease reaches the copy as well. */
static void test_destination_pacing_by_hand(void **st)
{
    (void)st;
    struct testsim s;
    setup(&s, PS_PER_MS);
    ts_flow(&s, "U", "H1", "uniform", "poisson", "1 Gb/s", "4 KiB", 0, 0);
    struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
    set(d, "level", "qp");
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err) || cc_attach(&s.f, &ibcc_plugin, d, &s.err)) {
        fprintf(stderr, "build: %s\n", s.err.msg);
        fail();
    }
    struct ibcc *c = ctx(&s);
    struct flow *u = ts_find(&s, "U");
    struct ibcc_flow *cf = u->cc;
    assert_non_null(cf->dest);
    int h2 = -1, h3 = -1;
    for (int h = 0; h < s.f.nhosts; h++) {
        if (!strcmp(s.f.hosts[h].node->name, "H2"))
            h2 = h;
        if (!strcmp(s.f.hosts[h].node->name, "H3"))
            h3 = h;
    }
    assert_true(h2 >= 0 && h3 >= 0);
    s.f.now = 100 * PS_PER_US;
    struct packet b = { 0 };
    b.flags = PKT_BECN;
    b.about_flow = (uint32_t)(u - s.f.flows);
    b.src_lid = s.f.hosts[h3].port->lid;
    for (int k = 0; k < 3; k++)
        ibcc_on_receive(&s.f, u->src, &b);
    int raised = cf->dest[h3].ix.ccti;
    assert_true(raised > 1);
    assert_int_equal(cf->dest_send[h3].ccti, raised);
    assert_int_equal(cf->dest[h2].ix.ccti, 0);
    assert_int_equal(cf->dest_send[h2].ccti, 0);
    struct packet p = { 0 };
    p.wire_bytes = 4096 + 30;
    simtime_t tx = byterate_time(u->src->rate, p.wire_bytes);
    p.dst_lid = s.f.hosts[h2].port->lid;
    ibcc_on_source_send(&s.f, u, &p);
    assert_true(ibcc_dest_ready(&s.f, u, h2) <= s.f.now); /* index 0: no delay */
    p.dst_lid = s.f.hosts[h3].port->lid;
    ibcc_on_source_send(&s.f, u, &p);
    simtime_t gap = ibcc_dest_ready(&s.f, u, h3) - (s.f.now + tx);
    printf("  CCTI %d towards H3: the next packet waits %.3f us after this one's end\n", raised,
           (double)gap / PS_PER_US);
    assert_true(gap > 0);
    /* The timer lowers the index by one: the copy follows. */
    struct ibcc_timer *t = c->d.timer_policy == IBCC_TIMER_PER_FLOW ? &cf->dest_timer[h3].timer
                                                                    : &cf->group->timer;
    assert_true(t->armed);
    s.f.now = t->due;
    t->call.fn(&s.f, t->call.arg);
    assert_int_equal(cf->dest[h3].ix.ccti, raised - 1);
    assert_int_equal(cf->dest_send[h3].ccti, raised - 1);
    cc_desc_free(&ibcc_plugin, d);
    ts_free(&s);
}

/* The pacing seen from outside, on a whole run: every packet a source sends is recorded (a
 * wrapper around the plug-in's on_source_send) with the CCTI the sending queue pair has at that
 * moment, read from the index the BECNs and the timer change (cf->dest[h].ix for a queue pair
 * per destination, cf->ix for a single-destination flow), not from the send path's copy. The
 * rule (IBA Annex A10, the inter-packet delay): the queue pair's next packet may not start
 * before this one's end plus the CCT's delay at that index; with the absolute formula CCT,
 * CCT[i] = i^2 x scale / div^2 us, computed here from the settings. Checked for every pair of
 * consecutive packets of a queue pair, and the rule must bind (a packet held until exactly
 * that time) often enough for the check to mean something. Fails when the adapter ignores a
 * queue pair's hold (ibcc_dest_ready), when the send path's copy of the CCTI is stale, or when
 * a flow's own next_ok is ignored. */
static struct {
    void (*inner)(struct fabric *, struct flow *, struct packet *);
    int nhosts;
    simtime_t *earliest; /* per flow x host: when the queue pair may send again */
    double scale_ps;     /* scale_us / div^2, in ps */
    uint64_t sends, held, early, throttled;
} pace;

static void pace_on_source_send(struct fabric *f, struct flow *fl, struct packet *p)
{
    struct ibcc_flow *cf = fl->cc;
    int h = fabric_host_of_lid(f, p->dst_lid);
    if (cf && h >= 0) {
        int ccti = cf->dest ? cf->dest[h].ix.ccti : cf->ix->ccti;
        size_t k = (size_t)(fl - f->flows) * (size_t)pace.nhosts + (size_t)h;
        simtime_t due = pace.earliest[k];
        pace.sends++;
        if (due > 0 && f->now < due)
            pace.early++;
        if (due > 0 && f->now == due)
            pace.held++;
        simtime_t tx = byterate_time(fl->src->rate, p->wire_bytes);
        simtime_t gap = (simtime_t)llround((double)ccti * ccti * pace.scale_ps);
        if (gap > 0)
            pace.throttled++;
        pace.earliest[k] = gap > 0 ? f->now + tx + gap : 0;
    }
    pace.inner(f, fl, p);
}

static void test_pacing_in_a_run(void **st)
{
    (void)st;
    static const char *const levels[] = { "qp", "flow" };
    for (int l = 0; l < 2; l++) {
        struct testsim s;
        hot_and_uniform_flows(&s, 0, 10 * PS_PER_MS);
        struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
        set(d, "level", levels[l]);
        set(d, "cct_scale_us", "70");
        set(d, "cct_div", "106");
        if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err) || cc_attach(&s.f, &ibcc_plugin, d, &s.err)) {
            fprintf(stderr, "build: %s\n", s.err.msg);
            fail();
        }
        memset(&pace, 0, sizeof pace);
        pace.inner = s.f.hooks.on_source_send;
        pace.nhosts = s.f.nhosts;
        pace.earliest = calloc((size_t)s.f.nflows * (size_t)s.f.nhosts, sizeof *pace.earliest);
        pace.scale_ps = 70.0 / (106.0 * 106.0) * PS_PER_US;
        s.f.hooks.on_source_send = pace_on_source_send;
        if (fabric_run(&s.f, NULL, &s.rep, &s.err)) {
            fprintf(stderr, "run: %s\n", s.err.msg);
            fail();
        }
        printf("  level %s: %llu packets sent, %llu with a CCT delay, %llu held until exactly the "
               "delay's end, %llu early\n", levels[l], (unsigned long long)pace.sends,
               (unsigned long long)pace.throttled, (unsigned long long)pace.held,
               (unsigned long long)pace.early);
        assert_int_equal(pace.early, 0);
        assert_true(pace.throttled > pace.sends / 4); /* the contributors are throttled */
        assert_true(pace.held > pace.throttled / 4);  /* and the rule binds */
        free(pace.earliest);
        cc_desc_free(&ibcc_plugin, d);
        ts_free(&s);
    }
}

/* The congestion state machine of one output port, driven packet by packet: what each detect
 * mode compares with the thresholds (each VOQ, the sum, the sum times the active inputs), the
 * double thresholds' hysteresis, and the root condition (credits for an MTU packet, or the
 * Victim_Mask bit). Thresholds 4000 / 2000 bytes, packets of 1500 bytes from H1 and H2 to H3. */
static void test_detection_modes(void **st)
{
    (void)st;
    static const char *const modes[] = { "voq", "sum", "sum_per_input" };
    /* The state after each step, per mode: A H1+1500 (sum 1500), B H2+1500 (3000, 2 active),
     * C H1+3000 (H1 4500, sum 6000), D H1-3000 (3000), E H2-1500 (1500, 1 active). */
    static const int want[3][5] = { { 0, 0, 1, 0, 0 }, { 0, 0, 1, 1, 0 }, { 0, 1, 1, 1, 0 } };
    for (int m = 0; m < 3; m++) {
        struct testsim s;
        setup(&s, PS_PER_MS);
        struct ibcc_desc *d = cc_desc_new(&ibcc_plugin);
        set(d, "detect", modes[m]);
        set(d, "thresholds", "double");
        if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err) || cc_attach(&s.f, &ibcc_plugin, d, &s.err)) {
            fprintf(stderr, "build: %s\n", s.err.msg);
            fail();
        }
        struct ibcc *c = ctx(&s);
        c->thr_hi = 4000;
        c->thr_lo = 2000;
        struct port *out = sw_port_to(&s, "H3"), *in1 = sw_port_to(&s, "H1"), *in2 = sw_port_to(&s, "H2");
        struct ibcc_oport *o = out->cc;
        assert_non_null(o);
        assert_true((o->voq != NULL) == (m != 1)); /* detection by the sum keeps no VOQs */
        struct packet p = { 0 };
        p.out_vl = 0;
        p.wire_bytes = 1500;
        struct { struct port *in; int n, sign; } steps[5] = {
            { in1, 1, +1 }, { in2, 1, +1 }, { in1, 2, +1 }, { in1, 2, -1 }, { in2, 1, -1 } };
        uint64_t entered = 0;
        for (int k = 0; k < 5; k++) {
            for (int i = 0; i < steps[k].n; i++)
                (steps[k].sign > 0 ? ibcc_on_enqueue : ibcc_on_dequeue)(&s.f, steps[k].in, out, &p);
            if (o->s[0].congested != want[m][k])
                fprintf(stderr, "detect=%s step %d: congested %d, expected %d\n", modes[m], k,
                        o->s[0].congested, want[m][k]);
            assert_int_equal(o->s[0].congested, want[m][k]);
            entered += want[m][k] && (k == 0 || !want[m][k - 1]);
            assert_true(o->entered[0] == entered);
        }
        /* Above the threshold again: a port to an adapter is a root by its Victim_Mask bit
         * (victim_mask = ca); without it, only while it holds credits for an MTU packet. */
        for (int i = 0; i < 4; i++)
            ibcc_on_enqueue(&s.f, in1, out, &p);
        assert_int_equal(o->s[0].congested, 1);
        o->victim = 0;
        int32_t credits = out->vl[0].credits;
        out->vl[0].credits = c->mtu_credits - 1;
        ibcc_on_enqueue(&s.f, in1, out, &p);
        assert_int_equal(o->s[0].congested, 0); /* a victim: no credits */
        out->vl[0].credits = c->mtu_credits;
        ibcc_on_enqueue(&s.f, in1, out, &p);
        assert_int_equal(o->s[0].congested, 1);
        out->vl[0].credits = credits;
        cc_desc_free(&ibcc_plugin, d);
        ts_free(&s);
    }
}

static void test_dist_walk(void **st)
{
    (void)st;
    struct testsim a, b;
    setup(&a, 2 * PS_PER_MS);
    setup(&b, 2 * PS_PER_MS);
    const char *fl[3][2] = { { "H1", "H3" }, { "H2", "H3" }, { "H4", "H1" } };
    for (int k = 0; k < 3; k++) {
        char name[2] = { (char)('A' + k), 0 };
        ts_flow(&a, name, fl[k][0], fl[k][1], "saturate", NULL, "64 KiB", 0, 0);
        ts_flow(&b, name, fl[k][0], fl[k][1], "saturate", NULL, "64 KiB", 0, 0);
    }
    struct ibcc_desc *da = cc_desc_new(&ibcc_plugin), *db = cc_desc_new(&ibcc_plugin);
    run_cc(&a, da);
    if (fabric_build(&b.f, &b.topo, &b.lfts, &b.d, &b.err) || cc_attach(&b.f, &ibcc_plugin, db, &b.err))
        fail();
    assert_non_null(a.f.hooks.dist_walk);
    int *part = calloc((size_t)a.f.nnodes, sizeof *part);
    for (int i = 0; i < a.f.nnodes; i++)
        part[i] = 1;
    struct dist_io io = { .dir = DIST_PACK };
    a.f.hooks.dist_walk(&a.f, part, 1, &io);
    io.dir = DIST_UNPACK;
    b.f.hooks.dist_walk(&b.f, part, 1, &io);
    assert_true(dist_io_done(&io));
    assert_true(marks_total(&a) > 100);
    assert_true(marks_total(&b) == marks_total(&a));
    struct ibcc *ca = ctx(&a), *cb = ctx(&b);
    assert_int_equal(ca->naports, cb->naports);
    for (size_t i = 0; i < ca->naports; i++) {
        assert_true(ca->aports[i].cnp_sent == cb->aports[i].cnp_sent);
        assert_true(ca->aports[i].becn_received == cb->aports[i].becn_received);
    }
    for (uint32_t i = 0; i < a.f.nflows; i++) {
        struct ibcc_flow *x = a.f.flows[i].cc, *y = b.f.flows[i].cc;
        assert_true(x->fecn_marked == y->fecn_marked);
        assert_true(x->becn_received == y->becn_received);
        assert_memory_equal(&x->own, &y->own, sizeof x->own);
    }
    io.at = 0; /* the same rank's state once more: sums add, the rest is overwritten */
    b.f.hooks.dist_walk(&b.f, part, 1, &io);
    assert_true(dist_io_done(&io));
    assert_true(marks_total(&b) == marks_total(&a));
    int added = 0;
    for (uint32_t i = 0; i < a.f.nflows; i++) {
        struct ibcc_flow *x = a.f.flows[i].cc, *y = b.f.flows[i].cc;
        assert_true(y->fecn_marked == 2 * x->fecn_marked);
        assert_true(y->becn_received == 2 * x->becn_received);
        added += x->fecn_marked > 0;
    }
    assert_true(added > 0);
    dist_io_free(&io);
    free(part);
    cc_desc_free(&ibcc_plugin, da);
    cc_desc_free(&ibcc_plugin, db);
    ts_free(&a);
    ts_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threshold_mapping),
        cmocka_unit_test(test_detection_modes),
        cmocka_unit_test(test_per_sl_lists),
        cmocka_unit_test(test_fecn_cnp_becn_accounting),
        cmocka_unit_test(test_cnp_interval),
        cmocka_unit_test(test_multicast_never_marked),
        cmocka_unit_test(test_marking_rate_and_packet_size),
        cmocka_unit_test(test_mark_probability),
        cmocka_unit_test(test_becn_per_message),
        cmocka_unit_test(test_becn_in_rc_ack),
        cmocka_unit_test(test_ccti_limit_min_timer),
        cmocka_unit_test(test_cct_forms_and_levels),
        cmocka_unit_test(test_throttled_flow_does_not_block_others),
        cmocka_unit_test(test_queue_pair_per_destination),
        cmocka_unit_test(test_destination_pacing_by_hand),
        cmocka_unit_test(test_pacing_in_a_run),
        cmocka_unit_test(test_pool_growth_during_cnp),
        cmocka_unit_test(test_bad_settings),
        cmocka_unit_test(test_dist_walk),
        cmocka_unit_test(test_threshold_zero_no_switch_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

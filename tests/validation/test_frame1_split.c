/* test_frame1_split.c: Paper IV's Frame I generator (digest 002b section 2.4) with
 * `pattern.split`: every host gets two queue pairs, NAME@HOST/hot and NAME@HOST/uni, each paced
 * by its own class budget. Checks on one 8-port switch: a B node's two QPs carry p and 1 - p
 * of its bytes at p x C and (1 - p) x C (saturating, and with queued Poisson arrivals); with
 * IB CC at QP level a congested hot spot throttles the B nodes' hot QPs but not their uniform
 * QPs (which keep their budget, where one shared QP loses most of it); a V node's hot QP and a
 * C node's uniform QP send nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../support/sim.h"
#include "cc/ibcc.h"
#include "cc/ibcc_int.h"

static void pset(struct flow_desc *fd, const char *key, const char *value)
{
    char why[256];
    const struct param *p = params_find(pattern_params, key);
    assert_non_null(p);
    if (param_set(p, &fd->pat, value, why, sizeof why)) {
        fprintf(stderr, "pattern.%s=%s: %s\n", key, value, why);
        fail();
    }
}

/* Eight hosts on one 4x DDR switch, 13.5 Gb/s injection and 13.6 Gb/s reception limits (Paper
 * IV's adapters), one entry "Q" (arrival `kind` at `rate`) with a windy pattern of one hot
 * spot. */
static struct flow_desc *setup_kind(struct testsim *s, simtime_t end, const char *c_fraction,
                                    const char *b_fraction, const char *p, const char *budget,
                                    int split, const char *kind, const char *rate)
{
    ts_init(s, "single_switch", "ports=8, link=4xDDR");
    char why[128];
    param_set(params_find(hca_params, "inject_limit"), &s->d.set, "13.5 Gb/s", why, sizeof why);
    param_set(params_find(hca_params, "sink_limit"), &s->d.set, "13.6 Gb/s", why, sizeof why);
    param_set(params_find(hca_params, "limit_counts"), &s->d.set, "payload", why, sizeof why);
    s->d.end = end;
    s->d.warmup = end / 5;
    struct flow_desc *fd = ts_flow(s, "Q", "*", "", kind, rate, "4096 B", 0, 0);
    if (params_set_defaults(pattern_params, &fd->pat, why, sizeof why))
        fail();
    fd->has_pattern = 1;
    pset(fd, "kind", "windy");
    pset(fd, "hotspots", "1");
    pset(fd, "c_fraction", c_fraction);
    pset(fd, "b_fraction", b_fraction);
    pset(fd, "p", p);
    pset(fd, "budget_rate", budget);
    pset(fd, "split", split ? "true" : "false");
    return fd;
}

static struct flow_desc *setup(struct testsim *s, simtime_t end, const char *c_fraction,
                               const char *b_fraction, const char *p, const char *budget,
                               int split)
{
    return setup_kind(s, end, c_fraction, b_fraction, p, budget, split, "saturate", NULL);
}

/* Run with IB CC at `level` ("qp", "flow"), or without CC when level is NULL. */
static void run(struct testsim *s, const char *level)
{
    struct ibcc_desc *d = level ? cc_desc_new(&ibcc_plugin) : NULL;
    if (d) {
        char why[128];
        assert_int_equal(param_set(params_find(ibcc_params, "level"), d, level, why, sizeof why), 0);
    }
    if (fabric_build(&s->f, &s->topo, &s->lfts, &s->d, &s->err) ||
        (d && cc_attach(&s->f, &ibcc_plugin, d, &s->err))) {
        fprintf(stderr, "build: %s\n", s->err.msg);
        fail();
    }
    if (d)
        cc_desc_free(&ibcc_plugin, d);
    if (fabric_run(&s->f, NULL, &s->rep, &s->err)) {
        fprintf(stderr, "run: %s\n", s->err.msg);
        fail();
    }
}

static void done(struct testsim *s)
{
    for (int i = 0; i < s->d.nflows; i++)
        params_free(pattern_params, &s->d.flows[i].pat);
    ts_free(s);
}

/* The flow of class `cls` of host h (the entry's two QPs per host). */
static struct flow *qp(struct testsim *s, int h, int cls)
{
    struct flow *found = NULL;
    for (uint32_t i = 0; i < s->f.nflows; i++) {
        struct flow *fl = &s->f.flows[i];
        if (fl->src_host == h && fl->pat_class == cls) {
            assert_null(found);
            found = fl;
        }
    }
    assert_non_null(found);
    const char *tail = strrchr(found->name, '/');
    assert_non_null(tail);
    assert_string_equal(tail, cls ? "/hot" : "/uni");
    return found;
}

/* Payload rate of a flow over the measured period, Gb/s. */
static double gbps(const struct testsim *s, const struct flow *fl)
{
    return (double)fl->st.bytes_delivered * 8.0 / ((double)(s->f.end - s->f.warmup) / 1e12) / 1e9;
}

/* All B nodes, p = 0.3, a 4 Gb/s budget: nothing is congested, so each QP sends exactly its
 * class budget: the hot QP 0.3 of the node's bytes at 1.2 Gb/s, the uniform QP 0.7 at 2.8. */
static void test_split_shares(void **st)
{
    (void)st;
    struct testsim s;
    setup(&s, 5 * PS_PER_MS, "0", "1", "0.3", "4 Gb/s", 1);
    run(&s, NULL);
    assert_int_equal(s.f.nflows, 2 * s.f.nhosts);
    const struct pattern *pat = s.f.patterns[0];
    for (int h = 0; h < s.f.nhosts; h++) {
        assert_int_equal(pattern_role(pat, h), ROLE_B);
        struct flow *hot = qp(&s, h, 1), *uni = qp(&s, h, 0);
        double all = (double)(hot->st.bytes_sent + uni->st.bytes_sent);
        double share = (double)hot->st.bytes_sent / all;
        if (h == 0)
            printf("  host %d: hot %.3f Gb/s, uniform %.3f Gb/s, hot share %.4f (p = 0.3)\n", h,
                   gbps(&s, hot), gbps(&s, uni), share);
        assert_true(fabs(share - 0.3) < 0.01);
        assert_true(fabs(gbps(&s, hot) - 1.2) < 0.03);
        assert_true(fabs(gbps(&s, uni) - 2.8) < 0.05);
        /* the pattern charged each class what its QP sent */
        assert_int_equal(pat->hot_sent[h], hot->st.bytes_sent);
        assert_int_equal(pat->uni_sent[h], uni->st.bytes_sent);
        /* the hot QP went to the hot spot (the hot spot's own hot QP sends uniformly) */
        assert_int_equal(hot->st.msgs_offered, pat->hot_sent[h] / 4096);
    }
    done(&s);
}

/* Poisson arrivals of 2 Gb/s per QP (each QP its own copy of the arrival process), all B
 * nodes, p = 0.3 of a 4 Gb/s budget: the hot QP is held to its 1.2 Gb/s budget (the rest of its
 * arrivals wait at the source), the uniform QP (budget 2.8) carries
 * its whole 2 Gb/s; destinations are picked, and charged, as the messages start. */
static void test_split_queued_arrivals(void **st)
{
    (void)st;
    struct testsim s;
    setup_kind(&s, 10 * PS_PER_MS, "0", "1", "0.3", "4 Gb/s", 1, "poisson", "2 Gb/s");
    run(&s, NULL);
    const struct pattern *pat = s.f.patterns[0];
    assert_int_equal(s.f.cnt.misdelivered, 0);
    for (int h = 0; h < s.f.nhosts; h++) {
        struct flow *hot = qp(&s, h, 1), *uni = qp(&s, h, 0);
        if (h == 0)
            printf("  host %d: hot %.3f Gb/s (%llu messages offered, %llu sent), uniform %.3f "
                   "Gb/s\n", h, gbps(&s, hot), (unsigned long long)hot->st.msgs_offered,
                   (unsigned long long)(hot->st.bytes_sent / 4096), gbps(&s, uni));
        assert_true(fabs(gbps(&s, hot) - 1.2) < 0.05);
        /* offered 2 Gb/s, sent 1.2: the rest waits at the source */
        assert_true((double)hot->st.msgs_offered * 4096 > 1.4 * (double)hot->st.bytes_sent);
        assert_true(fabs(gbps(&s, uni) - 2.0) < 0.15);
        assert_int_equal(pat->hot_sent[h], hot->st.bytes_sent);
        assert_int_equal(pat->uni_sent[h], uni->st.bytes_sent);
    }
    done(&s);
}

/* Mean rate (Gb/s over the whole run) of the uniform bytes the pattern charged to its B nodes. */
static double b_uniform_gbps(const struct testsim *s)
{
    const struct pattern *pat = s->f.patterns[0];
    double sum = 0;
    int nb = 0;
    for (int h = 0; h < s->f.nhosts; h++)
        if (pattern_role(pat, h) == ROLE_B) {
            sum += (double)pat->uni_sent[h] * 8.0 / ((double)s->f.end / 1e12) / 1e9;
            nb++;
        }
    return nb ? sum / nb : 0;
}

static int ccti_max(const struct fabric *f, const struct flow *fl)
{
    return ibcc_flow_ccti(f, fl->cc).max;
}

/* 4 C, 2 B (p = 0.5), 2 V nodes, one hot spot, CC on with one CCTI per flow (level = flow). The
 * hot spot is oversubscribed, so the B nodes' hot QPs are throttled (CCTI up to the limit);
 * their uniform QPs keep (1 - p) x 13.5 = 6.75 Gb/s, their mean within 5 % and each within
 * 10 % (they are marked now and then where uniform traffic meets, never up to the limit; which
 * of two packets that reach a marking queue at the same picosecond comes first decides some
 * marks: with seed 1, B host 0 keeps 97 % under the former global first-scheduled order and
 * 92 % under the order of issue 19 (scheduling time, then node), the other B host 100 % under
 * both; seeds 2-6 keep 96-100 % under both). With one QP per host (no split) and one
 * CCTI for it the throttling of the hot-spot messages delays the uniform ones too: the B nodes'
 * uniform rate falls by more than 10 % (to about a fifth here). With a queue pair per
 * destination (level = qp, the default) one flow per B node keeps the split's uniform rate
 * within 5 %: it sends its uniform class while its hot-spot queue pair waits (Frame I in one
 * flow). V nodes' hot QPs and C nodes' uniform QPs never send. */
static void test_split_throttles_one_class(void **st)
{
    (void)st;
    struct testsim s;
    /* Here the hot spot is one of only 7 destinations: the uniform class avoids it
     * (b_uniform = cold), so that only the hot-spot class is marked. */
    pset(setup(&s, 20 * PS_PER_MS, "0.5", "0.25", "0.5", "13.5 Gb/s", 1), "b_uniform", "cold");
    run(&s, "flow");
    const struct pattern *pat = s.f.patterns[0];
    int nc = 0, nv = 0, nb = 0;
    double b_uni = 0;
    for (int h = 0; h < s.f.nhosts; h++) {
        struct flow *hot = qp(&s, h, 1), *uni = qp(&s, h, 0);
        struct ibcc_flow *ch = hot->cc, *cu = uni->cc;
        assert_non_null(ch);
        assert_non_null(cu);
        assert_ptr_not_equal(ch->ix, cu->ix); /* a CCTI per QP */
        switch (pattern_role(pat, h)) {
        case ROLE_V:
            nv++;
            assert_int_equal(hot->st.pkts_sent, 0);
            assert_false(hot->active);
            assert_true(uni->st.pkts_sent > 0);
            break;
        case ROLE_C:
            nc++;
            assert_int_equal(uni->st.pkts_sent, 0);
            assert_false(uni->active);
            assert_true(ccti_max(&s.f, hot) > 0);
            break;
        default:
            nb++;
            printf("  B host %d: hot QP %.3f Gb/s (CCTI max %d), uniform QP %.3f Gb/s "
                   "(CCTI max %d; budget 6.75)\n", h, gbps(&s, hot), ccti_max(&s.f, hot),
                   gbps(&s, uni), ccti_max(&s.f, uni));
            assert_true(ccti_max(&s.f, hot) > 0);
            assert_true(ccti_max(&s.f, uni) < ccti_max(&s.f, hot));
            assert_true(gbps(&s, hot) < 0.6 * 6.75);
            assert_true(gbps(&s, uni) > 0.90 * 6.75 && gbps(&s, uni) < 6.75 + 0.05);
            b_uni += gbps(&s, uni);
            break;
        }
    }
    assert_int_equal(nc, 4);
    assert_int_equal(nb, 2);
    assert_int_equal(nv, 2);
    assert_true(b_uni / nb > 0.95 * 6.75); /* their mean within 5 % */
    double split_uni = b_uniform_gbps(&s);
    done(&s);

    /* The same run with one flow per host and one CCTI for it. */
    pset(setup(&s, 20 * PS_PER_MS, "0.5", "0.25", "0.5", "13.5 Gb/s", 0), "b_uniform", "cold");
    run(&s, "flow");
    assert_int_equal(s.f.nflows, s.f.nhosts);
    double shared_uni = b_uniform_gbps(&s);
    done(&s);

    /* One flow per host, a queue pair per destination. */
    pset(setup(&s, 20 * PS_PER_MS, "0.5", "0.25", "0.5", "13.5 Gb/s", 0), "b_uniform", "cold");
    run(&s, "qp");
    assert_int_equal(s.f.nflows, s.f.nhosts);
    assert_int_equal(ibcc_flow_ccti(&s.f, s.f.flows[0].cc).qps, s.f.nhosts - 1);
    double perdest_uni = b_uniform_gbps(&s);
    printf("  B nodes' uniform rate: split %.3f Gb/s, one CCTI per host %.3f Gb/s, a queue pair "
           "per destination %.3f Gb/s (whole run)\n", split_uni, shared_uni, perdest_uni);
    assert_true(shared_uni < 0.9 * split_uni);
    assert_true(fabs(perdest_uni - split_uni) < 0.05 * split_uni);
    done(&s);
}

/* Hot-spot share of the bytes the B nodes sent. */
static double b_hot_share(const struct testsim *s)
{
    const struct pattern *pat = s->f.patterns[0];
    double hot = 0, all = 0;
    for (int h = 0; h < s->f.nhosts; h++)
        if (pattern_role(pat, h) == ROLE_B) {
            hot += (double)pat->hot_sent[h];
            all += (double)(pat->hot_sent[h] + pat->uni_sent[h]);
        }
    return all > 0 ? hot / all : 0;
}

/* One flow per B node without CC, the hot spot oversubscribed by the C nodes: the flow sends
 * the class furthest behind its budget, and its hot-spot share stays at p = 0.1 (within
 * 0.02), as Frame I's generator would. */
static void test_one_flow_share(void **st)
{
    (void)st;
    struct testsim s;
    setup(&s, 20 * PS_PER_MS, "0.5", "0.25", "0.1", "13.5 Gb/s", 0);
    run(&s, NULL);
    double one = b_hot_share(&s);
    printf("  B nodes' hot-spot share without CC (p = 0.1), one flow: %.3f\n", one);
    assert_true(fabs(one - 0.1) < 0.02);
    done(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_shares),
        cmocka_unit_test(test_split_queued_arrivals),
        cmocka_unit_test(test_split_throttles_one_class),
        cmocka_unit_test(test_one_flow_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_pattern.c: unit tests of the destination patterns: evenness of uniform traffic
 * (chi-square), bijection and fixed points of the permutations, hot-spot fractions, round
 * robin, and seed 002 Paper IV's silent, windy and moving congestion trees (roles, byte
 * budgets, hot-spot moves, the per-class interface of split flows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/rng.h"
#include "traffic/pattern.h"

static void desc_of(struct pattern_desc *d, const char *kind)
{
    char why[256];
    memset(d, 0, sizeof *d);
    assert_int_equal(params_set_defaults(pattern_params, d, why, sizeof why), 0);
    assert_int_equal(param_set(params_find(pattern_params, "kind"), d, kind, why, sizeof why), 0);
}

static void set(struct pattern_desc *d, const char *key, const char *val)
{
    char why[256];
    const struct param *p = params_find(pattern_params, key);
    assert_non_null(p);
    if (param_set(p, d, val, why, sizeof why)) {
        print_error("%s = %s: %s\n", key, val, why);
        fail();
    }
}

static void make(struct pattern *p, const struct pattern_desc *d, int n, uint64_t seed)
{
    struct ibn_err e;
    gsl_rng *s = rng_stream(seed, "setup");
    if (pattern_init(p, d, n, s, &e)) {
        print_error("pattern_init: %s\n", e.msg);
        fail();
    }
    gsl_rng_free(s);
}

static int init_fails(const struct pattern_desc *d, int n, const char *needle)
{
    struct pattern p;
    struct ibn_err e;
    gsl_rng *s = rng_stream(1, "setup");
    int rc = pattern_init(&p, d, n, s, &e);
    gsl_rng_free(s);
    if (rc == 0) {
        pattern_free(&p);
        return 0;
    }
    if (!strstr(e.msg, needle)) {
        print_error("error \"%s\" does not mention \"%s\"\n", e.msg, needle);
        return 0;
    }
    return 1;
}

static void test_table(void **state)
{
    (void)state;
    struct pattern_desc d;
    desc_of(&d, "uniform");
    for (const struct param *p = pattern_params; p->key; p++) {
        assert_non_null(p->def);
        assert_true(p->help && strlen(p->help) > 10);
    }
    assert_int_equal(d.hotspots, 1);
    assert_true(d.budget_rate == 13.5e9);
    char why[256];
    assert_int_equal(param_set(params_find(pattern_params, "kind"), &d, "tornado", why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "windy"));
    assert_true(init_fails(&d, 1, "at least 2 hosts"));
}

/* Uniform: for one source, counts over the n-1 other hosts pass a chi-square test at the
 * 0.1 % level (critical value 36.12 for 14 degrees of freedom), and the source is never hit. */
static void test_uniform(void **state)
{
    (void)state;
    struct pattern_desc d;
    desc_of(&d, "uniform");
    struct pattern p;
    make(&p, &d, 16, 1);
    gsl_rng *r = rng_stream(2, "u");
    for (int src = 0; src < 16; src += 5) {
        long cnt[16] = { 0 }, n = 150000;
        for (long i = 0; i < n; i++) {
            int t = pattern_dest(&p, src, 0, r);
            assert_true(t >= 0 && t < 16 && t != src);
            cnt[t]++;
        }
        double expect = (double)n / 15, chi2 = 0;
        for (int t = 0; t < 16; t++)
            if (t != src)
                chi2 += (cnt[t] - expect) * (cnt[t] - expect) / expect;
        assert_true(chi2 < 36.12);
    }
    gsl_rng_free(r);
    pattern_free(&p);
}

static void test_fixed_shift_ring(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "fixed");
    set(&d, "dest", "3");
    make(&p, &d, 8, 1);
    for (int s = 0; s < 8; s++)
        assert_int_equal(pattern_dest(&p, s, 0, NULL), s == 3 ? -1 : 3);
    pattern_free(&p);
    set(&d, "dest", "8");
    assert_true(init_fails(&d, 8, "dest 8"));

    desc_of(&d, "shift");
    set(&d, "shift", "3");
    make(&p, &d, 8, 1);
    for (int s = 0; s < 8; s++)
        assert_int_equal(pattern_dest(&p, s, 0, NULL), (s + 3) % 8);
    pattern_free(&p);
    set(&d, "shift", "-1");
    make(&p, &d, 8, 1);
    assert_int_equal(pattern_dest(&p, 0, 0, NULL), 7);
    pattern_free(&p);
    set(&d, "shift", "16");
    assert_true(init_fails(&d, 8, "multiple"));

    desc_of(&d, "ring");
    make(&p, &d, 5, 1);
    for (int s = 0; s < 5; s++)
        assert_int_equal(pattern_dest(&p, s, 0, NULL), (s + 1) % 5);
    pattern_free(&p);

    desc_of(&d, "neighbour");
    make(&p, &d, 10, 1);
    gsl_rng *r = rng_stream(3, "n");
    long left = 0, n = 100000;
    for (long i = 0; i < n; i++) {
        int t = pattern_dest(&p, 0, 0, r);
        assert_true(t == 9 || t == 1);
        left += t == 9;
    }
    assert_true(fabs((double)left / n - 0.5) < 0.01);
    pattern_free(&p);
    make(&p, &d, 2, 1);
    assert_int_equal(pattern_dest(&p, 0, 0, r), 1);
    assert_int_equal(pattern_dest(&p, 1, 0, r), 0);
    pattern_free(&p);
    gsl_rng_free(r);
}

/* The map i -> dest(i) (fixed points, reported as -1, map to themselves) is a bijection;
 * returns the number of fixed points. */
static int check_bijection(struct pattern *p, int n)
{
    char *seen = calloc((size_t)n, 1);
    int fixed = 0;
    for (int s = 0; s < n; s++) {
        int t = pattern_dest(p, s, 0, NULL);
        assert_true(t >= -1 && t < n && t != s);
        if (t < 0) {
            fixed++;
            t = s;
        }
        assert_int_equal(seen[t], 0);
        seen[t] = 1;
    }
    free(seen);
    return fixed;
}

static void test_permutations(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "bitrev");
    make(&p, &d, 16, 1);
    /* palindromes 0000 0110 1001 1111 are the fixed points */
    assert_int_equal(check_bijection(&p, 16), 4);
    assert_int_equal(pattern_dest(&p, 1, 0, NULL), 8);
    assert_int_equal(pattern_dest(&p, 3, 0, NULL), 12);
    assert_int_equal(pattern_dest(&p, 6, 0, NULL), -1);
    for (int s = 0; s < 16; s++) {
        int t = pattern_dest(&p, s, 0, NULL);
        if (t >= 0)
            assert_int_equal(pattern_dest(&p, t, 0, NULL), s);
    }
    pattern_free(&p);
    assert_true(init_fails(&d, 12, "power-of-two"));

    desc_of(&d, "transpose");
    make(&p, &d, 16, 1);
    assert_int_equal(check_bijection(&p, 16), 4); /* the diagonal */
    assert_int_equal(pattern_dest(&p, 1, 0, NULL), 4);
    assert_int_equal(pattern_dest(&p, 7, 0, NULL), 13);
    pattern_free(&p);
    make(&p, &d, 36, 1);
    assert_int_equal(check_bijection(&p, 36), 6);
    pattern_free(&p);
    assert_true(init_fails(&d, 12, "square"));

    desc_of(&d, "shift");
    set(&d, "shift", "5");
    make(&p, &d, 12, 1);
    assert_int_equal(check_bijection(&p, 12), 0);
    pattern_free(&p);

    desc_of(&d, "random_perm");
    int first[100];
    for (int seed = 0; seed < 20; seed++) {
        make(&p, &d, 100, (uint64_t)seed);
        assert_int_equal(check_bijection(&p, 100), 0); /* a derangement */
        if (seed == 0)
            for (int s = 0; s < 100; s++)
                first[s] = pattern_dest(&p, s, 0, NULL);
        pattern_free(&p);
    }
    make(&p, &d, 100, 0);
    int same = 1, other = 0;
    for (int s = 0; s < 100; s++)
        same &= pattern_dest(&p, s, 0, NULL) == first[s];
    pattern_free(&p);
    make(&p, &d, 100, 1);
    for (int s = 0; s < 100; s++)
        other += pattern_dest(&p, s, 0, NULL) != first[s];
    pattern_free(&p);
    assert_true(same);
    assert_true(other > 50);
    make(&p, &d, 2, 5);
    assert_int_equal(pattern_dest(&p, 0, 0, NULL), 1);
    pattern_free(&p);
}

static void test_alltoall(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "alltoall");
    make(&p, &d, 7, 1);
    for (int round = 0; round < 3; round++)
        for (int s = 0; s < 7; s++) {
            int seen[7] = { 0 };
            for (int k = 0; k < 6; k++) {
                int t = pattern_dest(&p, s, 0, NULL);
                assert_true(t != s && t >= 0 && t < 7);
                seen[t]++;
            }
            for (int t = 0; t < 7; t++)
                assert_int_equal(seen[t], t == s ? 0 : 1);
        }
    pattern_free(&p);
}

static void test_hotspot(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "hotspot");
    set(&d, "hotspots", "2");
    set(&d, "hot_fraction", "0.2");
    make(&p, &d, 64, 7);
    int hot[2], k = 0;
    for (int h = 0; h < 64; h++)
        if (pattern_is_hotspot(&p, h, 0))
            hot[k++] = h;
    assert_int_equal(k, 2);
    int src = hot[0] == 0 || hot[1] == 0 ? (hot[0] == 1 || hot[1] == 1 ? 2 : 1) : 0;
    gsl_rng *r = rng_stream(8, "h");
    long n = 1000000, to_hot[2] = { 0, 0 }, cold[64] = { 0 };
    for (long i = 0; i < n; i++) {
        int t = pattern_dest(&p, src, 0, r);
        assert_true(t != src && t >= 0 && t < 64);
        if (t == hot[0])
            to_hot[0]++;
        else if (t == hot[1])
            to_hot[1]++;
        else
            cold[t]++;
    }
    /* exactly a fraction 0.2 to the hot spots (the rest avoids them), split evenly */
    assert_true(fabs((to_hot[0] + to_hot[1]) / (double)n - 0.2) / 0.2 < 0.02);
    assert_true(fabs(to_hot[0] / (double)(to_hot[0] + to_hot[1]) - 0.5) < 0.01);
    /* the uniform part is even over the 61 cold hosts: max deviation 5 % of the mean */
    double mean = 0.8 * n / 61;
    for (int t = 0; t < 64; t++)
        if (t != src && t != hot[0] && t != hot[1])
            assert_true(fabs(cold[t] - mean) / mean < 0.05);
    /* a hot spot sends its hot share to the other hot spot */
    for (int i = 0; i < 1000; i++)
        assert_int_not_equal(pattern_dest(&p, hot[0], 0, r), hot[0]);
    pattern_free(&p);

    set(&d, "hotspots", "1");
    set(&d, "hot_node", "5");
    set(&d, "hot_fraction", "1");
    make(&p, &d, 8, 1);
    for (int s = 0; s < 8; s++)
        if (s != 5)
            assert_int_equal(pattern_dest(&p, s, 0, r), 5);
    pattern_free(&p);
    gsl_rng_free(r);
}

static void count_roles(struct pattern *p, int n, int *c, int *b, int *v)
{
    *c = *b = *v = 0;
    for (int h = 0; h < n; h++) {
        int role = pattern_role(p, h);
        *c += role == ROLE_C;
        *b += role == ROLE_B;
        *v += role == ROLE_V;
    }
}

static void test_silent(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p, q;
    desc_of(&d, "silent"); /* Paper IV: 648 nodes, 80 % C, 8 hot spots */
    set(&d, "hotspots", "8");
    set(&d, "c_fraction", "0.8");
    make(&p, &d, 648, 11);
    int c, b, v;
    count_roles(&p, 648, &c, &b, &v);
    assert_int_equal(c, 518);
    assert_int_equal(b, 0);
    assert_int_equal(v, 130);
    int nhot = 0;
    for (int h = 0; h < 648; h++)
        nhot += pattern_is_hotspot(&p, h, 0);
    assert_int_equal(nhot, 8);
    gsl_rng *r = rng_stream(12, "s");
    /* every C node always sends to one hot spot; subsets are even (64 or 65 members) */
    int members[648] = { 0 };
    for (int h = 0; h < 648; h++) {
        if (pattern_role(&p, h) != ROLE_C)
            continue;
        int t = pattern_dest(&p, h, 0, r);
        if (t == h)
            fail();
        if (pattern_is_hotspot(&p, t, 0)) {
            for (int i = 0; i < 20; i++)
                assert_int_equal(pattern_dest(&p, h, 5 * PS_PER_S, r), t);
            members[t]++;
        } else {
            assert_true(pattern_is_hotspot(&p, h, 0)); /* only a hot spot itself sends elsewhere */
        }
    }
    int tot = 0;
    for (int h = 0; h < 648; h++)
        if (members[h]) {
            assert_true(members[h] >= 63 && members[h] <= 65);
            tot += members[h];
        }
    assert_true(tot >= 518 - 8);
    /* V nodes send uniformly, so to many different hosts */
    int vnode = -1;
    for (int h = 0; h < 648 && vnode < 0; h++)
        if (pattern_role(&p, h) == ROLE_V)
            vnode = h;
    char seen[648] = { 0 };
    int distinct = 0;
    for (int i = 0; i < 5000; i++) {
        int t = pattern_dest(&p, vnode, 0, r);
        assert_int_not_equal(t, vnode);
        distinct += !seen[t];
        seen[t] = 1;
    }
    assert_true(distinct > 600);
    /* reproducible from the setup stream */
    make(&q, &d, 648, 11);
    for (int h = 0; h < 648; h++) {
        assert_int_equal(pattern_role(&p, h), pattern_role(&q, h));
        assert_int_equal(pattern_is_hotspot(&p, h, 0), pattern_is_hotspot(&q, h, 0));
    }
    pattern_free(&q);
    make(&q, &d, 648, 12);
    int diff = 0;
    for (int h = 0; h < 648; h++)
        diff += pattern_role(&p, h) != pattern_role(&q, h);
    assert_true(diff > 50);
    pattern_free(&q);
    pattern_free(&p);
    set(&d, "b_fraction", "0.1");
    assert_true(init_fails(&d, 648, "windy"));
    set(&d, "b_fraction", "0.3");
    assert_true(init_fails(&d, 648, "at most 1"));
    gsl_rng_free(r);
}

static void test_windy(void **state)
{
    (void)state;
    const double ps[] = { 0.0, 0.3, 0.6, 1.0 };
    for (int k = 0; k < 4; k++) {
        struct pattern_desc d;
        struct pattern p;
        desc_of(&d, "windy"); /* x = 25 % B; the rest 80 % C / 20 % V */
        set(&d, "hotspots", "8");
        set(&d, "b_fraction", "0.25");
        set(&d, "c_fraction", "0.6");
        d.p = ps[k];
        make(&p, &d, 648, 21);
        int c, b, v;
        count_roles(&p, 648, &c, &b, &v);
        assert_int_equal(b, 162);
        assert_int_equal(c, 389);
        assert_int_equal(v, 97);
        gsl_rng *r = rng_stream(22, "w");
        /* a saturated B node: each message starts when the link is free and its class budget
         * admits it (13.5 Gb/s budget rate, 20 Gb/s link, 4 KiB messages) */
        for (int src = 0, tested = 0; src < 648 && tested < 3; src++) {
            if (pattern_role(&p, src) != ROLE_B)
                continue;
            tested++;
            simtime_t t = 0, link_free = 0;
            double hot_bytes = 0, all = 0;
            long uni = 0, uni_to_hot = 0;
            int hotdest = -1;
            for (int i = 0; i < 20000; i++) {
                simtime_t th = pattern_budget_time(&p, src, 1, 4096);
                simtime_t tu = pattern_budget_time(&p, src, 0, 4096);
                simtime_t ready = th < tu ? th : tu;
                t = ready > link_free ? ready : link_free;
                int dst = pattern_dest(&p, src, t, r);
                assert_true(dst >= 0 && dst != src);
                int to_hot = ps[k] > 0 && th <= tu; /* the class pattern_dest charged */
                if (to_hot) {
                    if (hotdest < 0)
                        hotdest = dst;
                    assert_int_equal(dst, hotdest);
                    hot_bytes += 4096;
                } else {
                    uni++;
                    uni_to_hot += pattern_is_hotspot(&p, dst, t);
                }
                all += 4096;
                /* budgets: hot bytes <= p t C / 8, uniform bytes <= (1 - p) t C / 8 */
                double cap = simtime_to_s(t) * 13.5e9 / 8;
                assert_true(hot_bytes <= ps[k] * cap + 1e-6);
                assert_true(all - hot_bytes <= (1 - ps[k]) * cap + 1e-6);
                link_free = t + 4096 * 400; /* 400 ps per byte at 20 Gb/s */
            }
            double share = hot_bytes / all;
            assert_true(fabs(share - ps[k]) <= 0.02 * (ps[k] > 0 ? ps[k] : 1));
            /* Frame I: the uniform class includes the hot spots, 8 of the 647 other hosts
             * (1.24 %; binomial SD about 8 % of that at p = 0, 20000 messages) */
            if (uni > 10000) {
                double f = (double)uni_to_hot / (double)uni;
                assert_true(fabs(f / (8.0 / 647.0) - 1) < 0.35);
            }
            /* the budget rate, not the link, limits the node: 13.5 Gb/s */
            assert_true(fabs(all * 8 / simtime_to_s(t) / 13.5e9 - 1) < 0.02);
        }
        gsl_rng_free(r);
        pattern_free(&p);
    }
}

static void test_moving(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "moving");
    set(&d, "hotspots", "8");
    set(&d, "c_fraction", "0.8");
    set(&d, "lifetime", "1 ms");
    make(&p, &d, 648, 31);
    gsl_rng *r = rng_stream(32, "m");
    int cnode = -1;
    for (int h = 0; h < 648 && cnode < 0; h++)
        if (pattern_role(&p, h) == ROLE_C)
            cnode = h;
    int prev_set[8] = { 0 }, moved_epochs = 0;
    for (int epoch = 0; epoch < 50; epoch++) {
        simtime_t start = epoch * PS_PER_MS;
        int cur[8], k = 0;
        for (int h = 0; h < 648; h++)
            if (pattern_is_hotspot(&p, h, start))
                cur[k < 8 ? k : 7] = h, k++;
        assert_int_equal(k, 8);
        /* constant within the lifetime */
        int dest = pattern_dest(&p, cnode, start, r);
        if (!pattern_is_hotspot(&p, cnode, start)) {
            assert_true(pattern_is_hotspot(&p, dest, start));
            for (simtime_t t = start; t < start + PS_PER_MS; t += 97 * PS_PER_US)
                assert_int_equal(pattern_dest(&p, cnode, t, r), dest);
            assert_int_equal(pattern_dest(&p, cnode, start + PS_PER_MS - 1, r), dest);
        }
        for (int i = 0; i < 8; i++)
            assert_true(pattern_is_hotspot(&p, cur[i], start + PS_PER_MS - 1));
        if (epoch > 0) {
            int same = 0;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    same += cur[i] == prev_set[j];
            moved_epochs += same < 8;
        }
        memcpy(prev_set, cur, sizeof cur);
    }
    assert_int_equal(moved_epochs, 49); /* every move changes the set */
    /* the schedule is a function of time: going back gives the same hot spots */
    int hot3[648], hot3b[648];
    for (int h = 0; h < 648; h++)
        hot3[h] = pattern_is_hotspot(&p, h, 3 * PS_PER_MS + 5);
    assert_true(pattern_dest(&p, cnode, 40 * PS_PER_MS, r) >= 0);
    for (int h = 0; h < 648; h++)
        hot3b[h] = pattern_is_hotspot(&p, h, 3 * PS_PER_MS + 7);
    assert_memory_equal(hot3, hot3b, sizeof hot3);
    pattern_free(&p);
    set(&d, "lifetime", "0 s");
    assert_true(init_fails(&d, 648, "lifetime"));
    gsl_rng_free(r);
}

/* The per-class interface (split flows, Paper IV Frame I): C nodes have only an unbudgeted
 * hot class, V nodes only an unbudgeted uniform class, B nodes both with budgets (a class with
 * share 0 never sends); patterns without roles have no classes, and split needs roles. */
static void test_classes(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "windy");
    set(&d, "c_fraction", "0.5");
    set(&d, "b_fraction", "0.25");
    set(&d, "p", "0");
    set(&d, "split", "true");
    assert_int_equal(d.split, 1);
    make(&p, &d, 64, 5);
    gsl_rng *r = rng_stream(6, "c");
    int seen[3] = { 0, 0, 0 };
    for (int h = 0; h < 64; h++) {
        simtime_t th = pattern_budget_time(&p, h, 1, 4096);
        simtime_t tu = pattern_budget_time(&p, h, 0, 4096);
        switch (pattern_role(&p, h)) {
        case ROLE_C:
            seen[0]++;
            assert_true(th == 0 && tu == SIMTIME_NEVER);
            if (!pattern_is_hotspot(&p, h, 0)) /* its hot spot (a hot spot itself: uniform) */
                assert_int_equal(pattern_dest_class(&p, h, 1, 4096, 0, r), p.hot[p.subset[h]]);
            break;
        case ROLE_V: {
            seen[1]++;
            assert_true(th == SIMTIME_NEVER && tu == 0);
            int dst = pattern_dest_class(&p, h, 0, 4096, 0, r);
            assert_true(dst >= 0 && dst < 64 && dst != h);
            break;
        }
        default:
            seen[2]++;
            assert_true(th == SIMTIME_NEVER); /* p = 0: no hot-spot class */
            assert_true(tu > 0 && tu != SIMTIME_NEVER);
            int dst = pattern_dest_class(&p, h, 0, 4096, 0, r);
            assert_true(dst >= 0 && dst < 64 && dst != h); /* any other host (Frame I) */
            assert_int_equal(p.uni_sent[h], 4096);
            /* the next message waits for twice the budget time of one */
            assert_true(pattern_budget_time(&p, h, 0, 4096) == 2 * tu ||
                        pattern_budget_time(&p, h, 0, 4096) == 2 * tu - 1);
            break;
        }
    }
    assert_true(seen[0] == 32 && seen[1] == 16 && seen[2] == 16);
    pattern_free(&p);
    gsl_rng_free(r);
    desc_of(&d, "hotspot");
    make(&p, &d, 16, 5);
    assert_true(pattern_budget_time(&p, 3, 1, 4096) == SIMTIME_NEVER);
    assert_true(pattern_budget_time(&p, 3, 0, 4096) == SIMTIME_NEVER);
    pattern_free(&p);
    set(&d, "split", "true");
    assert_true(init_fails(&d, 16, "split needs node roles"));
}

/* One flow per B node (no split), its adapter pacing each destination: pattern_b_class picks
 * the class furthest behind its budget among those admitted now, skips the hot-spot class
 * while its queue pair waits, and says how long to wait when neither may go (the earlier of
 * the two budget times); pattern_hot_dest is the node's hot spot. */
static void test_b_class(void **state)
{
    (void)state;
    struct pattern_desc d;
    struct pattern p;
    desc_of(&d, "windy");
    set(&d, "c_fraction", "0.5");
    set(&d, "b_fraction", "0.25");
    set(&d, "p", "0.5");
    make(&p, &d, 64, 5);
    int b = -1, c = -1, v = -1;
    for (int h = 0; h < 64; h++) {
        int role = pattern_role(&p, h);
        if (role == ROLE_B && b < 0 && !pattern_is_hotspot(&p, h, 0))
            b = h;
        if (role == ROLE_C && c < 0 && !pattern_is_hotspot(&p, h, 0))
            c = h;
        if (role == ROLE_V && v < 0)
            v = h;
    }
    assert_true(b >= 0 && c >= 0 && v >= 0);
    assert_int_equal(pattern_hot_dest(&p, b, 0), p.hot[p.subset[b]]);
    assert_int_equal(pattern_hot_dest(&p, c, 0), p.hot[p.subset[c]]);
    assert_int_equal(pattern_hot_dest(&p, v, 0), -1);
    /* both budgets empty: each admits a 4 KiB message at the same time (p = 0.5) */
    simtime_t t1 = pattern_budget_time(&p, b, 1, 4096);
    assert_true(t1 == pattern_budget_time(&p, b, 0, 4096));
    simtime_t w = 0;
    assert_int_equal(pattern_b_class(&p, b, 4096, t1 - 1, 0, &w), -1);
    assert_true(w == t1);
    assert_int_equal(pattern_b_class(&p, b, 4096, t1, 0, &w), 1);  /* a tie goes to the hot spot */
    assert_int_equal(pattern_b_class(&p, b, 4096, t1, t1 + 1, &w), 0); /* its QP waits */
    /* hot spot behind its budget by one message: hot first, unless its queue pair waits */
    p.uni_sent[b] += 4096;
    simtime_t now = pattern_budget_time(&p, b, 0, 4096);
    assert_int_equal(pattern_b_class(&p, b, 4096, now, 0, &w), 1);
    assert_int_equal(pattern_b_class(&p, b, 4096, now, now + 5, &w), 0);
    /* uniform budget not yet admitted and the hot spot's queue pair waiting: wait for the
     * earlier of the two */
    simtime_t tu = pattern_budget_time(&p, b, 0, 4096);
    w = 0;
    assert_int_equal(pattern_b_class(&p, b, 4096, t1, tu + 100, &w), -1);
    assert_true(w == tu);
    pattern_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_fixed_shift_ring), cmocka_unit_test(test_permutations),
        cmocka_unit_test(test_alltoall),  cmocka_unit_test(test_hotspot),
        cmocka_unit_test(test_silent),    cmocka_unit_test(test_windy),
        cmocka_unit_test(test_moving),    cmocka_unit_test(test_classes),
        cmocka_unit_test(test_b_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

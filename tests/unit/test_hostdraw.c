/* test_hostdraw.c: unit tests of the `draw` section (fabric/hostdraw.c): hot sources and hot
 * spots drawn at random from the run's seed, as seed 002 Paper VI draws them, named in flows as
 * draw:hot, draw:hotK, draw:cold and draw:spotK. Checked: the sets partition the hosts as
 * documented (every hot source in one subset, subsets differing in size by one at most, the
 * hot spots distinct and never hot sources, cold = the rest), the draw is a function of the
 * seed (same seed, same hosts; another seed, other hosts), bad settings and names are refused
 * with the numbers, and the shipped scenario paper6-pattern2-64-random.cfg builds flows from
 * the sets (hot flows to their subset's hot spot as to a named host, the same hosts under two
 * switch designs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fabric/hostdraw.h"
#include "../support/sim.h"

static void draw(struct fabric *f, int nhosts, uint64_t seed, long long sources, long long spots)
{
    memset(f, 0, sizeof *f);
    f->nhosts = nhosts;
    f->seed = seed;
    f->set.draw.sources = sources;
    f->set.draw.spots = spots;
    struct ibn_err e;
    if (hostdraw_init(f, &e)) {
        print_error("hostdraw_init: %s\n", e.msg);
        fail();
    }
}

static int hosts(const struct fabric *f, const char *spec, int **out, int *single)
{
    struct ibn_err e;
    int n = hostdraw_hosts(f, spec, out, single, &e);
    if (n < 0) {
        print_error("%s: %s\n", spec, e.msg);
        fail();
    }
    return n;
}

static void test_partition(void **st)
{
    (void)st;
    static const int sizes[][3] = { { 64, 16, 4 }, { 256, 64, 4 }, { 64, 10, 4 }, { 10, 7, 3 } };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int n = sizes[c][0], ns = sizes[c][1], nk = sizes[c][2];
        struct fabric f;
        draw(&f, n, 7, ns, nk);
        int *seen = calloc((size_t)n, sizeof *seen), *set, one;
        int hot = hosts(&f, "draw:hot", &set, &one);
        assert_int_equal(hot, ns);
        assert_int_equal(one, -1);
        free(set);
        int sum = 0, lo = n, hi = 0;
        for (int k = 1; k <= nk; k++) {
            char spec[32];
            snprintf(spec, sizeof spec, "draw:hot%d", k);
            int m = hosts(&f, spec, &set, &one);
            for (int i = 0; i < m; i++) {
                assert_int_equal(seen[set[i]], 0); /* in one subset only */
                seen[set[i]] = 1;
                if (i)
                    assert_true(set[i] > set[i - 1]); /* host order */
            }
            free(set);
            sum += m;
            lo = m < lo ? m : lo;
            hi = m > hi ? m : hi;
            snprintf(spec, sizeof spec, "draw:spot%d", k);
            assert_int_equal(hosts(&f, spec, &set, &one), 1);
            assert_int_equal(set[0], one);
            assert_int_equal(seen[one], 0); /* never a hot source, never two subsets' spot */
            seen[one] = 2;
            free(set);
        }
        assert_int_equal(sum, ns);
        assert_true(hi - lo <= 1);
        int cold = hosts(&f, "draw:cold", &set, &one);
        assert_int_equal(cold, n - ns);
        for (int i = 0; i < cold; i++)
            assert_int_not_equal(seen[set[i]], 1); /* cold: not hot sources, spots included */
        free(set);
        free(seen);
        hostdraw_free(&f);
    }
}

static void test_seed(void **st)
{
    (void)st;
    struct fabric a, b, c;
    draw(&a, 64, 1, 16, 4);
    draw(&b, 64, 1, 16, 4);
    draw(&c, 64, 2, 16, 4);
    assert_memory_equal(a.draw_sub, b.draw_sub, 64 * sizeof *a.draw_sub);
    assert_memory_equal(a.draw_spot, b.draw_spot, 4 * sizeof *a.draw_spot);
    assert_true(memcmp(a.draw_sub, c.draw_sub, 64 * sizeof *a.draw_sub) != 0);
    hostdraw_free(&a);
    hostdraw_free(&b);
    hostdraw_free(&c);
    struct fabric none;
    draw(&none, 64, 1, 0, 0); /* no draw */
    assert_null(none.draw_sub);
}

static void test_refusals(void **st)
{
    (void)st;
    struct fabric f;
    struct ibn_err e;
    memset(&f, 0, sizeof f);
    f.nhosts = 8;
    f.set.draw.sources = 2;
    assert_int_equal(hostdraw_init(&f, &e), -1);
    assert_non_null(strstr(e.msg, "draw.spots >= 1"));
    f.set.draw.sources = 6;
    f.set.draw.spots = 3;
    assert_int_equal(hostdraw_init(&f, &e), -1);
    assert_non_null(strstr(e.msg, "6 + 3, more than the 8 hosts"));
    int *set, one;
    assert_int_equal(hostdraw_hosts(&f, "draw:hot", &set, &one, &e), -1); /* nothing drawn */
    assert_non_null(strstr(e.msg, "draws none"));
    draw(&f, 8, 1, 4, 2);
    assert_int_equal(hostdraw_hosts(&f, "draw:hot3", &set, &one, &e), -1);
    assert_non_null(strstr(e.msg, "1..2"));
    assert_int_equal(hostdraw_hosts(&f, "draw:spot0", &set, &one, &e), -1);
    assert_int_equal(hostdraw_hosts(&f, "draw:hot1x", &set, &one, &e), -1);
    assert_int_equal(hostdraw_hosts(&f, "draw:warm", &set, &one, &e), -1);
    assert_non_null(strstr(e.msg, "not a drawn host set"));
    assert_true(hostdraw_is("draw:cold"));
    assert_false(hostdraw_is("H1,H2"));
    hostdraw_free(&f);
}

/* The shipped scenario: its flows are built from the drawn sets, and the same seed gives the
 * same hosts under another switch design. */
static void build(struct scenario_run *r, const char *arch)
{
    char a[64];
    snprintf(a, sizeof a, "switch.arch=%s", arch);
    const char *over[] = { "simulation.duration=20 us", "simulation.seed=3", a };
    if (sr_run(r, IBN_SOURCE_DIR "/scenarios/seed002/paper6-pattern2-64-random.cfg", over, 3)) {
        print_error("%s\n", r->e.msg);
        fail();
    }
}

static void test_scenario(void **st)
{
    (void)st;
    struct scenario_run *r = malloc(sizeof *r), *q = malloc(sizeof *q);
    build(r, "voq");
    build(q, "ecocc");
    struct fabric *f = &r->f;
    assert_int_equal(f->nflows, 64);
    int nhot = 0;
    for (int i = 0; i < (int)f->nflows; i++) {
        const struct flow *fl = &f->flows[i];
        assert_string_equal(fl->name, q->f.flows[i].name); /* same hosts under ecocc */
        int sub = f->draw_sub[fl->src_host];
        if (!strncmp(fl->name, "hot", 3)) {
            nhot++;
            assert_true(sub >= 0);
            assert_int_equal(fl->name[3] - '1', sub);
            assert_int_equal(fl->dst_host, f->draw_spot[sub]); /* a flow to one host */
            assert_int_equal(fl->pattern, 0);
        } else {
            assert_int_equal(sub, -1);
            assert_int_equal(fl->pattern, 1); /* uniform */
        }
    }
    assert_int_equal(nhot, 16);
    sr_free(r);
    sr_free(q);
    free(r);
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_scenario),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_timeline.c: the timeline's collection (stats/timeline.c) on H1 -- S1 -- H2 at 8 Gb/s
 * (1 ns a byte), 100 ns cables, one packet of 1026 wire bytes (17 credits) every 2 us:
 *  - counters at a window's start hold the changes before it: at 10.5 us the packet sent at
 *    10 us is in H2's buffer (taken when the switch starts it at 10.2 us), so H2's buffer starts
 *    at 17 credits and the switch's credits towards H2 at 1024 - 17, and H1's credits too (they
 *    come back at 11.326 us);
 *  - every collected span lasts exactly 1026 ns;
 *  - the cap ends the timeline at the moment it is reached, with only events before it;
 *  - closing unmarks every port and uninstalls the function (no cost after). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <unistd.h>

#include "stats/timeline.h"
#include "../support/sim.h"

static json_t *run(const char *start, const char *stop, long long cap, int *truncated)
{
    struct testsim s;
    ts_init_line(&s, "8 Gb/s", "8 Gb/s", 100 * PS_PER_NS);
    s.d.end = 30 * PS_PER_US;
    ts_flow(&s, "A", "H1", "H2", "constant", "4 Gb/s", "1000 B", 0, 0);
    if (fabric_build(&s.f, &s.topo, &s.lfts, &s.d, &s.err))
        abort();
    simtime_t t0, t1;
    char why[128];
    assert_int_equal(units_parse_time(start, &t0, why, sizeof why), 0);
    assert_int_equal(units_parse_time(stop, &t1, why, sizeof why), 0);
    struct timeline_desc d = { "H1,H2", "", t0, t1, cap };
    char path[] = "/tmp/ibn-timeline-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct ibn_err e;
    assert_int_equal(timeline_open(&s.f, &d, path, &e), 0);
    assert_non_null(s.f.timeline_fn);
    assert_int_equal(fabric_run(&s.f, NULL, &s.rep, &s.err), 0);
    *truncated = timeline_truncated(&s.f);
    assert_int_equal(timeline_close(&s.f, &e), 0);
    assert_null(s.f.timeline_fn);
    assert_null(s.f.timeline);
    for (int i = 0; i < s.f.nnodes; i++)
        for (int p = 1; p <= s.f.nodes[i]->nports; p++)
            assert_int_equal(s.f.nodes[i]->port[p].watch, 0);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    assert_non_null(j);
    unlink(path);
    ts_free(&s);
    return j;
}

/* The first counter event named `name` in the process whose name starts with `node`. */
static json_int_t first_counter(json_t *ev, const char *node, const char *name, double *ts)
{
    json_int_t pid = -1;
    size_t i;
    json_t *x;
    json_array_foreach(ev, i, x) {
        const char *n = json_string_value(json_object_get(json_object_get(x, "args"), "name"));
        if (!strcmp(json_string_value(json_object_get(x, "name")), "process_name") && n &&
            !strncmp(n, node, strlen(node)) && n[strlen(node)] == ' ')
            pid = json_integer_value(json_object_get(x, "pid"));
    }
    json_array_foreach(ev, i, x) {
        if (!strcmp(json_string_value(json_object_get(x, "ph")), "C") &&
            json_integer_value(json_object_get(x, "pid")) == pid &&
            !strcmp(json_string_value(json_object_get(x, "name")), name)) {
            *ts = json_real_value(json_object_get(x, "ts"));
            return json_integer_value(json_object_get(json_object_get(x, "args"), "credits"));
        }
    }
    fail_msg("no counter %s on %s", name, node);
    return -1;
}

static void test_window_start_values(void **state)
{
    (void)state;
    int cut;
    json_t *j = run("10.5 us", "20 us", 1000000, &cut);
    assert_false(cut);
    json_t *ev = json_object_get(j, "traceEvents");
    double ts;
    assert_int_equal(first_counter(ev, "H2", "buffer p1 VL0", &ts), 17);
    assert_true(ts == 10.5);
    assert_int_equal(first_counter(ev, "S1", "credits p2 VL0", &ts), 1024 - 17);
    /* H1's credits for that packet come back when its tail has left the switch's buffer
     * (10.2 + 1.026 us) plus a cable delay: 11.326 us. */
    assert_int_equal(first_counter(ev, "H1", "credits p1 VL0", &ts), 1024 - 17);
    size_t i, spans = 0;
    json_t *x;
    json_array_foreach(ev, i, x) {
        if (strcmp(json_string_value(json_object_get(x, "ph")), "X"))
            continue;
        spans++;
        assert_true(json_real_value(json_object_get(x, "dur")) == 1.026);
        double t = json_real_value(json_object_get(x, "ts"));
        assert_true(t >= 10.5 && t < 20);
    }
    /* H1 starts packets at 12, 14, 16, 18 us; the switch at 12.2, ..., 18.2 us. */
    assert_int_equal(spans, 8);
    json_decref(j);
}

static void test_cap(void **state)
{
    (void)state;
    int cut;
    json_t *j = run("0 s", "0 s", 20, &cut);
    assert_true(cut);
    json_t *other = json_object_get(j, "otherData");
    double at = json_real_value(json_object_get(other, "truncated_at_us"));
    assert_true(at > 0);
    assert_true(json_integer_value(json_object_get(other, "events")) <= 20);
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(j, "traceEvents"), i, x) {
        json_t *t = json_object_get(x, "ts");
        if (t && strcmp(json_string_value(json_object_get(x, "ph")), "M"))
            assert_true(json_number_value(t) < at);
    }
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_start_values),
        cmocka_unit_test(test_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_jsontext.c: jsontext.c writes a jansson tree's text byte for byte as json_dumps does
 * (jansson 2.14, JSON_INDENT(n) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(p)): random trees
 * of every type (negative and extreme integers, reals from 1e-300 to 1e300 and whole-valued
 * ones, strings with quotes, backslashes and control characters, empty and nested arrays and
 * objects), several indents and precisions, and with a base indentation (compared with
 * json_dumps' text with spaces added after each newline, as results.c wrote it); what it
 * leaves to jansson (non-ASCII strings, other flags, a scalar) returns -1 and leaves the
 * buffer as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/jsontext.h"

static uint64_t rs = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static json_t *random_scalar(void)
{
    static const json_int_t ints[] = { 0, 1, -1, 9, 10, -10, 123456789, LLONG_MAX, LLONG_MIN,
                                       LLONG_MIN + 1, 1000000000000LL };
    static const double reals[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 1e-7, 1.5e-300, 1e300, 1e21, 1e15,
                                    123456789012345.0, 0.1, 2.0 / 3.0, 1e16, -4.25e-5,
                                    DBL_MAX, DBL_MIN, 1e100, 100.0, 1234567.891 };
    static const char *strs[] = { "", "a", "port \"1\"", "back\\slash", "tab\there", "nl\nx",
                                  "\b\f\r", "\x01\x1f ctl", "/slash/", "S0001 IB switch 1",
                                  "0x0002c90300000001" };
    switch (rnd() % 7) {
    case 0: return json_integer(ints[rnd() % (sizeof ints / sizeof *ints)]);
    case 1: return json_integer((json_int_t)(rnd() >> (rnd() % 64)) * (rnd() % 2 ? 1 : -1));
    case 2: return json_real(reals[rnd() % (sizeof reals / sizeof *reals)]);
    case 3: {
        double x = ldexp((double)(rnd() >> 11), (int)(rnd() % 200) - 150);
        return json_real(rnd() % 3 ? round(x * 1e6) / 1e6 : x);
    }
    case 4: return json_string(strs[rnd() % (sizeof strs / sizeof *strs)]);
    case 5: return rnd() % 2 ? json_true() : json_false();
    default: return json_null();
    }
}

static json_t *random_tree(int depth)
{
    int obj = (int)(rnd() % 2);
    json_t *t = obj ? json_object() : json_array();
    int n = (int)(rnd() % 6);
    for (int i = 0; i < n; i++) {
        json_t *v = depth < 4 && rnd() % 3 == 0 ? random_tree(depth + 1) : random_scalar();
        if (obj) {
            char key[32];
            snprintf(key, sizeof key, rnd() % 4 ? "k%d" : "k\"%d\\\t", i);
            json_object_set_new(t, key, v);
        } else
            json_array_append_new(t, v);
    }
    return t;
}

/* json_dumps' text with `indent` spaces after each newline. */
static char *reference(const json_t *j, size_t flags, int indent)
{
    char *text = json_dumps(j, flags);
    assert_non_null(text);
    size_t nl = 0;
    for (const char *p = text; *p; p++)
        nl += *p == '\n';
    char *out = malloc(strlen(text) + nl * (size_t)indent + 1), *q = out;
    for (const char *p = text; *p; p++) {
        *q++ = *p;
        if (*p == '\n')
            for (int k = 0; k < indent; k++)
                *q++ = ' ';
    }
    *q = 0;
    free(text);
    return out;
}

static void test_matches_json_dumps(void **state)
{
    (void)state;
    static const int indents[] = { 1, 2, 4, 31 }, precisions[] = { 0, 12, 17, 3 };
    int compared = 0;
    for (int round = 0; round < 3000; round++) {
        json_t *t = random_tree(0);
        size_t flags = JSON_INDENT(indents[round % 4]) | JSON_REAL_PRECISION(precisions[(round / 4) % 4]);
        if (round % 2)
            flags |= JSON_PRESERVE_ORDER;
        int base = round % 3 == 0 ? 4 : 0;
        char *want = reference(t, flags, base);
        struct jtext buf = { 0 };
        jtext_put(&buf, "prefix", 6); /* appended after what the buffer holds */
        assert_int_equal(jtext_dump(&buf, t, flags, base), 0);
        assert_string_equal(buf.s + 6, want);
        assert_int_equal(buf.len, 6 + strlen(want));
        compared++;
        jtext_free(&buf);
        free(want);
        json_decref(t);
    }
    assert_int_equal(compared, 3000);
}

static void test_summary_like(void **state)
{
    (void)state;
    json_t *o = json_object(), *vls = json_array(), *vl = json_object();
    json_object_set_new(o, "node", json_string("S0001"));
    json_object_set_new(o, "guid", json_string("0x0002c90300000001"));
    json_object_set_new(o, "utilisation", json_real(0.123457));
    json_object_set_new(o, "whole", json_real(3.0));
    json_object_set_new(o, "big", json_real(1e21));
    json_object_set_new(o, "empty", json_object());
    json_object_set_new(vl, "vl", json_integer(0));
    json_array_append_new(vls, vl);
    json_array_append_new(vls, json_array());
    json_object_set_new(o, "vls", vls);
    struct jtext buf = { 0 };
    assert_int_equal(jtext_dump(&buf, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12), 0), 0);
    assert_string_equal(buf.s, "{\n  \"node\": \"S0001\",\n  \"guid\": \"0x0002c90300000001\",\n"
                               "  \"utilisation\": 0.123457,\n  \"whole\": 3.0,\n  \"big\": 1e21,\n"
                               "  \"empty\": {},\n  \"vls\": [\n    {\n      \"vl\": 0\n    },\n    []\n  ]\n}");
    jtext_free(&buf);
    json_decref(o);
}

static void test_left_to_jansson(void **state)
{
    (void)state;
    json_t *o = json_object();
    json_object_set_new(o, "a", json_integer(1));
    json_object_set_new(o, "name", json_string("h\xc3\xa9te")); /* UTF-8: jansson checks it */
    struct jtext buf = { 0 };
    jtext_put(&buf, "kept", 4);
    assert_int_equal(jtext_dump(&buf, o, JSON_INDENT(2), 0), -1);
    assert_int_equal(buf.len, 4);
    assert_string_equal(buf.s, "kept");
    json_object_del(o, "name");
    assert_int_equal(jtext_dump(&buf, o, JSON_INDENT(2) | JSON_SORT_KEYS, 0), -1);
    assert_int_equal(jtext_dump(&buf, o, JSON_COMPACT, 0), -1);
    assert_int_equal(jtext_dump(&buf, o, 0, 0), -1);
    json_t *x = json_integer(5);
    assert_int_equal(jtext_dump(&buf, x, JSON_INDENT(2), 0), -1);
    assert_int_equal(buf.len, 4);
    assert_int_equal(jtext_dump(&buf, o, JSON_INDENT(2), 0), 0);
    assert_string_equal(buf.s, "kept{\n  \"a\": 1\n}");
    json_decref(x);
    json_decref(o);
    jtext_free(&buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_json_dumps),
        cmocka_unit_test(test_summary_like),
        cmocka_unit_test(test_left_to_jansson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

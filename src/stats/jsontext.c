/* jsontext.c: a jansson tree's text without jansson's dumper (jsontext.h). The format is
 * jansson 2.14's: "[]" and "{}" when empty; otherwise the opening bracket, a newline and
 * (depth + 1) * n spaces before each element, "," before the next element's newline, a newline
 * and depth * n spaces before the closing bracket; "key": value; integers in decimal; reals
 * by printf's %.{p}g with ".0" added when neither '.' nor 'e' appears and the exponent's '+'
 * and leading zeros removed; strings with '"', '\\' and control characters escaped (\b \f \n
 * \r \t, others \u00XX). tests/unit/test_jsontext.c compares it with json_dumps. */
#include "stats/jsontext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JT_MAX_DEPTH 1000

/* Room for n more bytes and the terminating zero. */
int jtext_grow_(struct jtext *t, size_t n)
{
    size_t cap = t->cap ? t->cap : 4096;
    while (t->len + n + 1 > cap)
        cap *= 2;
    char *p = realloc(t->s, cap);
    if (!p)
        return -1;
    t->s = p;
    t->cap = cap;
    return 0;
}

void jtext_free(struct jtext *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}

static const char spaces[] = "                                                                ";

static int put_newline(struct jtext *t, int n)
{
    if (jtext_put(t, "\n", 1))
        return -1;
    while (n > 0) {
        int k = n < (int)sizeof spaces - 1 ? n : (int)sizeof spaces - 1;
        if (jtext_put(t, spaces, (size_t)k))
            return -1;
        n -= k;
    }
    return 0;
}

/* A string's text: -1 for a byte >= 0x80 (jansson checks UTF-8 there; left to it). */
static int put_string(struct jtext *t, const char *s, size_t n)
{
    if (jtext_put(t, "\"", 1))
        return -1;
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80)
            return -1;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        if (jtext_put(t, s + from, i - from))
            return -1;
        char esc[8];
        size_t k = 2;
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            k = 6;
        }
        if (jtext_put(t, esc, k))
            return -1;
        from = i + 1;
    }
    if (jtext_put(t, s + from, n - from))
        return -1;
    return jtext_put(t, "\"", 1);
}

static int put_integer(struct jtext *t, json_int_t v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    return jtext_put(t, p, (size_t)(buf + sizeof buf - p));
}

static int put_real(struct jtext *t, double v, int precision)
{
    char buf[100];
    int n = snprintf(buf, sizeof buf, "%.*g", precision ? precision : 17, v);
    if (n < 0 || n >= (int)sizeof buf - 3)
        return -1;
    char *dot = strchr(buf, '.');
    char *e = strchr(buf, 'e');
    if (!dot && !e) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    }
    if (e) { /* "1e+07" -> "1e7", "1e-07" -> "1e-7" */
        char *start = e + 1, *end = e + 2;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, (size_t)(buf + n + 1 - end));
            n -= (int)(end - start);
        }
    }
    return jtext_put(t, buf, (size_t)n);
}

/* Each line's spaces: depth * step of jansson's, plus base. */
static int dump(struct jtext *t, const json_t *j, int step, int precision, int depth, int base)
{
    if (depth > JT_MAX_DEPTH)
        return -1;
    switch (json_typeof(j)) {
    case JSON_NULL: return jtext_put(t, "null", 4);
    case JSON_TRUE: return jtext_put(t, "true", 4);
    case JSON_FALSE: return jtext_put(t, "false", 5);
    case JSON_INTEGER: return put_integer(t, json_integer_value(j));
    case JSON_REAL: return put_real(t, json_real_value(j), precision);
    case JSON_STRING: return put_string(t, json_string_value(j), json_string_length(j));
    case JSON_ARRAY: {
        size_t n = json_array_size(j);
        if (!n)
            return jtext_put(t, "[]", 2);
        if (jtext_put(t, "[", 1))
            return -1;
        for (size_t i = 0; i < n; i++) {
            if ((i && jtext_put(t, ",", 1)) || put_newline(t, base + (depth + 1) * step) ||
                dump(t, json_array_get(j, i), step, precision, depth + 1, base))
                return -1;
        }
        return put_newline(t, base + depth * step) || jtext_put(t, "]", 1) ? -1 : 0;
    }
    case JSON_OBJECT: {
        void *it = json_object_iter((json_t *)j);
        if (!it)
            return jtext_put(t, "{}", 2);
        if (jtext_put(t, "{", 1))
            return -1;
        for (int first = 1; it; it = json_object_iter_next((json_t *)j, it), first = 0) {
            if ((!first && jtext_put(t, ",", 1)) || put_newline(t, base + (depth + 1) * step) ||
                put_string(t, json_object_iter_key(it), json_object_iter_key_len(it)) ||
                jtext_put(t, ": ", 2) ||
                dump(t, json_object_iter_value(it), step, precision, depth + 1, base))
                return -1;
        }
        return put_newline(t, base + depth * step) || jtext_put(t, "}", 1) ? -1 : 0;
    }
    }
    return -1;
}

int jtext_dump(struct jtext *t, const json_t *j, size_t flags, int indent)
{
    size_t known = JSON_MAX_INDENT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(31);
    int step = (int)(flags & JSON_MAX_INDENT), precision = (int)((flags >> 11) & 0x1F);
    size_t len = t->len;
    if ((flags & ~known) || !step || !j || (!json_is_object(j) && !json_is_array(j)))
        return -1;
    if (dump(t, j, step, precision, 0, indent)) {
        t->len = len;
        if (t->s)
            t->s[len] = 0;
        return -1;
    }
    return 0;
}

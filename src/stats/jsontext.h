/* jsontext.h: a jansson tree's text, the same bytes as jansson 2.14's json_dumps with
 * JSON_INDENT(n), JSON_PRESERVE_ORDER and JSON_REAL_PRECISION(p) (the flags summary.json is
 * written with), at a fraction of the cost: json_dumps hands every token to a callback, checks
 * every array and object for reference loops through a hash table keyed by the pointer's
 * printf text and prints every integer with snprintf; for the 64-host fat tree's run that was
 * half of the whole run's instructions (bench/setup.md). */
#ifndef IBN_JSONTEXT_H
#define IBN_JSONTEXT_H

#include <stddef.h>
#include <string.h>

#include <jansson.h>

/* A growing text buffer. */
struct jtext {
    char *s;
    size_t len, cap;
};

/* Appends j's text to t, each line after the first followed by `indent` more spaces than
 * json_dumps would write (the text of an element nested `indent` spaces deep). Returns 0, or
 * -1, with t's length as it was, when the tree holds what this writer leaves to jansson
 * (other flags, a string that is not plain ASCII, a nesting deeper than 1,000, a scalar at
 * the top) or memory ran out: the caller then uses json_dumps. */
int jtext_dump(struct jtext *t, const json_t *j, size_t flags, int indent);

/* Appends n bytes. Returns 0 or -1 (out of memory). */
int jtext_grow_(struct jtext *t, size_t n);
static inline int jtext_put(struct jtext *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap && jtext_grow_(t, n))
        return -1;
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
    return 0;
}

void jtext_free(struct jtext *t);

#endif

/* error.c: error messages, fatal internal failures and checked allocation. */
#include "core/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ibn_err_at(struct ibn_err *e, const char *file, int line, const char *fmt, ...)
{
    if (!e)
        return -1;
    e->output = 0;
    int n = 0;
    if (file && line > 0)
        n = snprintf(e->msg, sizeof e->msg, "%s:%d: ", file, line);
    else if (file)
        n = snprintf(e->msg, sizeof e->msg, "%s: ", file);
    if (n < 0 || (size_t)n >= sizeof e->msg)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int ibn_err_set(struct ibn_err *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    e->output = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int ibn_err_prefix(struct ibn_err *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    char head[256], old[sizeof e->msg - 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    snprintf(old, sizeof old, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s%s", head, old);
    return -1;
}

void ibn_panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ibnetsim: internal error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        ibn_panic("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        ibn_panic("out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *xaligned_calloc(size_t align, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n)
        ibn_panic("out of memory (%zu x %zu bytes)", n, size);
    size_t bytes = n * size;
    if (!bytes)
        bytes = 1;
    bytes = (bytes + align - 1) / align * align; /* aligned_alloc wants a multiple of align */
    void *p = aligned_alloc(align, bytes);
    if (!p)
        ibn_panic("out of memory (%zu x %zu bytes)", n, size);
    memset(p, 0, bytes);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        ibn_panic("out of memory (%zu bytes)", n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

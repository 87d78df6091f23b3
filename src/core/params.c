/* params.c: parsing, printing and defaults of declarative parameter tables. */
#include "core/params.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/simtime.h"
#include "core/units.h"

#define FIELD(obj, p, T) ((T *)((char *)(obj) + (p)->offset))
#define CFIELD(obj, p, T) ((const T *)((const char *)(obj) + (p)->offset))

/* What the storing type holds, whatever the table says (see params.h). */
static int type_bounds(const struct param *p, double v, const char *text, char *why, size_t whylen)
{
    switch (p->type) {
    case P_TIME:
        if (v < 0 || v > (double)SIMTIME_HORIZON) {
            snprintf(why, whylen, "%s must be between 0 and 2^62 ps (about 53 days), got %s", p->key, text);
            return -1;
        }
        return 0;
    case P_SIZE:
        if (v > 4611686018427387904.0) {
            snprintf(why, whylen, "%s must be at most 2^62 bytes, got %s", p->key, text);
            return -1;
        }
        return 0;
    case P_RATE:
        if (v != 0 && (!(v >= BYTERATE_MIN_BPS * (1 + 1e-12)) || v > BYTERATE_MAX_BPS)) {
            snprintf(why, whylen, "%s must be 0 or between 0.434 b/s and 8000 Tb/s (a byte's time in "
                     "attoseconds must fit 64 bits), got %s", p->key, text);
            return -1;
        }
        return 0;
    default:
        return 0;
    }
}

static int bounds(const struct param *p, double v, const char *text, char *why, size_t whylen)
{
    if (type_bounds(p, v, text, why, whylen))
        return -1;
    if (p->min < p->max && (v < p->min || v > p->max)) {
        snprintf(why, whylen, "%s must be between %.15g and %.15g%s, got %s", p->key, p->min, p->max,
                 p->type == P_SIZE ? " bytes" : p->type == P_TIME ? " ps" : p->type == P_RATE ? " b/s" : "", text);
        return -1;
    }
    return 0;
}

static int parse_value(const struct param *p, void *obj, const char *text, char *why, size_t whylen)
{
    char *end;
    switch (p->type) {
    case P_INT: {
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (end == text || *end || errno) {
            snprintf(why, whylen, "%s expects a whole number%s, got \"%s\"", p->key,
                     errno == ERANGE ? " that fits 64 bits" : "", text);
            return -1;
        }
        if (bounds(p, (double)v, text, why, whylen))
            return -1;
        *FIELD(obj, p, long long) = v;
        return 0;
    }
    case P_DOUBLE: {
        double v = strtod(text, &end);
        if (end == text || *end || !isfinite(v)) {
            snprintf(why, whylen, "%s expects a number, got \"%s\"", p->key, text);
            return -1;
        }
        if (bounds(p, v, text, why, whylen))
            return -1;
        *FIELD(obj, p, double) = v;
        return 0;
    }
    case P_BOOL: {
        static const char *yes[] = { "true", "yes", "on", "1" }, *no[] = { "false", "no", "off", "0" };
        for (int i = 0; i < 4; i++) {
            if (!strcasecmp(text, yes[i])) {
                *FIELD(obj, p, int) = 1;
                return 0;
            }
            if (!strcasecmp(text, no[i])) {
                *FIELD(obj, p, int) = 0;
                return 0;
            }
        }
        snprintf(why, whylen, "%s expects true or false, got \"%s\"", p->key, text);
        return -1;
    }
    case P_STRING: {
        char **f = FIELD(obj, p, char *);
        free(*f);
        *f = strdup(text);
        return 0;
    }
    case P_TIME: {
        char w[200];
        simtime_t t;
        if (units_parse_time(text, &t, w, sizeof w)) {
            snprintf(why, whylen, "%s: %s", p->key, w);
            return -1;
        }
        if (bounds(p, (double)t, text, why, whylen))
            return -1;
        *FIELD(obj, p, simtime_t) = t;
        return 0;
    }
    case P_SIZE: {
        char w[200];
        uint64_t v;
        /* A bare whole number is accepted as bytes for sizes. */
        errno = 0;
        unsigned long long n = strtoull(text, &end, 10);
        if (end != text && !*end && text[0] != '-') {
            if (errno || bounds(p, (double)n, text, why, whylen)) {
                if (errno)
                    snprintf(why, whylen, "%s must be at most 2^62 bytes, got %s", p->key, text);
                return -1;
            }
            *FIELD(obj, p, uint64_t) = n;
            return 0;
        }
        if (units_parse_size(text, &v, w, sizeof w)) {
            snprintf(why, whylen, "%s: %s", p->key, w);
            return -1;
        }
        if (bounds(p, (double)v, text, why, whylen))
            return -1;
        *FIELD(obj, p, uint64_t) = v;
        return 0;
    }
    case P_RATE: {
        char w[200];
        double r;
        if (units_parse_rate(text, &r, w, sizeof w)) {
            snprintf(why, whylen, "%s: %s", p->key, w);
            return -1;
        }
        if (bounds(p, r, text, why, whylen))
            return -1;
        *FIELD(obj, p, double) = r;
        return 0;
    }
    case P_ENUM: {
        for (int i = 0; p->choices[i]; i++) {
            if (!strcasecmp(text, p->choices[i])) {
                *FIELD(obj, p, int) = i;
                return 0;
            }
        }
        size_t n = 0; /* the choices, for the message */
        char list[256] = "";
        for (int i = 0; p->choices[i]; i++)
            n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
                                  i ? ", " : "", p->choices[i]);
        snprintf(why, whylen, "%s expects one of: %s; got \"%s\"", p->key, list, text);
        return -1;
    }
    }
    snprintf(why, whylen, "%s: unknown parameter type", p->key);
    return -1;
}

int param_set(const struct param *p, void *obj, const char *text, char *why, size_t whylen)
{
    if (parse_value(p, obj, text, why, whylen))
        return -1;
    return p->check ? p->check((const char *)obj + p->offset, why, whylen) : 0;
}

void param_format(const struct param *p, const void *obj, char *buf, size_t len)
{
    switch (p->type) {
    case P_INT:
        snprintf(buf, len, "%lld", *CFIELD(obj, p, long long));
        return;
    case P_DOUBLE:
        snprintf(buf, len, "%.17g", *CFIELD(obj, p, double));
        if (!strpbrk(buf, ".eEn"))
            strncat(buf, ".0", len - strlen(buf) - 1);
        return;
    case P_BOOL:
        snprintf(buf, len, "%s", *CFIELD(obj, p, int) ? "true" : "false");
        return;
    case P_STRING: {
        const char *s = *CFIELD(obj, p, char *);
        snprintf(buf, len, "\"%s\"", s ? s : "");
        return;
    }
    case P_TIME: {
        char t[64];
        simtime_t v = *CFIELD(obj, p, simtime_t);
        if (v % PS_PER_NS == 0 || v >= PS_PER_US)
            units_format_time(v, t, sizeof t);
        else
            snprintf(t, sizeof t, "%lld ps", (long long)v);
        /* Keep it exact: fall back to picoseconds if the short form lost digits. */
        simtime_t back;
        char why[64];
        if (units_parse_time(t, &back, why, sizeof why) || back != v)
            snprintf(t, sizeof t, "%lld ps", (long long)v);
        snprintf(buf, len, "\"%s\"", t);
        return;
    }
    case P_SIZE: {
        char t[64];
        units_format_size(*CFIELD(obj, p, uint64_t), t, sizeof t);
        snprintf(buf, len, "\"%s\"", t);
        return;
    }
    case P_RATE: {
        char t[64];
        units_format_rate(*CFIELD(obj, p, double), t, sizeof t);
        snprintf(buf, len, "\"%s\"", t);
        return;
    }
    case P_ENUM:
        snprintf(buf, len, "\"%s\"", p->choices[*CFIELD(obj, p, int)]);
        return;
    }
}

void param_format_value(const struct param *p, const void *obj, char *buf, size_t len)
{
    param_format(p, obj, buf, len);
    size_t n = strlen(buf);
    if (n >= 2 && buf[0] == '"' && buf[n - 1] == '"') {
        memmove(buf, buf + 1, n - 2);
        buf[n - 2] = 0;
    }
}

int params_set_defaults(const struct param *tab, void *obj, char *why, size_t whylen)
{
    for (const struct param *p = tab; p->key; p++)
        if (p->def && param_set(p, obj, p->def, why, whylen))
            return -1;
    return 0;
}

const struct param *params_find(const struct param *tab, const char *key)
{
    for (const struct param *p = tab; p->key; p++)
        if (!strcmp(p->key, key))
            return p;
    return NULL;
}

void params_list_keys(const struct param *tab, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (const struct param *p = tab; p->key && n < len; p++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", p == tab ? "" : ", ", p->key);
}

void params_free(const struct param *tab, void *obj)
{
    for (const struct param *p = tab; p->key; p++)
        if (p->type == P_STRING) {
            free(*FIELD(obj, p, char *));
            *FIELD(obj, p, char *) = NULL;
        }
}

/* units.c: quantities with units (time, size, rate) in the forms users write them. */
#include "core/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct unit {
    const char *name;
    double factor;
};

static const struct unit time_units[] = {
    { "ps", 1.0 }, { "ns", 1e3 }, { "us", 1e6 }, { "µs", 1e6 }, { "ms", 1e9 }, { "s", 1e12 },
    { NULL, 0 } };
static const struct unit size_units[] = {
    { "B", 1.0 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
    { "KB", 1e3 }, { "kB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { NULL, 0 } };
static const struct unit rate_units[] = {
    { "b/s", 1.0 }, { "bps", 1.0 }, { "Kb/s", 1e3 }, { "kb/s", 1e3 }, { "Mb/s", 1e6 },
    { "Mbps", 1e6 }, { "Gb/s", 1e9 }, { "Gbps", 1e9 }, { "Gbit/s", 1e9 }, { "Tb/s", 1e12 },
    { "B/s", 8.0 }, { "KB/s", 8e3 }, { "MB/s", 8e6 }, { "GB/s", 8e9 }, { NULL, 0 } };

static void list_units(const struct unit *u, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (; u->name && n + 8 < len; u++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", u->name);
}

/* Number followed by optional spaces and a unit from the table (case-sensitive, exact). */
static int parse_quantity(const char *s, const struct unit *units, const char *what,
                          double *out, char *why, size_t whylen)
{
    char list[256]; /* the units, written out only for an error message */
    if (!s || !*s) {
        snprintf(why, whylen, "expected a %s such as \"10 %s\", got an empty value", what,
                 units[1].name ? units[1].name : units[0].name);
        return -1;
    }
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v)) {
        list_units(units, list, sizeof list);
        snprintf(why, whylen, "expected a %s (a number and one of: %s), got \"%s\"", what, list, s);
        return -1;
    }
    while (*end == ' ' || *end == '\t')
        end++;
    if (!*end) {
        list_units(units, list, sizeof list);
        snprintf(why, whylen, "\"%s\" has no unit: write the %s with one of: %s", s, what, list);
        return -1;
    }
    for (const struct unit *u = units; u->name; u++)
        if (strcmp(end, u->name) == 0) {
            if (v < 0) {
                snprintf(why, whylen, "expected a non-negative %s, got \"%s\"", what, s);
                return -1;
            }
            *out = v * u->factor;
            return 0;
        }
    list_units(units, list, sizeof list);
    snprintf(why, whylen, "unknown unit \"%s\" in \"%s\": a %s takes one of: %s", end, s, what, list);
    return -1;
}

int units_parse_time(const char *s, simtime_t *out, char *why, size_t whylen)
{
    double ps;
    if (parse_quantity(s, time_units, "time", &ps, why, whylen))
        return -1;
    if (ps > 9.2e18) {
        snprintf(why, whylen, "time \"%s\" is too large (at most about 106 days)", s);
        return -1;
    }
    *out = (simtime_t)llround(ps);
    return 0;
}

int units_parse_size(const char *s, uint64_t *out, char *why, size_t whylen)
{
    double b;
    if (parse_quantity(s, size_units, "size", &b, why, whylen))
        return -1;
    if (b != floor(b) || b > 1.8e19) {
        snprintf(why, whylen, "size \"%s\" is not a whole number of bytes", s);
        return -1;
    }
    *out = (uint64_t)b;
    return 0;
}

int units_parse_rate(const char *s, double *out_bps, char *why, size_t whylen)
{
    double r;
    if (parse_quantity(s, rate_units, "rate", &r, why, whylen))
        return -1;
    *out_bps = r;
    return 0;
}

void units_format_time(simtime_t t, char *buf, size_t len)
{
    static const struct { simtime_t f; const char *n; } u[] = {
        { PS_PER_S, "s" }, { PS_PER_MS, "ms" }, { PS_PER_US, "us" }, { PS_PER_NS, "ns" }, { 1, "ps" } };
    if (t == 0) {
        snprintf(buf, len, "0 s");
        return;
    }
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        /* t * 1000 divisible by f, written t % (f / 1000): every unit but ps is a multiple of
         * 1000 ps, and t * 1000 overflows beyond 9,223 s (fuzz_override found it) */
        if (t % u[i].f == 0 || (t >= u[i].f && i < 4 && t % (u[i].f / 1000) == 0)) {
            if (t % u[i].f == 0)
                snprintf(buf, len, "%lld %s", (long long)(t / u[i].f), u[i].n);
            else
                snprintf(buf, len, "%.3f %s", (double)t / (double)u[i].f, u[i].n);
            return;
        }
    snprintf(buf, len, "%lld ps", (long long)t);
}

void units_format_size(uint64_t b, char *buf, size_t len)
{
    if (b && b % 1073741824u == 0)
        snprintf(buf, len, "%llu GiB", (unsigned long long)(b / 1073741824u));
    else if (b && b % 1048576u == 0)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(b / 1048576u));
    else if (b && b % 1024u == 0)
        snprintf(buf, len, "%llu KiB", (unsigned long long)(b / 1024u));
    else
        snprintf(buf, len, "%llu B", (unsigned long long)b);
}

void units_format_rate(double bps, char *buf, size_t len)
{
    snprintf(buf, len, "%.10g Gb/s", bps / 1e9);
}

/* sweep_measure.c: the `-m PATH` measures of `ibnetsim sweep`: parsing a path into segments,
 * checking its flow names before the runs, and evaluating it in a point's summary.json. */
#include "cli/sweep_measure.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const agg_names[] = { "", "sum", "mean", "min", "max" };

static void push(struct measure *m, const char *s, size_t n)
{
    m->seg = xrealloc(m->seg, (size_t)(m->nseg + 1) * sizeof *m->seg);
    char *v = xmalloc(n + 1);
    memcpy(v, s, n);
    v[n] = 0;
    m->seg[m->nseg++] = v;
}

int measure_parse(const char *arg, struct measure *m, struct ibn_err *e)
{
    memset(m, 0, sizeof *m);
    m->path = xstrdup(arg);
    size_t len = strlen(arg);
    const char *colon = strrchr(arg, ':');
    for (int a = AGG_SUM; colon && a <= AGG_MAX; a++)
        if (!strcmp(colon + 1, agg_names[a])) {
            m->agg = (enum measure_agg)a;
            len = (size_t)(colon - arg);
        }
    /* Segments split at '.'; one in brackets ("flows.[a.b].x") may hold dots. */
    for (size_t i = 0; i < len;) {
        size_t j;
        if (arg[i] == '[') {
            const char *close = memchr(arg + i, ']', len - i);
            if (!close)
                return ibn_err_set(e, "-m %s: a '[' without its ']'", arg);
            j = (size_t)(close - arg);
            push(m, arg + i + 1, j - i - 1);
            j++;
            if (j < len && arg[j] != '.')
                return ibn_err_set(e, "-m %s: expected '.' after ']'", arg);
        } else {
            const char *dot = memchr(arg + i, '.', len - i);
            j = dot ? (size_t)(dot - arg) : len;
            push(m, arg + i, j - i);
        }
        if (!*m->seg[m->nseg - 1])
            return ibn_err_set(e, "-m %s: an empty segment (expected a dotted path into summary.json, "
                                  "such as flows.NAME.throughput_gbps)", arg);
        i = j + 1;
        if (j + 1 == len)
            return ibn_err_set(e, "-m %s: the path ends with '.'", arg);
    }
    if (m->nseg < 1)
        return ibn_err_set(e, "-m %s: expected a dotted path into summary.json, such as "
                              "flows.NAME.throughput_gbps", arg);
    return 0;
}

void measure_free(struct measure *m)
{
    for (int i = 0; i < m->nseg; i++)
        free(m->seg[i]);
    free(m->seg);
    free(m->path);
    memset(m, 0, sizeof *m);
}

static void list_names(char *buf, size_t size, const char *const *names, int n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used + 8 < size; i++) {
        if (i == 12) {
            snprintf(buf + used, size - used, ", ... (%d in all)", n);
            return;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
    }
}

int measure_check_flows(const struct measure *m, const char *const *names, int n, struct ibn_err *e)
{
    if (m->nseg < 2 || strcmp(m->seg[0], "flows"))
        return 0;
    int hits = 0;
    for (int i = 0; i < n; i++)
        hits += !fnmatch(m->seg[1], names[i], 0);
    char list[1024];
    list_names(list, sizeof list, names, n);
    if (!hits)
        return ibn_err_set(e, "-m %s: no flow is named \"%s\" (the flows: %s)", m->path, m->seg[1], list);
    if (hits > 1 && m->agg == AGG_NONE)
        return ibn_err_set(e, "-m %s: \"%s\" names %d flows: add :sum, :mean, :min or :max to the path",
                           m->path, m->seg[1], hits);
    return 0;
}

/* Whether an element of a list answers to `sel`: its name, host, NODE:PORT, slN, or index. */
static int element_matches(json_t *el, size_t index, const char *sel)
{
    char buf[256];
    const char *id[4] = { NULL, NULL, NULL, NULL };
    id[0] = json_string_value(json_object_get(el, "name"));
    id[1] = json_string_value(json_object_get(el, "host"));
    json_t *node = json_object_get(el, "node"), *port = json_object_get(el, "port");
    json_t *sl = json_object_get(el, "sl");
    char portid[160] = "", slid[32] = "";
    if (json_is_string(node) && json_is_integer(port))
        snprintf(portid, sizeof portid, "%s:%lld", json_string_value(node), (long long)json_integer_value(port));
    if (!id[0] && !id[1] && json_is_integer(sl))
        snprintf(slid, sizeof slid, "sl%lld", (long long)json_integer_value(sl));
    id[2] = *portid ? portid : NULL;
    id[3] = *slid ? slid : NULL;
    for (int i = 0; i < 4; i++)
        if (id[i] && !fnmatch(sel, id[i], 0))
            return 1;
    snprintf(buf, sizeof buf, "%zu", index);
    return !strcmp(sel, buf);
}

struct found {
    double *v;
    int n, cap;
};

static void keep(struct found *f, double v)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 8;
        f->v = xrealloc(f->v, (size_t)f->cap * sizeof *f->v);
    }
    f->v[f->n++] = v;
}

/* Walk segment k on; -1 and why at the first segment nothing answers to. */
static int walk(const struct measure *m, int k, json_t *cur, struct found *out, char *why, size_t size)
{
    if (k == m->nseg) {
        if (json_is_number(cur))
            keep(out, json_number_value(cur));
        else if (json_is_boolean(cur))
            keep(out, json_is_true(cur) ? 1.0 : 0.0);
        else if (json_is_null(cur))
            keep(out, NAN);
        else
            return snprintf(why, size, "%s is not a number (it is a %s)", m->seg[k - 1],
                            json_is_object(cur) ? "group of values" : json_is_array(cur) ? "list" : "text"), -1;
        return 0;
    }
    const char *sel = m->seg[k];
    if (json_is_object(cur)) {
        json_t *next = json_object_get(cur, sel);
        if (next)
            return walk(m, k + 1, next, out, why, size);
        char keys[600] = "";
        size_t used = 0;
        const char *key;
        json_t *val;
        json_object_foreach(cur, key, val) {
            if (used + 8 >= sizeof keys)
                break;
            used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", used ? ", " : "", key);
        }
        return snprintf(why, size, "no \"%s\" %s%s (there: %s)", sel, k ? "under " : "in summary.json",
                        k ? m->seg[k - 1] : "", keys), -1;
    }
    if (json_is_array(cur)) {
        int hits = 0;
        for (size_t i = 0; i < json_array_size(cur); i++) {
            json_t *el = json_array_get(cur, i);
            if (!element_matches(el, i, sel))
                continue;
            hits++;
            if (walk(m, k + 1, el, out, why, size))
                return -1;
        }
        if (!hits)
            return snprintf(why, size, "no element of %s answers to \"%s\" (by name, host, NODE:PORT, "
                            "slN or index)", k ? m->seg[k - 1] : "summary.json", sel), -1;
        return 0;
    }
    return snprintf(why, size, "%s is a single value: \"%s\" cannot follow it", m->seg[k - 1], sel), -1;
}

int measure_eval(const struct measure *m, json_t *summary, double *v, char *why, size_t size)
{
    struct found f = { NULL, 0, 0 };
    int rc = walk(m, 0, summary, &f, why, size);
    if (!rc && f.n > 1 && m->agg == AGG_NONE) {
        snprintf(why, size, "the path matches %d values: add :sum, :mean, :min or :max", f.n);
        rc = -1;
    }
    if (!rc) {
        double acc = m->agg == AGG_MIN ? INFINITY : m->agg == AGG_MAX ? -INFINITY : 0;
        int counted = 0;
        for (int i = 0; i < f.n; i++) {
            if (isnan(f.v[i]))
                continue; /* no samples: not part of a mean, a sum or an extreme */
            counted++;
            switch (m->agg) {
            case AGG_MIN: acc = f.v[i] < acc ? f.v[i] : acc; break;
            case AGG_MAX: acc = f.v[i] > acc ? f.v[i] : acc; break;
            default: acc += f.v[i]; break;
            }
        }
        *v = !counted ? NAN : m->agg == AGG_MEAN ? acc / counted : acc;
    }
    free(f.v);
    return rc;
}

/* plot_common.c: reading a results folder's wide time-series CSVs (flows.csv, cc.csv) with
 * their column names, the run's name and the time unit for the figures of `ibnetsim plot`. */
#include "cli/plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split a CSV header line into names (RFC 4180: quoted fields, "" inside quotes). */
static void header_names(const char *line, struct wide_csv *w)
{
    const char *c = line;
    int field = 0;
    while (*c && *c != '\n' && *c != '\r') {
        char buf[1024];
        size_t n = 0;
        if (*c == '"') {
            for (c++; *c && !(*c == '"' && c[1] != '"'); c++) {
                if (*c == '"')
                    c++;
                if (n + 1 < sizeof buf)
                    buf[n++] = *c;
            }
            if (*c == '"')
                c++;
        } else {
            for (; *c && *c != ',' && *c != '\n' && *c != '\r'; c++)
                if (n + 1 < sizeof buf)
                    buf[n++] = *c;
        }
        buf[n] = 0;
        if (field++ > 0) {
            w->names = xrealloc(w->names, (size_t)(w->ncols + 1) * sizeof *w->names);
            w->names[w->ncols++] = xstrdup(buf);
        }
        if (*c == ',')
            c++;
    }
}

int csv_fields(char *line, char **f, int max)
{
    int n = 0;
    char *c = line;
    while (n < max) {
        char *out = c;
        f[n++] = out;
        if (*c == '"') {
            for (c++; *c && !(*c == '"' && c[1] != '"'); c++) {
                if (*c == '"')
                    c++;
                *out++ = *c;
            }
            if (*c == '"')
                c++;
        } else {
            while (*c && *c != ',' && *c != '\n' && *c != '\r')
                *out++ = *c++;
        }
        int more = *c == ',';
        *out = 0;
        if (!more)
            break;
        c++;
    }
    return n;
}

int read_wide(const char *dir, const char *file, struct wide_csv *w, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    memset(w, 0, sizeof *w);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return ibn_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int first = 1, rc = 0;
    while (getline(&line, &cap, fp) > 0) {
        if (first) {
            if (strncmp(line, "time_s", 6)) {
                rc = ibn_err_set(e, "%s: expected a header starting with time_s", path);
                break;
            }
            header_names(line, w);
            first = 0;
            continue;
        }
        w->last_time = strtod(line, NULL);
        w->rows++;
    }
    free(line);
    fclose(fp);
    if (!rc && first)
        rc = ibn_err_set(e, "%s: empty", path);
    if (rc)
        wide_free(w);
    return rc;
}

void wide_free(struct wide_csv *w)
{
    for (int i = 0; i < w->ncols; i++)
        free(w->names[i]);
    free(w->names);
    memset(w, 0, sizeof *w);
}

int wide_column(const struct wide_csv *w, const char *name)
{
    for (int i = 0; i < w->ncols; i++)
        if (!strcmp(w->names[i], name))
            return i + 2;
    return 0;
}

void time_unit(double last, const char **name, double *scale)
{
    if (last >= 1.0) {
        *name = "s";
        *scale = 1.0;
    } else if (last >= 1e-3) {
        *name = "ms";
        *scale = 1e3;
    } else {
        *name = "µs";
        *scale = 1e6;
    }
}

const char *run_name(json_t *summary, const char *dir)
{
    json_t *sim = json_object_get(json_object_get(summary, "settings"), "simulation");
    const char *n = json_string_value(json_object_get(sim, "name"));
    if (n && *n)
        return n;
    const char *slash = strrchr(dir, '/');
    return slash && slash[1] ? slash + 1 : dir;
}

/* plot_compare.c: `ibnetsim plot A B ... -o DIR`: several runs overlaid in DIR/compare.png/.svg
 * (from DIR/plot-compare.gp, which reads the runs' own CSVs by absolute path): the total
 * payload throughput over time of each run with its highlighted flows, and the network and
 * end-to-end latency CDFs of all flows, one colour per run (CC off vs on, VOQ vs 1Q, ...). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/plot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/gnuplot.h"

struct run {
    char path[PATH_MAX];
    json_t *summary;
    struct wide_csv w;   /* flows.csv, ncols 0 when absent */
    int has_latency;
};

static int file_exists(const char *dir, const char *file)
{
    char p[PATH_MAX + 64];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return !stat(p, &st) && S_ISREG(st.st_mode);
}

static void free_runs(struct run *r, int n)
{
    for (int i = 0; i < n; i++) {
        json_decref(r[i].summary);
        wide_free(&r[i].w);
    }
    free(r);
}

/* A run's label: its name, or its folder as given when another run has the same name. */
static const char *label_of(const struct run *r, char *const *dirs, int n, int i)
{
    const char *mine = run_name(r[i].summary, dirs[i]);
    for (int j = 0; j < n; j++)
        if (j != i && !strcmp(run_name(r[j].summary, dirs[j]), mine))
            return dirs[i];
    return mine;
}

int plot_compare(const char *out, char *const *dirs, int ndirs, const char *highlight, struct ibn_err *e)
{
    struct run *r = xcalloc((size_t)ndirs, sizeof *r);
    double last = 0;
    for (int i = 0; i < ndirs; i++) {
        json_error_t je;
        char sp[PATH_MAX + 64];
        if (!realpath(dirs[i], r[i].path)) {
            ibn_err_set(e, "%s: %s", dirs[i], strerror(errno));
            free_runs(r, i);
            return -2;
        }
        snprintf(sp, sizeof sp, "%s/summary.json", r[i].path);
        if (!(r[i].summary = json_load_file(sp, 0, &je))) {
            ibn_err_set(e, "%s is not a results folder of `ibnetsim run`: %s: %s", dirs[i], sp, je.text);
            free_runs(r, i);
            return -2;
        }
        if (file_exists(r[i].path, "flows.csv") && read_wide(r[i].path, "flows.csv", &r[i].w, e)) {
            free_runs(r, i + 1);
            return -1;
        }
        if (r[i].w.last_time > last)
            last = r[i].w.last_time;
        r[i].has_latency = file_exists(r[i].path, "latency.csv");
    }
    /* Highlighted flows: each must be in at least one run. */
    char *hl = highlight ? xstrdup(highlight) : NULL, *save = NULL;
    char **names = NULL;
    int nnames = 0;
    for (char *t = hl ? strtok_r(hl, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
        int seen = 0;
        for (int i = 0; i < ndirs; i++)
            seen |= wide_column(&r[i].w, t) > 0;
        if (!seen) {
            ibn_err_set(e, "--highlight: no run has a flow \"%s\" in its flows.csv", t);
            free(names);
            free(hl);
            free_runs(r, ndirs);
            return -2;
        }
        names = xrealloc(names, (size_t)(nnames + 1) * sizeof *names);
        names[nnames++] = t;
    }
    if (mkdir(out, 0777) && errno != EEXIST) {
        ibn_err_set(e, "cannot create %s: %s", out, strerror(errno));
        free(names);
        free(hl);
        free_runs(r, ndirs);
        return -1;
    }
    struct outfile *go = gp_open(out, "compare", "several runs overlaid: throughput over time and latency CDFs", e);
    if (!go) {
        free(names);
        free(hl);
        free_runs(r, ndirs);
        return -1;
    }
    FILE *fp = go->fp;
    const char *unit;
    double scale;
    time_unit(last, &unit, &scale);
    gp_palette(fp);
    fprintf(fp, "tscale = %g  # seconds to %s\n"
                "sel(kind) = (strcol(1) eq kind && strcol(2) eq \"all\") ? $5 : NaN\n", scale, unit);
    char *block = NULL;
    size_t blen = 0;
    FILE *b = open_memstream(&block, &blen);
    fprintf(b, "set multiplot layout 2,1 title \"Overlay of %d runs: ", ndirs);
    for (int i = 0; i < ndirs; i++) {
        fputs(i ? " vs " : "", b);
        gp_quote(b, label_of(r, dirs, ndirs, i));
    }
    fprintf(b, "\"\nset key outside right top\nset lmargin 12\n"
               "set title \"Total payload throughput (solid)%s\"\n"
               "set xlabel \"time (%s)\"\nset ylabel \"throughput (Gb/s)\"\nset yrange [0:*]\nplot \\\n",
            nnames ? " and the highlighted flows (dashed)" : "", unit);
    int np = 0;
    for (int i = 0; i < ndirs; i++) {
        if (!r[i].w.ncols)
            continue;
        const char *rn = label_of(r, dirs, ndirs, i);
        fprintf(b, "%s  \"", np++ ? ", \\\n" : "");
        gp_quote(b, r[i].path);
        fprintf(b, "/flows.csv\" using ($1*tscale):(sum [c=2:%d] column(c)) with lines lw 2 lc rgb col(%d) title \"",
                r[i].w.ncols + 1, i);
        gp_quote(b, rn);
        fputs(": all flows\"", b);
        for (int k = 0; k < nnames; k++) {
            int c = wide_column(&r[i].w, names[k]);
            if (!c)
                continue;
            fprintf(b, ", \\\n  \"");
            gp_quote(b, r[i].path);
            fprintf(b, "/flows.csv\" using ($1*tscale):%d with lines lw 1.5 dt %d lc rgb col(%d) title \"", c, 2 + k % 4, i);
            gp_quote(b, rn);
            fputs(": ", b);
            gp_quote(b, names[k]);
            fputc('"', b);
        }
    }
    if (!np)
        fputs("  NaN title \"no run wrote flows.csv\"", b);
    fprintf(b, "\nset title \"Packet latency CDF of all flows: network (solid), end-to-end (dashed)\"\n"
               "set xlabel \"latency (ns)\"\nset ylabel \"fraction of packets with latency <= x\"\n"
               "set yrange [0:1.02]\nset logscale x\nplot \\\n");
    np = 0;
    for (int i = 0; i < ndirs; i++) {
        if (!r[i].has_latency)
            continue;
        for (int kind = 0; kind < 2; kind++) {
            fprintf(b, "%s  \"", np++ ? ", \\\n" : "");
            gp_quote(b, r[i].path);
            fprintf(b, "/latency.csv\" using 3:(sel(\"%s\")) with lines lw 2 dt %d lc rgb col(%d) title \"",
                    kind ? "end_to_end" : "network", kind ? 2 : 1, i);
            gp_quote(b, label_of(r, dirs, ndirs, i));
            fprintf(b, " %s\"", kind ? "end-to-end" : "network");
        }
    }
    if (!np)
        fputs("  NaN title \"no run wrote latency.csv\"", b);
    fprintf(b, "\nunset multiplot");
    fclose(b);
    gp_png(fp, "compare", 1100, 900);
    fprintf(fp, "%s\n", block);
    gp_svg(fp, "compare", 1100, 900, block);
    free(block);
    free(names);
    free(hl);
    free_runs(r, ndirs);
    return gp_close(go, e);
}

/* plot_heat.c: heat maps of a run's ports over time for `ibnetsim plot` (plot.h): the
 * receive-buffer occupancy of every switch port at each sample (ports.csv) and PortXmitWait per
 * interval as a fraction of the interval (counters.csv, output.counter_series). Each cell is a
 * rectangle from the start to the end of its interval (so the uneven intervals of counters.csv,
 * cut at the measured period's edges, are drawn as they are), its colour the value; the rows are
 * the ports with the largest peak, in the file's order. The cells go to plot-NAME.csv
 * (t0_s,t1_s,row,value), the port names to the y tics. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/gnuplot.h"
#include "cli/plot.h"
#include "core/error.h"
#include "core/output.h"

/* The cells of every port, then the choice of rows. */
struct heat {
    int nports;
    char **name;
    double *peak;
    int *row;                  /* [port] row in the map, or -1 */
    struct cell { double t0, t1, v; int port; } *cells;
    size_t ncells, cap;
    double tmax;
    double measured_from, measured_to; /* counters.csv: the measured period's edges, or NAN */
};

static int port_of(struct heat *h, const char *name)
{
    for (int i = 0; i < h->nports; i++)
        if (!strcmp(h->name[i], name))
            return i;
    h->name = xrealloc(h->name, (size_t)(h->nports + 1) * sizeof *h->name);
    h->peak = xrealloc(h->peak, (size_t)(h->nports + 1) * sizeof *h->peak);
    h->name[h->nports] = xstrdup(name);
    h->peak[h->nports] = 0;
    return h->nports++;
}

static void add(struct heat *h, int port, double t0, double t1, double v)
{
    if (h->ncells == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->cells = xrealloc(h->cells, h->cap * sizeof *h->cells);
    }
    h->cells[h->ncells++] = (struct cell){ t0, t1, v, port };
    if (v > h->peak[port])
        h->peak[port] = v;
    if (t1 > h->tmax)
        h->tmax = t1;
}

static void heat_free(struct heat *h)
{
    for (int i = 0; i < h->nports; i++)
        free(h->name[i]);
    free(h->name);
    free(h->peak);
    free(h->row);
    free(h->cells);
}

/* Rows: the ports with a non-zero peak, at most HEAT_MAX_ROWS of the largest (ties: the first),
 * kept in their order, the first at the top. Returns the number of rows. */
static int choose_rows(struct heat *h, int *nonzero)
{
    h->row = xmalloc(((size_t)h->nports + 1) * sizeof *h->row);
    *nonzero = 0;
    for (int i = 0; i < h->nports; i++)
        *nonzero += h->peak[i] > 0;
    int n = 0;
    for (int i = 0; i < h->nports; i++) {
        int above = 0; /* ports that rank before i */
        for (int j = 0; j < h->nports; j++)
            above += h->peak[j] > h->peak[i] || (h->peak[j] == h->peak[i] && j < i);
        h->row[i] = h->peak[i] > 0 && above < HEAT_MAX_ROWS ? n++ : -1;
    }
    for (int i = 0; i < h->nports; i++)
        if (h->row[i] >= 0)
            h->row[i] = n - 1 - h->row[i];
    return n;
}

/* Write plot-NAME.csv and plot-NAME.gp. */
static int write_heat(const char *dir, const char *name, const char *what, struct heat *h,
                      const char *rname, const char *title, const char *cblabel, struct ibn_err *e)
{
    int nonzero;
    int rows = choose_rows(h, &nonzero);
    char path[4200];
    snprintf(path, sizeof path, "%s/plot-%s.csv", dir, name);
    struct outfile *od = out_open(path, e);
    if (!od)
        return -1;
    fprintf(od->fp, "t0_s,t1_s,row,value\n");
    for (size_t i = 0; i < h->ncells; i++) {
        const struct cell *c = &h->cells[i];
        if (h->row[c->port] >= 0 && c->v > 0)
            fprintf(od->fp, "%.9g,%.9g,%d,%.9g\n", c->t0, c->t1, h->row[c->port], c->v);
    }
    if (out_close(od, e))
        return -1;
    struct outfile *go = gp_open(dir, name, what, e);
    if (!go)
        return -1;
    FILE *fp = go->fp;
    const char *unit;
    double scale;
    time_unit(h->tmax, &unit, &scale);
    int height = 160 + (rows > 0 ? rows : 1) * 18;
    if (height < 450)
        height = 450;
    fputs("set title \"", fp);
    gp_quote(fp, rname);
    fprintf(fp, ": %s", title);
    if (nonzero > rows)
        fprintf(fp, "; the %d ports of highest peak of %d", rows, nonzero);
    if (h->nports > nonzero)
        fprintf(fp, "; %d ports always 0 left out", h->nports - nonzero);
    fprintf(fp, "\"\n");
    fprintf(fp, "set xlabel \"time (%s)\"\n"
                "set ylabel \"port\"\n"
                "set cblabel \"%s\"\n"
                "set cbrange [0:*]\n"
                "set palette defined (0 \"#f7fbff\", 0.3 \"#9ecae1\", 0.6 \"#fd8d3c\", 0.85 \"#e31a1c\", 1 \"#67000d\")\n"
                "set style fill solid 1.0 noborder\n"
                "set grid noxtics noytics\n"
                "set ytics noenhanced font \",8\"\n"
                "set xrange [0:%.9g]\n"
                "set yrange [-0.5:%d.5]\n"
                "tscale = %g  # seconds to %s\n",
            unit, cblabel, h->tmax * scale, rows > 0 ? rows - 1 : 0, scale, unit);
    if (rows) {
        fprintf(fp, "set ytics (");
        int k = 0;
        for (int i = 0; i < h->nports; i++)
            if (h->row[i] >= 0) {
                fprintf(fp, "%s\"", k++ ? ", " : "");
                gp_quote(fp, h->name[i]);
                fprintf(fp, "\" %d", h->row[i]);
            }
        fprintf(fp, ")\n");
    }
    if (!isnan(h->measured_from) && h->measured_from > 0)
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lc rgb \"black\"  # warm-up ends\n",
                h->measured_from * scale, h->measured_from * scale);
    if (!isnan(h->measured_to) && h->measured_to < h->tmax)
        fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lc rgb \"black\"  # drain begins\n",
                h->measured_to * scale, h->measured_to * scale);
    gp_png(fp, name, 1100, height);
    if (rows)
        fprintf(fp, "plot \"plot-%s.csv\" using (($1+$2)/2*tscale):3:(($2-$1)/2*tscale):(0.5):4 "
                    "with boxxyerror fc palette notitle\n", name);
    else
        fprintf(fp, "set label 1 \"every value is 0\" at graph 0.5, 0.5 center\n"
                    "set yrange [-1:1]\n"
                    "plot NaN notitle\n");
    gp_svg(fp, name, 1100, height, "replot");
    return gp_close(go, e);
}

int plot_heat_buffers(const char *dir, const char *rname, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/ports.csv", dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return errno == ENOENT ? 1 : ibn_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    struct heat h;
    memset(&h, 0, sizeof h);
    h.measured_from = h.measured_to = NAN;
    char *line = NULL;
    size_t cap = 0;
    int first = 1, ncol = 0, *col = NULL, rc = 0;
    char **f = NULL;
    double prev = 0;
    while (getline(&line, &cap, in) > 0) {
        if (first) {
            first = 0;
            f = xmalloc((strlen(line) + 2) * sizeof *f);
            ncol = csv_fields(line, f, (int)strlen(line) + 1);
            if (ncol < 1 || strcmp(f[0], "time_s")) {
                rc = ibn_err_set(e, "%s: expected a header starting with time_s", path);
                break;
            }
            col = xmalloc((size_t)ncol * sizeof *col);
            for (int i = 1; i < ncol; i++)
                col[i] = port_of(&h, f[i]);
            continue;
        }
        int n = csv_fields(line, f, ncol);
        double t = strtod(f[0], NULL);
        for (int i = 1; i < n && i < ncol; i++)
            add(&h, col[i], prev, t, strtod(f[i], NULL) / 1024.0);
        prev = t;
    }
    free(line);
    free(f);
    free(col);
    fclose(in);
    if (!rc)
        rc = write_heat(dir, "buffers", "receive-buffer occupancy of switch ports over time, from ports.csv", &h,
                        rname, "receive-buffer occupancy of switch ports at each sample (KiB)",
                        "occupancy at the sample (KiB, all VLs)", e);
    heat_free(&h);
    return rc;
}

int plot_heat_xmitwait(const char *dir, const char *rname, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/counters.csv", dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return errno == ENOENT ? 1 : ibn_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    struct heat h;
    memset(&h, 0, sizeof h);
    h.measured_from = h.measured_to = NAN;
    char *line = NULL;
    size_t cap = 0;
    int first = 1, rc = 0;
    int c_time = -1, c_int = -1, c_period = -1, c_node = -1, c_port = -1, c_vl = -1, c_wait = -1;
    char *f[32];
    while (getline(&line, &cap, in) > 0) {
        int n = csv_fields(line, f, 32);
        if (first) {
            first = 0;
            for (int i = 0; i < n; i++) {
                int *c = !strcmp(f[i], "time_s") ? &c_time : !strcmp(f[i], "interval_s") ? &c_int
                         : !strcmp(f[i], "period") ? &c_period : !strcmp(f[i], "node") ? &c_node
                         : !strcmp(f[i], "port") ? &c_port : !strcmp(f[i], "vl") ? &c_vl
                         : !strcmp(f[i], "PortXmitWait") ? &c_wait : NULL;
                if (c)
                    *c = i;
            }
            if (c_time < 0 || c_int < 0 || c_period < 0 || c_node < 0 || c_port < 0 || c_vl < 0 ||
                c_wait < 0) {
                rc = ibn_err_set(e, "%s: expected the columns time_s, interval_s, period, node, port, vl "
                                 "and PortXmitWait", path);
                break;
            }
            continue;
        }
        if (n <= c_wait || strcmp(f[c_vl], "all"))
            continue;
        double t = strtod(f[c_time], NULL), dt = strtod(f[c_int], NULL);
        if (!strcmp(f[c_period], "measured")) {
            if (isnan(h.measured_from) || t - dt < h.measured_from)
                h.measured_from = t - dt;
            if (isnan(h.measured_to) || t > h.measured_to)
                h.measured_to = t;
        }
        char name[1100];
        snprintf(name, sizeof name, "%s:%s", f[c_node], f[c_port]);
        if (dt > 0)
            add(&h, port_of(&h, name), t - dt, t, strtod(f[c_wait], NULL) * 1e-9 / dt);
    }
    free(line);
    fclose(in);
    if (!rc)
        rc = write_heat(dir, "xmitwait", "PortXmitWait of every port over time, from counters.csv", &h, rname,
                        "PortXmitWait per interval: time a packet waited for credits",
                        "PortXmitWait / interval (1 = waiting all the time; VLs add up)", e);
    heat_free(&h);
    return rc;
}

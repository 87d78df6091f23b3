/* plot_flow_latency.c: per-flow latency CDFs for `ibnetsim plot` (plot.h) from flow-latency.csv
 * (output.flow_latency): network latency (left) and end-to-end latency (right) of every flow's
 * packets. Up to 24 flows each get a colour and dash of the shared palette and a legend entry;
 * with --highlight the named flows are drawn so and the others thin and grey under one legend
 * entry; above 24 flows without --highlight every flow is grey and the CDF of all flows
 * together (latency.csv) is drawn in black. The curves come from plot-flow-latency.dat (the
 * others) and plot-flow-latency-hl.dat (the coloured flows): index 0 network, index 1
 * end-to-end, one block per flow (blank lines between), so that gnuplot reads each once. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/gnuplot.h"
#include "cli/plot.h"
#include "core/error.h"
#include "core/output.h"

#define KEYED_MAX 24

struct frow { int kind, flow; double v, cdf; };

int plot_flow_latency(const char *dir, const char *rname, const char *highlight,
                      struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/flow-latency.csv", dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return errno == ENOENT ? 1 : ibn_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    char **names = NULL;
    int nflows = 0, rc = 0, first = 1;
    struct frow *rows = NULL;
    size_t nrows = 0, rcap = 0;
    double vmin = INFINITY, vmax = 0;
    char *line = NULL, *f[8];
    size_t cap = 0;
    while (getline(&line, &cap, in) > 0) {
        int n = csv_fields(line, f, 8);
        if (first) {
            first = 0;
            if (n < 5 || strcmp(f[0], "latency") || strcmp(f[1], "flow") || strcmp(f[2], "value_ns")) {
                rc = ibn_err_set(e, "%s: expected the header latency,flow,value_ns,count,cdf", path);
                break;
            }
            continue;
        }
        if (n < 5)
            continue;
        int k;
        for (k = 0; k < nflows && strcmp(names[k], f[1]); k++)
            ;
        if (k == nflows) {
            names = xrealloc(names, (size_t)(nflows + 1) * sizeof *names);
            names[nflows++] = xstrdup(f[1]);
        }
        if (nrows == rcap) {
            rcap = rcap ? 2 * rcap : 1024;
            rows = xrealloc(rows, rcap * sizeof *rows);
        }
        double v = strtod(f[2], NULL);
        rows[nrows++] = (struct frow){ !strcmp(f[0], "end_to_end"), k, v, strtod(f[4], NULL) };
        if (v > 0 && v < vmin)
            vmin = v;
        if (v > vmax)
            vmax = v;
    }
    free(line);
    fclose(in);
    /* Which flows are coloured: the highlighted ones, or all of a few. */
    int *hl = xcalloc((size_t)nflows + 1, sizeof *hl), nhl = 0;
    if (!rc && highlight && *highlight) {
        char *copy = xstrdup(highlight), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
            int k;
            for (k = 0; k < nflows && strcmp(names[k], t); k++)
                ;
            if (k == nflows) {
                rc = ibn_err_set(e, "--highlight: %s has no flow \"%s\" with delivered packets", path, t);
                e->output = 0;
                rc = -2;
            } else if (!hl[k]) {
                hl[k] = ++nhl;
            }
        }
        free(copy);
    } else if (!rc && nflows <= KEYED_MAX) {
        for (int k = 0; k < nflows; k++)
            hl[k] = ++nhl;
    }
    /* The two data files: blocks per flow, in the file's flow order. */
    struct outfile *od[2] = { NULL, NULL };
    for (int h = 0; h < 2 && !rc; h++) {
        snprintf(path, sizeof path, "%s/plot-flow-latency%s.dat", dir, h ? "-hl" : "");
        if (!(od[h] = out_open(path, e)))
            rc = -1;
    }
    if (!rc) {
        fprintf(od[0]->fp, "# value_ns,cdf: index 0 network, index 1 end-to-end; one block per flow not in colour\n");
        fprintf(od[1]->fp, "# value_ns,cdf: index 0 network, index 1 end-to-end; one block per flow in colour, in legend order\n");
        int started[2][2] = { { 0, 0 }, { 0, 0 } };
        for (int kind = 0; kind < 2; kind++) {
            for (int h = 0; h < 2; h++)
                if (kind == 1)
                    fprintf(od[h]->fp, "\n\n");
            /* Coloured flows in legend order, the others in file order. */
            for (int pos = 0; pos < nflows; pos++) {
                for (int k = 0; k < nflows; k++) {
                    int h = hl[k] > 0;
                    if (h ? hl[k] != pos + 1 : k != pos)
                        continue;
                    if (started[h][kind]++)
                        fprintf(od[h]->fp, "\n");
                    for (size_t i = 0; i < nrows; i++)
                        if (rows[i].flow == k && rows[i].kind == kind)
                            fprintf(od[h]->fp, "%.3f,%.9f\n", rows[i].v, rows[i].cdf);
                }
            }
        }
        int others = nflows - nhl;
        for (int h = 0; h < 2; h++) {
            if (out_close(od[h], e))
                rc = -1;
            od[h] = NULL;
        }
        struct outfile *go = rc ? NULL : gp_open(dir, "flow-latency", "CDFs of packet latency per flow, from flow-latency.csv", e);
        if (!go && !rc)
            rc = -1;
        if (go) {
            FILE *fp = go->fp;
            gp_palette(fp);
            fprintf(fp, "set ylabel \"fraction of the flow's packets with latency <= x\"\n"
                        "set yrange [0:1.02]\n"
                        "set key right bottom\n");
            if (nflows && vmax > 20 * vmin)
                fprintf(fp, "set logscale x\n");
            /* The multiplot block, drawn for the PNG and again for the SVG. */
            char *block = NULL;
            size_t blen = 0;
            FILE *b = open_memstream(&block, &blen);
            fprintf(b, "set multiplot layout 1,2 title \"");
            gp_quote(b, rname);
            fprintf(b, ": packet latency CDF per flow%s\"\n",
                    nhl && others ? ", named flows in colour" : !nhl && nflows ? " (too many flows for a legend)" : "");
            for (int kind = 0; kind < 2; kind++) {
                fprintf(b, "set title \"%s latency\"\nset xlabel \"%s latency (ns)\"\n",
                        kind ? "end-to-end (message created to delivered)" : "network (injected to delivered)",
                        kind ? "end-to-end" : "network");
                if (!nflows) {
                    fprintf(b, "set label 1 \"no packets were delivered\" at graph 0.5, 0.5 center\n"
                               "plot [1:10] NaN notitle\n");
                    continue;
                }
                fprintf(b, "plot ");
                int any = 0;
                if (others)
                    fprintf(b, "%s\"plot-flow-latency.dat\" index %d using 1:2 with lines lw 0.7 lc rgb \"#b8b8b8\" "
                               "title \"%s %d flows\"", any++ ? ", \\\n  " : "", kind, nhl ? "the other" : "each of the",
                            others);
                if (!nhl)
                    fprintf(b, "%s\"latency.csv\" using 3:((strcol(1) eq \"%s\" && strcol(2) eq \"all\") ? $5 : NaN) "
                               "with lines lw 3 lc rgb \"black\" title \"all flows together\"",
                            any++ ? ", \\\n  " : "", kind ? "end_to_end" : "network");
                for (int pos = 0; pos < nhl; pos++)
                    for (int k = 0; k < nflows; k++)
                        if (hl[k] == pos + 1) {
                            fprintf(b, "%s\"plot-flow-latency-hl.dat\" index %d every :::%d::%d using 1:2 with lines "
                                       "lw %s lc rgb col(%d) dt dash(%d) title \"",
                                    any++ ? ", \\\n  " : "", kind, pos, pos, others ? "2.5" : "1.5", pos, pos);
                            gp_quote(b, names[k]);
                            fputc('"', b);
                        }
                fprintf(b, "\n");
            }
            fprintf(b, "unset multiplot");
            fclose(b);
            gp_png(fp, "flow-latency", 1300, 600);
            fprintf(fp, "%s\n", block);
            gp_svg(fp, "flow-latency", 1300, 600, block);
            free(block);
            rc = gp_close(go, e);
        }
    }
    for (int h = 0; h < 2; h++)
        if (od[h])
            out_abandon(od[h]);
    for (int k = 0; k < nflows; k++)
        free(names[k]);
    free(names);
    free(rows);
    free(hl);
    return rc;
}

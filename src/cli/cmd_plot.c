/* cmd_plot.c: `ibnetsim plot RUN_DIR [--highlight FLOWS]`: gnuplot figures of a run's results
 * folder, as PNG and SVG, from the gnuplot scripts it writes there (plot-*.gp, editable and
 * re-runnable), each titled with the run's name:
 *   throughput  payload throughput of every flow over time (flows.csv), named flows highlighted
 *   latency     CDFs of network and end-to-end packet latency per class (latency.csv)
 *   ports       per-port utilisation map (summary.json's "ports", via plot-ports.csv)
 *   cc          CCTI of every flow over time, when the run wrote cc.csv
 *   buffers     heat map of switch ports' buffer occupancy over time (ports.csv; plot_heat.c)
 *   xmitwait    heat map of PortXmitWait over time (counters.csv; plot_heat.c)
 *   flow-latency  per-flow latency CDFs (flow-latency.csv; plot_flow_latency.c)
 *   topology    the fabric coloured by utilisation, with the congestion tree (graphviz)
 * and `ibnetsim plot A B ... -o DIR`: several runs overlaid (plot_compare.c). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/gnuplot.h"
#include "cli/plot.h"
#include "core/error.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim plot RUN_DIR [--highlight FLOW,...] [--scripts-only] [-q]\n"
            "       ibnetsim plot RUN_DIR RUN_DIR... -o DIR [--highlight FLOW,...] [--scripts-only] [-q]\n\n"
            "Draws the results of `ibnetsim run ... -o RUN_DIR` with gnuplot, as PNG and SVG in\n"
            "RUN_DIR, and leaves the gnuplot scripts there (plot-NAME.gp) so that they can be\n"
            "edited and re-run with `gnuplot plot-NAME.gp` inside RUN_DIR:\n"
            "  throughput.png/.svg  throughput of every flow over time (Gb/s of payload, from\n"
            "                       flows.csv)\n"
            "  latency.png/.svg     CDFs of packet latency per class (SL) and for all flows:\n"
            "                       network (injection to delivery) and end-to-end (message\n"
            "                       creation to delivery), from latency.csv\n"
            "  ports.png/.svg       utilisation of every cabled port (link busy time over the\n"
            "                       measured period), from summary.json's \"ports\"\n"
            "  cc.png/.svg          CCTI of every flow over time, if the run wrote cc.csv\n"
            "  buffers.png/.svg     heat map: receive-buffer occupancy of the switch ports at each\n"
            "                       sample (x time, y port, colour KiB), from ports.csv\n"
            "  xmitwait.png/.svg    heat map: PortXmitWait of every port per interval over the\n"
            "                       interval, from counters.csv (output.counter_series = true)\n"
            "  flow-latency.png/.svg  CDFs of network and end-to-end latency per flow, from\n"
            "                       flow-latency.csv (output.flow_latency = true)\n"
            "  topology.png/.svg    the fabric (graphviz, from topology.dot): each cable coloured\n"
            "                       by its busier direction's utilisation, an arrow on each\n"
            "                       direction whose transmitter waited for credits (the congestion\n"
            "                       tree); adapters left out above 300 nodes\n"
            "Every title names the run (simulation.name). A figure whose data file is missing is\n"
            "skipped with a note; without graphviz the topology picture is skipped with a note.\n"
            "With several RUN_DIRs, DIR/compare.png/.svg overlays them: the total throughput over\n"
            "time (and the highlighted flows) and the latency CDFs of all flows, one colour per run.\n\n"
            "  --highlight FLOW,...  draw these flows in colour and the others grey\n"
            "  -o DIR          the folder of the overlay of several runs\n"
            "  --scripts-only  write the scripts and data files, do not run gnuplot\n"
            "  -q              do not list the files written\n\n"
            "Exit status: 0 success; 1 gnuplot is missing (the scripts are still written) or\n"
            "failed; 2 bad usage or RUN_DIR is not a results folder.\n");
}

static int exists(const char *dir, const char *file)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Throughput (flows.csv) or CCTI (cc.csv) of every flow over time. */
static int write_series(const char *dir, const char *name, const char *file, int is_cc, const char *rname,
                        const char *highlight, struct ibn_err *e)
{
    struct wide_csv w;
    if (read_wide(dir, file, &w, e))
        return -1;
    /* The highlighted flows' columns (0 for the others). */
    int *hl = xcalloc((size_t)w.ncols + 1, sizeof *hl), nhl = 0;
    if (highlight && *highlight) {
        char *copy = xstrdup(highlight), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int c = wide_column(&w, t);
            if (!c) {
                char list[600] = "";
                for (int i = 0; i < w.ncols && strlen(list) < 500; i++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", w.names[i]);
                ibn_err_set(e, "--highlight: %s/%s has no flow \"%s\" (its flows: %s%s)", dir, file, t, list,
                            strlen(list) >= 500 ? ", ..." : "");
                e->output = 0;
                free(copy);
                free(hl);
                wide_free(&w);
                return -2;
            }
            if (!hl[c - 2])
                nhl++;
            hl[c - 2] = 1;
        }
        free(copy);
    }
    const char *unit;
    double scale;
    time_unit(w.last_time, &unit, &scale);
    struct outfile *go = gp_open(dir, name,
                       is_cc ? "congestion control table index (CCTI) of every flow over time, from cc.csv"
                             : "payload throughput of every flow over time, from flows.csv",
                       e);
    if (!go) {
        free(hl);
        wide_free(&w);
        return -1;
    }
    FILE *fp = go->fp;
    int keyed = w.ncols <= 24 || nhl;
    fputs("set title \"", fp);
    gp_quote(fp, rname);
    fprintf(fp, ": %s%s\"\n", is_cc ? "CCTI per flow" : "Throughput per flow (payload, per sample interval)",
            nhl ? ", named flows in colour" : keyed ? "" : " (too many flows for a legend)");
    gp_palette(fp);
    fprintf(fp, "set xlabel \"time (%s)\"\n", unit);
    fprintf(fp, "set ylabel \"%s\"\n", is_cc ? "CCTI (index into the CCT)" : "throughput (Gb/s)");
    fprintf(fp, "set yrange [0:*]\n");
    fprintf(fp, "set key outside right top\n");
    fprintf(fp, "tscale = %g  # seconds to %s\n", scale, unit);
    fprintf(fp, "ncols = %d   # data columns after time_s\n", w.ncols);
    gp_png(fp, name, 1100, 600);
    const char *with = is_cc ? "steps" : "lines";
    if (nhl) {
        /* The others grey and thin under the named flows, one legend entry for them. */
        int others = 0;
        fprintf(fp, "others = \"");
        for (int i = 0; i < w.ncols; i++)
            if (!hl[i])
                fprintf(fp, "%s%d", others++ ? " " : "", i + 2);
        fprintf(fp, "\"\nplot ");
        if (others)
            fprintf(fp, "for [c in others] \"%s\" using ($1*tscale):(column(int(c))) with %s lw 0.7 "
                        "lc rgb \"#b8b8b8\" title (c eq word(others, 1) ? \"the other %d flows\" : \"\"), \\\n  ",
                    file, with, others);
        int k = 0;
        for (int i = 0; i < w.ncols; i++) {
            if (!hl[i])
                continue;
            fprintf(fp, "%s\"%s\" using ($1*tscale):%d with %s lw 2.5 lc rgb col(%d) dt dash(%d) title \"",
                    k ? ", \\\n  " : "", file, i + 2, with, k, k);
            gp_quote(fp, w.names[i]);
            fputc('"', fp);
            k++;
        }
    } else {
        fprintf(fp, "plot for [i=2:ncols+1] \"%s\" using ($1*tscale):i with %s %s", file, with,
                keyed ? "lw 1.5 lc rgb col(i-2) dt dash(i-2) title columnhead(i)"
                      : "lw 0.7 lc rgb \"#b0b0b0\" title (i == 2 ? \"each flow\" : \"\")");
    }
    if (!is_cc && w.ncols > 3 && !nhl)
        fprintf(fp, ", \\\n  \"%s\" using ($1*tscale):((sum [i=2:ncols+1] column(i)) / ncols) with lines "
                    "lw 3 lc rgb \"black\" title \"mean of the %d flows\"", file, w.ncols);
    fprintf(fp, "\n");
    gp_svg(fp, name, 1100, 600, "replot");
    free(hl);
    wide_free(&w);
    return gp_close(go, e);
}

/* Latency CDFs from latency.csv (latency,class,value_ns,count,cdf). */
static int write_latency(const char *dir, const char *rname, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return ibn_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    char classes[17][8];
    int ncls = 0;
    double vmin = INFINITY, vmax = 0;
    char *line = NULL;
    size_t cap = 0;
    int first = 1;
    while (getline(&line, &cap, in) > 0) {
        if (first) {
            first = 0;
            if (strncmp(line, "latency,class,value_ns", 22)) {
                free(line);
                fclose(in);
                return ibn_err_set(e, "%s: expected the header latency,class,value_ns,count,cdf", path);
            }
            continue;
        }
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c2)
            continue;
        *c2 = 0;
        const char *cls = c1 + 1;
        double v = strtod(c2 + 1, NULL);
        if (v > 0 && v < vmin)
            vmin = v;
        if (v > vmax)
            vmax = v;
        int k;
        for (k = 0; k < ncls && strcmp(classes[k], cls); k++)
            ;
        if (k == ncls && ncls < 17 && strlen(cls) < sizeof classes[0])
            snprintf(classes[ncls++], sizeof classes[0], "%s", cls);
    }
    free(line);
    fclose(in);
    struct outfile *go = gp_open(dir, "latency", "CDFs of packet latency per class (SL), from latency.csv", e);
    if (!go)
        return -1;
    FILE *fp = go->fp;
    int per_class = ncls > 2; /* "all" and one class are the same curve */
    fputs("set title \"", fp);
    gp_quote(fp, rname);
    fprintf(fp, ": packet latency CDF per class: network (solid), end-to-end (dashed)\"\n"
                "set xlabel \"latency (ns)\"\n"
                "set ylabel \"fraction of packets with latency <= x\"\n"
                "set yrange [0:1.02]\n"
                "set key right bottom\n");
    if (ncls && vmax > 20 * vmin)
        fprintf(fp, "set logscale x\n");
    fprintf(fp, "# select rows of one (latency, class) pair; other rows are undefined\n"
                "sel(kind, cls) = (strcol(1) eq kind && strcol(2) eq cls) ? $5 : NaN\n");
    gp_png(fp, "latency", 1000, 600);
    if (!ncls) {
        fprintf(fp, "set label 1 \"no packets were delivered\" at graph 0.5, 0.5 center\n"
                    "set xrange [1:10]\n"
                    "plot NaN notitle\n");
    } else {
        fprintf(fp, "plot \\\n");
        int color = 1, nplots = 0;
        for (int k = 0; k < ncls; k++) {
            const char *cls = classes[k];
            if (per_class ? 0 : strcmp(cls, "all") != 0)
                continue;
            char label[32];
            if (!strcmp(cls, "all"))
                snprintf(label, sizeof label, per_class || ncls < 2 ? "all flows" : "SL %s, all flows", classes[1] + 2);
            else
                snprintf(label, sizeof label, "SL %s", cls + 2);
            for (int kind = 0; kind < 2; kind++) {
                fprintf(fp, "%s  \"latency.csv\" using 3:(sel(\"%s\", \"%s\")) with lines lw 2 dt %d lc %d "
                            "title \"%s %s\"",
                        nplots++ ? ", \\\n" : "", kind ? "end_to_end" : "network", cls, kind ? 2 : 1, color,
                        label, kind ? "end-to-end" : "network");
            }
            color++;
        }
        fprintf(fp, "\n");
    }
    gp_svg(fp, "latency", 1000, 600, "replot");
    return gp_close(go, e);
}

/* Per-port utilisation map: one row per node, one cell per cabled port. */
struct node_row {
    const char *name;
    int nports, switch_like;
};

static int write_ports(const char *dir, json_t *summary, const char *rname, struct ibn_err *e)
{
    json_t *ports = json_object_get(summary, "ports");
    if (!json_is_array(ports))
        return ibn_err_set(e, "%s/summary.json: no \"ports\" array", dir);
    size_t np = json_array_size(ports);
    struct node_row *rows = xcalloc(np + 1, sizeof *rows);
    int nrows = 0, maxport = 1;
    for (size_t i = 0; i < np; i++) {
        json_t *p = json_array_get(ports, i);
        const char *node = json_string_value(json_object_get(p, "node"));
        json_int_t port = json_integer_value(json_object_get(p, "port"));
        if (!node || port < 1) {
            free(rows);
            return ibn_err_set(e, "%s/summary.json: ports[%zu] lacks \"node\" or \"port\"", dir, i);
        }
        if (port > maxport)
            maxport = (int)port;
        int r;
        for (r = 0; r < nrows && strcmp(rows[r].name, node); r++)
            ;
        if (r == nrows)
            rows[nrows++].name = node;
        rows[r].nports++;
    }
    /* Switches (nodes with more than one cabled port) always; adapters too while the map stays
     * readable. */
    int nsw = 0;
    for (int r = 0; r < nrows; r++)
        nsw += rows[r].switch_like = rows[r].nports > 1;
    int hosts_too = nrows <= 100 || nsw == 0;
    int shown = hosts_too ? nrows : nsw;
    char path[4200];
    snprintf(path, sizeof path, "%s/plot-ports.csv", dir);
    struct outfile *od = out_open(path, e);
    if (!od) {
        free(rows);
        return -1;
    }
    FILE *d = od->fp;
    fprintf(d, "row,port,utilisation,node\n");
    /* Rows from the top: switches first, then adapters, each in topology order. */
    int y = shown - 1;
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < nrows; r++) {
            if (rows[r].switch_like != !pass || (!rows[r].switch_like && !hosts_too))
                continue;
            for (size_t i = 0; i < np; i++) {
                json_t *p = json_array_get(ports, i);
                if (strcmp(json_string_value(json_object_get(p, "node")), rows[r].name))
                    continue;
                fprintf(d, "%d,%d,%.6f,", y, (int)json_integer_value(json_object_get(p, "port")),
                        json_number_value(json_object_get(p, "utilisation")));
                csv_field(d, rows[r].name);
                fputc('\n', d);
            }
            y--;
        }
    free(rows);
    if (out_close(od, e))
        return -1;
    struct outfile *go = gp_open(dir, "ports", "per-port utilisation map, from summary.json via plot-ports.csv", e);
    if (!go)
        return -1;
    FILE *fp = go->fp;
    int width = 260 + maxport * 45, height = 140 + shown * 22;
    if (width < 700)
        width = 700;
    if (height < 400)
        height = 400;
    if (height > 6000)
        height = 6000;
    fputs("set title \"", fp);
    gp_quote(fp, rname);
    fprintf(fp, ": port utilisation (link busy time / the measured period)%s\"\n",
            hosts_too ? "" : "; switches only");
    fprintf(fp, "set xlabel \"port number\"\n"
                "set ylabel \"node\"\n"
                "set cblabel \"utilisation (fraction of the link's data rate)\"\n"
                "set cbrange [0:1]\n"
                "set palette defined (0 \"#f7fbff\", 0.3 \"#9ecae1\", 0.6 \"#fd8d3c\", 0.85 \"#e31a1c\", 1 \"#67000d\")\n"
                "set xrange [0.5:%d.5]\n"
                "set yrange [-0.5:%d.5]\n"
                "set xtics 1\n"
                "set ytics noenhanced\n"
                "set grid noxtics noytics\n"
                "set style fill solid 1.0 border lc rgb \"#808080\"\n",
            maxport, shown - 1);
    gp_png(fp, "ports", width, height);
    fprintf(fp, "plot \"plot-ports.csv\" using 2:1:(0.45):(0.45):3:ytic(4) with boxxyerror fc palette notitle");
    if ((long)shown * maxport <= 400)
        fprintf(fp, ", \\\n  \"\" using 2:1:(sprintf(\"%%.0f%%%%\", 100*$3)) with labels font \",8\" notitle");
    fprintf(fp, "\n");
    gp_svg(fp, "ports", width, height, "replot");
    return gp_close(go, e);
}

/* topology.png/.svg from topology.dot with graphviz; a note when graphviz is missing. */
static int draw_topology(const char *dir, const char *engine, int quiet, struct ibn_err *e)
{
    if (!prog_available(engine)) {
        fprintf(stderr, "ibnetsim plot: graphviz is not installed (%s not found on the PATH): no topology.png/.svg; "
                        "install graphviz and run `%s -Tpng topology.dot -o topology.png` in %s\n", engine, engine, dir);
        return 0;
    }
    char *png[] = { (char *)engine, "-Tpng", "topology.dot", "-o", "topology.png", NULL };
    char *svg[] = { (char *)engine, "-Tsvg", "topology.dot", "-o", "topology.svg", NULL };
    if (prog_run(dir, png, e) || prog_run(dir, svg, e))
        return -1;
    if (!quiet)
        printf("%s/topology.png %s/topology.svg\n", dir, dir);
    return 0;
}

int cmd_plot(int argc, char **argv)
{
    const char *out = NULL, *highlight = NULL;
    char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
    int ndirs = 0, scripts_only = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(dirs);
            return 0;
        } else if (!strcmp(argv[i], "--scripts-only")) {
            scripts_only = 1;
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--highlight") && i + 1 < argc) {
            highlight = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "ibnetsim plot: unexpected argument \"%s\"%s\n\n", argv[i],
                    !strcmp(argv[i], "-o") || !strcmp(argv[i], "--highlight") ? " (it needs a value)" : "");
            usage(stderr);
            free(dirs);
            return 2;
        } else {
            dirs[ndirs++] = argv[i];
        }
    }
    if (!ndirs || (ndirs > 1 && !out) || (ndirs == 1 && out)) {
        fprintf(stderr, "ibnetsim plot: %s\n\n", !ndirs ? "which results folder? (expected RUN_DIR)"
                                                 : out ? "-o DIR is for the overlay of several runs (RUN_DIR RUN_DIR...)"
                                                       : "several runs are overlaid into a folder of their own: add -o DIR");
        usage(stderr);
        free(dirs);
        return 2;
    }
    struct ibn_err e;
    if (ndirs > 1) {
        int rc = plot_compare(out, dirs, ndirs, highlight, &e);
        free(dirs);
        if (rc) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            return rc == -2 ? 2 : e.output ? IBN_EXIT_OUTPUT : 1;
        }
        if (scripts_only) {
            if (!quiet)
                printf("%s/plot-compare.gp\n", out);
            return 0;
        }
        if (!gp_available()) {
            fprintf(stderr, "ibnetsim plot: gnuplot is not installed: the script is %s/plot-compare.gp\n", out);
            return 1;
        }
        if (gp_run(out, "compare", &e)) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            return 1;
        }
        if (!quiet)
            printf("%s/compare.png %s/compare.svg\n", out, out);
        return 0;
    }
    const char *dir = dirs[0];
    free(dirs);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    json_error_t je;
    json_t *summary = json_load_file(path, 0, &je);
    if (!summary) {
        fprintf(stderr, "ibnetsim plot: %s is not a results folder of `ibnetsim run`: %s: %s\n", dir, path,
                je.text);
        return 2;
    }
    const char *rname = run_name(summary, dir);
    const char *names[8];
    int n = 0, status = 0;
    struct { const char *name, *file; } series[2] = { { "throughput", "flows.csv" }, { "cc", "cc.csv" } };
    for (int s = 0; s < 2; s++) {
        if (!exists(dir, series[s].file)) {
            if (s == 0)
                fprintf(stderr, "ibnetsim plot: no %s/flows.csv (output.flow_series = false?): "
                                "no throughput plot\n", dir);
            continue;
        }
        int rc = write_series(dir, series[s].name, series[s].file, s == 1, rname, highlight, &e);
        if (rc == -2) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            json_decref(summary);
            return 2;
        } else if (rc) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            status = e.output ? IBN_EXIT_OUTPUT : 1;
        } else {
            names[n++] = series[s].name;
        }
    }
    if (!exists(dir, "latency.csv")) {
        fprintf(stderr, "ibnetsim plot: no %s/latency.csv (a run of an older ibnetsim?): no latency plot\n", dir);
    } else if (write_latency(dir, rname, &e)) {
        fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
        status = e.output ? IBN_EXIT_OUTPUT : 1;
    } else {
        names[n++] = "latency";
    }
    if (write_ports(dir, summary, rname, &e)) {
        fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
        status = e.output ? IBN_EXIT_OUTPUT : 1;
    } else {
        names[n++] = "ports";
    }
    /* Heat maps and per-flow latency: a note when the run did not write their data. */
    static const struct {
        const char *name, *why;
    } extra[] = {
        { "buffers", "no ports.csv (output.port_series = false?): no buffer heat map" },
        { "xmitwait", "no counters.csv (output.counter_series = true writes it): no PortXmitWait heat map" },
        { "flow-latency", "no flow-latency.csv (output.flow_latency = true writes it): no per-flow latency CDFs" },
    };
    for (int x = 0; x < 3; x++) {
        int rc = x == 0 ? plot_heat_buffers(dir, rname, &e)
                 : x == 1 ? plot_heat_xmitwait(dir, rname, &e)
                          : plot_flow_latency(dir, rname, highlight, &e);
        if (rc == 1) {
            if (!quiet)
                fprintf(stderr, "ibnetsim plot: %s/%s\n", dir, extra[x].why);
        } else if (rc == -2) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            json_decref(summary);
            return 2;
        } else if (rc) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            status = e.output ? IBN_EXIT_OUTPUT : 1;
        } else {
            names[n++] = extra[x].name;
        }
    }
    const char *engine = NULL;
    int topo = !plot_topology(dir, summary, &engine, &e);
    if (!topo) {
        fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
        status = e.output ? IBN_EXIT_OUTPUT : 1;
    }
    json_decref(summary);
    if (scripts_only) {
        if (!quiet) {
            for (int i = 0; i < n; i++)
                printf("%s/plot-%s.gp\n", dir, names[i]);
            if (topo)
                printf("%s/topology.dot\n", dir);
        }
        return status;
    }
    if (topo && draw_topology(dir, engine, quiet, &e)) {
        fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
        status = 1;
    }
    if (!gp_available()) {
        fprintf(stderr, "ibnetsim plot: gnuplot is not installed (not found on the PATH), so no images were "
                        "drawn.\nThe scripts are in %s/plot-*.gp; install gnuplot (Debian/Ubuntu: apt-get "
                        "install gnuplot-nox) and run `ibnetsim plot %s` again, or `gnuplot plot-NAME.gp` "
                        "inside %s.\n", dir, dir, dir);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        if (gp_run(dir, names[i], &e)) {
            fprintf(stderr, "ibnetsim plot: %s\n", e.msg);
            status = 1;
            continue;
        }
        if (!quiet)
            printf("%s/%s.png %s/%s.svg\n", dir, names[i], dir, names[i]);
    }
    return status;
}

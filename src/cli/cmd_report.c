/* cmd_report.c: `ibnetsim report RUN_DIR... [--repro FILE] [-o FILE]`: one self-contained HTML
 * page (no server, no script, no external file: the figures are inlined SVG) with, per run, its
 * name, the key numbers of summary.json (outcome, times, events, throughput, fairness, the
 * invariants, the warnings), the flows, the figures of `ibnetsim plot` (drawn first when the
 * folder has none) and the scenario as run; then a reproduction table (repro.csv) if given or
 * present in a run's folder. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/plot.h"
#include "core/error.h"
#include "core/output.h"

#define MAX_FLOW_ROWS 200

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim report RUN_DIR [RUN_DIR...] [--repro FILE] [-o FILE] [-q]\n\n"
            "Writes one self-contained HTML page (default RUN_DIR/report.html; with several runs\n"
            "-o is required) that opens in any browser without a server: for each run its name,\n"
            "the key numbers (outcome, measured period, events, packet-hops, throughput, Jain's\n"
            "index, invariants, warnings), a table of the flows (the first %d), the figures of\n"
            "`ibnetsim plot` inlined as SVG (drawn first if the folder has none; a figure that\n"
            "cannot be drawn is left out with a note) and the scenario as run (scenario.cfg);\n"
            "then the reproduction table of --repro FILE, or of a repro.csv in a run's folder.\n\n"
            "Exit status: 0 success; 2 bad usage or a folder that is not a results folder;\n"
            "3 the page could not be written.\n", MAX_FLOW_ROWS);
}

static void esc(FILE *fp, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '&': fputs("&amp;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(*s, fp);
        }
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&buf, &cap, 0, fp);
    fclose(fp);
    if (n < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int exists(const char *dir, const char *file)
{
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* Draw the run's figures with `ibnetsim plot DIR -q` (this same binary). */
static void draw(const char *dir)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "ibnetsim", "plot", dir, "-q", (char *)NULL);
        _exit(127);
    }
    int st;
    if (pid > 0)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
}

/* An SVG file inlined: from its <svg element on (the XML prolog and DOCTYPE left out). */
static int inline_svg(FILE *out, const char *dir, const char *name, const char *caption)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    char *svg = slurp(path);
    char *start = svg ? strstr(svg, "<svg") : NULL;
    if (!start) {
        free(svg);
        return 0;
    }
    fprintf(out, "<figure>\n%s\n<figcaption>", start);
    esc(out, caption);
    fprintf(out, "</figcaption></figure>\n");
    free(svg);
    return 1;
}

static void num_row(FILE *out, const char *what, json_t *v, const char *fmt, const char *unit)
{
    fputs("<tr><th>", out);
    esc(out, what);
    fputs("</th><td>", out);
    if (json_is_number(v))
        fprintf(out, fmt, json_number_value(v));
    else if (json_is_string(v))
        esc(out, json_string_value(v));
    else if (json_is_true(v) || json_is_false(v))
        fputs(json_is_true(v) ? "yes" : "<b class=bad>NO</b>", out);
    else
        fputs("&ndash;", out);
    fprintf(out, " %s</td></tr>\n", unit);
}

static void lat_cells(FILE *out, json_t *l)
{
    json_t *m = json_object_get(l, "mean_ns"), *p = json_object_get(l, "p99_ns");
    if (json_is_number(m))
        fprintf(out, "<td>%.0f</td><td>%.0f</td>", json_number_value(m), json_number_value(p));
    else
        fputs("<td>&ndash;</td><td>&ndash;</td>", out);
}

static void run_section(FILE *out, const char *dir, json_t *j, int index)
{
    const char *name = run_name(j, dir);
    json_t *run = json_object_get(j, "run"), *inv = json_object_get(j, "invariants");
    fprintf(out, "<section id=\"run%d\">\n<h2>", index);
    esc(out, name);
    fputs("</h2>\n<p class=dir>", out);
    esc(out, dir);
    fputs("</p>\n<table class=kv>\n", out);
    num_row(out, "outcome", json_object_get(run, "outcome"), "", "");
    num_row(out, "invariants hold (no packet lost, credits conserved)", json_object_get(inv, "ok"), "", "");
    num_row(out, "measured from", json_object_get(run, "measured_from_s"), "%.6g", "s");
    num_row(out, "measured to", json_object_get(run, "measured_to_s"), "%.6g", "s");
    num_row(out, "stopped at", json_object_get(run, "stopped_at_s"), "%.6g", "s");
    num_row(out, "events", json_object_get(run, "events"), "%.0f", "");
    num_row(out, "packet-hops", json_object_get(run, "packet_hops"), "%.0f", "");
    num_row(out, "total throughput (payload)", json_object_get(j, "total_throughput_gbps"), "%.4g", "Gb/s");
    num_row(out, "Jain's fairness index", json_object_get(j, "jain_index"), "%.4f", "");
    fputs("</table>\n", out);
    json_t *warn = json_object_get(j, "warnings");
    if (json_array_size(warn)) {
        fputs("<h3>Warnings</h3>\n<ul class=warn>\n", out);
        for (size_t i = 0; i < json_array_size(warn); i++) {
            fputs("<li>", out);
            esc(out, json_string_value(json_array_get(warn, i)));
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    json_t *flows = json_object_get(j, "flows");
    size_t nf = json_array_size(flows);
    fprintf(out, "<h3>Flows (%zu)</h3>\n<table class=grid>\n<tr><th>flow</th><th>source</th><th>destination</th>"
                 "<th>SL</th><th>offered (Gb/s)</th><th>throughput (Gb/s)</th><th colspan=2>network latency mean / p99 (ns)</th>"
                 "<th colspan=2>end-to-end latency mean / p99 (ns)</th></tr>\n", nf);
    for (size_t i = 0; i < nf && i < MAX_FLOW_ROWS; i++) {
        json_t *f = json_array_get(flows, i);
        fputs("<tr><td>", out);
        esc(out, json_string_value(json_object_get(f, "name")));
        fputs("</td><td>", out);
        esc(out, json_string_value(json_object_get(f, "src")));
        fputs("</td><td>", out);
        esc(out, json_string_value(json_object_get(f, "dst")));
        fprintf(out, "</td><td>%lld</td>", (long long)json_integer_value(json_object_get(f, "sl")));
        json_t *off = json_object_get(f, "offered_payload_gbps");
        if (json_is_number(off))
            fprintf(out, "<td>%.4g</td>", json_number_value(off));
        else
            fputs("<td>&ndash;</td>", out);
        fprintf(out, "<td>%.4g</td>", json_number_value(json_object_get(f, "throughput_gbps")));
        lat_cells(out, json_object_get(f, "network_latency"));
        lat_cells(out, json_object_get(f, "end_to_end_latency"));
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    if (nf > MAX_FLOW_ROWS)
        fprintf(out, "<p>The first %d of %zu flows; all of them are in summary.json and flows.csv.</p>\n",
                MAX_FLOW_ROWS, nf);
    static const struct { const char *file, *caption; } figs[] = {
        { "throughput", "Throughput of every flow over time (flows.csv)" },
        { "latency", "Packet latency CDFs per class (latency.csv)" },
        { "flow-latency", "Packet latency CDFs per flow (flow-latency.csv)" },
        { "ports", "Port utilisation (summary.json)" },
        { "buffers", "Receive-buffer occupancy of the switch ports over time (ports.csv)" },
        { "xmitwait", "PortXmitWait over time: where packets waited for credits (counters.csv)" },
        { "cc", "CCTI of every flow over time (cc.csv)" },
        { "topology", "The fabric: cables coloured by utilisation, arrows where the sender waited for credits" },
    };
    fputs("<h3>Figures</h3>\n", out);
    int drawn = 0;
    for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++)
        drawn += inline_svg(out, dir, figs[k].file, figs[k].caption);
    if (!drawn)
        fputs("<p>No figure could be drawn (is gnuplot installed? <code>ibnetsim plot</code> says why).</p>\n", out);
    char path[4200];
    snprintf(path, sizeof path, "%s/scenario.cfg", dir);
    char *cfg = slurp(path);
    if (cfg) {
        fputs("<details><summary>The scenario as run (scenario.cfg)</summary>\n<pre>", out);
        esc(out, cfg);
        fputs("</pre></details>\n", out);
        free(cfg);
    }
    fputs("</section>\n", out);
}

/* repro.csv (id,kind,claim,paper,ibnetsim,ci95,n,unit,tolerance,within,basis) as a table. */
static int repro_section(FILE *out, const char *path, struct ibn_err *e)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return ibn_err_set(e, "%s: %s", path, strerror(errno));
    fputs("<section id=\"repro\">\n<h2>Reproduction: the papers beside ibnetsim</h2>\n<p class=dir>", out);
    esc(out, path);
    fputs("</p>\n<table class=grid>\n", out);
    char *line = NULL;
    size_t cap = 0;
    int row = 0;
    while (getline(&line, &cap, fp) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        /* RFC 4180 fields */
        char *fields[16];
        int nf = 0;
        char *w = line, *r = line;
        while (*r && nf < 16) {
            fields[nf++] = w;
            if (*r == '"') {
                for (r++; *r && !(*r == '"' && r[1] != '"'); r++) {
                    if (*r == '"')
                        r++;
                    *w++ = *r;
                }
                if (*r == '"')
                    r++;
            } else {
                while (*r && *r != ',')
                    *w++ = *r++;
            }
            if (*r == ',')
                r++;
            *w++ = 0;
        }
        const char *within = nf > 9 ? fields[9] : "";
        fprintf(out, "<tr class=\"%s\">", row == 0 ? "head" : !strcmp(within, "yes") ? "pass"
                                                            : !strcmp(within, "no") ? "miss" : "");
        for (int i = 0; i < nf; i++) {
            fputs(row ? "<td>" : "<th>", out);
            esc(out, fields[i]);
            fputs(row ? "</td>" : "</th>", out);
        }
        fputs("</tr>\n", out);
        row++;
    }
    free(line);
    fclose(fp);
    fputs("</table>\n</section>\n", out);
    return 0;
}

int cmd_report(int argc, char **argv)
{
    const char *out_path = NULL, *repro = NULL;
    char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
    int ndirs = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(dirs);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--repro") && i + 1 < argc) {
            repro = argv[++i];
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "ibnetsim report: unexpected argument \"%s\"%s\n\n", argv[i],
                    !strcmp(argv[i], "-o") || !strcmp(argv[i], "--repro") ? " (it needs a value)" : "");
            usage(stderr);
            free(dirs);
            return 2;
        } else {
            dirs[ndirs++] = argv[i];
        }
    }
    if (!ndirs || (ndirs > 1 && !out_path)) {
        fprintf(stderr, "ibnetsim report: %s\n\n", !ndirs ? "which results folder? (expected RUN_DIR)"
                                                   : "a report of several runs needs -o FILE");
        usage(stderr);
        free(dirs);
        return 2;
    }
    json_t **sum = xcalloc((size_t)ndirs, sizeof *sum);
    int status = 0;
    for (int i = 0; i < ndirs && !status; i++) {
        char p[4200];
        json_error_t je;
        snprintf(p, sizeof p, "%s/summary.json", dirs[i]);
        if (!(sum[i] = json_load_file(p, 0, &je))) {
            fprintf(stderr, "ibnetsim report: %s is not a results folder of `ibnetsim run`: %s: %s\n", dirs[i], p,
                    je.text);
            status = 2;
        }
    }
    char def[4200];
    if (!out_path) {
        snprintf(def, sizeof def, "%s/report.html", dirs[0]);
        out_path = def;
    }
    if (!repro)
        for (int i = 0; i < ndirs && !repro; i++)
            if (exists(dirs[i], "repro.csv")) {
                static char rp[4200];
                snprintf(rp, sizeof rp, "%s/repro.csv", dirs[i]);
                repro = rp;
            }
    struct ibn_err e;
    struct outfile *o = status ? NULL : out_open(out_path, &e);
    if (!status && !o) {
        fprintf(stderr, "ibnetsim report: %s\n", e.msg);
        status = IBN_EXIT_OUTPUT;
    }
    if (o) {
        FILE *out = o->fp;
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
        for (int i = 0; i < ndirs; i++) {
            fputs(i ? " | " : "", out);
            esc(out, run_name(sum[i], dirs[i]));
        }
        fputs(" &ndash; ibnetsim report</title>\n<style>\n"
              "body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }\n"
              "h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #3182bd; padding-bottom: 0.2em; }\n"
              "table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }\n"
              "th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }\n"
              "table.kv th { background: #f4f4f4; font-weight: normal; }\n"
              "table.grid tr:nth-child(even) { background: #fafafa; }\n"
              "tr.pass td { background: #e5f5e0; } tr.miss td { background: #fee0d2; }\n"
              ".bad { color: #b00; } .dir { color: #777; font-family: monospace; }\n"
              "ul.warn li { color: #8a5a00; }\n"
              "figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }\n"
              "figcaption { color: #555; font-size: 0.9em; }\n"
              "pre { background: #f7f7f7; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }\n"
              "</style>\n</head>\n<body>\n<h1>ibnetsim report</h1>\n<ul>\n", out);
        for (int i = 0; i < ndirs; i++) {
            fprintf(out, "<li><a href=\"#run%d\">", i);
            esc(out, run_name(sum[i], dirs[i]));
            fputs("</a></li>\n", out);
        }
        if (repro)
            fputs("<li><a href=\"#repro\">Reproduction table</a></li>\n", out);
        fputs("</ul>\n", out);
        for (int i = 0; i < ndirs; i++) {
            if (!exists(dirs[i], "throughput.svg") && !exists(dirs[i], "ports.svg"))
                draw(dirs[i]);
            run_section(out, dirs[i], sum[i], i);
        }
        if (repro && repro_section(out, repro, &e)) {
            fprintf(stderr, "ibnetsim report: %s\n", e.msg);
            status = 2;
        }
        fputs("<p class=dir>Written by ibnetsim report.</p>\n</body>\n</html>\n", out);
        if (out_close(o, &e)) {
            fprintf(stderr, "ibnetsim report: %s\n", e.msg);
            status = IBN_EXIT_OUTPUT;
        } else if (!quiet && !status) {
            printf("%s\n", out_path);
        }
    }
    for (int i = 0; i < ndirs; i++)
        json_decref(sum[i]);
    free(sum);
    free(dirs);
    return status;
}

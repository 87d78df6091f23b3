/* plot_topology.c: the fabric of a run as a graphviz graph (topology.dot): switches as boxes,
 * adapters as ellipses (left out above 300 nodes), one edge per cable coloured and thickened by
 * the utilisation of its busier direction, and an arrow on each direction whose transmitter
 * waited for credits (PortXmitWait > 0): the arrows point down the congestion tree towards its
 * roots. Read from summary.json's "ports" (both directions of every cable) and "hosts". */
#include "cli/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"

#define MAX_NODES_WITH_HOSTS 300

struct pend {
    const char *node, *peer;
    long port, peer_port;
    double util, wait;
};

static int pend_cmp(const void *a, const void *b)
{
    const struct pend *x = a, *y = b;
    int c = strcmp(x->node, y->node);
    return c ? c : (x->port > y->port) - (x->port < y->port);
}

static const struct pend *find(const struct pend *v, size_t n, const char *node, long port)
{
    struct pend key = { node, NULL, port, 0, 0, 0 };
    return bsearch(&key, v, n, sizeof *v, pend_cmp);
}

/* grey (idle) -> blue (30 %) -> orange (60 %) -> red (85 %) -> dark red (100 %) */
static void util_colour(double u, char *buf, size_t size)
{
    static const struct { double at; int r, g, b; } stop[] = {
        { 0.0, 0xb0, 0xb0, 0xb0 }, { 0.3, 0x31, 0x82, 0xbd }, { 0.6, 0xfd, 0x8d, 0x3c },
        { 0.85, 0xe3, 0x1a, 0x1c }, { 1.0, 0x67, 0x00, 0x0d } };
    if (!(u > 0))
        u = 0;
    if (u > 1)
        u = 1;
    int k = 0;
    while (k < 3 && u > stop[k + 1].at)
        k++;
    double t = (u - stop[k].at) / (stop[k + 1].at - stop[k].at);
    snprintf(buf, size, "#%02x%02x%02x", (int)(stop[k].r + t * (stop[k + 1].r - stop[k].r) + 0.5),
             (int)(stop[k].g + t * (stop[k + 1].g - stop[k].g) + 0.5),
             (int)(stop[k].b + t * (stop[k + 1].b - stop[k].b) + 0.5));
}

static void dot_quote(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs("\\n", fp); /* a centred line break */
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static int is_host(json_t *hosts, const char *name)
{
    for (size_t i = 0; i < json_array_size(hosts); i++) {
        const char *h = json_string_value(json_object_get(json_array_get(hosts, i), "host"));
        if (h && !strcmp(h, name))
            return 1;
    }
    return 0;
}

int plot_topology(const char *dir, json_t *summary, const char **engine, struct ibn_err *e)
{
    json_t *ports = json_object_get(summary, "ports"), *hosts = json_object_get(summary, "hosts");
    if (!json_is_array(ports))
        return ibn_err_set(e, "%s/summary.json: no \"ports\" array", dir);
    size_t n = json_array_size(ports);
    struct pend *v = xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(ports, i);
        v[i].node = json_string_value(json_object_get(p, "node"));
        v[i].peer = json_string_value(json_object_get(p, "peer"));
        v[i].port = (long)json_integer_value(json_object_get(p, "port"));
        v[i].peer_port = (long)json_integer_value(json_object_get(p, "peer_port"));
        v[i].util = json_number_value(json_object_get(p, "utilisation"));
        v[i].wait = json_number_value(json_object_get(p, "PortXmitWait"));
        if (!v[i].node || !v[i].peer) {
            free(v);
            return ibn_err_set(e, "%s/summary.json: ports[%zu] lacks \"node\" or \"peer\"", dir, i);
        }
    }
    qsort(v, n, sizeof *v, pend_cmp);
    /* Nodes: the distinct names, in sorted order (stable across runs). */
    size_t nnodes = 0, nsw = 0;
    for (size_t i = 0; i < n; i++)
        if (!i || strcmp(v[i].node, v[i - 1].node)) {
            nnodes++;
            nsw += !is_host(hosts, v[i].node);
        }
    int with_hosts = nnodes <= MAX_NODES_WITH_HOSTS || nsw == 0;
    size_t shown = with_hosts ? nnodes : nsw;
    *engine = shown <= 400 ? "neato" : "sfdp";
    char path[4200];
    snprintf(path, sizeof path, "%s/topology.dot", dir);
    struct outfile *o = out_open(path, e);
    if (!o) {
        free(v);
        return -1;
    }
    FILE *fp = o->fp;
    fprintf(fp, "// topology.dot: the fabric of this run, written by `ibnetsim plot`; draw it with\n"
                "// `%s -Tpng topology.dot -o topology.png`. Edge colour and width: the utilisation of the\n"
                "// cable's busier direction; an arrow: that direction's transmitter waited for credits.\n"
                "graph fabric {\n  graph [overlap=false, outputorder=edgesfirst, fontsize=12, labelloc=t, label=",
            *engine);
    char label[1024];
    snprintf(label, sizeof label, "%s\ncables coloured by the busier direction's utilisation: grey idle, "
                                  "blue 30 %%, orange 60 %%, red 85 %%, dark red 100 %%\narrows: the sender "
                                  "waited for credits (PortXmitWait > 0), pointing down the congestion tree%s",
             run_name(summary, dir), with_hosts ? "" : "; adapters left out");
    dot_quote(fp, label);
    fprintf(fp, "];\n  node [fontsize=9, style=filled, fillcolor=\"#eeeeee\", color=\"#606060\"];\n");
    for (size_t i = 0; i < n; i++) {
        if (i && !strcmp(v[i].node, v[i - 1].node))
            continue;
        int h = is_host(hosts, v[i].node);
        if (h && !with_hosts)
            continue;
        fputs("  ", fp);
        dot_quote(fp, v[i].node);
        fprintf(fp, h ? " [shape=ellipse, fillcolor=white, width=0.3, height=0.2];\n" : " [shape=box];\n");
    }
    size_t edges = 0;
    for (size_t i = 0; i < n; i++) {
        const struct pend *a = &v[i], *b = find(v, n, a->peer, a->peer_port);
        if (b && pend_cmp(b, a) < 0)
            continue; /* drawn from the other end */
        if (!with_hosts && (is_host(hosts, a->node) || is_host(hosts, a->peer)))
            continue;
        double u = b && b->util > a->util ? b->util : a->util;
        int fwd = a->wait > 0, back = b && b->wait > 0;
        char colour[16];
        util_colour(u, colour, sizeof colour);
        fputs("  ", fp);
        dot_quote(fp, a->node);
        fputs(" -- ", fp);
        dot_quote(fp, a->peer);
        char tip[512];
        snprintf(tip, sizeof tip, "%s:%ld -> %s:%ld %.1f %%, %s:%ld -> %s:%ld %.1f %%", a->node, a->port, a->peer,
                 a->peer_port, 100 * a->util, a->peer, a->peer_port, a->node, a->port, b ? 100 * b->util : 0.0);
        fprintf(fp, " [color=\"%s\", penwidth=%.2f, dir=%s, tooltip=", colour, 1 + 4 * (u > 1 ? 1 : u),
                fwd && back ? "both" : fwd ? "forward" : back ? "back" : "none");
        dot_quote(fp, tip);
        fputs("];\n", fp);
        edges++;
    }
    fprintf(fp, "  // %zu nodes, %zu cables\n}\n", shown, edges);
    free(v);
    return out_close(o, e);
}

/* cmd_route_flows.c: `ibnetsim route flows SCENARIO`: which of a scenario's flows share each
 * link. The scenario's topology, routing and flows are built as `run` builds them; every flow's
 * route to each of its destinations (one host, a group, or every other host for uniform and
 * pattern traffic) is followed through the forwarding tables from its base LID, and each
 * directed link collects the flows that cross it and their expected share (a flow to N
 * destinations puts 1/N of its messages on each destination's route). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "config/scenario.h"
#include "core/output.h"
#include "fabric/build.h"
#include "routing/lft.h"

struct link_use {
    int nflows, cap, last; /* flows crossing it (indices into fabric.flows), last one added */
    int *flows;
    double share;          /* sum over its flows of the share of their messages on it */
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ibnetsim route flows SCENARIO [-s KEY=VALUE]... [-o CSV] [--top N]\n\n"
            "Builds the scenario's topology, routes and flows as `run` does, follows every\n"
            "flow's route (base LID) to each of its destinations (one host; a group, uniform\n"
            "or pattern traffic: each possible destination, with a share 1/N of the flow),\n"
            "and lists the links by the number of flows that cross them: the switch port,\n"
            "its LID and GUID, the peer, the flows and their summed share. -o writes every\n"
            "used link as CSV (link,node,port,lid,node_guid,peer,peer_port,flows,share,names;\n"
            "names separated by ';'). --top N: the N busiest links on the terminal (20).\n"
            "Exit status 1 when a route does not arrive.\n");
}

/* Follow the route from adapter port (node, port) to dlid; add flow fi with weight w to each
 * link. Returns 0, or -1 when the route does not arrive. */
static int walk(const struct topo *t, const struct lfts *l, const int *off, struct link_use *u,
                int node, int port, int dst_node, int dlid, int fi, double w)
{
    int out = port;
    for (int hop = 0; hop <= t->nnodes; hop++) {
        const struct topo_node *n = &t->node[node];
        if (n->type == TOPO_SWITCH) {
            if (node == dst_node)
                return 0;
            out = lft_port(l, node, dlid);
            if (out == LFT_NONE || out < 1 || out > n->nports || n->port[out].peer_node < 0)
                return -1;
        } else if (hop > 0) {
            return node == dst_node ? 0 : -1;
        }
        struct link_use *x = &u[off[node] + out];
        if (x->last != fi) {
            if (x->nflows == x->cap) {
                x->cap = x->cap ? 2 * x->cap : 4;
                x->flows = xrealloc(x->flows, (size_t)x->cap * sizeof *x->flows);
            }
            x->flows[x->nflows++] = fi;
            x->last = fi;
        }
        x->share += w;
        node = n->port[out].peer_node;
    }
    return -1;
}

static const struct link_use *sort_u;

static int by_use(const void *a, const void *b)
{
    const struct link_use *x = &sort_u[*(const int *)a], *y = &sort_u[*(const int *)b];
    if (x->nflows != y->nflows)
        return y->nflows - x->nflows;
    if (x->share != y->share)
        return x->share < y->share ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

int cmd_route_flows(int argc, char **argv)
{
    const char *scen = NULL, *csv = NULL;
    int top = 20, nover = 0;
    char **over = xcalloc((size_t)argc + 1, sizeof *over);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(over);
            return 0;
        } else if (!strcmp(a, "-s") && i + 1 < argc) {
            over[nover++] = argv[++i];
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            csv = argv[++i];
        } else if (!strcmp(a, "--top") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 1000000) {
                fprintf(stderr, "ibnetsim route flows: --top expects a whole number 0-1000000, "
                                "got \"%s\"\n", argv[i]);
                free(over);
                return 2;
            }
            top = (int)v;
        } else if (a[0] == '-' || scen) {
            fprintf(stderr, "ibnetsim route flows: unexpected argument \"%s\"\n\n", a);
            usage(stderr);
            free(over);
            return 2;
        } else {
            scen = a;
        }
    }
    if (!scen) {
        usage(stderr);
        free(over);
        return 2;
    }
    struct ibn_err e;
    struct scenario sc;
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    memset(&t, 0, sizeof t);
    memset(&l, 0, sizeof l);
    memset(&f, 0, sizeof f);
    int rc = scenario_load(scen, over, nover, &sc, &e);
    free(over);
    if (rc || scenario_topology(&sc, &t, &l, &e) || scenario_run_desc(&sc, &t, &d, &e) ||
        fabric_build(&f, &t, &l, &d, &e)) {
        fprintf(stderr, "ibnetsim route flows: %s\n", e.msg);
        fabric_free(&f);
        lfts_free(&l);
        topo_free(&t);
        scenario_free(&sc);
        return 2;
    }
    int *off = xmalloc(((size_t)t.nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t.nnodes; i++)
        off[i + 1] = off[i] + t.node[i].nports + 1;
    struct link_use *u = xcalloc((size_t)off[t.nnodes] + 1, sizeof *u);
    for (int k = 0; k < off[t.nnodes]; k++)
        u[k].last = -1;
    long long broken = 0;
    int *dst = xmalloc(((size_t)f.nhosts + 1) * sizeof *dst);
    for (uint32_t fi = 0; fi < f.nflows; fi++) {
        const struct flow *fl = &f.flows[fi];
        int nd = 0;
        if (fl->pattern == 0) {
            dst[nd++] = fl->dst_host;
        } else if (fl->pattern == 3) {
            for (int k = 0; k < fl->ndset; k++)
                if (fl->dset[k] != fl->src_host)
                    dst[nd++] = fl->dset[k];
        } else {
            for (int h = 0; h < f.nhosts; h++)
                if (h != fl->src_host)
                    dst[nd++] = h;
        }
        for (int k = 0; k < nd; k++) {
            const struct host *h = &f.hosts[dst[k]];
            if (walk(&t, &l, off, u, fl->src->node->index, fl->src->num, h->node->index,
                     h->port->lid, (int)fi, 1.0 / nd)) {
                if (!broken)
                    fprintf(stderr, "ibnetsim route flows: flow %s: the route to %s (LID %d) "
                                    "does not arrive\n", fl->name, h->node->name, h->port->lid);
                broken++;
            }
        }
    }
    int nused = 0;
    int *order = xmalloc(((size_t)off[t.nnodes] + 1) * sizeof *order);
    for (int k = 0; k < off[t.nnodes]; k++)
        if (u[k].nflows)
            order[nused++] = k;
    sort_u = u;
    qsort(order, (size_t)nused, sizeof *order, by_use);
    /* The node and port of link index k. */
    int *kn = xmalloc(((size_t)off[t.nnodes] + 1) * sizeof *kn);
    for (int i = 0; i < t.nnodes; i++)
        for (int p = 0; p <= t.node[i].nports; p++)
            kn[off[i] + p] = i;
    printf("%s: %u flows, %d links used%s; routes from each flow's base LID (%s)\n", scen,
           f.nflows, nused, broken ? "" : ", every route arrives",
           *sc.topo.lft_file ? sc.topo.lft_file : scenario_routing_engine(&sc.topo));
    int wl = 4;
    for (int j = 0; j < nused && j < top; j++) {
        const struct topo_node *n = &t.node[kn[order[j]]];
        int a = (int)strlen(n->alias ? n->alias : n->name) + 4;
        wl = a > wl ? a : wl;
    }
    if (nused && top)
        printf("%-*s %-5s %-18s %6s %8s  %s\n", wl, "link", "lid", "node_guid", "flows", "share",
               "flows (first 5)");
    for (int j = 0; j < nused && j < top; j++) {
        int k = order[j], i = kn[k], p = k - off[i];
        const struct topo_node *n = &t.node[i];
        char link[512];
        snprintf(link, sizeof link, "%s:%d", n->alias ? n->alias : n->name, p);
        int lid = n->type == TOPO_SWITCH ? n->port[0].lid : n->port[p].lid;
        printf("%-*s %-5d 0x%016" PRIx64 " %6d %8.3f  ", wl, link, lid, n->guid, u[k].nflows,
               u[k].share);
        for (int q = 0; q < u[k].nflows && q < 5; q++)
            printf("%s%s", q ? ", " : "", f.flows[u[k].flows[q]].name);
        printf("%s\n", u[k].nflows > 5 ? ", ..." : "");
    }
    int status = broken ? 1 : 0;
    if (broken)
        fprintf(stderr, "ibnetsim route flows: %lld routes do not arrive\n", broken);
    if (csv) {
        struct outfile *o = out_open(csv, &e);
        if (!o) {
            fprintf(stderr, "ibnetsim route flows: %s\n", e.msg);
            status = IBN_EXIT_OUTPUT;
        } else {
            fprintf(o->fp, "link,node,port,lid,node_guid,peer,peer_port,flows,share,names\n");
            for (int j = 0; j < nused; j++) {
                int k = order[j], i = kn[k], p = k - off[i];
                const struct topo_node *n = &t.node[i];
                const struct topo_node *m = &t.node[n->port[p].peer_node];
                csv_field_port(o->fp, n->name, p);
                fputc(',', o->fp);
                csv_field(o->fp, n->name);
                fprintf(o->fp, ",%d,%d,0x%016" PRIx64 ",", p,
                        n->type == TOPO_SWITCH ? n->port[0].lid : n->port[p].lid, n->guid);
                csv_field(o->fp, m->name);
                fprintf(o->fp, ",%d,%d,%.6g,", n->port[p].peer_port, u[k].nflows, u[k].share);
                size_t len = 0;
                for (int q = 0; q < u[k].nflows; q++)
                    len += strlen(f.flows[u[k].flows[q]].name) + 1;
                char *names = xmalloc(len + 1);
                names[0] = 0;
                for (int q = 0; q < u[k].nflows; q++) {
                    if (q)
                        strcat(names, ";");
                    strcat(names, f.flows[u[k].flows[q]].name);
                }
                csv_field(o->fp, names);
                fputc('\n', o->fp);
                free(names);
            }
            if (out_close(o, &e)) {
                fprintf(stderr, "ibnetsim route flows: %s\n", e.msg);
                status = IBN_EXIT_OUTPUT;
            }
        }
    }
    for (int k = 0; k < off[t.nnodes]; k++)
        free(u[k].flows);
    free(u), free(order), free(kn), free(off), free(dst);
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return status;
}

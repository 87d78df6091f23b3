/* cmd_topo.c: `ibnetsim topo`: generate a topology, convert a file, describe one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/topo_arg.h"
#include "core/output.h"
#include "routing/hoptab.h"
#include "topology/generate.h"
#include "topology/topo_metrics.h"
#include "topology/topo_write.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim topo generate NAME [KEY=VALUE,...] [--seed N] [--lmc N] [-o FILE]\n"
            "                                  [--guid2lid FILE]\n"
            "       ibnetsim topo convert TOPO [--lmc N] [-o FILE] [--guid2lid FILE]\n"
            "       ibnetsim topo describe TOPO [--seed N]\n"
            "       ibnetsim topo hosts|switches TOPO [--seed N]\n"
            "       ibnetsim topo list\n\n"
            "TOPO is a file (ibnetdiscover output or an ibsim net file, detected from its\n"
            "content) or gen:NAME[:KEY=VALUE,...] for a generator, e.g. gen:fattree:ports=36.\n\n"
            "generate  builds a topology with a generator and writes it in ibnetdiscover form\n"
            "          (stdout unless -o), which ibsim and OpenSM (through ibsim) load.\n"
            "convert   reads a file and writes it again in ibnetdiscover form; warnings about\n"
            "          skipped lines, loopback cables or disagreeing link ends go to stderr.\n"
            "describe  prints switches, hosts, links, link kinds, LIDs, diameter (links on the\n"
            "          longest shortest host-to-host path) and bisection width where defined.\n"
            "hosts     lists every host port: alias, port, LID (range with LMC), node and port\n"
            "          GUID, the switch port it is cabled to, the link, the full name. A scenario\n"
            "          or command may name a host or switch by name, alias, lid:N, GUID, H-/S- id\n"
            "          or unique description; groups: a comma list, a glob, switch:X, leaf:N.\n"
            "switches  lists every switch: alias, LID, GUID, ports, hosts on it, cabled ports.\n"
            "list      lists the generators and their arguments.\n"
            "--guid2lid FILE also writes OpenSM's guid2lid file so that OpenSM keeps the LIDs.\n"
            "--lmc N assigns every host port 2^N LIDs (LMC multipath); --seed N seeds the\n"
            "random generators (default 1).\n");
}

/* Give every CA port 2^lmc LIDs (all CA LIDs are assigned again); -1 leaves them. */
static int set_lmc(struct topo *t, int lmc)
{
    struct ibn_err e = { { 0 } };
    if (lmc >= 0 && topo_set_lmc(t, lmc, &e)) {
        fprintf(stderr, "ibnetsim topo: %s\n", e.msg);
        return -1;
    }
    return 0;
}

static int write_out(const struct topo *t, const char *out, const char *g2l)
{
    struct ibn_err e;
    struct outfile *o = NULL;
    if (out && !(o = out_open(out, &e))) {
        fprintf(stderr, "ibnetsim topo: %s\n", e.msg);
        return IBN_EXIT_OUTPUT;
    }
    topo_write_ibnetdiscover(o ? o->fp : stdout, t);
    if (out_close(o, &e)) {
        fprintf(stderr, "ibnetsim topo: %s\n", e.msg);
        return IBN_EXIT_OUTPUT;
    }
    if (g2l) {
        struct outfile *g = out_open(g2l, &e);
        if (g)
            topo_write_guid2lid(g->fp, t);
        if (!g || out_close(g, &e)) {
            fprintf(stderr, "ibnetsim topo: %s\n", e.msg);
            return IBN_EXIT_OUTPUT;
        }
    }
    return 0;
}

static int describe(const struct topo *t)
{
    printf("source: %s\n", t->source ? t->source : "?");
    printf("switches: %d\n", topo_count(t, TOPO_SWITCH));
    printf("hosts: %d\n", topo_count(t, TOPO_CA));
    int isl = 0, hostlinks = 0, loops = 0;
    /* Link kinds. */
    char kinds[16][24];
    int kcount[16], nk = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 1; p <= t->node[i].nports; p++) {
            const struct topo_port *x = &t->node[i].port[p];
            int q = x->peer_node;
            if (q < i || (q == i && x->peer_port < p))
                continue;
            if (q == i)
                loops++;
            else if (t->node[i].type == TOPO_SWITCH && t->node[q].type == TOPO_SWITCH)
                isl++;
            else
                hostlinks++;
            char k[24];
            if (x->rate_bps > 0)
                snprintf(k, sizeof k, "%.4g Gb/s", x->rate_bps / 1e9);
            else
                ib_format_width_speed(x->width, (enum ib_speed)x->speed, k, sizeof k);
            int j;
            for (j = 0; j < nk; j++)
                if (!strcmp(kinds[j], k))
                    break;
            if (j == nk && nk < 16) {
                snprintf(kinds[nk], sizeof kinds[nk], "%s", k);
                kcount[nk++] = 0;
            }
            if (j < 16)
                kcount[j]++;
        }
    printf("links: %d (switch-switch %d, host %d, loopback %d)\n", isl + hostlinks + loops, isl,
           hostlinks, loops);
    printf("link kinds:");
    for (int j = 0; j < nk; j++)
        printf(" %s x%d", kinds[j], kcount[j]);
    printf("\n");
    printf("max LID: %d\n", topo_max_lid(t));
    printf("diameter: %d links between hosts\n", topo_diameter(t));
    long b = topo_bisection_links(t);
    if (b >= 0)
        printf("bisection: %ld links\n", b);
    else
        printf("bisection: not defined for this topology\n");
    return 0;
}

/* The link of a port as ibnetdiscover writes it (4xQDR) or its abstract rate. */
static void link_label(const struct topo_port *x, char *out, size_t len)
{
    if (x->rate_bps > 0)
        snprintf(out, len, "%.4g Gb/s", x->rate_bps / 1e9);
    else
        ib_format_width_speed(x->width, (enum ib_speed)x->speed, out, len);
}

static const char *alias_of(const struct topo *t, int i)
{
    return t->node[i].alias ? t->node[i].alias : t->node[i].name;
}

/* `topo hosts` / `topo switches`: one line per CA port or per switch, aligned columns, the
 * (possibly long) name last. */
static int list_nodes(const struct topo *t, enum topo_node_type type)
{
    int wa = 5, wc = 10;
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != type)
            continue;
        int a = (int)strlen(alias_of(t, i));
        wa = a > wa ? a : wa;
        for (int p = 1; p <= t->node[i].nports && type == TOPO_CA; p++) {
            int q = t->node[i].port[p].peer_node;
            if (q >= 0) {
                int c = (int)strlen(alias_of(t, q)) + 4;
                wc = c > wc ? c : wc;
            }
        }
    }
    if (type == TOPO_CA) {
        printf("%-*s %-4s %-11s %-18s %-18s %-*s %-8s %s\n", wa, "alias", "port", "lid",
               "node_guid", "port_guid", wc, "cabled_to", "link", "name");
        for (int i = 0; i < t->nnodes; i++) {
            const struct topo_node *n = &t->node[i];
            if (n->type != TOPO_CA)
                continue;
            for (int p = 1; p <= n->nports; p++) {
                const struct topo_port *x = &n->port[p];
                if (x->peer_node < 0)
                    continue;
                char lid[24], to[300], link[24];
                if (x->lmc)
                    snprintf(lid, sizeof lid, "%d-%d", x->lid, x->lid + (1 << x->lmc) - 1);
                else
                    snprintf(lid, sizeof lid, "%d", x->lid);
                snprintf(to, sizeof to, "%s:%d", alias_of(t, x->peer_node), x->peer_port);
                link_label(x, link, sizeof link);
                printf("%-*s %-4d %-11s 0x%016" PRIx64 " 0x%016" PRIx64 " %-*s %-8s %s\n", wa,
                       alias_of(t, i), p, lid, n->guid, x->guid, wc, to, link, n->name);
            }
        }
        return 0;
    }
    printf("%-*s %-5s %-18s %-5s %-5s %-6s %s\n", wa, "alias", "lid", "node_guid", "ports",
           "hosts", "cabled", "name");
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type != TOPO_SWITCH)
            continue;
        int hosts = 0, cabled = 0;
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            cabled += q >= 0;
            hosts += q >= 0 && t->node[q].type == TOPO_CA;
        }
        printf("%-*s %-5d 0x%016" PRIx64 " %-5d %-5d %-6d %s\n", wa, alias_of(t, i), n->port[0].lid,
               n->guid, n->nports, hosts, cabled, n->name);
    }
    return 0;
}

int cmd_topo(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1], *out = NULL, *g2l = NULL;
    uint64_t seed = 1;
    int lmc = -1;
    const char *pos[2] = { NULL, NULL };
    int npos = 0;
    char genargs[1024] = "";
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--guid2lid") && i + 1 < argc)
            g2l = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--lmc") && i + 1 < argc) {
            lmc = atoi(argv[++i]);
            if (lmc < 0 || lmc > 7) {
                fprintf(stderr, "ibnetsim topo: --lmc expects 0 to 7\n");
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ibnetsim topo: unknown option %s (or it lacks its value)\n", argv[i]);
            return 2;
        } else if (npos < 2)
            pos[npos++] = argv[i];
        else if (!strcmp(sub, "generate") && strchr(argv[i], '=')) {
            /* generate NAME k=v k=v ...: further arguments join the first. */
            if (!genargs[0])
                snprintf(genargs, sizeof genargs, "%s", pos[1]);
            size_t k = strlen(genargs);
            snprintf(genargs + k, sizeof genargs - k, ",%s", argv[i]);
            pos[1] = genargs;
        } else {
            fprintf(stderr, "ibnetsim topo: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    struct ibn_err e = { { 0 } };
    struct topo t;
    if (!strcmp(sub, "list")) {
        for (int i = 0; topo_generators[i]; i++)
            printf("%-14s %s\n", topo_generators[i]->name, topo_generators[i]->usage);
        return 0;
    }
    if (!strcmp(sub, "generate")) {
        if (!pos[0]) {
            fprintf(stderr, "ibnetsim topo generate: expected a generator name "
                    "(see 'ibnetsim topo list')\n");
            return 2;
        }
        if (topo_generate(pos[0], pos[1] ? pos[1] : "", seed, &t, &e)) {
            fprintf(stderr, "ibnetsim topo generate: %s\n", e.msg);
            return 2;
        }
        if (set_lmc(&t, lmc)) {
            topo_free(&t);
            return 2;
        }
        int rc = write_out(&t, out, g2l);
        topo_free(&t);
        return rc;
    }
    if (!strcmp(sub, "convert") || !strcmp(sub, "describe") || !strcmp(sub, "hosts") ||
        !strcmp(sub, "switches")) {
        if (!pos[0] || pos[1]) {
            fprintf(stderr, "ibnetsim topo %s: expected one topology (a file or gen:NAME:ARGS)\n",
                    sub);
            return 2;
        }
        if (topo_arg_load(pos[0], seed, &t, &e)) {
            fprintf(stderr, "ibnetsim topo %s: %s\n", sub, e.msg);
            return 2;
        }
        topo_arg_warnings(&t);
        if (set_lmc(&t, lmc)) {
            topo_free(&t);
            return 2;
        }
        int rc = !strcmp(sub, "convert")    ? write_out(&t, out, g2l)
                 : !strcmp(sub, "hosts")    ? list_nodes(&t, TOPO_CA)
                 : !strcmp(sub, "switches") ? list_nodes(&t, TOPO_SWITCH)
                                            : describe(&t);
        topo_free(&t);
        return rc;
    }
    fprintf(stderr, "ibnetsim topo: unknown subcommand \"%s\" (expected generate, convert, "
            "describe, hosts, switches or list)\n", sub);
    return 2;
}

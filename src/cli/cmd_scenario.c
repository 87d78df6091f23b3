/* cmd_scenario.c: `ibnetsim scenario hotspot TOPO [options]`: the victim/contributor scenario
 * builder. From any topology it picks a hot spot, contributors on other switches that send to
 * it (so that a congestion tree forms back through the fabric), and victims that share the
 * contributors' first switch but send to another host on the hot spot's switch (so that they
 * cross the congested part of the tree without adding to the root), as in seed 002's testbed
 * scenario 1; and writes a complete, commented scenario to edit and run. Choices are
 * reproducible from --seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/topo_arg.h"
#include "core/output.h"
#include "core/rng.h"
#include "core/units.h"
#include "topology/topo_addr.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim scenario hotspot TOPO [--hotspot HOST] [--contributors N] [--victims N]\n"
            "                                 [--stagger TIME] [--duration TIME] [--msg-size SIZE]\n"
            "                                 [--inject RATE] [--sink RATE] [--seed N] [-o FILE]\n\n"
            "Writes a victim/contributor scenario for TOPO (a topology file, or gen:NAME[:ARGS]):\n"
            "  --hotspot HOST     the hot spot (default: the last host)\n"
            "  --contributors N   hosts saturating the hot spot (default 4): on the victims' switches\n"
            "                     first, then round robin over the other switches, then on the hot\n"
            "                     spot's own switch; added one per --stagger\n"
            "  --victims N        hosts on other switches sending to another host on the hot spot's\n"
            "                     switch, through the contributors' links, from time 0 (default 1)\n"
            "  --stagger TIME     interval between contributors' starts (default 1 ms)\n"
            "  --duration TIME    run length (default: 1 stagger after the last contributor starts)\n"
            "  --msg-size SIZE    message size (default 64 KiB); --inject/--sink host limits\n"
            "  -o FILE            write to FILE instead of standard output\n");
}

/* The switch a host hangs off. */
/* A host as the scenario names it: its alias (unique, stable, short), else its name. */
#define NAME_OF(i) (t.node[i].alias ? t.node[i].alias : t.node[i].name)

/* End a flow's line with the node descriptions of its source and destination, when the
 * aliases are not already the descriptions. */
static void describe(FILE *o, const struct topo *t, int src, int dst)
{
    const struct topo_node *a = &t->node[src], *b = &t->node[dst];
    if ((a->alias && strcmp(a->alias, a->name)) || (b->alias && strcmp(b->alias, b->name)))
        fprintf(o, "  # %s -> %s", a->name, b->name);
    fputc('\n', o);
}

static int host_switch(const struct topo *t, int h)
{
    for (int p = 1; p <= t->node[h].nports; p++)
        if (t->node[h].port[p].peer_node >= 0)
            return t->node[h].port[p].peer_node;
    return -1;
}

int cmd_scenario(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "hotspot")) {
        int help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
        usage(help ? stdout : stderr);
        return help ? 0 : 2;
    }
    const char *spec = argv[2], *hot_name = NULL, *out = NULL, *msg = "64 KiB";
    const char *inject = "", *sink = "";
    int ncontrib = 4, nvict = 1;
    long long seed = 1;
    simtime_t stagger = PS_PER_MS, duration = 0;
    char why[256];
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "ibnetsim scenario: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--hotspot"))
            hot_name = v;
        else if (!strcmp(a, "--contributors"))
            ncontrib = atoi(v);
        else if (!strcmp(a, "--victims"))
            nvict = atoi(v);
        else if (!strcmp(a, "--seed"))
            seed = atoll(v);
        else if (!strcmp(a, "--msg-size"))
            msg = v;
        else if (!strcmp(a, "--inject"))
            inject = v;
        else if (!strcmp(a, "--sink"))
            sink = v;
        else if (!strcmp(a, "-o"))
            out = v;
        else if (!strcmp(a, "--stagger") || !strcmp(a, "--duration")) {
            if (units_parse_time(v, !strcmp(a, "--stagger") ? &stagger : &duration, why, sizeof why)) {
                fprintf(stderr, "ibnetsim scenario: %s: %s\n", a, why);
                return 2;
            }
        } else {
            fprintf(stderr, "ibnetsim scenario: unknown option %s\n\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (ncontrib < 1 || nvict < 0) {
        fprintf(stderr, "ibnetsim scenario: --contributors must be at least 1, --victims at least 0\n");
        return 2;
    }
    struct topo t;
    struct ibn_err e;
    if (topo_arg_load(spec, (uint64_t)seed, &t, &e)) {
        fprintf(stderr, "ibnetsim scenario: %s\n", e.msg);
        return 2;
    }
    topo_assign_aliases(&t);
    int nh = 0, *hosts = xmalloc((size_t)t.nnodes * sizeof *hosts);
    for (int i = 0; i < t.nnodes; i++)
        if (t.node[i].type == TOPO_CA && host_switch(&t, i) >= 0)
            hosts[nh++] = i;
    if (nh < 2) {
        fprintf(stderr, "ibnetsim scenario: %s has %d host(s) cabled to a switch: a hot-spot "
                        "scenario needs at least 2\n", spec, nh);
        free(hosts);
        topo_free(&t);
        return 2;
    }
    int hot = hosts[nh - 1];
    if (hot_name) {
        hot = topo_find(&t, hot_name);
        if (hot < 0 || t.node[hot].type != TOPO_CA) {
            fprintf(stderr, "ibnetsim scenario: --hotspot %s is not a host of %s\n", hot_name, spec);
            free(hosts);
            topo_free(&t);
            return 2;
        }
    }
    int hot_sw = host_switch(&t, hot);
    /* Candidates: hosts on other switches, shuffled reproducibly, then taken round robin over
     * their switches so that contributors come from as many switches as possible. */
    int *cand = xmalloc((size_t)nh * sizeof *cand), nc = 0;
    for (int i = 0; i < nh; i++)
        if (host_switch(&t, hosts[i]) != hot_sw)
            cand[nc++] = hosts[i];
    gsl_rng *r = rng_stream((uint64_t)seed, "scenario/hotspot");
    for (int i = nc - 1; i > 0; i--) {
        int j = (int)gsl_rng_uniform_int(r, (unsigned long)i + 1), x = cand[i];
        cand[i] = cand[j];
        cand[j] = x;
    }
    gsl_rng_free(r);
    int *used = xcalloc((size_t)t.nnodes, sizeof *used), *contrib = xmalloc((size_t)nh * sizeof *contrib), k = 0;
    int *sw_used = xcalloc((size_t)t.nnodes, sizeof *sw_used);
    int *vict = xmalloc((size_t)nh * sizeof *vict), nv = 0, *vdst = xmalloc((size_t)nh * sizeof *vdst);
    int *dsts = xmalloc((size_t)nh * sizeof *dsts), nd = 0;
    used[hot] = 1;
    /* 1. Victims' destinations: another host on the hot spot's switch. */
    for (int i = 0; i < nh && nvict > 0 && nd < 1; i++)
        if (host_switch(&t, hosts[i]) == hot_sw && !used[hosts[i]]) {
            used[hosts[i]] = 1;
            dsts[nd++] = hosts[i];
        }
    /* 2. Victims: one host on each of several other switches that has room for contributors too. */
    for (int i = 0; i < nc && nv < nvict && nd; i++) {
        int s = host_switch(&t, cand[i]), others = 0;
        for (int j = 0; j < nc; j++)
            others += host_switch(&t, cand[j]) == s && !used[cand[j]];
        if (sw_used[s] || others < 2)
            continue;
        used[cand[i]] = 1;
        sw_used[s] = 1;
        vict[nv] = cand[i];
        vdst[nv] = dsts[0];
        nv++;
    }
    /* 3. Contributors: round robin over the other switches (victims' switches first), then
     *    hosts on the hot spot's switch (their own inputs there: the parking lot). */
    memset(sw_used, 0, (size_t)t.nnodes * sizeof *sw_used);
    for (int v = 0; v < nv && k < ncontrib; v++)
        for (int i = 0; i < nc && k < ncontrib; i++)
            if (!used[cand[i]] && host_switch(&t, cand[i]) == host_switch(&t, vict[v])) {
                used[cand[i]] = 1;
                sw_used[host_switch(&t, cand[i])]++;
                contrib[k++] = cand[i];
                break;
            }
    for (int round = 0; k < ncontrib && round < nh; round++)
        for (int i = 0; i < nc && k < ncontrib; i++) {
            int s = host_switch(&t, cand[i]);
            if (used[cand[i]] || sw_used[s] > round)
                continue;
            used[cand[i]] = 1;
            sw_used[s]++;
            contrib[k++] = cand[i];
        }
    for (int i = 0; i < nh && k < ncontrib; i++)
        if (!used[hosts[i]] && host_switch(&t, hosts[i]) == hot_sw) {
            used[hosts[i]] = 1;
            contrib[k++] = hosts[i];
        }
    if (k < ncontrib)
        fprintf(stderr, "ibnetsim scenario: only %d hosts are free to contribute; using %d\n", k, k);
    ncontrib = k;
    if (!ncontrib && !nv) {
        fprintf(stderr, "ibnetsim scenario: no host of %s can send to the hot spot %s (every "
                        "other host is on its switch and none was asked for): nothing to write\n",
                spec, t.node[hot].name);
        free(hosts), free(cand), free(used), free(contrib), free(sw_used), free(vict),
            free(vdst), free(dsts), topo_free(&t);
        return 2;
    }
    if (nv < nvict)
        fprintf(stderr, "ibnetsim scenario: found %d victim(s) (a victim needs a host on another "
                        "switch with room for a contributor, and another host on the hot spot's switch)\n", nv);
    if (!duration)
        duration = stagger * (ncontrib + 1);
    struct ibn_err oe;
    struct outfile *of = NULL;
    if (out && !(of = out_open(out, &oe))) {
        fprintf(stderr, "ibnetsim scenario: %s\n", oe.msg);
        free(hosts), free(cand), free(used), free(contrib), free(sw_used), free(vict),
            free(vdst), free(dsts), topo_free(&t);
        return IBN_EXIT_OUTPUT;
    }
    FILE *o = of ? of->fp : stdout;
    char dur[64], stag[64];
    units_format_time(duration, dur, sizeof dur);
    units_format_time(stagger, stag, sizeof stag);
    fprintf(o, "# Victim/contributor scenario written by `ibnetsim scenario hotspot %s` (seed %lld).\n", spec, seed);
    fprintf(o, "# Hot spot %s (%s); %d contributors on other switches, one added every %s; %d victim(s)\n"
               "# sending to another host on the hot spot's switch through the same congested links.\n",
            NAME_OF(hot), t.node[hot].name, ncontrib, stag, nv);
    fprintf(o, "# Hosts are named by their aliases (`ibnetsim topo hosts %s` lists them); the\n"
               "# comment after each flow gives their node descriptions.\n", spec);
    fprintf(o, "simulation = { duration = \"%s\"; sample_interval = \"%s\"; };\n", dur,
            stagger >= 100 * PS_PER_US ? "100 us" : "10 us");
    if (!strncmp(spec, "gen:", 4)) {
        char name[128] = "", args[512] = "";
        sscanf(spec + 4, "%127[^:]:%511[^\n]", name, args);
        fprintf(o, "topology = { generator = \"%s\"; args = \"%s\"; };\n", name, args);
    } else {
        fprintf(o, "topology = { file = \"%s\"; };\n", spec);
    }
    if (*inject || *sink)
        fprintf(o, "hca = { inject_limit = \"%s\"; sink_limit = \"%s\"; };\n", *inject ? inject : "0 Gb/s",
                *sink ? sink : "0 Gb/s");
    fprintf(o, "output = { contributors = \"");
    for (int c = 0; c < ncontrib; c++)
        fprintf(o, "%sC%d", c ? "," : "", c + 1);
    fprintf(o, "\"; };\nflows = (\n");
    for (int v = 0; v < nv; v++) {
        fprintf(o, "  { name = \"V%d\"; src = \"%s\"; dst = \"%s\"; kind = \"saturate\"; msg_size = \"%s\"; },",
                v + 1, NAME_OF(vict[v]), NAME_OF(vdst[v]), msg);
        describe(o, &t, vict[v], vdst[v]);
    }
    for (int c = 0; c < ncontrib; c++) {
        char st[64];
        units_format_time(stagger * c, st, sizeof st);
        fprintf(o, "  { name = \"C%d\"; src = \"%s\"; dst = \"%s\"; kind = \"saturate\"; msg_size = \"%s\"; "
                   "start = \"%s\"; }%s", c + 1, NAME_OF(contrib[c]), NAME_OF(hot), msg, st,
                c + 1 < ncontrib ? "," : "");
        describe(o, &t, contrib[c], hot);
    }
    fprintf(o, ");\n");
    int status = 0;
    if (out_close(of, &oe)) {
        fprintf(stderr, "ibnetsim scenario: %s\n", oe.msg);
        status = IBN_EXIT_OUTPUT;
    }
    free(hosts);
    free(cand);
    free(used);
    free(contrib);
    free(sw_used);
    free(vict);
    free(vdst);
    free(dsts);
    topo_free(&t);
    return status;
}

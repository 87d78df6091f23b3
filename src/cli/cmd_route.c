/* cmd_route.c: `ibnetsim route`: compute routes with an engine, dump them in OpenSM's format,
 * check tables (validity, hop counts, routes per port, deadlock, OpenSM's min-hop tables) and
 * compare two dumps. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/topo_arg.h"
#include "core/output.h"
#include "routing/lft_build.h"
#include "routing/lft_dump.h"
#include "routing/mft_dump.h"
#include "routing/pathbits.h"
#include "routing/route.h"
#include "routing/route_check.h"
#include "routing/torus2qos.h"
#include "topology/linkspeed.h"
#include "topology/topo_addr.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim route compute TOPO [-e ENGINE | --lfts DUMP] [options] [-o LFT_DUMP]\n"
            "                            [--mcast MLID:HOSTS]... [--mfts MFT_DUMP]\n"
            "       ibnetsim route check TOPO (-e ENGINE [options] | --lfts LFT_DUMP)\n"
            "                            [--lid-matrix FILE] [--compare LFT_DUMP]\n"
            "                            [--deadlock-free] [--ports CSV]\n"
            "       ibnetsim route diff TOPO LFT_DUMP_A LFT_DUMP_B\n"
            "       ibnetsim route flows SCENARIO [-s KEY=VALUE]... [-o CSV] [--top N]\n"
            "       ibnetsim route trace TOPO SRC DST [-e ENGINE | --lfts DUMP] [--sl N]\n"
            "                            [--offset K]\n"
            "       ibnetsim route pathbits TOPO [--roots SWITCH] [--path-bits K] [--slack N]\n"
            "                            [--table SWITCH]\n"
            "       ibnetsim route list\n\n"
            "TOPO is a topology file or gen:NAME[:KEY=VALUE,...] (see 'ibnetsim topo --help').\n\n"
            "ENGINE is one engine or a chain as OpenSM's -R (ftree,updn): tried in order, an\n"
            "engine that cannot route the fabric (ftree on a non-tree, updn without a root)\n"
            "passes to the next, minhop last; the note names the engine that routed.\n\n"
            "compute  routes with ENGINE (default minhop) and writes the forwarding tables as\n"
            "         OpenSM's opensm-lfts.dump (to -o, else stdout); OpenSM loads it with\n"
            "         '-R file -U LFT_DUMP'. With --lfts DUMP instead of an engine it imports\n"
            "         a dump and writes it again (LIDs translated to the topology's by GUID).\n"
            "         --mcast MLID:HOSTS (repeatable, e.g. 0xC000:H1,H4,H9) adds a multicast\n"
            "         group and --mfts FILE writes the multicast forwarding tables OpenSM\n"
            "         installs for those groups (its spanning tree per MLID over the engine's\n"
            "         hop counts: minhop, dor, updn) in the form of OpenSM's dump opensm.mcfdbs\n"
            "         (-D 0x40); with --mfts DUMP and no --mcast it reads a dump and writes it\n"
            "         again. Each host's first cabled port is its member port.\n"
            "check    follows every host-to-host route of the engine's tables or of a dump\n"
            "         (such as the opensm-lfts.dump OpenSM wrote) and prints: validity (every\n"
            "         route reaches its destination without a loop), hop counts, the most\n"
            "         routes on any switch port, and the channel-dependency deadlock check with\n"
            "         the cycle it finds. --lid-matrix compares the hop tables (min-hop, or updn's\n"
            "         legal-path table with -e updn) with OpenSM's opensm-lid-matrix.dump;\n"
            "         --compare reports how many entries differ\n"
            "         from another dump and both route-per-port maxima. Exit status 1 when a\n"
            "         route fails, a min-hop row differs, or (with --deadlock-free) on a cycle.\n"
            "         --ports CSV writes the routes leaving every cabled switch port.\n"
            "diff     compares two dumps entry by entry for every switch and LID in use.\n"
            "flows    a scenario's flows on each link: the links by the number of flows that\n"
            "         cross them (switch port, LID, GUID, flows, their share); 'route flows\n"
            "         --help' says more.\n"
            "trace    the path from SRC to DST through the tables, like ibtracert: every hop's\n"
            "         node, LID, GUID, input and output port and link; the DLID (base LID +\n"
            "         --offset K with LMC), SL and VL. SRC and DST: a name, alias, lid:N, GUID,\n"
            "         H-/S- id or unique description ('ibnetsim topo hosts'). Exit 1 when the\n"
            "         tables do not lead there.\n"
            "pathbits seed 004's path bits: the cycles (one per non-tree edge of a BFS tree from\n"
            "         --roots, default the switch of highest degree), the cycles through each\n"
            "         switch and its multipath table size (2^k x destinations), the paths,\n"
            "         fallbacks and conflicts; --table prints one switch's table with X bits.\n"
            "         --path-bits K keeps the first K cycles (the engine's LMC-limited form);\n"
            "         --slack N enumerates paths up to shortest + N hops (default 4, -1 all).\n"
            "list     lists the engines.\n\n"
            "options: --roots R (updn, updn_tree: switch names or GUIDs, comma-separated;\n"
            "         'best3'), --guid-routing-order FILE or -X FILE (minhop, updn, dnup, dor: OpenSM's\n"
            "         guid_routing_order_file: the port GUIDs it lists, one a line, are routed\n"
            "         first, in its order; GUIDs of no port are skipped, as OpenSM does, and the\n"
            "         note says so), --port-shifting (minhop, updn, dnup, dor: OpenSM's port_shifting),\n"
            "         --scatter-ports SEED (minhop, updn, dnup, dor: OpenSM's scatter_ports: a random\n"
            "         least-loaded port for each base LID, drawn as OpenSM draws it),\n"
            "         --guid-routing-order-no-scatter (OpenSM's: the -X ports are not scattered),\n"
            "         --ignore-guids FILE (OpenSM's -i port_prof_ignore_file: lines 'SWITCH-GUID\n"
            "         PORT' whose routes are not counted when balancing), --cn-guids FILE or -u FILE\n"
            "         and --io-guids FILE or -G FILE (ftree, sssp, dfsssp: OpenSM's cn_guid_file and\n"
            "         io_guid_file: compute nodes first, I/O nodes after), --tie lowest|highest|balance (spf), --max-vls N (dfsssp, default\n"
            "         8; torus-2QoS: the switches' data VLs, 2, 4 or 8 as OpenSM uses them),\n"
            "         --torus-config FILE (torus-2QoS: OpenSM's torus-2QoS.conf; without it the\n"
            "         torus is derived from S<x>_<y>[_<z>] switch names), --sl2vl FILE (compute,\n"
            "         torus-2QoS: the SL2VL tables it programs, as OpenSM's opensm-sl2vl.dump),\n"
            "         --lmc N\n"
            "         (reassign host LIDs with 2^N per port), --seed N (generators).\n");
}

struct opts {
    const char *sub, *topo, *engine, *out, *lfts, *lidm, *compare, *dump_a, *dump_b, *ports;
    const char *table, *mfts, *sl2vl;
    const char *mcast[64];
    int nmcast;
    int lmc, deadlock_free, sl, offset;
    uint64_t seed;
    struct route_opts ro;
};

/* `route pathbits`: the analysis of seed 004's path bits. */
static int do_pathbits(const struct opts *o, const struct topo *t)
{
    struct pathbits pb;
    struct ibn_err e = { { 0 } };
    if (pathbits_build(t, o->ro.roots, o->ro.path_bits,
                       o->ro.path_slack ? o->ro.path_slack : PB_SLACK_DEFAULT, &pb, &e)) {
        fprintf(stderr, "ibnetsim route pathbits: %s\n", e.msg);
        return 2;
    }
    printf("switches %d, links %d, independent cycles %d, path bits %d (root %s)\n", pb.nsw,
           pb.nedges, pb.nback_all, pb.ncycles, t->node[pb.node[pb.root]].name);
    if (pb.ncycles > PB_LMC_MAX)
        printf("note: %d path bits do not fit IBA's LMC (at most %d): the engine needs "
               "path_bits <= %d\n", pb.ncycles, PB_LMC_MAX, PB_LMC_MAX);
    for (int c = 0; c < pb.ncycles; c++) {
        printf("C%d:", c + 1);
        for (int i = 0; i <= pb.cyc_len[c]; i++)
            printf(" %s", t->node[pb.node[pb.cyc[c][i]]].name);
        printf("\n");
    }
    long total = 0;
    for (int v = 0; v < pb.nsw; v++) {
        long n = pathbits_entries_per_dest(&pb, v) * pb.nsw;
        total += n;
        printf("%s: on %d cycle%s (", t->node[pb.node[v]].name, pb.nloc[v], pb.nloc[v] == 1 ? "" : "s");
        for (int c = 0, first = 1; c < pb.ncycles; c++)
            if (pb.on[v] >> c & 1) {
                printf("%sC%d", first ? "" : " ", c + 1);
                first = 0;
            }
        printf("), table %d x 2^%d = %ld entries\n", pb.nsw, pb.nloc[v], n);
    }
    printf("table entries in all: %ld; simple paths %ld (%ld with an undefined union), entries "
           "from the shortest path %ld, conflicts resolved %ld, walks verified %ld\n", total,
           pb.npaths, pb.undefined, pb.unset, pb.conflicts, pb.walks);
    int rc = 0;
    if (o->table) {
        int v = pathbits_vertex(&pb, t, o->table);
        if (v < 0) {
            fprintf(stderr, "ibnetsim route pathbits: --table %s is not a switch\n", o->table);
            rc = 2;
        } else {
            /* One line per destination and local pattern; the bits of the other cycles X. */
            for (int d = 0; d < pb.nsw; d++) {
                if (d == v)
                    continue;
                for (uint32_t q = 0; q < 1u << pb.nloc[v]; q++) {
                    char bits[PB_MAX_CYCLES + 1];
                    uint64_t P = 0;
                    for (int c = 0, j = 0; c < pb.ncycles; c++) {
                        int mine = (int)(pb.on[v] >> c & 1);
                        bits[c] = mine ? (char)('0' + (q >> j & 1)) : 'X';
                        if (mine)
                            P |= (uint64_t)(q >> j++ & 1) << c;
                    }
                    bits[pb.ncycles] = 0;
                    int w = pathbits_next(&pb, v, d, P);
                    int port = 0;
                    for (int k = 0; k < pb.deg[v]; k++)
                        if (pb.adj[v * pb.maxdeg + k] == w)
                            port = pb.adjport[v * pb.maxdeg + k];
                    size_t at = ((size_t)d << pb.nloc[v]) | q;
                    printf("  %s %s -> port %d%s\n", t->node[pb.node[d]].name, bits, port,
                           pb.tab_spf[v][at] ? " (shortest path)" : "");
                }
            }
        }
    }
    pathbits_free(&pb);
    return rc;
}

static int get_tables(struct opts *o, const struct topo *t, struct lfts *l, struct ibn_err *e)
{
    if (o->lfts)
        return lft_dump_read(o->lfts, t, l, e);
    return route_compute(t, o->engine, &o->ro, l, e);
}

/* `route compute --mcast MLID:HOSTS... --mfts FILE`: OpenSM's multicast spanning trees for
 * the groups over the engine's hop counts, written as OpenSM's opensm.mcfdbs; or, with --mfts
 * and no group, a dump read and written again. */
static int do_mfts(const struct opts *o, const struct topo *t)
{
    struct ibn_err e = { { 0 } };
    const char *out = o->mfts ? o->mfts : "/dev/stdout";
    struct mfts m;
    if (!o->nmcast) {
        if (mft_dump_read(o->mfts, t, &m, &e)) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            return 2; /* bad input: the message names it */
        }
        int rc = 0;
        if (mft_dump_write("/dev/stdout", t, &m, &e)) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            rc = e.output ? IBN_EXIT_OUTPUT : IBN_EXIT_BROKEN;
        }
        mfts_free(&m);
        return rc;
    }
    if (o->lfts || (strcmp(o->engine, "minhop") && strcmp(o->engine, "dor") &&
                    strcmp(o->engine, "updn"))) {
        fprintf(stderr, "ibnetsim route compute: --mcast builds OpenSM's spanning tree over the "
                "hop counts of minhop, dor or updn (-e); %s is not one of them\n",
                o->lfts ? "an imported dump" : o->engine);
        return 2;
    }
    struct hoptab h;
    if (!strcmp(o->engine, "updn")) {
        char note[256];
        int r = updn_hoptab(t, &o->ro, &h, note, sizeof note, &e);
        if (r < 0) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            return 2; /* bad input: the message names it */
        }
    } else {
        hoptab_init(&h, t);
        hoptab_minhop(&h, t);
    }
    mfts_init(&m, t, MLID_FIRST);
    int rc = 0;
    for (int g = 0; g < o->nmcast && !rc; g++) {
        const char *spec = o->mcast[g], *colon = strchr(spec, ':');
        char *end;
        long mlid = colon ? strtol(spec, &end, 0) : 0;
        if (!colon || end != colon || !lid_is_mcast((int)mlid)) {
            fprintf(stderr, "ibnetsim route compute: --mcast %s: expected MLID:HOSTS with an MLID "
                    "in 0x%04X-0x%04X, e.g. 0xC000:H1,H4\n", spec, MLID_FIRST, MLID_LAST);
            rc = 2;
            break;
        }
        for (int j = 0; j < g; j++)
            if (strtol(o->mcast[j], NULL, 0) == mlid) {
                fprintf(stderr, "ibnetsim route compute: --mcast %s: MLID 0x%04lX given twice\n",
                        spec, mlid);
                rc = 2;
            }
        if (rc)
            break;
        int *nodes, n = topo_host_set(t, colon + 1, &nodes, &e);
        if (n < 0) {
            fprintf(stderr, "ibnetsim route compute: --mcast %s: %s\n", spec, e.msg);
            rc = 2;
            break;
        }
        struct ca_port *mb = xmalloc(((size_t)n + 1) * sizeof *mb);
        int nm = 0;
        for (int k = 0; k < n; k++)
            for (int p = 1; p <= t->node[nodes[k]].nports; p++)
                if (t->node[nodes[k]].port[p].peer_node >= 0) {
                    mb[nm++] = (struct ca_port){ nodes[k], p };
                    break;
                }
        if (mft_opensm_tree(&m, t, &h, (int)mlid, mb, nm, &e)) {
            fprintf(stderr, "ibnetsim route compute: --mcast %s: %s\n", spec, e.msg);
            rc = 1;
        }
        free(mb);
        free(nodes);
    }
    if (!rc && mft_dump_write(out, t, &m, &e)) {
        fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
        rc = e.output ? IBN_EXIT_OUTPUT : IBN_EXIT_BROKEN;
    }
    mfts_free(&m);
    hoptab_free(&h);
    return rc;
}

/* `route trace TOPO SRC DST`: the hops of one path through the tables, like ibtracert. */
static int do_trace(struct opts *o, const struct topo *t, const char *src, const char *dst)
{
    struct ibn_err e = { { 0 } };
    int sn, sp, dn, dp;
    if (topo_resolve(t, src, &sn, &sp, &e) || topo_resolve(t, dst, &dn, &dp, &e)) {
        fprintf(stderr, "ibnetsim route trace: %s\n", e.msg);
        return 2;
    }
    const struct topo_node *S = &t->node[sn], *D = &t->node[dn];
    if (!sp && S->type == TOPO_CA)
        for (sp = 1; sp < S->nports && S->port[sp].peer_node < 0; sp++)
            ;
    if (!dp && D->type == TOPO_CA)
        for (dp = 1; dp < D->nports && D->port[dp].peer_node < 0; dp++)
            ;
    int dlid = D->type == TOPO_CA ? D->port[dp].lid : D->port[0].lid;
    int dlmc = D->type == TOPO_CA ? D->port[dp].lmc : D->port[0].lmc;
    if (!dlid) {
        fprintf(stderr, "ibnetsim route trace: %s has no LID\n", D->name);
        return 2;
    }
    if (o->offset < 0 || o->offset >= 1 << dlmc) {
        fprintf(stderr, "ibnetsim route trace: --offset %d: %s has LMC %d (offsets 0-%d)\n",
                o->offset, D->name, dlmc, (1 << dlmc) - 1);
        return 2;
    }
    dlid += o->offset;
    struct lfts l;
    if (get_tables(o, t, &l, &e)) {
        fprintf(stderr, "ibnetsim route trace: %s\n", e.msg);
        return 2; /* bad input: the message names it */
    }
    int vl = l.dlid_vl ? l.dlid_vl[dlid] : o->sl, sl = o->sl;
    const struct lft_vlmap *vm = l.vlmap;
    if (vm) { /* torus-2QoS: the path SL the SA would give (QoS level from --sl's bit 3) */
        sl = lft_vlmap_path_sl(vm, t, sn, dn, o->sl & 8 ? 1 : 0);
        sl = sl < 0 ? o->sl : sl;
        vl = vm->ca[sl & 15];
    }
    printf("route from %s to %s: DLID %d (0x%04x), SL %d, VL %d%s, %s\n",
           S->alias ? S->alias : S->name, D->alias ? D->alias : D->name, dlid, dlid, sl, vl,
           vm ? " (the engine's path SL; each hop's VL from its SL2VL table)"
           : l.dlid_vl ? " (the engine's)" : " (SL2VL identity)",
           o->lfts ? o->lfts : l.engine);
    int wa = 5;
    for (int i = 0; i < t->nnodes; i++) {
        int a = (int)strlen(t->node[i].alias ? t->node[i].alias : t->node[i].name);
        wa = a > wa ? a : wa;
    }
    printf("%-4s %-*s %-5s %-18s %-4s %-4s %-8s %s%s\n", "hop", wa, "node", "lid", "guid", "in",
           "out", "link", vm ? "vl  " : "", "name");
    int node = sn, in = 0, out = S->type == TOPO_CA ? sp : -1, rc = 0;
    for (int hop = 0;; hop++) {
        const struct topo_node *n = &t->node[node];
        if (n->type == TOPO_SWITCH) {
            out = lft_port(&l, node, dlid);
            if (out == 0 && node == dn) {
                out = -1;
            } else if (out == LFT_NONE || out > n->nports || n->port[out].peer_node < 0) {
                printf("no route: switch %s has no %s for DLID %d\n", n->name,
                       out == LFT_NONE ? "entry" : "cabled port", dlid);
                rc = 1;
                break;
            }
        } else if (hop > 0) {
            out = -1;
        }
        char ins[8] = "-", outs[8] = "-", link[24] = "-";
        if (hop > 0)
            snprintf(ins, sizeof ins, "%d", in);
        if (out > 0) {
            snprintf(outs, sizeof outs, "%d", out);
            const struct topo_port *x = &n->port[out];
            if (x->rate_bps > 0)
                snprintf(link, sizeof link, "%.4g Gb/s", x->rate_bps / 1e9);
            else
                ib_format_width_speed(x->width, (enum ib_speed)x->speed, link, sizeof link);
        }
        int lid = n->type == TOPO_SWITCH ? n->port[0].lid : n->port[hop ? in : sp].lid;
        char vls[8] = "";
        if (vm)
            snprintf(vls, sizeof vls, "%-4s", "-");
        if (vm && out > 0)
            snprintf(vls, sizeof vls, "%-4d", n->type == TOPO_SWITCH && vm->sw[node]
                                                  ? lft_vlmap_vl(vm, t, node, hop ? in : 0, out, sl & 15)
                                                  : vm->ca[sl & 15]);
        printf("%-4d %-*s %-5d 0x%016" PRIx64 " %-4s %-4s %-8s %s%s\n", hop, wa,
               n->alias ? n->alias : n->name, lid, n->guid, ins, outs, link, vls, n->name);
        if (out < 0) {
            if (node != dn) {
                printf("no route: the path ends at %s, not at %s\n", n->name, D->name);
                rc = 1;
            }
            break;
        }
        if (hop > t->nnodes) {
            printf("no route: a loop (more hops than nodes)\n");
            rc = 1;
            break;
        }
        in = n->port[out].peer_port;
        node = n->port[out].peer_node;
    }
    lfts_free(&l);
    return rc;
}

static int do_check(struct opts *o, const struct topo *t)
{
    struct ibn_err e = { { 0 } };
    struct lfts l;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (get_tables(o, t, &l, &e)) {
        fprintf(stderr, "ibnetsim route check: %s\n", e.msg);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int rc = 0;
    if (!o->lfts && strcmp(l.engine, o->engine))
        printf("tables: %s (of the chain %s)\n", l.engine, o->engine);
    else
        printf("tables: %s\n", o->lfts ? o->lfts : o->engine);
    if (!o->lfts)
        printf("compute time: %.3f s\n", (double)(t1.tv_sec - t0.tv_sec) +
               1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    if (l.note[0])
        printf("note: %s\n", l.note);
    struct route_stats s;
    if (route_stats_compute(t, &l, &s, &e)) {
        printf("valid: no: %s\n", e.msg);
        rc = 1;
    } else {
        printf("valid: yes\n");
        printf("routes: %ld\n", s.routes);
        printf("max switches per route: %d\n", s.max_hops);
        printf("avg switches per route: %.4f\n", s.avg_hops);
        printf("max routes on a port: %ld (%s port %d)\n", s.max_port_routes,
               t->node[s.max_port_node].name, s.max_port);
        printf("max routes on a switch-switch port: %ld (%s port %d)\n", s.max_isl_routes,
               t->node[s.max_isl_node].name, s.max_isl_port);
        printf("routes by switches traversed:");
        for (int k = 0; k < 64; k++)
            if (s.hop_hist[k])
                printf(" %d:%ld", k, s.hop_hist[k]);
        printf("\n");
        if (o->ports) {
            struct outfile *of = out_open(o->ports, &e);
            if (!of) {
                fprintf(stderr, "ibnetsim route check: %s\n", e.msg);
                rc = IBN_EXIT_OUTPUT;
            } else {
                FILE *f = of->fp;
                fprintf(f, "switch,port,peer,peer_port,routes\n");
                for (int i = 0; i < t->nnodes; i++) {
                    if (t->node[i].type != TOPO_SWITCH)
                        continue;
                    for (int p = 1; p <= t->node[i].nports; p++) {
                        const struct topo_port *x = &t->node[i].port[p];
                        if (x->peer_node < 0)
                            continue;
                        csv_quote(f, t->node[i].name);
                        fprintf(f, ",%d,", p);
                        csv_quote(f, t->node[x->peer_node].name);
                        fprintf(f, ",%d,%ld\n", x->peer_port, s.port_routes[s.port_off[i] + p]);
                    }
                }
                if (out_close(of, &e)) {
                    fprintf(stderr, "ibnetsim route check: %s\n", e.msg);
                    rc = IBN_EXIT_OUTPUT;
                } else {
                    printf("routes per port: written to %s\n", o->ports);
                }
            }
        }
    }
    char cycle[2048];
    if (l.dlid_vl)
        printf("virtual lanes: %d (per destination LID)\n", l.nvl);
    int dl;
    if (l.vlmap) {
        /* Per-hop VLs: each QoS level on its own (SL bit 3 picks VLs 0-3 or 4-7). */
        int n0 = 0, n1 = 0;
        dl = route_deadlock_check_vlmap(t, &l, 0, cycle, sizeof cycle, &n0);
        if (!dl)
            dl = route_deadlock_check_vlmap(t, &l, 1, cycle, sizeof cycle, &n1);
        printf("virtual lanes: per hop from the path SL and the switches' SL2VL tables (%d "
               "data VLs programmed); routes use %d at QoS level 0, %d at level 1\n", l.vlmap->nvl,
               n0, n1);
    } else {
        dl = route_deadlock_check(t, &l, l.dlid_vl, cycle, sizeof cycle);
    }
    printf("deadlock: %s%s\n", dl ? "cycle: " : "none (channel dependency graph acyclic)",
           dl ? cycle : "");
    if (dl && o->deadlock_free)
        rc = 1;
    if (o->lidm) {
        int rows, lrc;
        int dn = !strcmp(l.engine, "dnup");
        if (!o->lfts && (dn || !strcmp(l.engine, "updn"))) {
            struct hoptab h;
            char note[256];
            lrc = dn ? dnup_hoptab(t, &h, note, sizeof note)
                     : updn_hoptab(t, &o->ro, &h, note, sizeof note, &e);
            if (lrc >= 0) {
                lrc = lid_matrix_compare(o->lidm, t, &h, &rows, &e);
                hoptab_free(&h);
            }
        } else {
            lrc = lid_matrix_compare(o->lidm, t, NULL, &rows, &e);
        }
        if (lrc) {
            printf("lid matrix: differs: %s\n", e.msg);
            rc = 1;
        } else {
            printf("lid matrix: %d rows agree with %s\n", rows, o->lidm);
        }
    }
    if (o->compare) {
        struct lfts c;
        if (lft_dump_read(o->compare, t, &c, &e)) {
            fprintf(stderr, "ibnetsim route check: %s\n", e.msg);
            lfts_free(&l);
            route_stats_free(&s);
            return 2;
        }
        long diff = 0, total = 0;
        for (int i = 0; i < t->nnodes; i++)
            if (l.table[i])
                for (int lid = 1; lid <= l.max_lid; lid++)
                    if (l.table[i][lid] != LFT_NONE || c.table[i][lid] != LFT_NONE) {
                        total++;
                        diff += l.table[i][lid] != c.table[i][lid];
                    }
        printf("compare: %ld of %ld entries differ from %s\n", diff, total, o->compare);
        struct route_stats cs;
        if (route_stats_compute(t, &c, &cs, &e)) {
            printf("compare valid: no: %s\n", e.msg);
        } else {
            printf("compare max routes on a port: %ld (%s port %d)\n", cs.max_port_routes,
                   t->node[cs.max_port_node].name, cs.max_port);
            printf("compare max routes on a switch-switch port: %ld (%s port %d)\n",
                   cs.max_isl_routes, t->node[cs.max_isl_node].name, cs.max_isl_port);
            printf("compare avg switches per route: %.4f\n", cs.avg_hops);
            route_stats_free(&cs);
        }
        lfts_free(&c);
    }
    route_stats_free(&s); /* zeroed when the routes did not check */
    lfts_free(&l);
    return rc;
}

static int do_diff(struct opts *o, const struct topo *t)
{
    struct ibn_err e = { { 0 } };
    struct lfts a, b;
    if (lft_dump_read(o->dump_a, t, &a, &e)) {
        fprintf(stderr, "ibnetsim route diff: %s\n", e.msg);
        return 2;
    }
    if (lft_dump_read(o->dump_b, t, &b, &e)) {
        fprintf(stderr, "ibnetsim route diff: %s\n", e.msg);
        lfts_free(&a);
        return 2;
    }
    long diff = 0, total = 0;
    for (int i = 0; i < t->nnodes; i++) {
        if (!a.table[i])
            continue;
        for (int lid = 0; lid <= a.max_lid; lid++) {
            if (a.table[i][lid] == LFT_NONE && b.table[i][lid] == LFT_NONE)
                continue;
            total++;
            if (a.table[i][lid] != b.table[i][lid]) {
                if (diff < 5)
                    printf("differ: switch %s LID %d: port %d vs %d\n", t->node[i].name, lid,
                           a.table[i][lid], b.table[i][lid]);
                diff++;
            }
        }
    }
    printf("diff: %ld of %ld entries differ\n", diff, total);
    lfts_free(&a);
    lfts_free(&b);
    return diff ? 1 : 0;
}

int cmd_route_flows(int argc, char **argv); /* cmd_route_flows.c */

int cmd_route(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "flows"))
        return cmd_route_flows(argc, argv);
    struct opts o;
    memset(&o, 0, sizeof o);
    o.sub = argv[1];
    o.engine = "minhop";
    o.lmc = -1;
    o.seed = 1;
    const char *pos[3] = { NULL, NULL, NULL };
    int npos = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-e") && more)
            o.engine = argv[++i];
        else if (!strcmp(a, "-o") && more)
            o.out = argv[++i];
        else if (!strcmp(a, "--lfts") && more)
            o.lfts = argv[++i];
        else if (!strcmp(a, "--lid-matrix") && more)
            o.lidm = argv[++i];
        else if (!strcmp(a, "--compare") && more)
            o.compare = argv[++i];
        else if (!strcmp(a, "--ports") && more)
            o.ports = argv[++i];
        else if (!strcmp(a, "--roots") && more)
            o.ro.roots = argv[++i];
        else if ((!strcmp(a, "--guid-routing-order") || !strcmp(a, "-X")) && more)
            o.ro.guid_order = argv[++i];
        else if (!strcmp(a, "--scatter-ports") && more) {
            char *end;
            unsigned long long v = strtoull(argv[++i], &end, 0);
            if (*end || end == argv[i] || v > UINT32_MAX || argv[i][0] == '-') {
                fprintf(stderr, "ibnetsim route: --scatter-ports expects a seed from 0 (off) to "
                        "4294967295, as OpenSM's\n");
                return 2;
            }
            o.ro.scatter_ports = (uint32_t)v;
        } else if (!strcmp(a, "--port-shifting"))
            o.ro.port_shifting = 1;
        else if (!strcmp(a, "--guid-routing-order-no-scatter"))
            o.ro.order_no_scatter = 1;
        else if ((!strcmp(a, "--cn-guids") || !strcmp(a, "-u")) && more)
            o.ro.cn_guids = argv[++i];
        else if ((!strcmp(a, "--io-guids") || !strcmp(a, "-G")) && more)
            o.ro.io_guids = argv[++i];
        else if ((!strcmp(a, "--ignore-guids") || !strcmp(a, "--port-prof-ignore")) && more)
            o.ro.prof_ignore = argv[++i];
        else if (!strcmp(a, "--tie") && more)
            o.ro.tie = argv[++i];
        else if (!strcmp(a, "--path-bits") && more)
            o.ro.path_bits = atoi(argv[++i]);
        else if (!strcmp(a, "--slack") && more)
            o.ro.path_slack = atoi(argv[++i]);
        else if (!strcmp(a, "--table") && more)
            o.table = argv[++i];
        else if (!strcmp(a, "--torus-config") && more)
            o.ro.torus_conf = argv[++i];
        else if (!strcmp(a, "--sl2vl") && more)
            o.sl2vl = argv[++i];
        else if (!strcmp(a, "--max-vls") && more)
            o.ro.max_vls = atoi(argv[++i]);
        else if (!strcmp(a, "--seed") && more)
            o.seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--lmc") && more) {
            o.lmc = atoi(argv[++i]);
            if (o.lmc < 0 || o.lmc > 7) {
                fprintf(stderr, "ibnetsim route: --lmc expects 0 to 7\n");
                return 2;
            }
        } else if (!strcmp(a, "--sl") && more) {
            o.sl = atoi(argv[++i]);
            if (o.sl < 0 || o.sl > 15) {
                fprintf(stderr, "ibnetsim route: --sl expects 0 to 15\n");
                return 2;
            }
        } else if (!strcmp(a, "--offset") && more)
            o.offset = atoi(argv[++i]);
        else if (!strcmp(a, "--deadlock-free"))
            o.deadlock_free = 1;
        else if (!strcmp(a, "--mfts") && more)
            o.mfts = argv[++i];
        else if (!strcmp(a, "--mcast") && more) {
            if (o.nmcast == (int)(sizeof o.mcast / sizeof o.mcast[0])) {
                fprintf(stderr, "ibnetsim route: at most %d --mcast groups\n", o.nmcast);
                return 2;
            }
            o.mcast[o.nmcast++] = argv[++i];
        }
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ibnetsim route: unknown option %s (or it lacks its value); see "
                    "'ibnetsim route --help'\n", a);
            return 2;
        } else if (npos < 3)
            pos[npos++] = a;
        else {
            fprintf(stderr, "ibnetsim route: unexpected argument %s\n", a);
            return 2;
        }
    }
    o.ro.seed = o.seed;
    struct ibn_err e0 = { { 0 } };
    if (!strcmp(o.sub, "list")) {
        for (int i = 0; route_engines[i]; i++)
            printf("%-10s %s\n", route_engines[i]->name, route_engines[i]->summary);
        return 0;
    }
    int need = !strcmp(o.sub, "diff") || !strcmp(o.sub, "trace") ? 3 : 1;
    if (strcmp(o.sub, "compute") && strcmp(o.sub, "check") && strcmp(o.sub, "diff") &&
        strcmp(o.sub, "pathbits") && strcmp(o.sub, "trace")) {
        fprintf(stderr, "ibnetsim route: unknown subcommand \"%s\" (expected compute, check, "
                "diff, trace, pathbits or list)\n", o.sub);
        return 2;
    }
    if (npos != need) {
        fprintf(stderr, "ibnetsim route %s: expected %s\n", o.sub,
                !strcmp(o.sub, "trace") ? "TOPO SRC DST"
                : need == 3             ? "TOPO LFT_DUMP_A LFT_DUMP_B"
                                        : "one topology (a file or gen:NAME:ARGS)");
        return 2;
    }
    if (route_chain_check(o.engine, &e0)) {
        fprintf(stderr, "ibnetsim route: %s (see 'ibnetsim route list')\n", e0.msg);
        return 2;
    }
    o.topo = pos[0];
    o.dump_a = pos[1];
    o.dump_b = pos[2];
    struct ibn_err e = { { 0 } };
    struct topo t;
    if (topo_arg_load(o.topo, o.seed, &t, &e)) {
        fprintf(stderr, "ibnetsim route %s: %s\n", o.sub, e.msg);
        return 2;
    }
    topo_arg_warnings(&t);
    if (o.lmc >= 0 && topo_set_lmc(&t, o.lmc, &e)) {
        fprintf(stderr, "ibnetsim route %s: %s\n", o.sub, e.msg);
        topo_free(&t);
        return 2;
    }
    int rc;
    if (!strcmp(o.sub, "check")) {
        rc = do_check(&o, &t);
    } else if (!strcmp(o.sub, "diff")) {
        rc = do_diff(&o, &t);
    } else if (!strcmp(o.sub, "pathbits")) {
        rc = do_pathbits(&o, &t);
    } else if (!strcmp(o.sub, "trace")) {
        rc = do_trace(&o, &t, pos[1], pos[2]);
    } else {
        struct lfts l;
        if (get_tables(&o, &t, &l, &e)) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            topo_free(&t);
            return 2; /* bad input: the message names it */
        }
        if (l.note[0])
            fprintf(stderr, "note: %s\n", l.note);
        if (strcmp(l.engine, o.engine) && !o.lfts)
            fprintf(stderr, "note: routed by %s (asked for %s)\n", l.engine, o.engine);
        rc = 0;
        if (o.nmcast || o.mfts) {
            rc = do_mfts(&o, &t);
            if (!o.out) { /* the multicast tables alone */
                lfts_free(&l);
                topo_free(&t);
                return rc;
            }
        }
        if (!rc && o.sl2vl && t2q_sl2vl_dump_write(o.sl2vl, &t, &l, &e)) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            rc = e.output ? IBN_EXIT_OUTPUT : 2;
        }
        if (!rc && lft_dump_write(o.out ? o.out : "/dev/stdout", &t, &l, &e)) {
            fprintf(stderr, "ibnetsim route compute: %s\n", e.msg);
            rc = e.output ? IBN_EXIT_OUTPUT : IBN_EXIT_BROKEN;
        }
        lfts_free(&l);
    }
    topo_free(&t);
    return rc;
}

/* cmd_qos_admit.c: `ibnetsim qos admit TOPO`: connection admission control on a topology
 * without traffic (src/qos/admit.h, conn.h): how many connections of each SL fit, where and
 * why requests are refused, what the links reserve, the setup latency of the scheme, and
 * optionally every port's high-priority table as OpenSM's qos_vlarb_high. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/topo_arg.h"
#include "core/units.h"
#include "qos/admit.h"
#include "qos/conn.h"
#include "routing/route.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim qos admit TOPO [-e ENGINE] [--roots R | -a FILE]\n"
            "                          [--scheme hop|sm|sum|probe] [--cap F]\n"
            "                          [-m cesy|cenre] [--no-repack] [--vls 4] [--mtu BYTES]\n"
            "                          [--stop-fails N] [--requests N] [--dynamic RATE HOLD_S]\n"
            "                          [--deadline TIME] [--read-ports N] [--input-packets N]\n"
            "                          [--seed N] [--dump FILE]\n\n"
            "Runs seed 001's request process on TOPO (a file or gen:NAME[:ARGS], e.g.\n"
            "gen:irregular:switches=16,link=2.5Gb/s) routed by ENGINE (default updn; a chain\n"
            "such as ftree,updn as OpenSM's routing_engine), with\n"
            "Table 2's SLs (0-9, distances 2..64, their bandwidth ranges, SL i on VL i) and\n"
            "admission control: hop (seed 001, hop by hop with rollback; default), sm (seed\n"
            "001's subnet manager), sum (seed 000's per-SL probe, p + s_sl < bw_sl with\n"
            "bw_sl = cap*C/10), probe (seed 003's probe with ACK/NACK/RELEASE). --cap is the\n"
            "reservable share of a link (default 0.8). Requests come until --stop-fails\n"
            "consecutive refusals (default 10000) or --requests N; --dynamic RATE HOLD_S makes\n"
            "them Poisson at RATE per second held HOLD_S seconds on average (then --requests\n"
            "is needed). --deadline gives every request an end-to-end deadline (then each hop's\n"
            "distance must be within the SL's). --read-ports N gives the switches' crossbar\n"
            "read ports per input for the hop bound that turns deadlines into distances and\n"
            "promises each connection its bound (default 0: one per output, the table alone;\n"
            "seed 001's multiplexed crossbar: 1), --input-packets N what an input holds over\n"
            "its data VLs (default 60: 15 VLs of 4 packets); docs/qos.md \"The hop bound\".\n"
            "--vls 4 is CESY's 4-VL variant (16 and 64).\n"
            "The roots of updn and updn_tree are a run's topology.roots and root_guid_file:\n"
            "--roots R (switch names, aliases, lid:N or node GUIDs, comma-separated, or\n"
            "best3: the best of three candidate roots), -a FILE or --root_guid_file FILE\n"
            "(OpenSM's root_guid_file: one GUID a line, # comments). Without them updn takes\n"
            "OpenSM's automatic choice, which finds no root on seed 001's irregular networks\n"
            "and falls back to minhop, as OpenSM does; the routing line says which routes\n"
            "were used. Give the run's keys to admit on the run's routes.\n"
            "Prints connections per SL, refusals by cause and by hop, the mean reservation on\n"
            "adapter and switch ports (Table 3's rows) and the setup latency; --dump writes\n"
            "every port's qos_vlarb_high.\n");
}

int cmd_qos_admit(int argc, char **argv)
{
    const char *topo_spec = NULL, *engine = "updn", *dump = NULL, *roots = NULL, *root_file = NULL;
    struct cac_cfg c;
    cac_cfg_defaults(&c);
    struct conn_gen g;
    memset(&g, 0, sizeof g);
    conn_table2(&g, &c);
    g.mode = CONN_FILL;
    g.stop_fails = 10000;
    g.pkt_bytes = 256;
    uint64_t seed = 1;
    int input_pkts = 60;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-e") && more)
            engine = argv[++i];
        else if (!strcmp(a, "--roots") && more)
            roots = argv[++i];
        else if ((!strcmp(a, "-a") || !strcmp(a, "--root_guid_file") ||
                  !strcmp(a, "--root-guid-file")) && more)
            root_file = argv[++i];
        else if (!strcmp(a, "--scheme") && more) {
            a = argv[++i];
            int k = 0;
            while (k < CAC_NSCHEMES && strcmp(cac_scheme_name[k], a))
                k++;
            if (k == CAC_NSCHEMES) {
                fprintf(stderr, "ibnetsim qos admit: --scheme expects hop, sm, sum or probe, not \"%s\"\n", a);
                return 2;
            }
            c.scheme = (enum cac_scheme)k;
        } else if (!strcmp(a, "--cap") && more) {
            c.cap = strtod(argv[++i], &end);
            if (*end || !(c.cap > 0 && c.cap <= 1)) {
                fprintf(stderr, "ibnetsim qos admit: --cap expects a fraction in (0, 1]\n");
                return 2;
            }
        } else if (!strcmp(a, "-m") && more) {
            a = argv[++i];
            if (!strcmp(a, "cesy") || !strcmp(a, "cenre"))
                c.method = !strcmp(a, "cesy") ? QOS_CESY : QOS_CENRE;
            else {
                fprintf(stderr, "ibnetsim qos admit: -m expects cesy or cenre, not \"%s\"\n", a);
                return 2;
            }
        } else if ((!strcmp(a, "--read-ports") || !strcmp(a, "--input-packets")) && more) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 100000) {
                fprintf(stderr, "ibnetsim qos admit: %s expects a count 0..100000\n", a);
                return 2;
            }
            if (a[2] == 'r')
                c.read_ports = (int)v;
            else
                input_pkts = (int)v;
        } else if (!strcmp(a, "--no-repack"))
            c.repack = 0;
        else if (!strcmp(a, "--vls") && more) {
            if (strcmp(argv[++i], "4")) {
                fprintf(stderr, "ibnetsim qos admit: --vls takes 4 (the 4-VL variant); 16 is the default\n");
                return 2;
            }
            /* VL0 distance 64, VL1 distance 16 (32 becomes 16, below 16 refused). */
            c.allowed = (1u << 4) | (1u << 6);
            for (int s = 0; s < 16; s++)
                c.sl2vl[s] = c.sl_dist[s] == 64 ? 0 : 1;
        } else if (!strcmp(a, "--mtu") && more) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 64 || v > 4096) {
                fprintf(stderr, "ibnetsim qos admit: --mtu expects a packet size 64..4096 bytes\n");
                return 2;
            }
            c.mtu = g.pkt_bytes = (uint32_t)v;
        } else if (!strcmp(a, "--stop-fails") && more) {
            g.stop_fails = strtoll(argv[++i], &end, 10);
            if (*end || g.stop_fails < 1) {
                fprintf(stderr, "ibnetsim qos admit: --stop-fails expects a positive count\n");
                return 2;
            }
        } else if (!strcmp(a, "--requests") && more) {
            g.max_requests = strtoll(argv[++i], &end, 10);
            if (*end || g.max_requests < 1) {
                fprintf(stderr, "ibnetsim qos admit: --requests expects a positive count\n");
                return 2;
            }
        } else if (!strcmp(a, "--dynamic") && i + 2 < argc) {
            g.mode = CONN_DYNAMIC;
            g.rate = strtod(argv[++i], &end);
            char *end2;
            g.hold = strtod(argv[++i], &end2);
            if (*end || *end2 || !(g.rate > 0) || !(g.hold > 0)) {
                fprintf(stderr, "ibnetsim qos admit: --dynamic expects RATE (requests/s) and HOLD (s), both > 0\n");
                return 2;
            }
        } else if (!strcmp(a, "--deadline") && more) {
            char why[160];
            if (units_parse_time(argv[++i], &g.deadline, why, sizeof why) || g.deadline <= 0) {
                fprintf(stderr, "ibnetsim qos admit: --deadline: %s\n", g.deadline <= 0 ? "expected a time > 0" : why);
                return 2;
            }
            for (int s = 0; s < 16; s++) /* the deadline decides each hop's distance */
                c.sl_dist[s] = 0;
        } else if (!strcmp(a, "--seed") && more) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "ibnetsim qos admit: --seed expects a number\n");
                return 2;
            }
        } else if (!strcmp(a, "--dump") && more)
            dump = argv[++i];
        else if (a[0] == '-' || topo_spec) {
            fprintf(stderr, "ibnetsim qos admit: unexpected argument \"%s\"\n\n", a);
            usage(stderr);
            return 2;
        } else
            topo_spec = a;
    }
    if (!topo_spec) {
        fprintf(stderr, "ibnetsim qos admit: no topology\n\n");
        usage(stderr);
        return 2;
    }
    if (g.mode == CONN_DYNAMIC && g.max_requests <= 0) {
        fprintf(stderr, "ibnetsim qos admit: --dynamic needs --requests N\n");
        return 2;
    }
    if (roots && root_file) {
        fprintf(stderr, "ibnetsim qos admit: give --roots or --root_guid_file, not both (as a "
                "run's topology.roots and root_guid_file)\n");
        return 2;
    }
    if (roots && !*roots) {
        fprintf(stderr, "ibnetsim qos admit: --roots expects switch names or GUIDs separated by "
                "commas, or best3\n");
        return 2;
    }
    if (root_file) { /* the engine reads it (file:line errors); here only whether it opens */
        FILE *rf = fopen(root_file, "r");
        if (!rf) {
            fprintf(stderr, "ibnetsim qos admit: --root_guid_file: cannot open %s\n", root_file);
            return 2;
        }
        fclose(rf);
    }
    g.seed = seed;
    struct ibn_err e;
    struct topo t;
    struct lfts l;
    if (topo_arg_load(topo_spec, seed, &t, &e)) {
        fprintf(stderr, "ibnetsim qos admit: %s\n", e.msg);
        return 2;
    }
    topo_arg_warnings(&t);
    struct route_opts ro = { .seed = seed, .roots = roots ? roots : root_file };
    if (route_compute(&t, engine, &ro, &l, &e)) {
        fprintf(stderr, "ibnetsim qos admit: %s\n", e.msg);
        topo_free(&t);
        return 2;
    }
    c.in_pkts = input_pkts;
    struct cac a;
    struct conn_set cs;
    int rc = 0;
    if (cac_init(&a, &t, &l, &c, &e)) {
        fprintf(stderr, "ibnetsim qos admit: %s\n", e.msg);
        lfts_free(&l);
        topo_free(&t);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    if (conn_run(&a, &g, &cs, &e)) {
        fprintf(stderr, "ibnetsim qos admit: %s\n", e.msg);
        rc = 2;
        goto out;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    struct qmetrics m;
    qmetrics_compute(&a, &m);
    printf("topology %s, routing %s, scheme %s, %s, cap %.3g, %s\n", t.source ? t.source : topo_spec, engine,
           cac_scheme_name[c.scheme], c.method == QOS_CESY ? "CESY" : "CENRE", c.cap,
           g.mode == CONN_FILL ? "fill until refused" : "dynamic");
    if (l.note[0]) /* the roots taken, or a fallback to minhop */
        printf("routes: %s\n", l.note);
    if (c.read_ports > 0)
        printf("hop bound: the table plus the crossbar (%d read port%s per switch input, %d packets "
               "an input holds)\n", c.read_ports, c.read_ports == 1 ? "" : "s", c.in_pkts);
    else
        printf("hop bound: the table alone (a crossbar read port per output)\n");
    printf("requests %llu, accepted %llu, live %d (%.3g s of CPU)\n", (unsigned long long)a.st.requests,
           (unsigned long long)a.st.accepted, cs.n, wall);
    printf("sl  requested  accepted  live\n");
    int live[16] = { 0 };
    for (int i = 0; i < cs.n; i++)
        live[cs.c[i].req.sl]++;
    for (int s = 0; s < 16; s++)
        if (a.st.sl_requests[s])
            printf("%2d  %9llu  %8llu  %4d\n", s, (unsigned long long)a.st.sl_requests[s],
                   (unsigned long long)a.st.sl_accepted[s], live[s]);
    printf("refused by cause:");
    for (int k = 1; k < CAC_NCAUSES; k++)
        if (a.st.rejected[k])
            printf(" %s %llu", cac_cause_name[k], (unsigned long long)a.st.rejected[k]);
    printf("\nrefused at hop (0 = source adapter):");
    for (int h = 0; h < CAC_MAX_HOPS; h++)
        if (a.st.rejected_at_hop[h])
            printf(" %d:%llu", h, (unsigned long long)a.st.rejected_at_hop[h]);
    printf("\nmean reservation: adapter ports %.2f Mb/s (%.2f %% of the link), switch ports %.2f Mb/s "
           "(%.2f %%)\n", m.host_res_bps / 1e6, 100 * m.host_res_frac, m.sw_res_bps / 1e6, 100 * m.sw_res_frac);
    printf("table entries in use: mean %.1f of 64 per port with reservations; repacks %llu\n", m.mean_entries,
           (unsigned long long)m.repacks);
    if (a.st.accepted)
        printf("setup latency: mean %.3f us accepted, %.3f us refused, max %.3f us; control messages %llu\n",
               1e6 * a.st.latency_sum_accept / (double)a.st.accepted,
               a.st.requests > a.st.accepted ? 1e6 * a.st.latency_sum_reject / (double)(a.st.requests - a.st.accepted) : 0,
               (double)a.st.latency_max * 1e-6, (unsigned long long)a.st.control_msgs);
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (!f) {
            fprintf(stderr, "ibnetsim qos admit: %s: cannot write\n", dump);
            rc = 2;
        } else {
            char buf[1024];
            for (int n = 0; n < t.nnodes; n++)
                for (int p = 1; p <= t.node[n].nports; p++) {
                    struct qport *q = &a.port[cac_port(&a, n, p)];
                    if (!q->nseq)
                        continue;
                    qport_high_string(q, buf, sizeof buf);
                    fprintf(f, "%s %d qos_vlarb_high %s\n", t.node[n].name, p, buf);
                }
            fclose(f);
        }
    }
    conn_set_free(&cs);
out:
    cac_free(&a);
    lfts_free(&l);
    topo_free(&t);
    return rc;
}

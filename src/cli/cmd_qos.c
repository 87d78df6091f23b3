/* cmd_qos.c: `ibnetsim qos`: seed 001's arbitration-table management on its own.
 * `qos table` fills one high-priority table from a list of requests with CESY or CENRE and
 * prints the layout (1-based entries, as the paper's figures), the wasted entries and the
 * table as OpenSM's qos_vlarb_high string; `qos admit` (cmd_qos_admit.c) runs connection
 * admission on a topology without traffic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "qos/arbtab.h"
#include "qos/cesy.h"
#include "qos/fill.h"
#include "qos/qport.h"

int cmd_qos_admit(int argc, char **argv);

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ibnetsim qos table [-m cesy|cenre] [--share] [--vls 4|8|16] [--rate GBPS]\n"
            "                          [--cap FRACTION] [--no-repack] REQ...\n"
            "       ibnetsim qos admit TOPO [options]   (see ibnetsim qos admit --help)\n\n"
            "table  fills one high-priority VL arbitration table (64 entries) with seed 001's\n"
            "       methods. REQ is D[:MBPS[:VL]]: the maximum distance D (2..64) between\n"
            "       consecutive entries of the request's VL (from its per-hop deadline), its\n"
            "       mean bandwidth in Mb/s and its VL. CESY (default) rounds D down to a power\n"
            "       of two and takes entries f, f+D, ...; CENRE takes ceil(64/D) entries at the\n"
            "       representative spacing (reconstructed, docs/qos.md).\n"
            "       Without --share every request is its own sequence, as in the paper's\n"
            "       Fig. 6 (the weight is ceil(W/entries), W = MBPS*16320/rate; 255 when no\n"
            "       bandwidth is given). With --share requests are connections at one output\n"
            "       port: those of one VL share its sequences, weights come from their total\n"
            "       bandwidth, a VL grows sequences past 255, --cap (default 0.8) bounds the\n"
            "       reserved share of the link, and fragmentation is repacked (--no-repack:\n"
            "       refused). The VL defaults to the distance class (CESY 2,4,...,64 -> VL\n"
            "       0..5); --vls 4 is the paper's 4-VL variant (VL0 distance 64, VL1 distance\n"
            "       16; 32 becomes 16, below 16 refused). --rate is the link's data rate in\n"
            "       Gb/s (default 2.5). Prints the layout, wasted entries (beyond ceil(64/D)),\n"
            "       free entries and the qos_vlarb_high string OpenSM takes.\n");
}

struct req {
    int d, vl;
    double mbps;
};

static int parse_req(const char *s, struct req *r)
{
    char *end;
    r->mbps = -1;
    r->vl = -1;
    long d = strtol(s, &end, 10);
    if (end == s || d < 1 || d > 64)
        return -1;
    r->d = (int)d;
    if (*end == ':') {
        const char *b = end + 1;
        r->mbps = strtod(b, &end);
        if (end == b || !(r->mbps > 0) || !isfinite(r->mbps))
            return -1;
        if (*end == ':') {
            b = end + 1;
            long vl = strtol(b, &end, 10);
            if (end == b || vl < 0 || vl > 14)
                return -1;
            r->vl = (int)vl;
        }
    }
    return *end ? -1 : 0;
}

/* VL of a distance class: CESY's rounded distance 2..64 -> 0..5 (4-VL variant: 64 -> 0,
 * 16 -> 1). */
static int class_vl(int d, unsigned allowed, int vls)
{
    int dc = cesy_round(d, allowed);
    if (!dc)
        return -1;
    if (vls == 4)
        return dc == 64 ? 0 : 1;
    return __builtin_ctz((unsigned)dc) - 1;
}

static void print_layout(const struct vlarb_entry e[64], const int owner[64])
{
    printf("entry  vl  weight  request\n");
    for (int k = 0; k < 64; k++)
        if (owner[k] >= 0)
            printf("%5d  %2d  %6d  %d\n", k + 1, e[k].vl, e[k].weight, owner[k] + 1);
        else if (owner[k] == -2)
            printf("%5d  %2d  %6d  shared\n", k + 1, e[k].vl, e[k].weight);
        else
            printf("%5d   -       -  free\n", k + 1);
}

static void print_string(const struct vlarb_entry e[64])
{
    printf("qos_vlarb_high ");
    for (int k = 0; k < 64; k++)
        printf("%s%d:%d", k ? "," : "", e[k].vl, e[k].weight);
    printf("\n");
}

static int cmd_table(int argc, char **argv)
{
    struct qport_cfg c = { .rate_bps = 2.5e9, .cap = 0.8, .method = QOS_CESY, .repack = 1 };
    int share = 0, vls = 16, nreq = 0;
    struct req *req = xcalloc((size_t)argc, sizeof *req);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(req);
            return 0;
        } else if (!strcmp(a, "-m") && i + 1 < argc) {
            a = argv[++i];
            if (!strcmp(a, "cesy"))
                c.method = QOS_CESY;
            else if (!strcmp(a, "cenre"))
                c.method = QOS_CENRE;
            else {
                fprintf(stderr, "ibnetsim qos table: -m expects cesy or cenre, not \"%s\"\n", a);
                goto bad;
            }
        } else if (!strcmp(a, "--share"))
            share = 1;
        else if (!strcmp(a, "--no-repack"))
            c.repack = 0;
        else if (!strcmp(a, "--vls") && i + 1 < argc) {
            vls = atoi(argv[++i]);
            if (vls != 4 && vls != 8 && vls != 16) {
                fprintf(stderr, "ibnetsim qos table: --vls expects 4, 8 or 16\n");
                goto bad;
            }
        } else if (!strcmp(a, "--rate") && i + 1 < argc) {
            char *end;
            c.rate_bps = strtod(argv[++i], &end) * 1e9;
            if (*end || !(c.rate_bps > 0) || !isfinite(c.rate_bps)) {
                fprintf(stderr, "ibnetsim qos table: --rate expects a positive rate in Gb/s\n");
                goto bad;
            }
        } else if (!strcmp(a, "--cap") && i + 1 < argc) {
            char *end;
            c.cap = strtod(argv[++i], &end);
            if (*end || !(c.cap > 0 && c.cap <= 1)) {
                fprintf(stderr, "ibnetsim qos table: --cap expects a fraction in (0, 1]\n");
                goto bad;
            }
        } else if (a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            fprintf(stderr, "ibnetsim qos table: unknown option \"%s\"\n\n", a);
            usage(stderr);
            goto bad;
        } else if (parse_req(a, &req[nreq])) {
            fprintf(stderr, "ibnetsim qos table: request \"%s\": expected D[:MBPS[:VL]] with D in "
                            "1..64, MBPS > 0 and VL in 0..14\n", a);
            goto bad;
        } else
            nreq++;
    }
    if (!nreq) {
        fprintf(stderr, "ibnetsim qos table: no requests\n\n");
        usage(stderr);
        goto bad;
    }
    if (vls == 4) {
        if (c.method != QOS_CESY) {
            fprintf(stderr, "ibnetsim qos table: the 4-VL variant is CESY's (distances 16 and 64)\n");
            goto bad;
        }
        c.allowed = (1u << 4) | (1u << 6);
    }
    struct vlarb_entry e[64];
    int owner[64], wasted = 0, placed = 0;
    for (int k = 0; k < 64; k++)
        owner[k] = -1;
    memset(e, 0, sizeof e);
    printf("# method %s, %s, %d VLs, link %.4g Gb/s\n", c.method == QOS_CESY ? "CESY" : "CENRE",
           share ? "connections share their VL's sequences" : "one sequence per request", vls,
           c.rate_bps / 1e9);
    struct qport p;
    qport_init(&p);
    for (int i = 0; i < nreq; i++) {
        struct req *r = &req[i];
        int vl = r->vl >= 0 ? r->vl : class_vl(r->d, c.allowed, vls);
        if (r->d < 2 || vl < 0) {
            printf("request %d (distance %d): refused, distance not offered\n", i + 1, r->d);
            continue;
        }
        if (share) {
            enum qport_verdict v = qport_admit(&p, &c, vl, r->d, r->mbps > 0 ? r->mbps * 1e6 : 1e6);
            if (v != QP_OK) {
                printf("request %d (distance %d): refused, %s\n", i + 1, r->d, qport_verdict_name[v]);
                continue;
            }
            placed++;
            continue;
        }
        uint64_t taken = 0, mask;
        for (int k = 0; k < 64; k++)
            if (owner[k] >= 0)
                taken |= 1ull << k;
        int n = fill_one(c.method, taken, r->d, c.allowed, &mask);
        if (n < 0) {
            printf("request %d (distance %d): refused, %s\n", i + 1, r->d,
                   64 - arbtab_count(taken) < arbtab_entries_for(r->d) ? "table-entries" : "does not fit");
            continue;
        }
        int w = 255;
        if (r->mbps > 0) {
            double units = arbtab_weight_units(r->mbps * 1e6, c.rate_bps);
            w = (int)ceil(units / n - 1e-9);
            if (w > 255) {
                printf("request %d (distance %d): refused, %.4g Mb/s needs more than its %d entries "
                       "at weight 255 (use --share)\n", i + 1, r->d, r->mbps, n);
                continue;
            }
            if (w < 1)
                w = 1;
        }
        placed++;
        wasted += n - arbtab_entries_for(r->d);
        for (uint64_t m = mask; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            owner[k] = i;
            e[k].vl = (uint8_t)vl;
            e[k].weight = (uint8_t)w;
        }
    }
    if (share) {
        qport_high_table(&p, e);
        for (int k = 0; k < 64; k++) /* entries belong to VLs, shared by their requests */
            owner[k] = (p.taken >> k & 1) ? -2 : -1;
        wasted = 0;
        for (int v = 0; v < 16; v++)
            if (p.vl[v].dist) {
                double need = ceil(arbtab_weight_units(p.vl[v].bw, c.rate_bps) / 255 - 1e-9);
                int min = arbtab_entries_for(p.vl[v].dist);
                wasted += p.vl[v].entries - (int)(need > min ? need : min);
            }
    }
    print_layout(e, owner);
    int nfree = 64 - (share ? arbtab_count(p.taken) : 0);
    if (!share)
        for (int k = 0; k < 64; k++)
            nfree -= owner[k] >= 0;
    printf("# placed %d of %d requests; wasted entries %d; free entries %d", placed, nreq, wasted, nfree);
    if (share)
        printf("; reserved %.6g Mb/s of %.6g; repacks %u", p.reserved / 1e6, c.cap * c.rate_bps / 1e6, p.repacks);
    printf("\n");
    print_string(e);
    free(req);
    return 0;
bad:
    free(req);
    return 2;
}

int cmd_qos(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "table"))
        return cmd_table(argc - 1, argv + 1);
    if (!strcmp(argv[1], "admit"))
        return cmd_qos_admit(argc - 1, argv + 1);
    fprintf(stderr, "ibnetsim qos: unknown subcommand \"%s\"; expected table or admit\n", argv[1]);
    return 2;
}

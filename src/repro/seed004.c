/* seed004.c: seed 004's reproductions (digest 004): the worked example of Figs. 4 and 5 (cycles,
 * path bits, the tables at vertex a), the 15-node network's path-bit count, the Head-of-Queue
 * Lifetime law, dropping breaking an SPF deadlock, and Fig. 7's best-effort claims on generated
 * 15-node networks (the paper's Fig. 6 topology is not printed: networks of the same size and
 * degree from the irregular generator, topology seeds 1-3, best-effort traffic only), and
 * Figs. 7, 8 and 9 with seed 004's MPEG-2 real-time mix (scenarios/seed004/net15-mix.cfg: seven
 * video streams per host on the shortest path, RD and UD best effort, control on VL15; the
 * 5-stage pipelined switch) on generated 15-switch 23-link and 30-switch 46-link networks,
 * topology seeds 1-3: DMP, DMT and per-class latency per scheme (docs/seed004.md), and Fig. 10's
 * multicast schemes on the same kind of networks, topology seeds 1-8 (scenarios/seed004/fig10.cfg,
 * docs/multicast.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/drop.h"
#include "repro/repro.h"
#include "routing/pathbits.h"
#include "routing/route.h"
#include "topology/generate.h"

/* Fig. 4a with a host on port 5 of each switch. */
static void fig4(struct topo *t)
{
    struct ibn_err e = { { 0 } };
    topo_init(t);
    const char *sw[4] = { "a", "b", "c", "d" };
    int id[4];
    for (int i = 0; i < 4; i++)
        id[i] = topo_add_node(t, TOPO_SWITCH, sw[i], 5);
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "H%s", sw[i]);
        topo_connect(t, id[i], 5, topo_add_node(t, TOPO_CA, name, 1), 1, 1, IB_SDR, 2.5e9, 0, &e);
    }
    static const int links[5][4] = { { 0, 1, 1, 1 }, { 0, 2, 2, 1 }, { 1, 2, 2, 2 }, { 1, 3, 3, 1 },
                                     { 2, 3, 3, 2 } };
    for (int i = 0; i < 5; i++)
        topo_connect(t, id[links[i][0]], links[i][1], id[links[i][2]], links[i][3], 1, IB_SDR,
                     2.5e9, 0, &e);
    topo_assign_lids(t, 0);
}

static int vtx(const struct pathbits *pb, const struct topo *t, char c)
{
    char n[2] = { c, 0 };
    return pathbits_vertex(pb, t, n);
}

static int worked_example(struct repro_table *t, struct ibn_err *e)
{
    struct topo g;
    struct pathbits pb;
    fig4(&g);
    if (pathbits_build(&g, "b", 0, -1, &pb, e)) {
        topo_free(&g);
        return -1;
    }
    /* The cycles, as the paper names them. */
    int cyc_ok = pb.ncycles == 2;
    const char *want[2] = { "acba", "cdbc" };
    for (int c = 0; c < pb.ncycles && c < 2; c++)
        for (int i = 0; i <= pb.cyc_len[c]; i++)
            cyc_ok &= g.node[pb.node[pb.cyc[c][i]]].name[0] == want[c][i];
    repro_add(t, "fig4-cycles", "Fig. 4: one cycle per non-tree edge of the BFS tree from b: C1 = "
              "acba, C2 = cdbc", "2", 2, cyc_ok ? pb.ncycles : 0, "cycles", 0, 0);
    static const char *const paths[6] = { "ba", "bca", "bdca", "ab", "acb", "acdb" };
    static const char *const bits[6] = { "1X", "01", "00", "0X", "10", "11" };
    int match = 0;
    for (int i = 0; i < 6; i++) {
        int v[8], n = (int)strlen(paths[i]);
        for (int k = 0; k < n; k++)
            v[k] = vtx(&pb, &g, paths[i][k]);
        uint64_t val, care;
        char buf[8] = "";
        if (!pathbits_of_path(&pb, v, n, &val, &care))
            pathbits_format(&pb, val, care, buf);
        match += !strcmp(buf, bits[i]);
    }
    repro_add(t, "fig4-path-bits", "Fig. 4: path bits ba 1X, bca 01, bdca 00, ab 0X, acb 10, "
              "acdb 11 (Algorithm 3), paths matching", "6", 6, match, "paths", 0, 0);
    /* The multipath table at a: 2^1 x 3 entries, P1 = 0 -> port 1 (b), 1 -> port 2 (c). */
    int a = vtx(&pb, &g, 'a'), ok = 0;
    for (int d = 0; d < pb.nsw; d++)
        if (d != a)
            for (uint64_t P = 0; P < 4; P++)
                ok += pathbits_next(&pb, a, d, P) == vtx(&pb, &g, (P & 1) ? 'c' : 'b');
    repro_add(t, "fig5c-table-a", "Fig. 5c: multipath table at a has 2^1 x 3 entries, b0X c0X d0X "
              "-> 1, b1X c1X d1X -> 2 (entries right)", "6",
              6, (double)(pathbits_entries_per_dest(&pb, a) * 3 == 6 ? ok / 2 : 0), "entries", 0, 0);
    pathbits_free(&pb);
    /* SPF (ties as drawn: the highest port) and Up/Down (tree links, root b) at a. */
    struct lfts l;
    int ia = topo_find(&g, "a"), right = 0;
    const char *hosts[3] = { "Hb", "Hc", "Hd" };
    struct route_opts so = { .tie = "highest" };
    if (route_compute(&g, "spf", &so, &l, e)) {
        topo_free(&g);
        return -1;
    }
    int spf_want[3] = { 1, 2, 2 };
    for (int i = 0; i < 3; i++)
        right += lft_port(&l, ia, g.node[topo_find(&g, hosts[i])].port[1].lid) == spf_want[i];
    lfts_free(&l);
    repro_add(t, "fig5a-spf-a", "Fig. 5a: SPF table at a: b -> 1, c -> 2, d -> 2 (entries right)",
              "3", 3, right, "entries", 0, 0);
    struct route_opts uo = { .roots = "b" };
    if (route_compute(&g, "updn_tree", &uo, &l, e)) {
        topo_free(&g);
        return -1;
    }
    right = 0;
    for (int i = 0; i < 3; i++)
        right += lft_port(&l, ia, g.node[topo_find(&g, hosts[i])].port[1].lid) == 1;
    lfts_free(&l);
    repro_add(t, "fig5b-updn-a", "Fig. 5b: Up/Down (tree links only, root b) at a: all to port 1 "
              "(entries right)", "3", 3, right, "entries", 0, 0);
    topo_free(&g);
    return 0;
}

static int fifteen_node(struct repro_table *t, struct ibn_err *e)
{
    int bits_min = 99, bits_max = 0, on12 = 0, nsw = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct topo g;
        struct pathbits pb;
        if (topo_generate("irregular", "switches=15,ports=5,hosts=1,links=23,planar=1", seed, &g, e))
            return -1;
        if (pathbits_build(&g, NULL, 0, PB_SLACK_DEFAULT, &pb, e)) {
            topo_free(&g);
            return -1;
        }
        bits_min = pb.ncycles < bits_min ? pb.ncycles : bits_min;
        bits_max = pb.ncycles > bits_max ? pb.ncycles : bits_max;
        for (int v = 0; v < pb.nsw; v++, nsw++)
            on12 += pb.nloc[v] == 1 || pb.nloc[v] == 2;
        pathbits_free(&pb);
        topo_free(&g);
    }
    repro_add_kind(t, REPRO_DERIVED, "net15-path-bits", "15-node network: 9 cycles, 9 path bits (generated 15-switch "
              "23-link networks, topology seeds 1-3; follows from |E| - |V| + 1)", "9", 9,
              bits_min == bits_max ? bits_min : -1, "bits", 0, 0);
    repro_add_kind(t, REPRO_INFO, "net15-table-sizes", "15-node network: every switch on 1 or 2 cycles (tables of "
              "30 or 60 entries); share of switches so on the generated networks (their "
              "topology differs: the paper's is not printed)", "1", 1.0,
              (double)on12 / (double)nsw, "share", 0, 0);
    return 0;
}

static int lifetime_and_deadlock(struct repro_table *t, struct ibn_err *e)
{
    repro_add_kind(t, REPRO_DERIVED, "hll-hv8", "HLL = 4.096 us x 2^HV: HV = 8", "1.049", 1.048576,
              (double)drop_lifetime(8) / 1e9, "ms", 0.0005, 0);
    struct repro_series s0, s1;
    if (repro_run_may_stick("seed004/ring-spf.cfg", NULL, 0, &s0, e))
        return -1;
    const char *hv0[] = { "switch.hoq_life=0" };
    if (repro_run_may_stick("seed004/ring-spf.cfg", hv0, 1, &s1, e)) {
        repro_series_free(&s0);
        return -1;
    }
    repro_add(t, "drop-breaks-deadlock", "Section 2.6: SPF deadlocks (4-switch ring, stuck) and "
              "dropping (HV 0) breaks it: packets delivered with dropping / without", "> 1", 1,
              s0.delivered ? (double)s1.delivered / (double)s0.delivered : 0, "ratio", -1,
              !s0.drained && s1.drained && s1.delivered > s0.delivered);
    repro_series_free(&s0);
    repro_series_free(&s1);
    return 0;
}

/* The paper's 9 path bits on the 15-node network: one per cycle, as LMC 9 (beyond IBA's 7). */
#define NINE_BITS "topology.path_bits=0", "topology.lmc_beyond_iba=true"

/* Mean network latency (us) of the 15-node best-effort scenario; -1 when it did not drain. */
static double be_hops, be_delivered; /* of the last be_latency run: links per packet, packets */
static double be_latency(uint64_t seed, const char *load, const char *const *extra, int nextra,
                         struct ibn_err *e, int *err)
{
    char sk[48], lk[48];
    snprintf(sk, sizeof sk, "simulation.seed=%llu", (unsigned long long)seed);
    snprintf(lk, sizeof lk, "flows.BE.load=%s", load);
    const char *over[10] = { sk, lk };
    for (int i = 0; i < nextra && i < 8; i++)
        over[2 + i] = extra[i];
    struct repro_series s;
    if (repro_run_may_stick("seed004/net15-be.cfg", over, 2 + nextra, &s, e)) {
        *err = 1;
        return 0;
    }
    double v = s.drained ? s.net_latency_us : -1;
    be_hops = s.delivered + s.dropped ? (double)s.hops / (double)(s.delivered + s.dropped) : 0;
    be_delivered = (double)s.delivered;
    repro_series_free(&s);
    return v;
}

static int fig7_best_effort(struct repro_table *t, struct ibn_err *e)
{
    static const char *const updn[] = { "topology.routing=updn_tree" };
    static const char *const lfu[] = { "topology.routing=pathbits", "topology.path_bits=7",
                                       "flows.BE.path=adaptive", "switch.adaptive=lfu" };
    static const char *const lfu_drop[] = { "topology.routing=pathbits", "topology.path_bits=7",
                                            "flows.BE.path=adaptive", "switch.adaptive=lfu",
                                            "switch.hoq_life=4" };
    int err = 0, spf_better = 0, n = 0, mp_higher = 0, mp_stuck = 0, mp_half = 0;
    static const char *const lfu_drop_s1[] = { "topology.routing=pathbits", "topology.path_bits=7",
                                               "flows.BE.path=adaptive", "switch.adaptive=lfu",
                                               "switch.hoq_life=4", "topology.path_slack=1" };
    static const char *const lfu_drop9[] = { "topology.routing=pathbits", NINE_BITS,
                                             "flows.BE.path=adaptive", "switch.adaptive=lfu",
                                             "switch.hoq_life=4" };
    double ratio_lo = 0, ratio_hi = 0, hops_ratio = 0, hops_spf = 0, deliv = 0, slack1 = 0;
    double ratio9 = 0;
    int half9 = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (int k = 0; k < 2; k++) {
            const char *load = k ? "0.5" : "0.2";
            double spf = be_latency(seed, load, NULL, 0, e, &err);
            double ud = be_latency(seed, load, updn, 1, e, &err);
            if (err)
                return -1;
            n++;
            spf_better += spf > 0 && (ud < 0 || spf < ud);
        }
        double spf_lo = be_latency(seed, "0.2", NULL, 0, e, &err);
        double mp_lo = be_latency(seed, "0.2", lfu, 4, e, &err);
        double spf_hi = be_latency(seed, "0.5", NULL, 0, e, &err);
        double h_spf = be_hops, d_spf = be_delivered;
        double mp_hi = be_latency(seed, "0.5", lfu, 4, e, &err);
        double mpd_hi = be_latency(seed, "0.5", lfu_drop, 5, e, &err);
        hops_ratio += be_hops / h_spf / 3;
        hops_spf += h_spf / 3;
        deliv += be_delivered / d_spf / 3;
        double mps_hi = be_latency(seed, "0.5", lfu_drop_s1, 6, e, &err);
        slack1 += (mps_hi > 0 ? mps_hi / spf_hi : 0) / 3;
        double mp9_hi = be_latency(seed, "0.5", lfu_drop9, 6, e, &err);
        ratio9 += (mp9_hi > 0 ? mp9_hi / spf_hi : 0) / 3;
        half9 += mp9_hi > 0 && mp9_hi <= 0.6 * spf_hi;
        if (err)
            return -1;
        mp_higher += mp_lo > spf_lo;
        ratio_lo += mp_lo / spf_lo / 3;
        mp_stuck += mp_hi < 0;
        mp_half += mpd_hi > 0 && mpd_hi <= 0.6 * spf_hi;
        ratio_hi += (mpd_hi > 0 ? mpd_hi / spf_hi : 0) / 3;
    }
    repro_add(t, "fig7-spf-vs-updn", "Fig. 7: SPF better than Up/Down (best of 3 roots) everywhere: "
              "runs (3 topologies x 20 %, 50 % best-effort load) with lower mean latency", "6",
              n, spf_better, "runs", 0, 0);
    repro_add(t, "fig9-mp-low-load", "Fig. 9 (and 15-node at low load): multipath raises "
              "best-effort latency at 20 % load (non-minimal paths): mean multipath/SPF over 3 "
              "topologies (LFU, 7 path bits)", "> 1", 1, ratio_lo, "ratio", -1, mp_higher == 3);
    repro_add(t, "fig7-mp-high-load", "Fig. 7: multipath (+ dropping) about halves latency against "
              "SPF above 50 % load: mean multipath+LFU+drop (HV 4)/SPF at 50 %, 3 topologies "
              "(best effort only; without dropping multipath deadlocks in these runs)", "0.5",
              0.5, ratio_hi, "ratio", -1, mp_half == 3);
    repro_add(t, "fig7-mp-high-load-9bits", "Fig. 7: multipath (+ dropping) about halves latency "
              "against SPF above 50 % load, with the paper's 9 path bits (LMC 9, beyond IBA's 7): "
              "mean multipath+LFU+drop (HV 4)/SPF at 50 %, 3 topologies (best effort only)", "0.5",
              0.5, ratio9, "ratio", -1, half9 == 3);
    (void)mp_stuck;
    /* The evidence for the miss (docs/seed004.md): longer paths and a saturated network. */
    char claim[224];
    snprintf(claim, sizeof claim, "Why fig7-mp-high-load misses: links per packet (host links "
             "included) of Multipath+LFU+Drop / SPF at 50 %% best effort, 3 topologies (SPF: %.2f)",
             hops_spf);
    repro_add_kind(t, REPRO_INFO, "be50-links-per-packet", claim, "-", NAN, hops_ratio, "ratio",
                   0, 0);
    repro_add_kind(t, REPRO_INFO, "be50-delivered-share", "Why fig7-mp-high-load misses: packets "
                   "delivered by Multipath+LFU+Drop / by SPF at 50 % best effort (the same "
                   "offered load), 3 topologies", "-", NAN, deliv, "ratio", 0, 0);
    repro_add_kind(t, REPRO_INFO, "be50-slack1", "Why fig7-mp-high-load misses: the same "
                   "multipath+LFU+drop/SPF latency ratio when path bits cover only paths up to "
                   "shortest + 1 hop (topology.path_slack = 1, default 4), 3 topologies", "-", NAN,
                   slack1, "ratio", 0, 0);
    return 0;
}

/* ---- Figs. 7-9: the MPEG-2 real-time mix (scenarios/seed004/net15-mix.cfg) ---- */

/* The seven schemes of Figs. 7 and 8 (Fig. 9 uses a subset). HV 8 (HLL 1.05 ms) for dropping:
 * the paper does not give HV (digest 004 gap 7). */
enum { S_UPDN, S_SPF, S_SPFD, S_LFU, S_LFUD, S_CRED, S_CREDD, NSCHEME,
       /* the multipath schemes with the paper's 9 path bits (LMC 9, beyond IBA's 7) */
       S_LFU9 = NSCHEME, S_LFUD9, S_CRED9, S_CREDD9, NSCHEME_ALL };
static const char *const scheme_name[NSCHEME_ALL] = {
    "Up/Down", "SPF", "SPF+Drop", "Multipath+LFU", "Multipath+LFU+Drop", "Multipath+Credit",
    "Multipath+Credit+Drop", "Multipath+LFU (9 bits)", "Multipath+LFU+Drop (9 bits)",
    "Multipath+Credit (9 bits)", "Multipath+Credit+Drop (9 bits)" };
static const char *const scheme_over[NSCHEME_ALL][5] = {
    { "topology.routing=updn_tree" },
    { NULL },
    { "switch.hoq_life=8" },
    { "topology.routing=pathbits", "switch.adaptive=lfu" },
    { "topology.routing=pathbits", "switch.adaptive=lfu", "switch.hoq_life=8" },
    { "topology.routing=pathbits", "switch.adaptive=max_credit" },
    { "topology.routing=pathbits", "switch.adaptive=max_credit", "switch.hoq_life=8" },
    { "topology.routing=pathbits", "switch.adaptive=lfu", NINE_BITS },
    { "topology.routing=pathbits", "switch.adaptive=lfu", "switch.hoq_life=8", NINE_BITS },
    { "topology.routing=pathbits", "switch.adaptive=max_credit", NINE_BITS },
    { "topology.routing=pathbits", "switch.adaptive=max_credit", "switch.hoq_life=8", NINE_BITS },
};
#define MIX_SEEDS 3
/* Relative rates of the seven streams (mean 1): the paper's seven traces differ in bandwidth. */
static const double stream_w[7] = { 0.55, 0.7, 0.85, 1.0, 1.15, 1.3, 1.45 };

struct mix_res {
    double dmp, dmt_ms;        /* real-time frames */
    double rt_us, ct_us, be_us, all_us; /* mean network latency per class and over all */
    int drained;
    double hops;               /* link traversals per packet created (incl. dropped) */
};

/* Override texts for one run, kept until the runs are over. */
struct mix_over {
    char s[13][96];
};

static void mix_job(struct repro_job *j, struct mix_over *o, int net30, double ratio, double load,
                    int scheme, int seed)
{
    memset(j, 0, sizeof *j);
    j->file = "seed004/net15-mix.cfg";
    j->may_stick = 1;
    int n = 0;
    for (int k = 0; k < 7; k++)
        snprintf(o->s[n++], sizeof o->s[0], "flows.V%d.load=%.9g", k + 1,
                 load * ratio * stream_w[k] / 7);
    snprintf(o->s[n++], sizeof o->s[0], "flows.RD.load=%.9g", load * (1 - ratio) / 2);
    snprintf(o->s[n++], sizeof o->s[0], "flows.UD.load=%.9g", load * (1 - ratio) / 2);
    snprintf(o->s[n++], sizeof o->s[0], "simulation.seed=%d", seed);
    if (net30)
        snprintf(o->s[n++], sizeof o->s[0],
                 "topology.args=switches=30,ports=5,hosts=1,links=46,planar=1,link=2.5Gb/s");
    for (int i = 0; i < n; i++)
        j->over[j->nover++] = o->s[i];
    for (int i = 0; i < 5 && scheme_over[scheme][i]; i++)
        j->over[j->nover++] = scheme_over[scheme][i];
}

static void mix_result(const struct repro_series *s, struct mix_res *r)
{
    unsigned long long frames = 0, missed = 0, n[3] = { 0 }, all_n = 0;
    double miss = 0, lat[3] = { 0 }, all = 0;
    for (int sl = 0; sl < 16; sl++) {
        const struct repro_sl *q = &s->sl[sl];
        int c = sl <= 6 ? 0 : sl <= 8 ? 1 : sl == 15 ? 2 : -1;
        if (sl <= 6) {
            frames += q->frames;
            missed += q->missed;
            miss += q->miss_ps;
        }
        if (c >= 0) {
            lat[c] += q->net_ps;
            n[c] += q->net_n;
        }
        all += q->net_ps;
        all_n += q->net_n;
    }
    r->dmp = frames ? (double)missed / (double)frames : 0;
    r->dmt_ms = missed ? miss / (double)missed / 1e9 : 0;
    r->rt_us = n[0] ? lat[0] / (double)n[0] / 1e6 : NAN;
    r->be_us = n[1] ? lat[1] / (double)n[1] / 1e6 : NAN;
    r->ct_us = n[2] ? lat[2] / (double)n[2] / 1e6 : NAN;
    r->all_us = all_n ? all / (double)all_n / 1e6 : NAN;
    r->drained = s->drained;
    r->hops = s->delivered + s->dropped ? (double)s->hops / (double)(s->delivered + s->dropped) : 0;
}

/* Run the grid (schemes x loads x seeds) for one figure: res[(sc * nl + l) * MIX_SEEDS + k]. */
static int mix_grid(int net30, double ratio, const int *schemes, int ns, const double *loads,
                    int nl, struct mix_res *res, struct ibn_err *e)
{
    int n = ns * nl * MIX_SEEDS;
    struct repro_job *jobs = xcalloc((size_t)n, sizeof *jobs);
    struct mix_over *ov = xcalloc((size_t)n, sizeof *ov);
    struct repro_series *out = xcalloc((size_t)n, sizeof *out);
    for (int a = 0; a < ns; a++)
        for (int l = 0; l < nl; l++)
            for (int k = 0; k < MIX_SEEDS; k++) {
                int i = (a * nl + l) * MIX_SEEDS + k;
                mix_job(&jobs[i], &ov[i], net30, ratio, loads[l], schemes[a], k + 1);
            }
    int rc = repro_run_jobs(jobs, n, out, e);
    if (!rc)
        for (int i = 0; i < n; i++) {
            mix_result(&out[i], &res[i]);
            repro_series_free(&out[i]);
        }
    free(jobs);
    free(ov);
    free(out);
    return rc;
}

#define R(res, nl, a, l, k) (&(res)[((a) * (nl) + (l)) * MIX_SEEDS + (k)])

/* 1 - x/y per seed (a reduction), x and y from two schemes at one load. */
static void reductions(const struct mix_res *res, int nl, int a, int b, int l, int what, double *v)
{
    for (int k = 0; k < MIX_SEEDS; k++) {
        const struct mix_res *x = R(res, nl, a, l, k), *y = R(res, nl, b, l, k);
        double xv = what == 0 ? x->dmp : what == 1 ? x->dmt_ms : what == 2 ? x->rt_us
                    : what == 3 ? x->ct_us : what == 4 ? x->be_us : x->all_us;
        double yv = what == 0 ? y->dmp : what == 1 ? y->dmt_ms : what == 2 ? y->rt_us
                    : what == 3 ? y->ct_us : what == 4 ? y->be_us : y->all_us;
        v[k] = isnan(xv) || isnan(yv) ? NAN : yv > 0 ? 1 - xv / yv : 0; /* NAN: a class
                                                                   delivered nothing measured */
    }
}

static int stuck_count(const struct mix_res *res, int nl, int a, int l)
{
    int n = 0;
    for (int k = 0; k < MIX_SEEDS; k++)
        n += !R(res, nl, a, l, k)->drained;
    return n;
}

static void print_grid(const char *fig, const int *schemes, int ns, const double *loads, int nl,
                       const struct mix_res *res)
{
    for (int a = 0; a < ns; a++)
        for (int l = 0; l < nl; l++)
            for (int k = 0; k < MIX_SEEDS; k++) {
                const struct mix_res *r = R(res, nl, a, l, k);
                fprintf(stderr, "  %s %-22s load %.2f seed %d: DMP %.4f DMT %.3f ms, latency RT "
                        "%.1f CT %.1f BE %.1f all %.1f us, %.2f links/packet%s\n", fig,
                        scheme_name[schemes[a]], loads[l], k + 1, r->dmp, r->dmt_ms, r->rt_us,
                        r->ct_us, r->be_us, r->all_us, r->hops, r->drained ? "" : ", STUCK");
            }
}

/* Fig. 7a-b's rows for one multipath-with-dropping scheme (grid index a, scheme sch) against SPF
 * (grid index spf) at load index l: the DMP cut (50-65 %) and the DMT cut (30-55 %). */
static void cut_rows(struct repro_table *t, const struct mix_res *res, int nl, int a, int sch,
                     int spf, int l, const char *dn, const char *suffix, const char *note)
{
    double v[MIX_SEEDS];
    char claim[224], id[48];
    reductions(res, nl, a, spf, l, 0, v);
    snprintf(id, sizeof id, "fig7-dmp60-%s-drop%s", dn, suffix);
    snprintf(claim, sizeof claim, "Fig. 7a: at 60 %% %s cuts DMP by 50-65 %% against SPF: "
             "1 - DMP ratio, 3 topologies%s", scheme_name[sch], note);
    repro_add_reps(t, REPRO_EVIDENCE, id, claim, "0.50-0.65", 0.575, v, MIX_SEEDS, "reduction",
                   0.075);
    reductions(res, nl, a, spf, l, 1, v);
    snprintf(id, sizeof id, "fig7-dmt60-%s-drop%s", dn, suffix);
    snprintf(claim, sizeof claim, "Fig. 7b: at 60 %% %s cuts DMT by 30-55 %% against SPF: "
             "1 - DMT ratio, 3 topologies", scheme_name[sch]);
    repro_add_reps(t, REPRO_EVIDENCE, id, claim, "0.30-0.55", 0.425, v, MIX_SEEDS, "reduction",
                   0.125);
}

/* Fig. 7c-e's row for one multipath scheme: its average latency about half of SPF's. */
static void half_row(struct repro_table *t, const struct mix_res *res, int nl, int a, int sch,
                     int spf, int l, const char *dn, const char *suffix, const char *note)
{
    double v[MIX_SEEDS];
    char claim[224], id[48];
    for (int k = 0; k < MIX_SEEDS; k++) {
        const struct mix_res *x = R(res, nl, a, l, k), *y = R(res, nl, spf, l, k);
        v[k] = y->all_us > 0 ? x->all_us / y->all_us : 0;
    }
    snprintf(id, sizeof id, "fig7-mp-half-%s%s", dn, suffix);
    snprintf(claim, sizeof claim, "Fig. 7c-e: %s's average packet latency (network, all "
             "classes) about half of SPF's above 50 %%: ratio at 60 %%, 3 topologies%s",
             scheme_name[sch], note);
    repro_add_reps(t, REPRO_EVIDENCE, id, claim, "~0.5", 0.5, v, MIX_SEEDS, "ratio", 0.05);
}

static int fig7(struct repro_table *t, struct ibn_err *e, struct mix_res *spf60_out)
{
    static const int sch[NSCHEME] = { S_UPDN, S_SPF, S_SPFD, S_LFU, S_LFUD, S_CRED, S_CREDD };
    static const double loads[4] = { 0.2, 0.4, 0.5, 0.6 };
    enum { NL = 4 };
    struct mix_res *res = xcalloc(NSCHEME * NL * MIX_SEEDS, sizeof *res);
    if (mix_grid(0, 0.7, sch, NSCHEME, loads, NL, res, e)) {
        free(res);
        return -1;
    }
    print_grid("fig7", sch, NSCHEME, loads, NL, res);
    /* 1. SPF better than Up/Down in every graph: DMP, DMT and the three latencies, every load
     * and topology. */
    int cmp = 0, better = 0;
    for (int l = 0; l < NL; l++)
        for (int k = 0; k < MIX_SEEDS; k++) {
            const struct mix_res *s = R(res, NL, S_SPF, l, k), *u = R(res, NL, S_UPDN, l, k);
            double sv[5] = { s->dmp, s->dmt_ms, s->rt_us, s->ct_us, s->be_us };
            double uv[5] = { u->dmp, u->dmt_ms, u->rt_us, u->ct_us, u->be_us };
            for (int m = 0; m < 5; m++) {
                cmp++;
                if (m == 4 && !s->drained) /* SPF's best effort deadlocked: worse */
                    continue;
                better += sv[m] <= uv[m] || (isnan(uv[m]) && !isnan(sv[m]));
            }
        }
    repro_add(t, "fig7-spf-vs-updn-mix", "Fig. 7 (70:30, 15 nodes, 3 topologies, loads 20-60 %): SPF "
              "better than Up/Down (tree links) in all graphs: share of (DMP, DMT, RT, control, BE "
              "latency) x load x topology where SPF is no worse", "1", 1, (double)better / cmp,
              "share", -1, better == cmp);
    /* 2. Nothing noticeable up to 40 %: the multipath and drop schemes' DMP within 0.02 of SPF's. */
    double dmax = 0;
    for (int l = 0; l < 2; l++)
        for (int a = S_SPFD; a <= S_CREDD; a++)
            for (int k = 0; k < MIX_SEEDS; k++) {
                double d = fabs(R(res, NL, a, l, k)->dmp - R(res, NL, S_SPF, l, k)->dmp);
                dmax = d > dmax ? d : dmax;
            }
    repro_add(t, "fig7-low-load", "Fig. 7: no noticeable DMP change from multipath or dropping up "
              "to 40 % load: largest |DMP - DMP(SPF)| over the five schemes, 20 and 40 %, 3 "
              "topologies (noticeable: > 0.02)", "< 0.02", 0, dmax, "DMP", -1, dmax <= 0.02);
    /* 3-4. At 60 %: multipath with dropping cuts DMP 50-65 % and DMT 30-55 % against SPF. */
    char note[96];
    int stuck = stuck_count(res, NL, S_SPF, 3);
    const int drops[2] = { S_LFUD, S_CREDD };
    const char *dn[2] = { "lfu", "credit" };
    snprintf(note, sizeof note, " (SPF stuck in %d of them: its best effort deadlocks)", stuck);
    for (int i = 0; i < 2; i++)
        cut_rows(t, res, NL, drops[i], drops[i], S_SPF, 3, dn[i], "", note);
    /* 5. Multipath alone about halves the average latency above 50 %. */
    const int mp[2] = { S_LFU, S_CRED };
    for (int i = 0; i < 2; i++) {
        snprintf(note, sizeof note, " (stuck runs: %s %d, SPF %d; latency of the packets "
                 "delivered)", scheme_name[mp[i]], stuck_count(res, NL, mp[i], 3), stuck);
        half_row(t, res, NL, mp[i], mp[i], S_SPF, 3, dn[i], "", note);
    }
    /* 6. LFU helps real time and control, Max-Credit best effort (50 and 60 %). */
    int n_rc = 0, ok_rc = 0, n_be = 0, ok_be = 0;
    for (int l = 2; l < NL; l++)
        for (int k = 0; k < MIX_SEEDS; k++) {
            const struct mix_res *a = R(res, NL, S_LFU, l, k), *c = R(res, NL, S_CRED, l, k);
            n_rc += 2;
            ok_rc += (a->rt_us <= c->rt_us) + (a->ct_us <= c->ct_us);
            n_be++;
            ok_be += c->be_us <= a->be_us;
        }
    repro_add(t, "fig7-lfu-rt-ct", "Fig. 7c-d: Multipath+LFU gives lower real-time and control "
              "latency than Multipath+Credit: share of (class x 50, 60 % x 3 topologies)", "1", 1,
              (double)ok_rc / n_rc, "share", -1, ok_rc == n_rc);
    repro_add(t, "fig7-credit-be", "Fig. 7e: Multipath+Credit gives lower best-effort latency "
              "than Multipath+LFU: share of (50, 60 % x 3 topologies)", "1", 1,
              (double)ok_be / n_be, "share", -1, ok_be == n_be);
    for (int k = 0; k < MIX_SEEDS; k++)
        spf60_out[k] = *R(res, NL, S_SPF, 3, k);
    free(res);
    return 0;
}

/* Fig. 7's 60 % rows again with the paper's 9 path bits (LMC 9: topology.lmc_beyond_iba), the
 * same claims and tolerances: whether the LMC-limited form (7 bits, 2 of 23 links unused) is
 * why those rows miss (docs/seed004.md section 4). SPF is run again in the same grid. */
static int fig7_9bits(struct repro_table *t, struct ibn_err *e)
{
    enum { NS = 5, NL = 1 };
    static const int sch[NS] = { S_SPF, S_LFUD9, S_CREDD9, S_LFU9, S_CRED9 };
    static const double loads[NL] = { 0.6 };
    struct mix_res *res = xcalloc(NS * NL * MIX_SEEDS, sizeof *res);
    if (mix_grid(0, 0.7, sch, NS, loads, NL, res, e)) {
        free(res);
        return -1;
    }
    print_grid("fig7-9bits", sch, NS, loads, NL, res);
    const char *dn[2] = { "lfu", "credit" };
    for (int i = 0; i < 2; i++) {
        char note[64];
        cut_rows(t, res, NL, 1 + i, sch[1 + i], 0, 0, dn[i], "-9bits", "");
        snprintf(note, sizeof note, " (stuck runs: %d, SPF %d)", stuck_count(res, NL, 3 + i, 0),
                 stuck_count(res, NL, 0, 0));
        half_row(t, res, NL, 3 + i, sch[3 + i], 0, 0, dn[i], "-9bits", note);
    }
    free(res);
    return 0;
}

static int fig8(struct repro_table *t, struct ibn_err *e, const struct mix_res *spf60_70)
{
    static const int sch[6] = { S_SPF, S_SPFD, S_LFU, S_LFUD, S_CRED, S_CREDD };
    static const double loads[2] = { 0.4, 0.6 };
    enum { NL = 2, NS = 6 };
    struct mix_res *res = xcalloc(NS * NL * MIX_SEEDS, sizeof *res);
    if (mix_grid(0, 0.3, sch, NS, loads, NL, res, e)) {
        free(res);
        return -1;
    }
    print_grid("fig8", sch, NS, loads, NL, res);
    double a = 0, b = 0;
    for (int k = 0; k < MIX_SEEDS; k++) {
        a += R(res, NL, 0, 1, k)->dmp / MIX_SEEDS;
        b += spf60_70[k].dmp / MIX_SEEDS;
    }
    repro_add(t, "fig8-dmp-smaller", "Fig. 8a: DMP much smaller at 30:70 than at 70:30: SPF's mean "
              "DMP at 60 %, 30:70 / 70:30, 3 topologies", "< 1", 1, b > 0 ? a / b : 0, "ratio", -1,
              a < b);
    /* The same tendencies: multipath with dropping lowers DMP at the higher load; LFU helps real
     * time and control, Credit best effort. */
    /* Only the topologies where SPF misses frames can show it: with no frame late under SPF,
     * "no worse" is 0 <= 0 and cannot fail, so such a topology is left out (no value, and the
     * row does not hold, when every one is). */
    int n = 0, ok = 0;
    for (int k = 0; k < MIX_SEEDS; k++) {
        if (!(R(res, NL, 0, 1, k)->dmp > 0))
            continue;
        n += 2;
        ok += (R(res, NL, 3, 1, k)->dmp <= R(res, NL, 0, 1, k)->dmp) +
              (R(res, NL, 5, 1, k)->dmp <= R(res, NL, 0, 1, k)->dmp);
    }
    repro_add(t, "fig8-mpdrop-dmp", "Fig. 8: multipath with dropping (LFU, Credit) no worse than "
              "SPF on DMP at 60 % (30:70): share of 2 schemes x the topologies where SPF misses "
              "frames (none: no value)", "1", 1, n ? (double)ok / n : NAN, "share", -1, n && ok == n);
    int n_rc = 0, ok_rc = 0, n_be = 0, ok_be = 0;
    for (int k = 0; k < MIX_SEEDS; k++) {
        const struct mix_res *l = R(res, NL, 2, 1, k), *c = R(res, NL, 4, 1, k);
        n_rc += 2;
        ok_rc += (l->rt_us <= c->rt_us) + (l->ct_us <= c->ct_us);
        n_be++;
        ok_be += c->be_us <= l->be_us;
    }
    repro_add(t, "fig8-lfu-rt-ct", "Fig. 8c-d: Multipath+LFU lower real-time and control latency "
              "than Multipath+Credit at 60 % (30:70): share of class x 3 topologies", "1", 1,
              (double)ok_rc / n_rc, "share", -1, ok_rc == n_rc);
    repro_add(t, "fig8-credit-be", "Fig. 8e: Multipath+Credit lower best-effort latency than "
              "Multipath+LFU at 60 % (30:70): share of 3 topologies", "1", 1, (double)ok_be / n_be,
              "share", -1, ok_be == n_be);
    free(res);
    return 0;
}

static int fig9(struct repro_table *t, struct ibn_err *e)
{
    static const int sch[2] = { S_SPF, S_LFU };
    static const double loads[2] = { 0.2, 0.28 };
    enum { NL = 2, NS = 2 };
    struct mix_res *res = xcalloc(NS * NL * MIX_SEEDS, sizeof *res);
    if (mix_grid(1, 0.7, sch, NS, loads, NL, res, e)) {
        free(res);
        return -1;
    }
    print_grid("fig9", sch, NS, loads, NL, res);
    double v[MIX_SEEDS];
    static const struct { const char *id, *cls, *paper; double p; int what; } red[3] = {
        { "fig9-rt-28", "real-time", "0.70", 0.7, 2 },
        { "fig9-ct-28", "control", "0.60", 0.6, 3 },
        { "fig9-be-28", "best-effort", "0.90", 0.9, 4 },
    };
    for (int i = 0; i < 3; i++) {
        char claim[224];
        reductions(res, NL, 1, 0, 1, red[i].what, v);
        snprintf(claim, sizeof claim, "Fig. 9 (30 nodes, 70:30): Multipath+LFU lowers %s latency "
                 "against SPF at 28 %% by %s: 1 - ratio, 3 generated 30-switch 46-link "
                 "topologies (stuck: SPF %d, multipath %d; nan: a deadlocked class delivered "
                 "nothing)", red[i].cls, red[i].paper, stuck_count(res, NL, 0, 1),
                 stuck_count(res, NL, 1, 1));
        repro_add_reps(t, REPRO_EVIDENCE, red[i].id, claim, red[i].paper, red[i].p, v, MIX_SEEDS,
                       "reduction", 0.1);
    }
    int up = 0, down = 0;
    for (int k = 0; k < MIX_SEEDS; k++) {
        const struct mix_res *m = R(res, NL, 1, 0, k), *s = R(res, NL, 0, 0, k);
        up += m->be_us > s->be_us;
        down += (m->rt_us < s->rt_us) + (m->ct_us < s->ct_us);
    }
    repro_add(t, "fig9-be-20-up", "Fig. 9c: at 20 % multipath raises best-effort latency "
              "(non-minimal paths): topologies of 3 where Multipath+LFU's is above SPF's", "3", 3,
              up, "topologies", -1, up == MIX_SEEDS);
    repro_add(t, "fig9-rt-ct-20-down", "Fig. 9a-b: at 20 % multipath still lowers real-time and "
              "control latency: (class x topology) of 6 where Multipath+LFU's is below SPF's", "6",
              6, down, "cases", -1, down == 2 * MIX_SEEDS);
    free(res);
    return 0;
}

static int mix_figures(struct repro_table *t, struct ibn_err *e)
{
    struct mix_res spf60[MIX_SEEDS];
    if (fig7(t, e, spf60) || fig7_9bits(t, e) || fig8(t, e, spf60) || fig9(t, e))
        return -1;
    return 0;
}

/* Packet-weighted mean latency (us) of the flows whose names start with `prefix`. */
static double class_latency(const struct repro_series *s, const char *prefix)
{
    double sum = 0, n = 0;
    for (int i = 0; i < s->nflows; i++)
        if (!strncmp(s->names[i], prefix, strlen(prefix))) {
            sum += s->flow_e2e_us[i] * s->flow_e2e_n[i];
            n += s->flow_e2e_n[i];
        }
    return n > 0 ? sum / n : 0;
}

/* Deadline missing probability of the unicast real-time streams (flows RT*). */
static double rt_dmp(const struct repro_series *s)
{
    double frames = 0, missed = 0;
    for (int i = 0; i < s->nflows; i++)
        if (!strncmp(s->names[i], "RT", 2)) {
            frames += s->flow_frames[i];
            missed += s->flow_missed[i];
        }
    return frames > 0 ? missed / frames : 0;
}

/* Fig. 10's networks: topology seeds 1..FIG10_NETS, fixed before the runs (2026-11-29: 8, from 3,
 * whose t-interval (t = 4.30 at 2 degrees of freedom) was wider than most of the claims' margins). */
enum { FIG10_NETS = 8 };

/* Fig. 10a-e's rows from the four schemes' runs on NT networks (u: per network, unicast, sync,
 * async, central in that order); `sw` names the switch in the claims, `sfx` ends the row ids. */
static void fig10_scheme_rows(struct repro_table *t, const struct repro_series *out, int nt,
                              const char *sw, const char *sfx)
{
    enum { NTMAX = FIG10_NETS };
    double worst[NTMAX], sync_async[NTMAX], central[NTMAX], dmp[NTMAX], be[NTMAX], ctl[NTMAX];
    int stuck[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < nt; k++) {
        const struct repro_series *u = &out[k * 4], *sy = &out[k * 4 + 1], *as = &out[k * 4 + 2],
                                  *ce = &out[k * 4 + 3];
        double hw = (sy->mcast_lat_us + as->mcast_lat_us + ce->mcast_lat_us) / 3;
        worst[k] = hw > 0 ? u->mcast_lat_us / hw : 0;
        sync_async[k] = as->mcast_lat_us > 0 ? sy->mcast_lat_us / as->mcast_lat_us : 0;
        double best = fmin(sy->mcast_lat_us, as->mcast_lat_us);
        central[k] = best > 0 ? ce->mcast_lat_us / best : 0;
        double d_u = rt_dmp(u), d_hw = (rt_dmp(sy) + rt_dmp(as) + rt_dmp(ce)) / 3;
        dmp[k] = d_u > 0 ? d_hw / d_u : NAN; /* no frame late under replicated unicast: undefined */
        double b_hw = (class_latency(sy, "BE") + class_latency(as, "BE") + class_latency(ce, "BE")) / 3;
        be[k] = class_latency(u, "BE") > 0 ? b_hw / class_latency(u, "BE") : 0;
        double c_hw = (class_latency(sy, "CTL") + class_latency(as, "CTL") + class_latency(ce, "CTL")) / 3;
        ctl[k] = class_latency(u, "CTL") > 0 ? c_hw / class_latency(u, "CTL") : 0;
        for (int m = 0; m < 4; m++)
            stuck[m] += !out[k * 4 + m].drained;
        fprintf(stderr, "seed004 fig10 %s network %d: multicast latency (us) unicast %.1f%s, sync "
                "%.1f%s, async %.1f%s, central %.1f%s\n", sw, k + 1, u->mcast_lat_us,
                u->drained ? "" : " STUCK", sy->mcast_lat_us, sy->drained ? "" : " STUCK",
                as->mcast_lat_us, as->drained ? "" : " STUCK", ce->mcast_lat_us,
                ce->drained ? "" : " STUCK");
    }
    char where[480], claim[800], id[48];
    snprintf(where, sizeof where, "(generated 15-switch networks, topology seeds 1-%d: Fig. 6 is not "
             "printed; 30 %% load, RT:BE 70:30, 20 %% of RT multicast to 3 groups of 2 or 4; a VL "
             "per real-time stream, multicast on VL 10 of its own; SPF with HV 8 dropping; sync "
             "reserves outputs FCFS by injection at the source; %s; runs that did not drain, "
             "latencies of the packets delivered: unicast %d, sync %d, async %d, central %d)", nt,
             sw, stuck[0], stuck[1], stuck[2], stuck[3]);
#define ID(base) (snprintf(id, sizeof id, "%s%s", base, sfx), id)
    snprintf(claim, sizeof claim, "Fig. 10c: replicated unicast worst: its multicast latency / the "
             "mean of the three switch schemes' %s", where);
    repro_add_trend(t, ID("fig10c-unicast-worst"), claim, "> 1", worst, nt, "ratio", 1, INFINITY);
    snprintf(claim, sizeof claim, "Fig. 10c: synchronous about equal to asynchronous replication: "
             "multicast latency sync / async (counter and one-packet buffer per input VL; about "
             "equal read as within 0.8-1.25) %s", where);
    repro_add_trend(t, ID("fig10c-sync-eq-async"), claim, "~1", sync_async, nt, "ratio", 0.8, 1.25);
    snprintf(claim, sizeof claim, "Fig. 10c: asynchronous with a central buffer slightly best: "
             "multicast latency central / the better of sync and async %s", where);
    repro_add_trend(t, ID("fig10c-central-best"), claim, "< 1", central, nt, "ratio", -INFINITY, 1);
    snprintf(claim, sizeof claim, "Fig. 10a: switch replication lowers the real-time DMP: mean DMP "
             "of the three switch schemes / replicated unicast's (unicast RT streams; multicast "
             "streams have no deadline measure; undefined, and not holding, where replicated "
             "unicast misses no frame) %s", where);
    repro_add_trend(t, ID("fig10a-dmp"), claim, "< 1", dmp, nt, "ratio", -INFINITY, 1);
    snprintf(claim, sizeof claim, "Fig. 10e: replication helps best effort: mean best-effort latency "
             "of the switch schemes / replicated unicast's %s", where);
    repro_add_trend(t, ID("fig10e-best-effort"), claim, "< 1", be, nt, "ratio", -INFINITY, 1);
    snprintf(claim, sizeof claim, "Fig. 10d: replication helps control traffic: mean control "
             "latency of the switch schemes / replicated unicast's %s", where);
    repro_add_trend(t, ID("fig10d-control"), claim, "< 1", ctl, nt, "ratio", -INFINITY, 1);
#undef ID
}

/* Fig. 10: the four multicast schemes on generated 15-node networks (topology seeds 1-FIG10_NETS; the
 * paper's network is not printed), scenarios/seed004/fig10.cfg, on two switches: fig10.cfg's
 * input-queued switch (rows fig10a-e) and the seed's own 5-stage pipelined switch with Table 1's
 * 4200-byte output VL buffers (switch.arch = pipe, as the Fig. 7-9 mix runs; rows ending -pipe). */
static int fig10_multicast(struct repro_table *t, struct ibn_err *e)
{
    enum { NT = FIG10_NETS, NS = 4, NP = 4, NSW = 2 };
    static const char *const schemes[NS] = { "multicast.scheme=unicast", "multicast.scheme=sync",
                                             "multicast.scheme=async", "multicast.scheme=central" };
    /* Fig. 10f's policies with asynchronous replication, on the pipelined switch (its stage 3
     * reserves crossbar outputs). Policy 1: no VL of their own,
     * the three multicast flows on the real-time VLs 0, 3 and 6 (sharing them with unicast
     * streams; the VL 10 entry then idles), and "for [policy] 1, we give multicast traffic
     * higher priority over unicast traffic in reserving the output VLs ... multicast traffic can
     * preempt all unicast traffic" (multicast.xbar_priority: multicast heads first at every
     * crossbar output, whatever the unicast packets' VL). Policies 2-4: the multicast streams on
     * VL 10 of their own (fig10.cfg's layout), no such priority ("with separate VLs, multicast
     * traffic uses the limited number of VLs"), VL 10 weighted as each real-time VL (2), times
     * the mean group size n = 10/3 (3, linear: 213) or times 1 + ln n (4, logarithmic,
     * Legout's LogRD: 141). */
    static const char *const hi = "qos.vlarb_high=0:64,1:64,2:64,3:64,4:64,5:64,6:64,7:64,8:64,9:64,";
    char pol3[160], pol4[160];
    snprintf(pol3, sizeof pol3, "%s10:213", hi);
    snprintf(pol4, sizeof pol4, "%s10:141", hi);
    const char *const policy[NP][4] = {
        { "multicast.xbar_priority=true", "flows.MC1.sl=0", "flows.MC2.sl=3", "flows.MC3.sl=6" },
        { NULL }, { pol3, NULL }, { pol4, NULL } };
    enum { NJ = NSW * NT * NS + NT * NP };
    struct repro_job jobs[NJ];
    memset(jobs, 0, sizeof jobs);
    for (int w = 0; w < NSW; w++)
        for (int k = 0; k < NT; k++)
            for (int m = 0; m < NS; m++) {
                struct repro_job *j = &jobs[(w * NT + k) * NS + m];
                j->file = "seed004/fig10.cfg";
                j->over[j->nover++] = schemes[m];
                if (w == 1) {
                    j->over[j->nover++] = "switch.arch=pipe";
                    j->over[j->nover++] = "switch.out_buffer=4200 B";
                }
                snprintf(j->seed, sizeof j->seed, "simulation.seed=%d", k + 1);
                j->may_stick = 1; /* a deadlock is a result (counted in the claims) */
            }
    for (int k = 0; k < NT; k++)
        for (int q = 0; q < NP; q++) {
            struct repro_job *j = &jobs[NSW * NT * NS + k * NP + q];
            j->file = "seed004/fig10.cfg";
            j->over[0] = "multicast.scheme=async";
            j->over[1] = "switch.arch=pipe";
            j->over[2] = "switch.out_buffer=4200 B";
            j->nover = 3;
            for (int i = 0; i < 4 && policy[q][i]; i++)
                j->over[j->nover++] = policy[q][i];
            snprintf(j->seed, sizeof j->seed, "simulation.seed=%d", k + 1);
            j->may_stick = 1;
        }
    struct repro_series out[NJ];
    if (repro_run_jobs(jobs, NJ, out, e))
        return -1;
    double pol1[NT], pol_log[NT];
    int pstuck = 0;
    for (int k = 0; k < NT; k++) {
        const struct repro_series *p = &out[NSW * NT * NS + k * NP]; /* p[q]: policy q + 1 */
        double sep = fmin(p[1].mcast_lat_us, fmin(p[2].mcast_lat_us, p[3].mcast_lat_us));
        pol1[k] = sep > 0 ? p[0].mcast_lat_us / sep : 0;
        double other = fmin(p[1].mcast_lat_us, p[2].mcast_lat_us);
        pol_log[k] = other > 0 ? p[3].mcast_lat_us / other : 0;
        for (int q = 0; q < NP; q++)
            pstuck += !p[q].drained;
        fprintf(stderr, "seed004 fig10f network %d: multicast latency (us) policy 1 %.1f, 2 %.1f, "
                "3 %.1f, 4 %.1f; unicast real-time latency (us) %.1f, %.1f, %.1f, %.1f%s\n",
                k + 1, p[0].mcast_lat_us, p[1].mcast_lat_us, p[2].mcast_lat_us, p[3].mcast_lat_us,
                class_latency(&p[0], "RT"), class_latency(&p[1], "RT"), class_latency(&p[2], "RT"),
                class_latency(&p[3], "RT"),
                p[0].drained && p[1].drained && p[2].drained && p[3].drained ? "" : " (a run STUCK)");
    }
    fig10_scheme_rows(t, out, NT, "the input-queued switch", "");
    fig10_scheme_rows(t, out + NT * NS, NT, "the pipelined switch with output VL buffers", "-pipe");
    for (int i = 0; i < NJ; i++)
        repro_series_free(&out[i]);
    char where[480];
    snprintf(where, sizeof where, "(generated 15-switch networks, topology seeds 1-%d: Fig. 6 is "
             "not printed; 30 %% load, RT:BE 70:30, 20 %% of RT multicast to 3 groups of 2 or 4; "
             "a VL per real-time stream, multicast on VL 10 of its own; SPF with HV 8 dropping; "
             "the pipelined switch with output VL buffers; runs that did not drain: %d of %d)", NT,
             pstuck, NT * NP);
    char claim[600];
    snprintf(claim, sizeof claim, "Fig. 10f: at higher load policy 1 (multicast shares the VLs and "
             "is ahead of all unicast in reserving outputs) beats separate VLs: async multicast "
             "latency, policy 1 (multicast flows on real-time VLs 0, 3, 6, xbar_priority) / the best "
             "of policies 2-4 (VL 10, weight x1, x n, x (1 + ln n), n = 10/3; the 6:5 split not "
             "reproduced) %s", where);
    repro_add_trend(t, "fig10f-policy1-best", claim, "< 1", pol1, NT, "ratio", -INFINITY, 1);
    snprintf(claim, sizeof claim, "Fig. 10f: the logarithmic allocation (4) is the best of the "
             "separate-VL policies: multicast latency policy 4 / the better of 2 and 3 %s", where);
    repro_add_trend(t, "fig10f-log-best", claim, "< 1", pol_log, NT, "ratio", -INFINITY, 1);
    return 0;
}

int repro_s004_fig10(struct repro_table *t, struct ibn_err *e)
{
    return fig10_multicast(t, e);
}

int repro_seed004(struct repro_table *t, struct ibn_err *e)
{
    if (worked_example(t, e) || fifteen_node(t, e) || lifetime_and_deadlock(t, e) ||
        fig7_best_effort(t, e) || mix_figures(t, e) || fig10_multicast(t, e))
        return -1;
    return 0;
}

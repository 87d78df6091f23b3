/* seed001_table3.c: seed 001's network results (section 4, Table 3, the claims of Figs. 7 and
 * 8, and section 2.4's isolation claim) from scenarios/seed001/table3.cfg: irregular networks of
 * 8, 16, 32 and 64 switches of 8 ports (4 hosts each), 2.5 Gb/s, 256-byte packets, Table 2's
 * SLs requested until 10 000 consecutive refusals, admitted connections sending CBR through the
 * simulated fabric with the tables admission built.
 *
 * Tolerances, fixed here before the runs: utilisation of host interfaces and switch ports
 * within 3 percentage points of the paper (the figure); reservations within 75 Mb/s
 * (3 points of the 2.5 Gb/s link); connection counts within 15 % (the figure; the paper
 * does not give its request process, and the count depends on the stop rule: docs/qos.md);
 * packets lost (created minus delivered after the drain) and packets past their connection's
 * guaranteed bound exactly 0 (the paper: all injected traffic delivered, every packet of every
 * SL before its deadline); Fig. 8's jitter: for SLs 0-4, 6 and 7 all samples within +-IAT/8 (at
 * least 99.5 % counted as all: a sample at the run's first arrival of a connection whose phase
 * was drawn is still one sample), for SLs 5, 8 and 9 none beyond +-IAT (exactly 0). The paper's
 * measurement runs until the slowest connection has received 100 packets (25.6 s simulated);
 * ibnetsim measures a shorter window (stated per row): with random phases the expected count of
 * every connection's packets in a window is exact, so utilisation is unbiased, but SLs with an
 * IAT longer than the window contribute few jitter samples (none: the row is info). Utilisation
 * divided by reservation is arithmetic on rows (derived); delivered bytes/cycle/node is host
 * utilisation / 100 (derived). `table3` simulates 8 and 16 switches and the isolation
 * experiment; `table3big` simulates 32 and 64 switches (309 325 and 628 034 connections as
 * flows, 10 ms each). Known misses (docs/qos.md): the connection counts, the 16-switch host
 * utilisation and Fig. 8's "never beyond +-IAT" for SLs 5, 8, 9. The bound packets are checked
 * against is admission's, with the multiplexed crossbar's term (docs/qos.md "The hop bound";
 * without it 771 SL 0 packets were past it on 64 switches). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/scenario.h"
#include "fabric/build.h"
#include "fabric/engine.h"
#include "repro/repro.h"

#define T3_FILE IBN_SOURCE_DIR "/scenarios/seed001/table3.cfg"

struct t3_result {
    long long conns;
    double host_res, sw_res;       /* Mb/s */
    double host_util, sw_util;     /* % of the link */
    unsigned long long created, delivered, missed, measured;
    double worst;                  /* largest delay / bound */
    double central[16], beyond[16];/* jitter shares per SL */
    unsigned long long jn[16];
    unsigned long long other_vl_missed, other_vl_conns, excess_refused;
    double wall;
};

static int t3_run(int switches, const char *duration, int excess, struct t3_result *r, struct ibn_err *e)
{
    memset(r, 0, sizeof *r);
    char args[96], dur[64];
    snprintf(args, sizeof args, "topology.args=switches=%d,link=2.5Gb/s", switches);
    snprintf(dur, sizeof dur, "simulation.duration=%s", duration);
    const char *over[4] = { args, dur, "connections.excess_sl=9", "connections.excess=30" };
    struct scenario sc;
    struct topo t;
    struct lfts l;
    struct run_desc d;
    struct fabric f;
    struct run_report rep;
    memset(&t, 0, sizeof t);
    memset(&l, 0, sizeof l);
    memset(&f, 0, sizeof f);
    int rc = repro_load(T3_FILE, over, excess ? 4 : 2, &sc, e);
    if (!rc)
        rc = scenario_topology(&sc, &t, &l, e) || scenario_run_desc(&sc, &t, &d, e) ||
             fabric_build(&f, &t, &l, &d, e) || scenario_apply(&sc, &f, e) ||
             fabric_run(&f, NULL, &rep, e);
    if (!rc) {
        const struct conn_state *s = *sc.cst;
        struct qmetrics m;
        qmetrics_compute(&s->a, &m);
        r->conns = s->cs.n;
        r->host_res = m.host_res_bps / 1e6;
        r->sw_res = m.sw_res_bps / 1e6;
        double secs = (double)f.end / 1e12;
        double hsum = 0, ssum = 0;
        int nh = 0, ns = 0;
        for (int n = 0; n < f.nnodes; n++)
            for (int p = 1; p <= f.nodes[n]->nports; p++) {
                const struct port *pt = &f.nodes[n]->port[p];
                if (!pt->peer)
                    continue;
                uint64_t b = 0;
                for (int v = 0; v < f.nvs; v++)
                    b += pt->vl[v].ctr.xmit_bytes;
                double u = 100.0 * (double)b * 8.0 / (byterate_bps(pt->rate) * secs);
                if (f.nodes[n]->is_switch)
                    ssum += u, ns++;
                else
                    hsum += u, nh++;
            }
        r->host_util = nh ? hsum / nh : 0;
        r->sw_util = ns ? ssum / ns : 0;
        r->created = f.cnt.created;
        r->delivered = f.cnt.delivered;
        struct jitter j[16];
        for (int sl = 0; sl < 16; sl++)
            jitter_init(&j[sl], 1, 8);
        int xvl = s->excess_idx >= 0 ? f.flows[connections_run_flow(s, &f, s->excess_idx)].vl : -1;
        for (int i = 0; i < s->cs.n; i++) {
            const struct flow *fl = &f.flows[connections_run_flow(s, &f, i)];
            const struct conn_entry *x = &s->cs.c[i];
            r->measured += fl->st.deadlines.frames;
            if (excess && fl->vl != xvl) {
                r->other_vl_conns++;
                r->other_vl_missed += fl->st.deadlines.missed;
            }
            if (excess && i == s->excess_idx)
                r->excess_refused = fl->st.msgs_refused;
            if (fl->vl == xvl)
                continue; /* the excess VL's connections are not part of Figs. 7 and 8 */
            r->missed += fl->st.deadlines.missed;
            if (fl->st.e2e_latency.count && x->conn.bound > 0) {
                double w = (double)fl->st.e2e_latency.max / (double)x->conn.bound;
                if (w > r->worst)
                    r->worst = w;
            }
            jitter_merge(&j[x->req.sl], &fl->st.jitter);
        }
        for (int sl = 0; sl < 16; sl++) {
            r->jn[sl] = j[sl].n;
            r->central[sl] = jitter_bin_share(&j[sl], 4);
            r->beyond[sl] = jitter_bin_share(&j[sl], 0) + jitter_bin_share(&j[sl], 8);
        }
        r->wall = s->wall_s;
        if (rep.outcome != RUN_DRAINED)
            r->delivered = 0; /* not drained: reported as lost */
    }
    fabric_free(&f);
    lfts_free(&l);
    topo_free(&t);
    scenario_free(&sc);
    return rc ? -1 : 0;
}

static const struct t3_paper {
    int n;
    const char *dur;
    double host_util, sw_util, host_res, sw_res;
    long long conns;
    const char *p_hu, *p_su, *p_hr, *p_sr, *p_c;
} T3[] = {
    { 8, "20 ms", 75.57, 72.93, 1926.85, 1859.59, 46495, "75.57", "72.93", "1926.85", "1859.59", "46495" },
    { 16, "10 ms", 72.58, 73.48, 1848.67, 1871.75, 111813, "72.58", "73.48", "1848.67", "1871.75", "111813" },
    { 32, "10 ms", 72.48, 72.66, 1834.04, 1827.16, 232854, "72.48", "72.66", "1834.04", "1827.16", "232854" },
    { 64, "10 ms", 72.27, 71.94, 1822.41, 1837.62, 284365, "72.27", "71.94", "1822.41", "1837.62", "284365" },
};

static void admission_rows(struct repro_table *t, const struct t3_paper *p, const struct t3_result *r)
{
    char id[48], claim[224];
    snprintf(id, sizeof id, "t3.%d.host_res", p->n);
    snprintf(claim, sizeof claim, "Table 3, %d switches (%d hosts): average reservation of host interfaces",
             p->n, 4 * p->n);
    repro_add(t, id, claim, p->p_hr, p->host_res, r->host_res, "Mb/s", 75.0, 0);
    snprintf(id, sizeof id, "t3.%d.switch_res", p->n);
    snprintf(claim, sizeof claim, "Table 3, %d switches: average reservation of switch ports", p->n);
    repro_add(t, id, claim, p->p_sr, p->sw_res, r->sw_res, "Mb/s", 75.0, 0);
    snprintf(id, sizeof id, "t3.%d.connections", p->n);
    snprintf(claim, sizeof claim, "Table 3, %d switches: established connections (requests end after "
             "10 000 consecutive refusals; +-15 %%)", p->n);
    repro_add(t, id, claim, p->p_c, (double)p->conns, (double)r->conns, "conns", 0.15 * (double)p->conns, 0);
}

/* The rows of one simulated network: utilisation, admission, delivery, deadlines. */
static void run_rows(struct repro_table *t, const struct t3_paper *p, const struct t3_result *r)
{
    char id[48], claim[224];
#define ROW(kind, suffix, text, ptext, pv, ours, unit, tol)                                        \
    do {                                                                                           \
        snprintf(id, sizeof id, "t3.%d.%s", p->n, suffix);                                        \
        snprintf(claim, sizeof claim, "Table 3, %d switches (%d hosts, measured over %s): %s",    \
                 p->n, 4 * p->n, p->dur, text);                                                    \
        repro_add_kind(t, kind, id, claim, ptext, pv, ours, unit, tol, 0);                        \
    } while (0)
    ROW(REPRO_EVIDENCE, "host_util", "average utilisation of host interfaces", p->p_hu,
        p->host_util, r->host_util, "%", 3.0);
    ROW(REPRO_EVIDENCE, "switch_util", "average utilisation of switch ports", p->p_su, p->sw_util,
        r->sw_util, "%", 3.0);
    admission_rows(t, p, r);
    char dt[32];
    snprintf(dt, sizeof dt, "%.4f", p->host_util / 100);
    ROW(REPRO_DERIVED, "delivered", "delivered traffic (host utilisation / 100)", dt,
        p->host_util / 100, r->host_util / 100, "B/cycle/node", 0.03);
    ROW(REPRO_DERIVED, "util_over_res", "host utilisation over host reservation (paper 0.981: "
        "1-2 % below the reservation, cause not stated)", "0.981",
        p->host_util / (p->host_res / 25.0), r->host_util / (r->host_res / 25.0), "ratio", 0.02);
    ROW(REPRO_EVIDENCE, "lost", "packets created and not delivered after the drain (\"delivers "
        "all injected traffic\")", "0", 0, (double)(r->created - r->delivered), "packets", 0);
    ROW(REPRO_EVIDENCE, "late", "packets past their connection's guaranteed bound (Fig. 7: all "
        "packets of all SLs before the deadline)", "0", 0, (double)r->missed, "packets", 0);
    ROW(REPRO_INFO, "packets", "packets measured against their bounds", "", NAN,
        (double)r->measured, "packets", 0);
    ROW(REPRO_INFO, "worst_over_bound", "largest delay over its connection's bound", "", NAN,
        r->worst, "ratio", 0);
#undef ROW
}

int repro_seed001_table3big(struct repro_table *t, struct ibn_err *e)
{
    for (int k = 2; k < 4; k++) {
        struct t3_result r;
        if (t3_run(T3[k].n, T3[k].dur, 0, &r, e))
            return ibn_err_prefix(e, "table3big, %d switches: ", T3[k].n);
        run_rows(t, &T3[k], &r);
    }
    return 0;
}

int repro_seed001_table3(struct repro_table *t, struct ibn_err *e)
{
    const struct t3_paper *T = T3;
    for (size_t k = 0; k < 2; k++) {
        struct t3_result r;
        if (t3_run(T[k].n, T[k].dur, 0, &r, e))
            return ibn_err_prefix(e, "table3, %d switches: ", T[k].n);
        run_rows(t, &T[k], &r);
        char id[48], claim[224];
        if (T[k].n == 16) { /* Fig. 8: the paper's figures are for 16 switches */
            static const int small[] = { 0, 1, 2, 3, 4, 6, 7 }, big[] = { 5, 8, 9 };
            for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
                int sl = small[i];
                char suf[32], txt[160];
                snprintf(suf, sizeof suf, "fig8.sl%d.central", sl);
                snprintf(txt, sizeof txt, "Fig. 8: SL %d jitter samples within +-IAT/8 (paper 100 %%; "
                         "%llu samples)", sl, r.jn[sl]);
                snprintf(id, sizeof id, "t3.%d.%s", T[k].n, suf);
                snprintf(claim, sizeof claim, "%s", txt);
                if (r.jn[sl]) /* SL 6's IAT (32-256 ms) is longer than the window: no samples */
                    repro_add(t, id, claim, "100", 100, 100 * r.central[sl], "%", 0.5, 0);
                else
                    repro_add_kind(t, REPRO_INFO, id, claim, "", NAN, 0, "%", 0, 0);
            }
            for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
                int sl = big[i];
                snprintf(id, sizeof id, "t3.%d.fig8.sl%d.beyond", T[k].n, sl);
                snprintf(claim, sizeof claim, "Fig. 8: SL %d jitter samples beyond +-IAT (paper: never; "
                         "%llu samples)", sl, r.jn[sl]);
                repro_add(t, id, claim, "0", 0, 100 * r.beyond[sl], "%", 0, 0);
                snprintf(id, sizeof id, "t3.%d.fig8.sl%d.central", T[k].n, sl);
                snprintf(claim, sizeof claim, "Fig. 8: SL %d jitter samples within +-IAT/8 (paper: "
                         "\"almost all\", Gaussian-like)", sl);
                repro_add_kind(t, REPRO_INFO, id, claim, "", NAN, 100 * r.central[sl], "%", 0, 0);
            }
        }
    }
    /* Section 2.4: a source exceeding its reservation hurts only connections on its own VL. */
    struct t3_result r;
    if (t3_run(16, "10 ms", 1, &r, e))
        return ibn_err_prefix(e, "table3, isolation: ");
    repro_add(t, "iso.16.other_vl_late", "2.4: one SL 9 connection offers 30x its reservation (16 "
              "switches): packets of connections on other VLs past their bounds", "0", 0,
              (double)r.other_vl_missed, "packets", 0, 0);
    repro_add_kind(t, REPRO_INFO, "iso.16.excess_refused", "2.4: messages the excess source could not "
                   "even queue (it did exceed)", "", NAN, (double)r.excess_refused, "messages", 0, 0);
    return 0;
}

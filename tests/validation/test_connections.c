/* test_connections.c: connections as a scenario section (issue 13 item 1) on a small irregular
 * fabric of seed 001's kind (4 switches of 8 ports, 4 hosts each, 2.5 Gb/s, 16 hosts, 4-packet
 * VL buffers, multiplexed crossbar): admission builds per-port tables, the fabric uses them,
 * every admitted connection's CBR traffic is delivered (delivered = injected, invariants hold)
 * and every packet arrives within its connection's guaranteed bound (seed 001 Fig. 7's claim);
 * refusals add up by cause and by hop; no port reserves above cap x C; on every port each
 * guaranteed VL's entries are at most its distance apart (cyclically); the dynamic process
 * releases connections; live connections (requests during the run) change the port tables as
 * they come and go and keep every guarantee; a connection offering 30x its reservation (more
 * than its link) leaves every connection of the
 * other VLs on time (seed 001 section 2.4's claim). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/sim.h"

static const char *base =
    "simulation = { duration = \"40 ms\"; warmup = \"0 ms\"; seed = 7; };\n"
    "topology = { generator = \"irregular\"; args = \"switches=4,link=2.5Gb/s\"; routing = \"updn\"; };\n"
    "fabric = { vls = 15; mtu = 256; };\n"
    "switch = { buffer = \"1 KiB\"; read_ports = 1; };\n"
    "hca = { buffer = \"1 KiB\"; };\n";

/* The installed high table's entries of VL v (weight > 0), and the largest cyclic distance
 * between two consecutive ones (64 with one entry; 65 with none). */
static int high_entries(const struct vlarb_table *vt, int v)
{
    int n = 0;
    for (int i = 0; i < vt->nhigh; i++)
        n += vt->high[i].vl == v && vt->high[i].weight;
    return n;
}

static int high_max_gap(const struct vlarb_table *vt, int v)
{
    int first = -1, last = -1, gap = 0;
    for (int i = 0; i < vt->nhigh; i++)
        if (vt->high[i].vl == v && vt->high[i].weight) {
            if (first < 0)
                first = i;
            else if (i - last > gap)
                gap = i - last;
            last = i;
        }
    if (first < 0)
        return 65;
    return first + vt->nhigh - last > gap ? first + vt->nhigh - last : gap;
}

static void run(struct scenario_run *r, const char *conns)
{
    char path[] = "/tmp/ibn_conn_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%sconnections = { %s };\n", base, conns);
    fclose(f);
    int rc = sr_run(r, path, NULL, 0);
    unlink(path);
    if (rc)
        fail_msg("%s", r->e.msg);
}

static void done(struct scenario_run *r)
{
    sr_free(r);
}

/* Every connection's packets delivered and within its bound; returns the connections checked. */
static int check_delivery(struct scenario_run *r, int skip_vl)
{
    const struct conn_state *s = *r->sc.cst;
    int n = 0;
    for (int i = 0; i < s->cs.n; i++) {
        const struct conn_entry *x = &s->cs.c[i];
        const struct flow *fl = &r->f.flows[connections_run_flow(s, &r->f, i)];
        if (fl->vl == skip_vl)
            continue;
        n++;
        if (fl->st.e2e_latency.count != fl->st.pkts_sent)
            fail_msg("%s: %llu packets sent, %llu delivered", fl->name, (unsigned long long)fl->st.pkts_sent,
                     (unsigned long long)fl->st.e2e_latency.count);
        if (fl->st.deadlines.missed)
            fail_msg("%s: %llu of %llu packets missed the deadline", fl->name,
                     (unsigned long long)fl->st.deadlines.missed, (unsigned long long)fl->st.deadlines.frames);
        if (fl->st.e2e_latency.count && fl->st.e2e_latency.max > x->conn.bound)
            fail_msg("%s: worst delay %lld ps above its bound %lld ps", fl->name,
                     (long long)fl->st.e2e_latency.max, (long long)x->conn.bound);
    }
    return n;
}

static void test_fill_delivers_on_time(void **st)
{
    (void)st;
    struct scenario_run r;
    /* Three SLs of Table 2's kind with larger bandwidths (fewer connections: a fast test). */
    run(&r, "process = \"fill\"; stop_fails = 500; sls = \"0:2:5:15,5:32:10:64,9:64:64:255\";");
    const struct conn_state *s = *r.sc.cst;
    const struct cac *a = &s->a;
    printf("  requests %llu, accepted %llu, live %d\n", (unsigned long long)a->st.requests,
           (unsigned long long)a->st.accepted, s->cs.n);
    assert_true(s->cs.n >= 100);
    assert_int_equal(r.rep.outcome, RUN_DRAINED);
    assert_int_equal(r.f.cnt.created, r.f.cnt.delivered);
    int n = check_delivery(&r, -1);
    assert_int_equal(n, s->cs.n);
    uint64_t pkts = 0;
    for (int i = 0; i < s->cs.n; i++)
        pkts += r.f.flows[connections_run_flow(s, &r.f, i)].st.pkts_sent;
    printf("  %llu packets of %d connections delivered, all within their bounds\n",
           (unsigned long long)pkts, n);
    assert_true(pkts > 10000);
    /* Refusals add up by cause, and the port verdicts by hop. */
    uint64_t by_cause = 0, by_hop = 0, port_verdicts = 0;
    for (int k = 1; k < CAC_NCAUSES; k++)
        by_cause += a->st.rejected[k];
    for (int k = 1; k < QP_NVERDICT; k++)
        port_verdicts += a->st.rejected[k];
    for (int h = 0; h < CAC_MAX_HOPS; h++)
        by_hop += a->st.rejected_at_hop[h];
    assert_int_equal(by_cause, a->st.requests - a->st.accepted);
    assert_int_equal(by_hop, port_verdicts);
    assert_true(a->st.rejected[QP_REJ_BW] + a->st.rejected[QP_REJ_TABLE] > 0);
    /* No port reserves above 80 % of its link; ports with reservations got admission's table. */
    int tabled = 0;
    for (int nd = 0; nd < r.t.nnodes; nd++)
        for (int p = 1; p <= r.t.node[nd].nports; p++) {
            const struct qport *q = &a->port[cac_port(a, nd, p)];
            assert_true(q->reserved <= 0.8 * a->rate[cac_port(a, nd, p)] * (1 + 1e-9));
            if (!q->nseq)
                continue;
            tabled++;
            const struct vlarb_table *vt = r.f.nodes[nd]->port[p].vlarb;
            assert_int_equal(vt->nhigh, 64);
            struct vlarb_entry want[64];
            qport_high_table(q, want);
            assert_memory_equal(vt->high, want, sizeof want);
            for (int v = 0; v < 16; v++) /* the distance each VL serves holds on the port */
                if (q->vl[v].dist) {
                    assert_int_equal(high_entries(vt, v), q->vl[v].entries);
                    assert_true(high_max_gap(vt, v) <= q->vl[v].dist);
                }
            for (int i = 0; i < vt->nlow; i++) /* guaranteed VLs are not in the low table */
                assert_true(vt->low[i].vl != 0 && vt->low[i].vl != 5 && vt->low[i].vl != 9);
        }
    assert_true(tabled >= 16);
    done(&r);
}

static void test_dynamic_releases(void **st)
{
    (void)st;
    struct scenario_run r;
    run(&r, "process = \"dynamic\"; requests = 3000; rate = 1000; hold = \"0.2 s\"; "
            "sls = \"5:32:1.55:64,9:64:64:255\";");
    const struct conn_state *s = *r.sc.cst;
    printf("  accepted %llu, released %llu, live %d\n", (unsigned long long)s->a.st.accepted,
           (unsigned long long)s->a.st.released, s->cs.n);
    assert_true(s->a.st.released > 0);
    assert_int_equal((uint64_t)s->cs.n, s->a.st.accepted - s->a.st.released);
    assert_int_equal(check_delivery(&r, -1), s->cs.n);
    done(&r);
}

/* Live connections: requests arrive during the run, each connection's CBR flow runs from its
 * admission to its teardown, and the high tables of its ports change at both moments. Every
 * packet of every connection is delivered within its connection's bound although the tables
 * change under it; each connection offers what its reservation and lifetime give (from first
 * principles: a CBR source with a phase in [0, IAT) offers floor(life / IAT) or one more
 * message in a lifetime `life`); every change is applied, and at the end every port's table is
 * the one admission holds for the connections still up. */
static void test_live_tables_change(void **st)
{
    (void)st;
    struct scenario_run r;
    run(&r, "process = \"dynamic\"; live = true; rate = 40000; hold = \"4 ms\"; "
            "sls = \"5:32:10:64,9:64:64:255\";");
    const struct conn_state *s = *r.sc.cst;
    const struct cac *a = &s->a;
    int up = 0;
    for (int i = 0; i < s->cs.n; i++)
        up += s->cs.c[i].end == SIMTIME_NEVER;
    printf("  requests %llu, accepted %llu, released %llu, up at the end %d, table changes %d\n",
           (unsigned long long)a->st.requests, (unsigned long long)a->st.accepted,
           (unsigned long long)a->st.released, up, s->nchg);
    assert_true(s->live);
    assert_true(a->st.accepted >= 100 && a->st.released >= 50);
    assert_int_equal((uint64_t)s->cs.n, a->st.accepted);
    assert_int_equal((uint64_t)up, a->st.accepted - a->st.released);
    assert_true(s->nchg > 0);
    assert_int_equal(s->applied, s->nchg);
    assert_int_equal(r.rep.outcome, RUN_DRAINED);
    assert_int_equal(r.f.cnt.created, r.f.cnt.delivered);
    assert_int_equal(check_delivery(&r, -1), s->cs.n);
    simtime_t horizon = r.sc.sim.duration;
    for (int i = 0; i < s->cs.n; i++) {
        const struct conn_entry *x = &s->cs.c[i];
        const struct flow *fl = &r.f.flows[connections_run_flow(s, &r.f, i)];
        simtime_t end = x->end == SIMTIME_NEVER || x->end > horizon ? horizon : x->end;
        double life = (double)(end - x->start), iat = fl->arr.period_ps;
        uint64_t lo = (uint64_t)floor(life / iat), got = fl->st.msgs_offered;
        if (got < lo || got > lo + 1)
            fail_msg("%s: %llu messages offered in %.0f ps at one per %.0f ps (expected %llu or %llu)",
                     fl->name, (unsigned long long)got, life, iat, (unsigned long long)lo,
                     (unsigned long long)lo + 1);
        assert_int_equal(fl->start, x->start);
    }
    for (int nd = 0; nd < r.t.nnodes; nd++)
        for (int p = 1; p <= r.t.node[nd].nports; p++) {
            if (r.t.node[nd].port[p].peer_node < 0)
                continue;
            const struct qport *q = &a->port[cac_port(a, nd, p)];
            const struct vlarb_table *vt = r.f.nodes[nd]->port[p].vlarb;
            if (!q->nseq) {
                assert_int_equal(vt->nhigh, 0);
                continue;
            }
            assert_int_equal(vt->nhigh, 64);
            struct vlarb_entry want[64];
            qport_high_table(q, want);
            assert_memory_equal(vt->high, want, sizeof want);
        }
    done(&r);
}

static void test_excess_hurts_only_its_vl(void **st)
{
    (void)st;
    struct scenario_run r;
    run(&r, "process = \"fill\"; stop_fails = 500; sls = \"0:2:5:15,5:32:10:64,9:64:64:255\"; "
            "excess_sl = 9; excess = 30;");
    const struct conn_state *s = *r.sc.cst;
    assert_true(s->excess_idx >= 0);
    const struct flow *x = &r.f.flows[connections_run_flow(s, &r.f, s->excess_idx)];
    double reserved = s->cs.c[s->excess_idx].req.bw / 1e6;
    printf("  %s reserved %.1f Mb/s, offers 30x (more than its link); refused %llu of its "
           "messages\n", x->name, reserved, (unsigned long long)x->st.msgs_refused);
    /* It did overload: its source could not send all it offered. */
    assert_true(x->st.msgs_refused > 0);
    int n = check_delivery(&r, x->vl);
    printf("  %d connections on the other VLs all delivered within their bounds\n", n);
    assert_true(n >= 20);
    done(&r);
}

/* process = "flows" (seed 003's probe admission of the scenario's own real-time streams, digest
 * 003 section 2.4): a line of three switches (one host each, 1.6 Gb/s); F1 (0.6 Gb/s, SL 1) and
 * F2 (0.3, SL 2) from H1 to H3, F3 (0.7, SL 1) from H2 to H3 would put 1.66 Gb/s on the wire of
 * the link S(H2) -> S(H3): refused; F4 (0.7, SL 1) H2 -> H1 goes the other way: admitted. Each
 * asks for its rate on the wire (640-byte messages, 666 bytes on the wire). */
static const char *flows_scn =
    "simulation = { duration = \"2 ms\"; warmup = \"0 ms\"; seed = 3; };\n"
    "topology = { generator = \"mesh\"; args = \"dims=3x1,hosts=1,link=1.6Gb/s\"; routing = \"dor\"; };\n"
    "fabric = { vls = 3; mtu = 1024; };\n"
    "qos = { vlarb_high = \"1:64,2:64\"; vlarb_low = \"0:64\"; };\n"
    "connections = { process = \"%s\"; flow_sls = \"%s\"; scheme = \"probe\"; cap = 1.0; };\n"
    "flows = (\n"
    "  { name = \"F1\"; src = \"H1\"; dst = \"H3\"; sl = 1; kind = \"constant\"; rate = \"0.6 Gb/s\"; msg_size = 640; },\n"
    "  { name = \"F2\"; src = \"H1\"; dst = \"H3\"; sl = 2; kind = \"constant\"; rate = \"0.3 Gb/s\"; msg_size = 640; },\n"
    "  { name = \"F3\"; src = \"H2\"; dst = \"%s\"; sl = 1; kind = \"constant\"; rate = \"0.7 Gb/s\"; msg_size = 640; },\n"
    "  { name = \"F4\"; src = \"H2\"; dst = \"H1\"; sl = 1; kind = \"constant\"; rate = \"0.7 Gb/s\"; msg_size = 640; },\n"
    "  { name = \"BE\"; src = \"H3\"; dst = \"H1\"; sl = 0; kind = \"poisson\"; rate = \"0.1 Gb/s\"; msg_size = 640; }\n"
    ");\n";

static int run_flows(struct scenario_run *r, const char *process, const char *sls, const char *f3dst)
{
    char path[] = "/tmp/ibn_connf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, flows_scn, process, sls, f3dst);
    fclose(f);
    int rc = sr_run(r, path, NULL, 0);
    unlink(path);
    return rc;
}

/* After a failed run_flows: what scenario_topology had built (admission fails after routing). */
static void failed(struct scenario_run *r)
{
    lfts_free(&r->l);
    topo_free(&r->t);
    scenario_free(&r->sc);
}

static const struct flow *flow_named(const struct fabric *f, const char *name)
{
    for (uint32_t i = 0; i < f->nflows; i++)
        if (!strcmp(f->flows[i].name, name))
            return &f->flows[i];
    return NULL;
}

/* The port of node `from` cabled to node `to` (by name). */
static const struct port *port_to(const struct fabric *f, const char *from, const char *to)
{
    for (int n = 0; n < f->nnodes; n++) {
        const struct node *nd = f->nodes[n];
        if (!nd || strcmp(nd->name, from))
            continue;
        for (int p = 1; p <= nd->nports; p++)
            if (nd->port[p].peer && !strcmp(nd->port[p].peer->node->name, to))
                return &nd->port[p];
    }
    return NULL;
}

static const char *switch_of(const struct fabric *f, const char *host)
{
    const struct port *p = NULL;
    for (int n = 0; n < f->nnodes && !p; n++)
        if (f->nodes[n] && !strcmp(f->nodes[n]->name, host))
            p = &f->nodes[n]->port[1];
    assert_non_null(p);
    assert_non_null(p->peer);
    return p->peer->node->name;
}

/* VL v's weight over a port's high table, and its entries. */
static int high_weight(const struct port *p, int vl, int *entries)
{
    int w = 0;
    *entries = 0;
    for (int i = 0; i < p->vlarb->nhigh; i++)
        if (p->vlarb->high[i].vl == vl && p->vlarb->high[i].weight) {
            w += p->vlarb->high[i].weight;
            ++*entries;
        }
    return w;
}

/* The weight the probe gives bw bit/s of a 1.6 Gb/s link: the link is CAC_PROBE_ENTRIES x 255. */
static void expect_weight(const struct port *p, int vl, double bw_bps)
{
    int ent;
    int w = high_weight(p, vl, &ent);
    double want = bw_bps / 1.6e9 * CAC_PROBE_ENTRIES * 255;
    if (fabs(w - want) > ent + 1e-9)
        fail_msg("VL %d: weight %d, expected %.2f (+-%d entries)", vl, w, want, ent);
}

/* A scenario flow with src = "*" before the generated connections becomes one flow per host,
 * so the connections are not at their description's index in the run: summary.json's per-SL
 * numbers must still be those of the connections' own flows (they were another flow's when
 * the description index was used). */
static void test_star_flow_before_connections(void **st)
{
    (void)st;
    struct scenario_run r;
    char path[] = "/tmp/ibn_conn_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%sqos = { vlarb_low = \"14:64\"; };\n"
               "flows = ( { name = \"BG\"; src = \"*\"; dst = \"uniform\"; kind = \"poisson\"; "
               "load = 0.01; sl = 14; msg_size = \"256 B\"; } );\n"
               "connections = { process = \"fill\"; stop_fails = 500; "
               "sls = \"0:2:5:15,5:32:10:64,9:64:64:255\"; };\n", base);
    fclose(f);
    int rc = sr_run(&r, path, NULL, 0);
    unlink(path);
    if (rc)
        fail_msg("%s", r.e.msg);
    const struct conn_state *s = *r.sc.cst;
    assert_true(s->cs.n >= 100);
    assert_true(r.f.nflows == (uint32_t)(16 + s->cs.n)); /* BG on each of the 16 hosts */
    uint64_t by_sl[16] = { 0 };
    for (uint32_t q = 0; q < r.f.nflows; q++) {
        int i, sl;
        if (sscanf(r.f.flows[q].name, "conn%d.sl%d", &i, &sl) == 2)
            by_sl[sl] += r.f.flows[q].st.pkts_sent;
    }
    json_t *j = connections_json(s, &r.f), *per = json_object_get(j, "per_sl");
    assert_true(json_array_size(per) == 3);
    for (size_t k = 0; k < json_array_size(per); k++) {
        json_t *x = json_array_get(per, k);
        int sl = (int)json_integer_value(json_object_get(x, "sl"));
        uint64_t sent = (uint64_t)json_integer_value(json_object_get(x, "packets_sent"));
        printf("  SL %d: %llu packets sent (summary), %llu (the connections' flows)\n", sl,
               (unsigned long long)sent, (unsigned long long)by_sl[sl]);
        assert_true(sent == by_sl[sl]);
        assert_true(sent > 0);
    }
    json_decref(j);
    sr_free(&r);
}

static void test_flows_admitted_and_weighted(void **st)
{
    (void)st;
    struct scenario_run r;
    if (run_flows(&r, "flows", "1,2", "H3"))
        fail_msg("%s", r.e.msg);
    const struct conn_state *s = *r.sc.cst;
    assert_non_null(s);
    assert_int_equal(s->a.st.requests, 4); /* BE (SL 0) does not ask */
    assert_int_equal(s->a.st.accepted, 3);
    assert_int_equal(s->a.st.rejected[CAC_OK + QP_REJ_BW], 1);
    assert_true(s->refused[2] && !s->refused[0] && !s->refused[1] && !s->refused[3] && !s->refused[4]);
    /* F3 does not run; the others do, delivering what they offer (the constant flows within two
     * messages, best effort within four standard deviations) */
    assert_null(flow_named(&r.f, "F3"));
    const char *names[4] = { "F1", "F2", "F4", "BE" };
    const double rates[4] = { 0.6e9, 0.3e9, 0.7e9, 0.1e9 };
    for (int i = 0; i < 4; i++) {
        const struct flow *fl = flow_named(&r.f, names[i]);
        assert_non_null(fl);
        double want = rates[i] * 2e-3 / (8 * 640);
        double tol = i < 3 ? 2 : 4 * sqrt(want); /* constant; BE is Poisson */
        if (fabs((double)fl->st.pkts_delivered - want) > tol)
            fail_msg("%s delivered %llu packets, offered about %.0f", names[i],
                     (unsigned long long)fl->st.pkts_delivered, want);
    }
    /* Every port's high table is admission's: weights in proportion to the wire rates reserved */
    const double wire = 666.0 / 640.0;
    const char *s1 = switch_of(&r.f, "H1"), *s2 = switch_of(&r.f, "H2"), *s3 = switch_of(&r.f, "H3");
    const struct port *h1 = port_to(&r.f, "H1", s1), *a = port_to(&r.f, s1, s2),
                      *b = port_to(&r.f, s2, s3), *c = port_to(&r.f, s3, "H3"),
                      *back = port_to(&r.f, s2, s1), *none = port_to(&r.f, s3, s2);
    assert_true(h1 && a && b && c && back && none);
    const struct port *fwd[4] = { h1, a, b, c };
    for (int i = 0; i < 4; i++) {
        expect_weight(fwd[i], 1, 0.6e9 * wire);
        expect_weight(fwd[i], 2, 0.3e9 * wire);
    }
    expect_weight(back, 1, 0.7e9 * wire);
    int ent;
    assert_int_equal(high_weight(back, 2, &ent), 0);
    assert_int_equal(none->vlarb->nhigh, 0); /* no reservation on S3 -> S2: an empty high table */
    assert_int_equal(none->vlarb->nlow, 1);  /* the scenario's low table */
    assert_int_equal(none->vlarb->low[0].vl, 0);
    /* the reservations' weights: F1's VL twice F2's on the shared hops */
    int e1, e2;
    double ratio = (double)high_weight(a, 1, &e1) / high_weight(a, 2, &e2);
    assert_true(fabs(ratio - 2.0) < 0.05);
    done(&r);

    /* Without admission every flow runs, and the tables are the scenario's */
    if (run_flows(&r, "none", "1,2", "H3"))
        fail_msg("%s", r.e.msg);
    assert_null(*r.sc.cst);
    assert_non_null(flow_named(&r.f, "F3"));
    b = port_to(&r.f, switch_of(&r.f, "H2"), switch_of(&r.f, "H3"));
    assert_non_null(b);
    assert_int_equal(high_weight(b, 1, &ent), 64);
    assert_int_equal(high_weight(b, 2, &ent), 64);
    done(&r);

    /* Bad input: no SLs; a flow on a requesting SL without one destination host */
    assert_int_not_equal(run_flows(&r, "flows", "", "H3"), 0);
    assert_non_null(strstr(r.e.msg, "flow_sls"));
    failed(&r);
    assert_int_not_equal(run_flows(&r, "flows", "1,2", "uniform"), 0);
    printf("  %s\n", r.e.msg);
    assert_non_null(strstr(r.e.msg, "F3"));
    assert_non_null(strstr(r.e.msg, ":9:")); /* FILE:LINE */
    failed(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_delivers_on_time),
        cmocka_unit_test(test_dynamic_releases),
        cmocka_unit_test(test_live_tables_change),
        cmocka_unit_test(test_excess_hurts_only_its_vl),
        cmocka_unit_test(test_flows_admitted_and_weighted),
        cmocka_unit_test(test_star_flow_before_connections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

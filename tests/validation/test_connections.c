/* test_connections.c: connections as a scenario section (issue 13 item 1) on a small irregular
 * fabric of seed 001's kind (4 switches of 8 ports, 4 hosts each, 2.5 Gb/s, 16 hosts, 4-packet
 * VL buffers, multiplexed crossbar): admission builds per-port tables, the fabric uses them,
 * every admitted connection's CBR traffic is delivered (delivered = injected, invariants hold)
 * and every packet arrives within its connection's guaranteed bound (seed 001 Fig. 7's claim);
 * refusals add up by cause and by hop; no port reserves above cap x C; the dynamic process
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
        const struct flow *fl = &r->f.flows[s->first_conn + i];
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
        pkts += r.f.flows[s->first_conn + i].st.pkts_sent;
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
        const struct flow *fl = &r.f.flows[s->first_conn + i];
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
    const struct flow *x = &r.f.flows[s->first_conn + s->excess_idx];
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_delivers_on_time),
        cmocka_unit_test(test_dynamic_releases),
        cmocka_unit_test(test_live_tables_change),
        cmocka_unit_test(test_excess_hurts_only_its_vl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* connections.c: the scenario's connections section (see connections.h): the request process
 * against admission control, the admitted connections as flows, admission's tables on the
 * fabric's ports, and the summary of both. */
#include "config/connections.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/packet.h"
#include "fabric/swarch.h"
#include "qos/arbtab.h"
#include "traffic/video.h"

static const char *const process_names[] = { "none", "fill", "dynamic", "flows", NULL };
static const char *const scheme_names[] = { "hop", "sm", "sum", "probe", NULL };
static const char *const method_names[] = { "cesy", "cenre", NULL };
static const char *const traffic_names[] = { "constant", "onoff", "video", NULL };
static const char *const bound_names[] = { "crossbar", "output", NULL };

#define OFF(f) offsetof(struct conn_desc, f)
const struct param conn_params[] = {
    { "process", P_ENUM, OFF(process), "none",
      "connection requests (seed 001): none; fill (requests until stop_fails consecutive ones "
      "are refused, or `requests` of them: \"until the fabric is full\"); dynamic (Poisson "
      "arrivals at `rate` held `hold` on average, then torn down; the connections live after "
      "`requests` requests carry traffic); flows (seed 003: the scenario's own flows on the SLs "
      "of flow_sls ask in their order for their mean rate on the wire; a refused flow does not "
      "run; every port gets admission's high table, its weights from the reservations)",
      process_names, 0, 0 },
    { "sls", P_STRING, OFF(sls), "table2",
      "the SLs requested: \"table2\" (seed 001 Table 2: SLs 0-9, distances 2-64 and their "
      "bandwidth ranges, equally likely) or \"SL:DIST:LO:HI[:WEIGHT],...\" (maximum distance "
      "2-64 between the VL's table entries, or 0 for the deadline's; bandwidth uniform in "
      "LO..HI Mb/s; relative weight, default 1)", NULL, 0, 0 },
    { "scheme", P_ENUM, OFF(scheme), "hop",
      "admission control: hop (seed 001, hop by hop with rollback), sm (seed 001's subnet "
      "manager), sum (seed 000's per-SL probe), probe (seed 003's probe)", scheme_names, 0, 0 },
    { "cap", P_DOUBLE, OFF(cap), "0.8", "reservable share of every link", NULL, 0.001, 1 },
    { "method", P_ENUM, OFF(method), "cesy", "table filling: cesy or cenre", method_names, 0, 0 },
    { "repack", P_BOOL, OFF(repack), "true",
      "repack a port's table when fragmentation blocks a fit that its free entries allow", NULL, 0, 0 },
    { "stop_fails", P_INT, OFF(stop_fails), "10000",
      "fill: consecutive refusals that end the process", NULL, 1, 1e12 },
    { "requests", P_INT, OFF(requests), "0",
      "most requests (fill: 0 = no limit; dynamic: required)", NULL, 0, 1e12 },
    { "rate", P_DOUBLE, OFF(rate), "1000", "dynamic: requests per second", NULL, 1e-9, 1e12 },
    { "hold", P_TIME, OFF(hold), "1 s", "dynamic: mean holding time of a connection", NULL, 0, 0 },
    { "deadline", P_TIME, OFF(deadline), "0 s",
      "every request's end-to-end deadline; 0 = none (each SL's distance decides)", NULL, 0, 0 },
    { "hop_bound", P_ENUM, OFF(hop_bound), "crossbar",
      "the per-hop delay bound behind each connection's guarantee (and a deadline's distance): "
      "crossbar (the output's arbitration table plus the turns the packet's input can lose to "
      "its crossbar read ports when switch.read_ports is below the switch's ports; the same as "
      "output with a read port per output) or output (the table alone, the bound before "
      "2026-11-24, which a multiplexed crossbar can break); docs/qos.md \"The hop bound\"",
      bound_names, 0, 0 },
    { "packet", P_SIZE, OFF(packet), "256 B",
      "packet size on the wire (headers included); the payload is the most that fits", NULL, 64, 4122 },
    { "traffic", P_ENUM, OFF(traffic), "constant",
      "what an admitted connection sends at its reserved mean bandwidth: constant (CBR, "
      "random phase), onoff (the flows' on_mean/off_mean defaults), video (synthetic MPEG-2 "
      "GOP scaled to the bandwidth)", traffic_names, 0, 0 },
    { "max_pending", P_INT, OFF(max_pending), "64",
      "messages a connection's source may hold waiting (more are refused and counted)", NULL, 1, 1e6 },
    { "excess", P_DOUBLE, OFF(excess), "1",
      "the first admitted connection of excess_sl sends this many times its reservation "
      "(seed 001: a source exceeding its reservation hurts only its own VL)", NULL, 0.001, 1e6 },
    { "excess_sl", P_INT, OFF(excess_sl), "-1", "SL of the excess connection; -1 = none", NULL, -1, 15 },
    { "live", P_BOOL, OFF(live), "false",
      "dynamic: the requests happen during the run, from time 0 until simulation.duration (and "
      "at most `requests` of them, 0 = no limit): a connection's traffic starts when it is "
      "admitted and stops when it is torn down, and the high-priority VL arbitration tables of "
      "its route's ports change at those moments, as a subnet manager reprograms VLArb; the "
      "low tables keep every data VL so that a torn-down connection's packets drain. false: "
      "the process is played out before the run and the connections live at its end carry "
      "traffic through fixed tables", NULL, 0, 0 },
    { "flow_sls", P_STRING, OFF(flow_sls), "",
      "process = flows: the SLs whose flows ask for admission, \"1,2,...\" (each flow from one "
      "host to one host; the flows of other SLs run unadmitted)", NULL, 0, 0 },
    PARAM_END,
};
#undef OFF

static int parse_sls(const char *text, struct conn_gen *g, struct cac_cfg *c, struct ibn_err *e)
{
    if (!strcmp(text, "table2")) {
        conn_table2(g, c);
        return 0;
    }
    memset(g->sl, 0, sizeof g->sl);
    for (int s = 0; s < 16; s++) {
        c->sl_qos[s] = 0;
        c->sl_dist[s] = 0;
        c->sl_share[s] = 0;
    }
    const char *p = text;
    int n = 0;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        char item[128];
        size_t k = strcspn(p, ",");
        snprintf(item, sizeof item, "%.*s", (int)(k < sizeof item ? k : sizeof item - 1), p);
        int sl, dist;
        double lo, hi, w = 1;
        char extra;
        int got = sscanf(item, "%d:%d:%lf:%lf:%lf%c", &sl, &dist, &lo, &hi, &w, &extra);
        if ((got != 4 && got != 5) || sl < 0 || sl > 15 || (dist != 0 && (dist < 2 || dist > 64)) ||
            !(lo > 0) || !(hi >= lo) || !(w > 0))
            return ibn_err_set(e, "connections.sls: expected \"table2\" or \"SL:DIST:LO:HI[:WEIGHT],...\" "
                               "with SL 0-15, DIST 2-64 (or 0: from the deadline), 0 < LO <= HI in "
                               "Mb/s and WEIGHT > 0, at \"%s\"", item);
        if (g->sl[sl].weight > 0)
            return ibn_err_set(e, "connections.sls: SL %d is given twice", sl);
        g->sl[sl].weight = w;
        g->sl[sl].bw_lo = lo * 1e6;
        g->sl[sl].bw_hi = hi * 1e6;
        c->sl_qos[sl] = 1;
        c->sl_dist[sl] = (uint8_t)dist;
        n++;
        p += k;
    }
    if (!n)
        return ibn_err_set(e, "connections.sls is empty: give \"table2\" or \"SL:DIST:LO:HI,...\"");
    for (int s = 0; s < 16; s++)
        if (c->sl_qos[s])
            c->sl_share[s] = 1.0 / n;
    return 0;
}

static uint32_t payload_of(uint64_t packet, int grh)
{
    uint32_t pl = (uint32_t)packet;
    while (pl > 0 && pkt_wire_bytes(pl, grh) > packet)
        pl--;
    return pl;
}

/* conn_gen.on_change of live connections: the high tables of the connection's ports, as they
 * are now, stamped with the time they take effect. */
static void record_change(void *ctx, const struct cac *a, const struct cac_conn *c, simtime_t t)
{
    struct conn_state *s = ctx;
    for (int h = 0; h < c->nhops; h++) {
        if (s->nchg == s->capchg) {
            s->capchg = s->capchg ? 2 * s->capchg : 256;
            s->chg = xrealloc(s->chg, (size_t)s->capchg * sizeof *s->chg);
        }
        struct conn_tabchange *x = &s->chg[s->nchg++];
        memset(x, 0, sizeof *x);
        int idx = c->hop[h], n, port;
        cac_port_of(a, idx, &n, &port);
        x->t = t;
        x->node = n;
        x->port = (uint8_t)port;
        const struct qport *q = &a->port[idx];
        x->nhigh = q->nseq ? 64 : 0;
        if (q->nseq)
            qport_high_table(q, x->high);
    }
}

/* process = flows: flow_sls as "SL,SL,...": the guaranteed SLs (no distance: seed 003's probe
 * reserves bandwidth only). */
static int parse_flow_sls(const char *text, struct conn_gen *g, struct cac_cfg *c, struct ibn_err *e)
{
    memset(g->sl, 0, sizeof g->sl);
    memset(c->sl_qos, 0, sizeof c->sl_qos);
    memset(c->sl_dist, 0, sizeof c->sl_dist);
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        char *end;
        long sl = strtol(p, &end, 10);
        if (end == p || sl < 0 || sl > 15 || (*end && *end != ',' && *end != ' '))
            return ibn_err_set(e, "connections.flow_sls: expected SLs 0-15 separated by commas, at "
                               "\"%s\"", p);
        c->sl_qos[sl] = 1;
        g->sl[sl].weight = 1;
        n++;
        p = end;
    }
    if (!n)
        return ibn_err_set(e, "connections.process = \"flows\" needs flow_sls: the SLs whose "
                           "flows ask for admission, e.g. \"1,2,3\"");
    return 0;
}

/* A flow's mean offered rate on the wire (bit/s) on a source link of `link` bit/s: its payload
 * rate (from `load` or the arrival process) times the wire bytes of a mean message cut into
 * MTU packets over its payload bytes. */
static double flow_wire_bps(const struct flow_desc *fd, double link, int mtu, int grh)
{
    double msg = fd->arr.kind == ARRIVAL_VIDEO ? video_mean_frame_bytes(&fd->arr)
                                                : arrival_mean_msg_bytes(&fd->arr);
    uint64_t m = (uint64_t)fmax(1, round(msg));
    uint64_t full = (m - 1) / (uint64_t)mtu, rest = m - full * (uint64_t)mtu;
    double wire = (double)full * pkt_wire_bytes((uint32_t)mtu, grh) + pkt_wire_bytes((uint32_t)rest, grh);
    if (fd->load > 0)
        return fd->load_counts == LOAD_WIRE ? fd->load * link : fd->load * link * wire / (double)m;
    return arrival_mean_rate_bps(&fd->arr) * wire / (double)m;
}

static int admit_flows(struct conn_state *s, const struct fabric_settings *set,
                       const struct flow_desc *flows, int nflows, struct ibn_err *e)
{
    struct cac *a = &s->a;
    s->from_flows = 1;
    s->nsc = nflows;
    s->refused = xcalloc((size_t)nflows + 1, 1);
    s->conn_flow = xcalloc((size_t)nflows + 1, sizeof *s->conn_flow);
    s->names = xcalloc((size_t)nflows + 1, sizeof *s->names);
    for (int i = 0; i < nflows; i++)
        s->names[i] = xstrdup(flows[i].name);
    s->cs.cap = nflows + 1;
    s->cs.c = xcalloc((size_t)s->cs.cap, sizeof *s->cs.c);
    for (int i = 0; i < nflows; i++) {
        const struct flow_desc *fd = &flows[i];
        if (fd->sl < 0 || fd->sl > 15 || !a->cfg.sl_qos[fd->sl])
            continue;
        int src = topo_find(a->t, fd->src), dst = fd->dst ? topo_find(a->t, fd->dst) : -1;
        if (src < 0 || dst < 0 || a->t->node[src].type != TOPO_CA || a->t->node[dst].type != TOPO_CA ||
            fd->has_pattern)
            return ibn_err_at(e, fd->file, fd->line, "connections.process = \"flows\": flow %s (SL "
                              "%lld, one of flow_sls) must go from one host to one host (src and "
                              "dst host names) to ask for admission", fd->name, fd->sl);
        int pn = 1;
        while (pn < a->t->node[src].nports && a->t->node[src].port[pn].peer_node < 0)
            pn++;
        double bw = flow_wire_bps(fd, a->rate[cac_port(a, src, pn)], (int)set->mtu, set->grh);
        if (!(bw > 0) || !isfinite(bw))
            return ibn_err_at(e, fd->file, fd->line, "connections.process = \"flows\": flow %s has "
                              "no finite mean rate to ask for (kind saturate?)", fd->name);
        struct cac_req r = { src, dst, (int)fd->sl, bw, 0 };
        struct cac_conn conn;
        int hop;
        simtime_t lat;
        if (cac_admit(a, &r, &conn, &hop, &lat) != CAC_OK) {
            s->refused[i] = 1;
            continue;
        }
        struct conn_entry *x = &s->cs.c[s->cs.n];
        memset(x, 0, sizeof *x);
        x->req = r;
        x->conn = conn;
        x->start = 0;
        x->end = SIMTIME_NEVER;
        s->conn_flow[s->cs.n++] = i;
    }
    return 0;
}

int connections_admit(const struct conn_desc *d, const struct fabric_settings *set, int low_given,
                      uint64_t seed, simtime_t horizon, const struct topo *t, const struct lfts *l,
                      const struct flow_desc *flows, int nflows, struct conn_state **out,
                      struct ibn_err *e)
{
    *out = NULL;
    struct conn_state *s = xcalloc(1, sizeof *s);
    s->excess_idx = -1;
    struct cac_cfg c;
    cac_cfg_defaults(&c);
    if (d->process == CONNP_FLOWS ? parse_flow_sls(d->flow_sls ? d->flow_sls : "", &s->g, &c, e)
                                  : parse_sls(d->sls ? d->sls : "", &s->g, &c, e)) {
        free(s);
        return -1;
    }
    uint32_t pl = payload_of(d->packet, set->grh);
    uint32_t wire = pkt_wire_bytes(pl, set->grh);
    if (pl == 0 || wire > pkt_wire_bytes((uint32_t)set->mtu, set->grh)) {
        free(s);
        return ibn_err_set(e, "connections.packet = %llu bytes does not fit fabric.mtu = %lld (a "
                           "packet carries at most %u bytes on the wire)", (unsigned long long)d->packet,
                           set->mtu, pkt_wire_bytes((uint32_t)set->mtu, set->grh));
    }
    /* The VL map is the fabric's; guaranteed SLs of different distances must not share a VL. */
    for (int sl = 0; sl < 16; sl++) {
        c.sl2vl[sl] = set->sl2vl[sl];
        if (!c.sl_qos[sl] || !(s->g.sl[sl].weight > 0))
            continue;
        if (set->sl2vl_ca[sl] != set->sl2vl[sl]) {
            free(s);
            return ibn_err_set(e, "connections: SL %d is on VL %d at adapters (qos.ca_sl2vl) but on VL "
                               "%d at switches: admission keeps one VL per SL", sl, set->sl2vl_ca[sl],
                               set->sl2vl[sl]);
        }
        if (set->sl2vl[sl] == VL15) {
            free(s);
            return ibn_err_set(e, "connections: SL %d is requested but qos.sl2vl maps it to VL15", sl);
        }
        for (int o = 0; o < sl; o++)
            if (c.sl_qos[o] && s->g.sl[o].weight > 0 && set->sl2vl[o] == set->sl2vl[sl] &&
                c.sl_dist[o] != c.sl_dist[sl])
                return free(s), ibn_err_set(e, "connections: SLs %d and %d (distances %d and %d) share "
                                            "VL %d (fabric.vls = %lld, qos.sl2vl): SLs with different "
                                            "distances must have VLs of their own (seed 001 section "
                                            "3.6); give fabric.vls >= %d or another qos.sl2vl",
                                            o, sl, c.sl_dist[o], c.sl_dist[sl], set->sl2vl[sl],
                                            set->nvls, sl + 1);
    }
    c.scheme = (enum cac_scheme)d->scheme;
    c.cap = d->cap;
    c.method = (enum qos_method)d->method;
    c.repack = d->repack;
    c.mtu = wire;
    /* Same-VL packets that can be ahead at a hop: what the smaller receive buffer holds. */
    uint64_t buf = set->switch_buffer < set->hca_buffer ? set->switch_buffer : set->hca_buffer;
    uint64_t per = (uint64_t)bytes_to_credits(wire) * CREDIT_BYTES;
    c.q = (int)(buf / per > 1 ? buf / per - 1 : 0);
    /* The crossbar's share: an input's read ports and what its buffers hold over the data VLs. */
    if (d->hop_bound == CONN_BOUND_CROSSBAR) {
        c.read_ports = set->read_ports ? (int)set->read_ports : sw_archs[set->arch]->default_read_ports;
        c.in_pkts = (int)((uint64_t)set->nvls * (set->switch_buffer / per));
    }
    c.switch_latency = set->switch_latency;
    if (d->deadline > 0)
        for (int sl = 0; sl < 16; sl++)
            c.sl_dist[sl] = 0;
    s->g.mode = d->process == CONNP_DYNAMIC ? CONN_DYNAMIC : CONN_FILL;
    s->g.stop_fails = d->stop_fails;
    s->g.max_requests = d->requests;
    s->g.rate = d->rate;
    s->g.hold = (double)d->hold / 1e12;
    s->g.deadline = d->deadline;
    s->g.pkt_bytes = wire;
    s->g.seed = seed ? seed : 1;
    s->strip_low = !low_given;
    if (d->live) {
        if (d->process != CONNP_DYNAMIC) {
            free(s);
            return ibn_err_set(e, "connections.live = true needs process = \"dynamic\" (fill keeps "
                               "every connection: nothing is torn down during the run)");
        }
        /* The low tables keep every data VL: a torn-down connection's packets drain there. */
        s->live = 1;
        s->strip_low = 0;
        for (int sl = 0; sl < 16 && low_given; sl++) {
            if (!c.sl_qos[sl] || !(s->g.sl[sl].weight > 0))
                continue;
            int vl = set->sl2vl[sl], sw = 0, ca = 0;
            for (int i = 0; i < set->vlarb_sw.nlow; i++)
                sw |= set->vlarb_sw.low[i].vl == vl && set->vlarb_sw.low[i].weight;
            for (int i = 0; i < set->vlarb_ca.nlow; i++)
                ca |= set->vlarb_ca.low[i].vl == vl && set->vlarb_ca.low[i].weight;
            if (!sw || !ca) {
                free(s);
                return ibn_err_set(e, "connections.live: the %s low VL arbitration table gives no "
                                   "weight to VL %d (SL %d): with live connections every guaranteed "
                                   "VL must be in the low tables too, so that the packets of a "
                                   "torn-down connection drain", sw ? "adapters'" : "switches'", vl, sl);
            }
        }
        s->g.keep_all = 1;
        s->g.horizon = horizon;
        s->g.on_change = record_change;
        s->g.ctx = s;
    }
    if (d->process == CONNP_FLOWS && (d->live || d->excess_sl >= 0)) {
        free(s);
        return ibn_err_set(e, "connections.process = \"flows\" admits the scenario's flows once, "
                           "before the run: live and excess_sl do not apply");
    }
    if (cac_init(&s->a, t, l, &c, e)) {
        free(s);
        return -1;
    }
    struct timespec a0, a1;
    clock_gettime(CLOCK_MONOTONIC, &a0);
    if (d->process == CONNP_FLOWS ? admit_flows(s, set, flows, nflows, e)
                                  : conn_run(&s->a, &s->g, &s->cs, e)) {
        connections_free(s);
        return -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &a1);
    s->wall_s = (double)(a1.tv_sec - a0.tv_sec) + 1e-9 * (double)(a1.tv_nsec - a0.tv_nsec);
    if (d->excess_sl >= 0)
        for (int i = 0; i < s->cs.n && s->excess_idx < 0; i++)
            if (s->cs.c[i].req.sl == d->excess_sl)
                s->excess_idx = i;
    *out = s;
    return 0;
}

int connections_flows(struct conn_state *s, const struct conn_desc *cd, struct run_desc *d,
                      struct ibn_err *e)
{
    const struct topo *t = s->a.t;
    if (s->from_flows) { /* the scenario's flows, those refused left out; nothing owned */
        s->flows = xcalloc((size_t)d->nflows + 1, sizeof *s->flows);
        int k = 0;
        for (int i = 0; i < d->nflows && i < s->nsc; i++)
            if (!s->refused[i])
                s->flows[k++] = d->flows[i];
        s->nflows = s->first_conn = k;
        d->flows = s->flows;
        d->nflows = k;
        return 0;
    }
    int grh = d->set.grh;
    uint32_t pl = payload_of(cd->packet, grh), wire = pkt_wire_bytes(pl, grh);
    s->first_conn = d->nflows;
    s->nflows = d->nflows + s->cs.n;
    s->flows = xcalloc((size_t)s->nflows + 1, sizeof *s->flows);
    memcpy(s->flows, d->flows, (size_t)d->nflows * sizeof *s->flows);
    char why[256];
    /* The arrival defaults, parsed once and copied to each connection (its strings its own). */
    struct arrival_desc defaults;
    memset(&defaults, 0, sizeof defaults);
    if (params_set_defaults(arrival_params, &defaults, why, sizeof why)) {
        free(defaults.gop), free(defaults.trace_file);
        return ibn_err_set(e, "connections: %s", why);
    }
    for (int i = 0; i < s->cs.n; i++) {
        const struct conn_entry *x = &s->cs.c[i];
        struct flow_desc *fd = &s->flows[s->first_conn + i];
        char name[64];
        snprintf(name, sizeof name, "conn%d.sl%d", i, x->req.sl);
        fd->name = xstrdup(name);
        fd->src = xstrdup(t->node[x->req.src].name);
        fd->dst = xstrdup(t->node[x->req.dst].name);
        fd->cls = xstrdup("");
        fd->sl = x->req.sl;
        fd->max_pending = cd->max_pending;
        if (s->live) { /* traffic from admission to teardown (0: to the end of the run) */
            fd->start = x->start;
            fd->stop = x->end != SIMTIME_NEVER ? x->end : 0;
        }
        fd->small_rng = 1;
        fd->arr = defaults;
        fd->arr.gop = defaults.gop ? xstrdup(defaults.gop) : NULL;
        fd->arr.trace_file = defaults.trace_file ? xstrdup(defaults.trace_file) : NULL;
        double bw = x->req.bw * (i == s->excess_idx ? cd->excess : 1.0);
        double payload_bps = bw * (double)pl / (double)wire; /* the reservation counts wire bytes */
        fd->arr.random_phase = 1;
        if (cd->traffic == CONNT_VIDEO) {
            fd->arr.kind = ARRIVAL_VIDEO;
            double k = payload_bps / (video_mean_frame_bytes(&fd->arr) * 8.0 * fd->arr.fps);
            fd->arr.i_bytes = (uint64_t)fmax(1, round((double)fd->arr.i_bytes * k));
            fd->arr.p_bytes = (uint64_t)fmax(1, round((double)fd->arr.p_bytes * k));
            fd->arr.b_bytes = (uint64_t)fmax(1, round((double)fd->arr.b_bytes * k));
        } else {
            fd->arr.kind = cd->traffic == CONNT_ONOFF ? ARRIVAL_ONOFF : ARRIVAL_CONSTANT;
            fd->arr.rate_bps = payload_bps;
            fd->arr.msg_bytes = pl;
            fd->arr.deadline = x->conn.bound; /* one packet per message: the guaranteed bound */
        }
    }
    free(defaults.gop), free(defaults.trace_file);
    d->flows = s->flows;
    d->nflows = s->nflows;
    return 0;
}

/* A live table change, when its time comes. */
static void apply_change(struct fabric *f, void *arg)
{
    struct conn_tabcall *c = arg;
    const struct conn_tabchange *x = &c->s->chg[c->i];
    struct vlarb_table tab = *f->nodes[x->node]->port[x->port].vlarb; /* the port's own copy */
    tab.nhigh = x->nhigh;
    memcpy(tab.high, x->high, sizeof x->high);
    struct ibn_err e;
    if (fabric_set_port_vlarb(f, x->node, x->port, &tab, &e)) /* checked when admitted */
        fabric_warn(f, "connections: a live table change failed: %s", e.msg);
    c->s->applied++;
}

int connections_tables(struct conn_state *s, struct fabric *f, struct ibn_err *e)
{
    uint16_t guaranteed = 0;
    for (int sl = 0; sl < 16; sl++)
        if (s->a.cfg.sl_qos[sl] && s->g.sl[sl].weight > 0)
            guaranteed |= (uint16_t)(1u << s->a.cfg.sl2vl[sl]);
    const struct topo *t = s->a.t;
    for (int n = 0; n < t->nnodes && n < f->nnodes; n++)
        for (int p = 1; p <= t->node[n].nports; p++) {
            if (t->node[n].port[p].peer_node < 0)
                continue;
            struct vlarb_table tab = *(f->nodes[n]->is_switch ? &f->set.vlarb_sw : &f->set.vlarb_ca);
            if (s->strip_low) { /* the low table serves what admission does not guarantee */
                int k = 0;
                for (int i = 0; i < tab.nlow; i++)
                    if (!(guaranteed >> tab.low[i].vl & 1))
                        tab.low[k++] = tab.low[i];
                tab.nlow = (uint8_t)k;
            }
            const struct qport *q = &s->a.port[cac_port(&s->a, n, p)];
            if (s->live) { /* no connection yet: the changes come with them */
                tab.nhigh = 0;
            } else if (q->nseq) {
                qport_high_table(q, tab.high);
                tab.nhigh = 64;
            } else {
                tab.nhigh = 0;
            }
            if (fabric_set_port_vlarb(f, n, p, &tab, e))
                return ibn_err_prefix(e, "connections: ");
        }
    if (s->live && s->nchg) {
        s->calls = xcalloc((size_t)s->nchg, sizeof *s->calls);
        for (int i = 0; i < s->nchg; i++) {
            s->calls[i] = (struct conn_tabcall){ { apply_change, &s->calls[i] }, s, i };
            fabric_schedule_call(f, s->chg[i].t, &s->calls[i].call);
        }
    }
    return 0;
}

uint32_t connections_run_flow(const struct conn_state *s, const struct fabric *f, int i)
{
    const char *want = s->from_flows ? s->names[s->conn_flow[i]] : NULL;
    char name[64];
    if (!want) { /* as connections_flows named it */
        snprintf(name, sizeof name, "conn%d.sl%d", i, s->cs.c[i].req.sl);
        want = name;
    }
    uint32_t fi = f->nflows;
    if (!s->from_flows && (uint32_t)s->cs.n <= f->nflows)
        fi = f->nflows - (uint32_t)s->cs.n + (uint32_t)i;
    if (fi < f->nflows && !strcmp(f->flows[fi].name, want))
        return fi;
    for (uint32_t q = 0; q < f->nflows; q++) /* by name (a "*" flow before it is many) */
        if (!strcmp(f->flows[q].name, want))
            return q;
    return f->nflows;
}

json_t *connections_json(const struct conn_state *s, const struct fabric *f)
{
    const struct cac *a = &s->a;
    json_t *o = json_object();
    json_object_set_new(o, "scheme", json_string(cac_scheme_name[a->cfg.scheme]));
    json_object_set_new(o, "method", json_string(a->cfg.method == QOS_CESY ? "cesy" : "cenre"));
    json_object_set_new(o, "cap", json_real(a->cfg.cap));
    json_object_set_new(o, "hop_bound_q", json_integer(a->cfg.q));
    json_object_set_new(o, "hop_bound", json_string(a->cfg.in_pkts ? "crossbar" : "output"));
    json_object_set_new(o, "hop_bound_read_ports", json_integer(a->cfg.read_ports));
    json_object_set_new(o, "hop_bound_input_packets", json_integer(a->cfg.in_pkts));
    json_object_set_new(o, "requests", json_integer((json_int_t)a->st.requests));
    json_object_set_new(o, "accepted", json_integer((json_int_t)a->st.accepted));
    json_object_set_new(o, "released", json_integer((json_int_t)a->st.released));
    int live = s->cs.n;
    if (s->live) { /* every connection carried traffic: those still up at the end are live */
        live = 0;
        for (int i = 0; i < s->cs.n; i++)
            live += s->cs.c[i].end == SIMTIME_NEVER;
        json_object_set_new(o, "during_run", json_true());
        json_object_set_new(o, "table_changes", json_integer(s->nchg));
        json_object_set_new(o, "table_changes_applied", json_integer(s->applied));
    }
    json_object_set_new(o, "live", json_integer(live));
    json_t *rc = json_object();
    for (int k = 1; k < CAC_NCAUSES; k++)
        json_object_set_new(rc, cac_cause_name[k], json_integer((json_int_t)a->st.rejected[k]));
    json_object_set_new(o, "rejected_by_cause", rc);
    json_t *rh = json_array();
    int last = -1;
    for (int h = 0; h < CAC_MAX_HOPS; h++)
        if (a->st.rejected_at_hop[h])
            last = h;
    for (int h = 0; h <= last; h++)
        json_array_append_new(rh, json_integer((json_int_t)a->st.rejected_at_hop[h]));
    json_object_set_new(o, "rejected_at_hop", rh);
    struct qmetrics m;
    qmetrics_compute(a, &m);
    json_t *res = json_object();
    json_object_set_new(res, "host_mbps", json_real(m.host_res_bps / 1e6));
    json_object_set_new(res, "host_share", json_real(m.host_res_frac));
    json_object_set_new(res, "switch_mbps", json_real(m.sw_res_bps / 1e6));
    json_object_set_new(res, "switch_share", json_real(m.sw_res_frac));
    json_object_set_new(res, "mean_entries", json_real(m.mean_entries));
    json_object_set_new(res, "repacks", json_integer((json_int_t)m.repacks));
    json_object_set_new(o, "reservation", res);
    /* Per SL: admission and what the traffic did. */
    json_t *sls = json_array();
    for (int sl = 0; sl < 16; sl++) {
        if (!a->st.sl_requests[sl])
            continue;
        uint64_t nlive = 0, carried = 0, sent = 0, got = 0, refused = 0, got_all = 0;
        struct deadline_acc dl;
        deadline_init(&dl);
        struct jitter j;
        jitter_init(&j, 1, f->jitter_k);
        double worst = 0, bw = 0;
        for (int i = 0; i < s->cs.n; i++) {
            if (s->cs.c[i].req.sl != sl)
                continue;
            carried++;
            if (!s->live || s->cs.c[i].end == SIMTIME_NEVER) { /* up at the end: reserved */
                nlive++;
                bw += s->cs.c[i].req.bw;
            }
            uint32_t fi = connections_run_flow(s, f, i);
            if (fi >= f->nflows)
                continue;
            const struct flow *fl = &f->flows[fi];
            sent += fl->st.pkts_sent;
            got += fl->st.pkts_delivered;
            got_all += fl->st.e2e_latency.count;
            refused += fl->st.msgs_refused;
            deadline_merge(&dl, &fl->st.deadlines);
            jitter_merge(&j, &fl->st.jitter);
            if (fl->st.e2e_latency.count && s->cs.c[i].conn.bound > 0) {
                double r = (double)fl->st.e2e_latency.max / (double)s->cs.c[i].conn.bound;
                if (r > worst)
                    worst = r;
            }
        }
        json_t *x = json_object();
        json_object_set_new(x, "sl", json_integer(sl));
        json_object_set_new(x, "requested", json_integer((json_int_t)a->st.sl_requests[sl]));
        json_object_set_new(x, "accepted", json_integer((json_int_t)a->st.sl_accepted[sl]));
        json_object_set_new(x, "live", json_integer((json_int_t)nlive));
        if (s->live)
            json_object_set_new(x, "carried", json_integer((json_int_t)carried));
        json_object_set_new(x, "reserved_mbps", json_real(bw / 1e6));
        json_object_set_new(x, "packets_sent", json_integer((json_int_t)sent));
        json_object_set_new(x, "packets_delivered", json_integer((json_int_t)got));
        /* Packets created in the measured period and delivered, the drain included: equal to
         * packets_sent when nothing was lost or left behind (warm-up 0). */
        json_object_set_new(x, "packets_measured_delivered", json_integer((json_int_t)got_all));
        json_object_set_new(x, "messages_refused", json_integer((json_int_t)refused));
        json_object_set_new(x, "deadline_messages", json_integer((json_int_t)dl.frames));
        json_object_set_new(x, "deadline_missed", json_integer((json_int_t)dl.missed));
        json_object_set_new(x, "worst_delay_over_bound", json_real(worst));
        json_object_set_new(x, "jitter_samples", json_integer((json_int_t)j.n));
        json_object_set_new(x, "jitter_within_iat_k", json_real(jitter_share_within(&j)));
        json_t *bins = json_array();
        for (int b = 0; b < JITTER_BINS; b++)
            json_array_append_new(bins, json_real(jitter_bin_share(&j, b)));
        json_object_set_new(x, "jitter_bins", bins);
        json_array_append_new(sls, x);
    }
    json_object_set_new(o, "per_sl", sls);
    if (s->from_flows) { /* process = flows: the flows admission refused (they did not run) */
        json_t *rf = json_array();
        for (int i = 0; i < s->nsc; i++)
            if (s->refused[i] && s->names)
                json_array_append_new(rf, json_string(s->names[i]));
        json_object_set_new(o, "refused_flows", rf);
    }
    uint32_t xf = s->excess_idx >= 0 ? connections_run_flow(s, f, s->excess_idx) : f->nflows;
    if (xf < f->nflows)
        json_object_set_new(o, "excess_flow", json_string(f->flows[xf].name));
    return o;
}

void connections_free(struct conn_state *s)
{
    if (!s)
        return;
    for (int i = s->first_conn; i < s->nflows; i++) {
        free(s->flows[i].name);
        free(s->flows[i].src);
        free(s->flows[i].dst);
        free(s->flows[i].cls);
        params_free(arrival_params, &s->flows[i].arr);
    }
    free(s->flows);
    for (int i = 0; s->names && i < s->nsc; i++)
        free(s->names[i]);
    free(s->names);
    free(s->refused);
    free(s->conn_flow);
    free(s->chg);
    free(s->calls);
    conn_set_free(&s->cs);
    cac_free(&s->a);
    free(s);
}

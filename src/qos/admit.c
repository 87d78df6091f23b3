/* admit.c: connection admission control along routes, four schemes (see admit.h). */
#include "qos/admit.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "qos/arbtab.h"

const char *const cac_scheme_name[CAC_NSCHEMES] = { "hop", "sm", "sum", "probe" };
const char *const cac_cause_name[CAC_NCAUSES] = {
    "accepted", "above-link", "bandwidth", "distance", "table-entries", "fragmentation",
    "deadline", "not-qos-sl", "no-route", "sl-share",
};

void cac_cfg_defaults(struct cac_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->scheme = CAC_HOP;
    c->cap = 0.8;
    c->method = QOS_CESY;
    c->repack = 1;
    for (int s = 0; s < 16; s++) {
        c->sl2vl[s] = (uint8_t)(s < 15 ? s : 14);
        c->sl_qos[s] = 1;
        c->sl_share[s] = 1.0 / 16;
    }
    c->mtu = 256;
    c->q = 3;
    c->ctl_bytes = 64;
    c->switch_latency = 100000; /* 100 ns */
    c->sm_node = -1;
}

int cac_init(struct cac *a, const struct topo *t, const struct lfts *l, const struct cac_cfg *c,
             struct ibn_err *e)
{
    memset(a, 0, sizeof *a);
    if (!(c->cap > 0 && c->cap <= 1))
        return ibn_err_set(e, "admission: the reservable share must be in (0, 1], not %g", c->cap);
    a->t = t;
    a->l = l;
    a->cfg = *c;
    a->base = xcalloc((size_t)t->nnodes, sizeof *a->base);
    for (int n = 0; n < t->nnodes; n++) {
        a->base[n] = a->nports;
        a->nports += t->node[n].nports + 1;
    }
    a->port = xcalloc((size_t)a->nports, sizeof *a->port);
    a->rate = xcalloc((size_t)a->nports, sizeof *a->rate);
    for (int n = 0; n < t->nnodes; n++)
        for (int p = 1; p <= t->node[n].nports; p++)
            if (t->node[n].port[p].peer_node >= 0)
                a->rate[a->base[n] + p] = topo_port_rate_bps(t, n, p);
    if (c->scheme == CAC_SUM)
        a->sl_sum = xcalloc((size_t)a->nports * 16, sizeof *a->sl_sum);
    return 0;
}

void cac_free(struct cac *a)
{
    free(a->base);
    free(a->port);
    free(a->rate);
    free(a->sl_sum);
    memset(a, 0, sizeof *a);
}

static int first_port(const struct topo *t, int node)
{
    for (int p = 1; p <= t->node[node].nports; p++)
        if (t->node[node].port[p].peer_node >= 0)
            return p;
    return -1;
}

static int node_lid(const struct topo *t, int node)
{
    if (t->node[node].type == TOPO_SWITCH)
        return t->node[node].port[0].lid;
    int p = first_port(t, node);
    return p < 0 ? -1 : t->node[node].port[p].lid;
}

/* Port index -> (node, port). Ports of one node are consecutive. */
void cac_port_of(const struct cac *a, int idx, int *node, int *port)
{
    int lo = 0, hi = a->t->nnodes - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (a->base[mid] <= idx)
            lo = mid;
        else
            hi = mid - 1;
    }
    *node = lo;
    *port = idx - a->base[lo];
}

/* Follow the tables from `from` towards node `to`; output ports into hop (if non-NULL). */
static int walk(const struct cac *a, int from, int to, int32_t *hop, int max)
{
    const struct topo *t = a->t;
    int lid = node_lid(t, to);
    int node = from, n = 0;
    if (lid <= 0)
        return -1;
    while (node != to) {
        int p = t->node[node].type == TOPO_SWITCH ? lft_port(a->l, node, lid) : first_port(t, node);
        if (p < 0 || p == LFT_NONE || p == 0 || p > t->node[node].nports || n >= max)
            return -1;
        if (hop)
            hop[n] = cac_port(a, node, p);
        n++;
        int peer = t->node[node].port[p].peer_node;
        if (peer < 0 || (peer != to && t->node[peer].type != TOPO_SWITCH))
            return -1;
        node = peer;
    }
    return n;
}

int cac_route(const struct cac *a, int src, int dst, int32_t *hop, int max)
{
    if (src == dst || a->t->node[src].type != TOPO_CA || a->t->node[dst].type != TOPO_CA)
        return -1;
    return walk(a, src, dst, hop, max);
}

/* Time for a control message to cross the link out of port index `idx` and the next switch. */
static simtime_t link_time(const struct cac *a, int idx)
{
    int node, port;
    cac_port_of(a, idx, &node, &port);
    const struct topo_port *tp = &a->t->node[node].port[port];
    simtime_t x = (simtime_t)((double)a->cfg.ctl_bytes * 8e12 / a->rate[idx] + 0.5) + tp->delay;
    if (tp->peer_node >= 0 && a->t->node[tp->peer_node].type == TOPO_SWITCH)
        x += a->cfg.switch_latency;
    return x;
}

/* Time from node `from` to node `to` along the tables, and the links crossed. */
static simtime_t path_time(struct cac *a, int from, int to)
{
    int32_t hop[CAC_MAX_HOPS * 2];
    int n = walk(a, from, to, hop, CAC_MAX_HOPS * 2);
    simtime_t x = 0;
    for (int i = 0; i < n; i++)
        x += link_time(a, hop[i]);
    if (n > 0)
        a->st.control_msgs += (uint64_t)n;
    return x;
}

static simtime_t prefix_time(const struct cac *a, const int32_t *hop, int n)
{
    simtime_t x = 0;
    for (int i = 0; i < n; i++)
        x += link_time(a, hop[i]);
    return x;
}

/* The reverse of the first n links of a route, back to the source adapter: the same links,
 * entering the n - 1 switches before the refusing (or last) one and then the adapter. */
static simtime_t reverse_time(const struct cac *a, const int32_t *hop, int n)
{
    if (n <= 0)
        return 0;
    simtime_t x = 0;
    for (int i = 0; i < n; i++) {
        int node, port;
        cac_port_of(a, hop[i], &node, &port);
        x += (simtime_t)((double)a->cfg.ctl_bytes * 8e12 / a->rate[hop[i]] + 0.5) +
             a->t->node[node].port[port].delay;
    }
    return x + (simtime_t)(n - 1) * a->cfg.switch_latency;
}

static int hop_node(const struct cac *a, int idx)
{
    int node, port;
    cac_port_of(a, idx, &node, &port);
    return node;
}

/* A port's reservation settings. The probe (seed 003) checks bandwidth only and recomputes its
 * WRR weights from the reservations: every VL at distance 64 and the whole link worth
 * CAC_PROBE_ENTRIES entries of weight 255 rather than 64, so that the up to 15 VLs rounding
 * their entries up by one each always fit the 64 entries and a table never refuses what the
 * link's bandwidth admits (the rate is scaled up and the cap down: the bandwidth test is the
 * same). */
static struct qport_cfg port_cfg(const struct cac *a, int idx)
{
    struct qport_cfg pc = { a->rate[idx], a->cfg.cap, a->cfg.method, a->cfg.repack, a->cfg.allowed };
    if (a->cfg.scheme == CAC_PROBE) {
        pc.method = QOS_CESY, pc.allowed = 1u << 6;
        pc.rate_bps *= 64.0 / CAC_PROBE_ENTRIES;
        pc.cap *= CAC_PROBE_ENTRIES / 64.0;
    }
    return pc;
}

static void undo(struct cac *a, const int32_t *hop, int n, int vl, int sl, double bw)
{
    for (int i = n - 1; i >= 0; i--) {
        if (a->cfg.scheme == CAC_SUM)
            a->sl_sum[(size_t)hop[i] * 16 + sl] -= bw;
        else {
            struct qport_cfg pc = port_cfg(a, hop[i]);
            qport_release(&a->port[hop[i]], &pc, vl, bw);
        }
    }
}

enum cac_cause cac_admit(struct cac *a, const struct cac_req *r, struct cac_conn *conn, int *hop_at,
                         simtime_t *latency)
{
    const struct cac_cfg *c = &a->cfg;
    *hop_at = -1;
    *latency = 0;
    a->st.requests++;
    if (r->sl >= 0 && r->sl < 16)
        a->st.sl_requests[r->sl]++;
    int32_t hop[CAC_MAX_HOPS];
    int n = (r->sl < 0 || r->sl > 15) ? -1 : cac_route(a, r->src, r->dst, hop, CAC_MAX_HOPS);
    enum cac_cause why = CAC_OK;
    uint8_t dist[CAC_MAX_HOPS];
    int vl = n > 0 ? c->sl2vl[r->sl] : 0;
    if (n <= 0)
        why = r->sl < 0 || r->sl > 15 ? CAC_SL : CAC_ROUTE;
    else if (!c->sl_qos[r->sl] || vl > 14)
        why = CAC_SL;
    else {
        /* Each hop's distance: the SL's, or from an equal share of the deadline. */
        simtime_t prop = 0;
        for (int h = 0; h < n; h++) {
            int node, port;
            cac_port_of(a, hop[h], &node, &port);
            prop += a->t->node[node].port[port].delay;
            if (r->bw > a->rate[hop[h]])
                why = (enum cac_cause)QP_REJ_LINK;
        }
        for (int h = 0; h < n && h < CAC_MAX_HOPS && why == CAC_OK; h++) {
            int d = c->sl_dist[r->sl] ? c->sl_dist[r->sl] : 64;
            if (r->deadline > 0 && c->scheme != CAC_SUM && c->scheme != CAC_PROBE) {
                simtime_t budget = (r->deadline - prop) / n;
                int dd = budget > 0 ? arbtab_distance_for(budget, c->mtu, a->rate[hop[h]], c->q,
                                                          cac_xbar_turns(a, hop[h])) : 0;
                if (dd == 0 || (c->sl_dist[r->sl] && dd < d))
                    why = CAC_DEADLINE;
                else if (!c->sl_dist[r->sl])
                    d = dd;
            }
            dist[h] = (uint8_t)d;
        }
    }
    if (why != CAC_OK) {
        a->st.rejected[why]++;
        return why;
    }
    int h = 0;
    for (; h < n; h++) {
        int idx = hop[h];
        if (c->scheme == CAC_SUM) {
            double *s = &a->sl_sum[(size_t)idx * 16 + r->sl];
            /* strict, as the thesis writes it; the relative margin keeps an exact fill (p + s
             * equal to bw_sl in decimal) refused whatever the binary rounding */
            if (!(r->bw + *s < c->sl_share[r->sl] * c->cap * a->rate[idx] * (1 - 1e-12))) {
                why = CAC_SL_SHARE;
                break;
            }
            *s += r->bw;
            continue;
        }
        struct qport_cfg pc = port_cfg(a, idx);
        int d = c->scheme == CAC_PROBE ? 64 : dist[h];
        enum qport_verdict v = qport_admit(&a->port[idx], &pc, vl, d, r->bw);
        if (v != QP_OK) {
            why = (enum cac_cause)v;
            break;
        }
    }
    /* The setup latency, by scheme. */
    int last = hop_node(a, hop[n - 1]);
    switch (c->scheme) {
    case CAC_HOP: /* along the route and back */
        *latency = prefix_time(a, hop, why == CAC_OK ? n : h) + reverse_time(a, hop, why == CAC_OK ? n : h);
        a->st.control_msgs += 2u * (uint64_t)(why == CAC_OK ? n : h);
        break;
    case CAC_SM: { /* one round trip to the SM */
        int sm = c->sm_node >= 0 ? c->sm_node : a->t->node[r->src].port[first_port(a->t, r->src)].peer_node;
        if (sm == r->src)
            *latency = 0;
        else {
            *latency = path_time(a, r->src, sm);
            *latency += path_time(a, sm, r->src);
        }
        break;
    }
    case CAC_SUM: /* accept: the probe reaches the destination; reject: REJECT to the source */
        if (why == CAC_OK) {
            *latency = prefix_time(a, hop, n);
            a->st.control_msgs += (uint64_t)n;
        } else {
            *latency = prefix_time(a, hop, h) + (h ? path_time(a, hop_node(a, hop[h]), r->src) : 0);
            a->st.control_msgs += (uint64_t)h;
        }
        break;
    case CAC_PROBE: /* ACK from the last router; NACK from the refusing node, then RELEASE */
        if (why == CAC_OK) {
            *latency = prefix_time(a, hop, n) + (last == r->src ? 0 : path_time(a, last, r->src));
            a->st.control_msgs += (uint64_t)n;
        } else {
            int rej = hop_node(a, hop[h]);
            *latency = prefix_time(a, hop, h) + (rej == r->src ? 0 : path_time(a, rej, r->src));
            a->st.control_msgs += 2u * (uint64_t)h; /* probe and release */
        }
        break;
    default:
        break;
    }
    if (why != CAC_OK) {
        undo(a, hop, h, vl, r->sl, r->bw);
        a->st.rejected[why]++;
        a->st.rejected_at_hop[h]++;
        *hop_at = h;
        a->st.latency_sum_reject += (double)*latency * 1e-12;
        return why;
    }
    memset(conn, 0, sizeof *conn);
    conn->nhops = n;
    conn->sl = r->sl;
    conn->bw = r->bw;
    conn->vl = (uint8_t)vl;
    conn->dist = dist[0];
    memcpy(conn->hop, hop, (size_t)n * sizeof hop[0]);
    conn->bound = c->scheme == CAC_SUM ? 0 : cac_bound(a, conn, 1);
    a->st.accepted++;
    a->st.sl_accepted[r->sl]++;
    a->st.latency_sum_accept += (double)*latency * 1e-12;
    if (*latency > a->st.latency_max)
        a->st.latency_max = *latency;
    return CAC_OK;
}

int cac_xbar_turns(const struct cac *a, int idx)
{
    int node, port;
    cac_port_of(a, idx, &node, &port);
    const struct topo_node *n = &a->t->node[node];
    return n->type == TOPO_SWITCH ? arbtab_xbar_turns(a->cfg.read_ports, n->nports, a->cfg.in_pkts) : 0;
}

simtime_t cac_bound(const struct cac *a, const struct cac_conn *conn, int crossbar)
{
    simtime_t bound = 0;
    for (int k = 0; k < conn->nhops; k++) {
        int node, port;
        cac_port_of(a, conn->hop[k], &node, &port);
        bound += a->t->node[node].port[port].delay;
        int dv = a->port[conn->hop[k]].vl[conn->vl].dist;
        if (dv)
            bound += arbtab_hop_bound(dv, a->cfg.mtu, a->rate[conn->hop[k]], a->cfg.q,
                                      crossbar ? cac_xbar_turns(a, conn->hop[k]) : 0);
    }
    return bound;
}

void cac_release(struct cac *a, const struct cac_conn *conn)
{
    undo(a, conn->hop, conn->nhops, conn->vl, conn->sl, conn->bw);
    a->st.released++;
}

void qmetrics_compute(const struct cac *a, struct qmetrics *m)
{
    memset(m, 0, sizeof *m);
    int nres = 0;
    for (int n = 0; n < a->t->nnodes; n++) {
        int sw = a->t->node[n].type == TOPO_SWITCH;
        for (int p = 1; p <= a->t->node[n].nports; p++) {
            int idx = cac_port(a, n, p);
            if (a->rate[idx] <= 0)
                continue;
            double r = a->cfg.scheme == CAC_SUM ? 0 : a->port[idx].reserved;
            if (a->cfg.scheme == CAC_SUM)
                for (int s = 0; s < 16; s++)
                    r += a->sl_sum[(size_t)idx * 16 + s];
            if (sw) {
                m->sw_res_bps += r, m->sw_res_frac += r / a->rate[idx], m->nsw_ports++;
            } else {
                m->host_res_bps += r, m->host_res_frac += r / a->rate[idx], m->nhost_ports++;
            }
            if (a->port[idx].nseq) {
                m->mean_entries += arbtab_count(a->port[idx].taken);
                nres++;
            }
            m->repacks += a->port[idx].repacks;
        }
    }
    if (m->nsw_ports)
        m->sw_res_bps /= m->nsw_ports, m->sw_res_frac /= m->nsw_ports;
    if (m->nhost_ports)
        m->host_res_bps /= m->nhost_ports, m->host_res_frac /= m->nhost_ports;
    if (nres)
        m->mean_entries /= nres;
}

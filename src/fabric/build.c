/* build.c: builds the running fabric (nodes, ports, credits, switch queues, adapters, flows)
 * from a topology, forwarding tables and settings, checking what the model needs to run. */
#include "fabric/build.h"
#include "fabric/lanes.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "fabric/period.h"
#include "fabric/transport.h"
#include "fabric/adapt.h"
#include "fabric/drop.h"
#include "fabric/hostdraw.h"
#include "fabric/mcast.h"
#include "fabric/swarch.h"
#include "topology/topo_addr.h"

static void port_init(struct fabric *f, struct port *p, struct node *n, int num)
{
    memset(p, 0, sizeof *p);
    p->node = n;
    p->num = (uint16_t)num;
    p->is_switch = (uint8_t)n->is_switch;
    vlarb_state_init(&p->arb);
    p->vlarb = n->is_switch ? &f->set.vlarb_sw : &f->set.vlarb_ca;
    p->cret = p->cret_inline;
    p->cret_cap = CRET_INLINE;
    p->cret_next = SIMTIME_NEVER;
}

static int check_settings(const struct fabric_settings *s, struct ibn_err *e)
{
    static const uint32_t mtus[] = { 256, 512, 1024, 2048, 4096 };
    int ok = 0;
    for (int i = 0; i < 5; i++)
        ok |= s->mtu == mtus[i];
    if (!ok)
        return ibn_err_set(e, "fabric.mtu must be an IB MTU (256, 512, 1024, 2048 or 4096), got %lld", s->mtu);
    if (s->nvls < 1 || s->nvls > MAX_VLS)
        return ibn_err_set(e, "fabric.vls must be 1 to 15 data VLs, got %lld", s->nvls);
    uint32_t biggest = pkt_wire_bytes((uint32_t)s->mtu, s->grh);
    uint64_t need = (uint64_t)bytes_to_credits(biggest) * CREDIT_BYTES;
    if (s->switch_buffer < need)
        return ibn_err_set(e, "switch.buffer (%llu bytes per port and VL) cannot hold one MTU packet "
                           "(%llu bytes in credits): the fabric could never forward", 
                           (unsigned long long)s->switch_buffer, (unsigned long long)need);
    if (s->hca_buffer < need)
        return ibn_err_set(e, "hca.buffer (%llu bytes per port and VL) cannot hold one MTU packet "
                           "(%llu bytes in credits)", (unsigned long long)s->hca_buffer,
                           (unsigned long long)need);
    for (int sl = 0; sl < 16; sl++) {
        if (s->sl2vl[sl] >= s->nvls && s->sl2vl[sl] != VL15)
            return ibn_err_set(e, "qos.sl2vl maps SL %d to VL %d, but only VLs 0-%d are in use",
                               sl, s->sl2vl[sl], (int)s->nvls - 1);
        if (s->sl2vl_ca[sl] >= s->nvls && s->sl2vl_ca[sl] != VL15)
            return ibn_err_set(e, "qos.ca_sl2vl maps SL %d to VL %d, but only VLs 0-%d are in use",
                               sl, s->sl2vl_ca[sl], (int)s->nvls - 1);
    }
    return 0;
}

int fabric_find_host(const struct fabric *f, const char *name)
{
    char base[256];
    int port = 0;
    snprintf(base, sizeof base, "%s", name);
    char *colon = strrchr(base, ':');
    if (colon) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (*end == 0 && end != colon + 1) {
            port = (int)v;
            *colon = 0;
        }
    }
    for (int h = 0; h < f->nhosts; h++)
        if (!strcmp(f->hosts[h].node->name, base) && (!port || f->hosts[h].port->num == port))
            return h;
    return -1;
}

const char *const load_counts_names[] = { "payload", "wire", NULL };

/* Bytes on the wire of a message of `bytes` payload cut into MTU packets. */
static double message_wire_bytes(double bytes, uint32_t mtu, int grh)
{
    uint64_t b = (uint64_t)llround(bytes), full = b / mtu, rest = b % mtu;
    return (double)full * pkt_wire_bytes(mtu, grh) +
           (rest || !b ? pkt_wire_bytes((uint32_t)rest, grh) : 0);
}

const char *const flow_path_names[] = { "base", "qp", "message", "random", "shortest", "adaptive",
                                        NULL };

/* Switch hops of the route from adapter port `from` to `lid` through the switches' tables, or
 * INT_MAX when it does not arrive (a missing entry or a loop). */
static int route_hops(const struct fabric *f, const struct port *from, int lid)
{
    const struct port *at = from->peer;
    for (int hops = 0; at && hops <= f->nnodes; hops++) {
        const struct node *n = at->node;
        if (!n->is_switch)
            return lid >= at->lid && lid < at->lid + (1 << at->lmc) ? hops : INT_MAX;
        const struct sw *s = (const struct sw *)n;
        int out = lid <= s->max_lid ? s->lft[lid] : 255;
        if (out < 1 || out > n->nports)
            return INT_MAX;
        at = n->port[out].peer;
    }
    return INT_MAX;
}

/* PATH_SHORTEST: for every pair of hosts the LID offset whose route has the fewest hops. */
static void build_short_off(struct fabric *f)
{
    f->short_off = xcalloc((size_t)f->nhosts * (size_t)f->nhosts, sizeof *f->short_off);
    for (int a = 0; a < f->nhosts; a++)
        for (int b = 0; b < f->nhosts; b++) {
            const struct port *d = f->hosts[b].port;
            int best = INT_MAX, off = 0;
            for (int k = 0; k < 1 << d->lmc; k++) {
                int h = route_hops(f, f->hosts[a].port, d->lid + k);
                if (h < best)
                    best = h, off = k;
            }
            f->short_off[(size_t)a * (size_t)f->nhosts + (size_t)b] = (uint16_t)off;
        }
}

/* The host (adapter port) a topology node and port name: the port's, or the node's first. */
static int node_host(const struct fabric *f, int node, int port)
{
    for (int h = 0; h < f->nhosts; h++)
        if (f->hosts[h].node->index == node && (!port || f->hosts[h].port->num == port))
            return h;
    return -1;
}

/* One host named any way topo_resolve knows; -1 with e set. */
static int resolve_host(const struct fabric *f, const struct topo *t, const char *spec,
                        struct ibn_err *e)
{
    int node, port;
    if (topo_resolve(t, spec, &node, &port, e))
        return -1;
    int h = node_host(f, node, port);
    if (h < 0)
        return ibn_err_set(e, "\"%s\" is %s, not a cabled host port", spec, t->node[node].name);
    return h;
}

int fabric_host_set(const struct fabric *f, const struct topo *t, const char *spec, int **out,
                    struct ibn_err *e)
{
    int *nodes;
    int nn = topo_host_set(t, spec, &nodes, e);
    if (nn < 0)
        return -1;
    char *in = xcalloc((size_t)t->nnodes + 1, 1);
    for (int i = 0; i < nn; i++)
        in[nodes[i]] = 1;
    free(nodes);
    int *o = xmalloc(((size_t)f->nhosts + 1) * sizeof *o), n = 0;
    for (int h = 0; h < f->nhosts; h++)
        if (in[f->hosts[h].node->index])
            o[n++] = h;
    free(in);
    *out = o;
    return n;
}

/* Where a flow entry sends: dst_host >= 0, or a group (dset, owned by the fabric), or neither
 * (uniform over all, or a pattern). */
struct dst_res {
    int host;
    const int *set;
    int nset;
    int mgroup;       /* "mcast:NAME": the multicast group, else -1 */
};

/* pat_class: -1, or the class (1 hot spot, 0 uniform) of a split pattern flow. */
static int add_flow(struct fabric *f, const struct flow_desc *d, const struct dst_res *dr,
                    const char *name, int src, int pat_class, struct ibn_err *e)
{
    struct flow *fl = &f->flows[f->nflows];
    memset(fl, 0, sizeof *fl);
    fl->index = f->nflows++; /* counted at once, so that fabric_free releases it on any error */
    fl->rc.x = (struct rc_ext *)&rc_ext_none; /* UD: the shared zeros (transport_rc_own) */
    fl->name = xstrdup(name);
    fl->src_host = src;
    fl->src = f->hosts[src].port;
    fl->pat_class = (int8_t)pat_class;
    fl->mgroup = -1;
    if (dr && dr->mgroup >= 0) {
        const struct mgroup *g = &f->mc->g[dr->mgroup];
        fl->mgroup = dr->mgroup;
        fl->dst_host = -1;
        fl->dset = g->members;
        fl->ndset = g->nmembers;
        fl->dset_self = g->member_pos[src];
        if (g->nmembers - (fl->dset_self >= 0) < 1)
            return ibn_err_at(e, d->file, d->line, "flow %s: multicast group %s has no member but "
                              "the source", name, g->name);
        if (d->path != PATH_BASE)
            return ibn_err_at(e, d->file, d->line, "flow %s: a multicast flow has one route per "
                              "member: path must be base", name);
        if (f->mc->scheme == MC_UNICAST) {
            fl->pattern = 4;
        } else {
            fl->pattern = 5;
            fl->mlid = g->src_mlid[src];
            if (!fl->mlid)
                return ibn_err_at(e, d->file, d->line, "flow %s: host %s is not among the sources "
                                  "of multicast group %s", name, f->hosts[src].node->name, g->name);
            if (f->set.transport == TRANSPORT_RC)
                return ibn_err_at(e, d->file, d->line, "flow %s: multicast is unreliable datagram "
                                  "only (IBA); transport.mode is rc", name);
        }
    } else if (d->has_pattern) {
        if (f->nhosts < 2)
            return ibn_err_at(e, d->file, d->line, "flow %s: a pattern needs at least two hosts", name);
        fl->pattern = 2;
        fl->pat = f->patterns[f->npatterns - 1];
        fl->dst_host = -1;
    } else if (!strcmp(d->dst, "uniform")) {
        if (f->nhosts < 2)
            return ibn_err_at(e, d->file, d->line, "flow %s: a uniform destination needs at least two hosts", name);
        fl->pattern = 1;
        fl->dst_host = -1;
    } else if (dr->set) {
        fl->pattern = 3;
        fl->dst_host = -1;
        fl->dset = dr->set;
        fl->ndset = dr->nset;
        fl->dset_self = -1;
        for (int i = 0; i < dr->nset; i++)
            if (dr->set[i] == src)
                fl->dset_self = i;
        if (dr->nset - (fl->dset_self >= 0) < 1)
            return ibn_err_at(e, d->file, d->line, "flow %s: the destination group \"%s\" has no "
                              "host but the source", name, d->dst);
    } else {
        fl->dst_host = dr->host;
        if (fl->dst_host == src)
            return ibn_err_at(e, d->file, d->line, "flow %s sends to its own host %s", name, d->dst);
    }
    if (d->sl < 0 || d->sl > 15)
        return ibn_err_at(e, d->file, d->line, "flow %s: sl must be 0-15", name);
    fl->sl = (uint8_t)d->sl;
    fl->cls = d->cls && *d->cls ? xstrdup(d->cls) : NULL;
    fl->vl = f->set.sl2vl_ca[fl->sl];
    fl->start = d->start;
    fl->stop = d->stop ? d->stop : SIMTIME_NEVER;
    struct arrival_desc ad = d->arr;
    if (d->load > 0) {
        ad.rate_bps = d->load * byterate_bps(fl->src->rate);
        if (d->load_counts == LOAD_WIRE && ad.msg_bytes) /* payload share of the wire bytes */
            ad.rate_bps *= (double)ad.msg_bytes /
                           message_wire_bytes((double)ad.msg_bytes, (uint32_t)f->set.mtu,
                                              f->set.grh);
    }
    if (d->load > 0 && ad.kind == ARRIVAL_VIDEO) {
        /* A video source's rate is its frames': `load` scales the mean frame sizes (their
         * I:P:B proportions kept) so that the mean rate is load x the link's data rate. */
        double now_bps = arrival_mean_rate_bps(&ad);
        if (!(now_bps > 0))
            return ibn_err_at(e, d->file, d->line, "flow %s: load needs a video source with a "
                              "valid GOP and frame sizes", name);
        double k = ad.rate_bps / now_bps;
        ad.i_bytes = (uint64_t)fmax(1.0, round((double)ad.i_bytes * k));
        ad.p_bytes = (uint64_t)fmax(1.0, round((double)ad.p_bytes * k));
        ad.b_bytes = (uint64_t)fmax(1.0, round((double)ad.b_bytes * k));
    }
    if (arrival_init(&fl->arr, &ad, e)) {
        ibn_err_prefix(e, "flow %s: ", name);
        if (d->file)
            ibn_err_prefix(e, "%s:%d: ", d->file, d->line);
        return -1;
    }
    fl->saturate = fl->arr.d.kind == ARRIVAL_SATURATE;
    fl->path = (uint8_t)d->path;
    if (fl->path != PATH_BASE) {
        fl->path_pkts = xcalloc((size_t)1 << f->max_lmc, sizeof *fl->path_pkts);
        fl->path_rng = rng_mix64(f->seed ^ rng_mix64(0x9a7b175ULL + fl->index));
        if (fl->path == PATH_SHORTEST && !f->short_off)
            build_short_off(f);
    }
    char key[340];
    snprintf(key, sizeof key, "flow/%s", name);
    if (f->own_part && f->own_part[fl->src->node->index] != f->own_rank) {
        fl->rng = NULL; /* sourced on another rank of a distributed run: never drawn from here */
    } else if (d->small_rng) {
        fl->rng = gsl_rng_alloc(gsl_rng_taus2);
        gsl_rng_set(fl->rng, (unsigned long)rng_stream_seed(f->seed, key));
    } else {
        fl->rng = rng_stream(f->seed, key);
    }
    if (d->lanes && *d->lanes) {
        struct lanes ln;
        char why[160];
        if (lanes_parse(d->lanes, &ln, why, sizeof why))
            return ibn_err_at(e, d->file, d->line, "flow %s: lanes = \"%s\": %s", name, d->lanes,
                              why);
        fl->lanes = xmalloc(sizeof *fl->lanes);
        *fl->lanes = ln;
    }
    fl->qmax = d->max_pending > 0 ? (uint32_t)d->max_pending : f->set.max_pending ? f->set.max_pending : 1;
    fl->qcap = fl->qmax < FLOW_MQ_FIRST ? fl->qmax : FLOW_MQ_FIRST;
    fl->mq = xcalloc(fl->qcap, sizeof *fl->mq);
    fl->next_ok = 0;
    hist_init(&fl->st.net_latency);
    hist_init(&fl->st.e2e_latency);
    hist_init(&fl->st.msg_latency);
    hist_init(&fl->st.posted_latency);
    fl->st.msg_is_e2e = 1;
    deadline_init(&fl->st.deadlines);
    int kind = fl->arr.d.kind;
    if (kind == ARRIVAL_VIDEO || kind == ARRIVAL_TRACE) {
        /* Seed 003's rule: the deadline advances one frame period per frame, reset after a miss.
         * flow_start sets the first deadline from the first frame's generation time. */
        fl->st.has_deadlines = 1;
        /* Rounded up: consecutive frames are at most this far apart (the generator rounds
         * k x period_ps to the ps), so a frame as late as the one before it, after a miss,
         * does not miss by a rounding picosecond. */
        simtime_t period = (simtime_t)ceil(fl->arr.period_ps);
        vdl_init(&fl->st.vdl, fl->start, period, fl->arr.d.deadline ? fl->arr.d.deadline : period);
    } else if (fl->arr.d.deadline > 0) {
        fl->st.has_deadlines = 1;
    }
    if (fl->mgroup >= 0 && fl->st.has_deadlines) {
        /* A multicast stream's frames meet or miss their deadlines at each member on its own. */
        int nm = f->mc->g[fl->mgroup].nmembers;
        fl->mc_vdl = xmalloc((size_t)nm * sizeof *fl->mc_vdl);
        fl->mc_dl = xmalloc((size_t)nm * sizeof *fl->mc_dl);
        for (int k = 0; k < nm; k++) {
            fl->mc_vdl[k] = fl->st.vdl;
            deadline_init(&fl->mc_dl[k]);
        }
    }
    if (kind == ARRIVAL_CONSTANT || kind == ARRIVAL_VIDEO || kind == ARRIVAL_TRACE) {
        fl->st.has_jitter = 1;
        jitter_init(&fl->st.jitter, (simtime_t)(fl->arr.period_ps + 0.5), f->jitter_k);
    }
    const struct node *srcn = f->hosts[fl->src_host].node; /* the flow's events: its adapter's */
    fabric_schedule_on(f, srcn, fl->start, EV_FLOW_START, fl, 0, 0);
    if (fl->stop != SIMTIME_NEVER) {
        if (fl->stop <= fl->start)
            return ibn_err_at(e, d->file, d->line, "flow %s stops before it starts", name);
        fabric_schedule_on(f, srcn, fl->stop, EV_FLOW_STOP, fl, 0, 0);
    }
    return 0;
}

/* A split pattern entry (Paper IV Frame I): two queue pairs for host src, NAME/hot (class 1)
 * and NAME/uni (class 0), sharing the entry's pattern state. */
static int add_split(struct fabric *f, const struct flow_desc *d, const char *name, int src,
                     struct ibn_err *e)
{
    char qp[320];
    snprintf(qp, sizeof qp, "%s/hot", name);
    if (add_flow(f, d, NULL, qp, src, 1, e))
        return -1;
    snprintf(qp, sizeof qp, "%s/uni", name);
    return add_flow(f, d, NULL, qp, src, 0, e);
}

/* An engine that programs SL2VL tables and path SLs (torus-2QoS, l->vlmap): every switch gets
 * its table per (input port, output port), adapter ports the engine's SL-to-VL map (qos.sl2vl
 * and qos.ca_sl2vl give way, as OpenSM ignores them under torus-2QoS), and each host a row of
 * path SLs by DLID (shared by the hosts of one switch). */
static int apply_vlmap(struct fabric *f, const struct topo *t, const struct lfts *l,
                       struct ibn_err *e)
{
    const struct lft_vlmap *m = l->vlmap;
    if (f->set.nvls < m->nvl)
        return ibn_err_set(e, "routing %s programs VLs 0-%d, but only %lld data VLs are in use: "
                           "set fabric.vls (or qos.max_vls) to %d", l->engine, m->nvl - 1,
                           (long long)f->set.nvls, m->nvl);
    memcpy(f->set.sl2vl_ca, m->ca, 16);
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_SWITCH || !m->sw[i])
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        size_t n = (size_t)(s->n.nports + 1) * (size_t)(s->n.nports + 1) * 16;
        free(s->sl2vl);
        s->sl2vl = xmalloc(n);
        memcpy(s->sl2vl, m->sw[i], n);
    }
    size_t row = (size_t)f->max_lid + 1;
    int *owner = xmalloc(row * sizeof *owner); /* LID -> node */
    for (size_t k = 0; k < row; k++)
        owner[k] = -1;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 0; p <= t->node[i].nports; p++) {
            const struct topo_port *x = &t->node[i].port[p];
            if (!x->lid || (t->node[i].type == TOPO_SWITCH) != (p == 0))
                continue;
            for (int k = x->lid; k < x->lid + (1 << x->lmc) && (size_t)k < row; k++)
                owner[k] = i;
        }
    f->sl_rows = xcalloc((size_t)m->nsw * row, 1);
    for (int i = 0; i < t->nnodes; i++) {
        if (m->swidx[i] < 0)
            continue;
        uint8_t *r = f->sl_rows + (size_t)m->swidx[i] * row;
        for (size_t k = 0; k < row; k++) {
            int sl = owner[k] >= 0 ? lft_vlmap_path_sl(m, t, i, owner[k], 0) : -1;
            r[k] = (uint8_t)(sl < 0 ? 0 : sl);
        }
    }
    free(owner);
    f->host_sl = xcalloc((size_t)f->nhosts + 1, sizeof *f->host_sl);
    for (int h = 0; h < f->nhosts; h++) {
        struct port *pt = f->hosts[h].port;
        int sw = -1;
        for (int i = 0; i < t->nnodes && sw < 0; i++)
            if (f->nodes[i] == pt->peer->node)
                sw = i;
        if (sw < 0 || m->swidx[sw] < 0)
            return ibn_err_set(e, "routing %s: adapter %s is not cabled to a switch of its torus",
                               l->engine, f->hosts[h].node->name);
        f->host_sl[h] = f->sl_rows + (size_t)m->swidx[sw] * row;
    }
    return 0;
}

/* An engine that puts each destination LID on a VL (dfsssp, l->dlid_vl): packets to a LID
 * carry that VL as their SL (one row of path SLs by DLID, shared by every host), so with SL v
 * on VL v at the switches every hop after the first uses the destination's VL, as the
 * deadlock check assumed. Refused when the fabric cannot: too few data VLs, an SL-to-VL map
 * that moves SL v off VL v, or a flow with its own SL (which the path SL would override). */
static int apply_dlid_vl(struct fabric *f, const struct lfts *l, const struct run_desc *d,
                         struct ibn_err *e)
{
    if (f->set.nvls < l->nvl)
        return ibn_err_set(e, "routing %s puts destinations on VLs 0-%d, but only %lld data VLs "
                           "are in use: set fabric.vls (or qos.max_vls) to at least %d",
                           l->engine, l->nvl - 1, (long long)f->set.nvls, l->nvl);
    for (int v = 0; v < l->nvl; v++)
        if (f->set.sl2vl[v] != v)
            return ibn_err_set(e, "routing %s gives packets their destination's VL as SL, so SL "
                               "%d must map to VL %d (qos.sl2vl maps it to %d)", l->engine, v, v,
                               f->set.sl2vl[v]);
    for (int i = 0; i < d->nflows; i++)
        if (d->flows[i].sl || (d->flows[i].cls && *d->flows[i].cls))
            return ibn_err_set(e, "routing %s gives packets their destination's VL as SL: flow "
                               "%s may not set its own sl or class", l->engine, d->flows[i].name);
    size_t row = (size_t)f->max_lid + 1;
    f->sl_rows = xcalloc(row, 1);
    for (size_t k = 0; k < row && k <= (size_t)l->max_lid; k++)
        f->sl_rows[k] = l->dlid_vl[k];
    f->host_sl = xcalloc((size_t)f->nhosts + 1, sizeof *f->host_sl);
    for (int h = 0; h < f->nhosts; h++)
        f->host_sl[h] = f->sl_rows;
    return 0;
}

int fabric_build(struct fabric *f, const struct topo *t, const struct lfts *l,
                 const struct run_desc *d, struct ibn_err *e)
{
    memset(f, 0, sizeof *f);
    if (check_settings(&d->set, e))
        return -1;

    f->set = d->set;
    f->nvs = (int)f->set.nvls + 1;
    f->seed = d->seed;
    f->jitter_k = d->jitter_k > 0 ? d->jitter_k : 8;
    f->warmup = d->warmup;
    f->end = d->end;
    f->drain_limit = d->drain_limit;
    f->stall_limit = d->stall_limit;
    f->until_delivered = d->until_delivered;
    f->until_at = SIMTIME_NEVER;
    f->sample_interval = d->sample_interval;
    f->own_part = d->own_part;
    f->own_rank = d->own_rank;
    if (f->set.inject_limit_bps > 0)
        f->inject_rate = byterate_from_bps(f->set.inject_limit_bps);
    if (f->set.sink_limit_bps > 0)
        f->sink_rate = byterate_from_bps(f->set.sink_limit_bps);
    eventq_init(&f->q, 4096);
    pktpool_init(&f->pool, 4096);
    f->msgs_free = UINT32_MAX;
    f->nnodes = t->nnodes;
    if ((uint32_t)t->nnodes >= EVENTQ_MAX_ORIGINS)
        return ibn_err_set(e, "%d nodes: at most %u can be simulated (event origins, core/eventq.h)",
                           t->nnodes, EVENTQ_MAX_ORIGINS - 1);
    /* One event origin per node and one for the fabric, current during set-up. */
    eventq_set_origins(&f->q, (uint32_t)t->nnodes + 1);
    eventq_set_origin(&f->q, FABRIC_ORIGIN(f));
    f->nodes = xcalloc((size_t)t->nnodes, sizeof *f->nodes);
    f->max_lid = l->max_lid;
    int32_t sw_cap = (int32_t)(f->set.switch_buffer / CREDIT_BYTES);
    int32_t ca_cap = (int32_t)(f->set.hca_buffer / CREDIT_BYTES);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *tn = &t->node[i];
        struct node *n;
        if (tn->type == TOPO_SWITCH) {
            struct sw *s = xcalloc(1, sizeof *s);
            n = &s->n;
            n->is_switch = 1;
            s->arch = sw_archs[f->set.arch];
            s->latency = f->set.switch_latency;
            s->read_ports = f->set.read_ports ? (int)f->set.read_ports
                            : s->arch->default_read_ports ? s->arch->default_read_ports : tn->nports;
            s->speedup = f->set.speedup;
            s->cut_through_late = f->set.cut_through_late;
            s->words = (tn->nports + 1 + 63) / 64;
            s->lft = l->table[i];
            s->pb_local = l->pb_local ? l->pb_local[i] : PB_BITS;
            if (f->set.adaptive > 0)
                s->adapt = adapt_policies[f->set.adaptive - 1];
            s->max_lid = l->max_lid;
            size_t np = (size_t)tn->nports + 1;
            s->req = xcalloc(np * (size_t)f->nvs * (size_t)s->words, sizeof *s->req);
            s->req_slots = xcalloc(np, sizeof *s->req_slots);
            s->rr = xcalloc(np * (size_t)f->nvs, sizeof *s->rr);
            s->reads = xcalloc(np, 1);
            s->stalled = xcalloc((size_t)s->words, sizeof *s->stalled);
            s->rbusy = xcalloc((size_t)s->words, sizeof *s->rbusy);
        } else {
            n = xcalloc(1, sizeof *n);
        }
        n->index = i;
        n->name = tn->name;
        n->alias = tn->alias ? tn->alias : tn->name;
        n->guid = tn->guid;
        n->lid = tn->port[0].lid;
        n->nports = tn->nports;
        /* Cache-line aligned, as struct port_vl asks. */
        n->port = xaligned_calloc(_Alignof(struct port), (size_t)tn->nports + 1, sizeof *n->port);
        /* Each port's VL slots in use, one cache line each, in one block per node. */
        size_t nvl = ((size_t)tn->nports + 1) * (size_t)f->nvs;
        struct port_vl *vls = xaligned_calloc(_Alignof(struct port_vl), nvl, sizeof *vls);
        for (size_t k = 0; k < nvl; k++)
            vls[k].ctr.wait_since = -1;
        for (int p = 0; p <= tn->nports; p++) {
            port_init(f, &n->port[p], n, p);
            n->port[p].vl = vls + (size_t)p * (size_t)f->nvs;
        }
        f->nodes[i] = n;
        if (n->is_switch && node_sw(n)->adapt && node_sw(n)->adapt->init)
            node_sw(n)->adapt->init(f, node_sw(n));
    }
    /* Cables, rates, buffers and initial credits; hosts. */
    f->hosts = xcalloc((size_t)t->nnodes * 4 + 1, sizeof *f->hosts);
    int hosts_cap = t->nnodes * 4 + 1;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *tn = &t->node[i];
        struct node *n = f->nodes[i];
        for (int p = 1; p <= tn->nports; p++) {
            const struct topo_port *tp = &tn->port[p];
            struct port *pt = &n->port[p];
            if (tp->peer_node < 0)
                continue;
            pt->peer = &f->nodes[tp->peer_node]->port[tp->peer_port];
            pt->rate = byterate_from_bps(topo_port_rate_bps(t, i, p));
            pt->delay = tp->delay;
            pt->lid = tp->lid;
            pt->lmc = tp->lmc;
            for (int s = 0; s < f->set.nvls; s++)
                pt->vl[s].rx_cap = n->is_switch ? sw_cap : ca_cap;
            if (!n->is_switch) {
                if (f->nhosts == hosts_cap)
                    ibn_panic("host table overflow");
                pt->hca = xcalloc(1, sizeof *pt->hca);
                for (int s = 0; s < VL_SLOTS; s++)
                    pt->hca->ring[s] = FLOW_NIL;
                pktq_init(&pt->hca->ctrl);
                pktq_init(&pt->hca->sinkq);
                pt->hca->host = f->nhosts;
                f->hosts[f->nhosts].node = n;
                f->hosts[f->nhosts].port = pt;
                f->nhosts++;
                if (!tp->lid)
                    return ibn_err_set(e, "adapter %s port %d has no LID", n->name, p);
            }
        }
    }
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 1; p <= f->nodes[i]->nports; p++) {
            struct port *pt = &f->nodes[i]->port[p];
            if (pt->peer)
                for (int s = 0; s < f->set.nvls; s++)
                    pt->vl[s].credits = pt->vl[s].credit_cap = pt->peer->vl[s].rx_cap;
        }
    f->host_of_lid = xmalloc(((size_t)f->max_lid + 1) * sizeof *f->host_of_lid);
    for (int lid = 0; lid <= f->max_lid; lid++)
        f->host_of_lid[lid] = -1;
    for (int h = 0; h < f->nhosts; h++) {
        struct port *pt = f->hosts[h].port;
        if (pt->lmc > f->max_lmc)
            f->max_lmc = pt->lmc;
        for (int lid = pt->lid; lid < pt->lid + (1 << pt->lmc) && lid <= f->max_lid; lid++)
            f->host_of_lid[lid] = h;
    }
    if (l->vlmap && apply_vlmap(f, t, l, e))
        return -1;
    if (!l->vlmap && l->dlid_vl && l->nvl > 1 && apply_dlid_vl(f, l, d, e))
        return -1;
    /* The switches' input memories, now that cables, buffers and hosts are known. */
    for (int i = 0; i < f->nnodes; i++)
        if (f->nodes[i]->is_switch) {
            struct sw *s = node_sw(f->nodes[i]);
            if (s->arch->init(f, s, e))
                return ibn_err_prefix(e, "switch.arch = %s, switch %s: ", s->arch->name, s->n.name);
            if (d->own_part && d->own_part[i] != d->own_rank)
                sw_release(s); /* another rank handles it (dist.h) */
        }
    if (mcast_build(f, t, l, d->mc, e))
        return -1;
    if (f->set.scheduler) /* iSLIP's state, once rates and multicast are known (islip.c) */
        for (int i = 0; i < f->nnodes; i++)
            if (f->nodes[i]->is_switch && islip_init(f, node_sw(f->nodes[i]), e))
                return -1;
    /* Flows. */
    int total = 0;
    for (int i = 0; i < d->nflows; i++)
        total += (topo_is_set(d->flows[i].src) || hostdraw_is(d->flows[i].src) ? f->nhosts : 1) * /* a group: at most all */
                 (d->flows[i].has_pattern && d->flows[i].pat.split ? 2 : 1);
    f->flows = xcalloc((size_t)total + 1, sizeof *f->flows);
    if (hostdraw_init(f, e)) /* hosts drawn at random, named draw:... below */
        return ibn_err_prefix(e, "draw: ");
    f->patterns = xcalloc((size_t)d->nflows + 1, sizeof *f->patterns);
    for (int i = 0; i < d->nflows; i++) {
        const struct flow_desc *fd = &d->flows[i];
        if (fd->has_pattern) {
            /* One pattern state for all flows of this entry: roles and hot spots are shared. */
            struct pattern *pt = xcalloc(1, sizeof *pt);
            char key[300];
            snprintf(key, sizeof key, "pattern/%s", fd->name);
            gsl_rng *setup = rng_stream(f->seed, key);
            int rc = pattern_init(pt, &fd->pat, f->nhosts, setup, e);
            gsl_rng_free(setup);
            if (rc) {
                free(pt);
                return ibn_err_prefix(e, "%s:%d: flow %s: pattern: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
            }
            f->patterns[f->npatterns++] = pt;
        }
        int split = fd->has_pattern && fd->pat.split;
        struct dst_res dr = { -1, NULL, 0, -1 };
        if (!strncmp(fd->dst, "mcast:", 6)) {
            if ((dr.mgroup = mcast_group_find(f, fd->dst, e)) < 0)
                return ibn_err_prefix(e, "%s:%d: flow %s: destination: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
        } else if (!fd->has_pattern && hostdraw_is(fd->dst)) {
            int *set, n = hostdraw_hosts(f, fd->dst, &set, &dr.host, e);
            if (n < 0)
                return ibn_err_prefix(e, "%s:%d: flow %s: destination: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
            if (dr.host >= 0) { /* draw:spotK: one host, a flow to it as to a named host */
                free(set);
            } else {
                f->dsets = xrealloc(f->dsets, ((size_t)f->ndsets + 1) * sizeof *f->dsets);
                f->dsets[f->ndsets++] = set;
                dr.set = set;
                dr.nset = n;
            }
        } else if (!fd->has_pattern && strcmp(fd->dst, "uniform")) {
            struct ibn_err single = { { 0 } };
            dr.host = resolve_host(f, t, fd->dst, &single);
            if (dr.host < 0 && !topo_is_set(fd->dst)) {
                *e = single;
                return ibn_err_prefix(e, "%s:%d: flow %s: destination: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
            }
            if (dr.host < 0) {
                int *set, n = fabric_host_set(f, t, fd->dst, &set, e);
                if (n < 0)
                    return ibn_err_prefix(e, "%s:%d: flow %s: destination group: ",
                                          fd->file ? fd->file : "", fd->line, fd->name);
                f->dsets = xrealloc(f->dsets, ((size_t)f->ndsets + 1) * sizeof *f->dsets);
                f->dsets[f->ndsets++] = set;
                dr.set = set;
                dr.nset = n;
            }
        }
        int *srcs = NULL, nsrc = 0, one = -1;
        if (hostdraw_is(fd->src)) {
            if ((nsrc = hostdraw_hosts(f, fd->src, &srcs, &one, e)) < 0)
                return ibn_err_prefix(e, "%s:%d: flow %s: source: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
            if (one >= 0) { /* draw:spotK: one host */
                free(srcs);
                srcs = NULL;
                nsrc = 0;
            }
        } else if (strcmp(fd->src, "*")) {
            struct ibn_err single = { { 0 } };
            one = resolve_host(f, t, fd->src, &single);
            if (one < 0 && !topo_is_set(fd->src)) {
                *e = single;
                return ibn_err_prefix(e, "%s:%d: flow %s: source: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
            }
            if (one < 0 && (nsrc = fabric_host_set(f, t, fd->src, &srcs, e)) < 0)
                return ibn_err_prefix(e, "%s:%d: flow %s: source group: ", fd->file ? fd->file : "",
                                      fd->line, fd->name);
        } else {
            srcs = xmalloc(((size_t)f->nhosts + 1) * sizeof *srcs);
            for (int h = 0; h < f->nhosts; h++)
                srcs[nsrc++] = h;
        }
        if (one >= 0) {
            if (split ? add_split(f, fd, fd->name, one, e) : add_flow(f, fd, &dr, fd->name, one, -1, e))
                return -1;
            continue;
        }
        /* A set of sources: one flow per host, NAME@HOST (the host's alias in a group, its name
         * for "*"); a host does not send to itself. */
        int rc = 0;
        for (int k = 0; k < nsrc && !rc; k++) {
            int h = srcs[k];
            char name[300];
            snprintf(name, sizeof name, "%s@%s", fd->name,
                     strcmp(fd->src, "*") ? f->hosts[h].node->alias : f->hosts[h].node->name);
            if (h == dr.host)
                continue;
            rc = split ? add_split(f, fd, name, h, e) : add_flow(f, fd, &dr, name, h, -1, e);
        }
        free(srcs);
        if (rc)
            return -1;
    }
    /* Each flow has at most one message event pending, kept at its adapter port (hca.c,
     * "message events"): the ports' heaps are sized now, not on the hot path. */
    for (uint32_t i = 0; i < f->nflows; i++)
        f->flows[i].src->hca->cheap++;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct hca_port *h = f->flows[i].src->hca;
        if (h->cheap && !h->mheap)
            h->mheap = xmalloc((size_t)h->cheap * sizeof *h->mheap);
    }
    if (transport_init(f, e))
        return -1;
    if (drop_init(f, e))
        return -1;
    f->loss_on = (uint8_t)(f->set.loss > 0 || f->set.loss_every > 0);
    f->loss_rng = rng_mix64(f->seed ^ 0x6c6f7373ULL); /* its own stream: "loss" */
    fabric_schedule(f, f->end, EV_END, NULL, 0, 0);
    if (f->sample_interval > 0 && f->sample_interval <= f->end)
        fabric_schedule(f, f->sample_interval, EV_SAMPLE, NULL, 0, 0);
    return 0;
}

int fabric_set_sl2vl(struct fabric *f, int node, int in, int out, const uint8_t map[16],
                     struct ibn_err *e)
{
    if (node < 0 || node >= f->nnodes || !f->nodes[node]->is_switch)
        return ibn_err_set(e, "SL-to-VL tables per port pair exist on switches only");
    struct sw *s = node_sw(f->nodes[node]);
    int np = s->n.nports + 1;
    if (in < 1 || in >= np || out < 1 || out >= np)
        return ibn_err_set(e, "switch %s has no port pair %d -> %d", s->n.name, in, out);
    for (int i = 0; i < 16; i++)
        if (map[i] >= f->set.nvls && map[i] != VL15)
            return ibn_err_set(e, "SL %d maps to VL %d, but only VLs 0-%d are in use", i, map[i],
                               (int)f->set.nvls - 1);
    if (!s->sl2vl) {
        s->sl2vl = xmalloc((size_t)np * (size_t)np * 16);
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++)
                memcpy(s->sl2vl + ((size_t)a * (size_t)np + (size_t)b) * 16, f->set.sl2vl, 16);
    }
    memcpy(s->sl2vl + ((size_t)in * (size_t)np + (size_t)out) * 16, map, 16);
    return 0;
}

int fabric_set_port_vlarb(struct fabric *f, int node, int port, const struct vlarb_table *t,
                          struct ibn_err *e)
{
    if (node < 0 || node >= f->nnodes || !f->nodes[node] || port < 1 || port > f->nodes[node]->nports)
        return ibn_err_set(e, "no port %d on node %d for a VL arbitration table", port, node);
    for (int i = 0; i < t->nhigh + t->nlow; i++) {
        const struct vlarb_entry *x = i < t->nhigh ? &t->high[i] : &t->low[i - t->nhigh];
        if (x->weight && x->vl >= f->set.nvls)
            return ibn_err_set(e, "%s port %d: the VL arbitration table gives weight to VL %d, but "
                               "only VLs 0-%lld are in use", f->nodes[node]->name, port, x->vl,
                               f->set.nvls - 1);
    }
    struct port *p = &f->nodes[node]->port[port];
    for (int i = 0; i < f->nown_vlarb; i++)
        if (f->own_vlarb[i] == p->vlarb) { /* already its own: overwrite */
            *f->own_vlarb[i] = *t;
            vlarb_state_init(&p->arb);
            return 0;
        }
    f->own_vlarb = xrealloc(f->own_vlarb, (size_t)(f->nown_vlarb + 1) * sizeof *f->own_vlarb);
    struct vlarb_table *c = xmalloc(sizeof *c);
    *c = *t;
    f->own_vlarb[f->nown_vlarb++] = c;
    p->vlarb = c;
    vlarb_state_init(&p->arb);
    return 0;
}

void fabric_warn(struct fabric *f, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    f->warn = xrealloc(f->warn, ((size_t)f->nwarn + 1) * sizeof *f->warn);
    f->warn[f->nwarn++] = xstrdup(buf);
}

void fabric_free(struct fabric *f)
{
    for (int i = 0; i < f->nown_vlarb; i++)
        free(f->own_vlarb[i]);
    free(f->own_vlarb);
    for (int i = 0; i < f->nwarn; i++)
        free(f->warn[i]);
    free(f->warn);
    if (f->hooks.destroy)
        f->hooks.destroy(f);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        free(fl->name);
        free(fl->cls);
        free(fl->mq);
        free(fl->path_pkts);
        free(fl->mc_vdl);
        free(fl->mc_dl);
        free(fl->lanes);
        free(fl->held);
        free(fl->rc.dout);
        transport_rc_free(fl);
        if (fl->rng)
            gsl_rng_free(fl->rng);
        arrival_free(&fl->arr);
        hist_free(&fl->st.net_latency);
        hist_free(&fl->st.e2e_latency);
        hist_free(&fl->st.msg_latency);
        hist_free(&fl->st.posted_latency);
    }
    if (f->flows)
        free(f->flows[f->nflows].name); /* a flow whose set-up failed half way */
    free(f->flows);
    for (int i = 0; i < f->npatterns; i++) {
        pattern_free(f->patterns[i]);
        free(f->patterns[i]);
    }
    free(f->patterns);
    hostdraw_free(f);
    for (int i = 0; i < f->ndsets; i++)
        free(f->dsets[i]);
    free(f->dsets);
    free(f->host_sl);
    free(f->sl_rows);
    drop_free(f);
    mcast_free(f);
    period_free(f);
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (!n)
            continue;
        for (int p = 0; p <= n->nports; p++) {
            if (n->port[p].hca) {
                free(n->port[p].hca->armed);
                free(n->port[p].hca->mheap);
                free(n->port[p].hca->flows);
            }
            free(n->port[p].hca);
            if (n->port[p].cret != n->port[p].cret_inline)
                free(n->port[p].cret);
        }
        free(n->port[0].vl);
        free(n->port);
        if (n->is_switch) {
            struct sw *s = node_sw(n);
            if (s->arch)
                s->arch->free(s);
            if (s->adapt && s->adapt->free)
                s->adapt->free(s);
            free(s->req);
            free(s->req_slots);
            free(s->rr);
            free(s->reads);
            free(s->stalled);
            free(s->rbusy);
            free(s->sl2vl);
            islip_free(s);
        }
        free(n);
    }
    free(f->nodes);
    free(f->hosts);
    free(f->host_of_lid);
    free(f->short_off);
    free(f->msgs);
    eventq_free(&f->q);
    pktpool_free(&f->pool);
    memset(f, 0, sizeof *f);
}

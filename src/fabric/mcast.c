/* mcast.c: multicast groups as the fabric runs them (fabric/mcast.h): the scenario's keys,
 * resolving members and sources, the forwarding tables (source-based trees checked for
 * exactly-once delivery, or an OpenSM dump), each switch's multicast state, and the per-member
 * statistics. The replication itself is in mcast_switch.c. */
#include "fabric/mcast.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/build.h"
#include "fabric/swarch.h"
#include "routing/mft_dump.h"
#include "topology/topo_addr.h"

const char *const mc_scheme_names[] = { "unicast", "sync", "async", "central", NULL };
static const char *const async_buffer_names[] = { "input", "switch", NULL };
static const char *const sync_outputs_names[] = { "buffer", "hold", NULL };
static const char *const tree_names[] = { "source", "opensm", NULL };
static const char *const sync_order_names[] = { "switch", "source", "none", NULL };

#define OFF(field) offsetof(struct mcast_desc, field)
const struct param mcast_params[] = {
    { "scheme", P_ENUM, OFF(scheme), "sync",
      "how multicast packets are copied: unicast (the source sends one unicast copy per member), "
      "sync (switches copy to all outputs at once, FCFS ownership of outputs), async (copies "
      "leave as outputs free, a counter and a one-packet buffer per input VL), central (a multicast "
      "FIFO per output in a central buffer)", mc_scheme_names, 0, 0 },
    { "central_buffer", P_SIZE, OFF(central_buffer), "4200 B",
      "scheme central: bytes of each output's multicast FIFO (at least one packet)", NULL, 64, 1 << 24 },
    { "async_buffer", P_ENUM, OFF(async_buffer), "input",
      "scheme async: where the one-packet buffer is, per input VL (input) or one per switch "
      "(switch: only one multicast packet in transfer per switch; deadlock-prone)", async_buffer_names, 0, 0 },
    { "sync_outputs", P_ENUM, OFF(sync_outputs), "buffer",
      "scheme sync: the copies go at once into one-packet output buffers that must all be empty "
      "(buffer, seed 004's stage-5 output buffers), or straight onto the links, which must all be "
      "idle with credits, an owned link sending nothing else (hold; deadlock-prone)",
      sync_outputs_names, 0, 0 },
    { "sync_order", P_ENUM, OFF(sync_order), "source",
      "scheme sync with sync_outputs = buffer (and the pipelined switch's xbar_priority): seed "
      "004's FCFS priority among multicast packets for outputs, an older waiting packet "
      "reserving all its outputs against younger ones, by injection at the source, then source "
      "LID and PSN (source: one order across the network) or by arrival at this switch (switch: "
      "neighbours can order the same packets oppositely and their reservations wait for each "
      "other's input buffers: deadlocks on Fig. 10's networks); or none: nothing reserved, a "
      "head goes when all its outputs are free at once, oldest first by arrival "
      "(docs/multicast.md)", sync_order_names, 0, 0 },
    { "xbar_priority", P_BOOL, OFF(xbar_priority), "false",
      "switch.arch = pipe: seed 004's priority of multicast packets over unicast data in "
      "reserving crossbar outputs: after VL15 (control) heads, which stay first, multicast heads "
      "go first, oldest first (FCFS as sync_order "
      "says for sync, by arrival otherwise), and under sync a head that cannot cross yet reserves "
      "its outputs against younger multicast heads and every unicast packet (false: heads served "
      "by the inputs' round robin and WRR like unicast ones)", NULL, 0, 0 },
    { "tree", P_ENUM, OFF(tree), "source",
      "multicast trees: source (seed 004: a source-based tree per group and source, source k of a "
      "group sending to mlid + k) or opensm (OpenSM's spanning tree per group over min-hop counts, "
      "one MLID shared by every source of the group, as OpenSM installs it)", tree_names, 0, 0 },
    { "mft_file", P_STRING, OFF(mft_file), "",
      "multicast forwarding tables from OpenSM's dump (opensm.mcfdbs, or one 'ibnetsim route "
      "compute --mfts' wrote) instead of computed trees; with tree = opensm each group's sources "
      "share its mlid, as in OpenSM's tables",
      NULL, 0, 0 },
    PARAM_END,
};

void mcast_desc_defaults(struct mcast_desc *d)
{
    char why[256];
    memset(d, 0, sizeof *d);
    if (params_set_defaults(mcast_params, d, why, sizeof why))
        ibn_panic("bad built-in multicast default: %s", why);
}

void mcast_desc_free(struct mcast_desc *d)
{
    params_free(mcast_params, d);
    for (int i = 0; i < d->ngroups; i++) {
        free(d->groups[i].name);
        free(d->groups[i].members);
        free(d->groups[i].sources);
    }
    free(d->groups);
    d->groups = NULL;
    d->ngroups = 0;
}

static struct ca_port host_cp(const struct fabric *f, int h)
{
    return (struct ca_port){ f->hosts[h].node->index, f->hosts[h].port->num };
}

int mcast_build(struct fabric *f, const struct topo *t, const struct lfts *l,
                const struct mcast_desc *d, struct ibn_err *e)
{
    if (!d || !d->ngroups)
        return 0;
    struct mcast *mc = xcalloc(1, sizeof *mc);
    f->mc = mc;
    mc->scheme = d->scheme;
    mc->cb_cap = (int32_t)(d->central_buffer / CREDIT_BYTES);
    mc->async_switch = d->async_buffer == 1;
    mc->fifo_mode = d->scheme == MC_CENTRAL || (d->scheme == MC_SYNC && d->sync_outputs == 0);
    mc->by_source = d->scheme == MC_SYNC && !d->sync_outputs && d->sync_order == 1;
    mc->xbar_prio = d->xbar_priority;
    mc->no_reserve = d->scheme == MC_SYNC && !d->sync_outputs && d->sync_order == 2;
    mc->ngroups = d->ngroups;
    mc->g = xcalloc((size_t)d->ngroups, sizeof *mc->g);
    int max_mlid = MLID_FIRST, shared = d->tree == 1;
    struct hoptab ht = { 0 };
    if (shared && !*d->mft_file) { /* OpenSM's hop counts (minhop, dor) */
        hoptab_init(&ht, t);
        hoptab_minhop(&ht, t);
    }
    if (*d->mft_file) {
        if (mft_dump_read(d->mft_file, t, &mc->mft, e))
            return -1;
    } else {
        mfts_init(&mc->mft, t, MLID_FIRST);
    }
    for (int i = 0; i < d->ngroups; i++) {
        const struct mgroup_desc *gd = &d->groups[i];
        struct mgroup *g = &mc->g[i];
        g->name = xstrdup(gd->name);
        for (int j = 0; j < i; j++)
            if (!strcmp(d->groups[j].name, gd->name))
                return ibn_err_at(e, gd->file, gd->line, "two multicast groups are named \"%s\"",
                                  gd->name);
        g->nmembers = fabric_host_set(f, t, gd->members, &g->members, e);
        if (g->nmembers < 0)
            return ibn_err_prefix(e, "%s:%d: multicast group %s: members: ", gd->file, gd->line, gd->name);
        if (g->nmembers == 0)
            return ibn_err_at(e, gd->file, gd->line, "multicast group %s: members \"%s\" names no host",
                              gd->name, gd->members);
        int *src, ns = fabric_host_set(f, t, gd->sources, &src, e);
        if (ns < 0)
            return ibn_err_prefix(e, "%s:%d: multicast group %s: sources: ", gd->file, gd->line, gd->name);
        if (gd->mlid < MLID_FIRST || gd->mlid + (shared ? 0 : ns - 1) > MLID_LAST) {
            free(src);
            if (shared)
                return ibn_err_at(e, gd->file, gd->line, "multicast group %s: MLID 0x%04llX must "
                                  "lie in 0x%04X-0x%04X", gd->name, gd->mlid, MLID_FIRST, MLID_LAST);
            return ibn_err_at(e, gd->file, gd->line, "multicast group %s: MLIDs 0x%04llX-0x%04llX "
                              "(one per source, %d sources) must lie in 0x%04X-0x%04X", gd->name,
                              gd->mlid, gd->mlid + ns - 1, ns, MLID_FIRST, MLID_LAST);
        }
        g->member_pos = xmalloc(((size_t)f->nhosts + 1) * sizeof *g->member_pos);
        for (int h = 0; h < f->nhosts; h++)
            g->member_pos[h] = -1;
        for (int k = 0; k < g->nmembers; k++)
            g->member_pos[g->members[k]] = k;
        g->src_mlid = xcalloc((size_t)f->nhosts + 1, sizeof *g->src_mlid);
        g->pkts = xcalloc((size_t)g->nmembers, sizeof *g->pkts);
        g->lat = xcalloc((size_t)g->nmembers, sizeof *g->lat);
        for (int k = 0; k < g->nmembers; k++)
            hist_init(&g->lat[k]);
        struct ca_port *mb = xmalloc(((size_t)g->nmembers + 1) * sizeof *mb);
        for (int k = 0; k < g->nmembers; k++)
            mb[k] = host_cp(f, g->members[k]);
        int rc = 0;
        for (int k = 0; k < ns && shared && !rc; k++)
            if (g->member_pos[src[k]] < 0)
                rc = ibn_err_at(e, gd->file, gd->line, "multicast group %s: source %s is not a member: "
                                "with multicast.tree = opensm the group's tree joins its members only "
                                "(as OpenSM's, whose senders join the group), so every source must be "
                                "one of them", gd->name, f->hosts[src[k]].node->name);
        if (!rc && shared && !*d->mft_file && mc->scheme != MC_UNICAST &&
            mft_opensm_tree(&mc->mft, t, &ht, (int)gd->mlid, mb, g->nmembers, e))
            rc = ibn_err_prefix(e, "%s:%d: multicast group %s: ", gd->file, gd->line, gd->name);
        for (int k = 0; k < ns && !rc; k++) {
            int mlid = (int)gd->mlid + (shared ? 0 : k);
            for (int j = 0; j < i; j++)
                for (int h = 0; h < f->nhosts; h++)
                    if (mc->g[j].src_mlid[h] == mlid)
                        rc = ibn_err_at(e, gd->file, gd->line, "multicast group %s: MLID 0x%04X "
                                        "(source %s) is also group %s's", gd->name, mlid,
                                        f->hosts[src[k]].node->name, mc->g[j].name);
            if (rc)
                break;
            g->src_mlid[src[k]] = (uint16_t)mlid;
            if (mlid > max_mlid)
                max_mlid = mlid;
            if (mc->scheme == MC_UNICAST)
                continue; /* no tables: the source sends unicast copies */
            if (!shared && !*d->mft_file && mft_source_tree(&mc->mft, t, l, mlid, host_cp(f, src[k]), mb,
                                                 g->nmembers, e))
                rc = ibn_err_prefix(e, "%s:%d: multicast group %s: ", gd->file, gd->line, gd->name);
            else if (mft_check(&mc->mft, t, mlid, host_cp(f, src[k]), mb, g->nmembers, NULL, NULL, e))
                rc = ibn_err_prefix(e, "%s:%d: multicast group %s: %s: ", gd->file, gd->line,
                                    gd->name, *d->mft_file ? d->mft_file : "tree");
        }
        free(mb);
        free(src);
        if (rc) {
            hoptab_free(&ht);
            return -1;
        }
    }
    hoptab_free(&ht);
    mfts_grow(&mc->mft, t, max_mlid);
    mc->nmlid = max_mlid - MLID_FIRST + 1;
    mc->group_of = xmalloc((size_t)mc->nmlid * sizeof *mc->group_of);
    for (int x = 0; x < mc->nmlid; x++)
        mc->group_of[x] = -1;
    for (int i = 0; i < mc->ngroups; i++)
        for (int h = 0; h < f->nhosts; h++)
            if (mc->g[i].src_mlid[h])
                mc->group_of[mc->g[i].src_mlid[h] - MLID_FIRST] = (int16_t)i;
    if (mc->scheme == MC_UNICAST)
        return 0;
    /* Each switch's multicast state. */
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i]->is_switch)
            continue;
        struct sw *s = node_sw(f->nodes[i]);
        struct sw_mc *m = xcalloc(1, sizeof *m);
        s->mc = m;
        size_t np = (size_t)s->n.nports + 1, nq = np * (size_t)f->nvs;
        m->words = mc->mft.words;
        m->mft = mc->mft.mask[i];
        m->q = xmalloc(nq * sizeof *m->q);
        for (size_t k = 0; k < nq; k++)
            pktq_init(&m->q[k]);
        m->rem = xcalloc(nq * (size_t)m->words, sizeof *m->rem);
        m->buf = xmalloc(nq * sizeof *m->buf);
        m->since = xcalloc(nq, sizeof *m->since);
        for (size_t k = 0; k < nq; k++)
            m->buf[k] = PKT_NIL;
        if (mc->fifo_mode) {
            int32_t need = 0;
            m->cq = xmalloc(np * sizeof *m->cq);
            m->cq_used = xcalloc(np, sizeof *m->cq_used);
            for (size_t k = 0; k < np; k++)
                pktq_init(&m->cq[k]);
            need = (int32_t)bytes_to_credits((uint32_t)pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh));
            if (mc->scheme == MC_CENTRAL && mc->cb_cap < need)
                return ibn_err_set(e, "multicast.central_buffer = %llu B cannot hold one packet of "
                                   "the MTU (%d credits of 64 B)", (unsigned long long)d->central_buffer, need);
        }
    }
    return 0;
}

void mcast_free(struct fabric *f)
{
    struct mcast *mc = f->mc;
    if (!mc)
        return;
    for (int i = 0; i < f->nnodes; i++) {
        if (!f->nodes[i] || !f->nodes[i]->is_switch)
            continue;
        struct sw_mc *m = node_sw(f->nodes[i])->mc;
        if (!m)
            continue;
        free(m->q);
        free(m->rem);
        free(m->buf);
        free(m->since);
        free(m->cq);
        free(m->cq_used);
        free(m);
        node_sw(f->nodes[i])->mc = NULL;
    }
    for (int i = 0; i < mc->ngroups; i++) {
        struct mgroup *g = &mc->g[i];
        free(g->name);
        free(g->members);
        free(g->member_pos);
        free(g->src_mlid);
        free(g->pkts);
        if (g->lat)
            for (int k = 0; k < g->nmembers; k++)
                hist_free(&g->lat[k]);
        free(g->lat);
    }
    free(mc->g);
    free(mc->group_of);
    mfts_free(&mc->mft);
    free(mc);
    f->mc = NULL;
}

int mcast_group_find(const struct fabric *f, const char *dst, struct ibn_err *e)
{
    const char *name = dst + 6; /* after "mcast:" */
    if (f->mc)
        for (int i = 0; i < f->mc->ngroups; i++)
            if (!strcmp(f->mc->g[i].name, name))
                return i;
    char known[512] = "";
    size_t n = 0;
    for (int i = 0; f->mc && i < f->mc->ngroups && n + 2 < sizeof known; i++)
        n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "", f->mc->g[i].name);
    return ibn_err_set(e, "no multicast group \"%s\" (multicast.groups has: %s)", name,
                       *known ? known : "none");
}

int mcast_member(const struct fabric *f, int lid, int host)
{
    if (!f->mc || !lid_is_mcast(lid) || lid - MLID_FIRST >= f->mc->nmlid)
        return 0;
    int g = f->mc->group_of[lid - MLID_FIRST];
    return g >= 0 && f->mc->g[g].member_pos[host] >= 0;
}

int mcast_delivered(struct fabric *f, struct flow *fl, int host, const struct packet *x)
{
    struct mgroup *g = &f->mc->g[fl->mgroup];
    int k = g->member_pos[host];
    if (k < 0)
        return 0;
    int measured = (x->flags & PKT_MEASURED) != 0;
    if (measured) {
        g->pkts[k]++;
        hist_add(&g->lat[k], f->now - x->t_created);
    }
    if (fl->mc_vdl && (x->flags & PKT_LAST)) { /* a frame complete at member k */
        int kind = fl->arr.d.kind;
        if (kind == ARRIVAL_VIDEO || kind == ARRIVAL_TRACE)
            vdl_frame(&fl->mc_vdl[k], f->now, measured ? &fl->mc_dl[k] : NULL);
        else if (measured)
            deadline_add(&fl->mc_dl[k], f->now, x->t_created + fl->arr.d.deadline);
    }
    return 1;
}

/* o.deadlines: the frames of an accumulator, in the form of a flow's (stats/results.c). */
static void deadline_json(json_t *o, const struct deadline_acc *d)
{
    json_t *x = json_object();
    json_object_set_new(x, "messages", json_integer((json_int_t)d->frames));
    json_object_set_new(x, "missed", json_integer((json_int_t)d->missed));
    json_object_set_new(x, "dmp", json_real(round(deadline_dmp(d) * 1e9) / 1e9));
    json_object_set_new(x, "dmt_ns", json_real(round((double)deadline_dmt(d) / 1e3 * 1e3) / 1e3));
    json_object_set_new(o, "deadlines", x);
}

void mcast_report(struct fabric *f, json_t *summary)
{
    struct mcast *mc = f->mc;
    if (!mc)
        return;
    json_t *o = json_object(), *groups = json_array();
    json_object_set_new(o, "scheme", json_string(mc_scheme_names[mc->scheme]));
    json_object_set_new(o, "replicas", json_integer((json_int_t)f->cnt.replicas));
    if (mc->scheme == MC_SYNC && !mc->fifo_mode)
        json_object_set_new(o, "sync_output_waits", json_integer((json_int_t)mc->waits));
    if (f->drop) {
        json_object_set_new(o, "dropped", json_integer((json_int_t)mc->dropped));
        json_object_set_new(o, "dropped_partial", json_integer((json_int_t)mc->dropped_partial));
        json_object_set_new(o, "copies_lost", json_integer((json_int_t)mc->copies_lost));
        int pipe = 0; /* a design that replicates before its output buffers (arch_pipe) */
        for (int i = 0; i < f->nnodes && !pipe; i++)
            pipe = f->nodes[i]->is_switch && node_sw(f->nodes[i])->arch->mcast;
        if (pipe)
            json_object_set_new(o, "dropped_at_output", json_integer((json_int_t)mc->dropped_output));
    }
    for (int i = 0; i < mc->ngroups; i++) {
        struct mgroup *g = &mc->g[i];
        json_t *go = json_object(), *members = json_array();
        json_object_set_new(go, "name", json_string(g->name));
        /* Deadlines: each member's frames of every stream to the group (streams with deadlines:
         * video, trace, or a deadline key), and the group's over all its members. */
        int has_dl = 0;
        struct deadline_acc all;
        deadline_init(&all);
        for (uint32_t fi = 0; fi < f->nflows; fi++)
            has_dl |= f->flows[fi].mgroup == i && f->flows[fi].mc_dl;
        for (int k = 0; k < g->nmembers; k++) {
            json_t *m = json_object();
            json_object_set_new(m, "host", json_string(f->hosts[g->members[k]].node->name));
            json_object_set_new(m, "packets_delivered", json_integer((json_int_t)g->pkts[k]));
            json_object_set_new(m, "latency_mean_ns", json_real(round(hist_mean(&g->lat[k])) / 1e3));
            json_object_set_new(m, "latency_p99_ns", json_real(round(hist_quantile(&g->lat[k], 0.99)) / 1e3));
            if (has_dl) {
                struct deadline_acc acc;
                deadline_init(&acc);
                for (uint32_t fi = 0; fi < f->nflows; fi++)
                    if (f->flows[fi].mgroup == i && f->flows[fi].mc_dl)
                        deadline_merge(&acc, &f->flows[fi].mc_dl[k]);
                deadline_merge(&all, &acc);
                deadline_json(m, &acc);
            }
            json_array_append_new(members, m);
        }
        if (has_dl)
            deadline_json(go, &all);
        json_object_set_new(go, "members", members);
        json_array_append_new(groups, go);
    }
    json_object_set_new(o, "groups", groups);
    json_object_set_new(summary, "multicast", o);
}

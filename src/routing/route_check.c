/* route_check.c: route statistics and the channel-dependency deadlock check. Both work per
 * destination LID on the forest the tables form (each switch has one next hop per LID), so the
 * cost is LIDs x switches rather than source x destination pairs. */
#include "routing/route_check.h"

#include <stdlib.h>
#include <string.h>

/* Destination LIDs owned by CA ports: fills lid owner arrays; returns the count. */
static int ca_lids(const struct topo *t, int maxlid, int *owner_node, int *owner_port)
{
    int n = 0;
    for (int l = 0; l <= maxlid; l++)
        owner_node[l] = -1;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        if (nd->type != TOPO_CA)
            continue;
        for (int p = 1; p <= nd->nports; p++) {
            const struct topo_port *x = &nd->port[p];
            if (x->peer_node < 0 || !x->lid)
                continue;
            for (int l = x->lid; l < x->lid + (1 << x->lmc) && l <= maxlid; l++) {
                owner_node[l] = i;
                owner_port[l] = p;
                n++;
            }
        }
    }
    return n;
}

int route_stats_compute(const struct topo *t, const struct lfts *l, struct route_stats *s,
                        struct ibn_err *e)
{
    memset(s, 0, sizeof *s);
    int maxlid = l->max_lid;
    if (lfts_validate(t, l, &s->max_hops, e))
        return -1;
    int *on = xmalloc(((size_t)maxlid + 1) * sizeof *on), *op = xmalloc(((size_t)maxlid + 1) * sizeof *op);
    ca_lids(t, maxlid, on, op);
    s->port_off = xmalloc(((size_t)t->nnodes + 1) * sizeof *s->port_off);
    s->port_off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        s->port_off[i + 1] = s->port_off[i] + t->node[i].nports + 1;
    s->port_routes = xcalloc((size_t)s->port_off[t->nnodes] + 1, sizeof *s->port_routes);
    /* Per switch: CA ports attached (route sources). */
    long *src = xcalloc((size_t)t->nnodes + 1, sizeof *src);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        if (nd->type != TOPO_CA)
            continue;
        for (int p = 1; p <= nd->nports; p++) {
            int q = nd->port[p].peer_node;
            if (q >= 0 && t->node[q].type == TOPO_SWITCH)
                src[q]++;
        }
    }
    long *flow = xmalloc((size_t)t->nnodes * sizeof *flow + 1);
    int *depth = xmalloc((size_t)t->nnodes * sizeof *depth + 1);
    int *order = xmalloc((size_t)t->nnodes * sizeof *order + 1);
    int *bucket = xmalloc(((size_t)t->nnodes + 2) * sizeof *bucket);
    double hopsum = 0;
    for (int lid = 1; lid <= maxlid; lid++) {
        if (on[lid] < 0)
            continue;
        int dn = on[lid], dp = op[lid];
        int dsw = t->node[dn].port[dp].peer_node;
        /* depth: switches to traverse to reach the destination (the forest is loop-free, as
         * lfts_validate checked from every CA-attached switch). */
        for (int i = 0; i < t->nnodes; i++)
            depth[i] = -1;
        int maxd = 0;
        for (int i = 0; i < t->nnodes; i++) {
            if (t->node[i].type != TOPO_SWITCH || depth[i] >= 0)
                continue;
            /* Walk to a known depth, then unwind. */
            int len = 0, u = i, ok = 1;
            while (depth[u] < 0) {
                order[len++] = u;
                if (u == dsw) {
                    depth[u] = 1;
                    len--;
                    break;
                }
                int p = lft_port(l, u, lid);
                if (p == LFT_NONE || p < 1 || p > t->node[u].nports ||
                    t->node[u].port[p].peer_node < 0 ||
                    t->node[t->node[u].port[p].peer_node].type != TOPO_SWITCH || len > t->nnodes) {
                    ok = 0;
                    break;
                }
                u = t->node[u].port[p].peer_node;
            }
            int base = ok ? depth[u] : 0;
            for (int k = len - 1; k >= 0; k--) {
                if (!ok) {
                    depth[order[k]] = 0; /* unreachable: contributes nothing */
                    continue;
                }
                depth[order[k]] = ++base;
            }
            if (ok && base > maxd)
                maxd = base;
        }
        /* Bucket switches by depth, deepest first, and push flows down the forest. */
        memset(bucket, 0, ((size_t)maxd + 2) * sizeof *bucket);
        for (int i = 0; i < t->nnodes; i++)
            if (t->node[i].type == TOPO_SWITCH && depth[i] > 0)
                bucket[depth[i]]++;
        for (int dd = maxd, pos = 0; dd >= 1; dd--) {
            int c = bucket[dd];
            bucket[dd] = pos;
            pos += c;
        }
        int cnt = 0;
        for (int i = 0; i < t->nnodes; i++)
            if (t->node[i].type == TOPO_SWITCH && depth[i] > 0) {
                order[bucket[depth[i]]++] = i;
                cnt++;
            }
        for (int i = 0; i < t->nnodes; i++) {
            flow[i] = t->node[i].type == TOPO_SWITCH ? src[i] : 0;
            long own = flow[i] - (i == dsw); /* the destination does not send to itself */
            if (own > 0 && depth[i] > 0)
                s->hop_hist[depth[i] < 63 ? depth[i] : 63] += own;
        }
        flow[dsw] -= 1;
        for (int k = 0; k < cnt; k++) {
            int u = order[k];
            if (flow[u] <= 0)
                continue;
            int p = u == dsw ? dp : lft_port(l, u, lid);
            if (u == dsw)
                p = t->node[dn].port[dp].peer_port;
            s->port_routes[s->port_off[u] + p] += flow[u];
            hopsum += (double)flow[u]; /* each switch traversal counts one */
            if (u != dsw)
                flow[t->node[u].port[p].peer_node] += flow[u];
            else
                s->routes += flow[u];
        }
    }
    s->avg_hops = s->routes ? hopsum / (double)s->routes : 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 1; p <= t->node[i].nports; p++)
        {
            long r = s->port_routes[s->port_off[i] + p];
            if (r > s->max_port_routes) {
                s->max_port_routes = r;
                s->max_port_node = i;
                s->max_port = p;
            }
            int q = t->node[i].port[p].peer_node;
            if (q >= 0 && q != i && t->node[q].type == TOPO_SWITCH &&
                t->node[i].type == TOPO_SWITCH && r > s->max_isl_routes) {
                s->max_isl_routes = r;
                s->max_isl_node = i;
                s->max_isl_port = p;
            }
        }
    free(on);
    free(op);
    free(src);
    free(flow);
    free(depth);
    free(order);
    free(bucket);
    return 0;
}

void route_stats_free(struct route_stats *s)
{
    free(s->port_routes);
    free(s->port_off);
    memset(s, 0, sizeof *s);
}

/* Channel graph: channel = (switch node, output port), index port_off[node] + port. Edges are
 * kept as a sorted, deduplicated list per VL. */

int route_cmp_dep(const void *a, const void *b)
{
    const struct dep *x = a, *y = b;
    if (x->from != y->from)
        return x->from - y->from;
    return x->to - y->to;
}

int route_find_cycle(int nch, const struct dep *dep, size_t nd, int *cyc, int *cyclen)
{
    int *first = xmalloc(((size_t)nch + 1) * sizeof *first);
    for (int i = 0; i <= nch; i++)
        first[i] = 0;
    for (size_t i = 0; i < nd; i++)
        first[dep[i].from + 1]++;
    for (int i = 0; i < nch; i++)
        first[i + 1] += first[i];
    char *color = xcalloc((size_t)nch + 1, 1);
    int *stack = xmalloc(((size_t)nch + 1) * sizeof *stack), *it = xmalloc(((size_t)nch + 1) * sizeof *it);
    int found = 0;
    for (int r = 0; r < nch && !found; r++) {
        if (color[r])
            continue;
        int sp = 0;
        stack[sp] = r;
        it[sp] = first[r];
        color[r] = 1;
        sp++;
        while (sp && !found) {
            int u = stack[sp - 1];
            if (it[sp - 1] < first[u + 1]) {
                int v = dep[it[sp - 1]++].to;
                if (color[v] == 1) {
                    int k = sp - 1;
                    while (stack[k] != v)
                        k--;
                    *cyclen = 0;
                    for (int j = k; j < sp; j++)
                        cyc[(*cyclen)++] = stack[j];
                    found = 1;
                } else if (!color[v]) {
                    color[v] = 1;
                    stack[sp] = v;
                    it[sp] = first[v];
                    sp++;
                }
            } else {
                color[u] = 2;
                sp--;
            }
        }
    }
    free(first);
    free(color);
    free(stack);
    free(it);
    return found;
}

void route_lid_deps(const struct topo *t, const struct lfts *l, int lid, int dst_node,
                    int dst_port, const int *off, char *used, struct dep **dep, size_t *nd,
                    size_t *cap)
{
    /* Switches some route to lid passes: from every CA port's switch, follow the tables. */
    memset(used, 0, (size_t)t->nnodes);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd_ = &t->node[i];
        if (nd_->type != TOPO_CA)
            continue;
        for (int p = 1; p <= nd_->nports; p++) {
            int u = nd_->port[p].peer_node, steps = 0;
            if (u < 0 || (i == dst_node && p == dst_port))
                continue;
            while (u >= 0 && t->node[u].type == TOPO_SWITCH && !used[u] && steps++ <= t->nnodes) {
                used[u] = 1;
                int q = lft_port(l, u, lid);
                if (q == LFT_NONE || q < 1 || q > t->node[u].nports)
                    break;
                int v = t->node[u].port[q].peer_node;
                if (v >= 0 && t->node[v].type == TOPO_SWITCH) {
                    int q2 = lft_port(l, v, lid);
                    if (q2 != LFT_NONE && q2 >= 1 && q2 <= t->node[v].nports) {
                        if (*nd == *cap) {
                            *cap = *cap ? 2 * *cap : 1024;
                            *dep = xrealloc(*dep, *cap * sizeof **dep);
                        }
                        (*dep)[(*nd)++] = (struct dep){ off[u] + q, off[v] + q2 };
                    }
                }
                u = v;
            }
        }
    }
}

int route_deadlock_check(const struct topo *t, const struct lfts *l, const uint8_t *vl_of_dlid,
                         char *cycle, size_t len)
{
    int maxlid = l->max_lid;
    int *on = xmalloc(((size_t)maxlid + 1) * sizeof *on), *op = xmalloc(((size_t)maxlid + 1) * sizeof *op);
    ca_lids(t, maxlid, on, op);
    int *off = xmalloc(((size_t)t->nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        off[i + 1] = off[i] + t->node[i].nports + 1;
    int nch = off[t->nnodes];
    int *chnode = xmalloc((size_t)nch * sizeof *chnode + 1), *chport = xmalloc((size_t)nch * sizeof *chport + 1);
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 0; p <= t->node[i].nports; p++) {
            chnode[off[i] + p] = i;
            chport[off[i] + p] = p;
        }
    char *used = xmalloc((size_t)t->nnodes + 1);
    int found = 0;
    if (cycle && len)
        cycle[0] = 0;
    for (int vl = 0; vl < 16 && !found; vl++) {
        size_t nd = 0, cap = 0;
        struct dep *dep = NULL;
        int any = 0;
        for (int lid = 1; lid <= maxlid; lid++) {
            if (on[lid] < 0 || (vl_of_dlid ? vl_of_dlid[lid] : 0) != vl)
                continue;
            any = 1;
            route_lid_deps(t, l, lid, on[lid], op[lid], off, used, &dep, &nd, &cap);
        }
        if (any) {
            if (nd)
                qsort(dep, nd, sizeof *dep, route_cmp_dep);
            size_t w = 0;
            for (size_t i = 0; i < nd; i++)
                if (!w || dep[i].from != dep[w - 1].from || dep[i].to != dep[w - 1].to)
                    dep[w++] = dep[i];
            int *cyc = xmalloc(((size_t)nch + 1) * sizeof *cyc), clen = 0;
            if (route_find_cycle(nch, dep, w, cyc, &clen)) {
                found = 1;
                size_t k = 0;
                for (int i = 0; i <= clen && cycle && k + 1 < len; i++) {
                    int c = cyc[i % clen];
                    k += (size_t)snprintf(cycle + k, len - k, "%s%s port %d", i ? " -> " : "",
                                          t->node[chnode[c]].name, chport[c]);
                    if (k >= len)
                        k = len - 1;
                }
                if (cycle && k + 1 < len)
                    snprintf(cycle + k, len - k, " on VL %d", vl);
            }
            free(cyc);
        }
        free(dep);
    }
    free(on);
    free(op);
    free(off);
    free(chnode);
    free(chport);
    free(used);
    return found;
}

int route_deadlock_check_vlmap(const struct topo *t, const struct lfts *l, int qos, char *cycle,
                               size_t len, int *nvl_used)
{
    const struct lft_vlmap *m = l->vlmap;
    int maxlid = l->max_lid;
    int *on = xmalloc(((size_t)maxlid + 1) * sizeof *on), *op = xmalloc(((size_t)maxlid + 1) * sizeof *op);
    ca_lids(t, maxlid, on, op);
    int *off = xmalloc(((size_t)t->nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        off[i + 1] = off[i] + t->node[i].nports + 1;
    int nch = off[t->nnodes] * 16; /* channel = (switch output port, VL) */
    size_t nd = 0, cap = 0;
    struct dep *dep = NULL;
    uint16_t used = 0;
    if (cycle && len)
        cycle[0] = 0;
    /* Every CA port to every CA LID, hop by hop: the VL of each hop is the switch's SL2VL entry
     * for (input port, output port) and the path's SL. */
    for (int s = 0; s < t->nnodes; s++) {
        const struct topo_node *src = &t->node[s];
        if (src->type != TOPO_CA)
            continue;
        for (int sp = 1; sp <= src->nports; sp++) {
            if (src->port[sp].peer_node < 0)
                continue;
            for (int lid = 1; lid <= maxlid; lid++) {
                if (on[lid] < 0 || (on[lid] == s && op[lid] == sp))
                    continue;
                int sl = lft_vlmap_path_sl(m, t, s, on[lid], qos);
                if (sl < 0)
                    continue;
                int u = src->port[sp].peer_node, in = src->port[sp].peer_port, prev = -1;
                for (int steps = 0; u >= 0 && t->node[u].type == TOPO_SWITCH && m->sw[u] &&
                                    steps <= t->nnodes; steps++) {
                    int q = lft_port(l, u, lid);
                    if (q == LFT_NONE || q < 1 || q > t->node[u].nports)
                        break;
                    int vl = lft_vlmap_vl(m, t, u, in, q, sl);
                    used |= (uint16_t)(1u << vl);
                    int ch = (off[u] + q) * 16 + vl;
                    if (prev >= 0) {
                        if (nd == cap) {
                            cap = cap ? 2 * cap : 1024;
                            dep = xrealloc(dep, cap * sizeof *dep);
                        }
                        dep[nd++] = (struct dep){ prev, ch };
                    }
                    prev = ch;
                    in = t->node[u].port[q].peer_port;
                    u = t->node[u].port[q].peer_node;
                }
            }
        }
    }
    if (nd)
        qsort(dep, nd, sizeof *dep, route_cmp_dep);
    size_t w = 0;
    for (size_t i = 0; i < nd; i++)
        if (!w || dep[i].from != dep[w - 1].from || dep[i].to != dep[w - 1].to)
            dep[w++] = dep[i];
    int *cyc = xmalloc(((size_t)nch + 1) * sizeof *cyc), clen = 0;
    int found = route_find_cycle(nch, dep, w, cyc, &clen);
    if (found && cycle && len) {
        size_t k = 0;
        for (int i = 0; i <= clen && k + 1 < len; i++) {
            int c = cyc[i % clen] / 16, vl = cyc[i % clen] % 16, node = 0;
            while (off[node + 1] <= c)
                node++;
            k += (size_t)snprintf(cycle + k, len - k, "%s%s port %d VL %d", i ? " -> " : "",
                                  t->node[node].name, c - off[node], vl);
            if (k >= len)
                k = len - 1;
        }
    }
    if (nvl_used) {
        *nvl_used = 0;
        for (int v = 0; v < 16; v++)
            *nvl_used += used >> v & 1;
    }
    free(cyc);
    free(dep);
    free(on);
    free(op);
    free(off);
    return found;
}

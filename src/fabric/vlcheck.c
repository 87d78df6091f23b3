/* vlcheck.c: refuses a fabric in which a VL that carries traffic has no arbitration weight on
 * a port it leaves through (see vlcheck.h). */
#include "fabric/vlcheck.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

struct marks {
    uint16_t **vls;   /* [node][port]: VLs leaving the port */
    int8_t **sl;      /* [node][port * 16 + vl]: an SL that uses it there */
};

static void mark(struct marks *m, const struct port *p, int vl, int sl)
{
    if (vl == VL15)
        return;
    int n = p->node->index;
    m->vls[n][p->num] |= (uint16_t)(1u << vl);
    if (m->sl[n][p->num * 16 + vl] < 0)
        m->sl[n][p->num * 16 + vl] = (int8_t)sl;
}

static int sw_vl(const struct fabric *f, const struct sw *s, int in, int out, int sl)
{
    if (!s->sl2vl)
        return f->set.sl2vl[sl];
    size_t np = (size_t)s->n.nports + 1;
    return s->sl2vl[((size_t)in * np + (size_t)out) * 16 + (size_t)sl];
}

/* Every VL an SL can take on every port (a flow whose way is not one route). */
static void mark_all(const struct fabric *f, struct marks *m, int sl)
{
    for (int n = 0; n < f->nnodes; n++) {
        const struct node *nd = f->nodes[n];
        if (!nd)
            continue;
        for (int pn = 1; pn <= nd->nports; pn++) {
            const struct port *p = &nd->port[pn];
            if (!p->peer)
                continue;
            if (!nd->is_switch) {
                mark(m, p, f->set.sl2vl_ca[sl], sl);
                continue;
            }
            for (int in = 1; in <= nd->nports; in++)
                mark(m, p, sw_vl(f, node_sw((struct node *)nd), in, pn, sl), sl);
        }
    }
}

/* The route from adapter port `src` to `lid`: the source port, then each switch's output. */
static void mark_route(const struct fabric *f, struct marks *m, const struct port *src, uint16_t lid,
                       int sl)
{
    mark(m, src, f->set.sl2vl_ca[sl], sl);
    const struct port *at = src->peer;
    for (int hops = 0; at && at->node->is_switch && hops < 256; hops++) {
        const struct sw *s = node_sw(at->node);
        int out = lid <= s->max_lid ? s->lft[lid] : 255;
        if (out < 1 || out > s->n.nports || !s->n.port[out].peer)
            return; /* unroutable: the data path drops and counts it */
        mark(m, &s->n.port[out], sw_vl(f, s, at->num, out, sl), sl);
        at = s->n.port[out].peer;
    }
}

static void mark_flows(const struct fabric *f, struct marks *m)
{
    int ack_sl = f->set.transport && f->set.ack_sl >= 0 ? (int)f->set.ack_sl : -1;
    uint32_t all_done = 0; /* SLs already marked everywhere: once per SL, not per flow */
    for (uint32_t i = 0; i < f->nflows; i++) {
        const struct flow *fl = &f->flows[i];
        if (fl->pattern || fl->dst_host < 0 || fl->path != PATH_BASE) {
            int sls[2] = { fl->sl, f->set.transport ? (ack_sl >= 0 ? ack_sl : fl->sl) : -1 };
            for (int k = 0; k < 2; k++)
                if (sls[k] >= 0 && !(all_done >> sls[k] & 1)) {
                    mark_all(f, m, sls[k]);
                    all_done |= 1u << sls[k];
                }
            continue;
        }
        const struct host *d = &f->hosts[fl->dst_host];
        mark_route(f, m, fl->src, d->port->lid, fl->sl);
        if (f->set.transport)
            mark_route(f, m, d->port, fl->src->lid, ack_sl >= 0 ? ack_sl : fl->sl);
    }
}

static uint16_t weighted(const struct vlarb_table *t)
{
    uint16_t w = 0;
    for (int i = 0; i < t->nhigh; i++)
        if (t->high[i].weight)
            w |= (uint16_t)(1u << t->high[i].vl);
    for (int i = 0; i < t->nlow; i++)
        if (t->low[i].weight)
            w |= (uint16_t)(1u << t->low[i].vl);
    return w;
}

int vlcheck_fabric(const struct fabric *f, struct ibn_err *e)
{
    if (!f->nflows)
        return 0;
    struct marks m;
    m.vls = xcalloc((size_t)f->nnodes, sizeof *m.vls);
    m.sl = xcalloc((size_t)f->nnodes, sizeof *m.sl);
    for (int n = 0; n < f->nnodes; n++) {
        if (!f->nodes[n])
            continue;
        size_t np = (size_t)f->nodes[n]->nports + 1;
        m.vls[n] = xcalloc(np, sizeof **m.vls);
        m.sl[n] = xmalloc(np * 16);
        for (size_t k = 0; k < np * 16; k++)
            m.sl[n][k] = -1;
    }
    mark_flows(f, &m);
    int rc = 0;
    for (int n = 0; n < f->nnodes && !rc; n++) {
        const struct node *nd = f->nodes[n];
        if (!nd)
            continue;
        for (int pn = 1; pn <= nd->nports && !rc; pn++) {
            const struct port *p = &nd->port[pn];
            if (!p->peer || !p->vlarb)
                continue;
            uint16_t miss = (uint16_t)(m.vls[n][pn] & ~weighted(p->vlarb));
            if (!miss)
                continue;
            int vl = __builtin_ctz(miss);
            rc = ibn_err_set(e, "VL %d carries traffic (SL %d maps to it) out of %s %s port %d, but "
                             "that port's VL arbitration tables give it no weight, so its packets "
                             "could never be sent: give VL %d an entry in qos.vlarb_high or "
                             "qos.vlarb_low%s (fabric.vls = %lld)", vl, m.sl[n][pn * 16 + vl],
                             nd->is_switch ? "switch" : "adapter", nd->name, pn, vl,
                             nd->is_switch ? "" : " (or qos.ca_vlarb_*)", f->set.nvls);
        }
    }
    for (int n = 0; n < f->nnodes; n++) {
        free(m.vls[n]);
        free(m.sl[n]);
    }
    free(m.vls);
    free(m.sl);
    return rc;
}

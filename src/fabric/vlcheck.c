/* vlcheck.c: refuses a fabric in which a VL that carries traffic has no arbitration weight on
 * a port it leaves through (see vlcheck.h). */
#include "fabric/vlcheck.h"

#include <stdio.h>

/* SLs the traffic uses (bit sl): the flows' and, under RC, the ACKs'. */
static uint16_t used_sls(const struct fabric *f)
{
    uint16_t m = 0;
    for (uint32_t i = 0; i < f->nflows; i++)
        m |= (uint16_t)(1u << (f->flows[i].sl & 15));
    if (f->set.ack_sl >= 0 && f->set.transport)
        m |= (uint16_t)(1u << (f->set.ack_sl & 15));
    return m;
}

static uint16_t vls_of(const struct fabric *f, const struct port *p, uint16_t sls, int *sl_of)
{
    uint16_t vls = 0;
    for (int sl = 0; sl < 16; sl++) {
        if (!(sls >> sl & 1))
            continue;
        if (!p->is_switch || !node_sw(p->node)->sl2vl) {
            int vl = f->set.sl2vl[sl];
            vls |= (uint16_t)(1u << vl);
            if (sl_of && sl_of[vl] < 0)
                sl_of[vl] = sl;
            continue;
        }
        const struct sw *s = node_sw(p->node);
        int np = s->n.nports + 1;
        for (int in = 1; in < np; in++) {
            int vl = s->sl2vl[((size_t)in * (size_t)np + p->num) * 16 + (size_t)sl];
            vls |= (uint16_t)(1u << vl);
            if (sl_of && sl_of[vl] < 0)
                sl_of[vl] = sl;
        }
    }
    return vls;
}

uint16_t vlcheck_port_vls(const struct fabric *f, const struct port *p)
{
    return vls_of(f, p, used_sls(f), NULL);
}

static uint16_t weighted(const struct vlarb_table *t)
{
    uint16_t m = 0;
    for (int i = 0; i < t->nhigh; i++)
        if (t->high[i].weight)
            m |= (uint16_t)(1u << t->high[i].vl);
    for (int i = 0; i < t->nlow; i++)
        if (t->low[i].weight)
            m |= (uint16_t)(1u << t->low[i].vl);
    return m;
}

int vlcheck_fabric(const struct fabric *f, struct ibn_err *e)
{
    uint16_t sls = used_sls(f);
    if (!sls)
        return 0;
    for (int n = 0; n < f->nnodes; n++) {
        const struct node *nd = f->nodes[n];
        if (!nd)
            continue;
        for (int pn = 1; pn <= nd->nports; pn++) {
            const struct port *p = &nd->port[pn];
            if (!p->peer || !p->vlarb)
                continue;
            int sl_of[16];
            for (int v = 0; v < 16; v++)
                sl_of[v] = -1;
            uint16_t need = (uint16_t)(vls_of(f, p, sls, sl_of) & 0x7fff); /* VL15: no table */
            uint16_t miss = (uint16_t)(need & ~weighted(p->vlarb));
            if (!miss)
                continue;
            int vl = __builtin_ctz(miss);
            return ibn_err_set(e, "VL %d carries traffic (SL %d maps to it) but the VL arbitration "
                               "tables of %s %s port %d give it no weight, so its packets could "
                               "never be sent: give VL %d an entry in qos.vlarb_high or "
                               "qos.vlarb_low%s (fabric.vls = %lld)", vl, sl_of[vl],
                               nd->is_switch ? "switch" : "adapter", nd->name, pn, vl,
                               nd->is_switch ? "" : " (or qos.ca_vlarb_*)", f->set.nvls);
        }
    }
    return 0;
}

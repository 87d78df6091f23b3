/* qport.c: one output port's reservations and its high-priority table (see qport.h). */
#include "qos/qport.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qos/arbtab.h"
#include "qos/cenre.h"
#include "qos/cesy.h"

const char *const qport_verdict_name[QP_NVERDICT] = {
    "accepted", "above-link", "bandwidth", "distance", "table-entries", "fragmentation",
};

void qport_init(struct qport *p) { memset(p, 0, sizeof *p); }

/* Weight units, with a tolerance so that B = exactly one entry's capacity stays 255. */
static double units(double bw, double c) { return arbtab_weight_units(bw, c) - 1e-9; }

static void set_weights(struct qport *p, const struct qport_cfg *c, int vl)
{
    struct qport_vl *v = &p->vl[vl];
    if (!v->entries) {
        v->weight = 0;
        return;
    }
    double w = ceil(units(v->bw, c->rate_bps) / v->entries);
    v->weight = (uint8_t)(w < 1 ? 1 : w > 255 ? 255 : w);
}

static void drop_seq(struct qport *p, int i)
{
    struct qport_vl *v = &p->vl[p->seq_vl[i]];
    v->nseq--;
    v->entries -= (uint8_t)arbtab_count(p->seq_mask[i]);
    p->taken &= ~p->seq_mask[i];
    memmove(&p->seq_vl[i], &p->seq_vl[i + 1], (size_t)(p->nseq - i - 1));
    memmove(&p->seq_mask[i], &p->seq_mask[i + 1], (size_t)(p->nseq - i - 1) * sizeof p->seq_mask[0]);
    p->nseq--;
}

/* Re-place every live sequence from an empty table, largest first; on failure nothing
 * changes. */
static int repack(struct qport *p, const struct qport_cfg *c)
{
    int d[64];
    uint64_t m[64];
    for (int i = 0; i < p->nseq; i++)
        d[i] = p->vl[p->seq_vl[i]].dist;
    if (c->method == QOS_CESY) {
        if (cesy_repack(d, p->nseq, m))
            return -1;
    } else {
        uint64_t t = 0;
        int order[64], n = 0;
        for (int dist = 2; dist <= 64; dist++)
            for (int i = 0; i < p->nseq; i++)
                if (d[i] == dist)
                    order[n++] = i;
        for (int k = 0; k < n; k++)
            if (cenre_place(t, d[order[k]], &m[order[k]]) < 0)
                return -1;
            else
                t |= m[order[k]];
    }
    p->taken = 0;
    for (int i = 0; i < p->nseq; i++) {
        struct qport_vl *v = &p->vl[p->seq_vl[i]];
        v->entries = (uint8_t)(v->entries - arbtab_count(p->seq_mask[i]) + arbtab_count(m[i]));
        p->seq_mask[i] = m[i];
        p->taken |= m[i];
    }
    p->repacks++;
    return 0;
}

static uint64_t find_seq(struct qport *p, const struct qport_cfg *c, int d, enum qport_verdict *why)
{
    uint64_t m;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (fill_one(c->method, p->taken, d, c->allowed, &m) >= 0)
            return m;
        int need = c->method == QOS_CESY ? cesy_entries(d) : arbtab_entries_for(d);
        if (need > ARBTAB_N - arbtab_count(p->taken)) {
            *why = QP_REJ_TABLE;
            return 0;
        }
        *why = QP_REJ_FRAG;
        if (attempt || !c->repack || repack(p, c))
            return 0;
    }
    return 0;
}

enum qport_verdict qport_admit(struct qport *p, const struct qport_cfg *c, int vl, int d, double bw)
{
    if (bw > c->rate_bps)
        return QP_REJ_LINK;
    if (p->reserved + bw > c->cap * c->rate_bps * (1 + 1e-12))
        return QP_REJ_BW;
    if (c->method == QOS_CESY)
        d = cesy_round(d, c->allowed);
    if (d < 2 || d > 64)
        return QP_REJ_DISTANCE;
    struct qport_vl *v = &p->vl[vl];
    if (v->dist && v->dist > d)
        return QP_REJ_DISTANCE;
    int dist = v->dist ? v->dist : d;
    /* Sequences to add so that the entries' capacity covers the new total. */
    double need_units = units(v->bw + bw, c->rate_bps);
    int entries = v->entries, nseq0 = p->nseq;
    enum qport_verdict why = QP_OK;
    uint8_t dist0 = v->dist;
    v->dist = (uint8_t)dist;
    while (entries == 0 || need_units > (double)entries * ARBTAB_WMAX) {
        uint64_t m = find_seq(p, c, dist, &why);
        if (!m)
            break;
        p->seq_vl[p->nseq] = (uint8_t)vl;
        p->seq_mask[p->nseq++] = m;
        p->taken |= m;
        v->nseq++;
        entries += arbtab_count(m);
        v->entries = (uint8_t)entries;
        why = QP_OK;
    }
    if (why != QP_OK) { /* roll back the sequences added for this request */
        while (p->nseq > nseq0)
            drop_seq(p, p->nseq - 1);
        v->dist = dist0;
        return why;
    }
    v->bw += bw;
    p->reserved += bw;
    p->conns++;
    set_weights(p, c, vl);
    return QP_OK;
}

void qport_release(struct qport *p, const struct qport_cfg *c, int vl, double bw)
{
    struct qport_vl *v = &p->vl[vl];
    v->bw -= bw;
    p->reserved -= bw;
    if (p->conns)
        p->conns--;
    if (p->reserved < 1e-6)
        p->reserved = 0;
    if (v->bw < 1e-6) {
        v->bw = 0;
        for (int i = p->nseq - 1; i >= 0; i--)
            if (p->seq_vl[i] == vl)
                drop_seq(p, i);
        v->dist = 0;
    } else {
        double need = units(v->bw, c->rate_bps);
        for (int i = p->nseq - 1; i >= 0 && v->nseq > 1; i--) {
            if (p->seq_vl[i] != vl)
                continue;
            if (need > (double)(v->entries - arbtab_count(p->seq_mask[i])) * ARBTAB_WMAX)
                break;
            drop_seq(p, i);
        }
    }
    set_weights(p, c, vl);
}

void qport_high_table(const struct qport *p, struct vlarb_entry e[64])
{
    memset(e, 0, 64 * sizeof e[0]);
    for (int i = 0; i < p->nseq; i++) {
        int vl = p->seq_vl[i];
        for (uint64_t m = p->seq_mask[i]; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            e[k].vl = (uint8_t)vl;
            e[k].weight = p->vl[vl].weight;
        }
    }
}

void qport_high_string(const struct qport *p, char *buf, int len)
{
    struct vlarb_entry e[64];
    qport_high_table(p, e);
    int o = 0;
    buf[0] = 0;
    for (int k = 0; k < 64 && o < len; k++)
        o += snprintf(buf + o, (size_t)(len - o), "%s%d:%d", k ? "," : "", e[k].vl, e[k].weight);
}

int qport_check(const struct qport *p, const struct qport_cfg *c, char *why, int whylen)
{
    uint64_t all = 0;
    int entries[16] = { 0 }, nseq[16] = { 0 };
    uint64_t vlmask[16] = { 0 };
    for (int i = 0; i < p->nseq; i++) {
        if (all & p->seq_mask[i])
            return snprintf(why, (size_t)whylen, "sequence %d overlaps another", i), -1;
        all |= p->seq_mask[i];
        entries[p->seq_vl[i]] += arbtab_count(p->seq_mask[i]);
        nseq[p->seq_vl[i]]++;
        vlmask[p->seq_vl[i]] |= p->seq_mask[i];
    }
    if (all != p->taken)
        return snprintf(why, (size_t)whylen, "taken entries differ from the sequences"), -1;
    double total = 0;
    for (int v = 0; v < 16; v++) {
        const struct qport_vl *x = &p->vl[v];
        total += x->bw;
        if (entries[v] != x->entries || nseq[v] != x->nseq)
            return snprintf(why, (size_t)whylen, "VL %d: entries %d/%d", v, entries[v], x->entries), -1;
        if (x->bw > 0) {
            if (x->weight * (double)x->entries < arbtab_weight_units(x->bw, c->rate_bps) - 1e-6)
                return snprintf(why, (size_t)whylen, "VL %d: weights below its bandwidth", v), -1;
            if (arbtab_max_gap(vlmask[v]) > x->dist)
                return snprintf(why, (size_t)whylen, "VL %d: gap %d above distance %d", v,
                                arbtab_max_gap(vlmask[v]), x->dist), -1;
        } else if (x->entries)
            return snprintf(why, (size_t)whylen, "VL %d: entries without bandwidth", v), -1;
    }
    if (fabs(total - p->reserved) > 1e-3 || p->reserved > c->cap * c->rate_bps * (1 + 1e-9))
        return snprintf(why, (size_t)whylen, "reserved %.0f differs or exceeds the cap", p->reserved), -1;
    return 0;
}

/* period.c: snapshots of every port's counters at the start and end of the measured period
 * (period.h), the one time base of the counters and utilisations a run reports. */
#include "fabric/period.h"

#include <stdlib.h>

#include "core/error.h"

double port_counts_at(const struct fabric *f, const struct port *p, simtime_t t, struct port_counts *c)
{
    double sent = 0;
    for (int s = 0; s < f->nvs; s++) {
        const struct port_vl_counters *k = &p->vl[s].ctr;
        c[s].xmit_bytes = k->xmit_bytes;
        c[s].rcv_bytes = k->rcv_bytes;
        c[s].xmit_pkts = k->xmit_pkts;
        c[s].rcv_pkts = k->rcv_pkts;
        c[s].wait = k->xmit_wait + (k->wait_since >= 0 && t > k->wait_since ? t - k->wait_since : 0);
        sent += (double)k->xmit_bytes;
    }
    /* The packet on the wire at t counts for the part sent: it occupies the link from tx_start
     * to busy_until. */
    if (p->tx_busy && p->busy_until > t && p->busy_until > p->tx_start)
        sent -= (double)p->tx_wire * (double)(p->busy_until - (t > p->tx_start ? t : p->tx_start)) /
                (double)(p->busy_until - p->tx_start);
    return sent;
}

void period_init(struct fabric *f)
{
    if (f->period)
        return;
    struct period *pd = xcalloc(1, sizeof *pd);
    pd->base = xcalloc((size_t)f->nnodes + 1, sizeof *pd->base);
    for (int i = 0; i < f->nnodes; i++) {
        pd->base[i] = pd->nports;
        pd->nports += f->nodes[i]->nports;
    }
    for (int k = 0; k < 2; k++) {
        pd->snap[k] = xcalloc((size_t)pd->nports * (size_t)f->nvs + 1, sizeof *pd->snap[k]);
        pd->sent[k] = xcalloc((size_t)pd->nports + 1, sizeof *pd->sent[k]);
    }
    f->period = pd;
    f->period_next = f->warmup;
}

static void take(struct fabric *f, simtime_t t)
{
    struct period *pd = f->period;
    int k = pd->taken++;
    pd->at[k] = t;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            int ix = pd->base[i] + p - 1;
            pd->sent[k][ix] = port_counts_at(f, &n->port[p], t, &pd->snap[k][(size_t)ix * (size_t)f->nvs]);
        }
    }
    f->period_next = pd->taken == 1 ? (f->end > f->warmup ? f->end : f->warmup) : SIMTIME_NEVER;
}

void period_reach(struct fabric *f, simtime_t t)
{
    while (f->period && f->period->taken < 2 && f->period_next <= t)
        take(f, f->period_next);
}

void period_finish(struct fabric *f, simtime_t stop)
{
    while (f->period && f->period->taken < 2)
        take(f, f->period_next < stop ? f->period_next : stop);
}

void period_free(struct fabric *f)
{
    if (!f->period)
        return;
    for (int k = 0; k < 2; k++) {
        free(f->period->snap[k]);
        free(f->period->sent[k]);
    }
    free(f->period->base);
    free(f->period);
    f->period = NULL;
}

const struct port_counts *period_snap(const struct fabric *f, int which, int node, int port,
                                      double *sent)
{
    const struct period *pd = f->period;
    int ix = pd->base[node] + port - 1;
    if (sent)
        *sent = pd->sent[which][ix];
    return &pd->snap[which][(size_t)ix * (size_t)f->nvs];
}

/* replay.c: the replays of a window's exchange (dist_int.h, docs/distributed.md section 3):
 * the receive side's peak buffer use and the sender's credit ring with its wake-ups, as the
 * sequential run would have them; and the bound on a credit return's delay that, with the
 * packets' (cable delay + the far switch's latency), sets how wide a window may be. */
#include "dist/dist_int.h"

#include "fabric/swarch.h"

#include <stdlib.h>

int dist_low_head(const struct dist *d, const struct port *p)
{
    return p->cret_n && p->cret[p->cret_head].t < d->wend;
}

/* The receive side's peak buffer use, as if the packets' arrivals had been counted when they
 * started (sequentially: port_transmit): this window's increments and frees in key order. */
void dist_replay_rx(struct dist *d, struct cport *c, const struct dmsg *in)
{
    struct port *p = c->p;
    int32_t r = c->stamp_rx == d->window ? c->rx0 : p->rx_total, peak = p->rx_peak, add = 0;
    uint32_t i = 0, j = 0, nfr = c->stamp_rx == d->window ? c->nfr : 0;
    uint32_t nin = c->stamp_in == d->window ? c->nin : 0;
    while (i < nin || j < nfr) {
        const struct dmsg *m = i < nin ? &in[c->in[i]] : NULL;
        if (m && m->kind != 1) {
            i++;
            continue;
        }
        if (m && (j == nfr || dist_key_lt(m->kt, m->kseq, c->fr[j].t, c->fr[j].seq))) {
            r += m->credits;
            add += m->credits;
            if (r > peak)
                peak = r;
            i++;
        } else {
            r -= c->fr[j++].credits;
        }
    }
    p->rx_total += add;
    p->rx_peak = peak;
    if (r != p->rx_total)
        ibn_panic("distributed run: %s port %u: receive-buffer replay ends at %d, not %d",
                  p->node->name, p->num, r, p->rx_total);
}

/* The sender's credit ring as the sequential run would hold it at the window's end, with the
 * wake-ups it would have scheduled (port_return_credits and port_watch_credits), from the
 * returns that came in and this window's log of the sender's watch changes. */
void dist_replay_credits(struct fabric *f, struct dist *d, struct cport *c, const struct dmsg *in)
{
    struct port *p = c->p;
    int txt = c->stamp_tx == d->window;
    uint32_t nlog = txt ? c->nlog : 0, nin = c->stamp_in == d->window ? c->nin : 0;
    uint32_t nnew = 0;
    for (uint32_t i = 0; i < nin; i++)
        nnew += in[c->in[i]].kind == 2;
    int anycall = 0;
    for (uint32_t i = 0; i < nlog; i++)
        anycall |= c->log[i].kind == LOG_CALL && c->log[i].cl && c->log[i].work;
    if (!nnew && !anycall)
        return;
    uint32_t n = p->cret_n, cap = n + nnew;
    if (cap + 1 > d->capscr) { /* scratch kept across windows: no allocation per window */
        d->capscr = 2 * (cap + 1);
        d->scr = xrealloc(d->scr, d->capscr * sizeof *d->scr);
        d->scw = xrealloc(d->scw, d->capscr);
    }
    struct credit_return *ring = d->scr;
    uint8_t *was = d->scw;
    for (uint32_t k = 0; k < n; k++) {
        ring[k] = p->cret[(p->cret_head + k) & (p->cret_cap - 1)];
        was[k] = ring[k].woken;
    }
    int w = txt ? c->w0 : p->credit_watch;
    int low0 = txt ? c->low0 : dist_low_head(d, p);
    /* Insertions at keys after (ct, cseq) see no return landing inside the window. */
    uint32_t i = 0, j = 0;
    while (i < nlog || j < nin) {
        const struct dmsg *m = j < nin ? &in[c->in[j]] : NULL;
        if (m && m->kind != 2) {
            j++;
            continue;
        }
        const struct logitem *li = i < nlog ? &c->log[i] : NULL;
        if (li && (!m || dist_key_lt(li->t, li->seq, m->kt, m->kseq))) {
            if (li->kind == LOG_CLEAR) {
                w = 0;
            } else {
                w = li->work;
                if (li->work && li->cl && n && !ring[0].woken)
                    ring[0].woken = 1;
            }
            i++;
            continue;
        }
        struct credit_return r = { m->t, m->seq, m->credits, m->slot, 0 };
        uint32_t pos = n;
        while (pos > 0 && dist_key_lt(r.t, r.seq, ring[pos - 1].t, ring[pos - 1].seq)) {
            ring[pos] = ring[pos - 1];
            was[pos] = was[pos - 1];
            pos--;
        }
        int clear = !low0 || (c->cleared && dist_key_lt(c->ct, c->cseq, m->kt, m->kseq));
        r.woken = (uint8_t)(pos == 0 && w && clear);
        ring[pos] = r;
        was[pos] = 0;
        n++;
        j++;
    }
    /* Back into the port's ring, unwrapped. */
    uint32_t rc = p->cret_cap;
    while (rc < n)
        rc *= 2;
    if (rc != p->cret_cap) {
        if (p->cret != p->cret_inline)
            free(p->cret);
        p->cret = xmalloc(rc * sizeof *p->cret);
        p->cret_cap = rc;
    }
    for (uint32_t k = 0; k < n; k++) {
        p->cret[k] = ring[k];
        if (ring[k].woken && !was[k])
            eventq_push_seq_on(&f->q, (uint32_t)p->node->index, ring[k].t, ring[k].seq, EV_CREDIT,
                               p, 0, 0);
    }
    p->cret_head = 0;
    p->cret_n = n;
    p->cret_next = n ? ring[0].t : SIMTIME_NEVER;
}


/* Whether switch s routes every host's LIDs (else a packet may arrive there unroutable and be
 * dropped, its space freed at once: switch_arrive). */
static int routes_every_host(const struct fabric *f, const struct sw *s)
{
    if (!s->lft)
        return 0;
    for (int lid = 1; lid <= f->max_lid; lid++) {
        if (f->host_of_lid[lid] < 0)
            continue;
        int out = lid <= s->max_lid ? s->lft[lid] : 255;
        if (out == 255 || out < 1 || out > s->n.nports || !s->n.port[out].peer)
            return 0;
    }
    return 1;
}

/* What dist_credit_width needs of c's peer: its switch's fastest port and speedup, or that it may
 * free space at once. unrouted[] caches routes_every_host per node. */
void dist_set_peer(const struct fabric *f, struct cport *c, uint8_t *unrouted)
{
    struct node *pn = c->p->peer->node;
    c->min_wire = UINT32_MAX;
    if (!pn->is_switch || f->drop) {
        c->free_now = 1;
        return;
    }
    const struct sw *s = node_sw(pn);
    if (!unrouted[pn->index])
        unrouted[pn->index] = routes_every_host(f, s) ? 1 : 2;
    c->free_now = unrouted[pn->index] == 2;
    c->peer_speedup = s->speedup;
    c->peer_fast.as_per_byte = UINT64_MAX;
    for (int q = 1; q <= pn->nports; q++)
        if (pn->port[q].peer && pn->port[q].rate.as_per_byte < c->peer_fast.as_per_byte)
            c->peer_fast = pn->port[q].rate;
}

/* The least delay of a credit return from c's peer port for a packet c sends it (of at least
 * c->min_wire bytes), after the event that frees its space: the cable's delay, the credit
 * delay, and the least time the peer's switch takes to free the space. That switch frees an
 * input's space when the packet's crossbar read ends (switch.c send_packet, arch_pipe.c
 * xbar_run): at least its transmission time on the switch's fastest port, divided by the
 * speedup as the switch rounds it; at once only when it drops the packet (lifetime limits:
 * `free_now`, as for a missing route or an adapter, whose sink frees at once). Packets sent
 * later in a window arrive after it ends, so the bound known at a window's start holds for
 * every return inside it (docs/distributed.md, "Windows"). */
simtime_t dist_credit_width(const struct fabric *f, const struct cport *c)
{
    simtime_t w = c->p->peer->delay + f->set.credit_delay;
    if (c->free_now)
        return w;
    simtime_t tx = byterate_time(c->peer_fast, c->min_wire);
    return w + (c->peer_speedup == 1.0 ? tx : (simtime_t)((double)tx / c->peer_speedup + 0.999));
}


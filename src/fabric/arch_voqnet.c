/* arch_voqnet.c: VOQnet (seed 002 Papers V and VI), the upper bound of congested-flow isolation:
 * at every switch input one queue per destination end node (and output VL), each with its own
 * share of the input memory, switch.voqnet_queue bytes, so that no packet ever waits behind a
 * packet for another destination: neither low-order (at the root switch) nor high-order (along
 * the branches of a congestion tree) head-of-line blocking. The papers give each destination its
 * own VL and credits; here the per-destination flow control is a Stop/Go message to the switch
 * upstream (sw_send_upstream, one link delay): a queue that reaches its quota minus what can
 * still arrive in a round trip stops that destination at the upstream output, and lets it go
 * again once a packet has left. The input's VL buffer (switch.buffer) must hold every queue:
 * destinations x voqnet_queue, the memory cost analytic/memcost gives; a smaller buffer is
 * refused at build time with the numbers. An input offers, for each (output, VL), the head of
 * one of its destination queues routed there that is not stopped, round robin over the
 * destinations. Adapters are not told to stop (they have one queue per VL, as in every
 * architecture here): a host's own packets may exceed the quota at its first switch, bounded by
 * the VL credits. Deterministic routing with one LID per host is required (a destination must
 * have one output at each switch). */
#include "fabric/swarch.h"

#include <stdlib.h>

#include "analytic/memcost.h"

enum { VOQNET_STOP = 1, VOQNET_GO = 2 };

struct voqnet {
    int nd;                  /* destinations: the hosts */
    int32_t *pos;            /* [(in * np + out) * nvs + slot]: index into outs[out] of the
                              * destination offered, -1 if none */
    int *list;               /* destinations per output, concatenated */
    int *first;              /* [out]: start of its destinations in list; first[np] = nd */
    int *at;                 /* [d]: its index in list */
    uint8_t *stopped;        /* [d]: the switch downstream of d's output said stop */
    uint8_t *sent_stop;      /* [in * nd + d]: this input told its upstream to stop d */
    uint32_t *bytes;         /* [in * nd + d]: bytes queued for d at input in */
    uint32_t *stop_at;       /* [in]: bytes at which input in stops a destination upstream */
    uint32_t *go_at;         /* [in]: ... and lets it go again */
    uint64_t stops, gos;     /* messages sent */
};

static inline struct voqnet *st(struct sw *s)
{
    return s->arch_state;
}

static inline struct pktq *dq(struct sw *s, const struct fabric *f, int in, int d, int slot)
{
    return &s->q[((size_t)in * (size_t)st(s)->nd + (size_t)d) * (size_t)f->nvs + (size_t)slot];
}

static inline int32_t *posp(struct sw *s, const struct fabric *f, int in, int out, int slot)
{
    size_t np = (size_t)s->n.nports + 1;
    return &st(s)->pos[((size_t)in * np + (size_t)out) * (size_t)f->nvs + (size_t)slot];
}

static int voqnet_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    int np = s->n.nports + 1, nd = f->nhosts;
    if (f->max_lmc > 0)
        return ibn_err_set(e, "VOQnet keeps one queue per destination host and needs one route per "
                              "host: LMC %d gives several", f->max_lmc);
    if (s->adapt)
        return ibn_err_set(e, "VOQnet needs deterministic routing (switch.adaptive = none)");
    /* The memory: a queue of voqnet_queue bytes per destination in every input's VL buffer. */
    struct memcost_in mi = { .arch = "voqnet", .nodes = nd < 2 ? 2 : nd, .ports = np - 1 < 2 ? 2 : np - 1,
                             .voqnet_queue = f->set.voqnet_queue };
    struct memcost mc;
    if (memcost_compute(&mi, &mc, e))
        return -1;
    if (f->set.switch_buffer < mc.data_bytes)
        return ibn_err_set(e, "VOQnet needs %d destination queues of switch.voqnet_queue = %llu B "
                              "per input port and VL: %llu B, but switch.buffer is %llu B (raise it "
                              "to %llu B or lower voqnet_queue to %llu B)",
                           nd, (unsigned long long)f->set.voqnet_queue, (unsigned long long)mc.data_bytes,
                           (unsigned long long)f->set.switch_buffer, (unsigned long long)mc.data_bytes,
                           (unsigned long long)(f->set.switch_buffer / (uint64_t)nd));
    struct voqnet *v = xcalloc(1, sizeof *v);
    s->arch_state = v;
    v->nd = nd;
    s->nq = (size_t)np * (size_t)nd * (size_t)f->nvs;
    s->q = xmalloc((s->nq + 1) * sizeof *s->q);
    for (size_t k = 0; k < s->nq; k++)
        pktq_init(&s->q[k]);
    size_t npos = (size_t)np * (size_t)np * (size_t)f->nvs;
    v->pos = xmalloc(npos * sizeof *v->pos);
    for (size_t k = 0; k < npos; k++)
        v->pos[k] = -1;
    /* Destinations by output port (a host this switch cannot reach goes nowhere). */
    v->first = xcalloc((size_t)np + 1, sizeof *v->first);
    v->list = xcalloc((size_t)nd + 1, sizeof *v->list);
    v->at = xcalloc((size_t)nd + 1, sizeof *v->at);
    int *outof = xcalloc((size_t)nd + 1, sizeof *outof);
    for (int d = 0; d < nd; d++) {
        int lid = f->hosts[d].port->lid;
        int o = lid <= s->max_lid ? s->lft[lid] : 255;
        outof[d] = o >= 1 && o < np ? o : 0;
        v->first[outof[d] + 1]++;
    }
    for (int o = 0; o < np; o++)
        v->first[o + 1] += v->first[o];
    int *fill = xcalloc((size_t)np + 1, sizeof *fill);
    for (int d = 0; d < nd; d++) {
        int o = outof[d];
        v->at[d] = v->first[o] + fill[o]++;
        v->list[v->at[d]] = d;
    }
    free(fill);
    free(outof);
    v->stopped = xcalloc((size_t)nd + 1, 1);
    v->sent_stop = xcalloc((size_t)np * (size_t)nd + 1, 1);
    v->bytes = xcalloc((size_t)np * (size_t)nd + 1, sizeof *v->bytes);
    v->stop_at = xcalloc((size_t)np, sizeof *v->stop_at);
    v->go_at = xcalloc((size_t)np, sizeof *v->go_at);
    /* What may still arrive after a Stop is sent: the data on the cable and in this switch's
     * latency over a round trip, plus a packet the upstream has begun. */
    uint32_t mtu = pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh);
    for (int in = 1; in < np; in++) {
        const struct port *ip = &s->n.port[in];
        double rtt_s = simtime_to_s(2 * ip->delay + s->latency);
        uint64_t head = (uint64_t)(byterate_bps(ip->rate) / 8.0 * rtt_s + 0.999) + 2u * mtu;
        uint64_t q = f->set.voqnet_queue;
        v->stop_at[in] = q > head + mtu ? (uint32_t)(q - head) : mtu;
        v->go_at[in] = v->stop_at[in] - mtu;
    }
    return 0;
}

static void voqnet_free(struct sw *s)
{
    struct voqnet *v = st(s);
    free(s->q);
    if (!v)
        return;
    free(v->pos);
    free(v->list);
    free(v->first);
    free(v->at);
    free(v->stopped);
    free(v->sent_stop);
    free(v->bytes);
    free(v->stop_at);
    free(v->go_at);
    free(v);
}

/* The next destination after list index `after` (cyclically, ending with itself) of output out
 * whose queue at (in, slot) holds a packet and is not stopped; -1 if none. */
static int32_t next_dest(struct sw *s, const struct fabric *f, int in, int out, int slot, int32_t after)
{
    struct voqnet *v = st(s);
    int a = v->first[out], b = v->first[out + 1], n = b - a;
    if (!n)
        return -1;
    int start = after < 0 ? 0 : after - a + 1;
    for (int k = 0; k < n; k++) {
        int i = a + (start + k) % n, d = v->list[i];
        if (dq(s, f, in, d, slot)->n && !v->stopped[d])
            return i;
    }
    return -1;
}

static void tell_upstream(struct fabric *f, struct sw *s, int in, int d, int type)
{
    struct sw_msg m = { .type = (uint8_t)type, .ndst = 1 };
    m.dst[0] = f->hosts[d].port->lid;
    sw_send_upstream(f, &s->n.port[in], &m);
    if (type == VOQNET_STOP)
        st(s)->stops++;
    else
        st(s)->gos++;
}

static int dest_of(const struct fabric *f, const struct packet *p)
{
    int d = p->dst_lid <= f->max_lid ? f->host_of_lid[p->dst_lid] : -1;
    if (d < 0)
        ibn_panic("VOQnet: a packet for LID %d, which is no host's", p->dst_lid);
    return d;
}

static int voqnet_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx)
{
    struct voqnet *v = st(s);
    const struct packet *p = pkt(&f->pool, pidx);
    int d = dest_of(f, p), out = p->out_port, slot = fabric_slot(f, p->out_vl);
    pktq_push(dq(s, f, in, d, slot), &f->pool, pidx);
    int32_t *pp = posp(s, f, in, out, slot);
    if (*pp < 0 && !v->stopped[d]) {
        *pp = v->at[d];
        sw_req_set(s, f, out, slot, in);
    }
    size_t k = (size_t)in * (size_t)v->nd + (size_t)d;
    v->bytes[k] += p->wire_bytes;
    if (!v->sent_stop[k] && v->bytes[k] >= v->stop_at[in] && s->n.port[in].peer &&
        s->n.port[in].peer->is_switch) {
        v->sent_stop[k] = 1;
        tell_upstream(f, s, in, d, VOQNET_STOP);
    }
    return SW_QUEUED;
}

static uint32_t voqnet_head(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    int32_t i = *posp(s, f, in, out, slot);
    return i < 0 ? PKT_NIL : dq(s, f, in, st(s)->list[i], slot)->head;
}

static uint32_t voqnet_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot)
{
    struct voqnet *v = st(s);
    int32_t *pp = posp(s, f, in, out, slot);
    int d = v->list[*pp];
    uint32_t pidx = pktq_pop(dq(s, f, in, d, slot), &f->pool);
    size_t k = (size_t)in * (size_t)v->nd + (size_t)d;
    v->bytes[k] -= pkt(&f->pool, pidx)->wire_bytes;
    if (v->sent_stop[k] && v->bytes[k] <= v->go_at[in]) {
        v->sent_stop[k] = 0;
        tell_upstream(f, s, in, d, VOQNET_GO);
    }
    *pp = next_dest(s, f, in, out, slot, *pp);
    if (*pp < 0)
        sw_req_clr(s, f, out, slot, in);
    return pidx;
}

/* Stop or Go for destination m->dst[0] from the switch at the other end of output `out`. */
static void voqnet_on_msg(struct fabric *f, struct sw *s, int out, const struct sw_msg *m)
{
    struct voqnet *v = st(s);
    int d = m->dst[0] <= f->max_lid ? f->host_of_lid[m->dst[0]] : -1;
    if (d < 0 || (m->type != VOQNET_STOP && m->type != VOQNET_GO))
        return;
    int stop = m->type == VOQNET_STOP;
    if (v->stopped[d] == stop)
        return;
    v->stopped[d] = (uint8_t)stop;
    int np = s->n.nports + 1, kick = 0;
    for (int in = 0; in < np; in++)
        for (int slot = 0; slot < f->nvs; slot++) {
            int32_t *pp = posp(s, f, in, out, slot);
            if (stop) {
                if (*pp >= 0 && v->list[*pp] == d) {
                    *pp = next_dest(s, f, in, out, slot, *pp);
                    if (*pp < 0)
                        sw_req_clr(s, f, out, slot, in);
                }
            } else if (*pp < 0 && dq(s, f, in, d, slot)->n) {
                *pp = v->at[d];
                sw_req_set(s, f, out, slot, in);
                kick = 1;
            }
        }
    if (kick)
        sw_kick(f, s, out);
}

static uint64_t voqnet_held(const struct fabric *f, const struct sw *s)
{
    (void)f;
    uint64_t n = 0;
    for (size_t k = 0; k < s->nq; k++)
        n += s->q[k].n;
    return n;
}

const struct sw_arch sw_arch_voqnet = {
    .name = "voqnet",
    .help = "a queue per destination host (and VL) at every input, switch.voqnet_queue bytes each, "
            "flow-controlled per destination: no head-of-line blocking at all (Papers V/VI's VOQnet)",
    .default_read_ports = 0,
    .init = voqnet_init,
    .free = voqnet_free,
    .enqueue = voqnet_enqueue,
    .head = voqnet_head,
    .dequeue = voqnet_dequeue,
    .on_msg = voqnet_on_msg,
    .held = voqnet_held,
};

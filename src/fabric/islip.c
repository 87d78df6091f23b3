/* islip.c: iSLIP (N. McKeown, "The iSLIP scheduling algorithm for input-queued switches",
 * IEEE/ACM Trans. Networking 7(2), 1999) as a switch's crossbar scheduler, switch.scheduler =
 * islip. The switch is slotted: once per slot (switch.islip_slot, by default an MTU packet's
 * time on the slowest port over the speedup, the longest read of an MTU packet; boundaries at
 * multiples of it) and only when some
 * free output has a request, inputs and outputs are matched in up to switch.islip_iterations
 * rounds of
 *   request: every input offers its heads (the request bitsets of swarch.h, as for the
 *            unslotted scheduler: a head whose packet fits the output's credits, at an input
 *            with a free read port);
 *   grant:   every free, unmatched output picks, per VL, the first requesting input at or after
 *            its grant pointer (the round-robin pointer s->rr of switch.c), then one VL by IBA VL
 *            arbitration, and grants that input;
 *   accept:  every input takes the granting outputs in round-robin order from its accept
 *            pointer, as many as it has free read ports (one with switch.read_ports = 1: the
 *            classic crossbar; all with a read port per output); a taken grant sends at once.
 * Pointers move only on a first-iteration accept: the output's grant pointer to one beyond the
 * accepted input, the input's accept pointer to one beyond the accepted output (McKeown's
 * rule: it desynchronises the outputs' pointers and so avoids starvation). A refused grant
 * leaves the output's VL arbitration state as it was.
 *
 * Packets are of any size: a matched packet holds its output for its transmission time and its
 * read port until its read ends (switch.c), so an output or input is free again only at the
 * first slot boundary after that. The unslotted scheduler (switch.scheduler = output, the
 * default) is the one the other results use; docs/model.md compares the two. Not with
 * multicast groups or the pipelined switch (refused at build time). */
#include "fabric/swarch.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct sw_islip {
    simtime_t slot;           /* the matching period */
    simtime_t last;           /* time of the last matching (-1: none yet) */
    simtime_t at;             /* time of the pending matching, SIMTIME_NEVER if none */
    int iters;
    uint8_t running, want;    /* a matching is under way; it asked for the next one */
    uint16_t *acc;            /* [in] accept pointer: the output last accepted in a first
                               * iteration (the search starts after it) */
    int16_t *g_in;            /* [out] the input granted in this iteration, -1 */
    uint8_t *g_slot, *g_vl;   /* [out] the grant's VL slot and VL */
    uint8_t *lost;            /* [out] a grant of this matching was refused */
    struct vlarb_state *g_arb;/* [out] the output's VL arbitration state before its grant */
    uint64_t *gmask;          /* [in][words] outputs granting input `in` */
};

int islip_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    if (s->mc)
        return ibn_err_set(e, "switch.scheduler = islip does not serve multicast groups (switch %s)",
                           s->n.name);
    if (s->arch->departed)
        return ibn_err_set(e, "switch.scheduler = islip: switch.arch = %s schedules its own "
                           "crossbar (switch %s)", s->arch->name, s->n.name);
    struct sw_islip *m = xcalloc(1, sizeof *m);
    size_t np = (size_t)s->n.nports + 1;
    m->iters = (int)f->set.islip_iterations;
    m->slot = f->set.islip_slot;
    if (!m->slot) {
        /* The crossbar's time for an MTU packet: its transmission on the slowest port over the
         * speedup, the longest read of an MTU packet, so that every read fits in one slot (a
         * cell switch's property: inputs are free again at the next boundary). */
        uint64_t slowest = 0; /* attoseconds per byte */
        for (int p = 1; p <= s->n.nports; p++)
            if (s->n.port[p].peer && s->n.port[p].rate.as_per_byte > slowest)
                slowest = s->n.port[p].rate.as_per_byte;
        byterate_t r = { slowest ? slowest : 1 };
        simtime_t t = byterate_time(r, pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh));
        m->slot = (simtime_t)((double)t / s->speedup + 0.999);
        if (m->slot < 1)
            m->slot = 1;
    }
    m->last = -1;
    m->at = SIMTIME_NEVER;
    m->acc = xcalloc(np, sizeof *m->acc);
    m->g_in = xmalloc(np * sizeof *m->g_in);
    m->g_slot = xcalloc(np, 1);
    m->g_vl = xcalloc(np, 1);
    m->lost = xcalloc(np, 1);
    m->g_arb = xcalloc(np, sizeof *m->g_arb);
    m->gmask = xcalloc(np * (size_t)s->words, sizeof *m->gmask);
    s->islip = m;
    return 0;
}

void islip_free(struct sw *s)
{
    struct sw_islip *m = s->islip;
    if (!m)
        return;
    free(m->acc);
    free(m->g_in);
    free(m->g_slot);
    free(m->g_vl);
    free(m->lost);
    free(m->g_arb);
    free(m->gmask);
    free(m);
    s->islip = NULL;
}

void islip_request(struct fabric *f, struct sw *s)
{
    struct sw_islip *m = s->islip;
    if (m->running) {
        /* Asked during a matching (its sends made new heads): scheduled when it ends, after
         * the read ends and transmission ends its sends have scheduled, so that at the next
         * boundary the reads and transmissions ending then are over before it matches. */
        m->want = 1;
        return;
    }
    if (m->at != SIMTIME_NEVER)
        return; /* the pending matching is the next boundary (see below) */
    /* The first boundary at or after now and after the last matching: a pending matching is
     * always the earliest such boundary, so a later request never needs an earlier one. */
    simtime_t t = (f->now + m->slot - 1) / m->slot * m->slot;
    if (t <= m->last)
        t = m->last + m->slot;
    m->at = t;
    fabric_schedule(f, t, EV_ISLIP, &s->n.port[0], 0, 0);
}

/* Grant: output `out`, free, picks its VL and input; returns whether it granted. */
static int grant(struct fabric *f, struct sw *s, struct sw_islip *m, int out)
{
    struct port *op = &s->n.port[out];
    int cand[VL_SLOTS];
    uint32_t ready = 0;
    int read_blocked = 0, work = 0;
    for (int slot = 0; slot < f->nvs; slot++) {
        const uint64_t *bits = sw_req(s, f, out, slot);
        int any = 0;
        for (int w = 0; w < s->words && !any; w++)
            any = bits[w] != 0;
        if (!any) {
            port_wait_end(op, slot, f->now);
            continue;
        }
        work = 1;
        int credit_blocked = 0;
        int i = sw_pick_input(f, s, out, slot, op->vl[slot].credits, &credit_blocked, &read_blocked);
        if (i >= 0) {
            cand[slot] = i;
            ready |= 1u << fabric_slot_vl(f, slot);
            port_wait_end(op, slot, f->now);
        } else if (credit_blocked) {
            port_wait_begin(op, slot, f->now);
        }
    }
    if (read_blocked) /* an input's read ports are all busy: look again when one frees */
        s->stalled[out >> 6] |= 1ULL << (out & 63);
    if (!ready) {
        port_watch_credits(f, op, work);
        return 0;
    }
    m->g_arb[out] = op->arb;
    int vl = vlarb_pick(op->vlarb, &op->arb, ready);
    if (vl < 0) {
        op->arb = m->g_arb[out];
        return 0; /* ready VLs have no weight in either table: they wait (reported at drain) */
    }
    int slot = fabric_slot(f, vl), in = cand[slot];
    m->g_in[out] = (int16_t)in;
    m->g_slot[out] = (uint8_t)slot;
    m->g_vl[out] = (uint8_t)vl;
    m->gmask[(size_t)in * (size_t)s->words + (size_t)(out >> 6)] |= 1ULL << (out & 63);
    return 1;
}

/* The grant of output `out` to input `in` still holds: the head is there, fits the credits,
 * and the input has a free read port (an earlier accept of this input may have changed that). */
static int grant_valid(struct fabric *f, struct sw *s, struct sw_islip *m, int in, int out)
{
    int slot = m->g_slot[out];
    if (s->read_ports < s->n.nports && s->reads[in] >= s->read_ports)
        return 0;
    if (!(sw_req(s, f, out, slot)[in >> 6] >> (in & 63) & 1))
        return 0;
    uint32_t h = s->arch->head(f, s, in, out, slot);
    return h != PKT_NIL && (slot == f->set.nvls || pkt(&f->pool, h)->credits <= s->n.port[out].vl[slot].credits);
}

void switch_islip(struct fabric *f, struct sw *s)
{
    struct sw_islip *m = s->islip;
    int n = s->n.nports, words = s->words;
    m->at = SIMTIME_NEVER;
    m->last = f->now;
    m->running = 1;
    m->want = 0;
    memset(m->lost, 0, (size_t)n + 1);
    for (int it = 0; it < m->iters; it++) {
        int granted = 0;
        memset(m->gmask, 0, ((size_t)n + 1) * (size_t)words * sizeof *m->gmask);
        for (int out = 1; out <= n; out++) {
            struct port *op = &s->n.port[out];
            m->g_in[out] = -1;
            if (!op->peer || port_busy(f, op))
                continue; /* busy, or matched in an earlier iteration */
            op->tx_busy = 0;
            port_absorb_credits(f, op);
            granted |= grant(f, s, m, out);
        }
        if (!granted)
            break;
        for (int in = 1; in <= n; in++) {
            uint64_t *gm = &m->gmask[(size_t)in * (size_t)words];
            int any = 0;
            for (int w = 0; w < words && !any; w++)
                any = gm[w] != 0;
            if (!any)
                continue;
            /* Granting outputs after the accept pointer, then from the start up to it. */
            int a = m->acc[in];
            for (int pass = 0; pass < 2; pass++) {
                int from = pass == 0 ? a + 1 : 0, to = pass == 0 ? n + 1 : a + 1;
                for (int o = from; o < to;) {
                    uint64_t w = gm[o >> 6] >> (o & 63);
                    if (!w) {
                        o = ((o >> 6) + 1) << 6;
                        continue;
                    }
                    o += __builtin_ctzll(w);
                    if (o >= to)
                        break;
                    if (grant_valid(f, s, m, in, o)) {
                        struct port *op = &s->n.port[o];
                        sw_send(f, s, o, m->g_slot[o], in, m->g_vl[o], it == 0);
                        if (it == 0)
                            m->acc[in] = (uint16_t)o;
                        if (sw_has_request(f, s, o))
                            port_need_done(f, op); /* its end asks for the next matching */
                    } else {
                        s->n.port[o].arb = m->g_arb[o]; /* refused: as if never granted */
                        m->lost[o] = 1;
                    }
                    o++;
                }
            }
        }
    }
    /* An output that lost its grant to another output of the same input and stayed free tries
     * again at the next slot (its pointer still names that input, which may be busy now). */
    for (int out = 1; out <= n && !m->want; out++)
        if (m->lost[out] && !port_busy(f, &s->n.port[out]) && sw_has_request(f, s, out))
            m->want = 1;
    m->running = 0;
    if (m->want)
        islip_request(f, s);
}

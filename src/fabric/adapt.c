/* adapt.c: adaptive output choice at switches: the table of policies, and the candidates a
 * packet has at a switch (see adapt.h). */
#include "fabric/adapt.h"

extern const struct adapt_policy adapt_lfu, adapt_max_credit;

const struct adapt_policy *const adapt_policies[] = { &adapt_lfu, &adapt_max_credit, NULL };
const char *const adapt_policy_names[] = { "none", "lfu", "max_credit", NULL };

int adapt_route(struct fabric *f, struct sw *s, struct packet *p, int out)
{
    int h = fabric_host_of_lid(f, p->dst_lid);
    if (h < 0)
        return out;
    const struct port *d = f->hosts[h].port;
    unsigned cur = (unsigned)(p->dst_lid - d->lid), fixed = p->pb & PB_BITS;
    unsigned m = s->pb_local & ((1u << d->lmc) - 1) & ~fixed; /* the bits this switch decides */
    if (!m)
        return out;
    /* Every setting of the bits in m, the others as the packet has them: distinct ports, each
     * with the first offset giving it. */
    int cand[64], off[64], n = 0;
    unsigned sub = 0, base = cur & ~m;
    uint64_t seen = 0; /* ports below 64 already looked at (taken or not cabled) */
    do {
        unsigned k = base | sub;
        int port = s->lft[d->lid + (int)k];
        if (port < 64) {
            if (!(seen >> port & 1)) {
                seen |= 1ULL << port;
                if (port >= 1 && port <= s->n.nports && s->n.port[port].peer) {
                    cand[n] = port;
                    off[n++] = (int)k;
                }
            }
        } else { /* ports 64-254: a scan of the candidates */
            int dup = 0;
            for (int i = 0; i < n && !dup; i++)
                dup = cand[i] == port;
            if (!dup && port <= s->n.nports && s->n.port[port].peer && n < 64) {
                cand[n] = port;
                off[n++] = (int)k;
            }
        }
        sub = (sub - m) & m; /* next subset of m */
    } while (sub);
    if (n == 0)
        return out;
    int i = n == 1 ? 0 : s->adapt->choose(f, s, p, cand, n);
    p->dst_lid = (uint16_t)(d->lid + off[i]);
    p->pb |= (uint16_t)m;
    return cand[i];
}

/* adapt_max_credit.c: Max-Credit (seed 004, from LAPSES): the candidate output whose downstream
 * buffer grants the most flow-control credits on the packet's VL there, as the link-level
 * credit counters stand now (no extra hardware: "it only checks the buffer availability of the
 * neighboring switch"). */
#include "fabric/adapt.h"

static int max_credit_choose(struct fabric *f, struct sw *s, const struct packet *p,
                             const int *cand, int n)
{
    int best = 0;
    int32_t most = -1;
    for (int i = 0; i < n; i++) {
        struct port *op = &s->n.port[cand[i]];
        int vl = p->vl == VL15 ? VL15
                 : s->sl2vl ? s->sl2vl[((size_t)p->in_port * (size_t)(s->n.nports + 1) + (size_t)cand[i]) * 16 + p->sl]
                            : f->set.sl2vl[p->sl];
        int slot = fabric_slot(f, vl);
        port_absorb_credits(f, op);
        if (op->vl[slot].credits > most) {
            most = op->vl[slot].credits;
            best = i;
        }
    }
    return best;
}

const struct adapt_policy adapt_max_credit = {
    .name = "max_credit",
    .help = "the output whose downstream buffer grants the most credits on the packet's VL",
    .choose = max_credit_choose,
};

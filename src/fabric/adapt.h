/* adapt.h: adaptive output choice at switches (seed 004 section 3.4: unreliable datagrams choose
 * their path at each switch). A packet of a flow with `path = adaptive` carries a destination
 * LID among its destination's 2^LMC LIDs and a mask of the LMC bits already fixed. At a switch
 * with an adaptive policy (switch.adaptive), the candidates are the LIDs that differ from the
 * packet's only in the switch's own unfixed bits (with seed 004's path bits, the bits of the
 * cycles through the switch: every other bit leaves its output unchanged; with other engines
 * all bits, so the first switch decides); the policy picks one of their distinct output ports,
 * the packet's DLID becomes that LID and the switch's bits are fixed. The route a packet takes
 * is then the route of its final LID, which the engine's tables make loop-free.
 *
 * A policy is one file with a `struct adapt_policy` and one line in adapt_policies[]
 * (adapt.c). Policies here: lfu (the output that has routed the fewest packets of any class,
 * a counter per output port) and max_credit (the output whose downstream buffer grants the most
 * credits on the packet's VL). Ties go to the candidate of the lowest LID offset. Without a
 * policy (the default) nothing is called: `path = adaptive` packets keep their LID. */
#ifndef IBN_ADAPT_H
#define IBN_ADAPT_H

#include "fabric/fabric.h"

#define PB_ADAPTIVE 0x8000 /* packet.pb: the packet chooses at each switch; low bits: fixed bits */
#define PB_BITS 0x7fffu    /* packet.pb: the path bits (up to 15, beyond IBA's 7) */

struct adapt_policy {
    const char *name;
    const char *help;
    /* Set up per-switch state (s->adapt_state); may be NULL. */
    void (*init)(struct fabric *f, struct sw *s);
    void (*free)(struct sw *s);
    /* Index in cand[0..n-1] (distinct output ports, n >= 2) for packet p. */
    int (*choose)(struct fabric *f, struct sw *s, const struct packet *p, const int *cand, int n);
    /* Optional: every packet routed to `out` at s (adaptive or not). */
    void (*routed)(struct fabric *f, struct sw *s, int out, const struct packet *p);
};

extern const struct adapt_policy *const adapt_policies[];
extern const char *const adapt_policy_names[]; /* "none", then the policies' names */

/* Route adaptive packet p at s (its table port is `out`); returns the port chosen. */
int adapt_route(struct fabric *f, struct sw *s, struct packet *p, int out);

#endif

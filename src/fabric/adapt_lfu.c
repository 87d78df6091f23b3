/* adapt_lfu.c: LFU (seed 004, from LAPSES): the candidate output that has routed the fewest
 * packets. The paper keeps "one counter for each VL" but explains LFU as avoiding the paths
 * that higher-priority traffic (real-time, control) uses, so the counter counts the packets of
 * every class routed to the output port (digest 004, gap 18); it is never reset. */
#include <stdlib.h>

#include "fabric/adapt.h"

static void lfu_init(struct fabric *f, struct sw *s)
{
    (void)f;
    s->adapt_state = xcalloc((size_t)s->n.nports + 1, sizeof(uint64_t));
}

static void lfu_free(struct sw *s)
{
    free(s->adapt_state);
}

static int lfu_choose(struct fabric *f, struct sw *s, const struct packet *p, const int *cand, int n)
{
    (void)f, (void)p;
    const uint64_t *used = s->adapt_state;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (used[cand[i]] < used[cand[best]])
            best = i;
    return best;
}

static void lfu_routed(struct fabric *f, struct sw *s, int out, const struct packet *p)
{
    (void)f, (void)p;
    ((uint64_t *)s->adapt_state)[out]++;
}

const struct adapt_policy adapt_lfu = {
    .name = "lfu",
    .help = "the output that has routed the fewest packets (all classes)",
    .init = lfu_init,
    .free = lfu_free,
    .choose = lfu_choose,
    .routed = lfu_routed,
};

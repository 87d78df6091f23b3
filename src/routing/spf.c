/* spf.c: seed 004's Shortest Path First: every switch forwards each destination on a shortest
 * (hop-count) path; among equal paths the lowest port (the default), the highest port, or the
 * least-loaded port (tie=balance, which is minhop). Not deadlock-free: the paper relies on
 * dropping packets (Head-of-Queue lifetime) to break deadlocks. */
#include "routing/route.h"

#include <string.h>

#include "routing/lft_build.h"

int route_spf(const struct topo *t, const struct route_opts *o, struct lfts *out,
              struct ibn_err *e)
{
    enum lft_tie tie = LFT_TIE_LOWEST;
    if (o && o->tie) {
        if (!strcmp(o->tie, "lowest"))
            tie = LFT_TIE_LOWEST;
        else if (!strcmp(o->tie, "highest"))
            tie = LFT_TIE_HIGHEST;
        else if (!strcmp(o->tie, "balance"))
            tie = LFT_TIE_BALANCE;
        else
            return ibn_err_set(e, "spf: tie=%s is not a tie rule (expected lowest, highest or "
                               "balance)", o->tie);
    }
    struct hoptab h;
    hoptab_init(&h, t);
    hoptab_minhop(&h, t);
    lft_build(t, &h, tie, NULL, 0, 0, NULL, out);
    hoptab_free(&h);
    return 0;
}

/* minhop.c: the minhop routing engine with OpenSM's semantics: shortest switch-hop paths,
 * each switch choosing among its least-hop ports the one that carries the fewest CA routes so
 * far, destinations taken in OpenSM's order (see lft_build.h). */
#include "routing/route.h"

#include "routing/lft_build.h"

int route_minhop(const struct topo *t, const struct route_opts *o, struct lfts *out,
                 struct ibn_err *e)
{
    struct hoptab h;
    hoptab_init(&h, t);
    hoptab_minhop(&h, t);
    int rc = lft_build_opts(t, &h, LFT_TIE_BALANCE, o, out, e);
    hoptab_free(&h);
    return rc;
}

/* dor.c: dimension-order routing as OpenSM's dor engine does it: shortest paths, each switch
 * taking the first dimension that brings the packet closer (the lowest-numbered port with the
 * least hops fixes the neighbour; parallel links to that neighbour share the load). In the
 * meshes and tori the generators build (ports per dimension in order), this is XY(Z) routing,
 * the deadlock-free default seed 003's meshes suggest; in tori it can deadlock (wrap links). */
#include "routing/route.h"

#include "routing/lft_build.h"

int route_dor(const struct topo *t, const struct route_opts *o, struct lfts *out,
              struct ibn_err *e)
{
    struct hoptab h;
    hoptab_init(&h, t);
    hoptab_minhop(&h, t);
    int rc = lft_build_opts(t, &h, LFT_TIE_DOR, o, out, e);
    hoptab_free(&h);
    return rc;
}

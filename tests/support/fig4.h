/* fig4.h: seed 004's Fig. 4a network for tests: switches a, b, c, d (5 ports), links a:1-b:1,
 * a:2-c:1, b:2-c:2, b:3-d:1, c:3-d:2, and a host Ha, Hb, Hc, Hd on port 5 of each. */
#ifndef IBN_TEST_FIG4_H
#define IBN_TEST_FIG4_H

#include <stdio.h>
#include <stdlib.h>

#include "topology/topo.h"

static inline void fig4_topo(struct topo *t)
{
    struct ibn_err e = { { 0 } };
    topo_init(t);
    const char *sw[4] = { "a", "b", "c", "d" };
    int id[4], h[4];
    for (int i = 0; i < 4; i++)
        id[i] = topo_add_node(t, TOPO_SWITCH, sw[i], 5);
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "H%s", sw[i]);
        h[i] = topo_add_node(t, TOPO_CA, name, 1);
        if (topo_connect(t, id[i], 5, h[i], 1, 1, IB_SDR, 2.5e9, 0, &e))
            abort();
    }
    static const int links[5][4] = { { 0, 1, 1, 1 }, { 0, 2, 2, 1 }, { 1, 2, 2, 2 }, { 1, 3, 3, 1 },
                                     { 2, 3, 3, 2 } };
    for (int i = 0; i < 5; i++)
        if (topo_connect(t, id[links[i][0]], links[i][1], id[links[i][2]], links[i][3], 1, IB_SDR,
                         2.5e9, 0, &e))
            abort();
    topo_assign_lids(t, 0);
}

#endif

/* gen_basic.c: the small generators the seeds' testbeds need: a single switch with one CA per
 * port, and the two-switch testbed of seed 002 Papers I-III. */
#include <stdio.h>

#include "topology/generate.h"

int gen_single_switch(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int ports, w;
    enum ib_speed sp;
    double rate;
    simtime_t delay;
    if (gen_arg_int(a, "ports", 8, 2, 254, &ports, e) ||
        gen_arg_link(a, "link", "4xQDR", &w, &sp, &rate, e) ||
        gen_arg_time(a, "delay", "10 ns", &delay, e))
        return -1;
    int s = topo_add_node(t, TOPO_SWITCH, "S1", ports);
    t->node[s].rank = 0;
    for (int p = 1; p <= ports; p++) {
        char name[16];
        snprintf(name, sizeof name, "H%d", p);
        int h = topo_add_node(t, TOPO_CA, name, 1);
        if (topo_connect(t, s, p, h, 1, w, sp, rate, delay, e))
            return -1;
    }
    (void)seed;
    return 0;
}

int gen_testbed002(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int hw, iw;
    enum ib_speed hs, is;
    double hr, ir;
    simtime_t delay;
    if (gen_arg_link(a, "host_link", "4xDDR", &hw, &hs, &hr, e) ||
        gen_arg_link(a, "isl", "4xQDR", &iw, &is, &ir, e) ||
        gen_arg_time(a, "delay", "10 ns", &delay, e))
        return -1;
    /* IS4 switches have 36 ports; the testbed uses 3 + 1 on S1 and 4 + 1 on S2. */
    int s1 = topo_add_node(t, TOPO_SWITCH, "S1", 36), s2 = topo_add_node(t, TOPO_SWITCH, "S2", 36);
    for (int i = 1; i <= 7; i++) {
        char name[8];
        snprintf(name, sizeof name, "H%d", i);
        int h = topo_add_node(t, TOPO_CA, name, 1);
        int sw = i <= 3 ? s1 : s2, port = i <= 3 ? i : i - 3;
        if (topo_connect(t, sw, port, h, 1, hw, hs, hr, delay, e))
            return -1;
    }
    if (topo_connect(t, s1, 36, s2, 36, iw, is, ir, delay, e))
        return -1;
    (void)seed;
    return 0;
}

/* osm_random.c: glibc's random() stream for OpenSM's scatter_ports (see osm_random.h). */
#include "routing/osm_random.h"

void osm_srandom(struct osm_random *g, uint32_t seed)
{
    if (seed == 0)
        seed = 1;
    int32_t word = (int32_t)seed;
    g->r[0] = word;
    for (int i = 1; i < 31; i++) {
        /* 16807 * word mod (2^31 - 1), by Schrage's method, on the signed 32-bit state. */
        int32_t hi = word / 127773, lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0)
            word += 2147483647;
        g->r[i] = word;
    }
    g->f = 3;
    g->b = 0;
    for (int i = 0; i < 310; i++)
        (void)osm_random(g);
}

int32_t osm_random(struct osm_random *g)
{
    uint32_t v = (uint32_t)g->r[g->f] + (uint32_t)g->r[g->b];
    g->r[g->f] = (int32_t)v;
    g->f = (g->f + 1) % 31;
    g->b = (g->b + 1) % 31;
    return (int32_t)(v >> 1);
}

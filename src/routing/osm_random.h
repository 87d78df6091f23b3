/* osm_random.h: the pseudo-random stream OpenSM's scatter_ports draws from: the C library's
 * random() after srandom(seed) as glibc implements it (the additive feedback generator of
 * degree 31, separation 3, seeded by the 16807 multiplicative generator and run 310 steps),
 * reproduced so that ibnetsim's scatter_ports picks the ports OpenSM picks. */
#ifndef IBN_OSM_RANDOM_H
#define IBN_OSM_RANDOM_H

#include <stdint.h>

struct osm_random {
    int32_t r[31];
    int f, b; /* front and rear indices into r */
};

void osm_srandom(struct osm_random *g, uint32_t seed);
/* The next value, 0 to 2^31 - 1, as random() returns it. */
int32_t osm_random(struct osm_random *g);

#endif

/* fill.h: filling one arbitration table from a list of distance requests with CESY or CENRE
 * (seed 001 sections 3.7-3.9), counting wasted entries (entries used beyond ceil(64/d) per
 * placed request), and the paper's comparison experiment: random distances placed "until the
 * table is completed", a request that cannot be placed being discarded and another drawn. */
#ifndef IBN_QOS_FILL_H
#define IBN_QOS_FILL_H

#include <stdint.h>

enum qos_method { QOS_CESY, QOS_CENRE };

struct fill_result {
    int n;                /* requests given */
    int placed;
    uint64_t mask[64];    /* per request: its entries (0 = not placed); only the first 64 */
    uint64_t taken;
    int wasted;           /* sum over placed requests of entries used - ceil(64/d) */
};

/* Place requests d[0..n-1] (distances 2..64, any value: CESY rounds) in order into an empty
 * table (`allowed` as in cesy_round, 0 = all). Requests that do not fit are skipped. */
void fill_table(enum qos_method m, const int *d, int n, unsigned allowed, struct fill_result *r);
/* One request into `taken`; entries in *mask, returns entries used or -1. */
int fill_one(enum qos_method m, uint64_t taken, int d, unsigned allowed, uint64_t *mask);

enum fill_dist { FILL_UNIFORM, FILL_PROPORTIONAL }; /* P(d) uniform on 2..64, or P(d) ~ d */
/* Mean wasted entries over `tables` random fillings (seeded). */
double fill_random_waste(enum qos_method m, enum fill_dist dist, int tables, uint64_t seed);

#endif

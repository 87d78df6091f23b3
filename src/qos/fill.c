/* fill.c: table filling with CESY or CENRE, wasted entries, the random-filling experiment. */
#include "qos/fill.h"

#include <string.h>

#include <gsl/gsl_rng.h>

#include "qos/arbtab.h"
#include "qos/cenre.h"
#include "qos/cesy.h"

int fill_one(enum qos_method m, uint64_t taken, int d, unsigned allowed, uint64_t *mask)
{
    if (m == QOS_CENRE)
        return cenre_place(taken, d, mask);
    int dc = cesy_round(d, allowed);
    if (!dc || cesy_entries(dc) > ARBTAB_N - arbtab_count(taken))
        return -1;
    int f = cesy_find_first(taken, dc);
    if (f < 0)
        return -1;
    *mask = cesy_mask(f, dc);
    return cesy_entries(dc);
}

void fill_table(enum qos_method m, const int *d, int n, unsigned allowed, struct fill_result *r)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    for (int i = 0; i < n; i++) {
        uint64_t mask;
        int k = fill_one(m, r->taken, d[i], allowed, &mask);
        if (k < 0)
            continue;
        r->placed++;
        r->taken |= mask;
        r->wasted += k - arbtab_entries_for(d[i] > 64 ? 64 : d[i]);
        if (i < 64)
            r->mask[i] = mask;
    }
}

static int draw(gsl_rng *r, enum fill_dist dist)
{
    if (dist == FILL_UNIFORM)
        return 2 + (int)gsl_rng_uniform_int(r, 63);
    /* P(d) = d / sum(2..64), sum = 2079 */
    unsigned long u = gsl_rng_uniform_int(r, 2079);
    for (int d = 2; d <= 64; d++) {
        if (u < (unsigned long)d)
            return d;
        u -= (unsigned long)d;
    }
    return 64;
}

double fill_random_waste(enum qos_method m, enum fill_dist dist, int tables, uint64_t seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)seed);
    long total = 0;
    for (int k = 0; k < tables; k++) {
        uint64_t taken = 0;
        /* A completed table is full: a d = 64 request fits while any entry is free, for both
         * methods, so the loop ends; the bound only guards against a broken placement. */
        for (long tries = 0; taken != ~0ull && tries < 1000000; tries++) {
            int d = draw(r, dist);
            uint64_t mask;
            int n = fill_one(m, taken, d, 0, &mask);
            if (n < 0)
                continue;
            taken |= mask;
            total += n - arbtab_entries_for(d);
        }
    }
    gsl_rng_free(r);
    return tables ? (double)total / tables : 0;
}

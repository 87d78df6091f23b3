/* lmc.c: choosing one of a destination's 2^LMC LIDs per queue pair. */
#include "routing/lmc.h"

#include <string.h>

#include "core/rng.h"

int route_pick_lid(int base_lid, int lmc, enum lmc_policy policy, uint64_t qp_index, gsl_rng *r)
{
    if (lmc <= 0)
        return base_lid;
    unsigned long n = 1UL << lmc;
    unsigned long off;
    switch (policy) {
    case LMC_RANDOM:
        off = r ? gsl_rng_uniform_int(r, n) : 0;
        break;
    case LMC_HASH:
        off = (unsigned long)(rng_mix64(qp_index) & (n - 1));
        break;
    case LMC_ROUND_ROBIN:
    default:
        off = (unsigned long)(qp_index % n);
        break;
    }
    return base_lid + (int)off;
}

int lmc_policy_parse(const char *text, enum lmc_policy *out)
{
    if (!strcmp(text, "round_robin") || !strcmp(text, "rr"))
        *out = LMC_ROUND_ROBIN;
    else if (!strcmp(text, "random"))
        *out = LMC_RANDOM;
    else if (!strcmp(text, "hash"))
        *out = LMC_HASH;
    else
        return -1;
    return 0;
}

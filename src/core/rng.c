/* rng.c: per-stream seeding of GSL generators from a run seed and a stable stream key. */
#include "core/rng.h"

#include "core/error.h"

uint64_t rng_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t rng_stream_seed(uint64_t seed, const char *key)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the key, then mixed with the seed */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return rng_mix64(h ^ rng_mix64(seed));
}

gsl_rng *rng_stream(uint64_t seed, const char *key)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        ibn_panic("cannot allocate a random generator");
    uint64_t s = rng_stream_seed(seed, key);
    /* MT19937 takes a 32-bit seed; 0 would select GSL's default seed, so avoid it. */
    unsigned long s32 = (unsigned long)((s ^ (s >> 32)) & 0xffffffffu);
    gsl_rng_set(r, s32 ? s32 : 1u);
    return r;
}

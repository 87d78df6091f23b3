/* rng.h: independent, seeded random streams (GSL generators). Each source of randomness in a
 * model (a flow, a marking unit, a topology generator) asks for its own stream by a stable key,
 * so that adding a flow leaves every other flow's random sequence unchanged. */
#ifndef IBN_RNG_H
#define IBN_RNG_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

/* Seed for stream `key` (any text, e.g. "flow/F1") under run seed `seed`. */
uint64_t rng_stream_seed(uint64_t seed, const char *key);
/* A new GSL generator (MT19937) seeded for that stream; free with gsl_rng_free. */
gsl_rng *rng_stream(uint64_t seed, const char *key);
/* splitmix64: the mixing step used to derive seeds (exposed for hashing in tests and models). */
uint64_t rng_mix64(uint64_t x);

#endif

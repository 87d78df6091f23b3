/* simtime.h: simulated time as an integer count of picoseconds, and the conversions between
 * bytes, link rates and time. Time is never accumulated in floating point. */
#ifndef IBN_SIMTIME_H
#define IBN_SIMTIME_H

#include <stdint.h>

typedef int64_t simtime_t;

#define PS_PER_NS ((simtime_t)1000)
#define PS_PER_US ((simtime_t)1000000)
#define PS_PER_MS ((simtime_t)1000000000)
#define PS_PER_S  ((simtime_t)1000000000000LL)
#define SIMTIME_NEVER INT64_MAX
/* The longest time a setting may give or a draw may produce: 2^62 ps (about 53 days), so that a
 * time plus another such time never overflows simtime_t. */
#define SIMTIME_HORIZON ((simtime_t)1 << 62)
/* The slowest and fastest rates a byterate_t holds: at most 2^64-1 attoseconds per byte
 * (about 0.434 b/s), at least 1000 (8000 Tb/s, keeping three digits below a picosecond). */
#define BYTERATE_MIN_BPS (8e18 / 18446744073709551615.0)
#define BYTERATE_MAX_BPS 8e15

/* A data rate expressed as attoseconds per byte, so that serialising B bytes takes
 * ceil(B * as_per_byte / 10^6) ps. Exact for every 8b/10b rate and for FDR10/EDR/HDR/NDR;
 * FDR (14.0625 Gbaud, 64b/66b) rounds by less than 1 as per byte. */
typedef struct {
    uint64_t as_per_byte;
} byterate_t;

static inline byterate_t byterate_from_bps(double bits_per_s)
{
    /* Truncated so that the ceiling in byterate_time() lands on the exact value. */
    double as = 8e18 / bits_per_s;
    uint64_t whole = (uint64_t)(as + 1e-6);
    byterate_t r = { whole };
    return r;
}

static inline double byterate_bps(byterate_t r)
{
    return r.as_per_byte ? 8e18 / (double)r.as_per_byte : 0.0;
}

/* Time to move `bytes` bytes at rate r, rounded up to a whole picosecond. */
static inline simtime_t byterate_time(byterate_t r, uint32_t bytes)
{
    return (simtime_t)(((uint64_t)bytes * r.as_per_byte + 999999u) / 1000000u);
}

static inline double simtime_to_s(simtime_t t) { return (double)t / (double)PS_PER_S; }

#endif

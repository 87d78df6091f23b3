/* arbtab.c: cyclic measures of the 64-entry table and the bandwidth/deadline conversions. */
#include "qos/arbtab.h"

#include <math.h>

static inline uint64_t rotl(uint64_t m, int k) { return k ? (m << k) | (m >> (64 - k)) : m; }

int arbtab_longest_run(uint64_t m)
{
    if (m == ~0ull)
        return ARBTAB_N;
    if (!m)
        return 0;
    /* Rotate so that a clear entry sits at the top: runs no longer wrap. */
    int z = 63 - __builtin_clzll(~m); /* highest clear bit */
    uint64_t r = rotl(m, 63 - z);
    int best = 0;
    while (r) {
        int lo = __builtin_ctzll(r);
        uint64_t rest = r >> lo;
        int len = (rest == ~0ull) ? 64 - lo : __builtin_ctzll(~rest);
        if (len > best)
            best = len;
        r &= ~(((len >= 64) ? ~0ull : ((1ull << len) - 1)) << lo);
    }
    return best;
}

int arbtab_shortest_free_run(uint64_t m)
{
    if (m == ~0ull || !m)
        return ARBTAB_N;
    uint64_t f = ~m;
    int z = 63 - __builtin_clzll(m); /* highest taken bit: rotate it to the top */
    uint64_t r = rotl(f, 63 - z);
    int best = ARBTAB_N;
    while (r) {
        int lo = __builtin_ctzll(r);
        uint64_t rest = r >> lo;
        int len = __builtin_ctzll(~rest);
        if (len < best)
            best = len;
        r &= ~(((1ull << len) - 1) << lo);
    }
    return best;
}

int arbtab_max_gap(uint64_t m)
{
    int n = arbtab_count(m);
    if (n == 0)
        return 0;
    if (n == 1)
        return ARBTAB_N;
    int first = __builtin_ctzll(m), prev = first, best = 0;
    uint64_t r = m & (m - 1);
    while (r) {
        int e = __builtin_ctzll(r);
        if (e - prev > best)
            best = e - prev;
        prev = e;
        r &= r - 1;
    }
    if (first + ARBTAB_N - prev > best)
        best = first + ARBTAB_N - prev;
    return best;
}

simtime_t arbtab_hop_bound(int d, uint32_t mtu, double c, int q, int k)
{
    double emax = 254.0 * 64 + mtu;
    double g = ((d - 1) * emax + mtu) * 8.0 / c;
    double t = (q + 1 + k) * g + mtu * 8.0 / c;
    return (simtime_t)ceil(t * 1e12);
}

int arbtab_distance_for(simtime_t budget, uint32_t mtu, double c, int q, int k)
{
    int best = 0;
    for (int d = 2; d <= ARBTAB_N; d++)
        if (arbtab_hop_bound(d, mtu, c, q, k) <= budget)
            best = d;
    return best;
}

int arbtab_xbar_turns(int read_ports, int nports, int in_pkts)
{
    if (read_ports <= 0 || read_ports >= nports || in_pkts <= 1)
        return 0;
    return (in_pkts - 1) / read_ports;
}

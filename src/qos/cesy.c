/* cesy.c: CESY rounding, sequences and the bit-reversal first fit (see cesy.h). */
#include "qos/cesy.h"

#include <stdlib.h>

#include "qos/arbtab.h"

int cesy_round(int d, unsigned allowed)
{
    if (d < 2)
        return 0;
    if (d > 64)
        d = 64;
    for (int k = 6; k >= 1; k--)
        if ((1 << k) <= d && (!allowed || (allowed & (1u << k))))
            return 1 << k;
    return 0;
}

int cesy_extra(int d)
{
    int r = cesy_round(d, 0);
    return r ? cesy_entries(r) - arbtab_entries_for(d) : -1;
}

uint64_t cesy_mask(int first, int d)
{
    uint64_t m = 0;
    for (int e = first; e < 64; e += d)
        m |= 1ull << e;
    return m;
}

static int rev_bits(int x, int bits)
{
    int r = 0;
    for (int i = 0; i < bits; i++)
        r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

int cesy_find_first(uint64_t taken, int d)
{
    int bits = __builtin_ctz((unsigned)d);
    /* Block b of the bit-reversed order is the sequence with first entry rev_bits(b). */
    for (int b = 0; b < d; b++) {
        int f = rev_bits(b, bits);
        if (!(taken & cesy_mask(f, d)))
            return f;
    }
    return -1;
}

int cesy_repack(const int *d, int n, uint64_t *mask)
{
    uint64_t taken = 0;
    for (int dist = 2; dist <= 64; dist *= 2) /* most entries (smallest distance) first */
        for (int i = 0; i < n; i++) {
            if (d[i] != dist)
                continue;
            int f = cesy_find_first(taken, dist);
            if (f < 0)
                return -1;
            mask[i] = cesy_mask(f, dist);
            taken |= mask[i];
        }
    return 0;
}

/* cesy.h: CESY, "Categorization based on Entries SYmmetry" (seed 001 section 3.8, Fig. 5):
 * every distance is rounded down to a power of two (2..64), a request of distance d takes
 * the 64/d entries f, f+d, f+2d, ... and is kept as (f, d). FindFirst is digest 001's
 * reconstruction, a bit-reversal first fit (a buddy allocator): entry order 0, 32, 16, 48,
 * 8, ..., under which every such sequence is an aligned block; it reproduces the paper's
 * worked example and, with allocations only, never fails while enough entries are free. */
#ifndef IBN_QOS_CESY_H
#define IBN_QOS_CESY_H

#include <stdint.h>

/* Largest power of two <= d for d in 2..64; 0 for d < 2 (distance 1 is not offered). Values
 * above 64 count as 64. `allowed` (bit k: distance 2^k offered; 0 = all of 2..64) restricts
 * the answer, e.g. the 4-VL variant offers only 16 and 64: the result is then the largest
 * offered power of two <= d, or 0 when none is. */
int cesy_round(int d, unsigned allowed);
/* Entries a request of (already rounded) distance d takes: 64/d. */
static inline int cesy_entries(int d) { return 64 / d; }
/* Table 1: entries used beyond the ceil(64/d) that distance d needs (CESY's rounding waste). */
int cesy_extra(int d);
/* The sequence (f, d) as a mask. d must be a power of two, 0 <= f < d. */
uint64_t cesy_mask(int first, int d);
/* First entry f of a free sequence of distance d (power of two) in table `taken`, by the
 * bit-reversal first fit; -1 when none is free (possible only after releases). */
int cesy_find_first(uint64_t taken, int d);
/* Re-place n sequences of distances d[i] (powers of two) from an empty table, largest first
 * (ties in index order), writing their new masks; always succeeds when the entries sum to
 * at most 64 (returns 0), else -1. */
int cesy_repack(const int *d, int n, uint64_t *mask);

#endif

/* arbtab.h: the high-priority VL arbitration table as seed 001 manages it: 64 entries, each
 * free or taken, held as a 64-bit mask (bit e = entry e, numbered 0..63; the paper's figures
 * number them 1..64). A sequence is the set of entries one VL holds for one group of
 * connections, also a mask. This file owns the cyclic measures both placement methods use
 * (runs of taken and free entries, the largest gap between consecutive entries of a set) and
 * how a request's needs become table terms: bandwidth to weight, per-hop deadline to maximum
 * distance (seed 001 section 3.3-3.4; the formulas are digest 001's defaults, gaps 1-2). */
#ifndef IBN_QOS_ARBTAB_H
#define IBN_QOS_ARBTAB_H

#include <stdint.h>

#include "core/simtime.h"

#define ARBTAB_N 64
#define ARBTAB_WMAX 255
/* Weight units of the whole table at full weight (64 x 255): equal to the link's rate. */
#define ARBTAB_FULL (ARBTAB_N * ARBTAB_WMAX)

static inline int arbtab_count(uint64_t m) { return __builtin_popcountll(m); }
static inline uint64_t arbtab_bit(int e) { return 1ull << (e & 63); }

/* Longest cyclic run of entries set in m (64 when m is full, 0 when empty). */
int arbtab_longest_run(uint64_t m);
/* Shortest cyclic run of entries clear in m (64 when m is empty; 64 also when m is full,
 * "no free run" being no constraint). */
int arbtab_shortest_free_run(uint64_t m);
/* Largest cyclic distance between consecutive entries of m (64 for one entry, 0 for none):
 * a VL holding these entries waits for at most that many minus one other entries. */
int arbtab_max_gap(uint64_t m);
/* Ceiling of 64/d: the fewest entries that keep a VL's entries at most d apart (d >= 1). */
static inline int arbtab_entries_for(int d) { return (ARBTAB_N + d - 1) / d; }

/* Bandwidth (bit/s) as real-valued weight units on a link of rate c (bit/s): the whole table
 * at full weight is the link, W = B * 16320 / C (digest 001 gap 1). */
static inline double arbtab_weight_units(double bw, double c) { return bw * ARBTAB_FULL / c; }

/* The per-hop delay bound of a VL whose entries are at most d apart (digest 001 section
 * 3.11, extended to the multiplexed crossbar; docs/qos.md "The hop bound"):
 * G(d) = ((d-1)(254*64 + MTU) + MTU)/C is the longest gap between two service turns of the VL;
 * the packet needs q + 1 turns (q same-VL packets ahead: VL buffer in packets minus one) and
 * may lose k more, one to each read of another packet by its input's crossbar read port that
 * is under way when a turn comes (k = 0 with a read port per output and at adapters):
 * T_hop = (q + 1 + k) G(d) + MTU/C. c is in bit/s, mtu in bytes. */
simtime_t arbtab_hop_bound(int d, uint32_t mtu, double c, int q, int k);
/* The largest distance 2..64 whose hop bound fits `budget`, or 0 when even d = 2 does not. */
int arbtab_distance_for(simtime_t budget, uint32_t mtu, double c, int q, int k);
/* Turns a packet can lose at a switch output to its input's read ports (the k above): with
 * `read_ports` read ports per input (0 or >= nports: one per output, no contention) and an
 * input holding at most `in_pkts` packets over all its VLs, every other packet there can be
 * read while a turn comes, read_ports of them at once: floor((in_pkts - 1) / read_ports). */
int arbtab_xbar_turns(int read_ports, int nports, int in_pkts);

#endif

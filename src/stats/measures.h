/* measures.h: the seed works' derived performance measures: Jain's fairness index, seed 002
 * Paper III's treatment variation (digest 002a section 5.6), seed 001's packet jitter relative
 * to the connection's interarrival time (digest 001 sections 5.4 and 6 item 21), deadline
 * missing probability and time (DMP, DMT) and seed 003/004's video deadline rule (digest 003
 * section 2.8). Plain accumulators: no allocation, no global state. Definitions are in
 * docs/traffic.md. */
#ifndef IBN_MEASURES_H
#define IBN_MEASURES_H

#include <stddef.h>
#include <stdint.h>

#include "core/simtime.h"

/* Jain's fairness index (sum x)^2 / (n sum x^2) of n >= 1 non-negative values: 1 when all are
 * equal, 1/n when one value holds everything. All zeros count as equal (1). */
double jain_index(const double *x, size_t n);

/* Treatment variation (Paper III): at each sample time where all contributors are active,
 * delta = max_i x_i - min_i x_i over the contributors' throughputs; Var is the population
 * variance (1/K) sum (delta_k - mean delta)^2 of the K deltas. */
struct tv_acc {
    uint64_t k;          /* sample times counted */
    double mean, m2;     /* running mean and sum of squared deviations of delta */
};
void tv_init(struct tv_acc *a);
/* One sample time: throughputs of the n contributors and whether each is active (NULL = all
 * active). The time counts only if all are active; returns 1 if it counted. */
int tv_add(struct tv_acc *a, const double *x, const unsigned char *active, size_t n);
double tv_value(const struct tv_acc *a); /* 0 with fewer than one sample */
double tv_mean_delta(const struct tv_acc *a);
/* The same over a K x n row-major matrix x[k*n + i] (active likewise, or NULL). */
double treatment_variation(const double *x, const unsigned char *active, size_t n, size_t K);

/* Jitter of one constant-rate connection (seed 001): for packet k >= 2 the sample is
 * (a_k - a_{k-1}) - IAT, with a_k the arrival times at the destination. Samples fall into the
 * digest's nine IAT-relative bins:
 *   0 (-inf, -IAT)   1 [-IAT, -IAT/2)   2 [-IAT/2, -IAT/4)   3 [-IAT/4, -IAT/8)
 *   4 [-IAT/8, +IAT/8]   5 (IAT/8, IAT/4]   6 (IAT/4, IAT/2]   7 (IAT/2, IAT]   8 (IAT, inf)
 * and, separately, the share of samples with |sample| <= IAT/k for a configured k. */
#define JITTER_BINS 9
struct jitter {
    simtime_t iat;       /* the connection's source interarrival time */
    int k;               /* central interval half-width IAT/k */
    int have_last;
    simtime_t last;      /* previous arrival */
    uint64_t n;          /* samples */
    uint64_t within;     /* samples with |sample| <= IAT/k */
    uint64_t bins[JITTER_BINS];
};
void jitter_init(struct jitter *j, simtime_t iat, int k);
void jitter_add(struct jitter *j, simtime_t arrival);
double jitter_share_within(const struct jitter *j); /* within / n; 0 without samples */
double jitter_bin_share(const struct jitter *j, int bin);
/* Bin of one sample (exposed for tests and for per-SL aggregation). */
int jitter_bin(simtime_t sample, simtime_t iat);
/* Add the counts of one connection to an aggregate (e.g. per SL, digest 001 Fig. 8). The
 * aggregate's iat is not used; its k should match. */
void jitter_merge(struct jitter *into, const struct jitter *from);

/* Deadline missing probability and time: DMP = frames that missed / frames delivered; DMT =
 * mean of (arrival - deadline) over the frames that missed. A frame arriving exactly at its
 * deadline meets it. */
struct deadline_acc {
    uint64_t frames, missed;
    double miss_ps;      /* sum of (arrival - deadline) over misses, picoseconds */
};
void deadline_init(struct deadline_acc *a);
/* Count one delivered frame; returns 1 if it missed. */
int deadline_add(struct deadline_acc *a, simtime_t arrival, simtime_t deadline);
double deadline_dmp(const struct deadline_acc *a);     /* 0 without frames */
void deadline_merge(struct deadline_acc *into, const struct deadline_acc *from);
simtime_t deadline_dmt(const struct deadline_acc *a);  /* mean lateness, 0 without misses */

/* Video deadline rule (seeds 003 and 004): deadline[0] = first frame's generation + first
 * (digest 003 gap 16; the fabric calls vdl_init when the flow draws its first frame, after
 * its random phase); first is the flow's `deadline` key, the papers' one period when unset;
 * deadline[k] = deadline[k-1] + period if frame k-1 met its deadline, arrival[k-1] + period
 * if it missed. The papers' period is 33.3 ms (VIDEO_DEADLINE_PERIOD). */
#define VIDEO_DEADLINE_PERIOD ((simtime_t)33300 * PS_PER_US)
struct video_deadline {
    simtime_t period;
    simtime_t next;      /* deadline of the next frame */
    uint64_t frame;      /* frames seen */
};
void vdl_init(struct video_deadline *v, simtime_t start, simtime_t period, simtime_t first);
/* The arrival (delivery of the last byte) of the next frame: checks it against the current
 * deadline, counts it in `acc` if given, and advances the deadline. Returns 1 on a miss. */
int vdl_frame(struct video_deadline *v, simtime_t arrival, struct deadline_acc *acc);

#endif

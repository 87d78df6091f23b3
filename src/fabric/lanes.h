/* lanes.h: seed 000's VL-buffer threshold schemes in the packet simulator (Entry Threshold and
 * Arrival Job Threshold, digest 000 sections 2.6-2.7, docs/analytic.md section 11): a flow whose
 * source queue grows past a threshold borrows a further lane and is then served at that
 * regime's rate. A flow's `lanes` key lists the regimes as "SHARE[,T:SHARE...]": the flow's
 * packets leave its adapter at SHARE x the link's data rate while it holds n messages at its
 * source (waiting plus the one being sent) with n <= the next threshold T, e.g. "0.5,8:1" (ET:
 * half the link up to 8 messages, the whole link with the borrowed lane above 8) or
 * "0.5,8:1,16:0.75" (AJT with three lanes, the thesis's mu = 8, 16, 12 on a link of 16). */
#ifndef IBN_LANES_H
#define IBN_LANES_H

#include <stddef.h>
#include <stdint.h>

#define LANES_MAX 8

struct lanes {
    int n;                          /* regimes, 1..LANES_MAX */
    uint32_t above[LANES_MAX - 1];  /* regime k + 1 applies when the count exceeds above[k] */
    double share[LANES_MAX];        /* share of the link's data rate, 0 < share <= 1 */
};

/* Parse "SHARE[,T:SHARE...]" (thresholds strictly increasing, at least 1). On error returns -1
 * and says why in `why`. */
int lanes_parse(const char *text, struct lanes *l, char *why, size_t len);

/* The share of the link while the flow holds `count` messages at its source. */
static inline double lanes_share(const struct lanes *l, uint32_t count)
{
    int k = 0;
    while (k + 1 < l->n && count > l->above[k])
        k++;
    return l->share[k];
}

#endif

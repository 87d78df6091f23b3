/* spread.h: the unfairness among contributors that seed 002 Paper V's Fig. 9 shows (the
 * parking-lot problem): the largest share over the smallest. Honest at the edges: a contributor
 * that got nothing while another got something is an infinite spread, not a large number; no
 * share at all is NaN (nothing to compare). */
#ifndef IBN_SPREAD_H
#define IBN_SPREAD_H

#include <stddef.h>

/* max(v) / min(v) over v[0..n-1] (shares >= 0): INFINITY when the smallest is 0 and the largest
 * is not, NaN when n is 0, when every share is 0 or when one is NaN or negative. */
double spread_max_min(const double *v, size_t n);

#endif

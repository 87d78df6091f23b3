/* spread.c: the largest-over-smallest share of contributors (spread.h). */
#include "stats/spread.h"

#include <math.h>

double spread_max_min(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] >= 0))
            return NAN; /* NaN or negative: not a share */
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    if (hi == 0)
        return NAN;
    return lo > 0 ? hi / lo : INFINITY;
}

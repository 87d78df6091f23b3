/* gain.c: the average gain of one technique over another from two throughput series (gain.h). */
#include "stats/gain.h"

#include <math.h>

int gain_compute(const double *t, const double *a, const double *b, size_t n, double from, double to,
                 struct gain *g)
{
    double sr = 0, sa = 0, sb = 0;
    size_t used = 0;
    g->samples = g->skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < from || t[i] > to)
            continue;
        g->samples++;
        sa += a[i];
        sb += b[i];
        if (b[i] > 0) {
            sr += a[i] / b[i] - 1.0;
            used++;
        } else {
            g->skipped++;
        }
    }
    g->mean_of_ratios = used ? sr / (double)used : NAN;
    g->ratio_of_means = sb > 0 ? sa / sb - 1.0 : NAN;
    return used ? 0 : -1;
}

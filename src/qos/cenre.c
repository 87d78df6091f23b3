/* cenre.c: CENRE placement (see cenre.h for the reconstruction's choices). */
#include "qos/cenre.h"

#include "qos/arbtab.h"

int cenre_spacing(int d)
{
    int n = arbtab_entries_for(d);
    return (64 + n - 1) / n;
}

static inline int taken_at(uint64_t t, int e) { return (int)((t >> (e & 63)) & 1); }

/* Lay out from free entry `first`; 0 and the mask on success, -1 when a gap cannot be kept. */
static int find_entries(uint64_t taken, int first, int d, int s, uint64_t *mask)
{
    uint64_t m = arbtab_bit(first);
    int cur = first, end = first + 64; /* positions unwrapped; the first entry again at `end` */
    while (end - cur > d) {
        int next = -1;
        for (int e = cur + s; e > cur; e--) /* the target, then step back */
            if (e < end && !taken_at(taken, e)) {
                next = e;
                break;
            }
        if (next < 0) /* all taken: step forward, never beyond the allowed gap */
            for (int e = cur + s + 1; e <= cur + d && e < end; e++)
                if (!taken_at(taken, e)) {
                    next = e;
                    break;
                }
        if (next < 0)
            return -1;
        m |= arbtab_bit(next);
        cur = next;
    }
    *mask = m;
    return 0;
}

int cenre_place(uint64_t taken, int d, uint64_t *mask)
{
    if (d < 2 || d > 64)
        return -1;
    int n = arbtab_entries_for(d), s = cenre_spacing(d);
    if (n > 64 - arbtab_count(taken) || arbtab_longest_run(taken) >= d)
        return -1;
    int best_run = 65, best_free = -1, best_n = 65;
    uint64_t best = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t m;
        if (taken_at(taken, i) || find_entries(taken, i, d, s, &m))
            continue;
        uint64_t t = taken | m;
        int run = arbtab_longest_run(t), fr = arbtab_shortest_free_run(t), k = arbtab_count(m);
        if (run < best_run || (run == best_run && fr > best_free) ||
            (run == best_run && fr == best_free && k < best_n)) {
            best_run = run, best_free = fr, best_n = k, best = m;
        }
    }
    if (!best)
        return -1;
    *mask = best;
    return best_n;
}

/* hostdraw.c: hosts drawn at random for a scenario's flows (hostdraw.h; docs/isolation.md,
 * "Hot sources and hot spots drawn at random").
 *
 * The draw: every host in a random order (a shuffle from the stream "draw" of the run's seed,
 * so the same seed gives the same hosts whatever the switch design or congestion control, and
 * another seed other hosts); the first `sources` are the hot sources, the j-th of them in
 * subset j mod `spots` (so the subsets differ in size by one at most, and which hosts share a
 * subset is random too); the next `spots` hosts are the hot spots, the k-th that of subset k.
 * A hot spot is never a hot source: a hot source of its own subset would have to send to
 * itself. */
#include "fabric/hostdraw.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

#define OFF(field) offsetof(struct fabric_settings, draw.field)

const struct param draw_params[] = {
    { "sources", P_INT, OFF(sources), "0",
      "hot sources drawn at random from the run's seed (stream \"draw\"), named in flows as "
      "draw:hot (all), draw:hotK (subset K = 1..spots: the j-th drawn source is in subset j mod "
      "spots) and draw:cold (every other host, hot spots included); 0 = no draw (seed 002 Paper "
      "VI's patterns: 25 % of the hosts)", NULL, 0, 1 << 20 },
    { "spots", P_INT, OFF(spots), "0",
      "hot spots drawn at random among the hosts that are not hot sources, one per subset, named "
      "draw:spotK (K = 1..spots); needed when sources > 0", NULL, 0, 1 << 20 },
    PARAM_END
};

int hostdraw_is(const char *spec)
{
    return !strncmp(spec, "draw:", 5);
}

int hostdraw_init(struct fabric *f, struct ibn_err *e)
{
    const struct draw_settings *d = &f->set.draw;
    int n = f->nhosts;
    if (!d->sources && !d->spots)
        return 0;
    if (d->sources > 0 && d->spots < 1)
        return ibn_err_set(e, "draw.sources = %lld needs draw.spots >= 1 (the hot spots the sources "
                           "are split over)", d->sources);
    if (d->sources + d->spots > n)
        return ibn_err_set(e, "draw.sources + draw.spots = %lld + %lld, more than the %d hosts",
                           d->sources, d->spots, n);
    int *order = xmalloc(((size_t)n + 1) * sizeof *order);
    for (int i = 0; i < n; i++)
        order[i] = i;
    gsl_rng *r = rng_stream(f->seed, "draw");
    gsl_ran_shuffle(r, order, (size_t)n, sizeof *order);
    gsl_rng_free(r);
    f->draw_sub = xmalloc(((size_t)n + 1) * sizeof *f->draw_sub);
    f->draw_spot = xmalloc(((size_t)d->spots + 1) * sizeof *f->draw_spot);
    for (int i = 0; i < n; i++)
        f->draw_sub[i] = -1;
    for (long long j = 0; j < d->sources; j++)
        f->draw_sub[order[j]] = (int)(j % d->spots);
    for (long long k = 0; k < d->spots; k++)
        f->draw_spot[k] = order[d->sources + k];
    free(order);
    return 0;
}

int hostdraw_hosts(const struct fabric *f, const char *spec, int **out, int *single, struct ibn_err *e)
{
    *single = -1;
    *out = NULL;
    if (!f->draw_sub)
        return ibn_err_set(e, "\"%s\" names drawn hosts, but the scenario draws none (set "
                           "draw.sources and draw.spots)", spec);
    const char *w = spec + 5;
    long long spots = f->set.draw.spots;
    int kind; /* 0 hot (all), 1 hot subset, 2 cold, 3 spot */
    long long k = -1;
    char *end;
    if (!strcmp(w, "hot")) {
        kind = 0;
    } else if (!strcmp(w, "cold")) {
        kind = 2;
    } else if ((!strncmp(w, "hot", 3) || !strncmp(w, "spot", 4))) {
        kind = w[0] == 'h' ? 1 : 3;
        const char *num = w + (kind == 1 ? 3 : 4);
        k = strtoll(num, &end, 10);
        if (end == num || *end || k < 1 || k > spots)
            return ibn_err_set(e, "\"%s\": the subset after %s must be 1..%lld (draw.spots)", spec,
                               kind == 1 ? "hot" : "spot", spots);
    } else {
        return ibn_err_set(e, "\"%s\" is not a drawn host set (expected draw:hot, draw:hotK, "
                           "draw:cold or draw:spotK)", spec);
    }
    int *o = xmalloc(((size_t)f->nhosts + 1) * sizeof *o), n = 0;
    if (kind == 3) {
        o[n++] = *single = f->draw_spot[k - 1];
    } else {
        for (int h = 0; h < f->nhosts; h++) {
            int s = f->draw_sub[h];
            if ((kind == 0 && s >= 0) || (kind == 1 && s == k - 1) || (kind == 2 && s < 0))
                o[n++] = h;
        }
    }
    if (!n) {
        free(o);
        return ibn_err_set(e, "\"%s\" names no host (draw.sources = %lld, draw.spots = %lld)", spec,
                           f->set.draw.sources, spots);
    }
    *out = o;
    return n;
}

void hostdraw_free(struct fabric *f)
{
    free(f->draw_sub);
    free(f->draw_spot);
    f->draw_sub = f->draw_spot = NULL;
}

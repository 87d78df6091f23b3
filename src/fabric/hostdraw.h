/* hostdraw.h: hosts drawn at random from the run's seed for a scenario's flows (the `draw`
 * section): seed 002 Paper VI's synthetic patterns (Table 2) draw their hot sources and hot
 * spots at random; flows name the drawn hosts draw:hot, draw:hotK, draw:cold and draw:spotK. */
#ifndef IBN_HOSTDRAW_H
#define IBN_HOSTDRAW_H

#include "core/error.h"
#include "core/params.h"
#include "fabric/fabric.h"

extern const struct param draw_params[];

/* Draw the hosts of f->set.draw (nothing when draw.sources and draw.spots are 0) from the
 * stream "draw" of the run's seed: f->draw_sub and f->draw_spot. */
int hostdraw_init(struct fabric *f, struct ibn_err *e);

/* Whether a host spec names drawn hosts ("draw:..."). */
int hostdraw_is(const char *spec);

/* The hosts a "draw:..." spec names, in host order, in *out (freed by the caller): "draw:hot"
 * (every hot source), "draw:hotK" (the hot sources of subset K, K = 1..spots), "draw:cold"
 * (every host that is not a hot source, the hot spots included) or "draw:spotK" (the hot spot
 * of subset K; *single is then that host, else -1). The count, or -1 with e set. */
int hostdraw_hosts(const struct fabric *f, const char *spec, int **out, int *single, struct ibn_err *e);

void hostdraw_free(struct fabric *f);

#endif

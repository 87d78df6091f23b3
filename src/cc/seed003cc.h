/* seed003cc.h: seed 003's comparison schemes (alo.c, selftuned.c): their plug-ins and the rules
 * that define them, exposed for the unit tests. */
#ifndef IBN_SEED003CC_H
#define IBN_SEED003CC_H

#include <stdint.h>

#include "core/params.h"
#include "fabric/fabric.h"

extern const struct cc_plugin alo_plugin, selftuned_plugin;
extern const struct param alo_params[], selftuned_params[];

/* ALO: may the adapter port `src` inject a packet for host dst_host now? */
int alo_allows(struct fabric *f, const struct port *src, int dst_host);

/* Self-Tuned's hill climbing on the threshold. */
struct st_tuner {
    double threshold;   /* T, in buffers */
    double step;        /* additive increase, buffers */
    double decrease;    /* multiplicative decrease */
    double drop;        /* relative fall of throughput that counts as a drop */
    double prev;        /* the previous tuning period's delivered payload */
    int have_prev;
};
/* One tuning period ended with `delivered` payload, the sources throttled in it or not: the
 * new threshold. */
double st_tune(struct st_tuner *t, double delivered, int throttled);
/* Full buffers now: switch input buffers (per data VL) with less than full_credits free, and
 * flows whose source queue is full. */
int st_count_full(struct fabric *f, int32_t full_credits);

#endif

/* video.h: internals shared by arrival.c and video.c: the synthetic MPEG-2 group-of-pictures
 * source and the periodic (frame-clock) spacing used by constant, video and trace sources. */
#ifndef IBN_VIDEO_H
#define IBN_VIDEO_H

#include "traffic/arrival.h"

/* Validate the GOP and frame-size settings of a video source and derive its state. */
int video_setup(struct arrival *a, struct ibn_err *e);
/* Next frame: gap, bytes, frame type and deadline. */
void video_next(struct arrival *a, gsl_rng *r, struct msg_draw *out);
/* Mean frame size over one GOP, from the per-type means (bytes). */
double video_mean_frame_bytes(const struct arrival_desc *d);
/* Gap to message a->index of a periodic source (message k at phase + round(k x period)). */
simtime_t arrival_periodic_gap(struct arrival *a, gsl_rng *r);

#endif

/* video.c: synthetic MPEG-2 video source (seeds 003 and 004): one message per frame at a fixed
 * frame rate, frame types following a group of pictures such as IBBPBBPBBPBB, and frame sizes
 * drawn per type (lognormal, gamma or fixed) with a configured mean and spread. */
#include "traffic/video.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>

static int type_index(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'I':
        return 0;
    case 'P':
        return 1;
    case 'B':
        return 2;
    default:
        return -1;
    }
}

static double type_mean(const struct arrival_desc *d, int t)
{
    return (double)(t == 0 ? d->i_bytes : t == 1 ? d->p_bytes : d->b_bytes);
}

double video_mean_frame_bytes(const struct arrival_desc *d)
{
    if (!d->gop || !*d->gop)
        return NAN;
    double s = 0;
    size_t n = strlen(d->gop);
    for (size_t i = 0; i < n; i++) {
        int t = type_index(d->gop[i]);
        if (t < 0)
            return NAN;
        s += type_mean(d, t);
    }
    return s / (double)n;
}

int video_setup(struct arrival *a, struct ibn_err *e)
{
    const struct arrival_desc *d = &a->d;
    if (!d->gop || !*d->gop)
        return ibn_err_set(e, "video arrivals need a gop such as \"IBBPBBPBBPBB\"");
    size_t n = strlen(d->gop);
    for (size_t i = 0; i < n; i++)
        if (type_index(d->gop[i]) < 0)
            return ibn_err_set(e, "gop \"%s\": '%c' is not a frame type (expected I, P or B)",
                               d->gop, d->gop[i]);
    if (n > 100000)
        return ibn_err_set(e, "gop is longer than 100000 frames");
    if (!(d->fps > 0))
        return ibn_err_set(e, "video arrivals need fps > 0");
    if (!(d->frame_cv >= 0))
        return ibn_err_set(e, "frame_cv must not be negative");
    for (int t = 0; t < 3; t++) {
        double m = type_mean(d, t);
        if (m < 1 || m > 4294967295.0)
            return ibn_err_set(e, "video frame sizes must be between 1 B and 2^32-1 B");
        double cv = d->frame_cv;
        if (d->frame_dist == FRAME_LOGNORMAL && cv > 0) {
            double s2 = log1p(cv * cv);
            a->frame_a[t] = log(m) - s2 / 2; /* zeta */
            a->frame_b[t] = sqrt(s2);        /* sigma */
        } else if (d->frame_dist == FRAME_GAMMA && cv > 0) {
            a->frame_a[t] = 1.0 / (cv * cv); /* shape */
            a->frame_b[t] = m * cv * cv;     /* scale */
        } else {
            a->frame_a[t] = m;
            a->frame_b[t] = 0;
        }
    }
    a->gop_len = (int)n;
    a->period_ps = (double)PS_PER_S / d->fps;
    return 0;
}

static uint32_t frame_bytes(const struct arrival *a, int t, gsl_rng *r)
{
    double v;
    if (a->frame_b[t] == 0)
        v = a->frame_a[t];
    else if (a->d.frame_dist == FRAME_LOGNORMAL)
        v = gsl_ran_lognormal(r, a->frame_a[t], a->frame_b[t]);
    else
        v = gsl_ran_gamma(r, a->frame_a[t], a->frame_b[t]);
    v = round(v);
    if (v < 1)
        v = 1;
    if (v > 4294967295.0)
        v = 4294967295.0;
    return (uint32_t)v;
}

void video_next(struct arrival *a, gsl_rng *r, struct msg_draw *out)
{
    if (a->index == 0 && a->d.random_phase)
        a->gop_pos = (int)gsl_rng_uniform_int(r, (unsigned long)a->gop_len);
    out->gap = arrival_periodic_gap(a, r);
    char c = a->d.gop[a->gop_pos];
    int t = type_index(c);
    out->frame_type = (uint8_t)"IPB"[t];
    out->bytes = frame_bytes(a, t, r);
    out->deadline = a->d.deadline ? a->d.deadline : (simtime_t)llround(a->period_ps);
    a->gop_pos = a->gop_pos + 1 == a->gop_len ? 0 : a->gop_pos + 1;
}

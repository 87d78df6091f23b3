/* arrival.c: the message arrival processes (saturate, constant, Poisson, Bernoulli, ON/OFF,
 * GE), their message-size laws, the parameter table of struct arrival_desc, and the dispatch
 * to the frame-based processes (video.c, trace). */
#include "traffic/arrival.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "traffic/video.h"

const char *const arrival_kind_names[] = { "saturate", "constant", "poisson", "bernoulli",
                                           "onoff",    "ge",       "video",   "trace", NULL };
static const char *const size_dist_names[] = { "fixed", "uniform", "exponential", "lognormal",
                                               "ge",    NULL };
static const char *const onoff_dist_names[] = { "exponential", "pareto", NULL };
static const char *const spacing_names[] = { "constant", "poisson", NULL };
static const char *const ge_form_names[] = { "interarrival", "batch", NULL };
static const char *const frame_dist_names[] = { "lognormal", "gamma", "fixed", NULL };

#define OFF(f) offsetof(struct arrival_desc, f)

const struct param arrival_params[] = {
    { "kind", P_ENUM, OFF(kind), "poisson",
      "arrival process: saturate (always a message ready), constant (CBR), poisson, bernoulli "
      "(per slot), onoff, ge (generalized exponential), video (synthetic MPEG-2 GOP), trace "
      "(frame sizes from a file)", arrival_kind_names, 0, 0 },
    { "rate", P_RATE, OFF(rate_bps), "1 Gb/s",
      "mean offered payload rate; the message rate is rate / (8 x mean message size) "
      "(not used by saturate, video, trace)", NULL, 0, 0 },
    { "msg_size", P_SIZE, OFF(msg_bytes), "4096 B",
      "message payload size, or its mean when size_dist is not fixed", NULL, 1, 4294967295.0 },
    { "size_dist", P_ENUM, OFF(size_dist), "fixed",
      "message size law: fixed; uniform on [size_min, 2 msg_size - size_min]; exponential "
      "(geometric on 1, 2, ... with mean msg_size); lognormal (mean msg_size, CV size_cv); ge "
      "(generalized exponential: 0 bytes with probability 1 - tau, else geometric with mean "
      "msg_size / tau, tau = 2/(1 + size_scv))",
      size_dist_names, 0, 0 },
    { "size_min", P_SIZE, OFF(size_min), "1 B", "uniform sizes: smallest size", NULL, 0, 4294967295.0 },
    { "size_max", P_SIZE, OFF(size_max), "0 B",
      "largest message size; larger draws are cut to it (0 = no cap below 2^32-1 bytes)", NULL,
      0, 4294967295.0 },
    { "size_cv", P_DOUBLE, OFF(size_cv), "1.0",
      "lognormal sizes: coefficient of variation (standard deviation / mean)", NULL, 0, 100 },
    { "size_scv", P_DOUBLE, OFF(size_scv), "5.0",
      "ge sizes: squared coefficient of variation (>= 1); tau = 2/(1 + size_scv) is the "
      "probability of a non-empty message", NULL, 1, 1e6 },
    { "random_phase", P_BOOL, OFF(random_phase), "true",
      "constant, video, trace: the first message comes after a uniform offset in [0, period) "
      "(and video starts at a uniform position in the GOP); false: at once, GOP from its start",
      NULL, 0, 0 },
    { "deadline", P_TIME, OFF(deadline), "0 s",
      "relative deadline given to every message (0 = none); for video and trace the first "
      "frame's slack in seed 003's rule, later frames one period apart (0 = one frame period, "
      "1/fps)", NULL, 0, 0 },
    { "onoff_dist", P_ENUM, OFF(onoff_dist), "exponential",
      "onoff: law of ON and OFF period lengths (exponential or pareto)", onoff_dist_names, 0, 0 },
    { "on_mean", P_TIME, OFF(on_mean), "10 ms", "onoff: mean ON period", NULL, 0, 0 },
    { "off_mean", P_TIME, OFF(off_mean), "10 ms", "onoff: mean OFF period", NULL, 0, 0 },
    { "pareto_shape", P_DOUBLE, OFF(pareto_shape), "1.5",
      "onoff with pareto periods: shape alpha (> 1; the scale follows from the mean)", NULL,
      1.000001, 1000 },
    { "onoff_spacing", P_ENUM, OFF(onoff_spacing), "constant",
      "onoff: spacing of messages while ON: constant (\"evenly scattered\", seed 003) or "
      "poisson; the ON rate is rate x (on_mean + off_mean) / on_mean", spacing_names, 0, 0 },
    { "ge_scv", P_DOUBLE, OFF(ge_scv), "5.0",
      "ge: squared coefficient of variation of interarrival times (>= 1); tau = 2/(1 + scv)",
      NULL, 1, 1e6 },
    { "ge_form", P_ENUM, OFF(ge_form), "interarrival",
      "ge: interarrival (each gap 0 with probability 1 - tau, else exponential with rate "
      "tau x lambda) or batch (batches at Poisson rate tau x lambda, geometric sizes with "
      "mean 1/tau)", ge_form_names, 0, 0 },
    { "ge_batch_gap", P_TIME, OFF(ge_batch_gap), "0 s",
      "ge: time between consecutive messages of a batch (the zero gaps of the interarrival "
      "form), e.g. the host's posting interval; the exponential gaps are shortened so that "
      "the message rate stays rate / (8 x msg_size)", NULL, 0, 0 },
    { "slot", P_TIME, OFF(slot), "1 us",
      "bernoulli: slot length; a message ends a slot with probability rate x slot / (8 x mean "
      "size), which must be at most 1", NULL, 0, 0 },
    { "gop", P_STRING, OFF(gop), "IBBPBBPBBPBB",
      "video: group of pictures, a sequence of the frame types I, P and B", NULL, 0, 0 },
    { "fps", P_DOUBLE, OFF(fps), "30", "video, trace: frames per second", NULL, 0.001, 1e6 },
    { "i_size", P_SIZE, OFF(i_bytes), "60000 B", "video: mean I-frame size", NULL, 1,
      4294967295.0 },
    { "p_size", P_SIZE, OFF(p_bytes), "30000 B", "video: mean P-frame size", NULL, 1,
      4294967295.0 },
    { "b_size", P_SIZE, OFF(b_bytes), "12000 B", "video: mean B-frame size", NULL, 1,
      4294967295.0 },
    { "frame_cv", P_DOUBLE, OFF(frame_cv), "0.2",
      "video: coefficient of variation of frame sizes within a type", NULL, 0, 100 },
    { "frame_dist", P_ENUM, OFF(frame_dist), "lognormal",
      "video: law of frame sizes within a type (lognormal, gamma, fixed)", frame_dist_names, 0,
      0 },
    { "trace_file", P_STRING, OFF(trace_file), "",
      "trace: file of frame sizes, one per line (\"SIZE\", \"TYPE SIZE\" or \"SIZE TYPE\", TYPE "
      "one of I P B), '#' comments", NULL, 0, 0 },
    PARAM_END
};

#define SIZE_LIMIT 4294967295.0

double arrival_mean_msg_bytes(const struct arrival_desc *d)
{
    return (double)d->msg_bytes;
}

static double mean_frame_bytes_trace(const char *path)
{
    uint32_t *b;
    uint8_t *t;
    size_t n;
    struct ibn_err e;
    if (!path || trace_read(path, &b, &t, &n, &e))
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i];
    free(b);
    free(t);
    return s / (double)n;
}

double arrival_mean_rate_bps(const struct arrival_desc *d)
{
    switch (d->kind) {
    case ARRIVAL_SATURATE:
        return INFINITY;
    case ARRIVAL_VIDEO:
        return 8.0 * d->fps * video_mean_frame_bytes(d);
    case ARRIVAL_TRACE:
        return 8.0 * d->fps * mean_frame_bytes_trace(d->trace_file);
    default:
        return d->rate_bps;
    }
}

static int check_sizes(struct arrival *a, struct ibn_err *e)
{
    const struct arrival_desc *d = &a->d;
    if (d->msg_bytes < 1 || (double)d->msg_bytes > SIZE_LIMIT)
        return ibn_err_set(e, "msg_size must be between 1 B and 4294967295 B, got %llu B",
                           (unsigned long long)d->msg_bytes);
    if (d->size_max && d->size_max < d->msg_bytes && d->size_dist == SIZE_FIXED)
        return ibn_err_set(e, "size_max (%llu B) is below msg_size (%llu B)",
                           (unsigned long long)d->size_max, (unsigned long long)d->msg_bytes);
    switch (d->size_dist) {
    case SIZE_UNIFORM:
        if (d->size_min < 1 || d->size_min > d->msg_bytes)
            return ibn_err_set(e, "uniform sizes need 1 B <= size_min <= msg_size, got size_min "
                               "%llu B and msg_size %llu B", (unsigned long long)d->size_min,
                               (unsigned long long)d->msg_bytes);
        if ((double)(2 * d->msg_bytes - d->size_min) > SIZE_LIMIT)
            return ibn_err_set(e, "uniform sizes: 2 msg_size - size_min exceeds 2^32-1 bytes");
        break;
    case SIZE_GE:
        if (!(d->size_scv >= 1.0))
            return ibn_err_set(e, "ge sizes need size_scv >= 1 (the GE law has SCV >= 1), got %g",
                               d->size_scv);
        a->size_tau = 2.0 / (1.0 + d->size_scv);
        break;
    case SIZE_LOGNORMAL:
        if (!(d->size_cv > 0))
            return ibn_err_set(e, "lognormal sizes need size_cv > 0, got %g", d->size_cv);
        a->size_sigma = sqrt(log1p(d->size_cv * d->size_cv));
        a->size_mu = log((double)d->msg_bytes) - a->size_sigma * a->size_sigma / 2;
        break;
    default:
        break;
    }
    return 0;
}

static int need_rate(struct arrival *a, struct ibn_err *e)
{
    if (!(a->d.rate_bps > 0) || !isfinite(a->d.rate_bps))
        return ibn_err_set(e, "%s arrivals need a rate > 0", arrival_kind_names[a->d.kind]);
    a->msg_rate = a->d.rate_bps / (8.0 * arrival_mean_msg_bytes(&a->d));
    a->period_ps = (double)PS_PER_S / a->msg_rate;
    if (a->period_ps < 1.0)
        return ibn_err_set(e, "rate %g b/s with %g-byte messages gives more than one message per "
                           "picosecond", a->d.rate_bps, arrival_mean_msg_bytes(&a->d));
    /* Draws may be tens of times the mean: keep the mean far below the time horizon. */
    if (a->period_ps > (double)SIMTIME_HORIZON / 64)
        return ibn_err_set(e, "rate %g b/s with %g-byte messages gives one message every %.3g s on "
                           "average, beyond the %.3g s ibnetsim's time can hold for it", a->d.rate_bps,
                           arrival_mean_msg_bytes(&a->d), a->period_ps / (double)PS_PER_S,
                           (double)SIMTIME_HORIZON / 64 / (double)PS_PER_S);
    return 0;
}

int arrival_init(struct arrival *a, const struct arrival_desc *d, struct ibn_err *e)
{
    memset(a, 0, sizeof *a);
    a->d = *d;
    a->d.gop = d->gop ? xstrdup(d->gop) : NULL;
    a->d.trace_file = d->trace_file ? xstrdup(d->trace_file) : NULL;
    int rc = 0;
    if (d->kind < 0 || d->kind > ARRIVAL_TRACE) {
        rc = ibn_err_set(e, "unknown arrival kind %d", d->kind);
        goto out;
    }
    if (d->deadline < 0) {
        rc = ibn_err_set(e, "deadline must not be negative");
        goto out;
    }
    if (d->kind != ARRIVAL_VIDEO && d->kind != ARRIVAL_TRACE && (rc = check_sizes(a, e)))
        goto out;
    switch (d->kind) {
    case ARRIVAL_SATURATE:
        break;
    case ARRIVAL_CONSTANT:
    case ARRIVAL_POISSON:
        rc = need_rate(a, e);
        break;
    case ARRIVAL_BERNOULLI:
        if ((rc = need_rate(a, e)))
            break;
        if (d->slot <= 0) {
            rc = ibn_err_set(e, "bernoulli arrivals need a slot > 0");
            break;
        }
        a->q = a->msg_rate * simtime_to_s(d->slot);
        if (a->q > 1.0)
            rc = ibn_err_set(e, "bernoulli arrivals: rate needs %.3f messages per slot, more than "
                             "one; use a shorter slot or a lower rate", a->q);
        break;
    case ARRIVAL_ONOFF:
        if ((rc = need_rate(a, e)))
            break;
        if (d->on_mean <= 0 || d->off_mean < 0) {
            rc = ibn_err_set(e, "onoff arrivals need on_mean > 0 and off_mean >= 0");
            break;
        }
        if (d->onoff_dist == ONOFF_PARETO && !(d->pareto_shape > 1)) {
            rc = ibn_err_set(e, "pareto periods need pareto_shape > 1 (finite mean), got %g",
                             d->pareto_shape);
            break;
        }
        a->peak_rate = a->msg_rate * (double)(d->on_mean + d->off_mean) / (double)d->on_mean;
        a->period_ps = (double)PS_PER_S / a->peak_rate;
        break;
    case ARRIVAL_GE:
        if ((rc = need_rate(a, e)))
            break;
        if (!(d->ge_scv >= 1.0)) {
            rc = ibn_err_set(e, "ge arrivals need ge_scv >= 1 (the GE law has SCV >= 1), got %g",
                             d->ge_scv);
            break;
        }
        a->tau = 2.0 / (1.0 + d->ge_scv);
        if (d->ge_batch_gap < 0) {
            rc = ibn_err_set(e, "ge_batch_gap must not be negative");
            break;
        }
        /* Mean gap: tau x (exponential mean) + (1 - tau) x batch gap = 1 / lambda. */
        a->ge_exp_ps = (a->period_ps - (1.0 - a->tau) * (double)d->ge_batch_gap) / a->tau;
        if (!(a->ge_exp_ps > 0))
            rc = ibn_err_set(e, "ge arrivals: ge_batch_gap (%g s) is too long for the message "
                             "rate (mean gap %g s, of which a fraction %g is batch gaps)",
                             simtime_to_s(d->ge_batch_gap), a->period_ps / (double)PS_PER_S,
                             1.0 - a->tau);
        break;
    case ARRIVAL_VIDEO:
        rc = video_setup(a, e);
        break;
    case ARRIVAL_TRACE:
        if (!(d->fps > 0)) {
            rc = ibn_err_set(e, "trace arrivals need fps > 0");
            break;
        }
        if (!d->trace_file || !*d->trace_file) {
            rc = ibn_err_set(e, "trace arrivals need a trace_file");
            break;
        }
        rc = trace_read(d->trace_file, &a->trace_bytes, &a->trace_type, &a->trace_len, e);
        a->period_ps = (double)PS_PER_S / d->fps;
        break;
    }
out:
    if (rc)
        arrival_free(a);
    return rc;
}

void arrival_free(struct arrival *a)
{
    free(a->d.gop);
    free(a->d.trace_file);
    free(a->trace_bytes);
    free(a->trace_type);
    a->d.gop = a->d.trace_file = NULL;
    a->trace_bytes = NULL;
    a->trace_type = NULL;
    a->trace_len = 0;
}

static uint32_t draw_size(const struct arrival *a, gsl_rng *r)
{
    const struct arrival_desc *d = &a->d;
    double v;
    switch (d->size_dist) {
    case SIZE_UNIFORM: {
        uint64_t lo = d->size_min, hi = 2 * d->msg_bytes - d->size_min;
        v = (double)(lo + gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1)));
        break;
    }
    case SIZE_EXPONENTIAL:
        v = (double)gsl_ran_geometric(r, 1.0 / (double)d->msg_bytes);
        break;
    case SIZE_GE: /* tau_s x (msg_bytes / tau_s) = msg_bytes on average */
        v = gsl_rng_uniform(r) < a->size_tau
                ? (double)gsl_ran_geometric(r, a->size_tau / (double)d->msg_bytes)
                : 0.0;
        break;
    case SIZE_LOGNORMAL:
        v = round(gsl_ran_lognormal(r, a->size_mu, a->size_sigma));
        if (v < 1)
            v = 1;
        break;
    default:
        v = (double)d->msg_bytes;
        break;
    }
    double cap = d->size_max ? (double)d->size_max : SIZE_LIMIT;
    if (v > cap)
        v = cap;
    return (uint32_t)v;
}

/* An exponential time, held below the time horizon (a draw there is as good as never). */
static simtime_t draw_time(double mean_ps, gsl_rng *r)
{
    double v = gsl_ran_exponential(r, mean_ps);
    return v < (double)SIMTIME_HORIZON ? (simtime_t)llround(v) : SIMTIME_HORIZON;
}

/* Periodic kinds: message k is at phase + round(k x period), so no error accumulates. */
simtime_t arrival_periodic_gap(struct arrival *a, gsl_rng *r)
{
    if (a->index == 0) {
        a->phase = a->d.random_phase ? (simtime_t)(gsl_rng_uniform(r) * a->period_ps) : 0;
        a->last = a->phase;
        return a->phase;
    }
    simtime_t t = a->phase + (simtime_t)llround((double)a->index * a->period_ps);
    simtime_t gap = t - a->last;
    a->last = t;
    return gap;
}

static simtime_t draw_period(const struct arrival *a, simtime_t mean, gsl_rng *r)
{
    double v;
    if (mean <= 0)
        return 0;
    if (a->d.onoff_dist == ONOFF_PARETO) {
        double alpha = a->d.pareto_shape;
        v = gsl_ran_pareto(r, alpha, (double)mean * (alpha - 1) / alpha);
    } else {
        v = gsl_ran_exponential(r, (double)mean);
    }
    if (v > 1e18) /* a Pareto tail: about 11.6 simulated days, far beyond any run */
        v = 1e18;
    return (simtime_t)llround(v);
}

/* ON/OFF: messages are spaced on a clock that runs only while ON, so the long-run rate is
 * exactly the ON rate times the ON fraction. */
static simtime_t onoff_gap(struct arrival *a, gsl_rng *r)
{
    double need_d;
    if (a->d.onoff_spacing == SPACING_POISSON) {
        need_d = gsl_ran_exponential(r, a->period_ps);
    } else {
        need_d = a->period_ps + a->spacing_carry;
    }
    simtime_t need = (simtime_t)llround(need_d);
    if (a->d.onoff_spacing == SPACING_CONSTANT)
        a->spacing_carry = need_d - (double)need;
    if (a->index == 0) {
        a->on_left = draw_period(a, a->d.on_mean, r);
        if (a->on_left < 1)
            a->on_left = 1;
    }
    simtime_t gap = 0;
    while (need > a->on_left) {
        gap += a->on_left;
        need -= a->on_left;
        gap += draw_period(a, a->d.off_mean, r);
        a->on_left = draw_period(a, a->d.on_mean, r);
        if (a->on_left < 1)
            a->on_left = 1;
    }
    gap += need;
    a->on_left -= need;
    return gap;
}

static simtime_t ge_gap(struct arrival *a, gsl_rng *r)
{
    if (a->d.ge_form == GE_BATCH) {
        if (a->batch_left > 0) {
            a->batch_left--;
            return a->d.ge_batch_gap;
        }
        a->batch_left = gsl_ran_geometric(r, a->tau) - 1;
        return draw_time(a->ge_exp_ps, r);
    }
    return gsl_ran_bernoulli(r, a->tau) ? draw_time(a->ge_exp_ps, r) : a->d.ge_batch_gap;
}

void arrival_next(struct arrival *a, gsl_rng *r, struct msg_draw *out)
{
    const struct arrival_desc *d = &a->d;
    out->deadline = d->deadline;
    out->frame_type = 0;
    switch (d->kind) {
    case ARRIVAL_SATURATE:
        out->gap = 0;
        break;
    case ARRIVAL_CONSTANT:
        out->gap = arrival_periodic_gap(a, r);
        break;
    case ARRIVAL_POISSON:
        out->gap = draw_time(a->period_ps, r);
        break;
    case ARRIVAL_BERNOULLI:
        out->gap = d->slot * (simtime_t)gsl_ran_geometric(r, a->q);
        break;
    case ARRIVAL_ONOFF:
        out->gap = onoff_gap(a, r);
        break;
    case ARRIVAL_GE:
        out->gap = ge_gap(a, r);
        break;
    case ARRIVAL_VIDEO:
        video_next(a, r, out);
        a->index++;
        return;
    case ARRIVAL_TRACE: {
        out->gap = arrival_periodic_gap(a, r);
        size_t i = a->trace_pos;
        out->bytes = a->trace_bytes[i];
        out->frame_type = a->trace_type[i];
        a->trace_pos = i + 1 == a->trace_len ? 0 : i + 1;
        if (!out->deadline)
            out->deadline = (simtime_t)llround(a->period_ps);
        a->index++;
        return;
    }
    }
    out->bytes = draw_size(a, r);
    a->index++;
}

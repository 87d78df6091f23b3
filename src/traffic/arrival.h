/* arrival.h: message arrival processes of a traffic source: when the next message is posted,
 * how many payload bytes it carries, its relative deadline and (for video) its frame type.
 * Settings live in a plain struct arrival_desc, described by the parameter table
 * arrival_params[] so that scenarios fill it through the common parser. One struct arrival per
 * source holds the running state; arrival_next() draws from the source's own random stream
 * and never allocates. Definitions of every process are in docs/traffic.md. */
#ifndef IBN_ARRIVAL_H
#define IBN_ARRIVAL_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "core/error.h"
#include "core/params.h"
#include "core/simtime.h"

enum arrival_kind {
    ARRIVAL_SATURATE,  /* always a message ready: gap 0 */
    ARRIVAL_CONSTANT,  /* constant message rate (CBR) */
    ARRIVAL_POISSON,   /* exponential gaps */
    ARRIVAL_BERNOULLI, /* one message per slot with probability q */
    ARRIVAL_ONOFF,     /* alternating ON/OFF periods, messages only while ON */
    ARRIVAL_GE,        /* generalized exponential (compound Poisson, geometric batches) */
    ARRIVAL_VIDEO,     /* synthetic MPEG-2 group of pictures, one message per frame */
    ARRIVAL_TRACE,     /* frame sizes read from a trace file, one message per frame */
};

enum size_dist {
    SIZE_FIXED,       /* msg_bytes */
    SIZE_UNIFORM,     /* whole numbers uniform on [size_min, 2*msg_bytes - size_min] */
    SIZE_EXPONENTIAL, /* geometric on 1, 2, ... with mean msg_bytes (discrete exponential) */
    SIZE_LOGNORMAL,   /* lognormal with mean msg_bytes and CV size_cv, rounded, at least 1 */
    SIZE_GE,          /* generalized exponential: 0 with probability 1 - tau_s, else geometric
                         on 1, 2, ... with mean msg_bytes / tau_s; tau_s = 2 / (1 + size_scv) */
};

enum onoff_dist { ONOFF_EXPONENTIAL, ONOFF_PARETO };
enum onoff_spacing { SPACING_CONSTANT, SPACING_POISSON };
enum ge_form { GE_INTERARRIVAL, GE_BATCH };
enum frame_dist { FRAME_LOGNORMAL, FRAME_GAMMA, FRAME_FIXED };

struct arrival_desc {
    int kind;            /* enum arrival_kind */
    double rate_bps;     /* mean offered payload rate (all but saturate/video/trace) */
    uint64_t msg_bytes;  /* message size (fixed), or mean for distributions */
    int size_dist;       /* enum size_dist */
    uint64_t size_min;   /* uniform: lower bound */
    uint64_t size_max;   /* cap on drawn sizes; 0 = none (sizes are at most 2^32-1) */
    double size_cv;      /* lognormal sizes: coefficient of variation */
    double size_scv;     /* ge sizes: squared coefficient of variation (>= 1) */
    int random_phase;    /* constant/video/trace: first message after a uniform offset in
                            [0, period) instead of at once */
    simtime_t deadline;  /* relative deadline of every message; 0 = none (video and trace:
                            0 means one frame period) */
    /* ON/OFF */
    int onoff_dist;      /* enum onoff_dist: period lengths */
    simtime_t on_mean;   /* mean ON period */
    simtime_t off_mean;  /* mean OFF period */
    double pareto_shape; /* Pareto periods: shape alpha (> 1) */
    int onoff_spacing;   /* enum onoff_spacing: message spacing while ON */
    /* GE */
    double ge_scv;       /* squared coefficient of variation of interarrival times (>= 1) */
    int ge_form;         /* enum ge_form */
    simtime_t ge_batch_gap; /* time between consecutive messages of a batch (0: same instant) */
    /* Bernoulli */
    simtime_t slot;      /* slot length */
    /* video and trace */
    char *gop;           /* group of pictures, e.g. "IBBPBBPBBPBB" */
    double fps;          /* frames per second */
    uint64_t i_bytes, p_bytes, b_bytes; /* mean frame sizes per type */
    double frame_cv;     /* coefficient of variation of frame sizes within a type */
    int frame_dist;      /* enum frame_dist */
    char *trace_file;    /* trace: path of the frame-size file */
};

extern const struct param arrival_params[];
extern const char *const arrival_kind_names[];

struct msg_draw {
    simtime_t gap;       /* time from the previous message (from the start for the first) */
    uint32_t bytes;      /* payload bytes */
    simtime_t deadline;  /* relative deadline, 0 = none */
    uint8_t frame_type;  /* 'I', 'P', 'B' for video frames, 0 otherwise */
};

struct arrival {
    struct arrival_desc d;   /* own copy (strings duplicated) */
    /* derived */
    double msg_rate;         /* messages per second (rate-driven kinds) */
    double period_ps;        /* constant spacing: 1e12 / msg_rate; video/trace: frame period */
    double size_mu, size_sigma;  /* lognormal message sizes */
    double tau;              /* GE: 2 / (1 + SCV) */
    double ge_exp_ps;        /* GE: mean of the exponential gaps, ps */
    double size_tau;         /* ge sizes: 2 / (1 + size_scv) */
    double q;                /* Bernoulli: probability of a message per slot */
    double peak_rate;        /* ON/OFF: message rate while ON */
    /* running state */
    uint64_t index;          /* messages (frames) drawn so far */
    simtime_t phase;         /* offset of the first message of periodic kinds */
    simtime_t last;          /* absolute time of the previous message of periodic kinds */
    uint64_t batch_left;     /* GE batch form: messages still to come at gap 0 */
    simtime_t on_left;       /* ON/OFF: ON time remaining in the current period */
    double spacing_carry;    /* ON/OFF constant spacing: sub-picosecond remainder */
    int gop_len;
    int gop_pos;             /* video: position of the next frame in the GOP */
    double frame_a[3], frame_b[3]; /* video: size-law parameters per type (I, P, B) */
    /* trace */
    uint32_t *trace_bytes;
    uint8_t *trace_type;
    size_t trace_len;
    size_t trace_pos;
};

int arrival_init(struct arrival *a, const struct arrival_desc *d, struct ibn_err *e);
void arrival_next(struct arrival *a, gsl_rng *r, struct msg_draw *out);
void arrival_free(struct arrival *a);
/* Mean offered payload rate in bits/s: INFINITY for saturate (limited only by the link), the
 * trace's mean for trace (NAN if the file cannot be read). */
double arrival_mean_rate_bps(const struct arrival_desc *d);
/* Mean payload bytes per message of the size distribution (not of video/trace frames). */
double arrival_mean_msg_bytes(const struct arrival_desc *d);

/* Frame-size trace files (trace.c): one frame per line, "SIZE" or "TYPE SIZE" or "SIZE TYPE"
 * with TYPE one of I, P, B; '#' starts a comment; blank lines are skipped. On success the
 * arrays are allocated (free them with free()) and *n >= 1. Errors say FILE:LINE. */
int trace_read(const char *path, uint32_t **bytes, uint8_t **types, size_t *n,
               struct ibn_err *e);

#endif

/* isol.h: the congested-flow isolation machinery shared by seed 002's CCFIT and FBICM (Paper
 * V), EcoCC (Paper VI) and HFDI switches: per input port a few isolation queues (CFQs / HPQs),
 * each with a CAM line holding the destinations of the congested flows it isolates; per output
 * port the CAM lines received from downstream; detection, post-processing at the head of the
 * base queues, Allocate / Stop / Go / Deallocate messages upstream, and root-only FECN marking.
 * A design (arch_ccfit.c, arch_fbicm.c, arch_ecocc.c, arch_hfdi.c) is a `struct isol_kind`
 * saying what its base queues are and how it detects a root; the rest is here
 * (docs/isolation.md). */
#ifndef IBN_ISOL_H
#define IBN_ISOL_H

#include "core/params.h"
#include "fabric/swarch.h"

/* Message types (struct sw_msg.type). */
enum { ISOL_ALLOC = 1, ISOL_STOP, ISOL_GO, ISOL_DEALLOC };

enum isol_base {
    ISOL_BASE_FIFO, /* one normal queue (NFQ) per input and VL: ccfit, fbicm */
    ISOL_BASE_VOQ,  /* one cold-packet queue (CPQ = VOQ) per input, output and VL: ecocc, hfdi */
};

struct isol_kind {
    const char *name;
    int base;          /* enum isol_base */
    int root_queue;    /* a root is isolated in its own queue (ccfit, fbicm, hfdi); else (ecocc)
                        * its CAM line refers to the VOQ that detected it */
    int marks;         /* root outputs FECN-mark (ccfit, ecocc); fbicm, hfdi: never */
};

extern const struct param isol_params[];

int isol_init(struct fabric *f, struct sw *s, const struct isol_kind *k, struct ibn_err *e);
void isol_free(struct sw *s);
int isol_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx);
uint32_t isol_head(struct fabric *f, struct sw *s, int in, int out, int slot);
uint32_t isol_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot);
uint64_t isol_held(const struct fabric *f, const struct sw *s);
void isol_on_msg(struct fabric *f, struct sw *s, int out, const struct sw_msg *m);
void isol_report(struct fabric *f, struct json_t *summary);

/* Usage now (for time series): isolation queues in use and input ports with none free, summed
 * over the switches of one of these designs. */
struct isol_usage {
    uint64_t lines_in_use;      /* input CAM lines active (own queues and VOQ root lines) */
    uint64_t queues_in_use;     /* isolation queues (CFQs / HPQs) active */
    uint64_t ports_exhausted;   /* input ports whose isolation queues are all in use */
};
void isol_usage(const struct fabric *f, struct isol_usage *u);
/* Time-average (over the run so far) of the input ports with every isolation queue in use,
 * summed over the switches; *events: packets that found no free isolation queue. 0 and 0 for
 * other designs. */
double isol_mean_ports_exhausted(const struct fabric *f, unsigned long long *events);

/* The end-node eligibility rule (Paper VI section 4.4): whether a CAM line the adapter's
 * switch sent it (an isolation queue at the switch's input from this adapter) is stopped and
 * names destination LID `dst`. */
int isol_hca_stopped(const struct isol_hca *h, uint16_t dst);

/* Test access: the state of input `in`'s isolation queue `q` of switch s. */
struct isol_line_view {
    int active, hops, out, ndst, stopped, propagated, sent_stop, above_high;
    uint32_t n, bytes;
    uint16_t dst[SW_MSG_DESTS];
};
int isol_line_view(const struct sw *s, int in, int q, struct isol_line_view *v);
/* Whether output `out` of s is in the congestion state (marks). */
int isol_congested(const struct sw *s, int out);
/* Output `out`'s CAM lines from downstream that are active (not dying), and how many of them
 * are stopped. */
void isol_out_lines(const struct sw *s, int out, int *active, int *stopped);

#endif

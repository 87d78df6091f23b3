/* ecnrate.h: seed 000's ECN rate control (Yan, thesis Ch.3.3): two-counter ECN marking at
 * switch outputs, the destination's copy of the mark into the reliable connection's ACK, and a
 * source response on every ACK by PIPD (power increase, power decrease) or the FIMD baseline
 * (fast increase, multiplicative decrease), per SL (priority class; or none: the SL's sources
 * ignore the marks and are not paced), within [R_min, R_max], in
 * an explicit rate unit (PIPD's power laws depend on it: docs/ecnrate.md). */
#ifndef IBN_ECNRATE_H
#define IBN_ECNRATE_H

#include "cc/cc.h"

enum ecn_trigger { ECN_TRIGGER_INPUT_FULL, ECN_TRIGGER_OUTPUT_PACKETS };
enum ecn_unit { ECN_UNIT_PACKETS, ECN_UNIT_MBPS, ECN_UNIT_GBPS, ECN_UNIT_LINK };
enum ecn_law { ECN_LAW_PIPD, ECN_LAW_FIMD, ECN_LAW_NONE };
enum ecn_pacing { ECN_PACING_SEND, ECN_PACING_ACK };

struct ecnrate_desc {
    int trigger;             /* enum ecn_trigger */
    long long trigger_packets; /* ECN_TRIGGER_OUTPUT_PACKETS: packets queued for the output */
    int rate_unit;           /* enum ecn_unit */
    char *law;               /* per SL: "pipd", "fimd", "none", "0:fimd,1:pipd" */
    char *rmin_div;          /* per SL: R_min = R_max / this ("256,1:128") */
    int pacing;              /* enum ecn_pacing */
    double m;                /* PIPD power */
    double n;                /* FIMD factor */
};

extern const struct param ecnrate_params[];
extern const struct cc_plugin ecnrate_plugin;

/* The rate laws (rates in the chosen unit). */
double pipd_dec(double r, double m, double rmin);
double pipd_inc(double r, double m, double rmin, double rmax);
double fimd_dec(double r, double n, double rmin);
double fimd_inc(double r, double n, double rmin, double rmax);

/* Parse a per-SL list of laws ("pipd" for every SL, "S:law" for SL S, left to right). */
int ecnrate_parse_laws(const char *text, int out[16], char *why, size_t whylen);

#endif

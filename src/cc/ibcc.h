/* ibcc.h: InfiniBand congestion control (IBA 1.2.1 Annex A10) as seed 002 models it: switches
 * detect congestion per output port and VL from the occupancy of the virtual output queues that
 * feed it and FECN-mark departing packets; the destination adapter answers with a BECN in a
 * CNP on its priority path; the source raises the flow's (QP's or SL's) CCTI, which selects an
 * inter-packet delay from the CCT, and a CCTI_Timer per SL lowers it again. Every modelling
 * choice the seed leaves open is an option of struct ibcc_desc (docs/cc.md). */
#ifndef IBN_IBCC_H
#define IBN_IBCC_H

#include "cc/cc.h"

enum ibcc_threshold_map { IBCC_MAP_FRACTION, IBCC_MAP_MTU, IBCC_MAP_BYTES };
enum ibcc_detect { IBCC_DETECT_VOQ, IBCC_DETECT_SUM, IBCC_DETECT_SUM_PER_INPUT };
enum ibcc_thresholds { IBCC_SINGLE, IBCC_DOUBLE };
enum ibcc_marking { IBCC_MARK_PROBABILITY, IBCC_MARK_COUNTER };
enum ibcc_level { IBCC_LEVEL_QP, IBCC_LEVEL_SL, IBCC_LEVEL_FLOW };
enum ibcc_timer_policy { IBCC_TIMER_FREE, IBCC_TIMER_RESTART, IBCC_TIMER_PER_FLOW };
enum ibcc_cct_form { IBCC_CCT_ABSOLUTE, IBCC_CCT_SPEC };
enum ibcc_becn { IBCC_BECN_PACKET, IBCC_BECN_MESSAGE };

struct ibcc_desc {
    /* Switch side (SwitchCongestionSetting). */
    long long threshold;        /* 0-15 */
    int threshold_map;          /* enum ibcc_threshold_map */
    uint64_t threshold_bytes;   /* IBCC_MAP_BYTES: the (upper) threshold in bytes */
    int detect;                 /* enum ibcc_detect */
    int thresholds;             /* enum ibcc_thresholds */
    double hysteresis_mtus;     /* IBCC_DOUBLE: upper - lower threshold, in MTU packets */
    char *victim_mask;          /* "ca", "none", "all" or a hex port mask "0x..." */
    long long packet_size;      /* credits (64 bytes): smaller packets are never marked */
    long long marking_rate;     /* mean eligible packets between marks */
    int marking;                /* enum ibcc_marking */
    double mark_probability;    /* 0..1: mark an eligible packet with this probability (overrides
                                 * marking_rate and marking); -1: unused */
    /* Adapter side (CACongestionSetting, CCT). */
    int level;                  /* enum ibcc_level (Port_Control bit 0) */
    long long held_messages;    /* IBCC_LEVEL_QP, a flow to many hosts: messages it may hold on
                                   throttled queue pairs while it sends others */
    long long control_map;      /* SLs under congestion control, bit per SL */
    char *ccti_timer;           /* per SL, 1.024 us units: "150" or "150,3:300" */
    char *ccti_increase;        /* per SL */
    char *ccti_min;             /* per SL */
    long long ccti_limit;       /* -1: the CCT's last index */
    int timer_policy;           /* enum ibcc_timer_policy */
    int becn;                   /* enum ibcc_becn: a BECN per marked packet or per message */
    simtime_t cnp_interval;     /* UD: a destination answers at most one FECN per this time per
                                 * source queue pair with a CNP (0: every FECN) */
    int cct_form;               /* enum ibcc_cct_form */
    char *cct;                  /* "" = the formula; spec: "shift:multiplier,..."; absolute: "us,us,..." */
    double cct_scale_us;        /* formula: cct[i] = i^2 * scale / div^2 us */
    double cct_div;
    long long cct_entries;      /* formula: entries */
    /* Where the description came from, for the resolved output. */
    char *opensm_conf;
};

extern const struct param ibcc_params[];
extern const struct cc_plugin ibcc_plugin;

/* Helpers exposed for tests and for the opensm.conf reader. */
/* Parse a per-SL list ("V" for every SL, "S:V" for SL S; items applied left to right). */
int ibcc_parse_per_sl(const char *text, long long min, long long max, long long out[16],
                      char *why, size_t whylen);
/* Upper and lower thresholds in bytes for a port whose input buffers hold `buffer` bytes per VL
 * with MTU packets of `mtu_bytes` on the wire (credits included). lower == upper for a single
 * threshold. Returns -1 (both 0) when the threshold weight is 0 (detection off). */
int ibcc_thresholds_bytes(const struct ibcc_desc *d, uint64_t buffer, uint32_t mtu_bytes,
                          int64_t *upper, int64_t *lower);

#endif

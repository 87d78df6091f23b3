/* ibcc_int.h: the state IB congestion control keeps while a fabric runs, shared by the switch
 * side (ibcc_switch.c), the adapter side (ibcc_hca.c) and the set-up and results (ibcc.c).
 * Everything is allocated at attach; nothing per packet. */
#ifndef IBN_IBCC_INT_H
#define IBN_IBCC_INT_H

#include <gsl/gsl_rng.h>

#include "cc/ibcc.h"
#include "fabric/fabric.h"

/* One switch output port VL: what every packet through the port reads and writes, 32 bytes. */
struct ibcc_oslot {
    int32_t sum;                  /* bytes queued for this output over all inputs */
    uint16_t active;              /* inputs with a non-empty VOQ (sum_per_input) */
    uint16_t over_hi, over_lo;    /* VOQs above the upper / lower threshold (voq) */
    uint8_t congested;
    uint32_t eligible;            /* counter marking: eligible packets since the last mark */
    simtime_t since;              /* when the current congestion state was entered */
};

/* One switch output port: occupancy of the VOQs feeding it, its congestion state per VL. The
 * header and the first VL's slot share a cache line; the counters read at the end come last. */
struct ibcc_oport {
    int32_t *voq;                 /* bytes queued [input * nvs + slot] for this output; NULL
                                   * where detection compares only the sum */
    gsl_rng *rng;                 /* probability marking: this port's stream */
    uint8_t victim;               /* Victim_Mask bit of this port */
    struct ibcc_oslot s[VL_SLOTS];
    simtime_t cong_time[VL_SLOTS];
    uint64_t entered[VL_SLOTS];   /* times the congestion state was entered */
    uint64_t marked[VL_SLOTS];    /* packets FECN-marked here */
} __attribute__((aligned(64)));

struct ibcc;

/* A timer of the adapter side (per port SL, or per flow). */
struct ibcc_timer {
    struct fabric_call call;
    simtime_t due;                /* the live expiry; other firings are stale */
    uint8_t armed;
};

/* A congestion-control index: per QP (a flow, or a flow's queue pair to one host) or per port
 * SL. */
struct ibcc_index {
    uint16_t ccti, ccti_max;
    uint8_t sl;
    uint8_t raised;               /* in its port SL's list of indices above CCTI_Min */
    simtime_t last_change;
    double integral;              /* ccti x picoseconds, for the time-average */
};

/* A port SL: the flows of one adapter port on one SL, its timer and (SL level) its index. */
struct ibcc_group {
    struct ibcc *cc;
    uint32_t *flows;
    uint32_t n;
    struct ibcc_index shared;     /* IBCC_LEVEL_SL */
    struct ibcc_timer timer;
    struct ibcc_index **raised;   /* QP level: the indices above CCTI_Min, which the timer lowers */
    uint32_t nraised;
};

struct ibcc_flow;

/* QP level, a flow to many hosts: its queue pair to one destination host (24 bytes: 648 x 648
 * of them in Paper IV's fabric). What a send needs is kept apart (ibcc_flow.dest_send), as the
 * adapter asks when it may send of every destination it holds a message for. */
struct ibcc_dest {
    struct ibcc_index ix;
};

/* The same queue pair's sending state, 16 bytes: when it may start its next packet, and a copy
 * of its index's CCTI (kept by index_set, ibcc_hca.c) so that the packet's inter-packet delay
 * is found on the line the adapter has just read, not on the index's. */
struct ibcc_dest_send {
    simtime_t next_ok;
    uint16_t ccti;                /* = the ibcc_dest's ix.ccti, always */
    uint16_t pad[3];
};

/* The timer of one such queue pair, kept apart as only IBCC_TIMER_PER_FLOW has them. */
struct ibcc_dest_timer {
    struct ibcc_timer timer;
    struct ibcc_flow *flow;
    int host;
};

/* Per flow. */
struct ibcc_flow {
    struct ibcc *cc;
    struct ibcc_group *group;
    struct ibcc_index own;        /* IBCC_LEVEL_QP */
    struct ibcc_index *ix;        /* own or group->shared */
    struct ibcc_timer timer;      /* IBCC_TIMER_PER_FLOW */
    uint64_t fecn_marked;         /* its packets marked by switches */
    uint64_t fecn_received;       /* marked packets that reached the destination */
    uint64_t becn_received;       /* BECNs that came back to the source */
    struct ibcc_dest *dest;       /* QP level, a flow to many hosts: [host], else NULL */
    struct ibcc_dest_send *dest_send; /* and its sending state to [host] */
    struct ibcc_dest_timer *dest_timer; /* and with IBCC_TIMER_PER_FLOW: [host], else NULL */
    simtime_t *cnp_next;          /* cnp_interval > 0: the earliest next CNP to this flow's queue
                                   * pair, [receiving host] for a flow to many hosts, else [0];
                                   * NULL otherwise */
};

/* Per adapter port. */
struct ibcc_aport {
    uint64_t fecn_received, cnp_sent, becn_received;
    uint64_t cnp_paced;           /* FECNs left unanswered by cnp_interval */
    struct ibcc_group *groups;    /* [16], NULL until a flow uses the SL */
};

struct ibcc {
    struct ibcc_desc d;           /* resolved copy (strings not owned: see ibcc.c) */
    long long timer[16], increase[16], min[16];
    int ccti_limit;
    int ncct;
    simtime_t *cct_ps;            /* absolute form: delay per index */
    uint16_t *cct_shift, *cct_mult; /* spec form */
    int64_t thr_hi, thr_lo;       /* bytes; thr_hi < 0: detection off */
    int32_t mtu_credits;          /* credits of an MTU packet: "has credits" means at least these */
    struct ibcc_oport *oports;    /* all switch ports' state, one block */
    size_t noports;
    int32_t *voq_block;
    struct ibcc_aport *aports;
    size_t naports;
    struct ibcc_group *groups;
    size_t ngroups;
    uint32_t *group_flows;
    struct ibcc_index **raised_block;
    struct ibcc_flow *flows;
    struct ibcc_dest *dests;      /* every flow's destination queue pairs, one block */
    struct ibcc_dest_send *dest_send; /* their sending state, one block (the same order) */
    size_t ndests;
    struct ibcc_dest_timer *dest_timers; /* their timers (IBCC_TIMER_PER_FLOW only), one block */
    simtime_t *cnp_block;         /* every flow's cnp_next, one block (cnp_interval > 0 only) */
    char resolved[2048];          /* the options used, one line */
};

/* A flow's CCTI figures (results). A flow with a queue pair per destination reports the highest
 * current and highest ever CCTI over its queue pairs, and the mean of the time-averaged CCTIs
 * of the queue pairs that were ever raised. */
struct ibcc_flow_ccti {
    int now, max, qps;            /* qps: queue pairs of the flow */
    double mean;
};
struct ibcc_flow_ccti ibcc_flow_ccti(const struct fabric *f, const struct ibcc_flow *cf);

/* Switch side (ibcc_switch.c). */
void ibcc_on_enqueue(struct fabric *f, struct port *in, struct port *out, struct packet *p);
void ibcc_on_dequeue(struct fabric *f, struct port *in, struct port *out, struct packet *p);
void ibcc_on_depart(struct fabric *f, struct port *out, struct packet *p);
/* Close the congestion-time accounting at time `now` (results). */
void ibcc_oport_settle(struct ibcc_oport *o, int nvs, simtime_t now);

/* Adapter side (ibcc_hca.c). */
void ibcc_on_receive(struct fabric *f, struct port *at, struct packet *p);
void ibcc_on_source_send(struct fabric *f, struct flow *fl, struct packet *p);
void ibcc_index_settle(struct ibcc_index *ix, simtime_t now);
void ibcc_group_expire(struct fabric *f, void *arg);
void ibcc_flow_expire(struct fabric *f, void *arg);
void ibcc_dest_expire(struct fabric *f, void *arg);
int64_t ibcc_dest_ready(struct fabric *f, const struct flow *fl, int dst_host);

#endif

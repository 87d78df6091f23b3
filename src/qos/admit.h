/* admit.h: connection admission control along a route (seed 001 section 3.2; seeds 000 and
 * 003 as selectable schemes). The state is one reservation record (struct qport) per output
 * port of the fabric (adapter ports and switch ports, indexed by topology node and port); a
 * connection's route is the list of output ports from its source adapter to the last switch,
 * followed through the forwarding tables. Schemes:
 * - hop   (seed 001, distributed): each output port on the route checks and reserves in turn
 *         (bandwidth, table entries at the hop's distance); on the first refusal the earlier
 *         hops' reservations are rolled back. The answer returns along the reverse route.
 * - sm    (seed 001, subnet manager): the SM checks every hop first and then reserves them
 *         all; same tables as hop, one round trip to the SM instead of along the route.
 * - sum   (seed 000, link-by-link per-SL probe): accept at a hop when p + s_sl < bw_sl, with
 *         bw_sl the SL's share of the reservable bandwidth; tables are not touched; a refusal
 *         rolls back upstream hops (digest 000 gap 7.3) and the REJECT returns to the source.
 * - probe (seed 003): each hop reserves bandwidth on its output link (total + b <= cap*C) and
 *         recomputes its weights from the reserved bandwidth (no distance: every VL at 64; the
 *         whole link is CAC_PROBE_ENTRIES entries of 255, so that the table always fits); an
 *         ACK returns from the last hop to the source, a NACK from the refusing node by the
 *         normal routing, after which the source sends a RELEASE along the route that stops
 *         before the refusing node.
 * The setup latency of every scheme is modelled: each control message crossing a link takes
 * ctl_bytes at the link rate plus its propagation delay plus the switch latency. Requests
 * that no fabric could carry (bandwidth above the link, a deadline shorter than one hop can
 * promise, distance 1) are refused with that reason. */
#ifndef IBN_QOS_ADMIT_H
#define IBN_QOS_ADMIT_H

#include <stdint.h>

#include "core/simtime.h"
#include "qos/qport.h"
#include "routing/lft.h"
#include "topology/topo.h"

enum cac_scheme { CAC_HOP, CAC_SM, CAC_SUM, CAC_PROBE, CAC_NSCHEMES };
extern const char *const cac_scheme_name[CAC_NSCHEMES];

/* Why a request was refused: the port verdicts, then causes of the request itself. */
enum cac_cause {
    CAC_OK = QP_OK,
    CAC_DEADLINE = QP_NVERDICT, /* the deadline's per-hop share is below T_hop(2) */
    CAC_SL,                     /* SL not a QoS SL (no distance, not in the high table) */
    CAC_ROUTE,                  /* no route, or longer than CAC_MAX_HOPS */
    CAC_SL_SHARE,               /* sum: p + s_sl >= bw_sl */
    CAC_NCAUSES
};
extern const char *const cac_cause_name[CAC_NCAUSES];

#define CAC_MAX_HOPS 32
/* probe: the table entries of weight 255 that the whole link's bandwidth is worth (of 64; the
 * rest absorbs each VL's rounding up) */
#define CAC_PROBE_ENTRIES 48

struct cac_cfg {
    enum cac_scheme scheme;
    double cap;              /* reservable share of each link (seed 001: 0.8) */
    enum qos_method method;
    int repack;
    unsigned allowed;        /* CESY distances offered (0 = all; 4-VL variant 16 and 64) */
    uint8_t sl2vl[16];
    uint8_t sl_dist[16];     /* the SL's maximum distance; 0 = from the request's deadline */
    uint8_t sl_qos[16];      /* 1: the SL is guaranteed traffic (high table) */
    double sl_share[16];     /* sum: bw_sl = sl_share * cap * C */
    uint32_t mtu;            /* for the hop bound (and the data packets) */
    int q;                   /* same-VL packets ahead in the hop bound (VL buffer - 1) */
    int read_ports;          /* crossbar read ports per switch input (0 = one per output) */
    int in_pkts;             /* packets a switch input holds over all its data VLs: with
                                fewer read ports than ports, the hop bound of a switch port
                                adds arbtab_xbar_turns(read_ports, nports, in_pkts) turns */
    uint32_t ctl_bytes;      /* control message size on the wire */
    simtime_t switch_latency;
    int sm_node;             /* sm: topology node of the subnet manager (-1: the first switch) */
};
void cac_cfg_defaults(struct cac_cfg *c);

struct cac_req {
    int src, dst;            /* topology nodes (adapters), port 1 of each */
    int sl;
    double bw;               /* mean bandwidth, bit/s */
    simtime_t deadline;      /* end-to-end; 0 = none (the SL's distance) */
};

/* An admitted connection: where it holds reservations. */
struct cac_conn {
    int nhops;
    int sl;
    double bw;
    int32_t hop[CAC_MAX_HOPS];  /* port index (cac.base[node] + port) per output port */
    uint8_t vl;
    uint8_t dist;               /* the distance it asked for (before CESY rounding) */
    simtime_t bound;            /* guaranteed end-to-end delay (sum of hop bounds + links) */
};

struct cac_stats {
    uint64_t requests, accepted, released;
    uint64_t rejected[CAC_NCAUSES];
    uint64_t rejected_at_hop[CAC_MAX_HOPS];  /* by hop position along the route (0 = source) */
    uint64_t sl_requests[16], sl_accepted[16];
    uint64_t control_msgs;                   /* probes, answers, releases crossing links */
    double latency_sum_accept, latency_sum_reject; /* seconds */
    simtime_t latency_max;
};

struct cac {
    const struct topo *t;
    const struct lfts *l;
    struct cac_cfg cfg;
    int nports;
    int *base;                 /* per node: index of its port 0 */
    struct qport *port;        /* per port index */
    double *rate;              /* per port index: data rate of the cable, 0 if none */
    double *sl_sum;            /* sum: [port * 16 + sl] admitted bandwidth */
    struct cac_stats st;
};

int cac_init(struct cac *a, const struct topo *t, const struct lfts *l, const struct cac_cfg *c,
             struct ibn_err *e);
void cac_free(struct cac *a);
/* The output ports from src to dst (port indices), or -1 if there is no route. */
int cac_route(const struct cac *a, int src, int dst, int32_t *hop, int max);
/* Admit one request. On success fills *conn and returns CAC_OK; otherwise the cause (and
 * *hop_at the hop position that refused, -1 for causes of the request itself). *latency gets
 * the modelled setup time (request sent to answer received at the source). */
enum cac_cause cac_admit(struct cac *a, const struct cac_req *r, struct cac_conn *conn, int *hop_at,
                         simtime_t *latency);
/* A connection's guaranteed end-to-end bound: over its hops, the link's propagation plus the
 * hop bound at the distance its VL is served at there; crossbar = 0 leaves out the turns
 * lost to the crossbar (the bound before 2026-11-24, for comparison). */
simtime_t cac_bound(const struct cac *a, const struct cac_conn *conn, int crossbar);
/* Turns a packet can lose to the crossbar at output port `idx` (0 at adapters). */
int cac_xbar_turns(const struct cac *a, int idx);
/* Tear down an admitted connection (the last data packet, or the release message). */
void cac_release(struct cac *a, const struct cac_conn *conn);
/* Reservations over the fabric (seed 001 Table 3's rows): the mean over cabled adapter
 * ports and over cabled switch ports of the reserved bandwidth and of its share of the link,
 * the mean number of high-table entries in use on ports holding reservations, repacks. */
struct qmetrics {
    double host_res_bps, host_res_frac, sw_res_bps, sw_res_frac, mean_entries;
    int nhost_ports, nsw_ports;
    unsigned long long repacks;
};
void qmetrics_compute(const struct cac *a, struct qmetrics *m);

/* Port index of (node, port), and back. */
static inline int cac_port(const struct cac *a, int node, int port) { return a->base[node] + port; }
void cac_port_of(const struct cac *a, int idx, int *node, int *port);

#endif

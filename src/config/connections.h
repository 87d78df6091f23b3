/* connections.h: the scenario's `connections` section (issue 13 item 1): a connection request
 * process runs against admission control (qos/admit, qos/conn) on the scenario's topology and
 * routes before the traffic starts; every admitted connection becomes a flow of the run (CBR
 * with a random phase, ON/OFF or video at its reserved mean bandwidth, one packet per message,
 * the connection's guaranteed end-to-end bound as every message's deadline), and every port
 * that holds reservations gets the high-priority VL arbitration table admission built for it.
 * Refused requests are counted by cause and by the hop that refused them; summary.json gets a
 * `connections` object with those counts, the reservations (seed 001 Table 3's rows) and,
 * per SL, what the traffic delivered, its deadlines and its jitter (Figs. 7 and 8).
 *
 * With the dynamic process (Poisson arrivals, exponential holding times, teardown) the
 * requests are either played out before the traffic, the connections still live at its end
 * carrying traffic through fixed tables, or (`live`) played out during the run: each
 * connection's flow runs from its admission to its teardown and the high-priority tables of
 * its ports change at both moments (scheduled table changes, fabric_schedule_call). */
#ifndef IBN_CONNECTIONS_H
#define IBN_CONNECTIONS_H

#include <jansson.h>
#include <stdint.h>

#include "core/error.h"
#include "core/params.h"
#include "fabric/build.h"
#include "qos/admit.h"
#include "qos/conn.h"

enum conn_process { CONNP_NONE, CONNP_FILL, CONNP_DYNAMIC, CONNP_FLOWS };
enum conn_traffic { CONNT_CONSTANT, CONNT_ONOFF, CONNT_VIDEO };
enum conn_bound { CONN_BOUND_CROSSBAR, CONN_BOUND_OUTPUT };

/* The section as the scenario gives it (filled through conn_params). */
struct conn_desc {
    int process;            /* enum conn_process */
    char *sls;              /* "table2", or "SL:DIST:LO:HI[:WEIGHT],..." (rates in Mb/s) */
    int scheme;             /* enum cac_scheme */
    double cap;
    int method;             /* enum qos_method */
    int repack;
    long long stop_fails, requests;
    double rate;            /* dynamic: requests per second */
    simtime_t hold;         /* dynamic: mean holding time */
    simtime_t deadline;     /* every request's end-to-end deadline; 0 = the SL's distance */
    uint64_t packet;        /* packet size on the wire, bytes */
    int traffic;            /* enum conn_traffic */
    long long max_pending;  /* messages a connection's source may hold */
    double excess;          /* the first admitted connection of excess_sl sends this many times
                               its reservation (1 = as reserved): seed 001's isolation claim */
    long long excess_sl;    /* -1: none */
    int live;               /* dynamic: requests during the run, tables changing with them */
    int hop_bound;          /* enum conn_bound */
    char *flow_sls;         /* flows: the SLs whose flows ask for admission, "1,2,..." */
};
extern const struct param conn_params[];

/* A live connection's port table as it becomes at time t. */
struct conn_tabchange {
    simtime_t t;
    int32_t node;
    uint8_t port, nhigh;
    struct vlarb_entry high[64];
};
struct conn_state;
struct conn_tabcall {
    struct fabric_call call;
    struct conn_state *s;
    int i;
};

/* What admission decided, kept until the scenario is freed. */
struct conn_state {
    struct cac a;
    struct conn_gen g;
    struct conn_set cs;
    int strip_low;          /* the low table was the default: guaranteed VLs left out of it */
    int excess_idx;         /* index in cs of the connection sending in excess, -1 */
    struct flow_desc *flows;/* the run's flows: the scenario's, then one per connection */
    int nflows, first_conn; /* flows[first_conn + i] is connection i */
    double wall_s;          /* CPU time of the request process */
    int live;               /* the process runs during the run (conn_desc.live) */
    struct conn_tabchange *chg; /* live: every port table change, in time order */
    int nchg, capchg;
    struct conn_tabcall *calls; /* live: their scheduled events */
    long long applied;      /* live: changes applied by the run */
    /* process = flows: the scenario's flows are the requests */
    int from_flows;
    int nsc;                /* the scenario's flows */
    uint8_t *refused;       /* [nsc]: 1 if the flow asked and was refused (left out of the run) */
    int *conn_flow;         /* [cs.n]: the scenario flow (index) of connection i */
    char **names;           /* [nsc]: the scenario flows' names (summary.json's refused_flows) */
};

/* Run the request process on t and l with the model settings `set` (SL2VL, packet size and
 * buffers give the admission its VL map and hop bound); horizon: the run's end (live).
 * process = flows: the requests are the scenario's flows (flows[0..nflows)) on the SLs of
 * flow_sls, in their order, each asking for its mean rate on the wire between its source and
 * its destination (seed 003's probe admission of real-time streams); a refused flow is left out
 * of the run, and every port gets admission's high table (its weights from the reservations). */
int connections_admit(const struct conn_desc *d, const struct fabric_settings *set, int low_given,
                      uint64_t seed, simtime_t horizon, const struct topo *t, const struct lfts *l,
                      const struct flow_desc *flows, int nflows, struct conn_state **out,
                      struct ibn_err *e);
/* Append one flow per admitted connection to the run description (d->flows becomes an array
 * the state owns). */
int connections_flows(struct conn_state *s, const struct conn_desc *cd, struct run_desc *d,
                      struct ibn_err *e);
/* Give every cabled port of the built fabric the tables admission produced (live: no
 * reservations yet, and the changes scheduled at their times). */
int connections_tables(struct conn_state *s, struct fabric *f, struct ibn_err *e);
/* The summary.json object after the run. */
/* The run's flow (index into f->flows) of connection i, f->nflows if it has none (a flow of
 * process = flows that was refused). Generated connections are the last flows of the run: the
 * scenario's own flows before them may each become several (src = "*"). */
uint32_t connections_run_flow(const struct conn_state *s, const struct fabric *f, int i);
json_t *connections_json(const struct conn_state *s, const struct fabric *f);
void connections_free(struct conn_state *s);

#endif

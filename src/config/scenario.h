/* scenario.h: the scenario, the user's description of one simulation, as a plain struct: the
 * sections simulation, topology, fabric, switch, hca, transport, qos, flows, output (and cc for
 * congestion control). scenario_load() reads a scenario file (libconfig syntax), checks every
 * key against the parameter tables of the modules, applies `-s section.key=value` overrides,
 * and reports errors as FILE:LINE: what was expected. scenario_write() writes the resolved
 * scenario, with every default explicit, in the same syntax. */
#ifndef IBN_SCENARIO_H
#define IBN_SCENARIO_H

#include <stdio.h>

#include "cc/cc.h"
#include "config/connections.h"
#include "core/error.h"
#include "core/simtime.h"
#include "fabric/build.h"
#include "fabric/mcast.h"
#include "fabric/settings.h"
#include "routing/lft.h"
#include "topology/topo.h"

struct sim_desc {
    char *name;
    simtime_t duration, warmup, sample_interval, drain_limit, stall_limit;
    long long seed;
    long long until_delivered; /* end when every flow has delivered this many packets; 0 off */
};

struct topo_desc {
    char *generator, *args;   /* a named generator and its "key=value,..." arguments */
    char *file;               /* or a topology file (ibnetdiscover / ibsim net) */
    char **links;             /* or an explicit list of links "A:1 B:2 [4xQDR|RATE] [DELAY]" */
    int nlinks;
    char **switches;          /* names in `links` that are switches (the rest are adapters) */
    int nswitches;
    char *link;               /* default width/speed or rate of listed links */
    simtime_t delay;          /* default propagation delay of listed links */
    char *routing;            /* routing engine */
    char *lft_file;           /* or forwarding tables from an OpenSM LFT dump */
    long long lmc;            /* every adapter port gets 2^lmc LIDs (LMC multipath) */
    int lmc_beyond_iba;       /* LMC and path bits up to PB_SIM_MAX, beyond IBA's 7 */
    char *tie;                /* spf's tie rule */
    char *roots;              /* updn, updn_tree, pathbits: root switches */
    char *guid_routing_order_file; /* minhop, updn, dor: OpenSM's (relative to the scenario) */
    char *root_guid_file;     /* updn, updn_tree: OpenSM's root_guid_file (relative to the
                               * scenario once loaded) */
    int port_shifting;        /* minhop, updn, dor: OpenSM's port_shifting */
    long long scatter_ports;  /* minhop, updn, dor: OpenSM's scatter_ports seed, 0 = off */
    int order_no_scatter;     /* OpenSM's guid_routing_order_no_scatter */
    char *port_prof_ignore_file; /* OpenSM's (relative to the scenario) */
    long long path_bits;      /* pathbits: 0 = one per cycle, K = the first K cycles */
    long long path_slack;     /* pathbits: paths up to shortest + this many hops; -1 all */
    char *cn_guid_file;       /* ftree, (df)sssp: OpenSM's cn_guid_file (relative to the scenario) */
    char *io_guid_file;       /* ftree, (df)sssp: OpenSM's io_guid_file (relative to the scenario) */
    char *torus_config;       /* torus-2QoS: OpenSM's torus-2QoS.conf (relative to the scenario) */
    int line;                 /* where the section starts */
};

struct output_desc {
    int flow_series, port_series, queue_series, counter_series;
    int progress;             /* 0 never, 1 on a terminal */
    long long jitter_k;       /* jitter: share within +-period/k */
    char *contributors;       /* flows whose treatment variation is measured, "A,B,C" */
    char *capture_ports, *capture_flows; /* packet capture (stats/capture.h) */
    simtime_t capture_start, capture_stop;
    int capture_payload;      /* 0 zeros, 1 pattern */
    char *timeline_ports, *timeline_flows; /* trace-event timeline (stats/timeline.h) */
    simtime_t timeline_start, timeline_stop;
    long long timeline_max_events;
    int flow_latency;         /* write flow-latency.csv */
};

/* A flow's own keys besides the arrival process. */
struct flow_extra {
    double load;              /* offered load as a fraction of the source link's data rate */
};

struct scenario {
    char *path;
    struct sim_desc sim;
    struct topo_desc topo;
    struct fabric_settings set;
    struct qos_desc qos;
    char **sl2vl_pairs;       /* qos.sl2vl_pairs: "SWITCH IN OUT 16-VL-map" (IN/OUT 0 = every port) */
    int nsl2vl_pairs;
    int sl2vl_line;
    struct output_desc out;
    int nflows;
    struct flow_desc *flows;
    struct flow_extra *fextra;
    char *cc;                 /* congestion-control plug-in name, "none" */
    const struct cc_plugin *ccp;
    void *cc_desc;            /* the plug-in's description, filled through ccp->params */
    int cc_plugin_given;      /* the cc section or -s named the plug-in */
    char *cc_note;            /* what the opensm.conf gave, for the resolved output */
    char *qos_note;           /* what qos.opensm_conf gave */
    struct conn_desc conns;   /* the connections section (config/connections.h) */
    struct conn_state **cst;  /* what admission decided (set by scenario_topology), or NULL */
    struct mcast_desc mc;     /* the multicast section: scheme and groups */
};

extern const struct param sim_params[], topo_params[], output_params[], flow_params[];

/* Load a scenario file and apply overrides ("section.key=value"; flows.NAME.key or
 * flows.*.key for flows). On error, e says FILE:LINE (or "-s ...") and what was expected, and
 * *sc is already freed (scenario_free on it again is harmless). */
int scenario_load(const char *path, char *const *overrides, int noverrides, struct scenario *sc,
                  struct ibn_err *e);
void scenario_free(struct scenario *sc);

/* The routing engine the scenario's topology section asks for, "auto" resolved: ftree on the
 * tree generators (kary_ntree, fattree, clos3), minhop otherwise. */
const char *scenario_routing_engine(const struct topo_desc *d);
/* Build the topology and forwarding tables the scenario names. */
int scenario_topology(const struct scenario *sc, struct topo *t, struct lfts *l, struct ibn_err *e);
/* The run description for fabric_build (flows' "load" turned into rates against `t`). */
int scenario_run_desc(const struct scenario *sc, const struct topo *t, struct run_desc *d,
                      struct ibn_err *e);
void run_desc_free(struct run_desc *d);

/* Settings that need the built fabric (per port-pair SL-to-VL maps). */
int scenario_apply(const struct scenario *sc, struct fabric *f, struct ibn_err *e);

/* Write the resolved scenario (every key, defaults included). */
void scenario_write(const struct scenario *sc, FILE *out);

/* The most samples of the time series a run may take (simulation.duration / sample_interval). */
#define SCENARIO_MAX_SAMPLES 1000000

#endif

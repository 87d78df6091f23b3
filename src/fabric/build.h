/* build.h: turning a plain description (topology, forwarding tables, settings, flows) into a
 * running fabric, and releasing it. */
#ifndef IBN_BUILD_H
#define IBN_BUILD_H

#include "core/error.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "topology/topo.h"
#include "traffic/arrival.h"
#include "traffic/pattern.h"

struct mcast_desc;

/* A flow as the scenario states it. src "*" makes one flow per host, named NAME@HOST. */
struct flow_desc {
    char *name;
    char *src;        /* host (CA node) name, optionally "NAME:PORT" */
    char *dst;        /* host name, "uniform" (a random other host per message), "mcast:GROUP"
                       * (a multicast group of the multicast section), or "" with a pattern */
    long long sl;
    char *cls;        /* traffic class name, "" if none (then sl is used as given) */
    simtime_t start, stop;
    double load;      /* if > 0: offered load as a fraction of the source link's data rate */
    int load_counts;  /* enum load_counts: what `load` measures */
    int path;         /* enum flow_path: which of the destination's LIDs it uses */
    struct arrival_desc arr;
    int has_pattern;  /* destinations from a pattern shared by all flows of this entry */
    struct pattern_desc pat;
    long long max_pending; /* messages it may hold waiting; 0 = fabric.max_pending */
    char *lanes;      /* threshold lane regimes "SHARE[,T:SHARE...]" (fabric/lanes.h), NULL or
                       * "" for none */
    int small_rng;    /* a small generator (taus2) instead of MT19937: for the many flows of
                       * admitted connections, whose randomness is only their phase */
    const char *file; /* where it was declared, for errors */
    int line;
};

struct run_desc {
    struct fabric_settings set;
    simtime_t warmup, end, drain_limit, sample_interval;
    simtime_t stall_limit; /* 0 = no stall detection */
    uint64_t until_delivered; /* end when every flow has delivered this many packets; 0 = off */
    uint64_t seed;
    int jitter_k;     /* jitter: share of arrivals within +-period/k of their ideal time */
    int nflows;
    struct flow_desc *flows;
    const struct mcast_desc *mc; /* multicast groups and scheme (mcast.h), NULL if none */
    /* A distributed run's partition (dist.h): rank per topology node, and this process's rank.
     * The build then makes the heavy state of this rank's part only: the input memory of the
     * switches other ranks handle is released as soon as it is made (sw_release, after the
     * architecture's init has set the switch's latency), and flows sourced on other ranks get
     * no random generator. NULL: everything (sequential). */
    const int *own_part;
    int own_rank;
};

int fabric_build(struct fabric *f, const struct topo *t, const struct lfts *l,
                 const struct run_desc *d, struct ibn_err *e);
void fabric_free(struct fabric *f);
/* Record a warning about the run (the topology's, a routing fallback, a plug-in's setting that
 * does something unexpected): `run` prints them and summary.json lists them. */
void fabric_warn(struct fabric *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Per-(input, output) SL-to-VL map of one switch (16 entries). */
int fabric_set_sl2vl(struct fabric *f, int node, int in, int out, const uint8_t map[16],
                     struct ibn_err *e);

/* Give one port (topology node and port number) its own VL arbitration tables (a copy of t);
 * the VLs must be in use (weights only for VLs 0..fabric.vls-1). */
int fabric_set_port_vlarb(struct fabric *f, int node, int port, const struct vlarb_table *t,
                          struct ibn_err *e);

/* Host lookups by name ("H1" or "H1:2"). Returns the host index or -1. */
int fabric_find_host(const struct fabric *f, const char *name);
/* The hosts (every cabled port of each CA, in host order) of a set expression
 * (topo_host_set); their count and *out to free, or -1 with e set. */
int fabric_host_set(const struct fabric *f, const struct topo *t, const char *spec, int **out,
                    struct ibn_err *e);

#endif

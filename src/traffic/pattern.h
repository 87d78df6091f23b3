/* pattern.h: destination patterns: which host the next message of a source goes to. Synthetic
 * patterns (uniform, fixed, permutations, hot spot, all-to-all, ring, neighbour) and the
 * congestion-tree workloads of seed 002 Paper IV (silent, windy and moving trees, digest
 * seed-002b.md sections 2.2, 2.4 and 2.5). One struct pattern serves all hosts of a run; node
 * roles and hot spots are drawn once from the setup stream, and pattern_dest() never
 * allocates. Definitions are in docs/traffic.md. */
#ifndef IBN_PATTERN_H
#define IBN_PATTERN_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "core/error.h"
#include "core/params.h"
#include "core/simtime.h"

enum pattern_kind {
    PAT_UNIFORM,     /* uniform over all other hosts */
    PAT_FIXED,       /* every host sends to host `dest` */
    PAT_SHIFT,       /* (src + shift) mod n */
    PAT_BITREV,      /* bit reversal of src (n a power of two) */
    PAT_TRANSPOSE,   /* src = i*m + j goes to j*m + i (n = m*m) */
    PAT_RANDOM_PERM, /* a random permutation without fixed points */
    PAT_HOTSPOT,     /* a fraction hot_fraction to hot spots, the rest uniform */
    PAT_ALLTOALL,    /* round robin over all other hosts */
    PAT_RING,        /* src + 1 mod n */
    PAT_NEIGHBOUR,   /* src - 1 or src + 1 mod n, with equal probability */
    PAT_SILENT,      /* Paper IV silent trees: C nodes to fixed hot spots, V uniform */
    PAT_WINDY,       /* Paper IV windy trees: B nodes a share p to the hot spot by byte budget */
    PAT_MOVING,      /* Paper IV moving trees: hot spots relocate every `lifetime` */
};

/* Roles of nodes in the congestion-tree patterns (Paper IV notation). */
enum node_role { ROLE_V = 'V', ROLE_C = 'C', ROLE_B = 'B' };

struct pattern_desc {
    int kind;              /* enum pattern_kind */
    long long dest;        /* fixed: destination host index */
    long long shift;       /* shift: offset */
    long long hotspots;    /* hotspot, silent, windy, moving: number of hot spots */
    double hot_fraction;   /* hotspot: probability that a message goes to a hot spot */
    long long hot_node;    /* hotspot: host index of the (first) hot spot, -1 = random */
    double c_fraction;     /* silent, windy, moving: fraction of hosts that are C nodes */
    double b_fraction;     /* windy, moving: fraction of hosts that are B nodes */
    double p;              /* windy, moving: share of a B node's bytes that go to its hot spot */
    double budget_rate;    /* windy, moving: rate C of the byte budgets, bits/s */
    uint64_t msg_bytes;    /* windy, moving: bytes charged per message by pattern_dest() */
    simtime_t lifetime;    /* moving: time between hot-spot moves */
    int b_uniform_cold;    /* windy, moving: a B node's uniform class avoids the hot spots
                              (b_uniform = cold; default all: Frame I) */
    int split;             /* silent, windy, moving: two flows (queue pairs) per host, one per
                              class (hot spot, uniform), each paced by its own class budget
                              (Paper IV Frame I); read by the fabric builder */
};

extern const struct param pattern_params[];
extern const char *const pattern_kind_names[];

struct pattern {
    struct pattern_desc d;
    int n;                   /* hosts */
    int *perm;               /* permutation patterns: destination of each host, -1 = none */
    int *hot;                /* current hot spots (hotspots entries), hot[i] for subset i */
    uint8_t *is_hot;         /* per host: currently a hot spot */
    uint8_t *role;           /* congestion trees: enum node_role per host */
    int *subset;             /* congestion trees: hot-spot index of each C or B host */
    int *counter;            /* all-to-all: next offset per host */
    uint64_t *hot_sent;      /* windy/moving B nodes: bytes sent to the hot spot */
    uint64_t *uni_sent;      /* windy/moving B nodes: bytes sent uniformly */
    /* moving: the hot spots of epoch `epoch` (now / lifetime) */
    long long epoch;
    uint64_t move_seed;
    gsl_rng *move_rng;
    int *pool;               /* 0..n-1, the population hot spots are drawn from */
};

int pattern_init(struct pattern *p, const struct pattern_desc *d, int nhosts, gsl_rng *setup_rng,
                 struct ibn_err *e);
/* Destination host (0..n-1, never src) of the next message of host `src` at time `now`;
 * -1 when `src` sends nothing in this pattern (fixed points of permutations, the `dest` of
 * the fixed pattern). For windy/moving B nodes the class (hot spot or uniform) is the one
 * whose byte budget admits a msg_bytes message first (see pattern_budget_time), and the
 * message is charged to it. */
int pattern_dest(struct pattern *p, int src, simtime_t now, gsl_rng *r);
void pattern_free(struct pattern *p);

/* Congestion trees: role of a host ('C', 'B', 'V'; 'V' for all other patterns). */
int pattern_role(const struct pattern *p, int host);
/* Whether `host` is a hot spot at time `now` (hotspot, silent, windy, moving). */
int pattern_is_hotspot(struct pattern *p, int host, simtime_t now);
/* Congestion trees, for host adapters that keep the two classes in separate queues (so that
 * throttled hot-spot traffic does not block the rest, Paper IV Frame I): the earliest time at
 * which class `to_hot` (1 hot spot, 0 uniform) of host `src` may start a message of `bytes`
 * bytes. B nodes: without exceeding the class budget (share x t x budget_rate / 8 bytes by
 * time t); SIMTIME_NEVER when the class has no share (p = 0 or 1). C nodes have only the hot
 * class and V nodes only the uniform class, unbudgeted: 0 for it, SIMTIME_NEVER for the other.
 * SIMTIME_NEVER for patterns without node roles. */
simtime_t pattern_budget_time(const struct pattern *p, int src, int to_hot, uint32_t bytes);
/* A destination of class `to_hot` for host `src` at `now`, charging `bytes` to the class.
 * C and V nodes of congestion trees get what pattern_dest() gives them (C: their hot spot;
 * V: uniform over all other hosts). */
int pattern_dest_class(struct pattern *p, int src, int to_hot, uint32_t bytes, simtime_t now,
                       gsl_rng *r);
/* The hot spot a B or C node's hot-spot messages go to at `now`, or -1 if it has none or they
 * go to changing hosts. */
int pattern_hot_dest(struct pattern *p, int src, simtime_t now);
/* One flow per B node whose adapter paces each destination (a queue pair per destination):
 * the class of its next message of `bytes` bytes at `now` (1 hot spot, 0 uniform) when the
 * hot spot's queue pair may send from `hot_ready`: of the classes whose budget admits a
 * message now, the one furthest behind its budget, but not the hot-spot class while its queue
 * pair waits, so that throttled hot-spot traffic does not hold back the uniform traffic (Frame
 * I). -1 when neither may start now; *wait is then when one may (SIMTIME_NEVER: never). */
int pattern_b_class(const struct pattern *p, int src, uint32_t bytes, simtime_t now,
                    simtime_t hot_ready, simtime_t *wait);

#endif

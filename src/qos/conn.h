/* conn.h: connections as scenario objects: the request process that asks the admission
 * control (admit.h) for connections. Each request has a source and destination adapter
 * (uniform, destination != source), an SL drawn by the classes' weights, a mean bandwidth
 * uniform in the SL's range, a deadline (0 = the SL's distance) and a packet size. Two
 * processes (digest 001 gap 17):
 * - fill:    requests one after another until `stop_fails` consecutive ones are refused
 *            (seed 001's "until no more connections can be established"); nothing leaves;
 * - dynamic: Poisson arrivals at `rate` per second, each admitted connection held for an
 *            exponential time of mean `hold`, then torn down (reservations released); runs
 *            for `max_requests` requests.
 * The admitted connections are kept (with their source, destination and route) so that they
 * can carry traffic through the simulated fabric. With keep_all (a scenario's live
 * connections) dynamic keeps every admitted connection with its admission and teardown times,
 * stops at `horizon`, tears down what ends before it, and reports every admission and release
 * to on_change (whose ports' tables then changed). */
#ifndef IBN_QOS_CONN_H
#define IBN_QOS_CONN_H

#include <stdint.h>

#include "core/simtime.h"
#include "qos/admit.h"

struct conn_class {
    double weight;          /* relative probability of the SL (0 = never requested) */
    double bw_lo, bw_hi;    /* bandwidth range, bit/s */
};

enum conn_mode { CONN_FILL, CONN_DYNAMIC };

struct conn_gen {
    struct conn_class sl[16];
    enum conn_mode mode;
    long long stop_fails;   /* fill: consecutive refusals that end it */
    long long max_requests; /* both: at most this many requests (0 = no limit for fill) */
    double rate;            /* dynamic: requests per second */
    double hold;            /* dynamic: mean holding time, seconds */
    simtime_t deadline;     /* end-to-end deadline of every request; 0 = the SL's distance */
    uint32_t pkt_bytes;     /* packet size on the wire */
    uint64_t seed;
    int keep_all;           /* dynamic: keep every admitted connection, not only the live ones */
    simtime_t horizon;      /* dynamic: > 0: no request at or after it; teardowns before it done */
    /* Called (when set) after every admission and every release, at its time. */
    void (*on_change)(void *ctx, const struct cac *a, const struct cac_conn *c, simtime_t t);
    void *ctx;
};

/* Seed 001's Table 2: SLs 0-9 with distances 2, 4, 8, 16, 32, 32, 64, 64, 64, 64 and their
 * bandwidth ranges, equally likely; the admission config gets the SLs' distances, SL i on
 * VL i, and SLs 10-15 not guaranteed. */
void conn_table2(struct conn_gen *g, struct cac_cfg *c);

struct conn_entry {
    struct cac_req req;
    struct cac_conn conn;
    simtime_t start, end;   /* dynamic: admitted at, torn down at */
};

struct conn_set {
    int n, cap;
    struct conn_entry *c;   /* admitted connections (fill: all; dynamic: those live at the end,
                             * or with keep_all every one, end = SIMTIME_NEVER if still live) */
    simtime_t now;          /* dynamic: time of the last request */
};

/* Run the request process against the admission control `a`. */
int conn_run(struct cac *a, const struct conn_gen *g, struct conn_set *out, struct ibn_err *e);
void conn_set_free(struct conn_set *s);

#endif

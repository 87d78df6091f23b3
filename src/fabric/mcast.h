/* mcast.h: multicast in the fabric (seed 004 section 3.6): static groups (an MLID per group and
 * source, members named as topo_addr.h names hosts), their multicast forwarding tables
 * (source-based trees from the unicast routes, or an OpenSM opensm-mfts.dump), the replication
 * scheme the switches use, and per-member statistics.
 *
 * Schemes (multicast.scheme):
 * - unicast: no replication in switches; the source adapter sends one unicast copy of every
 *   message to every member (seed 004's "replicated unicast").
 * - sync: synchronous replication. A multicast packet at the head of its input's multicast
 *   queue owns every output it needs for which it is the oldest (FCFS by tail arrival) waiting
 *   multicast head; an owned output sends nothing else. It leaves, copied to all its outputs at
 *   the same instant, only when it owns all of them, all are idle and each has the credits.
 * - async: asynchronous replication with a counter and a one-packet buffer per input VL:
 *   copies go to whichever outputs can take them, multicast ahead of unicast on the same VL;
 *   the first copy moves the packet out of its input VL (its credits go back) into that VL's
 *   one-packet buffer, from which the other copies leave; the next multicast packet of that
 *   input VL starts when the counter reaches 0. With multicast.async_buffer = switch there is
 *   one such buffer per switch (while it is taken no other multicast packet starts in the
 *   switch), the other reading of the seed; it deadlocks under load (docs/multicast.md).
 * - central: asynchronous replication with a central buffer: a head packet is copied at once
 *   into a multicast FIFO per output (when every FIFO it needs has room, multicast.central_buffer
 *   bytes each), freeing its input; an output serves its FIFO's head ahead of unicast on that VL.
 * Multicast packets wait at a switch input in a queue of their own per VL (beside the
 * architecture's unicast queues) and hold the input's buffer space and credits like any packet.
 * The lifetime limits (drop.h) apply to the packet a multicast queue works on (its head, or
 * async's buffered packet), with drop.h's protection rules; copies already in output FIFOs
 * (central, sync with buffers) are not dropped. */
#ifndef IBN_MCAST_H
#define IBN_MCAST_H

#include "core/error.h"
#include "core/params.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "routing/mft.h"
#include "stats/histogram.h"
#include "topology/topo.h"

struct json_t;

enum mc_scheme { MC_UNICAST, MC_SYNC, MC_ASYNC, MC_CENTRAL };
extern const char *const mc_scheme_names[];

struct mgroup_desc {
    char *name;
    long long mlid;          /* the MLID of its first source; source k gets mlid + k */
    char *members;           /* host set (topo_addr.h) */
    char *sources;           /* host set of the hosts that may send to it ("*": every host) */
    const char *file;
    int line;
};

struct mcast_desc {
    int scheme;              /* enum mc_scheme */
    uint64_t central_buffer; /* central: bytes of each output's multicast FIFO */
    int async_buffer;        /* async: 0 a one-packet buffer per input VL, 1 one per switch */
    int sync_outputs;        /* sync: 0 one-packet output buffers, 1 hold the links themselves */
    int sync_order;          /* sync: 0 switch: FCFS reservations by arrival at the switch;
                              * 1 source: by injection at the source (one order across the
                              * network); 2 none: no reservation, a head goes when all its
                              * outputs are free at once (tried oldest first by arrival) */
    char *mft_file;          /* forwarding tables from an OpenSM dump instead of trees, "" */
    int tree;                /* 0 source: a tree and an MLID per (group, source); 1 opensm: one
                              * MLID per group, OpenSM's spanning tree shared by its sources */
    int xbar_priority;       /* switch.arch = pipe: multicast heads first at the crossbar */
    int ngroups;
    struct mgroup_desc *groups;
};
extern const struct param mcast_params[];
void mcast_desc_defaults(struct mcast_desc *d);
void mcast_desc_free(struct mcast_desc *d);

/* A group as the fabric runs it. */
struct mgroup {
    char *name;
    int nmembers;
    int *members;            /* host indices */
    int *member_pos;         /* [host] position in members, -1 */
    uint16_t *src_mlid;      /* [host] the MLID this host sends to, 0 if it is not a source */
    uint64_t *pkts;          /* [member] packets delivered (measured period) */
    struct histogram *lat;   /* [member] latency of measured packets, message created to delivered */
};

struct mcast {
    int scheme;
    int ngroups;
    struct mgroup *g;
    int nmlid;
    int16_t *group_of;       /* [mlid - MLID_FIRST] group index, -1 */
    struct mfts mft;
    int32_t cb_cap;          /* central buffer per output, credits */
    int async_switch;        /* async: one buffer per switch rather than per input VL */
    int fifo_mode;           /* copies wait in output FIFOs (central; sync with output buffers) */
    int by_source;           /* sync with sync_order = source: FCFS by injection at the source */
    int no_reserve;          /* sync with sync_order = none: waiting heads reserve nothing */
    int xbar_prio;           /* pipe: multicast heads first at the crossbar (xbar_priority) */
    uint64_t waits;          /* sync: times an owned output stayed idle for its multicast */
    uint64_t dropped;        /* multicast packets dropped by a lifetime limit (in cnt.dropped_*) */
    uint64_t dropped_partial;/* of them, async packets dropped from the one-packet buffer after
                              * some of their copies had left */
    uint64_t copies_lost;    /* outputs the dropped packets still needed (one per output) */
    uint64_t dropped_output; /* of `dropped`, copies dropped at the head of an output VL buffer
                              * (switch.arch = pipe replicates before its output buffers): one
                              * packet and one output each */
    uint64_t dropped_hoq, dropped_sll; /* `dropped` by cause (also in cnt.dropped_hoq / _sll) */
    uint64_t unroutable;     /* multicast packets dropped for want of an output (in
                              * cnt.dropped_unroutable) */
    uint64_t sent;           /* multicast packets (MLID destination) the sources created */
    uint64_t delivered;      /* multicast packets delivered to adapters, warm-up included */
};

/* Per switch (sw->mc). */
struct sw_mc {
    const uint64_t *mft;     /* this switch's masks, [mlid - MLID_FIRST][words] */
    int words;
    struct pktq *q;          /* [in * nvs + slot] multicast packets at input in on VL slot */
    uint64_t *rem;           /* [(in * nvs + slot) * words] outputs its head still needs */
    int nheads;              /* queues with a head */
    uint32_t *buf;           /* async: [in * nvs + slot] the packet in the input VL's one-packet
                              * buffer (its first copy left; rem holds the counter), or PKT_NIL */
    int nbuf;                /* buffers in use */
    simtime_t *since;        /* [in * nvs + slot] when its current packet became the head (the
                              * lifetime limits, drop.h) */
    struct pktq *cq;         /* central: [out] the output's multicast FIFO */
    int32_t *cq_used;        /* [out] credits in it */
};

/* Build the groups and forwarding tables (after the switches exist). Errors name file:line. */
int mcast_build(struct fabric *f, const struct topo *t, const struct lfts *l,
                const struct mcast_desc *d, struct ibn_err *e);
void mcast_free(struct fabric *f);
/* The group a flow destination "mcast:NAME" names, or -1 (e set: unknown group). */
int mcast_group_find(const struct fabric *f, const char *dst, struct ibn_err *e);

/* Switch side (mcast_switch.c). */
/* A copy of packet pidx from the pool, counted in cnt.replicas (the pool may move). */
uint32_t mcast_replica(struct fabric *f, uint32_t pidx);
/* Seed 004's FCFS order among multicast packets: whether a comes strictly before b (by the
 * tail's arrival at the switch, or under sync with sync_order = source by injection at the
 * source, then source LID and PSN); callers break ties by input, then VL. */
int mcast_before(const struct fabric *f, const struct packet *a, const struct packet *b);
/* VL of the copy of p (arrived on `in`) on output `out` of s (SL-to-VL). */
int mcast_copy_vl(const struct fabric *f, const struct sw *s, int in, int out, const struct packet *p);
void mcast_arrive(struct fabric *f, struct sw *s, struct port *in, uint32_t pidx);
/* sync: before arbitration at idle output `out` (credits absorbed): 1 when a synchronous
 * packet owns the output (it left now, copied to all its outputs, or it waits and the output
 * stays idle), 0 to go on with arbitration. */
int mcast_output(struct fabric *f, struct sw *s, int out);
/* async, central: whether a multicast copy may leave on (out, slot) now with `credits`
 * (*credit_blocked set when one waits for credits); it goes ahead of unicast on that VL. */
int mcast_cand(struct fabric *f, struct sw *s, int out, int slot, int32_t credits, int *credit_blocked);
/* Send that copy (output `out` idle, VL arbitration chose `slot`). */
void mcast_send(struct fabric *f, struct sw *s, int out, int slot);
/* Whether multicast packets wait for `out` (so its end of transmission must be an event). */
int mcast_wants(const struct fabric *f, const struct sw *s, int out);
uint64_t mcast_held(const struct fabric *f, const struct sw *s);
/* EV_HOQ for the multicast packet at the head of (in, slot) (drop.c hands it on): drop it if it
 * is past a lifetime limit and not protected (drop.h's rules), from its input queue or, under
 * async, from the one-packet buffer with its copies not yet made (a partially replicated
 * packet). */
void mcast_drop_check(struct fabric *f, struct sw *s, int in, int slot);
/* The EV_HOQ key of multicast (in, slot) events: above every unicast (out, slot) key. */
static inline uint32_t mcast_hoq_key(const struct fabric *f, const struct sw *s, int slot)
{
    return (uint32_t)((s->n.nports + 1) * f->nvs + slot);
}

/* Adapter side: a packet of multicast flow fl reached host h: the member's packet and latency
 * counts, and when it is a message's last packet, its deadline (the frame's at that member,
 * seed 004's DMP and DMT per receiver). Returns whether h is a member. */
int mcast_delivered(struct fabric *f, struct flow *fl, int host, const struct packet *x);
/* Whether host h is a member of the group of MLID lid. */
int mcast_member(const struct fabric *f, int lid, int host);
void mcast_report(struct fabric *f, struct json_t *summary);

#endif

/* fabric.h: the running model of an InfiniBand fabric: nodes (switches and channel adapters),
 * their ports with per-VL credits and receive buffers, flows (queue pairs), the packet pool,
 * the event queue and the statistics. Built from a topology, forwarding tables and settings by
 * fabric_build(); run by fabric_run(). All state lives in struct fabric (no globals), so a
 * fabric partition can be simulated independently.
 *
 * Timing model (virtual cut-through, credit-exact):
 * - a packet may start on a link only when the sender holds credits for all of it
 *   (ceil(wire bytes / 64) on the packet's VL at the receiver); VL15 needs none;
 * - its head reaches the peer one propagation delay later; a switch may forward it once the
 *   head has arrived and the switch latency has passed; the tail leaves no earlier than it
 *   arrived, so a faster output stays busy until the tail is in;
 * - the receive-buffer space is freed when the tail has left the input buffer (switch) or the
 *   adapter has consumed the packet, and the credits reach the sender one link delay later.
 *
 * Credit returns cost an event only when they can matter at the moment they land. A return is
 * recorded at its sender with its arrival time and the scheduling number its event would have
 * had (reserved from the event queue, so every other event keeps its number), and absorbed
 * when the sender next arbitrates: exactly those returns that an event-per-return model would
 * have applied before the current event. An event at the return's own (time, number) is
 * scheduled only while the sender is idle with packets waiting, the one case where the old
 * per-return event started an arbitration that could do something (a busy sender or one with
 * nothing to send ignored it). Results are therefore identical to one event per return.
 * The end of a transmission works the same way: its scheduling number is reserved when it
 * starts, and its EV_TX_DONE is queued only once packets wait for the transmitter (or an
 * adapter's injection limit needs the wake-up); otherwise the transmitter simply counts as
 * free from that (time, number) on (port_busy). */
#ifndef IBN_FABRIC_H
#define IBN_FABRIC_H

#include <stdint.h>
#include <stdio.h>

#include <gsl/gsl_rng.h>

#include "core/eventq.h"
#include "core/simtime.h"
#include "fabric/hooks.h"
#include "fabric/msgtab.h"
#include "fabric/packet.h"
#include "fabric/vlarb.h"
#include "stats/histogram.h"
#include "stats/measures.h"
#include "traffic/arrival.h"
#include "traffic/pattern.h"

#define MAX_VLS 15   /* data VLs 0..14 */
#define VL_SLOTS 16  /* data VLs plus VL15 (slot 15) */
#define VL15 15
#define FLOW_NIL UINT32_MAX
#define FLOW_MQ_FIRST 2      /* a flow's message ring starts with this many slots (struct flow) */

struct node;
struct drop_state;
struct sw_drop;
struct adapt_policy;
struct mcast;
struct sw_mc;
struct period;
struct port_counts;

/* perfquery-style counters of one port on one VL (bytes are counted LRH..ICRC). */
struct port_vl_counters {
    uint64_t xmit_bytes, rcv_bytes;
    uint64_t xmit_pkts, rcv_pkts;
    simtime_t xmit_wait;     /* time with a packet waiting and no credits for it */
    simtime_t wait_since;    /* start of the current wait, or -1 */
};

/* Observers of a port's link (port.watch), so that the data path tests one byte per hop. */
#define WATCH_CAPTURE 1      /* packets that start on the link go to fabric.capture_fn */
#define WATCH_TIMELINE 2     /* the link is on the timeline (both ends are marked) */
#define WATCH_CUT 4          /* a distributed run: another rank handles the peer (fabric.dist) */

/* What the timeline is told (fabric.timeline_fn(f, note, at, p, t, a, b)): */
enum timeline_note {
    TLN_SPAN,        /* p starts on the link of `at` at t, busy for a ps */
    TLN_RX,          /* `at`'s receive buffer on slot b changes by a credits at t */
    TLN_CREDITS,     /* `at`'s credits on slot b change by a at t */
    TLN_CCTI,        /* a CCTI at source port `at` is a from t: b = flow index (QP level), flow
                      * | (host + 1) << 32 (a queue pair per destination host), -1 - SL (SL level) */
    TLN_FECN,        /* output `at` FECN-marks p */
    TLN_BECN,        /* adapter `at` receives p carrying BECN */
    TLN_CNP,         /* adapter `at` answers FECN-marked p with a CNP */
    TLN_DROP,        /* p is dropped at switch input `at`: b = 0 no route, 1 HOQ, 2 SLL,
                      * 3 lost (switch.loss); or discarded by the responder `at`: b = 4 */
};

/* Credits on their way back to a sender: they count from (t, seq), the time and scheduling
 * number a credit-update event would have had. */
/* What a port keeps per VL slot, in one cache line: a hop touches the sender's and the
 * receiver's line of its VL and nothing else per VL. */
struct port_vl {
    /* Transmit side: credits granted by the peer's receive buffer (64-byte units), as absorbed
     * so far (port_absorb_credits brings them up to the present), and the most it can grant. */
    int32_t credits;
    int32_t credit_cap;
    /* Receive side: buffer use and capacity, in credits. */
    int32_t rx_used;
    int32_t rx_cap;
    struct port_vl_counters ctr;
} __attribute__((aligned(64)));

#define CRET_INLINE 4 /* credit returns a port holds without allocating (a power of two) */
struct credit_return {
    simtime_t t;
    evseq_t seq;
    int32_t credits;
    uint16_t slot;
    uint8_t woken;           /* a wake-up event at (t, seq) is pending */
};

/* Fields in the order the data path touches them: the scalars of a hop in the first two
 * cache lines, the first credit returns; the per-VL lines are apart (port.vl). */
struct port {
    struct node *node;
    struct port *peer;       /* the other end of the cable, NULL if uncabled */
    /* Per-VL state, one cache line per VL slot in use (fabric.nvs: the data VLs and VL15),
     * allocated per node beside the ports (fabric_build): a port reserves no line for VLs the
     * fabric does not use. */
    struct port_vl *vl;
    byterate_t rate;         /* data rate of the cable */
    simtime_t delay;         /* propagation delay of the cable */
    /* Credit returns still travelling to this (transmit) side, in (t, seq) order: a ring of
     * cret_cap entries, cret_inline until more are needed. */
    struct credit_return *cret;
    uint32_t cret_head, cret_n, cret_cap;
    simtime_t cret_next;     /* arrival time of the first, SIMTIME_NEVER if none */
    int32_t rx_total;        /* receive-buffer use over all VLs, credits */
    int32_t rx_peak;         /* largest total use seen, credits */
    uint16_t num;            /* IB port number */
    uint8_t tx_busy;         /* a transmission ended at (busy_until, done_seq) has not been
                              * handled: see port_busy() */
    uint8_t is_switch;
    uint8_t credit_watch;    /* idle with packets waiting at its last arbitration */
    uint16_t waiting;        /* VL slots whose PortXmitWait is running (vl[].ctr.wait_since >= 0) */
    uint8_t done_sched;      /* the transmitter's EV_TX_DONE is in the event queue */
    uint8_t watch;           /* observers of this port's link: WATCH_* bits */
    uint8_t lmc;
    uint16_t lid;            /* adapter ports: base LID */
    struct vlarb_state arb;
    struct vlarb_table *vlarb;
    struct hca_port *hca;    /* adapter ports only */
    void *cc;                /* congestion-control state of this port (plug-in owned) */
    simtime_t busy_until;
    simtime_t tx_start;      /* when the last transmission started (period.c: busy time) */
    uint32_t tx_wire;        /* its wire bytes */
    evseq_t done_seq;        /* scheduling number reserved for the end of the transmission */
    uint64_t sample_rx_credit_time; /* for the occupancy time series */
    struct credit_return cret_inline[CRET_INLINE];
} __attribute__((aligned(64))); /* ports start on cache lines (320 bytes) */

struct sw_arch;
struct sw_msg;
struct isol_hca;
struct sw_islip;

struct node {
    int index;               /* in the topology */
    int is_switch;
    const char *name;
    const char *alias;       /* short alias (topo_addr.h): terminal tables, group flow names */
    int nports;
    struct port *port;       /* port[0..nports]; port[0] unused in the data path */
    uint64_t guid;           /* node GUID (results name nodes by it beside the name) */
    uint16_t lid;            /* switches: the switch LID (port 0) */
};

struct sw {
    struct node n;
    const struct sw_arch *arch; /* the input-memory organisation (fabric/swarch.h) */
    simtime_t latency;       /* head arrival to earliest forwarding */
    int read_ports;          /* crossbar read ports per input */
    double speedup;          /* crossbar speed / output link speed */
    int cut_through_late;    /* start a packet for a faster output only when it can end as its
                              * tail arrives */
    int words;               /* 64-bit words of an input bitset */
    const uint8_t *lft;      /* output port per LID */
    int max_lid;
    uint8_t *sl2vl;          /* [in][out][16] or NULL: VL = SL mod nvls */
    struct pktq *q;          /* the architecture's queues, in its own layout */
    size_t nq;
    void *arch_state;        /* anything else the architecture keeps */
    uint8_t retry;           /* the architecture asked to retry stalled outputs after the
                              * current arbitration */
    uint8_t fast;            /* the common set-up that switch.c's fast path serves (VOQs, one
                              * data VL, ...: switch_prepare) */
    uint8_t fast_in;         /* and arrivals too: no adaptive routing, late cut-through or loss */
    uint32_t read_tag;       /* set by an architecture's dequeue: handed back to its read_done */
    uint64_t *req;           /* [out][slot] bitset of inputs with a head packet for (out, slot) */
    uint32_t *req_slots;     /* [out] bit `slot` set while req[out][slot] is not empty: an
                              * arbitration visits only those slots (and the ones waiting) */
    uint16_t *rr;            /* [out][slot] last input served */
    uint8_t *reads;          /* [in] read ports in use */
    uint64_t *rbusy;         /* bitset of inputs whose read ports are all in use (reads[in] >=
                              * read_ports), kept only when read ports can bind */
    uint64_t *stalled;       /* bitset of outputs that skipped an input for a busy read port */
    struct sw_drop *drop;    /* selective dropping's registers (drop.h), NULL when off */
    const struct adapt_policy *adapt; /* adaptive output choice (adapt.h), NULL when off */
    void *adapt_state;
    uint16_t pb_local;       /* LMC bits this switch decides for adaptive packets */
    struct sw_mc *mc;        /* multicast queues and replication state (mcast.h), NULL if none */
    struct sw_islip *islip;  /* iSLIP's pointers and matching state (islip.c), NULL when the
                              * scheduler is the unslotted output round robin */
};

/* A message waiting at its flow. */
struct msg {
    simtime_t created;
    uint32_t bytes;
    uint16_t dst_lid;
    uint8_t ftype;           /* video frames: 'I', 'P', 'B'; 0 otherwise */
    uint8_t tries;           /* posting attempts refused (a real-time consumer's drop and retry) */
    simtime_t posted;        /* when it was posted to the adapter (took a credit of a message
                              * window); SIMTIME_NEVER while in the consumer's backlog */
};

/* A started message set aside because its destination must wait (a destination-paced flow). */
struct held_msg {
    struct msg m;
    uint32_t left;           /* bytes not yet in a packet */
    simtime_t svc_start;     /* when its first packet started */
};

struct flow_stats {
    uint64_t msgs_offered, msgs_refused;
    uint64_t msgs_refused_adapter; /* of msgs_refused: by the adapter's shared buffer (hca.messages) */
    uint64_t msgs_offered_measured, msgs_refused_measured; /* arrived in the measured period */
    /* Time integral over the measured period of the number of the flow's messages at its
     * source: waiting (qn) plus the one being transmitted, from the start of its first packet
     * to the end of its last packet on the source link. In message-picoseconds (a double: an
     * integer could overflow for long runs with deep queues). */
    double queue_area;
    simtime_t queue_last;         /* when queue_area last took in the waiting messages */
    uint64_t pkts_sent, bytes_sent;
    uint64_t pkts_delivered, bytes_delivered, msgs_delivered;   /* measured (after warm-up) */
    uint64_t interval_bytes;      /* delivered since the last sample */
    struct histogram net_latency; /* head injected to delivered, per packet */
    struct histogram e2e_latency; /* message created to delivered, per packet */
    struct histogram msg_latency; /* message created to its last packet delivered; while
                                   * msg_is_e2e, not kept: read it with flow_msg_latency() */
    struct histogram posted_latency; /* flows with a message window (seed 003's credits): message
                                      * posted to the adapter to its last packet delivered */
    struct deadline_acc deadlines;/* messages (frames) against their deadlines */
    struct jitter jitter;         /* message arrival gaps against the source's period */
    struct video_deadline vdl;    /* video and trace flows: seed 003's deadline rule */
    uint8_t has_deadlines, has_jitter;
    uint8_t msg_is_e2e;           /* every measured packet delivered so far was its message's
                                   * last: msg_latency would equal e2e_latency, sample for
                                   * sample, so it shares e2e_latency's bins (set at build; a
                                   * message of several packets copies them out and clears it) */
};
/* A flow's message latency (msg_latency, or e2e_latency while they are the same). */
static inline const struct histogram *flow_msg_latency(const struct flow_stats *st)
{
    return st->msg_is_e2e ? &st->e2e_latency : &st->msg_latency;
}

#define RC_POSTED_MAX 65536
/* What the requester remembers of a packet sent and not yet acknowledged, to send it again
 * (go-back-N retransmission, transport.retransmit). */
struct rc_sent {
    simtime_t created;       /* its message's creation time */
    uint32_t msg;            /* message number */
    uint16_t dst_lid;        /* the LID it went to (its path offset included) */
    uint16_t payload;
    uint8_t flags;           /* PKT_LAST, PKT_KEEP, PKT_MEASURED */
};
/* One reliable connection (a queue pair to one destination host) of a flow with go-back-N
 * retransmission (transport.c; fabric.rtx set): IBA gives each RC connection its own PSN
 * sequence, Local ACK Timeout, retry counters and error state, and its responder its own
 * expected PSN and receive queue. A flow to one host has one; a flow to many hosts one per
 * destination host. */
struct rc_conn {
    /* The requester: PSNs [psn_acked, psn_next) are unacknowledged; it sends PSN `snd` next
     * (snd < psn_next: again, from the ring `sent`, at psn & (sent_cap - 1)). */
    uint32_t psn_next, psn_acked, snd;
    struct rc_sent *sent;
    uint32_t sent_cap;       /* a power of two, or 0 */
    uint32_t back_next;      /* next connection of the flow's list of those with packets to send
                                again (RC_CONN_NIL ends it) */
    uint32_t msgs_made;      /* messages whose last packet was made on this connection */
    uint32_t msgs_acked;     /* ... and acknowledged */
    uint32_t msgs_begun;     /* messages whose first packet was made on this connection */
    simtime_t tmo_at;        /* Local ACK Timeout: due then unless an ACK makes progress first;
                                SIMTIME_NEVER while nothing is outstanding */
    simtime_t rnr_at;        /* waiting out an RNR NAK's timer until then, else SIMTIME_NEVER */
    uint32_t rnr_psn;        /* ... and then sending again from this PSN */
    uint8_t tmo_sched;       /* an EV_RC_TIMER for its Local ACK Timeout is queued */
    uint8_t retries;         /* retries (timeouts, NAK sequence errors) since the counter was
                                last reset, against transport.retry_cnt */
    uint8_t rnr_retries;     /* RNR NAK retries since the last reset, against rnr_retry */
    uint8_t failed;          /* 0, or why the QP went to the error state (enum rc_error) */
    uint8_t back;            /* linked in the flow's list of connections going back */
    uint8_t making;          /* a message's first packet was made and its last not yet */
    /* The responder. */
    uint8_t nak_sent;        /* a NAK for epsn was sent, none again until it arrives */
    uint8_t rin;             /* inside a message: the last packet accepted was not its last */
    uint32_t epsn;           /* the PSN it expects next */
    uint32_t emsg;           /* the message number expected next (rin: the current one) */
    uint32_t rmsgs;          /* messages accepted whole */
    uint32_t rq_avail;       /* receive WQEs posted (transport.rq_depth > 0) */
    simtime_t rq_next;       /* when the application posts the next one (while not full) */
};
#define RC_CONN_NIL UINT32_MAX

/* Why a queue pair went to the error state (a completion error, as IBA's work completion
 * status names it). */
enum rc_error { RC_OK, RC_RETRY_EXC_ERR, RC_RNR_RETRY_EXC_ERR };

/* The part of a flow's reliable-connection state that only RC, a window or a plug-in's drop
 * and retry use (transport.c): a UD flow does not pay for it (struct rc_qp's `x` points to
 * one shared read-only record of zeros, rc_ext_none: reading it gives what a UD flow always
 * had, and a write to it, which would be a bug, faults). transport_rc_own() gives a flow its
 * own record, at set-up time only. */
struct rc_ext {
    uint8_t *becn_dest;      /* a flow to many hosts: the responder's BECN per destination host, or NULL */
    uint64_t acks;           /* ACKs received (measured or not) */
    /* Drop and retry (seed 003's real-time consumers, set by a plug-in): with retry > 0 a flow
     * whose window has no room for a new message does not wait for an ACK: the posting attempt
     * is dropped (counted) and repeated `retry` later; after `retries_max` refused retries of
     * one message (-1: no limit) the message is given up (lost). Counted after the warm-up. */
    simtime_t retry;
    int32_t retries_max;
    uint64_t drops;          /* posting attempts refused */
    uint64_t lost;           /* messages given up */
    /* Go-back-N retransmission (transport.c; fabric.rtx set). */
    struct rc_conn *conn;    /* [nconn]: one for a flow to one host, else one per host */
    uint32_t nconn;
    uint32_t back_head, back_tail; /* connections with packets to send again, in order */
    uint8_t failed;          /* a flow to one host: its QP is in the error state, sends nothing */
    uint32_t conns_failed;   /* connections in the error state */
    uint64_t msgs_flushed;   /* messages not sent because their connection was in error */
    uint64_t resent;         /* packets sent again */
    uint64_t naks;           /* NAKs (sequence error) received */
    uint64_t rnr_naks;       /* RNR NAKs received */
    uint64_t rnr_discards;   /* responder: first packets refused for want of a receive WQE */
    uint64_t timeouts;       /* Local ACK Timeouts */
    uint64_t dups;           /* responder: duplicates discarded (and re-acknowledged) */
    uint64_t oos;            /* responder: out-of-sequence packets discarded */
    /* Message windows: the posting time of each undelivered message, by number (rc_qp.posted
     * points here when it is kept). */
    struct msgtab posted;
    /* A flow to many hosts without retransmission, ACKs per message: the packets of each
     * unacknowledged message, which its ACK acknowledges (transport_on_ack). */
    struct msgtab pkts;
    /* A distributed run with message windows: every message's posting time by its number
     * (the table is the source's, which the destination's rank cannot read; dist.c joins the
     * two at rank 0). */
    simtime_t *posted_log;
    uint32_t nposted, posted_cap;
};
extern const struct rc_ext rc_ext_none;

/* A flow's reliable-connection state (transport.c): the requester's sequence numbers, and the
 * responder's pending BECN (kept with the flow for convenience; the destination sets it). With
 * retransmission the PSNs and message counts here are the flow's totals over its connections
 * (x->conn[]), and `snd` is psn_next less the packets waiting to be sent again. What the data
 * path of every flow reads is here; the rest behind `x` (struct rc_ext). */
struct rc_qp {
    uint32_t psn_next;       /* PSN of the next data packet */
    uint32_t psn_acked;      /* packets acknowledged (cumulative: every PSN below it) */
    uint32_t msg_begun;      /* messages started */
    uint32_t msg_acked;      /* messages whose last packet is acknowledged */
    uint32_t window;         /* its size */
    uint32_t snd;            /* go-back-N: the next PSN to send (psn_next unless going back) */
    uint32_t rnr_hold;       /* connections waiting out an RNR NAK's timer */
    uint8_t win;             /* a window limits this flow (RC with transport.window >= 1, or a
                                plug-in's per-flow window) */
    uint8_t win_msgs;        /* the window counts messages (else packets) */
    uint8_t blocked;         /* the window stopped it: an ACK re-evaluates it */
    uint8_t becn;            /* responder, a flow to one host: a FECN since the last ACK */
    uint32_t *dout;          /* a window per destination (transport.window_per = destination, a
                                flow to many hosts): unacknowledged packets per host, else NULL */
    struct msgtab *posted;   /* a message window of at most RC_POSTED_MAX: when each undelivered
                                message was posted to the adapter, for the posted latency
                                (&x->posted); NULL otherwise */
    struct rc_ext *x;        /* &rc_ext_none (read-only zeros) until transport_rc_own() */
};

/* Which of the destination's 2^LMC LIDs (and so which route) a flow's packets use. */
enum flow_path {
    PATH_BASE,     /* the base LID */
    PATH_QP,       /* fixed per queue pair: offset = QP number mod 2^LMC */
    PATH_MESSAGE,  /* round robin per message: offset = message number mod 2^LMC */
    PATH_RANDOM,   /* uniform per packet (datagrams) */
    PATH_SHORTEST, /* the LID whose route has the fewest switch hops, lowest offset on ties */
    PATH_ADAPTIVE, /* chosen at each switch by its adaptive policy (adapt.h), from offset 0 */
};
extern const char *const flow_path_names[];

/* What a flow's `load` counts. */
enum load_counts { LOAD_PAYLOAD, LOAD_WIRE };
extern const char *const load_counts_names[];

struct lanes;

struct flow {
    uint32_t index;
    char *name;
    struct port *src;        /* source adapter port */
    int src_host;            /* index into fabric.hosts */
    int dst_host;            /* fixed destination host, or -1 for a pattern */
    int pattern;             /* 0 fixed, 1 uniform over the other hosts, 2 pattern `pat`,
                              * 3 uniform over the group dset (less the source), 4 multicast
                              * as replicated unicast (every message to every member of dset
                              * but the source, in turn), 5 multicast to MLID `mlid` */
    int mgroup;              /* patterns 4, 5: the multicast group (mcast.h), else -1 */
    struct video_deadline *mc_vdl; /* multicast flows with deadlines: [member] the deadline rule
                              * at each member (video, trace), NULL otherwise */
    struct deadline_acc *mc_dl; /* [member] that member's frames against their deadlines */
    uint16_t mlid;           /* pattern 5 */
    uint16_t mc_next;        /* pattern 4: next member */
    int ndset, dset_self;    /* pattern 3: hosts in dset; the source's position there or -1 */
    const int *dset;         /* pattern 3: host indices, owned by fabric.dsets */
    struct pattern *pat;     /* shared by the flows of one scenario entry */
    int8_t pat_class;        /* a split pattern flow's class (1 hot spot, 0 uniform): it sends
                                only that class, each message when the class budget admits it
                                (pattern_budget_time); -1: not split */
    uint8_t sl, vl;
    char *cls;               /* traffic class name or NULL */
    uint8_t active;          /* started and not stopped */
    uint8_t ready;           /* in its port's ready ring */
    uint8_t waking;          /* a wake event is pending */
    uint8_t saturate;
    simtime_t start, stop;
    simtime_t next_ok;       /* earliest start of its next packet (pacing, CC inter-packet delay) */
    struct arrival arr;
    gsl_rng *rng;
    /* Messages waiting: a ring of capacity qcap, grown by doubling (flow_mq_grow) up to qmax,
     * the most the source may hold (max_pending): most flows never hold more than one or two,
     * and 64 reserved up front cost 2 KiB per flow. */
    struct msg *mq;
    uint32_t qhead, qn, qcap, qmax;
    uint32_t qposted;        /* a message window: the first qposted of them are posted to the
                              * adapter (hold a credit); the rest are the consumer's backlog */
    /* The message being sent. */
    struct msg cur;
    uint32_t cur_left;       /* bytes of cur not yet in a packet */
    uint8_t cur_open;        /* cur is started and its last packet not made yet (a 0-byte
                                message is one packet without payload) */
    simtime_t svc_start;     /* when cur's first packet started */
    struct msg_draw next_draw; /* the message the pending EV_FLOW_MSG will bring */
    uint32_t msg_seq;
    /* Destination pacing (congestion control with a queue pair per destination): the plug-in
     * says when each destination may take the flow's next packet (hooks.dest_ready); a message
     * whose destination must wait is held, up to held_cap of them, while others go. */
    uint8_t dest_paced;
    uint16_t nheld, held_cap;
    struct held_msg *held;   /* oldest first */
    simtime_t wake_at;       /* the pending wake event's time, while waking */
    uint32_t ring_prev, ring_next;
    int64_t in_fabric;       /* its data packets made (sent, sent again, copied by a multicast
                              * switch) less those gone (delivered, dropped, discarded): never
                              * negative, 0 once drained (fabric_check_invariants) */
    struct flow_stats st;
    struct rc_qp rc;
    void *cc;                /* congestion-control state of this flow (plug-in owned) */
    /* Multipath (enum flow_path); with PATH_BASE nothing below is used. */
    uint8_t path;
    uint64_t path_rng;       /* PATH_RANDOM: splitmix64 state, seeded per flow */
    uint64_t *path_pkts;     /* packets sent per LID offset [0, 1 << fabric.max_lmc) */
    struct lanes *lanes;     /* threshold lane regimes (lanes.h), NULL: the link's rate */
};

/* Adapter-side state of a port: flows ready per VL, the control path, injection and sink. */
/* A flow's next message event kept at its adapter (hca.c, "message events"). */
struct msg_event {
    simtime_t t;
    evseq_t seq;
    struct flow *fl;
};

struct hca_port {
    uint32_t ring[VL_SLOTS];   /* a ready flow per VL (round-robin ring head), FLOW_NIL if none */
    /* The flows' message events of this port (hca.c, "message events"): those in the event
     * queue (armed, a stack whose top is the earliest) and the later ones, a binary heap by
     * (time, scheduling number); each keeps the scheduling number taken when it was drawn. */
    struct msg_event *armed, *mheap;
    uint32_t narmed, carmed, nheap, cheap;
    struct pktq ctrl;          /* control packets (CNPs, ACKs): priority path */
    simtime_t inject_free;     /* the injection limit's server is free from then */
    struct pktq sinkq;         /* packets whose tail has arrived, waiting to be consumed */
    uint8_t sink_busy;
    uint8_t wake_pending;      /* a TX_DONE is scheduled for the injection limit */
    int host;                  /* index into fabric.hosts */
    struct isol_hca *isol;     /* CAM lines the switch's isolation queues told it of, with their
                                * stop bits (fabric/isol.c); NULL for other switch designs */
    uint32_t *flows;           /* hca.messages > 0: the flows this port sources, listed at the */
    uint32_t nflows, listed_of; /* first message (listed_of: f->nflows then) */
};

/* The congested-flow isolation designs' settings (the `isolation` section; fabric/isol.c). */
struct isol_settings {
    long long queues;        /* isolation queues per input: CFQs (ccfit) or HPQs (ecocc, hfdi) */
    long long cam_lines;     /* CAM lines per input port; 0 = as many as the design needs */
    long long dlist;         /* destinations one CAM line holds (D) */
    double detect;           /* ccfit: NFQ occupancy that detects congestion, MTU packets */
    double high, low;        /* ccfit: CFQ marking thresholds; ecocc/hfdi: HTh and LTh */
    double stop, go;         /* ccfit: CFQ Stop / Go thresholds, MTU packets */
    double propagate;        /* ccfit: CFQ occupancy that propagates upstream; 0 = high */
    double marking;          /* probability that a packet crossing a root is FECN-marked */
    int eligibility;         /* adapters hold destinations named by stopped lines (Paper VI) */
};

/* Hosts drawn at random for a scenario's flows (the `draw` section; fabric/hostdraw.c). */
struct draw_settings {
    long long sources;       /* hot sources drawn; 0 = no draw */
    long long spots;         /* hot spots drawn among the other hosts */
};

/* Model settings (filled through the parameter tables of settings.c). */
struct fabric_settings {
    long long mtu;
    long long nvls;          /* data VLs in use, 1..15 */
    int grh;
    int arch;                /* index into sw_archs[] (fabric/swarch.h) */
    uint64_t voqnet_queue;   /* arch = voqnet: bytes per destination queue */
    long long dbbm_queues;   /* arch = dbbm: FIFOs per input and VL */
    simtime_t switch_latency;
    simtime_t stage[5];      /* arch = pipe: the five stage latencies */
    uint64_t out_buffer;     /* arch = pipe: output buffer per port and VL, bytes (0: = buffer) */
    long long read_ports;
    double speedup;
    int cut_through_late;    /* a faster output: 0 = hold it until the tail, 1 = start late */
    int scheduler;           /* 0 = unslotted output round robin, 1 = iSLIP (islip.c) */
    long long islip_iterations;
    simtime_t islip_slot;    /* 0 = an MTU packet's time on the slowest port / speedup */
    uint64_t switch_buffer;  /* receive buffer per switch port and VL, bytes */
    uint64_t hca_buffer;     /* receive buffer per adapter port and VL, bytes */
    double inject_limit_bps; /* 0: none */
    double sink_limit_bps;   /* 0: none */
    int limit_counts_wire;   /* rate limits count wire bytes (1) or payload (0) */
    simtime_t credit_delay;  /* extra delay of a credit update beyond the propagation delay */
    long long hoq_life;      /* HV: Head-of-Queue Lifetime 4.096 us x 2^HV; > 19 infinite */
    long long switch_life;   /* LV: Switch Lifetime Limit 4.096 us x 2^LV; > 19 infinite */
    int adaptive;            /* 0 none, else adapt_policies[adaptive - 1] */
    long long max_pending;   /* messages a flow may hold before refusing new ones */
    long long hca_messages;  /* messages an adapter holds for all its flows; 0 = no shared bound */
    /* Transport (transport.c; the `transport` section). */
    int transport;           /* enum transport_mode: UD (no ACKs) or RC */
    int ack_per;             /* enum transport_ack: an ACK per packet or per message */
    uint64_t ack_bytes;      /* ACK wire size; 0 = IBA's LRH+BTH+AETH+ICRC+VCRC (+GRH) */
    long long ack_sl;        /* SL of the ACKs; -1 = the acknowledged packet's SL */
    long long window;        /* outstanding packets or messages per queue pair; -1 = none */
    int window_unit;         /* enum transport_window */
    int window_per;          /* enum transport_window_per: one window per flow or per destination */
    long long window_held;   /* per destination: started messages a flow may set aside */
    int retransmit;          /* enum transport_retransmit: auto, on, off */
    long long ack_timeout;   /* IBA Local ACK Timeout exponent: 4.096 us x 2^v; 0 = infinite */
    long long retry_cnt;     /* retries (timeouts, NAK sequence errors) without progress before the
                                QP goes to the error state */
    long long rnr_retry;     /* RNR NAK retries before the error state; 7 = infinite */
    long long min_rnr_timer; /* the responder's RNR NAK timer, IBA's 5-bit code (0 = 655.36 ms) */
    long long rq_depth;      /* receive WQEs a responder QP holds; 0 = always one (no RNR) */
    simtime_t rq_interval;   /* the application posts one every this while fewer are posted */
    double loss;             /* probability that a switch input loses a data packet (CRC error) */
    long long loss_every;    /* every N-th data packet arriving at a switch input is lost; 0 off */
    uint8_t sl2vl[16];       /* default SL-to-VL map of switches */
    uint8_t sl2vl_ca[16];    /* SL-to-VL map of adapter ports */
    struct vlarb_table vlarb_ca, vlarb_sw; /* arbitration tables for adapter and switch ports */
    struct isol_settings isol; /* switch.arch = ccfit, ecocc, hfdi */
    struct draw_settings draw; /* the `draw` section: hosts named draw:... in flows */
};

/* The counters the end-of-run invariants compare. */
struct fabric_counts {
    uint64_t created, delivered, misdelivered;
    uint64_t dropped_unroutable;
    uint64_t dropped_hoq, dropped_sll; /* Head-of-Queue Lifetime, Switch Lifetime Limit */
    uint64_t kept_past_limit;          /* protected packets found past a limit (not dropped) */
    uint64_t ctrl_created;
    uint64_t acks_created;   /* reliable connection: ACKs the responders sent */
    uint64_t replicas;       /* multicast copies switches made (each beyond the packet itself) */
    uint64_t dropped_loss;   /* lost at switch inputs (switch.loss, switch.loss_every) */
    uint64_t discarded;      /* reliable connection: duplicates and out-of-sequence packets the
                                responders discarded */
    uint64_t naks_created;   /* NAKs (sequence error) the responders sent */
    uint64_t rnr_naks_created; /* RNR NAKs the responders sent (no receive WQE posted) */
    uint64_t misordered;     /* accepted in PSN order but not in message order (must stay 0) */
    uint64_t qp_errors;      /* queue pairs (connections) whose retries ran out */
    uint64_t retry_exc;      /* ... because transport retries (timeouts, NAK sequence errors) did */
    uint64_t rnr_retry_exc;  /* ... because RNR retries did */
};

enum fabric_event {
    EV_ARRIVE = 1,   /* obj: switch input port; a: packet. Head in + switch latency */
    EV_TX_DONE,      /* obj: port. The transmitter is free (queued only when it matters:
                      * port_need_done); a = 1: an adapter's injection-limit wake-up */
    EV_READ_DONE,    /* obj: switch input port; a: what (switch_read_done). A read ended */
    EV_CREDIT,       /* obj: port (sender). Credits it waits for have arrived */
    EV_SINK_ARRIVE,  /* obj: adapter port; a: packet. Tail arrived */
    EV_SINK_DONE,    /* obj: adapter port. The sink consumed its head packet */
    EV_FLOW_START,   /* obj: flow */
    EV_FLOW_MSG,     /* obj: flow. A message arrives from the flow's process */
    EV_FLOW_WAKE,    /* obj: flow. Its pacing delay ended */
    EV_FLOW_STOP,    /* obj: flow */
    EV_SAMPLE,       /* time-series sample */
    EV_END,          /* end of the measured run: sources stop */
    EV_CALL,         /* obj: struct fabric_call */
    EV_SW_MSG,       /* obj: port (the output port it reached); a: message in f->msgs */
    EV_HOQ,          /* obj: switch input port; a: output * VL slots + slot. A head's lifetime
                      * limit (drop.c) */
    EV_ARCH,         /* obj: switch port; a, b: the switch architecture's own (its on_event) */
    EV_RC_TIMER,     /* obj: flow; a: its connection; b: 0 its Local ACK Timeout may be due,
                      * 1 its RNR NAK timer ends (transport.c) */
    EV_ISLIP,        /* obj: a switch's port 0. An iSLIP matching (islip.c) */
};

/* A plug-in timer. */
struct fabric_call {
    void (*fn)(struct fabric *f, void *arg);
    void *arg;
};

struct host {
    struct node *node;
    struct port *port;
    uint64_t rx_bytes, tx_bytes; /* payload delivered to / sent from it in the measured period */
    uint64_t interval_rx;        /* payload delivered to it since the last sample */
};

struct fabric {
    int **dsets;             /* destination groups of flows (pattern 3), freed with the fabric */
    uint8_t **host_sl;       /* an engine's path SLs (torus-2QoS): [host][DLID] the SL at QoS
                              * level 0 of a packet from that host (bit 3, the level, comes from
                              * the flow's SL); NULL = packets carry their flow's SL */
    uint8_t *sl_rows;        /* the rows host_sl points into, one per source switch */
    int ndsets;
    simtime_t now;
    evseq_t now_seq;         /* scheduling number of the event being handled */
    struct eventq q;
    struct pktpool pool;
    struct fabric_settings set;
    byterate_t inject_rate, sink_rate; /* from the settings' limits */
    int nvs;                 /* VL slots in use: nvls data VLs + VL15 */
    int nnodes;
    struct node **nodes;     /* by topology index */
    int nhosts;
    struct host *hosts;      /* adapter ports that are cabled, in topology order */
    int *host_of_lid;        /* LID -> host index, -1 */
    int max_lid;
    int max_lmc;             /* largest LMC of an adapter port */
    uint16_t *short_off;     /* [src host][dst host] LID offset of the shortest route, built when
                              * a flow uses PATH_SHORTEST (else NULL) */
    uint32_t nflows;
    struct flow *flows;
    int npatterns;
    struct pattern **patterns;
    int *draw_sub;             /* `draw` section: per host, its hot subset (0..spots-1), -1 cold */
    int *draw_spot;            /* `draw` section: the hot spots, one per subset */
    struct fabric_hooks hooks;
    struct drop_state *drop; /* selective dropping (drop.c), NULL when both limits are infinite */
    uint8_t rtx;             /* RC with go-back-N retransmission (transport.c) */
    uint8_t loss_on;         /* switch inputs lose data packets (switch.loss, loss_every) */
    simtime_t ack_timeout;   /* rtx: the Local ACK Timeout, SIMTIME_NEVER if infinite */
    simtime_t rnr_timer;     /* rtx: the responders' minimum RNR NAK timer (min_rnr_timer) */
    uint8_t rq_warned;       /* the warning that a receive queue never runs dry was given */
    uint64_t loss_rng;       /* switch.loss: splitmix64 state */
    uint64_t loss_seen;      /* data packets that arrived at switch inputs (loss_every) */
    struct mcast *mc;        /* multicast groups, tables and statistics (mcast.h), NULL if none */
    /* Congestion-management messages of the switch architectures in flight (swarch.h): a pool
     * with a free list; an adapter receives them through hca_on_msg if set. */
    struct sw_msg *msgs;
    uint32_t msgs_cap, msgs_free;
    void (*hca_on_msg)(struct fabric *f, struct port *at, const struct sw_msg *m);
    struct fabric_counts cnt;
    /* Per-port VL arbitration tables (fabric_set_port_vlarb), owned; other ports use the
     * settings' vlarb_ca / vlarb_sw. */
    struct vlarb_table **own_vlarb;
    int nown_vlarb;
    /* Run control. */
    simtime_t warmup, end, drain_limit, sample_interval;
    simtime_t stall_limit;   /* no packet moved for this long with packets in flight: stuck */
    /* simulation.until_delivered: the measured run ends (end moved to that moment) when the
     * last of the flows has delivered until_delivered packets in the measured period; 0 = off.
     * until_left counts the flows still short of it; until_at is when it was reached (or
     * SIMTIME_NEVER: not, the run went to its duration). */
    uint64_t until_delivered;
    uint32_t until_left;
    simtime_t until_at;
    uint64_t events;
    uint64_t events_by_type[32];
    size_t peak_pending;     /* largest number of pending events */
    uint64_t hops;           /* packet transmissions on links */
    uint8_t no_fast;         /* tests: every switch served by the general code (switch_prepare) */
    volatile int *interrupt; /* set asynchronously to stop the run (polled every 2^14 events) */
    /* Packet capture (stats/capture.h): called for each packet that starts on a link with an
     * end marked WATCH_CAPTURE. */
    void (*capture_fn)(struct fabric *f, const struct port *out, const struct packet *p);
    void *capture;
    /* Timeline (stats/timeline.h): told what happens on links whose ends are marked
     * WATCH_TIMELINE and by plug-ins (fabric_timeline); NULL when no timeline is written. */
    void (*timeline_fn)(struct fabric *f, int note, const struct port *at,
                        const struct packet *p, simtime_t t, int64_t a, int64_t b);
    void *timeline;
    char **warn;             /* what a user should know about this run (fabric_warn) */
    int nwarn;
    int ended;               /* sources have stopped */
    int msg_direct;          /* tests: flows' message events straight into the event queue,
                              * not kept at their adapters (hca.c, "message events") */
    /* The measured period's counter snapshots (period.h), taken before the first event at or
     * after period_next. */
    struct period *period;
    simtime_t period_next;
    struct fabric_dist *dist; /* a distributed run (dist/dist.h), NULL when sequential */
    const int *own_part;     /* set-up of a distributed run: rank per node (run_desc.own_part) */
    int own_rank;
    /* Time series. */
    FILE *flow_csv, *port_csv;
    simtime_t last_sample;
    uint64_t seed;
    int jitter_k;
};

/* The distributed mode's side of the engine (dist/dist.c; docs/distributed.md), NULL in a
 * sequential run. The engine calls the first five for cut ports (port.watch & WATCH_CUT) and
 * deliveries, the rest from fabric_run's window loop. */
struct fabric_dist {
    int rank, nranks;
    const int *part;         /* rank per node */
    simtime_t lookahead;     /* the widest window: the least delay of a cut cable plus the
                              * receiving switch's latency (a packet's earliest effect) */
    uint64_t found, live;    /* at the end: packets found and allocated, over all ranks */
    /* port_transmit on a cut port: the packet's arrival goes to the peer's rank. */
    void (*send_packet)(struct fabric *f, struct port *out, uint32_t pidx);
    /* port_return_credits on a cut port (after the buffer use fell). */
    void (*freed)(struct fabric *f, struct port *in, int slot, int credits, simtime_t t);
    /* port_watch_credits on a cut port. */
    void (*watch)(struct fabric *f, struct port *p, int work);
    /* port_absorb_credits_until on a cut port absorbed n returns. */
    void (*absorbed)(struct fabric *f, struct port *p, uint32_t n, simtime_t t, evseq_t seq);
    /* A measured packet of a flow was delivered (its latencies). */
    void (*delivered)(struct fabric *f, uint32_t flow, int64_t net, int64_t e2e, int last);
    /* ... and it was the last of message `msg` of a flow with message windows: its posted
     * latency, which needs the source's posting time (rc_ext.posted_log), is added at rank 0. */
    void (*posted_delivered)(struct fabric *f, uint32_t flow, uint32_t msg);
    /* ... and it was the last of a message of a flow with deadlines or jitter: judged at rank
     * 0 in the sequential order (flow_judge_message), where the source's rank's frame rule
     * (set at the flow's start) is. */
    void (*judged)(struct fabric *f, uint32_t flow, simtime_t created, int measured);
    simtime_t (*reduce_min)(struct fabric *f, simtime_t v);
    uint64_t (*reduce_sum)(struct fabric *f, uint64_t v);
    /* Set-up is over (fabric_run, after its checks): free what other ranks' nodes need. */
    void (*trim)(struct fabric *f);
    void (*window)(struct fabric *f, simtime_t wend);  /* a window [now, wend) begins */
    /* A window ends (first: the run starts, nothing to send): send what crossed, receive and
     * apply what came in; returns the next window's start (at most the earliest event of any
     * rank) and sets *width to its width. */
    simtime_t (*exchange)(struct fabric *f, simtime_t *width);
    void (*gather)(struct fabric *f);                   /* the run ended: statistics to rank 0 */
    void (*sample)(struct fabric *f);                   /* EV_SAMPLE: the interval's counters to rank 0 */
    /* output.counter_series (set on every rank): every port's perfquery counters at each
     * sample and at each of the period's snapshots (snapshot(f, k), every rank, after it is
     * taken) are summed at rank 0, whose counters.csv reads them through counts_at: whether
     * it holds the counters of time t, and then *c ([period port index * nvs + slot]) and
     * *sent ([period port index]). */
    uint8_t counters;
    /* output.queue_series (set on every rank): at each sample the switches' use (struct
     * sw_usage: queues holding a packet, CAM lines, ports out of special queues) added over
     * the ranks into `usage` at rank 0, which queues.csv writes. */
    uint8_t queues;
    uint64_t usage[3];
    /* output.capture_* / output.timeline_* (set on every rank): dist/watchlog.c */
    uint8_t capture, timeline;
    void (*snapshot)(struct fabric *f, int k);
    int (*counts_at)(const struct fabric *f, simtime_t t, const struct port_counts **c,
                     const double **sent);
};

/* Scheduling (for the data path and plug-ins). */
/* Tell the timeline, if any (plug-ins and rare paths; the data path tests port.watch). */
static inline void fabric_timeline(struct fabric *f, int note, const struct port *at,
                                   const struct packet *p, int64_t a, int64_t b)
{
    if (f->timeline_fn)
        f->timeline_fn(f, note, at, p, f->now, a, b);
}

/* Events are ordered at equal times by their origin and its own count (core/eventq.h): the
 * origin of an event is the node whose event was being handled when it was scheduled, or the
 * fabric itself (FABRIC_ORIGIN(f): set-up, the run's end and samples, fabric-wide plug-in
 * timers). fabric_schedule: an event the current node (or the fabric) handles itself;
 * fabric_schedule_on: one node `nd` handles (an arrival at the far end of a cable). */
#define FABRIC_ORIGIN(f) ((uint32_t)(f)->nnodes)
static inline void fabric_schedule(struct fabric *f, simtime_t t, uint8_t type, void *obj, uint32_t a,
                                   uint16_t b)
{
    eventq_push(&f->q, t, type, obj, a, b);
}
static inline void fabric_schedule_on(struct fabric *f, const struct node *nd, simtime_t t, uint8_t type,
                                      void *obj, uint32_t a, uint16_t b)
{
    eventq_push_on(&f->q, (uint32_t)nd->index, t, type, obj, a, b);
}
/* A flow's measured deliveries reached simulation.until_delivered (hca.c): when it is the
 * last flow to do so, the measured run ends now (engine.c). */
void fabric_until_reached(struct fabric *f);
/* Call fn(f, arg) at time t: `call` must stay valid until then (plug-ins keep it in their state). */
void fabric_schedule_call(struct fabric *f, simtime_t t, struct fabric_call *call);

/* Queue a control packet (CNP or ACK) at adapter port `from` for `dst_lid`, on the priority
 * path, reporting on data flow `about`. */
void fabric_send_control(struct fabric *f, struct port *from, uint16_t dst_lid, uint8_t sl,
                         uint8_t flags, uint32_t about);
/* The same in two steps: a control packet of `wire_bytes` (0: header only) is made, the caller
 * may fill more of it, then it is queued. Making it may grow the packet pool. */
uint32_t fabric_control_new(struct fabric *f, struct port *from, uint16_t dst_lid, uint8_t sl,
                            uint8_t flags, uint32_t about, uint32_t wire_bytes);
void fabric_control_queue(struct fabric *f, struct port *from, uint32_t idx);
/* A flow with a message window (seed 003's credits) got a credit back or a message: post
 * messages of its backlog to the adapter while credits are free (docs/hostcc.md). */
void fabric_flow_post(struct fabric *f, struct flow *fl);
/* A flow's pacing changed (next_ok moved): re-evaluate whether it may send. */
void fabric_flow_repace(struct fabric *f, struct flow *fl);
/* Pace flow `fl` per destination through hooks.dest_ready, holding at most `held_cap` started
 * messages whose destination must wait (set-up time only). */
void fabric_flow_pace_by_dest(struct fabric *f, struct flow *fl, int held_cap);

/* Per-VL arrays are indexed by slot: data VL v is slot v, VL15 is slot nvls. */
/* The host whose port answers to a unicast LID, or -1 (no such host, or a multicast LID). */
static inline int fabric_host_of_lid(const struct fabric *f, unsigned lid)
{
    return lid <= (unsigned)f->max_lid ? f->host_of_lid[lid] : -1;
}

static inline int fabric_slot(const struct fabric *f, int vl)
{
    return vl == VL15 ? (int)f->set.nvls : vl;
}
static inline int fabric_slot_vl(const struct fabric *f, int slot)
{
    return slot == f->set.nvls ? VL15 : slot;
}

/* Pieces of the data path, in switch.c and hca.c, used by engine.c. */
void switch_arrive(struct fabric *f, struct port *in, uint32_t pidx);
void switch_try_send(struct fabric *f, struct sw *s, int out);
/* Before a run: mark the switches whose set-up the data path's fast path serves. */
void switch_prepare(struct fabric *f);
/* EV_READ_DONE: bit 0 of `what` frees a read port of `in`; what >> 1, if not 0, is 1 + the
 * architecture's read tag of the packet whose read ended (swarch.h, read_done). */
void switch_read_done(struct fabric *f, struct port *in, uint32_t what);
void switch_islip(struct fabric *f, struct sw *s); /* EV_ISLIP: one iSLIP matching */
/* After a packet left switch s other than by output arbitration (a drop): output `out` and the
 * outputs new heads ask for may send. */
void switch_after_removal(struct fabric *f, struct sw *s, int out);
void hca_try_send(struct fabric *f, struct port *p);
void hca_sink_arrive(struct fabric *f, struct port *p, uint32_t pidx);
void hca_sink_done(struct fabric *f, struct port *p);
void flow_start(struct fabric *f, struct flow *fl);
void flow_message(struct fabric *f, struct flow *fl);
void flow_wake(struct fabric *f, struct flow *fl);
void flow_stop(struct fabric *f, struct flow *fl);
/* A message of flow fl created at `created` was delivered whole at `now` (measured or not):
 * its deadline and jitter (hca.c; a distributed run calls it at rank 0 in the sequential
 * order). */
void flow_judge_message(struct flow *fl, simtime_t now, simtime_t created, int measured);
/* A flow's message event left the event queue (hca.c, "message events"): before flow_message. */
void flow_message_left(struct fabric *f, struct flow *fl);
/* Bring the flow's queue_area up to now; called before its count of waiting messages changes
 * (engine.c calls it before discarding them at the end of the run). */
void flow_queue_account(struct fabric *f, struct flow *fl);
/* Time-average number of the flow's messages at its source (waiting plus the one being
 * transmitted) over the measured period [warmup, end). */
double flow_source_queue_mean(const struct fabric *f, const struct flow *fl);
/* Common to both: put a packet on the wire of `out`. `tail_here` is when its tail is (or
 * will be) at this node. Returns when the transmitter is free again. */
simtime_t port_transmit(struct fabric *f, struct port *out, uint32_t pidx, simtime_t tail_here);
/* Credits for a packet whose space at `in` frees at time t travel back to the sender. */
void port_return_credits(struct fabric *f, struct port *in, int slot, int credits, simtime_t t);
/* Apply the credit returns that have reached sender p by (t, seq), in order. */
void port_absorb_credits_until(struct fabric *f, struct port *p, simtime_t t, evseq_t seq);
/* Apply those that have reached p by now (before the current event). */
static inline void port_absorb_credits(struct fabric *f, struct port *p)
{
    if (p->cret_next <= f->now)
        port_absorb_credits_until(f, p, f->now, f->now_seq);
}
/* A data packet enters the model (sent, sent again, copied by a multicast switch) or leaves
 * it (delivered, dropped or discarded): its flow's balance (flow.in_fabric). */
static inline void fabric_pkt_made(struct fabric *f, const struct packet *p)
{
    if (p->flow != FLOW_CONTROL)
        f->flows[p->flow].in_fabric++;
}
static inline void fabric_pkt_gone(struct fabric *f, const struct packet *p)
{
    if (p->flow != FLOW_CONTROL)
        f->flows[p->flow].in_fabric--;
}
/* PortXmitWait: a packet of `slot` waits at p for credits from now on / no longer. The mask
 * spares the counters' cache lines when nothing waits. */
static inline void port_wait_begin(struct port *p, int slot, simtime_t now)
{
    if (!(p->waiting >> slot & 1)) {
        p->waiting |= (uint16_t)(1u << slot);
        p->vl[slot].ctr.wait_since = now;
    }
}
static inline void port_wait_end(struct port *p, int slot, simtime_t now)
{
    if (p->waiting >> slot & 1) {
        p->waiting &= (uint16_t)~(1u << slot);
        p->vl[slot].ctr.xmit_wait += now - p->vl[slot].ctr.wait_since;
        p->vl[slot].ctr.wait_since = -1;
    }
}
/* Whether p's transmitter is busy at the current event: a transmission has started whose end
 * comes after it. */
static inline int port_busy(const struct fabric *f, const struct port *p)
{
    return p->tx_busy && (p->busy_until > f->now || (p->busy_until == f->now && p->done_seq > f->now_seq));
}
/* Packets wait for busy transmitter p: make sure the end of its transmission is an event. */
static inline void port_need_done(struct fabric *f, struct port *p)
{
    if (!p->done_sched) {
        p->done_sched = 1;
        eventq_push_seq_on(&f->q, (uint32_t)p->node->index, p->busy_until, p->done_seq, EV_TX_DONE, p, 0, 0);
    }
}
/* After an arbitration that left p idle: remember whether packets wait (`work`), and if they
 * do, wake p when its next credit return lands. */
void port_watch_credits(struct fabric *f, struct port *p, int work);

static inline struct sw *node_sw(struct node *n)
{
    return (struct sw *)n;
}

#endif

/* swarch.h: the switch-architecture interface. A switch architecture owns the memory of the
 * switch's input ports: the queues in it, how an arriving packet is classified into a queue,
 * which packets an input offers the crossbar for each (output, VL), and what it tells the
 * switch upstream. The rest of the switch (routing, SL-to-VL, output arbitration, crossbar read
 * ports, speedup, cut-through timing) is common and lives in switch.c.
 *
 * The contract between the two:
 * - switch.c routes a packet (sets out_port, out_vl, in_port) and hands it to `enqueue`. The
 *   architecture queues it and keeps the request bitsets true: bit `in` of
 *   sw_req(s, f, out, slot) is set exactly while input `in` offers a packet for (out, slot)
 *   (sw_req_set / sw_req_clr). It returns SW_QUEUED (switch.c then lets output out_port try
 *   to send), or SW_CONSUMED if it took the packet out of the data path itself (a dropping
 *   design: it has returned the credits with port_return_credits, counted the drop and
 *   released the packet; or a pipelined design that re-queues it later by an event).
 * - output arbitration asks `head` for the packet input `in` offers for (out, slot) (only for
 *   inputs whose bit is set; it must not be PKT_NIL then), and when it picks that input,
 *   `dequeue` removes exactly that packet from its queue and returns it. After dequeue the
 *   bits must be true again; when new heads
 *   ask for other outputs, the architecture lets those outputs try (sw_kick) or marks them
 *   stalled (sw_stall: retried after this arbitration and when a read port frees).
 * - `read_done`, optional: a packet `dequeue` took from input `in` has been read out of the
 *   input memory (its read ends: its transmission time over the speedup, no earlier than its
 *   tail's arrival), or was dropped (drop.c calls it at once). `tag` (below 2^31) is what that
 *   dequeue put in s->read_tag to say which queue the packet left. A design whose queue is blocked while its head is read (a
 *   single-read-port FIFO) offers the next packet here; with the hook set, every read costs an
 *   EV_READ_DONE event.
 * - `held` counts the packets in the input memory (the end-of-run invariants).
 * - `usage`, optional: adds to *u what the design uses now at this switch (the queues and CAM
 *   lines in use over time, output.queue_series); without it sw_usage counts the non-empty
 *   queues of s->q.
 * - `init` sizes the memory for one switch at build time and refuses, with the numbers, a
 *   fabric the design cannot serve; `free` releases it.
 * - `default_read_ports`: crossbar read ports per input when switch.read_ports = 0 (0 here =
 *   one per output port).
 * - `on_msg`, optional: a congestion-management message sent upstream by the switch or
 *   adapter at the peer of output `out` (sw_send_upstream) has arrived there.
 * - `report`, optional: the design's counters in the run summary.
 * - `departed`, optional: for a design with a buffer of its own after the input memory (an
 *   output-buffered, pipelined switch): packet pidx has left the switch through output `out`
 *   (sent, or dropped by drop.c) and its space there frees at t_free. Such a design returns the
 *   input's credits itself, when the packet leaves the input memory; switch.c and drop.c then
 *   return none.
 * - `on_event`, optional: an EV_ARCH event the design scheduled (fabric_schedule(f, t, EV_ARCH,
 *   &s->n.port[port], a, b)) has come: its own stage timers.
 * - `mcast`: the design replicates multicast packets itself (arch_pipe: at stage 4, into its
 *   output VL buffers): switch.c hands them to `enqueue` (in_port set, out_port 0) instead of
 *   the multicast queues of mcast_switch.c.
 * Architectures keep their own state behind sw->arch_state. A new design is one new file with
 * its `struct sw_arch` and one line in sw_archs[] (swarch.c). */
#ifndef IBN_SWARCH_H
#define IBN_SWARCH_H

#include "core/error.h"
#include "fabric/drop.h"
#include "fabric/fabric.h"

struct json_t;

enum sw_enqueue_result { SW_QUEUED = 0, SW_CONSUMED = 1 };

/* A congestion-management message travelling upstream, out of band (it takes the link's
 * propagation delay, no data credits and no link bandwidth). Its meaning belongs to the
 * architecture that sends it. */
#define SW_MSG_DESTS 32
struct sw_msg {
    uint8_t type;            /* the architecture's message type */
    uint8_t hops;            /* hops from the sender to the congestion root */
    uint16_t line;           /* the sender's CAM line (or queue) it is about */
    uint16_t ndst;
    uint16_t dst[SW_MSG_DESTS]; /* destination LIDs */
    uint32_t next_free;      /* free list of the message pool */
};

/* What a switch's input memories use at one instant (summed over its inputs). */
struct sw_usage {
    uint64_t queues;         /* queues holding a packet */
    uint64_t cam_lines;      /* CAM lines allocated (isolation designs) */
    uint64_t ports_exhausted;/* input ports with every special queue (CFQ, HPQ) taken */
};

struct sw_arch {
    const char *name;
    const char *help;
    int default_read_ports;
    int (*init)(struct fabric *f, struct sw *s, struct ibn_err *e);
    void (*free)(struct sw *s);
    int (*enqueue)(struct fabric *f, struct sw *s, int in, uint32_t pidx);
    uint32_t (*head)(struct fabric *f, struct sw *s, int in, int out, int slot);
    uint32_t (*dequeue)(struct fabric *f, struct sw *s, int in, int out, int slot);
    void (*read_done)(struct fabric *f, struct sw *s, int in, uint32_t tag);
    uint64_t (*held)(const struct fabric *f, const struct sw *s);
    void (*usage)(const struct fabric *f, const struct sw *s, struct sw_usage *u);
    void (*on_msg)(struct fabric *f, struct sw *s, int out, const struct sw_msg *m);
    void (*report)(struct fabric *f, struct json_t *summary);
    void (*departed)(struct fabric *f, struct sw *s, int out, uint32_t pidx, simtime_t t_free);
    void (*on_event)(struct fabric *f, struct sw *s, int port, uint32_t a, uint16_t b);
    int mcast;
};

/* The architectures, in the order of the switch.arch enum, and their names (NULL-ended). A
 * name that is not its architecture's own `name` is an alias of it (1q = fifo, voqsw = voq). */
extern const struct sw_arch *const sw_archs[];
extern const char *const sw_arch_names[];

/* Request bitsets: bit `in` of sw_req(s, f, out, slot) says input `in` offers a packet for
 * (out, slot). */
static inline uint64_t *sw_req(struct sw *s, const struct fabric *f, int out, int slot)
{
    return &s->req[((size_t)out * (size_t)f->nvs + (size_t)slot) * (size_t)s->words];
}
static inline void sw_req_set(struct sw *s, struct fabric *f, int out, int slot, int in)
{
    uint64_t *w = &sw_req(s, f, out, slot)[in >> 6], b = 1ULL << (in & 63);
    s->req_slots[out] |= 1u << slot;
    if (s->drop && !(*w & b)) { /* a new head: its lifetime starts (drop.h) */
        *w |= b;
        drop_head_start(f, s, in, out, slot);
    }
    *w |= b;
}
static inline void sw_req_clr(struct sw *s, const struct fabric *f, int out, int slot, int in)
{
    uint64_t *bits = sw_req(s, f, out, slot);
    bits[in >> 6] &= ~(1ULL << (in & 63));
    if (s->drop) /* the head left with none behind it: no lifetime to watch (drop.h) */
        drop_head_end(f, s, in, out, slot);
    for (int w = 0; w < s->words; w++)
        if (bits[w])
            return;
    s->req_slots[out] &= ~(1u << slot);
}
/* Output `out` now has a request: let it send if it is idle, else make sure it looks again when
 * its transmission ends. */
void sw_kick(struct fabric *f, struct sw *s, int out);
/* Output `out` has a new request but is to try only after the current arbitration. */
static inline void sw_stall(struct sw *s, int out)
{
    s->stalled[out >> 6] |= 1ULL << (out & 63);
}
/* Tests: retry_stalled (switch.c) skips the tries of stalled outputs that could change nothing
 * (every requesting input's read ports busy, no credits due, nothing to wake); 0 turns the skip
 * off, 1 (the default) on. switch_retry_skipped: the tries skipped in this process so far. */
void switch_retry_skip_set(int on);
unsigned long long switch_retry_skipped(void);
/* switch.c's pieces that the iSLIP scheduler (islip.c) shares. sw_pick_input: round robin over
 * the inputs requesting (out, slot) with a free read port and a head that fits `credits`,
 * starting after the last one served; -1 if none (*credit_blocked, *read_blocked say why).
 * sw_send: send input `in`'s head for (out, slot) on VL `vl` now (dequeue, VL arbitration's
 * charge, transmission, credits, read port); move_rr: the output's round-robin pointer moves
 * to `in`. sw_has_request: some input offers a packet for `out`. */
int sw_pick_input(struct fabric *f, struct sw *s, int out, int slot, int32_t credits,
                  int *credit_blocked, int *read_blocked);
void sw_send(struct fabric *f, struct sw *s, int out, int slot, int in, int vl, int move_rr);
int sw_has_request(const struct fabric *f, struct sw *s, int out);
/* iSLIP (islip.c): make sure a matching comes at the next slot boundary after the last one;
 * islip_init / islip_free size its state for switch s at build time. */
void islip_request(struct fabric *f, struct sw *s);
int islip_init(struct fabric *f, struct sw *s, struct ibn_err *e);
void islip_free(struct sw *s);

/* Free switch s's input memory (its architecture's queues and state) for good: a distributed
 * run's rank does so for the switches other ranks handle once set-up is over (dist.c). The
 * switch then holds no packet and must handle no event. */
void sw_release(struct sw *s);
/* Add switch s's use now to *u (the architecture's `usage`, or its non-empty queues). */
void sw_usage_add(const struct fabric *f, const struct sw *s, struct sw_usage *u);
/* Send m upstream from input port `in` (to the output port at its peer). */
void sw_send_upstream(struct fabric *f, struct port *in, const struct sw_msg *m);
/* EV_SW_MSG: message i of the pool has reached port `at` (engine.c). */
void sw_msg_arrive(struct fabric *f, struct port *at, uint32_t i);

#endif

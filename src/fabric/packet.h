/* packet.h: packets as the data path carries them, their wire size (IBA headers and trailers),
 * 64-byte credits, and the pool they live in. Packets are addressed by 32-bit index so that
 * queues are intrusive index lists and the pool can grow without invalidating them. */
#ifndef IBN_PACKET_H
#define IBN_PACKET_H

#include <stdint.h>

#include "core/simtime.h"

#define PKT_NIL UINT32_MAX
#define CREDIT_BYTES 64

/* IBA header and trailer sizes in bytes (AETH: the ACK extended transport header). */
enum { IB_LRH = 8, IB_GRH = 40, IB_BTH = 12, IB_AETH = 4, IB_ICRC = 4, IB_VCRC = 2 };

enum pkt_flags {
    PKT_FECN = 1 << 0,  /* forward explicit congestion notification (BTH) */
    PKT_BECN = 1 << 1,  /* backward explicit congestion notification (BTH) */
    PKT_CNP = 1 << 2,   /* congestion notification packet (control) */
    PKT_ACK = 1 << 3,   /* acknowledgement (control; BTH opcode Acknowledge): of packet `psn`
                           and, with PKT_LAST, of the whole message `msg` */
    PKT_LAST = 1 << 4,  /* last packet of its message */
    PKT_MCAST = 1 << 5, /* multicast destination */
    PKT_MEASURED = 1 << 6, /* created after the warm-up: counted in statistics */
    PKT_KEEP = 1 << 7,  /* never dropped by the lifetime limits (seed 004: an I frame's packets,
                           the first and last packet of a B or P frame) */
};

#define FLOW_CONTROL UINT32_MAX /* flow index of control packets (CNPs, ACKs) */

struct packet {
    simtime_t t_created;  /* message creation time (end-to-end latency) */
    simtime_t t_injected; /* head left the source adapter (network latency) */
    simtime_t t_tail;     /* when the tail reaches the node now holding the packet */
    uint32_t next;        /* queue link (pool index) */
    uint32_t flow;        /* index of the flow (QP) that sent it, or FLOW_CONTROL */
    uint32_t msg;         /* message number within the flow */
    uint32_t about_flow;  /* control packets: the data flow they report on */
    uint32_t psn;         /* packet sequence number within the flow (BTH PSN); an ACK: the one
                             it acknowledges (reliable connection, transport.c) */
    uint16_t src_lid, dst_lid;
    uint16_t wire_bytes;  /* LRH..VCRC */
    uint16_t payload;
    uint16_t pb;          /* adaptive choice (fabric/adapt.h): PB_ADAPTIVE and the LMC bits
                             fixed so far */
    uint8_t sl, vl;       /* service level; virtual lane on the current link */
    uint8_t credits;      /* ceil(wire_bytes / 64) */
    uint8_t flags;        /* enum pkt_flags */
    uint8_t hops;
    uint8_t in_port;      /* input port at the current switch */
    uint8_t out_port;     /* output port chosen at the current switch */
    uint8_t out_vl;       /* VL on the output link at the current switch */
    uint8_t nak;          /* an ACK: 1 = a NAK (AETH syndrome PSN sequence error), 2 = an RNR
                             NAK (`msg` = its timer code), `psn` = the PSN the responder
                             expects (it acknowledges every PSN before it) */
};

_Static_assert(sizeof(struct packet) == 64, "a packet is one cache line");

/* Wire size of a packet with this payload: LRH, optional GRH, BTH, payload padded to 4 bytes,
 * ICRC and VCRC. */
static inline uint32_t pkt_wire_bytes(uint32_t payload, int grh)
{
    return IB_LRH + (grh ? IB_GRH : 0) + IB_BTH + ((payload + 3u) & ~3u) + IB_ICRC + IB_VCRC;
}

static inline uint32_t bytes_to_credits(uint32_t bytes)
{
    return (bytes + CREDIT_BYTES - 1) / CREDIT_BYTES;
}

/* A FIFO of packets linked through packet.next. */
struct pktq {
    uint32_t head, tail;
    uint32_t n;
    uint32_t bytes;
};

struct pktpool {
    struct packet *p;
    uint32_t cap, free_head;
    uint64_t live;     /* allocated and not yet freed */
    uint64_t created;  /* ever allocated */
};

void pktpool_init(struct pktpool *pool, uint32_t initial);
void pktpool_free(struct pktpool *pool);
/* Grows by doubling when empty (amortised; no allocation per packet in steady state). */
uint32_t pktpool_alloc(struct pktpool *pool);
void pktpool_release(struct pktpool *pool, uint32_t idx);

static inline struct packet *pkt(const struct pktpool *pool, uint32_t idx)
{
    return &pool->p[idx];
}

static inline void pktq_init(struct pktq *q)
{
    q->head = q->tail = PKT_NIL;
    q->n = q->bytes = 0;
}

static inline void pktq_push(struct pktq *q, struct pktpool *pool, uint32_t idx)
{
    struct packet *x = &pool->p[idx];
    x->next = PKT_NIL;
    if (q->tail == PKT_NIL)
        q->head = idx;
    else
        pool->p[q->tail].next = idx;
    q->tail = idx;
    q->n++;
    q->bytes += x->wire_bytes;
}

static inline uint32_t pktq_pop(struct pktq *q, struct pktpool *pool)
{
    uint32_t idx = q->head;
    if (idx == PKT_NIL)
        return idx;
    struct packet *x = &pool->p[idx];
    q->head = x->next;
    if (q->head == PKT_NIL)
        q->tail = PKT_NIL;
    q->n--;
    q->bytes -= x->wire_bytes;
    return idx;
}

#endif

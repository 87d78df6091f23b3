/* drop.h: seed 004's selective packet dropping at switches (section 3.5), with IBA's two
 * lifetime limits:
 * - Head-of-Queue Lifetime, HLL = 4.096 us x 2^HV (switch.hoq_life = HV; HV > 19: infinite): a
 *   packet that an input has offered to its output for longer than HLL is dropped;
 * - Switch Lifetime Limit, SLL = 4.096 us x 2^LV (switch.switch_life = LV): a packet still at
 *   the head more than SLL after its tail reached the switch is dropped.
 * Never dropped: control packets (VL15, CNPs, ACKs) and packets their source protected
 * (PKT_KEEP: every packet of an MPEG-2 I frame, the first and last of a B or P frame); such a
 * packet past a limit stays and is counted as kept. A drop removes the packet from the input
 * (through the switch architecture), frees its buffer space once its tail is in and returns
 * those credits upstream, and is counted by cause and by switch input port. Multicast packets
 * follow the same rules in their own queues (mcast_drop_check; EV_HOQ keys above the unicast
 * ones, mcast_hoq_key).
 *
 * The register of the paper ("HQLifetime[q] = now when a packet reaches the head") is kept per
 * (input, output, VL) of a switch: the time the input started offering its current head packet
 * for that output and VL. A head that starts takes the scheduling number of an EV_HOQ event at
 * its deadline (due, seq), but the event is queued lazily: each input port keeps one EV_HOQ
 * event queued, at the smallest (due, seq) of its registers (`armed`); when it fires, the
 * register holding that key is checked as it always was (dropped, kept, or its head gone), and
 * the next smallest key is queued. Every EV_HOQ event that is handled has the (time, number) it
 * had when every head queued its own, so the order of everything, and every result, is the
 * same; the events for heads that left before their deadline (nearly all) are never queued.
 * A head that leaves with no other behind it clears its key (drop_head_end), so that no event
 * is queued for it later; a bitset per input port lists the registers holding a key, and the
 * port's next earliest is found among those only.
 * With both limits infinite nothing is allocated and no event is made; the data path pays a
 * NULL test where an input starts offering a new head. */
#ifndef IBN_DROP_H
#define IBN_DROP_H

#include "core/error.h"
#include "fabric/fabric.h"

/* Per switch (struct sw.drop). */
struct sw_drop {
    simtime_t *since;        /* [in][out][slot]: the current head offered since */
    uint64_t *hoq, *sll;     /* [in]: drops at each input port by cause */
    uint64_t *kept;          /* [in]: protected packets found past a limit */
    simtime_t *due;          /* [in][out][slot]: its EV_HOQ key (due, seq); SIMTIME_NEVER: none */
    evseq_t *seq;
    uint64_t *live;          /* [in][lw words]: bit (out * nvs + slot) set where due is not NEVER */
    int lw;
    simtime_t *armed_t;      /* [in]: the key of the EV_HOQ event queued for the input port */
    evseq_t *armed_seq;     /* (armed_t SIMTIME_NEVER: none) */
};

struct drop_state {
    simtime_t hll, sll;      /* SIMTIME_NEVER: infinite */
    int eager;               /* tests: queue every head's EV_HOQ event at once, the former way,
                              * and check it as before (test_selective_drop compares) */
};

/* 4.096 us x 2^v in picoseconds; SIMTIME_NEVER for v > 19. */
simtime_t drop_lifetime(long long v);
/* Set up from f->set (hoq_life, switch_life) after the switches are built; NULL state when both
 * are infinite. Under RC a dropped packet is sent again by go-back-N (transport.c), which
 * transport_init has turned on (or refused, with transport.retransmit = off). */
int drop_init(struct fabric *f, struct ibn_err *e);
void drop_free(struct fabric *f);
/* Input `in` of switch s starts offering a new head packet for (out, slot). */
void drop_head_start(struct fabric *f, struct sw *s, int in, int out, int slot);
/* Input `in` of switch s no longer offers a packet for (out, slot) (its request bit cleared):
 * the register's key, which could only find the head gone, is cleared. */
void drop_head_end(const struct fabric *f, struct sw *s, int in, int out, int slot);
/* EV_HOQ (a = DROP_EV_LAZY): the input port's earliest register is due; (a = out * nvs + slot,
 * eager only) that register's head is due; (a = a multicast key, mcast_hoq_key) a multicast
 * head's deadline. */
#define DROP_EV_LAZY 0xffffffffu
void drop_check(struct fabric *f, struct port *in, uint32_t key);

#endif

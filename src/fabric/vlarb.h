/* vlarb.h: IBA virtual-lane arbitration (IBA 1.2.1 section 7.6.9): VL15 first, then a
 * high-priority and a low-priority table of up to 64 (VL, weight) entries each, weights in
 * 64-byte units, and LimitOfHighPriority in 4096-byte units (255 = unbounded, 0 = one packet)
 * bounding how much high-priority data may go before a waiting low-priority packet.
 * A packet always goes whole, even if it overruns its entry's remaining weight; the entry is
 * then finished. Pure logic over a bitmask of ready VLs, shared by switch and adapter ports. */
#ifndef IBN_VLARB_H
#define IBN_VLARB_H

#include <stdint.h>

#define VLARB_ENTRIES 64
#define VLARB_UNBOUNDED 255

struct vlarb_entry {
    uint8_t vl;
    uint8_t weight; /* 64-byte units; 0 = entry unused */
};

struct vlarb_table {
    uint8_t limit_high; /* LimitOfHighPriority */
    uint8_t nhigh, nlow;
    struct vlarb_entry high[VLARB_ENTRIES], low[VLARB_ENTRIES];
};

struct vlarb_state {
    uint8_t hi_pos, lo_pos;
    int32_t hi_left, lo_left; /* bytes left in the current entry; <= 0: move on */
    uint32_t hi_bytes;        /* high-priority bytes since the last low-priority packet */
    uint8_t last_high;        /* whether the last pick came from the high table */
};

/* Every VL in 0..nvls-1 in the low table with weight `weight`, no high table, unbounded limit. */
void vlarb_table_default(struct vlarb_table *t, int nvls, uint8_t weight);
/* Parse OpenSM's form "0:4,1:0,2:64" into table entries (at most 64); returns -1 on bad text. */
int vlarb_parse_entries(const char *text, struct vlarb_entry *out, uint8_t *n, char *why, int whylen);
void vlarb_state_init(struct vlarb_state *s);

/* Choose a VL among `ready` (bit v set: VL v has a packet that may be sent now; bit 15 is
 * VL15). Returns the VL, or -1 when no ready VL is in any table with a non-zero weight.
 * Inline: the common case, no high-priority table and the current low-priority entry going
 * on (it has weight left and its VL is ready), which is what vlarb_pick_ decides then (the
 * entry itself makes the low table "have" a ready VL); everything else out of line. */
int vlarb_pick_(const struct vlarb_table *t, struct vlarb_state *s, uint32_t ready);
static inline int vlarb_pick(const struct vlarb_table *t, struct vlarb_state *s, uint32_t ready)
{
    if (!(ready & (1u << 15)) && t->nhigh == 0 && s->lo_pos < t->nlow && s->lo_left > 0) {
        const struct vlarb_entry *e = &t->low[s->lo_pos];
        if (e->weight && (ready >> e->vl & 1)) {
            s->last_high = 0;
            return e->vl;
        }
    }
    return vlarb_pick_(t, s, ready);
}
/* Account for a packet of `bytes` sent on the VL that vlarb_pick returned. */
static inline void vlarb_charge(const struct vlarb_table *t, struct vlarb_state *s, int vl, uint32_t bytes)
{
    (void)t;
    if (vl == 15)
        return;
    uint32_t charged = (bytes + 63u) / 64u * 64u;
    if (s->last_high) {
        s->hi_left -= (int32_t)charged;
        if (s->hi_bytes < UINT32_MAX - charged)
            s->hi_bytes += charged;
    } else {
        s->lo_left -= (int32_t)charged;
        s->hi_bytes = 0; /* a low-priority packet went: the high-priority budget starts again */
    }
}

#endif

/* qport.h: the reservations of one output port (a switch port or an adapter port) as seed
 * 001 keeps them (sections 3.5, 3.6, 3.10): the high-priority table's entries grouped in
 * sequences, each VL serving one maximum distance, its connections' bandwidth accumulated
 * per VL and its entries' weights recomputed from that total on every accept and release
 * (never rounded per connection). A VL needs max(ceil(W/255), entries of its distance)
 * entries: when its sequences' capacity is exceeded another sequence of the same distance is
 * added; when its bandwidth drops to zero its entries are freed, and surplus sequences are
 * freed last-allocated first. When no sequence fits although enough entries are free
 * (fragmentation after releases), the table is repacked (every live sequence re-placed,
 * largest first) if allowed. Admission also checks the reservable share of the link. */
#ifndef IBN_QOS_QPORT_H
#define IBN_QOS_QPORT_H

#include <stdint.h>

#include "fabric/vlarb.h"
#include "qos/fill.h"

enum qport_verdict {
    QP_OK = 0,
    QP_REJ_LINK,     /* bandwidth above the link's rate: impossible */
    QP_REJ_BW,       /* reserved + B above the reservable share */
    QP_REJ_DISTANCE, /* distance not offered (CESY's offered set, 4-VL variant), or stricter
                        than the distance the VL already serves */
    QP_REJ_TABLE,    /* not enough free entries */
    QP_REJ_FRAG,     /* enough free entries, no sequence fits (and no repacking) */
    QP_NVERDICT
};
extern const char *const qport_verdict_name[QP_NVERDICT];

struct qport_cfg {
    double rate_bps;    /* C: the link's data rate */
    double cap;         /* reservable share of C (seed 001: 0.8) */
    enum qos_method method;
    int repack;         /* repack on fragmentation (CESY; CENRE re-places largest first) */
    unsigned allowed;   /* CESY distances offered (bit k: 2^k); 0 = 2..64 */
};

struct qport_vl {
    double bw;          /* accumulated bandwidth, bit/s */
    uint8_t dist;       /* distance served (0 = VL idle) */
    uint8_t nseq;
    uint8_t entries;    /* entries held */
    uint8_t weight;     /* per-entry weight */
};

struct qport {
    uint64_t taken;
    double reserved;            /* bit/s over all VLs */
    uint8_t nseq;
    uint8_t seq_vl[64];         /* sequences in allocation order: VL and entries */
    uint64_t seq_mask[64];
    struct qport_vl vl[16];
    uint32_t repacks, conns;
};

void qport_init(struct qport *p);
/* Admit a connection of bandwidth bw (bit/s) needing distance d (2..64; CESY rounds) on VL
 * vl (0..14). A VL already serving a larger (looser) distance d_v > d cannot take it
 * (QP_REJ_DISTANCE); one serving a smaller distance takes it at that distance. On a reject
 * nothing changes. */
enum qport_verdict qport_admit(struct qport *p, const struct qport_cfg *c, int vl, int d, double bw);
/* Release a connection admitted on vl with bandwidth bw. */
void qport_release(struct qport *p, const struct qport_cfg *c, int vl, double bw);
/* The high-priority table as 64 (VL, weight) entries, free entries as weight 0. */
void qport_high_table(const struct qport *p, struct vlarb_entry e[64]);
/* OpenSM's qos_vlarb_high form "VL:weight,..." of the 64 entries (free ones "0:0"). */
void qport_high_string(const struct qport *p, char *buf, int len);
/* Check the port's internal consistency (entries disjoint and counted, weights cover the
 * bandwidth, gaps within distances); 0 when consistent, else -1 with a reason. */
int qport_check(const struct qport *p, const struct qport_cfg *c, char *why, int whylen);

#endif

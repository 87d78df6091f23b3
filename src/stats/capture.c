/* capture.c: packet captures as pcap files of ERF records that Wireshark and tshark decode
 * (capture.h). The engine calls the capture function for each packet that starts on a marked
 * port or on the peer of one, so the cost when nothing is captured is one byte test per hop.
 *
 * What the bytes are (the model's packet, IBA's field layout):
 *  - LRH: VL, LVer 0, SL, LNH (IBA local, or global with the GRH), DLID, PktLen (LRH to ICRC in
 *    4-byte words), SLID;
 *  - GRH (fabric.grh): IPVer 6, PayLen, NxtHdr 0x1B, HopLmt 64, GIDs fe80::<node GUID>;
 *  - BTH: data packets as reliable-connection SEND FIRST / MIDDLE / LAST / ONLY (the model's
 *    data packets carry LRH + BTH and no DETH, which is what an RC SEND has, under either
 *    transport), ACKs as ACKNOWLEDGE with an AETH (MSN = the message), CNPs as opcode 0x81 (IB
 *    CC's congestion notification); PadCnt; P_Key 0xFFFF; FECN and BECN; DestQP = the flow's
 *    index + 2 (an ACK or CNP: the flow it answers), AckReq on a message's last packet; PSN;
 *  - payload zeros or the byte offset mod 256; ICRC and VCRC zeros (not computed).
 * FIRST/MIDDLE/LAST follow the packets as this link sees them (the previous packet of the flow
 * seen here ended a message, or not). */
#include "stats/capture.h"

#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "stats/watch.h"

#define LINKTYPE_ERF 197
#define ERF_TYPE_INFINIBAND 21
#define ERF_FLAG_VLEN 0x04
#define MAX_BYTES (IB_LRH + IB_GRH + IB_BTH + IB_AETH + 4096 + 8 + IB_ICRC + IB_VCRC + 16)

enum { OP_SEND_FIRST = 0x00, OP_SEND_MIDDLE = 0x01, OP_SEND_LAST = 0x02, OP_SEND_ONLY = 0x04,
       OP_ACK = 0x11, OP_CNP = 0x81 };

struct capture {
    struct outfile *of, *csv; /* the pcap; ibnetsim's own record of the same packets */
    simtime_t start, stop;
    uint8_t *flow_on;      /* NULL = every flow */
    uint32_t *open_msg;    /* per flow: message whose packets this capture is in, or UINT32_MAX */
    int pattern, grh;
    uint64_t n;
    uint8_t buf[MAX_BYTES];
};

static void be16(uint8_t *b, unsigned v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

static void be24(uint8_t *b, unsigned v)
{
    b[0] = (uint8_t)(v >> 16);
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)v;
}

static void le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void be64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
}

static uint64_t node_guid_of_lid(const struct fabric *f, uint16_t lid)
{
    for (int h = 0; h < f->nhosts; h++) {
        const struct port *p = f->hosts[h].port;
        if (lid >= p->lid && lid < p->lid + (1u << p->lmc))
            return p->node->guid;
    }
    return lid;
}

static void on_packet(struct fabric *f, const struct port *out, const struct packet *p)
{
    struct capture *c = f->capture;
    if (f->now < c->start || f->now >= c->stop)
        return;
    int control = p->flow == FLOW_CONTROL;
    uint32_t about = control ? p->about_flow : p->flow;
    if (c->flow_on && (about >= f->nflows || !c->flow_on[about]))
        return;
    uint8_t *b = c->buf + 16;
    unsigned keep = p->wire_bytes;
    memset(b, 0, keep);
    unsigned grh = c->grh ? IB_GRH : 0;
    /* LRH */
    b[0] = (uint8_t)(p->vl << 4);
    b[1] = (uint8_t)(p->sl << 4 | (grh ? 0x3 : 0x2));
    be16(b + 2, p->dst_lid);
    be16(b + 4, (unsigned)(p->wire_bytes - IB_VCRC) / 4 & 0x7ff);
    be16(b + 6, p->src_lid);
    uint8_t *x = b + IB_LRH;
    if (grh) {
        x[0] = 0x60;
        be16(x + 4, (unsigned)(p->wire_bytes - IB_LRH - IB_GRH - IB_VCRC));
        x[6] = 0x1b;
        x[7] = 64;
        be64(x + 8, 0xfe80000000000000ULL);
        be64(x + 16, node_guid_of_lid(f, p->src_lid));
        be64(x + 24, 0xfe80000000000000ULL);
        be64(x + 32, node_guid_of_lid(f, p->dst_lid));
        x += IB_GRH;
    }
    /* BTH */
    uint8_t op;
    unsigned pad = (4 - p->payload % 4) % 4;
    if (p->flags & PKT_ACK) {
        op = OP_ACK;
    } else if (p->flags & PKT_CNP) {
        op = OP_CNP;
    } else {
        int first = c->open_msg[p->flow] != p->msg;
        int last = (p->flags & PKT_LAST) != 0;
        op = first && last ? OP_SEND_ONLY : first ? OP_SEND_FIRST : last ? OP_SEND_LAST
                                                                        : OP_SEND_MIDDLE;
        c->open_msg[p->flow] = last ? UINT32_MAX : p->msg;
    }
    x[0] = op;
    x[1] = (uint8_t)(pad << 4);
    be16(x + 2, 0xffff);
    x[4] = (uint8_t)((p->flags & PKT_FECN ? 0x80 : 0) | (p->flags & PKT_BECN ? 0x40 : 0));
    be24(x + 5, about + 2);
    x[8] = (!control && (p->flags & PKT_LAST)) ? 0x80 : 0;
    be24(x + 9, p->psn & 0xffffff);
    x += IB_BTH;
    if (op == OP_ACK) {
        /* Syndrome: ACK with credit count 31 (invalid: no end-to-end credits); a NAK, PSN
         * sequence error (011 00000); an RNR NAK with its timer code (001 TTTTT). */
        x[0] = p->nak == 1 ? 0x60 : p->nak == 2 ? (uint8_t)(0x20 | (p->msg & 31)) : 0x1f;
        be24(x + 1, p->nak ? 0 : p->msg & 0xffffff);
        x += IB_AETH;
    }
    if (c->pattern > 0)
        for (unsigned i = 0; i < p->payload; i++)
            x[i] = (uint8_t)i;
    /* ERF header: timestamp (little-endian 32.32 fixed-point seconds), type, flags, rlen,
     * lctr, wlen (big-endian); the record padded to 8 bytes. */
    unsigned rlen = (16u + keep + 7u) & ~7u;
    uint8_t *h = c->buf;
    uint64_t sec = (uint64_t)(f->now / PS_PER_S), ps = (uint64_t)(f->now % PS_PER_S);
    uint64_t frac = (uint64_t)(((unsigned __int128)ps << 32) / PS_PER_S);
    le32(h, (uint32_t)frac);
    le32(h + 4, (uint32_t)sec);
    h[8] = ERF_TYPE_INFINIBAND;
    h[9] = ERF_FLAG_VLEN;
    be16(h + 10, rlen);
    be16(h + 12, 0);
    be16(h + 14, p->wire_bytes);
    memset(c->buf + 16 + keep, 0, rlen - 16 - keep);
    /* pcap record header (nanosecond pcap) */
    uint8_t r[16];
    le32(r, (uint32_t)sec);
    le32(r + 4, (uint32_t)(ps / 1000));
    le32(r + 8, rlen);
    le32(r + 12, rlen);
    fwrite(r, 1, sizeof r, c->of->fp);
    fwrite(c->buf, 1, rlen, c->of->fp);
    fprintf(c->csv->fp, "%llu,%.12g,", (unsigned long long)c->n + 1, (double)f->now / 1e12);
    csv_field_port(c->csv->fp, out->node->name, out->num);
    fprintf(c->csv->fp, ",%u,%u,%u,%u,%u,%u,%u,%d,%d,%u\n", p->src_lid, p->dst_lid, p->sl, p->vl,
            op, about + 2, p->psn & 0xffffff, (p->flags & PKT_FECN) != 0,
            (p->flags & PKT_BECN) != 0, p->wire_bytes);
    c->n++;
}

int capture_open(struct fabric *f, const struct capture_desc *d, const char *path,
                 struct ibn_err *e)
{
    if (!d->ports || !*d->ports)
        return 0;
    struct capture *c = xcalloc(1, sizeof *c);
    c->start = d->start;
    c->stop = d->stop ? d->stop : SIMTIME_NEVER;
    c->pattern = d->pattern;
    c->grh = f->set.grh;
    c->open_msg = xmalloc(((size_t)f->nflows + 1) * sizeof *c->open_msg);
    for (uint32_t i = 0; i <= f->nflows; i++)
        c->open_msg[i] = UINT32_MAX;
    f->capture = c;
    int rc = watch_links(f, d->ports, WATCH_CAPTURE, "output.capture_ports", e);
    if (!rc)
        rc = watch_flows(f, d->flows, &c->flow_on, "output.capture_flows", e);
    char csv[4200];
    snprintf(csv, sizeof csv, "%.*s.csv", (int)(strlen(path) > 5 ? strlen(path) - 5 : strlen(path)),
             path);
    if (!rc && (!(c->of = out_open(path, e)) || !(c->csv = out_open(csv, e))))
        rc = -1;
    if (rc) {
        struct ibn_err ignore;
        capture_close(f, &ignore);
        return -1;
    }
    /* pcap global header: nanosecond timestamps, link type ERF. */
    uint8_t g[24] = { 0 };
    le32(g, 0xa1b23c4d);
    g[4] = 2;
    g[6] = 4;
    le32(g + 16, 65535);
    le32(g + 20, LINKTYPE_ERF);
    fwrite(g, 1, sizeof g, c->of->fp);
    fprintf(c->csv->fp, "frame,time_s,sent_by,slid,dlid,sl,vl,opcode,destqp,psn,fecn,becn,wire_bytes\n");
    f->capture_fn = on_packet;
    return 0;
}

uint64_t capture_count(const struct fabric *f)
{
    const struct capture *c = f->capture;
    return c ? c->n : 0;
}

int capture_close(struct fabric *f, struct ibn_err *e)
{
    struct capture *c = f->capture;
    if (!c)
        return 0;
    int rc = c->of ? out_close(c->of, e) : 0;
    if (c->csv && out_close(c->csv, rc ? &(struct ibn_err){ { 0 } } : e))
        rc = -1;
    free(c->flow_on);
    free(c->open_msg);
    free(c);
    f->capture = NULL;
    f->capture_fn = NULL;
    watch_clear(f, WATCH_CAPTURE);
    return rc;
}

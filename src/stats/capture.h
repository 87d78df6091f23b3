/* capture.h: packet captures that Wireshark opens. Packets crossing chosen links (both
 * directions), of chosen flows, within a time window, are written as a pcap file of link type
 * 197 (ERF) holding ERF type 21 (InfiniBand) records: the packet from its LRH (LRH, GRH when
 * on, BTH with FECN/BECN, AETH for ACKs, the payload as zeros or a byte pattern, ICRC and VCRC
 * written as zeros), timestamped with the simulated time at which its head starts on the link;
 * beside it (PATH without .pcap, plus .csv) ibnetsim's own record of the same packets: frame,
 * time, sending port, SLID, DLID, SL, VL, opcode, DestQP, PSN, FECN, BECN, wire bytes. */
#ifndef IBN_CAPTURE_H
#define IBN_CAPTURE_H

#include "core/error.h"
#include "core/simtime.h"
#include "fabric/fabric.h"

struct capture_desc {
    const char *ports;   /* "NODE:PORT,NODE,...": links to capture (a node: all its links) */
    const char *flows;   /* "A,B": only these flows' packets and the control packets about
                          * them; "" = every packet */
    simtime_t start, stop; /* window; stop 0 = the end of the run */
    int pattern;         /* payload bytes: 0 zeros, 1 the byte offset mod 256 */
};

/* Mark the ports and open `path` (pcap, ERF). Returns 0, or -1 with e set (an unknown port or
 * flow names its entry). Nothing is captured when d->ports is empty (returns 0). */
int capture_open(struct fabric *f, const struct capture_desc *d, const char *path,
                 struct ibn_err *e);
/* Close the file; the first write error, if any (e names the file). */
int capture_close(struct fabric *f, struct ibn_err *e);
/* Packets written so far. */
uint64_t capture_count(const struct fabric *f);

#endif

/* timeline.h: a Chrome trace-event / Perfetto timeline of a run (JSON Object format: a
 * "traceEvents" array; chrome://tracing, ui.perfetto.dev). For the links chosen by the
 * scenario (output.timeline_ports, both directions) and a window of simulated time:
 *  - every packet on a link as a complete event ("X": ts = its head starts, dur = the
 *    transmitter's busy time, its serialisation unless a faster output waits for the tail),
 *    one track (pid = node, tid = port number) per sending port;
 *  - the receive buffer and the sender's credits of every data VL of those links as counters
 *    ("C", in 64-byte credits), and the CCTIs of the flows whose source link is chosen;
 *  - FECN marks, BECNs received, CNPs sent, drops and packets lost at switch inputs, and packets
 *    the RC responder discards (out of sequence) as instant events ("i", thread scope);
 *  - metadata ("M") naming nodes (name, alias, LID) and ports (number, peer).
 * Times are simulated microseconds (ps exact: six decimals). Events are collected in memory
 * (at most max_events, a fixed cap: when it is reached the timeline ends there, complete up to
 * that moment, and the run warns), sorted by time (stable: ties in the order the model made
 * them) and written when the run ends: deterministic, byte-identical for the same scenario and
 * seed. With no ports chosen nothing is installed and the data path pays one byte test per
 * hop (shared with the capture) and one per credit return. */
#ifndef IBN_TIMELINE_H
#define IBN_TIMELINE_H

#include "core/error.h"
#include "core/simtime.h"
#include "fabric/fabric.h"

struct timeline_desc {
    const char *ports;     /* links: "NODE:PORT,NODE,...", "*" = all; "" = no timeline */
    const char *flows;     /* only these flows' packets, marks and CCTIs ("A,B"); "" = all */
    simtime_t start, stop; /* window; stop 0 = the end of the run (drain included) */
    long long max_events;  /* cap on the events collected */
};

/* Mark the links and open `path`. 0, or -1 with e set (an unknown port or flow names its entry;
 * e->output for a file error). Nothing is installed when d->ports is empty. */
int timeline_open(struct fabric *f, const struct timeline_desc *d, const char *path,
                  struct ibn_err *e);
/* Sort, write and close the file: the first write error, if any (e names the file). */
int timeline_close(struct fabric *f, struct ibn_err *e);
/* Events collected so far (the metadata and the counters' values at the window's start not
 * counted); whether the cap was reached. */
uint64_t timeline_count(const struct fabric *f);
int timeline_truncated(const struct fabric *f);

#endif

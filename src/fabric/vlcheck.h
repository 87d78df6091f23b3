/* vlcheck.h: the check that every VL that carries traffic can be sent. IBA's VL arbitration
 * never serves a data VL that has no entry with a non-zero weight in either table of a port:
 * its packets would wait there for ever (and, lossless, back up into the fabric). ibnetsim
 * refuses such a fabric before it runs rather than model the starvation: it is always a
 * configuration error (typically tables written for fewer VLs than fabric.vls, or an SL2VL
 * map that sends an SL to a VL the tables forget). */
#ifndef IBN_VLCHECK_H
#define IBN_VLCHECK_H

#include "core/error.h"
#include "fabric/fabric.h"

/* The VLs (bit v) the fabric's traffic can use on output port `p`: the VLs its flows' SLs
 * (and the ACKs' SL under RC) map to there. */
uint16_t vlcheck_port_vls(const struct fabric *f, const struct port *p);
/* 0 when every cabled output port's tables give weight to every VL its traffic can use;
 * otherwise -1 and an error naming the port, the VL and an SL that maps to it. */
int vlcheck_fabric(const struct fabric *f, struct ibn_err *e);

#endif

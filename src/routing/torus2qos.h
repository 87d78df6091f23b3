/* torus2qos.h: OpenSM's torus-2QoS routing engine for 2-D and 3-D tori and meshes: its
 * configuration file (torus-2QoS.conf: the radix of each dimension, torus or mesh, and the seed
 * switches that fix the coordinate directions and datelines), the placement of the switches in
 * the torus, dimension-order routing, the path SLs (one bit per dimension whose shorter way
 * crosses the dateline, SL bit 3 the QoS level) and the SL2VL tables it programs, and OpenSM's
 * dump of those tables (opensm-sl2vl.dump). The engine itself is route_torus2qos (route.h). */
#ifndef IBN_TORUS2QOS_H
#define IBN_TORUS2QOS_H

#include <stdint.h>

#include "core/error.h"
#include "routing/lft.h"
#include "topology/topo.h"

#define T2Q_MAX_SEEDS 16

/* One seed: links from a common switch in the positive (xp_link ...) or negative (xm_link ...)
 * direction of each dimension, and the dateline positions relative to that switch. */
struct t2q_seed {
    uint64_t from[3][2], to[3][2]; /* [dim][0 = minus, 1 = plus]: node GUIDs */
    int has[3][2];
    int dateline[3];
    int line;                      /* the seed's first line in the file (0 = derived) */
};

struct t2q_conf {
    int given;                 /* a torus/mesh line was read */
    int radix[3];              /* x, y, z; 1 = the dimension is absent */
    int mesh[3];               /* 1: open dimension (mesh), 0: ring (torus); radix 2 is a mesh */
    int nseed;
    struct t2q_seed seed[T2Q_MAX_SEEDS];
    int port_order[256];       /* OpenSM's visiting order of a destination switch's ports */
    int portgroup_max_ports;   /* default 16 */
    int max_changes;           /* accepted, not used (OpenSM's change reports) */
    char from[256];            /* the file, or "derived from the switch names" */
};

/* Read OpenSM's torus-2QoS.conf (torus-2QoS.conf(5)): blank and '#' lines skipped, tokens after
 * the recognised ones ignored; errors name file:line (an unknown keyword, a missing or malformed
 * number or GUID, a radix of 0, a second torus/mesh line, a dateline out of range or before the
 * torus line, too many seeds). */
int t2q_conf_read(const char *path, struct t2q_conf *c, struct ibn_err *e);
/* The configuration of a torus or mesh whose switches are named S<x>_<y>[_<z>] (ibnetsim's
 * generators, also after an ibnetdiscover round trip): radices from the largest coordinates, a
 * dimension a ring when S<R-1>.. is cabled to S0..; the seed S0_0[_0] with its neighbours at 1
 * and, in rings, at R-1. -1 with e when the names do not form such a grid. */
int t2q_conf_derive(const struct topo *t, struct t2q_conf *c, struct ibn_err *e);

/* OpenSM's opensm-sl2vl.dump of the tables l->vlmap holds: every switch port and CA port in
 * OpenSM's port map order (byte-reversed port GUIDs), a switch with a line per (input port, cabled
 * output port), a CA port with one line. */
int t2q_sl2vl_dump_write(const char *path, const struct topo *t, const struct lfts *l,
                         struct ibn_err *e);

#endif

/* topo.h: the plain description of a fabric as a graph: nodes (switches and channel adapters),
 * their numbered ports, the cables between ports with their width/speed (or an explicit rate)
 * and propagation delay, and the LIDs assigned to ports. Generators and readers produce a
 * struct topo; routing engines read it; the fabric builder turns it into a running model.
 * Port numbers are IB's: 1..nports are physical ports; a switch's port 0 is its management
 * port and holds the switch LID. */
#ifndef IBN_TOPO_H
#define IBN_TOPO_H

#include <stdint.h>

#include "core/error.h"
#include "core/simtime.h"
#include "topology/linkspeed.h"

enum topo_node_type { TOPO_SWITCH = 1, TOPO_CA = 2 };

struct topo_port {
    int32_t peer_node;   /* -1 when the port is not cabled */
    int16_t peer_port;
    uint8_t width;       /* lanes: 1, 2, 4, 8, 12 */
    uint8_t speed;       /* enum ib_speed */
    double rate_bps;     /* data rate; if > 0 it overrides width/speed (abstract links) */
    simtime_t delay;     /* propagation delay of the cable */
    uint16_t lid;        /* CA ports: base LID; switches: port 0 holds the switch LID */
    uint8_t lmc;         /* CA ports (and switch port 0): 2^lmc LIDs from lid */
    uint64_t guid;       /* port GUID (CA ports), 0 if unknown */
};

struct topo_node {
    enum topo_node_type type;
    char *name;          /* short unique name, e.g. "H1", "S1", or the node description */
    char *desc;          /* node description (ibnetdiscover's quoted string), may equal name */
    char *alias;         /* short unique alias (topo_addr.h), NULL until topo_assign_aliases */
    uint64_t guid;       /* node GUID, 0 if unknown */
    uint64_t sysimgguid;
    int nports;
    struct topo_port *port; /* port[0..nports] */
    int rank;            /* generator's level (fat-tree stage, 0 = leaf), -1 if none */
};

struct topo {
    int nnodes, cap;
    struct topo_node *node;
    char *source;        /* where it came from: a file name or a generator description */
    int nwarn;           /* warnings from the reader or generator ("file:line: text") */
    char **warn;
};

void topo_init(struct topo *t);
void topo_free(struct topo *t);

/* Add a node with ports 1..nports uncabled; returns its index. The name is copied. */
int topo_add_node(struct topo *t, enum topo_node_type type, const char *name, int nports);
/* Cable (a, pa) to (b, pb). Fails if either port is out of range or already cabled. */
int topo_connect(struct topo *t, int a, int pa, int b, int pb, int width, enum ib_speed speed,
                 double rate_bps, simtime_t delay, struct ibn_err *e);
/* Index of the node with this name, or -1. */
int topo_find(const struct topo *t, const char *name);

/* Assign LIDs where none were given: switches first, then CA ports, each CA port getting
 * 2^lmc consecutive LIDs aligned to 2^lmc. Returns the largest LID used. */
int topo_assign_lids(struct topo *t, int lmc);
/* The unicast LID space: 0x0001-0xBFFF. */
#define TOPO_MAX_UCAST_LID 49151
#define TOPO_LMC_SIM_MAX 15 /* the largest LMC beyond IBA's 7 (topology.lmc_beyond_iba) */
/* Give every CA port 2^lmc LIDs (0-7 in IBA, up to TOPO_LMC_SIM_MAX beyond it: the caller
 * decides; every CA LID is assigned again, switch LIDs kept).
 * Refused, with the numbers, when the LIDs would not fit in the 49,151 unicast LIDs. */
int topo_set_lmc(struct topo *t, int lmc, struct ibn_err *e);
/* Largest LID in use (counting LMC ranges). */
int topo_max_lid(const struct topo *t);

/* Data rate of the cable on (node, port) in bits/s. */
double topo_port_rate_bps(const struct topo *t, int node, int port);

/* Structural checks: peers point back at each other, names unique, every CA port and every
 * switch reachable from the first node (connected), LIDs unique. Errors name the node/port. */
int topo_check(const struct topo *t, struct ibn_err *e);

/* Record a warning (the text is copied). */
void topo_warn(struct topo *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Give every node without a GUID one (0x0002c9 OUI, then the node index), and every CA port
 * without a port GUID the node GUID + port number; a switch's port 0 GUID is its node GUID. */
void topo_assign_guids(struct topo *t);
/* Port GUID of (node, port): CA ports their own, switches their node GUID. */
uint64_t topo_port_guid(const struct topo *t, int node, int port);
/* OpenSM's order of GUIDs: it keeps nodes and ports in maps (cl_qmap) keyed by the GUID in
 * network byte order and compared as a native 64-bit integer, so on x86 (little-endian) the
 * maps, and everything OpenSM does in map order (destinations with equal host counts, the
 * ports of no switch, the switches of opensm-lfts.dump), follow the byte-reversed GUID.
 * -1, 0 or 1 as a is before, equal to or after b in that order. */
static inline int topo_guid_cmp_osm(uint64_t a, uint64_t b)
{
    uint64_t x = __builtin_bswap64(a), y = __builtin_bswap64(b);
    return (x > y) - (x < y);
}

/* Counts, for describing a topology. */
int topo_count(const struct topo *t, enum topo_node_type type);
int topo_count_links(const struct topo *t);

#endif

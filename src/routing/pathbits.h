/* pathbits.h: seed 004's path bits (section 3.2-3.3). The switch graph's independent cycles, one
 * per non-tree edge of a breadth-first tree (Algorithms 1 and 2); every directed edge's cycle
 * list; a path's bit pattern from the cycles it traverses and their direction (Definition 2,
 * Algorithm 3: 1 = C_k clockwise, 0 = reversed, X = not traversed); and the multipath forwarding
 * table of every switch: for each destination switch, one entry per setting of the bits of the
 * cycles through the switch (2^k x destinations), filled from the simple paths, the shorter
 * remaining path winning a conflict (then the lower port), entries no path gave take the
 * shortest-path port, and every (source, destination, full pattern) walked through the tables:
 * an entry on a walk that loops is replaced by the shortest-path port until every walk arrives
 * (counted as conflicts). The engine `pathbits` (route.h) installs these tables as IBA linear
 * forwarding tables with the path bits as the LMC bits of the DLID (at most 7, IBA's LMC; up
 * to 15 beyond IBA, as seed 004 simulated 9). */
#ifndef IBN_PATHBITS_H
#define IBN_PATHBITS_H

#include <stdint.h>

#include "core/error.h"
#include "topology/topo.h"

#define PB_MAX_CYCLES 24   /* path bits the analysis handles (2^C patterns are walked) */
#define PB_MAX_LOCAL 16    /* cycles through one switch (2^k entries per destination) */
#define PB_LMC_MAX 7       /* IBA's LMC: path bits in a DLID */
#define PB_SIM_MAX 15      /* beyond IBA (topology.lmc_beyond_iba): packet.pb's 15 bits */
#define PB_SLACK_DEFAULT 4 /* the engine enumerates paths up to shortest + 4 hops */

struct pathbits {
    int nsw;                /* vertices: the switches, in topology order */
    int *node;              /* [v] topology node */
    int *vert;              /* [topology node] vertex, -1 for adapters */
    int maxdeg;
    int *deg;               /* [v] distinct neighbour switches */
    int *adj, *adjport;     /* [v * maxdeg + k]: k-th neighbour (by lowest port) and that port */
    int root;               /* of the breadth-first tree */
    int ncycles;            /* C: path bits */
    int nback_all;          /* non-tree edges of the whole graph (|E| - |V| + 1) */
    int nedges;             /* distinct switch-switch links used */
    int *cyc_len;           /* [k] edges of C_(k+1) */
    int **cyc;              /* [k][0..len]: v_i w_i ... v_i */
    uint64_t *on;           /* [v] cycles containing v (bit k = C_(k+1)) */
    int *nloc;              /* [v] number of them (k in 2^k) */
    uint64_t *el_plus, *el_minus; /* [v * maxdeg + k]: cycle list of edge v -> adj: C / C-bar */
    uint16_t *dist;         /* [v * nsw + w] hops in the graph used */
    int8_t **tab;           /* [v][d << nloc[v] | q] neighbour index, -1 at d itself */
    uint8_t **tab_spf;      /* [v][...] 1: the entry is the shortest-path fallback */
    long npaths;            /* simple paths enumerated */
    long undefined;         /* of those, whose cycle-list union was undefined (not installed) */
    long unset;             /* entries no path gave (shortest-path port) */
    long conflicts;         /* entries replaced because a walk through them looped */
    long walks;             /* (source, destination, pattern) walks verified */
};

/* Build for t's switch graph. root: a switch name, or NULL/"" for the switch of highest degree
 * (lowest index on ties). max_bits: 0 = one bit per cycle; K > 0 keeps only the first K
 * non-tree edges (the other links are not used): the LMC-limited form. slack: simple paths of
 * up to shortest + slack hops are enumerated (< 0: all). Refused, with the numbers, when the
 * graph has more than PB_MAX_CYCLES cycles or a switch lies on more than PB_MAX_LOCAL. */
int pathbits_build(const struct topo *t, const char *root, int max_bits, int slack,
                   struct pathbits *pb, struct ibn_err *e);
void pathbits_free(struct pathbits *pb);

/* Cycle lists of the path v[0..n-1] united left to right (Algorithm 3): bit k of *val is P_k
 * where bit k of *care is set (others X). Returns -1 if an edge is missing or the union is
 * undefined. */
int pathbits_of_path(const struct pathbits *pb, const int *v, int n, uint64_t *val, uint64_t *care);
/* "P1P2...PC" with X for don't-care (buf holds C + 1). */
void pathbits_format(const struct pathbits *pb, uint64_t val, uint64_t care, char *buf);
/* Vertex of the switch named `name`, or -1. */
int pathbits_vertex(const struct pathbits *pb, const struct topo *t, const char *name);
/* Next vertex at v towards destination switch d under full pattern P (bit k = P_(k+1)), or -1
 * at d itself. */
int pathbits_next(const struct pathbits *pb, int v, int d, uint64_t P);
/* Entries of v's multipath table per destination: 2^nloc[v]. */
static inline long pathbits_entries_per_dest(const struct pathbits *pb, int v)
{
    return 1L << pb->nloc[v];
}

#endif

/* partition.h: splitting a fabric's nodes over the ranks of a distributed run (issue 19,
 * docs/distributed.md). Switches are kept whole and every channel adapter goes with the
 * switch it is cabled to (its first cabled port's peer), so only cables between switches are
 * cut. A switch weighs its cabled ports plus the cabled ports of the adapters attached to it
 * (the expected traffic grows with both); the parts are balanced by that weight and the
 * number of cut switch-to-switch cables is kept small.
 *
 * Two partitioners: METIS (METIS_PartGraphKway on the switch graph, edge weights = cables,
 * when ibnetsim was built with libmetis) and ibnetsim's own, used without METIS or on request:
 * the switches in breadth-first order from a pseudo-peripheral switch, cut into k consecutive
 * runs of equal weight, then boundary refinement (a switch moves to the neighbouring part
 * that most reduces the cut while the receiving part stays under the balance bound). Both are
 * deterministic for a given topology. Results of a distributed run never depend on the
 * partition (the event order is partition-independent, core/eventq.h); only its speed does. */
#ifndef IBN_PARTITION_H
#define IBN_PARTITION_H

#include "core/error.h"
#include "topology/topo.h"

enum partition_method { PARTITION_AUTO, PARTITION_BFS, PARTITION_METIS };

struct partition_stats {
    int k;
    long long weight_total, weight_max, weight_min; /* per part */
    double imbalance;       /* weight_max / (weight_total / k) */
    long long cut;          /* cut cables (each counted once) */
    long long cables;       /* cables in all */
    int method;             /* the one that ran (PARTITION_BFS or PARTITION_METIS) */
};

/* Whether ibnetsim was built with METIS. */
int partition_have_metis(void);
/* part[i] in [0, k) for every node i of t. Fails (no part) when k < 1 or k is larger than the
 * number of switches (a fabric of adapters alone has one part). The own partitioner keeps
 * every part within max(1.05 * total / k, total / k + the heaviest switch) when the graph
 * allows it (balanced growth, refinement only into parts under that bound). */
int partition_topo(const struct topo *t, int k, enum partition_method m, int *part,
                   struct partition_stats *st, struct ibn_err *e);
/* The statistics of a given assignment (part per node). */
void partition_measure(const struct topo *t, int k, const int *part, struct partition_stats *st);
/* The switch an adapter goes with (its first cabled port's peer), or -1 if it has none. */
int partition_host_switch(const struct topo *t, int node);

#endif

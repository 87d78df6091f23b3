/* topo_metrics.h: numbers that describe a topology: host-to-host diameter and, where the
 * structure defines it, the bisection width. */
#ifndef IBN_TOPO_METRICS_H
#define IBN_TOPO_METRICS_H

#include "topology/topo.h"

/* Longest shortest path between two CAs, in links (CA-switch links included); -1 if some CA
 * pair is disconnected, 0 with fewer than two CAs. */
int topo_diameter(const struct topo *t);
/* Bisection width in links, where defined: fat trees with levels (node ranks): the fewest links
 * between two adjacent levels, or the hosts, halved; meshes/tori from their generator: the
 * links across a cut through the middle of the largest dimension. -1 where not defined. */
long topo_bisection_links(const struct topo *t);

#endif

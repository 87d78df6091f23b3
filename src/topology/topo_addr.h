/* topo_addr.h: naming nodes the way InfiniBand people do. One node (or CA port) can be given
 * as its name, its short alias, a LID (`lid:0x1b`, `lid:27`), a node or port GUID
 * (`0x0002c90300048248`), ibnetdiscover's id (`H-0002c903...`, `S-...`) or its node
 * description when that is unique; a set of hosts as `*` (every host), a comma list of any of
 * those, a glob over names and aliases (`node0*`), `switch:X` (the hosts cabled to switch X,
 * X named any way above) or `leaf:N` (the hosts of the N-th switch that has hosts, 1-based in
 * topology order).
 *
 * Aliases are derived once per topology (topo_assign_aliases): a node whose name has no space
 * is its own alias (generated fabrics: H1, S0_3); otherwise the first word of its description,
 * when no other node's description starts with it, else that word plus "-k", k counting the
 * nodes with that first word in topology order from 1 (x5's 89 "MT25408 ConnectX Mellanox
 * Technologies" HCAs become MT25408-1 .. MT25408-89). The same file always gives the same
 * aliases. */
#ifndef IBN_TOPO_ADDR_H
#define IBN_TOPO_ADDR_H

#include <stddef.h>

#include "core/error.h"
#include "topology/topo.h"

/* Fill node[i].alias for every node (unique; idempotent). */
void topo_assign_aliases(struct topo *t);

/* One node from any of the forms above. *port gets the CA port a LID or port GUID names (or a
 * "NAME:PORT" suffix), else 0. Returns 0, or -1 with e saying what was tried (not found, or
 * ambiguous with the candidates). */
int topo_resolve(const struct topo *t, const char *spec, int *node, int *port, struct ibn_err *e);

/* The hosts (CA nodes) a set expression names, in topology order without repeats: *out
 * (to free) gets their node indices. Returns the count, or -1 with e set. */
int topo_host_set(const struct topo *t, const char *spec, int **out, struct ibn_err *e);

/* Whether spec is a set expression rather than one node ("*", a list, a glob, switch:, leaf:). */
int topo_is_set(const char *spec);

#endif

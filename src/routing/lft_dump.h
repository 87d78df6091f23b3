/* lft_dump.h: OpenSM's unicast forwarding table dump (opensm-lfts.dump, also what OpenSM's
 * `file` routing engine loads with -U):
 *   Unicast lids [0-102] of switch Lid 6 guid 0x0008f1050010851e ('desc'):
 *   0x0001 036 # Channel Adapter portguid 0x0002c90300080d59: 'desc'
 *   ...
 *   102 lids dumped
 * Switches are found by GUID (by LID only when the topology has no GUID for it). An entry's LID
 * is translated through its portguid comment (OpenSM's file engine does the same), so a dump
 * taken with OpenSM's LIDs applies to a topology that has other LIDs. Refused, with file:line:
 * a portguid or switch GUID the topology lacks, a port or LID out of range (also beyond the
 * section's [0-N]), a second entry for one LID or a second section for one switch, a section
 * without its "N lids dumped" line or with another N, and a dump without a section for every
 * switch of the topology (truncated, or of another fabric). */
#ifndef IBN_LFT_DUMP_H
#define IBN_LFT_DUMP_H

#include "core/error.h"
#include "routing/hoptab.h"
#include "routing/lft.h"
#include "topology/topo.h"

/* Read the dump into out (initialised here for t). Errors name file:line. */
int lft_dump_read(const char *path, const struct topo *t, struct lfts *out, struct ibn_err *e);
/* Write l in OpenSM's format, switches in GUID order as OpenSM writes them. */
int lft_dump_write(const char *path, const struct topo *t, const struct lfts *l, struct ibn_err *e);

/* OpenSM's min-hop dump (opensm-lid-matrix.dump): compare every row with a hop table: h, or
 * when h is NULL the topology's shortest-path hop counts (port 0: the switch's least hops;
 * port p: 1 + the neighbour's, 0xff for ports without a switch behind them), which is what
 * OpenSM's minhop dumps; updn dumps its direction-restricted table (updn_hoptab). Returns 0
 * if all rows agree (*rows = rows compared), -1 with the first difference (file:line, switch,
 * LID, port, both values). */
int lid_matrix_compare(const char *path, const struct topo *t, const struct hoptab *h, int *rows,
                       struct ibn_err *e);

#endif

/* mft_dump.h: OpenSM's multicast forwarding table dump (opensm-mfts.dump, what OpenSM writes
 * after a sweep and ibdiagnet's .mcfdbs): for every switch with an entry,
 *
 *   Switch 0x0002c9020040a9a8
 *   LID    : Out Port(s)
 *   0xC000 : 0x001  0x003
 *
 * (a blank line before each switch, each port as " 0x%03X " with its spaces, MLIDs ascending;
 * switches without entries are left out). Switches are found by node GUID. */
#ifndef IBN_MFT_DUMP_H
#define IBN_MFT_DUMP_H

#include "core/error.h"
#include "routing/mft.h"
#include "topology/topo.h"

/* Read a dump into out (initialised here for t, sized to the largest MLID read). Errors name
 * file:line and what was expected. */
int mft_dump_read(const char *path, const struct topo *t, struct mfts *out, struct ibn_err *e);
/* Write m in OpenSM's form, switches in node GUID order. */
int mft_dump_write(const char *path, const struct topo *t, const struct mfts *m, struct ibn_err *e);

#endif

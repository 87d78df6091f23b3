/* mft_dump.h: OpenSM's multicast forwarding table dump: the file opensm.mcfdbs that OpenSM
 * writes into its dump directory (osm_dump.c, dump_mcast_routes: after every multicast routing
 * pass, with routing logging on, -D 0x40; ibnetsim's docs and scenario keys call it the MFT
 * dump, or opensm-mfts.dump after the issue that asked for it): for every switch with an entry,
 *
 *   Switch 0x0002c9020040a9a8
 *   LID    : Out Port(s)
 *   0xC000 : 0x001  0x003
 *
 * (a blank line before each switch, each port as " 0x%03X " with its spaces, MLIDs ascending;
 * switches without entries are left out; switches in OpenSM's map order, by byte-reversed node
 * GUID on x86, topo_guid_cmp_osm). Switches are found by node GUID. */
#ifndef IBN_MFT_DUMP_H
#define IBN_MFT_DUMP_H

#include "core/error.h"
#include "routing/mft.h"
#include "topology/topo.h"

/* Read a dump into out (initialised here for t, sized to the largest MLID read). Errors name
 * file:line and what was expected. */
int mft_dump_read(const char *path, const struct topo *t, struct mfts *out, struct ibn_err *e);
/* Write m in OpenSM's form, switches in OpenSM's order (byte-reversed node GUID). */
int mft_dump_write(const char *path, const struct topo *t, const struct mfts *m, struct ibn_err *e);

#endif

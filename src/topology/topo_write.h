/* topo_write.h: writing a topology in ibnetdiscover's text form, which ibsim, OpenSM (through
 * ibsim) and ibnetsim's own reader load: guid lines, Switch/Ca blocks with one line per cabled
 * port carrying the peer, GUIDs, LIDs and width/speed. */
#ifndef IBN_TOPO_WRITE_H
#define IBN_TOPO_WRITE_H

#include <stdio.h>

#include "topology/topo.h"

/* Nodes without GUIDs are written with the GUIDs topo_assign_guids would give (the topology
 * is not changed). Links given only as an abstract rate are written with their stored
 * width/speed. Returns 0, or -1 if writing failed. */
int topo_write_ibnetdiscover(FILE *f, const struct topo *t);
/* OpenSM's guid2lid cache file (port GUID, base LID, last LID per line), which makes OpenSM
 * run with honor_guid2lid keep the topology's LIDs. */
int topo_write_guid2lid(FILE *f, const struct topo *t);

#endif

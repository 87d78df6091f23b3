/* topo_read.h: reading a fabric from a file: ibnetdiscover output (Switch/Ca blocks, guid
 * lines, port lines with peer, GUIDs, LIDs and width/speed) and ibsim's net files (Switch/Hca
 * blocks, "[p] "peer"[q]" lines, w=/s= options). One parser reads both dialects; the file's
 * dialect is recorded in the topology's source. Lines that are not part of either format are
 * skipped with a warning (ibnetdiscover's own readers skip them too); a malformed Switch/Ca
 * header or port line is an error naming file:line and what was expected. */
#ifndef IBN_TOPO_READ_H
#define IBN_TOPO_READ_H

#include <stdio.h>

#include "core/error.h"
#include "topology/topo.h"

/* Propagation delay given to every cable read from a file (the formats carry none). */
#define TOPO_READ_DEFAULT_DELAY_PS 10000

/* Read ibnetdiscover or ibsim net from path (detected from the content). Node names: the node
 * description without quotes; where two nodes share a description, the name is
 * "DESC 0xGUID"; where a node has no description, its id ("S-0008f1...", "Switch1").
 * Warnings (skipped lines, loopback cables, ends that disagree on a link's width or speed)
 * are stored in out->warn. */
int topo_read_file(const char *path, struct topo *out, struct ibn_err *e);
/* The same from an open stream; `name` is used in messages. */
int topo_read_stream(FILE *f, const char *name, struct topo *out, struct ibn_err *e);

#endif

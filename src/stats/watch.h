/* watch.h: choosing what an observer of a run watches (the packet capture, the timeline): links
 * named by the scenario ("NODE:PORT,NODE,..."; a node alone: all its cabled ports; "*": every
 * cabled port), marked at both ends with the observer's WATCH_* bit so that the data path tests
 * one byte per hop, and flows by name. */
#ifndef IBN_WATCH_H
#define IBN_WATCH_H

#include <stdint.h>

#include "core/error.h"
#include "fabric/fabric.h"

/* Mark the links of `list` with `bit` at both ends; errors name `key` (the scenario key). */
int watch_links(struct fabric *f, const char *list, uint8_t bit, const char *key,
                struct ibn_err *e);
/* Flows of `list` ("A,B"): *on becomes a calloc'd [nflows + 1] array of 0/1, or stays NULL for
 * an empty list (every flow). Errors name `key`. */
int watch_flows(const struct fabric *f, const char *list, uint8_t **on, const char *key,
                struct ibn_err *e);
/* Unmark every port's `bit`. */
void watch_clear(struct fabric *f, uint8_t bit);

#endif

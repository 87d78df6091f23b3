/* hoptab.h: switch-to-switch hop tables, the input OpenSM's unicast manager routes from: for
 * every destination switch T, every switch s and every port p of s, the number of switch hops
 * from s to T leaving through p (port 0: s's least hop count; 0xff: no path that way). minhop
 * fills it from plain shortest distances, up*-down* from its direction-restricted search; the
 * LFT builder (lft_build.c) then picks ports exactly as OpenSM does. */
#ifndef IBN_HOPTAB_H
#define IBN_HOPTAB_H

#include <stdint.h>

#include "topology/topo.h"

#define HOP_NONE 0xff

struct hoptab {
    int nsw;
    int *sw;        /* switch index -> topo node */
    int *swidx;     /* topo node -> switch index, -1 for CAs */
    int *off;       /* switch index -> offset of its ports 0..nports in a row */
    int rowlen;     /* sum over switches of nports + 1 */
    uint8_t *h;     /* h[T * rowlen + off[s] + p] */
};

/* Switch indexing and storage; every entry HOP_NONE. */
void hoptab_init(struct hoptab *h, const struct topo *t);
void hoptab_free(struct hoptab *h);
/* Only the switch indexing (h->h stays NULL), for engines that need no hop table. */
void hoptab_index(struct hoptab *h, const struct topo *t);

static inline uint8_t *hoptab_row(const struct hoptab *h, int T, int s)
{
    return h->h + (size_t)T * (size_t)h->rowlen + (size_t)h->off[s];
}

/* Shortest-path hop table (OpenSM's min-hop matrices): port 0 holds dist(s, T); port p to a
 * switch v holds 1 + dist(v, T). Loopback cables (v == s) get no hop count, as in OpenSM. */
void hoptab_minhop(struct hoptab *h, const struct topo *t);

/* All-pairs switch distances by BFS (nsw x nsw, 0xffff where unreachable); caller frees. */
uint16_t *hoptab_distances(const struct topo *t, const struct hoptab *h);

#endif

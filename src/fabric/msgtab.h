/* msgtab.h: a small table from a flow's message number to one 64-bit value, for what a
 * requester keeps about each message in flight: the posting time of a message under a message
 * window (the posted latency), the packets of a message that one ACK acknowledges. Linear
 * probing from number % size, deletion by backward shift (every entry stays reachable from its
 * home), growth by doubling when it would be full (always one entry empty, so every probe
 * ends). Nothing is allocated per message. */
#ifndef IBN_MSGTAB_H
#define IBN_MSGTAB_H

#include <stdint.h>

#define MSGTAB_NONE UINT32_MAX /* an empty entry's key */

struct msgtab {
    uint32_t *key;  /* [slots]: a message number or MSGTAB_NONE */
    int64_t *val;   /* [slots] */
    uint32_t slots, used;
};

/* An empty table of `slots` entries (at least 2); msgtab_free frees it (a zeroed table too). */
void msgtab_init(struct msgtab *t, uint32_t slots);
void msgtab_free(struct msgtab *t);
/* Message `msg` has value v (again: its entry is overwritten). */
void msgtab_put(struct msgtab *t, uint32_t msg, int64_t v);
/* Message `msg`'s value, its entry freed; panics (naming `owner`) when it has none. */
int64_t msgtab_take(struct msgtab *t, uint32_t msg, const char *owner);

#endif

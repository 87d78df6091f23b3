/* distio.h: the one walker per state that a distributed run moves between ranks (dist/dist.c,
 * the plug-ins' hooks.dist_walk). A walker visits the fields in one order with a `struct
 * dist_io` that either packs them into its buffer (DIST_PACK, the rank that owns them) or
 * unpacks them from it into the same fields (DIST_UNPACK, rank 0), so that a field added to
 * the walk is sent and received alike: there is no second list to forget it in. */
#ifndef IBN_DISTIO_H
#define IBN_DISTIO_H

#include <stddef.h>
#include <stdint.h>

enum dist_dir { DIST_PACK, DIST_UNPACK };

struct dist_io {
    enum dist_dir dir;
    char *b;                 /* the bytes packed, or to unpack */
    size_t n, cap, at;       /* used, allocated, read so far (DIST_UNPACK) */
};

/* x[0..n): packed as it is, or overwritten with the packed bytes. */
void dist_io_bytes(struct dist_io *io, void *x, size_t n);
/* Counters that several ranks add to: packed as they are, or the packed values added to x. */
void dist_io_sum_u64(struct dist_io *io, uint64_t *x, size_t n);
/* Whether everything packed was unpacked (DIST_UNPACK at the end). */
int dist_io_done(const struct dist_io *io);
void dist_io_free(struct dist_io *io);

#define DIST_IO(io, v) dist_io_bytes((io), &(v), sizeof(v))

#endif

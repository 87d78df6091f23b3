/* distio.c: packing and unpacking through one walker (distio.h). */
#include "fabric/distio.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>

static void need(struct dist_io *io, size_t n)
{
    if (io->n + n <= io->cap)
        return;
    io->cap = (io->n + n) * 2 + 4096;
    io->b = xrealloc(io->b, io->cap);
}

static const char *take(struct dist_io *io, size_t n)
{
    if (n > io->n - io->at)
        ibn_panic("distributed run: a record is %zu bytes short (the ranks' walks differ)",
                  n - (io->n - io->at));
    const char *p = io->b + io->at;
    io->at += n;
    return p;
}

void dist_io_bytes(struct dist_io *io, void *x, size_t n)
{
    if (!n)
        return;
    if (io->dir == DIST_PACK) {
        need(io, n);
        memcpy(io->b + io->n, x, n);
        io->n += n;
    } else {
        memcpy(x, take(io, n), n);
    }
}

void dist_io_sum_u64(struct dist_io *io, uint64_t *x, size_t n)
{
    if (io->dir == DIST_PACK) {
        dist_io_bytes(io, x, n * sizeof *x);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        uint64_t v;
        memcpy(&v, take(io, sizeof v), sizeof v);
        x[k] += v;
    }
}

int dist_io_done(const struct dist_io *io)
{
    return io->at == io->n;
}

void dist_io_free(struct dist_io *io)
{
    free(io->b);
    memset(io, 0, sizeof *io);
}

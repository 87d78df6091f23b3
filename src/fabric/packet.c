/* packet.c: the packet pool: an array of packets with an index free list, grown by doubling. */
#include "fabric/packet.h"

#include <stdlib.h>

#include "core/error.h"

static void link_free(struct pktpool *pool, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        pool->p[i].next = i + 1 < to ? i + 1 : pool->free_head;
    pool->free_head = from;
}

void pktpool_init(struct pktpool *pool, uint32_t initial)
{
    pool->cap = initial ? initial : 1024;
    pool->p = xmalloc((size_t)pool->cap * sizeof *pool->p);
    pool->free_head = PKT_NIL;
    pool->live = pool->created = 0;
    link_free(pool, 0, pool->cap);
}

void pktpool_free(struct pktpool *pool)
{
    free(pool->p);
    pool->p = NULL;
    pool->cap = 0;
}

uint32_t pktpool_alloc(struct pktpool *pool)
{
    if (pool->free_head == PKT_NIL) {
        uint32_t old = pool->cap;
        if (old >= UINT32_MAX / 2)
            ibn_panic("packet pool exhausted (%u packets in flight)", old);
        pool->cap = old * 2;
        pool->p = xrealloc(pool->p, (size_t)pool->cap * sizeof *pool->p);
        link_free(pool, old, pool->cap);
    }
    uint32_t idx = pool->free_head;
    pool->free_head = pool->p[idx].next;
    pool->live++;
    pool->created++;
    return idx;
}

void pktpool_release(struct pktpool *pool, uint32_t idx)
{
    pool->p[idx].next = pool->free_head;
    pool->free_head = idx;
    pool->live--;
}

/* msgtab.c: a table from message number to value, linear probing, backward-shift deletion,
 * growth by doubling (see msgtab.h). */
#include "fabric/msgtab.h"

#include <stdlib.h>

#include "core/error.h"

void msgtab_init(struct msgtab *t, uint32_t slots)
{
    if (slots < 2)
        slots = 2;
    t->key = xmalloc((size_t)slots * sizeof *t->key);
    t->val = xmalloc((size_t)slots * sizeof *t->val);
    for (uint32_t k = 0; k < slots; k++)
        t->key[k] = MSGTAB_NONE;
    t->slots = slots;
    t->used = 0;
}

void msgtab_free(struct msgtab *t)
{
    free(t->key);
    free(t->val);
    t->key = NULL;
    t->val = NULL;
    t->slots = t->used = 0;
}

static void msgtab_grow(struct msgtab *t)
{
    struct msgtab old = *t;
    msgtab_init(t, old.slots * 2);
    for (uint32_t k = 0; k < old.slots; k++)
        if (old.key[k] != MSGTAB_NONE)
            msgtab_put(t, old.key[k], old.val[k]);
    msgtab_free(&old);
}

void msgtab_put(struct msgtab *t, uint32_t msg, int64_t v)
{
    if (t->used + 1 >= t->slots) /* an empty entry ends every probe */
        msgtab_grow(t);
    uint32_t w = t->slots, i = msg % w;
    while (t->key[i] != MSGTAB_NONE && t->key[i] != msg)
        i = i + 1 == w ? 0 : i + 1;
    t->used += t->key[i] == MSGTAB_NONE;
    t->key[i] = msg;
    t->val[i] = v;
}

int64_t msgtab_take(struct msgtab *t, uint32_t msg, const char *owner)
{
    uint32_t w = t->slots, i = w ? msg % w : 0;
    while (w && t->key[i] != msg) {
        if (t->key[i] == MSGTAB_NONE)
            break;
        i = i + 1 == w ? 0 : i + 1;
    }
    if (!w || t->key[i] != msg)
        ibn_panic("flow %s: message %u acknowledged or delivered but never begun", owner, msg);
    int64_t v = t->val[i];
    t->key[i] = MSGTAB_NONE;
    t->used--;
    for (uint32_t j = i + 1 == w ? 0 : i + 1; t->key[j] != MSGTAB_NONE; j = j + 1 == w ? 0 : j + 1) {
        uint32_t h = t->key[j] % w; /* stays if its home lies cyclically in (i, j] */
        if (i < j ? (h > i && h <= j) : (h > i || h <= j))
            continue;
        t->key[i] = t->key[j];
        t->val[i] = t->val[j];
        t->key[j] = MSGTAB_NONE;
        i = j;
    }
    return v;
}

/* vlarb.c: IBA high/low-priority VL arbitration tables and their weighted round robin. */
#include "fabric/vlarb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vlarb_table_default(struct vlarb_table *t, int nvls, uint8_t weight)
{
    memset(t, 0, sizeof *t);
    t->limit_high = VLARB_UNBOUNDED;
    for (int v = 0; v < nvls && v < 15; v++) {
        t->low[v].vl = (uint8_t)v;
        t->low[v].weight = weight;
    }
    t->nlow = (uint8_t)(nvls < 15 ? nvls : 15);
}

int vlarb_parse_entries(const char *text, struct vlarb_entry *out, uint8_t *n, char *why, int whylen)
{
    *n = 0;
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        char *end;
        long vl = strtol(s, &end, 10);
        if (end == s || *end != ':' || vl < 0 || vl > 14) {
            snprintf(why, (size_t)whylen, "expected VL:weight pairs like \"0:4,1:64\" with VL 0-14, at \"%s\"", s);
            return -1;
        }
        s = end + 1;
        long w = strtol(s, &end, 10);
        if (end == s || w < 0 || w > 255 || (*end && *end != ',' && *end != ' ')) {
            snprintf(why, (size_t)whylen, "weight must be 0-255 (64-byte units), at \"%s\"", s);
            return -1;
        }
        if (*n == VLARB_ENTRIES) {
            snprintf(why, (size_t)whylen, "a VL arbitration table has at most 64 entries");
            return -1;
        }
        out[*n].vl = (uint8_t)vl;
        out[*n].weight = (uint8_t)w;
        (*n)++;
        s = end;
    }
    return 0;
}

void vlarb_state_init(struct vlarb_state *s)
{
    memset(s, 0, sizeof *s);
}

/* Does any entry of the table hold a ready VL with a weight? */
static int table_has(const struct vlarb_entry *e, int n, uint32_t ready)
{
    for (int i = 0; i < n; i++)
        if (e[i].weight && (ready >> e[i].vl & 1))
            return 1;
    return 0;
}

/* Stay on the current entry while it has weight left and its VL is ready; otherwise move to
 * the next entry whose VL is ready, and give it its full weight. */
static int table_pick(const struct vlarb_entry *e, int n, uint8_t *pos, int32_t *left, uint32_t ready)
{
    if (*pos < n && *left > 0 && e[*pos].weight && (ready >> e[*pos].vl & 1))
        return e[*pos].vl;
    for (int k = 1; k <= n; k++) {
        int i = (*pos + k) % n;
        if (e[i].weight && (ready >> e[i].vl & 1)) {
            *pos = (uint8_t)i;
            *left = (int32_t)e[i].weight * 64;
            return e[i].vl;
        }
    }
    return -1;
}

int vlarb_pick_(const struct vlarb_table *t, struct vlarb_state *s, uint32_t ready)
{
    if (ready & (1u << 15))
        return 15;
    int hi = table_has(t->high, t->nhigh, ready), lo = table_has(t->low, t->nlow, ready);
    int use_high = 0;
    if (hi) {
        uint32_t limit = t->limit_high == VLARB_UNBOUNDED ? UINT32_MAX
                         : t->limit_high == 0 ? 1u : (uint32_t)t->limit_high * 4096u;
        use_high = !lo || s->hi_bytes < limit;
    }
    if (use_high) {
        s->last_high = 1;
        return table_pick(t->high, t->nhigh, &s->hi_pos, &s->hi_left, ready);
    }
    if (lo) {
        s->last_high = 0;
        return table_pick(t->low, t->nlow, &s->lo_pos, &s->lo_left, ready);
    }
    return -1;
}

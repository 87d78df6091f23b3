/* pattern.c: destination patterns and their parameter table: synthetic patterns, hot spots,
 * and seed 002 Paper IV's silent, windy and moving congestion trees with node roles drawn
 * from the setup stream and windy byte budgets per B node. */
#include "traffic/pattern.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "core/rng.h"

static const char *const b_uniform_names[] = { "all", "cold", NULL };

const char *const pattern_kind_names[] = { "uniform",   "fixed",       "shift",   "bitrev",
                                           "transpose", "random_perm", "hotspot", "alltoall",
                                           "ring",      "neighbour",   "silent",  "windy",
                                           "moving",    NULL };

#define OFF(f) offsetof(struct pattern_desc, f)

const struct param pattern_params[] = {
    { "kind", P_ENUM, OFF(kind), "uniform",
      "destination pattern: uniform, fixed, shift, bitrev, transpose, random_perm, hotspot, "
      "alltoall, ring, neighbour, silent, windy, moving (seed 002 Paper IV congestion trees)",
      pattern_kind_names, 0, 0 },
    { "dest", P_INT, OFF(dest), "0",
      "fixed: the destination host index of every host (that host itself sends nothing)", NULL,
      0, 1e9 },
    { "shift", P_INT, OFF(shift), "1",
      "shift: host i sends to host (i + shift) mod n; shift mod n must not be 0", NULL, -1e9,
      1e9 },
    { "hotspots", P_INT, OFF(hotspots), "1",
      "hotspot, silent, windy, moving: number of hot spots (distinct hosts drawn from the setup "
      "stream); C and B nodes are split evenly into this many subsets, one per hot spot",
      NULL, 1, 1e9 },
    { "hot_fraction", P_DOUBLE, OFF(hot_fraction), "0.1",
      "hotspot: probability that a message goes to a hot spot (uniform over the hot spots)",
      NULL, 0, 1 },
    { "hot_node", P_INT, OFF(hot_node), "-1",
      "hotspot: host index of the first hot spot (-1 = drawn at random)", NULL, -1, 1e9 },
    { "c_fraction", P_DOUBLE, OFF(c_fraction), "0.8",
      "silent, windy, moving: fraction of hosts that are C nodes (always send to their hot "
      "spot); hosts that are neither C nor B are V nodes (uniform)", NULL, 0, 1 },
    { "b_fraction", P_DOUBLE, OFF(b_fraction), "0",
      "windy, moving: fraction of hosts that are B nodes (a share p to the hot spot, the rest "
      "uniform over all other hosts); must be 0 for silent", NULL, 0, 1 },
    { "p", P_DOUBLE, OFF(p), "0.5",
      "windy, moving: share of a B node's bytes that go to its hot spot, enforced as byte "
      "budgets p x t x budget_rate and (1 - p) x t x budget_rate by time t", NULL, 0, 1 },
    { "budget_rate", P_RATE, OFF(budget_rate), "13.5 Gb/s",
      "windy, moving: rate C of the B-node byte budgets (Paper IV: the 13.5 Gb/s injection "
      "cap)", NULL, 0, 0 },
    { "msg_size", P_SIZE, OFF(msg_bytes), "4096 B",
      "windy, moving: bytes charged to a class budget per message chosen by the pattern "
      "(Paper IV: 4 KiB messages); split flows charge each message's own size", NULL, 1,
      4294967295.0 },
    { "lifetime", P_TIME, OFF(lifetime), "1 ms",
      "moving: hot-spot lifetime; at every multiple of it all hot spots move at once to new "
      "distinct hosts, subsets keep their members", NULL, 0, 0 },
    { "b_uniform", P_ENUM, OFF(b_uniform_cold), "all",
      "windy, moving: where a B node's uniform class goes: all = every other host, hot spots "
      "included (Paper IV Frame I: \"including all nodes in the network (except the node "
      "itself)\"); cold = only hosts that are not hot spots", b_uniform_names, 0, 0 },
    { "split", P_BOOL, OFF(split), "false",
      "silent, windy, moving: each host gets two flows (queue pairs), NAME@HOST/hot and "
      "NAME@HOST/uni, one per class, with their own arrival process, congestion-control state "
      "and random stream; each starts a message only when its class budget admits it (Paper IV "
      "Frame I), so throttling one does not hold back the other. A class a node does not have "
      "(V: hot, C: uniform, B: hot at p = 0, uniform at p = 1) stays quiet", NULL, 0, 0 },
    PARAM_END
};

static int is_tree(int kind)
{
    return kind == PAT_SILENT || kind == PAT_WINDY || kind == PAT_MOVING;
}

static int uses_hot(int kind)
{
    return kind == PAT_HOTSPOT || is_tree(kind);
}

static void draw_hot(struct pattern *p, gsl_rng *r)
{
    int H = (int)p->d.hotspots;
    for (int i = 0; i < p->n; i++)
        p->pool[i] = i;
    for (int i = 0; i < H; i++)
        p->is_hot[p->hot[i]] = 0;
    gsl_ran_choose(r, p->hot, (size_t)H, p->pool, (size_t)p->n, sizeof(int));
    gsl_ran_shuffle(r, p->hot, (size_t)H, sizeof(int)); /* random subset -> hot spot mapping */
    for (int i = 0; i < H; i++)
        p->is_hot[p->hot[i]] = 1;
}

static void move_to_epoch(struct pattern *p, long long epoch)
{
    uint64_t s = rng_mix64(p->move_seed ^ rng_mix64((uint64_t)epoch));
    unsigned long s32 = (unsigned long)((s ^ (s >> 32)) & 0xffffffffu);
    gsl_rng_set(p->move_rng, s32 ? s32 : 1u);
    draw_hot(p, p->move_rng);
    p->epoch = epoch;
}

static void update_epoch(struct pattern *p, simtime_t now)
{
    if (p->d.kind != PAT_MOVING)
        return;
    long long epoch = now / p->d.lifetime;
    if (epoch != p->epoch)
        move_to_epoch(p, epoch);
}

static int init_fail(struct pattern *p)
{
    pattern_free(p);
    return -1;
}

int pattern_init(struct pattern *p, const struct pattern_desc *d, int nhosts, gsl_rng *setup_rng,
                 struct ibn_err *e)
{
    memset(p, 0, sizeof *p);
    p->d = *d;
    p->n = nhosts;
    int n = nhosts;
    if (d->kind < 0 || d->kind > PAT_MOVING)
        return ibn_err_set(e, "unknown pattern kind %d", d->kind);
    const char *name = pattern_kind_names[d->kind];
    if (n < 2)
        return ibn_err_set(e, "pattern %s needs at least 2 hosts, got %d", name, n);
    if (d->split && !is_tree(d->kind))
        return ibn_err_set(e, "pattern %s: split needs node roles (silent, windy or moving)", name);
    int needs_rng = d->kind == PAT_RANDOM_PERM || uses_hot(d->kind);
    if (needs_rng && !setup_rng)
        return ibn_err_set(e, "pattern %s needs a setup random stream", name);

    switch (d->kind) {
    case PAT_FIXED:
        if (d->dest < 0 || d->dest >= n)
            return ibn_err_set(e, "fixed pattern: dest %lld is not a host index (0..%d)", d->dest,
                               n - 1);
        break;
    case PAT_SHIFT:
        if (((d->shift % n) + n) % n == 0)
            return ibn_err_set(e, "shift pattern: shift %lld is a multiple of the %d hosts, so "
                               "every host would send to itself", d->shift, n);
        break;
    case PAT_BITREV: {
        if (n & (n - 1))
            return ibn_err_set(e, "bitrev pattern needs a power-of-two number of hosts, got %d", n);
        int bits = 0;
        while ((1 << bits) < n)
            bits++;
        p->perm = xmalloc((size_t)n * sizeof *p->perm);
        for (int i = 0; i < n; i++) {
            int r = 0;
            for (int b = 0; b < bits; b++)
                if (i & (1 << b))
                    r |= 1 << (bits - 1 - b);
            p->perm[i] = r == i ? -1 : r;
        }
        break;
    }
    case PAT_TRANSPOSE: {
        int m = (int)llround(sqrt((double)n));
        if (m * m != n)
            return ibn_err_set(e, "transpose pattern needs a square number of hosts (m x m), "
                               "got %d", n);
        p->perm = xmalloc((size_t)n * sizeof *p->perm);
        for (int i = 0; i < n; i++) {
            int t = (i % m) * m + i / m;
            p->perm[i] = t == i ? -1 : t;
        }
        break;
    }
    case PAT_RANDOM_PERM: {
        p->perm = xmalloc((size_t)n * sizeof *p->perm);
        for (;;) { /* uniform derangement by rejection: e tries on average */
            for (int i = 0; i < n; i++)
                p->perm[i] = i;
            gsl_ran_shuffle(setup_rng, p->perm, (size_t)n, sizeof(int));
            int fixed = 0;
            for (int i = 0; i < n && !fixed; i++)
                fixed = p->perm[i] == i;
            if (!fixed)
                break;
        }
        break;
    }
    case PAT_ALLTOALL:
        p->counter = xcalloc((size_t)n, sizeof *p->counter);
        break;
    default:
        break;
    }

    if (uses_hot(d->kind)) {
        if (d->hotspots < 1 || d->hotspots > n)
            return ibn_err_set(e, "pattern %s: hotspots must be between 1 and %d, got %lld",
                               name, n, d->hotspots);
        int H = (int)d->hotspots;
        p->hot = xcalloc((size_t)H, sizeof *p->hot);
        p->is_hot = xcalloc((size_t)n, 1);
        p->pool = xmalloc((size_t)n * sizeof *p->pool);
        if (d->kind == PAT_HOTSPOT && d->hot_node >= 0) {
            if (d->hot_node >= n) {
                ibn_err_set(e, "hotspot pattern: hot_node %lld is not a host index (0..%d)",
                            d->hot_node, n - 1);
                return init_fail(p);
            }
            /* the given host first, the others drawn from the remaining hosts */
            int k = 0;
            for (int i = 0; i < n; i++)
                if (i != d->hot_node)
                    p->pool[k++] = i;
            p->hot[0] = (int)d->hot_node;
            if (H > 1)
                gsl_ran_choose(setup_rng, p->hot + 1, (size_t)(H - 1), p->pool, (size_t)(n - 1),
                               sizeof(int));
            for (int i = 0; i < H; i++)
                p->is_hot[p->hot[i]] = 1;
        } else {
            draw_hot(p, setup_rng);
        }
    }

    if (is_tree(d->kind)) {
        long long nc = llround(d->c_fraction * n), nb = llround(d->b_fraction * n);
        if (d->c_fraction < 0 || d->b_fraction < 0 || nc + nb > n) {
            ibn_err_set(e, "pattern %s: c_fraction + b_fraction must be at most 1, got %g + %g",
                        name, d->c_fraction, d->b_fraction);
            return init_fail(p);
        }
        if (d->kind == PAT_SILENT && nb > 0) {
            ibn_err_set(e, "silent trees have no B nodes (b_fraction %g): use windy", d->b_fraction);
            return init_fail(p);
        }
        if (nb > 0 && !(d->budget_rate > 0)) {
            ibn_err_set(e, "pattern %s: budget_rate must be > 0", name);
            return init_fail(p);
        }
        if (d->kind == PAT_MOVING && d->lifetime <= 0) {
            ibn_err_set(e, "moving pattern needs a lifetime > 0");
            return init_fail(p);
        }
        p->role = xmalloc((size_t)n);
        p->subset = xmalloc((size_t)n * sizeof *p->subset);
        int *order = xmalloc((size_t)n * sizeof *order);
        for (int i = 0; i < n; i++)
            order[i] = i;
        gsl_ran_shuffle(setup_rng, order, (size_t)n, sizeof(int));
        for (int i = 0; i < n; i++) {
            int h = order[i];
            if (i < nc) {
                p->role[h] = ROLE_C;
                p->subset[h] = (int)(i % d->hotspots);
            } else if (i < nc + nb) {
                p->role[h] = ROLE_B;
                p->subset[h] = (int)((i - nc) % d->hotspots);
            } else {
                p->role[h] = ROLE_V;
                p->subset[h] = -1;
            }
        }
        free(order);
        p->hot_sent = xcalloc((size_t)n, sizeof *p->hot_sent);
        p->uni_sent = xcalloc((size_t)n, sizeof *p->uni_sent);
        if (d->kind == PAT_MOVING) {
            p->move_seed = ((uint64_t)gsl_rng_get(setup_rng) << 32) ^ gsl_rng_get(setup_rng);
            p->move_rng = gsl_rng_alloc(gsl_rng_mt19937);
            move_to_epoch(p, 0);
        }
    }
    return 0;
}

void pattern_free(struct pattern *p)
{
    free(p->perm);
    free(p->hot);
    free(p->is_hot);
    free(p->role);
    free(p->subset);
    free(p->counter);
    free(p->hot_sent);
    free(p->uni_sent);
    free(p->pool);
    if (p->move_rng)
        gsl_rng_free(p->move_rng);
    memset(p, 0, sizeof *p);
}

static int uniform_other(int n, int src, gsl_rng *r)
{
    int d = (int)gsl_rng_uniform_int(r, (unsigned long)(n - 1));
    return d >= src ? d + 1 : d;
}

/* Uniform over hosts that are neither src nor a hot spot (uniform over all others if there
 * is no such host). */
static int uniform_cold(const struct pattern *p, int src, gsl_rng *r)
{
    int hot_others = (int)p->d.hotspots - (p->is_hot[src] ? 1 : 0);
    if (p->n - 1 - hot_others <= 0)
        return uniform_other(p->n, src, r);
    for (;;) {
        int d = uniform_other(p->n, src, r);
        if (!p->is_hot[d])
            return d;
    }
}

/* The hot spot of a C or B node; a node that is its own subset's hot spot sends uniformly. */
static int hot_of(const struct pattern *p, int src, gsl_rng *r)
{
    int h = p->hot[p->subset[src]];
    return h != src ? h : uniform_other(p->n, src, r);
}

simtime_t pattern_budget_time(const struct pattern *p, int src, int to_hot, uint32_t bytes)
{
    if (!p->role)
        return SIMTIME_NEVER;
    if (p->role[src] == ROLE_C)
        return to_hot ? 0 : SIMTIME_NEVER;
    if (p->role[src] == ROLE_V)
        return to_hot ? SIMTIME_NEVER : 0;
    double share = to_hot ? p->d.p : 1.0 - p->d.p;
    if (!(share > 0) || !p->hot_sent)
        return SIMTIME_NEVER;
    double total = (double)((to_hot ? p->hot_sent[src] : p->uni_sent[src]) + bytes);
    double t = ceil(total * 8.0 * (double)PS_PER_S / (share * p->d.budget_rate) - 1e-6);
    return t > 9e18 ? SIMTIME_NEVER : (simtime_t)t;
}

int pattern_hot_dest(struct pattern *p, int src, simtime_t now)
{
    if (!p->role || p->role[src] == ROLE_V || !p->subset || p->subset[src] < 0)
        return -1;
    update_epoch(p, now);
    int h = p->hot[p->subset[src]];
    return h != src ? h : -1;
}

int pattern_b_class(const struct pattern *p, int src, uint32_t bytes, simtime_t now,
                    simtime_t hot_ready, simtime_t *wait)
{
    simtime_t th = pattern_budget_time(p, src, 1, bytes), tu = pattern_budget_time(p, src, 0, bytes);
    simtime_t hot_at = th > hot_ready ? th : hot_ready;
    if (hot_at <= now && (th <= tu || tu > now))
        return 1;
    if (tu <= now)
        return 0;
    *wait = hot_at < tu ? hot_at : tu;
    return -1;
}

/* One of the hot spots other than src, uniformly (uniform over all others if src is the only
 * hot spot). */
static int pick_hot(const struct pattern *p, int src, gsl_rng *r)
{
    int H = (int)p->d.hotspots;
    if (H == 1 || (H == 2 && p->is_hot[src])) {
        int h = p->hot[0] != src ? p->hot[0] : H == 2 ? p->hot[1] : -1;
        return h >= 0 ? h : uniform_other(p->n, src, r);
    }
    for (;;) {
        int h = p->hot[gsl_rng_uniform_int(r, (unsigned long)H)];
        if (h != src)
            return h;
    }
}

int pattern_dest_class(struct pattern *p, int src, int to_hot, uint32_t bytes, simtime_t now,
                       gsl_rng *r)
{
    update_epoch(p, now);
    if (p->role && p->role[src] == ROLE_C)
        return hot_of(p, src, r);
    if (p->role && p->role[src] == ROLE_V)
        return uniform_other(p->n, src, r);
    if (to_hot) {
        if (p->hot_sent)
            p->hot_sent[src] += bytes;
        return p->subset && p->subset[src] >= 0 ? hot_of(p, src, r) : pick_hot(p, src, r);
    }
    if (p->uni_sent)
        p->uni_sent[src] += bytes;
    /* Frame I: the uniform class goes to "all nodes in the network (except the node itself)",
     * the hot spots included (b_uniform = all). */
    return p->d.b_uniform_cold ? uniform_cold(p, src, r) : uniform_other(p->n, src, r);
}

static int hotspot_dest(struct pattern *p, int src, gsl_rng *r)
{
    return gsl_ran_bernoulli(r, p->d.hot_fraction) ? pick_hot(p, src, r) : uniform_cold(p, src, r);
}

int pattern_dest(struct pattern *p, int src, simtime_t now, gsl_rng *r)
{
    int n = p->n;
    switch (p->d.kind) {
    case PAT_UNIFORM:
        return uniform_other(n, src, r);
    case PAT_FIXED:
        return src == p->d.dest ? -1 : (int)p->d.dest;
    case PAT_SHIFT:
        return (int)((((src + p->d.shift) % n) + n) % n);
    case PAT_BITREV:
    case PAT_TRANSPOSE:
    case PAT_RANDOM_PERM:
        return p->perm[src];
    case PAT_HOTSPOT:
        return hotspot_dest(p, src, r);
    case PAT_ALLTOALL: {
        int k = p->counter[src];
        p->counter[src] = k + 1 == n - 1 ? 0 : k + 1;
        return (src + 1 + k) % n;
    }
    case PAT_RING:
        return (src + 1) % n;
    case PAT_NEIGHBOUR:
        if (n == 2)
            return 1 - src;
        return gsl_rng_uniform(r) < 0.5 ? (src + n - 1) % n : (src + 1) % n;
    case PAT_SILENT:
    case PAT_WINDY:
    case PAT_MOVING:
        update_epoch(p, now);
        switch (p->role[src]) {
        case ROLE_C:
            return hot_of(p, src, r);
        case ROLE_B: {
            uint32_t b = (uint32_t)p->d.msg_bytes;
            simtime_t th = pattern_budget_time(p, src, 1, b);
            simtime_t tu = pattern_budget_time(p, src, 0, b);
            return pattern_dest_class(p, src, th <= tu, b, now, r);
        }
        default:
            return uniform_other(n, src, r);
        }
    }
    return -1;
}

int pattern_role(const struct pattern *p, int host)
{
    return p->role ? p->role[host] : ROLE_V;
}

int pattern_is_hotspot(struct pattern *p, int host, simtime_t now)
{
    if (!p->is_hot)
        return 0;
    update_epoch(p, now);
    return p->is_hot[host];
}

/* topo.c: building, querying and checking the plain fabric graph (struct topo). */
#include "topology/topo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topo_init(struct topo *t)
{
    memset(t, 0, sizeof *t);
}

void topo_free(struct topo *t)
{
    for (int i = 0; i < t->nnodes; i++) {
        free(t->node[i].name);
        free(t->node[i].desc);
        free(t->node[i].alias);
        free(t->node[i].port);
    }
    free(t->node);
    free(t->source);
    for (int i = 0; i < t->nwarn; i++)
        free(t->warn[i]);
    free(t->warn);
    memset(t, 0, sizeof *t);
}

int topo_add_node(struct topo *t, enum topo_node_type type, const char *name, int nports)
{
    if (t->nnodes == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->node = xrealloc(t->node, (size_t)t->cap * sizeof *t->node);
    }
    struct topo_node *n = &t->node[t->nnodes];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->name = xstrdup(name);
    n->desc = xstrdup(name);
    n->nports = nports;
    n->rank = -1;
    n->port = xcalloc((size_t)nports + 1, sizeof *n->port);
    for (int p = 0; p <= nports; p++) {
        n->port[p].peer_node = -1;
        n->port[p].peer_port = -1;
    }
    return t->nnodes++;
}

int topo_find(const struct topo *t, const char *name)
{
    for (int i = 0; i < t->nnodes; i++)
        if (strcmp(t->node[i].name, name) == 0)
            return i;
    return -1;
}

int topo_connect(struct topo *t, int a, int pa, int b, int pb, int width, enum ib_speed speed,
                 double rate_bps, simtime_t delay, struct ibn_err *e)
{
    if (a < 0 || a >= t->nnodes || b < 0 || b >= t->nnodes)
        return ibn_err_set(e, "link between unknown nodes");
    struct topo_node *na = &t->node[a], *nb = &t->node[b];
    if (pa < 1 || pa > na->nports)
        return ibn_err_set(e, "%s has no port %d (it has ports 1-%d)", na->name, pa, na->nports);
    if (pb < 1 || pb > nb->nports)
        return ibn_err_set(e, "%s has no port %d (it has ports 1-%d)", nb->name, pb, nb->nports);
    if (a == b && pa == pb)
        return ibn_err_set(e, "%s port %d cannot be cabled to itself", na->name, pa);
    if (na->port[pa].peer_node >= 0)
        return ibn_err_set(e, "%s port %d is already cabled to %s port %d", na->name, pa,
                           t->node[na->port[pa].peer_node].name, na->port[pa].peer_port);
    if (nb->port[pb].peer_node >= 0)
        return ibn_err_set(e, "%s port %d is already cabled to %s port %d", nb->name, pb,
                           t->node[nb->port[pb].peer_node].name, nb->port[pb].peer_port);
    if (rate_bps <= 0 && !ib_width_valid(width))
        return ibn_err_set(e, "link %s:%d - %s:%d: width %d is not an IB width (1, 2, 4, 8, 12)",
                           na->name, pa, nb->name, pb, width);
    struct topo_port *x = &na->port[pa], *y = &nb->port[pb];
    x->peer_node = b; x->peer_port = (int16_t)pb;
    y->peer_node = a; y->peer_port = (int16_t)pa;
    x->width = y->width = (uint8_t)width;
    x->speed = y->speed = (uint8_t)speed;
    x->rate_bps = y->rate_bps = rate_bps;
    x->delay = y->delay = delay;
    return 0;
}

/* The largest LID that topo_assign_lids would use, counted in 64 bits so that nothing wraps:
 * switches keep their LIDs (others get the next ones), then every cabled CA port without a LID
 * gets 2^lmc LIDs aligned to 2^lmc after the highest LID already given. */
static long long lids_needed(const struct topo *t, int lmc, int *nsw, int *nca)
{
    long long next = 1, step = 1LL << lmc;
    *nsw = *nca = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH && n->port[0].lid && n->port[0].lid >= next)
            next = n->port[0].lid + 1;
        for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
            if (n->port[p].lid && n->port[p].lid + (1LL << n->port[p].lmc) > next)
                next = n->port[p].lid + (1LL << n->port[p].lmc);
    }
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH) {
            ++*nsw;
            next += !n->port[0].lid;
        }
        for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
            if (n->port[p].peer_node >= 0) {
                ++*nca;
                if (!n->port[p].lid)
                    next = (next + step - 1) / step * step + step;
            }
    }
    return next - 1;
}

static int lid_space_error(const struct topo *t, int lmc, struct ibn_err *e)
{
    int nsw, nca;
    long long need = lids_needed(t, lmc, &nsw, &nca);
    if (lmc)
        return ibn_err_set(e, "LMC %d gives each of the %d adapter ports %d LIDs: with the %d "
                           "switch LIDs and alignment to %d, LIDs up to %lld are needed, beyond "
                           "the %d unicast LIDs (0x0001-0xBFFF)", lmc, nca, 1 << lmc, nsw,
                           1 << lmc, need, TOPO_MAX_UCAST_LID);
    return ibn_err_set(e, "the fabric's %d switches and %d adapter ports need LIDs up to %lld, "
                       "beyond the %d unicast LIDs (0x0001-0xBFFF)", nsw, nca, need,
                       TOPO_MAX_UCAST_LID);
}

int topo_assign_lids(struct topo *t, int lmc)
{
    int nsw, nca;
    if (lids_needed(t, lmc, &nsw, &nca) > TOPO_MAX_UCAST_LID)
        return -1; /* nothing assigned: topo_check names the numbers */
    int next = 1;
    for (int i = 0; i < t->nnodes; i++) {
        struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH && n->port[0].lid && n->port[0].lid >= next)
            next = n->port[0].lid + 1;
        for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
            if (n->port[p].lid) {
                int end = n->port[p].lid + (1 << n->port[p].lmc);
                if (end > next)
                    next = end;
            }
    }
    for (int i = 0; i < t->nnodes; i++) {
        struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH && !n->port[0].lid)
            n->port[0].lid = (uint16_t)next++;
    }
    int step = 1 << lmc;
    for (int i = 0; i < t->nnodes; i++) {
        struct topo_node *n = &t->node[i];
        if (n->type != TOPO_CA)
            continue;
        for (int p = 1; p <= n->nports; p++) {
            if (n->port[p].lid || n->port[p].peer_node < 0)
                continue;
            next = (next + step - 1) / step * step;
            n->port[p].lid = (uint16_t)next;
            n->port[p].lmc = (uint8_t)lmc;
            next += step;
        }
    }
    return topo_max_lid(t);
}

int topo_set_lmc(struct topo *t, int lmc, struct ibn_err *e)
{
    if (lmc < 0 || lmc > TOPO_LMC_SIM_MAX)
        return ibn_err_set(e, "LMC %d: IBA's LMC field holds 0 to 7 (ibnetsim at most %d beyond "
                           "IBA)", lmc, TOPO_LMC_SIM_MAX);
    /* Every CA LID is assigned again; on refusal the old ones are put back. */
    size_t k = 0, nports = 0;
    for (int i = 0; i < t->nnodes; i++)
        nports += t->node[i].type == TOPO_CA ? (size_t)t->node[i].nports : 0;
    struct topo_port *old = xmalloc((nports + 1) * sizeof *old);
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 1; p <= t->node[i].nports && t->node[i].type == TOPO_CA; p++) {
            old[k++] = t->node[i].port[p];
            t->node[i].port[p].lid = 0;
            t->node[i].port[p].lmc = 0;
        }
    int rc = 0;
    if (topo_assign_lids(t, lmc) < 0) {
        rc = lid_space_error(t, lmc, e);
        k = 0;
        for (int i = 0; i < t->nnodes; i++)
            for (int p = 1; p <= t->node[i].nports && t->node[i].type == TOPO_CA; p++) {
                t->node[i].port[p].lid = old[k].lid;
                t->node[i].port[p].lmc = old[k++].lmc;
            }
    }
    free(old);
    return rc;
}

int topo_max_lid(const struct topo *t)
{
    int m = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        for (int p = 0; p <= n->nports; p++) {
            if (!n->port[p].lid)
                continue;
            int last = n->port[p].lid + (1 << n->port[p].lmc) - 1;
            if (last > m)
                m = last;
        }
    }
    return m;
}

double topo_port_rate_bps(const struct topo *t, int node, int port)
{
    const struct topo_port *p = &t->node[node].port[port];
    if (p->rate_bps > 0)
        return p->rate_bps;
    return ib_data_rate_bps(p->width, (enum ib_speed)p->speed);
}

int topo_count(const struct topo *t, enum topo_node_type type)
{
    int c = 0;
    for (int i = 0; i < t->nnodes; i++)
        c += t->node[i].type == type;
    return c;
}

int topo_count_links(const struct topo *t)
{
    int c = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = 1; p <= t->node[i].nports; p++) {
            int q = t->node[i].port[p].peer_node;
            if (q > i || (q == i && t->node[i].port[p].peer_port > p))
                c++;
        }
    return c;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int topo_check(const struct topo *t, struct ibn_err *e)
{
    if (t->nnodes == 0)
        return ibn_err_set(e, "the topology has no nodes");
    /* Names unique: sorted, then neighbours compared (O(n log n)). */
    const char **names = xmalloc((size_t)t->nnodes * sizeof *names);
    for (int i = 0; i < t->nnodes; i++)
        names[i] = t->node[i].name;
    qsort(names, (size_t)t->nnodes, sizeof *names, cmp_name);
    for (int i = 1; i < t->nnodes; i++)
        if (!strcmp(names[i - 1], names[i])) {
            int rc = ibn_err_set(e, "two nodes are named \"%s\"", names[i]);
            free(names);
            return rc;
        }
    free(names);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        for (int p = 1; p <= n->nports; p++) {
            const struct topo_port *x = &n->port[p];
            if (x->peer_node < 0)
                continue;
            if (x->peer_node >= t->nnodes)
                return ibn_err_set(e, "%s port %d points at a node that does not exist", n->name, p);
            const struct topo_node *m = &t->node[x->peer_node];
            if (x->peer_port < 1 || x->peer_port > m->nports ||
                m->port[x->peer_port].peer_node != i || m->port[x->peer_port].peer_port != p)
                return ibn_err_set(e, "%s port %d and %s port %d do not point at each other",
                                   n->name, p, m->name, x->peer_port);
            if (n->type == TOPO_CA && m->type == TOPO_CA)
                return ibn_err_set(e, "%s port %d is cabled straight to channel adapter %s: "
                                   "ibnetsim needs a switch between adapters", n->name, p, m->name);
        }
    }
    int nhosts = 0;
    for (int i = 0; i < t->nnodes; i++)
        nhosts += t->node[i].type == TOPO_CA;
    if (!nhosts)
        return ibn_err_set(e, "the fabric has no channel adapters (hosts): expected at least "
                           "one Ca/Hca (a generator's hosts-per-switch argument of 1 or more)");
    /* Connectivity over cabled ports. */
    int *seen = xcalloc((size_t)t->nnodes, sizeof *seen), *stack = xmalloc((size_t)t->nnodes * sizeof *stack);
    int sp = 0, reached = 1;
    seen[0] = 1;
    stack[sp++] = 0;
    while (sp) {
        const struct topo_node *n = &t->node[stack[--sp]];
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q >= 0 && !seen[q]) {
                seen[q] = 1;
                reached++;
                stack[sp++] = q;
            }
        }
    }
    int bad = -1;
    for (int i = 0; i < t->nnodes && bad < 0; i++)
        if (!seen[i])
            bad = i;
    free(seen);
    free(stack);
    if (bad >= 0)
        return ibn_err_set(e, "the fabric is not connected: %s cannot be reached from %s "
                           "(%d of %d nodes reachable)", t->node[bad].name, t->node[0].name,
                           reached, t->nnodes);
    /* LIDs given (topo_assign_lids refuses to wrap beyond the unicast space), then unique. */
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        int unset = n->type == TOPO_SWITCH ? !n->port[0].lid : 0;
        for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
            unset |= n->port[p].peer_node >= 0 && !n->port[p].lid;
        if (unset)
            return lid_space_error(t, 0, e);
    }
    /* LIDs unique. */
    int maxlid = topo_max_lid(t);
    int *owner = xmalloc(((size_t)maxlid + 1) * sizeof *owner);
    for (int l = 0; l <= maxlid; l++)
        owner[l] = -1;
    int rc = 0;
    for (int i = 0; i < t->nnodes && !rc; i++) {
        const struct topo_node *n = &t->node[i];
        for (int p = 0; p <= n->nports && !rc; p++) {
            const struct topo_port *x = &n->port[p];
            if (!x->lid)
                continue;
            for (int l = x->lid; l < x->lid + (1 << x->lmc) && !rc; l++) {
                if (owner[l] >= 0 && owner[l] != i)
                    rc = ibn_err_set(e, "LID %d is used by both %s and %s", l,
                                     t->node[owner[l]].name, n->name);
                owner[l] = i;
            }
        }
    }
    free(owner);
    return rc;
}

void topo_warn(struct topo *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->warn = xrealloc(t->warn, ((size_t)t->nwarn + 1) * sizeof *t->warn);
    t->warn[t->nwarn++] = xstrdup(buf);
}

void topo_assign_guids(struct topo *t)
{
    for (int i = 0; i < t->nnodes; i++) {
        struct topo_node *n = &t->node[i];
        if (!n->guid)
            n->guid = 0x0002c90000000000ULL | ((uint64_t)(i + 1) << 8);
        if (!n->sysimgguid)
            n->sysimgguid = n->guid;
        for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
            if (!n->port[p].guid)
                n->port[p].guid = n->guid + (uint64_t)p;
        if (n->type == TOPO_SWITCH)
            n->port[0].guid = n->guid;
    }
}

uint64_t topo_port_guid(const struct topo *t, int node, int port)
{
    const struct topo_node *n = &t->node[node];
    if (n->type == TOPO_SWITCH)
        return n->guid;
    return n->port[port].guid;
}

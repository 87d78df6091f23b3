/* lft_build.c: OpenSM's per-switch port selection over a hop table (see lft_build.h). */
#include "routing/lft_build.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "routing/osm_random.h"

struct sw_load {
    int sw;       /* switch index */
    int endports; /* CA links */
    uint64_t guid;
};

static int cmp_load(const void *a, const void *b)
{
    const struct sw_load *x = a, *y = b;
    if (x->endports != y->endports)
        return y->endports - x->endports;
    return topo_guid_cmp_osm(x->guid, y->guid);
}

struct guid_ent {
    uint64_t guid;
    int node, port;
};

static int cmp_guid(const void *a, const void *b)
{
    const struct guid_ent *x = a, *y = b;
    if (x->guid != y->guid)
        return topo_guid_cmp_osm(x->guid, y->guid);
    if (x->node != y->node)
        return x->node - y->node;
    return x->port - y->port;
}

static int cmp_guid_only(const void *a, const void *b)
{
    const struct guid_ent *x = a, *y = b;
    if (x->guid != y->guid)
        return x->guid < y->guid ? -1 : 1;
    if (x->node != y->node)
        return x->node - y->node;
    return x->port - y->port;
}

void lft_order_free(struct lft_order *o)
{
    free(o->node);
    free(o->port);
    memset(o, 0, sizeof *o);
}

/* The switches in OpenSM's destination order: most CA links first (cmp_load); free it. */
static struct sw_load *switches_by_load(const struct topo *t, const struct hoptab *h)
{
    struct sw_load *s = xmalloc(((size_t)h->nsw + 1) * sizeof *s);
    for (int i = 0; i < h->nsw; i++) {
        const struct topo_node *n = &t->node[h->sw[i]];
        s[i] = (struct sw_load){ .sw = i, .guid = n->guid, .endports = 0 };
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node;
            if (q >= 0 && t->node[q].type == TOPO_CA)
                s[i].endports++;
        }
    }
    qsort(s, (size_t)h->nsw, sizeof *s, cmp_load);
    return s;
}

static int guid_list_read(const struct topo *t, const char *path, const char *what,
                          struct lft_order *o, char *note, size_t notelen, struct ibn_err *e)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_set(e, "%s %s: cannot open: %s", what, path, strerror(errno));
    /* The ports OpenSM knows by GUID: switch port 0 (the node GUID) and every cabled CA port. */
    int cap = 0;
    for (int i = 0; i < t->nnodes; i++)
        cap += t->node[i].type == TOPO_SWITCH ? 1 : t->node[i].nports;
    struct guid_ent *g = xmalloc(((size_t)cap + 1) * sizeof *g);
    int ng = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH) {
            g[ng++] = (struct guid_ent){ n->guid, i, 0 };
            continue;
        }
        for (int p = 1; p <= n->nports; p++)
            if (n->port[p].peer_node >= 0)
                g[ng++] = (struct guid_ent){ n->port[p].guid, i, p };
    }
    qsort(g, (size_t)ng, sizeof *g, cmp_guid_only);
    char *used = xcalloc((size_t)ng + 1, 1);
    int cap_o = 16, unknown = 0, repeated = 0, first_line = 0;
    uint64_t first_guid = 0;
    o->node = xmalloc((size_t)cap_o * sizeof *o->node);
    o->port = xmalloc((size_t)cap_o * sizeof *o->port);
    char *line = NULL;
    size_t len = 0;
    int lineno = 0, rc = 0;
    while (getline(&line, &len, f) >= 0) {
        lineno++;
        char *p = line, *end;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        errno = 0;
        uint64_t guid = strtoull(p, &end, 0);
        if (end == p || *p == '-' || errno ||
            (*end && *end != '#' && !isspace((unsigned char)*end))) {
            size_t k = strcspn(p, " \t\r\n#");
            rc = ibn_err_at(e, path, lineno, "expected a port GUID first on the line (such as "
                            "0x0002c90300048248), as in OpenSM's %s; got \"%.*s\"", what,
                            (int)(k > 60 ? 60 : k), p);
            break;
        }
        /* The first port with that GUID (GUIDs are unique in a checked topology). */
        int lo = 0, hi = ng;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (g[mid].guid < guid)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == ng || g[lo].guid != guid) {
            if (!unknown++) {
                first_line = lineno;
                first_guid = guid;
            }
            continue;
        }
        if (used[lo]) {
            repeated++;
            continue;
        }
        used[lo] = 1;
        if (o->n == cap_o) {
            cap_o *= 2;
            o->node = xrealloc(o->node, (size_t)cap_o * sizeof *o->node);
            o->port = xrealloc(o->port, (size_t)cap_o * sizeof *o->port);
        }
        o->node[o->n] = g[lo].node;
        o->port[o->n++] = g[lo].port;
    }
    free(line);
    fclose(f);
    free(used);
    free(g);
    if (rc) {
        lft_order_free(o);
        return -1;
    }
    if (note && (unknown || repeated))
        snprintf(note, notelen, "%s %.80s: %d GUID%s no port of the topology "
                 "has, %d repeated: skipped, as OpenSM skips them", what, path, unknown,
                 unknown == 1 ? "" : "s", repeated);
    if (note && unknown) {
        size_t k = strlen(note);
        snprintf(note + k, notelen - k, " (first: line %d, 0x%016" PRIx64 ")", first_line,
                 first_guid);
    }
    return 0;
}

int lft_order_read(const struct topo *t, const char *path, struct lft_order *o, char *note,
                   size_t notelen, struct ibn_err *e)
{
    return guid_list_read(t, path, "guid_routing_order_file", o, note, notelen, e);
}

int lft_node_classes(const struct topo *t, const char *cn_path, const char *io_path,
                     uint8_t **cls, char *note, size_t notelen, struct ibn_err *e)
{
    *cls = NULL;
    int have_cn = cn_path && *cn_path, have_io = io_path && *io_path;
    if (!have_cn && !have_io)
        return 0;
    uint8_t *m = xcalloc((size_t)t->nnodes * 256 + 1, 1);
    const char *paths[2] = { have_cn ? cn_path : NULL, have_io ? io_path : NULL };
    const char *what[2] = { "cn_guid_file", "io_guid_file" };
    for (int k = 0; k < 2; k++) {
        struct lft_order o;
        char own[160] = "";
        if (guid_list_read(t, paths[k], what[k], &o, own, sizeof own, e)) {
            free(m);
            return -1;
        }
        for (int i = 0; i < o.n; i++)
            if (t->node[o.node[i]].type == TOPO_CA) /* a switch GUID names no end port */
                m[(size_t)o.node[i] * 256 + (size_t)o.port[i]] |= (uint8_t)(k ? LFT_IN_IO : LFT_IN_CN);
        lft_order_free(&o);
        if (note && *own) {
            size_t len = strlen(note);
            snprintf(note + len, notelen - len, "%s%s", len ? "; " : "", own);
        }
    }
    m[(size_t)t->nnodes * 256] = (uint8_t)((have_cn ? LFT_IN_CN : 0) | (have_io ? LFT_IN_IO : 0));
    *cls = m;
    return 0;
}

int lft_is_cn(const struct topo *t, const uint8_t *cls, int node, int port)
{
    if (!cls)
        return 1;
    uint8_t given = cls[(size_t)t->nnodes * 256], c = cls[(size_t)node * 256 + (size_t)port];
    if ((given & LFT_IN_CN) && !(c & LFT_IN_CN))
        return 0;
    if (!(c & LFT_IN_CN) && (c & LFT_IN_IO))
        return 0;
    return 1;
}

void lft_class_order(const struct topo *t, const struct hoptab *h, const uint8_t *cls,
                     struct lft_order *o)
{
    memset(o, 0, sizeof *o);
    if (!cls)
        return;
    int cap = 1;
    for (int i = 0; i < t->nnodes; i++)
        cap += t->node[i].type == TOPO_CA ? t->node[i].nports : 0;
    o->node = xmalloc((size_t)cap * sizeof *o->node);
    o->port = xmalloc((size_t)cap * sizeof *o->port);
    struct sw_load *s = switches_by_load(t, h);
    uint8_t given = cls[(size_t)t->nnodes * 256];
    /* The compute nodes' ports first (when a cn_guid_file is given), then the I/O nodes' (when
     * an io_guid_file is), switch by switch in the destination order's switch order. */
    for (int pass = 0; pass < 2; pass++) {
        uint8_t bit = pass ? LFT_IN_IO : LFT_IN_CN;
        if (!(given & bit))
            continue;
        for (int i = 0; i < h->nsw; i++) {
            const struct topo_node *n = &t->node[h->sw[s[i].sw]];
            for (int p = 1; p <= n->nports; p++) {
                int q = n->port[p].peer_node, qp = n->port[p].peer_port;
                if (q < 0 || t->node[q].type != TOPO_CA)
                    continue;
                uint8_t c = cls[(size_t)q * 256 + (size_t)qp];
                if (!(c & bit) || (pass && (c & LFT_IN_CN) && (given & LFT_IN_CN)))
                    continue;
                o->node[o->n] = q;
                o->port[o->n++] = qp;
            }
        }
    }
    free(s);
}

int lft_ignore_read(const struct topo *t, const char *path, uint8_t **mask, char *note,
                    size_t notelen, struct ibn_err *e)
{
    *mask = NULL;
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_set(e, "port_prof_ignore_file %s: cannot open: %s", path, strerror(errno));
    uint8_t *m = xcalloc((size_t)t->nnodes * 256 + 1, 1);
    char *line = NULL;
    size_t len = 0;
    int lineno = 0, rc = 0, skipped = 0, marked = 0;
    while (getline(&line, &len, f) >= 0) {
        lineno++;
        char *p = line, *end;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        errno = 0;
        uint64_t guid = strtoull(p, &end, 0);
        if (end == p || *p == '-' || errno || (*end && !isspace((unsigned char)*end))) {
            size_t k = strcspn(p, " \t\r\n#");
            rc = ibn_err_at(e, path, lineno, "expected a switch GUID and a port number (such as "
                            "0x0008f10500200b50 3), as in OpenSM's port_prof_ignore_file; got "
                            "\"%.*s\"", (int)(k > 60 ? 60 : k), p);
            break;
        }
        /* OpenSM: strtoul(rest, NULL, 0); 0, a bad number or a port the switch has not: skip. */
        unsigned long port = strtoul(end, NULL, 0);
        int node = -1;
        for (int i = 0; i < t->nnodes && node < 0; i++)
            if (t->node[i].type == TOPO_SWITCH && t->node[i].guid == guid)
                node = i;
        if (node < 0 || port == 0 || port > (unsigned long)t->node[node].nports || port > 255) {
            skipped++;
            continue;
        }
        m[(size_t)node * 256 + port] = 1;
        marked++;
    }
    free(line);
    if (!rc && ferror(f))
        rc = ibn_err_at(e, path, lineno, "read error: %s", strerror(errno));
    fclose(f);
    if (rc) {
        free(m);
        return -1;
    }
    if (note && skipped)
        snprintf(note, notelen, "port_prof_ignore_file %.80s: %d line%s naming no switch port of "
                 "the topology: skipped, as OpenSM skips them", path, skipped,
                 skipped == 1 ? "" : "s");
    (void)marked;
    *mask = m;
    return 0;
}

int lft_dest_order(const struct topo *t, const struct hoptab *h, const struct lft_order *ord,
                   struct lft_dest **out)
{
    int cap = 0;
    for (int i = 0; i < t->nnodes; i++)
        cap += t->node[i].type == TOPO_SWITCH ? 1 : t->node[i].nports;
    struct lft_dest *d = xmalloc(((size_t)cap + 1) * sizeof *d);
    char *done = NULL;
    int *off = xmalloc(((size_t)t->nnodes + 1) * sizeof *off);
    off[0] = 0;
    for (int i = 0; i < t->nnodes; i++)
        off[i + 1] = off[i] + t->node[i].nports + 1;
    done = xcalloc((size_t)off[t->nnodes] + 1, 1);
    int nd = 0;
    /* OpenSM's guid_routing_order_file: its ports first, in its order. */
    for (int i = 0; ord && i < ord->n; i++) {
        int q = ord->node[i], qp = ord->port[i];
        const struct topo_node *n = &t->node[q];
        if (done[off[q] + qp])
            continue;
        done[off[q] + qp] = 1;
        const struct topo_port *x = &n->port[qp];
        int T = -1;
        if (n->type == TOPO_SWITCH)
            T = h->swidx[q];
        else if (x->peer_node >= 0 && t->node[x->peer_node].type == TOPO_SWITCH)
            T = h->swidx[x->peer_node];
        d[nd++] = (struct lft_dest){ q, qp, x->lid, x->lmc, T, 1 };
    }
    struct sw_load *s = switches_by_load(t, h);
    for (int i = 0; i < h->nsw; i++) {
        const struct topo_node *n = &t->node[h->sw[s[i].sw]];
        for (int p = 1; p <= n->nports; p++) {
            int q = n->port[p].peer_node, qp = n->port[p].peer_port;
            if (q < 0 || t->node[q].type != TOPO_CA || done[off[q] + qp])
                continue;
            done[off[q] + qp] = 1;
            const struct topo_port *x = &t->node[q].port[qp];
            d[nd++] = (struct lft_dest){ q, qp, x->lid, x->lmc, s[i].sw };
        }
    }
    /* The rest in port GUID order. */
    struct guid_ent *g = xmalloc(((size_t)cap + 1) * sizeof *g);
    int ng = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *n = &t->node[i];
        if (n->type == TOPO_SWITCH) {
            if (!done[off[i]])
                g[ng++] = (struct guid_ent){ n->guid, i, 0 };
            continue;
        }
        for (int p = 1; p <= n->nports; p++)
            if (!done[off[i] + p] && n->port[p].peer_node >= 0 && n->port[p].lid)
                g[ng++] = (struct guid_ent){ n->port[p].guid, i, p };
    }
    qsort(g, (size_t)ng, sizeof *g, cmp_guid);
    for (int i = 0; i < ng; i++) {
        const struct topo_node *n = &t->node[g[i].node];
        const struct topo_port *x = &n->port[g[i].port];
        int T = n->type == TOPO_SWITCH ? h->swidx[g[i].node] : -1;
        d[nd++] = (struct lft_dest){ g[i].node, g[i].port, x->lid, x->lmc, T };
    }
    free(g);
    free(s);
    free(done);
    free(off);
    *out = d;
    return nd;
}

/* Per (switch, destination port) memory of the peer nodes used by its LIDs, for LMC > 0. */
struct used_peer {
    int node;
    uint64_t sys;
    int fwd;
};

int lft_build_opts(const struct topo *t, const struct hoptab *h, enum lft_tie tie,
                   const struct route_opts *o, struct lfts *l, struct ibn_err *e)
{
    struct lft_order ord;
    char note[sizeof l->note] = "";
    if (lft_order_read(t, o ? o->guid_order : NULL, &ord, note, sizeof note, e))
        return -1;
    ord.no_scatter = o && o->order_no_scatter;
    uint8_t *ignore = NULL;
    char inote[sizeof l->note] = "";
    if (lft_ignore_read(t, o ? o->prof_ignore : NULL, &ignore, inote, sizeof inote, e)) {
        lft_order_free(&ord);
        return -1;
    }
    if (*inote)
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s%s", *note ? "; " : "", inote);
    lft_build(t, h, tie, &ord, o ? o->port_shifting : 0, o ? o->scatter_ports : 0, ignore, l);
    free(ignore);
    lft_order_free(&ord);
    if (*note) {
        size_t k = strlen(l->note);
        snprintf(l->note + k, sizeof l->note - k, "%s%s", k ? "; " : "", note);
    }
    return 0;
}

static int cmp_sw_osm(const void *a, const void *b)
{
    const struct guid_ent *x = a, *y = b;
    return topo_guid_cmp_osm(x->guid, y->guid);
}

void lft_build(const struct topo *t, const struct hoptab *h, enum lft_tie tie,
               const struct lft_order *ord, int shift, uint32_t scatter, const uint8_t *ignore,
               struct lfts *l)
{
    struct lft_dest *d;
    int nd = lft_dest_order(t, h, ord, &d);
    int lmc = 0;
    for (int i = 0; i < nd; i++)
        if (d[i].lmc > lmc)
            lmc = d[i].lmc;
    int maxports = 0;
    for (int i = 0; i < h->nsw; i++)
        if (t->node[h->sw[i]].nports > maxports)
            maxports = t->node[h->sw[i]].nports;
    uint32_t *count = xmalloc(((size_t)maxports + 1) * sizeof *count);
    /* port_shifting: the least-hop candidates of one entry in scan order (OpenSM's port_paths). */
    struct cand {
        int port;
        uint32_t cnt, fwd;
        char fsys, fnode;
    } *cand = xmalloc(((size_t)maxports + 2) * sizeof *cand);
    /* LMC bookkeeping: up to 2^lmc peers per destination. */
    int per = 1 << lmc;
    struct used_peer *used = lmc ? xmalloc((size_t)nd * (size_t)per * sizeof *used) : NULL;
    int *nused = lmc ? xmalloc((size_t)nd * sizeof *nused) : NULL;
    /* scatter_ports draws one stream over all switches, in OpenSM's switch map order. */
    struct osm_random rnd;
    struct guid_ent *swo = xmalloc(((size_t)h->nsw + 1) * sizeof *swo);
    for (int i = 0; i < h->nsw; i++)
        swo[i] = (struct guid_ent){ t->node[h->sw[i]].guid, h->sw[i], 0 };
    if (scatter) {
        osm_srandom(&rnd, scatter);
        qsort(swo, (size_t)h->nsw, sizeof *swo, cmp_sw_osm);
    }
    for (int so = 0; so < h->nsw; so++) {
        int sn = swo[so].node, si = h->swidx[sn];
        const struct topo_node *ns = &t->node[sn];
        uint8_t *lft = l->table[sn];
        memset(count, 0, ((size_t)maxports + 1) * sizeof *count);
        if (lmc)
            memset(nused, 0, (size_t)nd * sizeof *nused);
        int num_ports = ns->nports + 1;
        for (int off = 0; off < per; off++)
            for (int k = 0; k < nd; k++) {
                const struct lft_dest *x = &d[k];
                if (!x->lid || off >= (1 << x->lmc))
                    continue;
                int lid = x->lid + off;
                if (lid > l->max_lid)
                    continue;
                int is_sw = t->node[x->node].type == TOPO_SWITCH;
                int port = LFT_NONE;
                if (is_sw && x->node == sn) {
                    port = 0;
                } else if (!is_sw && x->T < 0) {
                    port = LFT_NONE;
                } else if (!is_sw && x->T == si) {
                    port = t->node[x->node].port[x->port].peer_port;
                } else {
                    const uint8_t *row = hoptab_row(h, x->T, si);
                    uint8_t least = row[0];
                    if (least != HOP_NONE) {
                        int start = 1;
                        if (off && tie == LFT_TIE_BALANCE)
                            start = lft[lid - 1] + 1;
                        uint32_t best_cnt = UINT32_MAX, os_cnt = UINT32_MAX, on_cnt = UINT32_MAX;
                        int best = -1, best_os = 0, best_on = 0, least_fwd = INT32_MAX;
                        int first_peer = -1, ncand = 0;
                        uint64_t total = 0;
                        int found_node = 0; /* OpenSM keeps the last port's value */
                        for (int i = start; i < start + num_ports; i++) {
                            int p = i % num_ports;
                            if (!p || row[p] != least || ns->port[p].peer_node < 0)
                                continue;
                            if (tie == LFT_TIE_LOWEST) {
                                if (best < 0 || p < best)
                                    best = p;
                                continue;
                            }
                            if (tie == LFT_TIE_HIGHEST) {
                                if (p > best)
                                    best = p;
                                continue;
                            }
                            if (tie == LFT_TIE_DOR) {
                                int peer = ns->port[p].peer_node;
                                if (first_peer < 0)
                                    first_peer = peer;
                                else if (peer != first_peer)
                                    continue;
                                if (count[p] < best_cnt) {
                                    best = p;
                                    best_cnt = count[p];
                                }
                                cand[ncand++] = (struct cand){ p, count[p], 0, 0, 0 };
                                total += count[p];
                                continue;
                            }
                            uint32_t c = count[p];
                            struct used_peer *match = NULL;
                            int sys_used = 0;
                            if (lmc) {
                                int peer = ns->port[p].peer_node;
                                uint64_t sys = t->node[peer].sysimgguid;
                                struct used_peer *u = used + (size_t)k * per;
                                for (int j = 0; j < nused[k]; j++)
                                    if (u[j].sys == sys)
                                        sys_used = 1;
                                if (!sys_used) {
                                    if (c < os_cnt) {
                                        os_cnt = c;
                                        best_os = p;
                                        least_fwd = 0;
                                    }
                                } else {
                                    for (int j = 0; j < nused[k]; j++)
                                        if (u[j].node == peer)
                                            match = &u[j];
                                    if (!match && c < on_cnt) {
                                        on_cnt = c;
                                        best_on = p;
                                        least_fwd = 0;
                                    }
                                }
                            }
                            if (sys_used)
                                found_node = match != NULL;
                            cand[ncand++] = (struct cand){ p, c, match ? (uint32_t)match->fwd : 0,
                                                           (char)sys_used, (char)found_node };
                            total += c;
                            if (c < best_cnt) {
                                best = p;
                                best_cnt = c;
                                if (match && match->fwd < least_fwd)
                                    least_fwd = match->fwd;
                            } else if (match && c == best_cnt && match->fwd < least_fwd) {
                                least_fwd = match->fwd;
                                best = p;
                            }
                        }
                        if (shift && ncand && (tie == LFT_TIE_BALANCE || tie == LFT_TIE_DOR)) {
                            /* OpenSM's port_shifting: the same choice over the candidates
                             * rotated by (their routes / their number), so that LIDs do not
                             * align on the same ports across switches. */
                            uint32_t lp = UINT32_MAX, ls = UINT32_MAX, ln = UINT32_MAX;
                            uint32_t lf = UINT32_MAX;
                            best = 0;
                            best_os = best_on = 0;
                            int lm = lmc && (tie == LFT_TIE_BALANCE || tie == LFT_TIE_DOR);
                            for (int i = 0; i < ncand; i++) {
                                const struct cand *cx = &cand[(total / (uint64_t)ncand + (uint64_t)i) % (uint64_t)ncand];
                                int used_peer = tie == LFT_TIE_BALANCE && (cx->fsys || cx->fnode);
                                if (lm) {
                                    if (!cx->fsys && cx->cnt < ls) {
                                        ls = cx->cnt;
                                        best_os = cx->port;
                                        lf = 0;
                                    } else if (!cx->fnode && cx->cnt < ln) {
                                        ln = cx->cnt;
                                        best_on = cx->port;
                                        lf = 0;
                                    }
                                }
                                if (cx->cnt < lp) {
                                    best = cx->port;
                                    lp = cx->cnt;
                                    if (lm && used_peer && cx->fwd < lf)
                                        lf = cx->fwd;
                                } else if (lm && used_peer && cx->cnt == lp && cx->fwd < lf) {
                                    lf = cx->fwd;
                                    best = cx->port;
                                }
                            }
                            if (best > 0 && lm) {
                                if (best_os)
                                    best = best_os;
                                else if (best_on)
                                    best = best_on;
                            }
                        } else if (best > 0 && lmc && tie == LFT_TIE_BALANCE &&
                                   !(scatter && !off && !(x->ordered && ord && ord->no_scatter))) {
                            if (best_os)
                                best = best_os;
                            else if (best_on)
                                best = best_on;
                        }
                        if (scatter && !off && ncand && !(x->ordered && ord && ord->no_scatter) &&
                            (tie == LFT_TIE_BALANCE || tie == LFT_TIE_DOR)) {
                            /* OpenSM's scatter_ports: for the base LID, a random one of the
                             * least-loaded candidates, in scan order. */
                            uint32_t mn = UINT32_MAX;
                            int np = 0;
                            for (int i = 0; i < ncand; i++)
                                mn = cand[i].cnt < mn ? cand[i].cnt : mn;
                            for (int i = 0; i < ncand; i++)
                                np += cand[i].cnt == mn;
                            int pick = (int)(osm_random(&rnd) % np);
                            for (int i = 0; i < ncand; i++)
                                if (cand[i].cnt == mn && !pick--) {
                                    best = cand[i].port;
                                    break;
                                }
                        }
                        if (best > 0)
                            port = best;
                    }
                }
                lft[lid] = (uint8_t)port;
                if (port != LFT_NONE && !is_sw && !(ignore && ignore[(size_t)sn * 256 + port])) {
                    count[port]++;
                    if (lmc && port > 0) {
                        int peer = ns->port[port].peer_node;
                        struct used_peer *u = used + (size_t)k * per;
                        int j;
                        for (j = 0; j < nused[k]; j++)
                            if (u[j].node == peer)
                                break;
                        if (j == nused[k] && j < per) {
                            u[j] = (struct used_peer){ peer, t->node[peer].sysimgguid, 0 };
                            nused[k]++;
                        }
                        if (j < per)
                            u[j].fwd++;
                    }
                }
            }
    }
    free(used);
    free(nused);
    free(count);
    free(cand);
    free(swo);
    free(d);
}

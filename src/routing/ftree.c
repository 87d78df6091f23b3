/* ftree.c: fat-tree routing. Switch levels come from the generator (node rank) or, for a file,
 * from the CAs: switches with CAs are leaves (level 0), others get their distance from the
 * nearest leaf. A switch that reaches the destination's leaf by going down only forwards down
 * (among several such ports the j-th destination takes port j mod count); any other switch
 * forwards up, among the up ports that lie on a shortest path, the destination with index j
 * taking candidate (j / u^level) mod count, where u is the number of up ports per switch of the
 * levels below (D-mod-k). CA destinations are indexed in leaf order, then port order (with
 * OpenSM's cn_guid_file / io_guid_file, -u / -G: the compute nodes first, each leaf padded to
 * the most any leaf has, as OpenSM's ftree pads with dummy CAs; the others after). Routes go
 * up, then down, so the result is deadlock-free; in a k-ary n-tree every down port carries the
 * routes to one destination. Switch LIDs are routed along shortest paths. On a topology where
 * some switch has neither a down route nor an up port towards a destination (not a fat tree),
 * it fails as unfit (ROUTE_UNFIT), and route_compute passes to the next engine of the chain or to
 * minhop, as OpenSM does when its ftree fails. */
#include "routing/route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/hoptab.h"
#include "routing/lft_build.h"

int route_ftree(const struct topo *t, const struct route_opts *o, struct lfts *out,
                struct ibn_err *e)
{
    uint8_t *cls; /* compute / I/O node ports (NULL: no files, every CA port a compute node) */
    char cnote[160] = "";
    if (lft_node_classes(t, o ? o->cn_guids : NULL, o ? o->io_guids : NULL, &cls, cnote,
                         sizeof cnote, e))
        return -1; /* a bad file is an error in the input, not an unfit fabric */
    struct hoptab h;
    hoptab_index(&h, t);
    int n = h.nsw, rc = 0;
    int *level = xmalloc((size_t)n * sizeof *level + 1);
    int have_rank = 1;
    for (int i = 0; i < n; i++)
        if (t->node[h.sw[i]].rank < 0)
            have_rank = 0;
    int *q = xmalloc((size_t)n * sizeof *q + 1), head = 0, tail = 0;
    if (have_rank) {
        for (int i = 0; i < n; i++)
            level[i] = t->node[h.sw[i]].rank;
    } else {
        for (int i = 0; i < n; i++) {
            level[i] = -1;
            const struct topo_node *ns = &t->node[h.sw[i]];
            for (int p = 1; p <= ns->nports; p++) {
                int v = ns->port[p].peer_node;
                if (v >= 0 && t->node[v].type == TOPO_CA && level[i] < 0) {
                    level[i] = 0;
                    q[tail++] = i;
                }
            }
        }
        while (head < tail) {
            int u = q[head++];
            const struct topo_node *nu = &t->node[h.sw[u]];
            for (int p = 1; p <= nu->nports; p++) {
                int v = nu->port[p].peer_node;
                if (v >= 0 && h.swidx[v] >= 0 && level[h.swidx[v]] < 0) {
                    level[h.swidx[v]] = level[u] + 1;
                    q[tail++] = h.swidx[v];
                }
            }
        }
    }
    /* Up ports per level (the largest count on that level) and their products. */
    int maxlev = 0;
    for (int i = 0; i < n; i++)
        if (level[i] > maxlev)
            maxlev = level[i];
    long *div = xcalloc((size_t)maxlev + 2, sizeof *div);
    int *ups = xcalloc((size_t)maxlev + 2, sizeof *ups);
    for (int i = 0; i < n; i++) {
        const struct topo_node *ns = &t->node[h.sw[i]];
        int u = 0;
        for (int p = 1; p <= ns->nports; p++) {
            int v = ns->port[p].peer_node;
            u += v >= 0 && h.swidx[v] >= 0 && level[h.swidx[v]] > level[i];
        }
        if (level[i] >= 0 && u > ups[level[i]])
            ups[level[i]] = u;
    }
    div[0] = 1;
    for (int l = 1; l <= maxlev + 1; l++) {
        div[l] = div[l - 1] * (ups[l - 1] ? ups[l - 1] : 1);
        if (div[l] > (1L << 40))
            div[l] = 1L << 40;
    }
    uint16_t *d = hoptab_distances(t, &h);
    /* downd[s]: down-only distance from switch s to the current destination leaf. */
    int *downd = xmalloc((size_t)n * sizeof *downd + 1);
    int *cand = xmalloc(256 * sizeof *cand);
    int j = 0;
    /* OpenSM's cn_guid_file / io_guid_file: the compute nodes take the destination indices,
     * leaf by leaf, each leaf padded to the most compute-node LIDs any leaf has (OpenSM's dummy
     * CAs), so that the spreading stays even over the compute nodes; the other CA ports come
     * after them, in the same leaf and port order. */
    int maxcn = 0, nleaves = 0, ncn = 0, nother = 0;
    for (int L = 0; L < n && cls; L++) {
        const struct topo_node *nl = &t->node[h.sw[L]];
        int has_ca = 0, c = 0;
        for (int p = 1; p <= nl->nports; p++) {
            int v = nl->port[p].peer_node;
            if (v < 0 || t->node[v].type != TOPO_CA)
                continue;
            has_ca = 1;
            int vp = nl->port[p].peer_port;
            if (lft_is_cn(t, cls, v, vp))
                c += 1 << t->node[v].port[vp].lmc;
        }
        nleaves += has_ca;
        ncn += c;
        maxcn = c > maxcn ? c : maxcn;
    }
    int leaf = -1;
    /* Destinations: leaves in switch order, their CA ports in port order. */
    for (int L = 0; L < n && !rc; L++) {
        const struct topo_node *nl = &t->node[h.sw[L]];
        int has_ca = 0;
        for (int p = 1; p <= nl->nports; p++) {
            int v = nl->port[p].peer_node;
            has_ca |= v >= 0 && t->node[v].type == TOPO_CA;
        }
        if (!has_ca)
            continue;
        leaf++;
        int kcn = 0;
        for (int i = 0; i < n; i++)
            downd[i] = -1;
        head = tail = 0;
        downd[L] = 0;
        q[tail++] = L;
        while (head < tail) { /* climb: v above u reaches L by going down through u */
            int u = q[head++];
            const struct topo_node *nu = &t->node[h.sw[u]];
            for (int p = 1; p <= nu->nports; p++) {
                int v = nu->port[p].peer_node;
                if (v < 0 || h.swidx[v] < 0)
                    continue;
                int r = h.swidx[v];
                if (level[r] > level[u] && downd[r] < 0) {
                    downd[r] = downd[u] + 1;
                    q[tail++] = r;
                }
            }
        }
        for (int p = 1; p <= nl->nports && !rc; p++) {
            int c = nl->port[p].peer_node;
            if (c < 0 || t->node[c].type != TOPO_CA)
                continue;
            const struct topo_port *cp = &t->node[c].port[nl->port[p].peer_port];
            int is_cn = lft_is_cn(t, cls, c, nl->port[p].peer_port);
            for (int lid = cp->lid; lid < cp->lid + (1 << cp->lmc) && !rc; lid++) {
                if (cls)
                    j = is_cn ? leaf * maxcn + kcn++ : nleaves * maxcn + nother++;
                for (int s = 0; s < n && !rc; s++) {
                    uint8_t *lft = out->table[h.sw[s]];
                    if (s == L) {
                        lft[lid] = (uint8_t)p;
                        continue;
                    }
                    const struct topo_node *ns = &t->node[h.sw[s]];
                    int nc = 0;
                    if (downd[s] > 0) {
                        for (int x = 1; x <= ns->nports && nc < 256; x++) {
                            int v = ns->port[x].peer_node;
                            if (v >= 0 && h.swidx[v] >= 0 && level[h.swidx[v]] < level[s] &&
                                downd[h.swidx[v]] == downd[s] - 1)
                                cand[nc++] = x;
                        }
                        if (nc)
                            lft[lid] = (uint8_t)cand[j % nc];
                        continue;
                    }
                    uint16_t ds = d[(size_t)s * n + L];
                    for (int x = 1; x <= ns->nports && nc < 256; x++) {
                        int v = ns->port[x].peer_node;
                        if (v >= 0 && h.swidx[v] >= 0 && level[h.swidx[v]] > level[s] &&
                            d[(size_t)h.swidx[v] * n + L] + 1 == ds)
                            cand[nc++] = x;
                    }
                    if (!nc) {
                        if (ds == 0xffff)
                            continue;
                        rc = ibn_err_set(e, "ftree: switch %s (level %d) can reach %s neither "
                                         "down nor up a shortest path: the topology is not a "
                                         "fat tree", ns->name, level[s], t->node[c].name);
                        break;
                    }
                    int lv = level[s] < 0 ? 0 : level[s];
                    lft[lid] = (uint8_t)cand[(j / div[lv]) % nc];
                }
                if (!cls)
                    j++;
            }
        }
    }
    /* Switch LIDs: shortest paths. */
    for (int T = 0; T < n && !rc; T++) {
        int lid = t->node[h.sw[T]].port[0].lid;
        if (!lid)
            continue;
        for (int s = 0; s < n; s++) {
            const struct topo_node *ns = &t->node[h.sw[s]];
            uint8_t *lft = out->table[h.sw[s]];
            if (s == T) {
                lft[lid] = 0;
                continue;
            }
            uint16_t ds = d[(size_t)s * n + T];
            for (int x = 1; x <= ns->nports; x++) {
                int v = ns->port[x].peer_node;
                if (v >= 0 && h.swidx[v] >= 0 && d[(size_t)h.swidx[v] * n + T] + 1 == ds) {
                    lft[lid] = (uint8_t)x;
                    break;
                }
            }
        }
    }
    if (!rc && cls)
        snprintf(out->note, sizeof out->note, "ftree: %d levels from %s; %d compute-node LIDs "
                 "indexed first (at most %d per leaf), %d other CA LIDs after them%s%s",
                 maxlev + 1, have_rank ? "the generator" : "the CAs' switches", ncn, maxcn,
                 nother, *cnote ? "; " : "", cnote);
    else if (!rc)
        snprintf(out->note, sizeof out->note, "ftree: %d levels from %s", maxlev + 1,
                 have_rank ? "the generator" : "the CAs' switches");
    free(cls);
    free(cand);
    free(downd);
    free(d);
    free(div);
    free(ups);
    free(level);
    free(q);
    hoptab_free(&h);
    if (rc) {
        /* Not a fat tree: OpenSM's ftree gives up and its unicast manager passes to the next
         * engine of the chain, finally minhop (route_compute does that); e says why. */
        rc = ROUTE_UNFIT;
    }
    return rc;
}

/* lft_dump.c: reading and writing opensm-lfts.dump, and checking opensm-lid-matrix.dump. */
#include "routing/lft_dump.h"
#include "core/output.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/hoptab.h"

struct gport {
    uint64_t guid;
    int node, port;
};

static int cmp_gport(const void *a, const void *b)
{
    const struct gport *x = a, *y = b;
    return (x->guid > y->guid) - (x->guid < y->guid);
}

/* Port GUID index of the topology (switches by node GUID with port 0). */
static struct gport *guid_index(const struct topo *t, int *n)
{
    int cap = 0;
    for (int i = 0; i < t->nnodes; i++)
        cap += t->node[i].nports + 1;
    struct gport *g = xmalloc(((size_t)cap + 1) * sizeof *g);
    int k = 0;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        if (nd->type == TOPO_SWITCH) {
            if (nd->guid)
                g[k++] = (struct gport){ nd->guid, i, 0 };
            continue;
        }
        for (int p = 1; p <= nd->nports; p++)
            if (nd->port[p].guid)
                g[k++] = (struct gport){ nd->port[p].guid, i, p };
    }
    qsort(g, (size_t)k, sizeof *g, cmp_gport);
    *n = k;
    return g;
}

static const struct gport *guid_find(const struct gport *g, int n, uint64_t guid)
{
    struct gport key = { guid, 0, 0 };
    return bsearch(&key, g, (size_t)n, sizeof *g, cmp_gport);
}

/* LID of (node, port) in the topology for a dump LID, keeping the LMC offset. */
static int remap(const struct topo *t, const struct gport *gp, int lid)
{
    const struct topo_port *x = &t->node[gp->node].port[gp->port];
    if (!x->lid)
        return lid;
    return x->lid + (lid & ((1 << x->lmc) - 1));
}

/* The end of a switch's section: its "N lids dumped" line must have been seen (else the dump
 * was cut off). */
static int section_end(const char *path, int lineno, const struct topo *t, int sw, int sw_line,
                       int trailer, struct ibn_err *e)
{
    if (sw < 0 || trailer)
        return 0;
    return ibn_err_at(e, path, lineno, "the section of switch %s (line %d) ends without its "
                      "\"N lids dumped\" line: the dump is truncated", t->node[sw].name, sw_line);
}

int lft_dump_read(const char *path, const struct topo *t, struct lfts *out, struct ibn_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the LFT dump");
    lfts_init(out, t);
    int ng;
    struct gport *g = guid_index(t, &ng);
    /* Line of each switch's section and of each entry of the current section (0 = none yet). */
    int *sw_at = xcalloc((size_t)t->nnodes + 1, sizeof *sw_at);
    int *lid_at = xcalloc((size_t)out->max_lid + 2, sizeof *lid_at);
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, sw = -1, rc = 0, switches = 0, skipping = 0, trailer = 0, unknown = 0;
    long sec_max = 0;
    while (getline(&line, &cap, f) >= 0 && !rc) {
        lineno++;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        if (!strncmp(s, "Unicast lids", 12)) {
            if ((rc = section_end(path, lineno, t, sw, sw_at[sw < 0 ? 0 : sw], trailer, e)))
                break;
            char *q = strstr(s, " guid 0x");
            char *br = strstr(s, "[0-");
            if (!q || !br) {
                rc = ibn_err_at(e, path, lineno, "expected \"[0-N]\" and \"guid 0x...\" in the switch "
                                "line (\"Unicast lids [0-N] of switch Lid L guid 0xG ('desc'):\")");
                break;
            }
            sec_max = strtol(br + 3, NULL, 10);
            uint64_t guid = strtoull(q + 8, NULL, 16);
            const struct gport *gp = guid_find(g, ng, guid);
            sw = gp && t->node[gp->node].type == TOPO_SWITCH ? gp->node : -1;
            if (sw < 0) {
                /* By LID only for a switch the topology knows no GUID of. */
                char *lq = strstr(s, " Lid ");
                int lid = lq ? atoi(lq + 5) : 0;
                for (int i = 0; i < t->nnodes && lid; i++)
                    if (t->node[i].type == TOPO_SWITCH && t->node[i].port[0].lid == lid &&
                        !t->node[i].guid)
                        sw = i;
            }
            if (sw < 0) {
                rc = ibn_err_at(e, path, lineno, "switch with GUID 0x%016" PRIx64 " is not in "
                                "the topology %s", guid, t->source ? t->source : "");
                break;
            }
            if (sw_at[sw]) {
                rc = ibn_err_at(e, path, lineno, "switch %s has a second section (the first is "
                                "at line %d)", t->node[sw].name, sw_at[sw]);
                break;
            }
            sw_at[sw] = lineno;
            memset(out->table[sw], LFT_NONE, (size_t)out->max_lid + 1);
            memset(lid_at, 0, ((size_t)out->max_lid + 2) * sizeof *lid_at);
            switches++;
            skipping = trailer = 0;
            continue;
        }
        if (!strncmp(s, "Multicast", 9)) {
            if ((rc = section_end(path, lineno, t, sw, sw_at[sw < 0 ? 0 : sw], trailer, e)))
                break;
            sw = -1;
            skipping = 1; /* a multicast dump section: not forwarding by LID */
            continue;
        }
        if (skipping)
            continue;
        if (isdigit((unsigned char)*s) && strstr(s, "lids dumped")) {
            if (sw < 0 || trailer) {
                rc = ibn_err_at(e, path, lineno, "\"lids dumped\" outside a switch's section");
                break;
            }
            long n = strtol(s, NULL, 10);
            if (n != sec_max) {
                rc = ibn_err_at(e, path, lineno, "\"%ld lids dumped\", but the section of switch %s "
                                "(line %d) announced LIDs 0-%ld", n, t->node[sw].name, sw_at[sw],
                                sec_max);
                break;
            }
            trailer = 1;
            continue;
        }
        if (!strncmp(s, "0x", 2)) {
            if (sw < 0 || trailer) {
                rc = ibn_err_at(e, path, lineno, "LFT entry %s any \"Unicast lids ... of "
                                "switch\" line", sw < 0 ? "before" : "after the \"lids dumped\" line, without");
                break;
            }
            char *end;
            long lid = strtol(s + 2, &end, 16);
            if (end == s + 2 || !isspace((unsigned char)*end)) {
                rc = ibn_err_at(e, path, lineno, "expected a LID in hex such as 0x0001 at the "
                                "start of the entry");
                break;
            }
            if (lid > sec_max) {
                rc = ibn_err_at(e, path, lineno, "LID 0x%04lx is beyond the section's LIDs 0-%ld",
                                lid, sec_max);
                break;
            }
            long dump_lid = lid;
            char *ps = end;
            while (isspace((unsigned char)*ps))
                ps++;
            long port = strtol(ps, &end, 10);
            if (end == ps || (*end && !isspace((unsigned char)*end))) {
                rc = ibn_err_at(e, path, lineno, "expected a port number after LID 0x%04lx", lid);
                break;
            }
            if (port < 0 || port > t->node[sw].nports) {
                rc = ibn_err_at(e, path, lineno, "port %ld is out of range: switch %s has ports "
                                "0-%d", port, t->node[sw].name, t->node[sw].nports);
                break;
            }
            char *pg = strstr(end, "portguid 0x");
            if (pg) {
                uint64_t pguid = strtoull(pg + 11, NULL, 16);
                const struct gport *gp = guid_find(g, ng, pguid);
                if (gp) {
                    lid = remap(t, gp, (int)lid);
                } else if (!unknown++) {
                    /* ibsim renumbers CA port GUIDs (node GUID + port): a warning, not an error */
                    snprintf(out->note, sizeof out->note, "%s:%d: portguid 0x%016" PRIx64 " is "
                             "not a port of the topology; its LID 0x%04lx is taken as the "
                             "topology's", path, lineno, pguid, lid);
                }
            }
            if (lid < 1 || lid > out->max_lid) {
                rc = ibn_err_at(e, path, lineno, "LID %ld is not used by the topology (its "
                                "largest LID is %d)", lid, out->max_lid);
                break;
            }
            if (lid_at[lid]) {
                rc = ibn_err_at(e, path, lineno, "switch %s: a second entry for LID 0x%04lx (the "
                                "first is at line %d)", t->node[sw].name, dump_lid, lid_at[lid]);
                break;
            }
            lid_at[lid] = lineno;
            out->table[sw][lid] = (uint8_t)port;
            continue;
        }
        rc = ibn_err_at(e, path, lineno, "expected an OpenSM LFT dump line (\"Unicast lids ... "
                        "of switch ... guid 0x...\" or \"0xLID PORT # ...\")");
    }
    if (!rc)
        rc = section_end(path, lineno, t, sw, sw_at[sw < 0 ? 0 : sw], trailer, e);
    if (!rc && !switches)
        rc = ibn_err_at(e, path, 0, "no \"Unicast lids ... of switch\" section: not an "
                        "opensm-lfts.dump");
    for (int i = 0; !rc && i < t->nnodes; i++)
        if (t->node[i].type == TOPO_SWITCH && !sw_at[i])
            rc = ibn_err_at(e, path, lineno, "the dump ends without a section for switch %s "
                            "(%d switch sections read): truncated, or of another fabric",
                            t->node[i].name, switches);
    if (!rc && unknown > 1) {
        size_t n = strlen(out->note);
        snprintf(out->note + n, sizeof out->note - n, " (and %d more such entries)", unknown - 1);
    }
    free(line);
    fclose(f);
    free(g);
    free(sw_at);
    free(lid_at);
    if (rc)
        lfts_free(out);
    return rc;
}

static const char *type_str(enum topo_node_type ty)
{
    return ty == TOPO_SWITCH ? "Switch" : "Channel Adapter";
}

struct sw_guid {
    uint64_t guid;
    int node;
};

static int cmp_swg(const void *a, const void *b)
{
    const struct sw_guid *x = a, *y = b;
    return topo_guid_cmp_osm(x->guid, y->guid); /* as OpenSM dumps them */
}

int lft_dump_write(const char *path, const struct topo *t, const struct lfts *l, struct ibn_err *e)
{
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    FILE *f = o->fp;
    int maxlid = l->max_lid;
    int *on = xmalloc(((size_t)maxlid + 1) * sizeof *on), *op = xmalloc(((size_t)maxlid + 1) * sizeof *op);
    for (int i = 0; i <= maxlid; i++)
        on[i] = -1;
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        for (int p = 0; p <= nd->nports; p++) {
            const struct topo_port *x = &nd->port[p];
            if (!x->lid || (nd->type == TOPO_SWITCH && p) || (nd->type == TOPO_CA && !p))
                continue;
            for (int k = x->lid; k < x->lid + (1 << x->lmc) && k <= maxlid; k++) {
                on[k] = i;
                op[k] = p;
            }
        }
    }
    struct sw_guid *sw = xmalloc(((size_t)t->nnodes + 1) * sizeof *sw);
    int ns = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].type == TOPO_SWITCH)
            sw[ns++] = (struct sw_guid){ t->node[i].guid, i };
    qsort(sw, (size_t)ns, sizeof *sw, cmp_swg);
    for (int k = 0; k < ns; k++) {
        int i = sw[k].node;
        const struct topo_node *nd = &t->node[i];
        fprintf(f, "Unicast lids [0-%d] of switch Lid %d guid 0x%016" PRIx64 " ('%s'):\n", maxlid,
                nd->port[0].lid, nd->guid, nd->desc);
        for (int lid = 0; lid <= maxlid; lid++) {
            int p = lft_port(l, i, lid);
            if (p == LFT_NONE || p > nd->nports)
                continue;
            fprintf(f, "0x%04x %03d # ", lid, p);
            if (on[lid] >= 0) {
                const struct topo_node *m = &t->node[on[lid]];
                fprintf(f, "%s portguid 0x%016" PRIx64 ": '%s'\n", type_str(m->type),
                        topo_port_guid(t, on[lid], op[lid]), m->desc);
            } else {
                fprintf(f, "unknown node and type\n");
            }
        }
        fprintf(f, "%d lids dumped\n", maxlid);
    }
    free(sw);
    free(on);
    free(op);
    return out_close(o, e);
}

int lid_matrix_compare(const char *path, const struct topo *t, const struct hoptab *given,
                       int *rows, struct ibn_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the LID matrix dump");
    struct hoptab own, h;
    if (given) {
        h = *given;
    } else {
        hoptab_init(&own, t);
        hoptab_minhop(&own, t);
        h = own;
    }
    int ng;
    struct gport *g = guid_index(t, &ng);
    int *lid_sw = xmalloc(((size_t)topo_max_lid(t) + 2) * sizeof *lid_sw);
    for (int i = 0; i <= topo_max_lid(t); i++)
        lid_sw[i] = -1;
    for (int s = 0; s < h.nsw; s++)
        if (t->node[h.sw[s]].port[0].lid)
            lid_sw[t->node[h.sw[s]].port[0].lid] = s;
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, sw = -1, rc = 0;
    char *listed = xcalloc((size_t)h.nsw + 1, 1);
    *rows = 0;
    while (getline(&line, &cap, f) >= 0 && !rc) {
        lineno++;
        if (!strncmp(line, "Switch: guid 0x", 15)) {
            const struct gport *gp = guid_find(g, ng, strtoull(line + 15, NULL, 16));
            sw = gp && t->node[gp->node].type == TOPO_SWITCH ? h.swidx[gp->node] : -1;
            if (sw < 0)
                rc = ibn_err_at(e, path, lineno, "switch GUID %.18s is not in the topology",
                                line + 13);
            else
                listed[sw] = 1;
            continue;
        }
        if (strncmp(line, "0x", 2) || sw < 0)
            continue;
        char *end;
        int lid = (int)strtol(line + 2, &end, 16);
        char *pg = strstr(line, "portguid 0x");
        int T = -1;
        if (pg) {
            const struct gport *gp = guid_find(g, ng, strtoull(pg + 11, NULL, 16));
            if (gp && t->node[gp->node].type == TOPO_SWITCH)
                T = h.swidx[gp->node];
        } else if (lid <= topo_max_lid(t)) {
            T = lid_sw[lid];
        }
        if (T < 0) {
            rc = ibn_err_at(e, path, lineno, "LID 0x%04x is not a switch of the topology", lid);
            break;
        }
        const uint8_t *row = hoptab_row(&h, T, sw);
        const struct topo_node *ns = &t->node[h.sw[sw]];
        char *s = end + 1;
        for (int p = 0; p <= ns->nports; p++) {
            unsigned v = (unsigned)strtoul(s, &end, 16);
            if (end == s) {
                rc = ibn_err_at(e, path, lineno, "expected %d hop counts, found %d",
                                ns->nports + 1, p);
                break;
            }
            s = end;
            if (v != row[p]) {
                rc = ibn_err_at(e, path, lineno, "switch %s, destination switch %s, port %d: "
                                "OpenSM has %u hops, ibnetsim %u", ns->name,
                                t->node[h.sw[T]].name, p, v, row[p]);
                break;
            }
        }
        if (!rc)
            (*rows)++;
    }
    /* OpenSM lists a row for every switch LID a switch has a path to: so must we. */
    int expect = 0;
    for (int s = 0; s < h.nsw && !rc; s++)
        for (int T = 0; T < h.nsw && listed[s]; T++)
            expect += t->node[h.sw[T]].port[0].lid && hoptab_row(&h, T, s)[0] != HOP_NONE;
    if (!rc && expect != *rows)
        rc = ibn_err_at(e, path, 0, "OpenSM lists %d switch-to-switch-LID rows, ibnetsim's hop "
                        "table has a path for %d", *rows, expect);
    free(listed);
    free(line);
    fclose(f);
    free(g);
    free(lid_sw);
    if (!given)
        hoptab_free(&own);
    return rc;
}

/* mft_dump.c: reading and writing OpenSM's multicast forwarding table dump (opensm.mcfdbs). */
#include "routing/mft_dump.h"
#include "core/output.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct swg {
    uint64_t guid;
    int node;
};

static int cmp_swg(const void *a, const void *b)
{
    const struct swg *x = a, *y = b;
    int c = topo_guid_cmp_osm(x->guid, y->guid); /* OpenSM's switch map order */
    return c ? c : x->node - y->node;
}

int mft_dump_write(const char *path, const struct topo *t, const struct mfts *m, struct ibn_err *e)
{
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    struct swg *sw = xmalloc(((size_t)t->nnodes + 1) * sizeof *sw);
    int ns = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].type == TOPO_SWITCH)
            sw[ns++] = (struct swg){ t->node[i].guid, i };
    qsort(sw, (size_t)ns, sizeof *sw, cmp_swg);
    for (int k = 0; k < ns; k++) {
        int i = sw[k].node, header = 0;
        for (int x = 0; x < m->nmlid; x++) {
            const uint64_t *w = mft_mask(m, i, MLID_FIRST + x);
            int first = 1;
            for (int p = 0; w && p <= t->node[i].nports; p++) {
                if (!(w[p >> 6] >> (p & 63) & 1))
                    continue;
                if (!header) {
                    fprintf(o->fp, "\nSwitch 0x%016" PRIx64 "\nLID    : Out Port(s)\n", t->node[i].guid);
                    header = 1;
                }
                if (first) {
                    fprintf(o->fp, "0x%04X :", MLID_FIRST + x);
                    first = 0;
                }
                fprintf(o->fp, " 0x%03X ", p);
            }
            if (!first)
                fprintf(o->fp, "\n");
        }
    }
    free(sw);
    return out_close(o, e);
}

int mft_dump_read(const char *path, const struct topo *t, struct mfts *out, struct ibn_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the MFT dump");
    mfts_init(out, t, 0);
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, sw = -1, rc = 0;
    while (getline(&line, &cap, f) >= 0 && !rc) {
        lineno++;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        if (!strncmp(s, "Switch", 6)) {
            char *q = s + 6, *end;
            while (*q == ' ' || *q == ':')
                q++;
            if (strncmp(q, "0x", 2)) {
                rc = ibn_err_at(e, path, lineno, "expected \"Switch 0xGUID\" (the switch's node GUID "
                                "in hex)");
                break;
            }
            uint64_t guid = strtoull(q + 2, &end, 16);
            if (end == q + 2 || (*end && !isspace((unsigned char)*end))) {
                rc = ibn_err_at(e, path, lineno, "expected a node GUID in hex after \"Switch 0x\"");
                break;
            }
            sw = -1;
            for (int i = 0; i < t->nnodes && sw < 0; i++)
                if (t->node[i].type == TOPO_SWITCH && t->node[i].guid == guid)
                    sw = i;
            if (sw < 0) {
                rc = ibn_err_at(e, path, lineno, "switch with GUID 0x%016" PRIx64 " is not in the "
                                "topology %s", guid, t->source ? t->source : "");
                break;
            }
            continue;
        }
        if (!strncmp(s, "LID", 3))
            continue; /* the column header */
        if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2)) {
            rc = ibn_err_at(e, path, lineno, "expected \"Switch 0xGUID\", the \"LID : Out Port(s)\" "
                            "header or an entry \"0xC000 : 0x001 0x002\"");
            break;
        }
        if (sw < 0) {
            rc = ibn_err_at(e, path, lineno, "MFT entry before any \"Switch 0xGUID\" line");
            break;
        }
        char *end;
        long mlid = strtol(s + 2, &end, 16);
        if (end == s + 2) {
            rc = ibn_err_at(e, path, lineno, "expected an MLID in hex such as 0xC000");
            break;
        }
        if (!lid_is_mcast((int)mlid)) {
            rc = ibn_err_at(e, path, lineno, "MLID 0x%04lX is outside the multicast range "
                            "0x%04X-0x%04X", mlid, MLID_FIRST, MLID_LAST);
            break;
        }
        while (*end == ' ' || *end == '\t')
            end++;
        if (*end != ':') {
            rc = ibn_err_at(e, path, lineno, "expected \":\" after MLID 0x%04lX", mlid);
            break;
        }
        mfts_grow(out, t, (int)mlid);
        char *ps = end + 1;
        int nports = 0;
        for (;;) {
            while (isspace((unsigned char)*ps))
                ps++;
            if (!*ps)
                break;
            int hex = !strncmp(ps, "0x", 2) || !strncmp(ps, "0X", 2);
            long port = strtol(hex ? ps + 2 : ps, &end, hex ? 16 : 10);
            if (end == (hex ? ps + 2 : ps) || (*end && !isspace((unsigned char)*end))) {
                rc = ibn_err_at(e, path, lineno, "expected port numbers such as 0x001 after "
                                "\"0x%04lX :\"", mlid);
                break;
            }
            if (port < 0 || port > t->node[sw].nports) {
                rc = ibn_err_at(e, path, lineno, "port %ld is out of range: switch %s has ports "
                                "0-%d", port, t->node[sw].name, t->node[sw].nports);
                break;
            }
            mft_set(out, sw, (int)mlid, (int)port);
            nports++;
            ps = end;
        }
        if (!rc && !nports)
            rc = ibn_err_at(e, path, lineno, "MLID 0x%04lX has no output port", mlid);
    }
    free(line);
    fclose(f);
    if (rc)
        mfts_free(out);
    return rc;
}

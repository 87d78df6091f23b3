/* topo_read.c: the ibnetdiscover / ibsim net reader. The file is read in one pass into node
 * and port-line records, then nodes are created, named and cabled. Each cable appears once per
 * end; the second appearance must agree with the first. */
#include "topology/topo_read.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "topology/topo_addr.h"

struct rd_node {
    enum topo_node_type type;
    int nports;
    char *id;        /* the quoted id: "S-0008f1...", "Switch1" */
    char *desc;      /* node description, NULL if none */
    uint64_t guid, sysimg;
    int lid, lmc;    /* switch port 0 */
    int line;
    int index;       /* topo node index */
};

struct rd_port {
    int node;        /* rd_node index */
    int port, rport;
    uint64_t guid;   /* local port GUID, 0 if none */
    char *rid;
    int width, speed, has_ws;
    int lid, lmc, has_lid;
    int line;
};

struct rd {
    const char *file;
    struct rd_node *nodes;
    int nn, ncap;
    struct rd_port *ports;
    int np, pcap;
    int dialect_ibnd;   /* saw ibnetdiscover-only syntax */
    uint64_t pend_guid, pend_sysimg;
    /* id -> node hash */
    int *hash;
    int hcap;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void hash_build(struct rd *r)
{
    r->hcap = 16;
    while (r->hcap < 2 * r->nn + 2)
        r->hcap *= 2;
    r->hash = xmalloc((size_t)r->hcap * sizeof *r->hash);
    for (int i = 0; i < r->hcap; i++)
        r->hash[i] = -1;
    for (int i = 0; i < r->nn; i++) {
        size_t h = hash_str(r->nodes[i].id) & (size_t)(r->hcap - 1);
        while (r->hash[h] >= 0)
            h = (h + 1) & (size_t)(r->hcap - 1);
        r->hash[h] = i;
    }
}

static int hash_find(const struct rd *r, const char *id)
{
    size_t h = hash_str(id) & (size_t)(r->hcap - 1);
    while (r->hash[h] >= 0) {
        if (!strcmp(r->nodes[r->hash[h]].id, id))
            return r->hash[h];
        h = (h + 1) & (size_t)(r->hcap - 1);
    }
    return -1;
}

static char *skip_ws(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* Parse a quoted string at *s (after optional spaces); returns a copy, advances *s. */
static char *take_quoted(char **s)
{
    char *p = skip_ws(*s);
    if (*p != '"')
        return NULL;
    char *q = strchr(p + 1, '"');
    if (!q)
        return NULL;
    size_t n = (size_t)(q - p - 1);
    char *out = xmalloc(n + 1);
    memcpy(out, p + 1, n);
    out[n] = 0;
    *s = q + 1;
    return out;
}

/* "lid N" and "lmc M" anywhere in text (the first occurrences). */
static void find_lid_lmc(const char *text, int *lid, int *lmc, int *has)
{
    const char *p = strstr(text, "lid ");
    if (p && (p == text || isspace((unsigned char)p[-1]))) {
        long v = strtol(p + 4, NULL, 10);
        *lid = v < -1 || v > 1000000 ? -1 : (int)v;
        *has = 1;
        const char *m = strstr(p, "lmc ");
        if (m) {
            v = strtol(m + 4, NULL, 10);
            *lmc = v < -1 || v > 100 ? -1 : (int)v;
        }
    }
}

/* The last "NxSPEED" token of text. Returns 1 if found, 0 if none, -1 if malformed. */
static int find_width_speed(const char *text, int *width, int *speed, char *bad, size_t badlen)
{
    int found = 0;
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *b = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - b);
        if (n < 3 || n > 15 || !isdigit((unsigned char)b[0]))
            continue;
        size_t i = 0;
        while (i < n && isdigit((unsigned char)b[i]))
            i++;
        if (i == n || (b[i] != 'x' && b[i] != 'X') || i + 1 == n || !isalpha((unsigned char)b[i + 1]))
            continue;
        char tok[16];
        memcpy(tok, b, n);
        tok[n] = 0;
        int w;
        enum ib_speed s;
        if (ib_parse_width_speed(tok, &w, &s)) {
            snprintf(bad, badlen, "%s", tok);
            return -1;
        }
        *width = w;
        *speed = (int)s;
        found = 1;
    }
    return found;
}

static int parse_header(struct rd *r, char *line, int lineno, struct ibn_err *e)
{
    enum topo_node_type type;
    char *s = line;
    int is_rt = 0;
    if (!strncmp(s, "Switch", 6)) {
        type = TOPO_SWITCH;
        s += 6;
    } else if (!strncmp(s, "Hca", 3)) {
        type = TOPO_CA;
        s += 3;
    } else if (!strncmp(s, "Ca", 2)) {
        type = TOPO_CA;
        r->dialect_ibnd = 1;
        s += 2;
    } else {
        type = TOPO_CA;
        is_rt = 1;
        s += 2;
    }
    char *end;
    s = skip_ws(s);
    long nports = strtol(s, &end, 10);
    if (end == s || nports < 1 || nports > 254)
        return ibn_err_at(e, r->file, lineno, "expected a port count from 1 to 254 after the "
                          "node type, as in 'Switch 36 \"S-0008f10500200b50\"', got \"%s\"", line);
    s = end;
    char *id = take_quoted(&s);
    if (!id)
        return ibn_err_at(e, r->file, lineno, "expected the node id in quotes after the port "
                          "count, as in 'Switch 36 \"S-0008f10500200b50\"'");
    if (r->nn == r->ncap) {
        r->ncap = r->ncap ? 2 * r->ncap : 64;
        r->nodes = xrealloc(r->nodes, (size_t)r->ncap * sizeof *r->nodes);
    }
    struct rd_node *n = &r->nodes[r->nn++];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->nports = (int)nports;
    n->id = id;
    n->line = lineno;
    n->guid = r->pend_guid;
    n->sysimg = r->pend_sysimg;
    r->pend_guid = r->pend_sysimg = 0;
    if (!n->guid && (id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-') {
        char *gend;
        errno = 0;
        n->guid = strtoull(id + 2, &gend, 16);
        int bad = gend == id + 2 || *gend || errno == ERANGE || !n->guid;
        if (bad)
            n->guid = 0; /* an ibsim net name such as "S-core1": a GUID is assigned later */
        if (bad && r->dialect_ibnd)
            return ibn_err_at(e, r->file, lineno, "node id \"%s\": expected 16 hex digits of "
                              "a non-zero GUID after \"%c-\", as ibnetdiscover writes them "
                              "(\"S-0008f10500200b50\")", id, id[0]);
    }
    char *hash = strchr(s, '#');
    if (hash) {
        char *c = hash + 1;
        n->desc = take_quoted(&c);
        int has = 0;
        find_lid_lmc(c, &n->lid, &n->lmc, &has);
        if (has && (n->lid < 0 || n->lid > 0xbfff || n->lmc < 0 || n->lmc > 7))
            return ibn_err_at(e, r->file, lineno, "LID %d / LMC %d out of range: expected a "
                              "unicast LID 1-49151 and an LMC 0-7", n->lid, n->lmc);
    }
    if (is_rt)
        return 1; /* the caller warns */
    return 0;
}

static int parse_port_line(struct rd *r, char *line, int lineno, int node, struct ibn_err *e)
{
    struct rd_node *n = &r->nodes[node];
    char *s = skip_ws(line);
    if (*s == '@')
        return 1; /* ibsim alias line: the caller warns */
    char *end;
    if (*s != '[')
        return ibn_err_at(e, r->file, lineno, "expected a port line such as '[1] \"S-0008f105"
                          "00200b50\"[3]' in the block of %s (line %d), got \"%s\"", n->id,
                          n->line, line);
    long port = strtol(s + 1, &end, 10);
    if (end == s + 1 || *end != ']')
        return ibn_err_at(e, r->file, lineno, "expected a port number in brackets such as [3], "
                          "got \"%s\"", line);
    if (port < 1 || port > n->nports)
        return ibn_err_at(e, r->file, lineno, "port %ld is out of range: %s has ports 1-%d",
                          port, n->id, n->nports);
    s = end + 1;
    uint64_t guid = 0;
    if (*s == '(') {
        guid = strtoull(s + 1, &end, 16);
        if (*end != ')')
            return ibn_err_at(e, r->file, lineno, "expected a port GUID in parentheses after "
                              "[%ld], as in [1](2c9030002847e)", port);
        s = end + 1;
        r->dialect_ibnd = 1;
    }
    s = skip_ws(s);
    if (!strncmp(s, "[ext", 4)) { /* chassis external port number */
        char *q = strchr(s, ']');
        if (q)
            s = skip_ws(q + 1);
    }
    char *rid = take_quoted(&s);
    if (!rid)
        return ibn_err_at(e, r->file, lineno, "expected the peer's id in quotes after port "
                          "[%ld], as in [%ld] \"S-0008f10500200b50\"[3]", port, port);
    long rport = 1; /* ibsim's default when the peer port is omitted */
    if (*s == '[') {
        rport = strtol(s + 1, &end, 10);
        if (end == s + 1 || *end != ']' || rport < 1 || rport > 254) {
            ibn_err_at(e, r->file, lineno, "expected the peer's port number (1-254) in brackets "
                       "after \"%s\", such as [3]", rid);
            free(rid);
            return -1;
        }
        s = end + 1;
    }
    if (*s == '(') {
        strtoull(s + 1, &end, 16);
        if (*end == ')')
            s = end + 1;
    }
    if (r->np == r->pcap) {
        r->pcap = r->pcap ? 2 * r->pcap : 256;
        r->ports = xrealloc(r->ports, (size_t)r->pcap * sizeof *r->ports);
    }
    struct rd_port *p = &r->ports[r->np];
    memset(p, 0, sizeof *p);
    p->node = node;
    p->port = (int)port;
    p->rport = (int)rport;
    p->guid = guid;
    p->rid = rid;
    p->line = lineno;
    /* ibsim options before the comment: w=<width mask>, s=<speed mask>. */
    char *hash = strchr(s, '#');
    for (char *o = s; *o && (!hash || o < hash); o++) {
        if ((o[0] == 'w' || o[0] == 's') && o[1] == '=') {
            long v = strtol(o + 2, NULL, 0);
            if (o[0] == 'w') {
                p->width = v & 8 ? 12 : v & 4 ? 8 : v & 2 ? 4 : v & 1 ? 1 : 4;
                if (!p->has_ws)
                    p->speed = IB_SDR;
            } else {
                p->speed = v & 4 ? IB_QDR : v & 2 ? IB_DDR : IB_SDR;
                if (!p->has_ws)
                    p->width = 4;
            }
            p->has_ws = 1;
        }
    }
    if (hash) {
        char *c = hash + 1;
        if (n->type == TOPO_CA) {
            /* "# lid 16 lmc 1 "peer desc" lid 3 4xSDR": own LID first. */
            char *q = strchr(c, '"');
            char save = 0;
            if (q) {
                save = *q;
                *q = 0;
            }
            find_lid_lmc(c, &p->lid, &p->lmc, &p->has_lid);
            if (q)
                *q = save;
            if (p->has_lid && (p->lid < 0 || p->lid > 0xbfff || p->lmc < 0 || p->lmc > 7 ||
                               (p->lid && p->lid + (1 << p->lmc) - 1 > 0xbfff))) {
                free(rid);
                return ibn_err_at(e, r->file, lineno, "LID %d / LMC %d out of range: expected a "
                                  "unicast LID 1-49151 and an LMC 0-7", p->lid, p->lmc);
            }
        }
        /* Width/speed after the peer's quoted description. */
        char *after = c;
        char *dq = strchr(c, '"');
        if (dq) {
            char *dq2 = strchr(dq + 1, '"');
            after = dq2 ? dq2 + 1 : dq + 1;
        }
        char bad[32];
        int w, sp;
        int f = find_width_speed(after, &w, &sp, bad, sizeof bad);
        if (f < 0) {
            free(rid);
            return ibn_err_at(e, r->file, lineno, "\"%s\" is not an IB link width and speed "
                              "(expected e.g. 4xQDR: width 1, 2, 4, 8 or 12; speed SDR, DDR, QDR, "
                              "FDR10, FDR, EDR, HDR or NDR)", bad);
        }
        if (f > 0) {
            p->width = w;
            p->speed = sp;
            p->has_ws = 1;
        }
    }
    r->np++;
    return 0;
}

static int is_blank(const char *s)
{
    while (*s) {
        if (!isspace((unsigned char)*s))
            return 0;
        s++;
    }
    return 1;
}

static const char *const ignorable[] = { "vendid", "devid", "Non-Chassis Nodes", "Chassis",
                                         "ibnetdiscover", "width", "speed", "extspeed",
                                         "module", "hcaguids", "rtguid", NULL };

static int read_lines(struct rd *r, FILE *f, struct topo *t, struct ibn_err *e)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, cur = -1, rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0 && !rc) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (is_blank(line)) {
            cur = -1;
            continue;
        }
        char *s = skip_ws(line);
        if (*s == '#')
            continue;
        if (cur >= 0 && (*s == '[' || *s == '@')) {
            int x = parse_port_line(r, line, lineno, cur, e);
            if (x < 0)
                rc = -1;
            else if (x > 0)
                topo_warn(t, "%s:%d: ibsim alias line skipped", r->file, lineno);
            continue;
        }
        if (!strncmp(line, "Switch", 6) || !strncmp(line, "Hca", 3) || !strncmp(line, "Ca", 2) ||
            !strncmp(line, "Rt", 2)) {
            if (!strncmp(line, "Ca", 2) && !isspace((unsigned char)line[2])) {
                topo_warn(t, "%s:%d: line skipped: not ibnetdiscover or ibsim net syntax: %.60s",
                          r->file, lineno, line);
                continue;
            }
            int x = parse_header(r, line, lineno, e);
            if (x < 0) {
                rc = -1;
                continue;
            }
            if (x > 0)
                topo_warn(t, "%s:%d: router %s read as a channel adapter", r->file, lineno,
                          r->nodes[r->nn - 1].id);
            cur = r->nn - 1;
            continue;
        }
        if (*s == '[')
            return free(line), ibn_err_at(e, r->file, lineno, "port line outside a Switch/Ca "
                                          "block: expected a 'Switch N \"id\"' or 'Ca N \"id\"' "
                                          "header line before it");
        if (!strncmp(line, "switchguid", 10) || !strncmp(line, "caguid", 6) ||
            !strncmp(line, "sysimgguid", 10)) {
            char *eq = strchr(line, '=');
            char *end = NULL;
            errno = 0;
            uint64_t g = eq ? strtoull(eq + 1, &end, 0) : 0;
            /* ibnetdiscover writes "switchguid=0x8f10500200b50(8f10500200b50)". */
            if (!eq || end == eq + 1 || errno == ERANGE || !g ||
                (*end && *end != '(' && !isspace((unsigned char)*end))) {
                rc = ibn_err_at(e, r->file, lineno, "expected a non-zero 64-bit GUID after "
                                "'=', as in switchguid=0x8f10500200b50(8f10500200b50), got "
                                "\"%.60s\"", eq ? eq + 1 : line);
                continue;
            }
            if (line[0] == 's' && line[1] == 'y')
                r->pend_sysimg = g;
            else
                r->pend_guid = g;
            r->dialect_ibnd = 1;
            continue;
        }
        int known = 0;
        for (int i = 0; ignorable[i]; i++)
            if (!strncmp(line, ignorable[i], strlen(ignorable[i])))
                known = 1;
        if (!strncmp(line, "include", 7) || !strncmp(line, "do", 2)) {
            topo_warn(t, "%s:%d: ibsim directive skipped: %.60s", r->file, lineno, line);
            continue;
        }
        if (!known)
            topo_warn(t, "%s:%d: line skipped: not ibnetdiscover or ibsim net syntax: %.60s",
                      r->file, lineno, line);
    }
    free(line);
    return rc;
}

static void rd_free(struct rd *r)
{
    for (int i = 0; i < r->nn; i++) {
        free(r->nodes[i].id);
        free(r->nodes[i].desc);
    }
    for (int i = 0; i < r->np; i++)
        free(r->ports[i].rid);
    free(r->nodes);
    free(r->ports);
    free(r->hash);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names: description, with " 0xGUID" appended where descriptions repeat. */
static void name_nodes(struct rd *r, struct topo *t)
{
    char **descs = xmalloc(((size_t)r->nn + 1) * sizeof *descs);
    int nd = 0;
    for (int i = 0; i < r->nn; i++)
        if (r->nodes[i].desc && r->nodes[i].desc[0])
            descs[nd++] = r->nodes[i].desc;
    qsort(descs, (size_t)nd, sizeof *descs, cmp_str);
    for (int i = 0; i < r->nn; i++) {
        struct rd_node *n = &r->nodes[i];
        char name[512];
        if (n->desc && n->desc[0]) {
            char **hit = bsearch(&n->desc, descs, (size_t)nd, sizeof *descs, cmp_str);
            size_t k = (size_t)(hit - descs);
            int dup = (k > 0 && !strcmp(descs[k - 1], n->desc)) ||
                      (k + 1 < (size_t)nd && !strcmp(descs[k + 1], n->desc));
            if (dup)
                snprintf(name, sizeof name, "%s 0x%016" PRIx64, n->desc, n->guid);
            else
                snprintf(name, sizeof name, "%s", n->desc);
        } else {
            snprintf(name, sizeof name, "%s", n->id);
        }
        n->index = topo_add_node(t, n->type, name, n->nports);
        struct topo_node *tn = &t->node[n->index];
        free(tn->desc);
        tn->desc = xstrdup(n->desc ? n->desc : n->id);
        tn->guid = n->guid;
        tn->sysimgguid = n->sysimg;
        if (n->type == TOPO_SWITCH) {
            tn->port[0].lid = (uint16_t)n->lid;
            tn->port[0].lmc = (uint8_t)n->lmc;
        }
    }
    free(descs);
}

static int cable(struct rd *r, struct topo *t, int *first_line, const int *off, struct ibn_err *e)
{
    for (int i = 0; i < r->np; i++) {
        struct rd_port *p = &r->ports[i];
        struct rd_node *n = &r->nodes[p->node];
        int a = n->index;
        struct topo_node *ta = &t->node[a];
        if (ta->type == TOPO_CA) {
            if (p->guid)
                ta->port[p->port].guid = p->guid;
            if (p->has_lid) {
                ta->port[p->port].lid = (uint16_t)p->lid;
                ta->port[p->port].lmc = (uint8_t)p->lmc;
            }
        }
        int ri = hash_find(r, p->rid);
        if (ri < 0)
            return ibn_err_at(e, r->file, p->line, "peer \"%s\" of %s port %d is not "
                              "described in the file: expected a 'Switch' or 'Ca' block for "
                              "it (is the dump truncated, or cut from a larger one?)", p->rid,
                              n->id, p->port);
        int b = r->nodes[ri].index;
        struct topo_node *tb = &t->node[b];
        if (p->rport > tb->nports)
            return ibn_err_at(e, r->file, p->line, "%s has ports 1-%d, but this line cables "
                              "port %d of it", r->nodes[ri].id, tb->nports, p->rport);
        if (a == b && p->port == p->rport)
            return ibn_err_at(e, r->file, p->line, "port %d of %s is cabled to itself",
                              p->port, n->id);
        int w = p->has_ws ? p->width : 4;
        enum ib_speed sp = p->has_ws ? (enum ib_speed)p->speed : IB_SDR;
        struct topo_port *xa = &ta->port[p->port];
        if (xa->peer_node >= 0) {
            if (xa->peer_node != b || xa->peer_port != p->rport)
                return ibn_err_at(e, r->file, p->line, "%s port %d is cabled to %s port %d "
                                  "here, but line %d cables it to %s port %d", n->id, p->port,
                                  p->rid, p->rport, first_line[off[a] + p->port], t->node[xa->peer_node].name,
                                  xa->peer_port);
            if (p->has_ws && (xa->width != w || xa->speed != sp)) {
                char s1[16], s2[16];
                ib_format_width_speed(xa->width, (enum ib_speed)xa->speed, s1, sizeof s1);
                ib_format_width_speed(w, sp, s2, sizeof s2);
                int mw = w < xa->width ? w : xa->width;
                int ms = (int)sp < xa->speed ? (int)sp : xa->speed;
                topo_warn(t, "%s:%d: the two ends of %s port %d - %s port %d disagree on the "
                          "link (%s and %s); using %dx%s", r->file, p->line, n->id, p->port,
                          p->rid, p->rport, s1, s2, mw, ib_speed_name((enum ib_speed)ms));
                xa->width = tb->port[p->rport].width = (uint8_t)mw;
                xa->speed = tb->port[p->rport].speed = (uint8_t)ms;
            }
            continue;
        }
        struct topo_port *xb = &tb->port[p->rport];
        if (xb->peer_node >= 0)
            return ibn_err_at(e, r->file, p->line, "%s port %d is cabled to %s port %d here, "
                              "but %s port %d is already cabled to %s port %d", n->id, p->port,
                              p->rid, p->rport, p->rid, p->rport, t->node[xb->peer_node].name,
                              xb->peer_port);
        if (topo_connect(t, a, p->port, b, p->rport, w, sp, 0, TOPO_READ_DEFAULT_DELAY_PS, e))
            return ibn_err_prefix(e, "%s:%d: ", r->file, p->line);
        first_line[off[a] + p->port] = first_line[off[b] + p->rport] = p->line;
        if (a == b)
            topo_warn(t, "%s:%d: loopback cable between ports %d and %d of %s: kept in the "
                      "topology, never used by routes", r->file, p->line, p->port, p->rport,
                      n->id);
    }
    return 0;
}

int topo_read_stream(FILE *f, const char *name, struct topo *out, struct ibn_err *e)
{
    struct rd r;
    memset(&r, 0, sizeof r);
    r.file = name;
    topo_init(out);
    int rc = read_lines(&r, f, out, e);
    if (!rc && r.nn == 0)
        rc = ibn_err_at(e, name, 0, "no Switch, Ca or Hca blocks found: expected ibnetdiscover "
                        "output or an ibsim net file");
    if (!rc) {
        hash_build(&r);
        for (int i = 0; i < r.nn && !rc; i++) {
            int j = hash_find(&r, r.nodes[i].id);
            if (j != i)
                rc = ibn_err_at(e, name, r.nodes[i].line, "node id \"%s\" is already used by "
                                "the node at line %d", r.nodes[i].id, r.nodes[j].line);
        }
    }
    if (!rc) {
        /* A channel adapter is in a dump only through a cabled port: one without any port
         * line cannot be reached, and is a truncated or hand-edited file. */
        char *has_port = xcalloc((size_t)r.nn + 1, 1);
        for (int i = 0; i < r.np; i++)
            has_port[r.ports[i].node] = 1;
        for (int i = 0; i < r.nn && !rc; i++)
            if (r.nodes[i].type == TOPO_CA && !has_port[i])
                rc = ibn_err_at(e, name, r.nodes[i].line, "channel adapter \"%s\" has no port "
                                "lines: expected at least one '[port] \"peer id\"[peer port]' "
                                "line after its header", r.nodes[i].id);
        free(has_port);
    }
    if (!rc) {
        name_nodes(&r, out);
        /* The line that first cabled each (node, port), for messages about conflicts. */
        int *off = xmalloc(((size_t)out->nnodes + 1) * sizeof *off);
        off[0] = 0;
        for (int i = 0; i < out->nnodes; i++)
            off[i + 1] = off[i] + out->node[i].nports + 1;
        int *first = xcalloc((size_t)off[out->nnodes] + 1, sizeof *first);
        rc = cable(&r, out, first, off, e);
        free(first);
        free(off);
    }
    if (!rc) {
        int missing = 0;
        for (int i = 0; i < out->nnodes; i++) {
            struct topo_node *n = &out->node[i];
            if (n->type == TOPO_SWITCH && !n->port[0].lid)
                missing = 1;
            for (int p = 1; p <= n->nports && n->type == TOPO_CA; p++)
                if (n->port[p].peer_node >= 0 && !n->port[p].lid)
                    missing = 1;
        }
        if (missing)
            topo_assign_lids(out, 0);
        topo_assign_guids(out);
        topo_assign_aliases(out);
        char src[1024];
        snprintf(src, sizeof src, "%s (%s)", name, r.dialect_ibnd ? "ibnetdiscover" : "ibsim net");
        out->source = xstrdup(src);
        rc = topo_check(out, e);
        if (rc)
            ibn_err_prefix(e, "%s: ", name);
    }
    rd_free(&r);
    if (rc)
        topo_free(out);
    return rc;
}

int topo_read_file(const char *path, struct topo *out, struct ibn_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the topology file");
    int rc = topo_read_stream(f, path, out, e);
    fclose(f);
    return rc;
}

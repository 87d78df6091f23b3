/* torus2qos.c: OpenSM's torus-2QoS routing engine on fault-free 2-D and 3-D tori and meshes
 * (written from torus-2QoS(8), torus-2QoS.conf(5) and a reading of OpenSM 3.3's osm_torus.c).
 *
 * Placement. The configuration gives the radix of each dimension and a seed: a switch O and its
 * neighbour in the positive or negative direction of each dimension (both for a ring of 4, whose
 * four switches otherwise look like a square of two dimensions). O's absolute coordinate is
 * -dateline (mod radix), so the dateline, always between radix-1 and 0, stays where the
 * configuration puts it. ibnetsim places every other switch from breadth-first distances, which
 * in a fault-free torus are sums of per-dimension ring distances: a switch lies on the d axis
 * through O when, for every other dimension e, it is one hop further from O's e-neighbours than
 * from O; its position on the axis follows from its distance to O and to O's d-neighbours; and
 * every switch's coordinate in d is the position of the d-axis switch nearest to it. The result
 * is verified (every position filled once, every cable joins lattice neighbours, every lattice
 * neighbour pair is cabled): a fabric with a missing switch or link, parallel links (whose round
 * robin OpenSM balances in its own discovery order) or any other shape is refused with what was
 * found, never routed. OpenSM routes around failures; this does not.
 *
 * Routing (OpenSM's lft_port on a pristine torus): dimension order x, y, z; in a ring the shorter
 * way, a tie (radix even, half-way) in the direction of increasing coordinate when the
 * destination's coordinate is larger, else decreasing (so a tie never crosses the dateline); in
 * a mesh straight towards the destination. A destination switch's own LID goes to port 0, its
 * CAs' LIDs (every LMC offset) out of their ports.
 *
 * VLs. A path's SL has bit d set when the shorter way in dimension d crosses the dateline
 * (computed from the coordinates alone, also in meshes, as OpenSM does), and bit 3 the QoS level.
 * A switch's SL2VL for (input port, output port) along dimension d: VL bit 0 = SL bit d (the
 * "loop" VL: paths that cross the dateline use it on the whole ring, so neither set of paths
 * closes a ring), VL bit 1 when the packet turns from a higher dimension to a lower one (an
 * illegal DOR turn; none on a fault-free torus), VL bit 2 = the QoS level; towards a CA or port
 * 0 and on CA ports, VL = the QoS level. With fewer data VLs (max_vls 2 or 4) the higher bits
 * are left out, as OpenSM does with its switches' VLCap. */
#include "routing/torus2qos.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "routing/route.h"

#define SRCSINK 3 /* the port "dimension" of CA ports, port 0 and uncabled ports */

/* ---- configuration file ---------------------------------------------------------------- */

static void conf_defaults(struct t2q_conf *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 256; i++)
        c->port_order[i] = i;
    c->portgroup_max_ports = 16;
    c->max_changes = 32;
}

static const char *const sep = " \t\r\n";

static int num_token(char **save, long long *v, int base_suffix, char *suffix, const char *path,
                     int line, const char *kw, const char *what, struct ibn_err *e)
{
    char *tok = strtok_r(NULL, sep, save), *end;
    if (!tok)
        return ibn_err_at(e, path, line, "%s: expected %s, found the end of the line", kw, what);
    errno = 0;
    *v = strtoll(tok, &end, 0);
    if (end == tok || errno)
        return ibn_err_at(e, path, line, "%s: expected %s, got \"%s\"", kw, what, tok);
    if (base_suffix && *end && strchr("mMtT", *end) && !end[1])
        *suffix = *end;
    else if (*end)
        return ibn_err_at(e, path, line, "%s: expected %s, got \"%s\"", kw, what, tok);
    return 0;
}

static int guid_token(char **save, uint64_t *g, const char *path, int line, const char *kw,
                      struct ibn_err *e)
{
    char *tok = strtok_r(NULL, sep, save), *end;
    if (!tok)
        return ibn_err_at(e, path, line, "%s: expected two switch GUIDs, found the end of the "
                          "line", kw);
    errno = 0;
    *g = strtoull(tok, &end, 0);
    if (end == tok || *end || errno || !*g)
        return ibn_err_at(e, path, line, "%s: expected a switch GUID such as 0x0002c90000000100, "
                          "got \"%s\"", kw, tok);
    return 0;
}

int t2q_conf_read(const char *path, struct t2q_conf *c, struct ibn_err *e)
{
    conf_defaults(c);
    snprintf(c->from, sizeof c->from, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the torus-2QoS configuration: %s",
                          strerror(errno));
    char buf[4096];
    int line = 0, rc = 0, norder = 0;
    static const char *const dimname = "xyz";
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        char *save = NULL, *kw = strtok_r(buf, sep, &save);
        if (!kw || kw[0] == '#')
            continue;
        if (!strcmp(kw, "torus") || !strcmp(kw, "mesh")) {
            if (c->given) {
                rc = ibn_err_at(e, path, line, "%s: a second torus/mesh line (there can be only "
                                "one, as in OpenSM)", kw);
                break;
            }
            c->given = 1;
            for (int d = 0; d < 3 && !rc; d++) {
                long long v;
                char sfx = 0;
                char what[64];
                snprintf(what, sizeof what, "the %c radix (such as 4, 4t or 4m)", dimname[d]);
                if (num_token(&save, &v, 1, &sfx, path, line, kw, what, e)) {
                    rc = -1;
                    break;
                }
                if (v < 1 || v > 1024) {
                    rc = ibn_err_at(e, path, line, "%s: the %c radix must be 1 to 1024, got %lld",
                                    kw, dimname[d], v);
                    break;
                }
                c->radix[d] = (int)v;
                c->mesh[d] = !strcmp(kw, "mesh");
                if (sfx == 't' || sfx == 'T')
                    c->mesh[d] = 0;
                else if (sfx == 'm' || sfx == 'M')
                    c->mesh[d] = 1;
                if (v == 2) /* OpenSM: a ring of two is a mesh with parallel links */
                    c->mesh[d] = 1;
            }
        } else if (!strcmp(kw, "next_seed")) {
            if (c->nseed == T2Q_MAX_SEEDS) {
                rc = ibn_err_at(e, path, line, "next_seed: at most %d seeds", T2Q_MAX_SEEDS);
                break;
            }
            c->seed[c->nseed++].line = line;
        } else if (strlen(kw) == 7 && strchr(dimname, kw[0]) && (kw[1] == 'p' || kw[1] == 'm') &&
                   !strcmp(kw + 2, "_link")) {
            if (!c->nseed)
                c->seed[c->nseed++].line = line;
            struct t2q_seed *s = &c->seed[c->nseed - 1];
            int d = (int)(strchr(dimname, kw[0]) - dimname), dir = kw[1] == 'p';
            uint64_t a, b;
            if (guid_token(&save, &a, path, line, kw, e) || guid_token(&save, &b, path, line, kw, e)) {
                rc = -1;
                break;
            }
            if (a == b) {
                rc = ibn_err_at(e, path, line, "%s: a link from switch 0x%016" PRIx64 " to "
                                "itself", kw, a);
                break;
            }
            s->from[d][dir] = a;
            s->to[d][dir] = b;
            s->has[d][dir] = 1;
        } else if (strlen(kw) == 10 && strchr(dimname, kw[0]) && !strcmp(kw + 1, "_dateline")) {
            if (!c->nseed)
                c->seed[c->nseed++].line = line;
            int d = (int)(strchr(dimname, kw[0]) - dimname);
            long long v;
            if (num_token(&save, &v, 0, NULL, path, line, kw, "a dateline position (an integer)",
                          e)) {
                rc = -1;
                break;
            }
            if (!c->given) {
                rc = ibn_err_at(e, path, line, "%s: comes before the torus/mesh line, so the "
                                "radix it must stay within is not known (OpenSM refuses it too)", kw);
                break;
            }
            if (v <= -c->radix[d] || v >= c->radix[d]) {
                rc = ibn_err_at(e, path, line, "%s: must be %d < dateline < %d, got %lld", kw,
                                -c->radix[d], c->radix[d], v);
                break;
            }
            c->seed[c->nseed - 1].dateline[d] = (int)v;
        } else if (!strcmp(kw, "portgroup_max_ports") || !strcmp(kw, "max_changes")) {
            long long v;
            if (num_token(&save, &v, 0, NULL, path, line, kw, "a number", e)) {
                rc = -1;
                break;
            }
            if (v < 1 || v > 255) {
                rc = ibn_err_at(e, path, line, "%s: expected 1 to 255, got %lld", kw, v);
                break;
            }
            if (kw[0] == 'p')
                c->portgroup_max_ports = (int)v;
            else
                c->max_changes = (int)v;
        } else if (!strcmp(kw, "port_order")) {
            /* The listed ports first (repeats ignored), then every other port in order. */
            int listed[256], n = 0;
            char *tok;
            while ((tok = strtok_r(NULL, sep, &save)) != NULL) {
                char *end;
                long v = strtol(tok, &end, 0);
                if (end == tok || *end || v < 0 || v > 255) {
                    rc = ibn_err_at(e, path, line, "port_order: expected port numbers 0-255, got "
                                    "\"%s\"", tok);
                    break;
                }
                int dup = 0;
                for (int i = 0; i < n; i++)
                    dup |= listed[i] == v;
                if (!dup && n < 256)
                    listed[n++] = (int)v;
            }
            if (rc)
                break;
            norder = n;
            for (int i = 0; i < n; i++)
                c->port_order[i] = listed[i];
            for (int p = 0, k = n; p < 256; p++) {
                int in = 0;
                for (int i = 0; i < n; i++)
                    in |= listed[i] == p;
                if (!in)
                    c->port_order[k++] = p;
            }
        } else {
            rc = ibn_err_at(e, path, line, "unknown keyword \"%s\" (torus-2QoS.conf(5) knows torus, "
                            "mesh, xp_link, xm_link, yp_link, ym_link, zp_link, zm_link, "
                            "x_dateline, y_dateline, z_dateline, next_seed, portgroup_max_ports, "
                            "port_order, max_changes)", kw);
        }
    }
    (void)norder;
    fclose(f);
    if (rc)
        return -1;
    if (!c->given)
        return ibn_err_at(e, path, line, "no torus or mesh line: the radix of each dimension is "
                          "required (\"torus 4 4 1\")");
    return 0;
}

/* ---- the switch graph and its placement -------------------------------------------------- */

struct t2q {
    const struct topo *t;
    const struct t2q_conf *c;
    int ns, *sw, *idx;      /* switches: node of switch s, switch index of a node (-1) */
    int *nb, *nbp, *deg;    /* neighbour switches of s: nb[s * maxdeg + k], by port nbp */
    int maxdeg;
    int *coord;             /* [s * 3 + d], absolute */
    int *grid;              /* [x + R0 * (y + R1 * z)] -> switch */
    int *dist;              /* scratch BFS distances */
    int *queue;
};

static const char *sname(const struct t2q *q, int s)
{
    return q->t->node[q->sw[s]].name;
}

static void bfs(const struct t2q *q, int from, int *dist)
{
    for (int s = 0; s < q->ns; s++)
        dist[s] = -1;
    int head = 0, tail = 0;
    dist[from] = 0;
    q->queue[tail++] = from;
    while (head < tail) {
        int u = q->queue[head++];
        for (int k = 0; k < q->deg[u]; k++) {
            int v = q->nb[u * q->maxdeg + k];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                q->queue[tail++] = v;
            }
        }
    }
}

static int adjacent(const struct t2q *q, int a, int b)
{
    for (int k = 0; k < q->deg[a]; k++)
        if (q->nb[a * q->maxdeg + k] == b)
            return 1;
    return 0;
}

static int common_neighbours(const struct t2q *q, int a, int b)
{
    int n = 0;
    for (int k = 0; k < q->deg[a]; k++)
        n += adjacent(q, q->nb[a * q->maxdeg + k], b);
    return n;
}

static int canon(int v, int r)
{
    v %= r;
    return v < 0 ? v + r : v;
}

static int graph_build(struct t2q *q, struct ibn_err *e)
{
    const struct topo *t = q->t;
    q->idx = xmalloc(((size_t)t->nnodes + 1) * sizeof *q->idx);
    q->sw = xmalloc(((size_t)t->nnodes + 1) * sizeof *q->sw);
    q->ns = 0;
    q->maxdeg = 1;
    for (int i = 0; i < t->nnodes; i++) {
        q->idx[i] = -1;
        if (t->node[i].type == TOPO_SWITCH) {
            q->idx[i] = q->ns;
            q->sw[q->ns++] = i;
            if (t->node[i].nports > q->maxdeg)
                q->maxdeg = t->node[i].nports;
        }
    }
    if (!q->ns)
        return ibn_err_set(e, "torus-2QoS: the fabric has no switches");
    q->nb = xmalloc((size_t)q->ns * (size_t)q->maxdeg * sizeof *q->nb);
    q->nbp = xmalloc((size_t)q->ns * (size_t)q->maxdeg * sizeof *q->nbp);
    q->deg = xcalloc((size_t)q->ns, sizeof *q->deg);
    for (int s = 0; s < q->ns; s++) {
        const struct topo_node *n = &t->node[q->sw[s]];
        for (int p = 1; p <= n->nports; p++) {
            int m = n->port[p].peer_node;
            if (m < 0 || t->node[m].type != TOPO_SWITCH)
                continue;
            if (m == q->sw[s])
                return ibn_err_set(e, "torus-2QoS: %s port %d is cabled to its own port %d (a "
                                   "loopback cable): not a torus or mesh this engine routes",
                                   n->name, p, n->port[p].peer_port);
            int v = q->idx[m];
            for (int k = 0; k < q->deg[s]; k++)
                if (q->nb[s * q->maxdeg + k] == v)
                    return ibn_err_set(e, "torus-2QoS: %s and %s are joined by parallel links "
                                       "(ports %d and %d of %s): OpenSM spreads routes over them "
                                       "round robin in its own discovery order, which is not "
                                       "modelled (a torus dimension of radix 2 has them): refused",
                                       n->name, t->node[m].name, q->nbp[s * q->maxdeg + k], p,
                                       n->name);
            q->nbp[s * q->maxdeg + q->deg[s]] = p;
            q->nb[s * q->maxdeg + q->deg[s]++] = v;
        }
    }
    q->dist = xmalloc((size_t)q->ns * sizeof *q->dist);
    q->queue = xmalloc((size_t)q->ns * sizeof *q->queue);
    return 0;
}

static int find_guid(const struct t2q *q, uint64_t g)
{
    for (int s = 0; s < q->ns; s++)
        if (q->t->node[q->sw[s]].guid == g)
            return s;
    return -1;
}

static const char dimc[] = "xyz";

/* Place every switch; -1 with e when the fabric is not the configured fault-free torus. */
static int place(struct t2q *q, struct ibn_err *e)
{
    const struct t2q_conf *c = q->c;
    const int *R = c->radix;
    int total = R[0] * R[1] * R[2];
    /* The seed: the first whose switches are all in the fabric (OpenSM's choice). */
    int si = -1;
    for (int k = 0; k < c->nseed && si < 0; k++) {
        const struct t2q_seed *s = &c->seed[k];
        int any = 0, all = 1;
        for (int d = 0; d < 3; d++)
            for (int dir = 0; dir < 2; dir++)
                if (s->has[d][dir]) {
                    any = 1;
                    all &= find_guid(q, s->from[d][dir]) >= 0 && find_guid(q, s->to[d][dir]) >= 0;
                }
        if (any && all)
            si = k;
    }
    /* OpenSM's seed checks, on every seed. */
    for (int k = 0; k < c->nseed; k++) {
        const struct t2q_seed *s = &c->seed[k];
        uint64_t from = 0;
        for (int d = 0; d < 3; d++) {
            if (R[d] > 1 && !s->has[d][0] && !s->has[d][1])
                return ibn_err_at(e, c->from, s->line, "torus-2QoS: seed %d has no %cp_link or "
                                  "%cm_link, but the %c radix is %d", k + 1, dimc[d], dimc[d],
                                  dimc[d], R[d]);
            if (R[d] == 4 && !c->mesh[d] && !(s->has[d][0] && s->has[d][1]))
                return ibn_err_at(e, c->from, s->line, "torus-2QoS: seed %d: the %c dimension is "
                                  "a ring of 4, which needs both %cp_link and %cm_link from the "
                                  "seed switch (torus-2QoS.conf(5))", k + 1, dimc[d], dimc[d],
                                  dimc[d]);
            for (int dir = 0; dir < 2; dir++)
                if (s->has[d][dir]) {
                    if (R[d] == 1)
                        return ibn_err_at(e, c->from, s->line, "torus-2QoS: seed %d has a "
                                          "%c%c_link, but the %c radix is 1", k + 1, dimc[d],
                                          "mp"[dir], dimc[d]);
                    if (from && s->from[d][dir] != from)
                        return ibn_err_at(e, c->from, s->line, "torus-2QoS: seed %d: every link "
                                          "of a seed must start at the same switch "
                                          "(0x%016" PRIx64 " and 0x%016" PRIx64 ")", k + 1, from,
                                          s->from[d][dir]);
                    from = s->from[d][dir];
                }
        }
    }
    if (si < 0)
        return ibn_err_set(e, "torus-2QoS: no seed of %s has all its switches in the fabric "
                           "(the GUIDs of its links must be switch node GUIDs of the topology)",
                           c->from);
    const struct t2q_seed *s = &c->seed[si];
    int O = -1, P[3] = { -1, -1, -1 }, M[3] = { -1, -1, -1 };
    for (int d = 0; d < 3; d++)
        for (int dir = 0; dir < 2; dir++)
            if (s->has[d][dir]) {
                O = find_guid(q, s->from[d][dir]);
                int to = find_guid(q, s->to[d][dir]);
                if (!adjacent(q, O, to))
                    return ibn_err_at(e, c->from, s->line, "torus-2QoS: %c%c_link: %s and %s are "
                                      "not cabled to each other", dimc[d], "mp"[dir], sname(q, O),
                                      sname(q, to));
                (dir ? P : M)[d] = to;
            }
    if (q->ns != total)
        return ibn_err_set(e, "torus-2QoS: the fabric has %d switches, a %dx%dx%d %s has %d "
                           "(missing switches are not handled: refused)", q->ns, R[0], R[1], R[2],
                           c->mesh[0] && c->mesh[1] && c->mesh[2] ? "mesh" : "torus", total);
    /* Links: a ring of R (R >= 3) has R, a mesh line R - 1, per line of the dimension. */
    long want = 0, have = 0;
    for (int d = 0; d < 3; d++)
        if (R[d] > 1)
            want += (long)(total / R[d]) * (c->mesh[d] ? R[d] - 1 : R[d]);
    for (int v = 0; v < q->ns; v++)
        have += q->deg[v];
    have /= 2;
    if (have != want)
        return ibn_err_set(e, "torus-2QoS: the fabric has %ld switch-to-switch links, a fault-free "
                           "%dx%dx%d %s has %ld (%s: refused)", have, R[0], R[1], R[2],
                           c->mesh[0] && c->mesh[1] && c->mesh[2] ? "mesh" : "torus", want,
                           have < want ? "routing around missing links and switches, which "
                           "OpenSM's torus-2QoS does, is not modelled" : "check the radices");
    int a0[3];
    for (int d = 0; d < 3; d++)
        a0[d] = canon(-s->dateline[d], R[d]);
    /* O's missing neighbour in each dimension. */
    int *dk = xmalloc((size_t)q->ns * sizeof *dk);
    int rc = 0;
    for (int d = 0; d < 3 && !rc; d++) {
        if (R[d] == 1 || (P[d] >= 0 && M[d] >= 0))
            continue;
        int want_minus = P[d] >= 0;
        if (c->mesh[d] && (want_minus ? a0[d] == 0 : a0[d] == R[d] - 1))
            continue; /* O is at that end of the mesh */
        int known = want_minus ? P[d] : M[d];
        bfs(q, known, dk);
        int found = -1, n = 0;
        for (int k = 0; k < q->deg[O]; k++) {
            int v = q->nb[O * q->maxdeg + k];
            int used = 0;
            for (int x = 0; x < 3; x++)
                used |= v == P[x] || v == M[x];
            if (used)
                continue;
            int ok = (!c->mesh[d] && R[d] == 3) ? dk[v] == 1
                                                 : dk[v] == 2 && common_neighbours(q, v, known) == 1;
            if (ok) {
                found = v;
                n++;
            }
        }
        if (n != 1)
            rc = ibn_err_set(e, "torus-2QoS: cannot tell which neighbour of the seed switch %s is "
                             "its %s %c neighbour (%d candidates): not a fault-free %dx%dx%d "
                             "%s with this seed", sname(q, O), want_minus ? "negative" : "positive",
                             dimc[d], n, R[0], R[1], R[2], c->mesh[d] ? "mesh" : "torus");
        else
            (want_minus ? M : P)[d] = found;
    }
    /* Distances from O and its neighbours. */
    int *dO = xmalloc((size_t)q->ns * sizeof *dO);
    int *dP[3] = { 0 }, *dM[3] = { 0 };
    bfs(q, O, dO);
    for (int s2 = 0; s2 < q->ns && !rc; s2++)
        if (dO[s2] < 0)
            rc = ibn_err_set(e, "torus-2QoS: switch %s cannot be reached from %s", sname(q, s2),
                             sname(q, O));
    for (int d = 0; d < 3; d++) {
        if (P[d] >= 0) {
            dP[d] = xmalloc((size_t)q->ns * sizeof *dP[d]);
            bfs(q, P[d], dP[d]);
        }
        if (M[d] >= 0) {
            dM[d] = xmalloc((size_t)q->ns * sizeof *dM[d]);
            bfs(q, M[d], dM[d]);
        }
    }
    q->coord = xmalloc((size_t)q->ns * 3 * sizeof *q->coord);
    for (int i = 0; i < q->ns * 3; i++)
        q->coord[i] = -1;
    int *axis = xmalloc(((size_t)R[0] + (size_t)R[1] + (size_t)R[2]) * sizeof *axis);
    int *best = xmalloc((size_t)q->ns * sizeof *best), *nbest = xmalloc((size_t)q->ns * sizeof *nbest);
    for (int d = 0, base = 0; d < 3 && !rc; base += R[d], d++) {
        int *ax = axis + base;
        if (R[d] == 1) {
            for (int v = 0; v < q->ns; v++)
                q->coord[v * 3 + d] = 0;
            continue;
        }
        for (int a = 0; a < R[d]; a++)
            ax[a] = -1;
        for (int v = 0; v < q->ns && !rc; v++) {
            int on = 1;
            for (int x = 0; x < 3; x++)
                if (x != d && R[x] > 1)
                    on &= (!dP[x] || dP[x][v] == dO[v] + 1) && (!dM[x] || dM[x][v] == dO[v] + 1);
            if (!on)
                continue;
            int D = dO[v], r;
            if (!D)
                r = 0;
            else if (dP[d] && dP[d][v] < D)
                r = D;
            else if (dM[d] && dM[d][v] < D)
                r = -D;
            else if (!c->mesh[d] && 2 * D == R[d])
                r = D;
            else {
                rc = ibn_err_set(e, "torus-2QoS: %s seems to be on the %c axis through %s but its "
                                 "place on it is unclear: not a fault-free %dx%dx%d torus/mesh",
                                 sname(q, v), dimc[d], sname(q, O), R[0], R[1], R[2]);
                break;
            }
            int a = a0[d] + r;
            if (c->mesh[d] ? (a < 0 || a >= R[d]) : 0)
                rc = ibn_err_set(e, "torus-2QoS: %s would be at %c = %d, outside the mesh's 0-%d "
                                 "(a mesh dateline must keep the seed where the cabling puts it)",
                                 sname(q, v), dimc[d], a, R[d] - 1);
            else if (ax[a = canon(a, R[d])] >= 0)
                rc = ibn_err_set(e, "torus-2QoS: %s and %s both fall at %c = %d on the axis "
                                 "through %s: not a %dx%dx%d %s (check the radices)",
                                 sname(q, ax[a]), sname(q, v), dimc[d], a, sname(q, O), R[0], R[1],
                                 R[2], c->mesh[d] ? "mesh" : "torus");
            else
                ax[a] = v;
        }
        for (int a = 0; a < R[d] && !rc; a++)
            if (ax[a] < 0)
                rc = ibn_err_set(e, "torus-2QoS: no switch found at %c = %d on the axis through "
                                 "%s: not a fault-free %dx%dx%d %s (check the radices; missing "
                                 "switches and links are not handled)", dimc[d], a, sname(q, O),
                                 R[0], R[1], R[2], c->mesh[d] ? "mesh" : "torus");
        /* Every switch's coordinate: the nearest switch of the axis. */
        for (int v = 0; v < q->ns; v++) {
            best[v] = 1 << 30;
            nbest[v] = 0;
        }
        for (int a = 0; a < R[d] && !rc; a++) {
            bfs(q, ax[a], q->dist);
            for (int v = 0; v < q->ns; v++) {
                if (q->dist[v] < best[v]) {
                    best[v] = q->dist[v];
                    nbest[v] = 1;
                    q->coord[v * 3 + d] = a;
                } else if (q->dist[v] == best[v]) {
                    nbest[v]++;
                }
            }
        }
        for (int v = 0; v < q->ns && !rc; v++)
            if (nbest[v] != 1)
                rc = ibn_err_set(e, "torus-2QoS: %s is as near to %d switches of the %c axis: "
                                 "not a fault-free %dx%dx%d torus/mesh", sname(q, v), nbest[v],
                                 dimc[d], R[0], R[1], R[2]);
    }
    free(axis);
    free(best);
    free(nbest);
    free(dk);
    free(dO);
    for (int d = 0; d < 3; d++) {
        free(dP[d]);
        free(dM[d]);
    }
    if (rc)
        return -1;
    /* Verify: a bijection onto the grid, cables only between lattice neighbours, and every
     * lattice neighbour pair cabled. */
    q->grid = xmalloc((size_t)total * sizeof *q->grid);
    for (int i = 0; i < total; i++)
        q->grid[i] = -1;
    for (int v = 0; v < q->ns; v++) {
        const int *x = &q->coord[v * 3];
        int g = x[0] + R[0] * (x[1] + R[1] * x[2]);
        if (q->grid[g] >= 0)
            return ibn_err_set(e, "torus-2QoS: %s and %s both placed at %d,%d,%d: not a fault-free "
                               "%dx%dx%d torus/mesh", sname(q, q->grid[g]), sname(q, v), x[0], x[1],
                               x[2], R[0], R[1], R[2]);
        q->grid[g] = v;
    }
    for (int v = 0; v < q->ns; v++) {
        const int *x = &q->coord[v * 3];
        for (int k = 0; k < q->deg[v]; k++) {
            int w = q->nb[v * q->maxdeg + k], diff = 0, ok = 1;
            const int *y = &q->coord[w * 3];
            for (int d = 0; d < 3; d++) {
                if (x[d] == y[d])
                    continue;
                diff++;
                int delta = y[d] - x[d];
                if (!c->mesh[d])
                    delta = canon(delta, R[d]);
                ok &= c->mesh[d] ? (delta == 1 || delta == -1) : (delta == 1 || delta == R[d] - 1);
            }
            if (diff != 1 || !ok)
                return ibn_err_set(e, "torus-2QoS: %s (at %d,%d,%d) and %s (at %d,%d,%d) are "
                                   "cabled but are not neighbours in the %dx%dx%d %s: refused",
                                   sname(q, v), x[0], x[1], x[2], sname(q, w), y[0], y[1], y[2],
                                   R[0], R[1], R[2], c->mesh[0] && c->mesh[1] && c->mesh[2] ? "mesh" : "torus");
        }
        for (int d = 0; d < 3; d++) {
            if (R[d] == 1 || (c->mesh[d] && x[d] == R[d] - 1))
                continue;
            int y[3] = { x[0], x[1], x[2] };
            y[d] = canon(y[d] + 1, R[d]);
            int w = q->grid[y[0] + R[0] * (y[1] + R[1] * y[2])];
            if (!adjacent(q, v, w))
                return ibn_err_set(e, "torus-2QoS: no link between %s (at %d,%d,%d) and %s (at "
                                   "%d,%d,%d): routing around failed links and switches is not "
                                   "modelled (OpenSM's torus-2QoS does it): refused", sname(q, v),
                                   x[0], x[1], x[2], sname(q, w), y[0], y[1], y[2]);
        }
    }
    return 0;
}

/* ---- routing ----------------------------------------------------------------------------- */

/* OpenSM's ring_dir_idx: +1, -1 or 0; the shorter way, ties towards increasing coordinates
 * when dst > src. */
static int ring_dir(int src, int dst, int count)
{
    if (src == dst)
        return 0;
    int s = src < dst ? src : dst, l = src < dst ? dst : src;
    int direct = l - s, wrap = s + count - l;
    if (dst > src)
        return direct <= wrap ? 1 : -1;
    return direct <= wrap ? -1 : 1;
}

/* OpenSM's use_vl1: the shorter way wraps around. */
static int crosses(int src, int dst, int count)
{
    int s = src < dst ? src : dst, l = src < dst ? dst : src;
    return l - s > s + count - l;
}

/* The port of switch s to the neighbour one step in dimension d, direction dir (+1/-1). */
static int step_port(const struct t2q *q, int s, int d, int dir)
{
    const int *R = q->c->radix;
    int y[3] = { q->coord[s * 3], q->coord[s * 3 + 1], q->coord[s * 3 + 2] };
    y[d] = canon(y[d] + dir, R[d]);
    int w = q->grid[y[0] + R[0] * (y[1] + R[1] * y[2])];
    for (int k = 0; k < q->deg[s]; k++)
        if (q->nb[s * q->maxdeg + k] == w)
            return q->nbp[s * q->maxdeg + k];
    return -1;
}

/* The dimension a switch port points along (0-2), SRCSINK for CA ports, port 0, uncabled. */
static int port_dim(const struct t2q *q, int s, int p)
{
    int m = q->t->node[q->sw[s]].port[p].peer_node;
    if (!p || m < 0 || q->t->node[m].type != TOPO_SWITCH)
        return SRCSINK;
    int w = q->idx[m];
    for (int d = 0; d < 3; d++)
        if (q->coord[s * 3 + d] != q->coord[w * 3 + d])
            return d;
    return SRCSINK;
}

static void t2q_free(struct t2q *q)
{
    free(q->idx);
    free(q->sw);
    free(q->nb);
    free(q->nbp);
    free(q->deg);
    free(q->coord);
    free(q->grid);
    free(q->dist);
    free(q->queue);
}

int route_torus2qos(const struct topo *t, const struct route_opts *o, struct lfts *out,
                    struct ibn_err *e)
{
    struct t2q_conf conf;
    if (o->torus_conf && *o->torus_conf) {
        if (t2q_conf_read(o->torus_conf, &conf, e))
            return -1;
    } else if (t2q_conf_derive(t, &conf, e)) {
        ibn_err_prefix(e, "torus-2QoS needs a torus-2QoS.conf (torus_config) for this fabric: ");
        return ROUTE_UNFIT;
    }
    int nvl = o->max_vls ? o->max_vls : 8;
    if (nvl < 2)
        return ibn_err_set(e, "torus-2QoS needs at least 2 data VLs (max_vls = %d), as OpenSM "
                           "(ERR 4E48)", nvl);
    struct t2q q = { .t = t, .c = &conf };
    int rc = graph_build(&q, e);
    if (!rc)
        rc = place(&q, e);
    /* OpenSM's limits: port_order within every switch's ports, CA ports + port 0 per switch
     * within portgroup_max_ports. */
    for (int s = 0; !rc && s < q.ns; s++) {
        const struct topo_node *n = &t->node[q.sw[s]];
        int local = 1;
        for (int p = 0; p <= n->nports; p++)
            if (conf.port_order[p] > n->nports) {
                rc = ibn_err_at(e, conf.from, 0, "torus-2QoS: port_order names port %d, but "
                                "switch %s has %d ports (OpenSM's ERR 4E21)", conf.port_order[p],
                                n->name, n->nports);
                break;
            }
        for (int p = 1; p <= n->nports; p++)
            local += port_dim(&q, s, p) == SRCSINK && n->port[p].peer_node >= 0;
        if (!rc && local > conf.portgroup_max_ports)
            rc = ibn_err_set(e, "torus-2QoS: switch %s has %d CA ports and port 0, more than "
                             "portgroup_max_ports (%d): raise it in the configuration", n->name,
                             local, conf.portgroup_max_ports);
    }
    if (rc) {
        t2q_free(&q);
        return ROUTE_UNFIT;
    }
    const int *R = conf.radix;
    /* Forwarding tables: every switch to every torus switch's port 0 and CA ports. */
    for (int s = 0; s < q.ns; s++) {
        uint8_t *lft = out->table[q.sw[s]];
        for (int ds = 0; ds < q.ns; ds++) {
            int port = -1;
            if (ds != s) {
                for (int d = 0; d < 3 && port < 0; d++) {
                    int a = q.coord[s * 3 + d], b = q.coord[ds * 3 + d];
                    if (a == b)
                        continue;
                    int dir = conf.mesh[d] ? (b > a ? 1 : -1) : ring_dir(a, b, R[d]);
                    port = step_port(&q, s, d, dir);
                }
            }
            const struct topo_node *dn = &t->node[q.sw[ds]];
            for (int p = 0; p <= dn->nports; p++) {
                int lid, lmc;
                if (!p) {
                    lid = dn->port[0].lid;
                    lmc = dn->port[0].lmc;
                } else {
                    int m = dn->port[p].peer_node;
                    if (m < 0 || t->node[m].type == TOPO_SWITCH)
                        continue;
                    lid = t->node[m].port[dn->port[p].peer_port].lid;
                    lmc = t->node[m].port[dn->port[p].peer_port].lmc;
                }
                int dp = ds == s ? p : port;
                for (int k = 0; lid && dp >= 0 && k < (1 << lmc) && lid + k <= out->max_lid; k++)
                    lft[lid + k] = (uint8_t)dp;
            }
        }
    }
    /* Path SLs and SL2VL tables. */
    struct lft_vlmap *m = xcalloc(1, sizeof *m);
    m->nnodes = t->nnodes;
    m->nsw = q.ns;
    m->swidx = xmalloc(((size_t)t->nnodes + 1) * sizeof *m->swidx);
    memcpy(m->swidx, q.idx, (size_t)t->nnodes * sizeof *m->swidx);
    m->path_sl = xmalloc((size_t)q.ns * (size_t)q.ns);
    for (int a = 0; a < q.ns; a++)
        for (int b = 0; b < q.ns; b++) {
            int sl = 0;
            for (int d = 0; d < 3; d++)
                sl |= crosses(q.coord[a * 3 + d], q.coord[b * 3 + d], R[d]) << d;
            m->path_sl[(size_t)a * (size_t)q.ns + (size_t)b] = (uint8_t)sl;
        }
    m->sw = xcalloc((size_t)t->nnodes, sizeof *m->sw);
    int maxvl = 0;
    for (int s = 0; s < q.ns; s++) {
        const struct topo_node *n = &t->node[q.sw[s]];
        int np = n->nports + 1;
        uint8_t *tab = m->sw[q.sw[s]] = xmalloc((size_t)np * (size_t)np * 16);
        int *pd = xmalloc((size_t)np * sizeof *pd);
        for (int p = 0; p < np; p++)
            pd[p] = port_dim(&q, s, p);
        for (int in = 0; in < np; in++)
            for (int op = 0; op < np; op++)
                for (int sl = 0; sl < 16; sl++) {
                    int id = pd[in], od = pd[op], vl = 0;
                    if (od != SRCSINK) {
                        if (nvl >= 2)
                            vl |= (sl >> od) & 1;
                        if (nvl >= 4 && id != SRCSINK && id > od)
                            vl |= 2;
                        if (nvl >= 8)
                            vl |= ((sl >> 3) & 1) << 2;
                    } else if (nvl >= 2) {
                        vl |= (sl >> 3) & 1;
                    }
                    tab[((size_t)in * (size_t)np + (size_t)op) * 16 + (size_t)sl] = (uint8_t)vl;
                    if (vl > maxvl)
                        maxvl = vl;
                }
        free(pd);
    }
    for (int sl = 0; sl < 16; sl++)
        m->ca[sl] = (uint8_t)(nvl >= 2 ? (sl >> 3) & 1 : 0);
    m->nvl = maxvl + 1;
    out->vlmap = m;
    int nmesh = 0, ndim = 0;
    for (int d = 0; d < 3; d++) {
        ndim += R[d] > 1;
        nmesh += R[d] > 1 && conf.mesh[d];
    }
    snprintf(out->note, sizeof out->note, "%dx%dx%d %s (%s): 0,0,0 at %s; VLs 0-%d of %d",
             R[0], R[1], R[2], nmesh == ndim ? "mesh" : nmesh == 0 ? "torus" : "torus/mesh",
             conf.from, t->node[q.sw[q.grid[0]]].name, m->nvl - 1, nvl);
    t2q_free(&q);
    return 0;
}

/* ---- configuration derived from the switch names ----------------------------------------- */

int t2q_conf_derive(const struct topo *t, struct t2q_conf *c, struct ibn_err *e)
{
    conf_defaults(c);
    snprintf(c->from, sizeof c->from, "derived from the switch names");
    int nd = 0, ns = 0, R[3] = { 1, 1, 1 };
    for (int i = 0; i < t->nnodes; i++) {
        if (t->node[i].type != TOPO_SWITCH)
            continue;
        int x[3], n = 0, k = 0;
        const char *nm = t->node[i].name;
        int got = sscanf(nm, "S%d_%d_%d%n", &x[0], &x[1], &x[2], &n);
        if (got == 3 && !nm[n])
            k = 3;
        else if ((got = sscanf(nm, "S%d_%d%n", &x[0], &x[1], &n)) == 2 && !nm[n])
            k = 2;
        if (!k || (nd && k != nd))
            return ibn_err_set(e, "switch \"%s\" is not named S<x>_<y>[_<z>] as ibnetsim's "
                               "mesh and torus generators name them", nm);
        nd = k;
        for (int d = 0; d < k; d++) {
            if (x[d] < 0 || x[d] > 1023)
                return ibn_err_set(e, "switch \"%s\": coordinate out of range", nm);
            if (x[d] + 1 > R[d])
                R[d] = x[d] + 1;
        }
        ns++;
    }
    if (!ns)
        return ibn_err_set(e, "the fabric has no switches");
    char name[64];
    int node0 = topo_find(t, nd == 3 ? "S0_0_0" : "S0_0");
    if (node0 < 0)
        return ibn_err_set(e, "no switch S0_0%s", nd == 3 ? "_0" : "");
    c->given = 1;
    c->nseed = 1;
    struct t2q_seed *s = &c->seed[0];
    for (int d = 0; d < 3; d++) {
        c->radix[d] = R[d];
        c->mesh[d] = 1;
        if (R[d] == 1)
            continue;
        int at[2] = { R[d] - 1, 1 };
        for (int dir = 0; dir < 2; dir++) {
            int x[3] = { 0, 0, 0 };
            x[d] = at[dir];
            if (nd == 3)
                snprintf(name, sizeof name, "S%d_%d_%d", x[0], x[1], x[2]);
            else
                snprintf(name, sizeof name, "S%d_%d", x[0], x[1]);
            int m = topo_find(t, name);
            if (m < 0)
                return ibn_err_set(e, "no switch %s", name);
            int cabled = 0;
            for (int p = 1; p <= t->node[node0].nports; p++)
                cabled |= t->node[node0].port[p].peer_node == m;
            if (dir == 0) {
                /* A ring when the far end is cabled to S0..; radix 2 is a mesh, as in OpenSM. */
                if (!cabled || R[d] == 2)
                    continue;
                c->mesh[d] = 0;
            } else if (!cabled) {
                return ibn_err_set(e, "%s and %s are not cabled to each other: the switches are "
                                   "not laid out as a torus or mesh their names suggest",
                                   t->node[node0].name, name);
            }
            s->from[d][dir] = t->node[node0].guid;
            s->to[d][dir] = t->node[m].guid;
            s->has[d][dir] = 1;
        }
    }
    return 0;
}

/* ---- OpenSM's opensm-sl2vl.dump ------------------------------------------------------------ */

struct dport {
    uint64_t guid;
    int node, port;
};

static int cmp_dport(const void *a, const void *b)
{
    const struct dport *x = a, *y = b;
    return topo_guid_cmp_osm(x->guid, y->guid);
}

int t2q_sl2vl_dump_write(const char *path, const struct topo *t, const struct lfts *l,
                         struct ibn_err *e)
{
    const struct lft_vlmap *m = l->vlmap;
    if (!m)
        return ibn_err_set(e, "the routing engine (%s) programs no SL2VL tables: only torus-2QoS "
                           "does", *l->engine ? l->engine : "a dump");
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    FILE *f = o->fp;
    size_t cap = 16, n = 0;
    struct dport *v = xmalloc(cap * sizeof *v);
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        for (int p = nd->type == TOPO_SWITCH ? 0 : 1; p <= (nd->type == TOPO_SWITCH ? 0 : nd->nports); p++) {
            if (nd->type == TOPO_CA && nd->port[p].peer_node < 0)
                continue;
            if (n == cap)
                v = xrealloc(v, (cap *= 2) * sizeof *v);
            v[n++] = (struct dport){ topo_port_guid(t, i, p), i, p };
        }
    }
    qsort(v, n, sizeof *v, cmp_dport);
    static const char *const sepl = "#--------------------------------------------------------";
    for (size_t k = 0; k < n; k++) {
        const struct topo_node *nd = &t->node[v[k].node];
        int sw = nd->type == TOPO_SWITCH;
        fprintf(f, "%s 0x%016" PRIx64 ", base LID %d, \"%s\"\n%s\n%s\n",
                sw ? "Switch" : "Channel Adapter", v[k].guid, nd->port[v[k].port].lid, nd->desc,
                "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15", sepl);
        if (sw && m->sw[v[k].node]) {
            for (int op = 1; op <= nd->nports; op++) {
                if (nd->port[op].peer_node < 0)
                    continue;
                for (int in = 0; in <= nd->nports; in++) {
                    fprintf(f, "%-3d %-3d :", in, op);
                    for (int sl = 0; sl < 16; sl++)
                        fprintf(f, " %-2d", lft_vlmap_vl(m, t, v[k].node, in, op, sl));
                    fputc('\n', f);
                }
            }
        } else if (!sw) {
            fprintf(f, "%-3d %-3d :", 0, 0);
            for (int sl = 0; sl < 16; sl++)
                fprintf(f, " %-2d", m->ca[sl]);
            fputc('\n', f);
        }
        fprintf(f, "%s\n\n", sepl);
    }
    free(v);
    return out_close(o, e);
}

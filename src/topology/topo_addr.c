/* topo_addr.c: aliases, and resolving a node or a set of hosts from a LID, a GUID, an
 * ibnetdiscover id, a description, an alias, a list, a glob, switch:X or leaf:N
 * (see topo_addr.h). */
#include "topology/topo_addr.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first word of a description, reduced to characters that need no quoting. */
static void first_word(const char *desc, char *out, size_t len)
{
    size_t k = 0;
    for (const char *c = desc; *c && *c != ' ' && *c != '\t' && k + 1 < len; c++)
        if (isalnum((unsigned char)*c) || strchr("._-+", *c))
            out[k++] = *c;
    out[k] = 0;
}

struct word_ent {
    char word[64];
    int node;
};

static int cmp_word(const void *a, const void *b)
{
    const struct word_ent *x = a, *y = b;
    int c = strcmp(x->word, y->word);
    return c ? c : x->node - y->node;
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void topo_assign_aliases(struct topo *t)
{
    int n = t->nnodes;
    struct word_ent *w = xmalloc(((size_t)n + 1) * sizeof *w);
    for (int i = 0; i < n; i++) {
        const struct topo_node *nd = &t->node[i];
        w[i].node = i;
        if (!strchr(nd->name, ' '))
            snprintf(w[i].word, sizeof w[i].word, "%s", nd->name);
        else
            first_word(nd->desc && *nd->desc ? nd->desc : nd->name, w[i].word, sizeof w[i].word);
        if (!w[i].word[0])
            snprintf(w[i].word, sizeof w[i].word, "%c%d", nd->type == TOPO_SWITCH ? 'S' : 'H', i + 1);
    }
    qsort(w, (size_t)n, sizeof *w, cmp_word);
    for (int a = 0; a < n;) {
        int b = a + 1;
        while (b < n && !strcmp(w[a].word, w[b].word))
            b++;
        for (int k = a; k < b; k++) {
            struct topo_node *nd = &t->node[w[k].node];
            char alias[96];
            if (b - a == 1)
                snprintf(alias, sizeof alias, "%s", w[k].word);
            else
                snprintf(alias, sizeof alias, "%s-%d", w[k].word, k - a + 1);
            free(nd->alias);
            nd->alias = xstrdup(alias);
        }
        a = b;
    }
    free(w);
    /* An alias must not be another node's name or alias: such a node keeps its alias with
     * "~INDEX" appended (does not happen with the rules above unless names look like
     * aliases). */
    char **all = xmalloc(((size_t)2 * n + 1) * sizeof *all);
    for (int i = 0; i < n; i++) {
        all[2 * i] = t->node[i].name;
        all[2 * i + 1] = t->node[i].alias;
    }
    qsort(all, (size_t)2 * n, sizeof *all, cmp_strp);
    /* First find the clashes, then rename: `all` points at the aliases, so none may be freed
     * while it is searched (a fuzzed ibnetdiscover file found that use after free). */
    unsigned char *dup = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        struct topo_node *nd = &t->node[i];
        if (!strcmp(nd->alias, nd->name))
            continue;
        char **hit = bsearch(&nd->alias, all, (size_t)2 * n, sizeof *all, cmp_strp);
        size_t k = (size_t)(hit - all);
        dup[i] = (k > 0 && !strcmp(all[k - 1], nd->alias)) ||
                 (k + 1 < (size_t)2 * n && !strcmp(all[k + 1], nd->alias));
    }
    free(all);
    for (int i = 0; i < n; i++) {
        struct topo_node *nd = &t->node[i];
        if (dup[i]) {
            char alias[128];
            snprintf(alias, sizeof alias, "%s~%d", nd->alias, i + 1);
            free(nd->alias);
            nd->alias = xstrdup(alias);
        }
    }
    free(dup);
}

/* A GUID written as 0x + 1-16 hex digits, or 16 hex digits alone. */
static int parse_guid(const char *s, uint64_t *g)
{
    const char *h = s;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        h = s + 2;
    else if (strlen(s) != 16)
        return -1;
    size_t len = strlen(h);
    if (len == 0 || len > 16 || strspn(h, "0123456789abcdefABCDEF") != len)
        return -1;
    *g = strtoull(h, NULL, 16);
    return 0;
}

static int find_guid(const struct topo *t, uint64_t g, int *node, int *port)
{
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        if (nd->guid == g) {
            *node = i;
            *port = 0;
            return 0;
        }
        for (int p = 1; p <= nd->nports && nd->type == TOPO_CA; p++)
            if (nd->port[p].guid == g) {
                *node = i;
                *port = p;
                return 0;
            }
    }
    return -1;
}

static int find_lid(const struct topo *t, long lid, int *node, int *port)
{
    for (int i = 0; i < t->nnodes; i++) {
        const struct topo_node *nd = &t->node[i];
        for (int p = nd->type == TOPO_SWITCH ? 0 : 1; p <= (nd->type == TOPO_SWITCH ? 0 : nd->nports); p++) {
            const struct topo_port *x = &nd->port[p];
            if (x->lid && lid >= x->lid && lid < (long)x->lid + (1L << x->lmc)) {
                *node = i;
                *port = p;
                return 0;
            }
        }
    }
    return -1;
}

int topo_resolve(const struct topo *t, const char *spec, int *node, int *port, struct ibn_err *e)
{
    *port = 0;
    if (!spec || !*spec)
        return ibn_err_set(e, "an empty node name");
    if ((*node = topo_find(t, spec)) >= 0)
        return 0;
    if (!strncmp(spec, "lid:", 4)) {
        char *end;
        errno = 0;
        long lid = strtol(spec + 4, &end, 0);
        if (errno || end == spec + 4 || *end || lid < 1 || lid > 0xbfff)
            return ibn_err_set(e, "\"%s\": expected lid:N with a unicast LID 1-49151 (decimal or "
                               "0x hex)", spec);
        if (find_lid(t, lid, node, port))
            return ibn_err_set(e, "no port of the topology has LID %ld (0x%lx)", lid, lid);
        return 0;
    }
    uint64_t g;
    if ((spec[0] == 'H' || spec[0] == 'S') && spec[1] == '-' && !parse_guid(spec + 2, &g)) {
        if (find_guid(t, g, node, port))
            return ibn_err_set(e, "no node of the topology has GUID 0x%016" PRIx64 " (%s)", g, spec);
        if (t->node[*node].type != (spec[0] == 'H' ? TOPO_CA : TOPO_SWITCH))
            return ibn_err_set(e, "%s names a %s", spec,
                               t->node[*node].type == TOPO_CA ? "channel adapter" : "switch");
        *port = 0;
        return 0;
    }
    if (!parse_guid(spec, &g)) {
        if (find_guid(t, g, node, port))
            return ibn_err_set(e, "no node or port of the topology has GUID 0x%016" PRIx64, g);
        return 0;
    }
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].alias && !strcmp(t->node[i].alias, spec)) {
            *node = i;
            return 0;
        }
    int hits = 0, first = -1;
    for (int i = 0; i < t->nnodes; i++)
        if (t->node[i].desc && !strcmp(t->node[i].desc, spec) && hits++ == 0)
            first = i;
    if (hits == 1) {
        *node = first;
        return 0;
    }
    if (hits > 1)
        return ibn_err_set(e, "\"%s\" is the description of %d nodes (%s, ...): name one by its "
                           "alias, GUID or LID ('ibnetsim topo hosts' lists them)", spec, hits,
                           t->node[first].alias ? t->node[first].alias : t->node[first].name);
    /* NAME:PORT */
    const char *colon = strrchr(spec, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
        strlen(colon + 1) < 4) {
        char base[512];
        snprintf(base, sizeof base, "%.*s", (int)(colon - spec), spec);
        int p = atoi(colon + 1);
        if (!topo_resolve(t, base, node, port, e)) {
            if (p < 1 || p > t->node[*node].nports)
                return ibn_err_set(e, "\"%s\": %s has ports 1-%d", spec, t->node[*node].name,
                                   t->node[*node].nports);
            *port = p;
            return 0;
        }
    }
    return ibn_err_set(e, "\"%s\" is not a node of the topology (expected a name, an alias, "
                       "lid:N, a node or port GUID such as 0x0002c90300048248, an "
                       "ibnetdiscover id H-.../S-..., or a unique description; 'ibnetsim topo "
                       "hosts' lists them)", spec);
}

int topo_is_set(const char *spec)
{
    return !strcmp(spec, "*") || strpbrk(spec, ",*?[") || !strncmp(spec, "switch:", 7) ||
           !strncmp(spec, "leaf:", 5);
}

static void add_host(const struct topo *t, int node, char *seen, int *out, int *n)
{
    if (node >= 0 && t->node[node].type == TOPO_CA && !seen[node]) {
        seen[node] = 1;
        out[(*n)++] = node;
    }
}

/* The hosts cabled to switch s. */
static void add_switch_hosts(const struct topo *t, int s, char *seen, int *out, int *n)
{
    const struct topo_node *sw = &t->node[s];
    for (int p = 1; p <= sw->nports; p++)
        add_host(t, sw->port[p].peer_node, seen, out, n);
}

static int one_term(const struct topo *t, const char *term, char *seen, int *out, int *n,
                    struct ibn_err *e)
{
    int node, port;
    if (!strcmp(term, "*")) {
        for (int i = 0; i < t->nnodes; i++)
            add_host(t, i, seen, out, n);
        return 0;
    }
    if (!strncmp(term, "switch:", 7)) {
        if (topo_resolve(t, term + 7, &node, &port, e))
            return ibn_err_prefix(e, "%s: ", term);
        if (t->node[node].type != TOPO_SWITCH)
            return ibn_err_set(e, "%s: %s is not a switch", term, t->node[node].name);
        add_switch_hosts(t, node, seen, out, n);
        return 0;
    }
    if (!strncmp(term, "leaf:", 5)) {
        char *end;
        long k = strtol(term + 5, &end, 10);
        if (end == term + 5 || *end || k < 1)
            return ibn_err_set(e, "%s: expected leaf:N with N from 1 (the N-th switch that has "
                               "hosts, in topology order)", term);
        long seenleaves = 0;
        for (int i = 0; i < t->nnodes; i++) {
            const struct topo_node *sw = &t->node[i];
            if (sw->type != TOPO_SWITCH)
                continue;
            int has = 0;
            for (int p = 1; p <= sw->nports && !has; p++)
                has = sw->port[p].peer_node >= 0 && t->node[sw->port[p].peer_node].type == TOPO_CA;
            if (has && ++seenleaves == k) {
                add_switch_hosts(t, i, seen, out, n);
                return 0;
            }
        }
        return ibn_err_set(e, "%s: the topology has %ld switches with hosts", term, seenleaves);
    }
    if (strpbrk(term, "*?[")) {
        int before = *n;
        for (int i = 0; i < t->nnodes; i++) {
            const struct topo_node *nd = &t->node[i];
            if (fnmatch(term, nd->name, 0) == 0 || (nd->alias && fnmatch(term, nd->alias, 0) == 0))
                add_host(t, i, seen, out, n);
        }
        if (*n == before)
            return ibn_err_set(e, "\"%s\" matches no host name or alias", term);
        return 0;
    }
    if (topo_resolve(t, term, &node, &port, e))
        return -1;
    if (t->node[node].type != TOPO_CA)
        return ibn_err_set(e, "\"%s\" is a switch, not a host", term);
    add_host(t, node, seen, out, n);
    return 0;
}

int topo_host_set(const struct topo *t, const char *spec, int **out, struct ibn_err *e)
{
    int *o = xmalloc(((size_t)t->nnodes + 1) * sizeof *o);
    char *seen = xcalloc((size_t)t->nnodes + 1, 1);
    int n = 0, node, port;
    struct ibn_err ignore = { { 0 } };
    /* A whole name (descriptions may hold commas) first. */
    if (!topo_resolve(t, spec, &node, &port, &ignore) && t->node[node].type == TOPO_CA) {
        add_host(t, node, seen, o, &n);
    } else {
        char *s = xstrdup(spec), *save = NULL;
        int rc = 0;
        for (char *tok = strtok_r(s, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            char *end = tok + strlen(tok);
            while (end > tok && end[-1] == ' ')
                *--end = 0;
            rc = one_term(t, tok, seen, o, &n, e);
        }
        free(s);
        if (rc) {
            free(o);
            free(seen);
            return -1;
        }
    }
    /* Topology order. */
    int k = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (seen[i])
            o[k++] = i;
    free(seen);
    *out = o;
    return n;
}

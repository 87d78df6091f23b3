/* generate.c: the table of topology generators, argument parsing and selection by name. */
#include "topology/generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "topology/topo_addr.h"

static const struct topo_generator single_switch = {
    "single_switch", "ports=8 link=4xQDR delay=\"10 ns\": one switch, one CA (H1..Hn) per port",
    gen_single_switch };
static const struct topo_generator testbed002 = {
    "testbed002",
    "host_link=4xDDR isl=4xQDR delay=\"10 ns\": seed 002's testbed, H1-H3 on S1, H4-H7 on S2",
    gen_testbed002 };

static const struct topo_generator kary_ntree = {
    "kary_ntree",
    "k=4 n=3 link=4xQDR delay=\"10 ns\": k-ary n-tree, k^n hosts, n levels of k^(n-1) "
    "switches of 2k ports (seed 002 Paper VI: k=4, n=3..5)",
    gen_kary_ntree };
static const struct topo_generator fattree = {
    "fattree",
    "ports=36 levels=2 link=4xQDR delay=\"10 ns\": m-port n-tree, 2(m/2)^n hosts; "
    "ports=36 levels=2 is the 648-node Sun DS 648 Clos (36 leaves, 18 spines)",
    gen_fattree };
static const struct topo_generator clos3 = {
    "clos3",
    "ports=36 leaves=36 spines=18 hosts=18 link=4xQDR delay=\"10 ns\": three-stage Clos, "
    "hosts per leaf and leaves/spines given",
    gen_clos3 };
static const struct topo_generator mesh = {
    "mesh",
    "dims=4x4 hosts=1 ports=hosts+2*dims link=4xQDR delay=\"10 ns\": 2-D/3-D mesh "
    "(seed 003: dims=4x4 and 5x5, 5-port routers)",
    gen_mesh };
static const struct topo_generator torus = {
    "torus", "dims=4x4 hosts=1 ports=hosts+2*dims link=4xQDR delay=\"10 ns\": 2-D/3-D torus",
    gen_torus };
static const struct topo_generator irregular = {
    "irregular",
    "switches=16 ports=8 hosts=4 links=(all free ports) planar=0 link=4xQDR "
    "delay=\"10 ns\": random connected irregular network (seed 001: ports=8 hosts=4; "
    "seed 004: switches=15 ports=5 hosts=1 links=23 planar=1)",
    gen_irregular };

const struct topo_generator *const topo_generators[] = { &single_switch, &testbed002,
                                                         &kary_ntree, &fattree, &clos3, &mesh,
                                                         &torus, &irregular, NULL };

static void args_free(struct gen_args *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->key[i]);
        free(a->val[i]);
    }
}

static int args_parse(const char *text, struct gen_args *a, struct ibn_err *e)
{
    memset(a, 0, sizeof *a);
    char *s = xstrdup(text ? text : ""), *save = NULL;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        size_t len = strlen(tok);
        while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
            tok[--len] = 0;
        if (!*tok)
            continue;
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            int rc = ibn_err_set(e, "generator argument \"%s\" is not of the form key=value",
                                 tok);
            free(s); /* after the message: tok points into s */
            return rc;
        }
        if (a->n == 32) {
            free(s);
            return ibn_err_set(e, "too many generator arguments");
        }
        *eq = 0;
        a->key[a->n] = xstrdup(tok);
        a->val[a->n] = xstrdup(eq + 1);
        a->n++;
    }
    free(s);
    return 0;
}

static const char *arg_get(struct gen_args *a, const char *key)
{
    for (int i = 0; i < a->n; i++)
        if (!strcmp(a->key[i], key)) {
            a->used[i] = 1;
            return a->val[i];
        }
    return NULL;
}

int gen_arg_int(struct gen_args *a, const char *key, int def, int min, int max, int *out,
                struct ibn_err *e)
{
    const char *v = arg_get(a, key);
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < min || x > max)
        return ibn_err_set(e, "generator argument %s expects a whole number from %d to %d, got \"%s\"",
                           key, min, max, v);
    *out = (int)x;
    return 0;
}

int gen_arg_time(struct gen_args *a, const char *key, const char *def, simtime_t *out,
                 struct ibn_err *e)
{
    const char *v = arg_get(a, key);
    char why[256];
    if (units_parse_time(v ? v : def, out, why, sizeof why))
        return ibn_err_set(e, "generator argument %s: %s", key, why);
    return 0;
}

int gen_arg_link(struct gen_args *a, const char *key, const char *def, int *width,
                 enum ib_speed *speed, double *rate_bps, struct ibn_err *e)
{
    const char *v = arg_get(a, key);
    if (!v)
        v = def;
    *rate_bps = 0;
    if (ib_parse_width_speed(v, width, speed) == 0)
        return 0;
    char why[256];
    if (units_parse_rate(v, rate_bps, why, sizeof why) == 0) {
        *width = 4;
        *speed = IB_SDR;
        return 0;
    }
    return ibn_err_set(e, "generator argument %s expects a link such as 4xQDR or a rate such "
                       "as \"13.5 Gb/s\", got \"%s\"", key, v);
}

int topo_generate(const char *name, const char *args, uint64_t seed, struct topo *out,
                  struct ibn_err *e)
{
    const struct topo_generator *g = NULL;
    char list[512] = "";
    for (int i = 0; topo_generators[i]; i++) {
        if (!strcmp(topo_generators[i]->name, name))
            g = topo_generators[i];
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, topo_generators[i]->name, sizeof list - strlen(list) - 1);
    }
    if (!g)
        return ibn_err_set(e, "unknown topology generator \"%s\" (expected one of: %s)", name, list);
    struct gen_args a;
    if (args_parse(args, &a, e))
        return -1;
    topo_init(out);
    int rc = g->generate(&a, seed, out, e);
    for (int i = 0; rc == 0 && i < a.n; i++)
        if (!a.used[i])
            rc = ibn_err_set(e, "generator %s has no argument \"%s\" (it takes: %s)", name,
                             a.key[i], g->usage);
    args_free(&a);
    if (rc) {
        topo_free(out);
        return -1;
    }
    char src[512];
    snprintf(src, sizeof src, "%s %s", name, args ? args : "");
    out->source = xstrdup(src);
    topo_assign_lids(out, 0);
    topo_assign_guids(out);
    topo_assign_aliases(out);
    if (topo_check(out, e)) {
        topo_free(out);
        return -1;
    }
    return 0;
}

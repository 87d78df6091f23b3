/* gen_fattree.c: fat-tree generators.
 *  - kary_ntree (Petrini and Vanneschi): k^n hosts, n levels of k^(n-1) switches with 2k ports;
 *    ports 1..k go down, k+1..2k up (the top level's up ports stay free). Switch w (n-1 base-k
 *    digits) of level l links up to the k switches of level l+1 whose digits equal w's except
 *    digit l: up port k+1+d to the switch with digit l = d, arriving on its down port
 *    1 + (w's digit l). Seed 002 Paper VI: 4-ary 3-, 4- and 5-trees of 8-port switches.
 *  - fattree (the m-port n-tree of Lin, Chung and Huang): 2(m/2)^n hosts from m-port switches;
 *    two k-ary (n-1)-level subtrees (k = m/2) share a top level of k^(n-1) switches that use all m
 *    ports downwards. ports=36 levels=2 is the 648-node three-stage Clos of the Sun DataCenter
 *    InfiniBand Switch 648 (seed 002 Paper IV): 36 leaves of 18 hosts, 18 spines; ports=36
 *    levels=3 gives 11,664 hosts.
 *  - clos3: a three-stage Clos with explicit leaves, spines and hosts per leaf (oversubscribed
 *    or partly populated variants); each leaf spreads its up ports evenly over the spines.
 * Rank: 0 for leaves, increasing upwards. Names: S<level>_<index>, hosts H1..HN in leaf order. */
#include <stdio.h>
#include <stdlib.h>

#include "topology/generate.h"

struct link_args {
    int w;
    enum ib_speed sp;
    double rate;
    simtime_t delay;
};

static int link_args(struct gen_args *a, struct link_args *l, struct ibn_err *e)
{
    return gen_arg_link(a, "link", "4xQDR", &l->w, &l->sp, &l->rate, e) ||
           gen_arg_time(a, "delay", "10 ns", &l->delay, e);
}

static int ipow(int b, int x)
{
    long r = 1;
    for (int i = 0; i < x; i++) {
        r *= b;
        if (r > 10000000)
            return -1;
    }
    return (int)r;
}

/* Shared builder: `copies` subtrees of levels 0..n-2 (k^(n-1) switches each) under one top
 * level of k^(n-1) switches with copies*k down ports. copies = 1 is the k-ary n-tree. */
static int build_tree(struct topo *t, int k, int n, int copies, int sw_ports,
                      const struct link_args *l, struct ibn_err *e)
{
    int per = ipow(k, n - 1), hosts_total = ipow(k, n);
    if (per < 0 || hosts_total < 0 || (long)hosts_total * copies > 2000000)
        return ibn_err_set(e, "fat tree too large: %d-ary %d-tree", k, n);
    /* Node index of switch (copy, level, w): levels below the top have copies*per switches. */
    int nlow = n - 1;
    int *base = xmalloc((size_t)(n + 1) * sizeof *base);
    char name[48];
    for (int lev = 0; lev < n; lev++) {
        base[lev] = t->nnodes;
        int cnt = lev < nlow ? copies * per : per;
        for (int i = 0; i < cnt; i++) {
            snprintf(name, sizeof name, "S%d_%d", lev, i);
            int s = topo_add_node(t, TOPO_SWITCH, name, sw_ports);
            t->node[s].rank = lev;
        }
    }
    int h = 1, rc = 0;
    for (int c = 0; c < copies && !rc; c++)
        for (int w = 0; w < per && !rc; w++)
            for (int j = 0; j < k && !rc; j++) {
                snprintf(name, sizeof name, "H%d", h++);
                int x = topo_add_node(t, TOPO_CA, name, 1);
                int leaf = n == 1 ? base[0] + w : base[0] + c * per + w;
                rc = topo_connect(t, leaf, j + 1, x, 1, l->w, l->sp, l->rate, l->delay, e);
            }
    /* Digit d of w (base k), and w with digit d replaced. */
    for (int lev = 0; lev + 1 < n && !rc; lev++) {
        int pw = ipow(k, lev);
        for (int c = 0; c < copies && !rc; c++)
            for (int w = 0; w < per && !rc; w++) {
                int lower = base[lev] + c * per + w;
                int digit = (w / pw) % k;
                for (int d = 0; d < k && !rc; d++) {
                    int w2 = w + (d - digit) * pw;
                    int top = lev + 1 == nlow;
                    int upper = top ? base[lev + 1] + w2 : base[lev + 1] + c * per + w2;
                    int down_port = (top ? c * k : 0) + digit + 1;
                    rc = topo_connect(t, lower, k + 1 + d, upper, down_port, l->w, l->sp, l->rate,
                                      l->delay, e);
                }
            }
    }
    free(base);
    return rc;
}

int gen_kary_ntree(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int k, n;
    struct link_args l;
    if (gen_arg_int(a, "k", 4, 1, 127, &k, e) || gen_arg_int(a, "n", 3, 1, 12, &n, e) ||
        link_args(a, &l, e))
        return -1;
    (void)seed;
    return build_tree(t, k, n, 1, 2 * k, &l, e);
}

int gen_fattree(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int m, n;
    struct link_args l;
    if (gen_arg_int(a, "ports", 36, 2, 254, &m, e) || gen_arg_int(a, "levels", 2, 1, 8, &n, e) ||
        link_args(a, &l, e))
        return -1;
    if (m % 2)
        return ibn_err_set(e, "generator fattree: ports must be even (half go down, half up), "
                           "got %d", m);
    (void)seed;
    if (n == 1) /* one switch, all ports to hosts */
        return build_tree(t, m, 1, 1, m, &l, e);
    return build_tree(t, m / 2, n, 2, m, &l, e);
}

int gen_clos3(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    int r, leaves, spines, hpl;
    struct link_args l;
    if (gen_arg_int(a, "ports", 36, 2, 254, &r, e) ||
        gen_arg_int(a, "leaves", r, 1, 4096, &leaves, e) ||
        gen_arg_int(a, "spines", r / 2, 1, 4096, &spines, e) ||
        gen_arg_int(a, "hosts", r / 2, 0, r - 1, &hpl, e) || link_args(a, &l, e))
        return -1;
    int up = r - hpl;
    if (up % spines)
        return ibn_err_set(e, "generator clos3: the %d up ports of a leaf (ports - hosts) must "
                           "spread evenly over the %d spines", up, spines);
    int per = up / spines;
    if ((long)leaves * per > r)
        return ibn_err_set(e, "generator clos3: %d leaves x %d links need %d ports on each "
                           "spine, which has %d", leaves, per, leaves * per, r);
    char name[48];
    int lb = t->nnodes;
    for (int i = 0; i < leaves; i++) {
        snprintf(name, sizeof name, "S0_%d", i);
        int s = topo_add_node(t, TOPO_SWITCH, name, r);
        t->node[s].rank = 0;
    }
    int sb = t->nnodes;
    for (int i = 0; i < spines; i++) {
        snprintf(name, sizeof name, "S1_%d", i);
        int s = topo_add_node(t, TOPO_SWITCH, name, r);
        t->node[s].rank = 1;
    }
    int h = 1;
    for (int i = 0; i < leaves; i++)
        for (int j = 0; j < hpl; j++) {
            snprintf(name, sizeof name, "H%d", h++);
            int x = topo_add_node(t, TOPO_CA, name, 1);
            if (topo_connect(t, lb + i, j + 1, x, 1, l.w, l.sp, l.rate, l.delay, e))
                return -1;
        }
    for (int i = 0; i < leaves; i++)
        for (int j = 0; j < up; j++)
            if (topo_connect(t, lb + i, hpl + 1 + j, sb + j % spines, i * per + j / spines + 1,
                             l.w, l.sp, l.rate, l.delay, e))
                return -1;
    (void)seed;
    return 0;
}

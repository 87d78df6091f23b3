/* gen_mesh.c: 2-D and 3-D meshes and tori (seed 003's 4x4 and 5x5 meshes of 5-port routers).
 * dims=AxB or AxBxC switches; each switch has `hosts` CAs on ports 1..hosts, then for each
 * dimension d a port towards the lower neighbour (hosts+1+2d) and one towards the higher
 * (hosts+2+2d); ports defaults to hosts + 2 * dimensions. The torus adds wrap-around links
 * (a ring of 2 switches gets two parallel links). Switches are named S<x>_<y>[_<z>], hosts
 * H1..HN in switch order (x fastest); node rank is unused (-1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/generate.h"

static int parse_dims(const char *text, int dims[3], struct ibn_err *e)
{
    int nd = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 1024 || nd == 3)
            return ibn_err_set(e, "generator argument dims expects 2 or 3 sizes such as 4x4 or "
                               "4x4x4 (each 1-1024), got \"%s\"", text);
        dims[nd++] = (int)v;
        p = end;
        if (*p == 'x' || *p == 'X')
            p++;
        else if (*p)
            return ibn_err_set(e, "generator argument dims expects sizes separated by 'x', such "
                               "as 4x4, got \"%s\"", text);
    }
    if (nd < 2)
        return ibn_err_set(e, "generator argument dims expects 2 or 3 sizes such as 4x4 or "
                           "4x4x4, got \"%s\"", text);
    return nd;
}

static int gen_grid(struct gen_args *a, struct topo *t, int wrap, struct ibn_err *e)
{
    int hosts, ports, w;
    enum ib_speed sp;
    double rate;
    simtime_t delay;
    char dimtext[64];
    int dims[3] = { 1, 1, 1 };
    if (gen_arg_int(a, "hosts", 1, 0, 64, &hosts, e))
        return -1;
    /* dims is text; read it through the int helper's lookup by parsing "4x4". */
    const char *dv = NULL;
    for (int i = 0; i < a->n; i++)
        if (!strcmp(a->key[i], "dims")) {
            a->used[i] = 1;
            dv = a->val[i];
        }
    snprintf(dimtext, sizeof dimtext, "%s", dv ? dv : "4x4");
    int nd = parse_dims(dimtext, dims, e);
    if (nd < 0)
        return -1;
    if (gen_arg_int(a, "ports", hosts + 2 * nd, hosts + 2 * nd, 254, &ports, e) ||
        gen_arg_link(a, "link", "4xQDR", &w, &sp, &rate, e) ||
        gen_arg_time(a, "delay", "10 ns", &delay, e))
        return -1;
    int n = dims[0] * dims[1] * dims[2];
    int base = t->nnodes;
    char name[48];
    for (int i = 0; i < n; i++) {
        int x = i % dims[0], y = i / dims[0] % dims[1], z = i / dims[0] / dims[1];
        if (nd == 2)
            snprintf(name, sizeof name, "S%d_%d", x, y);
        else
            snprintf(name, sizeof name, "S%d_%d_%d", x, y, z);
        topo_add_node(t, TOPO_SWITCH, name, ports);
    }
    int h = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < hosts; j++) {
            snprintf(name, sizeof name, "H%d", h++);
            int c = topo_add_node(t, TOPO_CA, name, 1);
            if (topo_connect(t, base + i, j + 1, c, 1, w, sp, rate, delay, e))
                return -1;
        }
    int stride[3] = { 1, dims[0], dims[0] * dims[1] };
    for (int i = 0; i < n; i++) {
        int coord[3] = { i % dims[0], i / dims[0] % dims[1], i / dims[0] / dims[1] };
        for (int d = 0; d < nd; d++) {
            int next = coord[d] + 1;
            if (next == dims[d]) {
                if (!wrap || dims[d] < 2)
                    continue;
                next = 0;
            }
            int j = i + (next - coord[d]) * stride[d];
            if (topo_connect(t, base + i, hosts + 2 + 2 * d, base + j, hosts + 1 + 2 * d, w, sp,
                             rate, delay, e))
                return -1;
        }
    }
    return 0;
}

int gen_mesh(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    (void)seed;
    return gen_grid(a, t, 0, e);
}

int gen_torus(struct gen_args *a, uint64_t seed, struct topo *t, struct ibn_err *e)
{
    (void)seed;
    return gen_grid(a, t, 1, e);
}

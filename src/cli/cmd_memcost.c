/* cmd_memcost.c: `ibnetsim model memcost [key=value]... [--json]`: the memory an input port
 * needs in each switch architecture of seed 002 Papers V/VI (analytic/memcost.h: queues, CAM
 * lines, CAM and SRAM cells per line and per port, bytes), for one architecture or all of them,
 * printed exactly (integers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analytic/memcost.h"
#include "core/error.h"
#include "core/params.h"

static const char *const arch_names[] = { "all", "1q", "voqsw", "voqnet", "dbbm", "fbicm", "ccfit",
                                          "hfdi", "ecocc", NULL };

struct memcost_args {
    int arch;
    long long nodes, ports, special, dlist, dbbm_queues;
    uint64_t buffer, voqnet_queue;
};

#define OFF(f) offsetof(struct memcost_args, f)
static const struct param memcost_params[] = {
    { "arch", P_ENUM, OFF(arch), "all", "architecture, or all of them", arch_names, 0, 0 },
    { "nodes", P_INT, OFF(nodes), "1024", "end nodes N", NULL, 2, 1 << 30 },
    { "ports", P_INT, OFF(ports), "8", "switch ports", NULL, 2, 255 },
    { "special", P_INT, OFF(special), "2", "CFQs (FBICM, CCFIT) or HPQs (HFDI, EcoCC) per input", NULL, 1, 1024 },
    { "dlist", P_INT, OFF(dlist), "32", "destinations per CAM line D (HFDI, EcoCC; Paper VI: 8, 16, 32 "
      "for 64, 256, 1024 nodes); FBICM and CCFIT store one", NULL, 1, 1 << 30 },
    { "dbbm_queues", P_INT, OFF(dbbm_queues), "8", "DBBM: queues per input", NULL, 1, 1 << 20 },
    { "buffer", P_SIZE, OFF(buffer), "128 KiB", "data memory per input port (all but VOQnet; Paper VI: "
      "128 KB, Paper V: 64 KB)", NULL, 0, 0 },
    { "voqnet_queue", P_SIZE, OFF(voqnet_queue), "128 KiB", "VOQnet: bytes per destination queue (Paper "
      "VI: 64 packets of 2 KB; Paper V: 4 KB)", NULL, 0, 0 },
    PARAM_END,
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ibnetsim model memcost [key=value]... [--json]\n\n"
               "The memory per switch input port of the architectures of seed 002 Papers V/VI\n"
               "(Paper VI supplement section 8): queues, CAM lines, CAM cells per line\n"
               "(16 + D log2 N), SRAM cells per line (35), cells and bytes per port, and the data\n"
               "memory (VOQnet: N x voqnet_queue). dlist applies to HFDI and EcoCC; FBICM and CCFIT\n"
               "store one destination per line.\n\nkeys:\n");
    struct memcost_args a;
    char why[128], def[64];
    memset(&a, 0, sizeof a);
    params_set_defaults(memcost_params, &a, why, sizeof why);
    for (const struct param *p = memcost_params; p->key; p++) {
        param_format_value(p, &a, def, sizeof def);
        fprintf(f, "  %-12s %-8s %s\n", p->key, def, p->help);
    }
    fprintf(f, "\nexamples:\n  ibnetsim model memcost                       (Paper VI's 1024 nodes: EcoCC "
               "3339 cells, 418 B)\n  ibnetsim model memcost nodes=64 dlist=8 arch=ecocc --json\n");
}

int cmd_model_memcost(int argc, char **argv)
{
    struct memcost_args a;
    memset(&a, 0, sizeof a);
    char why[256];
    if (params_set_defaults(memcost_params, &a, why, sizeof why))
        ibn_panic("model memcost: bad default: %s", why);
    int json = 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(arg, "--json")) {
            json = 1;
            continue;
        }
        const char *eq = strchr(arg, '=');
        char key[64];
        if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof key) {
            fprintf(stderr, "ibnetsim model memcost: expected key=value, got \"%s\" (see 'ibnetsim model "
                            "memcost --help')\n", arg);
            return 2;
        }
        memcpy(key, arg, (size_t)(eq - arg));
        key[eq - arg] = 0;
        const struct param *p = params_find(memcost_params, key);
        if (!p) {
            char keys[512];
            params_list_keys(memcost_params, keys, sizeof keys);
            fprintf(stderr, "ibnetsim model memcost: no key \"%s\" (expected one of: %s)\n", key, keys);
            return 2;
        }
        if (param_set(p, &a, eq + 1, why, sizeof why)) {
            fprintf(stderr, "ibnetsim model memcost: %s\n", why);
            return 2;
        }
    }
    json_t *doc = json ? json_object() : NULL;
    if (!json)
        printf("%-7s %6s %9s %9s %10s %9s %9s %15s\n", "arch", "queues", "cam_lines", "cam/line",
               "sram/line", "cells", "cam_bytes", "data_bytes");
    for (int k = 1; arch_names[k]; k++) {
        if (a.arch && a.arch != k)
            continue;
        const char *name = arch_names[k];
        int isl = !strcmp(name, "fbicm") || !strcmp(name, "ccfit");
        struct memcost_in in = { .arch = name, .nodes = (int)a.nodes, .ports = (int)a.ports,
                                 .special = (int)a.special, .dlist = isl ? 1 : (int)a.dlist,
                                 .dbbm_queues = (int)a.dbbm_queues, .buffer = a.buffer,
                                 .voqnet_queue = a.voqnet_queue };
        struct memcost m;
        struct ibn_err e;
        if (memcost_compute(&in, &m, &e)) {
            fprintf(stderr, "ibnetsim model memcost: %s\n", e.msg);
            json_decref(doc);
            return 2;
        }
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "queues", json_integer(m.queues));
            json_object_set_new(o, "cam_lines", json_integer(m.cam_lines));
            json_object_set_new(o, "addr_bits", json_integer(m.addr_bits));
            json_object_set_new(o, "cam_cells_per_line", json_integer(m.cam_cells_line));
            json_object_set_new(o, "sram_cells_per_line", json_integer(m.sram_cells_line));
            json_object_set_new(o, "cam_cells", json_integer(m.cam_cells));
            json_object_set_new(o, "sram_cells", json_integer(m.sram_cells));
            json_object_set_new(o, "cells", json_integer(m.cells));
            json_object_set_new(o, "cam_bytes", json_integer(m.cam_bytes));
            json_object_set_new(o, "data_bytes", json_integer((json_int_t)m.data_bytes));
            json_object_set_new(doc, name, o);
        } else {
            printf("%-7s %6d %9d %9d %10d %9d %9d %15llu\n", name, m.queues, m.cam_lines, m.cam_cells_line,
                   m.sram_cells_line, m.cells, m.cam_bytes, (unsigned long long)m.data_bytes);
        }
    }
    if (json) {
        json_dumpf(doc, stdout, JSON_INDENT(2));
        putchar('\n');
        json_decref(doc);
    }
    return 0;
}

/* cmd_keys.c: `ibnetsim keys [--markdown]`: the scenario reference, printed from the same
 * parameter tables the scenario parser checks against: every section, every key, its type,
 * default and meaning. docs/scenario-keys.md is this command's --markdown output. */
#include <stdio.h>
#include <string.h>

#include "cc/ecnrate.h"
#include "cc/ibcc.h"
#include "config/connections.h"
#include "config/scenario.h"
#include "fabric/settings.h"
#include "fabric/mcast.h"
#include "traffic/arrival.h"
#include "traffic/pattern.h"

struct section_ref {
    const char *name;
    const char *about;
    const struct param *tab;
};

static const struct section_ref refs[] = {
    { "simulation", "the run: its length, warm-up, seed and sampling", sim_params },
    { "topology", "the fabric: a generator, a topology file or a list of links, and its routes "
                  "(besides these keys: `links = (\"S1:1 H1:1 4xQDR 10 ns\", ...)` and "
                  "`switches = [\"S1\", ...]`)", topo_params },
    { "fabric", "packets and flow control", fabric_params },
    { "switch", "switch architecture and timing", switch_params },
    { "hca", "host channel adapters", hca_params },
    { "isolation", "seed 002's congested-flow isolation switches (switch.arch = ccfit, ecocc, hfdi, fbicm): "
                   "isolation queues, CAM lines, thresholds in MTU packets (docs/isolation.md)",
      isol_params },
    { "draw", "hosts drawn at random from the run's seed, for flows to name as draw:hot, draw:hotK, "
              "draw:cold and draw:spotK in src and dst (seed 002 Paper VI's hot sources and hot "
              "spots; docs/isolation.md)", draw_params },
    { "transport", "the queue pairs' transport: unreliable datagram, or reliable connection with "
                   "ACKs through the fabric and a window (docs/transport.md)", transport_params },
    { "qos", "service levels, VL arbitration (OpenSM's forms); besides these keys, "
             "`sl2vl_pairs = (\"SWITCH IN OUT MAP\", ...)` sets a switch's SL-to-VL map for a port "
             "pair (IN or OUT 0: every port; MAP: 16 comma-separated VLs)", qos_params },
    { "cc", "congestion control: `plugin = \"none\"` (default) or `\"ibcc\"` (InfiniBand CC, IBA "
            "Annex A10; docs/cc.md), then the plug-in's keys; these are ibcc's", ibcc_params },
    { "cc (plugin = \"ecnrate\")", "seed 000's ECN rate control: two-counter marking, the mark in RC "
                                  "ACKs, PIPD / FIMD source rates per SL (docs/ecnrate.md); needs "
                                  "transport.mode = rc", ecnrate_params },
    { "cc (plugin = \"hostcredit\")", "seed 003's credit-based congestion control at the host: "
                                     "completion-queue credits as RC message windows (src/cc/"
                                     "hostcredit.c); needs transport.mode = rc", hostcredit_params },
    { "multicast", "multicast groups and replication (docs/multicast.md): these keys, then "
                   "`groups = ( { name = \"G1\"; mlid = 0xC000; members = \"H2,H9\"; sources = \"*\"; } )` "
                   "(one MLID per source from mlid on; flows send to dst = \"mcast:G1\")", mcast_params },
    { "output", "what a run writes besides summary.json", output_params },
    { "flows", "a list of groups, one per flow (queue pair), with these keys", flow_params },
    { "flows (arrival process)", "in the same flow groups: when messages arrive and how large", arrival_params },
    { "flows (pattern)", "in a flow group's `pattern = { ... }` group, instead of `dst`", pattern_params },
    { "connections", "connections with guarantees (seed 001; docs/qos.md): a request process "
                     "against admission control before the traffic; each admitted connection "
                     "becomes a flow at its reserved bandwidth and every port gets the "
                     "high-priority table admission built", conn_params },
};

static const char *type_name(const struct param *p)
{
    switch (p->type) {
    case P_INT: return "integer";
    case P_DOUBLE: return "number";
    case P_BOOL: return "true/false";
    case P_STRING: return "text";
    case P_TIME: return "time";
    case P_SIZE: return "size";
    case P_RATE: return "rate";
    case P_ENUM: return "choice";
    }
    return "?";
}

const char *keys_help(const char *dotted)
{
    const char *dot = strchr(dotted, '.'), *last = strrchr(dotted, '.');
    if (!dot)
        return NULL;
    size_t slen = (size_t)(dot - dotted);
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        /* "flows.NAME.load": a flow key; "cc.key": the plug-ins' sections too */
        if (strncmp(refs[i].name, dotted, slen) || (refs[i].name[slen] && refs[i].name[slen] != ' '))
            continue;
        const struct param *p = params_find(refs[i].tab, last + 1);
        if (p)
            return p->help;
    }
    return NULL;
}

int cmd_keys(int argc, char **argv)
{
    int md = argc > 1 && !strcmp(argv[1], "--markdown");
    if (argc > 1 && !md) {
        printf("usage: ibnetsim keys [--markdown]\n\nPrints every scenario section and key with its "
               "type, default and meaning.\nTimes take units (ps, ns, us, ms, s), sizes B, KiB, "
               "MiB, KB..., rates b/s, Gb/s, GB/s....\n");
        return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
    }
    if (md)
        printf("# Scenario keys\n\nGenerated by `ibnetsim keys --markdown` from the parameter tables "
               "the scenario parser checks against; do not edit by hand.\nTimes take a unit (ps, ns, "
               "us, ms, s), sizes a unit (B, KiB, MiB, GiB, KB, MB, GB; a bare number is bytes), rates "
               "a unit (b/s, Mb/s, Gb/s, B/s, GB/s, ...).\n");
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        const struct section_ref *r = &refs[i];
        if (md)
            printf("\n## %s\n\n%s.\n\n| key | type | default | meaning |\n|---|---|---|---|\n", r->name, r->about);
        else
            printf("\n%s: %s\n", r->name, r->about);
        for (const struct param *p = r->tab; p->key; p++) {
            char choices[512] = "";
            if (p->type == P_ENUM)
                for (int k = 0; p->choices[k]; k++) {
                    strncat(choices, k ? ", " : " (", sizeof choices - strlen(choices) - 1);
                    strncat(choices, p->choices[k], sizeof choices - strlen(choices) - 1);
                }
            if (*choices)
                strncat(choices, ")", sizeof choices - strlen(choices) - 1);
            const char *def = p->def ? (*p->def ? p->def : "\"\"") : "(required)";
            if (md)
                printf("| `%s` | %s%s | `%s` | %s |\n", p->key, type_name(p), choices, def, p->help);
            else
                printf("  %-16s %-10s default %-14s %s%s\n", p->key, type_name(p), def, p->help, choices);
        }
    }
    return 0;
}

/* scenario.c: reading scenario files (libconfig syntax) into struct scenario through the
 * modules' parameter tables, command-line overrides, and writing the resolved scenario. */
#include "config/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/connections.h"
#include "config/opensm_conf.h"
#include "fabric/vlcheck.h"
#include "core/units.h"
#include "routing/lft_dump.h"
#include "routing/pathbits.h"
#include "routing/route.h"
#include "topology/generate.h"
#include "topology/topo_addr.h"
#include "topology/topo_read.h"

#define SOFF(f) offsetof(struct sim_desc, f)
const struct param sim_params[] = {
    { "name", P_STRING, SOFF(name), "", "a name for the run (written into the results)", NULL, 0, 0 },
    { "duration", P_TIME, SOFF(duration), "10 ms", "simulated time of the measured run, from 0", NULL, 0, 0 },
    { "warmup", P_TIME, SOFF(warmup), "0 s",
      "statistics count from this time on (throughput: packets delivered; latency: messages created)",
      NULL, 0, 0 },
    { "seed", P_INT, SOFF(seed), "1", "seed of every random stream of the run", NULL, 0, 0 },
    { "sample_interval", P_TIME, SOFF(sample_interval), "1 ms",
      "interval of the time series (flows.csv, ports.csv); 0 = none", NULL, 0, 0 },
    { "drain_limit", P_TIME, SOFF(drain_limit), "1 s",
      "after the measured run (duration, or until_delivered's end), how long the fabric may take "
      "to deliver what is in flight before the run is declared stuck", NULL, 0, 0 },
    { "stall_limit", P_TIME, SOFF(stall_limit), "10 ms",
      "a run in which packets are in flight but none has moved on a link, reached a sink or been "
      "dropped for this long is declared stuck there and then (a deadlock), instead of at the "
      "end of the run; 0 = never (raise it for a sink slower than one packet per 10 ms)",
      NULL, 0, 0 },
    { "until_delivered", P_INT, SOFF(until_delivered), "0",
      "end the measured run at the first moment every flow has delivered this many packets in "
      "the measured period (seed 001's \"until the slowest connection has received 100 "
      "packets\"), or at duration if that comes first; summary.json's run.until_delivered says "
      "which; 0 = off; not in a distributed run", NULL, 0, 1e18 },
    PARAM_END,
};
#undef SOFF

static int check_slack(const void *field, char *why, size_t whylen)
{
    long long v = *(const long long *)field;
    if (v == -1 || (v >= 1 && v <= 64))
        return 0;
    snprintf(why, whylen, "path_slack must be 1-64 hops, or -1 for every simple path, got %lld", v);
    return -1;
}

#define TOFF(f) offsetof(struct topo_desc, f)
const struct param topo_params[] = {
    { "generator", P_STRING, TOFF(generator), "",
      "a topology generator (see `ibnetsim topo --help`); exclusive with file and links", NULL, 0, 0 },
    { "args", P_STRING, TOFF(args), "", "the generator's arguments, \"key=value,...\"", NULL, 0, 0 },
    { "file", P_STRING, TOFF(file), "",
      "a topology file: ibnetdiscover output or an ibsim net file (relative to the scenario)", NULL, 0, 0 },
    { "link", P_STRING, TOFF(link), "4xQDR",
      "default cable of `links` entries: width and speed (4xQDR) or a rate (\"13.5 Gb/s\")", NULL, 0, 0 },
    { "delay", P_TIME, TOFF(delay), "10 ns", "default propagation delay of `links` entries", NULL, 0, 0 },
    { "routing", P_STRING, TOFF(routing), "auto",
      "routing engine (see `ibnetsim route --help`), or a chain as OpenSM's routing_engine "
      "(\"ftree,updn\": an engine that cannot route the fabric passes to the next, minhop "
      "last); auto = ftree on the tree generators (kary_ntree, fattree, clos3: minhop "
      "saturates a k-ary n-tree far below its capacity), minhop otherwise", NULL, 0, 0 },
    { "lft_file", P_STRING, TOFF(lft_file), "",
      "forwarding tables from an OpenSM opensm-lfts.dump instead of a routing engine", NULL, 0, 0 },
    { "lmc", P_INT, TOFF(lmc), "0",
      "LMC multipath: every adapter port gets 2^lmc LIDs (assigned again) and the engine routes "
      "each; a flow's `path` picks one (refused when the LIDs exceed the 49,151 unicast LIDs); "
      "0-7 as IBA's LMC field, up to 15 with lmc_beyond_iba", NULL, 0, PB_SIM_MAX },
    { "lmc_beyond_iba", P_BOOL, TOFF(lmc_beyond_iba), "false",
      "allow an LMC (and routing = pathbits path bits) of 8 to 15, beyond IBA's 3-bit LMC field: "
      "seed 004 simulated its 15-node network with 9 path bits; a simulator-only extension, "
      "still bounded by the 49,151 unicast LIDs", NULL, 0, 0 },
    { "tie", P_STRING, TOFF(tie), "",
      "routing = spf: among equal shortest paths the lowest (default), highest or balance port",
      NULL, 0, 0 },
    { "roots", P_STRING, TOFF(roots), "",
      "routing = updn, updn_tree: root switches (names or GUIDs, \"best3\"); pathbits: the root "
      "of the BFS tree (default the switch of highest degree)", NULL, 0, 0 },
    { "root_guid_file", P_STRING, TOFF(root_guid_file), "",
      "routing = updn, updn_tree: the root switches from a file as OpenSM's root_guid_file "
      "(one GUID per line, # comments; relative to the scenario); instead of roots", NULL, 0,
      0 },
    { "guid_routing_order_file", P_STRING, TOFF(guid_routing_order_file), "",
      "routing = minhop, updn, dnup, dor: OpenSM's guid_routing_order_file: the port GUIDs it lists "
      "(one per line, # comments; relative to the scenario) are routed first, in its order",
      NULL, 0, 0 },
    { "guid_routing_order_no_scatter", P_BOOL, TOFF(order_no_scatter), "false",
      "routing = minhop, updn, dnup, dor: OpenSM's guid_routing_order_no_scatter: the ports of "
      "guid_routing_order_file are not scattered by scatter_ports", NULL, 0, 0 },
    { "port_prof_ignore_file", P_STRING, TOFF(port_prof_ignore_file), "",
      "routing = minhop, updn, dnup, dor: OpenSM's port_prof_ignore_file (opensm -i): lines "
      "\"SWITCH-GUID PORT\"; routes through those ports are not counted when balancing "
      "(relative to the scenario)", NULL, 0, 0 },
    { "cn_guid_file", P_STRING, TOFF(cn_guid_file), "",
      "routing = ftree, sssp, dfsssp: OpenSM's cn_guid_file (opensm -u): the compute nodes' port "
      "GUIDs (one per line, # comments; relative to the scenario); ftree spreads over them first, "
      "(df)sssp routes to them first", NULL, 0, 0 },
    { "io_guid_file", P_STRING, TOFF(io_guid_file), "",
      "routing = ftree, sssp, dfsssp: OpenSM's io_guid_file (opensm -G): the I/O nodes' port GUIDs; "
      "ftree routes them after the compute nodes (OpenSM's max_reverse_hops 0), (df)sssp after "
      "the compute nodes and before the rest", NULL, 0, 0 },
    { "port_shifting", P_BOOL, TOFF(port_shifting), "false",
      "routing = minhop, updn, dnup, dor: OpenSM's port_shifting (among the least-loaded least-hop "
      "ports, start from an offset that differs between switches so LIDs do not align)",
      NULL, 0, 0 },
    { "scatter_ports", P_INT, TOFF(scatter_ports), "0",
      "routing = minhop, updn, dnup, dor: OpenSM's scatter_ports seed (0 = off): each base-LID entry "
      "goes to a random one of the least-loaded least-hop ports, drawn as OpenSM draws it",
      NULL, 0, 4294967295.0 },
    { "torus_config", P_STRING, TOFF(torus_config), "",
      "routing = torus-2QoS: OpenSM's torus-2QoS.conf (the radices, torus or mesh, the seed "
      "switches and datelines; relative to the scenario); \"\" = derived from S<x>_<y>[_<z>] switch "
      "names (the mesh and torus generators). The engine programs VLs by fabric.vls as OpenSM "
      "by the switches' VLCap: 2 (datelines), 4 (+ turns), 8 (+ 2 QoS levels, SL bit 3)",
      NULL, 0, 0 },
    { "path_bits", P_INT, TOFF(path_bits), "0",
      "routing = pathbits: 0 = one path bit per independent cycle (at most 7 fit IBA's LMC, 15 "
      "with lmc_beyond_iba); K keeps the first K cycles and leaves the other non-tree links "
      "unused (the LMC-limited form). With lmc = 0 the LMC is set to the number of path bits",
      NULL, 0, PB_SIM_MAX },
    { "path_slack", P_INT, TOFF(path_slack), "4",
      "routing = pathbits: the simple paths given path-bit patterns are those up to shortest + "
      "path_slack hops (1-64; -1 = every simple path); longer detours fall back as conflicts do",
      NULL, -1, 64, check_slack },
    PARAM_END,
};
#undef TOFF

static const char *const progress_names[] = { "never", "terminal", NULL };
static const char *const payload_names[] = { "zeros", "pattern", NULL };
#define OOFF(f) offsetof(struct output_desc, f)
const struct param output_params[] = {
    { "flow_series", P_BOOL, OOFF(flow_series), "true", "write flows.csv: throughput of every flow per sample interval", NULL, 0, 0 },
    { "capture_ports", P_STRING, OOFF(capture_ports), "",
      "write capture.pcap for Wireshark: the packets on these links, both directions "
      "(\"NODE:PORT,NODE,...\"; a node alone: all its links); \"\" = no capture",
      NULL, 0, 0 },
    { "capture_flows", P_STRING, OOFF(capture_flows), "",
      "only these flows' packets and the ACKs and CNPs about them (\"A,B\"); \"\" = all",
      NULL, 0, 0 },
    { "capture_start", P_TIME, OOFF(capture_start), "0 s", "capture from this time", NULL, 0, 0 },
    { "capture_stop", P_TIME, OOFF(capture_stop), "0 s",
      "capture until this time (0 = the end of the run, drain included)", NULL, 0, 0 },
    { "capture_payload", P_ENUM, OOFF(capture_payload), "zeros",
      "payload bytes in the capture: zeros, or pattern (the byte's offset mod 256)",
      payload_names, 0, 0 },
    { "timeline_ports", P_STRING, OOFF(timeline_ports), "",
      "write timeline.json, a Chrome trace-event / Perfetto timeline of these links, both "
      "directions (\"NODE:PORT,NODE,...\"; a node alone: all its links; \"*\": every link): "
      "packets as spans per sending port, receive buffers and credits per VL and the CCTIs of "
      "flows sent on them as counters, FECN marks, BECNs, CNPs and drops as instants; \"\" = "
      "no timeline", NULL, 0, 0 },
    { "timeline_flows", P_STRING, OOFF(timeline_flows), "",
      "only these flows' packets, marks and CCTIs on the timeline (\"A,B\"; the ACKs and CNPs "
      "about them included); \"\" = all", NULL, 0, 0 },
    { "timeline_start", P_TIME, OOFF(timeline_start), "0 s", "the timeline from this time",
      NULL, 0, 0 },
    { "timeline_stop", P_TIME, OOFF(timeline_stop), "0 s",
      "the timeline until this time (0 = the end of the run, drain included)", NULL, 0, 0 },
    { "timeline_max_events", P_INT, OOFF(timeline_max_events), "1000000",
      "at most this many events on the timeline (about 56 bytes of memory each while the run "
      "lasts): when reached, timeline.json ends at that moment and the run warns",
      NULL, 1, 1e9 },
    { "flow_latency", P_BOOL, OOFF(flow_latency), "false",
      "write flow-latency.csv: every flow's network and end-to-end packet latency distribution "
      "(the rows of latency.csv per flow, from the histograms kept anyway), for the per-flow "
      "CDFs of ibnetsim plot", NULL, 0, 0 },
    { "port_series", P_BOOL, OOFF(port_series), "true", "write ports.csv: receive-buffer occupancy of every switch port per sample interval", NULL, 0, 0 },
    { "counter_series", P_BOOL, OOFF(counter_series), "false", "write counters.csv: every cabled port's perfquery counters (PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts, PortXmitWait, per VL) and link utilisation per interval, with LID and GUID; intervals end at each sample and at the start and end of the measured period", NULL, 0, 0 },
    { "queue_series", P_BOOL, OOFF(queue_series), "false", "write queues.csv: per sample, the switch input queues holding a packet, CAM lines allocated and input ports with every special queue taken, summed over the fabric (seed 002 Papers V/VI)", NULL, 0, 0 },
    { "progress", P_ENUM, OOFF(progress), "terminal", "a progress line on standard error: never, or when it is a terminal", progress_names, 0, 0 },
    { "jitter_k", P_INT, OOFF(jitter_k), "8",
      "jitter of constant-rate and video flows: the share of messages arriving within +-period/k "
      "of the previous arrival plus one period (seed 001)", NULL, 1, 1e6 },
    { "contributors", P_STRING, OOFF(contributors), "",
      "flows (\"F2,F3,...\") whose treatment variation (seed 002 Paper III) is measured over the "
      "sample intervals in which all of them run", NULL, 0, 0 },
    PARAM_END,
};
#undef OOFF

#define FOFF(f) offsetof(struct flow_desc, f)
const struct param flow_params[] = {
    { "name", P_STRING, FOFF(name), NULL, "the flow's name (unique)", NULL, 0, 0 },
    { "src", P_STRING, FOFF(src), NULL, "source adapter (node name, NAME:PORT, or \"*\" for one flow per host; "
      "draw:hot, draw:hotK, draw:cold, draw:spotK: hosts the draw section drew)", NULL, 0, 0 },
    { "dst", P_STRING, FOFF(dst), "", "destination adapter, \"uniform\" (a random other host per "
      "message), \"mcast:GROUP\" (a group of the multicast section), or draw:spotK (a hot spot the "
      "draw section drew; another draw:... set is a destination group); leave out when the flow "
      "has a `pattern = { kind = ...; }` group", NULL, 0, 0 },
    { "sl", P_INT, FOFF(sl), "0", "service level 0-15", NULL, 0, 15 },
    { "class", P_STRING, FOFF(cls), "",
      "traffic class (a name in qos.classes, e.g. DBTS); sets sl from that table", NULL, 0, 0 },
    { "start", P_TIME, FOFF(start), "0 s", "when the flow starts", NULL, 0, 0 },
    { "stop", P_TIME, FOFF(stop), "0 s", "when the flow stops (0 = at the end of the run)", NULL, 0, 0 },
    { "load", P_DOUBLE, FOFF(load), "0.0",
      "offered load as a fraction of the source link's data rate; if > 0 it sets `rate`; "
      "counted in payload bytes unless load_counts = wire (a video source: scales its mean frame "
      "sizes to that rate)", NULL, 0, 1e6 },
    { "load_counts", P_ENUM, FOFF(load_counts), "payload",
      "what `load` measures: payload = message bytes (load 1.0 offers more than the link "
      "carries once headers are added); wire = bytes on the link, headers (LRH, BTH, ICRC, "
      "VCRC, GRH if on) and padding included (a message size distribution uses its mean size)",
      load_counts_names, 0, 0 },
    { "path", P_ENUM, FOFF(path), "base",
      "which of the destination's 2^LMC LIDs (paths) the queue pair uses: base (the base LID), "
      "qp (fixed per queue pair: offset = QP number mod 2^LMC), message (round robin per "
      "message), random (uniform per packet: datagrams), shortest (the LID whose route has the "
      "fewest hops, lowest offset on ties: a connection's probe), adaptive (chosen at each switch "
      "by switch.adaptive: datagrams)", flow_path_names, 0, 0 },
    { "lanes", P_STRING, FOFF(lanes), "",
      "seed 000's threshold schemes (ET, AJT): \"SHARE[,T:SHARE...]\": the flow's packets leave "
      "its adapter at SHARE x the link's data rate while it holds at most T messages at its "
      "source (waiting plus the one being sent), the next SHARE above T (a borrowed lane), e.g. "
      "\"0.5,8:1\"; \"\" = the link's rate (docs/analytic.md section 11)", NULL, 0, 0 },
    PARAM_END,
};
#undef FOFF

/* ---------------------------------------------------------------- reading ---- */

struct loader {
    const char *file;
    struct ibn_err *e;
};

static int setting_text(const config_setting_t *s, char *buf, size_t len)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(buf, len, "%lld", (long long)config_setting_get_int64(s));
        return 0;
    case CONFIG_TYPE_FLOAT:
        snprintf(buf, len, "%.17g", config_setting_get_float(s));
        return 0;
    case CONFIG_TYPE_BOOL:
        snprintf(buf, len, "%s", config_setting_get_bool(s) ? "true" : "false");
        return 0;
    case CONFIG_TYPE_STRING:
        snprintf(buf, len, "%s", config_setting_get_string(s));
        return 0;
    default:
        return -1;
    }
}

static int err_at(struct loader *L, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int err_at(struct loader *L, const config_setting_t *s, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = config_setting_source_file(s);
    return ibn_err_at(L->e, file ? file : L->file, (int)config_setting_source_line(s), "%s", msg);
}

/* Set one key of a parameter table from a setting. */
static int set_from(struct loader *L, const char *section, const struct param *tab, void *obj,
                    const config_setting_t *s)
{
    const char *key = config_setting_name(s);
    const struct param *p = params_find(tab, key);
    if (!p) {
        char keys[1024];
        params_list_keys(tab, keys, sizeof keys);
        return err_at(L, s, "unknown key \"%s\" in %s (expected one of: %s)", key, section, keys);
    }
    char text[1024], why[512];
    if (setting_text(s, text, sizeof text))
        return err_at(L, s, "%s.%s must be a single value, not a list or group", section, key);
    if (param_set(p, obj, text, why, sizeof why)) {
        /* The parameter's message starts with its key: name it with its section instead. */
        size_t kl = strlen(key);
        const char *rest = !strncmp(why, key, kl) ? why + kl : why;
        if (rest != why && (*rest == ':' || *rest == ' '))
            return err_at(L, s, "%s.%s%s", section, key, rest);
        return err_at(L, s, "%s.%s: %s", section, key, why);
    }
    return 0;
}

static int read_group(struct loader *L, const config_setting_t *g, const char *section,
                      const struct param *tab, void *obj)
{
    if (!config_setting_is_group(g))
        return err_at(L, g, "%s must be a group: %s = { key = value; ... };", section, section);
    for (int i = 0; i < config_setting_length(g); i++)
        if (set_from(L, section, tab, obj, config_setting_get_elem(g, i)))
            return -1;
    return 0;
}

static int read_string_list(struct loader *L, const config_setting_t *s, const char *what,
                            char ***out, int *n)
{
    if (!config_setting_is_aggregate(s) || config_setting_is_group(s))
        return err_at(L, s, "%s must be a list of strings: [\"...\", \"...\"]", what);
    *n = config_setting_length(s);
    *out = xcalloc((size_t)*n + 1, sizeof **out);
    for (int i = 0; i < *n; i++) {
        const config_setting_t *x = config_setting_get_elem(s, i);
        if (config_setting_type(x) != CONFIG_TYPE_STRING)
            return err_at(L, x, "%s entry %d must be a string", what, i + 1);
        (*out)[i] = xstrdup(config_setting_get_string(x));
    }
    return 0;
}

static int read_topology(struct loader *L, const config_setting_t *g, struct topo_desc *t)
{
    if (!config_setting_is_group(g))
        return err_at(L, g, "topology must be a group: topology = { generator = \"...\"; };");
    t->line = (int)config_setting_source_line(g);
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, i);
        const char *key = config_setting_name(s);
        if (!strcmp(key, "links")) {
            if (read_string_list(L, s, "topology.links", &t->links, &t->nlinks))
                return -1;
        } else if (!strcmp(key, "switches")) {
            if (read_string_list(L, s, "topology.switches", &t->switches, &t->nswitches))
                return -1;
        } else if (set_from(L, "topology", topo_params, t, s)) {
            if (!params_find(topo_params, key))
                ibn_err_prefix(L->e, "%s", ""), strncat(L->e->msg, ", links, switches",
                                                        sizeof L->e->msg - strlen(L->e->msg) - 1);
            return -1;
        }
    }
    int given = (*t->generator != 0) + (*t->file != 0) + (t->nlinks > 0);
    if (given != 1)
        return ibn_err_at(L->e, L->file, t->line, "topology needs exactly one of generator, file "
                          "or links (%d given)", given);
    return 0;
}

static int flow_defaults(struct flow_desc *fd)
{
    char why[256];
    memset(fd, 0, sizeof *fd);
    if (params_set_defaults(flow_params, fd, why, sizeof why) ||
        params_set_defaults(arrival_params, &fd->arr, why, sizeof why))
        ibn_panic("bad built-in flow default: %s", why);
    return 0;
}

static int read_flows(struct loader *L, const config_setting_t *list, struct scenario *sc)
{
    if (!config_setting_is_list(list) && !config_setting_is_array(list))
        return err_at(L, list, "flows must be a list of groups: flows = ( { name = \"F1\"; ... }, ... );");
    int n = config_setting_length(list);
    sc->flows = xcalloc((size_t)n + 1, sizeof *sc->flows);
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(list, i);
        if (!config_setting_is_group(g))
            return err_at(L, g, "flows entry %d must be a group { name = ...; src = ...; dst = ...; }", i + 1);
        struct flow_desc *fd = &sc->flows[sc->nflows++];
        flow_defaults(fd);
        fd->file = L->file;
        fd->line = (int)config_setting_source_line(g);
        for (int k = 0; k < config_setting_length(g); k++) {
            const config_setting_t *s = config_setting_get_elem(g, k);
            const char *key = config_setting_name(s);
            if (!strcmp(key, "pattern")) {
                char why[256];
                if (params_set_defaults(pattern_params, &fd->pat, why, sizeof why))
                    ibn_panic("bad built-in pattern default: %s", why);
                if (read_group(L, s, "flow.pattern", pattern_params, &fd->pat))
                    return -1;
                fd->has_pattern = 1;
                continue;
            }
            int rc = params_find(flow_params, key) ? set_from(L, "flow", flow_params, fd, s)
                     : params_find(arrival_params, key) ? set_from(L, "flow", arrival_params, &fd->arr, s)
                                                        : -2;
            if (rc == -2) {
                char a[1024], b[1024];
                params_list_keys(flow_params, a, sizeof a);
                params_list_keys(arrival_params, b, sizeof b);
                return err_at(L, s, "unknown key \"%s\" in a flow (expected one of: %s, %s)", key, a, b);
            }
            if (rc)
                return -1;
        }
        for (const struct param *p = flow_params; p->key; p++)
            if (!p->def && !*(char **)((char *)fd + p->offset))
                return ibn_err_at(L->e, L->file, fd->line, "flow %d has no %s (%s)", i + 1, p->key, p->help);
        if (!*fd->dst && !fd->has_pattern)
            return ibn_err_at(L->e, L->file, fd->line, "flow %s has no destination: give dst = \"H2\" "
                              "or \"uniform\", or a pattern = { kind = \"...\"; } group", fd->name);
        if (*fd->dst && fd->has_pattern)
            return ibn_err_at(L->e, L->file, fd->line, "flow %s has both dst and a pattern: give one",
                              fd->name);
        for (int j = 0; j < sc->nflows - 1; j++)
            if (!strcmp(sc->flows[j].name, fd->name))
                return ibn_err_at(L->e, L->file, fd->line, "two flows are named \"%s\"", fd->name);
    }
    return 0;
}

/* The multicast section: the scheme's keys and the list of groups
 * groups = ( { name = "G1"; mlid = 0xC000; members = "H2,H9"; sources = "*"; }, ... ). */
static int read_multicast(struct loader *L, const config_setting_t *g, struct mcast_desc *d)
{
    if (!config_setting_is_group(g))
        return err_at(L, g, "multicast must be a group: multicast = { scheme = \"sync\"; groups = "
                      "( { name = \"G1\"; mlid = 0xC000; members = \"H2,H9\"; } ); };");
    for (int k = 0; k < config_setting_length(g); k++) {
        const config_setting_t *x = config_setting_get_elem(g, k);
        if (strcmp(config_setting_name(x), "groups")) {
            if (set_from(L, "multicast", mcast_params, d, x))
                return -1;
            continue;
        }
        if (!config_setting_is_list(x))
            return err_at(L, x, "multicast.groups must be a list of groups: groups = ( { name = "
                          "\"G1\"; mlid = 0xC000; members = \"H2,H9\"; }, ... );");
        int n = config_setting_length(x);
        d->groups = xcalloc((size_t)n + 1, sizeof *d->groups);
        for (int i = 0; i < n; i++) {
            const config_setting_t *gs = config_setting_get_elem(x, i);
            struct mgroup_desc *gd = &d->groups[d->ngroups++];
            gd->mlid = -1;
            gd->file = L->file;
            gd->line = (int)config_setting_source_line(gs);
            if (!config_setting_is_group(gs))
                return err_at(L, gs, "multicast.groups entry %d must be a group { name = ...; mlid = "
                              "...; members = ...; }", i + 1);
            for (int j = 0; j < config_setting_length(gs); j++) {
                const config_setting_t *y = config_setting_get_elem(gs, j);
                const char *key = config_setting_name(y);
                char **str = !strcmp(key, "name") ? &gd->name : !strcmp(key, "members") ? &gd->members
                             : !strcmp(key, "sources") ? &gd->sources : NULL;
                if (str && config_setting_type(y) == CONFIG_TYPE_STRING) {
                    free(*str);
                    *str = xstrdup(config_setting_get_string(y));
                } else if (str) {
                    return err_at(L, y, "multicast group %s must be a string", key);
                } else if (!strcmp(key, "mlid")) {
                    char text[64], *end;
                    if (setting_text(y, text, sizeof text))
                        return err_at(L, y, "multicast group mlid must be a number such as 0xC000");
                    gd->mlid = strtoll(text, &end, 0);
                    if (*end || end == text || !lid_is_mcast((int)gd->mlid) || gd->mlid > MLID_LAST)
                        return err_at(L, y, "multicast group mlid must be a multicast LID 0x%04X-0x%04X, "
                                      "not %s", MLID_FIRST, MLID_LAST, text);
                } else {
                    return err_at(L, y, "unknown key \"%s\" in a multicast group (expected one of: "
                                  "name, mlid, members, sources)", key);
                }
            }
            const char *missing = !gd->name ? "name" : !gd->members ? "members" : gd->mlid < 0 ? "mlid" : NULL;
            if (missing)
                return ibn_err_at(L->e, L->file, gd->line, "multicast group %d has no %s", i + 1, missing);
            if (!gd->sources)
                gd->sources = xstrdup("*");
        }
    }
    return 0;
}

static const struct section {
    const char *name;
    const struct param *tab;
    size_t offset;
} sections[] = {
    { "simulation", sim_params, offsetof(struct scenario, sim) },
    { "fabric", fabric_params, offsetof(struct scenario, set) },
    { "switch", switch_params, offsetof(struct scenario, set) },
    { "hca", hca_params, offsetof(struct scenario, set) },
    { "transport", transport_params, offsetof(struct scenario, set) },
    { "isolation", isol_params, offsetof(struct scenario, set) },
    { "draw", draw_params, offsetof(struct scenario, set) },
    { "qos", qos_params, offsetof(struct scenario, qos) },
    { "output", output_params, offsetof(struct scenario, out) },
    { "connections", conn_params, offsetof(struct scenario, conns) },
};
#define NSECTIONS (sizeof sections / sizeof sections[0])

static void defaults(struct scenario *sc)
{
    char why[256];
    memset(sc, 0, sizeof *sc);
    fabric_settings_defaults(&sc->set);
    qos_desc_defaults(&sc->qos);
    mcast_desc_defaults(&sc->mc);
    if (params_set_defaults(sim_params, &sc->sim, why, sizeof why) ||
        params_set_defaults(topo_params, &sc->topo, why, sizeof why) ||
        params_set_defaults(output_params, &sc->out, why, sizeof why))
        ibn_panic("bad built-in default: %s", why);
    if (params_set_defaults(conn_params, &sc->conns, why, sizeof why))
        ibn_panic("bad built-in default: %s", why);
    sc->cst = xcalloc(1, sizeof *sc->cst);
    sc->cc = xstrdup("none");
    sc->ccp = cc_find("none", NULL);
    sc->cc_desc = cc_desc_new(sc->ccp);
}

/* Switch the scenario to plug-in `name` (a fresh description at its defaults if it changes). */
static int cc_select(struct scenario *sc, const char *name, struct ibn_err *e)
{
    const struct cc_plugin *p = cc_find(name, e);
    if (!p)
        return -1;
    if (p != sc->ccp) {
        cc_desc_free(sc->ccp, sc->cc_desc);
        sc->ccp = p;
        sc->cc_desc = cc_desc_new(p);
        free(sc->cc);
        sc->cc = xstrdup(name);
    }
    return 0;
}

static char *relative_to(const char *scenario, const char *f)
{
    const char *slash = strrchr(scenario, '/');
    if (!*f || f[0] == '/' || !slash)
        return xstrdup(f);
    size_t dl = (size_t)(slash - scenario) + 1;
    char *full = xmalloc(dl + strlen(f) + 1);
    memcpy(full, scenario, dl);
    strcpy(full + dl, f);
    return full;
}

/* Read an opensm.conf into the scenario: congestion keys into the IB CC description (selecting
 * the ibcc plug-in when the file says congestion_control TRUE and the scenario named none),
 * QoS keys into the qos section. */
static int cc_opensm(struct scenario *sc, const char *file, struct ibn_err *e)
{
    char *path = relative_to(sc->path, file);
    struct opensm_conf_info info;
    struct ibcc_desc *d = sc->ccp == &ibcc_plugin ? sc->cc_desc : NULL;
    struct ibcc_desc *tmp = NULL;
    if (!d)
        d = tmp = cc_desc_new(&ibcc_plugin);
    int rc = opensm_conf_load(path, d, &sc->qos, &info, e);
    if (!rc && tmp && !sc->cc_plugin_given && info.congestion_control == 1) {
        cc_desc_free(sc->ccp, sc->cc_desc);
        sc->ccp = &ibcc_plugin;
        sc->cc_desc = tmp;
        free(sc->cc);
        sc->cc = xstrdup("ibcc");
        tmp = NULL;
    } else if (!rc && !sc->cc_plugin_given && info.congestion_control == 0 && sc->ccp != cc_plugins[0]) {
        cc_select(sc, "none", e);
    }
    if (tmp)
        cc_desc_free(&ibcc_plugin, tmp);
    if (!rc) {
        char buf[9216];
        snprintf(buf, sizeof buf, "%s: congestion_control %s, %d congestion keys applied%s; qos %s, "
                 "%d QoS keys applied; accepted without effect in the model: %s", path,
                 info.congestion_control < 0 ? "not given" : info.congestion_control ? "TRUE" : "FALSE",
                 info.cc_keys, d && sc->ccp == &ibcc_plugin ? "" : " (plug-in not ibcc: unused)",
                 info.qos < 0 ? "not given" : info.qos ? "TRUE" : "FALSE", info.qos_keys,
                 *info.not_modelled ? info.not_modelled : "none");
        free(sc->cc_note);
        sc->cc_note = xstrdup(buf);
    }
    free(path);
    return rc;
}

/* Read an opensm.conf for QoS only (qos.opensm_conf): its QoS keys into the qos section when it
 * says qos TRUE, whatever the congestion control; its congestion keys are checked, not applied. */
static int qos_opensm(struct scenario *sc, const char *file, struct ibn_err *e)
{
    char *path = relative_to(sc->path, file);
    struct opensm_conf_info info;
    int rc = opensm_conf_load(path, NULL, &sc->qos, &info, e);
    if (!rc) {
        char buf[9216], why[256];
        snprintf(buf, sizeof buf, "%s: qos %s, %d QoS keys applied; %d congestion keys checked, not "
                 "applied (cc.opensm_conf applies them); %d keys of other OpenSM features; without "
                 "effect in the model: %s", path,
                 info.qos < 0 ? "not given" : info.qos ? "TRUE" : "FALSE", info.qos_keys, info.cc_keys,
                 info.other_keys, *info.not_modelled ? info.not_modelled : "none");
        free(sc->qos_note);
        sc->qos_note = xstrdup(buf);
        param_set(params_find(qos_params, "opensm_conf"), &sc->qos, path, why, sizeof why);
    }
    free(path);
    return rc;
}

static int read_cc(struct loader *L, const config_setting_t *g, struct scenario *sc)
{
    if (!config_setting_is_group(g))
        return err_at(L, g, "cc must be a group: cc = { plugin = \"ibcc\"; threshold = 15; };");
    const config_setting_t *pl = config_setting_get_member(g, "plugin");
    if (pl) {
        if (config_setting_type(pl) != CONFIG_TYPE_STRING)
            return err_at(L, pl, "cc.plugin must be a string such as \"ibcc\" or \"none\"");
        if (cc_select(sc, config_setting_get_string(pl), L->e))
            return err_at(L, pl, "cc.plugin: %s", L->e->msg);
        sc->cc_plugin_given = 1;
    }
    const config_setting_t *os = config_setting_get_member(g, "opensm_conf");
    if (os) {
        if (config_setting_type(os) != CONFIG_TYPE_STRING)
            return err_at(L, os, "cc.opensm_conf must be a file name");
        if (*config_setting_get_string(os) && cc_opensm(sc, config_setting_get_string(os), L->e)) {
            /* The opensm.conf's own file:line first (an editor jumps there), then where it was named. */
            char msg[sizeof L->e->msg];
            snprintf(msg, sizeof msg, "%s (the opensm.conf of %s:%d, cc.opensm_conf)", L->e->msg,
                     L->file, (int)config_setting_source_line(os));
            return ibn_err_set(L->e, "%s", msg);
        }
    }
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, i);
        if (!strcmp(config_setting_name(s), "plugin"))
            continue;
        /* Read above whatever the plug-in: with CC off its QoS keys still apply (the note says
         * the congestion keys were not used). */
        if (!strcmp(config_setting_name(s), "opensm_conf") && !params_find(sc->ccp->params, "opensm_conf"))
            continue;
        char sect[64];
        snprintf(sect, sizeof sect, "cc (plug-in %s)", sc->cc);
        if (set_from(L, sect, sc->ccp->params, sc->cc_desc, s))
            return -1;
    }
    const struct param *op = params_find(sc->ccp->params, "opensm_conf");
    if (os && op && *config_setting_get_string(os)) { /* keep the path usable from the results folder */
        char *full = relative_to(sc->path, config_setting_get_string(os)), why[256];
        param_set(op, sc->cc_desc, full, why, sizeof why);
        free(full);
    }
    return 0;
}

static int apply_override(struct scenario *sc, const char *text, struct ibn_err *e)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    char *eq = strchr(buf, '=');
    if (!eq)
        return ibn_err_set(e, "-s %s: expected section.key=value", text);
    *eq = 0;
    const char *value = eq + 1;
    char *dot = strchr(buf, '.');
    if (!dot)
        return ibn_err_set(e, "-s %s: expected section.key=value (e.g. switch.arch=fifo)", text);
    *dot = 0;
    const char *section = buf;
    char *key = dot + 1;
    char why[512];
    if (!strcmp(section, "flows")) {
        char *dot2 = strrchr(key, '.');
        if (!dot2)
            return ibn_err_set(e, "-s %s: expected flows.NAME.key=value or flows.*.key=value", text);
        *dot2 = 0;
        const char *fname = key, *fkey = dot2 + 1;
        int in_pattern = 0;
        size_t fl_len = strlen(key);
        if (fl_len > 8 && !strcmp(key + fl_len - 8, ".pattern")) {
            key[fl_len - 8] = 0;
            in_pattern = 1;
        }
        int hit = 0;
        for (int i = 0; i < sc->nflows; i++) {
            struct flow_desc *fd = &sc->flows[i];
            if (strcmp(fname, "*") && strcmp(fname, fd->name))
                continue;
            hit = 1;
            if (in_pattern) {
                const struct param *pp = params_find(pattern_params, fkey);
                if (!fd->has_pattern || !pp)
                    return ibn_err_set(e, "-s %s: flow %s has no pattern key \"%s\"", text, fd->name, fkey);
                if (param_set(pp, &fd->pat, value, why, sizeof why))
                    return ibn_err_set(e, "-s %s: %s", text, why);
                continue;
            }
            const struct param *p = params_find(flow_params, fkey);
            void *obj = fd;
            if (!p) {
                p = params_find(arrival_params, fkey);
                obj = &fd->arr;
            }
            if (!p)
                return ibn_err_set(e, "-s %s: a flow has no key \"%s\"", text, fkey);
            if (param_set(p, obj, value, why, sizeof why))
                return ibn_err_set(e, "-s %s: %s", text, why);
        }
        if (!hit)
            return ibn_err_set(e, "-s %s: no flow is named \"%s\"", text, fname);
        return 0;
    }
    if (!strcmp(section, "qos") && !strcmp(key, "opensm_conf")) {
        if (*value && qos_opensm(sc, value, e)) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s (the opensm.conf of -s %s)", e->msg, text);
            return ibn_err_set(e, "%s", msg);
        }
        return 0;
    }
    if (!strcmp(section, "multicast")) {
        const struct param *p = params_find(mcast_params, key);
        if (!p)
            return ibn_err_set(e, "-s %s: multicast has no key \"%s\" that can be set here", text, key);
        return param_set(p, &sc->mc, value, why, sizeof why) ? ibn_err_set(e, "-s %s: %s", text, why) : 0;
    }
    if (!strcmp(section, "topology")) {
        const struct param *p = params_find(topo_params, key);
        if (!p)
            return ibn_err_set(e, "-s %s: topology has no key \"%s\" that can be set here", text, key);
        return param_set(p, &sc->topo, value, why, sizeof why) ? ibn_err_set(e, "-s %s: %s", text, why) : 0;
    }
    if (!strcmp(section, "cc")) {
        if (!strcmp(key, "plugin")) {
            sc->cc_plugin_given = 1;
            return cc_select(sc, value, e) ? ibn_err_prefix(e, "-s %s: ", text) : 0;
        }
        if (!strcmp(key, "opensm_conf") && *value && cc_opensm(sc, value, e)) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s (the opensm.conf of -s %s)", e->msg, text);
            return ibn_err_set(e, "%s", msg);
        }
        const struct param *p = params_find(sc->ccp->params, key);
        if (!p) {
            char keys[2048];
            params_list_keys(sc->ccp->params, keys, sizeof keys);
            return ibn_err_set(e, "-s %s: the cc plug-in %s has no key \"%s\" (expected plugin or "
                               "one of: %s)", text, sc->cc, key, keys);
        }
        if (param_set(p, sc->cc_desc, value, why, sizeof why))
            return ibn_err_set(e, "-s %s: %s", text, why);
        return 0;
    }
    for (size_t i = 0; i < NSECTIONS; i++)
        if (!strcmp(sections[i].name, section)) {
            const struct param *p = params_find(sections[i].tab, key);
            if (!p) {
                char keys[1024];
                params_list_keys(sections[i].tab, keys, sizeof keys);
                return ibn_err_set(e, "-s %s: unknown key \"%s\" in %s (expected one of: %s)", text,
                                   key, section, keys);
            }
            if (param_set(p, (char *)sc + sections[i].offset, value, why, sizeof why))
                return ibn_err_set(e, "-s %s: %s", text, why);
            return 0;
        }
    return ibn_err_set(e, "-s %s: unknown section \"%s\" (expected simulation, topology, fabric, "
                       "switch, hca, transport, qos, cc, flows, output, connections)", text, section);
}

static int check(struct scenario *sc, struct ibn_err *e)
{
    if (sc->sim.duration <= 0)
        return ibn_err_at(e, sc->path, 0, "simulation.duration must be positive");
    if (sc->sim.warmup >= sc->sim.duration)
        return ibn_err_at(e, sc->path, 0, "simulation.warmup must be shorter than simulation.duration");
    if (sc->sim.sample_interval > 0 && sc->sim.duration / sc->sim.sample_interval > SCENARIO_MAX_SAMPLES) {
        char d[64], iv[64];
        units_format_time(sc->sim.duration, d, sizeof d);
        units_format_time(sc->sim.sample_interval, iv, sizeof iv);
        return ibn_err_at(e, sc->path, 0, "simulation.sample_interval = %s over simulation.duration = %s "
                          "gives %lld samples of the time series, more than %d: give a longer interval "
                          "(or 0 for none)", iv, d, (long long)(sc->sim.duration / sc->sim.sample_interval),
                          SCENARIO_MAX_SAMPLES);
    }
    if (sc->nflows == 0 && sc->conns.process == CONNP_NONE)
        return ibn_err_at(e, sc->path, 0, "the scenario has no flows and no connections: add flows = ( { name = \"F1\"; "
                          "src = \"H1\"; dst = \"H2\"; kind = \"saturate\"; } );");
    for (int i = 0; i < sc->nflows; i++) {
        struct flow_desc *fd = &sc->flows[i];
        if (!fd->cls || !*fd->cls)
            continue;
        int sl = qos_class_sl(&sc->qos, fd->cls, e);
        if (sl < 0)
            return ibn_err_prefix(e, "%s:%d: flow %s: ", sc->path, fd->line, fd->name);
        fd->sl = sl;
    }
    return qos_apply(&sc->qos, &sc->set, e) ? (ibn_err_prefix(e, "%s: ", sc->path), -1) : 0;
}

/* libconfig (1.5, Debian's) keeps an integer literal without an L suffix in 32 bits and one
 * that overflows 64 bits as -1, silently: a seed of 12345678901234567890 became -1 and
 * 99999999999 became 1215752191. So the integer literals of the file are checked against
 * what libconfig will hold before it reads them (strings and comments skipped). */
static int check_int_literals(const char *path, struct ibn_err *e)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return ibn_err_set(e, "%s: cannot open the scenario file", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap + 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap)
            buf = xrealloc(buf, (cap *= 2) + 1);
    }
    fclose(fp);
    buf[n] = 0;
    int line = 1, rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char c = buf[i];
        if (c == '\n') {
            line++;
        } else if (c == '#' || (c == '/' && buf[i + 1] == '/')) {
            while (i + 1 < n && buf[i + 1] != '\n')
                i++;
        } else if (c == '/' && buf[i + 1] == '*') {
            for (i += 2; i + 1 < n && !(buf[i] == '*' && buf[i + 1] == '/'); i++)
                line += buf[i] == '\n';
            i++;
        } else if (c == '"') {
            for (i++; i < n && buf[i] != '"'; i++) {
                if (buf[i] == '\\' && i + 1 < n)
                    i++;
                line += buf[i] == '\n';
            }
        } else if ((c >= '0' && c <= '9') && (i == 0 || !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.0123456789", buf[i - 1]))) {
            size_t j = i;
            int hex = c == '0' && (buf[i + 1] == 'x' || buf[i + 1] == 'X');
            j += hex ? 2 : 0;
            while (j < n && (hex ? isxdigit((unsigned char)buf[j]) : isdigit((unsigned char)buf[j])))
                j++;
            if (!hex && j < n && strchr(".eE", buf[j])) { /* a float */
                i = j;
                continue;
            }
            int neg = i > 0 && buf[i - 1] == '-';
            int wide = j < n && buf[j] == 'L';
            char num[64];
            size_t len = j - i < sizeof num - 2 ? j - i : sizeof num - 2;
            snprintf(num, sizeof num, "%s%.*s", neg ? "-" : "", (int)len, buf + i);
            errno = 0;
            long long v = hex ? (long long)strtoull(num, NULL, 16) : strtoll(num, NULL, 10);
            int over = errno == ERANGE || j - i >= sizeof num - 2;
#if !defined(LIBCONFIG_VER_MAJOR) || LIBCONFIG_VER_MAJOR == 1 && LIBCONFIG_VER_MINOR < 7
            if (!wide && !over)
                over = hex ? (unsigned long long)v > 0xffffffffULL : v < INT32_MIN || v > INT32_MAX;
#endif
            if (over)
                rc = ibn_err_at(e, path, line, "the number %s is too large for the scenario syntax "
                                "(whole numbers without quotes are 32-bit); write it in quotes "
                                "(\"%s\"), where a key takes up to 64 bits", num, num);
            i = j - 1;
        }
    }
    free(buf);
    return rc;
}

static int load(const char *path, char *const *overrides, int noverrides, struct scenario *sc,
                struct ibn_err *e)
{
    defaults(sc);
    sc->path = xstrdup(path);
    if (check_int_literals(path, e))
        return -1;
    config_t cfg;
    config_init(&cfg);
    if (!config_read_file(&cfg, path)) {
        int rc = ibn_err_at(e, config_error_file(&cfg) ? config_error_file(&cfg) : path,
                            config_error_line(&cfg), "%s (scenario syntax: key = value; groups in "
                            "{ }, lists in ( ), comments after #)", config_error_text(&cfg));
        config_destroy(&cfg);
        return rc;
    }
    struct loader L = { sc->path, e };
    const config_setting_t *root = config_root_setting(&cfg);
    int rc = 0;
    for (int i = 0; i < config_setting_length(root) && !rc; i++) {
        const config_setting_t *s = config_setting_get_elem(root, i);
        const char *name = config_setting_name(s);
        int done = 0;
        for (size_t k = 0; k < NSECTIONS && !done; k++)
            if (!strcmp(sections[k].name, name) && strcmp(name, "qos")) {
                rc = read_group(&L, s, name, sections[k].tab, (char *)sc + sections[k].offset);
                done = 1;
            }
        if (done)
            continue;
        if (!strcmp(name, "qos")) {
            /* The qos section: its table, and the list of per port-pair SL-to-VL maps. */
            if (!config_setting_is_group(s)) {
                rc = err_at(&L, s, "qos must be a group: qos = { sl2vl = \"...\"; };");
                continue;
            }
            const config_setting_t *os = config_setting_get_member(s, "opensm_conf");
            if (os) { /* the file first: this section's other keys override it */
                if (config_setting_type(os) != CONFIG_TYPE_STRING) {
                    rc = err_at(&L, os, "qos.opensm_conf must be a file name");
                    continue;
                }
                if (*config_setting_get_string(os) && qos_opensm(sc, config_setting_get_string(os), e)) {
                    char msg[sizeof e->msg];
                    snprintf(msg, sizeof msg, "%s (the opensm.conf of %s:%d, qos.opensm_conf)", e->msg,
                             path, (int)config_setting_source_line(os));
                    rc = ibn_err_set(e, "%s", msg);
                    continue;
                }
            }
            for (int k = 0; k < config_setting_length(s) && !rc; k++) {
                const config_setting_t *x = config_setting_get_elem(s, k);
                if (!strcmp(config_setting_name(x), "opensm_conf"))
                    continue;
                if (!strcmp(config_setting_name(x), "sl2vl_pairs")) {
                    sc->sl2vl_line = (int)config_setting_source_line(x);
                    rc = read_string_list(&L, x, "qos.sl2vl_pairs", &sc->sl2vl_pairs, &sc->nsl2vl_pairs);
                } else {
                    rc = set_from(&L, "qos", qos_params, &sc->qos, x);
                }
            }
            continue;
        }
        if (!strcmp(name, "topology"))
            rc = read_topology(&L, s, &sc->topo);
        else if (!strcmp(name, "flows"))
            rc = read_flows(&L, s, sc);
        else if (!strcmp(name, "cc"))
            rc = read_cc(&L, s, sc);
        else if (!strcmp(name, "multicast"))
            rc = read_multicast(&L, s, &sc->mc);
        else
            rc = err_at(&L, s, "unknown section \"%s\" (expected one of: simulation, topology, "
                        "fabric, switch, hca, transport, qos, cc, multicast, flows, output, connections)", name);
    }
    config_destroy(&cfg);
    if (!rc && sc->nflows == 0 && !sc->flows)
        sc->flows = xcalloc(1, sizeof *sc->flows);
    for (int i = 0; !rc && i < noverrides; i++)
        rc = apply_override(sc, overrides[i], e);
    if (!rc)
        rc = check(sc, e);
    /* Relative file names are relative to the scenario. */
    if (!rc) {
        char **files[] = { &sc->topo.file, &sc->topo.lft_file, &sc->topo.root_guid_file,
                           &sc->mc.mft_file, &sc->topo.guid_routing_order_file,
                           &sc->topo.port_prof_ignore_file, &sc->topo.torus_config,
                           &sc->topo.cn_guid_file, &sc->topo.io_guid_file };
        for (int i = 0; i < (int)(sizeof files / sizeof files[0]); i++) {
            char *f = *files[i];
            if (!*f || f[0] == '/')
                continue;
            const char *slash = strrchr(path, '/');
            if (!slash)
                continue;
            size_t dl = (size_t)(slash - path) + 1;
            char *full = xmalloc(dl + strlen(f) + 1);
            memcpy(full, path, dl);
            strcpy(full + dl, f);
            free(f);
            *files[i] = full;
        }
    }
    return rc;
}

int scenario_load(const char *path, char *const *overrides, int noverrides, struct scenario *sc,
                  struct ibn_err *e)
{
    int rc = load(path, overrides, noverrides, sc, e);
    if (rc)
        scenario_free(sc); /* nothing of a refused scenario is kept (found by fuzz_scenario) */
    return rc;
}

void scenario_free(struct scenario *sc)
{
    params_free(sim_params, &sc->sim);
    params_free(topo_params, &sc->topo);
    params_free(qos_params, &sc->qos);
    params_free(output_params, &sc->out);
    params_free(conn_params, &sc->conns);
    if (sc->cst)
        connections_free(*sc->cst);
    free(sc->cst);
    for (int i = 0; i < sc->topo.nlinks; i++)
        free(sc->topo.links[i]);
    free(sc->topo.links);
    for (int i = 0; i < sc->nsl2vl_pairs; i++)
        free(sc->sl2vl_pairs[i]);
    free(sc->sl2vl_pairs);
    for (int i = 0; i < sc->topo.nswitches; i++)
        free(sc->topo.switches[i]);
    free(sc->topo.switches);
    for (int i = 0; i < sc->nflows; i++) {
        params_free(flow_params, &sc->flows[i]);
        params_free(arrival_params, &sc->flows[i].arr);
        if (sc->flows[i].has_pattern)
            params_free(pattern_params, &sc->flows[i].pat);
    }
    free(sc->flows);
    if (sc->ccp)
        cc_desc_free(sc->ccp, sc->cc_desc);
    free(sc->cc);
    free(sc->cc_note);
    free(sc->qos_note);
    free(sc->path);
    mcast_desc_free(&sc->mc);
    memset(sc, 0, sizeof *sc);
}

/* ------------------------------------------------------------- topology ---- */

static int parse_endpoint(const char *tok, char *name, size_t len, int *port)
{
    const char *colon = strrchr(tok, ':');
    if (!colon || colon == tok)
        return -1;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (*end || p < 1 || p > 254)
        return -1;
    snprintf(name, len, "%.*s", (int)(colon - tok), tok);
    *port = (int)p;
    return 0;
}

static int links_topology(const struct scenario *sc, struct topo *t, struct ibn_err *e)
{
    const struct topo_desc *d = &sc->topo;
    topo_init(t);
    /* First pass: nodes and their largest port. */
    struct { char name[128]; int maxport; } *nodes = xcalloc((size_t)d->nlinks * 2 + 1, sizeof *nodes);
    int nn = 0;
    for (int i = 0; i < d->nlinks; i++) {
        char a[256], b[256];
        if (sscanf(d->links[i], "%255s %255s", a, b) != 2)
            goto bad;
        const char *ends[2] = { a, b };
        for (int k = 0; k < 2; k++) {
            char name[128];
            int port;
            if (parse_endpoint(ends[k], name, sizeof name, &port))
                goto bad;
            int j;
            for (j = 0; j < nn && strcmp(nodes[j].name, name); j++)
                ;
            if (j == nn)
                snprintf(nodes[nn++].name, sizeof nodes[0].name, "%s", name);
            if (port > nodes[j].maxport)
                nodes[j].maxport = port;
        }
        continue;
    bad:
        free(nodes);
        return ibn_err_at(e, sc->path, d->line, "topology.links entry %d \"%s\": expected "
                          "\"NODE:PORT NODE:PORT [4xQDR|RATE] [DELAY]\"", i + 1, d->links[i]);
    }
    for (int i = 0; i < d->nswitches; i++) {
        int j;
        for (j = 0; j < nn && strcmp(nodes[j].name, d->switches[i]); j++)
            ;
        if (j == nn) {
            free(nodes);
            return ibn_err_at(e, sc->path, d->line, "topology.switches names \"%s\", which no link uses",
                              d->switches[i]);
        }
    }
    for (int j = 0; j < nn; j++) {
        int is_sw = 0;
        for (int i = 0; i < d->nswitches; i++)
            is_sw |= !strcmp(d->switches[i], nodes[j].name);
        topo_add_node(t, is_sw ? TOPO_SWITCH : TOPO_CA, nodes[j].name, nodes[j].maxport);
    }
    free(nodes);
    for (int i = 0; i < d->nlinks; i++) {
        char a[256], b[256], rest[256] = "";
        int n = sscanf(d->links[i], "%255s %255s %255[^\n]", a, b, rest);
        char an[128], bn[128];
        int ap = 0, bp = 0;
        if (n < 2 || parse_endpoint(a, an, sizeof an, &ap) || parse_endpoint(b, bn, sizeof bn, &bp))
            return ibn_err_at(e, sc->path, d->line, "topology.links entry %d: \"%s\" is not "
                              "\"NODE:PORT NODE:PORT [4xQDR|RATE] [DELAY]\"", i + 1, d->links[i]);
        int width = 4;
        enum ib_speed speed = IB_QDR;
        double rate = 0;
        simtime_t delay = d->delay;
        char why[256];
        if (ib_parse_width_speed(d->link, &width, &speed) &&
            units_parse_rate(d->link, &rate, why, sizeof why))
            return ibn_err_at(e, sc->path, d->line, "topology.link: expected 4xQDR-style or a rate, got \"%s\"", d->link);
        /* Optional cable and delay: tokens after the endpoints. */
        char *save = NULL, *tok = n == 3 ? strtok_r(rest, " \t", &save) : NULL;
        char pending[64] = "";
        for (; tok; tok = strtok_r(NULL, " \t", &save)) {
            char joined[128];
            snprintf(joined, sizeof joined, "%s%s%s", pending, *pending ? " " : "", tok);
            simtime_t dt;
            int w;
            enum ib_speed sp;
            double r;
            if (!ib_parse_width_speed(joined, &w, &sp)) {
                width = w, speed = sp, rate = 0, pending[0] = 0;
            } else if (!units_parse_rate(joined, &r, why, sizeof why)) {
                rate = r, pending[0] = 0;
            } else if (!units_parse_time(joined, &dt, why, sizeof why)) {
                delay = dt, pending[0] = 0;
            } else if (!*pending) {
                snprintf(pending, sizeof pending, "%s", tok); /* a number waiting for its unit */
            } else {
                return ibn_err_at(e, sc->path, d->line, "topology.links entry %d: \"%s\" is neither "
                                  "a cable (4xQDR, 13.5 Gb/s) nor a delay (10 ns)", i + 1, joined);
            }
        }
        if (*pending)
            return ibn_err_at(e, sc->path, d->line, "topology.links entry %d: \"%s\" needs a unit",
                              i + 1, pending);
        if (topo_connect(t, topo_find(t, an), ap, topo_find(t, bn), bp, width, speed, rate, delay, e))
            return ibn_err_prefix(e, "%s:%d: topology.links entry %d: ", sc->path, d->line, i + 1);
    }
    t->source = xstrdup("links");
    topo_assign_lids(t, 0);
    topo_assign_guids(t);
    topo_assign_aliases(t);
    if (topo_check(t, e))
        return ibn_err_prefix(e, "%s:%d: topology.links: ", sc->path, d->line);
    return 0;
}

const char *scenario_routing_engine(const struct topo_desc *d)
{
    if (strcmp(d->routing, "auto"))
        return d->routing;
    static const char *const trees[] = { "kary_ntree", "fattree", "clos3", NULL };
    for (int i = 0; trees[i]; i++)
        if (!strcmp(d->generator, trees[i]))
            return "ftree";
    return "minhop";
}

/* Connections: admission needs the routes; its flows and tables come later. */
static int scenario_connections(const struct scenario *sc, const struct topo *t, const struct lfts *l,
                                struct ibn_err *e)
{
    connections_free(*sc->cst);
    *sc->cst = NULL;
    if (sc->conns.process != CONNP_NONE &&
        connections_admit(&sc->conns, &sc->set, sc->qos.vlarb_low && *sc->qos.vlarb_low,
                          (uint64_t)sc->sim.seed, sc->sim.duration, t, l, sc->flows, sc->nflows,
                          sc->cst, e))
        return strncmp(e->msg, sc->path, strlen(sc->path)) ? ibn_err_prefix(e, "%s: ", sc->path) : -1;
    return 0;
}

int scenario_topology(const struct scenario *sc, struct topo *t, struct lfts *l, struct ibn_err *e)
{
    const struct topo_desc *d = &sc->topo;
    int rc;
    if (*d->generator)
        rc = topo_generate(d->generator, d->args, (uint64_t)sc->sim.seed, t, e);
    else if (*d->file)
        rc = topo_read_file(d->file, t, e);
    else
        rc = links_topology(sc, t, e);
    if (rc)
        return -1;
    if (*d->file && topo_check(t, e))
        return ibn_err_prefix(e, "%s: ", d->file);
    long long lmc = d->lmc;
    const char *engine = scenario_routing_engine(d);
    if (!lmc && !*d->lft_file && !strcmp(engine, "pathbits")) {
        /* The path bits are the LMC bits: as many LIDs as patterns. */
        struct pathbits pb;
        if (pathbits_build(t, d->roots, (int)d->path_bits, 0, &pb, e))
            return ibn_err_prefix(e, "%s:%d: ", sc->path, d->line);
        lmc = pb.ncycles;
        pathbits_free(&pb);
        if (lmc > PB_LMC_MAX && !d->lmc_beyond_iba)
            return ibn_err_at(e, sc->path, d->line, "topology: routing = pathbits: %lld path bits "
                              "(independent cycles) do not fit IBA's LMC (at most %d): set "
                              "path_bits = %d or fewer (the LMC-limited form), or lmc_beyond_iba "
                              "= true (seed 004's form, beyond IBA)", lmc, PB_LMC_MAX, PB_LMC_MAX);
        if (lmc > PB_SIM_MAX)
            return ibn_err_at(e, sc->path, d->line, "topology: routing = pathbits: %lld path bits "
                              "(independent cycles), but ibnetsim holds at most %d even beyond "
                              "IBA: set path_bits = %d or fewer", lmc, PB_SIM_MAX, PB_SIM_MAX);
    } else if (lmc > PB_LMC_MAX && !d->lmc_beyond_iba) {
        return ibn_err_at(e, sc->path, d->line, "topology: lmc = %lld, but IBA's LMC field holds "
                          "0 to %d (lmc_beyond_iba = true allows up to %d in simulation)", lmc,
                          PB_LMC_MAX, PB_SIM_MAX);
    } else if (d->path_bits > PB_LMC_MAX && !d->lmc_beyond_iba) {
        return ibn_err_at(e, sc->path, d->line, "topology: path_bits = %lld, but IBA's LMC holds "
                          "at most %d path bits (lmc_beyond_iba = true allows up to %d in "
                          "simulation)", d->path_bits, PB_LMC_MAX, PB_SIM_MAX);
    }
    if (lmc > 0 && topo_set_lmc(t, (int)lmc, e))
        return ibn_err_prefix(e, "%s:%d: topology.lmc: ", sc->path, d->line);
    if (*d->lft_file) {
        if (lft_dump_read(d->lft_file, t, l, e))
            return -1;
        return scenario_connections(sc, t, l, e);
    }
    if (*d->roots && *d->root_guid_file)
        return ibn_err_at(e, sc->path, d->line, "topology: give roots or root_guid_file, not both");
    if (*d->root_guid_file) {
        FILE *rf = fopen(d->root_guid_file, "r");
        if (!rf)
            return ibn_err_at(e, sc->path, d->line, "topology.root_guid_file: cannot open %s",
                              d->root_guid_file);
        fclose(rf);
    }
    struct route_opts o = { .seed = (uint64_t)sc->sim.seed, .tie = *d->tie ? d->tie : NULL,
                            .roots = *d->roots           ? d->roots
                                     : *d->root_guid_file ? d->root_guid_file
                                                          : NULL,
                            .path_bits = (int)d->path_bits,
                            .max_path_bits = d->lmc_beyond_iba ? PB_SIM_MAX : PB_LMC_MAX,
                            .guid_order = d->guid_routing_order_file,
                            .port_shifting = d->port_shifting,
                            .scatter_ports = (uint32_t)d->scatter_ports,
                            .order_no_scatter = d->order_no_scatter,
                            .prof_ignore = d->port_prof_ignore_file,
                            .torus_conf = d->torus_config,
                            .cn_guids = d->cn_guid_file,
                            .io_guids = d->io_guid_file,
                            .path_slack = (int)d->path_slack };
    /* torus-2QoS programs as many VL bits as the fabric has data VLs (OpenSM: the VLCap). */
    if (strstr(engine, "torus-2QoS"))
        o.max_vls = (int)sc->set.nvls;
    if (route_compute(t, engine, &o, l, e))
        return ibn_err_prefix(e, "%s:%d: ", sc->path, d->line);
    return scenario_connections(sc, t, l, e);
}

int scenario_run_desc(const struct scenario *sc, const struct topo *t, struct run_desc *d,
                      struct ibn_err *e)
{
    memset(d, 0, sizeof *d);
    d->set = sc->set;
    d->warmup = sc->sim.warmup;
    d->end = sc->sim.duration;
    d->drain_limit = sc->sim.drain_limit;
    d->stall_limit = sc->sim.stall_limit;
    d->until_delivered = (uint64_t)sc->sim.until_delivered;
    d->sample_interval = sc->sim.sample_interval;
    d->seed = (uint64_t)sc->sim.seed;
    d->jitter_k = (int)sc->out.jitter_k;
    d->nflows = sc->nflows;
    d->flows = sc->flows; /* shared: run_desc_free leaves them to the scenario */
    d->mc = sc->mc.ngroups ? &sc->mc : NULL;
    (void)t;
    if (*sc->cst && connections_flows(*sc->cst, &sc->conns, d, e)) /* then the state's */
        return ibn_err_prefix(e, "%s: ", sc->path);
    return 0;
}

void run_desc_free(struct run_desc *d)
{
    memset(d, 0, sizeof *d);
}

int scenario_apply(const struct scenario *sc, struct fabric *f, struct ibn_err *e)
{
    for (int i = 0; i < sc->nsl2vl_pairs; i++) {
        const char *entry = sc->sl2vl_pairs[i];
        char name[256], map[512];
        int in, out;
        if (sscanf(entry, "%255s %d %d %511s", name, &in, &out, map) != 4)
            return ibn_err_at(e, sc->path, sc->sl2vl_line, "qos.sl2vl_pairs entry %d \"%s\": expected "
                              "\"SWITCH IN OUT MAP\" with MAP 16 comma-separated VLs (IN or OUT 0: every port)",
                              i + 1, entry);
        int node = -1;
        for (int n = 0; n < f->nnodes; n++)
            if (f->nodes[n]->is_switch && !strcmp(f->nodes[n]->name, name))
                node = n;
        if (node < 0)
            return ibn_err_at(e, sc->path, sc->sl2vl_line, "qos.sl2vl_pairs entry %d: no switch is named \"%s\"",
                              i + 1, name);
        struct qos_desc q = { .sl2vl = map };
        struct fabric_settings tmp = f->set;
        if (qos_apply(&q, &tmp, e))
            return ibn_err_prefix(e, "%s:%d: qos.sl2vl_pairs entry %d: ", sc->path, sc->sl2vl_line, i + 1);
        int np = f->nodes[node]->nports;
        for (int a = in ? in : 1; a <= (in ? in : np); a++)
            for (int b = out ? out : 1; b <= (out ? out : np); b++)
                if (fabric_set_sl2vl(f, node, a, b, tmp.sl2vl, e))
                    return ibn_err_prefix(e, "%s:%d: qos.sl2vl_pairs entry %d: ", sc->path, sc->sl2vl_line, i + 1);
    }
    if (*sc->cst && connections_tables(*sc->cst, f, e))
        return ibn_err_prefix(e, "%s: ", sc->path);
    /* Every VL the flows use must have arbitration weight wherever it leaves a port. */
    if (vlcheck_fabric(f, e))
        return ibn_err_prefix(e, "%s: ", sc->path);
    return 0;
}

/* ---------------------------------------------------------------- writing ---- */

static void write_table(FILE *out, const char *indent, const struct param *tab, const void *obj)
{
    char buf[1024];
    for (const struct param *p = tab; p->key; p++) {
        param_format(p, obj, buf, sizeof buf);
        fprintf(out, "%s%s = %s;\n", indent, p->key, buf);
    }
}

void scenario_write(const struct scenario *sc, FILE *out)
{
    fprintf(out, "# ibnetsim %s: the resolved scenario of %s (every default made explicit).\n",
            IBN_VERSION, sc->path);
    fprintf(out, "simulation = {\n");
    write_table(out, "  ", sim_params, &sc->sim);
    fprintf(out, "};\ntopology = {\n");
    write_table(out, "  ", topo_params, &sc->topo);
    if (sc->topo.nswitches) {
        fprintf(out, "  switches = [");
        for (int i = 0; i < sc->topo.nswitches; i++)
            fprintf(out, "%s\"%s\"", i ? ", " : "", sc->topo.switches[i]);
        fprintf(out, "];\n");
    }
    if (sc->topo.nlinks) {
        fprintf(out, "  links = (\n");
        for (int i = 0; i < sc->topo.nlinks; i++)
            fprintf(out, "    \"%s\"%s\n", sc->topo.links[i], i + 1 < sc->topo.nlinks ? "," : "");
        fprintf(out, "  );\n");
    }
    for (size_t k = 1; k < NSECTIONS; k++) {
        fprintf(out, "};\n%s = {\n", sections[k].name);
        write_table(out, "  ", sections[k].tab, (const char *)sc + sections[k].offset);
        if (sections[k].tab == qos_params && sc->qos_note)
            fprintf(out, "  # %s\n", sc->qos_note);
        if (sections[k].tab == qos_params && sc->nsl2vl_pairs) {
            fprintf(out, "  sl2vl_pairs = (\n");
            for (int i = 0; i < sc->nsl2vl_pairs; i++)
                fprintf(out, "    \"%s\"%s\n", sc->sl2vl_pairs[i], i + 1 < sc->nsl2vl_pairs ? "," : "");
            fprintf(out, "  );\n");
        }
    }
    fprintf(out, "};\ncc = {\n");
    if (sc->cc_note)
        fprintf(out, "  # %s\n", sc->cc_note);
    fprintf(out, "  plugin = \"%s\";\n", sc->cc);
    if (sc->ccp)
        write_table(out, "  ", sc->ccp->params, sc->cc_desc);
    if (sc->mc.ngroups) {
        fprintf(out, "};\nmulticast = {\n");
        write_table(out, "  ", mcast_params, &sc->mc);
        fprintf(out, "  groups = (\n");
        for (int i = 0; i < sc->mc.ngroups; i++) {
            const struct mgroup_desc *g = &sc->mc.groups[i];
            fprintf(out, "    { name = \"%s\"; mlid = 0x%04llX; members = \"%s\"; sources = \"%s\"; }%s\n",
                    g->name, g->mlid, g->members, g->sources, i + 1 < sc->mc.ngroups ? "," : "");
        }
        fprintf(out, "  );\n");
    }
    fprintf(out, "};\nflows = (\n");
    for (int i = 0; i < sc->nflows; i++) {
        fprintf(out, "  {\n");
        write_table(out, "    ", flow_params, &sc->flows[i]);
        write_table(out, "    ", arrival_params, &sc->flows[i].arr);
        if (sc->flows[i].has_pattern) {
            fprintf(out, "    pattern = {\n");
            write_table(out, "      ", pattern_params, &sc->flows[i].pat);
            fprintf(out, "    };\n");
        }
        fprintf(out, "  }%s\n", i + 1 < sc->nflows ? "," : "");
    }
    fprintf(out, ");\n");
}

/* settings.c: parameter tables of the model's settings, their defaults, and the translation of
 * QoS settings (OpenSM's sl2vl and VLArb forms) into the tables the data path uses. */
#include "fabric/settings.h"
#include "fabric/swarch.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/adapt.h"
#include "fabric/isol.h"
#include "fabric/transport.h"

#define OFF(field) offsetof(struct fabric_settings, field)
/* A receive buffer is held as an int32_t count of 64-byte credits (struct port_vl). */
#define BUFFER_MAX ((double)INT32_MAX * CREDIT_BYTES)

static int check_mtu(const void *field, char *why, size_t whylen)
{
    long long m = *(const long long *)field;
    if (m == 256 || m == 512 || m == 1024 || m == 2048 || m == 4096)
        return 0;
    snprintf(why, whylen, "mtu must be an IB MTU (256, 512, 1024, 2048 or 4096), got %lld", m);
    return -1;
}

static const char *const cut_through_names[] = { "hold", "late", NULL };
static const char *const scheduler_names[] = { "output", "islip", NULL };
static const char *const basis_names[] = { "payload", "wire", NULL };

const struct param fabric_params[] = {
    { "mtu", P_INT, OFF(mtu), "2048", "IB MTU in bytes (256, 512, 1024, 2048, 4096)", NULL, 256, 4096,
      check_mtu },
    { "vls", P_INT, OFF(nvls), "1", "data VLs in use (1-15); VL15 is always there", NULL, 1, 15 },
    { "grh", P_BOOL, OFF(grh), "false", "packets carry a 40-byte global route header", NULL, 0, 0 },
    { "credit_delay", P_TIME, OFF(credit_delay), "0 ns",
      "extra delay of a credit update (flow-control packet) beyond the link's propagation delay",
      NULL, 0, 0 },
    { "max_pending", P_INT, OFF(max_pending), "1024",
      "messages a flow may hold waiting; a message beyond that is refused and counted", NULL, 1, 1e9 },
    PARAM_END,
};

const struct param switch_params[] = {
    { "arch", P_ENUM, OFF(arch), "voq",
      "input buffer organisation: voq (alias voqsw: virtual output queues per input, output and "
      "VL), fifo (alias 1q: one FIFO per input and VL whose head blocks it until read: "
      "head-of-line blocking), pipe (seed 004's 5-stage "
      "pipelined switch: input VL FIFOs, a multiplexed crossbar, output VL buffers; "
      "switch.stage1-5, out_buffer), voqnet (a queue per destination host at every input, "
      "voqnet_queue bytes each, flow-controlled per destination: no head-of-line blocking) or "
      "dbbm (dbbm_queues FIFOs per input and VL, a packet in FIFO destination mod Q); ccfit, ecocc, hfdi, fbicm: seed 002's congested-flow "
      "isolation switches (the `isolation` section, docs/isolation.md)",
      sw_arch_names, 0, 0 },
    { "voqnet_queue", P_SIZE, OFF(voqnet_queue), "4 KiB",
      "arch = voqnet: input memory per destination host (and VL); switch.buffer must hold one "
      "per host (seed 002 Paper V: at least 4 KB; Paper VI: 64 packets of 2 KB)", NULL, 64, BUFFER_MAX },
    { "dbbm_queues", P_INT, OFF(dbbm_queues), "4",
      "arch = dbbm: FIFOs per input and VL (a packet goes to FIFO destination host mod this)", NULL, 1, 4096 },
    { "latency", P_TIME, OFF(switch_latency), "100 ns",
      "from a packet's first byte arriving to its earliest forwarding (routing and arbitration); "
      "with arch = pipe the stage latencies replace it",
      NULL, 0, 0 },
    { "stage1", P_TIME, OFF(stage[0]), "20 ns",
      "arch = pipe, stage 1: SL-to-VL mapping, queueing in the input VL buffer, header extraction",
      NULL, 0, 0 },
    { "stage2", P_TIME, OFF(stage[1]), "20 ns", "arch = pipe, stage 2: forwarding-table lookup",
      NULL, 0, 0 },
    { "stage3", P_TIME, OFF(stage[2]), "20 ns",
      "arch = pipe, stage 3: crossbar arbitration (reserving the crossbar output)", NULL, 0, 0 },
    { "stage4", P_TIME, OFF(stage[3]), "20 ns",
      "arch = pipe, stage 4: crossbar traversal into the output VL buffer (head latency; the "
      "packet then streams at the output link's rate times speedup)", NULL, 0, 0 },
    { "stage5", P_TIME, OFF(stage[4]), "20 ns",
      "arch = pipe, stage 5: output VL buffer to the link (VL arbitration; CRC check deferred "
      "here, not delaying the packet)", NULL, 0, 0 },
    { "out_buffer", P_SIZE, OFF(out_buffer), "0 B",
      "arch = pipe: output VL buffer per port and data VL, bytes; 0 = switch.buffer", NULL, 0,
      BUFFER_MAX },
    { "read_ports", P_INT, OFF(read_ports), "0",
      "crossbar read ports per input: packets an input can send to different outputs at once; "
      "0 = one per output (a demultiplexed crossbar: every VOQ has its own read port, as in "
      "seed 002's VOQ switches); 1 = a multiplexed crossbar", NULL, 0, 255 },
    { "speedup", P_DOUBLE, OFF(speedup), "1.0",
      "crossbar speed relative to the output link: a packet holds its input's read port for "
      "its transmission time divided by this (at least until its tail has arrived)", NULL, 1, 64 },
    { "scheduler", P_ENUM, OFF(scheduler), "output",
      "crossbar scheduling: output = each output, as soon as it is free, picks the next "
      "requesting input round robin (unslotted); islip = McKeown's iSLIP, a slotted matching of "
      "inputs to outputs once per switch.islip_slot (request, grant, accept, round-robin "
      "pointers moved only by first-iteration accepts; an input accepts as many grants as it "
      "has free read ports); docs/model.md", scheduler_names, 0, 0 },
    { "islip_iterations", P_INT, OFF(islip_iterations), "1",
      "scheduler = islip: request-grant-accept iterations per slot", NULL, 1, 16 },
    { "islip_slot", P_TIME, OFF(islip_slot), "0 s",
      "scheduler = islip: the matching period (a cell time); 0 = the crossbar's time for an "
      "MTU packet: its transmission time on the switch's slowest port divided by "
      "switch.speedup (every read of a packet then fits in one slot)", NULL, 0, 0 },
    { "cut_through", P_ENUM, OFF(cut_through_late), "hold",
      "a packet for an output faster than its input link: hold = it starts as soon as it is "
      "routed and the output stays busy until its tail has arrived; late = it starts when its "
      "transmission can end as its tail arrives, the output serving other inputs meanwhile",
      cut_through_names, 0, 0 },
    { "buffer", P_SIZE, OFF(switch_buffer), "64 KiB",
      "receive buffer per switch port and data VL (granted as 64-byte credits)", NULL, 64, BUFFER_MAX },
    { "hoq_life", P_INT, OFF(hoq_life), "20",
      "HV of IBA's Head-of-Queue Lifetime: a packet at the head of a queue for longer than "
      "4.096 us x 2^HV is dropped (seed 004's selective dropping: never control packets, an I "
      "frame's, or the first and last of a B or P frame); 0-19, more = infinite", NULL, 0, 31 },
    { "adaptive", P_ENUM, OFF(adaptive), "none",
      "adaptive output choice for packets of flows with path = adaptive (seed 004's unreliable "
      "datagrams): lfu (the output that has routed the fewest packets) or max_credit (the output "
      "whose downstream buffer grants the most credits); the candidates are the LMC LIDs that "
      "differ in the bits this switch decides (fabric/adapt.h)", adapt_policy_names, 0, 0 },
    { "switch_life", P_INT, OFF(switch_life), "20",
      "LV of IBA's Switch Lifetime Limit: a packet at the head of a queue more than 4.096 us x "
      "2^LV after it was wholly received by the switch is dropped (the same protection); 0-19, "
      "more = infinite", NULL, 0, 31 },
    { "loss", P_DOUBLE, OFF(loss), "0",
      "probability that a switch input loses an arriving data packet (a link bit error: the "
      "receiver discards a packet whose CRC fails and returns its credits); control packets "
      "(ACKs, CNPs) are not lost; counted as invariants.packets_dropped.loss. Under RC, go-back-N "
      "sends lost packets again (transport.retransmit)", NULL, 0, 0.999 },
    { "loss_every", P_INT, OFF(loss_every), "0",
      "lose every N-th data packet arriving at any switch input (deterministic, for tests and "
      "first-principles checks; counted with switch.loss); 0 = off", NULL, 0, 1e9 },
    PARAM_END,
};

const struct param hca_params[] = {
    { "buffer", P_SIZE, OFF(hca_buffer), "64 KiB",
      "receive buffer per adapter port and data VL (granted as 64-byte credits)", NULL, 64, BUFFER_MAX },
    { "inject_limit", P_RATE, OFF(inject_limit_bps), "0 Gb/s",
      "most an adapter port injects (e.g. its host bus); 0 = the link rate", NULL, 0, 0 },
    { "sink_limit", P_RATE, OFF(sink_limit_bps), "0 Gb/s",
      "most an adapter port consumes; a slower receiver backs up into the fabric; 0 = no limit",
      NULL, 0, 0 },
    { "limit_counts", P_ENUM, OFF(limit_counts_wire), "payload",
      "what the rate limits count: payload bytes or wire bytes", basis_names, 0, 0 },
    { "messages", P_INT, OFF(hca_messages), "0",
      "messages an adapter holds for all its flows together (seed 003's buffer M): a message "
      "posted on arrival finds it full and is refused; 0 = no shared bound (each flow's source "
      "queue holds fabric.max_pending)", NULL, 0, 1 << 30 },
    PARAM_END,
};

#undef OFF
#define OFF(field) offsetof(struct qos_desc, field)

/* The forms of the QoS strings, checked when a key is set (so an error names the scenario's or
 * the opensm.conf's line); what depends on fabric.vls is checked in qos_apply. */
static int check_vlarb(const void *field, char *why, size_t whylen)
{
    const char *s = *(char *const *)field;
    struct vlarb_entry tmp[VLARB_ENTRIES];
    uint8_t n;
    return s && *s ? vlarb_parse_entries(s, tmp, &n, why, (int)whylen) : 0;
}

static int check_sl2vl(const void *field, char *why, size_t whylen)
{
    const char *p = *(char *const *)field;
    if (!p || !*p)
        return 0;
    for (int sl = 0; sl < 16; sl++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 15) {
            snprintf(why, whylen, "expected 16 comma-separated VLs 0-15, entry %d is \"%.20s\"", sl, p);
            return -1;
        }
        p = end;
        while (*p == ' ')
            p++;
        if (sl < 15 && *p++ != ',') {
            snprintf(why, whylen, "expected 16 comma-separated VLs, found %d", sl + 1);
            return -1;
        }
    }
    while (*p == ' ')
        p++;
    if (*p) {
        snprintf(why, whylen, "expected 16 comma-separated VLs, found more");
        return -1;
    }
    return 0;
}

const struct param qos_params[] = {
    { "sl2vl", P_STRING, OFF(sl2vl), "",
      "SL-to-VL map as OpenSM's qos_sl2vl: 16 comma-separated VLs; \"\" = SL mod vls", NULL, 0, 0,
      check_sl2vl },
    { "vlarb_high", P_STRING, OFF(vlarb_high), "",
      "high-priority VL arbitration table, OpenSM form \"VL:weight,...\" (weights in 64-byte units)",
      NULL, 0, 0, check_vlarb },
    { "vlarb_low", P_STRING, OFF(vlarb_low), "",
      "low-priority VL arbitration table; \"\" = every data VL with weight 64", NULL, 0, 0,
      check_vlarb },
    { "high_limit", P_INT, OFF(high_limit), "255",
      "LimitOfHighPriority in 4096-byte units (255 = unbounded, 0 = one packet)", NULL, 0, 255 },
    { "ca_vlarb_high", P_STRING, OFF(ca_vlarb_high), "", "adapter ports' high table (\"\" = vlarb_high)", NULL, 0, 0, check_vlarb },
    { "ca_vlarb_low", P_STRING, OFF(ca_vlarb_low), "", "adapter ports' low table (\"\" = vlarb_low)", NULL, 0, 0, check_vlarb },
    { "ca_high_limit", P_INT, OFF(ca_high_limit), "-1", "adapter ports' limit (-1 = high_limit)", NULL, -1, 255 },
    { "ca_sl2vl", P_STRING, OFF(ca_sl2vl), "",
      "adapter ports' SL-to-VL map (OpenSM's qos_ca_sl2vl); \"\" = sl2vl", NULL, 0, 0 },
    { "max_vls", P_INT, OFF(max_vls), "0",
      "OpenSM's qos_max_vls: data VLs in use, replacing fabric.vls when > 0 (15 = all)", NULL, 0, 15 },
    { "opensm_conf", P_STRING, OFF(opensm_conf), "",
      "an opensm.conf (as OpenSM writes it) whose QoS keys are read first, whether or not "
      "congestion control is on; this section's other keys then override them", NULL, 0, 0 },
    { "classes", P_STRING, OFF(classes), "DBTS:0,DB:1,PBE:2,BE:3,CH:4",
      "traffic classes (seeds 000, 001, 003: Pelissier's DBTS, DB, PBE, BE, CH) and the SL of "
      "each, \"NAME:SL,...\"; a flow may give `class` instead of `sl`", NULL, 0, 0 },
    PARAM_END,
};

static void defaults(const struct param *tab, void *obj)
{
    char why[256];
    if (params_set_defaults(tab, obj, why, sizeof why))
        ibn_panic("bad built-in default: %s", why);
}

void fabric_settings_defaults(struct fabric_settings *s)
{
    memset(s, 0, sizeof *s);
    defaults(fabric_params, s);
    defaults(switch_params, s);
    defaults(hca_params, s);
    defaults(transport_params, s);
    defaults(isol_params, s);
    defaults(draw_params, s);
    struct qos_desc q;
    qos_desc_defaults(&q);
    struct ibn_err e;
    if (qos_apply(&q, s, &e))
        ibn_panic("bad built-in QoS default: %s", e.msg);
    params_free(qos_params, &q);
}

void qos_desc_defaults(struct qos_desc *q)
{
    memset(q, 0, sizeof *q);
    defaults(qos_params, q);
}

static int table(const char *key, const char *text, struct vlarb_entry *out, uint8_t *n, int nvls,
                 struct ibn_err *e)
{
    char why[256];
    if (vlarb_parse_entries(text, out, n, why, sizeof why))
        return ibn_err_set(e, "qos.%s: %s", key, why);
    for (int i = 0; i < *n; i++)
        if (out[i].vl >= nvls && out[i].weight)
            return ibn_err_set(e, "qos.%s gives weight to VL %d, but only VLs 0-%d are in use "
                               "(fabric.vls = %d)", key, out[i].vl, nvls - 1, nvls);
    return 0;
}

static int tables(const char *hkey, const char *high, const char *lkey, const char *low,
                  long long limit, int nvls, struct vlarb_table *t, struct ibn_err *e)
{
    vlarb_table_default(t, nvls, 64);
    t->limit_high = (uint8_t)limit;
    if (*low && table(lkey, low, t->low, &t->nlow, nvls, e))
        return -1;
    if (*high && table(hkey, high, t->high, &t->nhigh, nvls, e))
        return -1;
    return 0;
}

int qos_class_sl(const struct qos_desc *q, const char *name, struct ibn_err *e)
{
    const char *p = q->classes ? q->classes : "";
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *colon = strchr(p, ':');
        if (!colon)
            break;
        size_t n = (size_t)(colon - p);
        char *end;
        long sl = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || sl < 0 || sl > 15)
            return ibn_err_set(e, "qos.classes: expected \"NAME:SL,...\" with SL 0-15, at \"%s\"", p);
        if (strlen(name) == n && !strncmp(p, name, n))
            return (int)sl;
        p = end;
    }
    return ibn_err_set(e, "traffic class \"%s\" is not in qos.classes (\"%s\")", name,
                       q->classes ? q->classes : "");
}

static int sl2vl_parse(const char *key, const char *text, int nvls, uint8_t out[16], struct ibn_err *e)
{
    const char *p = text;
    for (int sl = 0; sl < 16; sl++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || (v >= nvls && v != VL15))
            return ibn_err_set(e, "qos.%s: expected 16 comma-separated VLs 0-%d (or 15), "
                               "entry %d is \"%.20s\"", key, nvls - 1, sl, p);
        out[sl] = (uint8_t)v;
        p = end;
        while (*p == ' ')
            p++;
        if (sl < 15) {
            if (*p != ',')
                return ibn_err_set(e, "qos.%s: expected 16 comma-separated VLs, found %d", key, sl + 1);
            p++;
        }
    }
    while (*p == ' ')
        p++;
    if (*p)
        return ibn_err_set(e, "qos.%s: more than 16 entries", key);
    return 0;
}

int qos_apply(const struct qos_desc *q, struct fabric_settings *s, struct ibn_err *e)
{
    if (q->max_vls > 0)
        s->nvls = q->max_vls > 15 ? 15 : q->max_vls;
    int nvls = (int)s->nvls;
    for (int sl = 0; sl < 16; sl++)
        s->sl2vl[sl] = (uint8_t)(sl % nvls);
    if (q->sl2vl && *q->sl2vl && sl2vl_parse("sl2vl", q->sl2vl, nvls, s->sl2vl, e))
        return -1;
    memcpy(s->sl2vl_ca, s->sl2vl, 16);
    if (q->ca_sl2vl && *q->ca_sl2vl && sl2vl_parse("ca_sl2vl", q->ca_sl2vl, nvls, s->sl2vl_ca, e))
        return -1;
    const char *hs = q->vlarb_high ? q->vlarb_high : "", *ls = q->vlarb_low ? q->vlarb_low : "";
    if (tables("vlarb_high", hs, "vlarb_low", ls, q->high_limit, nvls, &s->vlarb_sw, e))
        return -1;
    const char *ch = q->ca_vlarb_high && *q->ca_vlarb_high ? q->ca_vlarb_high : hs;
    const char *cl = q->ca_vlarb_low && *q->ca_vlarb_low ? q->ca_vlarb_low : ls;
    long long climit = q->ca_high_limit >= 0 ? q->ca_high_limit : q->high_limit;
    return tables("ca_vlarb_high", ch, "ca_vlarb_low", cl, climit, nvls, &s->vlarb_ca, e);
}

/* ecnrate.c: seed 000's ECN rate control as a plug-in (ecnrate.h; docs/ecnrate.md).
 * Switch side: two counters per output link o (Ch.3.3.1): cnt1[o] = data packets in the switch
 * waiting for o, cnt2[o] = packets still to be marked on o. When a data packet enters a switch
 * and the trigger fires (default: the input VL buffer it entered is now full, i.e. cannot take
 * another MTU packet; option: cnt1[o] reached a number of packets), cnt2[o] = cnt1[o]; every
 * data packet leaving o while cnt2[o] > 0 is marked (FECN) and cnt2[o] decremented.
 * Destination: the reliable connection copies the mark into the ACK (BECN, transport.c).
 * Source: on every ACK of a flow the rate r of its SL's law moves: marked, r = f_dec(r);
 * unmarked, r = f_inc(r) (PIPD: r^(1/m) and r^(m^(R_min/r)); FIMD: r/n and r n^(R_min/r)),
 * within [R_min, R_max], R_max the link's rate and R_min = R_max / rmin_div of the SL, starting
 * at R_min. A packet starts no earlier than 1/r (in packets) or its wire bytes at r (in a byte
 * unit) after the flow's previous one; the reliable connection's window limits it too. An SL
 * whose law is none is not rate-controlled (its marks are counted, not answered). Link flow
 * control underneath is unchanged. */
#include "cc/ecnrate.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cc/ibcc.h"
#include "fabric/distio.h"
#include "fabric/transport.h"

#define OFF(field) offsetof(struct ecnrate_desc, field)

static const char *const trigger_names[] = { "input_full", "output_packets", NULL };
static const char *const unit_names[] = { "packets", "MBps", "Gbps", "link", NULL };
static const char *const law_names[] = { "pipd", "fimd", "none", NULL };
static const char *const pacing_names[] = { "send", "ack", NULL };

const struct param ecnrate_params[] = {
    { "trigger", P_ENUM, OFF(trigger), "input_full",
      "when the switch sets cnt2[o] = cnt1[o] (the packets then queued for output o get marked): "
      "input_full = a data packet entered an input VL buffer that is now full (cannot take "
      "another MTU packet; seed 000 digest section 7 item 2); output_packets = cnt1[o] reached "
      "trigger_packets", trigger_names, 0, 0 },
    { "trigger_packets", P_INT, OFF(trigger_packets), "8",
      "trigger = output_packets: data packets queued in the switch for one output", NULL, 1, 1e9 },
    { "rate_unit", P_ENUM, OFF(rate_unit), "packets",
      "the unit of the rates the laws act on (PIPD's powers depend on it): packets = packets/s "
      "(R_max = link data rate / MTU packet's wire bytes; the seed 000 digest's default); MBps = "
      "10^6 bytes/s; Gbps = 10^9 bits/s; link = a fraction of the link rate (PIPD is undefined "
      "there: r^(1/m) > r for r < 1)", unit_names, 0, 0 },
    { "law", P_STRING, OFF(law), "pipd",
      "source response per SL: \"pipd\" for every SL, \"fimd\", or \"pipd,0:fimd\" (SL 0 FIMD); "
      "\"none\": the SL's sources are not rate-controlled (their packets are marked, their ACKs "
      "counted, their rate stays R_max and nothing paces them: \"pipd,2:none\")",
      NULL, 0, 0 },
    { "rmin_div", P_STRING, OFF(rmin_div), "256",
      "R_min = R_max / this, per SL (\"256,1:128\": SL 1's R_min twice SL 0's, the thesis's high "
      "priority class)", NULL, 0, 0 },
    { "pacing", P_ENUM, OFF(pacing), "send",
      "when the gap to the next packet is set: send = as a packet leaves, 1/r at the rate then "
      "(the thesis's \"next packet no earlier than 1/r after the previous one\"; a flow at R_min "
      "waits 1/R_min whatever ACKs come meanwhile); ack = also re-set by every ACK to 1/r "
      "after the previous packet at the new rate", pacing_names, 0, 0 },
    { "m", P_DOUBLE, OFF(m), "4", "PIPD: the power m > 1 of r^(1/m) and r^(m^(R_min/r))", NULL, 0, 1e6 },
    { "n", P_DOUBLE, OFF(n), "4", "FIMD: the factor n > 1 of r/n and r n^(R_min/r)", NULL, 0, 1e6 },
    PARAM_END,
};

double pipd_dec(double r, double m, double rmin)
{
    double v = pow(r, 1.0 / m);
    return v > rmin ? v : rmin;
}

double pipd_inc(double r, double m, double rmin, double rmax)
{
    double v = pow(r, pow(m, rmin / r));
    return v < rmax ? v : rmax;
}

double fimd_dec(double r, double n, double rmin)
{
    double v = r / n;
    return v > rmin ? v : rmin;
}

double fimd_inc(double r, double n, double rmin, double rmax)
{
    double v = r * pow(n, rmin / r);
    return v < rmax ? v : rmax;
}

int ecnrate_parse_laws(const char *text, int out[16], char *why, size_t whylen)
{
    const char *p = text ? text : "";
    int any = 0;
    while (*p) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (!*p)
            break;
        int sl = -1;
        if (isdigit((unsigned char)*p)) {
            char *end;
            long v = strtol(p, &end, 10);
            if (*end != ':' || v < 0 || v > 15) {
                snprintf(why, whylen, "expected SL:law with SL 0-15 in \"%s\"", text);
                return -1;
            }
            sl = (int)v;
            p = end + 1;
        }
        size_t n = 0;
        while (isalpha((unsigned char)p[n]))
            n++;
        int law = -1;
        for (int k = 0; law_names[k]; k++)
            if (n == strlen(law_names[k]) && !strncmp(p, law_names[k], n))
                law = k;
        if (law < 0) {
            snprintf(why, whylen, "expected a law pipd, fimd or none (\"pipd\", \"pipd,0:fimd\"), got \"%s\"",
                     text);
            return -1;
        }
        for (int s = 0; s < 16; s++)
            if (sl < 0 || s == sl)
                out[s] = law;
        any = 1;
        p += n;
        while (isspace((unsigned char)*p))
            p++;
        if (*p && *p != ',') {
            snprintf(why, whylen, "expected comma-separated laws in \"%s\"", text);
            return -1;
        }
    }
    if (!any) {
        snprintf(why, whylen, "expected a law per SL (\"pipd\", \"fimd\", \"none\", \"pipd,0:fimd\"), got \"%s\"",
                 text ? text : "");
        return -1;
    }
    return 0;
}

/* ---- running state ---- */

struct ecn_oport {
    int32_t cnt1, cnt2;
    uint64_t marked, triggers;
};

struct ecn_flow {
    double r, rmin, rmax;        /* in the unit */
    double ps_per_unit_byte;     /* byte units: ps per wire byte at rate 1; packets: 0 */
    uint8_t law;
    simtime_t last_send;
    uint16_t last_wire;
    uint8_t sent;                /* a packet has been sent */
    uint64_t acks, marked_acks;
    double area;                 /* integral of r over the measured period, unit x ps */
    simtime_t since;             /* when area last took r in */
};

struct ecnrate {
    struct ecnrate_desc d;
    double m, n;
    int32_t mtu_credits;
    struct ecn_oport *oports;
    struct ecn_flow *flows;
    char resolved[1024];
};

static inline struct ecnrate *ctx(struct fabric *f)
{
    return f->hooks.ctx;
}

static void settle(const struct fabric *f, struct ecn_flow *e)
{
    simtime_t a = e->since > f->warmup ? e->since : f->warmup;
    simtime_t b = f->now < f->end ? f->now : f->end;
    if (b > a)
        e->area += e->r * (double)(b - a);
    e->since = f->now;
}

/* The gap from a packet's start to the next one's at rate r. */
static simtime_t gap(const struct ecn_flow *e, uint32_t wire)
{
    if (e->ps_per_unit_byte <= 0)
        return (simtime_t)llround(1e12 / e->r);
    return (simtime_t)llround((double)wire * e->ps_per_unit_byte / e->r);
}

static void on_enqueue(struct fabric *f, struct port *in, struct port *out, struct packet *p)
{
    struct ecn_oport *o = out->cc;
    if (!o || p->flow == FLOW_CONTROL)
        return;
    struct ecnrate *c = ctx(f);
    o->cnt1++;
    int fire;
    if (c->d.trigger == ECN_TRIGGER_OUTPUT_PACKETS) {
        fire = o->cnt1 >= c->d.trigger_packets;
    } else {
        const struct port_vl *v = &in->vl[fabric_slot(f, p->vl)];
        fire = p->vl != VL15 && v->rx_cap - v->rx_used < c->mtu_credits;
    }
    if (fire) {
        o->cnt2 = o->cnt1;
        o->triggers++;
    }
}

static void on_dequeue(struct fabric *f, struct port *in, struct port *out, struct packet *p)
{
    (void)f, (void)in;
    struct ecn_oport *o = out->cc;
    if (o && p->flow != FLOW_CONTROL)
        o->cnt1--;
}

static void on_depart(struct fabric *f, struct port *out, struct packet *p)
{
    struct ecn_oport *o = out->cc;
    if (!o || !out->is_switch || p->flow == FLOW_CONTROL || o->cnt2 <= 0)
        return;
    o->cnt2--;
    if (!(p->flags & PKT_FECN)) {
        p->flags |= PKT_FECN;
        o->marked++;
        fabric_timeline(f, TLN_FECN, out, p, 0, 0);
    }
}

static void on_receive(struct fabric *f, struct port *at, struct packet *p)
{
    if (!(p->flags & PKT_ACK) || p->about_flow >= f->nflows)
        return;
    struct flow *fl = &f->flows[p->about_flow];
    if (fl->src != at)
        return;
    struct ecnrate *c = ctx(f);
    struct ecn_flow *e = &c->flows[fl->index];
    settle(f, e);
    e->acks++;
    if (p->flags & PKT_BECN) {
        e->marked_acks++;
        fabric_timeline(f, TLN_BECN, at, p, 0, 0);
    }
    if (e->law == ECN_LAW_NONE)
        return; /* not rate-controlled: the mark is counted, not answered */
    if (p->flags & PKT_BECN) {
        e->r = e->law == ECN_LAW_PIPD ? pipd_dec(e->r, c->m, e->rmin) : fimd_dec(e->r, c->n, e->rmin);
    } else {
        e->r = e->law == ECN_LAW_PIPD ? pipd_inc(e->r, c->m, e->rmin, e->rmax)
                                      : fimd_inc(e->r, c->n, e->rmin, e->rmax);
    }
    if (!e->sent || c->d.pacing == ECN_PACING_SEND)
        return;
    /* The next packet: 1/r after the previous one, at the new rate. */
    fl->next_ok = e->last_send + gap(e, e->last_wire);
    fabric_flow_repace(f, fl);
}

static void on_source_send(struct fabric *f, struct flow *fl, struct packet *p)
{
    struct ecn_flow *e = &ctx(f)->flows[fl->index];
    if (e->law == ECN_LAW_NONE)
        return;
    e->last_send = f->now;
    e->last_wire = p->wire_bytes;
    e->sent = 1;
    simtime_t next = f->now + gap(e, p->wire_bytes);
    if (next > fl->next_ok)
        fl->next_ok = next;
}

/* ---- results ---- */

static double mean_rate(const struct fabric *f, struct ecn_flow *e)
{
    settle(f, e);
    return f->end > f->warmup ? e->area / (double)(f->end - f->warmup) : e->r;
}

static void series_header(struct fabric *f, FILE *out)
{
    for (uint32_t i = 0; i < f->nflows; i++)
        fprintf(out, ",%s", f->flows[i].name);
}

static void series_row(struct fabric *f, FILE *out)
{
    struct ecnrate *c = ctx(f);
    for (uint32_t i = 0; i < f->nflows; i++)
        fprintf(out, ",%.6g", c->flows[i].r);
}

static void table_flows(struct fabric *f, FILE *out)
{
    struct ecnrate *c = ctx(f);
    fprintf(out, "flow,sl,law,rate_unit,r_min,r_max,r_final,r_mean,acks,marked_acks\n");
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ecn_flow *e = &c->flows[i];
        fprintf(out, "%s,%d,%s,%s,%.6g,%.6g,%.6g,%.6g,%llu,%llu\n", f->flows[i].name, f->flows[i].sl,
                law_names[e->law], unit_names[c->d.rate_unit], e->rmin, e->rmax, e->r,
                mean_rate(f, e), (unsigned long long)e->acks, (unsigned long long)e->marked_acks);
    }
}

static void table_ports(struct fabric *f, FILE *out)
{
    fprintf(out, "port,triggers,marked\n");
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; n->is_switch && p <= n->nports; p++) {
            struct ecn_oport *o = n->port[p].cc;
            if (o)
                fprintf(out, "%s:%d,%llu,%llu\n", n->name, p, (unsigned long long)o->triggers,
                        (unsigned long long)o->marked);
        }
    }
}

static void report(struct fabric *f, json_t *summary)
{
    struct ecnrate *c = ctx(f);
    json_t *o = json_object();
    json_object_set_new(o, "plugin", json_string("ecnrate"));
    json_object_set_new(o, "model", json_string(c->resolved));
    json_object_set_new(o, "rate_unit", json_string(unit_names[c->d.rate_unit]));
    uint64_t marks = 0;
    json_t *sw = json_array(), *fl = json_array();
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; n->is_switch && p <= n->nports; p++) {
            struct ecn_oport *op = n->port[p].cc;
            if (!op)
                continue;
            marks += op->marked;
            if (!op->marked && !op->triggers)
                continue;
            char name[300];
            snprintf(name, sizeof name, "%s:%d", n->name, p);
            json_t *x = json_object();
            json_object_set_new(x, "port", json_string(name));
            json_object_set_new(x, "triggers", json_integer((json_int_t)op->triggers));
            json_object_set_new(x, "marked", json_integer((json_int_t)op->marked));
            json_array_append_new(sw, x);
        }
    }
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ecn_flow *e = &c->flows[i];
        json_t *x = json_object();
        json_object_set_new(x, "name", json_string(f->flows[i].name));
        json_object_set_new(x, "law", json_string(law_names[e->law]));
        json_object_set_new(x, "r_min", json_real(e->rmin));
        json_object_set_new(x, "r_max", json_real(e->rmax));
        json_object_set_new(x, "r_final", json_real(e->r));
        json_object_set_new(x, "r_mean", json_real(mean_rate(f, e)));
        json_object_set_new(x, "acks", json_integer((json_int_t)e->acks));
        json_object_set_new(x, "marked_acks", json_integer((json_int_t)e->marked_acks));
        json_array_append_new(fl, x);
    }
    json_object_set_new(o, "marked_total", json_integer((json_int_t)marks));
    json_object_set_new(o, "switch_ports", sw);
    json_object_set_new(o, "flows", fl);
    json_object_set_new(summary, "cc", o);
}

static void destroy(struct fabric *f)
{
    struct ecnrate *c = ctx(f);
    if (!c)
        return;
    free(c->oports);
    free(c->flows);
    free(c);
    f->hooks.ctx = NULL;
}

/* ---- a distributed run (dist/dist.c) ---- */

/* Rank `rank`'s state: its switches' output counters (cnt1, cnt2, marks, triggers: a switch's
 * hooks run on its rank) and its flows' rates (a flow's ACKs arrive at its source, on its rank).
 * The marks and ACKs themselves travel in the packets. */
static void dist_walk(struct fabric *f, const int *part, int rank, struct dist_io *io)
{
    struct ecnrate *c = ctx(f);
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (part[i] != rank || !n->is_switch)
            continue;
        for (int p = 1; p <= n->nports; p++)
            if (n->port[p].cc)
                dist_io_bytes(io, n->port[p].cc, sizeof(struct ecn_oport));
    }
    for (uint32_t i = 0; i < f->nflows; i++)
        if (part[f->flows[i].src->node->index] == rank)
            DIST_IO(io, c->flows[i]);
}

/* cc.csv in a distributed run: each flow's rate from its source's rank (its bits, which the
 * sum over the ranks keeps, every other rank giving 0). */
static void dist_sample_get(struct fabric *f, const int *part, int rank, int64_t *v)
{
    struct ecnrate *c = ctx(f);
    for (uint32_t i = 0; i < f->nflows; i++)
        if (part[f->flows[i].src->node->index] == rank)
            memcpy(&v[i], &c->flows[i].r, sizeof v[i]);
}

static void dist_sample_set(struct fabric *f, const int *part, const int64_t *v)
{
    struct ecnrate *c = ctx(f);
    for (uint32_t i = 0; i < f->nflows; i++)
        if (part[f->flows[i].src->node->index] != 0)
            memcpy(&c->flows[i].r, &v[i], sizeof c->flows[i].r);
}

/* ---- set-up ---- */

/* The link rate in the unit, for a flow's source port. */
static double unit_rate(int unit, const struct port *p, uint32_t mtu_wire, double *ps_per_unit_byte)
{
    double bps = byterate_bps(p->rate);
    switch (unit) {
    case ECN_UNIT_MBPS:
        *ps_per_unit_byte = 1e12 / 1e6;
        return bps / 8 / 1e6;
    case ECN_UNIT_GBPS:
        *ps_per_unit_byte = 1e12 * 8 / 1e9;
        return bps / 1e9;
    case ECN_UNIT_LINK:
        *ps_per_unit_byte = 1e12 * 8 / bps;
        return 1.0;
    default:
        *ps_per_unit_byte = 0;
        return bps / 8 / mtu_wire;
    }
}

static int attach(struct fabric *f, const void *descp, struct ibn_err *e)
{
    const struct ecnrate_desc *d = descp;
    if (f->set.transport != TRANSPORT_RC)
        return ibn_err_set(e, "cc.plugin = ecnrate reacts to every ACK: it needs transport.mode = rc "
                           "(the destination copies the mark into the ACK)");
    int law[16];
    long long div[16];
    char why[300];
    if (ecnrate_parse_laws(d->law, law, why, sizeof why))
        return ibn_err_set(e, "cc.law: %s", why);
    if (ibcc_parse_per_sl(d->rmin_div, 1, 1000000000LL, div, why, sizeof why))
        return ibn_err_set(e, "cc.rmin_div: %s", why);
    int any_pipd = 0, any_fimd = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        any_pipd |= law[f->flows[i].sl] == ECN_LAW_PIPD;
        any_fimd |= law[f->flows[i].sl] == ECN_LAW_FIMD;
    }
    if (any_pipd && !(d->m > 1))
        return ibn_err_set(e, "cc.m = %g: PIPD needs m > 1 (r^(1/m) must decrease and r^(m^(R_min/r)) "
                           "increase)", d->m);
    if (any_fimd && !(d->n > 1))
        return ibn_err_set(e, "cc.n = %g: FIMD needs n > 1 (r/n must decrease)", d->n);
    struct ecnrate *c = xcalloc(1, sizeof *c);
    c->d = *d;
    c->m = d->m;
    c->n = d->n;
    uint32_t mtu_wire = pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh);
    c->mtu_credits = (int32_t)bytes_to_credits(mtu_wire);
    c->flows = xcalloc((size_t)f->nflows + 1, sizeof *c->flows);
    int bang = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        struct ecn_flow *x = &c->flows[i];
        x->law = (uint8_t)law[fl->sl];
        x->rmax = unit_rate(d->rate_unit, fl->src, mtu_wire, &x->ps_per_unit_byte);
        x->rmin = x->rmax / (double)div[fl->sl];
        x->r = x->law == ECN_LAW_NONE ? x->rmax : x->rmin;
        if (x->law == ECN_LAW_PIPD && !(x->rmin > 1.0)) {
            double rmin = x->rmin;
            free(c->flows), free(c);
            return ibn_err_set(e, "cc: PIPD with rate_unit = %s gives flow %s R_min = %g: PIPD's power "
                               "decrease r^(1/m) raises any rate below 1 %s and leaves 1 unchanged, "
                               "so it is undefined there; use rate_unit = packets or MBps (docs/ecnrate.md)",
                               unit_names[d->rate_unit], fl->name, rmin, unit_names[d->rate_unit]);
        }
        if (x->law == ECN_LAW_PIPD && pipd_dec(x->rmax, c->m, x->rmin) <= x->rmin)
            bang = 1;
    }
    /* Switch output ports (all, inter-switch ones included). */
    size_t nop = 0;
    for (int i = 0; i < f->nnodes; i++)
        if (f->nodes[i]->is_switch)
            nop += (size_t)f->nodes[i]->nports;
    c->oports = xcalloc(nop + 1, sizeof *c->oports);
    size_t k = 0;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (!n->is_switch)
            continue;
        for (int p = 1; p <= n->nports; p++)
            n->port[p].cc = &c->oports[k++];
    }
    snprintf(c->resolved, sizeof c->resolved,
             "seed 000 ECN rate control: two-counter marking at switch outputs (trigger %s%s), "
             "the mark copied into RC ACKs, per-SL law %s on every ACK (m %g, n %g), R_min = R_max / "
             "\"%s\", rates in %s, gap set at %s%s",
             trigger_names[d->trigger], d->trigger == ECN_TRIGGER_OUTPUT_PACKETS ? " packets" : "",
             d->law, d->m, d->n, d->rmin_div, unit_names[d->rate_unit], pacing_names[d->pacing],
             bang ? "; PIPD is near bang-bang in this unit: f_dec(R_max) <= R_min, a marked ACK "
                    "drops any rate to R_min" : "");
    c->d.law = c->d.rmin_div = NULL;
    f->hooks = (struct fabric_hooks){
        .name = "ecnrate",
        .ctx = c,
        .on_enqueue = on_enqueue,
        .on_dequeue = on_dequeue,
        .on_depart = on_depart,
        .on_receive = on_receive,
        .on_source_send = on_source_send,
        .report = report,
        .series_header = series_header,
        .series_row = series_row,
        .table_ports = table_ports,
        .table_flows = table_flows,
        .destroy = destroy,
    };
    /* Distributed only with the output_packets trigger: input_full reads the input buffer's use,
     * which counts the packets already on the wire behind the one arriving; over a cable that
     * another rank drives they are known only at the window's end (docs/distributed.md). */
    if (d->trigger == ECN_TRIGGER_OUTPUT_PACKETS) {
        f->hooks.dist_walk = dist_walk;
        f->hooks.dist_sample_get = dist_sample_get;
        f->hooks.dist_sample_set = dist_sample_set;
    }
    return 0;
}

const struct cc_plugin ecnrate_plugin = {
    "ecnrate",
    "seed 000's ECN rate control: two-counter marking at switch outputs, the mark in RC ACKs, "
    "PIPD or FIMD source rates per SL on every ACK",
    ecnrate_params,
    sizeof(struct ecnrate_desc),
    attach,
};

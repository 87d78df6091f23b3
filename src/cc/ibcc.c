/* ibcc.c: IB congestion control's settings (the parameter table the scenario's cc section and
 * opensm.conf fill), its set-up on a built fabric (thresholds, Victim_Mask, CCT, per-port and
 * per-flow state, timers) and its results (counters in the JSON summary, CCTI time series,
 * per-port and per-flow tables). The data path is in ibcc_switch.c and ibcc_hca.c. */
#include "cc/ibcc.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cc/ibcc_int.h"
#include "fabric/distio.h"
#include "core/output.h"
#include "core/rng.h"
#include "fabric/build.h"
#include "fabric/transport.h"

#define OFF(field) offsetof(struct ibcc_desc, field)

static const char *const map_names[] = { "fraction", "mtu", "bytes", NULL };
static const char *const detect_names[] = { "voq", "sum", "sum_per_input", NULL };
static const char *const thr_names[] = { "single", "double", NULL };
static const char *const marking_names[] = { "probability", "counter", NULL };
static const char *const level_names[] = { "qp", "sl", "flow", NULL };
static const char *const timer_names[] = { "free", "restart", "per_flow", NULL };
static const char *const form_names[] = { "absolute", "spec", NULL };
static const char *const becn_names[] = { "packet", "message", NULL };

static int check_mark_probability(const void *field, char *why, size_t whylen)
{
    double v = *(const double *)field;
    if (v == -1.0 || (v >= 0.0 && v <= 1.0))
        return 0;
    snprintf(why, whylen, "mark_probability expects a probability from 0 to 1, or -1 (from marking_rate); got %g", v);
    return -1;
}

const struct param ibcc_params[] = {
    { "threshold", P_INT, OFF(threshold), "15",
      "switch Threshold weight 0-15: 0 = never mark, 1 = loosest (highest occupancy), "
      "15 = most aggressive (lowest occupancy); mapped to bytes by threshold_map", NULL, 0, 15 },
    { "threshold_map", P_ENUM, OFF(threshold_map), "fraction",
      "how the weight T becomes an occupancy: fraction = (16-T)/16 of one input buffer per VL "
      "(switch.buffer); mtu = (16-T) MTU packets; bytes = threshold_bytes (T only switches "
      "detection on or off)", map_names, 0, 0 },
    { "threshold_bytes", P_SIZE, OFF(threshold_bytes), "4 KiB",
      "the upper threshold when threshold_map = bytes", NULL, 0, 1e12 },
    { "detect", P_ENUM, OFF(detect), "sum",
      "what is compared with the threshold, per output port and VL (seed 002 Paper I): voq = each "
      "input's VOQ on its own; sum = the sum over the inputs' VOQs; sum_per_input = the sum "
      "against the threshold divided by the number of inputs with a non-empty VOQ",
      detect_names, 0, 0 },
    { "thresholds", P_ENUM, OFF(thresholds), "double",
      "single: congested while above the threshold; double: enter above the threshold, leave "
      "only at or below threshold - hysteresis (Paper II's fix for contributor fairness)",
      thr_names, 0, 0 },
    { "hysteresis", P_DOUBLE, OFF(hysteresis_mtus), "3.1",
      "upper minus lower threshold in MTU packets (Paper II: more than 1, it used a little "
      "more than 3); the lower threshold stops at 0", NULL, 0, 1e6 },
    { "victim_mask", P_STRING, OFF(victim_mask), "ca",
      "Victim_Mask: ports that may enter the congestion state without credits: \"ca\" (ports "
      "facing channel adapters), \"none\", \"all\", or a port bit mask \"0x...\" as OpenSM writes "
      "it (bit 0 = port 0)", NULL, 0, 0 },
    { "packet_size", P_INT, OFF(packet_size), "8",
      "Packet_Size in 64-byte credits: smaller packets are never marked", NULL, 0, 255 },
    { "marking_rate", P_INT, OFF(marking_rate), "1",
      "Marking_Rate: mean number of eligible packets sent between marked ones (0 = mark every "
      "eligible packet)", NULL, 0, 65535 },
    { "marking", P_ENUM, OFF(marking), "probability",
      "probability: each eligible packet is marked with probability 1/(marking_rate+1) (Paper II); "
      "counter: every (marking_rate+1)-th eligible packet", marking_names, 0, 0 },
    { "mark_probability", P_DOUBLE, OFF(mark_probability), "-1",
      "probability that an eligible packet leaving a congested Port VL is FECN-marked, any value "
      "in 0..1 (seed 002 Papers V/VI's Marking_Rate of 85 % is 0.85), drawn from the port's own "
      "random stream; -1 = from marking_rate and marking (IBA's Marking_Rate can only give "
      "1/(n+1))", NULL, -1, 1, check_mark_probability },
    { "becn", P_ENUM, OFF(becn), "packet",
      "how a destination answers FECN under transport.mode = ud: packet = a CNP with BECN for "
      "every FECN-marked packet (seed 002's simulator). Under transport.mode = rc BECN rides the "
      "ACKs (transport.ack) and no CNP is sent. message: deprecated, kept readable: it maps onto "
      "transport.mode = rc with transport.ack = message (BECN in the ACK of each message whose "
      "packets carried FECN; the ACKs now travel through the fabric)", becn_names, 0, 0 },
    { "cnp_interval", P_TIME, OFF(cnp_interval), "0 ns",
      "transport.mode = ud: a destination answers at most one FECN-marked packet per this time "
      "with a CNP, per source queue pair (a flow, or a flow's queue pair to this host); the "
      "FECNs in between go unanswered (counted as cnp_paced). 0 = a CNP for every FECN (seed "
      "002's simulator). A hypothesis about the adapters, not from the seed: docs/cc.md 5.3",
      NULL, 0, 0 },
    { "level", P_ENUM, OFF(level), "qp",
      "Port_Control: qp = a CCTI per queue pair; a flow to one host is one reliable-connection "
      "queue pair, a flow to many hosts (a pattern) one per destination host, each throttled on "
      "its own (Paper IV's QP or source-destination level); flow = one CCTI per flow whatever "
      "its destinations (one queue pair to many hosts, as UD); sl = one CCTI per adapter port "
      "and SL, which throttles every flow of the SL", level_names, 0, 0 },
    { "held_messages", P_INT, OFF(held_messages), "16",
      "level = qp, a flow to many hosts: started messages it may set aside on queue pairs that "
      "must wait (throttled) while it sends to other hosts; with all of them taken it waits. "
      "0 = it always waits for the next message's queue pair", NULL, 0, 4096 },
    { "control_map", P_INT, OFF(control_map), "65535",
      "SLs under congestion control at the adapters, one bit per SL", NULL, 0, 65535 },
    { "ccti_timer", P_STRING, OFF(ccti_timer), "150",
      "CCTI_Timer per SL in 1.024 us units: \"150\" for every SL, \"150,3:300\" to give SL 3 its "
      "own; 0 = the CCTI never decreases", NULL, 0, 0 },
    { "ccti_increase", P_STRING, OFF(ccti_increase), "1",
      "CCTI_Increase per SL (same list form): added to the CCTI on each BECN", NULL, 0, 0 },
    { "ccti_min", P_STRING, OFF(ccti_min), "0",
      "CCTI_Min per SL (same list form): the timer never lowers the CCTI below it", NULL, 0, 0 },
    { "ccti_limit", P_INT, OFF(ccti_limit), "-1",
      "CCTI_Limit: highest CCTI; -1 = the CCT's last index", NULL, -1, 65535 },
    { "timer_policy", P_ENUM, OFF(timer_policy), "free",
      "CCTI_Timer behaviour: free = one timer per adapter port SL, started by a BECN when idle "
      "and running until every CCTI of the SL is at CCTI_Min (the specification's reading); "
      "restart = the same timer restarted by every BECN; per_flow = a timer per flow, restarted "
      "by its BECNs (seed 002's simulator)", timer_names, 0, 0 },
    { "cct_form", P_ENUM, OFF(cct_form), "absolute",
      "absolute: CCT entries are delays in microseconds (seed 002's experiments); spec: entries "
      "are shift:multiplier and the delay is (packet transmission time >> shift) x multiplier",
      form_names, 0, 0 },
    { "cct", P_STRING, OFF(cct), "",
      "the CCT: absolute form \"us,us,...\"; spec form \"shift:multiplier,...\" (OpenSM's cc_cct); "
      "\"\" = the formula cct[i] = i^2 x cct_scale_us / cct_div^2 us (absolute form only)", NULL, 0, 0 },
    { "cct_scale_us", P_DOUBLE, OFF(cct_scale_us), "7.0",
      "formula CCT: numerator in microseconds (Paper III: 7)", NULL, 0, 1e9 },
    { "cct_div", P_DOUBLE, OFF(cct_div), "106.0",
      "formula CCT: divisor (Paper III: 106; the vendor default 95)", NULL, 1e-9, 1e9 },
    { "cct_entries", P_INT, OFF(cct_entries), "128", "formula CCT: number of entries", NULL, 1, 65536 },
    { "opensm_conf", P_STRING, OFF(opensm_conf), "",
      "an opensm.conf whose congestion (and QoS) keys are read first; keys given in the cc "
      "section override it (relative to the scenario)", NULL, 0, 0 },
    PARAM_END,
};

int ibcc_parse_per_sl(const char *text, long long min, long long max, long long out[16],
                      char *why, size_t whylen)
{
    const char *p = text ? text : "";
    int any = 0;
    while (*p) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (!*p)
            break;
        char *end;
        long long a = strtoll(p, &end, 0);
        if (end == p)
            goto bad;
        p = end;
        long long sl = -1, v = a;
        if (*p == ':') {
            sl = a;
            p++;
            v = strtoll(p, &end, 0);
            if (end == p)
                goto bad;
            p = end;
            if (sl < 0 || sl > 15) {
                snprintf(why, whylen, "SL %lld is not 0-15 in \"%s\"", sl, text);
                return -1;
            }
        }
        if (v < min || v > max) {
            snprintf(why, whylen, "value %lld is not in %lld-%lld in \"%s\"", v, min, max, text);
            return -1;
        }
        for (int s = 0; s < 16; s++)
            if (sl < 0 || s == sl)
                out[s] = v;
        any = 1;
        while (isspace((unsigned char)*p))
            p++;
        if (*p && *p != ',')
            goto bad;
    }
    if (!any)
        goto bad;
    return 0;
bad:
    snprintf(why, whylen, "expected a value for every SL (\"150\") or SL:value items "
             "(\"150,3:300\"), got \"%s\"", text ? text : "");
    return -1;
}

int ibcc_thresholds_bytes(const struct ibcc_desc *d, uint64_t buffer, uint32_t mtu_bytes,
                          int64_t *upper, int64_t *lower)
{
    *upper = *lower = 0;
    if (d->threshold <= 0)
        return -1;
    int64_t hi;
    switch (d->threshold_map) {
    case IBCC_MAP_MTU:
        hi = (16 - d->threshold) * (int64_t)mtu_bytes;
        break;
    case IBCC_MAP_BYTES:
        hi = (int64_t)d->threshold_bytes;
        break;
    default:
        hi = (int64_t)buffer * (16 - d->threshold) / 16;
        break;
    }
    int64_t lo = hi;
    if (d->thresholds == IBCC_DOUBLE) {
        lo = hi - (int64_t)llround(d->hysteresis_mtus * (double)mtu_bytes);
        if (lo < 0)
            lo = 0;
    }
    *upper = hi;
    *lower = lo;
    return 0;
}

/* Victim_Mask: bit `port` of the mask text. */
static int mask_bit(const char *text, int port, int *out)
{
    const char *h = text;
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
        h += 2;
    size_t n = strlen(h);
    if (!n)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)h[i]))
            return -1;
    size_t digit = (size_t)port / 4;
    if (digit >= n) {
        *out = 0;
        return 0;
    }
    char ch = h[n - 1 - digit];
    int v = isdigit((unsigned char)ch) ? ch - '0' : tolower((unsigned char)ch) - 'a' + 10;
    *out = v >> (port % 4) & 1;
    return 0;
}

static int build_cct(struct ibcc *c, const struct ibcc_desc *d, struct ibn_err *e)
{
    const char *t = d->cct ? d->cct : "";
    if (!*t) {
        if (d->cct_form == IBCC_CCT_SPEC)
            return ibn_err_set(e, "cc.cct: the spec form needs a table \"shift:multiplier,...\" "
                               "(as OpenSM's cc_cct)");
        c->ncct = (int)d->cct_entries;
        c->cct_ps = xcalloc((size_t)c->ncct, sizeof *c->cct_ps);
        for (int i = 0; i < c->ncct; i++)
            c->cct_ps[i] = (simtime_t)llround((double)i * i * d->cct_scale_us /
                                              (d->cct_div * d->cct_div) * (double)PS_PER_US);
        return 0;
    }
    int n = 1;
    for (const char *p = t; *p; p++)
        n += *p == ',';
    c->cct_ps = xcalloc((size_t)n, sizeof *c->cct_ps);
    c->cct_shift = xcalloc((size_t)n, sizeof *c->cct_shift);
    c->cct_mult = xcalloc((size_t)n, sizeof *c->cct_mult);
    const char *p = t;
    for (int i = 0; i < n; i++) {
        while (isspace((unsigned char)*p))
            p++;
        char *end;
        if (d->cct_form == IBCC_CCT_SPEC) {
            long sh = strtol(p, &end, 0);
            if (end == p || *end != ':' || sh < 0 || sh > 3)
                return ibn_err_set(e, "cc.cct entry %d: expected shift:multiplier with shift 0-3, "
                                   "got \"%.20s\"", i, p);
            p = end + 1;
            long mu = strtol(p, &end, 0);
            if (end == p || mu < 0 || mu > 16383)
                return ibn_err_set(e, "cc.cct entry %d: the multiplier must be 0-16383", i);
            c->cct_shift[i] = (uint16_t)sh;
            c->cct_mult[i] = (uint16_t)mu;
        } else {
            double us = strtod(p, &end);
            if (end == p || !(us >= 0) || us > 1e9)
                return ibn_err_set(e, "cc.cct entry %d: expected a delay in microseconds, got "
                                   "\"%.20s\"", i, p);
            c->cct_ps[i] = (simtime_t)llround(us * (double)PS_PER_US);
        }
        p = end;
        while (isspace((unsigned char)*p))
            p++;
        if (i + 1 < n) {
            if (*p != ',')
                return ibn_err_set(e, "cc.cct: entries are separated by commas");
            p++;
        } else if (*p) {
            return ibn_err_set(e, "cc.cct: unexpected \"%.20s\" after the last entry", p);
        }
    }
    c->ncct = n;
    return 0;
}

static void ibcc_destroy(struct fabric *f)
{
    struct ibcc *c = f->hooks.ctx;
    if (!c)
        return;
    for (size_t i = 0; i < c->noports; i++)
        if (c->oports[i].rng)
            gsl_rng_free(c->oports[i].rng);
    free(c->oports);
    free(c->voq_block);
    free(c->aports);
    free(c->groups);
    free(c->group_flows);
    free(c->raised_block);
    free(c->flows);
    free(c->dests);
    free(c->dest_send);
    free(c->dest_timers);
    free(c->cnp_block);
    free(c->cct_ps);
    free(c->cct_shift);
    free(c->cct_mult);
    free(c);
    f->hooks.ctx = NULL;
}

/* ---- results ---- */

static void series_header(struct fabric *f, FILE *out)
{
    for (uint32_t i = 0; i < f->nflows; i++) {
        fputc(',', out);
        csv_field(out, f->flows[i].name);
    }
}

static double index_mean(const struct ibcc_index *ix, simtime_t now)
{
    struct ibcc_index tmp = *ix;
    ibcc_index_settle(&tmp, now);
    return now > 0 ? tmp.integral / (double)now : 0.0;
}

struct ibcc_flow_ccti ibcc_flow_ccti(const struct fabric *f, const struct ibcc_flow *cf)
{
    struct ibcc_flow_ccti r = { cf->ix->ccti, cf->ix->ccti_max, 1, index_mean(cf->ix, f->now) };
    if (!cf->dest)
        return r;
    r = (struct ibcc_flow_ccti){ 0, 0, f->nhosts - 1, 0.0 };
    int n = 0;
    long long min = cf->cc->min[cf->ix->sl];
    for (int h = 0; h < f->nhosts; h++) {
        const struct ibcc_index *ix = &cf->dest[h].ix;
        if (ix->ccti > r.now)
            r.now = ix->ccti;
        if (ix->ccti_max > r.max)
            r.max = ix->ccti_max;
        if (ix->ccti_max > min) {
            r.mean += index_mean(ix, f->now);
            n++;
        }
    }
    r.mean = n ? r.mean / n : (double)min;
    return r;
}

static void series_row(struct fabric *f, FILE *out)
{
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        fprintf(out, ",%d", cf ? ibcc_flow_ccti(f, cf).now : 0);
    }
}

static void settle_all(struct fabric *f, struct ibcc *c)
{
    for (size_t i = 0; i < c->noports; i++)
        ibcc_oport_settle(&c->oports[i], f->nvs, f->now);
}

static void table_ports(struct fabric *f, FILE *out)
{
    struct ibcc *c = f->hooks.ctx;
    settle_all(f, c);
    double secs = (double)f->now / 1e12;
    fprintf(out, "port,vl,kind,fecn_marked,congested_s,congested_fraction,entered,fecn_received,"
                 "cnp_sent,becn_received\n");
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            if (!pt->cc)
                continue;
            if (n->is_switch) {
                struct ibcc_oport *o = pt->cc;
                for (int s = 0; s < f->set.nvls; s++) {
                    csv_field_port(out, n->name, p);
                    fprintf(out, ",%d,switch,%llu,%.9g,%.6f,%llu,,,\n", s,
                            (unsigned long long)o->marked[s], (double)o->cong_time[s] / 1e12,
                            secs > 0 ? (double)o->cong_time[s] / 1e12 / secs : 0.0,
                            (unsigned long long)o->entered[s]);
                }
            } else {
                struct ibcc_aport *a = pt->cc;
                csv_field_port(out, n->name, p);
                fprintf(out, ",,adapter,,,,,%llu,%llu,%llu\n",
                        (unsigned long long)a->fecn_received, (unsigned long long)a->cnp_sent,
                        (unsigned long long)a->becn_received);
            }
        }
    }
}

static void table_flows(struct fabric *f, FILE *out)
{
    fprintf(out, "flow,sl,fecn_marked,fecn_received,becn_received,ccti_final,ccti_max,ccti_mean,"
                 "queue_pairs\n");
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        if (!cf)
            continue;
        struct ibcc_flow_ccti r = ibcc_flow_ccti(f, cf);
        csv_field(out, f->flows[i].name);
        fprintf(out, ",%d,%llu,%llu,%llu,%d,%d,%.4f,%d\n", f->flows[i].sl,
                (unsigned long long)cf->fecn_marked, (unsigned long long)cf->fecn_received,
                (unsigned long long)cf->becn_received, r.now, r.max, r.mean, r.qps);
    }
}

static void report(struct fabric *f, json_t *summary)
{
    struct ibcc *c = f->hooks.ctx;
    settle_all(f, c);
    json_t *o = json_object();
    json_object_set_new(o, "plugin", json_string("ibcc"));
    json_object_set_new(o, "model", json_string(c->resolved));
    json_object_set_new(o, "threshold_upper_bytes", json_integer(c->thr_hi));
    json_object_set_new(o, "threshold_lower_bytes", json_integer(c->thr_lo));
    json_object_set_new(o, "ccti_limit", json_integer(c->ccti_limit));
    double secs = (double)f->now / 1e12;
    json_t *sw = json_array(), *ad = json_array(), *fl = json_array();
    uint64_t marks = 0, cnps = 0, becns = 0, paced = 0;
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            if (!pt->cc)
                continue;
            char name[300];
            snprintf(name, sizeof name, "%s:%d", n->name, p);
            if (n->is_switch) {
                struct ibcc_oport *op = pt->cc;
                for (int s = 0; s < f->set.nvls; s++) {
                    marks += op->marked[s];
                    if (!op->marked[s] && !op->cong_time[s])
                        continue; /* only ports that saw congestion */
                    json_t *x = json_object();
                    json_object_set_new(x, "port", json_string(name));
                    json_object_set_new(x, "vl", json_integer(s));
                    json_object_set_new(x, "fecn_marked", json_integer((json_int_t)op->marked[s]));
                    json_object_set_new(x, "congested_s", json_real((double)op->cong_time[s] / 1e12));
                    json_object_set_new(x, "congested_fraction",
                                        json_real(secs > 0 ? (double)op->cong_time[s] / 1e12 / secs : 0));
                    json_object_set_new(x, "entered", json_integer((json_int_t)op->entered[s]));
                    json_array_append_new(sw, x);
                }
            } else {
                struct ibcc_aport *a = pt->cc;
                cnps += a->cnp_sent;
                becns += a->becn_received;
                paced += a->cnp_paced;
                if (!a->fecn_received && !a->becn_received)
                    continue;
                json_t *x = json_object();
                json_object_set_new(x, "port", json_string(name));
                json_object_set_new(x, "fecn_received", json_integer((json_int_t)a->fecn_received));
                json_object_set_new(x, "cnp_sent", json_integer((json_int_t)a->cnp_sent));
                json_object_set_new(x, "becn_received", json_integer((json_int_t)a->becn_received));
                json_array_append_new(ad, x);
            }
        }
    }
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        if (!cf)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "name", json_string(f->flows[i].name));
        json_object_set_new(x, "fecn_marked", json_integer((json_int_t)cf->fecn_marked));
        json_object_set_new(x, "fecn_received", json_integer((json_int_t)cf->fecn_received));
        json_object_set_new(x, "becn_received", json_integer((json_int_t)cf->becn_received));
        struct ibcc_flow_ccti r = ibcc_flow_ccti(f, cf);
        json_object_set_new(x, "ccti_final", json_integer(r.now));
        json_object_set_new(x, "ccti_max", json_integer(r.max));
        json_object_set_new(x, "ccti_mean", json_real(r.mean));
        json_object_set_new(x, "queue_pairs", json_integer(r.qps));
        json_array_append_new(fl, x);
    }
    json_object_set_new(o, "fecn_marked_total", json_integer((json_int_t)marks));
    json_object_set_new(o, "cnp_sent_total", json_integer((json_int_t)cnps));
    json_object_set_new(o, "becn_received_total", json_integer((json_int_t)becns));
    if (c->d.cnp_interval > 0) /* only then: the summaries of other runs stay as they were */
        json_object_set_new(o, "cnp_paced_total", json_integer((json_int_t)paced));
    json_object_set_new(o, "switch_ports", sw);
    json_object_set_new(o, "adapter_ports", ad);
    json_object_set_new(o, "flows", fl);
    json_object_set_new(summary, "cc", o);
}

/* ---- a distributed run (dist/dist.c) ---- */

/* The state of rank `rank`'s nodes: its switches' output ports (congestion state and marks),
 * its adapters' ports and port SL groups, its flows' indices; and every rank's FECN/BECN
 * counts of every flow (switches anywhere mark a flow's packets, its destination counts them),
 * which rank 0 adds. One walker for both directions (fabric/distio.h). */
static void dist_walk(struct fabric *f, const int *part, int rank, struct dist_io *io)
{
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (part[i] != rank)
            continue;
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            if (!pt->cc)
                continue;
            if (n->is_switch) {
                struct ibcc_oport *o = pt->cc;
                for (int s = 0; s < VL_SLOTS; s++) {
                    DIST_IO(io, o->s[s].congested);
                    DIST_IO(io, o->s[s].since);
                }
                dist_io_bytes(io, o->cong_time, sizeof o->cong_time);
                dist_io_bytes(io, o->entered, sizeof o->entered);
                dist_io_bytes(io, o->marked, sizeof o->marked);
            } else {
                struct ibcc_aport *a = pt->cc;
                DIST_IO(io, a->fecn_received);
                DIST_IO(io, a->cnp_sent);
                DIST_IO(io, a->becn_received);
                DIST_IO(io, a->cnp_paced);
            }
        }
    }
    struct ibcc *c = f->hooks.ctx;
    for (size_t g = 0; g < c->ngroups; g++) /* a port SL's shared index: its adapter's */
        if (c->groups[g].n && part[f->flows[c->groups[g].flows[0]].src->node->index] == rank)
            DIST_IO(io, c->groups[g].shared);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        if (!cf)
            continue;
        dist_io_sum_u64(io, &cf->fecn_marked, 1);
        dist_io_sum_u64(io, &cf->fecn_received, 1);
        dist_io_sum_u64(io, &cf->becn_received, 1);
        if (part[f->flows[i].src->node->index] != rank)
            continue;
        DIST_IO(io, cf->own);
        if (cf->dest) {
            dist_io_bytes(io, cf->dest, (size_t)f->nhosts * sizeof *cf->dest);
            dist_io_bytes(io, cf->dest_send, (size_t)f->nhosts * sizeof *cf->dest_send);
        }
    }
}

/* cc.csv in a distributed run: each flow's current CCTI (its largest over its queue pairs) from
 * its source's rank. Rank 0 writes it into its copy of another rank's flow: the index itself
 * (per flow or the port SL's), or every destination queue pair's. */
static void dist_sample_get(struct fabric *f, const int *part, int rank, int64_t *v)
{
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        if (cf && part[f->flows[i].src->node->index] == rank)
            v[i] = ibcc_flow_ccti(f, cf).now;
    }
}

static void dist_sample_set(struct fabric *f, const int *part, const int64_t *v)
{
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct ibcc_flow *cf = f->flows[i].cc;
        if (!cf || part[f->flows[i].src->node->index] == 0)
            continue;
        if (cf->dest)
            for (int h = 0; h < f->nhosts; h++)
                cf->dest[h].ix.ccti = cf->dest_send[h].ccti = (uint16_t)v[i];
        else
            cf->ix->ccti = (uint16_t)v[i];
    }
}

/* ---- set-up ---- */

static int attach(struct fabric *f, const void *descp, struct ibn_err *e)
{
    const struct ibcc_desc *d = descp;
    struct ibcc *c = xcalloc(1, sizeof *c);
    c->d = *d;
    char why[300];
    if (ibcc_parse_per_sl(d->ccti_timer, 0, 65535, c->timer, why, sizeof why) ||
        ibcc_parse_per_sl(d->ccti_increase, 0, 255, c->increase, why, sizeof why) ||
        ibcc_parse_per_sl(d->ccti_min, 0, 65535, c->min, why, sizeof why)) {
        free(c);
        return ibn_err_set(e, "cc: %s", why);
    }
    if (build_cct(c, d, e)) {
        free(c->cct_ps), free(c->cct_shift), free(c->cct_mult), free(c);
        return -1;
    }
    c->ccti_limit = d->ccti_limit < 0 ? c->ncct - 1 : (int)d->ccti_limit;
    if (c->ccti_limit > c->ncct - 1) {
        int n = c->ncct;
        free(c->cct_ps), free(c->cct_shift), free(c->cct_mult), free(c);
        return ibn_err_set(e, "cc.ccti_limit %lld is beyond the CCT's last index %d", d->ccti_limit,
                           n - 1);
    }
    for (int s = 0; s < 16; s++)
        if (c->min[s] > c->ccti_limit) {
            free(c->cct_ps), free(c->cct_shift), free(c->cct_mult), free(c);
            return ibn_err_set(e, "cc.ccti_min of SL %d is above CCTI_Limit", s);
        }
    const char *vm = d->victim_mask ? d->victim_mask : "ca";
    int dummy;
    if (strcmp(vm, "ca") && strcmp(vm, "none") && strcmp(vm, "all") && mask_bit(vm, 0, &dummy)) {
        free(c->cct_ps), free(c->cct_shift), free(c->cct_mult), free(c);
        return ibn_err_set(e, "cc.victim_mask: expected \"ca\", \"none\", \"all\" or a hex port mask "
                           "\"0x...\", got \"%s\"", vm);
    }
    if (d->becn == IBCC_BECN_MESSAGE && transport_enable_rc(f, ACK_PER_MESSAGE, e)) {
        free(c->cct_ps), free(c->cct_shift), free(c->cct_mult), free(c);
        return ibn_err_prefix(e, "cc.becn = message (deprecated: it means transport.mode = rc, "
                              "transport.ack = message): ");
    }
    uint32_t mtu_wire = pkt_wire_bytes((uint32_t)f->set.mtu, f->set.grh);
    c->mtu_credits = (int32_t)bytes_to_credits(mtu_wire);
    if (ibcc_thresholds_bytes(d, f->set.switch_buffer, (uint32_t)c->mtu_credits * CREDIT_BYTES,
                              &c->thr_hi, &c->thr_lo))
        c->thr_hi = c->thr_lo = -1;
    if (c->thr_hi < 0)
        fabric_warn(f, "cc.threshold = 0: no switch port ever enters the congestion state, so "
                    "IB CC is on but marks nothing (adapters still run their CCTI timers)");
    else if (c->thr_lo == 0)
        fabric_warn(f, "cc: the lower threshold is 0 bytes (upper %lld bytes minus hysteresis "
                    "%.3g MTU packets of %d bytes stops at 0): a congested port leaves the "
                    "congestion state only when its queues for the output are empty, so it "
                    "keeps marking (at the Marking_Rate) until then", (long long)c->thr_hi,
                    d->hysteresis_mtus, c->mtu_credits * CREDIT_BYTES);
    /* Switch output ports. */
    size_t nop = 0, nvoq = 0;
    for (int i = 0; i < f->nnodes; i++)
        if (f->nodes[i]->is_switch)
            for (int p = 1; p <= f->nodes[i]->nports; p++)
                if (f->nodes[i]->port[p].peer) {
                    nop++;
                    nvoq += (size_t)(f->nodes[i]->nports + 1) * (size_t)f->nvs;
                }
    /* Cache-line aligned, as struct ibcc_oport asks. Only detection by VOQ or by the sum
     * per active input reads the VOQs; by the sum alone they are not kept. */
    c->oports = xaligned_calloc(_Alignof(struct ibcc_oport), nop + 1, sizeof *c->oports);
    int keep_voqs = d->detect != IBCC_DETECT_SUM;
    c->voq_block = keep_voqs ? xcalloc(nvoq + 1, sizeof *c->voq_block) : NULL;
    size_t k = 0, v = 0;
    int need_rng = (d->marking == IBCC_MARK_PROBABILITY && d->marking_rate > 0) ||
                   (d->mark_probability > 0 && d->mark_probability < 1);
    for (int i = 0; i < f->nnodes; i++) {
        struct node *n = f->nodes[i];
        if (!n->is_switch)
            continue;
        for (int p = 1; p <= n->nports; p++) {
            struct port *pt = &n->port[p];
            if (!pt->peer)
                continue;
            struct ibcc_oport *o = &c->oports[k++];
            o->voq = keep_voqs ? c->voq_block + v : NULL;
            v += (size_t)(n->nports + 1) * (size_t)f->nvs;
            int bit = 0;
            if (!strcmp(vm, "ca"))
                bit = !pt->peer->is_switch;
            else if (!strcmp(vm, "all"))
                bit = 1;
            else if (strcmp(vm, "none"))
                mask_bit(vm, p, &bit);
            o->victim = (uint8_t)bit;
            if (need_rng) {
                char key[300];
                snprintf(key, sizeof key, "cc/mark/%s/%d", n->name, p);
                o->rng = rng_stream(f->seed, key);
            }
            pt->cc = o;
        }
    }
    c->noports = nop;
    /* Adapter ports, port SL groups and flows. */
    c->aports = xcalloc((size_t)f->nhosts + 1, sizeof *c->aports);
    c->naports = (size_t)f->nhosts;
    for (int h = 0; h < f->nhosts; h++)
        f->hosts[h].port->cc = &c->aports[h];
    uint32_t *count = xcalloc((size_t)f->nhosts * 16 + 1, sizeof *count);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (d->control_map >> fl->sl & 1)
            count[(size_t)fl->src_host * 16 + fl->sl]++;
    }
    size_t ng = 0;
    for (size_t g = 0; g < (size_t)f->nhosts * 16; g++)
        ng += count[g] > 0;
    c->groups = xcalloc(ng + 1, sizeof *c->groups);
    c->group_flows = xcalloc((size_t)f->nflows + 1, sizeof *c->group_flows);
    c->flows = xcalloc((size_t)f->nflows + 1, sizeof *c->flows);
    struct ibcc_group **gof = xcalloc((size_t)f->nhosts * 16 + 1, sizeof *gof);
    size_t gi = 0, off = 0;
    for (size_t g = 0; g < (size_t)f->nhosts * 16; g++) {
        if (!count[g])
            continue;
        struct ibcc_group *grp = &c->groups[gi++];
        grp->cc = c;
        grp->flows = c->group_flows + off;
        off += count[g];
        grp->shared.sl = (uint8_t)(g % 16);
        grp->shared.ccti = (uint16_t)c->min[g % 16];
        grp->shared.ccti_max = grp->shared.ccti;
        grp->timer.call.fn = ibcc_group_expire;
        grp->timer.call.arg = grp;
        gof[g] = grp;
    }
    c->ngroups = ng;
    /* QP level: a flow to many hosts has a queue pair per destination host. */
    int per_dest = d->level == IBCC_LEVEL_QP;
    size_t nmulti = 0;
    for (uint32_t i = 0; i < f->nflows; i++)
        nmulti += per_dest && (d->control_map >> f->flows[i].sl & 1) && f->flows[i].pattern != 0;
    c->dests = xcalloc(nmulti * (size_t)f->nhosts + 1, sizeof *c->dests);
    c->ndests = nmulti * (size_t)f->nhosts;
    c->dest_send = xcalloc(c->ndests + 1, sizeof *c->dest_send);
    int dest_timers = d->timer_policy == IBCC_TIMER_PER_FLOW;
    if (dest_timers)
        c->dest_timers = xcalloc(nmulti * (size_t)f->nhosts + 1, sizeof *c->dest_timers);
    size_t di = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (!(d->control_map >> fl->sl & 1))
            continue;
        struct ibcc_group *grp = gof[(size_t)fl->src_host * 16 + fl->sl];
        grp->flows[grp->n++] = i;
        struct ibcc_flow *cf = &c->flows[i];
        cf->cc = c;
        cf->group = grp;
        cf->own.sl = fl->sl;
        cf->own.ccti = (uint16_t)c->min[fl->sl];
        cf->own.ccti_max = cf->own.ccti;
        cf->ix = d->level == IBCC_LEVEL_SL ? &grp->shared : &cf->own;
        cf->timer.call.fn = ibcc_flow_expire;
        cf->timer.call.arg = cf;
        fl->cc = cf;
        if (per_dest && fl->pattern != 0) {
            cf->dest = c->dests + di;
            cf->dest_send = c->dest_send + di;
            cf->dest_timer = dest_timers ? c->dest_timers + di : NULL;
            di += (size_t)f->nhosts;
            for (int h = 0; h < f->nhosts; h++) {
                cf->dest[h].ix = cf->own;
                cf->dest_send[h].ccti = cf->own.ccti;
                if (dest_timers) {
                    struct ibcc_dest_timer *t = &cf->dest_timer[h];
                    t->flow = cf;
                    t->host = h;
                    t->timer.call.fn = ibcc_dest_expire;
                    t->timer.call.arg = t;
                }
            }
            fabric_flow_pace_by_dest(f, fl, (int)d->held_messages);
        }
    }
    /* CNP pacing: the next CNP time of each source queue pair, kept at its destinations. */
    if (d->cnp_interval > 0) {
        size_t ncnp = 0;
        for (uint32_t i = 0; i < f->nflows; i++)
            ncnp += !c->flows[i].cc ? 0 : f->flows[i].pattern != 0 ? (size_t)f->nhosts : 1;
        c->cnp_block = xcalloc(ncnp + 1, sizeof *c->cnp_block);
        size_t at = 0;
        for (uint32_t i = 0; i < f->nflows; i++) {
            if (!c->flows[i].cc)
                continue;
            c->flows[i].cnp_next = c->cnp_block + at;
            at += f->flows[i].pattern != 0 ? (size_t)f->nhosts : 1;
        }
    }
    /* The timer of each port SL keeps a list of the indices above CCTI_Min, with room for all. */
    if (d->level != IBCC_LEVEL_SL) {
        size_t nindex = 0;
        for (size_t g = 0; g < ng; g++)
            for (uint32_t j = 0; j < c->groups[g].n; j++)
                nindex += c->flows[c->groups[g].flows[j]].dest ? (size_t)f->nhosts : 1;
        c->raised_block = xcalloc(nindex + 1, sizeof *c->raised_block);
        size_t at = 0;
        for (size_t g = 0; g < ng; g++) {
            struct ibcc_group *grp = &c->groups[g];
            grp->raised = c->raised_block + at;
            for (uint32_t j = 0; j < grp->n; j++)
                at += c->flows[grp->flows[j]].dest ? (size_t)f->nhosts : 1;
        }
    }
    free(count);
    free(gof);
    snprintf(c->resolved, sizeof c->resolved,
             "IB CC (Annex A10): threshold %lld mapped by %s to %lld bytes upper / %lld lower "
             "(%s, %s threshold), victim_mask %s, packet_size %lld credits, marking_rate %lld as %s; "
             "BECN per %s; CCTI per %s%s, timer %s, CCT %s with %d entries, CCTI_Limit %d",
             d->threshold, map_names[d->threshold_map], (long long)c->thr_hi, (long long)c->thr_lo,
             detect_names[d->detect], thr_names[d->thresholds], vm, d->packet_size, d->marking_rate,
             marking_names[d->marking],
             f->set.transport != TRANSPORT_RC      ? "packet"
             : f->set.ack_per == ACK_PER_MESSAGE ? "message, in the RC ACKs"
                                                 : "packet, in the RC ACKs",
             level_names[d->level],
             nmulti ? " (a queue pair per destination for flows to many hosts)" : "", timer_names[d->timer_policy],
             form_names[d->cct_form], c->ncct, c->ccti_limit);
    if (d->cnp_interval > 0) {
        size_t len = strlen(c->resolved);
        snprintf(c->resolved + len, sizeof c->resolved - len,
                 "; at most one CNP per %.3f us per source queue pair (cnp_interval)",
                 (double)d->cnp_interval / 1e6);
    }
    if (d->mark_probability >= 0) {
        size_t len = strlen(c->resolved);
        snprintf(c->resolved + len, sizeof c->resolved - len,
                 "; marking with probability %g (mark_probability, instead of marking_rate)",
                 d->mark_probability);
    }
    /* Strings of the copy are not kept: they may be freed by the caller. */
    c->d.victim_mask = c->d.ccti_timer = c->d.ccti_increase = c->d.ccti_min = NULL;
    c->d.cct = c->d.opensm_conf = NULL;
    f->hooks = (struct fabric_hooks){
        .name = "ibcc",
        .ctx = c,
        .on_enqueue = ibcc_on_enqueue,
        .on_dequeue = ibcc_on_dequeue,
        .on_depart = ibcc_on_depart,
        .on_receive = ibcc_on_receive,
        .on_source_send = ibcc_on_source_send,
        .dest_ready = ibcc_dest_ready,
        .report = report,
        .dist_walk = dist_walk,
        .dist_sample_get = dist_sample_get,
        .dist_sample_set = dist_sample_set,
        .series_header = series_header,
        .series_row = series_row,
        .table_ports = table_ports,
        .table_flows = table_flows,
        .destroy = ibcc_destroy,
    };
    if (c->thr_hi < 0) {
        /* No threshold: update() returns at once, so no output ever enters the congestion
         * state and the occupancy counts it would compare are read by nothing; the switch
         * hooks would change nothing (an isolation design marks by itself: fabric/isol.c). */
        f->hooks.on_enqueue = f->hooks.on_dequeue = NULL;
        f->hooks.on_depart = NULL;
    }
    return 0;
}

const struct cc_plugin ibcc_plugin = {
    "ibcc",
    "InfiniBand congestion control (IBA Annex A10): FECN marking at switches, BECN in CNPs, "
    "CCTI / CCT injection-rate throttling at the sources",
    ibcc_params,
    sizeof(struct ibcc_desc),
    attach,
};

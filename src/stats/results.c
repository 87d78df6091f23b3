/* results.c: the run's summary (JSON), time series (CSV) and terminal summary. */
#include "stats/results.h"
#include "fabric/mcast.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/drop.h"
#include "fabric/period.h"
#include "fabric/swarch.h"
#include "fabric/transport.h"
#include "stats/jsontext.h"

double flow_throughput_gbps(const struct fabric *f, const struct flow *fl)
{
    double secs = fabric_measured_s(f);
    return secs > 0 ? (double)fl->st.bytes_delivered * 8.0 / secs / 1e9 : 0.0;
}

static int contributors_parse(struct series *s, struct fabric *f, const char *list, struct ibn_err *e)
{
    tv_init(&s->tv);
    if (!list || !*list)
        return 0;
    s->contrib = xcalloc(f->nflows + 1, sizeof *s->contrib);
    char *copy = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        uint32_t i;
        for (i = 0; i < f->nflows && strcmp(f->flows[i].name, tok); i++)
            ;
        if (i == f->nflows) {
            ibn_err_set(e, "output.contributors names \"%s\", which is not a flow", tok);
            free(copy);
            return -1;
        }
        if (s->ncontrib < (int)f->nflows)
            s->contrib[s->ncontrib++] = i;
    }
    free(copy);
    s->x = xcalloc((size_t)s->ncontrib + 1, sizeof *s->x);
    s->active = xcalloc((size_t)s->ncontrib + 1, 1);
    return 0;
}

int series_open(struct series *s, struct fabric *f, const char *dir, int flows, int ports,
                const char *contributors, struct ibn_err *e)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    if (contributors_parse(s, f, contributors, e))
        return -1;
    char path[4096];
    if (flows) {
        snprintf(path, sizeof path, "%s/flows.csv", dir);
        if (!(s->out_flows = out_open(path, e)))
            return -1;
        s->flows = s->out_flows->fp;
        fprintf(s->flows, "time_s");
        for (uint32_t i = 0; i < f->nflows; i++)
        {
            fputc(',', s->flows);
            csv_field(s->flows, f->flows[i].name);
        }
        fprintf(s->flows, "\n");
        snprintf(path, sizeof path, "%s/hosts.csv", dir);
        if (!(s->out_hosts = out_open(path, e)))
            return -1;
        s->hosts = s->out_hosts->fp;
        fprintf(s->hosts, "time_s");
        for (int h = 0; h < f->nhosts; h++)
        {
            fputc(',', s->hosts);
            csv_field_port(s->hosts, f->hosts[h].node->name, f->hosts[h].port->num);
        }
        fprintf(s->hosts, "\n");
        snprintf(path, sizeof path, "%s/classes.csv", dir);
        if (!(s->out_classes = out_open(path, e)))
            return -1;
        s->classes = s->out_classes->fp;
        for (uint32_t i = 0; i < f->nflows; i++)
            s->class_mask |= (uint16_t)(1u << f->flows[i].sl);
        fprintf(s->classes, "time_s");
        for (int sl = 0; sl < 16; sl++)
            if (s->class_mask >> sl & 1)
                fprintf(s->classes, ",sl%d", sl);
        fprintf(s->classes, "\n");
    }
    if (f->hooks.series_row) {
        snprintf(path, sizeof path, "%s/cc.csv", dir);
        if (!(s->out_cc = out_open(path, e)))
            return -1;
        s->cc = s->out_cc->fp;
        fprintf(s->cc, "time_s");
        if (f->hooks.series_header)
            f->hooks.series_header(f, s->cc);
        fprintf(s->cc, "\n");
    }
    if (ports) {
        snprintf(path, sizeof path, "%s/ports.csv", dir);
        if (!(s->out_ports = out_open(path, e)))
            return -1;
        s->ports = s->out_ports->fp;
        fprintf(s->ports, "time_s");
        for (int i = 0; i < f->nnodes; i++) {
            struct node *n = f->nodes[i];
            if (!n->is_switch)
                continue;
            for (int p = 1; p <= n->nports; p++)
                if (n->port[p].peer) {
                    fputc(',', s->ports);
                    csv_field_port(s->ports, n->name, p);
                }
        }
        fprintf(s->ports, "\n");
        /* What each column of ports.csv is in IB terms: the switch's LID and GUID, the peer. */
        snprintf(path, sizeof path, "%s/ports_index.csv", dir);
        struct outfile *ix = out_open(path, e);
        if (!ix)
            return -1;
        fprintf(ix->fp, "column,node,port,lid,node_guid,peer,peer_port,peer_lid\n");
        for (int i = 0; i < f->nnodes; i++) {
            struct node *n = f->nodes[i];
            for (int p = 1; p <= n->nports && n->is_switch; p++) {
                struct port *pt = &n->port[p];
                if (!pt->peer)
                    continue;
                const struct node *m = pt->peer->node;
                csv_field_port(ix->fp, n->name, p);
                fputc(',', ix->fp);
                csv_field(ix->fp, n->name);
                fprintf(ix->fp, ",%d,%u,0x%016" PRIx64 ",", p, (unsigned)n->lid, n->guid);
                csv_field(ix->fp, m->name);
                fprintf(ix->fp, ",%d,%u\n", pt->peer->num,
                        (unsigned)(m->is_switch ? m->lid : pt->peer->lid));
            }
        }
        if (out_close(ix, e))
            return -1;
    }
    return 0;
}

int series_open_queues(struct series *s, const char *dir, struct ibn_err *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/queues.csv", dir);
    if (!(s->out_queues = out_open(path, e)))
        return -1;
    s->queues = s->out_queues->fp;
    fprintf(s->queues, "time_s,queues_in_use,cam_lines_in_use,ports_out_of_special_queues\n");
    return 0;
}

int series_open_counters(struct series *s, const char *dir, struct ibn_err *e)
{
    return (s->ctr = counters_open(s->f, dir, e)) ? 0 : -1;
}

void series_boundary(struct fabric *f, void *ctx, simtime_t t)
{
    counters_row(((struct series *)ctx)->ctr, f, t);
}

void series_finish(struct series *s)
{
    if (s->ctr)
        counters_row(s->ctr, s->f, s->f->now);
}

int series_check_size(const struct fabric *f, int flows, int ports, int counters, struct ibn_err *e)
{
    if (f->sample_interval <= 0)
        return 0;
    double rows = (double)(f->end / f->sample_interval), cols = 1;
    if (flows)
        cols += f->nflows + f->nhosts + 16;
    if (f->hooks.series_row)
        cols += f->nflows;
    if (ports)
        for (int i = 0; i < f->nnodes; i++)
            if (f->nodes[i]->is_switch)
                cols += f->nodes[i]->nports;
    double bytes = rows * cols * 10; /* "12.345678," */
    if (counters) /* a row per cabled port of about 100 characters */
        for (int i = 0; i < f->nnodes; i++)
            bytes += rows * f->nodes[i]->nports * 100.0;
    if (bytes > SERIES_MAX_BYTES)
        return ibn_err_set(e, "the time series would take about %.0f GB (%.0f samples of %.0f columns), "
                           "more than %.0f GB: give a longer simulation.sample_interval, or turn "
                           "output.port_series, output.flow_series or output.counter_series off", bytes / 1e9, rows, cols,
                           SERIES_MAX_BYTES / 1e9);
    return 0;
}

void series_sample(struct fabric *f, void *ctx)
{
    struct series *s = ctx;
    double secs = (double)(f->now - f->last_sample) / 1e12;
    if (s->ncontrib && f->now > f->warmup && secs > 0) {
        for (int i = 0; i < s->ncontrib; i++) {
            const struct flow *fl = &f->flows[s->contrib[i]];
            s->x[i] = (double)fl->st.interval_bytes * 8.0 / secs / 1e9;
            /* Active over the whole interval. */
            s->active[i] = fl->start <= f->last_sample && fl->stop >= f->now;
        }
        tv_add(&s->tv, s->x, s->active, (size_t)s->ncontrib);
    }
    if (s->flows) {
        fprintf(s->flows, "%.9g", (double)f->now / 1e12);
        for (uint32_t i = 0; i < f->nflows; i++) {
            struct flow *fl = &f->flows[i];
            fprintf(s->flows, ",%.6f", secs > 0 ? (double)fl->st.interval_bytes * 8.0 / secs / 1e9 : 0.0);
        }
        fprintf(s->flows, "\n");
        fflush(s->flows);
        double cls[16] = { 0 };
        for (uint32_t i = 0; i < f->nflows; i++)
            cls[f->flows[i].sl] += secs > 0 ? (double)f->flows[i].st.interval_bytes * 8.0 / secs / 1e9 : 0.0;
        fprintf(s->classes, "%.9g", (double)f->now / 1e12);
        for (int sl = 0; sl < 16; sl++)
            if (s->class_mask >> sl & 1)
                fprintf(s->classes, ",%.6f", cls[sl]);
        fprintf(s->classes, "\n");
        fflush(s->classes);
        fprintf(s->hosts, "%.9g", (double)f->now / 1e12);
        for (int h = 0; h < f->nhosts; h++)
            fprintf(s->hosts, ",%.6f", secs > 0 ? (double)f->hosts[h].interval_rx * 8.0 / secs / 1e9 : 0.0);
        fprintf(s->hosts, "\n");
        fflush(s->hosts);
    }
    for (uint32_t i = 0; i < f->nflows; i++)
        f->flows[i].st.interval_bytes = 0;
    for (int h = 0; h < f->nhosts; h++)
        f->hosts[h].interval_rx = 0;
    if (s->cc) {
        fprintf(s->cc, "%.9g", (double)f->now / 1e12);
        f->hooks.series_row(f, s->cc);
        fprintf(s->cc, "\n");
        fflush(s->cc);
    }
    if (s->queues) {
        struct sw_usage u = { 0, 0, 0 };
        if (f->dist) { /* every rank's switches, added at rank 0 (dist.c) */
            u.queues = f->dist->usage[0];
            u.cam_lines = f->dist->usage[1];
            u.ports_exhausted = f->dist->usage[2];
        } else
            for (int i = 0; i < f->nnodes; i++)
                if (f->nodes[i]->is_switch)
                    sw_usage_add(f, node_sw(f->nodes[i]), &u);
        fprintf(s->queues, "%.9g,%llu,%llu,%llu\n", (double)f->now / 1e12, (unsigned long long)u.queues,
                (unsigned long long)u.cam_lines, (unsigned long long)u.ports_exhausted);
        fflush(s->queues);
    }
    counters_row(s->ctr, f, f->now);
    if (s->ports) {
        fprintf(s->ports, "%.9g", (double)f->now / 1e12);
        for (int i = 0; i < f->nnodes; i++) {
            struct node *n = f->nodes[i];
            if (!n->is_switch)
                continue;
            for (int p = 1; p <= n->nports; p++) {
                struct port *pt = &n->port[p];
                if (!pt->peer)
                    continue;
                long used = 0;
                for (int v = 0; v < f->nvs; v++)
                    used += pt->vl[v].rx_used;
                fprintf(s->ports, ",%ld", used * CREDIT_BYTES);
            }
        }
        fprintf(s->ports, "\n");
        fflush(s->ports);
    }
}

int series_close(struct series *s, struct ibn_err *e)
{
    struct outfile **o[6] = { &s->out_flows, &s->out_ports, &s->out_cc, &s->out_hosts, &s->out_classes,
                              &s->out_queues };
    int rc = 0;
    if (e && counters_close(s->ctr, e))
        rc = -1;
    else if (!e)
        counters_close(s->ctr, NULL);
    s->ctr = NULL;
    for (int i = 0; i < 6; i++) {
        if (rc)
            out_abandon(*o[i]);
        else if (out_close(*o[i], e))
            rc = -1;
        *o[i] = NULL;
    }
    s->flows = s->ports = s->cc = s->hosts = s->classes = s->queues = NULL;
    free(s->contrib);
    free(s->x);
    free(s->active);
    s->contrib = NULL;
    s->x = NULL;
    s->active = NULL;
    return rc;
}

int series_failed(const struct series *s)
{
    const struct outfile *o[6] = { s->out_flows, s->out_ports, s->out_cc, s->out_hosts, s->out_classes,
                                   s->out_queues };
    for (int i = 0; i < 6; i++)
        if (o[i] && (o[i]->err || ferror(o[i]->fp)))
            return 1;
    return counters_failed(s->ctr);
}

int results_write_cc_tables(struct fabric *f, const char *dir, struct ibn_err *e)
{
    void (*fn[2])(struct fabric *, FILE *) = { f->hooks.table_ports, f->hooks.table_flows };
    const char *names[2] = { "cc_ports.csv", "cc_flows.csv" };
    for (int i = 0; i < 2; i++) {
        if (!fn[i])
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct outfile *o = out_open(path, e);
        if (!o)
            return -1;
        fn[i](f, o->fp);
        if (out_close(o, e))
            return -1;
    }
    return 0;
}

static const char *dst_label(const struct fabric *f, const struct flow *fl)
{
    return fl->pattern == 2 ? pattern_kind_names[fl->pat->d.kind]
           : fl->pattern >= 4 ? f->mc->g[fl->mgroup].name
           : fl->pattern == 3 ? "group"
           : fl->pattern    ? "uniform"
                            : f->hosts[fl->dst_host].node->name;
}

/* The same in a terminal table: hosts by alias. */
static const char *dst_short(const struct fabric *f, const struct flow *fl)
{
    return fl->pattern ? dst_label(f, fl) : f->hosts[fl->dst_host].node->alias;
}

static json_t *latency_json(const struct histogram *h)
{
    json_t *o = json_object();
    json_object_set_new(o, "samples", json_integer((json_int_t)h->count));
    json_object_set_new(o, "mean_ns", json_real(round(hist_mean(h)) / 1e3));
    json_object_set_new(o, "p50_ns", json_real(round(hist_quantile(h, 0.5)) / 1e3));
    json_object_set_new(o, "p99_ns", json_real(round(hist_quantile(h, 0.99)) / 1e3));
    json_object_set_new(o, "max_ns", json_real(h->count ? (double)h->max / 1e3 : 0.0));
    return o;
}

static const char *outcome_name(enum run_outcome o)
{
    switch (o) {
    case RUN_DRAINED: return "drained";
    case RUN_INTERRUPTED: return "interrupted";
    case RUN_DRAIN_TIMEOUT: return "drain_timeout";
    case RUN_STUCK: return "stuck";
    }
    return "?";
}

/* perfquery's counters of the VL slots [0, n) between two moments (period.h): data in 4-byte
 * words counted from the LRH through the ICRC (the VCRC is not counted), packets, and
 * PortXmitWait in ticks of 1 ns. */
static void counters_json(json_t *o, const struct port_counts *a, const struct port_counts *b, int n)
{
    uint64_t xb = 0, rb = 0, xp = 0, rp = 0;
    simtime_t wait = 0;
    for (int i = 0; i < n; i++) {
        xb += (b[i].xmit_bytes - 2 * b[i].xmit_pkts) - (a[i].xmit_bytes - 2 * a[i].xmit_pkts);
        rb += (b[i].rcv_bytes - 2 * b[i].rcv_pkts) - (a[i].rcv_bytes - 2 * a[i].rcv_pkts);
        xp += b[i].xmit_pkts - a[i].xmit_pkts;
        rp += b[i].rcv_pkts - a[i].rcv_pkts;
        wait += b[i].wait - a[i].wait;
    }
    json_object_set_new(o, "PortXmitData", json_integer((json_int_t)(xb / 4)));
    json_object_set_new(o, "PortRcvData", json_integer((json_int_t)(rb / 4)));
    json_object_set_new(o, "PortXmitPkts", json_integer((json_int_t)xp));
    json_object_set_new(o, "PortRcvPkts", json_integer((json_int_t)rp));
    json_object_set_new(o, "PortXmitWait", json_integer((json_int_t)(wait / PS_PER_NS)));
}

static json_t *deadlines_json(const struct deadline_acc *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "messages", json_integer((json_int_t)d->frames));
    json_object_set_new(o, "missed", json_integer((json_int_t)d->missed));
    json_object_set_new(o, "dmp", json_real(round(deadline_dmp(d) * 1e9) / 1e9));
    json_object_set_new(o, "dmt_ns", json_real(round((double)deadline_dmt(d) / 1e3 * 1e3) / 1e3));
    return o;
}

static json_t *jitter_json(const struct jitter *j)
{
    json_t *o = json_object(), *bins = json_array();
    json_object_set_new(o, "samples", json_integer((json_int_t)j->n));
    json_object_set_new(o, "k", json_integer(j->k));
    json_object_set_new(o, "share_within", json_real(round(jitter_share_within(j) * 1e9) / 1e9));
    for (int b = 0; b < JITTER_BINS; b++)
        json_array_append_new(bins, json_real(round(jitter_bin_share(j, b) * 1e9) / 1e9));
    json_object_set_new(o, "bins", bins);
    return o;
}

int results_receive_classes(struct fabric *f, struct receive_classes *c)
{
    memset(c, 0, sizeof *c);
    if (!f->npatterns || !f->patterns[0]->is_hot)
        return 0;
    struct pattern *p = f->patterns[0];
    double secs = fabric_measured_s(f), hot = 0, other = 0;
    for (int h = 0; h < f->nhosts; h++) {
        double rx = secs > 0 ? (double)f->hosts[h].rx_bytes * 8.0 / secs / 1e9 : 0.0;
        if (pattern_is_hotspot(p, h, f->end))
            hot += rx, c->hot++;
        else
            other += rx, c->other++;
        int role = pattern_role(p, h);
        c->c_nodes += role == ROLE_C;
        c->b_nodes += role == ROLE_B;
        c->v_nodes += role == ROLE_V;
    }
    c->hot_gbps = c->hot ? hot / c->hot : 0.0;
    c->other_gbps = c->other ? other / c->other : 0.0;
    c->total_gbps = hot + other;
    c->all_gbps = f->nhosts ? c->total_gbps / f->nhosts : 0.0;
    return 1;
}

static json_t *receive_classes_json(struct fabric *f)
{
    struct receive_classes c;
    if (!results_receive_classes(f, &c))
        return NULL;
    json_t *o = json_object(), *hot = json_array();
    for (int h = 0; h < f->nhosts; h++)
        if (pattern_is_hotspot(f->patterns[0], h, f->end))
            json_array_append_new(hot, json_string(f->hosts[h].node->name));
    json_object_set_new(o, "hot_spots", hot);
    json_object_set_new(o, "c_nodes", json_integer(c.c_nodes));
    json_object_set_new(o, "b_nodes", json_integer(c.b_nodes));
    json_object_set_new(o, "v_nodes", json_integer(c.v_nodes));
    json_object_set_new(o, "hot_spot_rx_gbps", json_real(round(c.hot_gbps * 1e6) / 1e6));
    json_object_set_new(o, "other_rx_gbps", json_real(round(c.other_gbps * 1e6) / 1e6));
    json_object_set_new(o, "all_rx_gbps", json_real(round(c.all_gbps * 1e6) / 1e6));
    json_object_set_new(o, "total_rx_gbps", json_real(round(c.total_gbps * 1e6) / 1e6));
    return o;
}

/* One flow's object of summary.json's "flows" (results_write_summary writes them one at a time:
 * a run of 600 000 connections would otherwise hold every flow's tree, about 9 KB each). */
static json_t *flow_json(struct fabric *f, struct flow *fl)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(fl->name));
    json_object_set_new(o, "src", json_string(fl->src->node->name));
    json_object_set_new(o, "dst", json_string(dst_label(f, fl)));
    json_object_set_new(o, "sl", json_integer(fl->sl));
    if (fl->cls)
        json_object_set_new(o, "class", json_string(fl->cls));
    json_object_set_new(o, "vl", json_integer(fl->vl));
    double offered = fl->saturate ? NAN : arrival_mean_rate_bps(&fl->arr.d);
    if (isfinite(offered)) /* what `load` became, in payload bytes whatever load_counts says */
        json_object_set_new(o, "offered_payload_gbps", json_real(round(offered / 1e3) / 1e6));
    json_object_set_new(o, "messages_offered", json_integer((json_int_t)fl->st.msgs_offered));
    json_object_set_new(o, "messages_refused", json_integer((json_int_t)fl->st.msgs_refused));
    if (f->set.hca_messages > 0) /* of them, those the adapter's shared buffer turned away */
        json_object_set_new(o, "messages_refused_by_adapter",
                            json_integer((json_int_t)fl->st.msgs_refused_adapter));
    json_object_set_new(o, "packets_sent", json_integer((json_int_t)fl->st.pkts_sent));
    json_object_set_new(o, "packets_delivered", json_integer((json_int_t)fl->st.pkts_delivered));
    json_object_set_new(o, "bytes_delivered", json_integer((json_int_t)fl->st.bytes_delivered));
    json_object_set_new(o, "messages_delivered", json_integer((json_int_t)fl->st.msgs_delivered));
    /* The flow's source as a queue (docs/analytic.md, "The simulator as a GE/GE/1/N
     * queue"), over the measured period: mean number of messages (waiting plus the one on
     * the link), messages delivered per second, and the fraction of arrivals refused. */
    double msecs = fabric_measured_s(f);
    json_object_set_new(o, "source_queue_mean", json_real(flow_source_queue_mean(f, fl)));
    json_object_set_new(o, "messages_per_s",
                        json_real(msecs > 0 ? (double)fl->st.msgs_delivered / msecs : 0.0));
    json_object_set_new(o, "messages_offered_measured",
                        json_integer((json_int_t)fl->st.msgs_offered_measured));
    json_object_set_new(o, "messages_refused_measured",
                        json_integer((json_int_t)fl->st.msgs_refused_measured));
    json_object_set_new(o, "source_blocking",
                        json_real(fl->st.msgs_offered_measured
                                      ? (double)fl->st.msgs_refused_measured /
                                            (double)fl->st.msgs_offered_measured
                                      : 0.0));
    double g = flow_throughput_gbps(f, fl);
    json_object_set_new(o, "throughput_gbps", json_real(round(g * 1e6) / 1e6));
    json_object_set_new(o, "network_latency", latency_json(&fl->st.net_latency));
    json_object_set_new(o, "end_to_end_latency", latency_json(&fl->st.e2e_latency));
    json_object_set_new(o, "message_latency", latency_json(flow_msg_latency(&fl->st)));
    if (fl->rc.posted) /* credits: from the posting to the adapter (docs/hostcc.md) */
        json_object_set_new(o, "posted_latency", latency_json(&fl->st.posted_latency));
    if (fl->st.has_deadlines)
        json_object_set_new(o, "deadlines", deadlines_json(&fl->st.deadlines));
    if (fl->st.has_jitter)
        json_object_set_new(o, "jitter", jitter_json(&fl->st.jitter));
    if (f->set.transport == TRANSPORT_RC) {
        json_object_set_new(o, "acks_received", json_integer((json_int_t)fl->rc.x->acks));
        json_object_set_new(o, "packets_acked", json_integer((json_int_t)fl->rc.psn_acked));
        if (f->rtx) {
            json_object_set_new(o, "packets_retransmitted", json_integer((json_int_t)fl->rc.x->resent));
            json_object_set_new(o, "naks_received", json_integer((json_int_t)fl->rc.x->naks));
            json_object_set_new(o, "timeouts", json_integer((json_int_t)fl->rc.x->timeouts));
            json_object_set_new(o, "rnr_naks_received", json_integer((json_int_t)fl->rc.x->rnr_naks));
            if (fl->rc.x->failed) {
                json_object_set_new(o, "qp_error", json_true());
                json_object_set_new(o, "completion_error",
                                    json_string(transport_error_name(fl->rc.x->failed)));
            }
        }
    }
    if (fl->path != PATH_BASE) {
        /* Multipath: the policy and the packets sent on each LID offset (path). */
        json_t *pp = json_array();
        for (int k = 0; k < 1 << f->max_lmc; k++)
            json_array_append_new(pp, json_integer((json_int_t)fl->path_pkts[k]));
        json_object_set_new(o, "path", json_string(flow_path_names[fl->path]));
        json_object_set_new(o, "packets_per_path", pp);
    }
    return o;
}

/* One cabled port's object of summary.json's "ports" (node i, port p): its counters over the
 * measured period, the warm-up and the drain apart (period.h). */
static json_t *port_json(struct fabric *f, int i, int p)
{
    struct node *n = f->nodes[i];
    struct port *pt = &n->port[p];
    struct port_counts zero[VL_SLOTS], now[VL_SLOTS];
    memset(zero, 0, sizeof zero);
    json_t *o = json_object();
    json_object_set_new(o, "node", json_string(n->name));
    json_object_set_new(o, "port", json_integer(p));
    char guid[24];
    snprintf(guid, sizeof guid, "0x%016" PRIx64, n->guid);
    json_object_set_new(o, "guid", json_string(guid));
    json_object_set_new(o, "lid", json_integer(n->is_switch ? n->lid : pt->lid));
    json_object_set_new(o, "peer", json_string(pt->peer->node->name));
    json_object_set_new(o, "peer_port", json_integer(pt->peer->num));
    port_counts_at(f, pt, f->now, now);
    double sent0, sent1;
    const struct port_counts *c0 = period_snap(f, PERIOD_START, i, p, &sent0);
    const struct port_counts *c1 = period_snap(f, PERIOD_END, i, p, &sent1);
    counters_json(o, c0, c1, f->nvs);
    double link_bps = byterate_bps(pt->rate), ms = fabric_measured_s(f);
    double u = link_bps > 0 && ms > 0 ? (sent1 - sent0) * 8.0 / ms / link_bps : 0.0;
    json_object_set_new(o, "utilisation", json_real(round(u * 1e6) / 1e6));
    json_t *warm = json_object(), *drain = json_object();
    counters_json(warm, zero, c0, f->nvs);
    counters_json(drain, c1, now, f->nvs);
    json_object_set_new(o, "warmup", warm);
    json_object_set_new(o, "drain", drain);
    json_t *vls = json_array();
    for (int v = 0; v < f->nvs; v++) {
        if (!now[v].xmit_pkts && !now[v].rcv_pkts)
            continue;
        json_t *vo = json_object();
        json_object_set_new(vo, "vl", json_integer(fabric_slot_vl(f, v)));
        counters_json(vo, &c0[v], &c1[v], 1);
        json_array_append_new(vls, vo);
    }
    json_object_set_new(o, "vls", vls);
    json_object_set_new(o, "rx_buffer_peak_bytes", json_integer((json_int_t)pt->rx_peak * CREDIT_BYTES));
    return o;
}

json_t *results_summary(struct fabric *f, const struct run_report *r, json_t *settings,
                        const struct series *s)
{
    json_t *root = json_object();
    json_object_set_new(root, "ibnetsim", json_string(IBN_VERSION));
    if (settings)
        json_object_set_new(root, "settings", settings);
    json_t *run = json_object();
    json_object_set_new(run, "outcome", json_string(outcome_name(r->outcome)));
    if (r->stalled_at)
        json_object_set_new(run, "stalled_after_s", json_real((double)r->stalled_at / 1e12));
    json_object_set_new(run, "measured_from_s", json_real((double)f->warmup / 1e12));
    json_object_set_new(run, "measured_to_s", json_real((double)fabric_measured_to(f) / 1e12));
    json_object_set_new(run, "stopped_at_s", json_real((double)f->now / 1e12));
    if (f->until_delivered) { /* simulation.until_delivered: did the run end by it? */
        json_t *u = json_object();
        json_object_set_new(u, "packets", json_integer((json_int_t)f->until_delivered));
        json_object_set_new(u, "reached", json_boolean(f->until_at != SIMTIME_NEVER));
        if (f->until_at != SIMTIME_NEVER)
            json_object_set_new(u, "at_s", json_real((double)f->until_at / 1e12));
        else
            json_object_set_new(u, "flows_short", json_integer((json_int_t)f->until_left));
        json_object_set_new(run, "until_delivered", u);
    }
    json_object_set_new(run, "events", json_integer((json_int_t)f->events));
    json_object_set_new(run, "packet_hops", json_integer((json_int_t)f->hops));
    json_object_set_new(run, "throughput_counts", json_string("payload bytes delivered in the measured period"));
    json_object_set_new(run, "port_counters_count",
                        json_string("the measured period [measured_from_s, measured_to_s); a port's warmup "
                                    "and drain apart; utilisation = link busy time / the period"));
    json_object_set_new(root, "run", run);
    json_t *warn = json_array();
    for (int i = 0; i < f->nwarn; i++)
        json_array_append_new(warn, json_string(f->warn[i]));
    json_object_set_new(root, "warnings", warn);
    json_t *inv = json_object();
    json_object_set_new(inv, "ok", json_boolean(r->invariants_ok));
    json_object_set_new(inv, "packets_created", json_integer((json_int_t)f->cnt.created));
    json_object_set_new(inv, "packets_delivered", json_integer((json_int_t)f->cnt.delivered));
    json_t *dropped = json_object();
    json_object_set_new(dropped, "unroutable", json_integer((json_int_t)f->cnt.dropped_unroutable));
    if (f->drop) {
        json_object_set_new(dropped, "hoq_lifetime", json_integer((json_int_t)f->cnt.dropped_hoq));
        json_object_set_new(dropped, "switch_lifetime", json_integer((json_int_t)f->cnt.dropped_sll));
        json_object_set_new(dropped, "kept_past_limit", json_integer((json_int_t)f->cnt.kept_past_limit));
        /* Where: every switch input port that dropped or kept a packet past a limit. */
        json_t *at = json_array();
        for (int i = 0; i < f->nnodes; i++) {
            if (!f->nodes[i]->is_switch)
                continue;
            const struct sw_drop *d = node_sw(f->nodes[i])->drop;
            for (int p = 1; p <= f->nodes[i]->nports; p++)
                if (d->hoq[p] || d->sll[p] || d->kept[p]) {
                    json_t *o = json_object();
                    json_object_set_new(o, "switch", json_string(f->nodes[i]->name));
                    json_object_set_new(o, "port", json_integer(p));
                    json_object_set_new(o, "hoq_lifetime", json_integer((json_int_t)d->hoq[p]));
                    json_object_set_new(o, "switch_lifetime", json_integer((json_int_t)d->sll[p]));
                    json_object_set_new(o, "kept_past_limit", json_integer((json_int_t)d->kept[p]));
                    json_array_append_new(at, o);
                }
        }
        json_object_set_new(dropped, "by_input_port", at);
    }
    if (f->loss_on)
        json_object_set_new(dropped, "loss", json_integer((json_int_t)f->cnt.dropped_loss));
    if (f->rtx) /* reached their destination and thrown away there: duplicates, past a gap */
        json_object_set_new(dropped, "discarded_by_responder", json_integer((json_int_t)f->cnt.discarded));
    json_object_set_new(inv, "packets_dropped", dropped);
    json_object_set_new(inv, "packets_in_flight", json_integer((json_int_t)r->in_flight));
    json_object_set_new(inv, "misdelivered", json_integer((json_int_t)f->cnt.misdelivered));
    json_object_set_new(inv, "violations", json_string(r->violations));
    json_object_set_new(root, "invariants", inv);
    if (f->mc)
        mcast_report(f, root);
    if (f->set.transport == TRANSPORT_RC) {
        json_t *tr = json_object();
        json_object_set_new(tr, "mode", json_string("rc"));
        json_object_set_new(tr, "acks_sent", json_integer((json_int_t)f->cnt.acks_created));
        json_object_set_new(tr, "ack_wire_bytes", json_integer((json_int_t)transport_ack_wire(&f->set)));
        if (f->rtx) { /* go-back-N (docs/transport.md, "Retransmission") */
            uint64_t resent = 0, timeouts = 0, dups = 0, oos = 0;
            for (uint32_t i = 0; i < f->nflows; i++) {
                resent += f->flows[i].rc.x->resent;
                timeouts += f->flows[i].rc.x->timeouts;
                dups += f->flows[i].rc.x->dups;
                oos += f->flows[i].rc.x->oos;
            }
            json_t *g = json_object();
            json_object_set_new(g, "local_ack_timeout_us",
                                f->ack_timeout == SIMTIME_NEVER ? json_null()
                                                                : json_real((double)f->ack_timeout / PS_PER_US));
            json_object_set_new(g, "retry_cnt", json_integer((json_int_t)f->set.retry_cnt));
            json_object_set_new(g, "packets_retransmitted", json_integer((json_int_t)resent));
            json_object_set_new(g, "naks_sent", json_integer((json_int_t)f->cnt.naks_created));
            json_object_set_new(g, "timeouts", json_integer((json_int_t)timeouts));
            json_object_set_new(g, "duplicates_discarded", json_integer((json_int_t)dups));
            json_object_set_new(g, "out_of_sequence_discarded", json_integer((json_int_t)oos));
            json_object_set_new(g, "qp_errors", json_integer((json_int_t)f->cnt.qp_errors));
            json_object_set_new(g, "retry_exceeded", json_integer((json_int_t)f->cnt.retry_exc));
            json_object_set_new(g, "rnr_retry", json_integer((json_int_t)f->set.rnr_retry));
            json_object_set_new(g, "rnr_naks_sent", json_integer((json_int_t)f->cnt.rnr_naks_created));
            json_object_set_new(g, "rnr_retry_exceeded", json_integer((json_int_t)f->cnt.rnr_retry_exc));
            if (f->set.rq_depth > 0) {
                json_object_set_new(g, "rq_depth", json_integer((json_int_t)f->set.rq_depth));
                json_object_set_new(g, "rq_post_interval_us", json_real((double)f->set.rq_interval / PS_PER_US));
                json_object_set_new(g, "min_rnr_timer", json_integer((json_int_t)f->set.min_rnr_timer));
                json_object_set_new(g, "min_rnr_timer_us", json_real((double)f->rnr_timer / PS_PER_US));
            }
            json_object_set_new(tr, "retransmission", g);
        }
        json_object_set_new(root, "transport", tr);
    }

    json_t *flows = json_array();
    struct histogram cls_net[16], cls_e2e[16];
    uint64_t cls_bytes[16] = { 0 }, cls_pkts[16] = { 0 };
    int cls_flows[16] = { 0 }, cls_has_dl[16] = { 0 }, cls_has_jit[16] = { 0 };
    struct deadline_acc cls_dl[16];
    struct jitter cls_jit[16];
    double *gbps = xcalloc(f->nflows + 1, sizeof *gbps);
    for (int i = 0; i < 16; i++) {
        hist_init(&cls_net[i]);
        hist_init(&cls_e2e[i]);
        deadline_init(&cls_dl[i]);
        jitter_init(&cls_jit[i], 1, f->jitter_k);
    }
    double total = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        double g = flow_throughput_gbps(f, fl);
        total += g;
        gbps[i] = g;
        deadline_merge(&cls_dl[fl->sl], &fl->st.deadlines);
        if (fl->st.has_jitter) {
            jitter_merge(&cls_jit[fl->sl], &fl->st.jitter);
            cls_has_jit[fl->sl] = 1;
        }
        cls_has_dl[fl->sl] |= fl->st.has_deadlines;
        cls_bytes[fl->sl] += fl->st.bytes_delivered;
        cls_pkts[fl->sl] += fl->st.pkts_delivered;
        cls_flows[fl->sl]++;
        hist_merge(&cls_net[fl->sl], &fl->st.net_latency);
        hist_merge(&cls_e2e[fl->sl], &fl->st.e2e_latency);
    }
    json_object_set_new(root, "total_throughput_gbps", json_real(round(total * 1e6) / 1e6));
    json_object_set_new(root, "jain_index", json_real(round(jain_index(gbps, f->nflows ? f->nflows : 1) * 1e9) / 1e9));
    if (s && s->ncontrib) {
        json_t *tv = json_object(), *names = json_array();
        for (int i = 0; i < s->ncontrib; i++)
            json_array_append_new(names, json_string(f->flows[s->contrib[i]].name));
        json_object_set_new(tv, "contributors", names);
        json_object_set_new(tv, "intervals", json_integer((json_int_t)s->tv.k));
        json_object_set_new(tv, "variation_gbps2", json_real(round(tv_value(&s->tv) * 1e9) / 1e9));
        json_object_set_new(tv, "mean_delta_gbps", json_real(round(tv_mean_delta(&s->tv) * 1e9) / 1e9));
        json_object_set_new(root, "treatment_variation", tv);
    }
    json_object_set_new(root, "flows", flows);
    json_t *classes = json_array();
    double secs = fabric_measured_s(f);
    for (int sl = 0; sl < 16; sl++) {
        if (cls_flows[sl]) {
            json_t *o = json_object();
            json_object_set_new(o, "sl", json_integer(sl));
            for (uint32_t i = 0; i < f->nflows; i++)
                if (f->flows[i].sl == sl && f->flows[i].cls) {
                    json_object_set_new(o, "class", json_string(f->flows[i].cls));
                    break;
                }
            json_object_set_new(o, "flows", json_integer(cls_flows[sl]));
            json_object_set_new(o, "packets_delivered", json_integer((json_int_t)cls_pkts[sl]));
            json_object_set_new(o, "bytes_delivered", json_integer((json_int_t)cls_bytes[sl]));
            json_object_set_new(o, "throughput_gbps",
                                json_real(secs > 0 ? round((double)cls_bytes[sl] * 8 / secs / 1e9 * 1e6) / 1e6 : 0.0));
            json_object_set_new(o, "network_latency", latency_json(&cls_net[sl]));
            json_object_set_new(o, "end_to_end_latency", latency_json(&cls_e2e[sl]));
            double *xs = xcalloc((size_t)cls_flows[sl], sizeof *xs);
            int m = 0;
            for (uint32_t i = 0; i < f->nflows; i++)
                if (f->flows[i].sl == sl)
                    xs[m++] = gbps[i];
            json_object_set_new(o, "jain_index", json_real(round(jain_index(xs, (size_t)m) * 1e9) / 1e9));
            free(xs);
            if (cls_has_dl[sl])
                json_object_set_new(o, "deadlines", deadlines_json(&cls_dl[sl]));
            if (cls_has_jit[sl])
                json_object_set_new(o, "jitter", jitter_json(&cls_jit[sl]));
            json_array_append_new(classes, o);
        }
        hist_free(&cls_net[sl]);
        hist_free(&cls_e2e[sl]);
    }
    json_object_set_new(root, "classes", classes);
    free(gbps);
    json_t *hosts = json_array();
    for (int h = 0; h < f->nhosts; h++) {
        json_t *o = json_object();
        json_object_set_new(o, "host", json_string(f->hosts[h].node->name));
        json_object_set_new(o, "port", json_integer(f->hosts[h].port->num));
        json_object_set_new(o, "lid", json_integer(f->hosts[h].port->lid));
        json_object_set_new(o, "rx_gbps", json_real(secs > 0 ? round((double)f->hosts[h].rx_bytes * 8 / secs / 1e9 * 1e6) / 1e6 : 0.0));
        json_object_set_new(o, "tx_gbps", json_real(secs > 0 ? round((double)f->hosts[h].tx_bytes * 8 / secs / 1e9 * 1e6) / 1e6 : 0.0));
        json_array_append_new(hosts, o);
    }
    json_object_set_new(root, "hosts", hosts);
    json_t *rc = receive_classes_json(f);
    if (rc)
        json_object_set_new(root, "receive_classes", rc);
    if (!f->period) { /* the run refused to start */
        period_init(f);
        period_finish(f, f->now);
    }
    /* Filled by results_write_json, one port's tree at a time (port_json). */
    json_object_set_new(root, "ports", json_array());
    return root;
}

/* Writes one JSON value's text, formatted in memory and written at once (the same bytes as
 * json_dumpf, which hands the stream every token separately: fwrite was a third of its cost),
 * each line after the first indented by `indent` more spaces. jsontext.c writes it; json_dumps
 * only what that leaves to jansson. buf is the caller's scratch text, kept between calls. */
static void put_json(FILE *fp, struct jtext *buf, const json_t *j, size_t flags, int indent)
{
    buf->len = 0;
    if (!jtext_dump(buf, j, flags, indent)) {
        fwrite(buf->s, 1, buf->len, fp);
        return;
    }
    char *text = json_dumps(j, flags);
    if (!text) {
        json_dumpf(j, fp, flags); /* out of memory: token by token (no indent: only at depth 0) */
        return;
    }
    const char *p = text;
    for (const char *nl; indent && (nl = strchr(p, '\n')); p = nl + 1) {
        fwrite(p, 1, (size_t)(nl + 1 - p), fp);
        fprintf(fp, "%*s", indent, "");
    }
    fputs(p, fp);
    free(text);
}

/* The root's arrays that results_summary leaves empty and results_write_json fills from the
 * fabric as it writes, one element's tree at a time: a fabric's flows and its cabled ports
 * (the 11,664-host fat tree's 69,984 ports made summary.json's tree and its text 460 MiB of
 * the run's 713 MiB peak when they were held whole). */
struct deferred {
    const char *key;         /* "\n  \"flows\": []" as json_dumps writes the empty member */
    size_t nkey;
    const char *at;          /* where in the root's text, or NULL */
};

/* The next element of a deferred array from cursor (*i, *p); NULL at its end. */
static json_t *deferred_next(struct fabric *f, int which, uint32_t *i, int *p)
{
    if (which == 0)
        return *i < f->nflows ? flow_json(f, &f->flows[(*i)++]) : NULL;
    for (; *i < (uint32_t)f->nnodes; (*i)++, *p = 0)
        while (++*p <= f->nodes[*i]->nports)
            if (f->nodes[*i]->port[*p].peer)
                return port_json(f, (int)*i, *p);
    return NULL;
}

int results_write_json(json_t *j, struct fabric *f, const char *path, struct ibn_err *e)
{
    struct outfile *o = out_open(path, e);
    if (!o)
        return -1;
    size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12);
    static const char kf[] = "\n  \"flows\": []", kp[] = "\n  \"ports\": []";
    struct deferred dv[2] = { { kf, sizeof kf - 1, NULL }, { kp, sizeof kp - 1, NULL } };
    int nd = 0;
    for (int k = 0; f && k < 2; k++) {
        json_t *a = json_object_get(j, k ? "ports" : "flows");
        dv[k].key = a && json_is_array(a) && !json_array_size(a) ? dv[k].key : NULL;
        nd += dv[k].key != NULL;
    }
    struct jtext buf = { 0 };
    char *text = NULL;
    if (nd && !jtext_dump(&buf, j, flags, 0)) {
        text = buf.s; /* the root's text; buf starts anew for the elements */
        buf = (struct jtext){ 0 };
    } else if (nd)
        text = json_dumps(j, flags);
    for (int k = 0; text && k < 2; k++)
        if (dv[k].key && !(dv[k].at = strstr(text, dv[k].key))) { /* not where it should be */
            free(text);
            text = NULL;
        }
    if (!text) { /* nothing deferred, or not found: the whole tree at once */
        for (int k = 0; nd && k < 2; k++) {
            json_t *a = json_object_get(j, k ? "ports" : "flows"), *x;
            uint32_t i = 0;
            int p = 0;
            if (dv[k].key)
                while ((x = deferred_next(f, k, &i, &p)))
                    json_array_append_new(a, x);
        }
        put_json(o->fp, &buf, j, flags, 0);
        jtext_free(&buf);
        return out_close(o, e);
    }
    /* The text up to each empty member, then its elements one at a time, in the bytes
     * json_dumps gives the whole (a root member at depth 1, its elements at depth 2). */
    int first = dv[0].at && (!dv[1].at || dv[0].at < dv[1].at) ? 0 : 1;
    const char *from = text;
    for (int n = 0; n < 2; n++) {
        int k = n ? 1 - first : first;
        if (!dv[k].at)
            continue;
        fwrite(from, 1, (size_t)(dv[k].at - from), o->fp);
        fprintf(o->fp, "\n  \"%s\": [", k ? "ports" : "flows");
        uint32_t i = 0;
        int p = 0, any = 0;
        json_t *x;
        while ((x = deferred_next(f, k, &i, &p))) {
            fputs(any ? ",\n    " : "\n    ", o->fp);
            put_json(o->fp, &buf, x, flags, 4);
            json_decref(x);
            any = 1;
        }
        fputs(any ? "\n  ]" : "]", o->fp);
        from = dv[k].at + dv[k].nkey;
    }
    fputs(from, o->fp);
    free(text);
    jtext_free(&buf);
    return out_close(o, e);
}

void results_print(FILE *out, struct fabric *f, const struct run_report *r)
{
    double total = 0;
    /* Columns as wide as the longest name shown (real fabrics have long node descriptions). */
    int wn = 4, ws = 3, wd = 3;
    for (uint32_t i = 0; i < f->nflows && i < 20; i++) {
        const struct flow *fl = &f->flows[i];
        int a = (int)strlen(fl->name), b = (int)strlen(fl->src->node->alias),
            c = (int)strlen(dst_short(f, fl));
        wn = a > wn ? a : wn;
        ws = b > ws ? b : ws;
        wd = c > wd ? c : wd;
    }
    wn = wn < 24 ? 24 : wn;
    ws = ws < 10 ? 10 : ws;
    wd = wd < 10 ? 10 : wd;
    fprintf(out, "%-*s %-*s %-*s %12s %14s %14s\n", wn, "flow", ws, "src", wd, "dst", "Gb/s",
            "net lat p50 ns", "net lat p99 ns");
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        double g = flow_throughput_gbps(f, fl);
        total += g;
        if (i < 20)
            fprintf(out, "%-*s %-*s %-*s %12.4f %14.0f %14.0f\n", wn, fl->name, ws,
                    fl->src->node->alias, wd, dst_short(f, fl), g,
                    hist_quantile(&fl->st.net_latency, 0.5) / 1e3,
                    hist_quantile(&fl->st.net_latency, 0.99) / 1e3);
    }
    if (f->nflows > 20)
        fprintf(out, "... and %u more flows\n", f->nflows - 20);
    struct receive_classes c;
    if (results_receive_classes(f, &c))
        fprintf(out, "receive rate per host: hot spots %.4f Gb/s (%d), other hosts %.4f Gb/s (%d), "
                     "all %.4f Gb/s; total %.4f Gb/s\n", c.hot_gbps, c.hot, c.other_gbps, c.other,
                c.all_gbps, c.total_gbps);
    fprintf(out, "total %.4f Gb/s delivered (payload) over %.6g s; %llu packets, %llu events; run %s; "
                 "invariants %s\n", total, fabric_measured_s(f),
            (unsigned long long)f->cnt.delivered, (unsigned long long)f->events,
            r->outcome == RUN_DRAINED ? "drained" : r->outcome == RUN_INTERRUPTED ? "interrupted"
            : r->outcome == RUN_STUCK ? "STUCK (packets left, nothing can move: deadlock?)"
                                      : "did not drain within the drain limit",
            r->invariants_ok ? "hold" : "BROKEN");
}

/* hostcredit.c: seed 003's credit-based congestion control at the host (Yum et al. section
 * 4.2; digest 003 section 2.5) as a cc plug-in, `plugin = "hostcredit"`. Each consumer (flow)
 * holds credits, the completion-queue entries that let it post one more message to the adapter;
 * a credit comes back with the completion of a message. Under the reliable connection a send
 * completes when its ACK arrives, so a flow's credits are a window of outstanding messages
 * (transport_set_window): C_j = floor(b_j / B x M) (at least 1) for a real-time flow j of
 * offered rate b_j on a link of rate B, the SLs in rt_sls; each best-effort flow of an adapter
 * min(credits, (M - sum of its real-time C_j) / its best-effort flows); the credits of an adapter
 * never exceed M. A best-effort flow without credits waits for one; a real-time flow drops the
 * posting attempt and retries rt_retry later (giving a message up after rt_retries refused
 * retries, -1: never), the attempts and the messages given up counted per flow (hca.c,
 * flow_drop_retry). Not modelled: the "injected" reading of a completion (the credit back when
 * the message has left the adapter rather than when it is acknowledged). Control traffic (ACKs,
 * and flows on the SLs of control_sls) is never restricted. */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
#include "fabric/transport.h"

struct hostcredit_desc {
    long long hca_messages;  /* M */
    long long credits;       /* C_b */
    char *rt_sls;            /* "1,2": the real-time SLs */
    char *control_sls;       /* SLs of control traffic: never restricted */
    simtime_t rt_retry;      /* a real-time flow's back-off after a refused posting */
    long long rt_retries;    /* refused retries before a message is given up; -1: never */
};

#define OFF(field) offsetof(struct hostcredit_desc, field)

const struct param hostcredit_params[] = {
    { "hca_messages", P_INT, OFF(hca_messages), "512",
      "M, the adapter's buffer in messages: the credits of an adapter's flows add up to at most "
      "this (digest 003 gap 11: 512); equal to hca.messages when that is set", NULL, 1, 1e9 },
    { "credits", P_INT, OFF(credits), "200",
      "C_b, the initial credits of a best-effort flow (the paper's best: 200), at most "
      "(M - the real-time credits) / best-effort flows of the adapter", NULL, 1, 1e9 },
    { "rt_sls", P_STRING, OFF(rt_sls), "",
      "SLs of real-time flows, \"1,2\": each gets C_j = floor(b_j / B x M) credits from its "
      "offered rate b_j and link rate B; \"\" = every flow is best effort", NULL, 0, 0 },
    { "control_sls", P_STRING, OFF(control_sls), "",
      "SLs of control traffic (seed 003's highest class): never restricted, no credits, not "
      "counted against M", NULL, 0, 0 },
    { "rt_retry", P_TIME, OFF(rt_retry), "3.2 us",
      "a real-time flow without a credit drops the posting attempt and retries this much later "
      "(digest 003 gap 10: one 40-flit message time on a 1.6 Gb/s link); 0 = it waits for a "
      "credit like best effort", NULL, 0, 0 },
    { "rt_retries", P_INT, OFF(rt_retries), "-1",
      "refused retries after which a real-time message is given up (counted as lost); 0 = drop "
      "at the first refusal; -1 = retry until it is posted", NULL, -1, 254 },
    PARAM_END,
};

struct hostcredit {
    uint32_t *credits;       /* per flow */
    uint16_t rt_mask;
    long long m;
    simtime_t rt_retry;
};

static int parse_sls(const char *key, const char *text, uint16_t *mask, struct ibn_err *e)
{
    *mask = 0;
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char *end;
        long sl = strtol(p, &end, 10);
        if (end == p || sl < 0 || sl > 15)
            return ibn_err_set(e, "cc.%s: expected SLs 0-15 separated by commas (\"1,2\"), got \"%s\"",
                               key, text);
        *mask |= (uint16_t)(1u << sl);
        p = end;
    }
    return 0;
}

static void report(struct fabric *f, json_t *summary)
{
    struct hostcredit *c = f->hooks.ctx;
    json_t *o = json_object(), *fl = json_array();
    json_object_set_new(o, "plugin", json_string("hostcredit"));
    json_object_set_new(o, "hca_messages", json_integer(c->m));
    json_object_set_new(o, "rt_retry_s", json_real((double)c->rt_retry / 1e12));
    uint64_t drops = 0, lost = 0;
    for (uint32_t i = 0; i < f->nflows; i++) {
        const struct flow *g = &f->flows[i];
        json_t *x = json_object();
        json_object_set_new(x, "name", json_string(g->name));
        json_object_set_new(x, "real_time", json_boolean(c->rt_mask >> g->sl & 1));
        json_object_set_new(x, "credits", json_integer(c->credits[i]));
        json_object_set_new(x, "posting_drops", json_integer((json_int_t)g->rc.x->drops));
        json_object_set_new(x, "messages_lost", json_integer((json_int_t)g->rc.x->lost));
        drops += g->rc.x->drops;
        lost += g->rc.x->lost;
        json_array_append_new(fl, x);
    }
    json_object_set_new(o, "posting_drops", json_integer((json_int_t)drops));
    json_object_set_new(o, "messages_lost", json_integer((json_int_t)lost));
    json_object_set_new(o, "flows", fl);
    json_object_set_new(summary, "cc", o);
}

/* A distributed run: nothing of its own crosses. Its credits are the flows' message windows
 * (transport), whose ACKs travel as packets; the posting drops and messages given up are the
 * source's, gathered with the flows (dist/walk.c), and the posted latency is joined at rank 0. */
static void dist_walk(struct fabric *f, const int *part, int rank, struct dist_io *io)
{
    (void)f, (void)part, (void)rank, (void)io;
}

static void destroy(struct fabric *f)
{
    struct hostcredit *c = f->hooks.ctx;
    if (!c)
        return;
    free(c->credits);
    free(c);
    f->hooks.ctx = NULL;
}

static int attach(struct fabric *f, const void *descp, struct ibn_err *e)
{
    const struct hostcredit_desc *d = descp;
    if (f->set.transport != TRANSPORT_RC)
        return ibn_err_set(e, "cc.plugin = hostcredit returns a credit with each completion, which "
                           "under IBA is the message's ACK: it needs transport.mode = rc");
    uint16_t mask, ctl;
    if (parse_sls("rt_sls", d->rt_sls, &mask, e) || parse_sls("control_sls", d->control_sls, &ctl, e))
        return -1;
    if (mask & ctl)
        return ibn_err_set(e, "cc.rt_sls and cc.control_sls share an SL: a flow is real time or "
                           "control, not both");
    if (f->set.hca_messages > 0 && f->set.hca_messages != d->hca_messages)
        return ibn_err_set(e, "cc.hca_messages = %lld but hca.messages = %lld: the credits split the "
                           "adapter's buffer, so both must give the same M", d->hca_messages,
                           f->set.hca_messages);
    uint32_t *credits = xcalloc((size_t)f->nflows + 1, sizeof *credits);
    long long *rt_sum = xcalloc((size_t)f->nhosts + 1, sizeof *rt_sum);
    int *n_be = xcalloc((size_t)f->nhosts + 1, sizeof *n_be);
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (ctl >> fl->sl & 1)
            continue;
        if (!(mask >> fl->sl & 1)) {
            n_be[fl->src_host]++;
            continue;
        }
        double b = arrival_mean_rate_bps(&fl->arr.d), link = byterate_bps(fl->src->rate);
        long long cj = (long long)(b / link * (double)d->hca_messages);
        credits[i] = (uint32_t)(cj < 1 ? 1 : cj);
        rt_sum[fl->src_host] += credits[i];
    }
    int rc = 0;
    for (int h = 0; h < f->nhosts && !rc; h++) {
        long long left = d->hca_messages - rt_sum[h];
        if (left < n_be[h] || (n_be[h] == 0 && left < 0))
            rc = ibn_err_set(e, "cc: adapter %s: its real-time flows take %lld of M = %lld credits, "
                             "leaving %lld for %d best-effort flows (each needs at least 1): raise "
                             "cc.hca_messages", f->hosts[h].node->name, rt_sum[h], d->hca_messages,
                             left, n_be[h]);
    }
    if (rc) {
        free(credits), free(rt_sum), free(n_be);
        return -1;
    }
    for (uint32_t i = 0; i < f->nflows; i++) {
        struct flow *fl = &f->flows[i];
        if (ctl >> fl->sl & 1)
            continue; /* control: no window */
        if (!(mask >> fl->sl & 1)) {
            long long share = (d->hca_messages - rt_sum[fl->src_host]) / n_be[fl->src_host];
            credits[i] = (uint32_t)(d->credits < share ? d->credits : share);
        }
        transport_set_window(fl, credits[i], 1);
        if (mask >> fl->sl & 1) {
            transport_rc_own(fl);
            fl->rc.x->retry = d->rt_retry;
            fl->rc.x->retries_max = (int32_t)d->rt_retries;
        }
    }
    free(rt_sum), free(n_be);
    struct hostcredit *c = xcalloc(1, sizeof *c);
    c->credits = credits;
    c->rt_mask = mask;
    c->m = d->hca_messages;
    c->rt_retry = d->rt_retry;
    f->hooks = (struct fabric_hooks){
        .name = "hostcredit",
        .ctx = c,
        .report = report,
        .destroy = destroy,
        .dist_walk = dist_walk,
    };
    return 0;
}

const struct cc_plugin hostcredit_plugin = {
    "hostcredit",
    "seed 003's credit-based congestion control at the host: completion-queue credits per flow "
    "(C_j from real-time bandwidth, C_b for best effort) as RC message windows",
    hostcredit_params,
    sizeof(struct hostcredit_desc),
    attach,
};

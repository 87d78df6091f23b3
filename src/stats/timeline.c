/* timeline.c: the Chrome trace-event / Perfetto timeline of a run (timeline.h). The engine and
 * the plug-ins tell fabric.timeline_fn what happens; each note within the window becomes a
 * fixed-size record in an array that grows by doubling up to the cap (no allocation per event
 * otherwise). Counters are recorded as changes, each at the time it takes effect (a credit
 * return at its arrival, which the model knows when it schedules it), and summed in time order
 * when the file is written: changes before the window fold into the value at its start. Every
 * note is made at or before its own time, so when the cap stops the collection at time T the
 * records before T are all there: the file holds exactly the window cut at T. */
#include "stats/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/units.h"
#include "fabric/build.h"
#include "stats/watch.h"

struct tl_rec {
    simtime_t t;
    int64_t a;          /* span: busy ps; buffer, credits: change; CCTI: value; drop: cause */
    int64_t b;          /* buffer, credits: VL slot; CCTI: whose index (fabric.h, TLN_CCTI) */
    uint32_t port;      /* port id (pbase[node] + number) */
    uint32_t flow, about, psn;
    uint16_t slid, dlid, bytes;
    uint8_t note, sl, vl, flags;
};

struct timeline {
    struct outfile *of;
    simtime_t start, stop;
    simtime_t cut;        /* the cap was reached at this time (SIMTIME_NEVER: not) */
    uint8_t *flow_on;     /* NULL = every flow */
    uint32_t *pbase;      /* [node index] first port id */
    uint32_t nports;      /* port ids */
    const struct port **port_of; /* [id] */
    int64_t *rx0, *cr0;   /* [id * VL_SLOTS + slot]: buffer use and credits at the window's start */
    struct tl_rec *r;
    size_t n, cap, max;
};

static uint32_t pid_of(const struct timeline *c, const struct port *p)
{
    return c->pbase[p->node->index] + p->num;
}

static void on_note(struct fabric *f, int note, const struct port *at, const struct packet *p,
                    simtime_t t, int64_t a, int64_t b)
{
    struct timeline *c = f->timeline;
    if (!(at->watch & WATCH_TIMELINE) || t >= c->stop)
        return;
    uint32_t id = pid_of(c, at);
    if (note == TLN_RX || note == TLN_CREDITS) {
        if (b >= f->set.nvls)
            return; /* VL15: not flow-controlled */
        if (t < c->start) {
            (note == TLN_RX ? c->rx0 : c->cr0)[id * VL_SLOTS + b] += a;
            return;
        }
        if (t >= c->cut)
            return;
    } else {
        if (t >= c->cut)
            return;
        if (t < c->start)
            return;
        uint32_t fl = note == TLN_CCTI ? (uint32_t)(b >= 0 ? b & 0xffffffff : FLOW_NIL)
                      : p->flow == FLOW_CONTROL ? p->about_flow : p->flow;
        if (c->flow_on && (fl >= f->nflows || !c->flow_on[fl]))
            return;
    }
    if (c->n == c->cap) {
        if (c->cap == c->max) {
            c->cut = f->now > c->start ? f->now : c->start;
            char ts[64];
            units_format_time(f->now, ts, sizeof ts);
            fabric_warn(f, "the timeline reached output.timeline_max_events (%zu events) at %s: "
                        "timeline.json ends there", c->max, ts);
            return;
        }
        c->cap = c->cap * 2 < c->max ? c->cap * 2 : c->max;
        c->r = xrealloc(c->r, c->cap * sizeof *c->r);
    }
    struct tl_rec *r = &c->r[c->n++];
    memset(r, 0, sizeof *r);
    r->t = t;
    r->a = a;
    r->b = b;
    r->port = id;
    r->note = (uint8_t)note;
    if (p) {
        r->flow = p->flow;
        r->about = p->about_flow;
        r->psn = p->psn;
        r->slid = p->src_lid;
        r->dlid = p->dst_lid;
        r->bytes = p->wire_bytes;
        r->sl = p->sl;
        r->vl = p->vl;
        r->flags = p->flags;
    }
}

int timeline_open(struct fabric *f, const struct timeline_desc *d, const char *path,
                  struct ibn_err *e)
{
    if (!d->ports || !*d->ports)
        return 0;
    struct timeline *c = xcalloc(1, sizeof *c);
    f->timeline = c;
    c->start = d->start;
    c->stop = d->stop ? d->stop : SIMTIME_NEVER;
    c->cut = SIMTIME_NEVER;
    c->max = d->max_events > 0 ? (size_t)d->max_events : 1;
    c->cap = c->max < 4096 ? c->max : 4096;
    c->r = xmalloc(c->cap * sizeof *c->r);
    c->pbase = xmalloc(((size_t)f->nnodes + 1) * sizeof *c->pbase);
    uint32_t id = 0;
    for (int i = 0; i < f->nnodes; i++) {
        c->pbase[f->nodes[i]->index] = id;
        id += (uint32_t)f->nodes[i]->nports + 1;
    }
    c->nports = id;
    c->port_of = xcalloc(id, sizeof *c->port_of);
    c->rx0 = xcalloc((size_t)id * VL_SLOTS, sizeof *c->rx0);
    c->cr0 = xcalloc((size_t)id * VL_SLOTS, sizeof *c->cr0);
    for (int i = 0; i < f->nnodes; i++)
        for (int p = 1; p <= f->nodes[i]->nports; p++) {
            const struct port *pt = &f->nodes[i]->port[p];
            uint32_t k = pid_of(c, pt);
            c->port_of[k] = pt;
            for (int s = 0; s < f->nvs; s++) {
                c->rx0[k * VL_SLOTS + s] = pt->vl[s].rx_used;
                c->cr0[k * VL_SLOTS + s] = pt->vl[s].credits;
            }
        }
    int rc = watch_links(f, d->ports, WATCH_TIMELINE, "output.timeline_ports", e);
    if (!rc)
        rc = watch_flows(f, d->flows, &c->flow_on, "output.timeline_flows", e);
    if (!rc && !(c->of = out_open(path, e)))
        rc = -1;
    if (rc) {
        struct ibn_err ignore;
        timeline_close(f, &ignore);
        return -1;
    }
    f->timeline_fn = on_note;
    return 0;
}

uint64_t timeline_count(const struct fabric *f)
{
    const struct timeline *c = f->timeline;
    if (!c)
        return 0;
    uint64_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += c->r[i].t < c->cut;
    return n;
}

int timeline_truncated(const struct fabric *f)
{
    const struct timeline *c = f->timeline;
    return c && c->cut != SIMTIME_NEVER;
}

/* ------------------------------------------------------------------ writing ---- */

/* Stable merge sort by time (ties keep the order the model made them). */
static void sort_records(struct tl_rec *r, size_t n)
{
    struct tl_rec *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
    struct tl_rec *src = r, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = src[j].t < src[i].t ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        struct tl_rec *x = src;
        src = dst;
        dst = x;
    }
    if (src != r)
        memcpy(r, src, n * sizeof *r);
    free(tmp);
}

/* Simulated picoseconds as microseconds, exactly. */
static const char *us(simtime_t t, char *buf)
{
    snprintf(buf, 32, "%lld.%06lld", (long long)(t / 1000000), (long long)(t % 1000000));
    return buf;
}

static void jstr(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

static const char *node_label(const struct node *n)
{
    return n->alias ? n->alias : n->name;
}

static void write_meta(FILE *fp, const struct fabric *f, const struct timeline *c)
{
    for (int i = 0; i < f->nnodes; i++) {
        const struct node *n = f->nodes[i];
        int any = 0;
        for (int p = 1; p <= n->nports; p++)
            any |= n->port[p].peer && (n->port[p].watch & WATCH_TIMELINE);
        if (!any)
            continue;
        unsigned pid = (unsigned)n->index + 1;
        char name[600];
        unsigned lid = n->is_switch ? n->lid : n->port[1].lid;
        for (int p = 1; !n->is_switch && p <= n->nports; p++)
            if (n->port[p].peer) {
                lid = n->port[p].lid;
                break;
            }
        if (n->alias && strcmp(n->alias, n->name))
            snprintf(name, sizeof name, "%s (%s) LID %u", n->alias, n->name, lid);
        else
            snprintf(name, sizeof name, "%s LID %u", n->name, lid);
        fprintf(fp, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":", pid);
        jstr(fp, name);
        fprintf(fp, "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,"
                "\"args\":{\"sort_index\":%u}},\n", pid, pid);
        for (int p = 1; p <= n->nports; p++) {
            const struct port *pt = &n->port[p];
            if (!pt->peer || !(pt->watch & WATCH_TIMELINE))
                continue;
            snprintf(name, sizeof name, "port %d -> %s:%u", p, node_label(pt->peer->node),
                     pt->peer->num);
            fprintf(fp, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%d,\"args\":{\"name\":",
                    pid, p);
            jstr(fp, name);
            fprintf(fp, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%d,"
                    "\"args\":{\"sort_index\":%d}},\n", pid, p, p);
        }
    }
    (void)c;
}

static void counter(FILE *fp, const char *what, const struct port *pt, int slot, simtime_t t,
                    int64_t v)
{
    char b[32];
    fprintf(fp, "{\"ph\":\"C\",\"name\":\"%s p%u VL%d\",\"ts\":%s,\"pid\":%u,\"args\":{\"credits\":%lld}},\n",
            what, pt->num, slot, us(t, b), (unsigned)pt->node->index + 1, (long long)v);
}

static const char *flow_name(const struct fabric *f, uint32_t i)
{
    return i < f->nflows ? f->flows[i].name : "control";
}

static void write_record(FILE *fp, const struct fabric *f, const struct timeline *c,
                         const struct tl_rec *r, int64_t *rx, int64_t *cr)
{
    const struct port *pt = c->port_of[r->port];
    unsigned pid = (unsigned)pt->node->index + 1;
    char b1[32], b2[32];
    switch (r->note) {
    case TLN_RX:
    case TLN_CREDITS: {
        int64_t *v = &(r->note == TLN_RX ? rx : cr)[r->port * VL_SLOTS + r->b];
        *v += r->a;
        counter(fp, r->note == TLN_RX ? "buffer" : "credits", pt, (int)r->b, r->t, *v);
        return;
    }
    case TLN_CCTI: {
        char name[400];
        if (r->b < 0)
            snprintf(name, sizeof name, "CCTI p%u SL%lld", pt->num, (long long)(-1 - r->b));
        else if (r->b >> 32)
            snprintf(name, sizeof name, "CCTI %s to %s", flow_name(f, (uint32_t)r->b),
                     node_label(f->hosts[(r->b >> 32) - 1].node));
        else
            snprintf(name, sizeof name, "CCTI %s", flow_name(f, (uint32_t)r->b));
        fprintf(fp, "{\"ph\":\"C\",\"name\":");
        jstr(fp, name);
        fprintf(fp, ",\"ts\":%s,\"pid\":%u,\"args\":{\"ccti\":%lld}},\n", us(r->t, b1), pid,
                (long long)r->a);
        return;
    }
    default:
        break;
    }
    int control = r->flow == FLOW_CONTROL;
    const char *fl = flow_name(f, control ? r->about : r->flow);
    const char *what = r->note == TLN_FECN ? "FECN marked"
                       : r->note == TLN_BECN ? "BECN received"
                       : r->note == TLN_CNP ? "CNP sent"
                       : r->note == TLN_DROP ? (r->b == 1   ? "drop: HOQ lifetime"
                                                : r->b == 2 ? "drop: switch lifetime"
                                                : r->b == 3 ? "drop: lost"
                                                : r->b == 4 ? "discarded by the responder"
                                                            : "drop: no route")
                                             : NULL;
    if (r->note == TLN_SPAN) {
        char name[300];
        if (r->flags & PKT_CNP)
            snprintf(name, sizeof name, "CNP %s", fl);
        else if (r->flags & PKT_ACK)
            snprintf(name, sizeof name, "ACK %s", fl);
        else
            snprintf(name, sizeof name, "%s", fl);
        fprintf(fp, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", control ? "control" : "data");
        jstr(fp, name);
        fprintf(fp, ",\"ts\":%s,\"dur\":%s,\"pid\":%u,\"tid\":%u,\"args\":{", us(r->t, b1),
                us(r->a, b2), pid, pt->num);
    } else {
        fprintf(fp, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"%s\",\"name\":\"%s\",\"ts\":%s,"
                "\"pid\":%u,\"tid\":%u,\"args\":{", r->note == TLN_DROP ? "drop" : "cc", what,
                us(r->t, b1), pid, pt->num);
    }
    fprintf(fp, "\"flow\":");
    jstr(fp, fl);
    fprintf(fp, ",\"psn\":%u,\"slid\":%u,\"dlid\":%u,\"sl\":%u,\"vl\":%u,\"bytes\":%u,"
            "\"fecn\":%d,\"becn\":%d}},\n", r->psn, r->slid, r->dlid, r->sl, r->vl, r->bytes,
            (r->flags & PKT_FECN) != 0, (r->flags & PKT_BECN) != 0);
}

static void write_all(struct fabric *f, struct timeline *c)
{
    FILE *fp = c->of->fp;
    sort_records(c->r, c->n);
    char b1[32], b2[32];
    simtime_t end = c->cut < c->stop ? c->cut : c->stop;
    fprintf(fp, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"ibnetsim\","
            "\"time\":\"simulated microseconds\",\"window_start_us\":%s,\"window_stop_us\":",
            us(c->start, b1));
    if (c->stop == SIMTIME_NEVER)
        fprintf(fp, "null");
    else
        fprintf(fp, "%s", us(c->stop, b2));
    fprintf(fp, ",\"max_events\":%zu,\"events\":%llu,\"truncated_at_us\":", c->max,
            (unsigned long long)timeline_count(f));
    if (c->cut == SIMTIME_NEVER)
        fprintf(fp, "null");
    else
        fprintf(fp, "%s", us(c->cut, b1));
    fprintf(fp, "},\n\"traceEvents\":[\n");
    write_meta(fp, f, c);
    /* Every chosen link's buffers and credits at the window's start. */
    for (uint32_t k = 0; k < c->nports; k++) {
        const struct port *pt = c->port_of[k];
        if (!pt || !pt->peer || !(pt->watch & WATCH_TIMELINE))
            continue;
        for (int s = 0; s < f->set.nvls; s++) {
            counter(fp, "buffer", pt, s, c->start, c->rx0[k * VL_SLOTS + s]);
            counter(fp, "credits", pt, s, c->start, c->cr0[k * VL_SLOTS + s]);
        }
    }
    for (size_t i = 0; i < c->n; i++)
        if (c->r[i].t < end)
            write_record(fp, f, c, &c->r[i], c->rx0, c->cr0);
    /* The last event ends without a comma: a closing metadata record. */
    fprintf(fp, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"ibnetsim\"}}\n]}\n");
}

int timeline_close(struct fabric *f, struct ibn_err *e)
{
    struct timeline *c = f->timeline;
    if (!c)
        return 0;
    int rc = 0;
    if (c->of) {
        write_all(f, c);
        rc = out_close(c->of, e);
    }
    free(c->flow_on);
    free(c->pbase);
    free(c->port_of);
    free(c->rx0);
    free(c->cr0);
    free(c->r);
    free(c);
    f->timeline = NULL;
    f->timeline_fn = NULL;
    watch_clear(f, WATCH_TIMELINE);
    return rc;
}

/* opensm_conf.c: the opensm.conf reader (see opensm_conf.h). Each OpenSM key is translated into
 * a key of a parameter table (the IB CC plug-in's or the QoS section's) and set through that
 * table, so values get the same checking as in a scenario. */
#include "config/opensm_conf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct rd {
    const char *path;
    int line;
    struct ibn_err *e;
};

static int set_key(struct rd *r, const struct param *tab, void *obj, const char *key,
                   const char *value, const char *osm_key)
{
    if (!obj)
        return 0;
    char why[512];
    if (param_set(params_find(tab, key), obj, value, why, sizeof why))
        return ibn_err_at(r->e, r->path, r->line, "%s: %s", osm_key, why);
    return 0;
}

static int parse_bool(struct rd *r, const char *key, const char *v, int *out)
{
    if (!strcasecmp(v, "TRUE"))
        *out = 1;
    else if (!strcasecmp(v, "FALSE"))
        *out = 0;
    else
        return ibn_err_at(r->e, r->path, r->line, "%s expects TRUE or FALSE, got \"%s\"", key, v);
    return 0;
}

static int parse_num(struct rd *r, const char *key, const char *v, long long min, long long max,
                     long long *out)
{
    char *end;
    long long x = strtoll(v, &end, 0);
    while (*end && isspace((unsigned char)*end))
        end++;
    if (end == v || *end || x < min || x > max)
        return ibn_err_at(r->e, r->path, r->line, "%s expects a number %lld-%lld (decimal or 0x hex), "
                          "got \"%s\"", key, min, max, v);
    *out = x;
    return 0;
}

/* Append "SL:value" to a per-SL list key of the CC description. */
static int per_sl(struct rd *r, struct ibcc_desc *cc, const char *pkey, const char *key,
                  const char *v, long long max)
{
    char a[64], b[64];
    if (sscanf(v, "%63s %63s", a, b) != 2)
        return ibn_err_at(r->e, r->path, r->line, "%s expects \"<SL> <value>\", got \"%s\"", key, v);
    long long sl, val;
    if (parse_num(r, key, a, 0, 15, &sl) || parse_num(r, key, b, 0, max, &val))
        return -1;
    if (!cc)
        return 0;
    char *cur = *(char **)((char *)cc + params_find(ibcc_params, pkey)->offset);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s%lld:%lld", cur ? cur : "", cur && *cur ? "," : "", sl, val);
    return set_key(r, ibcc_params, cc, pkey, buf, key);
}

static void note(struct opensm_conf_info *info, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = info->not_modelled; (p = strstr(p, key)); p += kl)
        if ((p == info->not_modelled || p[-1] == ' ') && (p[kl] == ',' || p[kl] == 0))
            return; /* named already */
    size_t n = strlen(info->not_modelled);
    snprintf(info->not_modelled + n, sizeof info->not_modelled - n, "%s%s", n ? ", " : "", key);
}

/* QoS keys: OpenSM name (after the qos_ / qos_ca_ / qos_swe_ / qos_sw0_ / qos_rtr_ prefix) ->
 * struct qos_desc key. OpenSM's forms: qos_* for every port, qos_ca_* adapters, qos_swe_* switch
 * external ports, qos_sw0_* switch port 0, qos_rtr_* routers; a per-type key refines the general
 * one for its ports only. ibnetsim has adapter ports and switch external ports: qos_swe_* go to
 * the switch keys, and when they are applied an adapter key not given yet keeps the general
 * value (so qos_swe_vlarb_high does not reach the adapters). Switch port 0 carries no data in
 * the model and there are no routers: those keys are named in the note. OpenSM's placeholders
 * ((null), high_limit -1, max_vls 0: "use the default") leave the setting as it is. */
static int qos_key(struct rd *r, const char *key, const char *v, struct qos_desc *q,
                   struct opensm_conf_info *info, int *applied)
{
    static const char *const prefixes[] = { "qos_ca_", "qos_swe_", "qos_sw0_", "qos_rtr_", "qos_", NULL };
    const char *rest = NULL;
    int which = -1;
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i]))) {
            rest = key + strlen(prefixes[i]);
            which = i;
            break;
        }
    static const char *const known[] = { "max_vls", "high_limit", "vlarb_high", "vlarb_low", "sl2vl", NULL };
    int k = -1;
    for (int i = 0; rest && known[i]; i++)
        if (!strcmp(rest, known[i]))
            k = i;
    if (k < 0) {
        /* The QoS policy file (qos-policy.conf: SLs by partition, service ID, ...) is not modelled. */
        if (!strcmp(key, "qos_policy_file")) {
            note(info, key);
            return 0;
        }
        return ibn_err_at(r->e, r->path, r->line, "unknown QoS key \"%s\" (OpenSM's are qos, "
                          "qos_policy_file and qos_[ca_|sw0_|swe_|rtr_]{max_vls, high_limit, "
                          "vlarb_high, vlarb_low, sl2vl})", key);
    }
    if (!strcmp(v, "(null)") || !*v)
        return 0;
    long long num = 0;
    if (k <= 1) { /* numbers: max_vls 0-15 (0 = default), high_limit 0-255 (-1 = default) */
        if (parse_num(r, key, v, k == 0 ? 0 : -1, k == 0 ? 15 : 255, &num))
            return -1;
        if ((k == 0 && num == 0) || (k == 1 && num < 0))
            return 0;
    }
    if (which == 2 || which == 3) { /* switch port 0, routers */
        note(info, key);
        return 0;
    }
    if (k == 0) {
        if (which == 4) {
            *applied = 1;
            return set_key(r, qos_params, q, "max_vls", v, key);
        }
        /* One VL count for the whole fabric: a per-type count that differs is not modelled. */
        if (q->max_vls != num)
            note(info, key);
        return 0;
    }
    static const char *const gen[] = { NULL, "high_limit", "vlarb_high", "vlarb_low", "sl2vl" };
    static const char *const ca[] = { NULL, "ca_high_limit", "ca_vlarb_high", "ca_vlarb_low", "ca_sl2vl" };
    const char *target = which == 0 ? ca[k] : gen[k];
    if (which == 1) { /* switch external ports: keep the general value for adapters */
        const struct param *g = params_find(qos_params, gen[k]), *c = params_find(qos_params, ca[k]);
        char cur[1024];
        int ca_unset = k == 1 ? q->ca_high_limit < 0
                              : !*(char **)((char *)q + c->offset) || !**(char **)((char *)q + c->offset);
        if (ca_unset) {
            param_format_value(g, q, cur, sizeof cur);
            if (set_key(r, qos_params, q, ca[k], cur, key))
                return -1;
        }
    }
    *applied = 1;
    return set_key(r, qos_params, q, target, v, key);
}

int opensm_conf_load(const char *path, struct ibcc_desc *cc, struct qos_desc *qos,
                     struct opensm_conf_info *info, struct ibn_err *e)
{
    memset(info, 0, sizeof *info);
    info->congestion_control = info->qos = -1;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return ibn_err_set(e, "%s: cannot open the opensm.conf file", path);
    struct rd r = { path, 0, e };
    /* QoS keys wait until the whole file is read: OpenSM applies them only with qos TRUE. */
    struct { char key[64]; char val[512]; int line; } *qk = NULL;
    int nq = 0, rc = 0;
    char line[2048];
    while (!rc && fgets(line, sizeof line, fp)) {
        r.line++;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        char *end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1]))
            *--end = 0;
        char key[128];
        int kl = 0;
        while (*s && !isspace((unsigned char)*s) && kl < (int)sizeof key - 1)
            key[kl++] = *s++;
        key[kl] = 0;
        while (isspace((unsigned char)*s))
            s++;
        const char *v = s;
        long long x;
        if (!strcmp(key, "congestion_control")) {
            rc = parse_bool(&r, key, v, &info->congestion_control);
        } else if (!strcmp(key, "qos")) {
            rc = parse_bool(&r, key, v, &info->qos);
        } else if (!strncmp(key, "qos_", 4)) {
            qk = xrealloc(qk, (size_t)(nq + 1) * sizeof *qk);
            snprintf(qk[nq].key, sizeof qk[nq].key, "%s", key);
            snprintf(qk[nq].val, sizeof qk[nq].val, "%s", v);
            qk[nq].line = r.line;
            nq++;
        } else if (!strcmp(key, "cc_sw_cong_setting_threshold")) {
            if (!(rc = parse_num(&r, key, v, 0, 15, &x))) {
                char b[32];
                snprintf(b, sizeof b, "%lld", x);
                rc = set_key(&r, ibcc_params, cc, "threshold", b, key);
                info->cc_keys++;
            }
        } else if (!strcmp(key, "cc_sw_cong_setting_marking_rate") ||
                   !strcmp(key, "cc_sw_cong_setting_packet_size") ||
                   !strcmp(key, "cc_ca_cong_setting_control_map")) {
            const char *pk = strstr(key, "marking") ? "marking_rate"
                             : strstr(key, "packet") ? "packet_size" : "control_map";
            long long max = strstr(key, "packet") ? 255 : 65535;
            if (!(rc = parse_num(&r, key, v, 0, max, &x))) {
                char b[32];
                snprintf(b, sizeof b, "%lld", x);
                rc = set_key(&r, ibcc_params, cc, pk, b, key);
                info->cc_keys++;
            }
        } else if (!strcmp(key, "cc_sw_cong_setting_victim_mask")) {
            const char *h = v;
            if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
                h += 2;
            int ok = *h != 0;
            for (const char *p = h; *p; p++)
                ok &= isxdigit((unsigned char)*p) != 0;
            if (!ok)
                rc = ibn_err_at(e, path, r.line, "%s expects a hex port mask 0x..., got \"%s\"", key, v);
            else {
                rc = set_key(&r, ibcc_params, cc, "victim_mask", v, key);
                info->cc_keys++;
            }
        } else if (!strcmp(key, "cc_ca_cong_setting_port_control")) {
            if (!(rc = parse_num(&r, key, v, 0, 65535, &x))) {
                rc = set_key(&r, ibcc_params, cc, "level", x & 1 ? "sl" : "qp", key);
                info->cc_keys++;
            }
        } else if (!strcmp(key, "cc_ca_cong_setting_ccti_timer")) {
            rc = per_sl(&r, cc, "ccti_timer", key, v, 65535), info->cc_keys++;
        } else if (!strcmp(key, "cc_ca_cong_setting_ccti_increase")) {
            rc = per_sl(&r, cc, "ccti_increase", key, v, 255), info->cc_keys++;
        } else if (!strcmp(key, "cc_ca_cong_setting_ccti_min")) {
            rc = per_sl(&r, cc, "ccti_min", key, v, 255), info->cc_keys++;
        } else if (!strcmp(key, "cc_cct")) {
            if (strcmp(v, "(null)") && *v) {
                rc = set_key(&r, ibcc_params, cc, "cct_form", "spec", key);
                if (!rc)
                    rc = set_key(&r, ibcc_params, cc, "cct", v, key);
                if (!rc)
                    rc = set_key(&r, ibcc_params, cc, "ccti_limit", "-1", key);
                info->cc_keys++;
            }
        } else if (!strcmp(key, "cc_key") || !strcmp(key, "cc_max_outstanding_mads") ||
                   !strcmp(key, "cc_sw_cong_setting_control_map") ||
                   !strcmp(key, "cc_sw_cong_setting_credit_mask") ||
                   !strcmp(key, "cc_sw_cong_setting_credit_starvation_threshold") ||
                   !strcmp(key, "cc_sw_cong_setting_credit_starvation_return_delay") ||
                   !strcmp(key, "cc_ca_cong_setting_trigger_threshold")) {
            note(info, key);
        } else if (!strncmp(key, "cc_", 3)) {
            rc = ibn_err_at(e, path, r.line, "unknown congestion-control key \"%s\" (OpenSM's are "
                            "congestion_control, cc_key, cc_max_outstanding_mads, "
                            "cc_sw_cong_setting_{control_map, victim_mask, credit_mask, threshold, "
                            "packet_size, credit_starvation_threshold, "
                            "credit_starvation_return_delay, marking_rate}, "
                            "cc_ca_cong_setting_{port_control, control_map, ccti_timer, "
                            "ccti_increase, trigger_threshold, ccti_min}, cc_cct)", key);
        }
        else if (*key) { /* another OpenSM feature (routing, partitions, logging, ...) */
            note(info, key);
            info->other_keys++;
        }
    }
    fclose(fp);
    /* The general qos_* keys first, then the per-port-type ones, which refine them. */
    for (int pass = 0; pass < 2; pass++)
    for (int i = 0; !rc && i < nq; i++) {
        int specific = !strncmp(qk[i].key, "qos_ca_", 7) || !strncmp(qk[i].key, "qos_swe_", 8) ||
                       !strncmp(qk[i].key, "qos_sw0_", 8) || !strncmp(qk[i].key, "qos_rtr_", 8);
        if (specific != pass)
            continue;
        r.line = qk[i].line;
        int applied = 0;
        struct qos_desc scratch;
        int use = info->qos == 1 && qos;
        if (!use)
            qos_desc_defaults(&scratch);
        rc = qos_key(&r, qk[i].key, qk[i].val, use ? qos : &scratch, info, &applied);
        if (!use)
            params_free(qos_params, &scratch);
        info->qos_keys += applied && use;
    }
    free(qk);
    return rc;
}

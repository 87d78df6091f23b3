/* settings.h: the model's settings as parameter tables (src/core/params.h): the sections
 * `fabric`, `switch`, `hca` and `qos` of a scenario, with their defaults and help. */
#ifndef IBN_SETTINGS_H
#define IBN_SETTINGS_H

#include "core/error.h"
#include "core/params.h"
#include "fabric/fabric.h"
#include "fabric/hostdraw.h"  /* draw_params: the `draw` section */
#include "fabric/isol.h"      /* isol_params: the `isolation` section */
#include "fabric/transport.h" /* transport_params: the `transport` section */

extern const struct param fabric_params[], switch_params[], hca_params[], qos_params[];

/* QoS settings as users write them, in OpenSM's forms: sl2vl "0,1,2,...,15" (16 VLs),
 * VL arbitration tables "VL:weight,..." and the high-priority limit. */
struct qos_desc {
    char *sl2vl;
    char *vlarb_high, *vlarb_low;
    long long high_limit;
    char *ca_vlarb_high, *ca_vlarb_low;  /* adapter ports; "" = as vlarb_* */
    long long ca_high_limit;             /* -1 = as high_limit */
    char *classes;                       /* traffic classes and their SLs, "DBTS:0,DB:1,..." */
    char *ca_sl2vl;                      /* adapter ports' SL-to-VL map; "" = as sl2vl */
    long long max_vls;                   /* OpenSM's qos_max_vls: data VLs in use; 0 = fabric.vls */
    char *opensm_conf;                   /* an opensm.conf whose QoS keys were read ("" none) */
};

/* All settings at their defaults (and the QoS tables those defaults describe). */
void fabric_settings_defaults(struct fabric_settings *s);
void qos_desc_defaults(struct qos_desc *q);
/* The SL of traffic class `name` in q->classes, or -1 (with e set) if it is not there. */
int qos_class_sl(const struct qos_desc *q, const char *name, struct ibn_err *e);
/* Fill s->sl2vl, s->sl2vl_ca and the arbitration tables from q (and s->nvls from q->max_vls
 * when it is > 0). Errors say which key and what was expected. */
int qos_apply(const struct qos_desc *q, struct fabric_settings *s, struct ibn_err *e);

#endif

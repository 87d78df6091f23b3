/* opensm_conf.h: reading an opensm.conf as OpenSM writes it ("key value" lines, # comments)
 * for the keys that configure what ibnetsim models: the congestion-control keys
 * (congestion_control, cc_sw_cong_setting_*, cc_ca_cong_setting_* <SL> <value>, cc_cct) into
 * the IB CC plug-in's description, and the QoS keys (qos, qos_*, qos_ca_*, qos_swe_*) into
 * struct qos_desc. Keys of other OpenSM features (routing, partitions, logging, ...) have no
 * effect and are named in info->not_modelled, never dropped silently; a congestion or QoS key
 * that is not OpenSM's, or a value of the wrong form, is an error with FILE:LINE. The whole
 * default opensm.conf that `opensm -c` writes loads (qos FALSE, its (null), -1 and 0
 * placeholders). */
#ifndef IBN_OPENSM_CONF_H
#define IBN_OPENSM_CONF_H

#include "cc/ibcc.h"
#include "core/error.h"
#include "fabric/settings.h"

struct opensm_conf_info {
    int congestion_control;  /* -1 not given, 0 FALSE, 1 TRUE */
    int qos;                 /* -1 not given, 0 FALSE, 1 TRUE (QoS keys applied only when TRUE) */
    int cc_keys, qos_keys;   /* keys applied */
    int other_keys;          /* keys of other OpenSM features (routing, logging, ...) */
    char not_modelled[8192]; /* keys accepted but without effect in the model, by name */
};

/* Read `path`; congestion keys go into `cc` through ibcc_params (cc may be NULL: then they
 * are only checked), QoS keys into `qos` when the file says qos TRUE. */
int opensm_conf_load(const char *path, struct ibcc_desc *cc, struct qos_desc *qos,
                     struct opensm_conf_info *info, struct ibn_err *e);

#endif

/* fuzz_opensm_conf.c: libFuzzer harness for the opensm.conf reader: congestion keys into an IB
 * CC description, QoS keys into a QoS description, both freed after. */
#include <stdint.h>
#include <stdio.h>

#include "cc/cc.h"
#include "cc/ibcc.h"
#include "config/opensm_conf.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".conf");
    struct ibcc_desc *cc = cc_desc_new(&ibcc_plugin);
    struct qos_desc q;
    qos_desc_defaults(&q);
    struct opensm_conf_info info;
    struct ibn_err e;
    (void)opensm_conf_load(path, cc, &q, &info, &e);
    params_free(qos_params, &q);
    cc_desc_free(&ibcc_plugin, cc);
    return 0;
}

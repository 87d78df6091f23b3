/* arch_ecocc.c: seed 002 Paper VI's EcoCC switch: a VOQ switch (one crossbar read port per
 * VOQ) whose VOQs act as cold-packet queues (CPQs) and which adds a few hot-packet queues
 * (HPQs) per input. A CPQ above HTh makes its output a root (exact detection) with a CAM line
 * but no HPQ (the VOQ already isolates the root's packets); the root output FECN-marks while a
 * CPQ or HPQ there is above HTh (until LTh); Allocate goes upstream, where packets matching the
 * dList take an HPQ; Stop / Go between HPQs at HTh / LTh. Adapters throttle per destination
 * through the IB CC plug-in (cc.plugin = ibcc, level = qp, threshold = 0). The machinery is
 * fabric/isol.c. */
#include "fabric/isol.h"

static const struct isol_kind ecocc_kind = { "ecocc", ISOL_BASE_VOQ, 0, 1 };

static int ecocc_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    return isol_init(f, s, &ecocc_kind, e);
}

const struct sw_arch sw_arch_ecocc = {
    .name = "ecocc",
    .help = "Paper VI's EcoCC: VOQs as CPQs + HPQs with CAM lines, exact root detection, root-only "
            "FECN marking (the `isolation` section; docs/isolation.md)",
    .default_read_ports = 0,
    .init = ecocc_init,
    .free = isol_free,
    .enqueue = isol_enqueue,
    .head = isol_head,
    .dequeue = isol_dequeue,
    .held = isol_held,
    .on_msg = isol_on_msg,
    .report = isol_report,
};

/* arch_fbicm.c: seed 002 Paper V's FBICM baseline (flow-based implicit congestion management,
 * digest 002b section 6): the same input-queued switch as CCFIT (one crossbar read port per
 * input, an NFQ and a few CFQs with CAM lines per input, CAM lines per output from downstream,
 * detection when the NFQ holds more than `detect` packets, Allocate / Stop / Go / Deallocate
 * upstream) but no throttling: its root CFQs never put their output in the congestion state
 * and nothing is FECN-marked. That is the whole difference from arch_ccfit.c; the machinery is
 * fabric/isol.c. */
#include "fabric/isol.h"

static const struct isol_kind fbicm_kind = { "fbicm", ISOL_BASE_FIFO, 1, 0 };

static int fbicm_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    return isol_init(f, s, &fbicm_kind, e);
}

const struct sw_arch sw_arch_fbicm = {
    .name = "fbicm",
    .help = "Paper V's FBICM baseline: CCFIT's NFQ + CFQs with CAM lines per input, no marking (the "
            "`isolation` section; docs/isolation.md)",
    .default_read_ports = 1,
    .init = fbicm_init,
    .free = isol_free,
    .enqueue = isol_enqueue,
    .head = isol_head,
    .dequeue = isol_dequeue,
    .held = isol_held,
    .on_msg = isol_on_msg,
    .report = isol_report,
};

/* arch_ccfit.c: seed 002 Paper V's CCFIT switch: an input-queued switch (one crossbar read port
 * per input, no VOQs) whose input memory holds a normal-flow queue (NFQ) and a few
 * congested-flow queues (CFQs) with CAM lines. Congestion is detected when the NFQ holds more
 * than `detect` packets (the head's destination and requested output define the root), the
 * root's CFQs drive the output's congestion state (High / Low) and so FECN marking there only,
 * and CFQs propagate upstream (Allocate, Stop / Go, Deallocate). Adapters throttle per
 * destination through the IB CC plug-in (cc.plugin = ibcc, level = qp, threshold = 0: the
 * switch side of IB CC off, marking done here). The machinery is fabric/isol.c. */
#include "fabric/isol.h"

static const struct isol_kind ccfit_kind = { "ccfit", ISOL_BASE_FIFO, 1, 1 };

static int ccfit_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    return isol_init(f, s, &ccfit_kind, e);
}

const struct sw_arch sw_arch_ccfit = {
    .name = "ccfit",
    .help = "Paper V's CCFIT: NFQ + CFQs with CAM lines per input, root-only FECN marking (the "
            "`isolation` section; docs/isolation.md)",
    .default_read_ports = 1,
    .init = ccfit_init,
    .free = isol_free,
    .enqueue = isol_enqueue,
    .head = isol_head,
    .dequeue = isol_dequeue,
    .held = isol_held,
    .on_msg = isol_on_msg,
    .report = isol_report,
};

/* arch_hfdi.c: seed 002 Paper VI's HFDI baseline (hot-flow dynamic isolation, FBICM adapted to
 * the VOQ switch): EcoCC without marking or throttling, and, as Paper VI's supplement says,
 * with an HPQ allocated at the root switch too (a CPQ above HTh isolates its packets in a root
 * HPQ), so that with many roots its HPQs run out. The machinery is fabric/isol.c. */
#include "fabric/isol.h"

static const struct isol_kind hfdi_kind = { "hfdi", ISOL_BASE_VOQ, 1, 0 };

static int hfdi_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    return isol_init(f, s, &hfdi_kind, e);
}

const struct sw_arch sw_arch_hfdi = {
    .name = "hfdi",
    .help = "HFDI: VOQs as CPQs + HPQs with CAM lines, HPQs also at the root, no marking (the "
            "`isolation` section; docs/isolation.md)",
    .default_read_ports = 0,
    .init = hfdi_init,
    .free = isol_free,
    .enqueue = isol_enqueue,
    .head = isol_head,
    .dequeue = isol_dequeue,
    .held = isol_held,
    .on_msg = isol_on_msg,
    .report = isol_report,
};

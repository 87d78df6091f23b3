/* memcost.c: the memory-cost calculator of the switch architectures of seed 002 Papers V and
 * VI (memcost.h; Paper VI supplement section 8). */
#include "analytic/memcost.h"

#include <string.h>

static int log2_ceil(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

int memcost_compute(const struct memcost_in *in, struct memcost *m, struct ibn_err *e)
{
    memset(m, 0, sizeof *m);
    if (in->nodes < 2 || in->ports < 2)
        return ibn_err_set(e, "memory cost: need at least 2 end nodes and 2 switch ports (got %d and %d)",
                           in->nodes, in->ports);
    m->addr_bits = log2_ceil(in->nodes);
    m->data_bytes = in->buffer;
    const char *a = in->arch;
    if (!strcmp(a, "1q") || !strcmp(a, "fifo")) {
        m->queues = 1;
    } else if (!strcmp(a, "voqsw") || !strcmp(a, "voq")) {
        m->queues = in->ports - 1;
    } else if (!strcmp(a, "dbbm")) {
        if (in->dbbm_queues < 1)
            return ibn_err_set(e, "memory cost: DBBM needs at least one queue per input");
        m->queues = in->dbbm_queues;
    } else if (!strcmp(a, "voqnet")) {
        m->queues = in->nodes;
        m->data_bytes = (uint64_t)in->nodes * in->voqnet_queue;
    } else if (!strcmp(a, "fbicm") || !strcmp(a, "ccfit") || !strcmp(a, "hfdi") || !strcmp(a, "ecocc")) {
        int voq = !strcmp(a, "hfdi") || !strcmp(a, "ecocc");
        if (in->special < 1)
            return ibn_err_set(e, "memory cost: %s needs at least one congested-flow queue per input", a);
        if (in->dlist < 1 || in->dlist > in->nodes)
            return ibn_err_set(e, "memory cost: %s: destinations per CAM line must be 1 to %d, got %d", a,
                               in->nodes, in->dlist);
        /* Paper VI: a CAM line per CPQ (VOQ) and per HPQ; CCFIT/FBICM: a line per CFQ. */
        m->queues = (voq ? in->ports - 1 : 1) + in->special;
        m->cam_lines = voq ? m->queues : in->special;
        m->cam_cells_line = MEMCOST_CAM_FIXED + in->dlist * m->addr_bits;
        m->sram_cells_line = MEMCOST_SRAM_PER_LINE;
        m->cam_cells = m->cam_lines * m->cam_cells_line;
        m->sram_cells = m->cam_lines * m->sram_cells_line;
        m->cells = m->cam_cells + m->sram_cells;
        m->cam_bytes = (m->cells + 7) / 8;
    } else {
        return ibn_err_set(e, "memory cost: unknown architecture \"%s\" (expected 1q, voqsw, voqnet, dbbm, "
                           "fbicm, ccfit, hfdi or ecocc)", a);
    }
    return 0;
}

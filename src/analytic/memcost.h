/* memcost.h: the memory an input port needs in each switch architecture of seed 002 Papers V
 * and VI (digest 002b section 4.8): the data memory, and for the isolation designs the CAM
 * lines that describe congested flows. A CAM line holds op (6 CAM cells, up to 64 ports), hops
 * (6) and NextLine (4): 16 cells, plus a dList of D destinations of log2(N) cells each; and 35
 * SRAM cells of control (stop, sentStop, propagated: 1 each; timer: 32). Cells per input port =
 * lines x (16 + D log2 N) CAM + lines x 35 SRAM; bytes = cells / 8, rounded up. VOQnet keeps a
 * statically sized queue per destination end node at every input. */
#ifndef IBN_MEMCOST_H
#define IBN_MEMCOST_H

#include <stdint.h>

#include "core/error.h"

enum { MEMCOST_CAM_FIXED = 16, MEMCOST_SRAM_PER_LINE = 35 };

struct memcost_in {
    const char *arch;       /* 1q, voqsw, voqnet, dbbm, fbicm, ccfit, hfdi, ecocc */
    int nodes;              /* end nodes N */
    int ports;              /* switch ports */
    int special;            /* CFQs (CCFIT, FBICM) or HPQs (EcoCC, HFDI) per input */
    int dlist;              /* destinations per CAM line D (EcoCC, HFDI; CCFIT and FBICM: 1) */
    int dbbm_queues;        /* DBBM: queues per input */
    uint64_t buffer;        /* data memory per input port, bytes (all but VOQnet) */
    uint64_t voqnet_queue;  /* VOQnet: bytes per destination queue (and VL) */
};

struct memcost {
    int queues;             /* queues per input port */
    int cam_lines;          /* CAM lines per input port (0: none) */
    int addr_bits;          /* ceil(log2 N) */
    int cam_cells_line, sram_cells_line;
    int cam_cells, sram_cells, cells; /* per input port */
    int cam_bytes;          /* ceil(cells / 8) */
    uint64_t data_bytes;    /* data memory per input port */
};

/* Compute the cost; an unknown architecture or impossible numbers give -1 with e set. */
int memcost_compute(const struct memcost_in *in, struct memcost *out, struct ibn_err *e);

#endif

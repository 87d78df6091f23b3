/* arch_dbbm.c: DBBM, destination-based buffer management (named among the related work of seed
 * 002 Papers V/VI; digest 002b section 6): each input has switch.dbbm_queues FIFOs per VL and a
 * packet goes to FIFO (destination host mod Q), hosts numbered in topology order. Each FIFO
 * behaves as the 1Q switch's (arch_fifo.c: only its head is offered, and it is blocked while
 * that head is read), so a packet waits behind packets of its own destination class only:
 * head-of-line blocking remains between destinations that share a class and is gone between
 * classes. Q = 1 is the 1Q switch. */
#include "fabric/fifoq.h"

static int dbbm_class(const struct fabric *f, const struct packet *p, int nk)
{
    int h = p->dst_lid <= f->max_lid ? f->host_of_lid[p->dst_lid] : -1;
    return h < 0 ? 0 : h % nk;
}

static int dbbm_init(struct fabric *f, struct sw *s, struct ibn_err *e)
{
    (void)e;
    return fifoq_init(f, s, (int)f->set.dbbm_queues, dbbm_class);
}

const struct sw_arch sw_arch_dbbm = {
    .name = "dbbm",
    .help = "switch.dbbm_queues FIFOs per input and VL, a packet in FIFO (destination mod Q), each "
            "blocked while its head is read (DBBM)",
    .default_read_ports = 0,
    .init = dbbm_init,
    .free = fifoq_free,
    .enqueue = fifoq_enqueue,
    .head = fifoq_head,
    .dequeue = fifoq_dequeue,
    .read_done = fifoq_read_done,
    .held = fifoq_held,
};

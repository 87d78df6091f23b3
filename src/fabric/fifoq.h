/* fifoq.h: input memories made of FIFOs, several per input and VL, a packet classified into
 * one of them; each FIFO offers only its head and is blocked while that head is read
 * (arch_fifo.c). The 1Q switch has one per input and VL; DBBM (arch_dbbm.c) one per
 * destination class. */
#ifndef IBN_FIFOQ_H
#define IBN_FIFOQ_H

#include "fabric/swarch.h"

struct fifoq_state {
    int nk;                  /* FIFOs per input and VL */
    int (*classify)(const struct fabric *f, const struct packet *p, int nk); /* NULL: FIFO 0 */
    uint8_t *reading;        /* [(in, VL slot, k)]: its head is being read */
};

int fifoq_init(struct fabric *f, struct sw *s, int nk,
               int (*classify)(const struct fabric *f, const struct packet *p, int nk));
void fifoq_free(struct sw *s);
int fifoq_enqueue(struct fabric *f, struct sw *s, int in, uint32_t pidx);
uint32_t fifoq_head(struct fabric *f, struct sw *s, int in, int out, int slot);
uint32_t fifoq_dequeue(struct fabric *f, struct sw *s, int in, int out, int slot);
void fifoq_read_done(struct fabric *f, struct sw *s, int in, uint32_t tag);
uint64_t fifoq_held(const struct fabric *f, const struct sw *s);

#endif

/* lmc.h: LMC multipath. A CA port with LMC m owns 2^m consecutive LIDs from its base LID; the
 * engines route each of them (minhop/updn spread them over different ports and peers, as
 * OpenSM does), and a sender picks, per queue pair, which of the 2^m DLIDs to use. This is the
 * function the data path calls for that choice. */
#ifndef IBN_LMC_H
#define IBN_LMC_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

enum lmc_policy {
    LMC_ROUND_ROBIN, /* QP i uses offset i mod 2^lmc */
    LMC_RANDOM,      /* a uniformly random offset from r, drawn on each call */
    LMC_HASH,        /* a fixed pseudo-random offset per QP (mixing of qp_index) */
};

/* The DLID for queue pair qp_index towards a port with base_lid and lmc (0-7). r is used by
 * LMC_RANDOM only (and may be NULL otherwise). */
int route_pick_lid(int base_lid, int lmc, enum lmc_policy policy, uint64_t qp_index, gsl_rng *r);
/* "round_robin" | "rr", "random", "hash"; returns 0 or -1. */
int lmc_policy_parse(const char *text, enum lmc_policy *out);

#endif

/* topo_arg.h: how the topo and route commands name a topology: a file (ibnetdiscover or ibsim
 * net) or "gen:NAME[:ARGS]" for a generator (gen:fattree:ports=36,levels=2). */
#ifndef IBN_TOPO_ARG_H
#define IBN_TOPO_ARG_H

#include <stdint.h>

#include "core/error.h"
#include "topology/topo.h"

int topo_arg_load(const char *spec, uint64_t seed, struct topo *t, struct ibn_err *e);
/* Print the reader's warnings to stderr. */
void topo_arg_warnings(const struct topo *t);

#endif

/* fuzz_topo.c: libFuzzer harness for the topology reader (ibnetdiscover output and ibsim net
 * files, topo_read_stream): read from memory, check the result, free. */
#include <stdint.h>
#include <stdio.h>

#include "topology/topo.h"
#include "topology/topo_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    struct topo t;
    struct ibn_err e;
    if (topo_read_stream(f, "fuzz.topo", &t, &e) == 0)
        (void)topo_check(&t, &e);
    topo_free(&t);
    fclose(f);
    return 0;
}

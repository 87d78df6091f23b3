/* fuzz_lft_dump.c: libFuzzer harness for the OpenSM LFT dump reader, against the 2-level fat
 * tree of 4-port switches (gen:fattree:ports=4,levels=2) that the seed dumps were computed on;
 * a dump read is validated route by route. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "routing/lft.h"
#include "routing/lft_dump.h"
#include "topology/generate.h"
#include "fuzz_file.h"

static struct topo topo;
static int ready;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ibn_err e;
    if (!ready) {
        if (topo_generate("fattree", "ports=4,levels=2", 1, &topo, &e)) {
            fprintf(stderr, "fuzz_lft_dump: %s\n", e.msg);
            abort();
        }
        ready = 1;
    }
    const char *path = fuzz_file(data, size, ".dump");
    struct lfts l;
    if (lft_dump_read(path, &topo, &l, &e) == 0) {
        int hops;
        (void)lfts_validate(&topo, &l, &hops, &e);
        lfts_free(&l);
    }
    return 0;
}

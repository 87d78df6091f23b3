/* fuzz_torus_conf.c: libFuzzer harness for the torus-2QoS.conf reader and the placement it
 * drives: the input as a torus-2QoS configuration for a generated 4x4 torus and a 3x2x2 mesh
 * (the seeds name their switch GUIDs), routed by torus-2QoS and freed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "routing/route.h"
#include "topology/generate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct topo t[2];
    static int ready;
    struct ibn_err e;
    if (!ready) {
        if (topo_generate("torus", "dims=4x4,hosts=1", 1, &t[0], &e) ||
            topo_generate("mesh", "dims=3x2x2,hosts=1", 1, &t[1], &e))
            abort();
        ready = 1;
    }
    const char *path = fuzz_file(data, size, ".conf");
    struct route_opts o = { .torus_conf = path };
    for (int i = 0; i < 2; i++) {
        struct lfts l;
        if (route_compute(&t[i], "torus-2QoS", &o, &l, &e) == 0)
            lfts_free(&l);
    }
    return 0;
}

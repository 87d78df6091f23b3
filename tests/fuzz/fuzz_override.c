/* fuzz_override.c: libFuzzer harness for `-s section.key=value` overrides on their own: the
 * input's lines (at most 16) are applied as overrides to seed 002's testbed scenario
 * (scenarios/examples/readme.cfg); when they are accepted, the resolved scenario is written and
 * the fabric is built and configured as `run --check` does (topology, routing, flows, QoS,
 * congestion control), then everything is freed. A clean
 * error is fine; a crash, a leak or undefined behaviour is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
#include "config/scenario.h"
#include "fabric/build.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "topology/topo.h"

#define MAX_OVERRIDES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *ov[MAX_OVERRIDES];
    memcpy(text, data, size);
    text[size] = 0;
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l && n < MAX_OVERRIDES; l = strtok_r(NULL, "\n", &save))
        ov[n++] = l;
    struct scenario sc;
    struct ibn_err e;
    if (scenario_load(IBN_SOURCE_DIR "/scenarios/examples/readme.cfg", ov, n, &sc, &e) == 0) {
        FILE *null = fopen("/dev/null", "w");
        scenario_write(&sc, null);
        fclose(null);
        struct topo t;
        struct lfts l;
        struct run_desc d;
        struct fabric f;
        memset(&t, 0, sizeof t);
        memset(&l, 0, sizeof l);
        memset(&f, 0, sizeof f);
        if (!scenario_topology(&sc, &t, &l, &e) && !scenario_run_desc(&sc, &t, &d, &e) &&
            !fabric_build(&f, &t, &l, &d, &e) && !scenario_apply(&sc, &f, &e))
            (void)cc_attach(&f, sc.ccp, sc.cc_desc, &e);
        fabric_free(&f);
        lfts_free(&l);
        topo_free(&t);
        scenario_free(&sc);
    }
    free(text);
    return 0;
}

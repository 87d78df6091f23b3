/* fuzz_scenario.c: libFuzzer harness for the scenario reader (libconfig syntax, every section's
 * parameter tables, flows, the opensm.conf it may name): load, write the resolved scenario,
 * free. A clean error is fine; a crash, a leak or undefined behaviour is a finding. */
#include <stdint.h>
#include <stdio.h>

#include "config/scenario.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".cfg");
    struct scenario sc;
    struct ibn_err e;
    if (scenario_load(path, NULL, 0, &sc, &e) == 0) {
        FILE *null = fopen("/dev/null", "w");
        scenario_write(&sc, null);
        fclose(null);
        scenario_free(&sc);
    }
    return 0;
}

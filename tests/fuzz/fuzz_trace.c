/* fuzz_trace.c: libFuzzer harness for the video frame-size trace reader (traffic/trace.c): read
 * the input as a trace file, check what a successful read promises (at least one frame, sizes
 * >= 1, types I/P/B), free. */
#include <stdint.h>
#include <stdlib.h>

#include "traffic/arrival.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".trace");
    uint32_t *bytes = NULL;
    uint8_t *types = NULL;
    size_t n = 0;
    struct ibn_err e;
    if (trace_read(path, &bytes, &types, &n, &e) == 0) {
        if (n < 1)
            abort();
        for (size_t i = 0; i < n; i++)
            if (bytes[i] < 1 || (types[i] && types[i] != 'I' && types[i] != 'P' && types[i] != 'B'))
                abort();
        free(bytes);
        free(types);
    }
    return 0;
}

/* fuzz_file.h: the input of a harness as a file, for readers that take a path: one temporary
 * file per process, rewritten for each input, removed at exit. */
#ifndef IBN_FUZZ_FILE_H
#define IBN_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_path[64];

static void fuzz_remove(void)
{
    unlink(fuzz_path);
}

/* Write data to the process's file; returns its path. */
static const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    if (!fuzz_path[0]) {
        snprintf(fuzz_path, sizeof fuzz_path, "/tmp/ibnfuzz-%d%s", (int)getpid(), suffix);
        atexit(fuzz_remove);
    }
    FILE *f = fopen(fuzz_path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return fuzz_path;
}

#endif

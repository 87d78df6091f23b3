/* fuzz_file.h: the input of a harness as a file, for readers that take a path: one temporary
 * file per process, rewritten for each input, removed at exit. It lives in /dev/shm (memory)
 * where that exists: on a disk, rewriting it waits for the previous input's writeback, and a
 * fuzzer beside builds that write to the same disk spent most of its time in that wait. */
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
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(fuzz_path, sizeof fuzz_path, "%s/ibnfuzz-%d%s", dir, (int)getpid(), suffix);
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

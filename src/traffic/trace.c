/* trace.c: reader of video frame-size trace files: one frame per line as "SIZE", "TYPE SIZE"
 * or "SIZE TYPE" (TYPE one of I, P, B; SIZE in bytes), '#' comments, blank lines skipped.
 * Malformed lines are reported as FILE:LINE with what was expected. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/arrival.h"

static int parse_size(const char *tok, uint32_t *out)
{
    if (!isdigit((unsigned char)tok[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end || errno || v < 1 || v > 4294967295ULL)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_type(const char *tok, uint8_t *out)
{
    if (strlen(tok) != 1)
        return -1;
    int c = toupper((unsigned char)tok[0]);
    if (c != 'I' && c != 'P' && c != 'B')
        return -1;
    *out = (uint8_t)c;
    return 0;
}

int trace_read(const char *path, uint32_t **bytes, uint8_t **types, size_t *n,
               struct ibn_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ibn_err_at(e, path, 0, "cannot open the trace file: %s", strerror(errno));
    size_t cap = 1024, len = 0;
    uint32_t *b = xmalloc(cap * sizeof *b);
    uint8_t *t = xmalloc(cap);
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t l = strlen(line);
        if (l == sizeof line - 1 && line[l - 1] != '\n' && !feof(f)) {
            rc = ibn_err_at(e, path, lineno, "line longer than %zu characters", sizeof line - 2);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *tok[3];
        int nt = 0;
        char *save = NULL;
        for (char *s = strtok_r(line, " \t\r\n,", &save); s; s = strtok_r(NULL, " \t\r\n,", &save)) {
            if (nt == 3)
                break;
            tok[nt++] = s;
        }
        if (nt == 0)
            continue;
        uint32_t size = 0;
        uint8_t type = 0;
        int ok;
        if (nt == 1)
            ok = !parse_size(tok[0], &size);
        else if (nt == 2)
            ok = (!parse_type(tok[0], &type) && !parse_size(tok[1], &size)) ||
                 (!parse_size(tok[0], &size) && !parse_type(tok[1], &type));
        else
            ok = 0;
        if (!ok) {
            rc = ibn_err_at(e, path, lineno,
                            "expected a frame size in bytes (1 to 4294967295), optionally with a "
                            "frame type I, P or B before or after it");
            break;
        }
        if (len == cap) {
            cap *= 2;
            b = xrealloc(b, cap * sizeof *b);
            t = xrealloc(t, cap);
        }
        b[len] = size;
        t[len] = type;
        len++;
    }
    if (!rc && ferror(f))
        rc = ibn_err_at(e, path, lineno, "read error: %s", strerror(errno));
    fclose(f);
    if (!rc && len == 0)
        rc = ibn_err_at(e, path, 0, "the trace has no frames");
    if (rc) {
        free(b);
        free(t);
        return -1;
    }
    *bytes = b;
    *types = t;
    *n = len;
    return 0;
}

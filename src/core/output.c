/* output.c: checked output files (a stdio stream over a file descriptor that remembers the
 * first failed write) and RFC 4180 CSV fields. */
#define _GNU_SOURCE
#include "core/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int out_err(struct ibn_err *e, const char *path, int err)
{
    ibn_err_set(e, "cannot write %s: %s", path, strerror(err ? err : EIO));
    if (e)
        e->output = 1;
    return -1;
}

static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    struct outfile *o = c;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(o->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->err)
                o->err = w < 0 ? errno : ENOSPC;
            /* Report the failure: stdio sets the stream's error indicator. */
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int cookie_close(void *c)
{
    struct outfile *o = c;
    int rc = close(o->fd);
    if (rc && !o->err)
        o->err = errno;
    o->fd = -1;
    return o->err ? -1 : 0;
}

struct outfile *out_open(const char *path, struct ibn_err *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        out_err(e, path, errno);
        return NULL;
    }
    struct outfile *o = xcalloc(1, sizeof *o);
    o->fd = fd;
    o->path = xstrdup(path);
    cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
    o->fp = fopencookie(o, "w", io);
    if (!o->fp) {
        out_err(e, path, errno);
        close(fd);
        free(o->path);
        free(o);
        return NULL;
    }
    return o;
}

int out_close(struct outfile *o, struct ibn_err *e)
{
    if (!o)
        return 0;
    int bad = ferror(o->fp);
    if (fclose(o->fp))
        bad = 1;
    int rc = 0;
    if (bad || o->err)
        rc = out_err(e, o->path, o->err);
    free(o->path);
    free(o);
    return rc;
}

void out_abandon(struct outfile *o)
{
    if (!o)
        return;
    fclose(o->fp);
    free(o->path);
    free(o);
}

int out_check_stdout(struct ibn_err *e)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int err = errno;
    if (!bad && ferror(stdout) && !err) {
        /* A write failed earlier, its errno since overwritten (output longer than the stream's
         * buffer): the output is incomplete anyway, so one more byte finds the reason. */
        if (write(STDOUT_FILENO, "\n", 1) < 0)
            err = errno;
    }
    if (bad || ferror(stdout))
        return out_err(e, "standard output", err);
    return 0;
}

static void csv_quoted(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
}

static int csv_special(const char *s)
{
    return s[strcspn(s, ",\"\r\n")] != 0;
}

void csv_quote(FILE *fp, const char *s)
{
    fputc('"', fp);
    csv_quoted(fp, s);
    fputc('"', fp);
}

void csv_field(FILE *fp, const char *s)
{
    if (!csv_special(s)) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    csv_quoted(fp, s);
    fputc('"', fp);
}

void csv_field_port(FILE *fp, const char *name, int port)
{
    if (!csv_special(name)) {
        fprintf(fp, "%s:%d", name, port);
        return;
    }
    fputc('"', fp);
    csv_quoted(fp, name);
    fprintf(fp, ":%d\"", port);
}

/* output.h: checked output. Every file a command writes is opened with out_open and closed
 * with out_close: the stream is an ordinary FILE * (fprintf, fwrite, json_dumpf work on it),
 * the first failed write keeps its errno, and out_close reports "cannot write PATH: REASON"
 * for a failed open, write, flush or close, so that a full disk or a file replaced by
 * /dev/full is never a silent success. Such errors are marked as output errors (e->output),
 * which the commands turn into their own exit status (IBN_EXIT_OUTPUT).
 * Also the one writer of CSV fields that may hold names (RFC 4180 quoting). */
#ifndef IBN_OUTPUT_H
#define IBN_OUTPUT_H

#include <stdio.h>

#include "core/error.h"

/* Exit statuses of every command (documented in `ibnetsim --help` and docs/ibnetsim.1). */
enum {
    IBN_EXIT_OK = 0,
    IBN_EXIT_BROKEN = 1,      /* a model invariant broke, the fabric did not drain, a check failed */
    IBN_EXIT_INPUT = 2,       /* bad usage or bad input */
    IBN_EXIT_OUTPUT = 3,      /* an output could not be written (disk full, no permission, ...) */
    IBN_EXIT_RANK_TIMEOUT = 4, /* a distributed run's rank waited for the others beyond
                                * --rank-timeout (dist.h) */
    IBN_EXIT_SIGINT = 130,    /* interrupted by SIGINT (Ctrl-C) */
    IBN_EXIT_SIGTERM = 143,   /* stopped by SIGTERM */
};

struct outfile {
    FILE *fp;            /* write here */
    int fd;
    int err;             /* errno of the first failed write, 0 if none */
    char *path;
};

/* Create (truncate) PATH for writing. NULL with e set (e->output = 1) on failure. */
struct outfile *out_open(const char *path, struct ibn_err *e);
/* Flush and close; -1 with "cannot write PATH: REASON" (e->output = 1) if any write, the
 * flush or the close failed. Frees o; NULL is accepted (returns 0). */
int out_close(struct outfile *o, struct ibn_err *e);
/* Close without reporting (on an earlier error); frees o. */
void out_abandon(struct outfile *o);
/* Check standard output at the end of a command (fflush + ferror): -1 with an output error. */
int out_check_stdout(struct ibn_err *e);

/* An output error, already described in e: "cannot write PATH: strerror(err)". */
int out_err(struct ibn_err *e, const char *path, int err);

/* Write one CSV field: as is when it holds no comma, quote, CR or LF, else in double quotes
 * with quotes doubled (RFC 4180). */
void csv_field(FILE *fp, const char *s);
/* Always in double quotes (for free text such as a claim). */
void csv_quote(FILE *fp, const char *s);
/* "NAME:PORT" as one field. */
void csv_field_port(FILE *fp, const char *name, int port);

#endif

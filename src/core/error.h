/* error.h: the error record every fallible function fills in. Errors carry the place they
 * refer to (a file and line of user input where there is one) and a sentence that says what
 * was expected. Functions return 0 on success and -1 on failure. */
#ifndef IBN_ERROR_H
#define IBN_ERROR_H

#include <stdarg.h>
#include <stddef.h>

struct ibn_err {
    char msg[1024];
    int output;      /* 1 when the error is a failed output (core/output.h), else 0 */
};

/* Set the message: "FILE:LINE: text" when file is given (line 0 omits the line), else "text". */
int ibn_err_at(struct ibn_err *e, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ibn_err_set(struct ibn_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepend context ("while reading X: ") to an existing message. */
int ibn_err_prefix(struct ibn_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Abort with a message: for broken internal invariants only, never for bad input. */
_Noreturn void ibn_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that never returns NULL (out of memory is fatal). Setup-time use only. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* n zeroed elements of `size` bytes starting on an `align`-byte boundary (a power of two, such
 * as a struct's _Alignof); freed with free(). */
void *xaligned_calloc(size_t align, size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif

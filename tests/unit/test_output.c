/* test_output.c: checked output files (core/output.c): a failed write, flush or open is
 * reported with the file and the reason and marked as an output error; CSV fields are quoted
 * per RFC 4180 exactly when they must be. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/output.h"

static void test_ok(void **state)
{
    (void)state;
    char dir[] = "/tmp/ibn-out-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/a.txt", dir);
    struct ibn_err e;
    struct outfile *o = out_open(path, &e);
    assert_non_null(o);
    for (int i = 0; i < 10000; i++)
        fprintf(o->fp, "line %d\n", i);
    assert_int_equal(out_close(o, &e), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    long want = 0;
    for (int i = 0; i < 10000; i++)
        want += snprintf(NULL, 0, "line %d\n", i);
    assert_int_equal(n, want);
    unlink(path);
    rmdir(dir);
    assert_int_equal(out_close(NULL, &e), 0);
}

static void test_full(void **state)
{
    (void)state;
    struct ibn_err e;
    /* Small: the failure shows at the close (the flush). */
    struct outfile *o = out_open("/dev/full", &e);
    assert_non_null(o);
    fprintf(o->fp, "x\n");
    assert_int_equal(out_close(o, &e), -1);
    assert_string_equal(e.msg, "cannot write /dev/full: No space left on device");
    assert_int_equal(e.output, 1);
    /* Large: the failure shows during the writes, and is kept until the close. */
    o = out_open("/dev/full", &e);
    for (int i = 0; i < 100000; i++)
        fprintf(o->fp, "row %d\n", i);
    assert_int_equal(o->err, ENOSPC);
    assert_int_equal(out_close(o, &e), -1);
    assert_string_equal(e.msg, "cannot write /dev/full: No space left on device");
    /* Open. */
    assert_null(out_open("/nonexistent-ibn/x.csv", &e));
    assert_string_equal(e.msg, "cannot write /nonexistent-ibn/x.csv: No such file or directory");
    assert_int_equal(e.output, 1);
    /* Any other error is not an output error. */
    ibn_err_set(&e, "bad input");
    assert_int_equal(e.output, 0);
}

static const char *csv(const char *s, int port)
{
    static char buf[256];
    memset(buf, 0, sizeof buf);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    if (port >= 0)
        csv_field_port(f, s, port);
    else if (port == -2)
        csv_quote(f, s);
    else
        csv_field(f, s);
    fclose(f);
    return buf;
}

static void test_csv(void **state)
{
    (void)state;
    assert_string_equal(csv("S0_1", -1), "S0_1");
    assert_string_equal(csv("", -1), "");
    assert_string_equal(csv("a,b", -1), "\"a,b\"");
    assert_string_equal(csv("say \"hi\"", -1), "\"say \"\"hi\"\"\"");
    assert_string_equal(csv("two\nlines", -1), "\"two\nlines\"");
    assert_string_equal(csv("cr\r", -1), "\"cr\r\"");
    assert_string_equal(csv("sw 1", 3), "sw 1:3");
    assert_string_equal(csv("mlx5_0, \"rack 2\"", 12), "\"mlx5_0, \"\"rack 2\"\":12\"");
    assert_string_equal(csv("plain", -2), "\"plain\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ok),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

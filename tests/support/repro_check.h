/* repro_check.h: the check the reproduction tests share: run reproduction `name`, print its
 * table, and fail if a row within its tolerance (or whose trend held) no longer is, or a row
 * known not to reproduce left the range the docs give for it. Returns the number of rows. */
#ifndef IBN_TEST_REPRO_CHECK_H
#define IBN_TEST_REPRO_CHECK_H

#include <stdio.h>
#include <string.h>

#include "repro/repro.h"

struct repro_known {
    const char *id;
    double lo, hi;
};

static inline int repro_check(const char *name, const struct repro_known *known, size_t nknown,
                              const char *doc)
{
    const struct repro *r = repro_find(name);
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    if (r->run(&t, &e)) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        fail();
    }
    repro_print(stdout, &t);
    int bad = 0;
    for (int i = 0; i < t.n; i++) {
        const struct repro_row *row = &t.rows[i];
        int k = -1;
        for (size_t j = 0; j < nknown; j++)
            if (!strcmp(known[j].id, row->id))
                k = (int)j;
        if (k >= 0) {
            if (row->ours < known[k].lo || row->ours > known[k].hi) {
                printf("  %s = %g left the documented range [%g, %g]%s%s\n", row->id, row->ours,
                       known[k].lo, known[k].hi, row->ok ? " (it now reproduces: update " : "",
                       row->ok ? doc : "");
                bad = 1;
            }
        } else if (!row->ok) {
            printf("  %s = %g is outside its tolerance (paper %s)\n", row->id, row->ours, row->paper);
            bad = 1;
        }
    }
    int n = t.n;
    repro_table_free(&t);
    assert_false(bad);
    return n;
}

#endif

/* repro_check.h: the checks the reproduction tests share. repro_check: run reproduction `name`
 * (repro_exec: its rows classified), print its table, and fail if an evidence or trend row is
 * outside its tolerance, or a row known not to reproduce left the range the docs give for it.
 * repro_check_kinds: the same run, but each row's kind must be the one listed (unlisted rows:
 * evidence), and the misses are a list of ids without ranges (a miss that starts to reproduce
 * only prints a note). Return the number of rows. */
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
    if (repro_exec(r, &t, &e)) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        fail();
    }
    repro_print(stdout, &t);
    repro_print_summary(stdout, &t);
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
        } else if (!row->ok && (row->kind == REPRO_EVIDENCE || row->kind == REPRO_TREND)) {
            printf("  %s = %g is outside its tolerance (paper %s)\n", row->id, row->ours, row->paper);
            bad = 1;
        }
    }
    int n = t.n;
    repro_table_free(&t);
    assert_false(bad);
    return n;
}

struct repro_kind_of {
    const char *id;
    enum repro_kind kind;
};

static inline int repro_check_kinds(const char *name, const struct repro_kind_of *kinds,
                                    size_t nkinds, const char *const *misses, size_t nmisses,
                                    const char *doc)
{
    const struct repro *r = repro_find(name);
    assert_non_null(r);
    struct repro_table t = { 0 };
    struct ibn_err e;
    if (repro_exec(r, &t, &e)) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        fail();
    }
    repro_print(stdout, &t);
    repro_print_summary(stdout, &t);
    int bad = 0;
    for (int i = 0; i < t.n; i++) {
        const struct repro_row *row = &t.rows[i];
        enum repro_kind want = REPRO_EVIDENCE;
        for (size_t j = 0; j < nkinds; j++)
            if (!strcmp(kinds[j].id, row->id))
                want = kinds[j].kind;
        if (row->kind != want) {
            printf("  %s is %s, %s says %s\n", row->id, repro_kind_name(row->kind), doc,
                   repro_kind_name(want));
            bad = 1;
        }
        if (row->kind != REPRO_EVIDENCE && row->kind != REPRO_TREND)
            continue;
        int known = 0;
        for (size_t j = 0; j < nmisses; j++)
            known |= !strcmp(misses[j], row->id);
        if (!row->ok && !known) {
            printf("  %s = %g is outside its tolerance (paper %s)\n", row->id, row->ours, row->paper);
            bad = 1;
        } else if (row->ok && known) {
            printf("  %s = %g now reproduces (paper %s): update %s and the list of misses\n",
                   row->id, row->ours, row->paper, doc);
        }
    }
    int n = t.n;
    repro_table_free(&t);
    assert_false(bad);
    return n;
}

#endif

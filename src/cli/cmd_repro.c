/* cmd_repro.c: `ibnetsim repro [-o FILE] [-s KEY=VALUE]... NAME...`: runs the named
 * reproductions (or `all`), prints the paper-vs-ibnetsim table and writes it as CSV (default
 * repro.csv) with the columns id, kind, claim, paper, ibnetsim, ci95, n, unit, tolerance,
 * within, basis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "repro/repro.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ibnetsim repro [-o FILE] [-n SEEDS] [-j JOBS] [-s KEY=VALUE]... NAME... | all\n"
               "       ibnetsim repro --list\n\n"
               "Runs reproductions of the seed works and prints, per number compared, its kind\n"
               "(evidence, derived, cap, calibrated, trend, info: docs/cc.md), the paper's value,\n"
               "ibnetsim's (the mean over the seeds, with its 95 %% confidence half-width and the\n"
               "number of seeds), the unit, the tolerance and whether it is met, then the summary\n"
               "\"N of M evidence rows within tolerance\"; writes the same table to FILE (default\n"
               "repro.csv; with several reproductions, also after each, so that a run stopped\n"
               "half-way keeps the rows it finished). A number that does not come out is reported as\n"
               "it is (docs/cc.md explains the differences). -s overrides a scenario key in every\n"
               "run, after the reproduction's own settings (a sensitivity study: -s\n"
               "cc.cct_scale_us=65); keys under cc. reach only the runs with congestion control.\n"
               "-n SEEDS: replications of every stochastic run (default 5; simulation.seed 1..SEEDS);\n"
               "-j JOBS: runs at once (default: the number of cores).\n"
               "Reproductions:\n");
    for (int i = 0; repro_list[i].name; i++)
        fprintf(f, "  %-8s %s\n", repro_list[i].name, repro_list[i].summary);
    fprintf(f, "\nExit status: 0 every evidence row within tolerance and every trend row holds, 1 some\n"
               "do not, 2 bad input or a failed run, 3 the table could not be written.\n");
}

int cmd_repro(int argc, char **argv)
{
    const char *out = "repro.csv";
    const struct repro *sel[64];
    const char *over[64];
    int n = 0, nover = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "--list")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "-j"))) {
            char *end = NULL;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (!end || *end || v < 1 || v > 1000) {
                fprintf(stderr, "ibnetsim repro: %s expects a number from 1 to 1000\n", argv[i]);
                return 2;
            }
            if (argv[i][1] == 'n')
                repro_set_seeds((int)v);
            else
                repro_set_jobs((int)v);
            i++;
        } else if (!strcmp(argv[i], "-s")) {
            if (i + 1 >= argc || !strchr(argv[i + 1], '=') || argv[i + 1][0] == '=') {
                fprintf(stderr, "ibnetsim repro: -s expects KEY=VALUE (e.g. -s cc.cct_scale_us=65)\n");
                return 2;
            }
            if (nover == 64) {
                fprintf(stderr, "ibnetsim repro: at most 64 -s overrides\n");
                return 2;
            }
            over[nover++] = argv[++i];
        } else if (!strcmp(argv[i], "all")) {
            for (int k = 0; repro_list[k].name && n < 64; k++)
                if (!strchr(repro_list[k].name, '-')) /* not the parts (isolation-t3n1, ...) */
                    sel[n++] = &repro_list[k];
        } else {
            const struct repro *r = repro_find(argv[i]);
            if (!r) {
                fprintf(stderr, "ibnetsim repro: unknown reproduction \"%s\"\n\n", argv[i]);
                usage(stderr);
                return 2;
            }
            if (n < 64)
                sel[n++] = r;
        }
    }
    if (!n) {
        usage(stderr);
        return 2;
    }
    repro_set_overrides(over, nover);
    struct repro_table t = { 0 };
    for (int i = 0; i < n; i++) {
        struct ibn_err e;
        fprintf(stderr, "running %s: %s\n", sel[i]->name, sel[i]->summary);
        if (repro_exec(sel[i], &t, &e)) {
            fprintf(stderr, "ibnetsim repro %s: %s\n", sel[i]->name, e.msg);
            repro_table_free(&t);
            return 2;
        }
        /* The rows so far, after each reproduction but the last: an interrupted run of
         * several keeps what it finished. */
        if (i + 1 < n) {
            if (repro_write_csv(&t, out, &e)) {
                fprintf(stderr, "ibnetsim repro: %s\n", e.msg);
                repro_table_free(&t);
                return IBN_EXIT_OUTPUT;
            }
            fprintf(stderr, "rows of %d of %d reproductions written to %s\n", i + 1, n, out);
        }
    }
    repro_print(stdout, &t);
    repro_print_summary(stdout, &t);
    struct ibn_err e;
    int bad = 0;
    for (int i = 0; i < t.n; i++)
        bad |= (t.rows[i].kind == REPRO_EVIDENCE || t.rows[i].kind == REPRO_TREND) && !t.rows[i].ok;
    if (repro_write_csv(&t, out, &e)) {
        fprintf(stderr, "ibnetsim repro: %s\n", e.msg);
        repro_table_free(&t);
        return IBN_EXIT_OUTPUT;
    }
    printf("table written to %s\n", out);
    repro_table_free(&t);
    return bad ? 1 : 0;
}

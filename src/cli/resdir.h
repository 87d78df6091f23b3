/* resdir.h: a run's results folder, written safely. The run writes into a fresh folder
 * beside the target (TARGET.tmp-XXXXXX, same file system) and puts it in place at the end in
 * one rename: readers and concurrent runs into the same folder never see a mix of two runs,
 * and a reused folder never keeps files of an earlier run. An existing target is replaced
 * only if it is a results folder (it holds scenario.cfg) or empty, and holds only files; any
 * other existing path is refused before the run. An interrupted run is put in place as
 * TARGET.partial instead, leaving TARGET as it was. */
#ifndef IBN_RESDIR_H
#define IBN_RESDIR_H

#include "core/error.h"

struct resdir {
    char target[4096];
    char tmp[4200];      /* where the run writes */
};

/* Check the target, create its parent folders and the temporary folder. -1 with e set
 * (e->output = 1 when the file system refused, 0 when the target is not replaceable). */
int resdir_begin(struct resdir *r, const char *target, struct ibn_err *e);
/* Put the temporary folder in place as the target, or as TARGET.partial (partial != 0);
 * the replaced folder is removed. Writes the final path into `final`. */
int resdir_commit(struct resdir *r, int partial, char *final, size_t size, struct ibn_err *e);
/* Remove the temporary folder (after an error). */
void resdir_abandon(struct resdir *r);

#endif

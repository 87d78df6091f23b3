/* resdir.c: results folders written beside their target and renamed into place. */
#define _GNU_SOURCE
#include "cli/resdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/output.h"

static int mkparents(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

/* 1 when DIR may be replaced: a folder holding only files, empty or with scenario.cfg;
 * 0 when it may not (why in e); -1 when it does not exist (or no longer is the folder read). */
static int replaceable(const char *dir, struct ibn_err *e)
{
    struct stat st;
    if (lstat(dir, &st))
        return -1;
    if (!S_ISDIR(st.st_mode))
        return ibn_err_set(e, "%s exists and is not a folder; give another results folder with -o", dir), 0;
    DIR *d = opendir(dir);
    if (!d)
        return ibn_err_set(e, "cannot read the folder %s: %s", dir, strerror(errno)), 0;
    int files = 0, results = 0, ok = 1;
    struct dirent *de;
    while (ok && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        files++;
        if (!strcmp(de->d_name, "scenario.cfg"))
            results = 1;
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
            ok = 0;
    }
    /* Another run may have exchanged this folder out of the target's name while we read it (and
     * be removing its files): then what we read is not the target; the caller looks again
     * (e2e/results_folder's concurrent runs into one folder, under load). */
    struct stat now, seen;
    int moved = fstat(dirfd(d), &seen) || lstat(dir, &now) || now.st_ino != seen.st_ino ||
                now.st_dev != seen.st_dev;
    closedir(d);
    if (moved)
        return -1;
    if (!ok || (files && !results))
        return ibn_err_set(e, "%s exists and is not an ibnetsim results folder (one holds scenario.cfg "
                              "and only files); it is left alone: give another folder with -o", dir), 0;
    return 1;
}

/* Remove a folder of files (one we wrote or checked with replaceable()). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(dirfd(d), de->d_name, 0);
        closedir(d);
    }
    if (rmdir(dir))
        fprintf(stderr, "ibnetsim: warning: could not remove %s: %s\n", dir, strerror(errno));
}

int resdir_begin(struct resdir *r, const char *target, struct ibn_err *e)
{
    size_t n = strlen(target);
    while (n > 1 && target[n - 1] == '/')
        n--;
    if (n >= sizeof r->target - 32)
        return ibn_err_set(e, "the results folder name is too long");
    memcpy(r->target, target, n);
    r->target[n] = 0;
    const char *base = strrchr(r->target, '/');
    base = base ? base + 1 : r->target;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return ibn_err_set(e, "-o %s: name the results folder itself (it is replaced as a whole), "
                              "e.g. -o runs/x", target);
    if (replaceable(r->target, e) == 0)
        return -1;
    if (mkparents(r->target))
        return out_err(e, r->target, errno);
    snprintf(r->tmp, sizeof r->tmp, "%s.tmp-XXXXXX", r->target);
    if (!mkdtemp(r->tmp))
        return out_err(e, r->tmp, errno);
    mode_t um = umask(0); /* permissions as mkdir would give (mkdtemp gives 0700) */
    umask(um);
    chmod(r->tmp, 0777 & ~um);
    return 0;
}

int resdir_commit(struct resdir *r, int partial, char *final, size_t size, struct ibn_err *e)
{
    snprintf(final, size, "%s%s", r->target, partial ? ".partial" : "");
    for (int tries = 0; tries < 100; tries++) {
        if (!rename(r->tmp, final))
            return 0;
        if (errno != ENOTEMPTY && errno != EEXIST && errno != ENOTDIR && errno != EISDIR)
            break;
        struct ibn_err why;
        int rep = replaceable(final, &why);
        if (rep == 0) {
            ibn_err_set(e, "%s; the results are in %s", why.msg, r->tmp);
            return -1;
        }
        if (rep < 0)
            continue; /* it went away meanwhile: try again */
        if (!renameat2(AT_FDCWD, r->tmp, AT_FDCWD, final, RENAME_EXCHANGE)) {
            remove_tree(r->tmp); /* now the replaced folder */
            return 0;
        }
        if (errno == ENOENT)
            continue;
        if (errno != EINVAL && errno != ENOSYS)
            break;
        /* No atomic exchange on this file system: move the old folder aside first. */
        char old[4300];
        snprintf(old, sizeof old, "%s.old-XXXXXX", r->target);
        if (!mkdtemp(old) || rename(final, old)) {
            if (errno == ENOENT)
                continue;
            break;
        }
        if (!rename(r->tmp, final)) {
            remove_tree(old);
            return 0;
        }
        rename(old, final);
        break;
    }
    int err = errno;
    ibn_err_set(e, "cannot put the results in place as %s: %s; they are in %s", final, strerror(err), r->tmp);
    e->output = 1;
    return -1;
}

void resdir_abandon(struct resdir *r)
{
    if (r->tmp[0])
        remove_tree(r->tmp);
    r->tmp[0] = 0;
}

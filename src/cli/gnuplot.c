/* gnuplot.c: writing the common parts of gnuplot scripts, and running gnuplot (or another
 * drawing program, graphviz's dot) inside a results folder. */
#include "cli/gnuplot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct outfile *gp_open(const char *dir, const char *name, const char *what, struct ibn_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/plot-%s.gp", dir, name);
    struct outfile *o = out_open(path, e);
    if (!o)
        return NULL;
    fprintf(o->fp, "# plot-%s.gp: %s.\n"
                "# Written by ibnetsim; edit it and run `gnuplot plot-%s.gp` in this folder.\n"
                "set datafile separator \",\"\n"
                "set datafile missing \"\"\n"
                "set grid\n"
                "set border 3\n"
                "set tics nomirror\n"
                "set key noenhanced\n"
                "set encoding utf8\n",
            name, what, name);
    return o;
}

void gp_png(FILE *fp, const char *name, int width, int height)
{
    fprintf(fp,
            "if (strstrt(GPVAL_TERMINALS, \" pngcairo \") > 0) {\n"
            "  set terminal pngcairo size %d,%d noenhanced font \"sans,10\"\n"
            "} else {\n"
            "  set terminal png size %d,%d noenhanced\n"
            "}\n"
            "set output \"%s.png\"\n",
            width, height, width, height, name);
}

void gp_svg(FILE *fp, const char *name, int width, int height, const char *replot)
{
    fprintf(fp, "set output\n"
                "set terminal svg size %d,%d noenhanced font \"sans,10\" background \"white\"\n"
                "set output \"%s.svg\"\n"
                "%s\n"
                "set output\n",
            width, height, name, replot);
}

int gp_close(struct outfile *o, struct ibn_err *e)
{
    return out_close(o, e);
}

int prog_available(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    const char *p = path;
    while (*p) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        char buf[4200];
        if (n == 0)
            snprintf(buf, sizeof buf, "%s", prog);
        else
            snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
        if (!access(buf, X_OK))
            return 1;
        if (!c)
            break;
        p = c + 1;
    }
    return 0;
}

int gp_available(void)
{
    return prog_available("gnuplot");
}

int prog_run(const char *dir, char *const argv[], struct ibn_err *e)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return ibn_err_set(e, "cannot start %s: %s", argv[0], strerror(errno));
    if (pid == 0) {
        if (chdir(dir)) {
            fprintf(stderr, "ibnetsim: cannot enter %s: %s\n", dir, strerror(errno));
            _exit(127);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "ibnetsim: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return ibn_err_set(e, "waiting for %s: %s", argv[0], strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st))
        return ibn_err_set(e, "%s %s (in %s) failed (exit status %d)", argv[0], argv[1] ? argv[1] : "", dir,
                           WEXITSTATUS(st));
    return ibn_err_set(e, "%s (in %s) was killed by signal %d", argv[0], dir, WTERMSIG(st));
}

int gp_run(const char *dir, const char *name, struct ibn_err *e)
{
    char script[300];
    snprintf(script, sizeof script, "plot-%s.gp", name);
    char *argv[] = { "gnuplot", script, NULL };
    return prog_run(dir, argv, e);
}

void gp_quote(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc(*s, fp);
    }
}

void gp_palette(FILE *fp)
{
    fprintf(fp, "# distinct colours for any number of curves: golden-ratio hues, two brightness levels,\n"
                "# and after every 8 curves the next dash pattern\n"
                "hue(i) = i * 0.618033988749895 - floor(i * 0.618033988749895)\n"
                "col(i) = hsv2rgb(hue(i), 0.85, (int(i) %% 2) ? 0.62 : 0.90)\n"
                "dash(i) = 1 + int(i / 8) %% 5\n");
}

/* gnuplot.h: what `ibnetsim plot` and `ibnetsim sweep` share about gnuplot: the common parts
 * of the scripts they write (CSV input; PNG with pngcairo, or png where this gnuplot lacks
 * cairo, and SVG), finding gnuplot on the PATH and running a script inside a results folder
 * (scripts name their data and images relative to that folder, so users can edit and re-run
 * them there with `gnuplot plot-NAME.gp`). */
#ifndef IBN_GNUPLOT_H
#define IBN_GNUPLOT_H

#include <stdio.h>

#include "core/error.h"
#include "core/output.h"

/* Open DIR/plot-NAME.gp for writing and write its head: what it draws, how to re-run it, and
 * the CSV settings. Returns NULL (and e) if it cannot be written;
 * write to its ->fp. */
struct outfile *gp_open(const char *dir, const char *name, const char *what, struct ibn_err *e);
/* Select the PNG terminal (pngcairo if available, else png) of width x height pixels and the
 * output NAME.png; the plot commands follow. */
void gp_png(FILE *fp, const char *name, int width, int height);
/* After the plot commands: write the same figure again as NAME.svg. `replot` is the
 * command that draws it again (for multiplots, the whole multiplot block). */
void gp_svg(FILE *fp, const char *name, int width, int height, const char *replot);
/* Close the script; -1 (and e, an output error) if writing failed. */
int gp_close(struct outfile *o, struct ibn_err *e);

/* Whether an executable gnuplot (prog) is on the PATH. */
int gp_available(void);
int prog_available(const char *prog);
/* Run argv (a program on the PATH) with DIR as working directory; -1 (and e) if it could not
 * run or failed. */
int prog_run(const char *dir, char *const argv[], struct ibn_err *e);
/* Run `gnuplot plot-NAME.gp` with DIR as working directory; its messages go to stderr.
 * -1 (and e) if it could not run or failed. */
int gp_run(const char *dir, const char *name, struct ibn_err *e);

/* A string as a gnuplot double-quoted string body (backslashes and quotes escaped). */
void gp_quote(FILE *fp, const char *s);

/* Define col(i) and dash(i) in a script: distinct colours for any number of curves (hues
 * stepped by the golden ratio, two brightness levels) and a new dash pattern every 8 curves. */
void gp_palette(FILE *fp);

#endif

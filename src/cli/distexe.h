/* distexe.h: where the distributed mode lives (issue 19 item 4; docs/architecture.md "Two
 * executables"). The sequential command ibnetsim is built without Open MPI and METIS, so that
 * a run that is not distributed neither links nor loads them; the distributed mode is the
 * executable ibnetsim-dist, built from the same sources with MPI and METIS. `ibnetsim run
 * --ranks N` starts `mpirun -n N ibnetsim-dist run ...`, and an ibnetsim started by mpirun
 * (`mpirun -n N ibnetsim run ...`) replaces itself with ibnetsim-dist (execv: the same
 * process, the same arguments and environment, so Open MPI sees no difference). */
#ifndef IBN_DISTEXE_H
#define IBN_DISTEXE_H

#include <stddef.h>

/* Whether this process was started by mpirun (Open MPI's or a PMI launcher's environment:
 * OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK). */
int distexe_launched(void);
/* The path of ibnetsim-dist: next to this executable (/proc/self/exe), else in the install
 * directory. Returns 0 with the path in buf, or -1 with a message in why naming what is
 * missing and where it was looked for (or that ibnetsim was built without MPI). */
int distexe_find(char *buf, size_t len, char *why, size_t wlen);
/* Replace this process with ibnetsim-dist, with the same arguments (argv[0] becomes its
 * path). Returns only when that fails, after printing why on stderr: the exit status 2. */
int distexe_exec(char **argv);

#endif

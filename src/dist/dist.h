/* dist.h: one simulation run split over MPI ranks (issue 19; docs/distributed.md). Every
 * rank builds the whole fabric (replicated set-up), owns the nodes of its part
 * (dist/partition.h) and handles only their events; the events that cross a cut cable
 * (packets, credit returns) travel as messages exchanged at the end of conservative windows
 * as wide as the least time either takes to act on another rank (a cut cable's delay plus the
 * far switch's latency for packets; plus its least crossbar read for credit returns:
 * docs/distributed.md "Windows"), and rank 0 gathers the statistics and
 * writes the same files as a sequential run. Without MPI (IBN_HAVE_MPI unset) every function
 * here says that there is no distributed mode. */
#ifndef IBN_DIST_H
#define IBN_DIST_H

#include "core/error.h"
#include "fabric/engine.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "topology/topo.h"

/* Start MPI if this process was started by mpirun (Open MPI's environment); returns the
 * number of ranks (1 when not under mpirun or without MPI). */
int dist_init(int *argc, char ***argv);
/* Whether this process is one of several ranks (or a rank of `mpirun -n 1` when forced by
 * IBNETSIM_DIST=1, for testing the protocol on one rank). */
int dist_active(void);
int dist_rank(void);
int dist_size(void);
void dist_finalize(void);
/* Whether ibnetsim was built with MPI. */
int dist_built(void);
/* Rank 0 says whether the run goes ahead (its results folder is open): the first call on
 * every rank takes part in the broadcast and returns rank 0's word; later calls return `ok`. */
int dist_go(int ok);

/* How long a rank waits for the others at a window's collective operations (and the sums of
 * the time series) before it aborts the run with IBN_EXIT_RANK_TIMEOUT, naming itself and the
 * window (`ibnetsim run --rank-timeout SECONDS`); 0 waits for ever. */
#define DIST_TIMEOUT_DEFAULT 300.0
void dist_set_timeout(double seconds);
/* What a rank that gives up waiting runs just before it aborts the run: rank 0's removal of
 * its results' temporary folder (cli/cmd_run.c), so that a timed-out run leaves nothing
 * behind. fn = NULL: nothing. */
void dist_on_abort(void (*fn)(void *arg), void *arg);

/* The partition of the topology over the ranks (partition.h; `method` names the
 * partitioner): a rank per node in *part (to free, or to hand to dist_attach). Computed before
 * the fabric is built, so that the build makes only this rank's heavy state (run_desc.own_part).
 * Fails when the fabric has fewer switches than ranks. */
int dist_partition(const struct topo *t, int method, int **part, struct ibn_err *e);
/* Attach the distributed mode to the built fabric (f->dist), taking over `part` (only when it
 * succeeds). When the run
 * starts (after fabric_run's checks) the rank frees what only other ranks' nodes need and the
 * build still made: their switches' input memory, their rows of `l` (the routes the fabric was
 * built from; may be NULL), their flows' random generators. */
int dist_attach(struct fabric *f, const struct topo *t, struct lfts *l, int *part, struct ibn_err *e);
/* Run the attached fabric (fabric_run with f->dist) and gather every statistic at rank 0:
 * afterwards rank 0's fabric holds what a sequential run's would. Every rank returns the
 * same status. */
int dist_run(struct fabric *f, const struct fabric_observer *obs, struct run_report *r,
             struct ibn_err *e);
/* Statistics of the partition and the run for the user (rank 0): cut cables, window width,
 * windows, messages; "" before a run. */
void dist_describe(const struct fabric *f, char *buf, size_t len);
void dist_detach(struct fabric *f);

#endif

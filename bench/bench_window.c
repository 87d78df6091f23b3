/* bench_window.c: what one window of a distributed run costs in communication alone (issue 19;
 * docs/distributed.md "The exchange", bench/distributed.md). Every rank repeats a window's
 * exchange ITER times with RECORDS 128-byte records to every other rank and no simulation in
 * between, and rank 0 prints the wall time per window and each rank's CPU time per window:
 *   old    the protocol before: MPI_Iallreduce of the next event time, MPI_Ialltoall of the
 *          record counts, MPI_Ialltoallv of the records, each waited for by spinning on
 *          MPI_Test (three rounds per window);
 *   new    one message per pair of ranks (MPI_Isend of a header and the records, MPI_Improbe
 *          and MPI_Mrecv), waited for as ibnetsim waits: spinning on the tests (Open MPI
 *          yields inside them when mpirun sees more ranks than slots: mpi_yield_when_idle);
 *   polite the new protocol with a wait that gives the core away: spin BENCH_SPIN_US (20),
 *          then sched_yield until BENCH_YIELD_US (1000), then sleep 50 us between tries (the
 *          wait that was tried and rejected: bench/distributed.md).
 * Usage: mpirun -n N bench_window old|new|polite [ITER [RECORDS]] (defaults 5000 and 224, the
 * 11,664-host benchmark's 28.6 KB per window on 2 ranks with 10 ns windows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef IBN_HAVE_MPI
int main(void)
{
    fprintf(stderr, "bench_window: ibnetsim was built without MPI\n");
    return 77;
}
#else
#include <mpi.h>
#include <sched.h>
#include <time.h>

enum { REC = 128 };

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int polite = 1;
static double spin_s = 20e-6, yield_s = 1e-3; /* BENCH_SPIN_US, BENCH_YIELD_US (experiments) */

/* One try found nothing: a bare spin (as dist.c's wait_more, without its timeout), or the
 * polite wait. */
static void wait_more(double *t0, unsigned *k)
{
    if (!polite)
        return;
    double now = mono();
    if ((*k)++ == 0) {
        *t0 = now;
        return;
    }
    if (now - *t0 < spin_s)
        return;
    if (now - *t0 < yield_s) {
        sched_yield();
        return;
    }
    struct timespec ts = { 0, 50000 };
    nanosleep(&ts, NULL);
}

static void wait_req(MPI_Request *rq)
{
    double t0 = 0;
    unsigned k = 0;
    for (;;) {
        int done = 0;
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        wait_more(&t0, &k);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int nr, me;
    MPI_Comm_size(MPI_COMM_WORLD, &nr);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *mode = argc > 1 ? argv[1] : "new";
    long iter = argc > 2 ? atol(argv[2]) : 5000;
    int recs = argc > 3 ? atoi(argv[3]) : 224;
    int old = !strcmp(mode, "old");
    polite = !strcmp(mode, "polite");
    if (getenv("BENCH_SPIN_US"))
        spin_s = atof(getenv("BENCH_SPIN_US")) * 1e-6;
    if (getenv("BENCH_YIELD_US"))
        yield_s = atof(getenv("BENCH_YIELD_US")) * 1e-6;
    if ((!old && strcmp(mode, "new") && strcmp(mode, "polite")) || iter < 1 || recs < 0) {
        if (me == 0)
            fprintf(stderr, "usage: mpirun -n N bench_window old|new|polite [ITER [RECORDS]]\n");
        MPI_Finalize();
        return 2;
    }
    size_t per = (size_t)(recs + 1) * REC; /* records to one rank, with a header */
    char *sbuf = calloc((size_t)nr, per), *rbuf = calloc((size_t)nr, per);
    int *sc = calloc((size_t)nr, sizeof *sc), *rc = calloc((size_t)nr, sizeof *rc);
    int *sd = calloc((size_t)nr, sizeof *sd), *rd = calloc((size_t)nr, sizeof *rd);
    MPI_Request *sreq = malloc((size_t)nr * sizeof *sreq);
    MPI_Message *msg = malloc((size_t)nr * sizeof *msg);
    int *len = calloc((size_t)nr, sizeof *len);
    for (int r = 0; r < nr; r++) {
        sreq[r] = MPI_REQUEST_NULL;
        sd[r] = rd[r] = (int)((size_t)r * per);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double w0 = mono(), c0 = cpu();
    for (long it = 0; it < iter; it++) {
        if (old) {
            long long x = it, y;
            MPI_Request rq;
            MPI_Iallreduce(&x, &y, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD, &rq);
            wait_req(&rq);
            for (int r = 0; r < nr; r++)
                sc[r] = r == me ? 0 : recs * REC;
            MPI_Ialltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD, &rq);
            wait_req(&rq);
            MPI_Ialltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, MPI_COMM_WORLD, &rq);
            wait_req(&rq);
            continue;
        }
        for (int r = 0; r < nr; r++) {
            len[r] = -1;
            if (r != me)
                MPI_Isend(sbuf + (size_t)r * per, (int)per, MPI_BYTE, r, 7, MPI_COMM_WORLD, &sreq[r]);
        }
        double t0 = 0;
        unsigned k = 0;
        for (int left = nr - 1; left > 0;) {
            for (int r = 0; r < nr; r++) {
                if (r == me || len[r] >= 0)
                    continue;
                int flag = 0;
                MPI_Status st;
                MPI_Improbe(r, 7, MPI_COMM_WORLD, &flag, &msg[r], &st);
                if (flag) {
                    MPI_Get_count(&st, MPI_BYTE, &len[r]);
                    left--;
                }
            }
            if (left)
                wait_more(&t0, &k);
        }
        for (int r = 0; r < nr; r++)
            if (r != me)
                MPI_Mrecv(rbuf + (size_t)r * per, len[r], MPI_BYTE, &msg[r], MPI_STATUS_IGNORE);
        for (int done = 0; !done;) {
            MPI_Testall(nr, sreq, &done, MPI_STATUSES_IGNORE);
            if (!done)
                wait_more(&t0, &k);
        }
    }
    double wall = mono() - w0, c = cpu() - c0;
    double *cs = me == 0 ? malloc((size_t)nr * sizeof *cs) : NULL;
    MPI_Gather(&c, 1, MPI_DOUBLE, cs, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("bench_window %s: %d ranks, %ld windows, %d records (%d bytes) to each other rank per "
               "window: %.2f us wall per window; CPU per window", mode, nr, iter, recs, recs * REC,
               wall / (double)iter * 1e6);
        for (int r = 0; r < nr; r++)
            printf("%s %.2f", r ? "," : "", cs[r] / (double)iter * 1e6);
        printf(" us (ranks 0..%d)\n", nr - 1);
        free(cs);
    }
    free(sbuf);
    free(rbuf);
    free(sc);
    free(rc);
    free(sd);
    free(rd);
    free(sreq);
    free(msg);
    free(len);
    MPI_Finalize();
    return 0;
}
#endif

/* main.c: the ibnetsim command: dispatches to a subcommand (run, topo, route, model, ...). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/distexe.h"
#include "core/output.h"
#include "dist/dist.h"

/* Standard output is an output like any other: a command whose printed result could not be
 * written (a full disk, a closed pipe) fails with the output status. */
static int finish(int status)
{
    dist_finalize();
    struct ibn_err e;
    if (out_check_stdout(&e)) {
        fprintf(stderr, "ibnetsim: %s\n", e.msg);
        return IBN_EXIT_OUTPUT;
    }
    return status;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: ibnetsim COMMAND [ARGS]...\n\n"
               "ibnetsim simulates InfiniBand fabrics packet by packet, credit-exactly.\n\n"
               "commands:\n");
    for (const struct command *c = ibn_commands; c->name; c++)
        fprintf(f, "  %-8s %s\n", c->name, c->summary);
    fprintf(f, "\n'ibnetsim COMMAND --help' describes a command; 'man ibnetsim' the whole tool.\n\n"
               "Exit status: 0 success; 1 a run broke a model invariant or did not drain, or a check\n"
               "failed; 2 bad usage or input; 3 an output could not be written (the message names the\n"
               "file and the reason); 130 interrupted by SIGINT; 143 stopped by SIGTERM.\n");
}

int main(int argc, char **argv)
{
#if !defined(IBN_HAVE_MPI) && defined(IBN_DIST_EXE)
    /* The sequential command (built without MPI) started by mpirun: become ibnetsim-dist. */
    if (argc >= 2 && !strcmp(argv[1], "run") && distexe_launched())
        return distexe_exec(argv);
#endif
    if (argc >= 2 && !strcmp(argv[1], "run"))
        dist_init(&argc, &argv); /* started by mpirun: one rank of a distributed run */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(0);
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("ibnetsim %s\n", IBN_VERSION);
        return finish(0);
    }
    for (const struct command *c = ibn_commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return finish(c->main(argc - 1, argv + 1));
    fprintf(stderr, "ibnetsim: unknown command \"%s\"\n\n", argv[1]);
    usage(stderr);
    return 2;
}

/* main.c: the ibnetsim command: dispatches to a subcommand (run, topo, route, model, ...). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ibnetsim COMMAND [ARGS]...\n\n"
               "ibnetsim simulates InfiniBand fabrics packet by packet, credit-exactly.\n\n"
               "commands:\n");
    for (const struct command *c = ibn_commands; c->name; c++)
        fprintf(f, "  %-8s %s\n", c->name, c->summary);
    fprintf(f, "\n'ibnetsim COMMAND --help' describes a command; 'man ibnetsim' the whole tool.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("ibnetsim %s\n", IBN_VERSION);
        return 0;
    }
    for (const struct command *c = ibn_commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return c->main(argc - 1, argv + 1);
    fprintf(stderr, "ibnetsim: unknown command \"%s\"\n\n", argv[1]);
    usage(stderr);
    return 2;
}

/* commands.c: the table of subcommands. A new command is one file and one line here. */
#include <stddef.h>

#include "cli/commands.h"

int cmd_run(int argc, char **argv);

const struct command ibn_commands[] = {
    { "run", "run a scenario and write its results", cmd_run },
    { NULL, NULL, NULL },
};

/* commands.h: the subcommands of the ibnetsim command. Each takes the arguments after its
 * name and returns the process exit status (IBN_EXIT_* of core/output.h: 0 success, 1 run
 * failure, 2 bad usage/input, 3 output error, 130/143 signals). */
#ifndef IBN_COMMANDS_H
#define IBN_COMMANDS_H

struct command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv);
};

extern const struct command ibn_commands[];

/* The meaning of a scenario key written as -s writes it (section.key, flows.NAME.key), from the
 * tables `ibnetsim keys` prints (cmd_keys.c); NULL if there is no such key. */
const char *keys_help(const char *dotted);

#endif

/* commands.c: the table of subcommands. A new command is one file and one line here. */
#include <stddef.h>

#include "cli/commands.h"

int cmd_run(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_scenario(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_repro(int argc, char **argv);
int cmd_qos(int argc, char **argv);
int cmd_report(int argc, char **argv);

const struct command ibn_commands[] = {
    { "run", "run a scenario and write its results", cmd_run },
    { "plot", "draw a run's throughput, latency CDFs, port utilisation (gnuplot)", cmd_plot },
    { "report", "one self-contained HTML page of runs: key numbers, flows, figures, repro table", cmd_report },
    { "sweep", "run a scenario over a grid of key values on all cores; combined CSV and plot", cmd_sweep },
    { "topo", "generate, convert and describe topologies", cmd_topo },
    { "route", "compute, dump and check routes (minhop, updn, ftree, ...)", cmd_route },
    { "model", "solve an analytic queueing model (GE, credit chain, thresholds, M/M/1/K ...)", cmd_model },
    { "scenario", "write a ready scenario (victim/contributor hot spot) for a topology", cmd_scenario },
    { "qos", "fill VL arbitration tables from bandwidth and deadline requests (CESY, CENRE)", cmd_qos },
    { "keys", "list every scenario key with its default and meaning", cmd_keys },
    { "repro", "run reproductions of the seed works and print paper vs ibnetsim", cmd_repro },
    { NULL, NULL, NULL },
};

/*
 * main.c — the dse command line: dispatches to a subcommand.
 *
 * Subcommands that later work will fill are listed with a NULL handler:
 * they say "not implemented yet" on stderr and exit 2.  They never pretend
 * to work.
 */
#include <stdio.h>
#include <string.h>

#include "dse/cli/commands.h"
#include "dse/common/bands.h"
#include "dse/validate/validate.h"
#include "dse/dse.h"
#include "dse/study/cfg.h"

typedef struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);  /* NULL: not implemented yet */
} command;

static const command commands[] = {
    {"check", "validate a study; print its design-space size and why designs are infeasible", dse_cmd_check},
    {"cost", "cost and widest allowed channel of one design under a budget", dse_cmd_cost},
    {"model", "evaluate an analytic latency model over a range of rates", dse_cmd_model},
    {"sim", "simulate one design flit by flit over a range of rates", dse_cmd_sim},
    {"validate", "compare every analytic model with the simulator", dse_cmd_validate},
    {"optimize", "search a study's design space and write a Pareto report", dse_cmd_optimize},
    {"worker", "serve scoring and simulation jobs from a Redis farm", dse_cmd_worker},
    {"serve", "the daemon: run submitted studies on the farm", dse_cmd_serve},
    {"submit", "submit a study to the daemon", dse_cmd_submit},
    {"status", "show the status of submitted studies", dse_cmd_status},
    {"cancel", "cancel a submitted study", dse_cmd_cancel},
    {"results", "fetch a finished study's report through Redis", dse_cmd_results},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse [--help] [--version] COMMAND [ARGS...]\n\n"
            "Finds the best interconnection network for a parallel machine or a\n"
            "large chip: analytic latency models, a flit-level simulator and a\n"
            "Pareto search over topologies, dimensions, virtual channels and\n"
            "channel widths under a wiring or pin-out budget.\n\n"
            "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-9s %s%s\n", commands[i].name, commands[i].summary,
                commands[i].run ? "" : " (not implemented yet)");
    fprintf(out, "\nRun 'dse COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    /* a model's error band is trusted only where its set-ups were */
    dse_bands_set_coverage(dse_validate_covers);
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        strcmp(name, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("%s\n", dse_version_string());
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        if (!commands[i].run) {
            fprintf(stderr, "dse %s: not implemented yet\n", name);
            return 2;
        }
        return commands[i].run(argc - 1, argv + 1);
    }
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    const char *near = cfg_suggest(name, names, NCOMMANDS);
    if (near)
        fprintf(stderr, "dse: unknown command '%s' (did you mean '%s'?)\n",
                name, near);
    else
        fprintf(stderr, "dse: unknown command '%s' (see 'dse --help')\n",
                name);
    return 2;
}

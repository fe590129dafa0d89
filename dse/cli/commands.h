/*
 * commands.h — the subcommands of the dse program.  Each takes the
 * arguments after its name (argv[0] is the subcommand name), prints to
 * stdout/stderr and returns the process exit status: 0 success, 1 failure
 * of the work itself, 2 bad usage or bad input (config errors included).
 */
#ifndef DSE_COMMANDS_H
#define DSE_COMMANDS_H

int dse_cmd_check(int argc, char **argv);    /* dse/cli/cmd_check.c */
int dse_cmd_cost(int argc, char **argv);     /* dse/cli/cmd_cost.c */
int dse_cmd_model(int argc, char **argv);    /* dse/cli/cmd_model.c */
int dse_cmd_sim(int argc, char **argv);      /* dse/cli/cmd_sim.c */
int dse_cmd_optimize(int argc, char **argv); /* dse/cli/cmd_optimize.c */
int dse_cmd_worker(int argc, char **argv);   /* dse/cli/cmd_worker.c */
int dse_cmd_serve(int argc, char **argv);    /* dse/cli/cmd_serve.c */
int dse_cmd_submit(int argc, char **argv);   /* dse/cli/cmd_submit.c */
int dse_cmd_status(int argc, char **argv);   /* dse/cli/cmd_status.c */
int dse_cmd_cancel(int argc, char **argv);   /* dse/cli/cmd_cancel.c */
int dse_cmd_results(int argc, char **argv);  /* dse/cli/cmd_results.c */
int dse_cmd_validate(int argc, char **argv); /* dse/cli/cmd_validate.c */

#endif

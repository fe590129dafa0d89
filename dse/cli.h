/*
 * cli.h — what every subcommand shares when talking to the user.
 */
#ifndef DSE_CLI_H
#define DSE_CLI_H

#include "net/err.h"

/* Print e to stderr as "dse: FILE:LINE:COLUMN: PATH: message"; when it has a
 * file and line, also the source line and a caret under the column (like
 * gcc and jq). */
void dse_cli_print_error(const err *e);

#endif

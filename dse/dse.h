/*
 * dse.h — the program's own library (dse_app): study config, design space,
 * search, executors and reports.  Only this layer knows YAML, NLopt, Redis
 * and argv; the libraries below it take plain validated structs.
 */
#ifndef DSE_DSE_H
#define DSE_DSE_H

/* "dse 0.1.0 (git abc1234)" — static string. */
const char *dse_version_string(void);

#endif

/*
 * run_dse.h — running the dse binary on a study from a test: the study
 * written from text into a scratch directory, `dse optimize` run on it
 * with the test's options, its files read back.  Test support only.
 */
#ifndef DSE_TESTS_RUN_DSE_H
#define DSE_TESTS_RUN_DSE_H

/* The whole file at path, NUL-terminated (caller frees); NULL when it
 * cannot be read. */
char *dse_test_slurp(const char *path);

/* Write study (YAML text) to DIR/study.yaml and run `BINARY optimize -q
 * --no-cache -o DIR/out OPTIONS DIR/study.yaml` with stdout to DIR/stdout
 * and stderr to DIR/stderr.  The command's wait status (0: success), or
 * -1 when the study cannot be written. */
int dse_test_optimize(const char *binary, const char *dir, const char *study,
                      const char *options);

#endif

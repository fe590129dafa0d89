/*
 * cache.h — the local result cache: a dse_executor decorator that answers
 * simulation jobs already finished from files on disk, so an interrupted
 * `dse optimize` (Ctrl-C) resumes without redoing them.
 *
 * Layout: DIR/XX/KEY.json, one file per result, where KEY is the job's
 * content hash (dse_job_key of its canonical text, the farm's cache key:
 * it carries the engine version, so a result is only reused by the same
 * code) and XX its first two hex digits.  The content is the farm's result
 * JSON (dse_job_result_format), which round-trips doubles exactly: a
 * cached run is bit-identical to an uncached one.  Files are written to a
 * temporary name, fsync'ed and renamed, so a crash never leaves half a
 * result; a file that does not parse (or names another key) is a miss and
 * is rewritten.
 *
 * What is cached: finished simulations (sim_run returned 0 with a status
 * other than stopped: ok, saturated, deadlock and cycle limit are results).
 * Jobs stopped by the interrupt, never started, or failed on the farm are
 * not.  Scoring passes straight through to the wrapped executor: it takes
 * about 0.1 s for the shipped studies, and its per-design evaluation count
 * is only known per batch through dse_executor.score.
 *
 * Results are stored when the wrapped executor returns its batch (also when
 * it returns ERR_INTERRUPTED), so SIGINT keeps every finished simulation;
 * a SIGKILL loses the batch in progress.
 */
#ifndef DSE_CACHE_H
#define DSE_CACHE_H

#include <stddef.h>

#include "dse/search/optimize.h"

typedef struct dse_cache dse_cache;

/* A cache in dir (created with its parents if missing) in front of inner
 * (borrowed; must outlive the cache).  0, or ERR_IO with the reason.
 * *out owned by the caller (dse_cache_destroy). */
int dse_cache_create(const char *dir, const dse_executor *inner,
                     dse_cache **out, err *e);
void dse_cache_destroy(dse_cache *c);   /* accepts NULL */
/* The decorating executor (borrows c). */
void dse_cache_executor(dse_cache *c, dse_executor *ex);

/* Counts so far: jobs answered from disk, results written, writes that
 * failed (the first failure's reason in *why, borrowed; may be NULL). */
void dse_cache_counts(const dse_cache *c, size_t *hits, size_t *stored,
                      size_t *write_failures, const char **why);

/* The default directory: $XDG_CACHE_HOME/dse/results, else
 * $HOME/.cache/dse/results.  0, or -1 when neither variable is set. */
int dse_cache_default_dir(char *buf, size_t size);

#endif

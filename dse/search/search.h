/*
 * search.h — strategies that decide which designs of a space get scored.
 *
 * Exhaustive search scores them all.  The NLopt strategy (search_nlopt.c)
 * scores a subset chosen by the epsilon-constraint method over a continuous
 * relaxation of the discrete parameters (docs/architecture.md, "Search"): it
 * calls back into the optimizer to score design i of the space and reads
 * the scored candidate's objectives back.
 */
#ifndef DSE_SEARCH_H
#define DSE_SEARCH_H

#include <signal.h>
#include <stddef.h>

#include "dse/study/cfg.h"
#include "dse/study/space.h"

struct dse_candidate;

/* Score design i of the space (idempotent: a second call for the same i
 * returns at once) and return its candidate, whose objectives[] are NAN
 * when it cannot be ranked (saturated at a target rate, no model).  The
 * returned pointer stays valid for the whole search. */
typedef const struct dse_candidate *(*dse_score_index_fn)(void *ctx, size_t i);

/* Choose designs to score by the epsilon-constraint method with NLopt.
 * On return every design the search looked at has been scored through
 * `score` (and so is marked by the caller); *evaluations counts distinct
 * designs scored.  0, ERR_INTERRUPTED (stop flag), or ERR_NLOPT with e. */
int dse_search_nlopt(const cfg_study *s, const dse_space *sp,
                     dse_score_index_fn score, void *ctx,
                     volatile sig_atomic_t *stop, size_t *evaluations, err *e);

#endif

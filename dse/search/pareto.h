/*
 * pareto.h — non-dominated sorting, crowding distance, finalist selection
 * and hypervolume, over points whose objectives are all to be MINIMISED
 * (callers negate objectives they maximise, such as saturation rate).
 */
#ifndef DSE_PARETO_H
#define DSE_PARETO_H

#include <stddef.h>

#define PARETO_MAX_OBJ 8

/* 1 if a dominates b: no worse in every objective, better in one. */
int pareto_dominates(const double *a, const double *b, int nobj);

/* Non-dominated sorting (Deb's fast sort, O(M N^2)): rank[i] = 0 for the
 * front, 1 for the front once the first is removed, ...  points is row-major
 * count x nobj.  Rows with a NaN objective get rank -1 and take no part.
 * Returns the number of fronts. */
int pareto_rank(const double *points, size_t count, int nobj, int *rank);

/* Crowding distance of each point within its own front (NSGA-II): boundary
 * points get INFINITY.  rank from pareto_rank. */
void pareto_crowding(const double *points, size_t count, int nobj,
                     const int *rank, double *crowding);

/* Pick up to `want` finalists: whole fronts in rank order, the last one cut
 * by decreasing crowding distance (ties by index, so the choice is
 * deterministic).  Writes indices into out (caller provides `want` slots),
 * returns how many. */
size_t pareto_select(const double *points, size_t count, int nobj,
                     size_t want, size_t *out);

/* Hypervolume dominated by the points (minimisation) and bounded by the
 * reference point ref, for nobj = 2 or 3 (exact sweep / slicing); points not
 * strictly better than ref in every objective contribute nothing.
 * Returns -1 for other nobj. */
double pareto_hypervolume(const double *points, size_t count, int nobj,
                          const double *ref);

#endif

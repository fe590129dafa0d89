/*
 * pareto.c — see pareto.h.
 *
 * The design spaces dse ranks hold thousands of points with 2-4
 * objectives, where Deb's O(M N^2) sort takes milliseconds; a divide and
 * conquer sort would be faster asymptotically but is not worth its code.
 * Hypervolume: an exact sweep in 2-D and slicing along the third objective
 * in 3-D (O(N^2 log N)), enough for comparing search strategies in
 * bench/search.
 */
#include "dse/search/pareto.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

int pareto_dominates(const double *a, const double *b, int nobj)
{
    int better = 0;
    for (int j = 0; j < nobj; j++) {
        if (a[j] > b[j])
            return 0;
        if (a[j] < b[j])
            better = 1;
    }
    return better;
}

static int has_nan(const double *p, int nobj)
{
    for (int j = 0; j < nobj; j++)
        if (isnan(p[j]))
            return 1;
    return 0;
}

int pareto_rank(const double *points, size_t count, int nobj, int *rank)
{
    /* dominated_by[i]: how many points dominate i; the lists of whom each
     * point dominates are stored flat (CSR) to avoid N small allocations. */
    size_t *dom_count = xcalloc(count, sizeof *dom_count);
    size_t *list_start = xcalloc(count + 1, sizeof *list_start);
    size_t edges = 0, cap = count * 4 + 16;
    size_t *list = xmalloc(cap * sizeof *list);
    for (size_t i = 0; i < count; i++) {
        list_start[i] = edges;
        rank[i] = -1;
        if (has_nan(points + i * nobj, nobj))
            continue;
        for (size_t j = 0; j < count; j++) {
            if (i == j || has_nan(points + j * nobj, nobj))
                continue;
            if (pareto_dominates(points + i * nobj, points + j * nobj, nobj)) {
                if (edges == cap) {
                    cap *= 2;
                    list = xrealloc(list, cap * sizeof *list);
                }
                list[edges++] = j;
            } else if (pareto_dominates(points + j * nobj, points + i * nobj,
                                        nobj)) {
                dom_count[i]++;
            }
        }
    }
    list_start[count] = edges;
    size_t *front = xmalloc((count + 1) * sizeof *front);
    size_t *next = xmalloc((count + 1) * sizeof *next);
    size_t nfront = 0;
    for (size_t i = 0; i < count; i++)
        if (!has_nan(points + i * nobj, nobj) && dom_count[i] == 0)
            front[nfront++] = i;
    int level = 0;
    while (nfront) {
        size_t nnext = 0;
        for (size_t f = 0; f < nfront; f++) {
            size_t i = front[f];
            rank[i] = level;
            for (size_t e = list_start[i]; e < list_start[i + 1]; e++)
                if (--dom_count[list[e]] == 0)
                    next[nnext++] = list[e];
        }
        memcpy(front, next, nnext * sizeof *front);
        nfront = nnext;
        level++;
    }
    free(dom_count);
    free(list_start);
    free(list);
    free(front);
    free(next);
    return level;
}

/* qsort has no context argument in C11; sort (value, index) pairs. */
typedef struct valued {
    double value;
    size_t index;
} valued;

static int cmp_valued(const void *a, const void *b)
{
    const valued *x = a, *y = b;
    if (x->value < y->value)
        return -1;
    if (x->value > y->value)
        return 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

void pareto_crowding(const double *points, size_t count, int nobj,
                     const int *rank, double *crowding)
{
    int fronts = 0;
    for (size_t i = 0; i < count; i++) {
        crowding[i] = 0;
        if (rank[i] + 1 > fronts)
            fronts = rank[i] + 1;
    }
    valued *v = xmalloc((count + 1) * sizeof *v);
    for (int r = 0; r < fronts; r++) {
        for (int j = 0; j < nobj; j++) {
            size_t m = 0;
            for (size_t i = 0; i < count; i++)
                if (rank[i] == r)
                    v[m++] = (valued){points[i * nobj + j], i};
            if (m == 0)
                continue;
            qsort(v, m, sizeof *v, cmp_valued);
            crowding[v[0].index] = INFINITY;
            crowding[v[m - 1].index] = INFINITY;
            double span = v[m - 1].value - v[0].value;
            if (!(span > 0))
                continue;
            for (size_t q = 1; q + 1 < m; q++)
                crowding[v[q].index] += (v[q + 1].value - v[q - 1].value) / span;
        }
    }
    free(v);
}

size_t pareto_select(const double *points, size_t count, int nobj,
                     size_t want, size_t *out)
{
    int *rank = xmalloc((count + 1) * sizeof *rank);
    double *crowd = xmalloc((count + 1) * sizeof *crowd);
    int fronts = pareto_rank(points, count, nobj, rank);
    pareto_crowding(points, count, nobj, rank, crowd);
    valued *v = xmalloc((count + 1) * sizeof *v);
    size_t taken = 0;
    for (int r = 0; r < fronts && taken < want; r++) {
        size_t m = 0;
        for (size_t i = 0; i < count; i++)
            if (rank[i] == r)
                /* larger crowding first: sort on the negated distance */
                v[m++] = (valued){isinf(crowd[i]) ? -INFINITY : -crowd[i], i};
        qsort(v, m, sizeof *v, cmp_valued);
        for (size_t q = 0; q < m && taken < want; q++)
            out[taken++] = v[q].index;
    }
    free(rank);
    free(crowd);
    free(v);
    return taken;
}

static int cmp_first(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* 2-D hypervolume of (x, y) pairs strictly inside ref. */
static double hv2(double *xy, size_t m, const double *ref)
{
    qsort(xy, m, 2 * sizeof *xy, cmp_first);
    double volume = 0, best_y = ref[1];
    for (size_t i = 0; i < m; i++) {
        double x = xy[2 * i], y = xy[2 * i + 1];
        if (y < best_y) {
            volume += (ref[0] - x) * (best_y - y);
            best_y = y;
        }
    }
    return volume;
}

double pareto_hypervolume(const double *points, size_t count, int nobj,
                          const double *ref)
{
    if (nobj != 2 && nobj != 3)
        return -1;
    double *in = xmalloc((count + 1) * 3 * sizeof *in);
    size_t m = 0;
    for (size_t i = 0; i < count; i++) {
        const double *p = points + i * nobj;
        int inside = !has_nan(p, nobj);
        for (int j = 0; j < nobj && inside; j++)
            if (!(p[j] < ref[j]))
                inside = 0;
        if (inside) {
            for (int j = 0; j < nobj; j++)
                in[m * nobj + j] = p[j];
            m++;
        }
    }
    double volume = 0;
    if (nobj == 2) {
        volume = hv2(in, m, ref);
    } else {
        /* slice along objective 3: between consecutive z levels the
         * dominated area is the 2-D hypervolume of the points at or below */
        double *z = xmalloc((m + 1) * sizeof *z);
        double *xy = xmalloc((m + 1) * 2 * sizeof *xy);
        for (size_t i = 0; i < m; i++)
            z[i] = in[i * 3 + 2];
        valued *order = xmalloc((m + 1) * sizeof *order);
        for (size_t i = 0; i < m; i++)
            order[i] = (valued){z[i], i};
        qsort(order, m, sizeof *order, cmp_valued);
        for (size_t s = 0; s < m; s++) {
            double z_lo = order[s].value;
            double z_hi = s + 1 < m ? order[s + 1].value : ref[2];
            if (!(z_hi > z_lo))
                continue;
            size_t q = 0;
            for (size_t t = 0; t <= s; t++) {
                size_t i = order[t].index;
                xy[2 * q] = in[i * 3];
                xy[2 * q + 1] = in[i * 3 + 1];
                q++;
            }
            volume += hv2(xy, q, ref) * (z_hi - z_lo);
        }
        free(z);
        free(xy);
        free(order);
    }
    free(in);
    return volume;
}

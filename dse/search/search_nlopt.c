/*
 * search_nlopt.c — the NLopt strategy: the epsilon-constraint method over a
 * continuous relaxation of the discrete design parameters
 * (docs/architecture.md,
 * "Search").
 *
 * Two levels.  Designs are grouped into families that share everything
 * but their VC count and buffer depth (topology, routing, switching,
 * radices, express m and kn).  The families are screened first: one
 * representative each (the most VCs and the shallowest buffer, the
 * family's best case by every model) is scored and the representatives are
 * Pareto-ranked; only families whose representative lands in the first two
 * fronts are searched further.  (bench/search measured that buffer depths
 * and whole radix families far from the front took most of the evaluations
 * of a flat search.)
 *
 * Relaxation.  Inside a family each design sits on an integer grid:
 *   x0 = position of its VC count among the family's VC counts,
 *   x1 = position of its buffer depth among the family's depths.
 * NLopt sees these as reals; f(x) rounds to the nearest grid point that
 * holds a design (L1-nearest when the rounded point is a hole), scores it
 * through the optimizer's callback and returns its objective.
 *
 * Method.  Objective 0 (the study's first) is minimised subject to
 * objective j <= eps for a sweep of eps, for every other objective j whose
 * values spread at all (under a tight budget every design costs the same,
 * so only the objectives that vary are swept).  eps takes EPS_LEVELS values
 * between the best and worst j among the representatives.  Each (family,
 * j, eps) runs COBYLA (derivative-free, handles inequality constraints)
 * from the representative, then the result is polished by discrete
 * hill-climbing over its +-1 neighbours.  Each objective is also minimised
 * alone per family so the front's extremes are found.  Unrankable designs
 * (saturated at a target rate) get a large penalty so the search walks
 * away from them.
 *
 * Rejected: a global algorithm (ISRES, DIRECT) over all parameters at once;
 * with categorical axes and piecewise-constant objectives it spends its
 * evaluations on rounding artefacts.  Evaluations are counted as distinct
 * designs scored: a repeated point costs nothing (memoised by the caller).
 */
#include "dse/search/search.h"

#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"
#include "net/xalloc.h"
#include "dse/search/optimize.h"
#include "dse/search/pareto.h"

#define EPS_LEVELS 10
#define COBYLA_MAXEVAL 40
#define PENALTY 1e12
#define MAX_AXES 2
#define KEEP_FRONTS 2     /* families whose representative is in these fronts */

typedef struct category {
    size_t *members;         /* design indices of the space */
    size_t count;
    int axis_len[MAX_AXES];  /* values per axis */
    int naxes;
    int (*coord)[MAX_AXES];  /* per member: integer coordinates */
} category;

typedef struct search_state {
    const cfg_study *s;
    const dse_space *sp;
    dse_score_index_fn score;
    void *ctx;
    volatile sig_atomic_t *stop;
    size_t distinct;
    unsigned char *seen;
    category *cats;
    size_t ncats;
    /* the current sub-problem */
    const category *cat;
    int obj;                 /* objective minimised */
    int con;                 /* constrained objective, -1 none */
    double eps;
} search_state;

/* ---- categories and coordinates ------------------------------------------ */

static int same_category(const net_design *a, const net_design *b)
{
    if (a->topology != b->topology || a->routing != b->routing ||
        a->switching != b->switching || a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->k[i] != b->k[i])
            return 0;
    return net_design_params_equal(a, b);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorted distinct values; returns the count. */
static int distinct_ints(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

static int index_of(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return 0;
}

static void build_coordinates(const dse_space *sp, category *c)
{
    const net_design *d = sp->designs;
    int n = (int)c->count;
    c->coord = xcalloc(c->count + 1, sizeof *c->coord);
    int *vals = xmalloc((size_t)(n + 1) * sizeof *vals);
    for (int axis = 0; axis < MAX_AXES; axis++) {
        for (int q = 0; q < n; q++)
            vals[q] = axis == 0 ? d[c->members[q]].vcs
                                : d[c->members[q]].buffer_flits;
        int m = distinct_ints(vals, n);
        for (int q = 0; q < n; q++)
            c->coord[q][axis] = index_of(vals, m,
                                         axis == 0 ? d[c->members[q]].vcs
                                                   : d[c->members[q]].buffer_flits);
        c->axis_len[axis] = m;
    }
    free(vals);
    c->naxes = MAX_AXES;
}

static void build_categories(search_state *st)
{
    const dse_space *sp = st->sp;
    size_t *cat_of = xmalloc((sp->count + 1) * sizeof *cat_of);
    st->cats = NULL;
    st->ncats = 0;
    for (size_t i = 0; i < sp->count; i++) {
        size_t c = 0;
        while (c < st->ncats &&
               !same_category(&sp->designs[st->cats[c].members[0]], &sp->designs[i]))
            c++;
        if (c == st->ncats) {
            st->cats = xrealloc(st->cats, (st->ncats + 1) * sizeof *st->cats);
            memset(&st->cats[c], 0, sizeof st->cats[c]);
            st->cats[c].members = xmalloc(sizeof(size_t));
            st->ncats++;
        }
        category *k = &st->cats[c];
        k->members = xrealloc(k->members, (k->count + 1) * sizeof *k->members);
        k->members[k->count++] = i;
        cat_of[i] = c;
    }
    for (size_t c = 0; c < st->ncats; c++)
        build_coordinates(sp, &st->cats[c]);
    free(cat_of);
}

/* Member of the category nearest (L1, ties to the lower index) to x. */
static size_t nearest_member(const category *c, const double *x)
{
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t q = 0; q < c->count; q++) {
        double d = 0;
        for (int a = 0; a < c->naxes; a++)
            d += fabs(round(x[a]) - c->coord[q][a]) * 4 + fabs(x[a] - c->coord[q][a]);
        if (d < best_d) {
            best_d = d;
            best = q;
        }
    }
    return best;
}

/* ---- scoring through the optimizer ----------------------------------------- */

static const dse_candidate *score(search_state *st, size_t design)
{
    if (!st->seen[design]) {
        st->seen[design] = 1;
        st->distinct++;
    }
    return st->score(st->ctx, design);
}

static double objective_value(const dse_candidate *c, int j)
{
    double v = c->objectives[j];
    return isnan(v) ? PENALTY : v;
}

static double f_objective(unsigned n, const double *x, double *grad, void *data)
{
    (void)n;
    (void)grad; /* COBYLA is derivative-free */
    search_state *st = data;
    if (st->stop && *st->stop)
        return PENALTY;
    size_t q = nearest_member(st->cat, x);
    return objective_value(score(st, st->cat->members[q]), st->obj);
}

static double f_constraint(unsigned n, const double *x, double *grad, void *data)
{
    (void)n;
    (void)grad;
    search_state *st = data;
    size_t q = nearest_member(st->cat, x);
    return objective_value(score(st, st->cat->members[q]), st->con) - st->eps;
}

/* Is member q better than member b for the current sub-problem? */
static int better(search_state *st, size_t q, size_t b)
{
    const dse_candidate *cq = score(st, st->cat->members[q]);
    const dse_candidate *cb = score(st, st->cat->members[b]);
    int okq = st->con < 0 || objective_value(cq, st->con) <= st->eps;
    int okb = st->con < 0 || objective_value(cb, st->con) <= st->eps;
    if (okq != okb)
        return okq;
    return objective_value(cq, st->obj) < objective_value(cb, st->obj);
}

/* Discrete polish: move to the best +-1 neighbour while it improves. */
static void polish(search_state *st, size_t q)
{
    const category *c = st->cat;
    for (int steps = 0; steps < 64 && !(st->stop && *st->stop); steps++) {
        size_t best = q;
        for (size_t r = 0; r < c->count; r++) {
            int dist = 0;
            for (int a = 0; a < c->naxes; a++)
                dist += abs(c->coord[r][a] - c->coord[q][a]);
            if (dist == 1 && better(st, r, best))
                best = r;
        }
        if (best == q)
            return;
        q = best;
    }
}

static int run_subproblem(search_state *st, size_t start, err *e)
{
    const category *c = st->cat;
    double x[MAX_AXES], lb[MAX_AXES], ub[MAX_AXES];
    for (int a = 0; a < c->naxes; a++) {
        x[a] = c->coord[start][a];
        lb[a] = 0;
        ub[a] = c->axis_len[a] - 1;
    }
    int moving = 0;
    for (int a = 0; a < c->naxes; a++)
        moving |= ub[a] > lb[a];
    if (moving) {
        nlopt_opt opt = nlopt_create(NLOPT_LN_COBYLA, (unsigned)c->naxes);
        if (!opt)
            return err_set(e, ERR_NLOPT, "NLopt: cannot create COBYLA");
        nlopt_set_lower_bounds(opt, lb);
        nlopt_set_upper_bounds(opt, ub);
        nlopt_set_min_objective(opt, f_objective, st);
        if (st->con >= 0)
            nlopt_add_inequality_constraint(opt, f_constraint, st, 0);
        nlopt_set_initial_step1(opt, 1.0);
        nlopt_set_xtol_abs1(opt, 0.25);
        nlopt_set_maxeval(opt, COBYLA_MAXEVAL);
        double fx;
        nlopt_result res = nlopt_optimize(opt, x, &fx);
        nlopt_destroy(opt);
        /* Rounding makes the landscape flat in places, which COBYLA can
         * report as a roundoff-limited stop: the point is still usable. */
        if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED && res != NLOPT_FORCED_STOP)
            return err_set(e, ERR_NLOPT, "NLopt COBYLA failed (code %d)", (int)res);
    }
    polish(st, nearest_member(c, x));
    return 0;
}

int dse_search_nlopt(const cfg_study *s, const dse_space *sp,
                     dse_score_index_fn score_fn, void *ctx,
                     volatile sig_atomic_t *stop, size_t *evaluations, err *e)
{
    search_state st = {.s = s, .sp = sp, .score = score_fn, .ctx = ctx,
                       .stop = stop};
    st.seen = xcalloc(sp->count + 1, 1);
    build_categories(&st);
    int rc = 0;
    int nobj = (int)s->nobjectives;
    double lo[CFG_MAX_OBJECTIVES], hi[CFG_MAX_OBJECTIVES];
    for (int j = 0; j < nobj; j++) {
        lo[j] = INFINITY;
        hi[j] = -INFINITY;
    }
    /* Screening: the representative of each family is its most VCs and
     * shallowest buffer (the top of axis 0, the bottom of axis 1). */
    size_t *rep = xcalloc(st.ncats + 1, sizeof *rep);
    double *pts = xmalloc((st.ncats + 1) * (size_t)nobj * sizeof *pts);
    int *rank = xmalloc((st.ncats + 1) * sizeof *rank);
    for (size_t c = 0; c < st.ncats && !(stop && *stop); c++) {
        category *k = &st.cats[c];
        double corner[MAX_AXES] = {k->axis_len[0] - 1, 0};
        rep[c] = nearest_member(k, corner);
        const dse_candidate *cd = score(&st, k->members[rep[c]]);
        memcpy(pts + c * nobj, cd->objectives, (size_t)nobj * sizeof *pts);
        for (int j = 0; j < nobj; j++)
            if (!isnan(cd->objectives[j])) {
                lo[j] = fmin(lo[j], cd->objectives[j]);
                hi[j] = fmax(hi[j], cd->objectives[j]);
            }
    }
    pareto_rank(pts, st.ncats, nobj, rank);
    for (size_t c = 0; c < st.ncats && rc == 0; c++) {
        if (rank[c] < 0 || rank[c] >= KEEP_FRONTS)
            continue;
        st.cat = &st.cats[c];
        /* every objective alone: the front's extremes */
        for (int j = 0; j < nobj && rc == 0; j++) {
            st.obj = j;
            st.con = -1;
            rc = run_subproblem(&st, rep[c], e);
        }
        /* the epsilon-constraint sweeps */
        st.obj = 0;
        for (int con = 1; con < nobj && rc == 0; con++) {
            if (!(hi[con] > lo[con]))
                continue;
            st.con = con;
            for (int l = 0; l < EPS_LEVELS && rc == 0; l++) {
                st.eps = lo[con] + (hi[con] - lo[con]) * (l + 0.5) / EPS_LEVELS;
                rc = run_subproblem(&st, rep[c], e);
            }
        }
        if (stop && *stop)
            rc = ERR_INTERRUPTED;
    }
    if (rc == 0 && stop && *stop)
        rc = ERR_INTERRUPTED;
    free(rep);
    free(pts);
    free(rank);
    *evaluations = st.distinct;
    for (size_t c = 0; c < st.ncats; c++) {
        free(st.cats[c].members);
        free(st.cats[c].coord);
    }
    free(st.cats);
    free(st.seen);
    return rc;
}

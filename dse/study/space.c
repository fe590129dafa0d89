/*
 * space.c — enumerate a study's design space (see space.h for the order).
 *
 * Design.  The space is the Cartesian product of the study's axes, walked
 * by plain nested loops so the order is obvious and stable.  Each
 * combination is classified by a fixed sequence of checks, the first that
 * fails naming its drop reason: structural (can the topology hold N nodes
 * with this n and radix), routing applicability, the topology's radix
 * rules, express-cube group size, the VC minimum for deadlock freedom,
 * net_check as a catch-all, then the budget (cons_max_width sets the
 * width), the traffic (net_workload_check) and last the analytic-model
 * coverage (model_for).  The specific checks run before net_check so that a
 * reason is a category, not a parse of net_check's message; net_check then
 * still guards everything they do not cover.
 *
 * Rejected alternative: enumerating only feasible designs directly (radices
 * that divide, VC counts from the minimum).  It is faster but could not say
 * why the space is smaller than the user expected, which is what
 * `dse check` is for.
 *
 * "all" routings expand, per topology and n, to the schemes that apply
 * (cfg_routing_applies), so "all" never counts the nonsense combinations
 * (pcube on a torus) as dropped; a routing the study names explicitly that
 * does not apply is counted under DSE_DROP_ROUTING.
 *
 * Ownership: dse_space owns designs[] and models[] (the model pointers
 * themselves are static registry entries).
 */
#include "dse/study/space.h"

#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/cons.h"
#include "net/topology.h"
#include "net/xalloc.h"

#define DROP_TEXT_(e, text) text,
static const char *const drop_texts[] = {DSE_DROP_LIST(DROP_TEXT_)};
#undef DROP_TEXT_

const char *dse_drop_text(dse_drop r)
{
    return (unsigned)r < DSE_DROP_COUNT ? drop_texts[r] : "?";
}

/* ---- radices ------------------------------------------------------------ */

static size_t factor_rec(long rest, int n, int depth, long maxf, int *cur,
                         int *out, size_t max, size_t found)
{
    int left = n - depth;
    if (left == 1) {
        if (rest < 2 || rest > maxf)
            return found;
        cur[depth] = (int)rest;
        if (found < max)
            memcpy(out + found * (size_t)n, cur, (size_t)n * sizeof *cur);
        return found + 1;
    }
    for (long f = maxf < rest ? maxf : rest; f >= 2; f--) {
        if (rest % f)
            continue;
        long r = rest / f;
        /* the other left-1 radices lie in [2, f] */
        if (r < (1L << (left - 1)) || pow((double)f, left - 1) < (double)r)
            continue;
        cur[depth] = (int)f;
        found = factor_rec(r, n, depth + 1, f, cur, out, max, found);
    }
    return found;
}

size_t dse_space_factorisations(long nodes, int n, int *radices, size_t max)
{
    int cur[NET_MAX_DIMS];
    if (n < 1 || n > NET_MAX_DIMS || nodes < 2)
        return 0;
    return factor_rec(nodes, n, 0, nodes, cur, radices, radices ? max : 0, 0);
}

/* k with k^n == nodes, or 0. */
static long uniform_radix(long nodes, int n)
{
    long k = lround(pow((double)nodes, 1.0 / n));
    for (long cand = k > 2 ? k - 1 : 2; cand <= k + 1; cand++) {
        long p = 1;
        int i;
        for (i = 0; i < n && p <= nodes; i++)
            p *= cand;
        if (i == n && p == nodes)
            return cand;
    }
    return 0;
}

/* The one n of a topology with a fixed radix r: log_r N, rounded down
 * when N is not a power of r (every design is dropped then anyway). */
static int fixed_dims(net_topology t, long nodes)
{
    int r = net_topology_get(t)->fixed_radix;
    int n = 0;
    while (nodes >= r) {
        nodes /= r;
        n++;
    }
    return n;
}

/* ---- the walk ----------------------------------------------------------- */

typedef struct walk {
    const cfg_study *s;
    dse_space *sp;
    net_workload workload;
    const volatile sig_atomic_t *stop;  /* may be NULL */
    int stopped;
} walk;

/* Polled once per radix option and per routing: a huge space (mixed
 * radices of a large N) stops within a fraction of a second of a signal. */
static int should_stop(walk *w)
{
    if (w->stop && *w->stop)
        w->stopped = 1;
    return w->stopped;
}

static void push(dse_space *sp, const net_design *d, const model *m)
{
    if (sp->count == sp->capacity) {
        sp->capacity = sp->capacity ? 2 * sp->capacity : 256;
        sp->designs = xrealloc(sp->designs,
                               sp->capacity * sizeof *sp->designs);
        sp->models = xrealloc(sp->models, sp->capacity * sizeof *sp->models);
    }
    sp->designs[sp->count] = *d;
    sp->models[sp->count] = m;
    sp->count++;
    sp->feasible_by_topology[d->topology]++;
}

/* Count a drop; remember the first example of each reason. */
static void drop(dse_space *sp, dse_drop r, const char *what,
                 const char *why)
{
    sp->dropped[r]++;
    if (sp->example[r][0])
        return;
    /* truncation is fine here: the example is a hint for the reader */
    int used = snprintf(sp->example[r], sizeof sp->example[r], "%s", what);
    if (used >= 0 && (size_t)used + 2 < sizeof sp->example[r])
        snprintf(sp->example[r] + used, sizeof sp->example[r] - (size_t)used,
                 ": %s", why);
}

/* 1 if d at width w is within every bound of the area budget. */
static int area_fits(const cfg_area_budget *a, net_design *d, int w)
{
    int keep = d->width;
    d->width = w;
    cons_cost c;
    int rc = cons_cost_of(d, &c, NULL);
    d->width = keep;
    return !rc && (a->buffer_bits <= 0 || c.buffer_bits <= a->buffer_bits) &&
           (a->crossbar_area <= 0 || c.crossbar_area <= a->crossbar_area) &&
           (a->wire_length <= 0 || c.wire_length <= a->wire_length);
}

/* Narrow *width (the widest the wire or pin budget allows) to the widest
 * that also fits the area budget: every term grows with the width, so a
 * bisection over [1, *width].  0, or ERR_INFEASIBLE with why when even one
 * wire does not fit. */
static int fit_area(const cfg_area_budget *a, net_design *d, int *width,
                    err *why)
{
    if (a->buffer_bits <= 0 && a->crossbar_area <= 0 && a->wire_length <= 0)
        return 0;
    if (area_fits(a, d, *width))
        return 0;
    if (!area_fits(a, d, 1))
        return err_set(why, ERR_INFEASIBLE, "even 1-wire channels exceed "
                       "budget.area");
    int lo = 1, hi = *width; /* lo fits, hi does not */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (area_fits(a, d, mid))
            lo = mid;
        else
            hi = mid;
    }
    *width = lo;
    return 0;
}

/* Classify one complete design (radices already valid in count and
 * product); keep it or count why not. */
static void visit(walk *w, net_design *d, cfg_routing r)
{
    dse_space *sp = w->sp;
    char text[256];
    err why;
    err_clear(&why);
    net_design_format(d, text, sizeof text);

    if (!cfg_routing_applies(r, d->topology, d->n)) {
        snprintf(why.msg, sizeof why.msg, "%s routing does not apply to a "
                 "%d-D %s", cfg_routing_name(r), d->n,
                 net_topology_name(d->topology));
        drop(sp, DSE_DROP_ROUTING, text, why.msg);
        return;
    }
    const net_topology_info *topo = net_topology_get(d->topology);
    for (int i = 0; i < d->n; i++)
        if (d->k[i] < topo->min_radix) {
            snprintf(why.msg, sizeof why.msg,
                     "radix %d in dimension %d: %s %ss need k >= %d", d->k[i],
                     i, net_topology_name(d->topology), topo->dim_shape,
                     topo->min_radix);
            drop(sp, DSE_DROP_RADIX, text, why.msg);
            return;
        }
    if (topo->check_params && topo->check_params(d, &why)) {
        drop(sp, DSE_DROP_PARAMS, text, why.msg);
        return;
    }
    int min_vcs = net_min_vcs(d);
    if (min_vcs >= 0 && d->vcs < min_vcs) {
        snprintf(why.msg, sizeof why.msg, "%s routing on this %s needs %d "
                 "VCs", cfg_routing_name(r), net_topology_name(d->topology),
                 min_vcs);
        drop(sp, DSE_DROP_VCS, text, why.msg);
        return;
    }
    if (net_check(d, &why)) {
        drop(sp, DSE_DROP_INVALID, text, why.msg);
        return;
    }
    int width;
    int rc = cons_max_width(d, &w->s->budget, &width, &why);
    if (rc) {
        drop(sp, rc == ERR_INFEASIBLE ? DSE_DROP_WIDTH : DSE_DROP_COST, text,
             why.msg);
        return;
    }
    rc = fit_area(&w->s->area, d, &width, &why);
    if (rc) {
        drop(sp, DSE_DROP_AREA, text, why.msg);
        return;
    }
    d->width = width;
    /* the router's delay depends on the width (Peh and Dally's crossbar),
     * so it is priced last */
    if (phys_timing_apply(d, &w->s->router, &why)) {
        drop(sp, DSE_DROP_ROUTER, text, why.msg);
        return;
    }
    net_design_format(d, text, sizeof text);
    if (net_workload_check(d, &w->workload, &why)) {
        drop(sp, DSE_DROP_WORKLOAD, text, why.msg);
        return;
    }
    char reasons[512];
    const model *m = model_for(d, &w->workload, reasons, sizeof reasons);
    if (!m) {
        if (w->s->space.require_model) {
            drop(sp, DSE_DROP_NO_MODEL, text, reasons);
            return;
        }
        sp->unmodelled++;
    }
    push(sp, d, m);
}

/* The values of d's topology's own parameters, as an odometer over the
 * study's axes: the last parameter varies fastest.  Returns 0 when every
 * combination has been visited. */
static int params_next(const cfg_space *q, net_topology t,
                       size_t at[NET_PARAM_COUNT])
{
    for (int p = NET_PARAM_COUNT - 1; p >= 0; p--) {
        if (!net_param_applies(t, (net_param)p))
            continue;
        if (++at[p] < q->params[p].n)
            return 1;
        at[p] = 0;
    }
    return 0;
}

/* Combinations of the topology's own parameters in the study. */
static double params_combos(const cfg_space *q, net_topology t)
{
    double c = 1;
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        if (net_param_applies(t, (net_param)p))
            c *= (double)q->params[p].n;
    return c;
}

/* Every (routing, vcs, buffer, topology parameters) for one radix option;
 * `bad` >= 0 drops them all for that structural reason. */
static void walk_rest(walk *w, const net_design *base, int bad,
                      const char *bad_why)
{
    const cfg_study *s = w->s;
    const cfg_space *q = &s->space;
    net_topology t = base->topology;
    char what[128];
    snprintf(what, sizeof what, "topology=%s n=%d", net_topology_name(t),
             base->n);
    for (size_t ri = 0; ri < q->nroutings && !should_stop(w); ri++) {
        cfg_routing r = q->routings[ri];
        if (q->routings_all && !cfg_routing_applies(r, t, base->n))
            continue;
        for (size_t vi = 0; vi < q->vcs.n; vi++)
            for (size_t bi = 0; bi < q->buffer_flits.n; bi++) {
                size_t at[NET_PARAM_COUNT] = {0};
                do {
                    w->sp->enumerated++;
                    w->sp->enumerated_by_topology[t]++;
                    if (bad >= 0) {
                        drop(w->sp, (dse_drop)bad, what, bad_why);
                        continue;
                    }
                    net_design d = *base;
                    cfg_routing_apply(r, &d);
                    d.vcs = q->vcs.v[vi];
                    d.buffer_flits = q->buffer_flits.v[bi];
                    for (int p = 0; p < NET_PARAM_COUNT; p++)
                        if (net_param_applies(t, (net_param)p))
                            net_param_set_value(&d, (net_param)p,
                                                q->params[p].v[at[p]]);
                    d.width = 1;
                    visit(w, &d, r);
                } while (params_next(q, t, at));
            }
    }
}

static void walk_dimension(walk *w, net_topology t, int n)
{
    long nodes = w->s->nodes;
    net_design base;
    cfg_study_design_base(w->s, &base);
    base.topology = t;
    char why[160];
    int fixed = net_topology_get(t)->fixed_radix;
    if (fixed) {
        net_design_set_radix(&base, n, fixed);
        if (net_topology_fixed_dims(t, nodes) < 0) {
            snprintf(why, sizeof why, "%ld nodes", nodes);
            walk_rest(w, &base, DSE_DROP_NOT_POW2, why);
            return;
        }
        walk_rest(w, &base, -1, NULL);
        return;
    }
    if (!w->s->space.mixed_radices) {
        long k = uniform_radix(nodes, n);
        net_design_set_radix(&base, n, k ? (int)k : 2);
        if (!k) {
            snprintf(why, sizeof why, "no integer k with k^%d = %ld", n,
                     nodes);
            walk_rest(w, &base, DSE_DROP_NOT_PERFECT_POWER, why);
            return;
        }
        walk_rest(w, &base, -1, NULL);
        return;
    }
    size_t count = dse_space_factorisations(nodes, n, NULL, 0);
    if (!count) {
        net_design_set_radix(&base, n, 2);
        snprintf(why, sizeof why, "%ld is not a product of %d radices >= 2",
                 nodes, n);
        walk_rest(w, &base, DSE_DROP_NO_FACTORISATION, why);
        return;
    }
    int *radices = xmalloc(count * (size_t)n * sizeof *radices);
    dse_space_factorisations(nodes, n, radices, count);
    for (size_t f = 0; f < count && !should_stop(w); f++) {
        base.n = n;
        for (int i = 0; i < NET_MAX_DIMS; i++)
            base.k[i] = i < n ? radices[f * (size_t)n + (size_t)i] : 0;
        walk_rest(w, &base, -1, NULL);
    }
    free(radices);
}

int dse_space_build(const cfg_study *s, dse_space *out, err *e)
{
    return dse_space_build_stoppable(s, out, NULL, e);
}

int dse_space_build_stoppable(const cfg_study *s, dse_space *out,
                              const volatile sig_atomic_t *stop, err *e)
{
    memset(out, 0, sizeof *out);
    int rc = cons_budget_limit(&s->budget, &out->budget_limit, e);
    if (rc) {
        err_prefix(e, "budget");
        return rc;
    }
    walk w = {s, out, s->workload, stop, 0};
    for (size_t ti = 0; ti < s->space.ntopologies; ti++) {
        net_topology t = s->space.topologies[ti];
        if (net_topology_get(t)->fixed_radix) {
            walk_dimension(&w, t, fixed_dims(t, s->nodes));
            continue;
        }
        for (size_t di = 0; di < s->space.dimensions.n; di++)
            walk_dimension(&w, t, s->space.dimensions.v[di]);
    }
    if (w.stopped)
        return err_set(e, ERR_INTERRUPTED,
                       "interrupted while enumerating the design space");
    return 0;
}

/* Combinations of one (topology, n) radix option: what walk_rest visits. */
static double combos_rest(const cfg_study *s, net_topology t, int n)
{
    const cfg_space *q = &s->space;
    double routings = 0;
    for (size_t ri = 0; ri < q->nroutings; ri++)
        if (!q->routings_all || cfg_routing_applies(q->routings[ri], t, n))
            routings++;
    return routings * (double)q->vcs.n * (double)q->buffer_flits.n *
           params_combos(q, t);
}

/* Radix options of (topology, n) as walk_dimension has them. */
static double radix_options(const cfg_study *s, net_topology t, int n)
{
    if (net_topology_get(t)->fixed_radix || !s->space.mixed_radices)
        return 1;
    size_t count = dse_space_factorisations(s->nodes, n, NULL, 0);
    return count ? (double)count : 1;
}

double dse_space_enumerated(const cfg_study *s)
{
    double total = 0;
    for (size_t ti = 0; ti < s->space.ntopologies; ti++) {
        net_topology t = s->space.topologies[ti];
        if (net_topology_get(t)->fixed_radix) {
            int n = fixed_dims(t, s->nodes);
            total += radix_options(s, t, n) * combos_rest(s, t, n);
            continue;
        }
        for (size_t di = 0; di < s->space.dimensions.n; di++) {
            int n = s->space.dimensions.v[di];
            total += radix_options(s, t, n) * combos_rest(s, t, n);
        }
    }
    return total;
}

void dse_space_fini(dse_space *sp)
{
    if (!sp)
        return;
    free(sp->designs);
    free(sp->models);
    memset(sp, 0, sizeof *sp);
}

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
#include <stdlib.h>
#include <string.h>

#include "constraints/cons.h"
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

static int log2_floor(long x)
{
    int n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* ---- the walk ----------------------------------------------------------- */

typedef struct walk {
    const cfg_study *s;
    dse_space *sp;
    net_workload workload;
} walk;

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
    if (d->topology == NET_TORUS || d->topology == NET_EXPRESS)
        for (int i = 0; i < d->n; i++)
            if (d->k[i] < 3) {
                snprintf(why.msg, sizeof why.msg,
                         "radix %d in dimension %d: %s rings need k >= 3",
                         d->k[i], i, net_topology_name(d->topology));
                drop(sp, DSE_DROP_RADIX, text, why.msg);
                return;
            }
    if (d->topology == NET_EXPRESS)
        for (int i = 0; i < d->n; i++)
            if (d->k[i] % d->express_kn || d->k[i] < 2 * d->express_kn) {
                snprintf(why.msg, sizeof why.msg,
                         "kn = %d does not divide radix %d into >= 2 groups",
                         d->express_kn, d->k[i]);
                drop(sp, DSE_DROP_EXPRESS_KN, text, why.msg);
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
    d->width = width;
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

/* Every (routing, vcs, buffer, m, kn) for one radix option; `bad` >= 0
 * drops them all for that structural reason. */
static void walk_rest(walk *w, const net_design *base, int bad,
                      const char *bad_why)
{
    const cfg_study *s = w->s;
    const cfg_space *q = &s->space;
    int express = base->topology == NET_EXPRESS;
    size_t nm = express ? q->express_m.n : 1;
    size_t nkn = express ? q->express_kn.n : 1;
    char what[128];
    snprintf(what, sizeof what, "topology=%s n=%d",
             net_topology_name(base->topology), base->n);
    for (size_t ri = 0; ri < q->nroutings; ri++) {
        cfg_routing r = q->routings[ri];
        if (q->routings_all && !cfg_routing_applies(r, base->topology, base->n))
            continue;
        for (size_t vi = 0; vi < q->vcs.n; vi++)
            for (size_t bi = 0; bi < q->buffer_flits.n; bi++)
                for (size_t mi = 0; mi < nm; mi++)
                    for (size_t ki = 0; ki < nkn; ki++) {
                        w->sp->enumerated++;
                        w->sp->enumerated_by_topology[base->topology]++;
                        if (bad >= 0) {
                            drop(w->sp, (dse_drop)bad, what, bad_why);
                            continue;
                        }
                        net_design d = *base;
                        cfg_routing_apply(r, &d);
                        d.vcs = q->vcs.v[vi];
                        d.buffer_flits = q->buffer_flits.v[bi];
                        if (express) {
                            d.express_m = q->express_m.v[mi];
                            d.express_kn = q->express_kn.v[ki];
                        }
                        d.width = 1;
                        visit(w, &d, r);
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
    if (t == NET_HYPERCUBE) {
        if (nodes & (nodes - 1)) {
            net_design_set_radix(&base, n, 2);
            snprintf(why, sizeof why, "%ld nodes", nodes);
            walk_rest(w, &base, DSE_DROP_NOT_POW2, why);
            return;
        }
        net_design_set_radix(&base, n, 2);
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
    for (size_t f = 0; f < count; f++) {
        base.n = n;
        for (int i = 0; i < NET_MAX_DIMS; i++)
            base.k[i] = i < n ? radices[f * (size_t)n + (size_t)i] : 0;
        walk_rest(w, &base, -1, NULL);
    }
    free(radices);
}

int dse_space_build(const cfg_study *s, dse_space *out, err *e)
{
    memset(out, 0, sizeof *out);
    int rc = cons_budget_limit(&s->budget, &out->budget_limit, e);
    if (rc) {
        err_prefix(e, "budget");
        return rc;
    }
    walk w = {s, out, s->workload};
    for (size_t ti = 0; ti < s->space.ntopologies; ti++) {
        net_topology t = s->space.topologies[ti];
        if (t == NET_HYPERCUBE) {
            /* one n: log2 N (floor when N is not a power of two, where
             * every design is dropped anyway) */
            walk_dimension(&w, t, log2_floor(s->nodes));
            continue;
        }
        for (size_t di = 0; di < s->space.dimensions.n; di++)
            walk_dimension(&w, t, s->space.dimensions.v[di]);
    }
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
    double c = routings * (double)q->vcs.n * (double)q->buffer_flits.n;
    if (t == NET_EXPRESS)
        c *= (double)q->express_m.n * (double)q->express_kn.n;
    return c;
}

/* Radix options of (topology, n) as walk_dimension has them. */
static double radix_options(const cfg_study *s, net_topology t, int n)
{
    if (t == NET_HYPERCUBE || !s->space.mixed_radices)
        return 1;
    size_t count = dse_space_factorisations(s->nodes, n, NULL, 0);
    return count ? (double)count : 1;
}

double dse_space_enumerated(const cfg_study *s)
{
    double total = 0;
    for (size_t ti = 0; ti < s->space.ntopologies; ti++) {
        net_topology t = s->space.topologies[ti];
        if (t == NET_HYPERCUBE) {
            int n = log2_floor(s->nodes);
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

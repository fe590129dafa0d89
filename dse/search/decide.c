/*
 * decide.c — see decide.h.
 *
 * Conservative in one direction only: a design leaves the race when a
 * simulated design is at least as good as the *best* this design could
 * possibly be (its model widened by the model's worst measured error,
 * bounded by physics), compared with the *worst* end of the simulated
 * design's confidence interval.  So a wrong model can delay the decision
 * (more simulation) but, within its measured error, cannot hide a better
 * design.  A model's band is used only inside the regime its validation
 * set-ups span (bands.h, dse_band_covers); every other design (no model,
 * an unmeasured model, a regime never validated) rests on the physical
 * screen alone, which holds for any network: exact zero-load latency and
 * the channel-load bound.  The report says which design rests on which.
 *
 * Determinism: every choice is made from figures in index order, with ties
 * broken by index; the oracle's results depend only on the designs and the
 * study, so a run is the same on any thread count and on the farm.
 */
#include "dse/search/decide.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/common/bands.h"
#include "dse/search/pareto.h"
#include "models/model.h"
#include "net/topology.h"
#include "net/xalloc.h"
#include "sim/sim.h"

#define MAX_DISAGREEMENTS 200

static int has_objective(const cfg_study *s, cfg_objective_kind k)
{
    for (size_t j = 0; j < s->nobjectives; j++)
        if (s->objectives[j].kind == k)
            return 1;
    return 0;
}

static double cost_of(const dse_candidate *c, cfg_cost_metric m)
{
    return dse_cost_metric(&c->cost, m);
}

void dse_decide_bounds(const cfg_study *s, dse_candidate *c)
{
    model_bound b;
    c->bound_rate = c->exact_zero_load = c->min_zero_load = NAN;
    if (model_bound_compute(&c->design, &s->workload, &b, NULL) == 0) {
        /* in cycles of the design's own clock: into reference cycles */
        double scale = dse_clock_scale(c);
        c->bound_rate = b.rate / scale;
        c->exact_zero_load = b.zero_load * scale;
        c->min_zero_load = b.min_zero_load * scale;
    }
    const dse_band *band =
        dse_band_for(c->model ? c->model->name : NULL,
                     model_variant_name(s->model.variant));
    c->band_measured = band->setups > 0;
    /* The band is a bound only where it was measured: a model inside the
     * regime of its validation set-ups; elsewhere (and without a model)
     * the physical screen alone. */
    c->band_covers = c->band_measured && c->model &&
                     dse_band_covers(c->model->name, &c->design, &s->workload);
    double opt = INFINITY;
    if (c->band_covers && isfinite(c->saturation_rate) &&
        band->sat_ratio_lo > 0)
        opt = c->saturation_rate / band->sat_ratio_lo;
    if (isfinite(c->bound_rate))
        opt = fmin(opt, c->bound_rate);
    /* A probe of the saturation search that saw the backlog grow is the
     * evidence a search's upper end rests on: a measurement, not a model. */
    if (c->probe_unstable && c->probe_rate > 0)
        opt = fmin(opt, c->probe_rate);
    c->opt_saturation = opt;
    c->dominated_by = -1;
    if (!c->sim)
        c->sim_saturation = c->sim_saturation_lo = c->sim_saturation_hi = NAN;
}

int dse_check_sim_saturation(dse_candidate *c)
{
    double b = c->bound_rate;
    double lo = isfinite(c->sim_saturation_lo) ? c->sim_saturation_lo
                                               : c->sim_saturation;
    c->sim_above_bound = isfinite(b) && lo > b;
    return c->sim_above_bound;
}

double dse_optimistic_latency(const cfg_study *s, const dse_candidate *c,
                              size_t ri)
{
    double rate = s->rates.v[ri];
    if (!(rate < c->opt_saturation))
        return INFINITY;
    double floor_latency = isfinite(c->exact_zero_load) ? c->exact_zero_load
                           : isfinite(c->zero_load)     ? c->zero_load
                                                        : 0;
    if (!c->band_covers || !isfinite(c->latency[ri]))
        return floor_latency;   /* no trusted model figure: physics only */
    const dse_band *band =
        dse_band_for(c->model ? c->model->name : NULL,
                     model_variant_name(s->model.variant));
    return fmax(floor_latency, c->latency[ri] * band->lat_ratio_lo);
}

/* A percentile's optimistic bound.  Not the mean's: a percentile can lie
 * below the mean (a few very slow messages raise the mean only), so
 * neither the exact zero-load latency nor the model's band bounds it.
 * Every message takes at least its own zero-load latency, so every
 * percentile is at least the smallest of those (min_zero_load), and the
 * histogram reports it at most SIM_PERCENTILE_REL_ERR below. */
double dse_optimistic_figure(const cfg_study *s, const dse_candidate *c,
                             size_t ri, cfg_latency_stat st)
{
    if (st == CFG_LAT_MEAN)
        return dse_optimistic_latency(s, c, ri);
    if (!(s->rates.v[ri] < c->opt_saturation))
        return INFINITY;
    return isfinite(c->min_zero_load)
               ? c->min_zero_load * (1 - SIM_PERCENTILE_REL_ERR)
               : 0;
}

/* The simulated latency figure st at rate ri, at the pessimistic end of
 * its CI; INFINITY when the design saturated there or was not measured. */
static double sim_worst(const dse_candidate *y, size_t ri,
                        cfg_latency_stat st)
{
    if (!y->sim)
        return INFINITY;
    double hw, v = dse_point_latency(&y->sim[ri], st, &hw);
    if (!isfinite(v))
        return INFINITY;
    return v + (isfinite(hw) ? hw : 0);
}

/* y costs no more than x on every cost objective of the study. */
static int costs_no_more(const cfg_study *s, const dse_candidate *y,
                         const dse_candidate *x)
{
    for (size_t j = 0; j < s->nobjectives; j++) {
        cfg_cost_metric m = s->objectives[j].cost;
        if (s->objectives[j].kind == CFG_OBJ_COST &&
            cost_of(y, m) > cost_of(x, m))
            return 0;
    }
    return 1;
}

/* y's simulated latency figures at rate ri (the pessimistic end of each
 * interval) are no higher than x's optimistic ones, on every latency
 * objective. */
static int beats_at(const cfg_study *s, const dse_candidate *y,
                    const dse_candidate *x, size_t ri)
{
    for (size_t j = 0; j < s->nobjectives; j++) {
        cfg_latency_stat st = s->objectives[j].stat;
        if (s->objectives[j].kind == CFG_OBJ_LATENCY &&
            sim_worst(y, ri, st) > dse_optimistic_figure(s, x, ri, st))
            return 0;
    }
    return 1;
}

/* y (simulated) is at least as good as x's optimistic bound on every
 * objective but saturation. */
static int beats_but_saturation(const cfg_study *s, const dse_candidate *y,
                                const dse_candidate *x)
{
    if (!y->sim)
        return 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        if (!beats_at(s, y, x, ri))
            return 0;
    return costs_no_more(s, y, x);
}

int dse_rules_out(const cfg_study *s, const dse_candidate *y,
                  const dse_candidate *x)
{
    if (!beats_but_saturation(s, y, x))
        return 0;
    if (has_objective(s, CFG_OBJ_SATURATION)) {
        double y_sat = isfinite(y->sim_saturation_lo) ? y->sim_saturation_lo
                                                      : y->sim_saturation;
        if (!(y_sat >= x->opt_saturation))
            return 0;
    }
    return 1;
}

/* ---- choosing what to simulate ------------------------------------------ */

/* Designs of one shape differ only in VCs, buffers and routing. */
static int same_shape(const net_design *a, const net_design *b)
{
    if (a->topology != b->topology || a->n != b->n || a->width != b->width ||
        a->switching != b->switching || !net_design_params_equal(a, b))
        return 0;
    for (int i = 0; i < a->n && i < NET_MAX_DIMS; i++)
        if (a->k[i] != b->k[i])
            return 0;
    return 1;
}

/* A figure set to order designs by: latency and half-width at each rate
 * (INFINITY: does not sustain it), and a saturation rate. */
typedef struct figures {
    const double *lat, *hw;  /* [nrates]; hw may be NULL (no ties) */
    double sat;
} figures;

/* How a design fares against the best at each rate: rates where it is
 * best or tied, rates it sustains, geometric mean of latency / best over
 * those. */
typedef struct standing {
    int best_or_tied, sustained;
    double rel;
} standing;

static standing stand(const figures *f, size_t i, size_t count, size_t nr)
{
    standing st = {0, 0, 0};
    double logsum = 0;
    for (size_t ri = 0; ri < nr; ri++) {
        double li = f[i].lat[ri];
        if (!isfinite(li))
            continue;
        double best = INFINITY, best_hw = 0;
        for (size_t j = 0; j < count; j++)
            if (f[j].lat[ri] < best) {
                best = f[j].lat[ri];
                best_hw = f[j].hw ? f[j].hw[ri] : 0;
            }
        double hw = f[i].hw ? f[i].hw[ri] : 0;
        if (li - hw <= best + best_hw)
            st.best_or_tied++;
        st.sustained++;
        logsum += log(li / best);
    }
    st.rel = st.sustained ? exp(logsum / st.sustained) : INFINITY;
    return st;
}

/* 1 when design a comes before design b in the recommendation order. */
static int before(const standing *sa, double sat_a, size_t a,
                  const standing *sb, double sat_b, size_t b)
{
    if (sa->best_or_tied != sb->best_or_tied)
        return sa->best_or_tied > sb->best_or_tied;
    if (sa->sustained != sb->sustained)
        return sa->sustained > sb->sustained;
    /* Tied at the same rates means statistically indistinguishable there:
     * the headroom above the target rates decides, then the latency. */
    if (sat_a != sat_b && !isnan(sat_a) && !isnan(sat_b))
        return sat_a > sat_b;
    if (sa->rel != sb->rel)
        return sa->rel < sb->rel;
    return a < b;
}

/* order[0..count) = the indices of f in the recommendation order.
 * Insertion sort: counts here are at most the budget or the space. */
static void order_by_standing(const figures *f, size_t count, size_t nr,
                              size_t *order)
{
    standing *st = xmalloc((count + 1) * sizeof *st);
    for (size_t i = 0; i < count; i++) {
        st[i] = stand(f, i, count, nr);
        order[i] = i;
    }
    for (size_t i = 1; i < count; i++) {
        size_t v = order[i], j = i;
        while (j > 0 && before(&st[v], f[v].sat, v, &st[order[j - 1]],
                               f[order[j - 1]].sat, order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    free(st);
}

/* What the models alone would pick: the recommendation rule on model
 * figures over every scored design. */
static size_t model_choice(const cfg_study *s, const dse_run *r)
{
    size_t nr = s->rates.n;
    figures *f = xcalloc(r->ncand + 1, sizeof *f);
    double *lat = xmalloc((r->ncand * nr + 1) * sizeof *lat);
    for (size_t i = 0; i < r->ncand; i++) {
        for (size_t ri = 0; ri < nr; ri++) {
            double l = r->cand[i].latency[ri];
            lat[i * nr + ri] = isfinite(l) ? l : INFINITY;
        }
        f[i].lat = &lat[i * nr];
        f[i].sat = r->cand[i].saturation_rate;
    }
    size_t *order = xmalloc((r->ncand + 1) * sizeof *order);
    order_by_standing(f, r->ncand, nr, order);
    size_t pick = r->ncand ? order[0] : SIZE_MAX;
    free(order);
    free(lat);
    free(f);
    return pick;
}

static void mark(unsigned char *want, size_t i, size_t *n)
{
    if (i != SIZE_MAX && !want[i]) {
        want[i] = 1;
        (*n)++;
    }
}

/* Round 1: the best of each shape at each rate by its model (the lowest
 * model latency where the model sustains the rate, else the latest model
 * saturation), and the models' own pick; simulated in two steps (round 1a,
 * leaders_round, then what it leaves open). */
static size_t first_round(const cfg_study *s, const dse_run *r,
                          unsigned char *want)
{
    size_t n = 0;
    size_t *shape_of = xmalloc((r->ncand + 1) * sizeof *shape_of);
    size_t nshapes = 0;
    size_t *rep = xmalloc((r->ncand + 1) * sizeof *rep);
    for (size_t i = 0; i < r->ncand; i++) {
        size_t sh = 0;
        while (sh < nshapes &&
               !same_shape(&r->cand[rep[sh]].design, &r->cand[i].design))
            sh++;
        if (sh == nshapes)
            rep[nshapes++] = i;
        shape_of[i] = sh;
    }
    for (size_t sh = 0; sh < nshapes; sh++)
        for (size_t ri = 0; ri < s->rates.n; ri++) {
            size_t best = SIZE_MAX;
            for (size_t i = 0; i < r->ncand; i++) {
                const dse_candidate *c = &r->cand[i];
                if (shape_of[i] != sh)
                    continue;
                if (best == SIZE_MAX) {
                    best = i;
                    continue;
                }
                const dse_candidate *b = &r->cand[best];
                double lc = c->latency[ri], lb = b->latency[ri];
                if (isfinite(lc) != isfinite(lb) ? isfinite(lc)
                    : isfinite(lc)             ? lc < lb
                                               : c->saturation_rate > b->saturation_rate)
                    best = i;
            }
            mark(want, best, &n);
        }
    mark(want, r->model_choice, &n);
    free(rep);
    free(shape_of);
    return n;
}

/* Round 1a: of the designs round 1 wants, the lowest model latency at
 * each rate, the latest model saturation and the models' own pick.  Round
 * 1 takes the models' best of every shape, and most shapes of a study are
 * far off the front (1-wire networks whose exact zero-load latency is
 * several times the best torus's); simulating the overall leaders first
 * lets their results rule such shapes out (dse_rules_out: the exact
 * zero-load latency is a floor of every optimistic latency) before round
 * 1b spends the budget on them, leaving it for the leaders' siblings. */
static void leaders_round(const cfg_study *s, const dse_run *r,
                          const unsigned char *pending, unsigned char *want)
{
    size_t n = 0, sat = SIZE_MAX;
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < r->ncand; i++)
            if (pending[i] && isfinite(r->cand[i].latency[ri]) &&
                (best == SIZE_MAX ||
                 r->cand[i].latency[ri] < r->cand[best].latency[ri]))
                best = i;
        mark(want, best, &n);
    }
    for (size_t i = 0; i < r->ncand; i++)
        if (pending[i] && isfinite(r->cand[i].saturation_rate) &&
            (sat == SIZE_MAX ||
             r->cand[i].saturation_rate > r->cand[sat].saturation_rate))
            sat = i;
    mark(want, sat, &n);
    if (r->model_choice != SIZE_MAX && pending[r->model_choice])
        mark(want, r->model_choice, &n);
    if (n == 0)   /* no model figure at all: round 1 as a whole */
        memcpy(want, pending, r->ncand);
}

/* How much better than the simulated front x could be (> 1: could win
 * somewhere), to simulate the most promising first. */
static double promise(const cfg_study *s, const dse_run *r,
                      const dse_candidate *x)
{
    double p = 0;
    cfg_latency_stat st = cfg_rank_stat(s);
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        double opt = dse_optimistic_figure(s, x, ri, st);
        if (!isfinite(opt))
            continue;
        double front = INFINITY;
        for (size_t i = 0; i < r->ncand; i++)
            if (r->cand[i].sim)
                front = fmin(front, sim_worst(&r->cand[i], ri, st));
        p = fmax(p, isfinite(front) ? front / opt : 1e9);
    }
    double best_sat = 0;
    for (size_t i = 0; i < r->ncand; i++)
        if (r->cand[i].sim && isfinite(r->cand[i].sim_saturation))
            best_sat = fmax(best_sat, r->cand[i].sim_saturation);
    if (best_sat > 0 && isfinite(x->opt_saturation))
        p = fmax(p, x->opt_saturation / best_sat);
    return p;
}

/* Mark in sibling[] the unsimulated designs of the same shape as a
 * simulated leader: at some target rate the simulated design of lowest
 * simulated latency, or the one of highest simulated saturation rate.
 *
 * Why they go first: within one shape, designs differ only in VCs, buffers
 * and routing, and that is exactly where the models are least reliable
 * (docs/validation.md: the VC chain and the blocked header's wait are the
 * terms the models get wrong, and the error is systematic within a
 * family, so the error band cannot tell a leader's siblings apart from
 * it).  Round 1 simulated only the model's pick of each shape; a sibling of
 * a simulated leader is the likeliest design to beat it, and the study's
 * own multichip_1024 showed it (bench_decide: express 32x32 m=1 with V=6
 * beat the chosen V=2 by 2-14%, never simulated before the budget ran
 * out). */
static void leader_siblings(const cfg_study *s, const dse_run *r,
                            unsigned char *sibling)
{
    memset(sibling, 0, r->ncand);
    size_t nr = s->rates.n;
    cfg_latency_stat st = cfg_rank_stat(s);
    for (size_t ri = 0; ri <= nr; ri++) {
        size_t lead = SIZE_MAX;
        double best = ri < nr ? INFINITY : 0;
        for (size_t i = 0; i < r->ncand; i++) {
            const dse_candidate *c = &r->cand[i];
            if (!c->sim)
                continue;
            if (ri < nr) { /* latency leader at rate ri */
                double v = dse_point_latency(&c->sim[ri], st, NULL);
                if (isfinite(v) && v < best) {
                    best = v;
                    lead = i;
                }
            } else if (isfinite(c->sim_saturation) &&
                       c->sim_saturation > best) { /* saturation leader */
                best = c->sim_saturation;
                lead = i;
            }
        }
        if (lead == SIZE_MAX)
            continue;
        for (size_t i = 0; i < r->ncand; i++)
            if (!r->cand[i].sim &&
                same_shape(&r->cand[i].design, &r->cand[lead].design))
                sibling[i] = 1;
    }
}

/* Unsimulated designs not ruled out by any simulated one: their count, and
 * dominated_by set on the others. */
static size_t uncertified(const cfg_study *s, dse_run *r, unsigned char *open)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        dse_candidate *x = &r->cand[i];
        open[i] = 0;
        if (x->sim)
            continue;
        x->dominated_by = -1;
        for (size_t j = 0; j < r->ncand && x->dominated_by < 0; j++)
            if (r->cand[j].sim && dse_rules_out(s, &r->cand[j], x))
                x->dominated_by = (long)j;
        if (x->dominated_by < 0) {
            open[i] = 1;
            n++;
        }
    }
    return n;
}

/* The lower end of y's simulated saturation interval. */
static double sim_saturation_floor(const dse_candidate *y)
{
    return isfinite(y->sim_saturation_lo) ? y->sim_saturation_lo
                                          : y->sim_saturation;
}

/* The rate at which one probe of open design x would let simulated design
 * y rule it out, or 0 when none would: y must cost no more, and T is the
 * lower of the first target rate at which y's simulated latency (the
 * pessimistic end) is above x's optimistic figure and y's simulated
 * saturation floor.  Unstable at T, x's optimistic saturation is at most T,
 * so it sustains no target rate from T up (its optimistic latency there is
 * infinite), y beats it at every rate below T by construction, and y's
 * saturation floor is at least T: dse_rules_out(y, x) then holds.  A y that
 * beats x at every target rate leaves T at y's saturation floor (the
 * question is then saturation alone) and sets *whole. */
static double screen_rate(const cfg_study *s, const dse_candidate *y,
                          const dse_candidate *x, int *whole)
{
    *whole = 0;
    if (!y->sim || !costs_no_more(s, y, x))
        return 0;
    double t = sim_saturation_floor(y);
    if (!(t > 0))   /* no simulated saturation: y cannot rule x out */
        return 0;
    *whole = 1;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        if (!beats_at(s, y, x, ri)) {
            t = fmin(t, s->rates.v[ri]);
            *whole = 0;
            break;
        }
    return isfinite(t) ? t : 0;
}

/* A probe at T where x is open at some target rate is a bet that x
 * saturates below that rate; its model (even one never validated on
 * designs like x) saturating this many times above T says the bet is
 * poor, and x is simulated whole instead.  Only a cost: skipping a probe
 * never rules a design out. */
#define SCREEN_MODEL_MARGIN 2.0

/* The saturation screen.  An open design can reach the front only by what
 * no simulated design beats it on.  When a simulated design y beats it on
 * cost and at every target rate below some rate T that is also at most
 * y's saturation floor (screen_rate), the question is one rate: one probe
 * of the saturation search at T (the search's warm-up, span and stability
 * test), a fraction of a whole simulation's cost (a search, replications
 * at the target rates, a load curve).  Unstable: its saturation lies below
 * T, which caps its optimistic saturation and lets y rule it out.  Stable:
 * it stays open, to be simulated whole.  T is the best over all y.  A
 * design beaten at every target rate is asked about saturation alone (T
 * is y's saturation floor) and always probed; one beaten only below some
 * target rate is probed when its model does not put its saturation far
 * above T (SCREEN_MODEL_MARGIN).  Designs outside every validated regime
 * rest on the physical screen, whose channel-load bound is often far
 * above what the network sustains and whose latency bound (the zero-load
 * latency at every rate below it) is weakest near saturation; without the
 * probe each of them would need a whole simulation.  A design is probed
 * again only when a later round gives it a higher T than the one it was
 * found stable at (an early probe at a low target rate must not stop a
 * later one at a simulated design's saturation floor), and never after
 * one found it unstable.  Returns 0 or the oracle's error. */
static int screen_saturation(const cfg_study *s, dse_run *r,
                             const dse_sim_oracle *oracle,
                             const unsigned char *open, size_t *batch,
                             dse_progress *progress, err *e)
{
    if (!oracle->probe || !has_objective(s, CFG_OBJ_SATURATION))
        return 0;
    double *rate = xcalloc(r->ncand + 1, sizeof *rate);
    size_t n = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *x = &r->cand[i];
        if (!open[i] || x->sim || x->probe_unstable)
            continue;
        /* the best T from a y that beats x at every target rate, and
         * from one that beats it only below T */
        double t_whole = 0, t_part = 0;
        for (size_t j = 0; j < r->ncand; j++) {
            int whole;
            double tj = screen_rate(s, &r->cand[j], x, &whole);
            if (whole)
                t_whole = fmax(t_whole, tj);
            else
                t_part = fmax(t_part, tj);
        }
        double t = t_whole;
        if (t_part > t_whole &&
            !(isfinite(x->saturation_rate) &&
              x->saturation_rate > SCREEN_MODEL_MARGIN * t_part))
            t = t_part;
        /* a design a probe found stable is asked again only higher up */
        if (t > 0 && t < x->opt_saturation && t > x->probe_rate) {
            rate[n] = t;
            batch[n++] = i;
        }
    }
    int rc = 0;
    if (n > 0) {
        if (progress) {
            char note[96];
            snprintf(note, sizeof note, "saturation screen: %zu designs", n);
            dse_progress_note(progress, note);
        }
        rc = oracle->probe(oracle->self, s, r, batch, rate, n, e);
    }
    for (size_t q = 0; q < n && rc == 0; q++)
        dse_decide_bounds(s, &r->cand[batch[q]]);
    free(rate);
    return rc;
}

/* ---- the verdict ---------------------------------------------------------- */

static void rank_simulated(const cfg_study *s, dse_run *r, const size_t *sim,
                           size_t nsim)
{
    size_t nr = s->rates.n;
    /* the study's ranking figure: the mean, or the percentile it names */
    cfg_latency_stat st = cfg_rank_stat(s);
    figures *f = xcalloc(nsim + 1, sizeof *f);
    double *lat = xmalloc((nsim * nr + 1) * sizeof *lat);
    double *hw = xmalloc((nsim * nr + 1) * sizeof *hw);
    for (size_t q = 0; q < nsim; q++) {
        const dse_candidate *c = &r->cand[sim[q]];
        for (size_t ri = 0; ri < nr; ri++) {
            double h, v = dse_point_latency(&c->sim[ri], st, &h);
            int ok = isfinite(v);
            lat[q * nr + ri] = ok ? v : INFINITY;
            hw[q * nr + ri] = ok && isfinite(h) ? h : 0;
        }
        f[q].lat = &lat[q * nr];
        f[q].hw = &hw[q * nr];
        f[q].sat = c->sim_saturation;
    }
    /* per rate: rank, best, ties */
    for (size_t ri = 0; ri < nr; ri++) {
        size_t best = SIZE_MAX;
        for (size_t q = 0; q < nsim; q++)
            if (isfinite(f[q].lat[ri]) &&
                (best == SIZE_MAX || f[q].lat[ri] < f[best].lat[ri]))
                best = q;
        r->best_at_rate[ri] = best == SIZE_MAX ? SIZE_MAX : sim[best];
        for (size_t q = 0; q < nsim; q++) {
            dse_sim_point *p = &r->cand[sim[q]].sim[ri];
            p->rank = 0;
            p->tied_best = 0;
            if (!isfinite(f[q].lat[ri]))
                continue;
            int rank = 1;
            for (size_t o = 0; o < nsim; o++)
                if (f[o].lat[ri] < f[q].lat[ri] ||
                    (f[o].lat[ri] == f[q].lat[ri] && o < q))
                    rank++;
            p->rank = rank;
            p->tied_best = f[q].lat[ri] - f[q].hw[ri] <=
                           f[best].lat[ri] + f[best].hw[ri];
        }
    }
    /* Pareto rank on the study's objectives, simulated figures */
    int nobj = 0;
    for (size_t j = 0; j < s->nobjectives; j++)
        nobj += s->objectives[j].kind == CFG_OBJ_LATENCY ? (int)nr : 1;
    double *pts = xmalloc((nsim + 1) * (size_t)(nobj ? nobj : 1) * sizeof *pts);
    int *prank = xmalloc((nsim + 1) * sizeof *prank);
    for (size_t q = 0; q < nsim; q++) {
        const dse_candidate *c = &r->cand[sim[q]];
        double *row = pts + q * (size_t)nobj;
        int k = 0;
        for (size_t j = 0; j < s->nobjectives; j++) {
            const cfg_objective *o = &s->objectives[j];
            if (o->kind == CFG_OBJ_LATENCY)
                for (size_t ri = 0; ri < nr; ri++) {
                    double v = dse_point_latency(&c->sim[ri], o->stat, NULL);
                    row[k++] = isfinite(v) ? v : INFINITY;
                }
            else if (o->kind == CFG_OBJ_SATURATION)
                row[k++] = isfinite(c->sim_saturation) ? -c->sim_saturation : 0;
            else
                row[k++] = cost_of(c, o->cost);
        }
    }
    pareto_rank(pts, nsim, nobj, prank);
    for (size_t q = 0; q < nsim; q++)
        r->cand[sim[q]].sim_rank = prank[q];
    /* the order: front first, then by standing */
    size_t *order = xmalloc((nsim + 1) * sizeof *order);
    order_by_standing(f, nsim, nr, order);
    size_t *ordered = xmalloc((nsim + 1) * sizeof *ordered);
    size_t m = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t q = 0; q < nsim; q++)
            if ((prank[order[q]] == 0) == (pass == 0))
                ordered[m++] = sim[order[q]];
    free(r->finalists);
    for (size_t i = 0; i < r->ncand; i++)
        r->cand[i].finalist = 0;
    r->finalists = ordered;
    r->nfinalists = m;
    for (size_t q = 0; q < m; q++)
        r->cand[ordered[q]].finalist = (int)q + 1;
    r->recommended = m ? ordered[0] : SIZE_MAX;
    r->runner_up = m > 1 ? ordered[1] : SIZE_MAX;
    free(order);
    free(pts);
    free(prank);
    free(lat);
    free(hw);
    free(f);
}

/* Pairs the models order one way and the simulator, beyond its CIs, the
 * other. */
static void find_disagreements(const cfg_study *s, dse_run *r,
                               const size_t *sim, size_t nsim)
{
    free(r->disagree);
    r->disagree = NULL;
    r->ndisagree = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        for (size_t a = 0; a < nsim; a++)
            for (size_t b = 0; b < nsim; b++) {
                const dse_candidate *ca = &r->cand[sim[a]], *cb = &r->cand[sim[b]];
                double ma = ca->latency[ri], mb = cb->latency[ri];
                /* the models predict the mean: judged on the mean */
                double sa = sim_worst(ca, ri, CFG_LAT_MEAN),
                       sb = sim_worst(cb, ri, CFG_LAT_MEAN);
                if (a == b || !isfinite(mb) || !isfinite(sa))
                    continue;
                /* models: b first (a saturated, or slower); simulator: a
                 * first beyond both CIs (b saturated, or slower) */
                int model_b_first = !isfinite(ma) || mb < ma;
                double b_best = isfinite(sb) ? cb->sim[ri].latency -
                                               cb->sim[ri].half_width
                                             : INFINITY;
                if (!model_b_first || !(sa < b_best))
                    continue;
                if (r->ndisagree >= MAX_DISAGREEMENTS)
                    return;
                r->disagree = xrealloc(r->disagree,
                                       (r->ndisagree + 1) * sizeof *r->disagree);
                r->disagree[r->ndisagree++] =
                    (dse_disagreement){ri, sim[b], sim[a]};
            }
}

/* The decision's working sets, one slot per candidate (and one spare, so
 * that an empty study allocates something): the designs wanted in the
 * next round, those still open (could reach the front), the open siblings
 * of a simulated leader, round 1's remainder (round 1b), and the batch
 * being sent with the promise scores that order it. */
typedef struct decide_sets {
    unsigned char *want, *open, *sibling, *pending;
    size_t *batch;
    double *score;
    size_t per_round; /* designs per round after round 1 */
    int in_round1;    /* round 1a ran; round 1b may follow */
} decide_sets;

static void decide_sets_init(decide_sets *w, size_t ncand, int threads)
{
    w->want = xcalloc(ncand + 1, 1);
    w->open = xcalloc(ncand + 1, 1);
    w->sibling = xcalloc(ncand + 1, 1);
    w->pending = xcalloc(ncand + 1, 1);
    w->in_round1 = 0;
    w->batch = xmalloc((ncand + 1) * sizeof *w->batch);
    w->score = xmalloc((ncand + 1) * sizeof *w->score);
    w->per_round = (size_t)(threads > 0 ? 2 * threads : 4);
    if (w->per_round < 4)
        w->per_round = 4;
}

static void decide_sets_fini(decide_sets *w)
{
    free(w->want);
    free(w->open);
    free(w->sibling);
    free(w->pending);
    free(w->batch);
    free(w->score);
}

/* Before round 1: no recommendation yet, every candidate's bounds, the
 * models' own choice.  Returns the simulation budget in designs. */
static size_t decide_start(const cfg_study *s, dse_run *r, int simulate_all)
{
    size_t nr = s->rates.n, budget = (size_t)s->sim.max_designs;
    r->check_mode = simulate_all != 0;
    if (simulate_all)
        budget = r->ncand;
    r->best_at_rate = xrealloc(r->best_at_rate, (nr + 1) * sizeof *r->best_at_rate);
    for (size_t ri = 0; ri < nr; ri++)
        r->best_at_rate[ri] = SIZE_MAX;
    r->recommended = r->runner_up = SIZE_MAX;
    for (size_t i = 0; i < r->ncand; i++)
        dse_decide_bounds(s, &r->cand[i]);
    r->model_choice = model_choice(s, r);
    return budget;
}

/* One round: the batch simulated through the oracle and counted. */
static int simulate_round(const cfg_study *s, dse_run *r,
                          const dse_sim_oracle *oracle, const size_t *batch,
                          size_t n, dse_progress *progress,
                          volatile sig_atomic_t *stop, err *e)
{
    r->rounds++;
    char note[96];
    snprintf(note, sizeof note, "round %d: %zu designs", r->rounds, n);
    if (progress)
        dse_progress_note(progress, note);
    int rc = oracle->simulate(oracle->self, s, r, batch, n, e);
    if (rc)
        return rc;
    for (size_t q = 0; q < n; q++)
        r->cand[batch[q]].sim_round = r->rounds;
    r->nsimulated += n;
    if (stop && *stop)
        return err_set(e, ERR_INTERRUPTED, "interrupted while simulating");
    return 0;
}

/* The next round's designs into w->want: round 1b (the rest of round 1
 * that round 1a left open), or else the most promising of those still
 * open, at most w->per_round. */
static void plan_next_round(const cfg_study *s, dse_run *r, decide_sets *w)
{
    memset(w->want, 0, r->ncand);
    if (w->in_round1) {
        w->in_round1 = 0;
        size_t m = 0;
        for (size_t i = 0; i < r->ncand; i++)
            if (w->pending[i] && w->open[i]) {
                w->want[i] = 1;
                m++;
            }
        if (m > 0)
            return;
    }
    leader_siblings(s, r, w->sibling);
    size_t *batch = w->batch;
    unsigned char *sibling = w->sibling;
    double *score = w->score;
    size_t m = 0;
    for (size_t i = 0; i < r->ncand; i++)
        if (w->open[i]) {
            batch[m] = i;
            score[i] = promise(s, r, &r->cand[i]);
            m++;
        }
    for (size_t a = 1; a < m; a++) {
        size_t v = batch[a], j = a;
        /* open siblings of a simulated leader first, then by promise */
        while (j > 0 && (sibling[batch[j - 1]] < sibling[v] ||
                         (sibling[batch[j - 1]] == sibling[v] &&
                          score[batch[j - 1]] < score[v]))) {
            batch[j] = batch[j - 1];
            j--;
        }
        batch[j] = v;
    }
    for (size_t q = 0; q < m && q < w->per_round; q++)
        w->want[batch[q]] = 1;
}

/* After the last round: whether the answer is certified and why the
 * rounds stopped, the simulated designs ranked, and the pairs the models
 * and the simulator order differently.  batch is scratch space. */
static void decide_finish(const cfg_study *s, dse_run *r, size_t budget,
                          unsigned char *open, size_t *batch)
{
    r->nuncertified = uncertified(s, r, open);
    r->certified = r->nuncertified == 0;
    if (r->check_mode)
        snprintf(r->stop_reason, sizeof r->stop_reason,
                 "check mode: every feasible design simulated");
    else if (r->certified)
        snprintf(r->stop_reason, sizeof r->stop_reason,
                 "certified: no unsimulated design's optimistic bound "
                 "reaches the simulated front");
    else
        snprintf(r->stop_reason, sizeof r->stop_reason,
                 "simulation budget spent (%zu designs, "
                 "simulation.max_designs): %zu designs could still "
                 "reach the front",
                 budget, r->nuncertified);
    size_t nsim = 0;
    for (size_t i = 0; i < r->ncand; i++)
        if (r->cand[i].sim)
            batch[nsim++] = i;
    rank_simulated(s, r, batch, nsim);
    find_disagreements(s, r, batch, nsim);
}

int dse_decide(const cfg_study *s, dse_run *r, const dse_sim_oracle *oracle,
               int threads, int simulate_all, dse_progress *progress,
               volatile sig_atomic_t *stop, err *e)
{
    size_t budget = decide_start(s, r, simulate_all);
    decide_sets w;
    decide_sets_init(&w, r->ncand, threads);
    int rc = 0;
    if (simulate_all)
        memset(w.want, 1, r->ncand);
    else {
        first_round(s, r, w.pending);
        leaders_round(s, r, w.pending, w.want);
        w.in_round1 = 1;
    }
    for (;;) {
        size_t n = 0;
        for (size_t i = 0; i < r->ncand && r->nsimulated + n < budget; i++)
            if (w.want[i] && !r->cand[i].sim)
                w.batch[n++] = i;
        if (n == 0)
            break;
        rc = simulate_round(s, r, oracle, w.batch, n, progress, stop, e);
        if (rc)
            break;
        /* the saturation screen of those only saturation could save,
         * then the next round: the most promising of those still open */
        uncertified(s, r, w.open);
        rc = screen_saturation(s, r, oracle, w.open, w.batch, progress, e);
        if (rc)
            break;
        size_t left = uncertified(s, r, w.open);
        if (progress && !progress->quiet)
            fprintf(progress->out,
                    "decide  round %d done: %zu designs simulated, %zu "
                    "uncertified\n",
                    r->rounds, r->nsimulated, left);
        plan_next_round(s, r, &w);
    }
    if (rc == 0)
        decide_finish(s, r, budget, w.open, w.batch);
    decide_sets_fini(&w);
    return rc;
}

/*
 * cons_budget.c — the inverse of the cost model: the widest channel a
 * design may have under a budget.
 *
 * A budget is a limit on the cost that binds in a technology: bisection
 * wires for a single VLSI chip, pins per chip for a multi-chip machine
 * (thesis section 1.1.5).  The limit is either absolute or the cost of a
 * reference design at its own width ("equal cost" comparisons: the thesis
 * holds a 2D DCSH with 1-wire channels fixed and widens the torus and the
 * express-cube to the same cost, sections 4.3 and 6.4).  Since every cost is
 * (channel count) x w, the widest width is limit / (cost per wire), rounded.
 *
 * Rounding.  Floor is the default: the result never exceeds the budget,
 * which is what a design tool must promise.  The thesis prints a ceiling in
 * (4.13), w_Torus = ceil(k/4) w_DCSH, and the brackets of (6.30)/(6.32) lost
 * their floor/ceiling marks in the OCR; a ceiling gives the wider network
 * up to one wire per channel more than the reference has, i.e. more wires
 * than the budget.  Every configuration the thesis plots has an integer
 * ratio (k/4, k/(4(m+1)), nk/(4(m+1)) with k a power of two), so the choice
 * never changes its figures; CONS_ROUND_CEIL exists to reproduce its
 * arithmetic on non-integer ratios.  With w_DCSH = 1, as in the thesis,
 * ceil(limit / unit) is exactly its ceil(k/4) w_DCSH; for w_DCSH > 1 we
 * round the whole ratio, not k/4 alone (the thesis never has that case).
 *
 * Exactness: limits and unit costs are integers in practice, held in
 * doubles; the quotient is corrected by exact integer products (all below
 * 2^53) so a ratio such as 1024/128 can never round to 7.
 */
#include "cons.h"

#include <math.h>
#include <string.h>

static const char *limit_unit(cons_technology t)
{
    return t == CONS_MULTICHIP ? "pins per chip" : "bisection wires";
}

const char *cons_technology_name(cons_technology t)
{
    switch (t) {
    case CONS_VLSI: return "vlsi";
    case CONS_MULTICHIP: return "multichip";
    }
    return "?";
}

int cons_technology_parse(const char *s, cons_technology *out)
{
    if (s && strcmp(s, "vlsi") == 0) {
        *out = CONS_VLSI;
        return 0;
    }
    if (s && (strcmp(s, "multichip") == 0 || strcmp(s, "multi-chip") == 0)) {
        *out = CONS_MULTICHIP;
        return 0;
    }
    return ERR_INVALID;
}

static int technology_check(cons_technology t, err *e)
{
    if (t != CONS_VLSI && t != CONS_MULTICHIP)
        return err_set(e, ERR_INVALID, "unknown technology %d", (int)t);
    return 0;
}

int cons_budget_limit(const cons_budget *b, double *limit, err *e)
{
    int rc = technology_check(b->technology, e);
    if (rc)
        return rc;
    if (!b->has_reference) {
        if (!isfinite(b->limit) || b->limit < 0)
            return err_set(e, ERR_INVALID,
                           "budget of %g %s: need a finite number >= 0",
                           b->limit, limit_unit(b->technology));
        *limit = b->limit;
        return 0;
    }
    cons_cost cost;
    if ((rc = cons_cost_of(&b->reference, &cost, e))) {
        err_prefix(e, "reference design");
        return rc;
    }
    *limit = b->technology == CONS_MULTICHIP ? cost.max_pins
                                             : cost.bisection_wires;
    return 0;
}

int cons_width_for(double limit, double unit_cost, cons_rounding r,
                   int *width, err *e)
{
    if (!isfinite(limit) || limit < 0)
        return err_set(e, ERR_INVALID, "budget %g: need a finite number >= 0",
                       limit);
    if (!isfinite(unit_cost) || unit_cost <= 0)
        return err_set(e, ERR_INVALID, "cost per wire %g: need > 0",
                       unit_cost);
    if (r != CONS_ROUND_FLOOR && r != CONS_ROUND_CEIL)
        return err_set(e, ERR_INVALID, "unknown rounding %d", (int)r);
    double q = limit / unit_cost;
    if (q > (double)CONS_MAX_WIDTH + 1)
        return err_set(e, ERR_INVALID,
                       "budget %g allows channels of %.0f wires, more than "
                       "the %d dse supports",
                       limit, floor(q), CONS_MAX_WIDTH);
    double w = r == CONS_ROUND_CEIL ? ceil(q) : floor(q);
    /* Exact correction against the products (see the header comment). */
    if (r == CONS_ROUND_FLOOR) {
        while (w > 0 && w * unit_cost > limit)
            w--;
        while ((w + 1) * unit_cost <= limit)
            w++;
    } else {
        while (w > 0 && (w - 1) * unit_cost >= limit)
            w--;
        while (w * unit_cost < limit)
            w++;
    }
    if (w < 1)
        return err_set(e, ERR_INFEASIBLE,
                       "budget allows width < 1: %g available, %g needed per "
                       "wire of channel width",
                       limit, unit_cost);
    if (w > CONS_MAX_WIDTH)
        return err_set(e, ERR_INVALID,
                       "budget %g allows channels of %.0f wires, more than "
                       "the %d dse supports",
                       limit, w, CONS_MAX_WIDTH);
    *width = (int)w;
    return 0;
}

int cons_max_width(const net_design *d, const cons_budget *b, int *width,
                   err *e)
{
    int rc = technology_check(b->technology, e);
    if (rc)
        return rc;
    net_design unit = *d;
    unit.width = 1;  /* d->width is ignored; net_check wants a valid one */
    cons_counts c;
    if ((rc = cons_counts_of(&unit, &c, e)))
        return rc;
    double limit;
    if ((rc = cons_budget_limit(b, &limit, e)))
        return rc;
    double per_wire = cons_unit_cost(&c, b->technology);
    rc = cons_width_for(limit, per_wire, b->rounding, width, e);
    if (rc == ERR_INFEASIBLE)
        return err_set(e, ERR_INFEASIBLE,
                       "budget allows width < 1: the %s needs %g %s per wire "
                       "of channel width, the budget is %g",
                       net_topology_name(d->topology), per_wire,
                       limit_unit(b->technology), limit);
    return rc;
}

int cons_design_fit(net_design *d, const cons_budget *b, err *e)
{
    int w;
    int rc = cons_max_width(d, b, &w, e);
    if (rc)
        return rc;
    d->width = w;
    return 0;
}

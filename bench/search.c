/*
 * search.c — bench_search: how close the NLopt strategy (dse/search/search_nlopt.c)
 * gets to the exhaustive Pareto front, and at what fraction of the work.
 *
 * For each space both strategies score the designs with the models only
 * (no simulation), and we print:
 *   - designs scored by each (dse_run.ncand after the run: NLopt keeps only
 *     the designs it scored) and the model evaluations (dse_run.evaluations);
 *   - the hypervolume of the NLopt front over that of the exhaustive
 *     front.  Objectives are normalised to [0, 1] by the exhaustive front's
 *     range, and the reference point is 1.1 in each.  An objective that is
 *     constant on the exhaustive front (cost(bisection) under an equal-cost
 *     budget) is dropped; a point worse than that constant counts for
 *     nothing;
 *   - recall: the share of exhaustive front designs NLopt found;
 *   - wall time of each run.
 * Target (the issue): >= 0.97 of the hypervolume with <= 10% of the
 * evaluations.  A second table gives the same figures for a prototype of
 * a two-level strategy (proto_screen below), as evidence for the change to
 * search_nlopt.c that it suggests.
 *
 * Spaces: the shipped VLSI studies with mixed_radices turned on, the
 * multichip one likewise, and a synthetic space that is larger (4096
 * nodes, VCs 2..16, buffers 1..8, express m 1..8, buffer bits as the cost
 * objective, so that the front is three-dimensional).
 *
 * usage: bench_search [-j THREADS] [--quick] [STUDY.yaml ...]
 *   (files given: only those, with mixed_radices turned on; --quick: skip
 *   the synthetic space)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/search/optimize.h"
#include "dse/search/pareto.h"

static const char synthetic[] =
    "study: synthetic_4096\n"
    "nodes: 4096\n"
    "technology: vlsi\n"
    "budget: {equal_to: {topology: dcsh, k: 64, n: 2, width: 1}}\n"
    "message: {bits: 128, length: exponential}\n"
    "rates: {from: 0.0002, to: 0.001, step: 0.0002}\n"
    "space:\n"
    "  topologies: [torus, hypercube, dcsh, express]\n"
    "  dimensions: [2, 3, 4, 6]\n"
    "  mixed_radices: true\n"
    "  routings: all\n"
    "  vcs: {from: 2, to: 16}\n"
    "  buffer_flits: [1, 2, 4, 8]\n"
    "  express_m: {from: 1, to: 8}\n"
    "  express_kn: [4, 8]\n"
    "objectives: [latency, saturation, cost(buffer_bits)]\n";

typedef struct bench_case {
    const char *label;
    const char *path;        /* a study file, or NULL for `text` */
    const char *text;
} bench_case;

typedef struct outcome {
    size_t feasible, ex_designs, nl_designs, ex_evals, nl_evals;
    size_t front, found;
    int kept;                /* objectives left after dropping constants */
    double hv_ratio, ex_s, nl_s;
    /* the two-level prototype (proto_screen) */
    size_t pr_designs, pr_evals, pr_found;
    double pr_hv_ratio;
} outcome;

/* Normalised objective j of candidate c: (v - lo) / range, or for a
 * constant objective 0 at the constant and INFINITY above it. */
static double normalised(const dse_candidate *c, int j, const double *lo,
                         const double *hi)
{
    double v = c->objectives[j];
    if (hi[j] > lo[j])
        return (v - lo[j]) / (hi[j] - lo[j]);
    return v <= lo[j] ? 0 : INFINITY;
}

/* Hypervolume of the ranked candidates of r (those with mask[i] set, or
 * all when mask is NULL) on the objectives whose exhaustive-front range is
 * non-zero (keep[0..nkeep)). */
static double hypervolume(const dse_run *r, const unsigned char *mask,
                          const int *keep, int nkeep, const double *lo,
                          const double *hi)
{
    int nobj = (int)r->study->nobjectives;
    double *pts = malloc((r->ncand + 1) * PARETO_MAX_OBJ * sizeof *pts);
    size_t n = 0;
    int at_origin = 0;       /* for nkeep == 0: a point at the constants */
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        if (c->rank < 0 || (mask && !mask[i]))
            continue;
        int ok = 1;
        for (int j = 0; j < nobj; j++) /* dropped objectives: not worse */
            if (isinf(normalised(c, j, lo, hi)))
                ok = 0;
        if (!ok)
            continue;
        at_origin = 1;
        for (int q = 0; q < nkeep; q++)
            pts[n * nkeep + q] = normalised(c, keep[q], lo, hi);
        n++;
    }
    double ref[PARETO_MAX_OBJ], hv;
    for (int q = 0; q < PARETO_MAX_OBJ; q++)
        ref[q] = 1.1;
    if (nkeep == 0) {
        hv = at_origin;
    } else if (nkeep == 1) {
        double best = INFINITY;
        for (size_t i = 0; i < n; i++)
            best = fmin(best, pts[i]);
        hv = best < 1.1 ? 1.1 - best : 0;
    } else {
        hv = pareto_hypervolume(pts, n, nkeep, ref);
    }
    free(pts);
    return hv;
}

static int same_design(const net_design *a, const net_design *b)
{
    char x[512], y[512];
    net_design_format(a, x, sizeof x);
    net_design_format(b, y, sizeof y);
    return strcmp(x, y) == 0;
}

/* ---- prototype: screen families, then walk the VC ladders of the best --
 *
 * A "family" is a design less its VC count and buffer depth (topology,
 * routing, radices, express m and kn).  Along a family's VC ladder the
 * models' saturation rate and the buffer cost both grow and latency
 * mostly falls, so the Pareto front of these spaces is made of whole
 * ladders of a few families (bench output and the analysis in the report).
 * The prototype
 *   1. scores one design per family: the most VCs, the shallowest buffer
 *      (the family's best saturation rate);
 *   2. Pareto-ranks those representatives and keeps the families ranked
 *      0 or 1;
 *   3. scores the whole VC ladder of each kept family at the shallowest
 *      buffer depth, and the next depth at the most VCs; if that deeper
 *      design is not dominated by the shallow one, its ladder too.
 * It reads the exhaustive run's candidates instead of scoring (scoring is
 * deterministic, so the figures are those scoring would give) and counts
 * the evaluations dse_score_design would make for the designs it picks. */

typedef struct family_key {
    char text[512];
    size_t index;
} family_key;

static int cmp_family(const void *a, const void *b)
{
    const family_key *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void proto_screen(const dse_run *ex, unsigned char *chosen)
{
    size_t n = ex->ncand;
    int nobj = (int)ex->study->nobjectives;
    family_key *keys = malloc((n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) {
        net_design d = ex->cand[i].design;
        d.vcs = 0;
        d.buffer_flits = 0;
        net_design_format(&d, keys[i].text, sizeof keys[i].text);
        keys[i].index = i;
    }
    qsort(keys, n, sizeof *keys, cmp_family);
    size_t *first = malloc((n + 2) * sizeof *first), nfam = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(keys[i].text, keys[i - 1].text))
            first[nfam++] = i;
    first[nfam] = n;
    /* 1. one representative per family */
    size_t *rep = malloc((nfam + 1) * sizeof *rep);
    double *pts = malloc((nfam + 1) * (size_t)nobj * sizeof *pts);
    for (size_t f = 0; f < nfam; f++) {
        size_t best = keys[first[f]].index;
        for (size_t q = first[f]; q < first[f + 1]; q++) {
            const net_design *d = &ex->cand[keys[q].index].design;
            const net_design *b = &ex->cand[best].design;
            if (d->vcs > b->vcs ||
                (d->vcs == b->vcs && d->buffer_flits < b->buffer_flits))
                best = keys[q].index;
        }
        rep[f] = best;
        chosen[best] = 1;
        memcpy(pts + f * nobj, ex->cand[best].objectives, nobj * sizeof *pts);
    }
    /* 2. rank them */
    int *rank = malloc((nfam + 1) * sizeof *rank);
    pareto_rank(pts, nfam, nobj, rank);
    /* 3. ladders of the kept families */
    for (size_t f = 0; f < nfam; f++) {
        if (rank[f] < 0 || rank[f] > 1)
            continue;
        const net_design *r = &ex->cand[rep[f]].design;
        int shallow = r->buffer_flits, deeper = 0;
        size_t deeper_at = SIZE_MAX;
        for (size_t q = first[f]; q < first[f + 1]; q++) {
            const net_design *d = &ex->cand[keys[q].index].design;
            if (d->vcs == r->vcs && d->buffer_flits > shallow &&
                (deeper == 0 || d->buffer_flits < deeper)) {
                deeper = d->buffer_flits;
                deeper_at = keys[q].index;
            }
        }
        int walk_deeper = 0;
        if (deeper_at != SIZE_MAX) {
            chosen[deeper_at] = 1;
            walk_deeper = !isnan(ex->cand[deeper_at].objectives[0]) &&
                          !pareto_dominates(ex->cand[rep[f]].objectives,
                                            ex->cand[deeper_at].objectives, nobj);
        }
        for (size_t q = first[f]; q < first[f + 1]; q++) {
            const net_design *d = &ex->cand[keys[q].index].design;
            if (d->buffer_flits == shallow || (walk_deeper && d->buffer_flits == deeper))
                chosen[keys[q].index] = 1;
        }
    }
    free(keys);
    free(first);
    free(rep);
    free(pts);
    free(rank);
}

static int run_case(const bench_case *bc, int threads, outcome *out)
{
    cfg_study s;
    err e;
    int rc = bc->path ? cfg_study_load(bc->path, &s, &e)
                      : cfg_study_load_string(bc->text, bc->label, &s, &e);
    if (rc) {
        char buf[2048];
        fprintf(stderr, "%s\n", err_format(&e, buf, sizeof buf));
        return rc;
    }
    s.space.mixed_radices = 1;
    dse_optimize_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.quiet = 1;
    o.skip_sim = 1;
    dse_run ex, nl;
    s.search = CFG_SEARCH_EXHAUSTIVE;
    rc = dse_optimize(&s, &o, &ex, &e);
    if (rc == 0) {
        s.search = CFG_SEARCH_NLOPT;
        rc = dse_optimize(&s, &o, &nl, &e);
        if (rc)
            dse_run_fini(&nl);
    }
    if (rc) {
        fprintf(stderr, "%s: %s\n", bc->label, e.msg);
        dse_run_fini(&ex);
        cfg_study_fini(&s);
        return rc;
    }
    memset(out, 0, sizeof *out);
    out->feasible = ex.space.count;
    out->ex_designs = ex.ncand;
    out->nl_designs = nl.ncand;
    out->ex_evals = ex.evaluations;
    out->nl_evals = nl.evaluations;
    out->ex_s = ex.seconds_score;
    out->nl_s = nl.seconds_score;

    int nobj = (int)s.nobjectives;
    double lo[CFG_MAX_OBJECTIVES], hi[CFG_MAX_OBJECTIVES];
    for (int j = 0; j < nobj; j++) {
        lo[j] = INFINITY;
        hi[j] = -INFINITY;
    }
    for (size_t i = 0; i < ex.ncand; i++) {
        if (ex.cand[i].rank != 0)
            continue;
        out->front++;
        for (int j = 0; j < nobj; j++) {
            lo[j] = fmin(lo[j], ex.cand[i].objectives[j]);
            hi[j] = fmax(hi[j], ex.cand[i].objectives[j]);
        }
        for (size_t q = 0; q < nl.ncand; q++)
            if (same_design(&nl.cand[q].design, &ex.cand[i].design)) {
                out->found++;
                break;
            }
    }
    int keep[CFG_MAX_OBJECTIVES], nkeep = 0;
    for (int j = 0; j < nobj; j++)
        if (hi[j] > lo[j])
            keep[nkeep++] = j;
    out->kept = nkeep;
    if (nkeep > 3) {
        fprintf(stderr, "%s: %d varying objectives; hypervolume needs <= 3\n",
                bc->label, nkeep);
        out->hv_ratio = NAN;
    } else {
        double h_ex = hypervolume(&ex, NULL, keep, nkeep, lo, hi);
        double h_nl = hypervolume(&nl, NULL, keep, nkeep, lo, hi);
        out->hv_ratio = h_ex > 0 ? h_nl / h_ex : NAN;
        unsigned char *mask = calloc(ex.ncand + 1, 1);
        proto_screen(&ex, mask);
        for (size_t i = 0; i < ex.ncand; i++) {
            if (!mask[i])
                continue;
            out->pr_designs++;
            if (ex.cand[i].model)
                out->pr_evals += 1 + s.rates.n;
            out->pr_found += ex.cand[i].rank == 0;
        }
        double h_pr = hypervolume(&ex, mask, keep, nkeep, lo, hi);
        out->pr_hv_ratio = h_ex > 0 ? h_pr / h_ex : NAN;
        free(mask);
    }
    dse_run_fini(&ex);
    dse_run_fini(&nl);
    cfg_study_fini(&s);
    return 0;
}

int main(int argc, char **argv)
{
    int threads = 2, quick = 0;
    bench_case cases[64];
    int ncases = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_search [-j THREADS] [--quick] "
                            "[STUDY.yaml ...]\n");
            return 2;
        } else if (ncases < 64) {
            cases[ncases++] = (bench_case){argv[i], argv[i], NULL};
        }
    }
    if (ncases == 0) {
        cases[ncases++] = (bench_case){"vlsi_1024 mixed", "configs/vlsi_1024.yaml", NULL};
        cases[ncases++] = (bench_case){"vlsi_4096 mixed", "configs/vlsi_4096.yaml", NULL};
        cases[ncases++] = (bench_case){"multichip_1024 mixed",
                                       "configs/multichip_1024.yaml", NULL};
        if (!quick)
            cases[ncases++] = (bench_case){"synthetic_4096", NULL, synthetic};
    }
    printf("NLopt epsilon-constraint search vs exhaustive, models only, "
           "mixed radices on (%d threads for exhaustive; NLopt is "
           "sequential)\n\n",
           threads);
    printf("%-22s %8s %8s %8s %7s %9s %9s %7s %5s %8s %10s %8s %8s\n", "space",
           "feasible", "ex.desg", "nl.desg", "desg%", "ex.evals", "nl.evals",
           "evals%", "objs", "HV ratio", "front rec.", "ex s", "nl s");
    int failed = 0, done[64] = {0};
    outcome res[64];
    for (int c = 0; c < ncases; c++) {
        outcome o;
        if (run_case(&cases[c], threads, &o)) {
            failed = 1;
            continue;
        }
        done[c] = 1;
        res[c] = o;
        printf("%-22s %8zu %8zu %8zu %6.1f%% %9zu %9zu %6.1f%% %5d %8.4f %4zu/%-5zu "
               "%8.2f %8.2f\n",
               cases[c].label, o.feasible, o.ex_designs, o.nl_designs,
               100.0 * (double)o.nl_designs / (double)o.ex_designs, o.ex_evals,
               o.nl_evals, 100.0 * (double)o.nl_evals / (double)o.ex_evals,
               o.kept, o.hv_ratio, o.found, o.front, o.ex_s, o.nl_s);
        fflush(stdout);
    }
    printf("\ntarget: HV ratio >= 0.97 with <= 10%% of the evaluations. "
           "objs = objectives that vary on the exhaustive front.\n");
    printf("\nprototype (not dse's strategy): screen one design per family "
           "(most VCs), walk the VC ladders of the families ranked 0-1\n\n");
    printf("%-22s %8s %7s %9s %7s %8s %10s\n", "space", "pr.desg", "desg%",
           "pr.evals", "evals%", "HV ratio", "front rec.");
    for (int c = 0; c < ncases; c++)
        if (done[c])
            printf("%-22s %8zu %6.1f%% %9zu %6.1f%% %8.4f %4zu/%-5zu\n",
                   cases[c].label, res[c].pr_designs,
                   100.0 * (double)res[c].pr_designs / (double)res[c].ex_designs,
                   res[c].pr_evals,
                   100.0 * (double)res[c].pr_evals / (double)res[c].ex_evals,
                   res[c].pr_hv_ratio, res[c].pr_found, res[c].front);
    return failed;
}

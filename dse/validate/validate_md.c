/*
 * validate_md.c — writes a validation run (validate.h) as Markdown, the
 * committed docs/validation.md, with one SVG plot per compared set-up in
 * the directory beside it (docs/validation/), drawn by PLplot through
 * chart.h and linked relatively so that the page renders on a forge.
 *
 * Layout: provenance (command, revision, date, run lengths), how to read
 * the numbers, a summary table, the open discrepancies (the set-ups whose
 * error exceeds what the source claimed for itself), then per model and
 * set-up: design,
 * saturation rates, the model-vs-simulation table per rate with CIs, the
 * plot, and the source's own simulation where it printed one.  The page
 * holds results only: what they led to is reference (docs/models/
 * corrected.md) and how it was found is history (docs/history/), both
 * written by hand and kept out of a generated file.
 *
 * Two model variants (validate.h): every model number is shown for the
 * primary variant (corrected by default; it decides the verdicts) and for
 * recommended beside it, collapsed into one column where the two give
 * identical numbers.  In the plots the primary curve is solid and the
 * secondary dashed (chart.h draws solid lines only, so the dash is added
 * to the finished SVG by the secondary curve's colour: svg_dash).
 *
 * The file is written to a temporary name and renamed, so an interrupted
 * run never leaves half a page.
 *
 * Overwriting (dse_validate_out_check): the page and its directory are
 * replaced only when dse validate wrote them, recognised by
 * DSE_VALIDATE_MARKER in the directory, as dse/report does for report
 * directories.  A full run's output (the committed docs/validation.md and
 * docs/validation/error-bands.csv, which the optimizer embeds at build
 * time) is replaced only with --overwrite (opts.overwrite), so a trial run
 * with the default --out can no longer overwrite the optimizer's data
 * silently.  Rejected: a time stamp or checksum of the committed files
 * (git already knows whether they changed; what matters is who may
 * replace them), and refusing every existing page (a partial trial page
 * is disposable).
 */
#include <errno.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dse/report/chart.h"
#include "net/xalloc.h"
#include "dse/validate/validate.h"

#define NUM 48

static const char *num(char *buf, double v, const char *fmt)
{
    if (!isfinite(v))
        return "-";
    snprintf(buf, NUM, fmt, v);
    return buf;
}

static const char *pct(char *buf, double v)
{
    if (!isfinite(v))
        return "-";
    snprintf(buf, NUM, "%.1f%%", v);
    return buf;
}

static const char *spct(char *buf, double v)
{
    if (!isfinite(v))
        return "-";
    snprintf(buf, NUM, "%+.1f%%", v);
    return buf;
}

/* File-name form of "model/label": lowercase alphanumerics and '-'. */
static void slug(char *out, size_t size, const dse_validate_case *c)
{
    size_t n = 0;
    char src[256];
    snprintf(src, sizeof src, "%s-%s", c->cfg->model, c->cfg->label);
    for (const char *p = src; *p && n + 1 < size; p++) {
        char ch = *p;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')))
            ch = '-';
        if (ch == '-' && n > 0 && out[n - 1] == '-')
            continue;
        out[n++] = ch;
    }
    out[n] = '\0';
}

static const char *metric_name(dse_validate_metric m)
{
    return m == DSE_VALIDATE_NETWORK_LATENCY
               ? "network latency (header injection to last flit)"
               : "latency (generation to last flit consumed)";
}

static double sim_of(const dse_validate_point *pt, dse_validate_metric m,
                     double *ci)
{
    if (pt->sim_code || pt->sim.status != SIM_OK) {
        *ci = NAN;
        return NAN;
    }
    *ci = m == DSE_VALIDATE_NETWORK_LATENCY ? pt->sim.network_latency_ci95
                                            : pt->sim.latency_ci95;
    return m == DSE_VALIDATE_NETWORK_LATENCY ? pt->sim.network_latency
                                             : pt->sim.latency;
}

static const char *sim_status_text(const dse_validate_point *pt)
{
    if (pt->sim_code)
        return err_code_text(pt->sim_code);
    return sim_status_name(pt->sim.status);
}

/* ---- variants ----------------------------------------------------------- */

static int nvar(const dse_validate_case *c)
{
    return c->nvariants > 0 ? c->nvariants : 1;
}

/* Variant slots shown as separate columns: 1 when there is one variant or
 * the two give identical numbers. */
static int shown(const dse_validate_case *c)
{
    return nvar(c) == 2 && !c->variants_same ? 2 : 1;
}

/* Column label of slot k: the variant's name, or "corrected = recommended"
 * when the two collapse into one. */
static const char *var_label(const dse_validate_case *c, int k, char *buf,
                             size_t size)
{
    if (nvar(c) == 2 && shown(c) == 1)
        snprintf(buf, size, "%s = %s", model_variant_name(c->variant[0]),
                 model_variant_name(c->variant[1]));
    else
        snprintf(buf, size, "%s", model_variant_name(c->variant[k]));
    return buf;
}

static const char *model_cell(char *buf, const dse_validate_estimate *es,
                              double v)
{
    return es->model_code == 0 ? num(buf, v, "%.2f")
                               : model_status_name(es->model.status);
}

/* ---- charts ------------------------------------------------------------- */

/* PLplot's SVG puts every attribute on its own indented line; the files are
 * committed, so fold each run of whitespace that contains a newline into
 * one space (XML attribute and default text whitespace handling make the
 * two equivalent; PLplot's text has no such runs), then shorten numbers in
 * attributes.  In place; the result is never longer. */
static void svg_compact(char *svg)
{
    char *w = svg;
    for (const char *r = svg; *r;) {
        if (*r == '\n' || ((*r == ' ' || *r == '\t') && w > svg &&
                           (w[-1] == ' ' || w[-1] == '>'))) {
            const char *q = r;
            int nl = 0;
            while (*q == ' ' || *q == '\t' || *q == '\n')
                nl |= *q++ == '\n';
            if (nl || q > r + 1) {
                if (w > svg && w[-1] != '>' && *q != '/' && *q != '>' &&
                    *q != '<')
                    *w++ = ' ';
                r = q;
                continue;
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
    /* Inside tags only (never text such as tick labels): drop attributes
     * equal to SVG's defaults and cut decimals to 2 places (0.01 pt). */
    static const char *const drop[] = {" stroke-opacity=\"1.000000\"",
                                       " fill-opacity=\"1.000000\""};
    int in_tag = 0;
    w = svg;
    for (const char *r = svg; *r;) {
        if (*r == '<')
            in_tag = 1;
        else if (*r == '>')
            in_tag = 0;
        if (in_tag) {
            int skipped = 0;
            for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) {
                size_t dl = strlen(drop[k]);
                if (strncmp(r, drop[k], dl) == 0) {
                    r += dl;
                    skipped = 1;
                    break;
                }
            }
            if (skipped)
                continue;
            if (*r == '.' && w > svg && w[-1] >= '0' && w[-1] <= '9' &&
                r[1] >= '0' && r[1] <= '9') {
                const char *q = r + 1;
                char frac[3] = {0, 0, 0};
                int nf = 0;
                while (*q >= '0' && *q <= '9') {
                    if (nf < 2)
                        frac[nf] = *q;
                    nf++;
                    q++;
                }
                int keep = nf < 2 ? nf : 2;
                while (keep > 0 && frac[keep - 1] == '0')
                    keep--;
                if (keep > 0) {
                    *w++ = '.';
                    for (int i = 0; i < keep; i++)
                        *w++ = frac[i];
                }
                r = q;
                continue;
            }
        }
        *w++ = *r++;
    }
    *w = '\0';
}

/* chart.h palette indices of the model curves, and the stroke PLplot
 * writes for the secondary one (chart.c's palette entry 2 + 3, Okabe-Ito
 * reddish purple).  If chart.c's palette changes, the dash is lost and
 * tests/test_validate.c says so. */
#define PRIMARY_COLOR 1
#define SECONDARY_COLOR 3
#define SECONDARY_STROKE "stroke=\"#CC79A7\""

/* Dash every polyline drawn with `stroke` (the curve and its legend
 * sample).  Frees svg; returns a malloc'd copy. */
static char *svg_dash(char *svg, const char *stroke)
{
    static const char dash[] = " stroke-dasharray=\"7 4\"";
    size_t hits = 0, sl = strlen(stroke), dl = strlen(dash);
    for (const char *p = strstr(svg, stroke); p; p = strstr(p + sl, stroke))
        hits++;
    char *out = xmalloc(strlen(svg) + hits * dl + 1), *w = out;
    for (const char *r = svg; *r;) {
        if (strncmp(r, stroke, sl) == 0) {
            memcpy(w, r, sl);
            w += sl;
            r += sl;
            memcpy(w, dash, dl);
            w += dl;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
    free(svg);
    return out;
}

static int write_chart(const dse_validate_case *c, const char *path, err *e)
{
    dse_validate_metric m = c->cfg->metric;
    int n = c->npoints, nr = c->nrefs;
    double *sx = xcalloc((size_t)n + 1, sizeof(double));
    double *sy = xcalloc((size_t)n + 1, sizeof(double));
    double *slo = xcalloc((size_t)n + 1, sizeof(double));
    double *shi = xcalloc((size_t)n + 1, sizeof(double));
    double *rx = xcalloc((size_t)nr + 1, sizeof(double));
    double *ry = xcalloc((size_t)nr + 1, sizeof(double));
    double *oy = xcalloc((size_t)nr + 1, sizeof(double));
    int nv = shown(c);
    double *my[DSE_VALIDATE_MAX_VARIANTS];
    for (int k = 0; k < nv; k++)
        my[k] = xcalloc((size_t)c->fit[k].ncurve + 1, sizeof(double));
    double ymax = 0;
    for (int i = 0; i < n; i++) {
        double ci, v = sim_of(&c->points[i], m, &ci);
        sx[i] = c->points[i].rate;
        sy[i] = v;
        slo[i] = isfinite(ci) ? v - ci : NAN;
        shi[i] = isfinite(ci) ? v + ci : NAN;
        if (isfinite(v))
            ymax = fmax(ymax, isfinite(ci) ? v + ci : v);
    }
    for (int i = 0; i < nr; i++) {
        double ci;
        rx[i] = c->refs[i].rate;
        ry[i] = c->refs[i].ref_latency;
        oy[i] = sim_of(&c->refs[i], m, &ci);
        if (isfinite(ry[i]))
            ymax = fmax(ymax, ry[i]);
        if (isfinite(oy[i]))
            ymax = fmax(ymax, oy[i]);
    }
    /* Clip the model's climb to its own saturation: beyond twice the
     * highest simulated latency the line only squashes the data. */
    char labels[DSE_VALIDATE_MAX_VARIANTS][96];
    for (int k = 0; k < nv; k++) {
        const dse_validate_fit *ft = &c->fit[k];
        for (int i = 0; i < ft->ncurve; i++) {
            double v = ft->curve_latency[i];
            my[k][i] = ymax > 0 && v > 2 * ymax ? NAN : v;
        }
        char vl[64];
        snprintf(labels[k], sizeof labels[k], "model, %s%s",
                 var_label(c, k, vl, sizeof vl),
                 nv == 2 && k == 1 ? " (dashed)" : "");
    }
    chart_series series[5];
    size_t ns = 0;
    series[ns++] = (chart_series){.label = "simulation (95% CI)", .x = sx,
                                  .y = sy, .y_lo = slo, .y_hi = shi, .n =
                                  (size_t)n, .style = CHART_POINTS,
                                  .color = 0, .marker = 0};
    for (int k = 0; k < nv; k++)
        series[ns++] = (chart_series){
            .label = labels[k], .x = c->fit[k].curve_rate, .y = my[k],
            .n = (size_t)c->fit[k].ncurve, .style = CHART_LINE,
            .color = k == 0 ? PRIMARY_COLOR : SECONDARY_COLOR};
    if (nr) {
        series[ns++] = (chart_series){.label = "source's simulation",
                                      .x = rx, .y = ry, .n = (size_t)nr,
                                      .style = CHART_POINTS, .color = 2,
                                      .marker = 1};
        series[ns++] = (chart_series){.label = "simulation, source's rates",
                                      .x = rx, .y = oy, .n = (size_t)nr,
                                      .style = CHART_POINTS, .color = 0,
                                      .marker = 2};
    }
    char title[256];
    snprintf(title, sizeof title, "%s: %s", c->cfg->model, c->cfg->label);
    chart ch = {.title = title,
                .xlabel = "injection rate (messages/node/cycle)",
                .ylabel = m == DSE_VALIDATE_NETWORK_LATENCY
                              ? "network latency (cycles)"
                              : "latency (cycles)",
                .series = series, .nseries = ns, .width_px = 640,
                .height_px = 400};
    char *svg = chart_svg(&ch, e);
    int rc = 0;
    if (!svg) {
        rc = e ? e->code : ERR_IO;
    } else {
        svg_compact(svg);
        if (nv == 2)
            svg = svg_dash(svg, SECONDARY_STROKE);
        FILE *f = fopen(path, "w");
        if (!f || fputs(svg, f) < 0 || fclose(f) != 0) {
            rc = err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
        }
        free(svg);
    }
    free(sx), free(sy), free(slo), free(shi), free(rx), free(ry), free(oy);
    for (int k = 0; k < nv; k++)
        free(my[k]);
    return rc;
}

/* ---- sections ----------------------------------------------------------- */

static const char *verdict(const dse_validate_case *c, char *buf, size_t size)
{
    if (c->status != DSE_VALIDATE_DONE) {
        snprintf(buf, size, "%s", dse_validate_status_name(c->status));
        return buf;
    }
    const dse_validate_claim *cl = dse_validate_claim_for(c->cfg->model);
    const dse_validate_fit *ft = &c->fit[0];
    if (ft->n50 == 0) {
        snprintf(buf, size, "no comparable point below 50%%%s",
                 ft->msat50 ? " (the model saturates there)" : "");
        return buf;
    }
    int over = cl && ft->mape50 > cl->mape50_bound;
    snprintf(buf, size, "%s%s", over ? "**exceeds the source's claim**"
                                     : "within the source's claim",
             ft->msat50 ? "; the model saturates below 50%" : "");
    return buf;
}

static void mape_cell(char *buf, size_t size, double mape, int n, int msat)
{
    char a[NUM];
    if (msat)
        snprintf(buf, size, "%s (%d pts; model saturated at %d)",
                 pct(a, mape), n, msat);
    else
        snprintf(buf, size, "%s (%d pts)", pct(a, mape), n);
}

/* What a variant is, for the page header. */
static const char *variant_words(model_variant v)
{
    switch (v) {
    case MODEL_VARIANT_CORRECTED:
        return "the default and what `dse optimize` uses: recommended plus "
               "the corrections traced to the model side "
               "(docs/models/corrected.md)";
    case MODEL_VARIANT_RECOMMENDED:
        return "the sources' models with their typos resolved";
    case MODEL_VARIANT_PRINTED:
        return "the sources' equations as printed";
    }
    return "?";
}

/* The run's variants (every case of a run has the same). */
static int run_variants(const dse_validate_result *r,
                        model_variant v[DSE_VALIDATE_MAX_VARIANTS])
{
    return dse_validate_variants(r->opts.variant, v);
}

/* Models with at least one compared set-up, every one of which gave
 * identical numbers under both variants, as "`a`, `b`" (or ""). */
static void same_models(const dse_validate_result *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->ncases; i++) {
        const char *name = r->cases[i].cfg->model;
        int first = 1, done = 0, all_same = 1;
        for (size_t j = 0; j < r->ncases; j++) {
            const dse_validate_case *c = &r->cases[j];
            if (strcmp(c->cfg->model, name) != 0)
                continue;
            if (j < i)
                first = 0;
            if (c->status == DSE_VALIDATE_DONE) {
                done = 1;
                all_same &= c->variants_same;
            }
        }
        if (!first || !done || !all_same || used + 1 >= size)
            continue;
        used += (size_t)snprintf(buf + used, size - used, "%s`%s`",
                                 used ? ", " : "", name);
    }
}

static void write_header(FILE *f, const dse_validate_result *r,
                         const char *command, const char *revision,
                         const char *svg_link)
{
    const dse_validate_opts *o = &r->opts;
    model_variant v[DSE_VALIDATE_MAX_VARIANTS];
    int nv = run_variants(r, v);
    time_t now = time(NULL);
    struct tm tm;
    char date[64];
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    fprintf(f,
            "# Model validation: analytic models against the simulator\n\n"
            "Generated by `dse validate` (dse/validate/validate.c); do not edit by "
            "hand. What these results led to is in docs/models/corrected.md "
            "(the corrections in force); the measurements behind them are in "
            "docs/history/validation-notes.md.\n\n");
    fprintf(f, "- Command: `%s`\n", command ? command : "dse validate");
    fprintf(f, "- Revision: %s\n", revision ? revision : "unknown");
    fprintf(f, "- Date: %s; wall time %.0f s on %d thread%s\n", date,
            r->wall_s, o->threads, o->threads == 1 ? "" : "s");
    fprintf(f, "- Subset: %s%s%s\n",
            o->quick ? "`--quick` (each model's example and one study design)"
                     : "full (every set-up in dse/validate/validate_configs.c)",
            o->model ? ", model " : "", o->model ? o->model : "");
    if (nv == 2)
        fprintf(f, "- Model variants: **%s** (%s; it decides the verdicts "
                   "and the open discrepancies) and **%s** (%s), each "
                   "evaluated at the same rates against the same "
                   "simulations\n",
                model_variant_name(v[0]), variant_words(v[0]),
                model_variant_name(v[1]), variant_words(v[1]));
    else
        fprintf(f, "- Model variant: **%s** only (%s)\n",
                model_variant_name(v[0]), variant_words(v[0]));
    fprintf(f, "- Loads (fractions of the simulated saturation rate):");
    for (int i = 0; i < o->nfracs; i++)
        fprintf(f, "%s%g", i ? ", " : " ", o->fracs[i]);
    fprintf(f, "\n- Simulation per point: %d independent replication%s "
            "(seeds %llu..%llu), each %ld warm-up messages, then measured "
            "until the batch-means 95%% half-width is below %g%% of the mean "
            "(at least %ld, at most %ld messages); the CI shown comes from the "
            "spread of the replication means (Student t)%s.\n",
            o->seeds, o->seeds == 1 ? "" : "s", (unsigned long long)o->seed,
            (unsigned long long)(o->seed + (uint64_t)o->seeds - 1),
            o->warmup, 100 * o->ci_target, o->min_messages, o->max_messages,
            o->seeds == 1 ? " (one replication: batch means)" : "");
    int nshort = 0;
    for (size_t i = 0; i < r->ncases; i++)
        nshort += r->cases[i].cfg->short_sweep;
    if (nshort) {
        fprintf(f, "- Designs of the shipped studies (%d set-up%s, "
                "marked \"short sweep\"): loads", nshort,
                nshort == 1 ? "" : "s");
        for (int i = 0; i < o->short_nfracs; i++)
            fprintf(f, "%s%g", i ? ", " : " ", o->short_fracs[i]);
        fprintf(f, " only, %d replication%s per point%s.\n", o->short_seeds,
                o->short_seeds == 1 ? "" : "s",
                o->short_seeds == 1 ? " (batch-means CI)" : "");
    }
    fprintf(f, "- Saturation search: probe runs of %ld + %ld messages",
            o->probe_warmup, o->probe_messages);
    if (o->probe_services > 0)
        fprintf(f, " (more where that is under %g message times, Lm cycles "
                "each, of the whole network: long worms; warm-up a third)",
                o->probe_services);
    fprintf(f, ", bracketing by x1.5 from the %s model's saturation rate, "
            "then bisection to %g%% (at most %d probes).\n\n",
            model_variant_name(v[0]), 100 * o->probe_precision,
            o->probe_max);
    fprintf(f,
            "## How to read\n\n"
            "- **Simulated saturation rate** (`sim sat`): the highest rate a "
            "probe ran without the simulator's saturation verdict (source "
            "queues growing without bound, or accepted throughput below 95%% "
            "of offered; for the probes, stricter than sim_run's defaults: "
            "mean source queue above %g messages per node, or accepted below "
            "%g%% of offered), never above the channel-load bound (the "
            "busiest channel offered one flit per cycle: a short probe can "
            "miss an overload that falls on a few channels, as on hot-spot "
            "traffic; a set-up with no verdict up to the bound gets the "
            "bound). The sweep runs at fixed fractions of it (`load`).\n"
            "- **Model saturation rate** (`model sat`): the largest rate at "
            "which the model converges (model_saturation_rate, bisection to "
            "0.1%%). `ratio` = model sat / sim sat: below 1 the model "
            "saturates first.\n"
            "- **Error** = (model - sim) / sim, signed: positive when the "
            "model predicts longer latency. **MAPE <=50%%** is the mean "
            "absolute error over the loads up to 50%% of the simulated "
            "saturation rate, **MAPE <=80%%** up to 80%%; points at which the "
            "model has already saturated are counted apart, not averaged.\n"
            "- **Targets** (for the %s variant): a set-up meets "
            "them when the saturation `ratio` is within %g-%g and MAPE "
            "<=80%% is at most %g%%; the summary's `targets` column says "
            "which it misses (an unknown ratio or MAPE misses), and the "
            "line under the table counts the set-ups outside them.\n"
            "- **Error bands** (`%s/error-bands.csv`, read by `dse "
            "optimize` through dse/common/bands.h): per model and variant, "
            "over its compared set-ups, the bias and MAPE pooled over every "
            "sweep point up to 80%% of the simulated saturation rate, the "
            "range of simulated / model latency over those points and the "
            "range of model / simulated saturation rate.\n",
            o->probe_queue, 100 * o->probe_ratio, model_variant_name(v[0]),
            DSE_VALIDATE_TARGET_SAT_LO, DSE_VALIDATE_TARGET_SAT_HI,
            DSE_VALIDATE_TARGET_MAPE80, svg_link);
    if (nv == 2) {
        char same[512];
        same_models(r, same, sizeof same);
        fprintf(f,
                "- **Variants**: the model side is computed twice, for "
                "**%s** and for **%s**, against the same simulations. In the "
                "summary, `model sat`, `ratio`, the MAPE and bias columns and "
                "the verdict are those of %s; `MAPE <=50%% (%s)` and `ratio "
                "(%s)` those of %s, shown as \"same\" when %s gives "
                "identical numbers "
                "(the model has no correction for that set-up%s%s). The "
                "per-set-up tables give each variant its own model and error "
                "columns, merged into one (\"%s = %s\") when identical; the "
                "plots draw %s solid and %s dashed.%s\n",
                model_variant_name(v[0]), model_variant_name(v[1]),
                model_variant_name(v[0]), model_variant_name(v[1]),
                model_variant_name(v[1]), model_variant_name(v[1]),
                model_variant_name(v[1]), same[0] ? "; in this run: " : "",
                same, model_variant_name(v[0]), model_variant_name(v[1]),
                model_variant_name(v[0]), model_variant_name(v[1]),
                v[0] == MODEL_VARIANT_CORRECTED
                    ? " The difference between the two is what the "
                      "corrections bought."
                    : "");
    }
    fprintf(f,
            "- The compared quantity is mean message latency from generation "
            "to the last flit consumed (source queue included), except for "
            "`torus2d-adaptive-meanflow`, whose model has no source queue: "
            "there the simulator's network latency is compared.\n"
            "- **Claim**: what the source says about its own accuracy. Only "
            "[QCC02] prints numbers (within 6%% at low and moderate load); "
            "the others say \"close agreement\" from figures, which we read "
            "as MAPE <=50%% at most 10%%. A set-up above that bound (for the "
            "%s variant) is listed under Open discrepancies.\n"
            "- **Not simulated yet**: the simulator does not support the "
            "set-up (sim_supports); the suite picks it up by itself once it "
            "does.\n\n",
            model_variant_name(v[0]));
}

/* The summary's "targets" cell of slot k: which targets it misses. */
static const char *target_cell(const dse_validate_case *c, int k)
{
    if (c->status != DSE_VALIDATE_DONE)
        return "-";
    switch (dse_validate_off_target(c, k)) {
    case 0: return "met";
    case DSE_VALIDATE_OFF_SAT: return "**off: ratio**";
    case DSE_VALIDATE_OFF_MAPE80: return "**off: MAPE <=80%**";
    default: return "**off: ratio, MAPE <=80%**";
    }
}

static void write_summary(FILE *f, const dse_validate_result *r)
{
    model_variant v[DSE_VALIDATE_MAX_VARIANTS];
    int nv = run_variants(r, v);
    fprintf(f, "## Summary\n\n");
    if (nv == 2)
        fprintf(f, "Model columns without a variant name, and the verdict: "
                   "%s.\n\n", model_variant_name(v[0]));
    fprintf(f, "| model | set-up | sim sat | model sat | ratio | MAPE <=50%% "
               "| MAPE <=80%% | bias <=50%% |");
    if (nv == 2)
        fprintf(f, " MAPE <=50%% (%s) | ratio (%s) |",
                model_variant_name(v[1]), model_variant_name(v[1]));
    fprintf(f, " verdict | targets |\n|---|---|---|---|---|---|---|---|%s---|"
               "---|\n", nv == 2 ? "---|---|" : "");
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        const dse_validate_fit *ft = &c->fit[0];
        char a[NUM], b[NUM], d[NUM], g[NUM], v160[160];
        char m50[96], m80[96];
        int done = c->status == DSE_VALIDATE_DONE;
        if (done) {
            mape_cell(m50, sizeof m50, ft->mape50, ft->n50, ft->msat50);
            mape_cell(m80, sizeof m80, ft->mape80, ft->n80, ft->msat80);
        } else {
            snprintf(m50, sizeof m50, "-");
            snprintf(m80, sizeof m80, "-");
        }
        fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s |",
                c->cfg->model, c->cfg->label,
                done ? num(a, c->sim_sat, "%.4g") : "-",
                num(b, ft->model_sat > 0 ? ft->model_sat : NAN, "%.4g"),
                num(d, ft->sat_ratio, "%.2f"), m50, m80,
                spct(g, ft->bias50));
        if (nv == 2) {
            const dse_validate_fit *f2 = &c->fit[1];
            char s50[96], h[NUM];
            if (!done)
                fprintf(f, " - | - |");
            else if (c->variants_same)
                fprintf(f, " same | same |");
            else {
                mape_cell(s50, sizeof s50, f2->mape50, f2->n50, f2->msat50);
                fprintf(f, " %s | %s |", s50,
                        num(h, f2->sat_ratio, "%.2f"));
            }
        }
        fprintf(f, " %s | %s |\n", verdict(c, v160, sizeof v160),
                target_cell(c, 0));
    }
    fprintf(f, "\n");
    size_t compared, off = dse_validate_count_off_target(r, 0, &compared);
    fprintf(f, "**Outside the targets: %zu of %zu compared set-up%s** "
               "(%s; saturation ratio outside %g-%g or MAPE <=80%% above "
               "%g%%)", off, compared, compared == 1 ? "" : "s",
            model_variant_name(v[0]), DSE_VALIDATE_TARGET_SAT_LO,
            DSE_VALIDATE_TARGET_SAT_HI, DSE_VALIDATE_TARGET_MAPE80);
    if (nv == 2)
        fprintf(f, "; %s: %zu", model_variant_name(v[1]),
                dse_validate_count_off_target(r, 1, NULL));
    fprintf(f, ".\n\n");
}

static void write_discrepancies(FILE *f, const dse_validate_result *r)
{
    fprintf(f, "## Open discrepancies\n\n");
    int any = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        const dse_validate_fit *ft = &c->fit[0];
        const dse_validate_claim *cl = dse_validate_claim_for(c->cfg->model);
        int over = c->status == DSE_VALIDATE_DONE && cl && ft->n50 &&
                   ft->mape50 > cl->mape50_bound;
        int early = c->status == DSE_VALIDATE_DONE && ft->msat50 > 0;
        if (!over && !early && c->status != DSE_VALIDATE_FAILED)
            continue;
        if (!any)
            fprintf(f, "Set-ups whose %s model's error exceeds what the "
                       "source claims for itself (automatic):\n\n",
                    model_variant_name(c->variant[0]));
        any = 1;
        char a[NUM], b[NUM], d[NUM];
        if (c->status == DSE_VALIDATE_FAILED) {
            fprintf(f, "- `%s` %s: **failed**: %s\n", c->cfg->model,
                    c->cfg->label, c->reason);
            continue;
        }
        fprintf(f, "- `%s` %s: MAPE <=50%% %s (bias %s, bound %g%%), "
                   "saturation ratio %s%s",
                c->cfg->model, c->cfg->label, pct(a, ft->mape50),
                spct(b, ft->bias50), cl ? cl->mape50_bound : 0,
                num(d, ft->sat_ratio, "%.2f"),
                early ? "; the model saturates below 50% of the "
                        "simulated saturation rate" : "");
        if (nvar(c) == 2 && c->variants_same)
            fprintf(f, " (%s: the same)", model_variant_name(c->variant[1]));
        else if (nvar(c) == 2)
            fprintf(f, " (%s: MAPE <=50%% %s, bias %s, ratio %s)",
                    model_variant_name(c->variant[1]),
                    pct(a, c->fit[1].mape50), spct(b, c->fit[1].bias50),
                    num(d, c->fit[1].sat_ratio, "%.2f"));
        fprintf(f, "\n");
    }
    if (!any)
        fprintf(f, "No set-up exceeds its source's claim in this run.\n");
    fprintf(f, "\n");
}

/* "| model (V) | error (V) |" header cells, one pair per shown variant,
 * with `what` naming the error column ("error", "model vs ours"). */
static void variant_head(FILE *f, const dse_validate_case *c,
                         const char *what)
{
    for (int k = 0; k < shown(c); k++) {
        char vl[64];
        var_label(c, k, vl, sizeof vl);
        fprintf(f, " model (%s) | %s (%s) |", vl, what, vl);
    }
}

static void write_points(FILE *f, const dse_validate_case *c)
{
    dse_validate_metric m = c->cfg->metric;
    fprintf(f, "| load | rate | simulation | +-95%% | sim network latency |");
    variant_head(f, c, "error");
    fprintf(f, " sim status |\n|---|---|---|---|---|%s---|\n",
            shown(c) == 2 ? "---|---|---|---|" : "---|---|");
    for (int i = 0; i < c->npoints; i++) {
        const dse_validate_point *pt = &c->points[i];
        char a[NUM], b[NUM], d[NUM], g[NUM], h[NUM], k[NUM];
        double ci, v = sim_of(pt, m, &ci);
        int ok = isfinite(v);
        fprintf(f, "| %.0f%% | %s | %s | %s | %s |", 100 * pt->frac,
                num(a, pt->rate, "%.5g"), num(b, v, "%.2f"),
                num(d, ci, "%.2f"),
                num(g, ok ? pt->sim.network_latency : NAN, "%.2f"));
        for (int s = 0; s < shown(c); s++) {
            const dse_validate_estimate *es = &pt->est[s];
            fprintf(f, " %s | %s |", model_cell(h, es, es->model.latency),
                    spct(k, es->error_pct));
        }
        fprintf(f, " %s |\n", sim_status_text(pt));
    }
    fprintf(f, "\n");
}

/* Broadcast traffic: the broadcast completion latency (generation to the
 * last copy consumed) against the model's estimate, where it gives one. */
static void write_broadcast(FILE *f, const dse_validate_case *c)
{
    fprintf(f, "Broadcast completion latency (the model's `broadcast_latency`, "
               "a lower estimate by its own account):\n\n"
               "| load | rate | simulation | +-95%% |");
    variant_head(f, c, "error");
    fprintf(f, "\n|---|---|---|---|%s\n",
            shown(c) == 2 ? "---|---|---|---|" : "---|---|");
    for (int i = 0; i < c->npoints; i++) {
        const dse_validate_point *pt = &c->points[i];
        int ok = pt->sim_code == 0 && pt->sim.status == SIM_OK;
        char a[NUM], b[NUM], d[NUM], g[NUM], h[NUM];
        fprintf(f, "| %.0f%% | %s | %s | %s |", 100 * pt->frac,
                num(a, pt->rate, "%.5g"),
                ok ? num(b, pt->sim.broadcast_latency, "%.2f")
                   : sim_status_text(pt),
                ok ? num(d, pt->sim.broadcast_latency_ci95, "%.2f") : "-");
        for (int s = 0; s < shown(c); s++) {
            const dse_validate_estimate *es = &pt->est[s];
            fprintf(f, " %s | %s |",
                    model_cell(g, es, es->model.broadcast_latency),
                    spct(h, es->bcast_error_pct));
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void write_refs(FILE *f, const dse_validate_case *c)
{
    dse_validate_metric m = c->cfg->metric;
    fprintf(f, "The source's own simulation at its own rates, against ours "
               "and the model:\n\n"
               "| rate | load | source's simulation | our simulation | +-95%% "
               "| ours vs source |");
    variant_head(f, c, "model vs ours");
    fprintf(f, "\n|---|---|---|---|---|---|%s\n",
            shown(c) == 2 ? "---|---|---|---|" : "---|---|");
    for (int i = 0; i < c->nrefs; i++) {
        const dse_validate_point *pt = &c->refs[i];
        char a[NUM], b[NUM], d[NUM], g[NUM], h[NUM], k[NUM];
        double ci, v = sim_of(pt, m, &ci);
        double ours_vs = isfinite(v) && pt->ref_latency > 0
                             ? 100 * (v - pt->ref_latency) / pt->ref_latency
                             : NAN;
        fprintf(f, "| %g | %.0f%% | %s | %s | %s | %s |", pt->rate,
                100 * pt->frac, num(a, pt->ref_latency, "%.2f"),
                isfinite(v) ? num(b, v, "%.2f") : sim_status_text(pt),
                num(d, ci, "%.2f"), spct(g, ours_vs));
        for (int s = 0; s < shown(c); s++) {
            const dse_validate_estimate *es = &pt->est[s];
            fprintf(f, " %s | %s |", model_cell(h, es, es->model.latency),
                    spct(k, es->error_pct));
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

/* "- model saturation rate (V): ..." per shown variant. */
static void write_model_sat(FILE *f, const dse_validate_case *c, int ratio)
{
    for (int k = 0; k < shown(c); k++) {
        const dse_validate_fit *ft = &c->fit[k];
        char a[NUM], b[NUM], d[NUM], vl[64];
        fprintf(f, "- model saturation rate (%s): %s", var_label(c, k, vl,
                sizeof vl), num(a, ft->model_sat > 0 ? ft->model_sat : NAN,
                "%.5g"));
        if (ratio)
            fprintf(f, " (ratio %s)", num(b, ft->sat_ratio, "%.3f"));
        fprintf(f, "; model zero-load latency %s\n",
                num(d, ft->zero_load, "%.2f"));
    }
}

static int write_case(FILE *f, const dse_validate_case *c,
                      const char *svg_dir, const char *svg_link, err *e)
{
    char dtext[512], wtext[256], a[NUM], b[NUM], d[NUM], g[NUM];
    fprintf(f, "### %s: %s\n\n%s.\n\n", c->cfg->model, c->cfg->label,
            c->cfg->origin);
    if (!c->m) {
        fprintf(f, "**%s**: %s\n\n", dse_validate_status_name(c->status),
                c->reason);
        return 0;
    }
    net_design_format(&c->design, dtext, sizeof dtext);
    net_workload_format(&c->workload, wtext, sizeof wtext);
    fprintf(f, "- design: `%s`\n- workload: `%s` (%d flits)\n", dtext, wtext,
            net_message_flits(&c->design, &c->workload));
    if (c->status == DSE_VALIDATE_NOT_SIMULATED ||
        c->status == DSE_VALIDATE_NOT_COVERED) {
        write_model_sat(f, c, 0);
        fprintf(f, "\n**%s** (%s)\n\n", dse_validate_status_name(c->status),
                c->reason);
        return 0;
    }
    fprintf(f, "- compared: %s\n", metric_name(c->cfg->metric));
    if (c->cfg->short_sweep)
        fprintf(f, "- short sweep (a design of a shipped study): %d "
                   "load%s, %d replication%s per point\n", c->npoints,
                c->npoints == 1 ? "" : "s", c->seeds,
                c->seeds == 1 ? "" : "s");
    if (c->sim_sat > 0 && c->sat_at_bound)
        fprintf(f, "- simulated saturation rate: %s, the channel-load bound "
                   "(busiest channel: %s); no probe up to it saw saturation "
                   "(%d probes), and no network sustains more\n",
                num(a, c->sim_sat, "%.5g"), c->bound_channel, c->probes);
    else if (c->sim_sat > 0)
        fprintf(f, "- simulated saturation rate: %s (saturated at %s; %d "
                   "probes)\n",
                num(a, c->sim_sat, "%.5g"),
                isfinite(c->sim_sat_hi) ? num(b, c->sim_sat_hi, "%.5g")
                                        : "no rate probed",
                c->probes);
    write_model_sat(f, c, 1);
    if (c->status == DSE_VALIDATE_FAILED)
        fprintf(f, "- **failed**: %s\n", c->reason);
    if (c->npoints) {
        for (int k = 0; k < shown(c); k++) {
            const dse_validate_fit *ft = &c->fit[k];
            char vl[64];
            fprintf(f, "- %s: MAPE <=50%% %s over %d points (mean signed "
                       "error %s); MAPE <=80%% %s over %d points",
                    var_label(c, k, vl, sizeof vl), pct(a, ft->mape50),
                    ft->n50, spct(b, ft->bias50), pct(d, ft->mape80),
                    ft->n80);
            if (ft->msat80)
                fprintf(f, "; the model is saturated at %d of the points up "
                           "to 80%%", ft->msat80);
            if (c->workload.traffic == NET_TRAFFIC_BROADCAST)
                fprintf(f, "; broadcast completion latency MAPE <=50%% %s "
                           "over %d points",
                        pct(b, ft->bcast_mape50), ft->bcast_n50);
            fprintf(f, "\n");
        }
        if (c->workload.traffic == NET_TRAFFIC_BROADCAST)
            fprintf(f, "- compared: unicast messages only (the simulator "
                       "reports broadcasts apart)\n");
        fprintf(f, "- widest simulation CI: %s of the mean; simulation "
                   "time %s s\n\n",
                pct(g, c->max_ci_pct), num(a, c->sim_cpu_s, "%.0f"));
        write_points(f, c);
        char name[256], path[1400];
        slug(name, sizeof name, c);
        snprintf(path, sizeof path, "%s/%s.svg", svg_dir, name);
        err ce;
        err_clear(&ce);
        if (write_chart(c, path, &ce) == 0)
            fprintf(f, "![%s %s: model and simulation](%s/%s.svg)\n\n",
                    c->cfg->model, c->cfg->label, svg_link, name);
        else
            fprintf(f, "(plot unavailable: %s)\n\n", ce.msg);
        if (c->workload.traffic == NET_TRAFFIC_BROADCAST)
            write_broadcast(f, c);
        if (c->nrefs)
            write_refs(f, c);
    } else {
        fprintf(f, "\n");
    }
    (void)e;
    return 0;
}

/* ---- who may replace the page ------------------------------------------ */

/* md_path without ".md" (or with ".d" appended) into dir. */
static int page_dir(const char *md_path, char *dir, size_t size, err *e)
{
    size_t len = strlen(md_path);
    if (len + 3 > size)
        return err_set(e, ERR_INVALID, "output path too long");
    snprintf(dir, size, "%s", md_path);
    if (len > 3 && strcmp(md_path + len - 3, ".md") == 0)
        dir[len - 3] = '\0';
    else
        snprintf(dir + len, size - len, ".d");
    return 0;
}

static int full_run(const dse_validate_opts *o)
{
    return !o->quick && !o->model;
}

/* 1 when dir is absent or an empty directory. */
static int dir_absent_or_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT;
    struct dirent *ent;
    int empty = 1;
    while ((ent = readdir(d)))
        if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..")) {
            empty = 0;
            break;
        }
    closedir(d);
    return empty;
}

/* Who wrote the existing page: 2 a full run, 1 a partial run, 0 unknown
 * (not dse validate). */
static int page_writer(const char *md_path, const char *dir)
{
    char path[1200], line[256];
    snprintf(path, sizeof path, "%s/%s", dir, DSE_VALIDATE_MARKER);
    FILE *f = fopen(path, "r");
    if (f) {
        int who = 0;
        if (fgets(line, sizeof line, f))
            who = strncmp(line, "full", 4) == 0 ? 2
                  : strncmp(line, "partial", 7) == 0 ? 1 : 0;
        fclose(f);
        return who;
    }
    /* pages written before the marker existed: the generator's first
     * line and its "- Subset:" line */
    f = fopen(md_path, "r");
    if (!f)
        return 0;
    int generated = 0, who = 0;
    for (int i = 0; i < 12 && fgets(line, sizeof line, f); i++) {
        if (strstr(line, "Generated by `dse validate`"))
            generated = 1;
        if (strncmp(line, "- Subset: ", 10) == 0)
            who = strncmp(line + 10, "full", 4) == 0 ? 2 : 1;
    }
    fclose(f);
    return generated ? (who ? who : 1) : 0;
}

int dse_validate_out_check(const char *md_path, const dse_validate_opts *o,
                           err *e)
{
    char dir[1100];
    int rc = page_dir(md_path, dir, sizeof dir, e);
    if (rc)
        return rc;
    struct stat st;
    int page = lstat(md_path, &st) == 0;
    if (page && !S_ISREG(st.st_mode))
        return err_set(e, ERR_CONFIG, "%s exists and is not a regular file: "
                       "dse validate replaces only pages it wrote", md_path);
    if (!page && dir_absent_or_empty(dir))
        return 0;
    int who = page_writer(md_path, dir);
    if (who == 0)
        return err_set(e, ERR_CONFIG,
                       "%s%s%s exists and was not written by dse validate "
                       "(no %s/%s): dse validate replaces only its own "
                       "pages; choose another --out",
                       page ? md_path : dir, page ? " or " : "",
                       page ? dir : "", dir, DSE_VALIDATE_MARKER);
    if (who == 2 && !o->overwrite)
        return err_set(e, ERR_CONFIG,
                       "%s holds a full validation run (the page and %s/"
                       "error-bands.csv, which dse optimize embeds at build "
                       "time): pass --overwrite to replace it%s, or --out "
                       "elsewhere for a trial run",
                       md_path, dir,
                       full_run(o) ? "" : " with this partial run");
    return 0;
}

static int write_marker(const char *dir, const dse_validate_opts *o,
                        const char *command, err *e)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, DSE_VALIDATE_MARKER);
    FILE *f = fopen(path, "w");
    if (!f)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    fprintf(f, "%s\n"
               "This directory and the page beside it were written by dse "
               "validate%s%s.\n"
               "dse validate replaces them, and only them; a full run's "
               "needs --overwrite.\n",
            full_run(o) ? "full" : "partial", command ? ": " : "",
            command ? command : "");
    if (fclose(f) != 0)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    return 0;
}

int dse_validate_write_md(const dse_validate_result *r, const char *md_path,
                          const char *command, const char *revision,
                          err *e)
{
    /* docs/validation.md -> docs/validation (dir), link "validation" */
    char svg_dir[1024], svg_link[1024], tmp[1100];
    int crc = page_dir(md_path, svg_dir, sizeof svg_dir, e);
    if (crc)
        return crc;
    /* again just before writing: the target may have changed during the
     * run (the CLI checked before it) */
    crc = dse_validate_out_check(md_path, &r->opts, e);
    if (crc)
        return crc;
    const char *base = strrchr(svg_dir, '/');
    snprintf(svg_link, sizeof svg_link, "%s", base ? base + 1 : svg_dir);
    if (mkdir(svg_dir, 0777) != 0 && errno != EEXIST)
        return err_set(e, ERR_IO, "%s: %s", svg_dir, strerror(errno));

    snprintf(tmp, sizeof tmp, "%s.tmp", md_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return err_set(e, ERR_IO, "%s: %s", tmp, strerror(errno));
    write_header(f, r, command, revision, svg_link);
    write_summary(f, r);
    write_discrepancies(f, r);
    const char *last_model = NULL;
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        if (!last_model || strcmp(last_model, c->cfg->model) != 0) {
            last_model = c->cfg->model;
            fprintf(f, "## %s\n\n", last_model);
            if (c->m)
                fprintf(f, "Source: %s.\n\n", c->m->source);
            const dse_validate_claim *cl = dse_validate_claim_for(last_model);
            if (cl)
                fprintf(f, "Claim: %s. Bound used: MAPE <=50%% at most "
                           "%g%%.\n\n", cl->words, cl->mape50_bound);
        }
        write_case(f, c, svg_dir, svg_link, e);
    }
    if (fclose(f) != 0) {
        remove(tmp);
        return err_set(e, ERR_IO, "%s: %s", tmp, strerror(errno));
    }
    char bands[1100];
    snprintf(bands, sizeof bands, "%s/error-bands.csv", svg_dir);
    int rc = dse_validate_write_bands(r, bands, e);
    if (rc) {
        remove(tmp);
        return rc;
    }
    rc = write_marker(svg_dir, &r->opts, command, e);
    if (rc) {
        remove(tmp);
        return rc;
    }
    if (rename(tmp, md_path) != 0) {
        int saved = errno;
        remove(tmp);
        return err_set(e, ERR_IO, "%s: %s", md_path, strerror(saved));
    }
    return 0;
}

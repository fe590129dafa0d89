/*
 * validate_bands.c — what a validation run says about each model's
 * accuracy as a whole (validate.h): the targets a set-up meets or misses,
 * and the measured error bands that `dse optimize` reads
 * (dse/common/bands.h, docs/validation/error-bands.csv).
 *
 * The band pools the sweep points of all of a model's compared set-ups
 * (loads <= 80% of the simulated saturation rate, both latencies known)
 * rather than averaging the set-ups' own MAPEs: a set-up with more points
 * weighs more, and the latency-ratio range must cover every point anyway.
 * Points where only the model saturated are left out of the latency
 * figures, as in MAPE <=80%; the saturation-ratio range covers them (a
 * model that saturates below 80% of the simulated rate has a ratio < 0.8).
 * The simulated / model latency ratio is taken from the point's signed
 * error, 100 / (100 + error_pct), so it is computed from exactly the
 * numbers the page shows.
 *
 * Ownership: dse_validate_bands() returns a malloc'd array; the run is
 * borrowed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "dse/validate/validate.h"

int dse_validate_off_target(const dse_validate_case *c, int k)
{
    if (c->status != DSE_VALIDATE_DONE)
        return 0;
    const dse_validate_fit *ft = &c->fit[k];
    int off = 0;
    if (!(ft->sat_ratio >= DSE_VALIDATE_TARGET_SAT_LO &&
          ft->sat_ratio <= DSE_VALIDATE_TARGET_SAT_HI))
        off |= DSE_VALIDATE_OFF_SAT;
    if (!(ft->mape80 <= DSE_VALIDATE_TARGET_MAPE80))
        off |= DSE_VALIDATE_OFF_MAPE80;
    return off;
}

size_t dse_validate_count_off_target(const dse_validate_result *r, int k,
                                     size_t *compared)
{
    size_t off = 0, done = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        if (c->status != DSE_VALIDATE_DONE ||
            k >= (c->nvariants > 0 ? c->nvariants : 1))
            continue;
        done++;
        off += dse_validate_off_target(c, k) != 0;
    }
    if (compared)
        *compared = done;
    return off;
}

static void band_add(dse_band *b, const dse_validate_case *c, int k,
                     double *sum_abs, double *sum_signed, int *n)
{
    const dse_validate_fit *ft = &c->fit[k];
    b->setups++;
    if (isfinite(ft->sat_ratio)) {
        if (!(b->sat_ratio_lo <= ft->sat_ratio))
            b->sat_ratio_lo = ft->sat_ratio;
        if (!(b->sat_ratio_hi >= ft->sat_ratio))
            b->sat_ratio_hi = ft->sat_ratio;
    }
    for (int i = 0; i < c->npoints; i++) {
        const dse_validate_point *pt = &c->points[i];
        double err_pct = pt->est[k].error_pct;
        if (!(pt->frac <= 0.8 + 1e-9) || !isfinite(err_pct))
            continue;
        double ratio = 100.0 / (100.0 + err_pct); /* sim / model */
        if (!(b->lat_ratio_lo <= ratio))
            b->lat_ratio_lo = ratio;
        if (!(b->lat_ratio_hi >= ratio))
            b->lat_ratio_hi = ratio;
        *sum_abs += fabs(err_pct);
        *sum_signed += err_pct;
        (*n)++;
    }
}

void dse_validate_bands(const dse_validate_result *r, dse_band **out,
                        size_t *count)
{
    model_variant v[DSE_VALIDATE_MAX_VARIANTS];
    int nv = dse_validate_variants(r->opts.variant, v);
    dse_band *b = xcalloc(r->ncases * (size_t)nv + 1, sizeof *b);
    size_t n = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const char *name = r->cases[i].cfg->model;
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(r->cases[j].cfg->model, name) != 0;
        if (!first)
            continue;
        for (int k = 0; k < nv; k++) {
            dse_band *d = &b[n++];
            snprintf(d->model, sizeof d->model, "%s", name);
            snprintf(d->variant, sizeof d->variant, "%s",
                     model_variant_name(v[k]));
            d->lat_ratio_lo = d->lat_ratio_hi = NAN;
            d->sat_ratio_lo = d->sat_ratio_hi = NAN;
            double sum_abs = 0, sum_signed = 0;
            int np = 0;
            for (size_t j = i; j < r->ncases; j++) {
                const dse_validate_case *c = &r->cases[j];
                if (c->status == DSE_VALIDATE_DONE &&
                    strcmp(c->cfg->model, name) == 0 &&
                    k < (c->nvariants > 0 ? c->nvariants : 1))
                    band_add(d, c, k, &sum_abs, &sum_signed, &np);
            }
            d->lat_mape_pct = np ? sum_abs / np : NAN;
            d->lat_bias_pct = np ? sum_signed / np : NAN;
        }
    }
    *out = b;
    *count = n;
}

static void field(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, ",%.6g", x);
    else
        fputc(',', f);
}

int dse_validate_write_bands(const dse_validate_result *r, const char *path,
                             err *e)
{
    char tmp[1100];
    if (strlen(path) + 5 > sizeof tmp)
        return err_set(e, ERR_INVALID, "output path too long");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    dse_band *b;
    size_t n;
    dse_validate_bands(r, &b, &n);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(b);
        return err_set(e, ERR_IO, "%s: %s", tmp, strerror(errno));
    }
    fprintf(f, "%s\n", DSE_BANDS_HEADER);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s,%s,%d", b[i].model, b[i].variant, b[i].setups);
        field(f, b[i].lat_bias_pct);
        field(f, b[i].lat_mape_pct);
        field(f, b[i].lat_ratio_lo);
        field(f, b[i].lat_ratio_hi);
        field(f, b[i].sat_ratio_lo);
        field(f, b[i].sat_ratio_hi);
        fputc('\n', f);
    }
    free(b);
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        int saved = errno;
        remove(tmp);
        return err_set(e, ERR_IO, "%s: %s", tmp, strerror(saved));
    }
    if (rename(tmp, path) != 0) {
        int saved = errno;
        remove(tmp);
        return err_set(e, ERR_IO, "%s: %s", path, strerror(saved));
    }
    return 0;
}

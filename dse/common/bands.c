/*
 * bands.c — see bands.h.  The embedded table is parsed once, under
 * pthread_once, into static storage.
 */
#include "dse/common/bands.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

#define BANDS_MAX 4096       /* lines: far above the registry's models x 3 */

static int field_real(const char *s, size_t n, double *out)
{
    if (n == 0) {
        *out = NAN;
        return 0;
    }
    char buf[64];
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    *out = strtod(buf, &end);
    return *end == 0 && !isnan(*out) ? 0 : -1;
}

int dse_bands_parse(const char *text, dse_band **out, size_t *count, err *e)
{
    *out = NULL;
    *count = 0;
    dse_band *v = NULL;
    size_t n = 0;
    int line = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        if (line > 1 && len > 0) {
            if (n >= BANDS_MAX) {
                free(v);
                return err_set(e, ERR_INVALID,
                               "error bands: more than %d lines", BANDS_MAX);
            }
            const char *f[9];
            size_t fl[9];
            int nf = 0;
            const char *q = p, *end = p + len;
            while (nf < 9) {
                const char *c = memchr(q, ',', (size_t)(end - q));
                f[nf] = q;
                fl[nf] = c ? (size_t)(c - q) : (size_t)(end - q);
                nf++;
                if (!c)
                    break;
                q = c + 1;
            }
            dse_band b;
            memset(&b, 0, sizeof b);
            double setups = 0, *dst[] = {&b.lat_bias_pct, &b.lat_mape_pct,
                                         &b.lat_ratio_lo, &b.lat_ratio_hi,
                                         &b.sat_ratio_lo, &b.sat_ratio_hi};
            int bad = nf != 9 || fl[0] == 0 || fl[0] >= sizeof b.model ||
                      fl[1] >= sizeof b.variant ||
                      field_real(f[2], fl[2], &setups) || !(setups >= 0);
            for (int k = 0; k < 6 && !bad; k++)
                bad = field_real(f[3 + k], fl[3 + k], dst[k]) != 0;
            if (bad) {
                free(v);
                return err_set(e, ERR_INVALID,
                               "error bands, line %d: expected %s", line,
                               DSE_BANDS_HEADER);
            }
            memcpy(b.model, f[0], fl[0]);
            memcpy(b.variant, f[1], fl[1]);
            b.setups = (int)setups;
            v = xrealloc(v, (n + 1) * sizeof *v);
            v[n++] = b;
        }
        p = eol ? eol + 1 : p + len;
    }
    *out = v;
    *count = n;
    return 0;
}

static dse_band *table;
static size_t ntable;
static dse_band fallback;            /* over every variant's lines */
#define MAX_VARIANT_FALLBACKS 8
static dse_band vfallback[MAX_VARIANT_FALLBACKS];   /* one per variant */
static size_t nvfallback;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static double widen_lo(double have, double x)
{
    return isnan(x) ? have : (isnan(have) ? x : fmin(have, x));
}

static double widen_hi(double have, double x)
{
    return isnan(x) ? have : (isnan(have) ? x : fmax(have, x));
}

/* The default band over the table's lines of one variant (variant NULL:
 * every line): every measured model's extremes, widened by half again (and
 * never narrower than a factor of two either way when nothing was
 * measured at all). */
static void default_band(const char *variant, dse_band *b)
{
    double llo = NAN, lhi = NAN, slo = NAN, shi = NAN, mape = NAN;
    for (size_t i = 0; i < ntable; i++) {
        if (variant && strcmp(table[i].variant, variant) != 0)
            continue;
        llo = widen_lo(llo, table[i].lat_ratio_lo);
        lhi = widen_hi(lhi, table[i].lat_ratio_hi);
        slo = widen_lo(slo, table[i].sat_ratio_lo);
        shi = widen_hi(shi, table[i].sat_ratio_hi);
        mape = widen_hi(mape, table[i].lat_mape_pct);
    }
    memset(b, 0, sizeof *b);
    snprintf(b->model, sizeof b->model, "(default)");
    if (variant)
        snprintf(b->variant, sizeof b->variant, "%s", variant);
    b->lat_bias_pct = NAN;
    b->lat_mape_pct = isnan(mape) ? NAN : 1.5 * mape;
    b->lat_ratio_lo = isnan(llo) ? 0.5 : llo / 1.5;
    b->lat_ratio_hi = isnan(lhi) ? 2.0 : lhi * 1.5;
    b->sat_ratio_lo = isnan(slo) ? 0.5 : slo / 1.5;
    b->sat_ratio_hi = isnan(shi) ? 2.0 : shi * 1.5;
}

static void load(void)
{
    if (dse_bands_parse(dse_bands_csv, &table, &ntable, NULL)) {
        table = NULL;
        ntable = 0;
    }
    default_band(NULL, &fallback);
    /* A model without a line is judged by the models of its own variant:
     * the recommended variant's widest miss (the adaptive torus model
     * without VCs at 0.15 of the simulated saturation rate) says nothing
     * about how far a corrected model may be off. */
    for (size_t i = 0; i < ntable; i++) {
        size_t k = 0;
        while (k < nvfallback &&
               strcmp(vfallback[k].variant, table[i].variant) != 0)
            k++;
        if (k == nvfallback && nvfallback < MAX_VARIANT_FALLBACKS)
            default_band(table[i].variant, &vfallback[nvfallback++]);
    }
}

const dse_band *dse_band_for(const char *model, const char *variant)
{
    pthread_once(&once, load);
    for (size_t i = 0; i < ntable; i++)
        if (model && variant && strcmp(table[i].model, model) == 0 &&
            strcmp(table[i].variant, variant) == 0 &&
            !isnan(table[i].lat_ratio_lo) && !isnan(table[i].sat_ratio_lo))
            return &table[i];
    for (size_t k = 0; variant && k < nvfallback; k++)
        if (strcmp(vfallback[k].variant, variant) == 0)
            return &vfallback[k];
    return &fallback;
}

static dse_band_covers_fn coverage;

void dse_bands_set_coverage(dse_band_covers_fn fn)
{
    coverage = fn;
}

int dse_band_covers(const char *model, const net_design *d,
                    const net_workload *w)
{
    return model && coverage && coverage(model, d, w);
}

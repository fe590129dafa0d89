/*
 * bands.h — each analytic model's measured error against the simulator,
 * as data the optimizer reads.
 *
 * `dse validate` measures, per model and variant, over its validation
 * set-ups: the latency bias and MAPE below 80% of the simulated saturation
 * rate, the range of simulated / model latency over those points, and the
 * range of model / simulated saturation rate.  It writes them to
 * docs/validation/error-bands.csv (regenerated with docs/validation.md);
 * the build embeds that file in the program, so the optimizer always reads
 * the bands of the models it was built with.  The optimizer widens a
 * model's figures by its band to get the optimistic bound that decides
 * whether a design may still beat the simulated front (dse/search/).
 *
 * The CSV: one header line, then one line per (model, variant):
 *   model,variant,setups,lat_bias_pct,lat_mape_pct,lat_ratio_lo,
 *   lat_ratio_hi,sat_ratio_lo,sat_ratio_hi
 * lat_ratio = simulated / model latency; sat_ratio = model / simulated
 * saturation rate; a field may be empty when nothing was measured.
 */
#ifndef DSE_COMMON_BANDS_H
#define DSE_COMMON_BANDS_H

#include <stddef.h>

#include "net/err.h"
#include "net/net.h"

typedef struct dse_band {
    char model[48];
    char variant[16];
    int setups;              /* validation set-ups behind the figures (0:
                                the default band, nothing measured) */
    double lat_bias_pct;     /* mean (model - sim) / sim x 100 */
    double lat_mape_pct;     /* mean |model - sim| / sim x 100 */
    double lat_ratio_lo, lat_ratio_hi;  /* sim / model latency */
    double sat_ratio_lo, sat_ratio_hi;  /* model / sim saturation rate */
} dse_band;

/* The CSV columns, for the writer (dse validate). */
#define DSE_BANDS_HEADER                                                     \
    "model,variant,setups,lat_bias_pct,lat_mape_pct,lat_ratio_lo,"           \
    "lat_ratio_hi,sat_ratio_lo,sat_ratio_hi"

/* Parse CSV text (format above) into a new array (*out, *count; free()).
 * 0, or ERR_INVALID with the line and the reason in e. */
int dse_bands_parse(const char *text, dse_band **out, size_t *count, err *e);

/* The band of (model, variant) from the embedded table; when it has no
 * line for them (a new model, a variant never validated), the default
 * band: the widest measured over every model of that variant (of every
 * variant when the variant has no line), widened by half again, with
 * setups = 0 so callers can say the figure is a guess.  Never NULL;
 * static data, thread-safe after the first call. */
const dse_band *dse_band_for(const char *model, const char *variant);

/* Whether a model's band may be trusted for a design: its validation
 * set-ups span the design's regime (dse/validate/validate_regime.c).  The
 * decision asks dse_band_covers; the program registers the set-ups' check
 * at start-up (dse/cli/main.c, bench/decide.c).  Nothing registered: no
 * band is trusted, every optimistic bound is the physical screen (valid,
 * only slower to certify). */
typedef int (*dse_band_covers_fn)(const char *model, const net_design *d,
                                  const net_workload *w);
void dse_bands_set_coverage(dse_band_covers_fn fn);
int dse_band_covers(const char *model, const net_design *d,
                    const net_workload *w);

/* The embedded CSV text (generated at build time from
 * docs/validation/error-bands.csv). */
extern const char dse_bands_csv[];

#endif

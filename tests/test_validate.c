/*
 * test_validate.c — the validation suite's mechanics (dse/validate/validate.h):
 *   - the summary statistics on synthetic points whose MAPE, bias and
 *     counts are computed by hand here, for two model variants at once;
 *   - which variants a primary variant brings (corrected/printed +
 *     recommended, recommended alone);
 *   - the built-in set-up table: every entry names a registered model that
 *     covers it, every model has exactly one example in the quick subset;
 *   - a tiny run (a 4x4 torus with short runs) end to end: saturation
 *     bracket, sweep, model under both variants (each estimate equal to a
 *     direct model evaluation under its variant), summary; an unsupported
 *     set-up reported as
 *     "not simulated yet" with its reason; identical numbers with 1 and 2
 *     threads;
 *   - the Markdown page: summary table, per-set-up table, SVG written and
 *     linked, no notes file quoted, the unsupported set-up listed; both
 *     variants' columns and curves (dashed secondary) when they differ,
 *     one merged column and "same" when they do not (both forced on the tiny run);
 *   - the accuracy targets and the error bands (validate_bands.c): by
 *     hand on synthetic cases of two set-ups, the CSV round-tripped
 *     through dse_bands_parse; on the tiny run, the CSV the page writer
 *     put beside the plots parsed back and checked against the run's own
 *     per-set-up figures; the targets column and count on the page;
 *   - a short sweep (the shipped studies' designs) beside a full one;
 *   - the built-in --quick subset end to end with CI-sized run lengths
 *     (every set-up compared, the 1024-node study design among them);
 *   - the command line: --help, bad options (--variant too), unknown
 *     model, --list, and the real --quick subset of one model (hcube-duato,
 *     ~10 s in ASan) with both variants on the page.
 * The full suite (dse validate) takes far longer and is run by hand; its
 * output is docs/validation.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dse/validate/validate.h"
#include "models/model.h"
#include "net/net.h"
#include "sim/sim.h"

/* ---- synthetic summary --------------------------------------------------- */

static void set_estimate(dse_validate_estimate *es, double mod, int model_ok)
{
    es->model_code = model_ok ? 0 : ERR_SATURATED;
    es->model.status = model_ok ? MODEL_CONVERGED : MODEL_SATURATED;
    es->model.latency = model_ok ? mod : 0;
}

static void set_point(dse_validate_point *p, double frac, double sim,
                      double net, int sim_ok, double mod, int model_ok)
{
    memset(p, 0, sizeof *p);
    p->frac = frac;
    p->rate = frac * 0.01;
    p->sim.status = sim_ok ? SIM_OK : SIM_SATURATED;
    p->sim.latency = sim_ok ? sim : 0;
    p->sim.latency_ci95 = sim_ok ? 0.05 * sim : 0;
    p->sim.network_latency = sim_ok ? net : 0;
    p->sim.network_latency_ci95 = sim_ok ? 0.02 * net : 0;
    set_estimate(&p->est[0], mod, model_ok);
    p->ref_latency = NAN;
}

static void test_summary_synthetic(void **state)
{
    (void)state;
    dse_validate_point pts[7];
    /* frac, sim, sim network, sim ok, model, model ok */
    set_point(&pts[0], 0.10, 100, 90, 1, 110, 1);  /* +10%      */
    set_point(&pts[1], 0.30, 200, 180, 1, 180, 1); /* -10%      */
    set_point(&pts[2], 0.50, 400, 360, 1, 500, 1); /* +25%      */
    set_point(&pts[3], 0.70, 500, 450, 1, 400, 1); /* -20%      */
    set_point(&pts[4], 0.80, 800, 700, 1, 0, 0);   /* model sat */
    set_point(&pts[5], 0.90, 900, 800, 1, 1800, 1);/* +100%     */
    set_point(&pts[6], 0.95, 0, 0, 0, 2000, 1);    /* sim sat   */
    /* the second variant: saturates at 50%, errors +5%, -20%, +5% */
    set_estimate(&pts[0].est[1], 105, 1);
    set_estimate(&pts[1].est[1], 160, 1);
    set_estimate(&pts[2].est[1], 0, 0);
    set_estimate(&pts[3].est[1], 525, 1);
    set_estimate(&pts[4].est[1], 0, 0);
    set_estimate(&pts[5].est[1], 0, 0);
    set_estimate(&pts[6].est[1], 0, 0);
    dse_validate_case c;
    memset(&c, 0, sizeof c);
    c.points = pts;
    c.npoints = 7;
    c.sim_sat = 0.01;
    c.nvariants = 2;
    c.variant[0] = MODEL_VARIANT_CORRECTED;
    c.variant[1] = MODEL_VARIANT_RECOMMENDED;
    c.fit[0].model_sat = 0.0075;
    c.fit[1].model_sat = 0.0045;
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    const dse_validate_fit *f0 = &c.fit[0], *f1 = &c.fit[1];
    assert_int_equal(f0->n50, 3);
    assert_int_equal(f0->n80, 4);
    assert_int_equal(f0->msat50, 0);
    assert_int_equal(f0->msat80, 1);
    assert_int_equal(c.ssat, 1);
    assert_float_equal(pts[0].est[0].error_pct, 10.0, 1e-9);
    assert_float_equal(pts[1].est[0].error_pct, -10.0, 1e-9);
    assert_float_equal(pts[3].est[0].error_pct, -20.0, 1e-9);
    assert_true(isnan(pts[4].est[0].error_pct));
    assert_float_equal(pts[5].est[0].error_pct, 100.0, 1e-9);
    assert_true(isnan(pts[6].est[0].error_pct));
    assert_float_equal(f0->mape50, (10 + 10 + 25) / 3.0, 1e-9);
    assert_float_equal(f0->bias50, (10 - 10 + 25) / 3.0, 1e-9);
    assert_float_equal(f0->mape80, (10 + 10 + 25 + 20) / 4.0, 1e-9);
    assert_float_equal(f0->sat_ratio, 0.75, 1e-12);
    assert_float_equal(c.max_ci_pct, 5.0, 1e-9);
    /* the second variant, from its own estimates */
    assert_int_equal(f1->n50, 2);
    assert_int_equal(f1->n80, 3);
    assert_int_equal(f1->msat50, 1);
    assert_int_equal(f1->msat80, 2);
    assert_float_equal(pts[0].est[1].error_pct, 5.0, 1e-9);
    assert_float_equal(pts[1].est[1].error_pct, -20.0, 1e-9);
    assert_true(isnan(pts[2].est[1].error_pct));
    assert_float_equal(pts[3].est[1].error_pct, 5.0, 1e-9);
    assert_float_equal(f1->mape50, (5 + 20) / 2.0, 1e-9);
    assert_float_equal(f1->bias50, (5 - 20) / 2.0, 1e-9);
    assert_float_equal(f1->mape80, (5 + 20 + 5) / 3.0, 1e-9);
    assert_float_equal(f1->sat_ratio, 0.45, 1e-12);
    assert_int_equal(c.variants_same, 0);

    /* identical estimates and saturation rates: "same" */
    for (int i = 0; i < 7; i++)
        pts[i].est[1] = pts[i].est[0];
    c.fit[1].model_sat = c.fit[0].model_sat;
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    assert_int_equal(c.variants_same, 1);
    assert_float_equal(f1->mape50, f0->mape50, 0);
    /* one latency differing in the last bit is not "same" */
    pts[3].est[1].model.latency = nextafter(pts[3].est[0].model.latency, 1e9);
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    assert_int_equal(c.variants_same, 0);

    /* the network-latency metric compares against sim network latency */
    c.nvariants = 1;
    dse_validate_case_summarize(&c, DSE_VALIDATE_NETWORK_LATENCY);
    assert_float_equal(pts[0].est[0].error_pct, 100.0 * (110 - 90) / 90,
                       1e-9);
    assert_float_equal(pts[1].est[0].error_pct, 0.0, 1e-9);
    assert_float_equal(c.max_ci_pct, 2.0, 1e-9);
    assert_int_equal(c.variants_same, 0); /* one variant: nothing to merge */

    /* no qualifying point: NAN, not 0 */
    c.npoints = 0;
    c.fit[0].model_sat = 0;
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    assert_true(isnan(f0->mape50));
    assert_true(isnan(f0->mape80));
    assert_true(isnan(f0->sat_ratio));
}

static void test_variants(void **state)
{
    (void)state;
    model_variant v[DSE_VALIDATE_MAX_VARIANTS];
    assert_int_equal(dse_validate_variants(MODEL_VARIANT_CORRECTED, v), 2);
    assert_int_equal(v[0], MODEL_VARIANT_CORRECTED);
    assert_int_equal(v[1], MODEL_VARIANT_RECOMMENDED);
    assert_int_equal(dse_validate_variants(MODEL_VARIANT_PRINTED, v), 2);
    assert_int_equal(v[0], MODEL_VARIANT_PRINTED);
    assert_int_equal(v[1], MODEL_VARIANT_RECOMMENDED);
    assert_int_equal(dse_validate_variants(MODEL_VARIANT_RECOMMENDED, v), 1);
    assert_int_equal(v[0], MODEL_VARIANT_RECOMMENDED);
    dse_validate_opts o;
    dse_validate_opts_init(&o, 0);
    assert_int_equal(o.variant, MODEL_VARIANT_CORRECTED);
}

/* ---- error bands and targets on synthetic cases --------------------------- */

static size_t slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    size_t len = fread(buf, 1, size - 1, f);
    buf[len] = '\0';
    fclose(f);
    return len;
}


static const dse_validate_config syn_cfg[] = {
    {.model = "torus-det", .label = "a", .origin = "test"},
    {.model = "torus-det", .label = "b", .origin = "test"},
    {.model = "dcsh-duato", .label = "c", .origin = "test"},
};

static void syn_case(dse_validate_case *c, const dse_validate_config *cfg,
                     dse_validate_point *pts, int n, double sim_sat,
                     double sat0, double sat1)
{
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->status = DSE_VALIDATE_DONE;
    c->points = pts;
    c->npoints = n;
    c->sim_sat = sim_sat;
    c->nvariants = 2;
    c->variant[0] = MODEL_VARIANT_CORRECTED;
    c->variant[1] = MODEL_VARIANT_RECOMMENDED;
    c->fit[0].model_sat = sat0;
    c->fit[1].model_sat = sat1;
    dse_validate_case_summarize(c, DSE_VALIDATE_LATENCY);
}

static void assert_rel(double got, double want)
{
    if (!(fabs(got - want) <= 1e-5 * fabs(want)))
        fail_msg("got %.9g, want %.9g", got, want);
}

static void band_fields(const dse_band *b, double out[6])
{
    out[0] = b->lat_bias_pct;
    out[1] = b->lat_mape_pct;
    out[2] = b->lat_ratio_lo;
    out[3] = b->lat_ratio_hi;
    out[4] = b->sat_ratio_lo;
    out[5] = b->sat_ratio_hi;
}

static void test_bands_synthetic(void **state)
{
    (void)state;
    dse_validate_point a[4], b[2];
    /* frac, sim, sim network, sim ok, model (corrected), model ok */
    set_point(&a[0], 0.1, 100, 90, 1, 110, 1);   /* +10%              */
    set_point(&a[1], 0.5, 200, 180, 1, 180, 1);  /* -10%              */
    set_point(&a[2], 0.8, 400, 360, 1, 0, 0);    /* model saturated   */
    set_point(&a[3], 0.9, 500, 450, 1, 1000, 1); /* above 80%: out    */
    set_estimate(&a[0].est[1], 120, 1);          /* +20%              */
    set_estimate(&a[1].est[1], 200, 1);          /* 0                 */
    set_estimate(&a[2].est[1], 440, 1);          /* +10%              */
    set_estimate(&a[3].est[1], 0, 0);
    set_point(&b[0], 0.3, 50, 45, 1, 45, 1);     /* -10%              */
    set_point(&b[1], 0.7, 100, 90, 1, 125, 1);   /* +25%              */
    set_estimate(&b[0].est[1], 50, 1);           /* 0                 */
    set_estimate(&b[1].est[1], 80, 1);           /* -20%              */
    dse_validate_case cs[3];
    syn_case(&cs[0], &syn_cfg[0], a, 4, 0.01, 0.009, 0.006);
    syn_case(&cs[1], &syn_cfg[1], b, 2, 0.02, 0.026, 0.02);
    syn_case(&cs[2], &syn_cfg[2], NULL, 0, 0, 0.01, 0.01);
    cs[2].status = DSE_VALIDATE_NOT_SIMULATED;
    dse_validate_result r;
    memset(&r, 0, sizeof r);
    r.cases = cs;
    r.ncases = 3;
    dse_validate_opts_init(&r.opts, 0);

    /* targets: a meets both (ratio 0.9, MAPE <=80% exactly 10), b misses
     * both (1.3, 17.5); recommended: a's ratio 0.6, b meets (1.0, 10) */
    assert_int_equal(dse_validate_off_target(&cs[0], 0), 0);
    assert_int_equal(dse_validate_off_target(&cs[1], 0),
                     DSE_VALIDATE_OFF_SAT | DSE_VALIDATE_OFF_MAPE80);
    assert_int_equal(dse_validate_off_target(&cs[0], 1), DSE_VALIDATE_OFF_SAT);
    assert_int_equal(dse_validate_off_target(&cs[1], 1), 0);
    assert_int_equal(dse_validate_off_target(&cs[2], 0), 0);
    size_t compared = 0;
    assert_int_equal(dse_validate_count_off_target(&r, 0, &compared), 1);
    assert_int_equal(compared, 2);
    assert_int_equal(dse_validate_count_off_target(&r, 1, NULL), 1);
    assert_float_equal(cs[1].fit[0].bias80, 7.5, 1e-9);
    /* an unknown MAPE misses its target */
    double keep = cs[0].fit[0].mape80;
    cs[0].fit[0].mape80 = NAN;
    assert_int_equal(dse_validate_off_target(&cs[0], 0),
                     DSE_VALIDATE_OFF_MAPE80);
    cs[0].fit[0].mape80 = keep;

    dse_band *bd;
    size_t nb;
    dse_validate_bands(&r, &bd, &nb);
    assert_int_equal(nb, 4);
    assert_string_equal(bd[0].model, "torus-det");
    assert_string_equal(bd[0].variant, "corrected");
    assert_string_equal(bd[1].variant, "recommended");
    assert_string_equal(bd[2].model, "dcsh-duato");
    /* corrected, pooled over +10, -10 (a) and -10, +25 (b) */
    assert_int_equal(bd[0].setups, 2);
    assert_float_equal(bd[0].lat_bias_pct, 15.0 / 4, 1e-9);
    assert_float_equal(bd[0].lat_mape_pct, 55.0 / 4, 1e-9);
    assert_float_equal(bd[0].lat_ratio_lo, 100.0 / 125, 1e-9);
    assert_float_equal(bd[0].lat_ratio_hi, 200.0 / 180, 1e-9);
    assert_float_equal(bd[0].sat_ratio_lo, 0.9, 1e-9);
    assert_float_equal(bd[0].sat_ratio_hi, 1.3, 1e-9);
    /* recommended: +20, 0, +10 (a), 0, -20 (b) */
    assert_int_equal(bd[1].setups, 2);
    assert_float_equal(bd[1].lat_bias_pct, 10.0 / 5, 1e-9);
    assert_float_equal(bd[1].lat_mape_pct, 50.0 / 5, 1e-9);
    assert_float_equal(bd[1].lat_ratio_lo, 100.0 / 120, 1e-9);
    assert_float_equal(bd[1].lat_ratio_hi, 100.0 / 80, 1e-9);
    assert_float_equal(bd[1].sat_ratio_lo, 0.6, 1e-9);
    assert_float_equal(bd[1].sat_ratio_hi, 1.0, 1e-9);
    /* nothing measured */
    assert_int_equal(bd[2].setups, 0);
    assert_true(isnan(bd[2].lat_mape_pct) && isnan(bd[3].sat_ratio_lo));

    /* the CSV round-trips through the optimizer's parser */
    char dir[] = "/tmp/dse-test-bands-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/bands.csv", dir);
    err e;
    err_clear(&e);
    assert_int_equal(dse_validate_write_bands(&r, path, &e), 0);
    static char text[1 << 14];
    slurp(path, text, sizeof text);
    assert_true(strncmp(text, DSE_BANDS_HEADER "\n",
                        strlen(DSE_BANDS_HEADER) + 1) == 0);
    assert_non_null(strstr(text, "\ndcsh-duato,corrected,0,,,,,,\n"));
    dse_band *pb;
    size_t np;
    assert_int_equal(dse_bands_parse(text, &pb, &np, &e), 0);
    assert_int_equal(np, nb);
    for (size_t i = 0; i < nb; i++) {
        assert_string_equal(pb[i].model, bd[i].model);
        assert_string_equal(pb[i].variant, bd[i].variant);
        assert_int_equal(pb[i].setups, bd[i].setups);
        double x[6], y[6];
        band_fields(&pb[i], x);
        band_fields(&bd[i], y);
        for (int k = 0; k < 6; k++)
            if (isnan(y[k]))
                assert_true(isnan(x[k]));
            else
                assert_rel(x[k], y[k]);
    }
    free(pb);
    free(bd);
    remove(path);
    rmdir(dir);
}

/* ---- the built-in table -------------------------------------------------- */

static void test_config_table(void **state)
{
    (void)state;
    size_t n, nm;
    const dse_validate_config *cfgs = dse_validate_configs(&n);
    const model *const *reg = model_registry(&nm);
    assert_true(n >= nm);
    for (size_t i = 0; i < n; i++) {
        const model *m = model_find(cfgs[i].model);
        assert_non_null(m);
        net_design d;
        net_workload w;
        m->example(&d, &w);
        err e;
        err_clear(&e);
        if (cfgs[i].design)
            assert_int_equal(net_design_parse(&d, cfgs[i].design, &e), 0);
        if (cfgs[i].workload)
            assert_int_equal(net_workload_parse(&w, cfgs[i].workload, &e), 0);
        char why[256];
        if (m->covers(&d, &w, why, sizeof why) != 0)
            fail_msg("%s %s not covered: %s", cfgs[i].model, cfgs[i].label,
                     why);
        assert_int_equal(net_check(&d, &e), 0);
        assert_int_equal(net_workload_check(&d, &w, &e), 0);
        for (size_t j = 0; j < i; j++)
            if (strcmp(cfgs[i].model, cfgs[j].model) == 0)
                assert_string_not_equal(cfgs[i].label, cfgs[j].label);
        assert_true(cfgs[i].nref >= 0 &&
                    cfgs[i].nref <= DSE_VALIDATE_MAX_REF);
    }
    for (size_t k = 0; k < nm; k++) {
        int examples = 0, quick = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(cfgs[i].model, reg[k]->name) == 0) {
                int ex = cfgs[i].design == NULL && cfgs[i].workload == NULL;
                examples += ex;
                quick += ex && cfgs[i].quick;
            }
        if (examples != 1 || quick != 1)
            fail_msg("model %s: %d examples, %d of them quick", reg[k]->name,
                     examples, quick);
        assert_non_null(dse_validate_claim_for(reg[k]->name));
    }
    /* the shipped studies' designs: 1024-node networks on a short sweep,
     * exactly one of them in --quick; nothing else beyond the examples */
    int short_sweeps = 0, short_quick = 0;
    for (size_t i = 0; i < n; i++) {
        int ex = cfgs[i].design == NULL && cfgs[i].workload == NULL;
        if (!cfgs[i].short_sweep) {
            if (cfgs[i].quick && !ex)
                fail_msg("%s %s: quick but neither an example nor a study "
                         "design", cfgs[i].model, cfgs[i].label);
            continue;
        }
        short_sweeps++;
        short_quick += cfgs[i].quick;
        net_design d;
        net_workload w;
        model_find(cfgs[i].model)->example(&d, &w);
        err e;
        err_clear(&e);
        assert_int_equal(net_design_parse(&d, cfgs[i].design, &e), 0);
        assert_int_equal(net_nodes(&d), 1024);
        assert_int_equal(d.router_delay, 1);
    }
    assert_true(short_sweeps >= 8);
    assert_int_equal(short_quick, 1);
}

/* ---- a tiny run ----------------------------------------------------------- */

static int no_dcsh(const net_design *d, const net_workload *w, err *e)
{
    if (d->topology == NET_DCSH)
        return err_set(e, ERR_UNSUPPORTED, "test: dcsh not simulated");
    return sim_supports(d, w, e);
}

static const dse_validate_config tiny[] = {
    {.model = "torus-det", .label = "tiny", .origin = "test: 4x4 torus",
     .design = "k=4 vcs=2", .workload = "message_bits=8 length=fixed"},
    {.model = "dcsh-duato", .label = "example", .origin = "test: unsupported"},
    {.model = "torus-det", .label = "skipped", .origin = "other model filter",
     .design = "k=4", .quick = 0},
};

static void tiny_opts(dse_validate_opts *o, int threads)
{
    dse_validate_opts_init(o, 1);
    o->quick = 0;
    o->threads = threads;
    o->nfracs = 3;
    o->fracs[0] = 0.2;
    o->fracs[1] = 0.5;
    o->fracs[2] = 0.8;
    o->seeds = 2;
    o->probe_warmup = 300;
    o->probe_messages = 1500;
    o->probe_precision = 0.1;
    o->probe_max = 10;
    o->warmup = 500;
    o->min_messages = 1000;
    o->max_messages = 3000;
    o->ci_target = 0.1;
    o->model_curve_points = 12;
    o->supports = no_dcsh;
}

static dse_validate_result *tiny_run(int threads)
{
    dse_validate_opts o;
    tiny_opts(&o, threads);
    dse_validate_result *r = NULL;
    err e;
    err_clear(&e);
    int rc = dse_validate_run(tiny, 2, &o, &r, &e);
    if (rc)
        fail_msg("dse_validate_run: %s", e.msg);
    return r;
}

/* The line of text that starts with prefix (copied into line). */
static void line_of(const char *text, const char *prefix, char *line,
                    size_t size)
{
    const char *p = strstr(text, prefix);
    if (!p)
        fail_msg("no line starting \"%s\"", prefix);
    size_t n = strcspn(p, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(line, p, n);
    line[n] = '\0';
}

/* The error bands the page's writer put at path, parsed back with the
 * optimizer's parser, against the run's own per-set-up figures: pooled
 * MAPE and bias from each set-up's MAPE <=80% and bias over its n80
 * points, latency ratios from the points' simulated and model latencies,
 * saturation ratios from each set-up's. */
static void check_bands(const dse_validate_result *r, const char *path)
{
    static char text[1 << 14];
    slurp(path, text, sizeof text);
    dse_band *b;
    size_t n;
    err e;
    err_clear(&e);
    if (dse_bands_parse(text, &b, &n, &e))
        fail_msg("%s: %s", path, e.msg);
    size_t want = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        int first = 1;
        for (size_t j = 0; j < i; j++)
            first &= strcmp(r->cases[i].cfg->model,
                            r->cases[j].cfg->model) != 0;
        want += first ? (size_t)r->cases[i].nvariants : 0;
    }
    assert_int_equal(n, want);
    for (size_t l = 0; l < n; l++) {
        int setups = 0, np = 0, k = -1;
        double sa = 0, ss = 0, llo = INFINITY, lhi = -INFINITY;
        double slo = INFINITY, shi = -INFINITY;
        for (size_t i = 0; i < r->ncases; i++) {
            const dse_validate_case *c = &r->cases[i];
            if (strcmp(c->cfg->model, b[l].model) != 0)
                continue;
            for (int v = 0; v < c->nvariants; v++)
                if (strcmp(model_variant_name(c->variant[v]),
                           b[l].variant) == 0)
                    k = v;
            assert_true(k >= 0);
            if (c->status != DSE_VALIDATE_DONE)
                continue;
            const dse_validate_fit *ft = &c->fit[k];
            setups++;
            if (ft->n80) {
                sa += ft->mape80 * ft->n80;
                ss += ft->bias80 * ft->n80;
                np += ft->n80;
            }
            slo = fmin(slo, ft->sat_ratio);
            shi = fmax(shi, ft->sat_ratio);
            for (int i2 = 0; i2 < c->npoints; i2++) {
                const dse_validate_point *p = &c->points[i2];
                if (p->frac > 0.8 + 1e-9 || p->sim.status != SIM_OK ||
                    p->est[k].model_code != 0)
                    continue;
                double sim = c->cfg->metric == DSE_VALIDATE_NETWORK_LATENCY
                                 ? p->sim.network_latency
                                 : p->sim.latency;
                llo = fmin(llo, sim / p->est[k].model.latency);
                lhi = fmax(lhi, sim / p->est[k].model.latency);
            }
        }
        assert_int_equal(b[l].setups, setups);
        if (np == 0) {
            assert_true(isnan(b[l].lat_mape_pct) && isnan(b[l].lat_ratio_lo));
        } else {
            assert_rel(b[l].lat_mape_pct, sa / np);
            assert_rel(b[l].lat_bias_pct, ss / np);
            assert_rel(b[l].lat_ratio_lo, llo);
            assert_rel(b[l].lat_ratio_hi, lhi);
        }
        if (setups == 0) {
            assert_true(isnan(b[l].sat_ratio_lo) && isnan(b[l].sat_ratio_hi));
        } else {
            assert_rel(b[l].sat_ratio_lo, slo);
            assert_rel(b[l].sat_ratio_hi, shi);
        }
    }
    free(b);
}

/* Write r's page into dir and check how the two variants of case 0 are
 * shown: side by side (same = 0) or merged (same = 1). */
static void page_variants(const dse_validate_result *r, const char *dir,
                          int same)
{
    static char text[1 << 17];
    char md[256], svg[300], line[1024], cell[128];
    const dse_validate_case *c = &r->cases[0];
    snprintf(md, sizeof md, "%s/page.md", dir);
    err e;
    err_clear(&e);
    assert_int_equal(dse_validate_write_md(r, md, "dse validate --test",
                                           "abc1234", &e), 0);
    slurp(md, text, sizeof text);
    assert_non_null(strstr(text, "- Model variants: **corrected**"));
    assert_non_null(strstr(text, "and **recommended**"));
    assert_non_null(strstr(text, "- **Variants**:"));
    assert_non_null(strstr(text, "| verdict |")); /* the columns stay */
    assert_non_null(strstr(text, "| bias <=50% | MAPE <=50% (recommended) "
                                 "| ratio (recommended) | verdict |"));
    line_of(text, "| torus-det | tiny |", line, sizeof line);
    /* primary MAPE in its column, as the page formats it */
    snprintf(cell, sizeof cell, "| %.1f%% (%d pts", c->fit[0].mape50,
             c->fit[0].n50);
    assert_non_null(strstr(line, cell));
    snprintf(svg, sizeof svg, "%s/page/torus-det-tiny.svg", dir);
    if (same) {
        assert_non_null(strstr(line, "| same | same |"));
        assert_non_null(strstr(text, "| model (corrected = recommended) | "
                                     "error (corrected = recommended) |"));
        assert_null(strstr(text, "| model (corrected) |"));
        assert_non_null(strstr(text, "in this run: `torus-det`"));
        slurp(svg, text, sizeof text);
        assert_null(strstr(text, "stroke-dasharray"));
    } else {
        assert_null(strstr(line, "same"));
        snprintf(cell, sizeof cell, "| %.1f%% (%d pts", c->fit[1].mape50,
                 c->fit[1].n50);
        assert_non_null(strstr(line, cell));
        snprintf(cell, sizeof cell, "| %.2f |", c->fit[1].sat_ratio);
        assert_non_null(strstr(line, cell));
        assert_non_null(strstr(text, "| model (corrected) | error "
                                     "(corrected) | model (recommended) | "
                                     "error (recommended) | sim status |"));
        assert_non_null(strstr(text, "- model saturation rate "
                                     "(recommended):"));
        /* a row carries both variants' model latencies */
        const dse_validate_point *p = &c->points[0];
        snprintf(cell, sizeof cell, "| %.2f | %+.1f%% | %.2f | %+.1f%% |",
                 p->est[0].model.latency, p->est[0].error_pct,
                 p->est[1].model.latency, p->est[1].error_pct);
        assert_non_null(strstr(text, cell));
        slurp(svg, text, sizeof text);
        /* the secondary curve and its legend sample are dashed */
        const char *d = strstr(text, "stroke-dasharray");
        assert_non_null(d);
        assert_non_null(strstr(d + 1, "stroke-dasharray"));
    }
    remove(svg);
    remove(md);
}

/* The saturation search never goes above the channel-load bound: short
 * probes cannot see an overload of the few channels into a hot spot
 * (docs/models.md, "The physical screen"), and without the ceiling this search
 * answered above the physical limit. */
static void test_search_stops_at_bound(void **state)
{
    (void)state;
    static const dse_validate_config hot[] = {
        {.model = "hcube-pcs-hotspot", .label = "hot", .origin = "test",
         .design = "topology=hypercube n=8 vcs=3 routing=minimal_adaptive "
                   "switching=pcs router_delay=0 ejection=0",
         .workload = "message_bits=32 length=fixed traffic=hotspot "
                     "theta=0.05"},
    };
    dse_validate_opts o;
    tiny_opts(&o, 1);
    o.nfracs = 1;
    o.seeds = 1;
    dse_validate_result *r = NULL;
    err e;
    err_clear(&e);
    if (dse_validate_run(hot, 1, &o, &r, &e))
        fail_msg("dse_validate_run: %s", e.msg);
    const dse_validate_case *c = &r->cases[0];
    if (c->status != DSE_VALIDATE_DONE)
        fail_msg("hot: %s: %s", dse_validate_status_name(c->status),
                 c->reason);
    model_bound b;
    assert_int_equal(model_bound_compute(&c->design, &c->workload, &b, NULL),
                     0);
    if (c->sim_sat > b.rate * (1 + 1e-12))
        fail_msg("simulated saturation %.6g above the bound %.6g",
                 c->sim_sat, b.rate);
    if (c->sat_at_bound) {
        assert_float_equal(c->sim_sat, b.rate, 1e-15);
        assert_string_equal(c->bound_channel, b.channel);
    }
    dse_validate_run_destroy(r);
}

static void test_tiny_run(void **state)
{
    (void)state;
    dse_validate_result *r = tiny_run(2);
    assert_int_equal(r->ncases, 2);
    const dse_validate_case *c = &r->cases[0];
    if (c->status != DSE_VALIDATE_DONE)
        fail_msg("tiny: %s: %s", dse_validate_status_name(c->status),
                 c->reason);
    /* bracket: lo < hi, within the search precision or the probe cap */
    assert_true(c->sim_sat > 0);
    assert_true(c->sim_sat == c->sim_sat_lo);
    assert_true(c->sim_sat_hi > c->sim_sat_lo);
    assert_true(c->probes >= 2 && c->probes <= 10);
    /* the injection channel bounds any steady state: lam * Lm < 1 */
    assert_true(c->sim_sat < 1.0 / 8);
    assert_int_equal(c->sat_at_bound, 0); /* the probes saw the knee */
    assert_int_equal(c->npoints, 3);
    double zero = net_avg_distance(&c->design) * (1 + c->design.router_delay)
                  + 8;
    for (int i = 0; i < c->npoints; i++) {
        const dse_validate_point *p = &c->points[i];
        assert_float_equal(p->rate, p->frac * c->sim_sat, 1e-15);
        if (p->sim.status != SIM_OK)
            continue;
        /* fixed 8-flit messages: no run can beat the zero-load latency */
        assert_true(p->sim.latency >= zero - 1e-9);
        assert_int_equal(p->sim.replications, 2);
        assert_true(p->sim.latency_ci95 >= 0);
    }
    assert_int_equal(c->points[0].sim.status, SIM_OK);
    /* both variants, primary first; each estimate is the model's own
     * answer under that variant */
    assert_int_equal(c->nvariants, 2);
    assert_int_equal(c->variant[0], MODEL_VARIANT_CORRECTED);
    assert_int_equal(c->variant[1], MODEL_VARIANT_RECOMMENDED);
    int same = 1;
    for (int k = 0; k < 2; k++) {
        const dse_validate_fit *ft = &c->fit[k];
        model_opts mo;
        model_opts_init(&mo);
        mo.variant = c->variant[k];
        for (int i = 0; i < c->npoints; i++) {
            const dse_validate_point *p = &c->points[i];
            model_result mr;
            int code = c->m->eval(&c->design, &c->workload, p->rate, &mo,
                                  &mr);
            assert_int_equal(p->est[k].model_code, code);
            assert_true(p->est[k].model.latency == mr.latency);
            if (code == 0 && p->sim.status == SIM_OK)
                assert_float_equal(p->est[k].error_pct,
                                   100 * (mr.latency - p->sim.latency) /
                                       p->sim.latency, 1e-9);
            if (k == 1)
                same &= p->est[1].model_code == p->est[0].model_code &&
                        p->est[1].model.latency == p->est[0].model.latency;
        }
        double sat;
        err se;
        assert_int_equal(model_saturation_rate(c->m, &c->design,
                                               &c->workload, &mo, &sat, &se),
                         0);
        assert_true(ft->model_sat == sat);
        assert_true(ft->n50 >= 1);
        assert_true(isfinite(ft->mape50) && ft->mape50 >= 0);
        assert_true(ft->model_sat > 0);
        assert_float_equal(ft->sat_ratio, ft->model_sat / c->sim_sat, 1e-12);
        assert_true(ft->ncurve == 12);
        assert_non_null(ft->curve_rate);
    }
    same &= c->fit[0].model_sat == c->fit[1].model_sat;
    if (!same)
        assert_int_equal(c->variants_same, 0);

    const dse_validate_case *u = &r->cases[1];
    assert_int_equal(u->status, DSE_VALIDATE_NOT_SIMULATED);
    assert_non_null(strstr(u->reason, "dcsh not simulated"));
    assert_null(u->points);
    /* the model side is still reported, for both variants */
    assert_true(u->fit[0].model_sat > 0);
    assert_true(u->fit[1].model_sat > 0);

    /* the same numbers on one thread */
    dse_validate_result *r1 = tiny_run(1);
    const dse_validate_case *c1 = &r1->cases[0];
    assert_true(c1->sim_sat == c->sim_sat);
    for (int i = 0; i < c->npoints; i++) {
        assert_true(c1->points[i].sim.status == c->points[i].sim.status);
        assert_true(c1->points[i].sim.latency == c->points[i].sim.latency);
        assert_true(c1->points[i].sim.latency_ci95 ==
                    c->points[i].sim.latency_ci95);
        for (int k = 0; k < 2; k++)
            assert_true(c1->points[i].est[k].model.latency ==
                        c->points[i].est[k].model.latency);
    }
    assert_int_equal(c1->variants_same, c->variants_same);
    dse_validate_run_destroy(r1);

    /* write the page */
    char dir[] = "/tmp/dse-test-validate-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char md[256], notes[256], svg[300];
    snprintf(md, sizeof md, "%s/page.md", dir);
    snprintf(notes, sizeof notes, "%s/notes.md", dir);
    FILE *nf = fopen(notes, "w");
    assert_non_null(nf);
    fputs("### A hand-written finding\n\nEvidence here.\n", nf);
    fclose(nf);
    err e;
    err_clear(&e);
    assert_int_equal(dse_validate_write_md(r, md, "dse validate --test",
                                           "abc1234", &e),
                     0);
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    static char text[1 << 17];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "`dse validate --test`"));
    assert_non_null(strstr(text, "abc1234"));
    assert_non_null(strstr(text, "## Summary"));
    assert_non_null(strstr(text, "| torus-det | tiny |"));
    assert_non_null(strstr(text, "| dcsh-duato | example |"));
    assert_non_null(strstr(text, "not simulated yet"));
    assert_non_null(strstr(text, "dcsh not simulated"));
    assert_non_null(strstr(text, "## Open discrepancies"));
    /* results only: a notes file beside the page is not quoted, the page
     * points to the reference and history pages instead */
    assert_null(strstr(text, "### A hand-written finding"));
    assert_non_null(strstr(text, "docs/models/corrected.md"));
    assert_non_null(strstr(text, "docs/history/validation-notes.md"));
    assert_non_null(strstr(text, "### torus-det: tiny"));
    assert_non_null(strstr(text, "| load | rate | simulation |"));
    assert_non_null(strstr(text, "| 20% |"));
    assert_non_null(strstr(text, "](page/torus-det-tiny.svg)"));
    /* the targets: a column and the count under the table */
    char line[1024], want[256];
    line_of(text, "| torus-det | tiny |", line, sizeof line);
    int off = dse_validate_off_target(c, 0);
    assert_non_null(strstr(line, off == 0 ? "| met |" : "| **off: "));
    size_t compared;
    size_t noff = dse_validate_count_off_target(r, 0, &compared);
    assert_int_equal(compared, 1);
    snprintf(want, sizeof want, "**Outside the targets: %zu of 1 compared "
             "set-up** (corrected; saturation ratio outside 0.8-1.25 or "
             "MAPE <=80%% above 10%%); recommended: %zu.", noff,
             dse_validate_count_off_target(r, 1, NULL));
    assert_non_null(strstr(text, want));
    /* the error bands beside the page */
    char csv[300];
    snprintf(csv, sizeof csv, "%s/page/error-bands.csv", dir);
    check_bands(r, csv);
    snprintf(svg, sizeof svg, "%s/page/torus-det-tiny.svg", dir);
    f = fopen(svg, "r");
    assert_non_null(f);
    len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    assert_true(strncmp(text, "<svg", 4) == 0);
    assert_non_null(strstr(text, "</svg>"));
    assert_null(strstr(text, "\n  ")); /* compacted */
    remove(svg);

    /* the two variants on the page, forced apart and then together on the
     * same run (the models' own variants may or may not differ here) */
    dse_validate_case *mc = &r->cases[0];
    for (int i = 0; i < mc->npoints; i++) {
        dse_validate_estimate *es = &mc->points[i].est[1];
        *es = mc->points[i].est[0];
        es->model.latency *= 1.5;
    }
    for (int i = 0; i < mc->fit[1].ncurve; i++)
        mc->fit[1].curve_latency[i] = 1.5 * mc->fit[0].curve_latency[i];
    mc->fit[1].model_sat = 0.8 * mc->fit[0].model_sat;
    dse_validate_case_summarize(mc, mc->cfg->metric);
    assert_int_equal(mc->variants_same, 0);
    assert_true(mc->fit[1].mape50 != mc->fit[0].mape50);
    /* a full run's page (dse_validate_out_check): the test rewrites its
     * own page below, as --overwrite would */
    r->opts.overwrite = 1;
    page_variants(r, dir, 0);

    for (int i = 0; i < mc->npoints; i++)
        mc->points[i].est[1] = mc->points[i].est[0];
    for (int i = 0; i < mc->fit[1].ncurve; i++)
        mc->fit[1].curve_latency[i] = mc->fit[0].curve_latency[i];
    mc->fit[1].model_sat = mc->fit[0].model_sat;
    mc->fit[1].zero_load = mc->fit[0].zero_load;
    dse_validate_case_summarize(mc, mc->cfg->metric);
    assert_int_equal(mc->variants_same, 1);
    page_variants(r, dir, 1);

    remove(csv);
    snprintf(svg, sizeof svg, "%s/page/%s", dir, DSE_VALIDATE_MARKER);
    assert_int_equal(remove(svg), 0);
    snprintf(svg, sizeof svg, "%s/page", dir);
    rmdir(svg);
    remove(md);
    remove(notes);
    rmdir(dir);
    dse_validate_run_destroy(r);
}

/* A study design's short sweep: its own loads and replications, the
 * others' untouched. */
static void test_short_sweep(void **state)
{
    (void)state;
    static const dse_validate_config cfg[] = {
        {.model = "torus-det", .label = "short", .origin = "test: short",
         .design = "k=4 vcs=2", .workload = "message_bits=8 length=fixed",
         .short_sweep = 1},
        {.model = "torus-det", .label = "long", .origin = "test: long",
         .design = "k=4 vcs=2", .workload = "message_bits=8 length=fixed"},
    };
    dse_validate_opts o;
    tiny_opts(&o, 2);
    o.nfracs = 1;
    o.fracs[0] = 0.4;
    o.short_nfracs = 2;
    o.short_fracs[0] = 0.3;
    o.short_fracs[1] = 0.6;
    o.short_seeds = 1;
    dse_validate_result *r = NULL;
    err e;
    err_clear(&e);
    if (dse_validate_run(cfg, 2, &o, &r, &e))
        fail_msg("dse_validate_run: %s", e.msg);
    const dse_validate_case *c = &r->cases[0], *l = &r->cases[1];
    assert_int_equal(c->status, DSE_VALIDATE_DONE);
    assert_int_equal(c->npoints, 2);
    assert_int_equal(c->seeds, 1);
    assert_float_equal(c->points[1].frac, 0.6, 0);
    assert_int_equal(c->points[0].sim.replications, 1);
    assert_int_equal(l->npoints, 1);
    assert_int_equal(l->seeds, 2);
    assert_float_equal(l->points[0].frac, 0.4, 0);
    assert_int_equal(l->points[0].sim.replications, 2);
    /* the same simulated saturation: the search does not depend on it */
    assert_true(c->sim_sat == l->sim_sat);
    char dir[] = "/tmp/dse-test-validate-short-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char md[256], path[300];
    snprintf(md, sizeof md, "%s/s.md", dir);
    assert_int_equal(dse_validate_write_md(r, md, NULL, NULL, &e), 0);
    static char text[1 << 16];
    slurp(md, text, sizeof text);
    assert_non_null(strstr(text, "- short sweep (a design of a shipped "
                                 "study): 2 loads, 1 replication per "
                                 "point"));
    assert_non_null(strstr(text, "(1 set-up, marked \"short "
                                 "sweep\"): loads 0.3, 0.6 only, 1 "
                                 "replication per point"));
    snprintf(path, sizeof path, "%s/s/error-bands.csv", dir);
    check_bands(r, path);
    remove(path);
    snprintf(path, sizeof path, "%s/s/torus-det-short.svg", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/s/torus-det-long.svg", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/s/%s", dir, DSE_VALIDATE_MARKER);
    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/s", dir);
    assert_int_equal(rmdir(path), 0);
    remove(md);
    rmdir(dir);
    dse_validate_run_destroy(r);
}

/* The --quick subset of the built-in table (every model's example and one
 * 1024-node study design) end to end, as `dse validate --quick` runs it
 * but with CI-sized run lengths (the real --quick took 37 s of CPU in
 * the Release build and far more in this one; with these lengths this
 * test took about 55 s of CPU under ASan + UBSan): every set-up is
 * simulated and compared, none fails, the page counts the targets and
 * the bands parse. */
static void test_quick_subset(void **state)
{
    (void)state;
    size_t ncfg, nquick = 0;
    const dse_validate_config *cfgs = dse_validate_configs(&ncfg);
    for (size_t i = 0; i < ncfg; i++)
        nquick += cfgs[i].quick != 0;
    dse_validate_opts o;
    dse_validate_opts_init(&o, 1);
    o.threads = 2;
    o.nfracs = o.short_nfracs = 2;
    o.fracs[0] = o.short_fracs[0] = 0.3;
    o.fracs[1] = o.short_fracs[1] = 0.7;
    o.probe_warmup = 200;
    o.probe_messages = 1000;
    o.probe_precision = 0.3;
    o.probe_max = 4;
    o.warmup = 200;
    o.min_messages = 500;
    o.max_messages = 1000;
    o.ci_target = 0.2;
    o.model_curve_points = 8;
    dse_validate_result *r = NULL;
    err e;
    err_clear(&e);
    if (dse_validate_run(cfgs, ncfg, &o, &r, &e))
        fail_msg("dse_validate_run: %s", e.msg);
    assert_int_equal(r->ncases, nquick);
    int study = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        if (c->status != DSE_VALIDATE_DONE)
            fail_msg("%s %s: %s: %s", c->cfg->model, c->cfg->label,
                     dse_validate_status_name(c->status), c->reason);
        assert_true(c->sim_sat > 0);
        assert_int_equal(c->npoints, 2);
        study += c->cfg->short_sweep && net_nodes(&c->design) == 1024;
    }
    assert_int_equal(study, 1);
    char dir[] = "/tmp/dse-test-validate-quick-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char md[256], path[400];
    snprintf(md, sizeof md, "%s/q.md", dir);
    assert_int_equal(dse_validate_write_md(r, md, NULL, NULL, &e), 0);
    static char text[1 << 18];
    slurp(md, text, sizeof text);
    size_t compared, off = dse_validate_count_off_target(r, 0, &compared);
    char want[128];
    snprintf(want, sizeof want, "**Outside the targets: %zu of %zu compared "
             "set-ups**", off, compared);
    assert_non_null(strstr(text, want));
    snprintf(path, sizeof path, "%s/q/error-bands.csv", dir);
    check_bands(r, path);
    remove(path);
    for (size_t i = 0; i < r->ncases; i++) {
        char name[256];
        size_t n = 0;
        snprintf(name, sizeof name, "%s-%s", r->cases[i].cfg->model,
                 r->cases[i].cfg->label);
        for (char *p = name; *p; p++) {
            char ch = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
            if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')))
                ch = '-';
            if (ch == '-' && n > 0 && name[n - 1] == '-')
                continue;
            name[n++] = ch;
        }
        name[n] = '\0';
        snprintf(path, sizeof path, "%s/q/%s.svg", dir, name);
        if (remove(path) != 0)
            fail_msg("no plot %s", path);
    }
    snprintf(path, sizeof path, "%s/q/%s", dir, DSE_VALIDATE_MARKER);
    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/q", dir);
    assert_int_equal(rmdir(path), 0);
    remove(md);
    rmdir(dir);
    dse_validate_run_destroy(r);
}

static void test_bad_options(void **state)
{
    (void)state;
    dse_validate_opts o;
    dse_validate_result *r = (void *)1;
    err e;
    tiny_opts(&o, 1);
    o.model = "no-such-model";
    assert_int_equal(dse_validate_run(tiny, 2, &o, &r, &e), ERR_INVALID);
    assert_null(r);
    tiny_opts(&o, 1);
    o.fracs[1] = 0.1; /* not ascending */
    assert_int_equal(dse_validate_run(tiny, 2, &o, &r, &e), ERR_INVALID);
    tiny_opts(&o, 1);
    o.quick = 1; /* nothing in tiny is quick */
    assert_int_equal(dse_validate_run(tiny, 3, &o, &r, &e), ERR_INVALID);
}

/* ---- the command line ------------------------------------------------------ */

static int run_cli(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s validate %s >/dev/null 2>&1", DSE_BINARY,
             args);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_cli(void **state)
{
    (void)state;
    assert_int_equal(run_cli("--help"), 0);
    assert_int_equal(run_cli("--list"), 0);
    assert_int_equal(run_cli("--no-such-option"), 2);
    assert_int_equal(run_cli("--jobs 0"), 2);
    assert_int_equal(run_cli("--seeds x"), 2);
    /* a page path nobody else owns, so the refusal is the option's */
    char dir[] = "/tmp/dse-test-validate-cli-bad-XXXXXX", opt[256];
    assert_non_null(mkdtemp(dir));
    snprintf(opt, sizeof opt, "--model no-such-model --out %s/x.md", dir);
    assert_int_equal(run_cli(opt), 2);
    assert_int_equal(run_cli("stray"), 2);
    snprintf(opt, sizeof opt, "--variant bogus --out %s/x.md", dir);
    assert_int_equal(run_cli(opt), 2);
    assert_int_equal(rmdir(dir), 0);     /* nothing was written in it */
    assert_int_equal(run_cli("--variant"), 2);
    /* --help documents the option */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s validate --help | grep -q -- "
             "'--variant NAME'", DSE_BINARY);
    assert_int_equal(system(cmd), 0);
}

/* The real --quick path for one cheap model (the 8-cube example, about
 * 10 s under ASan): exit 0, page and plot written. */
static void test_cli_quick_one_model(void **state)
{
    (void)state;
    char dir[] = "/tmp/dse-test-validate-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[512], md[256], svg[300];
    snprintf(md, sizeof md, "%s/v.md", dir);
    snprintf(args, sizeof args, "--quick --model hcube-duato --jobs 2 -q "
             "--out %s", md);
    assert_int_equal(run_cli(args), 0);
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "--quick --model hcube-duato"));
    assert_non_null(strstr(text, "| hcube-duato | example |"));
    assert_non_null(strstr(text, "| 50% |"));
    assert_null(strstr(text, "| torus-det |"));
    /* both variants, whatever the model does with "corrected" */
    assert_non_null(strstr(text, "- Model variants: **corrected**"));
    assert_non_null(strstr(text, "MAPE <=50% (recommended)"));
    assert_true(strstr(text, "| model (corrected) |") != NULL ||
                strstr(text, "| model (corrected = recommended) |") != NULL);
    snprintf(svg, sizeof svg, "%s/v/hcube-duato-example.svg", dir);
    assert_int_equal(access(svg, R_OK), 0);
    remove(svg);
    /* the marker: a partial run wrote it, so the next trial may replace */
    snprintf(svg, sizeof svg, "%s/v/%s", dir, DSE_VALIDATE_MARKER);
    f = fopen(svg, "r");
    assert_non_null(f);
    char first[32];
    assert_non_null(fgets(first, sizeof first, f));
    fclose(f);
    assert_string_equal(first, "partial\n");
    assert_int_equal(run_cli(args), 0);
    remove(svg);
    snprintf(svg, sizeof svg, "%s/v/hcube-duato-example.svg", dir);
    remove(svg);
    snprintf(svg, sizeof svg, "%s/v/error-bands.csv", dir);
    remove(svg);
    snprintf(svg, sizeof svg, "%s/v", dir);
    rmdir(svg);
    remove(md);
    rmdir(dir);
}

/* ---- who may replace the page (dse_validate_out_check) --------------------- */

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_out_guard(void **state)
{
    (void)state;
    char dir[] = "/tmp/dse-test-validate-guard-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char md[300], sub[300], marker[400], bands[400];
    snprintf(md, sizeof md, "%s/v.md", dir);
    snprintf(sub, sizeof sub, "%s/v", dir);
    snprintf(marker, sizeof marker, "%s/%s", sub, DSE_VALIDATE_MARKER);
    snprintf(bands, sizeof bands, "%s/error-bands.csv", sub);
    dse_validate_opts full, part, force;
    dse_validate_opts_init(&full, 0);
    dse_validate_opts_init(&part, 1);
    force = full;
    force.overwrite = 1;
    err e;
    err_clear(&e);
    /* nothing there, or an empty directory: anyone */
    assert_int_equal(dse_validate_out_check(md, &part, &e), 0);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_int_equal(dse_validate_out_check(md, &full, &e), 0);
    /* a page nobody recognises: never, not even with --overwrite */
    put_file(md, "# my own notes\n");
    assert_int_equal(dse_validate_out_check(md, &force, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "not written by dse validate"));
    remove(md);
    put_file(bands, "model,variant\n");   /* a directory of other things */
    assert_int_equal(dse_validate_out_check(md, &force, &e), ERR_CONFIG);
    /* a partial run's output: replaceable */
    put_file(marker, "partial\n");
    put_file(md, "page\n");
    assert_int_equal(dse_validate_out_check(md, &part, &e), 0);
    assert_int_equal(dse_validate_out_check(md, &full, &e), 0);
    /* a full run's output: only with --overwrite, whoever asks */
    put_file(marker, "full\n");
    assert_int_equal(dse_validate_out_check(md, &part, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "--overwrite"));
    assert_int_equal(dse_validate_out_check(md, &full, &e), ERR_CONFIG);
    assert_int_equal(dse_validate_out_check(md, &force, &e), 0);
    /* a page from before the marker: its own "Subset:" line decides */
    remove(marker);
    put_file(md, "# Model validation\n\nGenerated by `dse validate` "
                 "(dse/validate/validate.c); do not edit by hand.\n\n"
                 "- Subset: full (every set-up)\n");
    assert_int_equal(dse_validate_out_check(md, &part, &e), ERR_CONFIG);
    assert_int_equal(dse_validate_out_check(md, &force, &e), 0);
    put_file(md, "Generated by `dse validate`\n- Subset: --quick\n");
    assert_int_equal(dse_validate_out_check(md, &part, &e), 0);
    /* the CLI refuses before simulating (exit 1, page untouched) */
    put_file(marker, "full\n");
    char args[600];
    snprintf(args, sizeof args, "--quick --model hcube-duato -q --out %s",
             md);
    assert_int_equal(run_cli(args), 1);
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    char line[64];
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "Generated by `dse validate`\n");
    remove(marker);
    remove(bands);
    remove(md);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_synthetic),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_bands_synthetic),
        cmocka_unit_test(test_config_table),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_tiny_run),
        cmocka_unit_test(test_search_stops_at_bound),
        cmocka_unit_test(test_short_sweep),
        cmocka_unit_test(test_quick_subset),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_quick_one_model),
        cmocka_unit_test(test_out_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

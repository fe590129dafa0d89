/*
 * test_validate.c — the validation suite's mechanics (dse/validate.h):
 *   - the summary statistics on synthetic points whose MAPE, bias and
 *     counts are computed by hand here;
 *   - the built-in set-up table: every entry names a registered model that
 *     covers it, every model has exactly one example in the quick subset;
 *   - a tiny run (a 4x4 torus with short runs) end to end: saturation
 *     bracket, sweep, model, summary; an unsupported set-up reported as
 *     "not simulated yet" with its reason; identical numbers with 1 and 2
 *     threads;
 *   - the Markdown page: summary table, per-set-up table, SVG written and
 *     linked, notes quoted, the unsupported set-up listed;
 *   - the command line: --help, bad options, unknown model, --list, and
 *     the real --quick subset of one model (hcube-duato, ~10 s in ASan).
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

#include "dse/validate.h"
#include "models/model.h"
#include "net/net.h"
#include "sim/sim.h"

/* ---- synthetic summary --------------------------------------------------- */

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
    p->model_code = model_ok ? 0 : ERR_SATURATED;
    p->model.status = model_ok ? MODEL_CONVERGED : MODEL_SATURATED;
    p->model.latency = model_ok ? mod : 0;
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
    dse_validate_case c;
    memset(&c, 0, sizeof c);
    c.points = pts;
    c.npoints = 7;
    c.sim_sat = 0.01;
    c.model_sat = 0.0075;
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    assert_int_equal(c.n50, 3);
    assert_int_equal(c.n80, 4);
    assert_int_equal(c.msat50, 0);
    assert_int_equal(c.msat80, 1);
    assert_int_equal(c.ssat, 1);
    assert_float_equal(pts[0].error_pct, 10.0, 1e-9);
    assert_float_equal(pts[1].error_pct, -10.0, 1e-9);
    assert_float_equal(pts[3].error_pct, -20.0, 1e-9);
    assert_true(isnan(pts[4].error_pct));
    assert_float_equal(pts[5].error_pct, 100.0, 1e-9);
    assert_true(isnan(pts[6].error_pct));
    assert_float_equal(c.mape50, (10 + 10 + 25) / 3.0, 1e-9);
    assert_float_equal(c.bias50, (10 - 10 + 25) / 3.0, 1e-9);
    assert_float_equal(c.mape80, (10 + 10 + 25 + 20) / 4.0, 1e-9);
    assert_float_equal(c.sat_ratio, 0.75, 1e-12);
    assert_float_equal(c.max_ci_pct, 5.0, 1e-9);

    /* the network-latency metric compares against sim network latency */
    dse_validate_case_summarize(&c, DSE_VALIDATE_NETWORK_LATENCY);
    assert_float_equal(pts[0].error_pct, 100.0 * (110 - 90) / 90, 1e-9);
    assert_float_equal(pts[1].error_pct, 0.0, 1e-9);
    assert_float_equal(c.max_ci_pct, 2.0, 1e-9);

    /* no qualifying point: NAN, not 0 */
    c.npoints = 0;
    c.model_sat = 0;
    dse_validate_case_summarize(&c, DSE_VALIDATE_LATENCY);
    assert_true(isnan(c.mape50));
    assert_true(isnan(c.mape80));
    assert_true(isnan(c.sat_ratio));
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
                examples += cfgs[i].design == NULL &&
                            cfgs[i].workload == NULL;
                quick += cfgs[i].quick;
            }
        if (examples != 1 || quick != 1)
            fail_msg("model %s: %d examples, %d quick set-ups", reg[k]->name,
                     examples, quick);
        assert_non_null(dse_validate_claim_for(reg[k]->name));
    }
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
    assert_true(c->n50 >= 1);
    assert_true(isfinite(c->mape50) && c->mape50 >= 0);
    assert_true(c->model_sat > 0);
    assert_float_equal(c->sat_ratio, c->model_sat / c->sim_sat, 1e-12);
    assert_true(c->ncurve == 12);

    const dse_validate_case *u = &r->cases[1];
    assert_int_equal(u->status, DSE_VALIDATE_NOT_SIMULATED);
    assert_non_null(strstr(u->reason, "dcsh not simulated"));
    assert_null(u->points);
    assert_true(u->model_sat > 0); /* the model side is still reported */

    /* the same numbers on one thread */
    dse_validate_result *r1 = tiny_run(1);
    const dse_validate_case *c1 = &r1->cases[0];
    assert_true(c1->sim_sat == c->sim_sat);
    for (int i = 0; i < c->npoints; i++) {
        assert_true(c1->points[i].sim.status == c->points[i].sim.status);
        assert_true(c1->points[i].sim.latency == c->points[i].sim.latency);
        assert_true(c1->points[i].sim.latency_ci95 ==
                    c->points[i].sim.latency_ci95);
    }
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
                                           "abc1234", notes, &e),
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
    assert_non_null(strstr(text, "### A hand-written finding"));
    assert_non_null(strstr(text, "### torus-det: tiny"));
    assert_non_null(strstr(text, "| load | rate | simulation |"));
    assert_non_null(strstr(text, "| 20% |"));
    assert_non_null(strstr(text, "](page/torus-det-tiny.svg)"));
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
    snprintf(svg, sizeof svg, "%s/page", dir);
    rmdir(svg);
    remove(md);
    remove(notes);
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
    assert_int_equal(run_cli("--model no-such-model --out /tmp/x.md"), 2);
    assert_int_equal(run_cli("stray"), 2);
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
    snprintf(svg, sizeof svg, "%s/v/hcube-duato-example.svg", dir);
    assert_int_equal(access(svg, R_OK), 0);
    remove(svg);
    snprintf(svg, sizeof svg, "%s/v", dir);
    rmdir(svg);
    remove(md);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_synthetic),
        cmocka_unit_test(test_config_table),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_tiny_run),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_quick_one_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_heldout.c — the decision's certificate against the truth on a study
 * the models cover badly (tests/data/heldout_small.yaml: 32 nodes, mixed
 * radices with rings of 16 and 32, a hot spot, adaptive routing).  The
 * study is small enough to simulate every design, so the test runs the
 * decision and the check mode (every feasible design simulated, the same
 * seeds: a design both runs simulate has the same figures bit for bit) and
 * asserts that the certified simulated Pareto front is the front of all
 * designs, that the recommendation is the same, and that no simulated
 * saturation rate lies above its channel-load bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dse/common/bands.h"
#include "dse/search/optimize.h"
#include "dse/validate/validate.h"

#define HELDOUT "tests/data/heldout_small.yaml"

static void run(const cfg_study *s, int all, dse_run *r)
{
    dse_optimize_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.quiet = 1;
    o.simulate_all = all;
    err e;
    if (dse_optimize(s, &o, r, &e) != 0)
        fail_msg("dse_optimize: %s", e.msg);
}

static void test_certified_front_is_the_front(void **state)
{
    (void)state;
    dse_bands_set_coverage(dse_validate_covers);
    cfg_study s;
    err e;
    if (cfg_study_load(HELDOUT, &s, &e) != 0)
        fail_msg("%s", e.msg);
    dse_run dec, all;
    run(&s, 0, &dec);
    run(&s, 1, &all);
    assert_int_equal(dec.ncand, all.ncand);
    assert_true(dec.ncand >= 10);
    assert_true(dec.certified);
    assert_int_equal(all.nsimulated, all.ncand);
    /* the held-out study is outside every model's validated regime */
    size_t physical = 0;
    for (size_t i = 0; i < dec.ncand; i++)
        physical += !dec.cand[i].band_covers;
    assert_true(physical > 0);
    size_t front = 0;
    for (size_t i = 0; i < all.ncand; i++) {
        const dse_candidate *a = &all.cand[i], *d = &dec.cand[i];
        char txt[256];
        net_design_format(&a->design, txt, sizeof txt);
        if (a->sim_rank == 0) {
            front++;
            if (!d->sim || d->sim_rank != 0)
                fail_msg("%s is on the front of all designs but not on the "
                         "certified front (%s)", txt,
                         d->sim ? "simulated, dominated" : "never simulated");
        } else if (d->sim && d->sim_rank == 0) {
            fail_msg("%s is on the certified front but dominated among all "
                     "designs", txt);
        }
        assert_false(a->sim_above_bound);
        if (isfinite(a->bound_rate) && isfinite(a->sim_saturation))
            assert_true(a->sim_saturation <= a->bound_rate);
    }
    assert_true(front >= 1);
    assert_int_equal(dec.recommended, all.recommended);
    dse_run_fini(&dec);
    dse_run_fini(&all);
    cfg_study_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_certified_front_is_the_front),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * vary.c — the parts of `dse optimize --vary` that are not the run loop
 * (cmd_optimize.c has it): the KEY=V1,V2 argument, applying one value to a
 * study, and the "How the answer depends on KEY" section.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/cli/vary.h"
#include "dse/report/report.h"

const char *const dse_vary_keys[] = {"router.model", "router.delay",
                                     "router.clock_fo4", "message.bits",
                                     NULL};

int dse_vary_parse(const char *arg, dse_vary *v, err *e)
{
    memset(v, 0, sizeof *v);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof v->key)
        return err_set(e, ERR_INVALID, "--vary: expected KEY=V1,V2,... "
                       "got '%s'", arg);
    memcpy(v->key, arg, (size_t)(eq - arg));
    int known = 0;
    for (int i = 0; dse_vary_keys[i]; i++)
        known |= !strcmp(v->key, dse_vary_keys[i]);
    if (!known)
        return err_set(e, ERR_INVALID, "--vary: unknown key '%s' (router."
                       "model, router.delay, router.clock_fo4, message.bits)",
                       v->key);
    const char *p = eq + 1;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= DSE_VARY_TEXT)
            return err_set(e, ERR_INVALID, "--vary %s: an empty or too long "
                           "value", v->key);
        if (v->n == DSE_VARY_MAX)
            return err_set(e, ERR_INVALID, "--vary %s: at most %d values",
                           v->key, DSE_VARY_MAX);
        memcpy(v->values[v->n], p, len);
        v->values[v->n][len] = '\0';
        for (int j = 0; j < v->n; j++)
            if (!strcmp(v->values[j], v->values[v->n]))
                return err_set(e, ERR_INVALID, "--vary %s: '%s' is given "
                               "twice", v->key, v->values[j]);
        v->n++;
        p += len + (end ? 1 : 0);
        if (end && !*p)
            return err_set(e, ERR_INVALID, "--vary %s: an empty value",
                           v->key);
    }
    if (v->n == 0)
        return err_set(e, ERR_INVALID, "--vary %s: no values", v->key);
    return 0;
}

static int number(const char *key, const char *value, double lo, double hi,
                  double *out, err *e)
{
    char *end;
    double x = strtod(value, &end);
    if (*end || !(x >= lo && x <= hi))
        return err_set(e, ERR_INVALID, "--vary %s: expected a number in "
                       "[%g, %g], got '%s'", key, lo, hi, value);
    *out = x;
    return 0;
}

int dse_vary_apply(cfg_study *s, const char *key, const char *value, err *e)
{
    double x = 0;
    if (!strcmp(key, "router.model")) {
        phys_router_model m;
        if (phys_router_model_parse(value, &m))
            return err_set(e, ERR_INVALID, "--vary router.model: '%s' is "
                           "not fixed, chien or peh_dally", value);
        s->router.model = m;
        s->router.delay = s->router_delay;
        return 0;
    }
    if (!strcmp(key, "router.delay")) {
        if (number(key, value, 0, 1000, &x, e) || x != floor(x))
            return err_set(e, ERR_INVALID, "--vary router.delay: expected "
                           "an integer in [0, 1000], got '%s'", value);
        s->router.model = PHYS_ROUTER_FIXED;
        s->router_delay = s->router.delay = (int)x;
        return 0;
    }
    if (!strcmp(key, "router.clock_fo4")) {
        if (number(key, value, PHYS_MIN_CLOCK_FO4, PHYS_MAX_CLOCK_FO4, &x, e))
            return ERR_INVALID;
        s->router.model = PHYS_ROUTER_PEH_DALLY;
        s->router.clock_fo4 = x;
        return 0;
    }
    if (!strcmp(key, "message.bits")) {
        if (number(key, value, 1, 1 << 20, &x, e) || x != floor(x))
            return err_set(e, ERR_INVALID, "--vary message.bits: expected "
                           "an integer in [1, %d], got '%s'", 1 << 20, value);
        s->workload.message_bits = (int)x;
        return 0;
    }
    return err_set(e, ERR_INVALID, "--vary: unknown key '%s'", key);
}

void dse_vary_row_of(const dse_run *r, const char *value, dse_vary_row *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->value, sizeof out->value, "%s", value);
    out->sim_saturation = NAN;
    out->feasible = r->space.count;
    out->nsimulated = r->nsimulated;
    out->certified = r->certified;
    size_t nr = r->study->rates.n;
    out->nrates = nr < 8 ? nr : 8;
    if (r->recommended == SIZE_MAX)
        return;
    const dse_candidate *c = &r->cand[r->recommended];
    dse_design_label(&c->design, out->label, sizeof out->label);
    out->router_delay = c->design.router_delay;
    out->sim_saturation = c->sim_saturation;
    for (size_t i = 0; i < out->nrates; i++)
        out->latency[i] = dse_report_latency(c, i, &out->simulated[i]);
}

void dse_vary_write_md(FILE *out, const cfg_study *s, const dse_vary *v,
                       const dse_vary_row *rows)
{
    fprintf(out, "# How the answer depends on %s\n\n", v->key);
    fprintf(out, "Study %s (%s), decided once per value of %s; every other "
            "setting as the study gives it.  Each value's full report is "
            "in the directory `%s=VALUE/` beside this file.\n\n",
            s->name, s->source, v->key, v->key);
    fprintf(out, "| %s | recommendation | its D_r (cycles) | simulated "
            "saturation |", v->key);
    for (size_t i = 0; i < rows[0].nrates; i++)
        fprintf(out, " latency @ %g |", s->rates.v[i]);
    fprintf(out, " feasible | simulated | certified |\n|---|---|---|---|");
    for (size_t i = 0; i < rows[0].nrates; i++)
        fprintf(out, "---|");
    fprintf(out, "---|---|---|\n");
    for (int k = 0; k < v->n; k++) {
        const dse_vary_row *w = &rows[k];
        fprintf(out, "| %s | %s | %d | ", w->value,
                w->label[0] ? w->label : "(none simulated)", w->router_delay);
        if (isfinite(w->sim_saturation))
            fprintf(out, "%.5f |", w->sim_saturation);
        else
            fprintf(out, "- |");
        for (size_t i = 0; i < w->nrates; i++) {
            if (isfinite(w->latency[i]))
                fprintf(out, " %.1f%s |", w->latency[i],
                        w->simulated[i] ? "" : " (model)");
            else
                fprintf(out, " saturates |");
        }
        fprintf(out, " %zu | %zu | %s |\n", w->feasible, w->nsimulated,
                w->certified ? "yes" : "no");
    }
    fprintf(out, "\n");
    int changes = 0;
    for (int k = 1; k < v->n; k++)
        if (strcmp(rows[k].label, rows[k - 1].label)) {
            fprintf(out, "- From %s = %s to %s: the recommendation changes "
                    "from %s to %s.\n", v->key, rows[k - 1].value,
                    rows[k].value, rows[k - 1].label, rows[k].label);
            changes++;
        }
    if (!changes)
        fprintf(out, "- The recommendation is the same for every value: "
                "%s.\n", rows[0].label);
}

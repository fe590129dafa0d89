/*
 * vary.c — the parts of `dse optimize --vary` that are not the run loop
 * (cmd_optimize.c has it): the KEY=V1,V2 argument, applying one value to a
 * study, and the "How the answer depends on KEY" section, one table built
 * once and written as DIR/index.html (the page a browser opens, linking
 * each value's report) and DIR/sensitivity.md, so the two cannot differ.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dse/cli/vary.h"
#include "dse/dse.h"
#include "dse/report/report.h"
#include "dse/report/report_table.h"

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
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    out->nrates = nr < 8 ? nr : 8;
    if (s->router.model == PHYS_ROUTER_PEH_DALLY)
        snprintf(out->clock, sizeof out->clock, "%g FO4, shared",
                 s->router.clock_fo4);
    else if (s->router.model == PHYS_ROUTER_FIXED)
        snprintf(out->clock, sizeof out->clock, "shared");
    else
        snprintf(out->clock, sizeof out->clock, "own");
    if (r->recommended == SIZE_MAX)
        return;
    const dse_candidate *c = &r->cand[r->recommended];
    dse_design_label(&c->design, out->label, sizeof out->label);
    out->router_delay = c->design.router_delay;
    out->sim_saturation = c->sim_saturation;
    double ns = dse_report_clock_ns(s, &c->design);
    if (r->clock_ref_ns > 0) {
        /* the run's figures are in cycles of its reference clock */
        out->own_clock = 1;
        snprintf(out->clock, sizeof out->clock,
                 "%.2f ns, reference (own %.2f)", r->clock_ref_ns, ns);
    } else if (isfinite(ns)) {
        out->own_clock = 1;
        snprintf(out->clock, sizeof out->clock, "%.2f ns, own", ns);
    }
    for (size_t i = 0; i < out->nrates; i++)
        out->latency[i] = dse_report_latency(c, i, &out->simulated[i]);
}

/* The per-value report's directory (relative to DIR): "KEY=VALUE". */
static void report_dir(const dse_vary *v, const dse_vary_row *w, char *buf,
                       size_t size)
{
    snprintf(buf, size, "%s=%s", v->key, w->value);
}

/* The table: one row per value; its last column names the value's
 * report. */
static void vary_table(const cfg_study *s, const dse_vary *v,
                       const dse_vary_row *rows, rtable *t)
{
    size_t nr = rows[0].nrates;
    rtable_init(t, 9 + nr);
    rtable_cell(t, "%s", v->key);
    rtable_cell(t, "recommendation");
    rtable_cell(t, "its D_r (cycles)");
    rtable_cell(t, "clock");
    rtable_cell(t, "simulated saturation");
    for (size_t i = 0; i < nr; i++)
        rtable_cell(t, "latency @ %g", s->rates.v[i]);
    rtable_cell(t, "feasible");
    rtable_cell(t, "simulated");
    rtable_cell(t, "certified");
    rtable_cell(t, "report");
    for (int k = 0; k < v->n; k++) {
        const dse_vary_row *w = &rows[k];
        rtable_cell(t, "%s", w->value);
        rtable_cell(t, "%s", w->label[0] ? w->label : "(none simulated)");
        rtable_cell(t, "%d", w->router_delay);
        rtable_cell(t, "%s", w->clock);
        if (isfinite(w->sim_saturation))
            rtable_cell(t, "%.5f", w->sim_saturation);
        else
            rtable_cell(t, "-");
        for (size_t i = 0; i < nr; i++) {
            if (i >= w->nrates)
                rtable_cell(t, "-");
            else if (isfinite(w->latency[i]))
                rtable_cell(t, "%.1f%s", w->latency[i],
                            w->simulated[i] ? "" : " (model)");
            else
                rtable_cell(t, "saturates");
        }
        rtable_cell(t, "%zu", w->feasible);
        rtable_cell(t, "%zu", w->nsimulated);
        rtable_cell(t, "%s", w->certified ? "yes" : "no");
        char dir[2 * DSE_VARY_TEXT + 2];
        report_dir(v, w, dir, sizeof dir);
        rtable_cell(t, "%s/index.html", dir);
    }
}

/* Where the answer changes, in sentences (caller frees). */
static char **vary_changes(const dse_vary *v, const dse_vary_row *rows,
                           size_t *count)
{
    char **lines = NULL;
    *count = 0;
    for (int k = 1; k < v->n; k++)
        if (strcmp(rows[k].label, rows[k - 1].label))
            dse_report_line_add(&lines, count, "From %s = %s to %s: the "
                                "recommendation changes from %s to %s.",
                                v->key, rows[k - 1].value, rows[k].value,
                                rows[k - 1].label[0] ? rows[k - 1].label
                                                     : "none",
                                rows[k].label[0] ? rows[k].label : "none");
    if (!*count)
        dse_report_line_add(&lines, count, "The recommendation is the same "
                            "for every value: %s.", rows[0].label);
    int own = 0;
    for (int k = 0; k < v->n; k++)
        own |= rows[k].own_clock;
    if (own)
        dse_report_line_add(&lines, count, "Where the clock is a design's "
                            "own (Chien's router model), that value's "
                            "latencies and rates are in cycles of the clock "
                            "shown (its fastest design's, the reference its "
                            "designs were compared in), not of the other "
                            "values': its report says how far its designs' "
                            "clocks differ.");
    return lines;
}

static void intro(FILE *out, const cfg_study *s, const dse_vary *v, int html)
{
    char text[9000];
    snprintf(text, sizeof text,
             "Study %s (%s), decided once per value of %s; every other "
             "setting as the study gives it.  Latencies in cycles at the "
             "study's target rates (messages per node per cycle), simulated "
             "unless marked model; clock: the one every design shares, or "
             "under Chien's router model the reference clock the value's "
             "designs were compared in (their fastest design's, with the "
             "recommendation's own).  Each value's full report is in the "
             "directory %s=VALUE/ beside this file.",
             s->name, s->source, v->key, v->key);
    if (html) {
        fputs("<p>", out);
        html_text(out, text);
        fputs("</p>\n", out);
    } else {
        fprintf(out, "%s\n\n", text);
    }
}

void dse_vary_write_md(FILE *out, const cfg_study *s, const dse_vary *v,
                       const dse_vary_row *rows)
{
    fprintf(out, "# How the answer depends on %s\n\n", v->key);
    intro(out, s, v, 0);
    rtable t;
    vary_table(s, v, rows, &t);
    rtable_md(&t, out);
    rtable_fini(&t);
    size_t n;
    char **lines = vary_changes(v, rows, &n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "- %s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
}

/* A relative link's path, percent-encoded where a URL needs it. */
static void href(FILE *out, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("-._~=/", *p))
            fputc(*p, out);
        else
            fprintf(out, "%%%02X", *p);
    }
}

void dse_vary_write_html(FILE *out, const cfg_study *s, const dse_vary *v,
                         const dse_vary_row *rows)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\""
          "utf-8\">\n<title>dse: how the answer depends on ", out);
    html_text(out, v->key);
    fputs("</title>\n<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n<style>\n", out);
    fputs(dse_report_page_style(), out);
    fputs("</style>\n</head>\n<body>\n<h1>How the answer depends on ", out);
    html_text(out, v->key);
    fputs("</h1>\n", out);
    intro(out, s, v, 1);
    fputs("<p class=\"note\">Generated by ", out);
    html_text(out, dse_version_string());
    fputs(".</p>\n<h2>Where the answer changes</h2>\n", out);
    size_t n;
    char **lines = vary_changes(v, rows, &n);
    html_list(out, lines, n);
    fputs("<h2>Each value's recommendation and figures</h2>\n"
          "<div class=\"scroll\"><table>\n", out);
    rtable t;
    vary_table(s, v, rows, &t);
    /* rtable_html, but the value and its recommendation link the value's
     * report, whose path (the last column) is not shown: on a narrow
     * screen a last column scrolls out of sight */
    size_t nc = t.ncols;
    for (size_t row = 0; row * nc < t.ncells; row++) {
        char *const *cell = t.cells + row * nc;
        int head = row == 0;
        fputs(head ? "<thead><tr>" : "<tr>", out);
        for (size_t col = 0; col + 1 < nc; col++) {
            int link = !head && col < 2;
            fputs(head ? "<th>" : "<td>", out);
            if (link) {
                fputs("<a href=\"", out);
                href(out, cell[nc - 1]);
                fputs("\">", out);
            }
            html_text(out, cell[col]);
            fputs(link ? "</a>" : "", out);
            fputs(head ? "</th>" : "</td>", out);
        }
        fputs(head ? "</tr></thead>\n" : "</tr>\n", out);
    }
    rtable_fini(&t);
    fputs("</table></div>\n</body>\n</html>\n", out);
}

/* Write DIR/NAME through a temporary file renamed into place. */
static int write_atomic(const char *dir, const char *name,
                        void (*write)(FILE *, const cfg_study *,
                                      const dse_vary *, const dse_vary_row *),
                        const cfg_study *s, const dse_vary *v,
                        const dse_vary_row *rows, err *e)
{
    char tmp[4200], final[4200];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(final, sizeof final, "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return err_set(e, ERR_IO, "%s: %s", tmp, strerror(errno));
    write(f, s, v, rows);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, final) != 0) {
        int rc = err_set(e, ERR_IO, "%s: %s", final,
                         strerror(errno ? errno : EIO));
        unlink(tmp);
        return rc;
    }
    return 0;
}

int dse_vary_write(const char *dir, const cfg_study *s, const dse_vary *v,
                   const dse_vary_row *rows, err *e)
{
    int rc = write_atomic(dir, "sensitivity.md", dse_vary_write_md, s, v,
                          rows, e);
    if (!rc)
        rc = write_atomic(dir, "index.html", dse_vary_write_html, s, v, rows,
                          e);
    return rc;
}

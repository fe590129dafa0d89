/*
 * report.c — the report directory (atomic publication) and the pieces the
 * writers share: design labels, best design per topology, findings.
 */
#include "dse/report/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse/report/report_charts.h"
#include "dse/report/report_curves.h"
#include "net/topology.h"
#include "net/xalloc.h"

void dse_design_label(const net_design *d, char *buf, size_t size)
{
    char radix[96], extra[96];
    net_design_radix_label(d, radix, sizeof radix);
    net_design_params_format(d, ", ", extra, sizeof extra);
    snprintf(buf, size, "%s %s, V=%d, B=%d, w=%d, %s%s%s",
             net_topology_name(d->topology), radix, d->vcs, d->buffer_flits,
             d->width, d->switching == NET_SWITCH_PCS ? "pcs " : "",
             net_routing_name(d->routing), extra);
}

void dse_report_best_by_topology(const dse_run *r, size_t ri,
                                 size_t best[NET_TOPOLOGY_COUNT])
{
    /* Simulated figures first: a design the simulator measured beats any
     * design known only by its model (whose figure is a screen, not an
     * answer); among each kind, the lowest latency. */
    double lat[NET_TOPOLOGY_COUNT];
    int simulated[NET_TOPOLOGY_COUNT];
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
        best[t] = SIZE_MAX;
    for (size_t i = 0; i < r->ncand; i++) {
        int sim;
        double l = dse_report_latency(&r->cand[i], ri, &sim);
        if (!isfinite(l))
            continue;
        int t = r->cand[i].design.topology;
        if (best[t] == SIZE_MAX || sim > simulated[t] ||
            (sim == simulated[t] && l < lat[t])) {
            best[t] = i;
            lat[t] = l;
            simulated[t] = sim;
        }
    }
}

double dse_report_ranked(const cfg_study *s, const dse_candidate *c,
                         size_t ri, double *half_width)
{
    double hw = NAN, v = NAN;
    if (c->sim) {
        v = dse_point_latency(&c->sim[ri], cfg_rank_stat(s), &hw);
        if (!isfinite(v) && c->sim[ri].saturated)
            v = INFINITY;
    }
    if (half_width)
        *half_width = isfinite(hw) ? hw : 0;
    return v;
}

const char *dse_report_ranked_name(const cfg_study *s)
{
    switch (cfg_rank_stat(s)) {
    case CFG_LAT_P50: return "p50 latency";
    case CFG_LAT_P95: return "p95 latency";
    case CFG_LAT_P99: return "p99 latency";
    default: return "latency";
    }
}

char *dse_report_vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *buf = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    vsnprintf(buf, n > 0 ? (size_t)n + 1 : 1, fmt, again);
    va_end(again);
    if (n <= 0)
        buf[0] = 0;
    return buf;
}

void dse_report_line_add(char ***notes, size_t *count, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = dse_report_vformat(fmt, ap);
    va_end(ap);
    *notes = xrealloc(*notes, (*count + 1) * sizeof **notes);
    (*notes)[(*count)++] = line;
}

/* The candidate of `topology` with n = 2 and the lowest latency at rate
 * index ri, simulated figures before model ones (SIZE_MAX if none has a
 * steady state there); *exists is set when the study has any such 2-D
 * design at all. */
static size_t best_2d(const dse_run *r, net_topology topology, size_t ri,
                      int *exists)
{
    size_t best = SIZE_MAX;
    int best_sim = 0;
    double best_lat = INFINITY;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        if (c->design.topology != topology || c->design.n != 2)
            continue;
        *exists = 1;
        int sim;
        double l = dse_report_latency(c, ri, &sim);
        if (isfinite(l) && (best == SIZE_MAX || sim > best_sim ||
                            (sim == best_sim && l < best_lat))) {
            best = i;
            best_sim = sim;
            best_lat = l;
        }
    }
    return best;
}

/* "a beats b at rates ..., loses at ..." for the 2-D designs of a and b. */
static void compare_2d(const dse_run *r, net_topology a, net_topology b,
                       const char *expectation, char ***notes, size_t *count)
{
    const cfg_study *s = r->study;
    char wins[400] = "", losses[400] = "";
    size_t nw = 0, nl = 0;
    int has_a = 0, has_b = 0, model_only = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t ia = best_2d(r, a, ri, &has_a), ib = best_2d(r, b, ri, &has_b);
        if (ia == SIZE_MAX && ib == SIZE_MAX)
            continue;
        int sa = 0, sb = 0;
        double la = ia == SIZE_MAX ? INFINITY : dse_report_latency(&r->cand[ia], ri, &sa);
        double lb = ib == SIZE_MAX ? INFINITY : dse_report_latency(&r->cand[ib], ri, &sb);
        if (!sa || !sb)
            model_only = 1;
        char item[64];
        snprintf(item, sizeof item, "%s%g (%s vs %s)", "", s->rates.v[ri],
                 isfinite(la) ? "" : "saturated", isfinite(lb) ? "" : "saturated");
        if (isfinite(la) && isfinite(lb))
            snprintf(item, sizeof item, "%g (%.1f vs %.1f)", s->rates.v[ri], la, lb);
        else if (isfinite(la))
            snprintf(item, sizeof item, "%g (%.1f vs saturated)", s->rates.v[ri], la);
        else
            snprintf(item, sizeof item, "%g (saturated vs %.1f)", s->rates.v[ri], lb);
        char *list = la < lb ? wins : losses;
        size_t *n = la < lb ? &nw : &nl;
        size_t used = strlen(list);
        snprintf(list + used, 400 - used, "%s%s", *n ? ", " : "", item);
        (*n)++;
    }
    if (!has_a || !has_b)
        return;
    dse_report_line_add(notes, count,
             "2-D %s vs 2-D %s at equal cost (%s): %s wins at %s; %s wins at %s "
             "(%s).",
             net_topology_name(a), net_topology_name(b), expectation,
             net_topology_name(a), nw ? wins : "no target rate",
             net_topology_name(b), nl ? losses : "no target rate",
             model_only ? "some figures are the models' only: a design of "
                          "that shape was not simulated"
                        : "simulated figures");
}

/* What the thesis expects of two topologies at equal cost under one
 * technology: the report checks each claim against the study's results. */
static const struct {
    cons_technology technology;
    net_topology a, b;
    const char *expectation;
} thesis_claims[] = {
    {CONS_VLSI, NET_DCSH, NET_TORUS,
     "thesis ch.4 expects the DCSH to win at moderate and high load "
     "under the VLSI bisection constraint with D_r >= 1"},
    {CONS_MULTICHIP, NET_EXPRESS, NET_DCSH,
     "thesis 6.4.2 expects the express-cube to win at all loads "
     "under the multi-chip pin-out constraint at 1024 nodes"},
};

char **dse_report_notes(const dse_run *r, size_t *count)
{
    const cfg_study *s = r->study;
    char **notes = NULL;
    *count = 0;
    /* Which topology wins at each target rate, by the models, at equal
     * cost (every design's width comes from the same budget). */
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t best[NET_TOPOLOGY_COUNT];
        dse_report_best_by_topology(r, ri, best);
        int order[NET_TOPOLOGY_COUNT], m = 0;
        for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
            if (best[t] != SIZE_MAX)
                order[m++] = t;
        for (int a = 1; a < m; a++) /* insertion sort by latency */
            for (int b = a; b > 0 && dse_report_latency(&r->cand[best[order[b]]], ri, NULL) <
                                         dse_report_latency(&r->cand[best[order[b - 1]]], ri, NULL);
                 b--) {
                int tmp = order[b];
                order[b] = order[b - 1];
                order[b - 1] = tmp;
            }
        if (m == 0) {
            dse_report_line_add(&notes, count,
                     "At rate %g no design has a steady state, simulated or by its "
            "model.",
                     s->rates.v[ri]);
            continue;
        }
        char line[900];
        size_t used = (size_t)snprintf(
            line, sizeof line, "At rate %g the best of each topology by "
                               "mean latency (equal budget; simulated unless "
                               "marked model):",
            s->rates.v[ri]);
        for (int q = 0; q < m && used < sizeof line; q++) {
            const dse_candidate *c = &r->cand[best[order[q]]];
            char label[160];
            dse_design_label(&c->design, label, sizeof label);
            int sim;
            double l = dse_report_latency(c, ri, &sim);
            int w = snprintf(line + used, sizeof line - used, "%s %s %.1f cycles%s (%s)",
                             q ? "," : "", net_topology_name(order[q]), l,
                             sim ? "" : " model", label);
            if (w > 0)
                used += (size_t)w;
        }
        dse_report_line_add(&notes, count, "%s.", line);
    }
    /* The thesis's comparisons, made as the thesis makes them: 2-D networks
     * of the same size at equal cost. */
    for (size_t i = 0; i < sizeof thesis_claims / sizeof thesis_claims[0]; i++)
        if (s->budget.technology == thesis_claims[i].technology)
            compare_2d(r, thesis_claims[i].a, thesis_claims[i].b,
                       thesis_claims[i].expectation, &notes, count);
    /* Finalists the simulator saturates at a target rate the model still
     * serves: the model's saturation rate is optimistic for them. */
    size_t optimistic = 0;
    double first_rate = INFINITY, worst_ratio = INFINITY;
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        for (size_t ri = 0; c->sim && ri < s->rates.n; ri++)
            if (c->sim[ri].saturated && isfinite(c->latency[ri])) {
                optimistic++;
                first_rate = fmin(first_rate, s->rates.v[ri]);
                worst_ratio = fmin(worst_ratio, s->rates.v[ri] / c->saturation_rate);
                break;
            }
    }
    if (optimistic)
        dse_report_line_add(&notes, count,
                 "The simulator saturates %zu of %zu finalists at target rates "
                 "their models still serve (from rate %g, as low as %.0f%% of a "
                 "model's saturation rate): for these designs the models "
                 "overestimate the sustainable load, so the simulated figures "
                 "should decide.",
                 optimistic, r->nfinalists, first_rate, 100 * worst_ratio);
    if (r->njob_failures) {
        char list[700] = "";
        size_t used = 0;
        for (size_t q = 0; q < r->njob_failures && q < 3 && used < sizeof list; q++) {
            int w = snprintf(list + used, sizeof list - used, "%s\"%s\"",
                             q ? "; " : "", r->job_failures[q]);
            if (w > 0)
                used += (size_t)w;
        }
        dse_report_line_add(&notes, count,
                 "%zu job(s) failed on the farm and went to its dead-letter "
                 "stream; their designs or simulation points are missing from "
                 "this report. First reasons: %s.",
                 r->njob_failures, list);
    }
    size_t unsimulated = 0, disagree = 0;
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        if (!c->sim || !isfinite(c->max_abs_error_pct))
            unsimulated++;
        if (c->disagrees)
            disagree++;
    }
    if (unsimulated)
        dse_report_line_add(&notes, count,
                 "%zu finalist(s) could not be confirmed by simulation at "
                 "every target rate (simulator support or saturation); their "
                 "ranking rests on the models alone.",
                 unsimulated);
    if (disagree)
        dse_report_line_add(&notes, count,
                 "%zu finalist(s) have model and simulation disagreeing by more "
                 "than the study's tolerance of %g%%: treat their model "
                 "figures with care.",
                 disagree, dse_study_tolerance_pct(s));
    return notes;
}

/* ---- atomic publication --------------------------------------------------- */

/*
 * Safety rules: dse replaces only a directory it wrote itself,
 * recognised by DSE_REPORT_MARKER, a file every report directory gets;
 * anything else at the target (a file, a symbolic link, a directory of
 * other things such as /etc or a home directory) is refused before any
 * work starts and again just before publication.  Removal never follows a
 * symbolic link: entries are unlinked relative to a directory opened with
 * O_NOFOLLOW (unlinkat removes a link, never its target), subdirectories
 * are left alone (reports hold plain files only), so an unexpected tree
 * makes the final rmdir fail rather than deleting anything.
 */

static const char marker_text[] =
    "This directory is a report written by dse (dse optimize / dse serve).\n"
    "dse replaces it, and only it, when a new report is written here.\n";

static int remove_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
            continue;
        unlinkat(fd, ent->d_name, 0); /* never follows; fails on a directory */
    }
    closedir(d);
    return rmdir(dir);
}

/* dir without trailing slashes into buf; ERR_CONFIG if nothing is left. */
static int trim_dir(const char *dir, char *buf, size_t size, err *e)
{
    if (!dir || !dir[0])
        return err_set(e, ERR_CONFIG, "the report directory is empty");
    int n = snprintf(buf, size, "%s", dir);
    if (n < 0 || (size_t)n >= size)
        return err_set(e, ERR_CONFIG, "report directory '%.200s...' is too long",
                       dir);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    if (strcmp(buf, "/") == 0 || strcmp(buf, ".") == 0 ||
        strcmp(buf, "..") == 0 ||
        (n >= 2 && strcmp(buf + n - 2, "/.") == 0) ||
        (n >= 3 && strcmp(buf + n - 3, "/..") == 0))
        return err_set(e, ERR_CONFIG,
                       "report directory '%s' is not a directory dse may "
                       "replace: name a new or dse-written directory",
                       dir);
    return 0;
}

int dse_report_dir_check(const char *dir, err *e)
{
    char path[4096];
    int rc = trim_dir(dir, path, sizeof path, e);
    if (rc)
        return rc;
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return err_set(e, ERR_CONFIG, "report directory '%s': %s", path,
                       strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        return err_set(e, ERR_CONFIG,
                       "report directory '%s' is a symbolic link: dse never "
                       "replaces one; give the real path of a new or "
                       "dse-written directory",
                       path);
    if (!S_ISDIR(st.st_mode))
        return err_set(e, ERR_CONFIG,
                       "report directory '%s' exists and is not a directory; "
                       "choose another path",
                       path);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return err_set(e, ERR_CONFIG, "report directory '%s': %s", path,
                       strerror(errno));
    struct stat ms;
    if (fstatat(fd, DSE_REPORT_MARKER, &ms, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(ms.st_mode)) {
        close(fd);
        return 0; /* a report dse wrote */
    }
    DIR *d = fdopendir(fd);
    int empty = 1;
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d)))
            if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..")) {
                empty = 0;
                break;
            }
        closedir(d);
    } else {
        close(fd);
        empty = 0;
    }
    if (empty)
        return 0;
    return err_set(e, ERR_CONFIG,
                   "report directory '%s' exists and was not written by dse "
                   "(no %s file in it): dse replaces only its own reports; "
                   "choose a new directory (-o DIR or report.directory) or "
                   "empty this one yourself",
                   path, DSE_REPORT_MARKER);
}

static int mkdir_parents(const char *dir)
{
    char path[4096];
    if (strlen(dir) >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, strlen(dir) + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

typedef int (*writer_fn)(const dse_run *, FILE *, err *);

static int json_with_timings(const dse_run *r, FILE *out, err *e)
{
    return dse_report_json(r, out, 1, e);
}

int dse_report_write(const dse_run *r, const char *dir, err *e)
{
    const cfg_study *s = r->study;
    static const writer_fn writers[CFG_FORMAT_COUNT] = {
        [CFG_FORMAT_HTML] = dse_report_html,
        [CFG_FORMAT_MD] = dse_report_md,
        [CFG_FORMAT_CSV] = dse_report_csv,
        [CFG_FORMAT_JSON] = json_with_timings,
    };
    char target[4096], tmp[4200], old[4200], path[4300];
    int rc = dse_report_dir_check(dir, e);
    if (rc)
        return rc;
    trim_dir(dir, target, sizeof target, NULL);
    dir = target;
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", dir, (long)getpid());
    snprintf(old, sizeof old, "%s.old-%ld", dir, (long)getpid());
    if (mkdir_parents(tmp) || (mkdir(tmp, 0777) && errno != EEXIST))
        return err_set(e, ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
    snprintf(path, sizeof path, "%s/%s", tmp, DSE_REPORT_MARKER);
    FILE *mk = fopen(path, "w");
    if (!mk || fputs(marker_text, mk) < 0 || fclose(mk) != 0) {
        rc = err_set(e, ERR_IO, "cannot write %s: %s", path, strerror(errno));
        remove_tree(tmp);
        return rc;
    }
    /* The curves' data go with the tabular formats: curves.csv with csv,
     * curves.json with json. */
    static const struct {
        cfg_format format;
        const char *file;
        writer_fn fn;
    } companions[] = {
        {CFG_FORMAT_CSV, "curves.csv", dse_report_curves_csv},
        {CFG_FORMAT_JSON, "curves.json", dse_report_curves_json},
    };
    size_t ncomp = sizeof companions / sizeof companions[0];
    for (size_t f = 0; f < CFG_FORMAT_COUNT + ncomp && rc == 0; f++) {
        int main_file = f < CFG_FORMAT_COUNT;
        size_t q = main_file ? 0 : f - CFG_FORMAT_COUNT;
        if (!s->formats[main_file ? (int)f : (int)companions[q].format])
            continue;
        snprintf(path, sizeof path, "%s/%s", tmp,
                 main_file ? cfg_format_file((cfg_format)f) : companions[q].file);
        FILE *out = fopen(path, "w");
        if (!out) {
            rc = err_set(e, ERR_IO, "cannot write %s: %s", path, strerror(errno));
            break;
        }
        rc = main_file ? writers[f](r, out, e) : companions[q].fn(r, out, e);
        if (fclose(out) != 0 && rc == 0)
            rc = err_set(e, ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    /* every chart as a standalone SVG beside index.html (report.md shows
     * them as images) */
    if (rc == 0 && (s->formats[CFG_FORMAT_HTML] || s->formats[CFG_FORMAT_MD])) {
        report_charts charts;
        report_charts_build(r, &charts);
        rc = report_charts_write(&charts, tmp, e);
        report_charts_fini(&charts);
    }
    if (rc) {
        remove_tree(tmp);
        return rc;
    }
    /* publish: check again (the target may have changed during the run),
     * move any previous report aside, move the new one in */
    if ((rc = dse_report_dir_check(dir, e)) != 0) {
        remove_tree(tmp);
        return rc;
    }
    int had_old = rename(dir, old) == 0;
    if (rename(tmp, dir) != 0) {
        int saved = errno;
        if (had_old)
            rename(old, dir);
        remove_tree(tmp);
        return err_set(e, ERR_IO, "cannot publish the report as %s: %s", dir,
                       strerror(saved));
    }
    if (had_old)
        remove_tree(old);
    return 0;
}

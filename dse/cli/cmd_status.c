/*
 * cmd_status.c — `dse status [STUDY-ID] --redis URL`: what the farm and
 * the daemon are doing.  Without an id: workers alive, jobs queued and in
 * progress, dead letters, and one line per recent study.  With an id: that
 * study's status (queued; running with its phase and progress; done with
 * its report directory; failed, refused or cancelled with the reason),
 * with elapsed time and the current phase's ETA; --json: the same as JSON
 * (dse/farm/studies.h's fields).
 *
 * Read-only: a few hash and list reads, no keyspace scan.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/cli/commands.h"
#include "dse/farm/farm_serve.h"
#include "dse/farm/escape.h"
#include "dse/farm/studies.h"

#define RECENT 50

static void when(long long unix_s, char *buf, size_t size)
{
    if (unix_s <= 0) {
        snprintf(buf, size, "-");
        return;
    }
    time_t t = (time_t)unix_s;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

/* "1:02:03" / "2:03" / "-" */
static void duration(double s, char *buf, size_t size)
{
    if (s < 0) {
        snprintf(buf, size, "-");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

/* Room for detail()'s longest line: the report path and the reason whole
 * (a status line that cut the report path would name another directory). */
#define DETAIL_MAX                                                            \
    (sizeof ((dse_study_info *)0)->report +                                   \
     sizeof ((dse_study_info *)0)->reason + 256)

/* printf for what comes from Redis: control characters (an escape
 * sequence planted in a study's name or a worker's host name) become '?'
 * before they reach the terminal; only the format's newlines stay. */
static void tprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void tprintf(const char *fmt, ...)
{
    char line[DETAIL_MAX + 1024], clean[sizeof line];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    int nl = n > 0 && line[n - 1] == '\n';
    if (nl)
        line[n - 1] = '\0';
    fputs(dse_term_clean(line, clean, sizeof clean), stdout);
    if (nl)
        fputc('\n', stdout);
}

/* One line of what a study is doing. */
static void detail(const dse_study_info *x, char *buf, size_t size)
{
    char el[32], eta[32];
    duration(x->elapsed_s, el, sizeof el);
    duration(x->eta_s, eta, sizeof eta);
    if (strcmp(x->status, "running") == 0)
        snprintf(buf, size, "%s %lld/%lld jobs, %lld workers, elapsed %s, "
                            "ETA %s%s",
                 x->phase, x->done, x->total, x->workers, el, eta,
                 x->cancel_requested ? " (cancelling)" : "");
    else if (strcmp(x->status, "done") == 0)
        snprintf(buf, size, "report %s (took %s)%s%s", x->report, el,
                 x->reason[0] ? "; " : "", x->reason);
    else
        snprintf(buf, size, "%s", x->reason);
}

static int print_json(json_t *o)
{
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!t)
        return 1;
    printf("%s\n", t);
    free(t);
    return 0;
}

static int show_one(dse_store *st, const dse_farm_opts *fo, const char *id,
                    int as_json)
{
    dse_study_info x;
    err e;
    int rc = dse_study_get(st, fo, id, 0, &x, &e);
    if (rc) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 1;
    }
    if (as_json)
        return print_json(dse_study_json(&x));
    char a[32], b[32], c[32], line[DETAIL_MAX];
    when(x.submitted, a, sizeof a);
    when(x.started, b, sizeof b);
    when(x.finished, c, sizeof c);
    detail(&x, line, sizeof line);
    tprintf("study %s (%s): %s\n", id, x.name, x.status);
    tprintf("  submitted %s, started %s, finished %s\n", a, b, c);
    if (line[0])
        tprintf("  %s\n", line);
    if (x.failed_jobs)
        tprintf("  %lld job(s) failed on the farm (see %sdead)\n",
               x.failed_jobs, fo->prefix);
    return 0;
}

static int show_all(dse_store *st, const dse_farm_opts *fo, int as_json)
{
    char k[160];
    err e;
    long long now, queued = 0, inflight = 0, dead = 0;
    char **workers;
    size_t nw;
    if (st->ops->time_ms(st->self, &now, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 1;
    }
    dse_farm_key(fo, "workers", k, sizeof k);
    if (st->ops->zrange_from(st->self, k, (double)now - 1000 * fo->worker_timeout_s,
                             &workers, &nw, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 1;
    }
    dse_farm_key(fo, "jobs", k, sizeof k);
    st->ops->xlen(st->self, k, &queued, NULL);
    st->ops->xpending_count(st->self, k, DSE_FARM_GROUP, &inflight, NULL);
    dse_farm_key(fo, "dead", k, sizeof k);
    st->ops->xlen(st->self, k, &dead, NULL);
    dse_study_info *xs;
    size_t n;
    if (dse_study_list(st, fo, RECENT, 0, &xs, &n, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        for (size_t i = 0; i < nw; i++)
            free(workers[i]);
        free(workers);
        return 1;
    }
    if (as_json) {
        json_t *o = json_object(), *farm = json_object(), *w = json_array(),
               *arr = json_array();
        for (size_t i = 0; i < nw; i++)
            json_array_append_new(w, json_string(workers[i]));
        json_object_set_new(farm, "workers", w);
        json_object_set_new(farm, "jobs_waiting", json_integer(queued - inflight));
        json_object_set_new(farm, "jobs_running", json_integer(inflight));
        json_object_set_new(farm, "dead_letters", json_integer(dead));
        for (size_t i = 0; i < n; i++)
            json_array_append_new(arr, dse_study_json(&xs[i]));
        json_object_set_new(o, "farm", farm);
        json_object_set_new(o, "studies", arr);
        for (size_t i = 0; i < nw; i++)
            free(workers[i]);
        free(workers);
        free(xs);
        return print_json(o);
    }
    tprintf("farm: %zu worker(s) alive", nw);
    for (size_t i = 0; i < nw; i++) {
        tprintf("%s%s", i ? ", " : " (", workers[i]);
        free(workers[i]);
    }
    free(workers);
    tprintf("%s; jobs: %lld waiting, %lld running; %lld dead letter(s)\n",
           nw ? ")" : "", queued - inflight, inflight, dead);
    if (n == 0)
        tprintf("no studies submitted\n");
    for (size_t i = 0; i < n; i++) {
        char line[DETAIL_MAX];
        detail(&xs[i], line, sizeof line);
        tprintf("%-6s %-9s %-24s %s\n", xs[i].id, xs[i].status, xs[i].name,
               line);
    }
    free(xs);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse status [STUDY-ID] --redis URL [--prefix P] [--json]\n\n"
            "Without an id: workers alive, jobs waiting and running, dead letters,\n"
            "and the last %d studies.  With an id: that study's status (queued,\n"
            "running with progress, elapsed time and ETA, done with its report,\n"
            "failed, refused or cancelled with the reason).  --json: the same as\n"
            "JSON (elapsed_s, eta_s in seconds; null when unknown).\n\n"
            "Exit status: 0 shown, 1 no such study or Redis unreachable, 2 bad usage.\n",
            RECENT);
}

int dse_cmd_status(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"redis", required_argument, NULL, 'R'},
        {"prefix", required_argument, NULL, 'P'},
        {"json", no_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    const char *url = NULL;
    int opt, as_json = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'R': url = optarg; break;
        case 'P': snprintf(fo.prefix, sizeof fo.prefix, "%s", optarg); break;
        case 'J': as_json = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc - 1 || !url) {
        fprintf(stderr, "dse status: %s\n",
                url ? "expected at most one study id" : "--redis URL is required");
        usage(stderr);
        return 2;
    }
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 2;
    }
    dse_store st;
    dse_store_open(&spec, &st);
    int rc = optind == argc - 1 ? show_one(&st, &fo, argv[optind], as_json)
                                : show_all(&st, &fo, as_json);
    dse_store_close(&st);
    return rc;
}

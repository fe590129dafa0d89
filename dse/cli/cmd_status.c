/*
 * cmd_status.c — `dse status [STUDY-ID] --redis URL`: what the farm and
 * the daemon are doing.  Without an id: workers alive, jobs queued and in
 * progress, dead letters, and one line per recent study.  With an id: that
 * study's status (queued; running with its phase and progress; done with
 * its report directory; failed or refused with the reason).
 *
 * Read-only: a few hash and list reads, no keyspace scan.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/cli/commands.h"
#include "dse/farm/farm_serve.h"

#define RECENT 50

typedef struct fields {
    size_t n;
    char **f, **v;
} fields;

static const char *get(const fields *x, const char *name)
{
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->f[i], name) == 0)
            return x->v[i];
    return "";
}

static void fields_free(fields *x)
{
    for (size_t i = 0; i < x->n; i++) {
        free(x->f[i]);
        free(x->v[i]);
    }
    free(x->f);
    free(x->v);
}

static void when(const char *unix_s, char *buf, size_t size)
{
    if (!unix_s[0]) {
        snprintf(buf, size, "-");
        return;
    }
    time_t t = (time_t)atoll(unix_s);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

/* One line of what a study is doing. */
static void detail(const fields *x, char *buf, size_t size)
{
    const char *status = get(x, "status");
    if (strcmp(status, "running") == 0)
        snprintf(buf, size, "%s %s/%s jobs, %s workers", get(x, "phase"),
                 get(x, "done")[0] ? get(x, "done") : "0",
                 get(x, "total")[0] ? get(x, "total") : "?",
                 get(x, "workers")[0] ? get(x, "workers") : "?");
    else if (strcmp(status, "done") == 0)
        snprintf(buf, size, "report %s%s%s", get(x, "report"),
                 get(x, "reason")[0] ? "; " : "", get(x, "reason"));
    else
        snprintf(buf, size, "%s", get(x, "reason"));
}

static int show_one(dse_store *st, const dse_farm_opts *fo, const char *id)
{
    char name[64], key[160];
    snprintf(name, sizeof name, "study:%s", id);
    dse_farm_key(fo, name, key, sizeof key);
    fields x = {0};
    err e;
    if (st->ops->hgetall(st->self, key, &x.n, &x.f, &x.v, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 1;
    }
    if (x.n == 0) {
        fprintf(stderr, "dse status: no study %s under prefix '%s'\n", id,
                fo->prefix);
        return 1;
    }
    char a[32], b[32], c[32], line[1500];
    when(get(&x, "submitted"), a, sizeof a);
    when(get(&x, "started"), b, sizeof b);
    when(get(&x, "finished"), c, sizeof c);
    detail(&x, line, sizeof line);
    printf("study %s (%s): %s\n", id, get(&x, "name"), get(&x, "status"));
    printf("  submitted %s, started %s, finished %s\n", a, b, c);
    if (line[0])
        printf("  %s\n", line);
    if (get(&x, "failed_jobs")[0] && strcmp(get(&x, "failed_jobs"), "0"))
        printf("  %s job(s) failed on the farm (see %sdead)\n",
               get(&x, "failed_jobs"), fo->prefix);
    fields_free(&x);
    return 0;
}

static int show_all(dse_store *st, const dse_farm_opts *fo)
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
    printf("farm: %zu worker(s) alive", nw);
    for (size_t i = 0; i < nw; i++) {
        printf("%s%s", i ? ", " : " (", workers[i]);
        free(workers[i]);
    }
    free(workers);
    printf("%s; jobs: %lld waiting, %lld running; %lld dead letter(s)\n",
           nw ? ")" : "", queued - inflight, inflight, dead);
    char **ids;
    size_t n;
    dse_farm_key(fo, "studies", k, sizeof k);
    if (st->ops->lrange(st->self, k, -RECENT, -1, &ids, &n, &e)) {
        fprintf(stderr, "dse status: %s\n", e.msg);
        return 1;
    }
    if (n == 0)
        printf("no studies submitted\n");
    for (size_t i = 0; i < n; i++) {
        char name[64], key[160], line[1500];
        snprintf(name, sizeof name, "study:%s", ids[i]);
        dse_farm_key(fo, name, key, sizeof key);
        fields x = {0};
        if (st->ops->hgetall(st->self, key, &x.n, &x.f, &x.v, NULL) == 0) {
            detail(&x, line, sizeof line);
            printf("%-6s %-8s %-24s %s\n", ids[i], get(&x, "status"),
                   get(&x, "name"), line);
            fields_free(&x);
        }
        free(ids[i]);
    }
    free(ids);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse status [STUDY-ID] --redis URL [--prefix P]\n\n"
            "Without an id: workers alive, jobs waiting and running, dead letters,\n"
            "and the last %d studies.  With an id: that study's status (queued,\n"
            "running with progress, done with its report, failed or refused with\n"
            "the reason).\n\n"
            "Exit status: 0 shown, 1 no such study or Redis unreachable, 2 bad usage.\n",
            RECENT);
}

int dse_cmd_status(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"redis", required_argument, NULL, 'R'},
        {"prefix", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    const char *url = NULL;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'R': url = optarg; break;
        case 'P': snprintf(fo.prefix, sizeof fo.prefix, "%s", optarg); break;
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
    int rc = optind == argc - 1 ? show_one(&st, &fo, argv[optind])
                                : show_all(&st, &fo);
    dse_store_close(&st);
    return rc;
}

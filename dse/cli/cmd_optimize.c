/*
 * cmd_optimize.c — `dse optimize STUDY`: the main job.  Reads the study,
 * runs the search (dse/search/optimize.c), writes the report directory
 * atomically (dse/report/report.c) and prints where it went and what won.
 *
 * SIGINT/SIGTERM: the first signal sets a flag that the executors and the
 * simulator poll; the run stops, no report is written (an older one is left
 * untouched) and the exit status is 130.  A second signal kills at once.
 *
 * Result cache (dse/farm/cache.h): the executor (local pool or farm) is
 * wrapped by a file cache of finished simulations, $XDG_CACHE_HOME/dse/
 * results by default, so a run interrupted by Ctrl-C resumes without
 * redoing them; --cache DIR elsewhere, --no-cache off.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/cli/vary.h"
#include "dse/farm/cache.h"
#include "dse/farm/farm.h"
#include "dse/search/exec_local.h"
#include "dse/search/optimize.h"
#include "dse/report/report.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    if (stop_requested) { /* second signal: stop now */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_requested = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse optimize [OPTIONS] STUDY.yaml\n\n"
            "Search the study's design space: screen every design with its\n"
            "analytic model, let the flit-level simulator decide in rounds\n"
            "(docs/decision.md), and write the report (index.html, report.md,\n"
            "candidates.csv, results.json, curves.csv, curves.json) to the\n"
            "study's report directory.\n\n"
            "options:\n"
            "  -j, --jobs N       threads for scoring and simulation (default: all cores)\n"
            "  -o, --output DIR   write the report here instead of the study's report.dir\n"
            "      --no-sim       rank on the models only; skip the simulation step\n"
            "      --simulate-all check mode: simulate every feasible design, whatever\n"
            "                     the budget (slow; the truth the decision is judged by)\n"
            "  -q, --quiet        no progress output\n"
            "      --json         print the summary as JSON on stdout (progress\n"
            "                     stays on stderr)\n"
            "      --redis URL    run the jobs on a Redis worker farm (docs/farm.md):\n"
            "                     redis://[user:password@]host[:port][/db]\n"
            "      --prefix P     farm key prefix (default dse:)\n"
            "      --redis-timeout S   give up when Redis is unreachable this long (30)\n"
            "      --worker-timeout S  give up when no worker is alive this long (60)\n"
            "      --cache DIR    keep finished simulations here, so a rerun after an\n"
            "                     interruption does not redo them (default\n"
            "                     $XDG_CACHE_HOME/dse/results or ~/.cache/dse/results)\n"
            "      --no-cache     neither read nor write the result cache\n"
            "      --vary KEY=V1,V2,...  decide once per value of KEY (router.model,\n"
            "                     router.delay, router.clock_fo4, message.bits),\n"
            "                     sharing the result cache: each value's report in\n"
            "                     DIR/KEY=V/; DIR/index.html and DIR/sensitivity.md,\n"
            "                     \"How the answer depends on KEY\", link them (also\n"
            "                     printed)\n"
            "  -h, --help         this text\n\n"
            "environment (docs/farm.md): DSE_REDIS_PASSWORD or DSE_REDIS_PASSWORD_FILE\n"
            "  (the password when the URL has none: keeps it out of ps);\n"
            "  DSE_FARM_SECRET or DSE_FARM_SECRET_FILE (seal and check results)\n\n"
            "$DSE_REDIS_URL is the default of --redis (an empty value: none).\n"
            "Exit status: 0 report written, 1 the run failed, 2 bad usage or\n"
            "study, 130 interrupted (no report written).\n");
}

static void print_summary(const dse_run *r, const char *dir)
{
    const cfg_study *s = r->study;
    printf("study %s: %zu designs enumerated, %zu feasible, %zu simulated in "
           "%d round(s) (%s) (%.1f s)\n",
           s->name, r->space.enumerated, r->space.count, r->nsimulated,
           r->rounds,
           r->recommended == SIZE_MAX ? "models only"
           : r->certified             ? "certified"
                                      : "budget spent",
           r->seconds_total);
    size_t n;
    char **verdict = dse_report_verdict(r, &n);
    if (n)
        printf("%s\n", verdict[0]);
    for (size_t i = 0; i < n; i++)
        free(verdict[i]);
    free(verdict);
    for (size_t f = 0; f < r->nfinalists && f < 8; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        char label[200];
        dse_design_label(&c->design, label, sizeof label);
        /* S1, S2, ...: the report's names for the simulated designs */
        printf("  %s%d %-48s", r->recommended == SIZE_MAX ? "#" : "S",
               c->finalist, label);
        if (isfinite(c->sim_saturation) && isfinite(c->saturation_rate))
            printf(" sat %.5f (model %.5f)", c->sim_saturation,
                   c->saturation_rate);
        else if (isfinite(c->sim_saturation))
            printf(" sat %.5f (no model)", c->sim_saturation);
        else if (isfinite(c->saturation_rate))
            printf(" sat (model) %.5f", c->saturation_rate);
        else
            printf(" sat -");
        for (size_t ri = 0; ri < s->rates.n; ri++) {
            const dse_sim_point *p = c->sim ? &c->sim[ri] : NULL;
            double hw, v = p ? dse_point_latency(p, cfg_rank_stat(s), &hw)
                             : NAN;
            if (p && isfinite(v))   /* the figure the decision ranks on */
                printf("  @%g %s%s%.1f±%.1f", s->rates.v[ri],
                       cfg_rank_stat(s) == CFG_LAT_MEAN
                           ? ""
                           : cfg_latency_stat_name(cfg_rank_stat(s)),
                       cfg_rank_stat(s) == CFG_LAT_MEAN ? "" : " ", v, hw);
            else if (p && p->saturated)
                printf("  @%g saturates", s->rates.v[ri]);
            else
                printf("  @%g model %.1f", s->rates.v[ri], c->latency[ri]);
        }
        printf("\n");
    }
    if (r->nfinalists > 8)
        printf("  ... %zu more in the report\n", r->nfinalists - 8);
    printf("report: %s/\n", dir);
}

/* The summary as JSON: the numbers of print_summary, every finalist. */
static json_t *summary_json(const dse_run *r, const char *dir,
                            size_t failed_jobs)
{
    const cfg_study *s = r->study;
    json_t *o = json_object();
    json_object_set_new(o, "study", json_string(s->name));
    json_object_set_new(o, "report", json_string(dir));
    json_object_set_new(o, "enumerated", json_integer((json_int_t)r->space.enumerated));
    json_object_set_new(o, "feasible", json_integer((json_int_t)r->space.count));
    json_object_set_new(o, "simulated", json_integer((json_int_t)r->nsimulated));
    json_object_set_new(o, "uncertified", json_integer((json_int_t)r->nuncertified));
    json_object_set_new(o, "rounds", json_integer(r->rounds));
    json_object_set_new(o, "ended", json_string(r->recommended == SIZE_MAX ? "models only"
                                                : r->certified ? "certified"
                                                               : "budget spent"));
    json_object_set_new(o, "seconds", json_real(r->seconds_total));
    json_object_set_new(o, "failed_jobs", json_integer((json_int_t)failed_jobs));
    size_t n;
    char **verdict = dse_report_verdict(r, &n);
    json_t *v = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(v, json_string(verdict[i]));
        free(verdict[i]);
    }
    free(verdict);
    json_object_set_new(o, "verdict", v);
    json_t *fin = json_array();
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        char label[512];
        net_design_format(&c->design, label, sizeof label);
        json_t *x = json_object();
        json_object_set_new(x, "rank", json_integer(c->finalist));
        json_object_set_new(x, "design", json_string(label));
        json_object_set_new(x, "recommended",
                            json_boolean(r->recommended == r->finalists[f]));
        json_object_set_new(x, "model_saturation",
                            isfinite(c->saturation_rate) ? json_real(c->saturation_rate)
                                                         : json_null());
        json_object_set_new(x, "sim_saturation",
                            isfinite(c->sim_saturation) ? json_real(c->sim_saturation)
                                                        : json_null());
        json_array_append_new(fin, x);
    }
    json_object_set_new(o, "finalists", fin);
    return o;
}

/* The study file with value k of v applied; 0, or the error printed and
 * ERR_CONFIG / ERR_INVALID (nothing to fini then). */
static int load_varied(const char *path, const dse_vary *v, int k,
                       cfg_study *s)
{
    err e;
    err_clear(&e);
    int rc = cfg_study_load(path, s, &e);
    if (!rc)
        rc = dse_vary_apply(s, v->key, v->values[k], &e);
    if (rc) {
        dse_cli_print_error(&e);
        cfg_study_fini(s);
    }
    return rc;
}

/* --vary: one decision per value, each on the study file read afresh and
 * changed in the one key, through the same executor (so the same result
 * cache); each report in DIR/KEY=VALUE/, the section in DIR/index.html,
 * DIR/sensitivity.md and on stdout.  The exit status of dse optimize. */
static int run_vary(const char *path, const cfg_study *base,
                    const dse_vary *v, const dse_optimize_opts *o,
                    const char *dir)
{
    err e;
    err_clear(&e);
    /* every value is checked before any work starts */
    for (int k = 0; k < v->n; k++) {
        cfg_study s;
        if (load_varied(path, v, k, &s))
            return 2;
        cfg_study_fini(&s);
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "dse optimize: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", dir, DSE_REPORT_MARKER);
    FILE *mk = fopen(sub, "w");
    if (mk)
        fclose(mk);
    dse_vary_row rows[DSE_VARY_MAX];
    for (int k = 0; k < v->n; k++) {
        cfg_study s;
        if (load_varied(path, v, k, &s))
            return 2;
        if (!o->quiet)
            fprintf(stderr, "--vary %s = %s\n", v->key, v->values[k]);
        dse_run run;
        int rc = dse_optimize(&s, o, &run, &e);
        snprintf(sub, sizeof sub, "%s/%s=%s", dir, v->key, v->values[k]);
        if (rc == ERR_INTERRUPTED || stop_requested) {
            fprintf(stderr, "dse optimize: interrupted; no report written\n");
            dse_run_fini(&run);
            cfg_study_fini(&s);
            return 130;
        }
        if (rc || dse_report_write(&run, sub, &e)) {
            dse_cli_print_error(&e);
            dse_run_fini(&run);
            cfg_study_fini(&s);
            return rc == ERR_CONFIG ? 2 : 1;
        }
        dse_vary_row_of(&run, v->values[k], &rows[k]);
        dse_run_fini(&run);
        cfg_study_fini(&s);
    }
    if (dse_vary_write(dir, base, v, rows, &e)) {
        dse_cli_print_error(&e);
        return 1;
    }
    dse_vary_write_md(stdout, base, v, rows);
    printf("\nreports: %s/\n", dir);
    return 0;
}

static const struct option longopts[] = {
    {"jobs", required_argument, NULL, 'j'},
    {"output", required_argument, NULL, 'o'},
    {"no-sim", no_argument, NULL, 'S'},
    {"simulate-all", no_argument, NULL, 'A'},
    {"quiet", no_argument, NULL, 'q'},
    {"redis", required_argument, NULL, 'R'},
    {"prefix", required_argument, NULL, 'P'},
    {"redis-timeout", required_argument, NULL, 'T'},
    {"worker-timeout", required_argument, NULL, 'W'},
    {"cache", required_argument, NULL, 'C'},
    {"no-cache", no_argument, NULL, 'N'},
    {"json", no_argument, NULL, 'J'},
    {"vary", required_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The command line, parsed: the search's options, the farm's, and where
 * the study, the report, the farm and the cache are (NULL: not given). */
typedef struct optimize_args {
    dse_optimize_opts o;
    dse_farm_opts fo;
    const char *study, *output, *redis, *cache_dir;
    int no_cache, as_json;
    dse_vary vary;           /* --vary: n = 0 when not given */
} optimize_args;

/* The options into *a: -1 to go on, or the exit status (0 after --help,
 * 2 for bad usage, with the message printed). */
static int parse_args(int argc, char **argv, optimize_args *a)
{
    *a = (optimize_args){0};
    dse_farm_opts_init(&a->fo);
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "j:o:qh", longopts, NULL)) != -1) {
        switch (opt) {
        case 'j': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 4096) {
                fprintf(stderr, "dse optimize: --jobs: expected 1..4096, got '%s'\n", optarg);
                return 2;
            }
            a->o.threads = (int)v;
            break;
        }
        case 'o': a->output = optarg; break;
        case 'S': a->o.skip_sim = 1; break;
        case 'A': a->o.simulate_all = 1; break;
        case 'q': a->o.quiet = 1; break;
        case 'R': a->redis = optarg; break;
        case 'P': snprintf(a->fo.prefix, sizeof a->fo.prefix, "%s", optarg); break;
        case 'T': a->fo.redis_timeout_s = atof(optarg); break;
        case 'W': a->fo.no_worker_timeout_s = atof(optarg); break;
        case 'C': a->cache_dir = optarg; break;
        case 'N': a->no_cache = 1; break;
        case 'J': a->as_json = 1; break;
        case 'V': {
            err ve;
            err_clear(&ve);
            if (dse_vary_parse(optarg, &a->vary, &ve)) {
                fprintf(stderr, "dse optimize: %s\n", ve.msg);
                return 2;
            }
            break;
        }
        case 'h': usage(stdout); return 0;
        default:
            return dse_cli_unknown_option("dse optimize", argv, optind,
                                          longopts);
        }
    }
    a->redis = dse_cli_redis_url(a->redis);
    if (optind != argc - 1) {
        fprintf(stderr, "dse optimize: expected one study file\n");
        usage(stderr);
        return 2;
    }
    a->study = argv[optind];
    return -1;
}

/* What runs the jobs: the Redis farm when one is given, else the local
 * pool, wrapped by the result cache unless --no-cache.  a->o.executor
 * points in here (NULL: the search's own local pool). */
typedef struct executors {
    dse_farm *farm;
    dse_executor farm_exec;
    dse_exec_local local;
    dse_executor local_exec, cache_exec;
    dse_cache *cache;
    const char *cache_dir;
    char default_dir[4096];
} executors;

/* The farm and the cache opened: 0, or the exit status after the error
 * (nothing left open). */
static int open_executors(optimize_args *a, const cfg_study *study,
                          executors *x)
{
    err e;
    x->farm = NULL;
    x->cache = NULL;
    x->cache_dir = a->cache_dir;
    if (a->redis) {
        int rc = dse_farm_secret_from_env(&a->fo.secret, &e);
        if (!rc)
            rc = dse_farm_open_url(a->redis, &a->fo, &x->farm, &e);
        if (rc) {
            dse_cli_redis_error("dse optimize", e.msg);
            return rc == ERR_CONFIG ? 2 : 1;
        }
        dse_farm_executor(x->farm, &x->farm_exec);
        a->o.executor = &x->farm_exec;
    }
    /* the result cache wraps whichever executor runs the jobs */
    if (!a->no_cache && !x->cache_dir &&
        dse_cache_default_dir(x->default_dir, sizeof x->default_dir) == 0)
        x->cache_dir = x->default_dir;
    if (!a->no_cache && x->cache_dir) {
        if (!a->o.executor) {
            int sim_threads = a->o.threads > 0 ? a->o.threads
                                               : study->sim.threads;
            dse_exec_local_init(&x->local, a->o.threads, sim_threads,
                                &x->local_exec);
            a->o.executor = &x->local_exec;
        }
        if (dse_cache_create(x->cache_dir, a->o.executor, &x->cache, &e)) {
            fprintf(stderr, "dse optimize: result cache: %s (use --no-cache "
                            "to run without it)\n", e.msg);
            dse_farm_destroy(x->farm);
            return 1;
        }
        dse_cache_executor(x->cache, &x->cache_exec);
        a->o.executor = &x->cache_exec;
    }
    return 0;
}

/* The cache's reuse, on stderr (not with --quiet). */
static void print_cache_counts(const executors *x)
{
    size_t hits, stored, wfail;
    const char *why;
    dse_cache_counts(x->cache, &hits, &stored, &wfail, &why);
    fprintf(stderr, "cache %s: %zu simulation(s) reused, %zu stored\n",
            x->cache_dir, hits, stored);
    if (wfail)
        fprintf(stderr, "cache: %zu result(s) not stored; first: %s\n",
                wfail, why);
}

/* The search, then the report into dir and the summary: the exit
 * status. */
static int run_and_report(optimize_args *a, const cfg_study *study,
                          const char *dir, executors *x)
{
    dse_optimize_opts *o = &a->o;
    dse_cli_catch_stop_signals(on_signal);
    stop_requested = 0;

    dse_progress progress;
    dse_progress_init(&progress, stderr, o->quiet);
    o->progress = &progress;
    o->stop = &stop_requested;
    if (a->vary.n > 0) {
        int vs = run_vary(a->study, study, &a->vary, o, dir);
        dse_progress_fini(&progress);
        return vs;
    }
    dse_run run;
    err e;
    int rc = dse_optimize(study, o, &run, &e);
    if (x->farm)
        run.njob_failures = dse_farm_failures(x->farm, &run.job_failures);
    int status = 0;
    if (rc == ERR_INTERRUPTED || stop_requested) {
        fprintf(stderr, "dse optimize: interrupted; no report written\n");
        status = 130;
    } else if (rc) {
        dse_cli_print_error(&e);
        status = rc == ERR_CONFIG ? 2 : 1;
    } else if ((rc = dse_report_write(&run, dir, &e)) != 0) {
        dse_cli_print_error(&e);
        status = rc == ERR_CONFIG ? 2 : 1;
    } else {
        if (a->as_json)
            status = dse_cli_print_json(
                summary_json(&run, dir, x->farm ? run.njob_failures : 0));
        else
            print_summary(&run, dir);
    }
    dse_farm_print_failures(x->farm, stderr);
    if (x->cache && !o->quiet)
        print_cache_counts(x);
    dse_run_fini(&run);
    dse_progress_fini(&progress);
    return status;
}

int dse_cmd_optimize(int argc, char **argv)
{
    optimize_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    cfg_study study;
    err e;
    if (cfg_study_load(a.study, &study, &e)) {
        dse_cli_print_error(&e);
        cfg_study_fini(&study);
        return 2;
    }
    const char *dir = a.output ? a.output : study.report_dir;
    /* refuse a target dse may not replace before any work starts */
    if (dse_report_dir_check(dir, &e) != 0) {
        dse_cli_redis_error("dse optimize", e.msg);
        cfg_study_fini(&study);
        return 2;
    }
    executors x;
    if ((rc = open_executors(&a, &study, &x)) != 0) {
        cfg_study_fini(&study);
        return rc;
    }
    int status = run_and_report(&a, &study, dir, &x);
    dse_cache_destroy(x.cache);
    dse_farm_destroy(x.farm);
    cfg_study_fini(&study);
    return status;
}

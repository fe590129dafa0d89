/*
 * cmd_validate.c — `dse validate`: run the model validation suite
 * (validate.h) and write docs/validation.md with its plots.
 *
 *   dse validate [--quick] [--model NAME] [--variant NAME] [--out FILE]
 *                [--overwrite] [--jobs N] [--seeds N]
 *                [--ci FRAC] [--warmup N] [--max-messages N] [--list] [-q]
 *
 * The model side is evaluated under two variants against the same
 * simulations (validate.h): --variant (corrected by default) and
 * recommended, or recommended alone with --variant recommended.
 *
 * Progress goes to stderr; a summary table and the count of set-ups
 * outside the accuracy targets to stdout.  The page's directory also gets
 * error-bands.csv (validate.h), which the build embeds for dse optimize.
 * The page is replaced only when dse validate wrote it, and a full run's
 * page (the committed one) only with --overwrite (dse_validate_out_check,
 * checked before any simulation and again before writing).
 * The page records the exact command and the git revision (HEAD of the
 * checkout the command runs in, and whether net/, models/, sim/ or
 * dse/validate* had uncommitted changes; the binary's own build revision
 * beside it).  Only those paths decide
 * the numbers; other work in progress in the shared checkout does not.
 *
 * Exit status (commands.h): 0 when the suite ran (set-ups the simulator
 * does not support yet are reported, not failures); 1 when a set-up failed
 * (a run could not start, or deadlocked), the page could not be written or
 * may not be replaced (refused before any simulation);
 * 2 for bad usage; 130 when interrupted (SIGINT/SIGTERM; nothing written).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/dse.h"
#include "dse/common/pool.h"
#include "dse/common/progress.h"
#include "dse/validate/validate.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    if (stop_requested) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_requested = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
        "usage: dse validate [OPTIONS]\n"
        "\n"
        "Compares every analytic model with the flit-level simulator on the\n"
        "set-ups its source used for validation (docs/models.md) and on the\n"
        "model's own example: finds the simulated saturation rate, simulates\n"
        "rates from 5%% to 95%% of it with confidence intervals, evaluates the\n"
        "model at the same rates, and writes a Markdown page with per-rate\n"
        "tables, MAPE below 50%% and 80%% of saturation, the saturation-rate\n"
        "ratio and one SVG plot per set-up (in the directory named like the\n"
        "page without .md), and each model's measured error band beside the\n"
        "plots (error-bands.csv, embedded by the next build and read by dse\n"
        "optimize: point --out elsewhere for trial runs; replacing a full\n"
        "run's page needs --overwrite).  The summary counts\n"
        "the set-ups outside the targets (saturation ratio outside 0.8-1.25\n"
        "or MAPE below 80%% of saturation above 10%%).  Set-ups the simulator\n"
        "does not support yet are listed as such.  The designs of the\n"
        "shipped studies (1024 nodes) get a shorter sweep; --quick keeps one.\n"
        "\n"
        "The model side is computed under two model variants against the\n"
        "same simulations: the primary (--variant, corrected by default, what\n"
        "dse optimize uses; it decides the verdicts) and recommended (the\n"
        "sources' models as docs/models resolves them), so the page shows what\n"
        "the corrections bought.  With --variant recommended only that one.\n"
        "\n"
        "options:\n"
        "  --quick             each model's example and one study design,\n"
        "                      short runs (minutes)\n"
        "  --model NAME        only this model's set-ups\n"
        "  --variant NAME      primary model variant: corrected (default),\n"
        "                      recommended or printed; recommended is shown\n"
        "                      beside the other two\n"
        "  --out FILE          the page to write (docs/validation.md)\n"
        "  --overwrite         replace a page a full run wrote (the\n"
        "                      committed one); without it dse validate\n"
        "                      refuses before simulating.  Pages or\n"
        "                      directories it did not write are never\n"
        "                      replaced\n"
        "  --jobs N            threads (all cores)\n"
        "  --seeds N           replications per rate (3; --quick 1; the study\n"
        "                      designs' short sweeps keep 2, --quick 1)\n"
        "  --ci FRAC           per-run CI target, relative (0.03; --quick 0.05)\n"
        "  --warmup N          warm-up messages per run (10000; --quick 3000)\n"
        "  --max-messages N    measured messages per run at most (150000;\n"
        "                      --quick 30000)\n"
        "  --list              print the set-ups and exit\n"
        "  -q, --quiet         no progress on stderr\n"
        "  -h, --help          this help\n"
        "\n"
        "Exit status: 0 ran; 1 a set-up failed (deadlock, run error), the\n"
        "page could not be written or may not be replaced; 2 bad usage;\n"
        "130 interrupted.\n");
}

#define bad(...) dse_cli_bad("dse validate", __VA_ARGS__)

static int parse_long(const char *opt, const char *s, long lo, long hi,
                      long *out)
{
    return dse_cli_long("dse validate", opt, s, lo, hi, out);
}

/* First line of a shell command's output (trailing newline removed), or
 * "" when it fails. */
static void capture(const char *cmd, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (!fgets(buf, (int)size, p))
        buf[0] = '\0';
    int rc = pclose(p);
    buf[strcspn(buf, "\n")] = '\0';
    if (rc != 0 && strstr(cmd, "status") == NULL)
        buf[0] = '\0';
}

static void revision(char *buf, size_t size)
{
    char head[64], dirty[256];
    capture("git rev-parse --short HEAD 2>/dev/null", head, sizeof head);
    capture("git status --porcelain --untracked-files=no -- net models sim "
            "'dse/validate*' 2>/dev/null",
            dirty, sizeof dirty);
    if (head[0])
        snprintf(buf, size, "`%s`%s; binary: %s", head,
                 dirty[0] ? " with uncommitted changes in net/, models/, "
                            "sim/ or dse/validate*"
                          : "",
                 dse_version_string());
    else
        snprintf(buf, size, "%s", dse_version_string());
}

static void list_configs(void)
{
    size_t n;
    const dse_validate_config *cfgs = dse_validate_configs(&n);
    printf("%-26s %-22s %-5s %s\n", "model", "set-up", "quick", "origin");
    for (size_t i = 0; i < n; i++)
        printf("%-26s %-22s %-5s %s\n", cfgs[i].model, cfgs[i].label,
               cfgs[i].quick ? "yes" : "", cfgs[i].origin);
}

/* The primary variant's columns, then the secondary's MAPE <=50% and
 * ratio ("same" when identical; absent with one variant). */
static void print_summary(const dse_validate_result *r)
{
    model_variant v[DSE_VALIDATE_MAX_VARIANTS];
    int nv = dse_validate_variants(r->opts.variant, v);
    printf("model variant: %s%s%s\n", model_variant_name(v[0]),
           nv == 2 ? "; rec_* columns: " : "",
           nv == 2 ? model_variant_name(v[1]) : "");
    printf("%-26s %-22s %9s %9s %6s %8s %8s", "model", "set-up", "sim_sat",
           "model_sat", "ratio", "mape50%", "mape80%");
    if (nv == 2)
        printf(" %10s %9s", "rec_mape50", "rec_ratio");
    printf("  %s\n", "status");
    for (size_t i = 0; i < r->ncases; i++) {
        const dse_validate_case *c = &r->cases[i];
        const dse_validate_fit *ft = &c->fit[0];
        printf("%-26s %-22s %9.4g %9.4g %6.2f %8.1f %8.1f", c->cfg->model,
               c->cfg->label,
               c->status == DSE_VALIDATE_DONE ? c->sim_sat : NAN,
               ft->model_sat > 0 ? ft->model_sat : NAN, ft->sat_ratio,
               ft->mape50, ft->mape80);
        if (nv == 2 && c->variants_same)
            printf(" %10s %9s", "same", "same");
        else if (nv == 2)
            printf(" %10.1f %9.2f", c->fit[1].mape50, c->fit[1].sat_ratio);
        printf("  %s%s%s\n", dse_validate_status_name(c->status),
               c->reason[0] ? ": " : "", c->reason);
    }
    size_t compared, off = dse_validate_count_off_target(r, 0, &compared);
    printf("outside the targets (saturation ratio outside %g-%g or MAPE "
           "<=80%% above %g%%): %zu of %zu compared set-ups (%s)",
           DSE_VALIDATE_TARGET_SAT_LO, DSE_VALIDATE_TARGET_SAT_HI,
           DSE_VALIDATE_TARGET_MAPE80, off, compared,
           model_variant_name(v[0]));
    if (nv == 2)
        printf("; %zu (%s)", dse_validate_count_off_target(r, 1, NULL),
               model_variant_name(v[1]));
    printf("\n");
    printf("wall time %.0f s\n", r->wall_s);
}

/* The command line, parsed: 0 / NULL where an option was not given
 * (warmup: -1, since 0 warm-up messages is a valid choice). */
typedef struct validate_args {
    int quick, quiet, list, overwrite;
    const char *model_name, *out;
    long jobs, seeds, warmup, maxmsg;
    model_variant variant;
    double ci;
} validate_args;

enum { OPT_QUICK = 256, OPT_MODEL, OPT_OUT, OPT_JOBS,
       OPT_SEEDS, OPT_CI, OPT_WARMUP, OPT_MAXMSG, OPT_LIST,
       OPT_VARIANT, OPT_OVERWRITE };

static const struct option longopts[] = {
    {"quick", no_argument, NULL, OPT_QUICK},
    {"model", required_argument, NULL, OPT_MODEL},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"out", required_argument, NULL, OPT_OUT},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"seeds", required_argument, NULL, OPT_SEEDS},
    {"ci", required_argument, NULL, OPT_CI},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"max-messages", required_argument, NULL, OPT_MAXMSG},
    {"list", no_argument, NULL, OPT_LIST},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Options that take a number, each checked against its bounds; -1 to go
 * on, or the exit status. */
static int take_number(int c, validate_args *a)
{
    switch (c) {
    case OPT_JOBS:
        return parse_long("--jobs", optarg, 1, 1024, &a->jobs) ? 2 : -1;
    case OPT_SEEDS:
        return parse_long("--seeds", optarg, 1, 1000, &a->seeds) ? 2 : -1;
    case OPT_CI: {
        char *end;
        errno = 0;
        a->ci = strtod(optarg, &end);
        if (errno || end == optarg || *end || !(a->ci > 0 && a->ci < 1))
            return bad("--ci: expected a fraction 0 < x < 1, got \"%s\"",
                       optarg);
        return -1;
    }
    case OPT_WARMUP:
        return parse_long("--warmup", optarg, 0, 1000000000L, &a->warmup)
                   ? 2 : -1;
    default: /* OPT_MAXMSG */
        return parse_long("--max-messages", optarg, 1, 1000000000L,
                          &a->maxmsg) ? 2 : -1;
    }
}

/* The options into *a: -1 to go on, or the exit status (0 after --help,
 * 2 for bad usage, with the message printed). */
static int parse_args(int argc, char **argv, validate_args *a)
{
    *a = (validate_args){.out = "docs/validation.md", .warmup = -1,
                         .variant = MODEL_VARIANT_CORRECTED};
    opterr = 0;
    optind = 0;
    int c, rc;
    while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'q': a->quiet = 1; break;
        case OPT_QUICK: a->quick = 1; break;
        case OPT_MODEL: a->model_name = optarg; break;
        case OPT_OUT: a->out = optarg; break;
        case OPT_OVERWRITE: a->overwrite = 1; break;
        case OPT_LIST: a->list = 1; break;
        case OPT_VARIANT:
            if (model_variant_parse(optarg, &a->variant) != 0)
                return bad("--variant: expected corrected, recommended or "
                           "printed, got \"%s\"", optarg);
            break;
        case OPT_JOBS: case OPT_SEEDS: case OPT_CI: case OPT_WARMUP:
        case OPT_MAXMSG:
            if ((rc = take_number(c, a)) >= 0)
                return rc;
            break;
        case ':':
            return bad("option %s needs a value", argv[optind - 1]);
        default:
            return dse_cli_unknown_option("dse validate", argv, optind,
                                          longopts);
        }
    }
    if (optind < argc)
        return bad("unexpected argument '%s' (see 'dse validate --help')",
                   argv[optind]);
    return -1;
}

/* The suite's options: the defaults for --quick or a full run, then what
 * the command line overrides. */
static void opts_from_args(const validate_args *a, dse_validate_opts *o)
{
    dse_validate_opts_init(o, a->quick);
    o->model = a->model_name;
    o->variant = a->variant;
    o->overwrite = a->overwrite;
    o->threads = a->jobs > 0 ? (int)a->jobs : dse_cores();
    if (a->seeds)
        o->seeds = (int)a->seeds;
    if (a->ci > 0)
        o->ci_target = a->ci;
    if (a->warmup >= 0)
        o->warmup = a->warmup;
    if (a->maxmsg) {
        o->max_messages = a->maxmsg;
        if (o->min_messages > a->maxmsg)
            o->min_messages = a->maxmsg;
    }
}

/* The exact command, recorded on the page ("dse" and the arguments,
 * truncated at the buffer's size). */
static void command_line(int argc, char **argv, char *command, size_t size)
{
    size_t used = (size_t)snprintf(command, size, "dse");
    for (int i = 0; i < argc && used < size; i++)
        used += (size_t)snprintf(command + used, size - used, " %s", argv[i]);
}

/* Runs the suite and writes the page: the command's exit status. */
static int run_and_write(dse_validate_opts *o, const char *out, int quiet,
                         const char *command, const char *rev)
{
    dse_cli_catch_stop_signals(on_signal);
    dse_progress progress;
    dse_progress_init(&progress, stderr, quiet);
    o->progress = &progress;
    o->stop = &stop_requested;

    size_t ncfg;
    const dse_validate_config *cfgs = dse_validate_configs(&ncfg);
    dse_validate_result *r = NULL;
    err e;
    err_clear(&e);
    int rc = dse_validate_run(cfgs, ncfg, o, &r, &e);
    dse_progress_fini(&progress);
    if (rc == ERR_INTERRUPTED) {
        fprintf(stderr, "dse validate: interrupted; nothing written\n");
        return 130;
    }
    if (rc) {
        fprintf(stderr, "dse validate: %s\n", e.msg);
        return rc == ERR_INVALID ? 2 : 1;
    }
    int status = 0;
    if (dse_validate_write_md(r, out, command, rev, &e)) {
        fprintf(stderr, "dse validate: %s\n", e.msg);
        status = 1;
    }
    print_summary(r);
    for (size_t i = 0; i < r->ncases; i++)
        if (r->cases[i].status == DSE_VALIDATE_FAILED)
            status = 1;
    if (status == 0 && !quiet)
        fprintf(stderr, "dse validate: wrote %s\n", out);
    dse_validate_run_destroy(r);
    return status;
}

int dse_cmd_validate(int argc, char **argv)
{
    validate_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.list) {
        list_configs();
        return 0;
    }
    dse_validate_opts o;
    opts_from_args(&a, &o);
    err ce;
    err_clear(&ce);
    if (dse_validate_out_check(a.out, &o, &ce) != 0) {
        fprintf(stderr, "dse validate: %s\n", ce.msg);
        return 1;
    }
    char command[2048], rev[512];
    command_line(argc, argv, command, sizeof command);
    revision(rev, sizeof rev);
    return run_and_write(&o, a.out, a.quiet, command, rev);
}

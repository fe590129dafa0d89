/*
 * cmd_model.c — `dse model`: evaluate one analytic latency model on one
 * design and workload over a list or range of injection rates.
 *
 *   dse model [OPTIONS]
 *
 * The design and workload come from canonical text (--design '...',
 * --workload '...', parsed by net_design_parse / net_workload_parse on top
 * of the net_*_init defaults) and from single-key options (--k 16, --vcs 3,
 * ...), applied in command-line order, so a later option overrides an
 * earlier one.  The model is the first registered one that covers the
 * design (model_for) unless --model names one.  All the numbers come from
 * models/ (model.h); this file only parses, checks and prints: an aligned
 * table by default, JSON with --json (jansson).
 *
 * Exit status (commands.h): 0 when the model was evaluated (saturated
 * points are an answer, shown as such); 1 when no model covers the design
 * (the reasons are printed) or no saturation rate exists; 2 for bad usage
 * or input (unknown option, malformed text or rates, a design that fails
 * net_check, an unknown model name).  Errors go to stderr, results to
 * stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "models/model.h"
#include "net/net.h"
#include "net/xalloc.h"

#define TEXT_MAX 1024
#define RATES_MAX 1000000

typedef struct model_cli {
    net_design d;
    net_workload w;
    model_opts opts;
    const char *model_name;   /* NULL: model_for picks */
    double *rates;            /* owned */
    size_t nrates;
    int have_rates, saturation, list, json;
} model_cli;


static void usage(FILE *out)
{
    fprintf(out,
        "usage: dse model [OPTIONS]\n"
        "\n"
        "Evaluates an analytic latency model (docs/models.md) on one design and\n"
        "workload over a list or range of injection rates, in messages per\n"
        "node per cycle, and prints rate, latency (cycles, generation to last\n"
        "flit consumed), network latency, source wait, VC multiplexing\n"
        "factor, iterations and status for each.\n"
        "\n"
        "design and workload (applied in order; later options win):\n"
        "  --design 'TEXT'       canonical design text, e.g.\n"
        "                        'topology=torus n=2 k=16 vcs=3 routing=duato'\n"
        "                        (keys: topology n k vcs buffer width m kn\n"
        "                        routing switching router_delay ejection;\n"
        "                        k=16x8 gives per-dimension radices)\n"
        "  --workload 'TEXT'     e.g. 'message_bits=32 length=exponential'\n"
        "                        (keys: message_bits length traffic theta\n"
        "                        hotspot_node beta)\n"
        "  --topology T  --n N  --k K  --vcs V  --buffer B  --width W\n"
        "  --express-m M  --kn KN  --routing R  --switching S\n"
        "  --router-delay DR  --ejection C (0 = unlimited)\n"
        "  --message-bits BITS  --length fixed|exponential\n"
        "  --traffic uniform|hotspot|broadcast|...  --theta X  --beta X\n"
        "  --hotspot-node ID     single keys, same meaning as in the texts\n"
        "defaults: 8x8 torus, V = 2, width 1, deterministic wormhole, Dr = 1,\n"
        "one ejection channel; 128-bit fixed-length messages, uniform.\n"
        "\n"
        "evaluation:\n"
        "  --rates A:B:STEP      rates A, A+STEP, ... up to B (inclusive)\n"
        "  --rates R1,R2,...     an explicit list\n"
        "                        (default: 10%%, 20%%, ... 90%% and 99%% of the\n"
        "                        saturation rate)\n"
        "  --saturation          also print the saturation rate (bisection to\n"
        "                        1e-4 relative)\n"
        "  --model NAME          use this model (default: the first registered\n"
        "                        model that covers the design)\n"
        "  --variant corrected|recommended|printed\n"
        "                        the corrections found by dse validate\n"
        "                        (default), the documented resolutions of the\n"
        "                        source, or its equations as printed\n"
        "  --tolerance X  --max-iterations N  --damping D\n"
        "                        fixed-point solver (1e-9, 10000, 0.5)\n"
        "  --json                print JSON instead of a table\n"
        "  --list                list the registered models and exit\n"
        "  -h, --help            this help\n"
        "\n"
        "Exit status: 0 evaluated (saturated points included); 1 no model\n"
        "covers the design, or no saturation rate; 2 bad input.\n"
        "\n"
        "example (thesis Fig.4.2a, 16x16 torus, Duato, V = 3, Lm = 32):\n"
        "  dse model --design 'topology=torus n=2 k=16 vcs=3 routing=duato "
        "router_delay=0' \\\n"
        "      --workload 'message_bits=32 length=exponential' "
        "--rates 0.001:0.01:0.001\n");
}

#define bad(...) dse_cli_bad("dse model", __VA_ARGS__)

static int parse_real(const char *opt, const char *s, double lo, double *out)
{
    return dse_cli_real("dse model", opt, s, lo, INFINITY, out);
}

/* "A:B:STEP" or "R1,R2,...": fills cli->rates (owned). */
static int parse_rates(model_cli *cli, const char *spec)
{
    free(cli->rates);
    size_t n = 0;
    err e;
    if (dse_cli_parse_rates(spec, &cli->rates, &n, &e))
        return bad("%s", e.msg);
    cli->nrates = (size_t)n;
    cli->have_rates = 1;
    return 0;
}

/* 0, or the exit status (2, or 0 after --help) with *done = 1. */
static int parse_options(int argc, char **argv, model_cli *cli, int *done)
{
    enum { OPT_DESIGN = 256, OPT_WORKLOAD, OPT_RATES, OPT_SAT, OPT_MODEL,
           OPT_VARIANT, OPT_JSON, OPT_LIST, OPT_TOL, OPT_MAXIT, OPT_DAMP,
           OPT_KEY = 512 };
    static const struct option fixed[] = {
        {"design", required_argument, NULL, OPT_DESIGN},
        {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"rates", required_argument, NULL, OPT_RATES},
        {"saturation", no_argument, NULL, OPT_SAT},
        {"model", required_argument, NULL, OPT_MODEL},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"json", no_argument, NULL, OPT_JSON},
        {"list", no_argument, NULL, OPT_LIST},
        {"tolerance", required_argument, NULL, OPT_TOL},
        {"max-iterations", required_argument, NULL, OPT_MAXIT},
        {"damping", required_argument, NULL, OPT_DAMP},
        {"help", no_argument, NULL, 'h'},
    };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    struct option longopts[NFIXED + DSE_CLI_NKEYS + 1];
    dse_cli_longopts_with_keys(fixed, NFIXED, OPT_KEY, longopts);

    *done = 0;
    opterr = 0;
    optind = 0;  /* glibc: full re-initialisation, should we run twice */
    int c;
    err e;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        err_clear(&e);
        double v;
        switch (c) {
        case 'h':
            usage(stdout);
            *done = 1;
            return 0;
        case OPT_DESIGN:
            if (net_design_parse(&cli->d, optarg, &e))
                return bad("--design '%s': %s", optarg, e.msg);
            break;
        case OPT_WORKLOAD:
            if (net_workload_parse(&cli->w, optarg, &e))
                return bad("--workload '%s': %s", optarg, e.msg);
            break;
        case OPT_RATES:
            if (parse_rates(cli, optarg))
                return 2;
            break;
        case OPT_SAT:
            cli->saturation = 1;
            break;
        case OPT_MODEL:
            cli->model_name = optarg;
            break;
        case OPT_VARIANT:
            if (model_variant_parse(optarg, &cli->opts.variant) != 0)
                return bad("--variant: expected corrected, recommended or "
                           "printed, got \"%s\"", optarg);
            break;
        case OPT_JSON:
            cli->json = 1;
            break;
        case OPT_LIST:
            cli->list = 1;
            break;
        case OPT_TOL:
            if (parse_real("--tolerance", optarg, 0, &v))
                return 2;
            if (!(v > 0 && v < 1))
                return bad("--tolerance: expected 0 < x < 1, got %g", v);
            cli->opts.tolerance = v;
            break;
        case OPT_MAXIT:
            if (parse_real("--max-iterations", optarg, 1, &v))
                return 2;
            if (v != floor(v) || v > 1e8)
                return bad("--max-iterations: expected an integer in "
                           "[1, 1e8], got \"%s\"", optarg);
            cli->opts.max_iterations = (int)v;
            break;
        case OPT_DAMP:
            if (parse_real("--damping", optarg, 0, &v))
                return 2;
            if (!(v > 0 && v <= 1))
                return bad("--damping: expected 0 < d <= 1, got %g", v);
            cli->opts.damping = v;
            break;
        case ':':
            return bad("option %s needs a value", argv[optind - 1]);
        case '?':
            return bad("unknown option '%s' (see 'dse model --help')",
                       argv[optind - 1]);
        default:
            if (c >= OPT_KEY && c < OPT_KEY + (int)DSE_CLI_NKEYS) {
                dse_cli_key k = dse_cli_key_at((size_t)(c - OPT_KEY));
                int rc = dse_cli_apply_key(&k, optarg, &cli->d, &cli->w, &e);
                if (rc)
                    return bad("--%s: %s", k.name, e.msg);
                break;
            }
            return bad("unknown option '%s' (see 'dse model --help')",
                       argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad("unexpected argument '%s' (see 'dse model --help')",
                   argv[optind]);
    return 0;
}

/* ---- output ------------------------------------------------------------ */

static int print_list(int json)
{
    size_t count;
    const model *const *reg = model_registry(&count);
    if (json) {
        json_t *arr = json_array();
        for (size_t i = 0; i < count; i++)
            json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "name",
                                                 reg[i]->name, "source",
                                                 reg[i]->source, "covers",
                                                 reg[i]->summary));
        json_dumpf(arr, stdout, JSON_INDENT(2));
        fputc('\n', stdout);
        json_decref(arr);
        return 0;
    }
    printf("%zu analytic models, in priority order (the first that covers a "
           "design is used):\n\n",
           count);
    for (size_t i = 0; i < count; i++)
        printf("%s\n  source: %s\n  covers: %s\n", reg[i]->name,
               reg[i]->source, reg[i]->summary);
    return 0;
}

static json_t *json_number_or_null(int ok, double v)
{
    return ok ? json_real(v) : json_null();
}

static void print_json(const model *m, const model_cli *cli, double zero,
                       int have_sat, double sat, const model_result *res)
{
    char dtext[TEXT_MAX], wtext[TEXT_MAX];
    net_design_format(&cli->d, dtext, sizeof dtext);
    net_workload_format(&cli->w, wtext, sizeof wtext);
    json_t *root = json_object();
    json_object_set_new(root, "model", json_string(m->name));
    json_object_set_new(root, "source", json_string(m->source));
    json_object_set_new(root, "design", json_string(dtext));
    json_object_set_new(root, "workload", json_string(wtext));
    json_object_set_new(root, "variant",
                        json_string(model_variant_name(cli->opts.variant)));
    json_object_set_new(root, "message_flits",
                        json_integer(net_message_flits(&cli->d, &cli->w)));
    json_object_set_new(root, "zero_load_latency", json_real(zero));
    if (have_sat)
        json_object_set_new(root, "saturation_rate", json_real(sat));
    json_t *points = json_array();
    for (size_t i = 0; i < cli->nrates; i++) {
        const model_result *r = &res[i];
        int ok = r->status == MODEL_CONVERGED;
        json_t *p = json_object();
        json_object_set_new(p, "rate", json_real(cli->rates[i]));
        json_object_set_new(p, "status",
                            json_string(model_status_name(r->status)));
        json_object_set_new(p, "latency", json_number_or_null(ok, r->latency));
        json_object_set_new(p, "network_latency",
                            json_number_or_null(ok, r->network_latency));
        json_object_set_new(p, "source_wait",
                            json_number_or_null(ok, r->source_wait));
        json_object_set_new(p, "vc_multiplexing",
                            json_number_or_null(ok, r->vc_multiplexing));
        if (ok && r->broadcast_latency > 0)
            json_object_set_new(p, "broadcast_latency",
                                json_real(r->broadcast_latency));
        json_object_set_new(p, "iterations", json_integer(r->iterations));
        json_array_append_new(points, p);
    }
    json_object_set_new(root, "points", points);
    json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
    fputc('\n', stdout);
    json_decref(root);
}

static void print_table(const model *m, const model_cli *cli, double zero,
                        int have_sat, double sat, const model_result *res)
{
    char dtext[TEXT_MAX], wtext[TEXT_MAX];
    net_design_format(&cli->d, dtext, sizeof dtext);
    net_workload_format(&cli->w, wtext, sizeof wtext);
    printf("model       %s\n", m->name);
    printf("source      %s\n", m->source);
    printf("design      %s\n", dtext);
    printf("workload    %s\n", wtext);
    printf("variant     %s\n", model_variant_name(cli->opts.variant));
    printf("flits       %d per message\n", net_message_flits(&cli->d, &cli->w));
    printf("zero load   %.4f cycles\n", zero);
    if (have_sat)
        printf("saturation  %.6g messages/node/cycle\n", sat);
    if (!cli->nrates)
        return;
    int bcast = 0;
    for (size_t i = 0; i < cli->nrates; i++)
        bcast |= res[i].status == MODEL_CONVERGED &&
                 res[i].broadcast_latency > 0;
    printf("\n%12s %12s %12s %10s %8s %6s", "rate", "latency", "network",
           "src wait", "VC mux", "iters");
    if (bcast)
        printf(" %12s", "broadcast");
    printf("  %s\n", "status");
    for (size_t i = 0; i < cli->nrates; i++) {
        const model_result *r = &res[i];
        printf("%12.6g ", cli->rates[i]);
        if (r->status == MODEL_CONVERGED) {
            printf("%12.4f %12.4f %10.4f %8.5f %6d", r->latency,
                   r->network_latency, r->source_wait, r->vc_multiplexing,
                   r->iterations);
            if (bcast)
                printf(" %12.4f", r->broadcast_latency);
        } else {
            printf("%12s %12s %10s %8s %6d", "-", "-", "-", "-",
                   r->iterations);
            if (bcast)
                printf(" %12s", "-");
        }
        printf("  %s\n", model_status_name(r->status));
    }
}

/* ---- the command -------------------------------------------------------- */

static int run(model_cli *cli)
{
    if (cli->list)
        return print_list(cli->json);
    err e;
    err_clear(&e);
    char dtext[TEXT_MAX];
    net_design_format(&cli->d, dtext, sizeof dtext);
    if (net_check(&cli->d, &e))
        return bad("design '%s': %s", dtext, e.msg);
    if (net_workload_check(&cli->d, &cli->w, &e))
        return bad("workload: %s", e.msg);

    const model *m;
    char why[4096];
    if (cli->model_name) {
        m = model_find(cli->model_name);
        if (!m) {
            size_t count;
            const model *const *reg = model_registry(&count);
            fprintf(stderr, "dse model: unknown model \"%s\"; registered:",
                    cli->model_name);
            for (size_t i = 0; i < count; i++)
                fprintf(stderr, " %s", reg[i]->name);
            fprintf(stderr, "\n");
            return 2;
        }
        if (m->covers(&cli->d, &cli->w, why, sizeof why) != 0) {
            fprintf(stderr, "dse model: %s does not cover '%s': %s\n",
                    m->name, dtext, why);
            return 1;
        }
    } else {
        m = model_for(&cli->d, &cli->w, why, sizeof why);
        if (!m) {
            fprintf(stderr, "dse model: no analytic model covers '%s':\n  %s\n",
                    dtext, why);
            return 1;
        }
    }

    double sat = 0;
    int have_sat = 0;
    if (cli->saturation || !cli->have_rates) {
        err_clear(&e);
        if (model_saturation_rate(m, &cli->d, &cli->w, &cli->opts, &sat,
                                  &e)) {
            fprintf(stderr, "dse model: %s\n", e.msg);
            return 1;
        }
        have_sat = 1;
    }
    if (!cli->have_rates && !cli->saturation) {
        static const double fractions[] = {0.1, 0.2, 0.3, 0.4, 0.5,
                                           0.6, 0.7, 0.8, 0.9, 0.99};
        cli->nrates = sizeof fractions / sizeof fractions[0];
        cli->rates = xmalloc(cli->nrates * sizeof(double));
        for (size_t i = 0; i < cli->nrates; i++)
            cli->rates[i] = fractions[i] * sat;
    }
    model_result *res = xcalloc(cli->nrates ? cli->nrates : 1, sizeof *res);
    for (size_t i = 0; i < cli->nrates; i++)
        m->eval(&cli->d, &cli->w, cli->rates[i], &cli->opts, &res[i]);
    double zero = m->zero_load(&cli->d, &cli->w, &cli->opts);
    if (cli->json)
        print_json(m, cli, zero, have_sat, sat, res);
    else
        print_table(m, cli, zero, have_sat, sat, res);
    free(res);
    return 0;
}

int dse_cmd_model(int argc, char **argv)
{
    model_cli cli;
    memset(&cli, 0, sizeof cli);
    net_design_init(&cli.d);
    net_workload_init(&cli.w);
    model_opts_init(&cli.opts);
    int done, rc = parse_options(argc, argv, &cli, &done);
    if (rc == 0 && !done)
        rc = run(&cli);
    free(cli.rates);
    return rc;
}

/*
 * cmd_sim.c — `dse sim`: simulate one design and workload flit by flit at a
 * list or range of injection rates.
 *
 *   dse sim --design '...' [--workload '...'] --rates A:B:STEP [OPTIONS]
 *
 * The design and workload come from canonical text (net_design_parse /
 * net_workload_parse on top of the net_*_init defaults) and single-key
 * options, applied in command-line order.  Every (rate, seed) pair is one
 * independent sim_run job; the jobs run on sim_run_many's thread pool, so
 * the numbers do not depend on --threads.  With --seeds N > 1 each rate's
 * replications are merged (sim_result_merge: CI from the spread of the
 * replication means).  Output: an aligned table, or JSON (--json, jansson)
 * with the merged point and every replication.  All numbers come from
 * sim/; this file parses, checks, runs and prints.
 *
 * Exit status (commands.h): 0 when every point was simulated (saturated
 * or deadlocked points are answers, shown as such); 1 when a run failed;
 * 2 for bad usage or input (unknown option, malformed text or rates, a
 * design that fails net_check, a design the simulator does not support).
 * Progress goes to stderr when it is a terminal (not with --quiet).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/dse.h"
#include "net/net.h"
#include "net/xalloc.h"
#include "dse/common/progress.h"
#include "models/model.h"
#include "sim/sim.h"

#define TEXT_MAX 1024
#define RATES_MAX 100000

typedef struct sim_cli {
    sim_params base;          /* design, workload, run-length rules */
    double *rates;            /* owned */
    int nrates;
    long seeds;
    long threads;
    int json, quiet;
    int saturation;           /* --saturation: sim_saturation, no rates */
} sim_cli;


static void usage(FILE *out)
{
    fprintf(out,
        "usage: dse sim --rates RATES [OPTIONS]\n"
        "\n"
        "Simulates one design and workload flit by flit (sim/) at each rate,\n"
        "in messages per node per cycle, and prints latency (generation to\n"
        "last flit consumed) with its 95%% confidence half-width, network\n"
        "latency, source wait, latency percentiles p50, p95 and p99\n"
        "(within 1/128 of the exact ones) and the maximum, offered and accepted throughput (flits and\n"
        "messages per node per cycle), mean hops, messages measured, cycles,\n"
        "wall seconds, simulated router-cycles per second and the status\n"
        "(ok, saturated, deadlock, cycle limit).\n"
        "\n"
        "design and workload (applied in order; later options win):\n"
        "  --design 'TEXT'       e.g. 'topology=torus k=8 n=2 vcs=2 buffer=4'\n"
        "                        (keys: topology n k vcs buffer width m kn\n"
        "                        routing switching router_delay ejection\n"
        "                        router dateline escape adaptive_vcs\n"
        "                        adaptive_dims and the router=pipelined\n"
        "                        keys below)\n"
        "  --workload 'TEXT'     e.g. 'message_bits=16 traffic=uniform'\n"
        "                        (keys: message_bits length traffic theta\n"
        "                        hotspot_node beta)\n"
        "  --topology T  --n N  --k K  --vcs V  --buffer B  --width W\n"
        "  --routing R  --router-delay DR  --ejection C (0 = unlimited)\n"
        "  --message-bits BITS  --length fixed|exponential  --traffic T\n"
        "  --theta X  --hotspot-node ID   single keys, as in the texts\n"
        "router (design keys; the rest as BookSim2 names them, with its\n"
        "defaults):\n"
        "  router=unit           the source papers' router (default): a\n"
        "                        header waits router_delay cycles, a flit\n"
        "                        crosses router and link in one cycle\n"
        "  router=pipelined      input-queued VC router (sim/pipe.c):\n"
        "    routing_delay=1 vc_alloc_delay=1 sw_alloc_delay=1\n"
        "    st_final_delay=1    stage delays (cycles)\n"
        "    credit_delay=0      cycles a returned credit waits upstream\n"
        "    link_delay=1 express_link_delay=1 bus_link_delay=1\n"
        "                        link delays: local, express, DCSH bus\n"
        "                        (BookSim2's torus links take 2)\n"
        "    offchip_dims=0 offchip_link_delay=1\n"
        "                        the channels of the N highest dimensions\n"
        "                        join two chips and take the off-chip\n"
        "                        delay (0: one chip)\n"
        "    speculative=0       speculative switch allocation\n"
        "  dateline=high_low|wrap  torus VC classes: Dally and Seitz's\n"
        "                        rule (default) or BookSim2's (wrap)\n"
        "  escape=return|sticky  duato: Duato's escape VCs (default), or\n"
        "                        BookSim2's min_adapt (once on an escape\n"
        "                        VC, always; adaptive and escape VCs\n"
        "                        requested together)\n"
        "  adaptive_vcs=0        duato: adaptive VCs used per channel, the\n"
        "                        highest (0: all but the escape VCs)\n"
        "  adaptive_dims=0       duato: adaptive VCs offered in the first N\n"
        "                        dimensions still to correct (0: all;\n"
        "                        BookSim2's min_adapt acts as 1)\n"
        "simulated: torus, mesh, hypercube, dcsh, express (kn, m); routing\n"
        "deterministic, duato, minimal_adaptive (2D torus), pcube\n"
        "(hypercube), hop_based (dcsh, hypercube, torus, mesh); wormhole,\n"
        "and pcs on the hypercube (routing minimal_adaptive); traffic\n"
        "uniform, hotspot, transpose, bit_reversal, shuffle, and broadcast\n"
        "(torus, dcsh: the latency columns are unicast messages', the\n"
        "broadcast latency is in the notes; PCS path set-up likewise).\n"
        "\n"
        "run:\n"
        "  --rates A:B:STEP      rates A, A+STEP, ... up to B (inclusive)\n"
        "  --rates R1,R2,...     an explicit list (required, unless --saturation)\n"
        "  --saturation          instead of rates: the design's saturation rate\n"
        "                        from the simulator (an overload run, then a\n"
        "                        few short probes; sim_saturation in sim/sim.h)\n"
        "                        with its interval; --seed, --max-cycles and\n"
        "                        --credit-delay apply\n"
        "  --seed S              first seed (1)\n"
        "  --seeds N             replications per rate, seeds S..S+N-1 (1)\n"
        "  --threads N           worker threads (1): runs (rates, seeds) in\n"
        "                        parallel\n"
        "  --run-threads N       one run on N threads: the partitioned\n"
        "                        engine (sim/engine_par.c), whose result is\n"
        "                        the same for every N (1 included) but not\n"
        "                        the serial engine's (other allocation\n"
        "                        order and streams); point-to-point\n"
        "                        wormhole networks, router=unit, unicast\n"
        "                        traffic, --credit-delay 1 only; pays on\n"
        "                        large networks only (docs/architecture.md,\n"
        "                        \"Parallel runs\")\n"
        "  --warmup N            warm-up messages, not measured (20000)\n"
        "  --messages N          messages to measure (200000)\n"
        "  --ci FRAC             instead: measure until the 95%% half-width of\n"
        "                        mean latency is below FRAC x mean (batch\n"
        "                        means, >= 10 batches, >= 20000 messages)\n"
        "  --max-cycles N        stop a run after N cycles (0: no limit)\n"
        "  --credit-delay N      cycles before a freed buffer slot is seen\n"
        "                        upstream (0: the same cycle)\n"
        "  --json                print JSON instead of a table\n"
        "  -q, --quiet           no progress on stderr\n"
        "  -h, --help            this help\n"
        "\n"
        "Exit status: 0 simulated (saturated points included); 1 a run\n"
        "failed; 2 bad input or a design the simulator does not support.\n"
        "\n"
        "example (8x8 torus, dimension order, 2 VCs, 4-flit buffers):\n"
        "  dse sim --design 'topology=torus k=8 n=2 vcs=2 buffer=4' \\\n"
        "      --workload 'message_bits=16' --rates 0.002:0.01:0.002\n");
}

#define bad(...) dse_cli_bad("dse sim", __VA_ARGS__)

static int parse_real(const char *opt, const char *s, double lo, double *out)
{
    return dse_cli_real("dse sim", opt, s, lo, INFINITY, out);
}

static int parse_long(const char *opt, const char *s, long lo, long hi,
                      long *out)
{
    return dse_cli_long("dse sim", opt, s, lo, hi, out);
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-')
        return bad("%s: expected a non-negative integer, got \"%s\"", opt, s);
    *out = (uint64_t)v;
    return 0;
}

/* "A:B:STEP" or "R1,R2,...": fills cli->rates (owned). */
static int parse_rates(sim_cli *cli, const char *spec)
{
    free(cli->rates);
    size_t n = 0;
    err e;
    if (dse_cli_parse_rates(spec, &cli->rates, &n, &e))
        return bad("%s", e.msg);
    cli->nrates = (int)n;
    return 0;
}

/* 0, or the exit status (2, or 0 after --help) with *done = 1. */
static int parse_options(int argc, char **argv, sim_cli *cli, int *done)
{
    enum { OPT_DESIGN = 256, OPT_WORKLOAD, OPT_RATES, OPT_SEED, OPT_SEEDS,
           OPT_THREADS, OPT_WARMUP, OPT_MESSAGES, OPT_CI, OPT_MAXCYC,
           OPT_CREDIT, OPT_JSON, OPT_SATURATION, OPT_RUNTHREADS,
           OPT_KEY = 512 };
    static const struct option fixed[] = {
        {"design", required_argument, NULL, OPT_DESIGN},
        {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"rates", required_argument, NULL, OPT_RATES},
        {"seed", required_argument, NULL, OPT_SEED},
        {"seeds", required_argument, NULL, OPT_SEEDS},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"run-threads", required_argument, NULL, OPT_RUNTHREADS},
        {"warmup", required_argument, NULL, OPT_WARMUP},
        {"messages", required_argument, NULL, OPT_MESSAGES},
        {"ci", required_argument, NULL, OPT_CI},
        {"max-cycles", required_argument, NULL, OPT_MAXCYC},
        {"credit-delay", required_argument, NULL, OPT_CREDIT},
        {"json", no_argument, NULL, OPT_JSON},
        {"saturation", no_argument, NULL, OPT_SATURATION},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
    };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    struct option longopts[NFIXED + DSE_CLI_NKEYS + 1];
    dse_cli_longopts_with_keys(fixed, NFIXED, OPT_KEY, longopts);

    sim_params *p = &cli->base;
    *done = 0;
    opterr = 0;
    optind = 0;
    int c;
    err e;
    while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
        err_clear(&e);
        double v = 0;
        long l;
        switch (c) {
        case 'h':
            usage(stdout);
            *done = 1;
            return 0;
        case 'q':
            cli->quiet = 1;
            break;
        case OPT_DESIGN:
            if (net_design_parse(&p->design, optarg, &e))
                return bad("--design '%s': %s", optarg, e.msg);
            break;
        case OPT_WORKLOAD:
            if (net_workload_parse(&p->workload, optarg, &e))
                return bad("--workload '%s': %s", optarg, e.msg);
            break;
        case OPT_RATES:
            if (parse_rates(cli, optarg))
                return 2;
            break;
        case OPT_SEED:
            if (parse_u64("--seed", optarg, &p->seed))
                return 2;
            break;
        case OPT_SEEDS:
            if (parse_long("--seeds", optarg, 1, 100000, &cli->seeds))
                return 2;
            break;
        case OPT_THREADS:
            if (parse_long("--threads", optarg, 1, 1024, &cli->threads))
                return 2;
            break;
        case OPT_RUNTHREADS:
            if (parse_long("--run-threads", optarg, 1, 256, &l))
                return 2;
            p->partitioned = 1;
            p->threads = (int)l;
            break;
        case OPT_WARMUP:
            if (parse_long("--warmup", optarg, 0, 1000000000L, &l))
                return 2;
            p->warmup_messages = l;
            break;
        case OPT_MESSAGES:
            if (parse_long("--messages", optarg, 1, 1000000000L, &l))
                return 2;
            p->messages = l;
            p->stop = SIM_STOP_MESSAGES;
            break;
        case OPT_CI:
            if (parse_real("--ci", optarg, 0, &v))
                return 2;
            if (!(v > 0 && v < 1))
                return bad("--ci: expected a fraction 0 < x < 1, got %g", v);
            p->ci_target = v;
            p->stop = SIM_STOP_CI;
            break;
        case OPT_MAXCYC:
            if (parse_long("--max-cycles", optarg, 0, 1L << 62, &l))
                return 2;
            p->max_cycles = l;
            break;
        case OPT_CREDIT:
            if (parse_long("--credit-delay", optarg, 0, 1000, &l))
                return 2;
            p->credit_delay = (int)l;
            break;
        case OPT_SATURATION:
            cli->saturation = 1;
            break;
        case OPT_JSON:
            cli->json = 1;
            break;
        case ':':
            return bad("option %s needs a value", argv[optind - 1]);
        case '?':
            return dse_cli_unknown_option("dse sim", argv, optind, longopts);
        default:
            if (c >= OPT_KEY && c < OPT_KEY + (int)DSE_CLI_NKEYS) {
                dse_cli_key k = dse_cli_key_at((size_t)(c - OPT_KEY));
                int rc = dse_cli_apply_key(&k, optarg, &p->design, &p->workload, &e);
                if (rc)
                    return bad("--%s: %s", k.name, e.msg);
                break;
            }
            return bad("unexpected option");
        }
    }
    if (optind < argc)
        return bad("unexpected argument '%s' (see 'dse sim --help')",
                   argv[optind]);
    if (cli->saturation && cli->nrates)
        return bad("--saturation and --rates exclude each other");
    if (!cli->nrates && !cli->saturation)
        return bad("--rates is required (e.g. --rates 0.001:0.01:0.001), "
                   "or --saturation");
    return 0;
}

/* ---- running ----------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct run_ctx {
    dse_progress progress;
    int show;
} run_ctx;

static void on_done(void *ctx, int job, const sim_result *r)
{
    run_ctx *rc = ctx;
    (void)job, (void)r;
    if (rc->show)
        dse_progress_step(&rc->progress, 1);
}

static void on_progress(void *ctx, const sim_progress *p)
{
    run_ctx *rc = ctx;
    char text[128];
    if (p->target)
        snprintf(text, sizeof text, "rate %g seed %llu: %ld cycles, %ld/%ld",
                 p->rate, (unsigned long long)p->seed, p->cycles, p->measured,
                 p->target);
    else
        snprintf(text, sizeof text, "rate %g seed %llu: %ld cycles, %ld "
                 "measured", p->rate, (unsigned long long)p->seed, p->cycles,
                 p->measured);
    dse_progress_note(&rc->progress, text);
}

/* ---- output ------------------------------------------------------------ */

static double rcps(const sim_result *r, double wall)
{
    return wall > 0 ? (double)r->nodes * (double)r->cycles / wall : 0;
}

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *result_json(const sim_result *r, double wall, int ci_rule)
{
    json_t *o = json_object();
    json_object_set_new(o, "rate", json_real(r->rate));
    json_object_set_new(o, "status", json_string(sim_status_name(r->status)));
    json_object_set_new(o, "saturated", json_boolean(r->saturated));
    json_object_set_new(o, "deadlock", json_boolean(r->deadlock));
    if (r->status == SIM_OK) {
        json_object_set_new(o, "latency", jnum(r->latency));
        json_object_set_new(o, "latency_ci95", jnum(r->latency_ci95));
        json_object_set_new(o, "network_latency", jnum(r->network_latency));
        json_object_set_new(o, "network_latency_ci95",
                            jnum(r->network_latency_ci95));
        json_object_set_new(o, "source_wait", jnum(r->source_wait));
        json_object_set_new(o, "latency_p50", jnum(r->latency_p50));
        json_object_set_new(o, "latency_p95", jnum(r->latency_p95));
        json_object_set_new(o, "latency_p99", jnum(r->latency_p99));
        json_object_set_new(o, "latency_max", jnum(r->latency_max));
        json_object_set_new(o, "hops", jnum(r->hops));
        json_object_set_new(o, "message_flits", jnum(r->message_flits));
    } else {
        json_object_set_new(o, "latency", json_null());
    }
    json_object_set_new(o, "offered_flits", jnum(r->offered_flits));
    json_object_set_new(o, "accepted_flits", jnum(r->accepted_flits));
    json_object_set_new(o, "offered_messages", jnum(r->offered_messages));
    json_object_set_new(o, "accepted_messages", jnum(r->accepted_messages));
    json_object_set_new(o, "messages", json_integer(r->messages));
    json_object_set_new(o, "batches", json_integer(r->batches));
    if (ci_rule)
        json_object_set_new(o, "ci_met", json_boolean(r->ci_met));
    json_object_set_new(o, "cycles", json_integer(r->cycles));
    json_object_set_new(o, "nodes", json_integer(r->nodes));
    json_object_set_new(o, "silent_nodes", json_integer(r->silent_nodes));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "replications", json_integer(r->replications));
    json_object_set_new(o, "wall_seconds", json_real(wall));
    json_object_set_new(o, "router_cycles_per_second", jnum(rcps(r, wall)));
    if (r->detail[0])
        json_object_set_new(o, "detail", json_string(r->detail));
    return o;
}

static void print_table_header(const sim_cli *cli, const char *dtext,
                               const char *wtext)
{
    const sim_params *p = &cli->base;
    printf("# %s\n# design:   %s\n# workload: %s (%d flits)\n", 
           dse_version_string(), dtext, wtext,
           net_message_flits(&p->design, &p->workload));
    if (p->stop == SIM_STOP_CI)
        printf("# seeds %llu..%llu, warm-up %ld, until 95%% CI < %g of mean\n",
               (unsigned long long)p->seed,
               (unsigned long long)(p->seed + (uint64_t)cli->seeds - 1),
               p->warmup_messages, p->ci_target);
    else
        printf("# seeds %llu..%llu, warm-up %ld, %ld measured messages\n",
               (unsigned long long)p->seed,
               (unsigned long long)(p->seed + (uint64_t)cli->seeds - 1),
               p->warmup_messages, p->messages);
    if (p->partitioned)
        printf("# partitioned engine on %d threads (its results do not "
               "depend on the thread count)\n",
               p->threads);
    printf("# p50 p95 p99: latency percentiles (within 1/128, relative); "
           "max: the largest latency\n");
    printf("%-10s %10s %8s %10s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s "
           "%9s %10s %8s %9s  %s\n",
           "rate", "latency", "+-95%", "net_lat", "src_wait", "p50", "p95",
           "p99", "max", "off_flit",
           "acc_flit", "off_msg", "acc_msg", "hops", "messages", "cycles",
           "wall_s", "Mrc/s", "status");
}

static void print_table_row(const sim_result *r, double wall)
{
    if (r->status == SIM_OK)
        printf("%-10.6g %10.3f %8.3f %10.3f %9.3f %9.1f %9.1f %9.1f %9.0f",
               r->rate, r->latency, r->latency_ci95, r->network_latency,
               r->source_wait, r->latency_p50, r->latency_p95,
               r->latency_p99, r->latency_max);
    else
        printf("%-10.6g %10s %8s %10s %9s %9s %9s %9s %9s", r->rate, "-", "-",
               "-", "-", "-", "-", "-", "-");
    printf(" %9.5f %9.5f %9.6f %9.6f", r->offered_flits, r->accepted_flits,
           r->offered_messages, r->accepted_messages);
    if (r->status == SIM_OK)
        printf(" %6.3f", r->hops);
    else
        printf(" %6s", "-");
    printf(" %9ld %10ld %8.2f %9.2f  %s\n", r->messages, r->cycles, wall,
           rcps(r, wall) / 1e6, sim_status_name(r->status));
}

/* --saturation: one sim_saturation search, printed as a line or JSON. */
static int run_saturation(sim_cli *cli, const char *dtext, const char *wtext)
{
    sim_params p = cli->base;
    p.stop_flag = &interrupted;
    interrupted = 0;
    /* the search confirms an answer near the channel-load bound with a
     * long probe (sim/saturation.c), as dse optimize's does */
    model_bound bound;
    err eb;
    if (model_bound_compute(&p.design, &p.workload, &bound, &eb) == 0 &&
        isfinite(bound.rate) && bound.rate > 0)
        p.saturation_bound = bound.rate;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    sim_saturation_result r;
    err e;
    err_clear(&e);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    int rc = sim_saturation(&p, &r, &e);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    sigaction(SIGINT, &old, NULL);
    free(cli->rates);
    if (rc) {
        fprintf(stderr, "dse sim: %s\n", e.msg);
        return 1;
    }
    double cpu = (double)(t1.tv_sec - t0.tv_sec) +
                 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (cli->json) {
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:i, s:I, s:f, s:s}",
            "design", dtext, "workload", wtext, "status",
            sim_status_name(r.status), "saturation_rate", r.rate, "rate_lo",
            r.rate_lo, "rate_hi", r.rate_hi, "saturation_flits", r.flits,
            "overload_throughput_flits", r.throughput, "probes", r.probes,
            "cycles", (json_int_t)r.cycles, "cpu_s", cpu, "detail", r.detail);
        json_dumpf(o, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        fputc('\n', stdout);
        json_decref(o);
    } else {
        printf("design   %s\nworkload %s\n", dtext, wtext);
        printf("saturation rate %.6f messages/node/cycle (interval %.6f - "
               "%.6f), %.4f flits/node/cycle\n",
               r.rate, r.rate_lo, r.rate_hi, r.flits);
        printf("overload throughput %.4f flits/node/cycle; %d probes, %ld "
               "cycles, %.1f s CPU; status %s%s%s\n",
               r.throughput, r.probes, r.cycles, cpu, sim_status_name(r.status),
               r.detail[0] ? ": " : "", r.detail);
    }
    return r.status == SIM_OK ? 0 : 1;
}

int dse_cmd_sim(int argc, char **argv)
{
    sim_cli cli;
    memset(&cli, 0, sizeof cli);
    sim_params_init(&cli.base);
    cli.seeds = 1;
    cli.threads = 1;
    int done;
    int rc = parse_options(argc, argv, &cli, &done);
    if (rc || done) {
        free(cli.rates);
        return rc;
    }

    err e;
    err_clear(&e);
    const sim_params *base = &cli.base;
    if ((rc = sim_supports(&base->design, &base->workload, &e))) {
        free(cli.rates);
        return bad("%s", e.msg);
    }
    char dtext[TEXT_MAX], wtext[TEXT_MAX];
    net_design_format(&base->design, dtext, sizeof dtext);
    net_workload_format(&base->workload, wtext, sizeof wtext);
    if (cli.saturation)
        return run_saturation(&cli, dtext, wtext);

    int nseeds = (int)cli.seeds;
    long njobs = (long)cli.nrates * nseeds;
    if (njobs > 10000000L) {
        free(cli.rates);
        return bad("%ld runs: too many", njobs);
    }
    run_ctx ctx;
    dse_progress_init(&ctx.progress, stderr, cli.quiet);
    ctx.show = !cli.quiet && isatty(fileno(stderr));

    sim_params *jobs = xmalloc(sizeof *jobs * (size_t)njobs);
    for (int i = 0; i < cli.nrates; i++)
        for (int s = 0; s < nseeds; s++) {
            sim_params *j = &jobs[(long)i * nseeds + s];
            *j = *base;
            j->rate = cli.rates[i];
            j->seed = base->seed + (uint64_t)s;
            j->stop_flag = &interrupted;
            if (ctx.show) {
                j->progress = on_progress;
                j->progress_ctx = &ctx;
            }
        }
    sim_result *results = xcalloc((size_t)njobs, sizeof *results);
    int *codes = xcalloc((size_t)njobs, sizeof *codes);
    double *wall = xcalloc((size_t)njobs, sizeof *wall);

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    if (ctx.show)
        dse_progress_begin(&ctx.progress, "simulate", (size_t)njobs);
    rc = sim_run_many(jobs, (int)njobs, (int)cli.threads, results, codes,
                      wall, on_done, &ctx, &e);
    if (ctx.show)
        dse_progress_end(&ctx.progress);
    sigaction(SIGINT, &old, NULL);

    int status = 0;
    if (rc) {
        fprintf(stderr, "dse sim: %s\n", e.msg);
        status = rc == ERR_UNSUPPORTED || rc == ERR_INFEASIBLE ||
                         rc == ERR_INVALID
                     ? 2
                     : 1;
    } else {
        json_t *root = NULL, *points = NULL;
        if (cli.json) {
            root = json_object();
            json_object_set_new(root, "version",
                                json_string(dse_version_string()));
            json_object_set_new(root, "design", json_string(dtext));
            json_object_set_new(root, "workload", json_string(wtext));
            json_object_set_new(
                root, "message_flits",
                json_integer(net_message_flits(&base->design,
                                               &base->workload)));
            json_object_set_new(root, "seed",
                                json_integer((json_int_t)base->seed));
            json_object_set_new(root, "seeds", json_integer(nseeds));
            json_object_set_new(root, "warmup_messages",
                                json_integer(base->warmup_messages));
            if (base->stop == SIM_STOP_CI)
                json_object_set_new(root, "ci_target",
                                    json_real(base->ci_target));
            else
                json_object_set_new(root, "measure_messages",
                                    json_integer(base->messages));
            json_object_set_new(root, "credit_delay",
                                json_integer(base->credit_delay));
            if (base->partitioned)
                json_object_set_new(root, "partitioned", json_true());
            points = json_array();
        } else {
            print_table_header(&cli, dtext, wtext);
        }
        const char *last_note = "";
        for (int i = 0; i < cli.nrates; i++) {
            const sim_result *rs = &results[(long)i * nseeds];
            const double *ws = &wall[(long)i * nseeds];
            sim_result merged;
            sim_result_merge(rs, nseeds, &merged);
            double wsum = 0;
            for (int s = 0; s < nseeds; s++)
                wsum += ws[s];
            if (cli.json) {
                int ci = base->stop == SIM_STOP_CI;
                json_t *pt = result_json(&merged, wsum, ci);
                if (nseeds > 1) {
                    json_t *runs = json_array();
                    for (int s = 0; s < nseeds; s++)
                        json_array_append_new(runs,
                                              result_json(&rs[s], ws[s], ci));
                    json_object_set_new(pt, "runs", runs);
                }
                json_array_append_new(points, pt);
            } else {
                print_table_row(&merged, wsum);
                for (int s = 0; s < nseeds; s++)
                    if (rs[s].detail[0] && strcmp(rs[s].detail, last_note)) {
                        printf("#   %s\n", rs[s].detail);
                        last_note = rs[s].detail;
                    }
            }
            if (merged.status == SIM_STOPPED)
                status = 1;
        }
        if (cli.json) {
            json_object_set_new(root, "points", points);
            json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
            printf("\n");
            json_decref(root);
        }
    }
    dse_progress_fini(&ctx.progress);
    free(jobs);
    free(results);
    free(codes);
    free(wall);
    free(cli.rates);
    return status;
}

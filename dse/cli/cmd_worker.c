/*
 * cmd_worker.c — `dse worker --redis URL [--jobs N]`: serve the farm's
 * scoring, simulation and saturation-search jobs (dse/farm/farm_worker.c)
 * until stopped.
 *
 * Signals: the first SIGTERM or SIGINT lets the jobs in hand finish, then
 * the worker deregisters and exits 0; a second aborts running simulations
 * (their jobs go back to the farm after the visibility timeout) and exits;
 * a third kills at once.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/farm/farm.h"
#include "dse/common/pool.h"

static volatile sig_atomic_t stop_requested, hard_stop;

static void on_signal(int sig)
{
    if (hard_stop) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    if (stop_requested)
        hard_stop = 1;
    stop_requested = 1;
}


static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse worker --redis URL [OPTIONS]\n\n"
            "Serve the scoring, simulation and saturation-search jobs of\n"
            "'dse optimize --redis' and "
            "'dse serve' from a Redis farm (docs/farm.md).\n\n"
            "options:\n"
            "      --redis URL          redis://[user:password@]host[:port][/db]\n"
            "                           (default: $DSE_REDIS_URL)\n"
            "  -j, --jobs N             jobs run at once (default: all cores)\n"
            "      --prefix P           key prefix (default dse:)\n"
            "      --name NAME          consumer name (default HOST-PID-RANDOM)\n"
            "      --visibility S       a job pending S seconds without a heartbeat\n"
            "                           is reclaimed (default 30)\n"
            "      --heartbeat S        heartbeat period (default 1)\n"
            "      --max-deliveries N   dead-letter a job delivered more often (3)\n"
            "      --max-nodes N        refuse larger networks (1048576)\n"
            "      --max-messages N     refuse longer simulations (50000000)\n"
            "      --max-memory MB      refuse simulations and saturation searches\n"
            "                           estimated to need more memory (2048)\n"
            "      --max-work N         refuse simulations and saturation searches\n"
            "                           estimated to take more router-cycles (1e12)\n"
            "      --max-score-work N   refuse scoring jobs estimated to take more\n"
            "                           model steps (1e12)\n"
            "      --result-ttl S       results expire after S seconds (0: never)\n"
            "  -q, --quiet              no log lines\n"
            "  -h, --help               this text\n\n"
            "environment (docs/farm.md): DSE_REDIS_PASSWORD or DSE_REDIS_PASSWORD_FILE\n"
            "  (the password when the URL has none: keeps it out of ps);\n"
            "  DSE_FARM_SECRET or DSE_FARM_SECRET_FILE (seal and check results)\n\n"
            "SIGTERM/SIGINT: finish the jobs in hand and exit 0; twice: abort them.\n"
            "Exit status: 0 stopped cleanly, 1 refused by Redis, 2 bad usage.\n");
}

static int parse_num(const char *opt, const char *s, double lo, double hi,
                     double *out)
{
    return dse_cli_real("dse worker", opt, s, lo, hi, out);
}

int dse_cmd_worker(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"redis", required_argument, NULL, 'R'},
        {"jobs", required_argument, NULL, 'j'},
        {"prefix", required_argument, NULL, 'P'},
        {"name", required_argument, NULL, 'n'},
        {"visibility", required_argument, NULL, 'V'},
        {"heartbeat", required_argument, NULL, 'H'},
        {"max-deliveries", required_argument, NULL, 'D'},
        {"max-nodes", required_argument, NULL, 'N'},
        {"max-messages", required_argument, NULL, 'M'},
        {"max-memory", required_argument, NULL, 'B'},
        {"max-work", required_argument, NULL, 'K'},
        {"max-score-work", required_argument, NULL, 'W'},
        {"result-ttl", required_argument, NULL, 'T'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dse_worker_opts o;
    dse_worker_opts_init(&o);
    o.slots = dse_cores();
    o.log = dse_cli_log_line;
    o.log_ctx = (void *)"dse worker";
    const char *url = NULL;
    double v;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1) {
        switch (opt) {
        case 'R': url = optarg; break;
        case 'j':
            if (parse_num("--jobs", optarg, 1, 1024, &v))
                return 2;
            o.slots = (int)v;
            break;
        case 'P':
            snprintf(o.farm.prefix, sizeof o.farm.prefix, "%s", optarg);
            break;
        case 'n': snprintf(o.name, sizeof o.name, "%s", optarg); break;
        case 'V':
            if (parse_num("--visibility", optarg, 0.01, 1e6, &o.farm.visibility_s))
                return 2;
            break;
        case 'H':
            if (parse_num("--heartbeat", optarg, 0.01, 1e5, &o.farm.heartbeat_s))
                return 2;
            break;
        case 'D':
            if (parse_num("--max-deliveries", optarg, 1, 1000, &v))
                return 2;
            o.farm.max_deliveries = (int)v;
            break;
        case 'N':
            if (parse_num("--max-nodes", optarg, 2, NET_MAX_NODES, &v))
                return 2;
            o.limits.max_nodes = (long)v;
            break;
        case 'M':
            if (parse_num("--max-messages", optarg, 1, 1e12, &v))
                return 2;
            o.limits.max_messages = (long)v;
            break;
        case 'B':
            if (parse_num("--max-memory", optarg, 1, 1e9, &v))
                return 2;
            o.limits.max_sim_bytes = v * 1024 * 1024;
            break;
        case 'K':
            if (parse_num("--max-work", optarg, 1, 1e18, &v))
                return 2;
            o.limits.max_work = v;
            break;
        case 'W':
            if (parse_num("--max-score-work", optarg, 1, 1e18, &v))
                return 2;
            o.limits.max_score_work = v;
            break;
        case 'T':
            if (parse_num("--result-ttl", optarg, 0, 1e9, &v))
                return 2;
            o.farm.result_ttl_s = (long)v;
            break;
        case 'q': o.log = NULL; break;
        case 'h': usage(stdout); return 0;
        default:
            return dse_cli_unknown_option("dse worker", argv, optind,
                                          longopts);
        }
    }
    url = dse_cli_redis_url(url);
    if (optind != argc || !url) {
        fprintf(stderr, "dse worker: %s\n",
                url ? "unexpected argument" : "--redis URL (or DSE_REDIS_URL) is required");
        usage(stderr);
        return 2;
    }
    /* keep the worker timeout consistent with a fast heartbeat */
    if (o.farm.worker_timeout_s <= o.farm.heartbeat_s)
        o.farm.worker_timeout_s = 10 * o.farm.heartbeat_s;
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e) ||
        dse_farm_secret_from_env(&o.farm.secret, &e) ||
        dse_farm_opts_check(&o.farm, &e)) {
        dse_cli_redis_error("dse worker", e.msg);
        return 2;
    }
    dse_cli_catch_stop_signals(on_signal);
    signal(SIGPIPE, SIG_IGN);
    stop_requested = hard_stop = 0;
    int rc = dse_worker_run(&spec, &o, &stop_requested, &hard_stop, &e);
    if (rc) {
        dse_cli_redis_error("dse worker", e.msg);
        return rc == ERR_CONFIG ? 2 : 1;
    }
    return 0;
}

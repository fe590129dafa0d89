/*
 * cmd_serve.c — `dse serve --redis URL --output-root DIR`: the daemon
 * (dse/farm/farm_serve.c).  Runs the studies submitted with `dse submit` on the
 * farm and writes their reports under DIR.
 *
 * SIGTERM/SIGINT: stop taking studies, interrupt the one in progress and
 * put it back at the head of the queue (its finished jobs stay cached),
 * exit 0.  A second signal kills at once; a restarted daemon resumes.
 *
 * --http ADDR:PORT: the read-only web page of the studies and their
 * reports (dse/farm/farm_http.h), on 127.0.0.1 unless ADDR says otherwise;
 * it starts before the daemon takes studies and stops with it.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/farm/farm_http.h"
#include "dse/farm/farm_serve.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    if (stop_requested) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_requested = 1;
}


static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse serve --redis URL --output-root DIR [OPTIONS]\n\n"
            "The daemon: run the studies submitted with 'dse submit' on the Redis\n"
            "farm ('dse worker' processes do the jobs) and write each report to\n"
            "DIR/ID/ (ID: the study id dse submit printed; the study's\n"
            "report.directory is ignored).  'dse status' shows progress.\n\n"
            "options:\n"
            "      --redis URL             redis://[user:password@]host[:port][/db]\n"
            "                              (default: $DSE_REDIS_URL)\n"
            "      --output-root DIR       where reports go (required; must exist)\n"
            "      --prefix P              key prefix (default dse:)\n"
            "      --http [ADDR:]PORT      serve the dashboard: studies, workers, dead\n"
            "                              letters and reports, as pages and as JSON under\n"
            "                              /api/ (ADDR 127.0.0.1 by default; read-only)\n"
            "      --http-token TOKEN      also allow POST /api/studies/ID/cancel and\n"
            "                              /api/dead-letters/ENTRY/requeue with the header\n"
            "                              'Authorization: Bearer TOKEN' (16+ characters;\n"
            "                              DSE_HTTP_TOKEN_FILE: read it from a file)\n"
            "      --concurrent N          studies run at once (default 1)\n"
            "      --lock-ttl S            expiry of the daemon's lock, refreshed 5 times\n"
            "                              as often (15); a daemon that finds another's\n"
            "                              token in it stops and exits 1\n"
            "      --max-designs N         refuse studies with more feasible designs (20000)\n"
            "      --max-enumerated N      refuse studies whose space has more combinations\n"
            "                              to look at, counted before building it (1000000)\n"
            "      --max-rates N           refuse studies with more target rates (64)\n"
            "      --max-nodes N           refuse larger machines (65536)\n"
            "      --max-sim-messages N    refuse studies that may simulate more messages\n"
            "                              (finalists x rates x seeds x (warm-up + 10 x\n"
            "                              measured); default 2e9)\n"
            "      --redis-timeout S       fail a study when Redis is unreachable this long (30)\n"
            "      --worker-timeout S      fail a study when no worker is alive this long (60)\n"
            "  -j, --jobs N                local threads (the model sample of 'search: auto')\n"
            "  -q, --quiet                 no log lines\n"
            "  -h, --help                  this text\n\n"
            "environment (docs/farm.md): DSE_REDIS_PASSWORD or DSE_REDIS_PASSWORD_FILE\n"
            "  (the password when the URL has none: keeps it out of ps);\n"
            "  DSE_FARM_SECRET or DSE_FARM_SECRET_FILE (seal and check results)\n\n"
            "SIGTERM/SIGINT: stop intake, requeue the study in progress, exit 0.\n"
            "Exit status: 0 stopped cleanly, 1 Redis refused or unreachable at start,\n"
            "2 bad usage.\n");
}

static int num(const char *opt, const char *s, double lo, double hi,
               double *out)
{
    return dse_cli_real("dse serve", opt, s, lo, hi, out);
}

int dse_cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"redis", required_argument, NULL, 'R'},
        {"output-root", required_argument, NULL, 'O'},
        {"prefix", required_argument, NULL, 'P'},
        {"http", required_argument, NULL, 'H'},
        {"concurrent", required_argument, NULL, 'c'},
        {"max-designs", required_argument, NULL, 'D'},
        {"max-enumerated", required_argument, NULL, 'E'},
        {"max-rates", required_argument, NULL, 'r'},
        {"max-nodes", required_argument, NULL, 'N'},
        {"max-sim-messages", required_argument, NULL, 'M'},
        {"redis-timeout", required_argument, NULL, 'T'},
        {"worker-timeout", required_argument, NULL, 'W'},
        {"jobs", required_argument, NULL, 'j'},
        {"lock-ttl", required_argument, NULL, 'L'},
        {"quiet", no_argument, NULL, 'q'},
        {"http-token", required_argument, NULL, 'K'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dse_serve_opts o;
    dse_serve_opts_init(&o);
    o.log = dse_cli_log_line;
    o.log_ctx = (void *)"dse serve";
    const char *url = NULL, *root = NULL, *http = NULL, *token = NULL;
    char token_buf[256];
    double v;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1) {
        switch (opt) {
        case 'R': url = optarg; break;
        case 'O': root = optarg; break;
        case 'H': http = optarg; break;
        case 'K': token = optarg; break;
        case 'P':
            snprintf(o.farm.prefix, sizeof o.farm.prefix, "%s", optarg);
            break;
        case 'c':
            if (num("--concurrent", optarg, 1, 64, &v))
                return 2;
            o.concurrent = (int)v;
            break;
        case 'D':
            if (num("--max-designs", optarg, 1, 1e9, &v))
                return 2;
            o.limits.max_designs = (size_t)v;
            break;
        case 'E':
            if (num("--max-enumerated", optarg, 1, 1e12, &v))
                return 2;
            o.limits.max_enumerated = (size_t)v;
            break;
        case 'r':
            if (num("--max-rates", optarg, 1, 1e6, &v))
                return 2;
            o.limits.max_rates = (size_t)v;
            break;
        case 'N':
            if (num("--max-nodes", optarg, 2, NET_MAX_NODES, &v))
                return 2;
            o.limits.max_nodes = (long)v;
            break;
        case 'M':
            if (num("--max-sim-messages", optarg, 1, 1e18, &v))
                return 2;
            o.limits.max_sim_messages = v;
            break;
        case 'T':
            if (num("--redis-timeout", optarg, 0.1, 1e6, &o.farm.redis_timeout_s))
                return 2;
            break;
        case 'W':
            if (num("--worker-timeout", optarg, 0.1, 1e6,
                    &o.farm.no_worker_timeout_s))
                return 2;
            break;
        case 'j':
            if (num("--jobs", optarg, 1, 4096, &v))
                return 2;
            o.threads = (int)v;
            break;
        case 'L':
            if (num("--lock-ttl", optarg, 0.5, 3600, &v))
                return 2;
            o.lock_ttl_ms = (long)(v * 1000);
            break;
        case 'q': o.log = NULL; break;
        case 'h': usage(stdout); return 0;
        default:
            return dse_cli_unknown_option("dse serve", argv, optind,
                                          longopts);
        }
    }
    url = dse_cli_redis_url(url);
    if (optind != argc || !url || !root) {
        fprintf(stderr, "dse serve: %s\n",
                optind != argc ? "unexpected argument"
                               : "--redis URL and --output-root DIR are required");
        usage(stderr);
        return 2;
    }
    snprintf(o.output_root, sizeof o.output_root, "%s", root);
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e) ||
        dse_farm_secret_from_env(&o.farm.secret, &e)) {
        dse_cli_redis_error("dse serve", e.msg);
        return 2;
    }
    const char *token_file = getenv("DSE_HTTP_TOKEN_FILE");
    if (!token && token_file && token_file[0]) {
        size_t len;
        if (dse__farm_read_secret(token_file, token_buf, sizeof token_buf,
                                  &len, &e))
            return dse_cli_bad("dse serve", "DSE_HTTP_TOKEN_FILE: %s", e.msg);
        token = token_buf;
    }
    if (token && (strlen(token) < 16 || strlen(token) > 200))
        return dse_cli_bad("dse serve", "--http-token: 16 to 200 characters");
    if (token && !http)
        return dse_cli_bad("dse serve", "--http-token needs --http");
    dse_http *web = NULL;
    if (http) {
        char addr[64];
        int port;
        if (dse_http_addr_parse(http, addr, &port, &e)) {
            dse_cli_redis_error("dse serve", e.msg);
            return 2;
        }
        if (dse_http_start(&spec, &o.farm, http, root, token, o.log, o.log_ctx,
                           &web, &e)) {
            dse_cli_redis_error("dse serve", e.msg);
            return 1;
        }
    }
    dse_cli_catch_stop_signals(on_signal);
    signal(SIGPIPE, SIG_IGN);
    stop_requested = 0;
    int rc = dse_serve_run(&spec, &o, &stop_requested, &e);
    dse_http_stop(web);
    if (rc) {
        dse_cli_redis_error("dse serve", e.msg);
        return rc == ERR_CONFIG ? 2 : 1;
    }
    return 0;
}

/*
 * cmd_cancel.c — `dse cancel ID --redis URL`: stop a submitted study.  A
 * queued one leaves the queue at once (status cancelled); a running one has
 * its jobs withdrawn from the farm at once and is stopped by the daemon
 * (dse/farm/studies.h).  No report is written for a cancelled study.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/farm/studies.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse cancel STUDY-ID [--redis URL] [--prefix P] [--json]\n\n"
            "Cancel a study submitted with 'dse submit': a queued one is taken off\n"
            "the queue, a running one has its queued jobs withdrawn from the farm\n"
            "at once, its running jobs stopped, and the daemon moves on to the\n"
            "next study; either ends with status 'cancelled' and no report.\n"
            "--redis defaults to $DSE_REDIS_URL; --json prints {\"id\": ID,\n"
            "\"status\": \"cancelled\" or \"cancelling\"}.\n\n"
            "Exit status: 0 cancelled (or being cancelled), 1 no such study, already\n"
            "finished, or Redis unreachable, 2 bad usage.\n");
}

int dse_cmd_cancel(int argc, char **argv)
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
        default:
            return dse_cli_unknown_option("dse cancel", argv, optind,
                                          longopts);
        }
    }
    url = dse_cli_redis_url(url);
    if (optind != argc - 1 || !url) {
        usage(stderr);
        return dse_cli_bad("dse cancel", "%s",
                           url ? "expected one study id"
                               : "--redis URL (or DSE_REDIS_URL) is required");
    }
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e))
        return dse_cli_bad("dse cancel", "%s", e.msg);
    dse_store st;
    dse_store_open(&spec, &st);
    int running = 0;
    int rc = dse_study_cancel(&st, &fo, argv[optind], &running, &e);
    dse_store_close(&st);
    if (rc) {
        dse_cli_redis_error("dse cancel", e.msg);
        return 1;
    }
    if (as_json) {
        json_t *o = json_object();
        json_object_set_new(o, "id", json_string(argv[optind]));
        json_object_set_new(o, "status",
                            json_string(running ? "cancelling" : "cancelled"));
        return dse_cli_print_json(o);
    }
    printf("study %s: %s\n", argv[optind],
           running ? "cancel requested; its queued jobs are withdrawn and the "
                     "daemon stops it within about a second"
                   : "cancelled");
    return 0;
}

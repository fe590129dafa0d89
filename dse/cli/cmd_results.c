/*
 * cmd_results.c — `dse results ID --redis URL [--output DIR]`: fetch a
 * finished study's report from Redis, where the daemon stored it (report:ID,
 * dse/farm/studies.h), into a new directory: no shell on the daemon's
 * machine needed.  DIR (default ./dse-results-ID) is created; an existing
 * non-empty one is refused; the files appear all at once (written to a
 * temporary directory beside it and renamed).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/farm/studies.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse results STUDY-ID --redis URL [--output DIR] [--prefix P]\n\n"
            "Fetch the report of a study the daemon finished (index.html, report.md,\n"
            "candidates.csv, results.json, curves.csv, curves.json) through Redis\n"
            "into DIR, a new directory (default dse-results-ID); an existing\n"
            "non-empty DIR is refused.\n"
            "Reports over %ld MiB are not kept in Redis ('dse status ID' says so).\n\n"
            "Exit status: 0 written, 1 no such study, not done, not stored, DIR not\n"
            "empty, or Redis unreachable, 2 bad usage.\n",
            DSE_REPORT_STORE_MAX >> 20);
}

int dse_cmd_results(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"redis", required_argument, NULL, 'R'},
        {"output", required_argument, NULL, 'o'},
        {"prefix", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    const char *url = NULL, *out = NULL;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'R': url = optarg; break;
        case 'o': out = optarg; break;
        case 'P': snprintf(fo.prefix, sizeof fo.prefix, "%s", optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1 || !url) {
        usage(stderr);
        return dse_cli_bad("dse results", "%s",
                           url ? "expected one study id"
                               : "--redis URL is required");
    }
    const char *id = argv[optind];
    char def[64];
    if (!out) {
        if (!dse_study_id_ok(id))
            return dse_cli_bad("dse results", "no study '%.40s'", id);
        snprintf(def, sizeof def, "dse-results-%s", id);
        out = def;
    }
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e))
        return dse_cli_bad("dse results", "%s", e.msg);
    dse_store st;
    dse_store_open(&spec, &st);
    size_t n = 0;
    int rc = dse_study_fetch_report(&st, &fo, id, out, &n, &e);
    dse_store_close(&st);
    if (rc) {
        fprintf(stderr, "dse results: %s\n", e.msg);
        return 1;
    }
    printf("study %s: %zu file(s) in %s/\n", id, n, out);
    return 0;
}

/*
 * cmd_submit.c — `dse submit STUDY.yaml --redis URL`: queue a study for the
 * daemon (`dse serve`).  The study is checked here first (a mistake is
 * reported with file:line:column at once, exit 2); the daemon checks it
 * again, with its own limits, because it trusts no submission.  Prints the
 * new study's id on stdout.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/farm/farm_serve.h"
#include "net/xalloc.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse submit STUDY.yaml [--redis URL] [--prefix P] [--json]\n\n"
            "Queue a study for the daemon ('dse serve'); prints its id.  Follow it\n"
            "with 'dse status ID --redis URL'.  --redis defaults to $DSE_REDIS_URL;\n"
            "--json prints {\"id\": ID, \"file\": STUDY.yaml}.\n\n"
            "Exit status: 0 queued, 1 Redis unreachable, 2 bad usage or study.\n");
}

int dse_cmd_submit(int argc, char **argv)
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
            return dse_cli_unknown_option("dse submit", argv, optind,
                                          longopts);
        }
    }
    url = dse_cli_redis_url(url);
    if (optind != argc - 1 || !url) {
        fprintf(stderr, "dse submit: %s\n",
                url ? "expected one study file" : "--redis URL (or DSE_REDIS_URL) is required");
        usage(stderr);
        return 2;
    }
    const char *path = argv[optind];
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e) ||
        dse_farm_opts_check(&fo, &e)) {
        dse_cli_redis_error("dse submit", e.msg);
        return 2;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "dse submit: cannot read %s\n", path);
        return 2;
    }
    char *text = xmalloc(DSE_SUBMIT_MAX + 2);
    size_t n = fread(text, 1, DSE_SUBMIT_MAX + 1, f);
    fclose(f);
    text[n] = '\0';
    if (n > DSE_SUBMIT_MAX || strlen(text) != n) {
        fprintf(stderr, "dse submit: %s: %s\n", path,
                n > DSE_SUBMIT_MAX ? "over 1 MiB" : "contains NUL bytes");
        free(text);
        return 2;
    }
    char id[DSE_STUDY_ID_MAX];
    int rc = dse_serve_submit(&spec, &fo, text, path, id, &e);
    free(text);
    if (rc == ERR_CONFIG || rc == ERR_IO) {
        dse_cli_print_error(&e);
        return 2;
    }
    if (rc) {
        dse_cli_redis_error("dse submit", e.msg);
        return 1;
    }
    if (as_json) {
        json_t *o = json_object();
        json_object_set_new(o, "id", json_string(id));
        json_object_set_new(o, "file", json_string(path));
        json_object_set_new(o, "status", json_string("queued"));
        dse_cli_print_json(o);
    } else {
        printf("%s\n", id);
    }
    fprintf(stderr, "dse submit: queued %s as study %s; follow it with "
                    "'dse status %s --redis URL'\n",
            path, id, id);
    return 0;
}

/*
 * cmd_check.c — `dse check STUDY...`: validate study files, print what each
 * study asks for, and how big its design space is and why designs were
 * dropped.
 *
 * A bad study is reported like a compiler error (gcc, jq's locfile.c):
 * "FILE:LINE:COLUMN: PATH: message" on stderr, then the offending source
 * line and a caret under the column, and the exit status is 2.  Nothing is
 * evaluated: check only loads the study and enumerates its space, which is
 * cheap, so it is what to run before a long `dse optimize`.
 *
 * Exit status: 0 every study is valid, 2 usage error or an invalid study,
 * 1 a valid study whose space could not be built (budget evaluation).
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/farm/farm_serve.h"
#include "dse/report/report.h"
#include "dse/study/cfg.h"
#include "dse/cli/cli.h"
#include "dse/cli/commands.h"
#include "dse/study/space.h"
#include "net/topology.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dse check [--designs] [--json] [--max-enumerated N] "
            "STUDY.yaml...\n\n"
            "Validate each study file; print the study, the size of its design\n"
            "space (enumerated and feasible), how many designs were dropped for\n"
            "each reason with an example, and the feasible designs per topology.\n"
            "Errors are printed as FILE:LINE:COLUMN: PATH: message with the\n"
            "source line, and the exit status is 2.\n\n"
            "options:\n"
            "  --designs   also list every feasible design and its model\n"
            "  --json      print the same as JSON (an array when several files)\n"
            "  --max-enumerated N\n"
            "              refuse a study whose design space has more than N\n"
            "              combinations, counted before building it (default\n"
            "              1000000, the same as dse serve)\n"
            "  -h, --help  this text\n");
}

/* "dcsh n=2 k=32 width=1": the parts of a reference design that cost. */
static void format_reference(const net_design *d, char *buf, size_t size)
{
    size_t used = 0;
    int w = snprintf(buf, size, "%s n=%d k=", net_topology_name(d->topology),
                     d->n);
    used = w > 0 ? (size_t)w : 0;
    for (int i = 0; i < d->n && used < size; i++) {
        if (i && net_uniform_radix(d))
            break;
        w = snprintf(buf + used, size - used, i ? "x%d" : "%d", d->k[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < size)
        w = snprintf(buf + used, size - used, " width=%d", d->width);
    used += w > 0 ? (size_t)w : 0;
    if (used < size)
        net_design_params_format(d, " ", buf + used, size - used);
}

static void print_ints(const char *label, const cfg_ints *l)
{
    printf("  %-18s", label);
    for (size_t i = 0; i < l->n; i++)
        printf("%s%d", i ? ", " : "", l->v[i]);
    printf("\n");
}

static void print_study(const cfg_study *s, const dse_space *sp)
{
    char text[512];
    printf("study %s (%s)\n", s->name, s->source);
    printf("  %-18s%ld\n", "nodes", s->nodes);
    const char *unit = s->budget.technology == CONS_MULTICHIP
                           ? "pins per chip"
                           : "bisection wires";
    printf("  %-18s%s, ", "technology", cons_technology_name(s->budget.technology));
    if (s->budget.has_reference) {
        format_reference(&s->budget.reference, text, sizeof text);
        printf("budget %g %s (the cost of %s)", sp->budget_limit, unit, text);
    } else {
        printf("budget %g %s", sp->budget_limit, unit);
    }
    printf(", rounding %s\n",
           s->budget.rounding == CONS_ROUND_CEIL ? "ceil" : "floor");
    net_workload_format(&s->workload, text, sizeof text);
    printf("  %-18s%s\n", "workload", text);
    const phys_timing_opts *ro = &s->router;
    if (ro->model == PHYS_ROUTER_FIXED)
        printf("  %-18s%d cycle%s", "router delay", s->router_delay,
               s->router_delay == 1 ? "" : "s");
    else if (ro->model == PHYS_ROUTER_CHIEN)
        printf("  %-18sper design, Chien's model", "router delay");
    else
        printf("  %-18sper design, Peh and Dally's model at %g FO4%s, "
               "wires %g FO4 per tile%s", "router delay", ro->clock_fo4,
               ro->speculative ? " (speculative)" : "", ro->fo4_per_tile,
               ro->offchip_cycles ? " (links off-chip)" : "");
    printf(", ejection channels %d%s\n", s->ejection_channels,
           s->ejection_channels ? "" : " (unlimited)");
    if (s->area.buffer_bits > 0 || s->area.crossbar_area > 0 ||
        s->area.wire_length > 0)
        printf("  %-18sbuffer bits <= %g, crossbar <= %g tracks^2, wires "
               "<= %g wire-tiles (0: unbounded)\n", "area budget",
               s->area.buffer_bits, s->area.crossbar_area,
               s->area.wire_length);
    printf("  %-18s", "rates");
    if (s->rates.n <= 8) {
        for (size_t i = 0; i < s->rates.n; i++)
            printf("%s%g", i ? ", " : "", s->rates.v[i]);
    } else {
        printf("%zu rates, %g, %g, ..., %g", s->rates.n, s->rates.v[0],
               s->rates.v[1], s->rates.v[s->rates.n - 1]);
    }
    printf(" msgs/node/cycle\n");

    const cfg_space *q = &s->space;
    printf("  %-18s", "topologies");
    for (size_t i = 0; i < q->ntopologies; i++)
        printf("%s%s", i ? ", " : "", net_topology_name(q->topologies[i]));
    printf("%s\n", q->topologies_all ? " (all)" : "");
    print_ints("dimensions", &q->dimensions);
    printf("  %-18s%s\n", "radices",
           q->mixed_radices ? "every factorisation of N (mixed)"
                            : "uniform k = N^(1/n)");
    printf("  %-18s", "routings");
    for (size_t i = 0; i < q->nroutings; i++)
        printf("%s%s", i ? ", " : "", cfg_routing_name(q->routings[i]));
    printf("%s\n", q->routings_all ? " (all: those that apply)" : "");
    print_ints("vcs", &q->vcs);
    print_ints("buffer flits", &q->buffer_flits);
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        print_ints(net_param_get((net_param)p)->label, &q->params[p]);
    printf("  %-18s%s\n", "require model", q->require_model ? "yes" : "no");
    printf("  %-18s", "objectives");
    for (size_t i = 0; i < s->nobjectives; i++)
        printf("%s%s (%s)", i ? ", " : "",
               cfg_objective_name(&s->objectives[i]),
               s->objectives[i].maximise ? "max" : "min");
    printf("\n");
    printf("  %-18s%d finalists, %s search\n", "optimizer", s->finalists,
           cfg_search_name(s->search));
    printf("  %-18s%d seeds, warm-up %ld, measure %ld messages, CI "
           "half-width %g, max %ld cycles, ",
           "simulation", s->sim.seeds, s->sim.warmup_messages,
           s->sim.measured_messages, s->sim.ci_half_width, s->sim.max_cycles);
    if (s->sim.threads)
        printf("%d threads", s->sim.threads);
    else
        printf("all cores");
    printf(", flag model errors > %g%%\n", s->sim.tolerance_pct);
    printf("  %-18s%s variant, tolerance %g\n", "model",
           model_variant_name(s->model.variant),
           s->model.tolerance);
    printf("  %-18s%s (", "report", s->report_dir);
    int first = 1;
    for (int f = 0; f < CFG_FORMAT_COUNT; f++)
        if (s->formats[f]) {
            printf("%s%s", first ? "" : ", ", cfg_format_name((cfg_format)f));
            first = 0;
        }
    printf(")\n");
}

static void print_space(const dse_space *sp, int designs)
{
    printf("\ndesign space\n");
    printf("  %-18s%zu\n", "enumerated", sp->enumerated);
    printf("  %-18s%zu", "feasible", sp->count);
    if (sp->unmodelled)
        printf(" (%zu without an analytic model: simulation only)",
               sp->unmodelled);
    printf("\n");
    printf("  %-18s%zu\n", "dropped", sp->enumerated - sp->count);
    for (int r = 0; r < DSE_DROP_COUNT; r++) {
        if (!sp->dropped[r])
            continue;
        printf("    %8zu  %s\n", sp->dropped[r], dse_drop_text((dse_drop)r));
        printf("              e.g. %s\n", sp->example[r]);
    }
    printf("\nfeasible designs per topology\n");
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        if (!sp->enumerated_by_topology[t])
            continue;
        printf("  %-18s%6zu of %zu enumerated\n",
               net_topology_name((net_topology)t), sp->feasible_by_topology[t],
               sp->enumerated_by_topology[t]);
    }
    if (!designs)
        return;
    printf("\nfeasible designs\n");
    for (size_t i = 0; i < sp->count; i++) {
        char text[512];
        net_design_format(&sp->designs[i], text, sizeof text);
        printf("  %s  [%s]\n", text,
               sp->models[i] ? sp->models[i]->name : "no model");
    }
}

/* What check prints, as a JSON object. */
static json_t *study_json(const cfg_study *s, const dse_space *sp,
                          int designs)
{
    json_t *o = json_object();
    json_object_set_new(o, "study", json_string(s->name));
    json_object_set_new(o, "file", json_string(s->source));
    json_object_set_new(o, "nodes", json_integer(s->nodes));
    json_t *rates = json_array();
    for (size_t i = 0; i < s->rates.n; i++)
        json_array_append_new(rates, json_real(s->rates.v[i]));
    json_object_set_new(o, "rates", rates);
    json_t *obj = json_array();
    for (size_t i = 0; i < s->nobjectives; i++)
        json_array_append_new(obj,
                              json_string(cfg_objective_name(&s->objectives[i])));
    json_object_set_new(o, "objectives", obj);
    json_object_set_new(o, "finalists", json_integer(s->finalists));
    json_object_set_new(o, "search", json_string(cfg_search_name(s->search)));
    json_object_set_new(o, "report", json_string(s->report_dir));
    json_t *space = json_object();
    json_object_set_new(space, "enumerated", json_integer((json_int_t)sp->enumerated));
    json_object_set_new(space, "feasible", json_integer((json_int_t)sp->count));
    json_object_set_new(space, "unmodelled", json_integer((json_int_t)sp->unmodelled));
    json_t *drop = json_array();
    for (int r = 0; r < DSE_DROP_COUNT; r++) {
        if (!sp->dropped[r])
            continue;
        json_t *d = json_object();
        json_object_set_new(d, "reason", json_string(dse_drop_text((dse_drop)r)));
        json_object_set_new(d, "count", json_integer((json_int_t)sp->dropped[r]));
        json_object_set_new(d, "example", json_string(sp->example[r]));
        json_array_append_new(drop, d);
    }
    json_object_set_new(space, "dropped", drop);
    json_t *per = json_object();
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        if (!sp->enumerated_by_topology[t])
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "feasible", json_integer((json_int_t)sp->feasible_by_topology[t]));
        json_object_set_new(x, "enumerated", json_integer((json_int_t)sp->enumerated_by_topology[t]));
        json_object_set_new(per, net_topology_name((net_topology)t), x);
    }
    json_object_set_new(space, "by_topology", per);
    json_object_set_new(o, "space", space);
    if (designs) {
        json_t *arr = json_array();
        for (size_t i = 0; i < sp->count; i++) {
            char text[512];
            net_design_format(&sp->designs[i], text, sizeof text);
            json_t *d = json_object();
            json_object_set_new(d, "design", json_string(text));
            json_object_set_new(d, "model", sp->models[i]
                                                ? json_string(sp->models[i]->name)
                                                : json_null());
            json_array_append_new(arr, d);
        }
        json_object_set_new(o, "designs", arr);
    }
    return o;
}

static int check_one(const char *path, int designs, size_t max_enumerated,
                     json_t *out)
{
    cfg_study s;
    err e;
    err_clear(&e);
    char msg[ERR_MSG_MAX + ERR_FILE_MAX + ERR_PATH_MAX + 64];
    if (cfg_study_load(path, &s, &e)) {
        dse_cli_print_error(&e);
        return 2;
    }
    /* counted first: a space of billions of combinations would take
     * gigabytes and minutes to build just to be refused */
    if (dse_serve_check_enumerated(&s, max_enumerated, "dse check's", &e)) {
        fprintf(stderr, "%s: %s (raise it with --max-enumerated)\n", path,
                e.msg);
        cfg_study_fini(&s);
        return 1;
    }
    dse_space sp;
    int rc = dse_space_build(&s, &sp, &e);
    if (rc) {
        fprintf(stderr, "%s: %s\n", path, err_format(&e, msg, sizeof msg));
        dse_space_fini(&sp);
        cfg_study_fini(&s);
        return 1;
    }
    if (out) {
        json_array_append_new(out, study_json(&s, &sp, designs));
    } else {
        print_study(&s, &sp);
        print_space(&sp, designs);
    }
    err re;
    if (dse_report_dir_check(s.report_dir, &re) != 0)
        fprintf(stderr, "%s: warning: %s (dse optimize will refuse it)\n",
                path, re.msg);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
    return 0;
}

int dse_cmd_check(int argc, char **argv)
{
    int designs = 0, nfiles = 0, as_json = 0;
    dse_serve_opts defaults;
    dse_serve_opts_init(&defaults);
    size_t max_enumerated = defaults.limits.max_enumerated;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--designs") == 0) {
            designs = 1;
            continue;
        }
        if (strcmp(argv[i], "--json") == 0) {
            as_json = 1;
            continue;
        }
        if (strcmp(argv[i], "--max-enumerated") == 0) {
            char *end = NULL;
            double v = i + 1 < argc ? strtod(argv[i + 1], &end) : 0;
            if (i + 1 >= argc || *end || !(v >= 1) || v > 1e15) {
                fprintf(stderr, "dse check: --max-enumerated: expected a "
                                "number of combinations >= 1\n");
                return 2;
            }
            max_enumerated = (size_t)v;
            argv[i + 1] = NULL; /* consumed: not a study file */
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            static const struct option opts[] = {
                {"designs", no_argument, NULL, 'd'},
                {"json", no_argument, NULL, 'j'},
                {"max-enumerated", required_argument, NULL, 'm'},
                {"help", no_argument, NULL, 'h'},
                {NULL, 0, NULL, 0},
            };
            return dse_cli_unknown_option("dse check", argv, i + 1, opts);
        }
        nfiles++;
    }
    if (!nfiles) {
        usage(stderr);
        return 2;
    }
    int status = 0, shown = 0;
    json_t *all = as_json ? json_array() : NULL;
    for (int i = 1; i < argc; i++) {
        if (!argv[i] || (argv[i][0] == '-' && argv[i][1]))
            continue;
        if (shown++ && !all)
            printf("\n");
        int rc = check_one(argv[i], designs, max_enumerated, all);
        if (rc > status)
            status = rc;
    }
    if (all) {
        if (nfiles == 1 && json_array_size(all) == 1) {
            json_t *one = json_incref(json_array_get(all, 0));
            json_decref(all);
            dse_cli_print_json(one);
        } else if (json_array_size(all) > 0 || status == 0) {
            dse_cli_print_json(all);
        } else {
            json_decref(all);
        }
    }
    return status;
}

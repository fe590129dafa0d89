/*
 * cmd_cost.c — `dse cost`: the costs of designs at their own channel width
 * and, under a budget, the widest channel each may have.
 *
 *   dse cost [OPTIONS] DESIGN...
 *
 * Each DESIGN is canonical design text ("topology=torus n=2 k=32 vcs=2"),
 * parsed with net_design_parse on top of net_design_init's defaults.  The
 * budget is absolute (--bisection-wires for VLSI, --pins for multi-chip) or
 * the cost of a reference design (--equal-to, under --technology).  All
 * arithmetic is in constraints/ (cons.h); this file only parses, checks and
 * prints: an aligned table by default, JSON with --json.
 *
 * Exit status (commands.h): 0 when every design was costed, including
 * designs the budget makes infeasible (that is an answer, shown as
 * "infeasible" with the reason); 2 for bad usage or input: unknown option,
 * malformed design text, a design or reference that fails net_check,
 * conflicting budget options.  Errors go to stderr, results to stdout.
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
#include "constraints/cons.h"
#include "net/net.h"
#include "net/topology.h"
#include "net/xalloc.h"

#define DESIGN_TEXT_MAX 512

typedef struct cost_opts {
    int have_technology;
    cons_technology technology;
    int have_wires, have_pins, have_reference;
    double wires, pins;
    net_design reference;
    cons_rounding rounding;
    int message_bits;
    int json;
} cost_opts;

/* One design's results. */
typedef struct cost_row {
    net_design d;
    cons_counts counts;
    cons_cost cost;
    int flits;
    int fitted;         /* 1: max_width is set */
    int max_width;
    int flits_at_max;
    char why[ERR_MSG_MAX];  /* reason when the budget is infeasible */
} cost_row;

static void usage(FILE *out)
{
    fprintf(out,
        "usage: dse cost [OPTIONS] DESIGN...\n"
        "\n"
        "Cost of each DESIGN at its own channel width and, when a budget is\n"
        "given, the widest channel the budget allows.  A DESIGN is canonical\n"
        "design text, one argument, e.g. 'topology=torus n=2 k=32 vcs=2'\n"
        "(keys: topology n k vcs buffer width m kn routing switching\n"
        "router_delay ejection; k=16x8 gives per-dimension radices).\n"
        "\n"
        "Costs (docs/models/cost.md; thesis eqs 4.11-4.15, 6.29-6.32):\n"
        "  bisection    wires crossing the cheapest cut that halves the nodes\n"
        "  node pins    wires of every network channel of the busiest node\n"
        "  ichg pins    the same for an express-cube interchange chip\n"
        "  total wires  all network channels x width (a count, not a length)\n"
        "  buffer bits  channel inputs x V x buffer depth x width\n"
        "  flits        message length ceil(message bits / width)\n"
        "\n"
        "options:\n"
        "  --technology vlsi|multichip  the budget's cost measure: bisection\n"
        "                        wires (vlsi, default) or pins per chip\n"
        "  --bisection-wires N   absolute VLSI budget (implies vlsi)\n"
        "  --pins N              absolute pins-per-chip budget (implies\n"
        "                        multichip)\n"
        "  --equal-to 'DESIGN'   budget = this reference design's cost at its\n"
        "                        width, e.g. 'topology=dcsh n=2 k=32 width=1'\n"
        "  --ceil                round the width up as the thesis does (4.13);\n"
        "                        the default rounds down, never exceeding the\n"
        "                        budget\n"
        "  --message-bits N      message size for the flits columns (128)\n"
        "  --json                print JSON instead of a table\n"
        "  -h, --help            this help\n"
        "\n"
        "A design the budget cannot fit (width < 1) is reported as infeasible\n"
        "with the reason; the exit status is still 0.  Bad input exits 2.\n"
        "\n"
        "example: the thesis's 1024-node comparison under equal pin-out:\n"
        "  dse cost --technology multichip \\\n"
        "      --equal-to 'topology=dcsh n=2 k=32 width=1' \\\n"
        "      'topology=torus n=2 k=32' 'topology=express n=2 k=32 m=1 kn=4'\n");
}

#define bad(...) dse_cli_bad("dse cost", __VA_ARGS__)

static int parse_number(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0)
        return bad("%s: expected a number >= 0, got \"%s\"", opt, s);
    *out = v;
    return 0;
}

static int parse_design(const char *what, const char *text, net_design *d)
{
    err e;
    err_clear(&e);
    net_design_init(d);
    if (net_design_parse(d, text, &e) || net_check(d, &e)) {
        fprintf(stderr, "dse cost: %s '%s': %s\n", what, text, e.msg);
        return 2;
    }
    return 0;
}

/* 0 and *argi set past the options, or the exit status (2, or 0 for
 * --help after printing it) with *argi = -1. */
static int parse_options(int argc, char **argv, cost_opts *o, int *argi)
{
    enum { OPT_TECH = 256, OPT_WIRES, OPT_PINS, OPT_EQUAL, OPT_CEIL,
           OPT_BITS, OPT_JSON };
    static const struct option longopts[] = {
        {"technology", required_argument, NULL, OPT_TECH},
        {"bisection-wires", required_argument, NULL, OPT_WIRES},
        {"pins", required_argument, NULL, OPT_PINS},
        {"equal-to", required_argument, NULL, OPT_EQUAL},
        {"ceil", no_argument, NULL, OPT_CEIL},
        {"message-bits", required_argument, NULL, OPT_BITS},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->technology = CONS_VLSI;
    o->rounding = CONS_ROUND_FLOOR;
    o->message_bits = 128;
    *argi = -1;
    opterr = 0;
    optind = 0;  /* glibc: full re-initialisation, should we run twice */
    int c, rc;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case OPT_TECH:
            if (cons_technology_parse(optarg, &o->technology))
                return bad("--technology: expected vlsi or multichip, got "
                           "\"%s\"", optarg);
            o->have_technology = 1;
            break;
        case OPT_WIRES:
            if ((rc = parse_number("--bisection-wires", optarg, &o->wires)))
                return rc;
            o->have_wires = 1;
            break;
        case OPT_PINS:
            if ((rc = parse_number("--pins", optarg, &o->pins)))
                return rc;
            o->have_pins = 1;
            break;
        case OPT_EQUAL:
            if ((rc = parse_design("reference design", optarg, &o->reference)))
                return rc;
            o->have_reference = 1;
            break;
        case OPT_CEIL:
            o->rounding = CONS_ROUND_CEIL;
            break;
        case OPT_BITS: {
            double v;
            if (parse_number("--message-bits", optarg, &v))
                return 2;
            if (v < 1 || v > 1 << 30 || v != floor(v))
                return bad("--message-bits: expected an integer >= 1, got "
                           "\"%s\"", optarg);
            o->message_bits = (int)v;
            break;
        }
        case OPT_JSON:
            o->json = 1;
            break;
        case ':':
            return bad("option %s needs a value", argv[optind - 1]);
        default:
            return bad("unknown option '%s' (see 'dse cost --help')",
                       argv[optind - 1]);
        }
    }
    if (o->have_wires + o->have_pins + o->have_reference > 1)
        return bad("give one budget: --bisection-wires, --pins or "
                   "--equal-to");
    if (o->have_wires) {
        if (o->have_technology && o->technology != CONS_VLSI)
            return bad("--bisection-wires is a vlsi budget, not %s",
                       cons_technology_name(o->technology));
        o->technology = CONS_VLSI;
    }
    if (o->have_pins) {
        if (o->have_technology && o->technology != CONS_MULTICHIP)
            return bad("--pins is a multichip budget, not %s",
                       cons_technology_name(o->technology));
        o->technology = CONS_MULTICHIP;
    }
    if (optind >= argc)
        return bad("no DESIGN given (see 'dse cost --help')");
    *argi = optind;
    return 0;
}

static int have_budget(const cost_opts *o)
{
    return o->have_wires || o->have_pins || o->have_reference;
}

static cons_budget make_budget(const cost_opts *o)
{
    cons_budget b;
    memset(&b, 0, sizeof b);
    b.technology = o->technology;
    b.rounding = o->rounding;
    b.limit = o->have_pins ? o->pins : o->wires;
    b.has_reference = o->have_reference;
    if (o->have_reference)
        b.reference = o->reference;
    return b;
}

static const char *unit_name(cons_technology t)
{
    return t == CONS_MULTICHIP ? "pins per chip" : "bisection wires";
}

/* Compact label for the table: topology, radices, express parameters, V,
 * buffer depth. */
static void design_label(const net_design *d, char *buf, size_t size)
{
    size_t used = 0;
    int k = net_uniform_radix(d);
    used += (size_t)snprintf(buf, size, "%s n=%d k=", net_topology_name(d->topology), d->n);
    if (k)
        used += (size_t)snprintf(buf + used, size > used ? size - used : 0, "%d", k);
    else
        for (int i = 0; i < d->n && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, i ? "x%d" : "%d", d->k[i]);
    if (used < size)
        used += (size_t)net_design_params_format(d, " ", buf + used,
                                                 size - used);
    if (used < size)
        snprintf(buf + used, size - used, " vcs=%d buf=%d", d->vcs,
                 d->buffer_flits);
}

static int flits_at(const net_design *d, int width, int message_bits)
{
    net_design w = *d;
    net_workload wl;
    net_workload_init(&wl);
    wl.message_bits = message_bits;
    w.width = width;
    return net_message_flits(&w, &wl);
}

/* ---- output -------------------------------------------------------------- */

#define NCOLS 11

static void print_table(const cost_opts *o, const cons_budget *b,
                        double limit, const cost_row *rows, int nrows)
{
    static const char *const head[NCOLS] = {
        "#", "design", "width", "bisection", "node pins", "ichg pins",
        "total wires", "buffer bits", "flits", "max width", "flits@max"};
    int ncols = have_budget(o) ? NCOLS : NCOLS - 2;
    if (have_budget(o)) {
        printf("budget: %s, %.15g %s", cons_technology_name(b->technology),
               limit, unit_name(b->technology));
        if (b->has_reference) {
            char ref[DESIGN_TEXT_MAX];
            net_design_format(&b->reference, ref, sizeof ref);
            printf(" (cost of the reference: %s)", ref);
        }
        printf(", rounding %s\n",
               b->rounding == CONS_ROUND_CEIL ? "ceil (thesis)" : "floor");
    }
    printf("message: %d bits\n\n", o->message_bits);

    char(*cell)[NCOLS][DESIGN_TEXT_MAX] = xcalloc((size_t)nrows + 1, sizeof *cell);
    int wcol[NCOLS];
    for (int c = 0; c < ncols; c++)
        snprintf(cell[0][c], DESIGN_TEXT_MAX, "%s", head[c]);
    for (int r = 0; r < nrows; r++) {
        const cost_row *x = &rows[r];
        char (*row)[DESIGN_TEXT_MAX] = cell[r + 1];
        snprintf(row[0], DESIGN_TEXT_MAX, "%d", r + 1);
        design_label(&x->d, row[1], DESIGN_TEXT_MAX);
        snprintf(row[2], DESIGN_TEXT_MAX, "%d", x->d.width);
        snprintf(row[3], DESIGN_TEXT_MAX, "%.15g", x->cost.bisection_wires);
        snprintf(row[4], DESIGN_TEXT_MAX, "%.15g", x->cost.node_pins);
        if (cons_has_interchanges(x->d.topology))
            snprintf(row[5], DESIGN_TEXT_MAX, "%.15g", x->cost.interchange_pins);
        else
            snprintf(row[5], DESIGN_TEXT_MAX, "-");
        snprintf(row[6], DESIGN_TEXT_MAX, "%.15g", x->cost.total_wires);
        snprintf(row[7], DESIGN_TEXT_MAX, "%.15g", x->cost.buffer_bits);
        snprintf(row[8], DESIGN_TEXT_MAX, "%d", x->flits);
        if (x->fitted) {
            snprintf(row[9], DESIGN_TEXT_MAX, "%d", x->max_width);
            snprintf(row[10], DESIGN_TEXT_MAX, "%d", x->flits_at_max);
        } else {
            snprintf(row[9], DESIGN_TEXT_MAX, "infeasible");
            snprintf(row[10], DESIGN_TEXT_MAX, "-");
        }
    }
    for (int c = 0; c < ncols; c++) {
        wcol[c] = 0;
        for (int r = 0; r <= nrows; r++) {
            int len = (int)strlen(cell[r][c]);
            if (len > wcol[c])
                wcol[c] = len;
        }
    }
    for (int r = 0; r <= nrows; r++) {
        for (int c = 0; c < ncols; c++) {
            /* text columns left-aligned, numbers right-aligned */
            if (c == 1)
                printf("%-*s", wcol[c], cell[r][c]);
            else
                printf("%*s", wcol[c], cell[r][c]);
            printf(c + 1 < ncols ? "  " : "\n");
        }
    }
    free(cell);

    printf("\n");
    for (int r = 0; r < nrows; r++) {
        char text[DESIGN_TEXT_MAX];
        net_design_format(&rows[r].d, text, sizeof text);
        printf("#%d: %s\n", r + 1, text);
    }
    int notes = 0;
    for (int r = 0; r < nrows; r++)
        if (have_budget(o) && !rows[r].fitted) {
            if (!notes++)
                printf("\n");
            printf("#%d infeasible: %s\n", r + 1, rows[r].why);
        }
}

/* An integer-valued cost as a JSON integer, anything else as a real. */
static json_t *json_num(double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static void print_json(const cost_opts *o, const cons_budget *b, double limit,
                       const cost_row *rows, int nrows)
{
    json_t *root = json_object();
    json_object_set_new(root, "message_bits", json_integer(o->message_bits));
    if (have_budget(o)) {
        json_t *jb = json_object();
        json_object_set_new(jb, "technology",
                            json_string(cons_technology_name(b->technology)));
        json_object_set_new(jb, "limit", json_num(limit));
        json_object_set_new(jb, "unit", json_string(unit_name(b->technology)));
        json_object_set_new(jb, "rounding",
                            json_string(b->rounding == CONS_ROUND_CEIL ? "ceil"
                                                                       : "floor"));
        if (b->has_reference) {
            char ref[DESIGN_TEXT_MAX];
            net_design_format(&b->reference, ref, sizeof ref);
            json_object_set_new(jb, "reference", json_string(ref));
        }
        json_object_set_new(root, "budget", jb);
    } else {
        json_object_set_new(root, "budget", json_null());
    }
    json_t *arr = json_array();
    for (int r = 0; r < nrows; r++) {
        const cost_row *x = &rows[r];
        char text[DESIGN_TEXT_MAX];
        net_design_format(&x->d, text, sizeof text);
        json_t *j = json_object();
        json_object_set_new(j, "design", json_string(text));
        json_object_set_new(j, "width", json_integer(x->d.width));
        json_object_set_new(j, "bisection_wires", json_num(x->cost.bisection_wires));
        json_object_set_new(j, "cut_dim", json_integer(x->counts.cut_dim));
        json_object_set_new(j, "exact_halves", json_boolean(x->counts.exact_halves));
        json_object_set_new(j, "node_pins", json_num(x->cost.node_pins));
        json_object_set_new(j, "interchange_pins", json_num(x->cost.interchange_pins));
        json_object_set_new(j, "max_pins", json_num(x->cost.max_pins));
        json_object_set_new(j, "total_wires", json_num(x->cost.total_wires));
        json_object_set_new(j, "buffer_bits", json_num(x->cost.buffer_bits));
        json_object_set_new(j, "flits", json_integer(x->flits));
        if (have_budget(o)) {
            json_object_set_new(j, "max_width",
                                x->fitted ? json_integer(x->max_width) : json_null());
            json_object_set_new(j, "flits_at_max_width",
                                x->fitted ? json_integer(x->flits_at_max)
                                          : json_null());
            if (!x->fitted)
                json_object_set_new(j, "infeasible", json_string(x->why));
        }
        json_array_append_new(arr, j);
    }
    json_object_set_new(root, "designs", arr);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (s)
        printf("%s\n", s);
    free(s);
    json_decref(root);
}

/* ---- the command --------------------------------------------------------- */

int dse_cmd_cost(int argc, char **argv)
{
    cost_opts o;
    int argi, rc;
    if ((rc = parse_options(argc, argv, &o, &argi)) || argi < 0)
        return rc;

    cons_budget b = make_budget(&o);
    double limit = 0;
    err e;
    err_clear(&e);
    if (have_budget(&o) && cons_budget_limit(&b, &limit, &e)) {
        fprintf(stderr, "dse cost: budget: %s\n", e.msg);
        return 2;
    }

    int nrows = argc - argi;
    cost_row *rows = xcalloc((size_t)nrows, sizeof *rows);
    for (int r = 0; r < nrows; r++) {
        cost_row *x = &rows[r];
        if ((rc = parse_design("design", argv[argi + r], &x->d)))
            goto out;
        err_clear(&e);
        if (cons_counts_of(&x->d, &x->counts, &e) ||
            cons_cost_of(&x->d, &x->cost, &e)) {
            rc = bad("design '%s': %s", argv[argi + r], e.msg);
            goto out;
        }
        x->flits = flits_at(&x->d, x->d.width, o.message_bits);
        if (!have_budget(&o))
            continue;
        err_clear(&e);
        int r2 = cons_max_width(&x->d, &b, &x->max_width, &e);
        if (r2 == 0) {
            x->fitted = 1;
            x->flits_at_max = flits_at(&x->d, x->max_width, o.message_bits);
        } else if (r2 == ERR_INFEASIBLE) {
            snprintf(x->why, sizeof x->why, "%s", e.msg);
        } else {
            rc = bad("design '%s': %s", argv[argi + r], e.msg);
            goto out;
        }
    }
    if (o.json)
        print_json(&o, &b, limit, rows, nrows);
    else
        print_table(&o, &b, limit, rows, nrows);
    rc = 0;
out:
    free(rows);
    return rc;
}

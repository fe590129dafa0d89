/*
 * cfg.c — the study schema: a study file (docs/config.md) read into a
 * validated cfg_study.
 *
 * One function per section of the file (read_budget, read_traffic,
 * read_space, ...), each checking its mapping's keys as a set first (so a
 * typo is reported as "unknown key ... did you mean" before any value is
 * read), then reading each key with the typed getters of cfg_yaml.c, then
 * the consistency rules that tie its values to the rest of the study.
 * Sections are read in dependency order, not file order: nodes and
 * technology first, because the budget, the traffic's hot-spot node and
 * the design space are checked against them.
 *
 * Invariants on success: every field of cfg_study holds a valid value (the
 * file's or the default), every list is non-empty and duplicate-free, and
 * every topology the file names explicitly can hold `nodes` nodes with some
 * dimension of the space.  Designs that are merely infeasible (too few VCs,
 * a width below 1, ...) are not errors: the design space (space.c) drops and
 * counts them.
 *
 * Errors are ERR_CONFIG with file, line, column and YAML path; the study is
 * reset to its defaults on failure so callers never see half a study.
 */
#include "dse/study/cfg_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/xalloc.h"

#define TRY(x)                                                               \
    do {                                                                     \
        int rc_ = (x);                                                       \
        if (rc_)                                                             \
            return rc_;                                                      \
    } while (0)

/* ---- names -------------------------------------------------------------- */

#define NAME_(e, name, ...) name,
static const char *const routing_names[] = {CFG_ROUTING_LIST(NAME_)};
static const char *const cost_names[] = {CFG_COST_LIST(NAME_)};
static const char *const search_names[] = {CFG_SEARCH_LIST(NAME_)};
static const char *const format_names[] = {CFG_FORMAT_LIST(NAME_)};
static const char *const topology_names[] = {NET_TOPOLOGY_LIST(NAME_)};
static const char *const traffic_names[] = {NET_TRAFFIC_LIST(NAME_)};
static const char *const length_names[] = {NET_LENGTH_LIST(NAME_)};
#undef NAME_
#define FILE_(e, name, file) file,
static const char *const format_files[] = {CFG_FORMAT_LIST(FILE_)};
#undef FILE_
#define ROUTE_(e, name, r, s) r,
static const net_routing scheme_routing[] = {CFG_ROUTING_LIST(ROUTE_)};
#undef ROUTE_
#define SWITCH_(e, name, r, s) s,
static const net_switching scheme_switching[] = {CFG_ROUTING_LIST(SWITCH_)};
#undef SWITCH_

/* Indexed by cons_technology, cons_rounding and model_variant. */
static const char *const technology_names[] = {"vlsi", "multichip"};
static const char *const rounding_names[] = {"floor", "ceil"};
static const char *const variant_names[] = {"recommended", "printed",
                                             "corrected"};
/* Indices: 0 latency, 1 saturation, 2 cost (the technology's own), 3 ..
 * 3 + CFG_COST_COUNT - 1 the cost metrics, then the latency percentiles
 * in cfg_latency_stat order from CFG_LAT_P50. */
static const char *const objective_names[] = {
    "latency",     "saturation",  "cost",        "cost(bisection)",
    "cost(pins)",  "cost(wires)", "cost(buffer_bits)",
    "cost(crossbar_area)", "cost(wire_length)",
    "p50_latency", "p95_latency", "p99_latency"};
enum { OBJ_PERCENTILE0 = 3 + CFG_COST_COUNT };
static const char *const stat_names[] = {"mean", "p50", "p95", "p99"};

#define COUNT_(a) (sizeof(a) / sizeof((a)[0]))

const char *cfg_routing_name(cfg_routing r)
{
    return (unsigned)r < CFG_ROUTING_COUNT ? routing_names[r] : "?";
}

void cfg_routing_apply(cfg_routing r, net_design *d)
{
    if ((unsigned)r >= CFG_ROUTING_COUNT)
        return;
    d->routing = scheme_routing[r];
    d->switching = scheme_switching[r];
}

int cfg_routing_applies(cfg_routing r, net_topology topology, int n)
{
    const net_topology_info *t = net_topology_get(topology);
    if (!t)
        return 0;
    net_design d;
    net_design_init(&d);
    d.topology = topology;
    net_design_set_radix(&d, n, t->fixed_radix ? t->fixed_radix : 4);
    cfg_routing_apply(r, &d);
    return net_routing_applies(&d);
}

const char *cfg_cost_name(cfg_cost_metric c)
{
    return (unsigned)c < CFG_COST_COUNT ? cost_names[c] : "?";
}

const char *cfg_objective_name(const cfg_objective *o)
{
    switch (o->kind) {
    case CFG_OBJ_LATENCY:
        if (o->stat > CFG_LAT_MEAN && o->stat <= CFG_LAT_P99)
            return objective_names[OBJ_PERCENTILE0 + o->stat - CFG_LAT_P50];
        return o->stat == CFG_LAT_MEAN ? "latency" : "?";
    case CFG_OBJ_SATURATION: return "saturation";
    case CFG_OBJ_COST:
        if ((unsigned)o->cost < CFG_COST_COUNT)
            return objective_names[3 + o->cost];
        break;
    }
    return "?";
}

const char *cfg_latency_stat_name(cfg_latency_stat st)
{
    return (unsigned)st < COUNT_(stat_names) ? stat_names[st] : "?";
}

/* objective_names[i] as an objective ("cost": the technology's own). */
static cfg_objective objective_at(size_t i, cfg_cost_metric own)
{
    cfg_objective o = {CFG_OBJ_COST, own, 0, CFG_LAT_MEAN};
    if (i == 0)
        o.kind = CFG_OBJ_LATENCY;
    else if (i == 1)
        o = (cfg_objective){CFG_OBJ_SATURATION, own, 1, CFG_LAT_MEAN};
    else if (i >= OBJ_PERCENTILE0) {
        o.kind = CFG_OBJ_LATENCY;
        o.stat = (cfg_latency_stat)(CFG_LAT_P50 + (i - OBJ_PERCENTILE0));
    } else if (i >= 3)
        o.cost = (cfg_cost_metric)(i - 3);
    return o;
}

int cfg_objective_parse(const char *name, cfg_cost_metric own,
                        cfg_objective *o)
{
    for (size_t i = 0; i < COUNT_(objective_names); i++)
        if (strcmp(objective_names[i], name) == 0) {
            *o = objective_at(i, own);
            return 0;
        }
    return -1;
}

cfg_latency_stat cfg_rank_stat(const cfg_study *s)
{
    for (size_t j = 0; j < s->nobjectives; j++)
        if (s->objectives[j].kind == CFG_OBJ_LATENCY)
            return s->objectives[j].stat;
    return CFG_LAT_MEAN;
}

const char *cfg_search_name(cfg_search s)
{
    return (unsigned)s < CFG_SEARCH_COUNT ? search_names[s] : "?";
}

const char *cfg_format_name(cfg_format f)
{
    return (unsigned)f < CFG_FORMAT_COUNT ? format_names[f] : "?";
}

const char *cfg_format_file(cfg_format f)
{
    return (unsigned)f < CFG_FORMAT_COUNT ? format_files[f] : "?";
}

/* ---- init / fini -------------------------------------------------------- */

static void ints_set(cfg_ints *l, const int *v, size_t n)
{
    free(l->v);
    l->v = xmalloc(n * sizeof *v);
    memcpy(l->v, v, n * sizeof *v);
    l->n = n;
}

static void ints_free(cfg_ints *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void cfg_study_init(cfg_study *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "study");
    s->nodes = 0;
    s->budget.technology = CONS_VLSI;
    s->budget.limit = 0;
    s->budget.has_reference = 0;
    net_design_init(&s->budget.reference);
    s->budget.rounding = CONS_ROUND_FLOOR;
    net_workload_init(&s->workload);
    s->workload.hotspot_fraction = 0.1;
    s->workload.broadcast_fraction = 0.05;
    s->router_delay = 1;
    phys_timing_defaults(&s->router);
    s->ejection_channels = 1;

    s->rates.v = xmalloc(sizeof *s->rates.v);
    s->rates.v[0] = 0.001;
    s->rates.n = 1;

    cfg_space *sp = &s->space;
    sp->ntopologies = 0;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
        if (net_topology_get((net_topology)t)->study_default)
            sp->topologies[sp->ntopologies++] = (net_topology)t;
    static const int dims[] = {2, 3, 4}, vcs[] = {1, 2, 3, 4, 5, 6},
                     buffer[] = {1};
    ints_set(&sp->dimensions, dims, COUNT_(dims));
    ints_set(&sp->vcs, vcs, COUNT_(vcs));
    ints_set(&sp->buffer_flits, buffer, COUNT_(buffer));
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        const net_param_info *info = net_param_get((net_param)p);
        ints_set(&sp->params[p], info->defaults, info->ndefaults);
    }
    sp->routings_all = 1;
    for (int r = 0; r < CFG_ROUTING_COUNT; r++)
        sp->routings[r] = (cfg_routing)r;
    sp->nroutings = CFG_ROUTING_COUNT;
    sp->mixed_radices = 0;
    sp->require_model = 0;

    s->objectives[0] =
        (cfg_objective){CFG_OBJ_LATENCY, CFG_COST_BISECTION, 0, CFG_LAT_MEAN};
    s->objectives[1] =
        (cfg_objective){CFG_OBJ_SATURATION, CFG_COST_BISECTION, 1, CFG_LAT_MEAN};
    /* Equal cost is a constraint (the budget gives every design the widest
     * channel it allows), not an objective: as an objective it rewarded
     * designs that leave budget unused.  `cost` stays available. */
    s->nobjectives = 2;
    s->finalists = 5;
    s->search = CFG_SEARCH_AUTO;
    s->sim.seeds = 3;
    s->sim.warmup_messages = 20000;
    s->sim.measured_messages = 100000;
    s->sim.ci_half_width = 0.02;
    s->sim.max_cycles = 10000000;
    s->sim.threads = 0;
    s->sim.tolerance_pct = 10;
    s->sim.max_designs = 32;
    model_opts_init(&s->model);
    for (int f = 0; f < CFG_FORMAT_COUNT; f++)
        s->formats[f] = 1;
}

void cfg_study_fini(cfg_study *s)
{
    if (!s)
        return;
    free(s->rates.v);
    ints_free(&s->space.dimensions);
    ints_free(&s->space.vcs);
    ints_free(&s->space.buffer_flits);
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        ints_free(&s->space.params[p]);
    memset(s, 0, sizeof *s);
}

void cfg_study_design_base(const cfg_study *s, net_design *d)
{
    net_design_init(d);
    d->router_delay = s->router_delay;
    d->ejection_channels = s->ejection_channels;
}

/* ---- small helpers ------------------------------------------------------ */

/* Optional integer key into an int field. */
static int opt_int(cfg_doc *c, yaml_node_t *map, const char *parent,
                   const char *key, long lo, long hi, int *out)
{
    yaml_node_t *v = cfg__map_get(c, map, key);
    if (!v)
        return 0;
    char path[ERR_PATH_MAX];
    long x;
    cfg__path_key(path, parent, key);
    TRY(cfg__get_int(c, v, path, lo, hi, &x));
    *out = (int)x;
    return 0;
}

static int opt_long(cfg_doc *c, yaml_node_t *map, const char *parent,
                    const char *key, long lo, long hi, long *out)
{
    yaml_node_t *v = cfg__map_get(c, map, key);
    if (!v)
        return 0;
    char path[ERR_PATH_MAX];
    cfg__path_key(path, parent, key);
    return cfg__get_int(c, v, path, lo, hi, out);
}

static int opt_name(cfg_doc *c, yaml_node_t *map, const char *parent,
                    const char *key, const char *what,
                    const char *const *names, size_t count, int *out)
{
    yaml_node_t *v = cfg__map_get(c, map, key);
    if (!v)
        return 0;
    char path[ERR_PATH_MAX];
    cfg__path_key(path, parent, key);
    return cfg__get_name(c, v, path, what, names, count, out);
}

/* Replace *l by the list at `key` when the key is present. */
static int opt_ints(cfg_doc *c, yaml_node_t *map, const char *parent,
                    const char *key, long lo, long hi, cfg_ints *l)
{
    yaml_node_t *v = cfg__map_get(c, map, key);
    if (!v)
        return 0;
    char path[ERR_PATH_MAX];
    cfg_ints fresh = {NULL, 0};
    cfg__path_key(path, parent, key);
    int rc = cfg__get_ints(c, v, path, lo, hi, &fresh);
    if (rc) {
        ints_free(&fresh);
        return rc;
    }
    ints_free(l);
    *l = fresh;
    return 0;
}

static int is_pow2(long x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/* "two" for 2 (as the messages read), else the digits. */
static const char *power_word(int radix, char buf[16])
{
    if (radix == 2)
        return "two";
    snprintf(buf, 16, "%d", radix);
    return buf;
}

/* The integer k with k^n == nodes, or 0. */
static long int_root(long nodes, int n)
{
    long k = lround(pow((double)nodes, 1.0 / n));
    for (long cand = k > 1 ? k - 1 : 1; cand <= k + 1; cand++) {
        long p = 1;
        int i;
        for (i = 0; i < n && p <= nodes; i++)
            p *= cand;
        if (i == n && p == nodes)
            return cand;
    }
    return 0;
}

/* 1 if nodes = product of n factors, each >= min_k. */
static int has_factorisation(long nodes, int n, long min_k)
{
    if (n == 1)
        return nodes >= min_k;
    /* factors in non-decreasing order: the smallest is at most N^(1/n) */
    for (long f = min_k; pow((double)f, n) <= (double)nodes * (1 + 1e-12);
         f++)
        if (nodes % f == 0 && has_factorisation(nodes / f, n - 1, f))
            return 1;
    return 0;
}

/* ---- sections ----------------------------------------------------------- */

static int read_name(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    yaml_node_t *v = cfg__map_get(c, root, "study");
    if (!v)
        return 0;
    TRY(cfg__get_string(c, v, "study", s->name, sizeof s->name));
    for (const char *p = s->name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
              *p == '.'))
            return cfg__fail(c, v, "study",
                             "a study name may hold letters, digits, '_', "
                             "'-' and '.' only, got \"%s\"",
                             s->name);
    return 0;
}

/* Default study name: the base name of the file without its extension,
 * other characters than [A-Za-z0-9_.-] replaced by '_'. */
static void default_name(cfg_study *s, const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t len = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        len = (size_t)(dot - base);
    if (len == 0 || len >= sizeof s->name) {
        snprintf(s->name, sizeof s->name, "study");
        return;
    }
    for (size_t i = 0; i < len; i++) {
        char ch = base[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
                 ch == '.';
        s->name[i] = ok ? ch : '_';
    }
    s->name[len] = '\0';
}

static int read_reference(cfg_doc *c, yaml_node_t *node, const char *path,
                          cfg_study *s)
{
    const char *keys[4 + NET_PARAM_COUNT + 1] = {"topology", "n", "k",
                                                 "width"};
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        keys[4 + p] = net_param_get((net_param)p)->study_key;
    keys[4 + NET_PARAM_COUNT] = NULL;
    char sub[ERR_PATH_MAX];
    TRY(cfg__map_check(c, node, path, keys));
    net_design *d = &s->budget.reference;
    net_design_init(d);
    yaml_node_t *nt = cfg__map_get(c, node, "topology");
    if (!nt)
        return cfg__fail(c, node, path, "missing required key 'topology'");
    int t;
    cfg__path_key(sub, path, "topology");
    TRY(cfg__get_name(c, nt, sub, "topology", topology_names,
                      NET_TOPOLOGY_COUNT, &t));
    d->topology = (net_topology)t;

    yaml_node_t *nn = cfg__map_get(c, node, "n");
    yaml_node_t *nk = cfg__map_get(c, node, "k");
    int n = 0;
    if (nn) {
        long x;
        cfg__path_key(sub, path, "n");
        TRY(cfg__get_int(c, nn, sub, 1, NET_MAX_DIMS, &x));
        n = (int)x;
    }
    int radices[NET_MAX_DIMS], nradices = 0;
    if (nk) {
        cfg__path_key(sub, path, "k");
        if (nk->type == YAML_SEQUENCE_NODE) {
            if (cfg__seq_len(nk) == 0)
                return cfg__fail(c, nk, sub,
                                 "empty list (give one radix per dimension)");
            if (cfg__seq_len(nk) > NET_MAX_DIMS)
                return cfg__fail(c, nk, sub, "more than %d radices",
                                 NET_MAX_DIMS);
            for (size_t i = 0; i < cfg__seq_len(nk); i++) {
                char item[ERR_PATH_MAX];
                long x;
                cfg__path_index(item, sub, i);
                TRY(cfg__get_int(c, cfg__seq_item(c, nk, i), item, 2,
                                 NET_MAX_NODES, &x));
                radices[nradices++] = (int)x;
            }
            if (nn && n != nradices)
                return cfg__fail(c, nn, path,
                                 "n = %d but k lists %d radices", n, nradices);
            n = nradices;
        } else {
            long x;
            TRY(cfg__get_int(c, nk, sub, 2, NET_MAX_NODES, &x));
            radices[0] = (int)x;
            nradices = 1;
        }
    }
    int fixed = net_topology_get(d->topology)->fixed_radix;
    if (fixed) {
        char word[16];
        for (int i = 0; i < nradices; i++)
            if (radices[i] != fixed)
                return cfg__fail(c, nk, sub, "a %s has radix %d, not %d",
                                 topology_names[d->topology], fixed,
                                 radices[i]);
        if (!n) {
            n = net_topology_fixed_dims(d->topology, s->nodes);
            if (n < 1)
                return cfg__fail(c, node, path,
                                 "give n: %ld nodes is not a power of %s",
                                 s->nodes, power_word(fixed, word));
        }
        net_design_set_radix(d, n, fixed);
    } else {
        if (!nk)
            return cfg__fail(c, node, path, "missing required key 'k'");
        if (!n)
            return cfg__fail(c, node, path,
                             "missing required key 'n' (or give k as a "
                             "list of radices)");
        if (nradices == 1)
            net_design_set_radix(d, n, radices[0]);
        else
            for (int i = 0; i < n; i++)
                d->k[i] = radices[i];
        d->n = n;
    }
    TRY(opt_int(c, node, path, "width", 1, 1 << 24, &d->width));
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        const net_param_info *info = net_param_get((net_param)p);
        int v = net_param_value(d, (net_param)p);
        TRY(opt_int(c, node, path, info->study_key, info->study_lo,
                    info->study_hi, &v));
        net_param_set_value(d, (net_param)p, v);
    }
    /* the reference is costed, not routed: any deadlock-free routing */
    d->routing = NET_ROUTE_DETERMINISTIC;
    d->switching = NET_SWITCH_WORMHOLE;
    int min_vcs = net_min_vcs(d);
    d->vcs = min_vcs > 0 ? min_vcs : 1;
    err why;
    err_clear(&why);
    if (net_check(d, &why))
        return cfg__fail(c, node, path, "invalid reference design: %s",
                         why.msg);
    if (net_nodes(d) != s->nodes)
        return cfg__fail(c, node, path,
                         "the reference design has %ld nodes, the study %ld",
                         net_nodes(d), s->nodes);
    return 0;
}

/* budget.area: {buffer_bits, crossbar_area, wire_length}, each optional,
 * each a positive bound (cfg.h, cfg_area_budget). */
static int read_area(cfg_doc *c, yaml_node_t *b, cfg_study *s)
{
    static const char *const keys[] = {"buffer_bits", "crossbar_area",
                                       "wire_length", NULL};
    yaml_node_t *a = cfg__map_get(c, b, "area");
    if (!a)
        return 0;
    if (s->budget.technology != CONS_VLSI)
        return cfg__fail(c, cfg__map_key(c, b, "area"), "budget.area",
                         "an area budget is for a single chip (technology: "
                         "vlsi)");
    TRY(cfg__map_check(c, a, "budget.area", keys));
    double *slot[] = {&s->area.buffer_bits, &s->area.crossbar_area,
                      &s->area.wire_length};
    int any = 0;
    for (int i = 0; keys[i]; i++) {
        yaml_node_t *v = cfg__map_get(c, a, keys[i]);
        if (!v)
            continue;
        char path[ERR_PATH_MAX];
        cfg__path_key(path, "budget.area", keys[i]);
        TRY(cfg__get_real(c, v, path, "an area", 0, INFINITY, 1, slot[i]));
        any = 1;
    }
    if (!any)
        return cfg__fail(c, a, "budget.area",
                         "give at least one of buffer_bits, crossbar_area, "
                         "wire_length");
    return 0;
}

static int read_budget(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"bisection_wires", "pins_per_node",
                                       "equal_to", "rounding", "area", NULL};
    static const char *const kinds[] = {"bisection_wires", "pins_per_node",
                                        "equal_to"};
    yaml_node_t *b = cfg__map_get(c, root, "budget");
    if (!b)
        return cfg__fail(c, root, "", "missing required key 'budget'");
    TRY(cfg__map_check(c, b, "budget", keys));
    int rounding = CONS_ROUND_FLOOR;
    TRY(opt_name(c, b, "budget", "rounding", "rounding", rounding_names,
                 COUNT_(rounding_names), &rounding));
    s->budget.rounding = (cons_rounding)rounding;
    TRY(read_area(c, b, s));

    int given = -1;
    for (int i = 0; i < 3; i++) {
        yaml_node_t *k = cfg__map_key(c, b, kinds[i]);
        if (!k)
            continue;
        if (given >= 0)
            return cfg__fail(c, k, "budget",
                             "give only one of bisection_wires, "
                             "pins_per_node and equal_to ('%s' and '%s' are "
                             "both given)",
                             kinds[given], kinds[i]);
        given = i;
    }
    if (given < 0)
        return cfg__fail(c, b, "budget",
                         "the budget needs one of bisection_wires, "
                         "pins_per_node or equal_to");
    yaml_node_t *key = cfg__map_key(c, b, kinds[given]);
    yaml_node_t *val = cfg__map_get(c, b, kinds[given]);
    char path[ERR_PATH_MAX];
    cfg__path_key(path, "budget", kinds[given]);
    if (given == 0 && s->budget.technology != CONS_VLSI)
        return cfg__fail(c, key, "budget",
                         "bisection_wires is a VLSI budget, but the "
                         "technology is multichip (use pins_per_node)");
    if (given == 1 && s->budget.technology != CONS_MULTICHIP)
        return cfg__fail(c, key, "budget",
                         "pins_per_node is a multichip budget, but the "
                         "technology is vlsi (use bisection_wires)");
    if (given == 2) {
        s->budget.has_reference = 1;
        return read_reference(c, val, path, s);
    }
    s->budget.has_reference = 0;
    return cfg__get_real(c, val, path, given == 0 ? "a number of wires"
                                                  : "a number of pins",
                         0, INFINITY, 1, &s->budget.limit);
}

static int read_message(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"bits", "length", NULL};
    yaml_node_t *m = cfg__map_get(c, root, "message");
    if (!m)
        return 0;
    TRY(cfg__map_check(c, m, "message", keys));
    TRY(opt_int(c, m, "message", "bits", 1, 1L << 30,
                &s->workload.message_bits));
    int len = s->workload.length;
    TRY(opt_name(c, m, "message", "length", "length distribution",
                 length_names, NET_LENGTH_COUNT, &len));
    s->workload.length = (net_length_dist)len;
    return 0;
}

static int read_traffic(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"pattern", "theta", "hotspot_node",
                                       "beta", NULL};
    yaml_node_t *t = cfg__map_get(c, root, "traffic");
    net_workload *w = &s->workload;
    if (!t)
        return 0;
    int pattern = w->traffic;
    yaml_node_t *at = t;
    if (t->type == YAML_SCALAR_NODE) {
        /* shorthand: "traffic: uniform" */
        TRY(cfg__get_name(c, t, "traffic", "traffic pattern", traffic_names,
                          NET_TRAFFIC_COUNT, &pattern));
    } else {
        TRY(cfg__map_check(c, t, "traffic", keys));
        TRY(opt_name(c, t, "traffic", "pattern", "traffic pattern",
                     traffic_names, NET_TRAFFIC_COUNT, &pattern));
        if (cfg__map_get(c, t, "pattern"))
            at = cfg__map_get(c, t, "pattern");
        struct {
            const char *key;
            net_traffic only;
        } const owned[] = {{"theta", NET_TRAFFIC_HOTSPOT},
                           {"hotspot_node", NET_TRAFFIC_HOTSPOT},
                           {"beta", NET_TRAFFIC_BROADCAST}};
        for (size_t i = 0; i < COUNT_(owned); i++) {
            yaml_node_t *k = cfg__map_key(c, t, owned[i].key);
            if (k && pattern != (int)owned[i].only)
                return cfg__fail(c, k, "traffic",
                                 "'%s' applies to %s traffic only (the "
                                 "pattern is %s)",
                                 owned[i].key, traffic_names[owned[i].only],
                                 traffic_names[pattern]);
        }
        yaml_node_t *v;
        if ((v = cfg__map_get(c, t, "theta")))
            TRY(cfg__get_real(c, v, "traffic.theta", "a fraction", 0, 1, 0,
                              &w->hotspot_fraction));
        if ((v = cfg__map_get(c, t, "beta")))
            TRY(cfg__get_real(c, v, "traffic.beta", "a fraction", 0, 1, 0,
                              &w->broadcast_fraction));
        TRY(opt_long(c, t, "traffic", "hotspot_node", -1, s->nodes - 1,
                     &w->hotspot_node));
    }
    w->traffic = (net_traffic)pattern;
    if ((w->traffic == NET_TRAFFIC_BIT_REVERSAL ||
         w->traffic == NET_TRAFFIC_SHUFFLE) &&
        !is_pow2(s->nodes))
        return cfg__fail(c, at, t == at ? "traffic" : "traffic.pattern",
                         "%s traffic needs a power-of-two node count, not %ld",
                         traffic_names[pattern], s->nodes);
    return 0;
}

static int read_rates(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    yaml_node_t *v = cfg__map_get(c, root, "rates");
    if (!v)
        return 0;
    cfg_reals fresh = {NULL, 0};
    int rc = cfg__get_reals(c, v, "rates", "a rate", 0, 1, 1, &fresh);
    if (rc) {
        free(fresh.v);
        return rc;
    }
    free(s->rates.v);
    s->rates = fresh;
    return 0;
}

/* A list of names: "all", one name, or a sequence of distinct names.
 * Returns the count in *n (names[] in order) and 1 in *all for "all". */
static int read_name_list(cfg_doc *c, yaml_node_t *node, const char *path,
                          const char *what, const char *const *names,
                          size_t count, int *out, size_t *n, int *all)
{
    char sub[ERR_PATH_MAX];
    *all = 0;
    *n = 0;
    if (node->type == YAML_SCALAR_NODE &&
        node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
        strcmp(cfg__text(node), "all") == 0) {
        *all = 1;
        for (size_t i = 0; i < count; i++)
            out[(*n)++] = (int)i;
        return 0;
    }
    if (node->type != YAML_SEQUENCE_NODE) {
        TRY(cfg__get_name(c, node, path, what, names, count, &out[0]));
        *n = 1;
        return 0;
    }
    if (cfg__seq_len(node) == 0)
        return cfg__fail(c, node, path,
                         "empty list (give at least one %s, or all)", what);
    for (size_t i = 0; i < cfg__seq_len(node); i++) {
        yaml_node_t *item = cfg__seq_item(c, node, i);
        int idx;
        cfg__path_index(sub, path, i);
        TRY(cfg__get_name(c, item, sub, what, names, count, &idx));
        for (size_t j = 0; j < *n; j++)
            if (out[j] == idx)
                return cfg__fail(c, item, sub, "duplicate %s '%s'", what,
                                 names[idx]);
        out[(*n)++] = idx;
    }
    return 0;
}

/* Can `topology` hold `nodes` nodes with one of the space's dimensions? */
static int topology_fits(const cfg_study *s, net_topology t)
{
    const net_topology_info *info = net_topology_get(t);
    if (info->fixed_radix)
        return net_topology_fixed_dims(t, s->nodes) >= 1;
    long min_k = info->min_radix;
    for (size_t i = 0; i < s->space.dimensions.n; i++) {
        int n = s->space.dimensions.v[i];
        if (s->space.mixed_radices) {
            if (has_factorisation(s->nodes, n, min_k))
                return 1;
        } else if (int_root(s->nodes, n) >= min_k) {
            return 1;
        }
    }
    return 0;
}

static int read_space(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    /* the order the "expected one of" message lists them in: the
     * topologies' own parameters after the axes every topology has */
    const char *keys[7 + NET_PARAM_COUNT + 1] = {
        "topologies", "dimensions", "mixed_radices", "routings",
        "vcs",        "buffer_flits"};
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        keys[6 + p] = net_param_get((net_param)p)->study_key;
    keys[6 + NET_PARAM_COUNT] = "require_model";
    keys[7 + NET_PARAM_COUNT] = NULL;
    yaml_node_t *sp = cfg__map_get(c, root, "space");
    cfg_space *q = &s->space;
    if (!sp)
        return 0;
    TRY(cfg__map_check(c, sp, "space", keys));
    TRY(opt_ints(c, sp, "space", "dimensions", 1, NET_MAX_DIMS,
                 &q->dimensions));
    TRY(opt_ints(c, sp, "space", "vcs", 1, 64, &q->vcs));
    TRY(opt_ints(c, sp, "space", "buffer_flits", 1, 1024, &q->buffer_flits));
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        const net_param_info *info = net_param_get((net_param)p);
        TRY(opt_ints(c, sp, "space", info->study_key, info->study_lo,
                     info->study_hi, &q->params[p]));
    }
    yaml_node_t *v;
    if ((v = cfg__map_get(c, sp, "mixed_radices")))
        TRY(cfg__get_bool(c, v, "space.mixed_radices", &q->mixed_radices));
    if ((v = cfg__map_get(c, sp, "require_model")))
        TRY(cfg__get_bool(c, v, "space.require_model", &q->require_model));

    int idx[(int)NET_TOPOLOGY_COUNT + (int)CFG_ROUTING_COUNT];
    size_t n;
    int all;
    yaml_node_t *nt = cfg__map_get(c, sp, "topologies");
    if (nt) {
        TRY(read_name_list(c, nt, "space.topologies", "topology",
                           topology_names, NET_TOPOLOGY_COUNT, idx, &n, &all));
        for (size_t i = 0; i < n; i++)
            q->topologies[i] = (net_topology)idx[i];
        q->ntopologies = n;
        q->topologies_all = all;
        /* a topology named explicitly must be able to hold the nodes */
        for (size_t i = 0; !all && i < n; i++) {
            net_topology t = q->topologies[i];
            if (topology_fits(s, t))
                continue;
            yaml_node_t *item = nt;
            char sub[ERR_PATH_MAX] = "space.topologies";
            if (nt->type == YAML_SEQUENCE_NODE) {
                item = cfg__seq_item(c, nt, i);
                cfg__path_index(sub, "space.topologies", i);
            }
            const net_topology_info *info = net_topology_get(t);
            char word[16];
            if (info->fixed_radix)
                return cfg__fail(c, item, sub,
                                 "a %s needs a power-of-%s node count, not "
                                 "%ld",
                                 topology_names[t],
                                 power_word(info->fixed_radix, word),
                                 s->nodes);
            if (q->mixed_radices)
                return cfg__fail(c, item, sub,
                                 "no dimension in space.dimensions splits "
                                 "%ld nodes into radices >= %d for the %s",
                                 s->nodes, info->min_radix, topology_names[t]);
            return cfg__fail(c, item, sub,
                             "no dimension n in space.dimensions gives %ld "
                             "nodes a whole radix k = N^(1/n) >= %d for the "
                             "%s (try other dimensions or mixed_radices: "
                             "true)",
                             s->nodes, info->min_radix, topology_names[t]);
        }
    }
    yaml_node_t *nr = cfg__map_get(c, sp, "routings");
    if (nr) {
        TRY(read_name_list(c, nr, "space.routings", "routing", routing_names,
                           CFG_ROUTING_COUNT, idx, &n, &all));
        for (size_t i = 0; i < n; i++)
            q->routings[i] = (cfg_routing)idx[i];
        q->nroutings = n;
        q->routings_all = all;
        /* at least one (topology, n, routing) must make sense */
        int any = 0;
        for (size_t t = 0; t < q->ntopologies && !any; t++)
            for (size_t r = 0; r < q->nroutings && !any; r++) {
                if (net_topology_get(q->topologies[t])->fixed_radix) {
                    int fn = net_topology_fixed_dims(q->topologies[t],
                                                     s->nodes);
                    any = cfg_routing_applies(q->routings[r],
                                              q->topologies[t],
                                              fn >= 1 ? fn : 2);
                }
                for (size_t d = 0; d < q->dimensions.n && !any; d++)
                    any = cfg_routing_applies(q->routings[r],
                                              q->topologies[t],
                                              q->dimensions.v[d]);
            }
        if (!any)
            return cfg__fail(c, nr, "space.routings",
                             "no routing in the list applies to any topology "
                             "of the space");
    }
    return 0;
}

static int read_objectives(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    yaml_node_t *v = cfg__map_get(c, root, "objectives");
    cfg_cost_metric own = s->budget.technology == CONS_MULTICHIP
                              ? CFG_COST_PINS
                              : CFG_COST_BISECTION;
    if (!v) {
        for (size_t i = 0; i < s->nobjectives; i++)
            s->objectives[i].cost = own;
        return 0;
    }
    int idx[COUNT_(objective_names)];
    size_t n;
    int all;
    if (v->type == YAML_SCALAR_NODE &&
        strcmp(cfg__text(v), "all") == 0)
        return cfg__fail(c, v, "objectives",
                         "name the objectives (latency, p99_latency, saturation, "
                         "cost, ...)");
    TRY(read_name_list(c, v, "objectives", "objective", objective_names,
                       COUNT_(objective_names), idx, &n, &all));
    s->nobjectives = 0;
    for (size_t i = 0; i < n; i++) {
        cfg_objective o = objective_at((size_t)idx[i], own);
        for (size_t j = 0; j < s->nobjectives; j++) {
            const cfg_objective *p = &s->objectives[j];
            if (p->kind == o.kind &&
                (o.kind != CFG_OBJ_COST || p->cost == o.cost) &&
                (o.kind != CFG_OBJ_LATENCY || p->stat == o.stat)) {
                char path[ERR_PATH_MAX];
                yaml_node_t *item = v->type == YAML_SEQUENCE_NODE
                                        ? cfg__seq_item(c, v, i)
                                        : v;
                cfg__path_index(path, "objectives", i);
                return cfg__fail(c, item, path,
                                 "duplicate objective: '%s' repeats "
                                 "objectives[%zu] (%s)",
                                 objective_names[idx[i]], j,
                                 cfg_objective_name(&o));
            }
        }
        s->objectives[s->nobjectives++] = o;
    }
    return 0;
}

static int read_simulation(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {
        "seeds",         "warmup_messages", "measured_messages",
        "ci_half_width", "max_cycles",      "threads",
        "tolerance_pct", "max_designs",     NULL};
    yaml_node_t *m = cfg__map_get(c, root, "simulation");
    cfg_sim *q = &s->sim;
    if (!m)
        return 0;
    TRY(cfg__map_check(c, m, "simulation", keys));
    TRY(opt_int(c, m, "simulation", "seeds", 1, 1000, &q->seeds));
    TRY(opt_long(c, m, "simulation", "warmup_messages", 0, 1000000000000L,
                 &q->warmup_messages));
    TRY(opt_long(c, m, "simulation", "measured_messages", 1, 1000000000000L,
                 &q->measured_messages));
    TRY(opt_long(c, m, "simulation", "max_cycles", 1, 1000000000000000L,
                 &q->max_cycles));
    TRY(opt_int(c, m, "simulation", "threads", 0, 4096, &q->threads));
    TRY(opt_int(c, m, "simulation", "max_designs", 1, 100000,
                &q->max_designs));
    yaml_node_t *v = cfg__map_get(c, m, "ci_half_width");
    if (v)
        TRY(cfg__get_real(c, v, "simulation.ci_half_width",
                          "a relative half-width", 0, 1, 1,
                          &q->ci_half_width));
    v = cfg__map_get(c, m, "tolerance_pct");
    if (v)
        TRY(cfg__get_real(c, v, "simulation.tolerance_pct", "a percentage",
                          0, 1000, 1, &q->tolerance_pct));
    return 0;
}

static int read_model(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"variant", "tolerance", NULL};
    yaml_node_t *m = cfg__map_get(c, root, "model");
    if (!m)
        return 0;
    TRY(cfg__map_check(c, m, "model", keys));
    int variant = s->model.variant;
    TRY(opt_name(c, m, "model", "variant", "model variant", variant_names,
                 COUNT_(variant_names), &variant));
    s->model.variant = (model_variant)variant;
    yaml_node_t *v = cfg__map_get(c, m, "tolerance");
    if (v)
        TRY(cfg__get_real(c, v, "model.tolerance", "a relative tolerance", 0,
                          0.1, 1, &s->model.tolerance));
    return 0;
}

static int read_report(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"directory", "formats", NULL};
    yaml_node_t *m = cfg__map_get(c, root, "report");
    if (!m)
        return 0;
    TRY(cfg__map_check(c, m, "report", keys));
    yaml_node_t *v = cfg__map_get(c, m, "directory");
    if (v)
        TRY(cfg__get_string(c, v, "report.directory", s->report_dir,
                            sizeof s->report_dir));
    v = cfg__map_get(c, m, "formats");
    if (v) {
        int idx[CFG_FORMAT_COUNT];
        size_t n;
        int all;
        TRY(read_name_list(c, v, "report.formats", "report format",
                           format_names, CFG_FORMAT_COUNT, idx, &n, &all));
        for (int f = 0; f < CFG_FORMAT_COUNT; f++)
            s->formats[f] = 0;
        for (size_t i = 0; i < n; i++)
            s->formats[idx[i]] = 1;
    }
    return 0;
}

/* router: {model: fixed, delay: D} | {model: chien} |
 * {model: peh_dally, clock_fo4, speculative, fo4_per_tile, offchip_cycles}
 * (docs/config.md).  The top-level router_delay is fixed's delay spelled
 * the older way; giving both is an error. */
static int read_router(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {"model", "delay", "clock_fo4",
                                        "speculative", "fo4_per_tile",
                                        "offchip_cycles", NULL};
    static const char *const models[] = {"fixed", "chien", "peh_dally"};
    /* keys each model takes, besides "model" */
    static const char *const takes[][5] = {
        {"delay", NULL},
        {NULL},
        {"clock_fo4", "speculative", "fo4_per_tile", "offchip_cycles", NULL},
    };
    yaml_node_t *r = cfg__map_get(c, root, "router");
    if (!r)
        return 0;
    yaml_node_t *old = cfg__map_key(c, root, "router_delay");
    if (old)
        return cfg__fail(c, old, "router_delay",
                         "give the router delay once: router_delay is "
                         "router: {model: fixed, delay: N}, and 'router' is "
                         "given too");
    TRY(cfg__map_check(c, r, "router", keys));
    int which = PHYS_ROUTER_FIXED;
    yaml_node_t *m = cfg__map_get(c, r, "model");
    if (!m)
        return cfg__fail(c, r, "router",
                         "missing required key 'model' (fixed, chien or "
                         "peh_dally)");
    TRY(cfg__get_name(c, m, "router.model", "router model", models,
                      COUNT_(models), &which));
    for (int k = 1; keys[k]; k++) {
        yaml_node_t *key = cfg__map_key(c, r, keys[k]);
        if (!key)
            continue;
        int ok = 0;
        for (int j = 0; takes[which][j]; j++)
            ok |= !strcmp(takes[which][j], keys[k]);
        if (!ok)
            return cfg__fail(c, key, "router",
                             "'%s' does not apply to router model %s",
                             keys[k], models[which]);
    }
    phys_timing_opts *o = &s->router;
    o->model = (phys_router_model)which;
    TRY(opt_int(c, r, "router", "delay", 0, 1000, &s->router_delay));
    o->delay = s->router_delay;
    yaml_node_t *v = cfg__map_get(c, r, "clock_fo4");
    if (v)
        TRY(cfg__get_real(c, v, "router.clock_fo4", "a clock period in FO4",
                          PHYS_MIN_CLOCK_FO4, PHYS_MAX_CLOCK_FO4, 0,
                          &o->clock_fo4));
    v = cfg__map_get(c, r, "fo4_per_tile");
    if (v)
        TRY(cfg__get_real(c, v, "router.fo4_per_tile", "a delay in FO4", 0,
                          PHYS_MAX_FO4_PER_TILE, 1, &o->fo4_per_tile));
    v = cfg__map_get(c, r, "speculative");
    if (v)
        TRY(cfg__get_bool(c, v, "router.speculative", &o->speculative));
    TRY(opt_int(c, r, "router", "offchip_cycles", 0, PHYS_MAX_OFFCHIP_CYCLES,
                &o->offchip_cycles));
    return 0;
}

static int read_study(cfg_doc *c, yaml_node_t *root, cfg_study *s)
{
    static const char *const keys[] = {
        "study",   "nodes",      "technology", "budget",
        "message", "router_delay", "router", "ejection_channels", "traffic",
        "rates",   "space",      "objectives", "finalists",
        "search",  "simulation", "model",      "report", NULL};
    if (!root)
        return cfg__fail(c, NULL, "",
                         "empty study: give at least 'nodes' and 'budget'");
    TRY(cfg__map_check(c, root, "", keys));
    TRY(read_name(c, root, s));

    yaml_node_t *v = cfg__map_get(c, root, "nodes");
    if (!v)
        return cfg__fail(c, root, "", "missing required key 'nodes'");
    TRY(cfg__get_int(c, v, "nodes", 2, NET_MAX_NODES, &s->nodes));
    int tech = CONS_VLSI;
    TRY(opt_name(c, root, "", "technology", "technology", technology_names,
                 COUNT_(technology_names), &tech));
    s->budget.technology = (cons_technology)tech;

    TRY(read_budget(c, root, s));
    TRY(read_message(c, root, s));
    TRY(opt_int(c, root, "", "router_delay", 0, 1000, &s->router_delay));
    s->router.delay = s->router_delay;
    TRY(read_router(c, root, s));
    TRY(opt_int(c, root, "", "ejection_channels", 0, 64,
                &s->ejection_channels));
    TRY(read_traffic(c, root, s));
    TRY(read_rates(c, root, s));
    TRY(read_space(c, root, s));
    TRY(read_objectives(c, root, s));
    TRY(opt_int(c, root, "", "finalists", 1, 100000, &s->finalists));
    int search = CFG_SEARCH_AUTO;
    TRY(opt_name(c, root, "", "search", "search strategy", search_names,
                 CFG_SEARCH_COUNT, &search));
    s->search = (cfg_search)search;
    TRY(read_simulation(c, root, s));
    TRY(read_model(c, root, s));
    TRY(read_report(c, root, s));
    if (!s->report_dir[0])
        snprintf(s->report_dir, sizeof s->report_dir, "reports/%s", s->name);
    return 0;
}

int cfg_study_load_string(const char *text, const char *name, cfg_study *s,
                          err *e)
{
    if (!name)
        name = "<string>";
    cfg_study_init(s);
    default_name(s, name);
    snprintf(s->source, sizeof s->source, "%s", name);
    cfg_doc c;
    yaml_node_t *root;
    int rc = cfg__doc_load(&c, text, strlen(text), name, e, &root);
    if (!rc)
        rc = read_study(&c, root, s);
    cfg__doc_fini(&c);
    if (rc)
        cfg_study_fini(s);
    return rc;
}

int cfg_study_load(const char *path, cfg_study *s, err *e)
{
    memset(s, 0, sizeof *s);
    /* O_NONBLOCK: opening a FIFO with no writer must not block; anything
     * but a regular file (a FIFO, /dev/zero, a directory) is refused, and
     * at most CFG_TEXT_MAX + 1 bytes are read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return err_set_at(e, ERR_IO, path, 0, 0, NULL, "cannot open: %s",
                          strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set_at(e, ERR_CONFIG, path, 0, 0, NULL,
                          "not a regular file: give a study file (YAML)");
    }
    if (st.st_size > CFG_TEXT_MAX) {
        close(fd);
        return err_set_at(e, ERR_CONFIG, path, 0, 0, NULL,
                          "%lld bytes: a study file may have at most %d",
                          (long long)st.st_size, CFG_TEXT_MAX);
    }
    size_t cap = (size_t)CFG_TEXT_MAX + 2, size = 0;
    char *text = xmalloc(cap);
    int failed = 0;
    while (size < cap - 1) {
        ssize_t got = read(fd, text + size, cap - 1 - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            failed = errno;
            break;
        }
        if (got == 0)
            break;
        size += (size_t)got;
    }
    close(fd);
    if (failed) {
        free(text);
        return err_set_at(e, ERR_IO, path, 0, 0, NULL, "cannot read: %s",
                          strerror(failed));
    }
    if (size > CFG_TEXT_MAX) { /* grew while we read it */
        free(text);
        return err_set_at(e, ERR_CONFIG, path, 0, 0, NULL,
                          "over %d bytes: a study file may have at most that",
                          CFG_TEXT_MAX);
    }
    text[size] = '\0';
    if (strlen(text) != size) {
        free(text);
        return err_set_at(e, ERR_CONFIG, path, 0, 0, NULL,
                          "the file holds a NUL byte: not a YAML text file");
    }
    int rc = cfg_study_load_string(text, path, s, e);
    free(text);
    return rc;
}

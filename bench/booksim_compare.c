/*
 * bench/booksim_compare.c — router=pipelined against BookSim2's figures
 * (bench/data/booksim2/: one CSV and one configuration file per network,
 * run.sh and README.md say how they were made).
 *
 *   bench_booksim_compare [--quick] [--only NAME] [--data DIR] [--page FILE]
 *
 * For each network: dse's zero-load latency at BookSim2's zero-load rate,
 * its accepted rate when offered one flit per node per cycle (BookSim2's
 * "saturation": its accepted rate at overload), and its latency at 50% and
 * 80% of BookSim2's saturation and at every rate of BookSim2's curve; the
 * relative errors against the targets (zero load 2%, saturation and the
 * two latencies 10%).  Rates are converted from BookSim2's flits per node
 * per cycle to dse's messages per node per cycle (divided by the message
 * length in flits).
 *
 * Writes the page (default docs/validation/booksim2.md) with the table and
 * one latency-load chart per network (SVG beside it), and prints the
 * table.  Run from the repository root.  --quick: fewer messages (a smoke
 * test; the committed page comes from a full run).  Exit status 0 unless
 * a file cannot be read or written or a run cannot start.  --only NAME:
 * that network alone (the page then has its row only: give --page).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/dse.h"
#include "dse/report/chart.h"
#include "sim/sim.h"

#define MAX_POINTS 32

/* A network of the comparison: BookSim2's configuration file stem, a
 * title, and the matching dse design (BookSim2's defaults: stage delays 1,
 * credit delay 0; torus links 2 cycles and mesh links 1, its
 * use_noc_latency rule; its torus dateline rule). */
typedef struct network {
    const char *name, *title, *design, *workload;
} network;

static const network networks[] = {
    {"torus8x8_v2", "8x8 torus, dimension order, 2 VCs x 4 flits, 16-flit packets",
     "topology=torus k=8 n=2 vcs=2 buffer=4 router=pipelined link_delay=2 "
     "dateline=wrap",
     "message_bits=16"},
    {"torus8x8_v4_p32", "8x8 torus, dimension order, 4 VCs x 4 flits, 32-flit packets",
     "topology=torus k=8 n=2 vcs=4 buffer=4 router=pipelined link_delay=2 "
     "dateline=wrap",
     "message_bits=32"},
    {"torus4x4x4", "4x4x4 torus, dimension order, 2 VCs x 4 flits, 16-flit packets",
     "topology=torus k=4 n=3 vcs=2 buffer=4 router=pipelined link_delay=2 "
     "dateline=wrap",
     "message_bits=16"},
    {"torus16x16", "16x16 torus, dimension order, 2 VCs x 4 flits, 16-flit packets",
     "topology=torus k=16 n=2 vcs=2 buffer=4 router=pipelined link_delay=2 "
     "dateline=wrap",
     "message_bits=16"},
    {"hypercube8", "binary 8-cube, dimension order, 2 VCs x 4 flits, 16-flit packets",
     "topology=hypercube n=8 vcs=2 buffer=4 router=pipelined link_delay=1",
     "message_bits=16"},
    /* BookSim2's min_adapt as it runs: its route set keeps the adaptive
     * channel of the first dimension to correct only (adaptive_dims=1) */
    {"minadapt8x8", "8x8 torus, BookSim2's min_adapt (adaptive VC in the first dimension to correct, dimension-order escape), 4 VCs x 4 flits, 16-flit packets",
     "topology=torus k=8 n=2 vcs=4 buffer=4 routing=duato escape=sticky "
     "adaptive_vcs=1 adaptive_dims=1 router=pipelined link_delay=2 "
     "dateline=wrap",
     "message_bits=16"},
    /* min_adapt with BookSim2's route set keeping every candidate: the
     * minimal adaptive routing its routing function describes */
    {"minadapt8x8_allports", "8x8 torus, minimal adaptive with dimension-order escape (BookSim2's route set keeping every candidate), 4 VCs x 4 flits, 16-flit packets",
     "topology=torus k=8 n=2 vcs=4 buffer=4 routing=duato escape=sticky "
     "adaptive_vcs=1 router=pipelined link_delay=2 dateline=wrap",
     "message_bits=16"},
};

/* BookSim2's figures of one network (flits/node/cycle, cycles; NAN: the
 * run was unstable). */
typedef struct reference {
    double zl_rate, zl_lat, sat;
    int n;
    double rate[MAX_POINTS], frac[MAX_POINTS], lat[MAX_POINTS];
} reference;

static int read_reference(const char *path, reference *ref)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    memset(ref, 0, sizeof *ref);
    ref->zl_lat = ref->sat = NAN;
    while (fgets(line, sizeof line, f)) {
        char kind[16] = "";
        char *fields[5] = {0};
        int nf = 0;
        for (char *p = line; nf < 5; nf++) {
            fields[nf] = p;
            char *c = strpbrk(p, ",\n");
            if (!c) {
                nf++;
                break;
            }
            *c = '\0';
            p = c + 1;
        }
        if (nf < 5)
            continue;
        snprintf(kind, sizeof kind, "%s", fields[0]);
        double offered = atof(fields[1]);
        double lat = fields[3][0] ? atof(fields[3]) : NAN;
        double acc = fields[4][0] ? atof(fields[4]) : NAN;
        if (strcmp(kind, "zero_load") == 0) {
            ref->zl_rate = offered;
            ref->zl_lat = lat;
        } else if (strcmp(kind, "overload") == 0) {
            ref->sat = acc;
        } else if (strcmp(kind, "curve") == 0 && ref->n < MAX_POINTS) {
            ref->rate[ref->n] = offered;
            ref->frac[ref->n] = atof(fields[2]);
            ref->lat[ref->n] = lat;
            ref->n++;
        }
    }
    fclose(f);
    return isnan(ref->zl_lat) ? -1 : 0;   /* the rest may be missing */
}

static void set_design(sim_params *p, const network *nw)
{
    sim_params_init(p);
    err e;
    if (net_design_parse(&p->design, nw->design, &e) ||
        net_workload_parse(&p->workload, nw->workload, &e)) {
        fprintf(stderr, "bench_booksim_compare: %s: %s\n", nw->name, e.msg);
        exit(1);
    }
}

/* dse's latency at `flits` flits/node/cycle; NAN when it saturates. */
static double latency_at(const network *nw, double flits, int quick)
{
    sim_params p;
    sim_result r;
    err e;
    set_design(&p, nw);
    int len = net_message_flits(&p.design, &p.workload);
    p.rate = flits / len;
    p.warmup_messages = quick ? 2000 : 10000;
    p.messages = quick ? 10000 : 60000;
    if (sim_run(&p, &r, &e)) {
        fprintf(stderr, "bench_booksim_compare: %s: %s\n", nw->name, e.msg);
        exit(1);
    }
    return r.status == SIM_OK ? r.latency : NAN;
}

/* dse's accepted flits/node/cycle offered one flit/node/cycle, measured
 * after a warm-up, as BookSim2's throughput runs measure it. */
static double overload_accepted(const network *nw, int quick)
{
    sim_params p;
    sim_result r;
    err e;
    set_design(&p, nw);
    int len = net_message_flits(&p.design, &p.workload);
    long nodes = net_nodes(&p.design);
    p.rate = 1.0 / len;
    /* warm-up: 30000 cycles' worth of messages; then 60000 cycles */
    long cycles = quick ? 10000 : 30000;
    p.warmup_messages = (long)(p.rate * (double)nodes * (double)cycles);
    p.messages = 1L << 40;
    p.max_cycles = 3 * cycles;
    p.saturation_queue = 1e12;
    if (sim_run(&p, &r, &e)) {
        fprintf(stderr, "bench_booksim_compare: %s: %s\n", nw->name, e.msg);
        exit(1);
    }
    return r.accepted_flits;
}

static double rel(double a, double b)
{
    return (a - b) / b;
}

static void fmt_err(char *buf, size_t size, double a, double b, double tol)
{
    if (!isfinite(a) || !isfinite(b))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%+.1f%%%s", 100 * rel(a, b),
                 fabs(rel(a, b)) <= tol ? "" : " (!)");
}

static void fmt_num(char *buf, size_t size, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, size, fmt, v);
    else
        snprintf(buf, size, "saturated");
}

/* Latency of the curve point nearest fraction f (NAN if none). */
static double ref_at(const reference *ref, double f, double *rate)
{
    for (int i = 0; i < ref->n; i++)
        if (fabs(ref->frac[i] - f) < 1e-9) {
            *rate = ref->rate[i];
            return ref->lat[i];
        }
    *rate = f * ref->sat;
    return NAN;
}

static int write_chart(const char *dir, const network *nw,
                       const reference *ref, const double *dse_lat)
{
    double bx[MAX_POINTS], by[MAX_POINTS], dx[MAX_POINTS], dy[MAX_POINTS];
    size_t nb = 0, nd = 0;
    for (int i = 0; i < ref->n; i++) {
        if (isfinite(ref->lat[i])) {
            bx[nb] = ref->rate[i];
            by[nb++] = ref->lat[i];
        }
        dx[nd] = ref->rate[i];
        dy[nd++] = isfinite(dse_lat[i]) ? dse_lat[i] : INFINITY;
    }
    chart_series s[2] = {
        {.label = "BookSim2", .x = bx, .y = by, .n = nb,
         .style = CHART_LINE_POINTS, .color = 0, .marker = CHART_MARK_CIRCLE},
        {.label = "dse router=pipelined", .x = dx, .y = dy, .n = nd,
         .style = CHART_LINE_POINTS, .color = 1, .marker = CHART_MARK_CROSS,
         .dashed = 1},
    };
    double vl = ref->sat;
    chart c = {.title = nw->title,
               .xlabel = "offered load (flits/node/cycle)",
               .ylabel = "latency (cycles)",
               .log_y = 1,
               .series = s,
               .nseries = 2,
               .vlines = &vl,
               .nvlines = 1,
               .vline_label = "BookSim2 saturation",
               .id_prefix = nw->name};
    err e;
    char *svg = chart_svg(&c, &e);
    if (!svg) {
        fprintf(stderr, "bench_booksim_compare: chart: %s\n", e.msg);
        return -1;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/booksim2-%s.svg", dir, nw->name);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(svg);
        perror(path);
        return -1;
    }
    fputs(svg, f);
    free(svg);
    return fclose(f);
}

int main(int argc, char **argv)
{
    const char *data = "bench/data/booksim2", *page = "docs/validation/booksim2.md";
    const char *only = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (strcmp(argv[i], "--page") == 0 && i + 1 < argc)
            page = argv[++i];
        else {
            fprintf(stderr,
                    "usage: bench_booksim_compare [--quick] [--only NAME] "
                    "[--data DIR] [--page FILE]\n");
            return 2;
        }
    }
    char dir[512];
    snprintf(dir, sizeof dir, "%s", page);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");

    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", page);
    FILE *md = fopen(tmp, "w");
    if (!md) {
        perror(tmp);
        return 1;
    }
    fprintf(md,
            "# The pipelined router against BookSim2\n\n"
            "`router=pipelined` (sim/pipe.c) against BookSim2's input-queued "
            "router (upstream commit 28f43299, default router: routing, VC "
            "allocation, switch allocation and switch traversal 1 cycle "
            "each, one-iteration iSLIP VC and switch allocators, credit "
            "delay 0; torus links 2 cycles, mesh links 1, its "
            "`use_noc_latency` default), uniform traffic.  BookSim2's "
            "figures, configurations and the commands that made them are "
            "in `bench/data/booksim2/`; this page is written by "
            "`build/bench/bench_booksim_compare`%s.\n\n"
            "Saturation is the accepted rate when one flit per node per "
            "cycle is offered; latencies are from generation to the tail's "
            "arrival at the destination, source queueing included, in "
            "cycles; rates in flits per node per cycle (dse's runs offer "
            "them divided by the message length).  Targets: zero load "
            "within 2%%, saturation and the latencies at 50%% and 80%% of "
            "BookSim2's saturation within 10%%; (!) marks a miss.\n\n"
            "BookSim2's `min_adapt` on the torus is not the minimal "
            "adaptive routing its routing function describes.  "
            "`min_adapt_torus` lists the adaptive VC of every dimension "
            "still to correct at priority 1 and the dimension-order escape "
            "VC at priority 0, but its route set (`OutputSet`) is a "
            "`std::set` ordered by the priority alone: a second candidate "
            "of the same priority compares equal to the first and is not "
            "inserted, so only the lowest dimension's adaptive channel "
            "stays, beside the escape VC.  dse reproduces that with "
            "`adaptive_dims=1` (row `min_adapt`).  BookSim2 changed to "
            "keep every candidate (`bench/data/booksim2/README.md`) "
            "saturates at 0.334 flits/node/cycle instead of 0.301; the "
            "last row compares dse's minimal adaptive routing "
            "(`adaptive_dims=0`) with that run.\n\n"
            "| network | zero load BookSim2 / dse | err | saturation "
            "BookSim2 / dse | err | latency at 50%% | err | latency at "
            "80%% | err |\n|---|---|---|---|---|---|---|---|---|\n",
            quick ? " (--quick: short runs)" : "");
    printf("%-16s %9s %9s %7s %8s %8s %7s %8s %8s %7s %8s %8s %7s\n",
           "network", "zl_bs", "zl_dse", "err", "sat_bs", "sat_dse", "err",
           "l50_bs", "l50_dse", "err", "l80_bs", "l80_dse", "err");
    int rc = 0;
    size_t nnet = sizeof networks / sizeof networks[0];
    for (size_t k = 0; k < nnet; k++) {
        const network *nw = &networks[k];
        if (only && strcmp(only, nw->name) != 0)
            continue;
        char path[600];
        reference ref;
        snprintf(path, sizeof path, "%s/%s.csv", data, nw->name);
        if (read_reference(path, &ref)) {
            fprintf(stderr, "bench_booksim_compare: %s: missing or "
                            "incomplete, skipped\n", path);
            fprintf(md, "| %s | no BookSim2 data | | | | | | | |\n",
                    nw->name);
            continue;
        }
        double zl = latency_at(nw, ref.zl_rate, quick);
        double sat = overload_accepted(nw, quick);
        if (isnan(ref.sat))      /* BookSim2 figures incomplete */
            ref.sat = NAN;
        double lat[MAX_POINTS];
        for (int i = 0; i < ref.n; i++)
            lat[i] = isfinite(ref.lat[i]) || ref.frac[i] < 1
                         ? latency_at(nw, ref.rate[i], quick)
                         : NAN;
        double r50, r80;
        double b50 = ref_at(&ref, 0.5, &r50), b80 = ref_at(&ref, 0.8, &r80);
        double d50 = NAN, d80 = NAN;
        for (int i = 0; i < ref.n; i++) {
            if (fabs(ref.frac[i] - 0.5) < 1e-9)
                d50 = lat[i];
            if (fabs(ref.frac[i] - 0.8) < 1e-9)
                d80 = lat[i];
        }
        char e1[32], e2[32], e3[32], e4[32], n1[32], n3[32], n4[32];
        fmt_err(e1, sizeof e1, zl, ref.zl_lat, 0.02);
        fmt_err(e2, sizeof e2, sat, ref.sat, 0.10);
        fmt_err(e3, sizeof e3, d50, b50, 0.10);
        fmt_err(e4, sizeof e4, d80, b80, 0.10);
        fmt_num(n1, sizeof n1, zl, "%.1f");
        fmt_num(n3, sizeof n3, d50, "%.1f");
        fmt_num(n4, sizeof n4, d80, "%.1f");
        if (!isfinite(b50))      /* no BookSim2 point: nothing was run */
            snprintf(n3, sizeof n3, "-");
        if (!isfinite(b80))
            snprintf(n4, sizeof n4, "-");
        printf("%-16s %9.2f %9.2f %7s %8.4f %8.4f %7s %8.1f %8s %7s %8.1f "
               "%8s %7s\n",
               nw->name, ref.zl_lat, zl, e1, ref.sat, sat, e2, b50, n3, e3,
               b80, n4, e4);
        char s1[32], s2[32], s3[32], s4[32];
        snprintf(s1, sizeof s1, "%.1f", ref.zl_lat);
        snprintf(s2, sizeof s2, isfinite(ref.sat) ? "%.4f" : "not run",
                 ref.sat);
        snprintf(s3, sizeof s3, isfinite(b50) ? "%.1f" : "not run", b50);
        snprintf(s4, sizeof s4, isfinite(b80) ? "%.1f" : "not run", b80);
        fprintf(md,
                "| %s | %s / %s | %s | %s / %.4f | %s | %s / %s | %s "
                "| %s / %s | %s |\n",
                nw->title, s1, n1, e1, s2, sat, e2, s3, n3, e3, s4, n4, e4);
        fflush(stdout);
        if (ref.n > 0 && write_chart(dir, nw, &ref, lat))
            rc = 1;
        /* the curve as a table, kept for the page's second part */
        char cpath[700];
        snprintf(cpath, sizeof cpath, "%s.curve%zu", tmp, k);
        FILE *cf = fopen(cpath, "w");
        if (cf) {
            fprintf(cf, "\n### %s\n\n`%s` `%s`\n\n", nw->title,
                    nw->design, nw->workload);
            /* the chart exists only when BookSim2 gave a curve */
            if (ref.n > 0)
                fprintf(cf, "![%s](booksim2-%s.svg)\n\n", nw->name, nw->name);
            else
                fputs("No BookSim2 curve for this network yet.\n\n", cf);
            fputs("| offered (flits/node/cycle) | fraction of BookSim2 "
                  "saturation | BookSim2 latency | dse latency |\n"
                  "|---|---|---|---|\n", cf);
            for (int i = 0; i < ref.n; i++) {
                char b[32], d[32];
                fmt_num(b, sizeof b, ref.lat[i], "%.1f");
                fmt_num(d, sizeof d, lat[i], "%.1f");
                fprintf(cf, "| %.4f | %.2f | %s | %s |\n", ref.rate[i],
                        ref.frac[i], b, d);
            }
            fclose(cf);
        }
    }
    fprintf(md, "\n## Latency against load\n");
    for (size_t k = 0; k < nnet; k++) {
        char cpath[700];
        snprintf(cpath, sizeof cpath, "%s.curve%zu", tmp, k);
        FILE *cf = fopen(cpath, "r");
        if (!cf)
            continue;
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, cf)) > 0)
            fwrite(buf, 1, n, md);
        fclose(cf);
        remove(cpath);
    }
    if (fclose(md) || rename(tmp, page)) {
        perror(page);
        return 1;
    }
    printf("wrote %s\n", page);
    return rc;
}

/*
 * bench/study_models.c — the models on every design of a shipped study,
 * against the simulator's saturation rates from a check-mode run.
 *
 *   bench_study_models STUDY.yaml CANDIDATES.csv
 *
 * CANDIDATES.csv is the candidates.csv of a check-mode report (`dse
 * optimize STUDY.yaml --simulate-all -o DIR`: every feasible design
 * simulated).  The simulator has not changed since the check ran when its
 * fingerprints have not (bench_sim_saturated), so the simulated saturation
 * rates stay valid while the models change: this evaluates the current
 * models (the study's variant) on each design and prints model / simulated
 * saturation rate per design and per model (range, and how many designs
 * lie within the validation targets, 0.8-1.25).  A simulated rate above
 * the channel-load bound is marked '*' (a bug in the bound or the search,
 * as the decision flags it).  docs/validation.md covers a few study
 * designs with full sweeps; this covers all of them, saturation only.  A
 * bench: it asserts nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/study/cfg.h"
#include "models/model.h"

#define MAX_LINE 65536
#define MAX_FIELDS 256
#define MAX_ROWS 100000
#define MAX_MODELS 64

/* Split one CSV line in place (RFC 4180 quotes, no embedded newlines);
 * returns the field count, at most max. */
static int csv_split(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        char *out = p;
        field[n++] = p;
        if (*p == '"') {
            char *q = p + 1;
            for (;;) {
                if (*q == '\0')
                    break;
                if (*q == '"' && q[1] == '"') {
                    *out++ = '"';
                    q += 2;
                } else if (*q == '"') {
                    q++;
                    break;
                } else {
                    *out++ = *q++;
                }
            }
            p = q;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                out++, p++;
        }
        int last = *p != ',';
        if (*p)
            p++;
        *out = '\0';
        if (last)
            break;
    }
    return n;
}

static int column(char **field, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(field[i], name) == 0)
            return i;
    return -1;
}

typedef struct per_model {
    char name[64];
    int count, within;
    double lo, hi;
} per_model;

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_study_models STUDY.yaml "
                        "CANDIDATES.csv\n");
        return 2;
    }
    cfg_study s;
    err e;
    if (cfg_study_load(argv[1], &s, &e)) {
        fprintf(stderr, "bench_study_models: %s\n", e.msg);
        return 1;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        cfg_study_fini(&s);
        return 1;
    }
    static char line[MAX_LINE];
    char *field[MAX_FIELDS];
    if (!fgets(line, sizeof line, f)) {
        fprintf(stderr, "bench_study_models: %s is empty\n", argv[2]);
        fclose(f);
        cfg_study_fini(&s);
        return 1;
    }
    int nf = csv_split(line, field, MAX_FIELDS);
    int c_design = column(field, nf, "design"),
        c_model = column(field, nf, "model"),
        c_sim = column(field, nf, "sim_saturation");
    if (c_design < 0 || c_model < 0 || c_sim < 0) {
        fprintf(stderr, "bench_study_models: %s has no design, model or "
                        "sim_saturation column (not a candidates.csv)\n",
                argv[2]);
        fclose(f);
        cfg_study_fini(&s);
        return 1;
    }
    model_opts o;
    model_opts_init(&o);
    o.variant = s.model.variant;
    per_model pm[MAX_MODELS];
    int npm = 0, rows = 0;
    printf("%-26s %-96s %10s %10s  %6s\n", "model", "design", "model sat",
           "sim sat", "ratio");
    while (rows < MAX_ROWS && fgets(line, sizeof line, f)) {
        int n = csv_split(line, field, MAX_FIELDS);
        if (n <= c_sim || n <= c_design || n <= c_model)
            continue;
        double sim = atof(field[c_sim]);
        if (!(sim > 0))
            continue;       /* not simulated in that run */
        rows++;
        net_design d;
        net_design_init(&d);
        const model *m = model_find(field[c_model]);
        if (net_design_parse(&d, field[c_design], &e) || !m) {
            printf("%-26s %-96s  skipped: %s\n", field[c_model],
                   field[c_design], m ? e.msg : "no such model");
            continue;
        }
        double rate = NAN;
        if (model_saturation_rate(m, &d, &s.workload, &o, &rate, &e))
            rate = 0;
        /* a simulated rate above the channel-load bound is a bug in the
         * bound or the search (the decision flags it, dse_check_sim_
         * saturation); '*' marks one, kept as recorded */
        model_bound b;
        int above = model_bound_compute(&d, &s.workload, &b, NULL) == 0 &&
                     sim > b.rate;
        double ratio = rate / sim;
        printf("%-26s %-96s %10.5f %10.5f%c %6.2f\n", m->name,
               field[c_design], rate, sim, above ? '*' : ' ', ratio);
        int k = 0;
        while (k < npm && strcmp(pm[k].name, m->name) != 0)
            k++;
        if (k == npm) {
            if (npm == MAX_MODELS)
                continue;
            snprintf(pm[k].name, sizeof pm[k].name, "%s", m->name);
            pm[k].count = pm[k].within = 0;
            pm[k].lo = INFINITY;
            pm[k].hi = -INFINITY;
            npm++;
        }
        pm[k].count++;
        pm[k].within += ratio >= 0.8 && ratio <= 1.25;
        pm[k].lo = fmin(pm[k].lo, ratio);
        pm[k].hi = fmax(pm[k].hi, ratio);
    }
    fclose(f);
    printf("\n%-26s %7s %7s %12s\n", "model", "designs", "within",
           "ratio range");
    int total = 0, within = 0;
    for (int k = 0; k < npm; k++) {
        printf("%-26s %7d %7d %5.2f-%-5.2f\n", pm[k].name, pm[k].count,
               pm[k].within, pm[k].lo, pm[k].hi);
        total += pm[k].count;
        within += pm[k].within;
    }
    printf("%d simulated designs, %d with the model's saturation rate "
           "within 0.8-1.25x of the simulator's (variant %s)\n",
           total, within, model_variant_name(o.variant));
    cfg_study_fini(&s);
    return 0;
}

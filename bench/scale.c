/*
 * bench/scale.c — where a study's time and memory go, phase by phase.
 *
 *   bench_scale [-j THREADS] [STUDY.yaml ...]
 *
 * Runs `dse optimize`'s decision on each study (default: the 1,024-,
 * 4,096- and 16,384-node VLSI studies of configs/, in that order), with no
 * result cache and no load curves, and prints for every phase (scoring, the
 * saturation searches, the replications, the saturation screen's probes,
 * round by round) its steps, wall and CPU seconds, its longest job's CPU
 * seconds and the peak resident memory when it ended, then the study's
 * totals, its recommendation, and what the same rounds would take on W
 * farm workers by those per-job costs (workers_needed).
 * That is what a scaling target is checked against: which phase grows with
 * the network, and by how much.  CPU time counts every thread of this
 * process (a farm's workers are not in it).  A bench: it asserts nothing,
 * and exits non-zero only when a study cannot be loaded or a run fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/common/bands.h"
#include "dse/common/progress.h"
#include "dse/report/report.h"
#include "dse/search/optimize.h"
#include "dse/validate/validate.h"

static const char *const default_studies[] = {
    "configs/vlsi_1024.yaml", "configs/vlsi_4096.yaml",
    "configs/vlsi_16384.yaml"};

/* What W workers (or threads) would take for the same rounds, from the
 * measured per-job costs: each phase lasts at least its CPU over W and at
 * least its longest job, since a round waits for its last job before the
 * next is chosen.  The sum of the longest jobs is what no number of
 * workers shortens.  An estimate: it leaves out the farm's per-job
 * overhead (under a millisecond, bench_farm) and the contention of jobs
 * sharing a machine's memory, and assumes jobs as long as measured here. */
static void workers_needed(const dse_run *r)
{
    static const int counts[] = {1, 2, 4, 8, 16, 32, 64, 128};
    size_t nc = sizeof counts / sizeof *counts;
    printf("  on W farm workers, W:");
    for (size_t k = 0; k < nc; k++)
        printf(" %6d", counts[k]);
    printf("\n  estimated wall s:    ");
    for (size_t k = 0; k < nc; k++) {
        double t = 0;
        for (size_t q = 0; q < r->nphases; q++)
            t += fmax(r->phases[q].cpu_s / counts[k],
                      r->phases[q].longest_job_s);
        printf(" %6.0f", t);
    }
    printf("\n");
}

/* One study's decision and its phase table on stdout; 0 or non-zero when it
 * cannot be loaded or run. */
static int scale_study(const char *path, int threads)
{
    cfg_study s;
    err e;
    if (cfg_study_load(path, &s, &e)) {
        char buf[2048];
        fprintf(stderr, "bench_scale: %s\n", err_format(&e, buf, sizeof buf));
        return 1;
    }
    dse_progress progress;
    dse_progress_init(&progress, stderr, 0);
    dse_optimize_opts o = {.threads = threads, .no_curves = 1,
                           .progress = &progress};
    dse_run r;
    double w0 = dse_now_s(), c0 = dse_cpu_s();
    int rc = dse_optimize(&s, &o, &r, &e);
    double wall = dse_now_s() - w0, cpu = dse_cpu_s() - c0;
    if (rc) {
        fprintf(stderr, "bench_scale: %s: %s\n", path, e.msg);
    } else {
        printf("study %s: %ld nodes, %zu feasible designs\n", s.name,
               (long)s.nodes, r.ncand);
        printf("  %-10s %7s %9s %9s %11s %10s\n", "phase", "steps",
               "wall s", "cpu s", "longest s", "peak MB");
        double longest = 0;
        for (size_t q = 0; q < r.nphases; q++) {
            const dse_phase_time *ph = &r.phases[q];
            printf("  %-10s %7zu %9.1f %9.1f %11.1f %10.0f\n", ph->name,
                   ph->steps, ph->wall_s, ph->cpu_s, ph->longest_job_s,
                   ph->peak_rss_mb);
            longest += ph->longest_job_s;
        }
        printf("  %-10s %7zu %9.1f %9.1f %11.1f %10.0f\n", "total",
               r.nsimulated, wall, cpu, longest, dse_peak_rss_mb());
        workers_needed(&r);
        printf("  (total steps: designs simulated, in %d rounds, %s)\n",
               r.rounds, r.certified ? "certified" : "not certified");
        if (r.recommended != SIZE_MAX) {
            char label[200];
            dse_design_label(&r.cand[r.recommended].design, label,
                             sizeof label);
            printf("  recommended: %s\n", label);
        }
        dse_run_fini(&r);
    }
    dse_progress_fini(&progress);
    cfg_study_fini(&s);
    return rc != 0;
}

int main(int argc, char **argv)
{
    int threads = 0;
    const char *studies[64];
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (argv[i][0] == '-') {
            int help = strcmp(argv[i], "-h") == 0 ||
                       strcmp(argv[i], "--help") == 0;
            fprintf(help ? stdout : stderr,
                    "usage: bench_scale [-j THREADS] [STUDY.yaml ...]\n"
                    "(default: the 1,024-, 4,096- and 16,384-node VLSI "
                    "studies)\n");
            return help ? 0 : 2;
        } else if (n < sizeof studies / sizeof *studies) {
            studies[n++] = argv[i];
        }
    }
    if (n == 0)
        for (; n < sizeof default_studies / sizeof *default_studies; n++)
            studies[n] = default_studies[n];
    dse_bands_set_coverage(dse_validate_covers);
    int failed = 0;
    for (size_t q = 0; q < n; q++) {
        failed |= scale_study(studies[q], threads);
        fflush(stdout);
    }
    return failed;
}

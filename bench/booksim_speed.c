/*
 * bench/booksim_speed.c — simulated router-cycles per CPU second of dse's
 * router=pipelined and of BookSim2 on the same network and load, by
 * alternating runs on one machine.
 *
 *   bench_booksim_speed BOOKSIM [--data DIR] [--repeat N]
 *   bench_booksim_speed --dse-only CYCLES [--repeat N]
 *
 * The network is bench/data/booksim2/torus8x8_v2.cfg (8x8 torus, dimension
 * order, 2 VCs x 4 flits, 16-flit packets) at half of BookSim2's
 * saturation and at overload (one flit per node per cycle offered).  Each
 * of N rounds (default 3) runs BookSim2 (the configuration unchanged but
 * for the rate; CPU time of the child from getrusage, simulated cycles
 * from its "Time taken is N cycles"), then dse for as many cycles after a
 * warm-up of the same length as BookSim2's warm-up (CPU clock of the
 * process).  Prints both rates per round and the median ratio.  Targets:
 * dse at least 30x BookSim2 at half saturation, 20x at overload.
 *
 * Each dse run also prints a fingerprint of its network's counters at the
 * end (flits injected and consumed, messages delivered): an optimisation
 * of sim/pipe.c that keeps the algorithm must keep it.  --dse-only CYCLES:
 * dse alone, CYCLES timed cycles at each load after the same 30000-cycle
 * warm-up (for profiling, and for the fingerprint without BookSim2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "dse/dse.h"
#include "sim/sim.h"

static double cpu_self(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_children(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* BookSim2 at `flits` flits/node/cycle: CPU seconds and simulated cycles
 * (0 cycles: the run failed). */
static double booksim_run(const char *bs, const char *cfg, double flits,
                          int throughput, long *cycles)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' '%s' injection_rate=%.6f%s 2>&1 | sed -n "
             "'s/^Time taken is \\([0-9]*\\) cycles.*/\\1/p' | tail -n 1",
             bs, cfg, flits, throughput ? " sim_type=throughput" : "");
    double c0 = cpu_children();
    FILE *f = popen(cmd, "r");
    *cycles = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%ld", cycles) != 1)
        *cycles = 0;
    pclose(f);
    return cpu_children() - c0;
}

/* dse: warm cycles untimed, then `cycles` timed; CPU seconds.  Its
 * counters' fingerprint goes to fp. */
static double dse_run(double flits, long warm, long cycles, char *fp,
                      size_t fpsize)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    if (net_design_parse(&p.design,
                         "topology=torus k=8 n=2 vcs=2 buffer=4 "
                         "router=pipelined link_delay=2 dateline=wrap",
                         &e) ||
        net_workload_parse(&p.workload, "message_bits=16", &e)) {
        fprintf(stderr, "bench_booksim_speed: %s\n", e.msg);
        exit(1);
    }
    p.rate = flits / 16;
    p.deadlock_cycles = 1L << 40;
    p.saturation_queue = 1e12;
    sim_net *net;
    if (sim_net_create(&p, &net, &e) || sim_net_step(net, warm, &e)) {
        fprintf(stderr, "bench_booksim_speed: %s\n", e.msg);
        exit(1);
    }
    double t0 = cpu_self();
    if (sim_net_step(net, cycles, &e)) {
        fprintf(stderr, "bench_booksim_speed: %s\n", e.msg);
        exit(1);
    }
    double t = cpu_self() - t0;
    sim_counts c;
    sim_net_counts(net, &c);
    snprintf(fp, fpsize, "[inj %ld cons %ld del %ld]", c.flits_injected,
             c.flits_consumed, c.delivered);
    sim_net_destroy(net);
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *bs = NULL, *data = "bench/data/booksim2";
    int repeat = 3;
    long dse_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (strcmp(argv[i], "--dse-only") == 0 && i + 1 < argc)
            dse_only = atol(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!bs && argv[i][0] != '-')
            bs = argv[i];
        else
            bs = NULL, i = argc;
    }
    if ((!bs && dse_only <= 0) || repeat < 1 || repeat > 50 ||
        dse_only < 0 || dse_only > 100000000) {
        fprintf(stderr, "usage: bench_booksim_speed BOOKSIM [--data DIR] "
                        "[--repeat N]\n"
                        "       bench_booksim_speed --dse-only CYCLES "
                        "[--repeat N]\n");
        return 2;
    }
    char cfg[1024];
    snprintf(cfg, sizeof cfg, "%s/torus8x8_v2.cfg", data);
    /* BookSim2's saturation of this network (torus8x8_v2.csv) */
    const double sat = 0.206207;
    struct { const char *name; double flits; int throughput; } loads[] = {
        {"half saturation", 0.5 * sat, 0},
        {"overload", 1.0, 1},
    };
    const int nodes = 64;
    char fp[128];
    if (dse_only > 0) {
        for (size_t l = 0; l < 2; l++)
            for (int k = 0; k < repeat; k++) {
                double dcpu = dse_run(loads[l].flits, 30000, dse_only, fp,
                                      sizeof fp);
                printf("%-16s round %d: %ld cycles  dse %.3f Mrc/s (%.2f "
                       "cpu_s)  %s\n",
                       loads[l].name, k + 1, dse_only,
                       nodes * (double)dse_only / dcpu / 1e6, dcpu, fp);
                fflush(stdout);
            }
        return 0;
    }
    for (size_t l = 0; l < 2; l++) {
        double ratio[50];
        for (int k = 0; k < repeat; k++) {
            long cyc;
            double bcpu = booksim_run(bs, cfg, loads[l].flits,
                                      loads[l].throughput, &cyc);
            if (cyc <= 0 || bcpu <= 0) {
                fprintf(stderr, "bench_booksim_speed: BookSim2 run failed "
                                "(%s)\n", cfg);
                return 1;
            }
            double dcpu = dse_run(loads[l].flits, 30000, cyc, fp, sizeof fp);
            double brc = nodes * (double)cyc / bcpu;
            double drc = nodes * (double)cyc / dcpu;
            ratio[k] = drc / brc;
            printf("%-16s round %d: %ld cycles  BookSim2 %.3f Mrc/s "
                   "(%.2f cpu_s)  dse %.3f Mrc/s (%.2f cpu_s)  ratio %.1fx  "
                   "%s\n",
                   loads[l].name, k + 1, cyc, brc / 1e6, bcpu, drc / 1e6,
                   dcpu, ratio[k], fp);
            fflush(stdout);
        }
        qsort(ratio, (size_t)repeat, sizeof ratio[0], cmp);
        printf("%-16s median ratio %.1fx (target %dx)\n", loads[l].name,
               ratio[repeat / 2], l == 0 ? 30 : 20);
    }
    return 0;
}

/*
 * bench/sim_parallel.c — one run on several threads (the partitioned
 * engine, sim/engine_par.c): where it pays.
 *
 *   bench_sim_parallel [--quick] [--repeat N] [--threads T] [K[=RATE] ...]
 *
 * For each k-ary 2-cube torus (default k = 16, 32, 64; dimension order,
 * V = 2, B = 4, 16-flit messages, credit delay 1): the saturation rate of
 * the partitioned engine's network (sim_saturation, on T threads), then at
 * half of it a network stepped `warm` cycles (untimed) and `cycles` more,
 * timed, on 1 thread and on T threads (default 2).  Prints wall and CPU
 * seconds of the timed cycles, the speed-up in wall time, and whether the
 * two runs ended with the same counters (they must: the result does not
 * depend on the thread count), and the busiest thread's CPU time: the
 * 1-thread CPU time over it estimates the speed-up idle cores would give
 * (its barrier waits are only the spinning part; the wall-time speed-up
 * means little on a loaded machine, where the threads rarely run at
 * once).  For reference, the same network with
 * credit delay 0 on the serial work-set engine (today's default path)
 * and with credit delay 1 on the serial active-list engine.  The load
 * average is printed first: on a shared machine the speed-up means
 * something only when it is below the core count.
 *
 * K=RATE: that torus at RATE (messages/node/cycle) instead of half of the
 * saturation rate (skips the search, which on a 64x64 torus takes longer
 * than the timings).  --repeat N: each timing N times, the least wall
 * time kept.  --quick:
 * fewer cycles (smoke test).  Nothing is asserted: a bench prints figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"
#include "sim/sim_int.h"         /* the threads' CPU times */

static double now_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct timing {
    double wall, cpu;
    double thread_max;           /* the busiest thread's CPU seconds */
    sim_counts c;
} timing;

static sim_params params(int k, double rate, int partitioned, int threads,
                         int cd)
{
    sim_params p;
    err e;
    char d[160];
    sim_params_init(&p);
    err_clear(&e);
    snprintf(d, sizeof d, "topology=torus n=2 k=%d vcs=2 buffer=4", k);
    if (net_design_parse(&p.design, d, &e) ||
        net_workload_parse(&p.workload, "message_bits=16", &e)) {
        fprintf(stderr, "%s\n", e.msg);
        exit(1);
    }
    p.rate = rate;
    p.partitioned = partitioned;
    p.threads = threads;
    p.credit_delay = cd;
    p.seed = 7;
    return p;
}

/* warm cycles untimed, then cycles timed; the least wall time of
 * `repeat` runs. */
static timing time_run(const sim_params *p, long warm, long cycles,
                       int repeat)
{
    timing best = {0};
    for (int i = 0; i < repeat; i++) {
        sim_net *net;
        err e;
        err_clear(&e);
        if (sim_net_create(p, &net, &e) || sim_net_step(net, warm, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            exit(1);
        }
        int nt = sim__par_threads(net);
        double th0[256];
        for (int j = 0; j < nt && j < 256; j++)
            th0[j] = sim__par_thread_cpu(net, j);
        double w0 = now_s(CLOCK_MONOTONIC);
        double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
        if (sim_net_step(net, cycles, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            exit(1);
        }
        timing t = {now_s(CLOCK_MONOTONIC) - w0,
                    now_s(CLOCK_PROCESS_CPUTIME_ID) - c0, 0, {0}};
        for (int j = 0; j < nt && j < 256; j++) {
            double d = sim__par_thread_cpu(net, j) - th0[j];
            if (d > t.thread_max)
                t.thread_max = d;
        }
        sim_net_counts(net, &t.c);
        sim_net_destroy(net);
        if (i == 0 || t.wall < best.wall)
            best = t;
    }
    return best;
}

static void load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char buf[128] = "?";
    if (f) {
        if (!fgets(buf, sizeof buf, f))
            strcpy(buf, "?\n");
        fclose(f);
    }
    printf("load average: %s", buf);
}

int main(int argc, char **argv)
{
    int quick = 0, repeat = 1, threads = 2;
    int ks[16], nk = 0;
    double given[16] = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]) > 1 ? atoi(argv[i]) : 2;
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: bench_sim_parallel [--quick] [--repeat N] "
                   "[--threads T] [K ...]\n");
            return 0;
        } else if (nk < 16 && atoi(argv[i]) >= 2) {
            const char *eq = strchr(argv[i], '=');
            given[nk] = eq ? atof(eq + 1) : 0;
            ks[nk++] = atoi(argv[i]);
        }
    }
    if (nk == 0) {
        ks[0] = 16;
        ks[1] = 32;
        ks[2] = 64;
        nk = 3;
    }
    load_average();
    printf("torus n=2, dimension order, V=2, B=4, 16-flit messages; "
           "threads 1 vs %d; times of the timed cycles only\n",
           threads);
    printf("%5s %9s %6s %6s | %7s %7s | %7s %7s | %7s %9s | %15s %15s\n",
           "k", "rate", "warm", "cycles", "1T wall", "1T cpu", "T wall",
           "T cpu", "speedup", "same", "fast cd0 w/cpu", "active1 w/cpu");
    for (int i = 0; i < nk; i++) {
        int k = ks[i];
        sim_params p = params(k, 0.001, 1, threads, 1);
        sim_saturation_result s;
        memset(&s, 0, sizeof s);
        s.rate = 2 * given[i];
        err e;
        err_clear(&e);
        if (given[i] <= 0 && sim_saturation(&p, &s, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
        double rate = s.rate / 2;
        long routers = (long)k * k;
        /* about the same simulated router-cycles per case */
        long cycles = (quick ? 2000000L : 40000000L) / routers;
        long warm = cycles / 4 + 2000;
        p = params(k, rate, 1, 1, 1);
        timing t1 = time_run(&p, warm, cycles, repeat);
        p.threads = threads;
        timing tn = time_run(&p, warm, cycles, repeat);
        int same = memcmp(&t1.c, &tn.c, sizeof t1.c) == 0;
        p = params(k, rate, 0, 1, 0);
        timing tf = time_run(&p, warm, cycles, repeat);
        p = params(k, rate, 0, 1, 1);
        timing ta = time_run(&p, warm, cycles, repeat);
        printf("%5d %9.6f %6ld %6ld | %7.3f %7.3f | %7.3f %7.3f | %6.2fx "
               "%9s | %7.3f %7.3f %7.3f %7.3f\n",
               k, rate, warm, cycles, t1.wall, t1.cpu, tn.wall, tn.cpu,
               t1.wall / tn.wall, same ? "identical" : "DIFFER", tf.wall,
               tf.cpu, ta.wall, ta.cpu);
        printf("      saturation %.6f msgs/node/cycle (%s); delivered %ld, "
               "flits consumed %ld\n",
               s.rate, given[i] > 0 ? "given" : sim_status_name(s.status),
               t1.c.delivered, t1.c.flits_consumed);
        printf("      %d threads: busiest thread %.3f CPU s; estimate for "
               "idle cores %.2fx (1-thread CPU / busiest thread's)\n",
               threads, tn.thread_max, t1.cpu / tn.thread_max);
        fflush(stdout);
    }
    load_average();
    return 0;
}

/*
 * bench/sim_saturated.c — simulator speed by regime: light load, half of
 * saturation and overload, on the cases of issue 14.
 *
 *   bench_sim_saturated [--quick] [--repeat N] [CASE ...]
 *
 * Each case builds a network at a fixed rate, steps it `warm` cycles
 * (untimed: the network fills up), then `cycles` more, timed on the
 * process's CPU clock, and prints simulated router-cycles per CPU second
 * (nodes x cycles / CPU s), the accepted throughput over the timed cycles,
 * and a fingerprint of the network's counters at the end (flits injected
 * and consumed, messages delivered), so that two builds can be compared
 * for speed and for bit-identical behaviour with the same command.  Only
 * sim_net_create / sim_net_step / sim_net_counts are used: the file also
 * builds against older revisions of sim/.
 *
 * Cases (rates in messages/node/cycle; "sat" = accepted rate at overload):
 *   5cube-sat   4-ary 5-cube torus, dimension order, V=6, B=1, D_r=1,
 *               128-flit messages, rate 0.01 (far past saturation)
 *   t32-sat     32x32 torus, same router and messages, rate 0.01
 *   t8-sat      8x8 torus, dimension order, V=2, B=4, 16-flit messages,
 *               rate 0.03 (about 2x saturation)
 *   *-light     the same at 1% of the saturation rate
 *   *-half      the same at half of the saturation rate
 *
 * --repeat N: run each case N times and report the least CPU time (the
 * machine is shared: the minimum is the least disturbed run).
 * --quick: fewer cycles (smoke test).  CASE names select cases (default:
 * all).  Nothing is asserted: a bench prints figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

typedef struct bcase {
    const char *name, *design, *workload;
    double rate;
    long warm, cycles;
} bcase;

#define CUBE5 "topology=torus n=5 k=4 vcs=6 buffer=1 width=1 router_delay=1"
#define T32 "topology=torus n=2 k=32 vcs=6 buffer=1 width=1 router_delay=1"
#define T8 "topology=torus n=2 k=8 vcs=2 buffer=4 routing=deterministic"

/* Saturation (accepted flits/node/cycle at overload, measured): 5-cube
 * about 0.37 (0.0029 msgs), 32x32 about 0.07 (0.00055), 8x8 about 0.22
 * (0.014). */
static const bcase cases[] = {
    {"5cube-sat", CUBE5, "message_bits=128", 0.01, 6000, 4000},
    {"t32-sat", T32, "message_bits=128", 0.01, 6000, 4000},
    {"t8-sat", T8, "message_bits=16", 0.03, 20000, 200000},
    {"5cube-half", CUBE5, "message_bits=128", 0.00145, 20000, 40000},
    {"t32-half", T32, "message_bits=128", 0.00028, 20000, 40000},
    {"t8-half", T8, "message_bits=16", 0.0075, 20000, 400000},
    {"5cube-light", CUBE5, "message_bits=128", 0.00003, 20000, 400000},
    {"t32-light", T32, "message_bits=128", 0.000006, 20000, 400000},
    {"t8-light", T8, "message_bits=16", 0.00015, 20000, 2000000},
};

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_case(const bcase *c, int quick, int repeat)
{
    sim_params p;
    sim_params_init(&p);
    err e;
    if (net_design_parse(&p.design, c->design, &e) ||
        net_workload_parse(&p.workload, c->workload, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    p.rate = c->rate;
    p.seed = 1;
    sim_net *net;
    if (sim_net_create(&p, &net, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    long warm = quick ? c->warm / 4 : c->warm;
    long cycles = quick ? c->cycles / 10 : c->cycles;
    double nodes = (double)net_nodes(&p.design);
    sim_counts a, b;
    double cpu = 0;
    for (int k = 0; k < repeat; k++) {
        if (k) {
            sim_net_destroy(net);
            if (sim_net_create(&p, &net, &e)) {
                fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
                exit(1);
            }
        }
        if (sim_net_step(net, warm, &e)) {
            fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
            exit(1);
        }
        sim_net_counts(net, &a);
        double t0 = cpu_s();
        if (sim_net_step(net, cycles, &e)) {
            fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
            exit(1);
        }
        double t = cpu_s() - t0;
        if (k == 0 || t < cpu)
            cpu = t;
        sim_net_counts(net, &b);
    }
    if (sim_check_invariants(net, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    long span = b.cycle - a.cycle;
    printf("%-12s rate %-9g %7ld cycles %7.2f cpu_s %9.2f Mrc/s  "
           "accepted %.4f flits/node/cycle  [inj %ld cons %ld del %ld]\n",
           c->name, c->rate, span, cpu, nodes * (double)span / cpu / 1e6,
           (double)(b.flits_consumed - a.flits_consumed) / nodes /
               (double)span,
           b.flits_injected, b.flits_consumed, b.delivered);
    fflush(stdout);
    sim_net_destroy(net);
}

int main(int argc, char **argv)
{
    int quick = 0, named = 0, repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else
            named = 1;
    }
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int want = !named;
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], cases[k].name) == 0)
                want = 1;
        if (want)
            run_case(&cases[k], quick, repeat);
    }
    return 0;
}

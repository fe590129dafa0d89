/*
 * bench/sim_saturated.c — simulator speed by regime: light load, half of
 * saturation and overload, on the study-sized networks the simulator must
 * keep fast (the cases below).
 *
 *   bench_sim_saturated [--quick] [--repeat N] [CASE ...]
 *   bench_sim_saturated --saturation CASE ...
 *   bench_sim_saturated --sweep CASE LO HI FACTOR WARM SPAN
 *   bench_sim_saturated --queues CASE RATE CYCLES [SEED]
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
 *   5cube-near  the 5-cube at 0.0028, just below saturation
 *   t8v4-sat, t8duato-sat, m8-sat   8x8 torus V=4 B=2 dimension order /
 *               Duato, 8x8 mesh V=2 B=4, 16-flit messages, one flit per
 *               node per cycle offered (the fall past saturation)
 *
 * --repeat N: run each case N times and report the least CPU time (the
 * machine is shared: the minimum is the least disturbed run).
 * --saturation: sim_saturation() on each case's design (rate ignored),
 * with its answer, interval, probes and CPU time.
 * --sweep: the manual reference for it: fixed-cycle runs (WARM cycles,
 * then SPAN measured) at rates LO, LO x FACTOR, ... up to HI, printing
 * offered and accepted flits/node/cycle and the backlog growth.
 * --queues: where the backlog sits past saturation (per-node source queue
 * lengths; see sim/saturation.c, PAST SATURATION).
 * --quick: fewer cycles (smoke test).  CASE names select cases (default:
 * all).  Nothing is asserted: a bench prints figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"
#include "sim/sim_int.h"         /* --queues reads the source queues */

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
    {"5cube-near", CUBE5, "message_bits=128", 0.0028, 20000, 10000},
    {"t32-half", T32, "message_bits=128", 0.00028, 20000, 40000},
    {"t8-half", T8, "message_bits=16", 0.0075, 20000, 400000},
    {"t8v4-sat", "topology=torus n=2 k=8 vcs=4 buffer=2", "message_bits=16",
     0.0625, 20000, 40000},
    {"t8duato-sat", "topology=torus n=2 k=8 vcs=4 buffer=2 routing=duato",
     "message_bits=16", 0.0625, 20000, 40000},
    {"m8-sat", "topology=mesh n=2 k=8 vcs=2 buffer=4", "message_bits=16",
     0.0625, 20000, 40000},
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

static void parse_case(const bcase *c, sim_params *p)
{
    err e;
    sim_params_init(p);
    if (net_design_parse(&p->design, c->design, &e) ||
        net_workload_parse(&p->workload, c->workload, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
}

#ifdef SIM_HAS_SATURATION
/* sim_saturation on the case's design, with its CPU time. */
static void saturation_case(const bcase *c)
{
    sim_params p;
    parse_case(c, &p);
    sim_saturation_result r;
    err e;
    if (getenv("SEED"))
        p.seed = (uint64_t)atol(getenv("SEED"));
    double t0 = cpu_s();
    if (sim_saturation(&p, &r, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    double cpu = cpu_s() - t0;
    int len = net_message_flits(&p.design, &p.workload);
    printf("%-12s saturation %.6g msgs/node/cycle [%.6g, %.6g] = %.4f "
           "flits/node/cycle (stable at %.6g, unstable at %.6g); overload "
           "accepts %.4f; %d probes of %ld + %ld cycles, %ld cycles, %.2f "
           "cpu_s %s%s\n",
           c->name, r.rate, r.rate_lo, r.rate_hi, r.flits, r.lo, r.hi,
           r.throughput, r.probes,
           r.warm_cycles, r.span_cycles, r.cycles, cpu,
           sim_status_name(r.status), r.detail[0] ? "" : "");
    if (r.detail[0])
        printf("  %s\n", r.detail);
    (void)len;
    fflush(stdout);
}

#endif

/* A manual sweep: fixed-cycle runs at rates lo, lo*f, ... up to hi,
 * printing offered and accepted flits and the backlog growth over the
 * measured cycles. */
static void sweep_case(const bcase *c, double lo, double hi, double f,
                       long warm, long span)
{
    sim_params p;
    parse_case(c, &p);
    int len = net_message_flits(&p.design, &p.workload);
    for (double rate = lo; rate <= hi * (1 + 1e-9); rate *= f) {
        p.rate = rate;
        sim_net *net;
        err e;
        if (sim_net_create(&p, &net, &e)) {
            fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
            exit(1);
        }
        sim_counts a, b;
        double t0 = cpu_s();
        if (sim_net_step(net, warm, &e)) {
            fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
            exit(1);
        }
        sim_net_counts(net, &a);
        if (sim_net_step(net, span, &e)) {
            fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
            exit(1);
        }
        sim_net_counts(net, &b);
        double nc = (double)net_nodes(&p.design) * (double)span;
        double gen = (double)(b.flits_generated - a.flits_generated);
        double cons = (double)(b.flits_consumed - a.flits_consumed);
        double inj = (double)(b.flits_injected - a.flits_injected);
        printf("%-12s rate %.6g (%.4f flits) offered %.4f accepted %.4f "
               "backlog growth %.2f%% (at the sources %.2f%%) of generated "
               " (%.1f cpu_s)\n",
               c->name, rate, rate * len, gen / nc, cons / nc,
               100 * (gen - cons) / gen, 100 * (gen - inj) / gen,
               cpu_s() - t0);
        fflush(stdout);
        sim_net_destroy(net);
    }
}

/* Where the backlog sits past saturation: after `cycles` cycles at `rate`,
 * the accepted rate over the last quarter, the share of empty source queues
 * and, for 2-D networks, each node's queue length as a grid (row = y). */
static void queues_case(const bcase *c, double rate, long cycles,
                        uint64_t seed)
{
    sim_params p;
    parse_case(c, &p);
    p.rate = rate;
    p.seed = seed;
    sim_net *net;
    err e;
    if (sim_net_create(&p, &net, &e) ||
        sim_net_step(net, cycles - cycles / 4, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    long cons = net->flits_consumed;
    if (sim_net_step(net, cycles / 4, &e)) {
        fprintf(stderr, "bench_sim_saturated: %s\n", e.msg);
        exit(1);
    }
    int empty = 0;
    for (int u = 0; u < net->nodes; u++)
        empty += net->iq[u * net->topo.ipn].len == 0;
    printf("%s at %g, seed %llu, cycle %ld: accepted %.4f flits/node/cycle "
           "over the last %ld cycles; %.1f messages queued per node, %.0f%% "
           "of the queues empty\n",
           c->name, rate, (unsigned long long)seed, (long)net->now,
           (double)(net->flits_consumed - cons) / net->nodes /
               (double)(cycles / 4),
           cycles / 4, (double)net->queued / net->nodes,
           100.0 * empty / net->nodes);
    if (p.design.n == 2)
        for (int y = 0; y < p.design.k[1]; y++) {
            for (int x = 0; x < p.design.k[0]; x++)
                printf("%6d", net->iq[(y * p.design.k[0] + x) *
                                      net->topo.ipn].len);
            printf("\n");
        }
    sim_net_destroy(net);
}

static const bcase *find_case(const char *name)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        if (strcmp(cases[k].name, name) == 0)
            return &cases[k];
    fprintf(stderr, "bench_sim_saturated: no case %s\n", name);
    exit(2);
}

int main(int argc, char **argv)
{
#ifdef SIM_HAS_SATURATION
    if (argc >= 3 && strcmp(argv[1], "--saturation") == 0) {
        for (int i = 2; i < argc; i++)
            saturation_case(find_case(argv[i]));
        return 0;
    }
#endif
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "--queues") == 0) {
        queues_case(find_case(argv[2]), atof(argv[3]), atol(argv[4]),
                    argc == 6 ? (uint64_t)atol(argv[5]) : 1);
        return 0;
    }
    if (argc == 8 && strcmp(argv[1], "--sweep") == 0) {
        sweep_case(find_case(argv[2]), atof(argv[3]), atof(argv[4]),
                   atof(argv[5]), atol(argv[6]), atol(argv[7]));
        return 0;
    }

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

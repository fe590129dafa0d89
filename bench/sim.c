/*
 * bench/sim.c — speed and memory of the flit-level simulator, and model
 * versus simulation at low and moderate load.
 *
 *   bench_sim [--quick]
 *
 * 1. Speed: 8x8 torus, dimension-order routing, 2 VCs, 4-flit buffers,
 *    16-flit messages, uniform traffic.  The saturation rate is found by
 *    bisection on sim_run's saturated flag (short runs), then one full run
 *    (20000 warm-up + 200000 measured messages) at half of it is timed:
 *    simulated router-cycles per second = 64 x cycles / wall seconds.
 *    Target: >= 20 million on one core in a Release build.
 *    The same protocol for simulator II's networks at their validation
 *    sizes ([L99] chapters 2 and 6): a 16x16 DCSH (Duato, V = 2) and a 32x32
 *    one (dimension order, V = 1: message-level multiplexers), and 32x32
 *    express-cubes (kn = 4, m = 1 and 4, V = 2), 32-flit messages;
 *    router-cycles counts node routers (N x cycles), as dse sim does —
 *    express interchanges and DCSH bus legs are extra work per node.
 * 2. Memory: peak RSS (getrusage) after building and running a 64x64 torus
 *    with the same router for 20000 cycles at a light load.  Target: under
 *    300 MB.
 * 3. Model vs simulation: for every registered analytic model whose own
 *    example (model.example) the simulator supports and that has at most
 *    1024 nodes, latency at 10% and 50% of the model's saturation rate, both
 *    ways, and the relative error.  A bench: nothing is asserted.
 *
 * --quick: shorter runs (for a smoke test).  Exit status 0 unless a run
 * cannot start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dse/dse.h"
#include "models/model.h"
#include "sim/sim.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;   /* Linux: kilobytes */
}

static void set_design(sim_params *p, const char *design,
                       const char *workload)
{
    sim_params_init(p);
    err e;
    if (net_design_parse(&p->design, design, &e) ||
        net_workload_parse(&p->workload, workload, &e)) {
        fprintf(stderr, "bench_sim: %s\n", e.msg);
        exit(1);
    }
}

static void speed_design(sim_params *p)
{
    set_design(p, "topology=torus k=8 n=2 vcs=2 buffer=4 "
                  "routing=deterministic",
               "message_bits=16 traffic=uniform");
}

static int saturated_at(const sim_params *base, double rate, int quick)
{
    sim_params p = *base;
    sim_result r;
    err e;
    p.rate = rate;
    p.warmup_messages = quick ? 2000 : 5000;
    p.messages = quick ? 10000 : 30000;
    if (sim_run(&p, &r, &e)) {
        fprintf(stderr, "bench_sim: %s\n", e.msg);
        exit(1);
    }
    return r.status != SIM_OK;
}

/* Bisection for the saturation rate between lo and hi, then one timed run
 * at half of it; prints the figures under `label`. */
static void speed_run(const char *label, sim_params *p, double lo, double hi,
                      int quick)
{
    int len = net_message_flits(&p->design, &p->workload);
    long nodes = net_nodes(&p->design);
    double t0 = now_s();
    for (int i = 0; i < (quick ? 6 : 10); i++) {
        double mid = 0.5 * (lo + hi);
        if (saturated_at(p, mid, quick))
            hi = mid;
        else
            lo = mid;
    }
    double sat = lo;
    printf("%s: saturation rate %.5f msgs/node/cycle (%.4f flits/node/cycle), "
           "found in %.1f s\n",
           label, sat, sat * len, now_s() - t0);

    p->rate = 0.5 * sat;
    if (quick) {
        p->warmup_messages = 5000;
        p->messages = 40000;
    }
    sim_result r;
    err e;
    t0 = now_s();
    if (sim_run(p, &r, &e)) {
        fprintf(stderr, "bench_sim: %s\n", e.msg);
        exit(1);
    }
    double wall = now_s() - t0;
    printf("  at half saturation (rate %.5f): latency %.2f +- %.2f cycles, "
           "accepted %.4f flits/node/cycle, %ld messages, %ld cycles in "
           "%.2f s\n",
           p->rate, r.latency, r.latency_ci95, r.accepted_flits, r.messages,
           r.cycles, wall);
    printf("  speed: %.1f million router-cycles/s, %.0f messages/s\n",
           (double)nodes * (double)r.cycles / wall / 1e6,
           (double)(r.messages + p->warmup_messages) / wall);
}

static void bench_speed(int quick)
{
    sim_params p;
    speed_design(&p);
    speed_run("8x8 torus, deterministic, V=2, B=4, L=16, uniform (target >= "
              "20 million router-cycles/s)",
              &p, 0.001, 0.06, quick);
}

/* Simulator II: DCSH and express-cube speed at their validation sizes. */
static void bench_speed2(int quick)
{
    static const struct {
        const char *label, *design, *workload;
        double lo, hi;
    } cases[] = {
        {"16x16 DCSH, duato, V=2, B=1, L=32 exponential, uniform",
         "topology=dcsh k=16 n=2 vcs=2 routing=duato router_delay=0",
         "message_bits=32 length=exponential", 0.0005, 0.05},
        {"32x32 DCSH, deterministic, V=1 (message-level multiplexers), B=1, "
         "L=32 exponential, uniform",
         "topology=dcsh k=32 n=2 vcs=1 router_delay=0",
         "message_bits=32 length=exponential", 0.0005, 0.05},
        {"32x32 express-cube, kn=4, m=1, deterministic, V=2, B=1, L=32 "
         "exponential, uniform",
         "topology=express k=32 n=2 kn=4 m=1 vcs=2 router_delay=0",
         "message_bits=32 length=exponential", 0.0001, 0.01},
        {"32x32 express-cube, kn=4, m=4, deterministic, V=2, B=1, L=32 "
         "exponential, uniform",
         "topology=express k=32 n=2 kn=4 m=4 vcs=2 router_delay=0",
         "message_bits=32 length=exponential", 0.0001, 0.01},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_params p;
        set_design(&p, cases[i].design, cases[i].workload);
        speed_run(cases[i].label, &p, cases[i].lo, cases[i].hi, quick);
    }
}

static void bench_memory(int quick)
{
    sim_params p;
    speed_design(&p);
    net_design_set_radix(&p.design, 2, 64);
    p.rate = 0.0005;
    sim_net *net;
    err e;
    double t0 = now_s();
    if (sim_net_create(&p, &net, &e)) {
        fprintf(stderr, "bench_sim: %s\n", e.msg);
        exit(1);
    }
    long cycles = quick ? 5000 : 20000;
    if (sim_net_step(net, cycles, &e)) {
        fprintf(stderr, "bench_sim: %s\n", e.msg);
        exit(1);
    }
    double wall = now_s() - t0;
    sim_counts c;
    sim_net_counts(net, &c);
    printf("64x64 torus (4096 routers), same router, rate %.4f: %ld cycles, "
           "%ld messages generated, %ld flits buffered at the end, "
           "%.1f million router-cycles/s\n",
           p.rate, cycles, c.generated, c.flits_buffered,
           4096.0 * (double)cycles / wall / 1e6);
    sim_net_destroy(net);
    printf("  peak RSS %.1f MB (target < 300)\n", peak_rss_mb());
}

static void bench_models(int quick)
{
    size_t count;
    const model *const *reg = model_registry(&count);
    if (count == 0) {
        printf("no analytic model registered: model vs simulation "
               "skipped\n");
        return;
    }
    printf("\nmodel vs simulation (model's own example; sim %s messages, "
           "95%% CI):\n",
           quick ? "10000" : "50000");
    printf("%-26s %6s %9s %10s %10s %8s %8s  %s\n", "model", "load",
           "rate", "model", "sim", "+-95%", "err%", "design");
    model_opts o;
    model_opts_init(&o);
    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        net_design d;
        net_workload w;
        net_design_init(&d);
        net_workload_init(&w);
        m->example(&d, &w);
        char text[512];
        net_design_format(&d, text, sizeof text);
        err e;
        if (sim_supports(&d, &w, &e)) {
            printf("%-26s  (not simulated: %s)\n", m->name, e.msg);
            continue;
        }
        if (net_nodes(&d) > 1024) {
            printf("%-26s  (skipped: %ld nodes)\n", m->name, net_nodes(&d));
            continue;
        }
        double sat;
        if (model_saturation_rate(m, &d, &w, &o, &sat, &e)) {
            printf("%-26s  (no saturation rate: %s)\n", m->name, e.msg);
            continue;
        }
        static const double loads[] = {0.1, 0.5};
        for (int j = 0; j < 2; j++) {
            double rate = loads[j] * sat;
            model_result mr;
            m->eval(&d, &w, rate, &o, &mr);
            sim_params p;
            sim_params_init(&p);
            p.design = d;
            p.workload = w;
            p.rate = rate;
            p.warmup_messages = quick ? 2000 : 10000;
            p.messages = quick ? 10000 : 50000;
            sim_result r;
            if (sim_run(&p, &r, &e)) {
                printf("%-26s  (sim failed: %s)\n", m->name, e.msg);
                break;
            }
            if (r.status == SIM_OK && !mr.saturated)
                printf("%-26s %5.0f%% %9.5f %10.2f %10.2f %8.2f %+8.1f  %s\n",
                       m->name, 100 * loads[j], rate, mr.latency, r.latency,
                       r.latency_ci95,
                       100 * (mr.latency - r.latency) / r.latency, text);
            else
                printf("%-26s %5.0f%% %9.5f %10s %10s %8s %8s  %s (sim %s)\n",
                       m->name, 100 * loads[j], rate,
                       mr.saturated ? "sat" : "-", "-", "-", "-", text,
                       sim_status_name(r.status));
        }
    }
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    printf("bench_sim (%s)\n", dse_version_string());
    bench_speed(quick);
    bench_speed2(quick);
    bench_memory(quick);
    bench_models(quick);
    return 0;
}

/*
 * bench/models.c — speed of every registered analytic model.
 *
 *   bench_models [SECONDS]
 *
 * For each model, on its own example (model.example): the saturation rate
 * and the wall time of one model_saturation_rate() search, then the cost
 * of one eval() at 10%, 50% and 90% of saturation (mean over repeated
 * calls for at least SECONDS per point, default 0.2), as microseconds per
 * (design, rate) point and evaluations per second, with the iterations
 * the solver used, and the physical screen (models/bound.c): the
 * saturation rate as a fraction of the channel-load bound, and the
 * microseconds one model_bound_compute() costs (every eval() pays it).
 * The design-space search scores designs at a few rates
 * each, so the 50% column is the figure that matters; the closed-form
 * models aim at < 20 us per point in a Release build.
 *
 * Prints a table; never fails on timing (exit 0 unless a model's example
 * has no saturation rate, which tests/test_models.c would also catch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "models/model.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Mean seconds per eval() at one rate, over >= min_seconds of calls. */
static double time_eval(const model *m, const net_design *d,
                        const net_workload *w, const model_opts *o,
                        double rate, double min_seconds, int *iterations)
{
    model_result r;
    volatile double sink = 0;
    long calls = 0, batch = 16;
    double start = now_seconds(), elapsed;
    do {
        for (long i = 0; i < batch; i++) {
            m->eval(d, w, rate, o, &r);
            sink += r.latency;
        }
        calls += batch;
        batch *= 2;
        elapsed = now_seconds() - start;
    } while (elapsed < min_seconds);
    (void)sink;
    *iterations = r.iterations;
    return elapsed / (double)calls;
}

int main(int argc, char **argv)
{
    double min_seconds = argc > 1 ? atof(argv[1]) : 0.2;
    if (!(min_seconds > 0))
        min_seconds = 0.2;
    size_t count;
    const model *const *reg = model_registry(&count);
    model_opts o;
    model_opts_init(&o);
    int status = 0;
    printf("analytic models on their examples: eval() cost at 10/50/90%% of "
           "saturation, saturation search time\n\n");
    printf("%-26s %11s %7s %9s %9s %9s %6s %10s %10s %9s\n", "model",
           "saturation", "/bound", "us@10%", "us@50%", "us@90%", "it@50%",
           "evals/s@50", "search ms", "bound us");
    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        double sat = 0;
        err e;
        err_clear(&e);
        double t0 = now_seconds();
        int searches = 0;
        do {
            if (model_saturation_rate(m, &d, &w, &o, &sat, &e)) {
                printf("%-26s no saturation rate: %s\n", m->name, e.msg);
                status = 1;
                break;
            }
            searches++;
        } while (now_seconds() - t0 < min_seconds);
        if (status)
            continue;
        double search = (now_seconds() - t0) / searches;
        int it10, it50, it90;
        double t10 = time_eval(m, &d, &w, &o, 0.1 * sat, min_seconds, &it10);
        double t50 = time_eval(m, &d, &w, &o, 0.5 * sat, min_seconds, &it50);
        double t90 = time_eval(m, &d, &w, &o, 0.9 * sat, min_seconds, &it90);
        /* the physical screen every eval() starts with (models/bound.c):
         * how close the model gets to it, and what it costs */
        model_bound b;
        int nb = 0;
        t0 = now_seconds();
        do {
            model_bound_compute(&d, &w, &b, NULL);
            nb++;
        } while (now_seconds() - t0 < min_seconds);
        double tb = (now_seconds() - t0) / nb;
        printf("%-26s %11.5g %7.3f %9.2f %9.2f %9.2f %6d %10.0f %10.3f "
               "%9.2f\n",
               m->name, sat, sat / b.rate, 1e6 * t10, 1e6 * t50, 1e6 * t90,
               it50, 1.0 / t50, 1e3 * search, 1e6 * tb);
    }
    return status;
}

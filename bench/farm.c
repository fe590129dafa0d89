/*
 * bench/farm.c — what the Redis farm costs and what it buys.
 *
 *   bench_farm [--redis URL] [--quick]
 *
 * Without --redis it starts its own redis-server (from PATH) on a free
 * loopback port, without persistence, and stops it at the end.  Workers
 * run in this process (dse_worker_run on their own threads and their own
 * connections), which is the same work a `dse worker` process does.
 *
 * 1. Simulation stage: S independent simulations (8x8 torus, dimension
 *    order, 2 VCs, 4-flit buffers, 16-flit messages, uniform traffic at
 *    0.01 messages/node/cycle, two thirds of saturation, 40000 measured
 *    messages each, seeds 1..S; every run checked not saturated), run by
 *      - the local executor (sim_run_many) on 1 and on 2 threads,
 *      - the farm with 1 worker and with 2 workers (one slot each).
 *    Speed-up = farm 1 worker / farm 2 workers.  On a 2-core machine the
 *    ceiling is 2; the coordinator and Redis take a little CPU too.
 * 2. Per-job overhead: J tiny simulations (4x4 torus, 20 messages, about
 *    20 microseconds of work each) on the local executor (1 thread) and
 *    the farm (1 worker): (farm - local) / J is what one job costs in
 *    enqueueing, delivery, result storage, acknowledgement and
 *    announcement.  Then the same J again, answered from the result cache.
 * Every farm run uses a fresh key prefix (no cache hits unless intended),
 * and its results are compared bit for bit with the local ones.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dse/dse.h"
#include "dse/farm/farm.h"
#include "dse/common/progress.h"
#include "sim/sim.h"

typedef struct wthread {
    dse_store_spec spec;
    dse_worker_opts o;
    volatile sig_atomic_t stop;
    pthread_t th;
} wthread;

static void *worker_main(void *arg)
{
    wthread *w = arg;
    err e;
    if (dse_worker_run(&w->spec, &w->o, &w->stop, NULL, &e))
        fprintf(stderr, "worker: %s\n", e.msg);
    return NULL;
}

static void workers_start(wthread *w, int n, const dse_store_spec *spec,
                          const char *prefix)
{
    for (int i = 0; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].spec = *spec;
        dse_worker_opts_init(&w[i].o);
        snprintf(w[i].o.farm.prefix, sizeof w[i].o.farm.prefix, "%s", prefix);
        snprintf(w[i].o.name, sizeof w[i].o.name, "bench-%d", i);
        w[i].o.slots = 1;
        pthread_create(&w[i].th, NULL, worker_main, &w[i]);
    }
}

static void workers_stop(wthread *w, int n)
{
    for (int i = 0; i < n; i++)
        w[i].stop = 1;
    for (int i = 0; i < n; i++)
        pthread_join(w[i].th, NULL);
}

/* Run jobs on the farm with `workers` workers under a fresh prefix;
 * seconds, or -1.  With keep_prefix, the previous prefix is reused (cache). */
static double farm_run(const dse_store_spec *spec, const sim_params *jobs,
                       size_t n, int workers, const char *prefix,
                       sim_result *res, int *codes)
{
    wthread w[8];
    workers_start(w, workers, spec, prefix);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    snprintf(fo.prefix, sizeof fo.prefix, "%s", prefix);
    dse_farm *farm;
    err e;
    double secs = -1;
    if (dse_farm_create(spec, &fo, &farm, &e) == 0) {
        dse_executor ex;
        dse_farm_executor(farm, &ex);
        double t0 = dse_now_s();
        if (ex.simulate(ex.self, jobs, n, res, codes, NULL, NULL, &e) == 0)
            secs = dse_now_s() - t0;
        else
            fprintf(stderr, "farm: %s\n", e.msg);
        dse_farm_destroy(farm);
    } else {
        fprintf(stderr, "farm: %s\n", e.msg);
    }
    workers_stop(w, workers);
    return secs;
}

static double local_run(const sim_params *jobs, size_t n, int threads,
                        sim_result *res, int *codes)
{
    double t0 = dse_now_s();
    sim_run_many(jobs, (int)n, threads, res, codes, NULL, NULL, NULL, NULL);
    return dse_now_s() - t0;
}

static int same(const sim_result *a, const sim_result *b, const int *ca,
                const int *cb, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ca[i] != cb[i] || memcmp(&a[i], &b[i], sizeof a[i]) != 0)
            return 0;
    return 1;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
        getsockname(fd, (struct sockaddr *)&a, &len))
        return -1;
    int port = ntohs(a.sin_port);
    close(fd);
    return port;
}

int main(int argc, char **argv)
{
    const char *url = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--redis") == 0 && i + 1 < argc)
            url = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else {
            fprintf(stderr, "usage: bench_farm [--redis URL] [--quick]\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    char own[64];
    pid_t server = 0;
    if (!url) {
        int port = free_port();
        char p[16];
        snprintf(p, sizeof p, "%d", port);
        server = fork();
        if (server == 0) {
            FILE *f = freopen("/dev/null", "w", stdout);
            (void)f;
            execlp("redis-server", "redis-server", "--port", p, "--bind",
                   "127.0.0.1", "--save", "", "--appendonly", "no",
                   (char *)NULL);
            _exit(127);
        }
        snprintf(own, sizeof own, "redis://127.0.0.1:%d", port);
        url = own;
    }
    dse_store_spec spec = {0};
    err e;
    if (dse_store_url_parse(url, &spec.redis, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 2;
    }
    int up = 0;
    for (int i = 0; i < 100 && !up; i++) {
        dse_store st;
        dse_store_open(&spec, &st);
        up = st.ops->ping(st.self, NULL) == 0;
        dse_store_close(&st);
        if (!up)
            nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    if (!up) {
        fprintf(stderr, "bench_farm: no Redis at %s (is redis-server installed?)\n",
                url);
        return 1;
    }
    char run_id[32];
    snprintf(run_id, sizeof run_id, "%ld", (long)getpid());
    printf("bench_farm (%s), Redis at %s\n", dse_version_string(), url);

    /* ---- 1. simulation stage ---- */
    size_t S = quick ? 4 : 8;
    sim_params *jobs = calloc(S, sizeof *jobs);
    for (size_t i = 0; i < S; i++) {
        sim_params_init(&jobs[i]);
        net_design_set_radix(&jobs[i].design, 2, 8);
        jobs[i].design.buffer_flits = 4;
        jobs[i].workload.message_bits = 16;
        jobs[i].rate = 0.01; /* saturation is near 0.015 */
        jobs[i].seed = i + 1;
        jobs[i].warmup_messages = 2000;
        jobs[i].messages = quick ? 5000 : 40000;
    }
    sim_result *r0 = calloc(S, sizeof *r0), *r1 = calloc(S, sizeof *r1);
    int *c0 = calloc(S, sizeof *c0), *c1 = calloc(S, sizeof *c1);
    double l1 = local_run(jobs, S, 1, r0, c0);
    for (size_t i = 0; i < S; i++)
        if (c0[i] || r0[i].status != SIM_OK)
            fprintf(stderr, "bench_farm: job %zu: %s (not a steady state)\n", i,
                    sim_status_name(r0[i].status));
    double l2 = local_run(jobs, S, 2, r1, c1);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "bench:%s:a:", run_id);
    double f1 = farm_run(&spec, jobs, S, 1, prefix, r1, c1);
    int ok1 = same(r0, r1, c0, c1, S);
    snprintf(prefix, sizeof prefix, "bench:%s:b:", run_id);
    double f2 = farm_run(&spec, jobs, S, 2, prefix, r1, c1);
    int ok2 = same(r0, r1, c0, c1, S);
    printf("\n1. simulation stage: %zu jobs (8x8 torus, %ld measured messages "
           "each)\n",
           S, jobs[0].messages);
    printf("   %-26s %8s %9s\n", "executor", "seconds", "speed-up");
    printf("   %-26s %8.2f %9s\n", "local, 1 thread", l1, "1.00");
    printf("   %-26s %8.2f %9.2f\n", "local, 2 threads", l2, l1 / l2);
    printf("   %-26s %8.2f %9.2f  results %s\n", "farm, 1 worker", f1, l1 / f1,
           ok1 ? "identical" : "DIFFER");
    printf("   %-26s %8.2f %9.2f  results %s\n", "farm, 2 workers", f2, l1 / f2,
           ok2 ? "identical" : "DIFFER");
    printf("   farm speed-up, 2 workers over 1: %.2fx\n", f1 / f2);

    /* ---- 2. per-job overhead ---- */
    size_t J = quick ? 300 : 2000;
    sim_params *tiny = calloc(J, sizeof *tiny);
    for (size_t i = 0; i < J; i++) {
        sim_params_init(&tiny[i]);
        net_design_set_radix(&tiny[i].design, 2, 4);
        tiny[i].design.width = 32;
        tiny[i].rate = 0.01;
        tiny[i].seed = i + 1;
        tiny[i].warmup_messages = 0;
        tiny[i].messages = 20;
    }
    sim_result *t0 = calloc(J, sizeof *t0), *t1 = calloc(J, sizeof *t1);
    int *d0 = calloc(J, sizeof *d0), *d1 = calloc(J, sizeof *d1);
    double tl = local_run(tiny, J, 1, t0, d0);
    snprintf(prefix, sizeof prefix, "bench:%s:c:", run_id);
    double tf = farm_run(&spec, tiny, J, 1, prefix, t1, d1);
    int ok3 = same(t0, t1, d0, d1, J);
    double tc = farm_run(&spec, tiny, J, 1, prefix, t1, d1); /* cached */
    int ok4 = same(t0, t1, d0, d1, J);
    printf("\n2. per-job overhead: %zu tiny jobs (4x4 torus, 20 messages)\n", J);
    printf("   local, 1 thread:        %8.3f s  (%6.1f us/job)\n", tl,
           1e6 * tl / (double)J);
    printf("   farm, 1 worker:         %8.3f s  (%6.1f us/job)  results %s\n",
           tf, 1e6 * tf / (double)J, ok3 ? "identical" : "DIFFER");
    printf("   farm overhead per job:  %6.1f us\n",
           1e6 * (tf - tl) / (double)J);
    printf("   farm, all cached:       %8.3f s  (%6.1f us/job)  results %s\n",
           tc, 1e6 * tc / (double)J, ok4 ? "identical" : "DIFFER");
    printf("\n(keys left under bench:%s:* in that Redis)\n", run_id);

    free(jobs);
    free(r0);
    free(r1);
    free(c0);
    free(c1);
    free(tiny);
    free(t0);
    free(t1);
    free(d0);
    free(d1);
    if (server > 0) {
        kill(server, SIGTERM);
        waitpid(server, NULL, 0);
    }
    return ok1 && ok2 && ok3 && ok4 ? 0 : 1;
}

/*
 * test_farm_util.h — helpers for the farm's tests: a private redis-server
 * on a free loopback port (started and stopped by the test), dse worker
 * processes, and a study's results.json text without timings.
 *
 * Header-only (static functions) because each test file is its own
 * executable.
 */
#ifndef TEST_FARM_UTIL_H
#define TEST_FARM_UTIL_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <dirent.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dse/study/cfg.h"
#include "dse/farm/farm.h"
#include "dse/search/optimize.h"
#include "dse/report/report.h"
#include "dse/farm/store.h"

/* Every process and directory a test made, so that a failed assertion
 * (cmocka jumps out of the test) still leaves nothing running: killed and
 * removed at exit.  Children never keep the test's stdout/stderr open
 * (ctest waits for those pipes to close). */
#define TEST_MAX_TRACKED 64
static pid_t test_pids[TEST_MAX_TRACKED];
static char test_dirs[16][256];

static inline void test_cleanup_all(void)
{
    for (int i = 0; i < TEST_MAX_TRACKED; i++)
        if (test_pids[i] > 0) {
            kill(test_pids[i], SIGKILL);
            waitpid(test_pids[i], NULL, 0);
            test_pids[i] = 0;
        }
    for (int i = 0; i < 16; i++)
        if (test_dirs[i][0]) {
            char cmd[400];
            snprintf(cmd, sizeof cmd, "rm -rf '%.255s'", test_dirs[i]);
            if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", test_dirs[i]);
            test_dirs[i][0] = '\0';
        }
}

static inline void test_track(pid_t pid)
{
    static int registered;
    if (!registered++)
        atexit(test_cleanup_all);
    for (int i = 0; i < TEST_MAX_TRACKED; i++)
        if (test_pids[i] <= 0) {
            test_pids[i] = pid;
            return;
        }
}

/* The process ended (waited for elsewhere): stop tracking it. */
static inline void test_untrack(pid_t pid)
{
    for (int i = 0; i < TEST_MAX_TRACKED; i++)
        if (test_pids[i] == pid)
            test_pids[i] = 0;
}

static inline void test_track_dir(const char *dir)
{
    for (int i = 0; i < 16; i++)
        if (!test_dirs[i][0]) {
            snprintf(test_dirs[i], sizeof test_dirs[i], "%s", dir);
            return;
        }
}

/* In a child: stdout and stderr to this file (or /dev/null). */
static inline void test_child_output(const char *path)
{
    FILE *f = freopen(path ? path : "/dev/null", "a", stderr);
    FILE *g = freopen(path ? path : "/dev/null", "a", stdout);
    (void)f;
    (void)g;
}

typedef struct test_redis {
    pid_t pid;
    int port;
    char dir[256];
    char url[128];
    int persist;
} test_redis;

static inline void test_sleep(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static inline int test_redis_installed(void)
{
    return system("command -v redis-server >/dev/null 2>&1") == 0;
}

static inline int test_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) ||
        getsockname(fd, (struct sockaddr *)&a, &len)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static inline int test_redis_ping(const test_redis *r)
{
    dse_store_spec spec;
    memset(&spec, 0, sizeof spec);
    if (dse_store_url_parse(r->url, &spec.redis, NULL))
        return -1;
    spec.timeout_s = 1;
    dse_store st;
    dse_store_open(&spec, &st);
    int rc = st.ops->ping(st.self, NULL);
    dse_store_close(&st);
    return rc;
}

/* (Re)start the server on r->port (chosen on the first start).  0 when it
 * answers PING within 5 s. */
static inline int test_redis_start(test_redis *r)
{
    if (r->port == 0) {
        r->port = test_free_port();
        snprintf(r->dir, sizeof r->dir, "/tmp/dse_farm_test_XXXXXX");
        if (!mkdtemp(r->dir))
            return -1;
        test_track_dir(r->dir);
        snprintf(r->url, sizeof r->url, "redis://127.0.0.1:%d", r->port);
    }
    char port[16], log[300];
    snprintf(port, sizeof port, "%d", r->port);
    snprintf(log, sizeof log, "%s/redis.log", r->dir);
    pid_t pid = fork();
    if (pid == 0) {
        test_child_output(NULL);
        execlp("redis-server", "redis-server", "--port", port, "--bind",
               "127.0.0.1", "--save", "", "--appendonly",
               r->persist ? "yes" : "no", "--appendfsync", "always", "--dir",
               r->dir, "--logfile", log, "--daemonize", "no", (char *)NULL);
        _exit(127);
    }
    r->pid = pid;
    test_track(pid);
    for (int i = 0; i < 100; i++) {
        if (test_redis_ping(r) == 0)
            return 0;
        test_sleep(0.05);
    }
    return -1;
}

static inline void test_redis_stop(test_redis *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        test_untrack(r->pid);
        r->pid = 0;
    }
}

/* Stop the server and remove its directory. */
static inline void test_redis_fini(test_redis *r)
{
    test_redis_stop(r);
    if (r->dir[0]) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", r->dir);
    }
}

/* Start `dse worker` with one slot, a short heartbeat and visibility
 * timeout, quiet, plus up to 4 extra arguments (NULL-terminated). */
static inline pid_t test_worker_start(const test_redis *r, const char *name,
                                      const char *extra1, const char *extra2)
{
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/worker-%s.log", r->dir, name);
        test_child_output(log);
        const char *argv[20] = {DSE_BINARY, "worker", "--redis", r->url,
                                "--jobs", "1", "--name", name,
                                "--visibility", "2", "--heartbeat", "0.2"};
        int argc = 12;
        if (extra1)
            argv[argc++] = extra1;
        if (extra2)
            argv[argc++] = extra2;
        argv[argc] = NULL;
        execv(DSE_BINARY, (char *const *)argv);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

/* SIGTERM and wait; the exit status (or -1 if killed by a signal). */
static inline int test_worker_stop(pid_t pid)
{
    int st;
    kill(pid, SIGTERM);
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    test_untrack(pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Load a study from tests/data. */
static inline int test_load_study(const char *name, cfg_study *s)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/%s", DSE_SOURCE_DIR, name);
    return cfg_study_load(path, s, NULL);
}

/* Run the study (ex NULL: local pool) and return results.json without
 * timings (caller frees), or NULL with *rc set. */
static inline char *test_run_json(const cfg_study *s, const dse_executor *ex,
                                  int *rc, err *e)
{
    dse_optimize_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.quiet = 1;
    o.executor = ex;
    dse_run run;
    *rc = dse_optimize(s, &o, &run, e);
    char *buf = NULL;
    size_t len = 0;
    if (*rc == 0) {
        FILE *f = open_memstream(&buf, &len);
        dse_report_json(&run, f, 0, e);
        fclose(f);
    }
    dse_run_fini(&run);
    return buf;
}

/* A store handle on the test server. */
static inline void test_store_open(const test_redis *r, dse_store *st)
{
    dse_store_spec spec;
    memset(&spec, 0, sizeof spec);
    dse_store_url_parse(r->url, &spec.redis, NULL);
    dse_store_open(&spec, st);
}

static inline long long test_hget_ll(dse_store *st, const char *key,
                                     const char *field)
{
    size_t n;
    char **f, **v;
    long long out = 0;
    if (st->ops->hgetall(st->self, key, &n, &f, &v, NULL))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i], field) == 0)
            out = atoll(v[i]);
        free(f[i]);
        free(v[i]);
    }
    free(f);
    free(v);
    return out;
}

/* Run a shell command: its stdout into out (NULL: discarded; always
 * NUL-terminated), the rest read and dropped; its exit status. */
static inline int test_sh(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = out ? fread(out, 1, size - 1, p) : 0;
    if (out)
        out[n] = '\0';
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* waitpid with a deadline: the exit status (128 when killed by a signal),
 * or -1 (still running after `seconds`). */
static inline int test_wait_exit(pid_t pid, double seconds)
{
    for (double t = 0; t < seconds; t += 0.05) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            test_untrack(pid);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        }
        test_sleep(0.05);
    }
    return -1;
}

/* One field of the daemon's record of study id (prefix dse:) into buf
 * ("" when absent). */
static inline void test_study_field(dse_store *st, const char *id,
                                    const char *field, char *buf, size_t size)
{
    char key[160];
    snprintf(key, sizeof key, "dse:study:%s", id);
    size_t n;
    char **f, **v;
    buf[0] = '\0';
    if (st->ops->hgetall(st->self, key, &n, &f, &v, NULL))
        return;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i], field) == 0)
            snprintf(buf, size, "%s", v[i]);
        free(f[i]);
        free(v[i]);
    }
    free(f);
    free(v);
}

/* Wait (up to seconds) until study id's field `name` is want: 1, or 0
 * (and the last value on stderr). */
static inline int test_wait_study(dse_store *st, const char *id,
                                  const char *name, const char *want,
                                  double seconds)
{
    char buf[2048];
    for (double t = 0; t < seconds; t += 0.05) {
        test_study_field(st, id, name, buf, sizeof buf);
        if (strcmp(buf, want) == 0)
            return 1;
        test_sleep(0.05);
    }
    fprintf(stderr, "study %s: %s '%s', wanted '%s'\n", id, name, buf, want);
    return 0;
}

/* Call fn(path, n, ctx) on every file of a result cache (dir/XX/FILE, dot
 * files skipped; n counts from 1); the number of files visited. */
static inline size_t test_each_cache_file(const char *dir,
                                          void (*fn)(const char *, size_t, void *),
                                          void *ctx)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *x;
    while ((x = readdir(d))) {
        if (x->d_name[0] == '.')
            continue;
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", dir, x->d_name);
        DIR *d2 = opendir(sub);
        assert_non_null(d2);
        struct dirent *y;
        while ((y = readdir(d2))) {
            if (y->d_name[0] == '.')
                continue;
            char p[1200];
            snprintf(p, sizeof p, "%s/%s", sub, y->d_name);
            n++;
            if (fn)
                fn(p, n, ctx);
        }
        closedir(d2);
    }
    closedir(d);
    return n;
}

#endif

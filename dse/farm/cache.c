/*
 * cache.c — see cache.h.
 *
 * Invariants: a file DIR/XX/KEY.json holds the result of the job whose
 * key is KEY and nothing else (checked on reading by dse_job_result_parse
 * with the key); a job is never both answered from disk and sent to the
 * wrapped executor; results[q]/codes[q] are written only for job q.
 *
 * Rejected alternatives: one database file (SQLite, an append-only log)
 * would need locking between concurrent runs and a new dependency; a file
 * per result is what the farm's Redis keys already are, needs no index,
 * and two runs sharing a directory at most compute a result twice (rename
 * is atomic, the last one wins, both are identical).
 */
#define _POSIX_C_SOURCE 200809L
#include "dse/farm/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse/farm/job.h"
#include "net/xalloc.h"
#include "sim/sim.h"

#define RESULT_MAX (1024 * 1024) /* a result file larger than this is a miss */

struct dse_cache {
    char dir[4096];
    dse_executor inner;
    size_t hits, stored, write_failures;
    /* the first write failure: "cannot rename to " + a path of store()
     * (at most 4400 bytes, its tmp buffer) + ": " + strerror */
    char why[4400 + 128];
    unsigned long tmp_seq;
};

static int mkdir_p(const char *path, err *e)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) && errno != EEXIST)
            return err_set(e, ERR_IO, "cannot create %s: %s", buf,
                           strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) && errno != EEXIST)
        return err_set(e, ERR_IO, "cannot create %s: %s", buf, strerror(errno));
    return 0;
}

int dse_cache_default_dir(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/dse/results", xdg);
    else if (home && home[0])
        n = snprintf(buf, size, "%s/.cache/dse/results", home);
    else
        return -1;
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int dse_cache_create(const char *dir, const dse_executor *inner,
                     dse_cache **out, err *e)
{
    *out = NULL;
    if (strlen(dir) + 64 > sizeof((dse_cache *)0)->dir)
        return err_set(e, ERR_IO, "cache directory name too long");
    int rc = mkdir_p(dir, e);
    if (rc)
        return rc;
    struct stat sb;
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return err_set(e, ERR_IO, "cache directory %s exists and is not a "
                                  "directory",
                       dir);
    if (access(dir, W_OK | X_OK))
        return err_set(e, ERR_IO, "cache directory %s: %s", dir,
                       strerror(errno));
    dse_cache *c = xcalloc(1, sizeof *c);
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    c->inner = *inner;
    *out = c;
    return 0;
}

void dse_cache_destroy(dse_cache *c)
{
    free(c);
}

void dse_cache_counts(const dse_cache *c, size_t *hits, size_t *stored,
                      size_t *write_failures, const char **why)
{
    if (hits)
        *hits = c->hits;
    if (stored)
        *stored = c->stored;
    if (write_failures)
        *write_failures = c->write_failures;
    if (why)
        *why = c->why[0] ? c->why : NULL;
}

static void path_of(const dse_cache *c, const char *key, char *buf,
                    size_t size)
{
    snprintf(buf, size, "%s/%.2s/%s.json", c->dir, key, key);
}

/* The file's text (caller frees), or NULL when absent, too large, or not
 * a regular file.  Opened non-blocking and without following a symbolic
 * link: a FIFO or device planted in the cache directory would otherwise
 * block open() or read() forever; it is refused (a miss) by its type. */
static char *read_small(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
        sb.st_size > RESULT_MAX) {
        close(fd);
        return NULL;
    }
    char *buf = xmalloc((size_t)sb.st_size + 1);
    size_t n = 0;
    while (n < (size_t)sb.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)sb.st_size - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n != (size_t)sb.st_size) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static void write_failed(dse_cache *c, const char *what, const char *path)
{
    if (!c->write_failures++)
        snprintf(c->why, sizeof c->why, "%s %s: %s", what, path,
                 strerror(errno));
}

/* Write text to DIR/XX/KEY.json through a temporary file and rename. */
static void store(dse_cache *c, const char *key, const char *text)
{
    char sub[4200], path[4300], tmp[4400];
    snprintf(sub, sizeof sub, "%s/%.2s", c->dir, key);
    if (mkdir(sub, 0755) && errno != EEXIST) {
        write_failed(c, "cannot create", sub);
        return;
    }
    path_of(c, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.%lu.tmp", sub, key, (long)getpid(),
             c->tmp_seq++);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        write_failed(c, "cannot create", tmp);
        return;
    }
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            write_failed(c, "cannot write", tmp);
            close(fd);
            unlink(tmp);
            return;
        }
        off += (size_t)w;
    }
    if (fsync(fd) || close(fd)) {
        write_failed(c, "cannot write", tmp);
        unlink(tmp);
        return;
    }
    if (rename(tmp, path)) {
        write_failed(c, "cannot rename to", path);
        unlink(tmp);
        return;
    }
    c->stored++;
}

static int cache_score(void *self, const cfg_study *s, dse_run *r,
                       const size_t *idx, size_t n, size_t *evaluations,
                       dse_progress *progress, volatile sig_atomic_t *stop,
                       err *e)
{
    dse_cache *c = self;
    return c->inner.score(c->inner.self, s, r, idx, n, evaluations, progress,
                          stop, e);
}

/* Run the inner executor's sim or saturation jobs sub[0..m) into out[]
 * (kind, code and figures).  An inner executor without saturate (a test's
 * stand-in) gets its saturation searches run here, one after another. */
static int run_inner(dse_cache *c, dse_job_kind kind, const sim_params *sub,
                     size_t m, dse_job_result *out, dse_progress *progress,
                     volatile sig_atomic_t *stop, err *e)
{
    int *codes = xcalloc(m, sizeof *codes);
    int rc = 0;
    for (size_t k = 0; k < m; k++)
        codes[k] = ERR_INTERRUPTED; /* "never ran" unless written */
    if (kind == DSE_JOB_SIM) {
        sim_result *res = xcalloc(m, sizeof *res);
        for (size_t k = 0; k < m; k++)
            res[k].status = SIM_STOPPED;
        rc = c->inner.simulate(c->inner.self, sub, m, res, codes, progress,
                               stop, e);
        for (size_t k = 0; k < m; k++)
            out[k].sim = res[k];
        free(res);
    } else {
        sim_saturation_result *res = xcalloc(m, sizeof *res);
        for (size_t k = 0; k < m; k++)
            res[k].status = SIM_STOPPED;
        if (c->inner.saturate) {
            rc = c->inner.saturate(c->inner.self, sub, m, res, codes,
                                   progress, stop, e);
        } else {
            for (size_t k = 0; k < m && !(stop && *stop); k++) {
                err e2;
                codes[k] = sim_saturation(&sub[k], &res[k], &e2);
                if (progress)
                    dse_progress_step(progress, 1);
            }
        }
        for (size_t k = 0; k < m; k++)
            out[k].sat = res[k];
        free(res);
    }
    for (size_t k = 0; k < m; k++) {
        out[k].kind = kind;
        out[k].sim_code = codes[k];
    }
    free(codes);
    return rc;
}

/* Sim or saturation jobs[0..n) into out[]: answered from the cache when
 * it holds their key, run by the inner executor (and stored) otherwise. */
static int cached_run(dse_cache *c, dse_job_kind kind, const sim_params *jobs,
                      size_t n, dse_job_result *out, dse_progress *progress,
                      volatile sig_atomic_t *stop, err *e)
{
    char (*keys)[DSE_JOB_KEY_LEN + 1] = xcalloc(n + 1, sizeof *keys);
    size_t *miss = xcalloc(n + 1, sizeof *miss);
    size_t m = 0, hits = 0;
    for (size_t q = 0; q < n; q++) {
        dse_job j;
        dse_job_of_params_init(&j, kind, &jobs[q]);
        char *text = dse_job_format(&j);
        dse_job_fini(&j);
        dse_job_key(text, keys[q]);
        free(text);
        char path[4300];
        path_of(c, keys[q], path, sizeof path);
        char *stored = read_small(path);
        if (stored &&
            dse_job_result_parse(stored, keys[q], kind, 0, &out[q], NULL) == 0)
            hits++;
        else
            miss[m++] = q;
        free(stored);
    }
    c->hits += hits;
    if (progress && hits)
        dse_progress_step(progress, hits);
    int rc = 0;
    if (m > 0) {
        sim_params *sub = xcalloc(m, sizeof *sub);
        dse_job_result *sub_out = xcalloc(m, sizeof *sub_out);
        for (size_t k = 0; k < m; k++)
            sub[k] = jobs[miss[k]];
        rc = run_inner(c, kind, sub, m, sub_out, progress, stop, e);
        for (size_t k = 0; k < m; k++) {
            size_t q = miss[k];
            out[q] = sub_out[k];
            if (sub_out[k].sim_code != 0 || dse_job_result_stopped(&sub_out[k]))
                continue;
            char *text = dse_job_result_format(&sub_out[k], keys[q]);
            store(c, keys[q], text);
            free(text);
        }
        free(sub);
        free(sub_out);
    }
    free(keys);
    free(miss);
    return rc;
}

static int cache_simulate(void *self, const sim_params *jobs, size_t n,
                          sim_result *results, int *codes,
                          dse_progress *progress, volatile sig_atomic_t *stop,
                          err *e)
{
    dse_job_result *out = xcalloc(n + 1, sizeof *out);
    int rc = cached_run(self, DSE_JOB_SIM, jobs, n, out, progress, stop, e);
    for (size_t q = 0; q < n; q++) {
        results[q] = out[q].sim;
        codes[q] = out[q].sim_code;
    }
    free(out);
    return rc;
}

static int cache_saturate(void *self, const sim_params *jobs, size_t n,
                          sim_saturation_result *results, int *codes,
                          dse_progress *progress, volatile sig_atomic_t *stop,
                          err *e)
{
    dse_job_result *out = xcalloc(n + 1, sizeof *out);
    int rc = cached_run(self, DSE_JOB_SATURATION, jobs, n, out, progress,
                        stop, e);
    for (size_t q = 0; q < n; q++) {
        results[q] = out[q].sat;
        codes[q] = out[q].sim_code;
    }
    free(out);
    return rc;
}

void dse_cache_executor(dse_cache *c, dse_executor *ex)
{
    ex->score = cache_score;
    ex->simulate = cache_simulate;
    ex->saturate = cache_saturate;
    ex->self = c;
}

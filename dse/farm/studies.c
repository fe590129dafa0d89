/*
 * studies.c — see studies.h.
 *
 * Everything here is a few hash and list reads or writes on keys named by
 * the study id; nothing scans the keyspace.  A study id taken from a user
 * (the command line, a URL) is checked to be decimal digits before it is
 * put in a key.
 *
 * Report files go through Redis (report:ID) rather than over a second
 * channel from the daemon's disk, so `dse results` needs nothing but the
 * farm's Redis URL.  Only the four names of dse_report_files are stored or
 * written back: a name read from Redis never becomes a path.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, realpath */
#include "dse/farm/studies.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/xalloc.h"

/* curves.csv and curves.json: the report-charts work adds them to the
 * report; a file the report does not have is skipped. */
const char *const dse_report_files[] = {"index.html",     "report.md",
                                        "candidates.csv", "results.json",
                                        "curves.csv",     "curves.json",
                                        NULL};

int dse_study_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 20)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (id[i] < '0' || id[i] > '9')
            return 0;
    return 1;
}

static void key_for(const dse_farm_opts *fo, const char *what, const char *id,
                    char *buf, size_t size)
{
    char name[64];
    snprintf(name, sizeof name, "%s:%s", what, id);
    dse_farm_key(fo, name, buf, size);
}

static long long num(const char *v)
{
    return v && v[0] ? atoll(v) : 0;
}

static void fill(dse_study_info *s, size_t n, char **f, char **v,
                 long long now)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = f[i], *x = v[i];
        if (!strcmp(k, "id")) snprintf(s->id, sizeof s->id, "%s", x);
        else if (!strcmp(k, "name")) snprintf(s->name, sizeof s->name, "%s", x);
        else if (!strcmp(k, "status")) snprintf(s->status, sizeof s->status, "%s", x);
        else if (!strcmp(k, "phase")) snprintf(s->phase, sizeof s->phase, "%s", x);
        else if (!strcmp(k, "report")) snprintf(s->report, sizeof s->report, "%s", x);
        else if (!strcmp(k, "reason")) snprintf(s->reason, sizeof s->reason, "%s", x);
        else if (!strcmp(k, "submitted")) s->submitted = num(x);
        else if (!strcmp(k, "started")) s->started = num(x);
        else if (!strcmp(k, "finished")) s->finished = num(x);
        else if (!strcmp(k, "phase_started")) s->phase_started = num(x);
        else if (!strcmp(k, "done")) s->done = num(x);
        else if (!strcmp(k, "total")) s->total = num(x);
        else if (!strcmp(k, "workers")) s->workers = num(x);
        else if (!strcmp(k, "failed_jobs")) s->failed_jobs = num(x);
        else if (!strcmp(k, "cancel")) s->cancel_requested = x[0] != '\0';
        else if (!strcmp(k, "report_stored")) s->report_stored = !strcmp(x, "yes");
    }
    int running = !strcmp(s->status, "running");
    s->elapsed_s = -1;
    if (s->started > 0 && strcmp(s->status, "queued") != 0) {
        long long end = running || !s->finished ? now : s->finished;
        s->elapsed_s = end >= s->started ? (double)(end - s->started) : 0;
    }
    s->progress = s->total > 0 ? (double)s->done / (double)s->total : -1;
    s->eta_s = -1;
    if (running && s->total > 0 && s->done > 0 && s->phase_started > 0 &&
        now >= s->phase_started) {
        double in_phase = (double)(now - s->phase_started);
        s->eta_s = in_phase / (double)s->done * (double)(s->total - s->done);
    }
}

static void free_pairs(size_t n, char **f, char **v)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i]);
        free(v[i]);
    }
    free(f);
    free(v);
}

int dse_study_get(dse_store *st, const dse_farm_opts *fo, const char *id,
                  long long now, dse_study_info *out, err *e)
{
    memset(out, 0, sizeof *out);
    if (!dse_study_id_ok(id))
        return err_set(e, ERR_INVALID, "no study '%.40s' (ids are numbers)",
                       id);
    char key[192];
    key_for(fo, "study", id, key, sizeof key);
    size_t n;
    char **f, **v;
    int rc = st->ops->hgetall(st->self, key, &n, &f, &v, e);
    if (rc)
        return rc;
    if (n == 0) {
        free_pairs(n, f, v);
        return err_set(e, ERR_INVALID, "no study %s under prefix '%s'", id,
                       fo->prefix);
    }
    fill(out, n, f, v, now > 0 ? now : (long long)time(NULL));
    if (!out->id[0])
        snprintf(out->id, sizeof out->id, "%s", id);
    free_pairs(n, f, v);
    return 0;
}

int dse_study_list(dse_store *st, const dse_farm_opts *fo, size_t max,
                   long long now, dse_study_info **out, size_t *n, err *e)
{
    *out = NULL;
    *n = 0;
    char key[192];
    dse_farm_key(fo, "studies", key, sizeof key);
    char **ids;
    size_t nid;
    int rc = st->ops->lrange(st->self, key, -(long)max, -1, &ids, &nid, e);
    if (rc)
        return rc;
    dse_study_info *s = xcalloc(nid + 1, sizeof *s);
    size_t m = 0;
    for (size_t i = 0; i < nid; i++) {
        err le;
        int r = rc ? rc : dse_study_get(st, fo, ids[i], now, &s[m], &le);
        if (r == 0)
            m++;
        else if (r == ERR_REDIS && !rc)
            rc = err_set(e, ERR_REDIS, "%s", le.msg);
        free(ids[i]);
    }
    free(ids);
    if (rc) {
        free(s);
        return rc;
    }
    *out = s;
    *n = m;
    return 0;
}

static void set_time(json_t *o, const char *k, long long t)
{
    json_object_set_new(o, k, t > 0 ? json_integer(t) : json_null());
}

static void set_real(json_t *o, const char *k, double x)
{
    json_object_set_new(o, k, x >= 0 ? json_real(x) : json_null());
}

json_t *dse_study_json(const dse_study_info *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "status", json_string(s->status));
    json_object_set_new(o, "phase", json_string(s->phase));
    set_time(o, "submitted", s->submitted);
    set_time(o, "started", s->started);
    set_time(o, "finished", s->finished);
    json_object_set_new(o, "done", json_integer(s->done));
    json_object_set_new(o, "total", json_integer(s->total));
    json_object_set_new(o, "workers", json_integer(s->workers));
    set_real(o, "progress", s->progress);
    set_real(o, "elapsed_s", s->elapsed_s);
    set_real(o, "eta_s", s->eta_s);
    json_object_set_new(o, "reason", json_string(s->reason));
    json_object_set_new(o, "report", json_string(s->report));
    json_object_set_new(o, "report_stored", json_boolean(s->report_stored));
    json_object_set_new(o, "failed_jobs", json_integer(s->failed_jobs));
    json_object_set_new(o, "cancel_requested",
                        json_boolean(s->cancel_requested));
    return o;
}

/* ---- cancel ---------------------------------------------------------------- */

int dse_study_cancel(dse_store *st, const dse_farm_opts *fo, const char *id,
                     int *was_running, err *e)
{
    if (was_running)
        *was_running = 0;
    dse_study_info s;
    int rc = dse_study_get(st, fo, id, 0, &s, e);
    if (rc)
        return rc;
    if (strcmp(s.status, "queued") && strcmp(s.status, "running"))
        return err_set(e, ERR_INVALID, "study %s is already %s", id,
                       s.status);
    char key[192], kq[192], when[32];
    key_for(fo, "study", id, key, sizeof key);
    snprintf(when, sizeof when, "%lld", (long long)time(NULL));
    const char *f1[] = {"cancel"}, *v1[] = {when};
    if ((rc = st->ops->hset(st->self, key, 1, f1, v1, e)))
        return rc;
    char kc[192];
    key_for(fo, "cancel", id, kc, sizeof kc);
    if ((rc = st->ops->set(st->self, kc, when, DSE_CANCEL_TTL_MS, 0, NULL, e)))
        return rc;
    dse_farm_key(fo, "studies:queue", kq, sizeof kq);
    if ((rc = st->ops->lrem(st->self, kq, id, e)))
        return rc;
    /* Taken by the daemon meanwhile?  Then it sees the cancel field (when
     * it starts the study, or from its progress hook) and stops it. */
    if ((rc = dse_study_get(st, fo, id, 0, &s, e)))
        return rc;
    if (!strcmp(s.status, "queued")) {
        const char *f2[] = {"status", "reason", "finished"};
        const char *v2[] = {"cancelled", "cancelled with dse cancel", when};
        return st->ops->hset(st->self, key, 3, f2, v2, e);
    }
    if (was_running)
        *was_running = !strcmp(s.status, "running");
    return 0;
}

/* ---- report files through Redis ---------------------------------------------- */

/* The file's text (caller frees), at most max bytes: NULL and errno
 * (EFBIG when larger). */
static char *read_file(const char *path, long max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0)
        return NULL;
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size > max) {
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    char *buf = xmalloc((size_t)sb.st_size + 1);
    size_t got = 0;
    while (got < (size_t)sb.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)sb.st_size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    *len = got;
    return buf;
}

int dse_study_store_report(dse_store *st, const dse_farm_opts *fo,
                           const char *id, const char *dir,
                           dse_store_fence *fence, err *e)
{
    const char *names[8], *texts[8];
    char *owned[8];
    size_t n = 0;
    long total = 0;
    int rc = 0;
    for (size_t i = 0; dse_report_files[i]; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, dse_report_files[i]);
        size_t len;
        errno = 0;
        char *t = read_file(path, DSE_REPORT_STORE_MAX - total, &len);
        if (!t) {
            if (errno == ENOENT)
                continue; /* a format the study did not ask for */
            rc = errno == EFBIG
                     ? err_set(e, ERR_CONFIG,
                               "report over %ld MiB: not stored in Redis "
                               "(fetch it from %s on the daemon's machine)",
                               DSE_REPORT_STORE_MAX >> 20, dir)
                     : err_set(e, ERR_IO, "cannot read %s: %s", path,
                               strerror(errno));
            break;
        }
        if (strlen(t) != len) { /* a NUL inside: not a report file */
            free(t);
            rc = err_set(e, ERR_IO, "%s is not text", path);
            break;
        }
        total += (long)len;
        names[n] = dse_report_files[i];
        texts[n] = owned[n] = t;
        n++;
    }
    if (fence)
        fence->held = 0;
    if (rc == 0 && n > 0) {
        char key[192];
        key_for(fo, "report", id, key, sizeof key);
        if (fence) { /* DEL and HSET in one fenced step */
            dse_store_cmd c[2] = {{2, {"DEL", key}}, {2, {"HSET", key}}};
            for (size_t i = 0; i < n; i++) {
                c[1].argv[c[1].argc++] = names[i];
                c[1].argv[c[1].argc++] = texts[i];
            }
            rc = st->ops->fenced(st->self, fence, c, 2, e);
        } else {
            st->ops->del(st->self, key, NULL);
            rc = st->ops->hset(st->self, key, n, names, texts, e);
        }
    } else if (rc == 0 && fence) {
        fence->held = 1; /* nothing to write */
    }
    for (size_t i = 0; i < n; i++)
        free(owned[i]);
    return rc;
}

static int dir_nonempty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *x;
    int any = 0;
    while (!any && (x = readdir(d)))
        any = strcmp(x->d_name, ".") && strcmp(x->d_name, "..");
    closedir(d);
    return any;
}

static int write_all(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (fsync(fd)) {
        close(fd);
        return -1;
    }
    return close(fd);
}

static void remove_tmp(const char *tmp)
{
    for (size_t i = 0; dse_report_files[i]; i++) {
        char p[2 * PATH_MAX + 64];
        snprintf(p, sizeof p, "%s/%s", tmp, dse_report_files[i]);
        unlink(p);
    }
    rmdir(tmp);
}

int dse_study_fetch_report(dse_store *st, const dse_farm_opts *fo,
                           const char *id, const char *out_dir,
                           size_t *nfiles, err *e)
{
    if (nfiles)
        *nfiles = 0;
    dse_study_info s;
    int rc = dse_study_get(st, fo, id, 0, &s, e);
    if (rc)
        return rc;
    if (strcmp(s.status, "done"))
        return err_set(e, ERR_INVALID, "study %s is %s, not done%s%s", id,
                       s.status, s.reason[0] ? ": " : "", s.reason);
    struct stat sb;
    if (lstat(out_dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            return err_set(e, ERR_INVALID, "%s exists and is not a directory",
                           out_dir);
        if (dir_nonempty(out_dir) != 0)
            return err_set(e, ERR_INVALID,
                           "%s exists and is not empty: give a new directory",
                           out_dir);
    }
    char key[192];
    key_for(fo, "report", id, key, sizeof key);
    size_t n;
    char **f, **v;
    if ((rc = st->ops->hgetall(st->self, key, &n, &f, &v, e)))
        return rc;
    if (n == 0) {
        free_pairs(n, f, v);
        return err_set(e, ERR_INVALID,
                       "study %s's report is not stored in Redis%s%s", id,
                       s.reason[0] ? ": " : "", s.reason);
    }
    /* the bound the daemon keeps when it stores a report, applied again:
     * what is in report:ID may have been planted */
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += strlen(v[i]);
    if (total > (size_t)DSE_REPORT_STORE_MAX) {
        free_pairs(n, f, v);
        return err_set(e, ERR_INVALID,
                       "study %s's stored report has %zu bytes, over the "
                       "%ld MiB a daemon stores: refused (not written)",
                       id, total, DSE_REPORT_STORE_MAX >> 20);
    }
    /* temporary directory beside out_dir */
    char tmp[2 * PATH_MAX + 32];
    char parent[PATH_MAX];
    if (strlen(out_dir) >= PATH_MAX - 32) {
        free_pairs(n, f, v);
        return err_set(e, ERR_INVALID, "output directory name too long");
    }
    snprintf(parent, sizeof parent, "%s", out_dir);
    size_t pl = strlen(parent);
    while (pl > 1 && parent[pl - 1] == '/')
        parent[--pl] = '\0';
    char *slash = strrchr(parent, '/');
    const char *base = slash ? slash + 1 : parent;
    if (!base[0] || !strcmp(base, ".") || !strcmp(base, "..")) {
        free_pairs(n, f, v);
        return err_set(e, ERR_INVALID, "%s: give a new directory's name",
                       out_dir);
    }
    if (slash == parent)
        snprintf(tmp, sizeof tmp, "/.%s.tmp-XXXXXX", base);
    else if (slash)
        snprintf(tmp, sizeof tmp, "%.*s/.%s.tmp-XXXXXX", (int)(slash - parent),
                 parent, base);
    else
        snprintf(tmp, sizeof tmp, ".%s.tmp-XXXXXX", base);
    if (!mkdtemp(tmp)) {
        free_pairs(n, f, v);
        return err_set(e, ERR_IO, "cannot create a directory beside %s: %s",
                       out_dir, strerror(errno));
    }
    size_t written = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *name = NULL;
        for (size_t k = 0; dse_report_files[k]; k++)
            if (!strcmp(f[i], dse_report_files[k]))
                name = dse_report_files[k];
        if (!name)
            continue; /* never a path taken from Redis */
        char p[sizeof tmp + 32];
        snprintf(p, sizeof p, "%s/%s", tmp, name);
        if (write_all(p, v[i]))
            rc = err_set(e, ERR_IO, "cannot write %s: %s", p, strerror(errno));
        else
            written++;
    }
    free_pairs(n, f, v);
    if (rc == 0)
        chmod(tmp, 0755); /* mkdtemp made it 0700 */
    if (rc == 0 && rename(tmp, out_dir))
        rc = err_set(e, ERR_IO, "cannot rename %s to %s: %s", tmp, out_dir,
                     strerror(errno));
    if (rc) {
        remove_tmp(tmp);
        return rc;
    }
    if (nfiles)
        *nfiles = written;
    return 0;
}

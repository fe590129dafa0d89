/*
 * web_api.c — the JSON behind the daemon's pages (see web.h), and its two
 * control actions.
 *
 * Every answer is a few reads of keys named by an id or a worker name
 * (the study list, the workers' sorted set, the dead-letter stream read
 * newest first with a COUNT): nothing scans the keyspace, and every list
 * is bounded (100 studies, 200 workers, 100 dead letters).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "dse/farm/web.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dse/farm/studies.h"
#include "net/xalloc.h"

#define MAX_STUDIES 100
#define MAX_WORKERS 200
#define MAX_DEAD 100

/* Workers alive now (heartbeat within the worker timeout). */
static int workers_alive(const dse_web_ctx *x, long long *alive, err *e)
{
    long long now;
    char key[128], **m;
    size_t n;
    int rc = x->st->ops->time_ms(x->st->self, &now, e);
    if (rc)
        return rc;
    dse_farm_key(x->fo, "workers", key, sizeof key);
    rc = x->st->ops->zrange_from(x->st->self, key,
                                 (double)now - 1000 * x->fo->worker_timeout_s,
                                 &m, &n, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        free(m[i]);
    free(m);
    *alive = (long long)n;
    return 0;
}

static json_t *report_files(const dse_web_ctx *x, const dse_study_info *s);

/* A study's JSON plus what the pages show beside dse status's fields. */
static json_t *study_more(const dse_study_info *s, long long alive)
{
    json_t *o = dse_study_json(s);
    int running = !strcmp(s->status, "running");
    json_object_set_new(o, "warning",
                        json_string(running && alive == 0
                                        ? "running with 0 workers alive: "
                                          "start some with dse worker"
                                        : ""));
    json_object_set_new(o, "workers_alive", json_integer(alive));
    return o;
}

json_t *dse__web_studies(const dse_web_ctx *x, char *msg, size_t size)
{
    dse_study_info *xs = NULL;
    size_t n = 0;
    long long alive = 0;
    err e;
    if (dse_study_list(x->st, x->fo, MAX_STUDIES, 0, &xs, &n, &e) ||
        workers_alive(x, &alive, &e)) {
        free(xs);
        snprintf(msg, size, "%s", e.msg);
        return NULL;
    }
    json_t *o = json_object(), *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *one = study_more(&xs[i], alive);
        json_object_set_new(one, "reports", report_files(x, &xs[i]));
        json_array_append_new(arr, one);
    }
    json_object_set_new(o, "studies", arr);
    json_object_set_new(o, "workers_alive", json_integer(alive));
    free(xs);
    return o;
}

/* The report files of a done study that exist on disk, when its directory
 * resolves inside the output root (as farm_http.c serves them). */
static json_t *report_files(const dse_web_ctx *x, const dse_study_info *s)
{
    json_t *arr = json_array();
    char rroot[PATH_MAX], rdir[PATH_MAX];
    if (strcmp(s->status, "done") || !s->report[0] || !x->root ||
        !realpath(x->root, rroot) || !realpath(s->report, rdir))
        return arr;
    size_t rl = strlen(rroot);
    if (strncmp(rdir, rroot, rl) != 0 || rdir[rl] != '/')
        return arr;
    for (size_t i = 0; dse_report_files[i]; i++) {
        char path[PATH_MAX + 32], url[96];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", rdir, dse_report_files[i]);
        if (lstat(path, &sb) || !S_ISREG(sb.st_mode))
            continue;
        snprintf(url, sizeof url, "/studies/%s/report/%s", s->id,
                 dse_report_files[i]);
        json_t *f = json_object();
        json_object_set_new(f, "name", json_string(dse_report_files[i]));
        json_object_set_new(f, "url", json_string(url));
        json_object_set_new(f, "bytes", json_integer((json_int_t)sb.st_size));
        json_array_append_new(arr, f);
    }
    return arr;
}

json_t *dse__web_study(const dse_web_ctx *x, const char *id, int *code,
                       char *msg, size_t size)
{
    dse_study_info s;
    long long alive = 0;
    err e;
    int rc = dse_study_get(x->st, x->fo, id, 0, &s, &e);
    if (!rc)
        rc = workers_alive(x, &alive, &e);
    if (rc) {
        *code = rc == ERR_REDIS ? 503 : 404;
        snprintf(msg, size, "%s", e.msg);
        return NULL;
    }
    *code = 200;
    json_t *o = study_more(&s, alive);
    json_object_set_new(o, "reports", report_files(x, &s));
    return o;
}

json_t *dse__web_workers(const dse_web_ctx *x, char *msg, size_t size)
{
    long long now;
    char key[128], **m = NULL;
    size_t n = 0;
    err e;
    dse_farm_key(x->fo, "workers", key, sizeof key);
    if (x->st->ops->time_ms(x->st->self, &now, &e) ||
        x->st->ops->zrange_from(x->st->self, key, 0, &m, &n, &e)) {
        snprintf(msg, size, "%s", e.msg);
        return NULL;
    }
    json_t *o = json_object(), *arr = json_array();
    size_t alive = 0;
    /* newest heartbeats last in the set: show the most recent ones */
    size_t first = n > MAX_WORKERS ? n - MAX_WORKERS : 0;
    for (size_t i = n; i-- > first;) {
        char wkey[320], name[200];
        snprintf(name, sizeof name, "worker:%.180s", m[i]);
        dse_farm_key(x->fo, name, wkey, sizeof wkey);
        size_t nf = 0;
        char **f = NULL, **v = NULL;
        json_t *w = json_object();
        json_object_set_new(w, "name", json_string(m[i]));
        const char *keep[] = {"host", "pid", "slots", "busy", "job", "done",
                              "dead", "reclaimed", "version", NULL};
        long long beat = -1;
        if (x->st->ops->hgetall(x->st->self, wkey, &nf, &f, &v, &e) == 0) {
            for (size_t k = 0; k < nf; k++) {
                if (!strcmp(f[k], "heartbeat"))
                    beat = atoll(v[k]);
                for (size_t q = 0; keep[q]; q++)
                    if (!strcmp(f[k], keep[q]))
                        json_object_set_new(w, keep[q], json_string(v[k]));
            }
            dse_store_pairs_free(nf, f, v);
        }
        for (size_t q = 0; keep[q]; q++)
            if (!json_object_get(w, keep[q]))
                json_object_set_new(w, keep[q], json_string(""));
        json_object_set_new(w, "heartbeat_ms",
                            beat >= 0 ? json_integer(beat) : json_null());
        double age = beat >= 0 ? (double)(now - beat) / 1000.0 : -1;
        json_object_set_new(w, "heartbeat_age_s",
                            age >= 0 ? json_real(age) : json_null());
        int is_alive = age >= 0 && age <= x->fo->worker_timeout_s;
        alive += (size_t)is_alive;
        json_object_set_new(w, "alive", json_boolean(is_alive));
        json_object_set_new(w, "state", json_string(is_alive ? "alive"
                                                             : "silent"));
        json_array_append_new(arr, w);
    }
    for (size_t i = 0; i < n; i++)
        free(m[i]);
    free(m);
    json_object_set_new(o, "workers", arr);
    json_object_set_new(o, "workers_alive", json_integer((json_int_t)alive));
    json_object_set_new(o, "now_ms", json_integer(now));
    return o;
}

json_t *dse__web_dead(const dse_web_ctx *x, char *msg, size_t size)
{
    char key[128];
    dse_farm_key(x->fo, "dead", key, sizeof key);
    dse_store_entry *en = NULL;
    size_t n = 0;
    long long len = 0;
    err e;
    if (x->st->ops->xrevrange(x->st->self, key, MAX_DEAD, &en, &n, &e) ||
        x->st->ops->xlen(x->st->self, key, &len, &e)) {
        snprintf(msg, size, "%s", e.msg);
        return NULL;
    }
    json_t *o = json_object(), *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_object();
        json_object_set_new(d, "id", json_string(en[i].id));
        const char *fields[] = {"key", "reason", "worker", "deliveries", NULL};
        for (size_t q = 0; fields[q]; q++) {
            const char *v = dse_store_entry_get(&en[i], fields[q]);
            json_object_set_new(d, fields[q], json_string(v ? v : ""));
        }
        const char *job = dse_store_entry_get(&en[i], "job");
        char kind[16] = "";
        json_t *jj = job ? json_loads(job, 0, NULL) : NULL;
        const char *k = jj ? json_string_value(json_object_get(jj, "kind"))
                           : NULL;
        snprintf(kind, sizeof kind, "%s", k ? k : "");
        json_decref(jj);
        json_object_set_new(d, "kind", json_string(kind));
        json_object_set_new(d, "job", json_stringn(job ? job : "",
                                                   job ? strnlen(job, 300) : 0));
        /* the entry id's first part: when it was dead-lettered (ms) */
        json_object_set_new(d, "time_ms", json_integer(atoll(en[i].id)));
        json_array_append_new(arr, d);
    }
    dse_store_entries_free(en, n);
    json_object_set_new(o, "dead_letters", arr);
    json_object_set_new(o, "total", json_integer(len));
    return o;
}

/* ---- answers -------------------------------------------------------------- */

static void answer_json(dse_web_answer *a, unsigned code, json_t *o)
{
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    a->code = code;
    a->type = "application/json";
    if (t)
        dse_web_put(&a->body, t);
    dse_web_put(&a->body, "\n");
    free(t);
}

static void answer_error(dse_web_answer *a, unsigned code, const char *msg)
{
    json_t *o = json_object();
    json_object_set_new(o, "error", json_string(msg));
    answer_json(a, code, o);
}

/* "/api/studies/123..." -> id "123", *rest "..." ; 0 when no id. */
static int take_id(const char *p, char id[32], const char **rest)
{
    size_t n = strspn(p, "0123456789");
    if (n == 0 || n > 20)
        return 0;
    snprintf(id, 32, "%.*s", (int)n, p);
    *rest = p + n;
    return 1;
}

int dse_web_get(const dse_web_ctx *x, const char *url, dse_web_answer *a)
{
    char msg[ERR_MSG_MAX + 64], id[32];
    const char *rest;
    json_t *o;
    if (!strcmp(url, "/") || !strcmp(url, "/index.html")) {
        dse__web_page_list(x, a);
        return 1;
    }
    if (!strcmp(url, "/workers")) {
        dse__web_page_workers(x, a);
        return 1;
    }
    if (!strcmp(url, "/dead-letters")) {
        dse__web_page_dead(x, a);
        return 1;
    }
    if (!strncmp(url, "/studies/", 9) && take_id(url + 9, id, &rest) &&
        !rest[0]) {
        dse__web_page_study(x, id, a);
        return 1;
    }
    if (!strcmp(url, "/api/studies")) {
        o = dse__web_studies(x, msg, sizeof msg);
        o ? answer_json(a, 200, o) : answer_error(a, 503, msg);
        return 1;
    }
    if (!strncmp(url, "/api/studies/", 13) && take_id(url + 13, id, &rest) &&
        !rest[0]) {
        int code;
        o = dse__web_study(x, id, &code, msg, sizeof msg);
        o ? answer_json(a, 200, o) : answer_error(a, (unsigned)code, msg);
        return 1;
    }
    if (!strcmp(url, "/api/workers")) {
        o = dse__web_workers(x, msg, sizeof msg);
        o ? answer_json(a, 200, o) : answer_error(a, 503, msg);
        return 1;
    }
    if (!strcmp(url, "/api/dead-letters")) {
        o = dse__web_dead(x, msg, sizeof msg);
        o ? answer_json(a, 200, o) : answer_error(a, 503, msg);
        return 1;
    }
    return 0;
}

/* ---- control ----------------------------------------------------------------- */

static int token_ok(const dse_web_ctx *x, const char *auth)
{
    size_t tl = strlen(x->token);
    if (!auth || strncmp(auth, "Bearer ", 7) != 0)
        return 0;
    auth += 7;
    return strlen(auth) == tl && CRYPTO_memcmp(auth, x->token, tl) == 0;
}

/* Put a dead letter's job back on the job stream (when its text is whole:
 * its key must still be the hash of the text kept) and drop the letter. */
static void requeue(const dse_web_ctx *x, const char *entry, dse_web_answer *a)
{
    char kd[128], kj[128];
    dse_farm_key(x->fo, "dead", kd, sizeof kd);
    dse_farm_key(x->fo, "jobs", kj, sizeof kj);
    dse_store_entry *en = NULL;
    size_t n = 0;
    err e;
    if (x->st->ops->xrange(x->st->self, kd, entry, 1, &en, &n, &e)) {
        answer_error(a, e.code == ERR_REDIS ? 503 : 400, e.msg);
        return;
    }
    if (n == 0 || strcmp(en[0].id, entry) != 0) {
        dse_store_entries_free(en, n);
        answer_error(a, 404, "no such dead letter");
        return;
    }
    const char *key = dse_store_entry_get(&en[0], "key");
    const char *job = dse_store_entry_get(&en[0], "job");
    char want[DSE_JOB_KEY_LEN + 1];
    if (job)
        dse_job_key(job, want);
    if (!key || !job || strcmp(key, want) != 0) {
        dse_store_entries_free(en, n);
        answer_error(a, 409, "this dead letter's job text is not whole (cut "
                             "at 4 KiB) or not the job its key names: "
                             "submit the study again instead");
        return;
    }
    const char *f[] = {"key", "job"}, *v[] = {key, job};
    char newid[DSE_STORE_ID_MAX];
    int rc = x->st->ops->xadd(x->st->self, kj, 2, f, v, 0, newid, &e);
    if (!rc) {
        dse_store_cmd del = {3, {"XDEL", kd, entry}};
        rc = x->st->ops->batch(x->st->self, &del, 1, &e);
    }
    dse_store_entries_free(en, n);
    if (rc) {
        answer_error(a, rc == ERR_REDIS ? 503 : 400, e.msg);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "requeued", json_string(entry));
    json_object_set_new(o, "entry", json_string(newid));
    answer_json(a, 200, o);
}

int dse_web_post(const dse_web_ctx *x, const char *url, const char *auth,
                 dse_web_answer *a)
{
    char id[32];
    const char *rest;
    int is_cancel = !strncmp(url, "/api/studies/", 13) &&
                    take_id(url + 13, id, &rest) && !strcmp(rest, "/cancel");
    const char *dl = "/api/dead-letters/";
    char entry[DSE_STORE_ID_MAX] = "";
    int is_requeue = 0;
    if (!strncmp(url, dl, strlen(dl))) {
        const char *p = url + strlen(dl);
        size_t len = strspn(p, "0123456789-");
        if (len > 0 && len < sizeof entry && !strcmp(p + len, "/requeue")) {
            snprintf(entry, sizeof entry, "%.*s", (int)len, p);
            is_requeue = 1;
        }
    }
    if (!is_cancel && !is_requeue)
        return 0;
    if (!x->token || !x->token[0]) {
        answer_error(a, 405, "read-only: start dse serve with --http-token "
                             "to allow control actions");
        return 1;
    }
    if (!token_ok(x, auth)) {
        answer_error(a, 403, "missing or wrong 'Authorization: Bearer TOKEN'");
        return 1;
    }
    if (is_requeue) {
        requeue(x, entry, a);
        return 1;
    }
    int was_running = 0;
    err e;
    int rc = dse_study_cancel(x->st, x->fo, id, &was_running, &e);
    if (rc) {
        answer_error(a, rc == ERR_REDIS ? 503 : 409, e.msg);
        return 1;
    }
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(id));
    json_object_set_new(o, "status", json_string(was_running ? "cancelling"
                                                             : "cancelled"));
    answer_json(a, 200, o);
    return 1;
}

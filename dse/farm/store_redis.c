/*
 * store_redis.c — the Redis backend of dse_store (store.h) over hiredis's
 * synchronous API, plus the URL parser and the stream-entry helpers every
 * backend shares.
 *
 * Connection: lazily, on the first operation, with the spec's timeout for
 * connecting and for every command (a blocking read gets its block time on
 * top).  AUTH [user] password and SELECT db follow the URL.  When a
 * command fails at the transport level (refused, reset, timed out) the
 * context is freed and the operation returns ERR_REDIS; the next operation
 * connects again.  There is no retry loop here: the farm decides how long
 * to keep trying (a worker forever with backoff, a coordinator up to its
 * timeout), because only it knows what is at stake.
 *
 * Error replies: LOADING (a restarted server reading its append-only
 * file), BUSY, TRYAGAIN, MASTERDOWN are transient (ERR_REDIS); the rest
 * (WRONGTYPE, NOAUTH, WRONGPASS, syntax) are ERR_INVALID.
 *
 * Commands are sent with redisCommandArgv (binary-safe: keys and JSON
 * bodies may hold any byte).
 */
#include "dse/farm/store.h"
#include "dse/farm/farm.h"

#include <errno.h>
#include <hiredis/hiredis.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "net/xalloc.h"

/* ---- shared helpers ------------------------------------------------------ */

const char *dse_store_entry_get(const dse_store_entry *e, const char *name)
{
    for (size_t i = 0; i < e->nfields; i++)
        if (strcmp(e->fields[i], name) == 0)
            return e->values[i];
    return NULL;
}

void dse_store_entries_free(dse_store_entry *entries, size_t n)
{
    if (!entries)
        return;
    for (size_t i = 0; i < n; i++) {
        for (size_t f = 0; f < entries[i].nfields; f++) {
            free(entries[i].fields[f]);
            free(entries[i].values[f]);
        }
        free(entries[i].fields);
        free(entries[i].values);
    }
    free(entries);
}

void dse_store_open(const dse_store_spec *spec, dse_store *out)
{
    if (spec->open)
        spec->open(spec->open_ctx, out);
    else
        dse__store_redis_open(spec, out);
}

void dse_store_close(dse_store *st)
{
    if (st && st->ops) {
        st->ops->destroy(st->self);
        st->ops = NULL;
        st->self = NULL;
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Copy [s, s+len) into out (size bytes), decoding %XX. */
static int pct_decode(const char *s, size_t len, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= len)
                return -1;
            int h = hexval(s[i + 1]), l = hexval(s[i + 2]);
            if (h < 0 || l < 0)
                return -1;
            c = h * 16 + l;
            i += 2;
        }
        if (o + 1 >= size)
            return -1;
        out[o++] = (char)c;
    }
    out[o] = '\0';
    return 0;
}

int dse_store_url_parse(const char *url, dse_redis_url *out, err *e)
{
    memset(out, 0, sizeof *out);
    out->port = 6379;
    const char *scheme = "redis://";
    if (!url || strncmp(url, scheme, strlen(scheme)) != 0)
        return err_set(e, ERR_CONFIG,
                       "redis URL '%s': expected "
                       "redis://[user:password@]host[:port][/db]",
                       url ? url : "");
    const char *p = url + strlen(scheme);
    const char *at = strrchr(p, '@');
    const char *slash = strchr(at ? at : p, '/');
    if (at && (!slash || at < slash)) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        if (colon) {
            if (pct_decode(p, (size_t)(colon - p), out->user,
                           sizeof out->user) ||
                pct_decode(colon + 1, (size_t)(at - colon - 1),
                           out->password, sizeof out->password))
                return err_set(e, ERR_CONFIG,
                               "redis URL: bad user or password encoding");
        } else if (pct_decode(p, (size_t)(at - p), out->password,
                              sizeof out->password)) {
            return err_set(e, ERR_CONFIG, "redis URL: bad password encoding");
        }
        p = at + 1;
    }
    size_t hostlen = slash ? (size_t)(slash - p) : strlen(p);
    const char *colon = memchr(p, ':', hostlen);
    size_t namelen = colon ? (size_t)(colon - p) : hostlen;
    if (namelen == 0 || namelen >= sizeof out->host)
        return err_set(e, ERR_CONFIG, "redis URL '%s': missing or long host",
                       url);
    memcpy(out->host, p, namelen);
    out->host[namelen] = '\0';
    if (colon) {
        char buf[16];
        size_t plen = hostlen - namelen - 1;
        if (plen == 0 || plen >= sizeof buf)
            return err_set(e, ERR_CONFIG, "redis URL '%s': bad port", url);
        memcpy(buf, colon + 1, plen);
        buf[plen] = '\0';
        char *end;
        long v = strtol(buf, &end, 10);
        if (*end || v < 1 || v > 65535)
            return err_set(e, ERR_CONFIG, "redis URL '%s': bad port", url);
        out->port = (int)v;
    }
    if (slash && slash[1]) {
        char *end;
        errno = 0;
        long v = strtol(slash + 1, &end, 10);
        if (errno || *end || v < 0 || v > 1000000)
            return err_set(e, ERR_CONFIG, "redis URL '%s': bad database number",
                           url);
        out->db = (int)v;
    }
    /* a password kept off the command line (ps shows argv): the
     * environment or a file, when the URL has none */
    if (!out->password[0]) {
        const char *pw = getenv("DSE_REDIS_PASSWORD");
        const char *file = getenv("DSE_REDIS_PASSWORD_FILE");
        if (pw && pw[0] && file && file[0])
            return err_set(e, ERR_CONFIG,
                           "both DSE_REDIS_PASSWORD and "
                           "DSE_REDIS_PASSWORD_FILE are set: set only one");
        if (pw && pw[0]) {
            if (strlen(pw) >= sizeof out->password)
                return err_set(e, ERR_CONFIG, "DSE_REDIS_PASSWORD: too long");
            snprintf(out->password, sizeof out->password, "%s", pw);
        } else if (file && file[0]) {
            size_t n;
            err le;
            int rc = dse__farm_read_secret(file, out->password,
                                           sizeof out->password, &n, &le);
            if (rc)
                return err_set(e, rc, "DSE_REDIS_PASSWORD_FILE: %s", le.msg);
        }
    }
    return 0;
}

void dse_store_url_print(const dse_redis_url *u, char *buf, size_t size)
{
    snprintf(buf, size, "redis://%s%s:%d/%d", u->password[0] ? "***@" : "",
             u->host, u->port, u->db);
}

/* ---- the backend ---------------------------------------------------------- */

typedef struct rstore {
    dse_redis_url url;
    double timeout_s;
    redisContext *ctx;
} rstore;

static struct timeval tv_of(double s)
{
    struct timeval tv;
    tv.tv_sec = (time_t)s;
    tv.tv_usec = (suseconds_t)((s - (double)tv.tv_sec) * 1e6);
    return tv;
}

static void drop(rstore *r)
{
    if (r->ctx) {
        redisFree(r->ctx);
        r->ctx = NULL;
    }
}

static int transient_error(const char *msg)
{
    static const char *const prefixes[] = {"LOADING ", "BUSY ", "TRYAGAIN ",
                                           "MASTERDOWN "};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(msg, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static int connect_now(rstore *r, err *e)
{
    if (r->ctx)
        return 0;
    char where[320];
    dse_store_url_print(&r->url, where, sizeof where);
    redisContext *c =
        redisConnectWithTimeout(r->url.host, r->url.port, tv_of(r->timeout_s));
    if (!c)
        return err_set(e, ERR_REDIS, "%s: cannot allocate a connection", where);
    if (c->err) {
        err_set(e, ERR_REDIS, "%s: %s", where, c->errstr);
        redisFree(c);
        return ERR_REDIS;
    }
    redisSetTimeout(c, tv_of(r->timeout_s));
    r->ctx = c;
    if (r->url.password[0]) {
        const char *argv[3] = {"AUTH", r->url.user, r->url.password};
        int argc = 3;
        if (!r->url.user[0]) {
            argv[1] = r->url.password;
            argc = 2;
        }
        redisReply *rep = redisCommandArgv(c, argc, argv, NULL);
        if (!rep) {
            err_set(e, ERR_REDIS, "%s: %s", where, c->errstr);
            drop(r);
            return ERR_REDIS;
        }
        int bad = rep->type == REDIS_REPLY_ERROR;
        if (bad)
            err_set(e, transient_error(rep->str) ? ERR_REDIS : ERR_INVALID,
                    "%s: authentication failed: %s", where, rep->str);
        freeReplyObject(rep);
        if (bad) {
            drop(r);
            return e ? e->code : ERR_INVALID;
        }
    }
    if (r->url.db) {
        char db[16];
        snprintf(db, sizeof db, "%d", r->url.db);
        const char *argv[2] = {"SELECT", db};
        redisReply *rep = redisCommandArgv(c, 2, argv, NULL);
        int rc = 0;
        if (!rep)
            rc = err_set(e, ERR_REDIS, "%s: %s", where, c->errstr);
        else if (rep->type == REDIS_REPLY_ERROR)
            rc = err_set(e, transient_error(rep->str) ? ERR_REDIS : ERR_INVALID,
                         "%s: SELECT %d: %s", where, r->url.db, rep->str);
        if (rep)
            freeReplyObject(rep);
        if (rc) {
            drop(r);
            return rc;
        }
    }
    return 0;
}

/* Run argv; *out is the reply (caller frees) unless an error is returned.
 * block_ms > 0 widens the socket timeout for a blocking command. */
static int run(rstore *r, int argc, const char **argv, long block_ms,
               redisReply **out, err *e)
{
    *out = NULL;
    int rc = connect_now(r, e);
    if (rc)
        return rc;
    if (block_ms > 0)
        redisSetTimeout(r->ctx, tv_of(r->timeout_s + (double)block_ms / 1000));
    redisReply *rep = redisCommandArgv(r->ctx, argc, argv, NULL);
    if (!rep) {
        char where[320];
        dse_store_url_print(&r->url, where, sizeof where);
        err_set(e, ERR_REDIS, "%s: %s: %s", where, argv[0],
                r->ctx->errstr[0] ? r->ctx->errstr : "connection lost");
        drop(r);
        return ERR_REDIS;
    }
    if (block_ms > 0)
        redisSetTimeout(r->ctx, tv_of(r->timeout_s));
    if (rep->type == REDIS_REPLY_ERROR) {
        rc = err_set(e, transient_error(rep->str) ? ERR_REDIS : ERR_INVALID,
                     "redis %s: %s", argv[0], rep->str);
        freeReplyObject(rep);
        return rc;
    }
    *out = rep;
    return 0;
}

/* Run a command given as NULL-terminated strings; the reply is discarded. */
static int runv(rstore *r, err *e, ...)
{
    const char *argv[16];
    int argc = 0;
    va_list ap;
    va_start(ap, e);
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL && argc < 16)
        argv[argc++] = s;
    va_end(ap);
    redisReply *rep;
    int rc = run(r, argc, argv, 0, &rep, e);
    if (rep)
        freeReplyObject(rep);
    return rc;
}

static char *dup_str(const redisReply *x)
{
    if (!x || (x->type != REDIS_REPLY_STRING && x->type != REDIS_REPLY_STATUS))
        return NULL;
    char *s = xmalloc(x->len + 1);
    memcpy(s, x->str, x->len);
    s[x->len] = '\0';
    return s;
}

static int bad_reply(const char *cmd, err *e)
{
    return err_set(e, ERR_INVALID, "redis %s: unexpected reply shape", cmd);
}

/* [id, [f, v, ...]] pairs into entries; nil elements are skipped. */
static int parse_entries(const redisReply *arr, dse_store_entry **out,
                         size_t *n, err *e)
{
    *out = NULL;
    *n = 0;
    if (!arr || arr->type == REDIS_REPLY_NIL)
        return 0;
    if (arr->type != REDIS_REPLY_ARRAY)
        return bad_reply("stream read", e);
    dse_store_entry *v = xcalloc(arr->elements + 1, sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < arr->elements; i++) {
        const redisReply *it = arr->element[i];
        if (it->type != REDIS_REPLY_ARRAY || it->elements != 2 ||
            it->element[0]->type != REDIS_REPLY_STRING)
            continue; /* a deleted entry (nil) */
        dse_store_entry *en = &v[m];
        snprintf(en->id, sizeof en->id, "%s", it->element[0]->str);
        const redisReply *kv = it->element[1];
        if (kv->type == REDIS_REPLY_ARRAY) {
            size_t pairs = kv->elements / 2;
            en->fields = xcalloc(pairs + 1, sizeof *en->fields);
            en->values = xcalloc(pairs + 1, sizeof *en->values);
            for (size_t p = 0; p < pairs; p++) {
                char *f = dup_str(kv->element[2 * p]);
                char *val = dup_str(kv->element[2 * p + 1]);
                if (!f || !val) {
                    free(f);
                    free(val);
                    continue;
                }
                en->fields[en->nfields] = f;
                en->values[en->nfields++] = val;
            }
        }
        m++;
    }
    if (m == 0) {
        free(v);
        v = NULL;
    }
    *out = v;
    *n = m;
    return 0;
}

/* XREAD/XREADGROUP reply: [[stream, entries]] or nil. */
static int parse_read(const redisReply *rep, dse_store_entry **out, size_t *n,
                      err *e)
{
    *out = NULL;
    *n = 0;
    if (rep->type == REDIS_REPLY_NIL)
        return 0;
    if (rep->type != REDIS_REPLY_ARRAY)
        return bad_reply("XREAD", e);
    if (rep->elements == 0)
        return 0;
    const redisReply *s = rep->element[0];
    if (s->type != REDIS_REPLY_ARRAY || s->elements != 2)
        return bad_reply("XREAD", e);
    return parse_entries(s->element[1], out, n, e);
}

static void fmt_long(char *buf, long long v)
{
    snprintf(buf, 32, "%lld", v);
}

static void fmt_double(char *buf, double v)
{
    snprintf(buf, 40, "%.17g", v);
}

/* ---- operations ---------------------------------------------------------- */

static void r_destroy(void *self)
{
    rstore *r = self;
    drop(r);
    free(r);
}

static int r_ping(void *self, err *e)
{
    return runv(self, e, "PING", NULL);
}

static int r_time_ms(void *self, long long *ms, err *e)
{
    const char *argv[] = {"TIME"};
    redisReply *rep;
    int rc = run(self, 1, argv, 0, &rep, e);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 2) {
        freeReplyObject(rep);
        return bad_reply("TIME", e);
    }
    *ms = atoll(rep->element[0]->str) * 1000 + atoll(rep->element[1]->str) / 1000;
    freeReplyObject(rep);
    return 0;
}

/* MGET with each value's length checked first, in one atomic script: a
 * string over the bound (ARGV[1]) or of another type reads as nil, so a
 * planted value of any size costs the reader nothing. */
static const char get_bounded_script[] =
    "local out = {}\n"
    "local max = tonumber(ARGV[1])\n"
    "for i, k in ipairs(KEYS) do\n"
    "  local n = redis.pcall('STRLEN', k)\n"
    "  if type(n) == 'number' and n <= max then\n"
    "    out[i] = redis.call('GET', k)\n"
    "  else\n"
    "    out[i] = false\n"
    "  end\n"
    "end\n"
    "return out\n";

static int r_get_many(void *self, const char *const *keys, size_t n,
                      char **values, err *e)
{
    for (size_t i = 0; i < n; i++)
        values[i] = NULL;
    if (n == 0)
        return 0;
    const char **argv = xmalloc((n + 4) * sizeof *argv);
    char nk[32], max[32];
    fmt_long(nk, (long long)n);
    fmt_long(max, DSE_STORE_VALUE_MAX);
    argv[0] = "EVAL";
    argv[1] = get_bounded_script;
    argv[2] = nk;
    for (size_t i = 0; i < n; i++)
        argv[i + 3] = keys[i];
    argv[n + 3] = max;
    redisReply *rep;
    int rc = run(self, (int)n + 4, argv, 0, &rep, e);
    free(argv);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements != n) {
        freeReplyObject(rep);
        return bad_reply("MGET", e);
    }
    for (size_t i = 0; i < n; i++)
        values[i] = dup_str(rep->element[i]);
    freeReplyObject(rep);
    return 0;
}

static int r_set(void *self, const char *key, const char *value, long ttl_ms,
                 int only_if_absent, int *was_set, err *e)
{
    const char *argv[6] = {"SET", key, value};
    int argc = 3;
    char ttl[32];
    if (ttl_ms > 0) {
        fmt_long(ttl, ttl_ms);
        argv[argc++] = "PX";
        argv[argc++] = ttl;
    }
    if (only_if_absent)
        argv[argc++] = "NX";
    redisReply *rep;
    int rc = run(self, argc, argv, 0, &rep, e);
    if (rc)
        return rc;
    if (was_set)
        *was_set = rep->type != REDIS_REPLY_NIL;
    freeReplyObject(rep);
    return 0;
}

static int r_del(void *self, const char *key, err *e)
{
    return runv(self, e, "DEL", key, NULL);
}

static int r_incr(void *self, const char *key, long long *out, err *e)
{
    const char *argv[] = {"INCR", key};
    redisReply *rep;
    int rc = run(self, 2, argv, 0, &rep, e);
    if (rc)
        return rc;
    *out = rep->integer;
    freeReplyObject(rep);
    return 0;
}

static int r_expire(void *self, const char *key, long ttl_ms, err *e)
{
    char ttl[32];
    fmt_long(ttl, ttl_ms);
    return runv(self, e, "PEXPIRE", key, ttl, NULL);
}

static int r_hset(void *self, const char *key, size_t n,
                  const char *const *fields, const char *const *values, err *e)
{
    const char **argv = xmalloc((2 * n + 2) * sizeof *argv);
    argv[0] = "HSET";
    argv[1] = key;
    for (size_t i = 0; i < n; i++) {
        argv[2 + 2 * i] = fields[i];
        argv[3 + 2 * i] = values[i];
    }
    redisReply *rep;
    int rc = run(self, (int)(2 * n + 2), argv, 0, &rep, e);
    free(argv);
    if (rep)
        freeReplyObject(rep);
    return rc;
}

/* HGETALL after adding up the hash's size (HSTRLEN of every field), in
 * one atomic script; over the bounds it answers an error instead, before
 * anything large is sent. */
static const char hgetall_bounded_script[] =
    "local t = redis.call('TYPE', KEYS[1])['ok']\n"
    "if t ~= 'hash' then return redis.call('HGETALL', KEYS[1]) end\n"
    "local nf = redis.call('HLEN', KEYS[1])\n"
    "if nf > tonumber(ARGV[2]) then\n"
    "  return redis.error_reply('TOOBIG ' .. nf .. ' fields')\n"
    "end\n"
    "local total = 0\n"
    "for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do\n"
    "  total = total + #f + redis.call('HSTRLEN', KEYS[1], f)\n"
    "end\n"
    "if total > tonumber(ARGV[1]) then\n"
    "  return redis.error_reply('TOOBIG ' .. total .. ' bytes')\n"
    "end\n"
    "return redis.call('HGETALL', KEYS[1])\n";

static int r_hgetall(void *self, const char *key, size_t *n, char ***fields,
                     char ***values, err *e)
{
    *n = 0;
    *fields = *values = NULL;
    char max[32], maxf[32];
    fmt_long(max, DSE_STORE_HASH_MAX);
    fmt_long(maxf, DSE_STORE_HASH_FIELDS);
    const char *argv[] = {"EVAL", hgetall_bounded_script, "1", key, max, maxf};
    redisReply *rep;
    err le;
    int rc = run(self, 6, argv, 0, &rep, &le);
    if (rc == ERR_INVALID && strstr(le.msg, "TOOBIG"))
        return err_set(e, ERR_INVALID,
                       "redis hash %.160s is too large to read (%s; the "
                       "limits are %ld bytes and %d fields): refused",
                       key, strstr(le.msg, "TOOBIG") + 7, DSE_STORE_HASH_MAX,
                       DSE_STORE_HASH_FIELDS);
    if (rc && e)
        *e = le;
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(rep);
        return bad_reply("HGETALL", e);
    }
    size_t pairs = rep->elements / 2;
    if (pairs) {
        *fields = xcalloc(pairs, sizeof **fields);
        *values = xcalloc(pairs, sizeof **values);
        for (size_t i = 0; i < pairs; i++) {
            (*fields)[i] = dup_str(rep->element[2 * i]);
            (*values)[i] = dup_str(rep->element[2 * i + 1]);
        }
    }
    *n = pairs;
    freeReplyObject(rep);
    return 0;
}

static int r_hincrby(void *self, const char *key, const char *field,
                     long long by, err *e)
{
    char v[32];
    fmt_long(v, by);
    return runv(self, e, "HINCRBY", key, field, v, NULL);
}

static int r_push(void *self, const char *key, const char *value, int left,
                  err *e)
{
    return runv(self, e, left ? "LPUSH" : "RPUSH", key, value, NULL);
}

static int r_lmove(void *self, const char *src, const char *dst, long block_ms,
                   char **value, err *e)
{
    *value = NULL;
    redisReply *rep;
    int rc;
    if (block_ms > 0) {
        char t[40];
        snprintf(t, sizeof t, "%.3f", (double)block_ms / 1000);
        const char *argv[] = {"BLMOVE", src, dst, "LEFT", "RIGHT", t};
        rc = run(self, 6, argv, block_ms, &rep, e);
    } else {
        const char *argv[] = {"LMOVE", src, dst, "LEFT", "RIGHT"};
        rc = run(self, 5, argv, 0, &rep, e);
    }
    if (rc)
        return rc;
    *value = dup_str(rep);
    freeReplyObject(rep);
    return 0;
}

static int r_lrem(void *self, const char *key, const char *value, err *e)
{
    return runv(self, e, "LREM", key, "0", value, NULL);
}

static int r_lrange(void *self, const char *key, long start, long stop,
                    char ***values, size_t *n, err *e)
{
    *values = NULL;
    *n = 0;
    char a[32], b[32];
    fmt_long(a, start);
    fmt_long(b, stop);
    const char *argv[] = {"LRANGE", key, a, b};
    redisReply *rep;
    int rc = run(self, 4, argv, 0, &rep, e);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(rep);
        return bad_reply("LRANGE", e);
    }
    *values = xcalloc(rep->elements + 1, sizeof **values);
    for (size_t i = 0; i < rep->elements; i++)
        (*values)[i] = dup_str(rep->element[i]);
    *n = rep->elements;
    freeReplyObject(rep);
    return 0;
}

static int r_xadd(void *self, const char *stream, size_t n,
                  const char *const *fields, const char *const *values,
                  long maxlen, char *id_out, err *e)
{
    const char **argv = xmalloc((2 * n + 6) * sizeof *argv);
    int argc = 0;
    char ml[32];
    argv[argc++] = "XADD";
    argv[argc++] = stream;
    if (maxlen > 0) {
        fmt_long(ml, maxlen);
        argv[argc++] = "MAXLEN";
        argv[argc++] = "~";
        argv[argc++] = ml;
    }
    argv[argc++] = "*";
    for (size_t i = 0; i < n; i++) {
        argv[argc++] = fields[i];
        argv[argc++] = values[i];
    }
    redisReply *rep;
    int rc = run(self, argc, argv, 0, &rep, e);
    free(argv);
    if (rc)
        return rc;
    if (id_out)
        snprintf(id_out, DSE_STORE_ID_MAX, "%s",
                 rep->type == REDIS_REPLY_STRING ? rep->str : "");
    freeReplyObject(rep);
    return 0;
}

static int r_xgroup_create(void *self, const char *stream, const char *group,
                           int *created, err *e)
{
    err local;
    int rc = runv(self, &local, "XGROUP", "CREATE", stream, group, "0",
                  "MKSTREAM", NULL);
    if (created)
        *created = rc == 0;
    if (rc == ERR_INVALID && strstr(local.msg, "BUSYGROUP"))
        return 0;
    if (rc && e)
        *e = local;
    return rc;
}

static int r_xreadgroup(void *self, const char *stream, const char *group,
                        const char *consumer, size_t count, long block_ms,
                        dse_store_entry **out, size_t *n, err *e)
{
    *out = NULL;
    *n = 0;
    char c[32], b[32];
    fmt_long(c, (long long)count);
    fmt_long(b, block_ms);
    const char *argv[11];
    int argc = 0;
    argv[argc++] = "XREADGROUP";
    argv[argc++] = "GROUP";
    argv[argc++] = group;
    argv[argc++] = consumer;
    argv[argc++] = "COUNT";
    argv[argc++] = c;
    if (block_ms > 0) {
        argv[argc++] = "BLOCK";
        argv[argc++] = b;
    }
    argv[argc++] = "STREAMS";
    argv[argc++] = stream;
    argv[argc++] = ">";
    redisReply *rep;
    int rc = run(self, argc, argv, block_ms, &rep, e);
    if (rc)
        return rc;
    rc = parse_read(rep, out, n, e);
    freeReplyObject(rep);
    for (size_t i = 0; i < *n; i++)
        (*out)[i].deliveries = 1;
    return rc;
}

/* Delivery count of one pending entry (XPENDING stream group id id 1). */
static int deliveries_of(rstore *r, const char *stream, const char *group,
                         const char *id, long *count, err *e)
{
    const char *argv[] = {"XPENDING", stream, group, id, id, "1"};
    redisReply *rep;
    int rc = run(r, 6, argv, 0, &rep, e);
    if (rc)
        return rc;
    *count = 0;
    if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 1 &&
        rep->element[0]->type == REDIS_REPLY_ARRAY &&
        rep->element[0]->elements == 4)
        *count = (long)rep->element[0]->element[3]->integer;
    freeReplyObject(rep);
    return 0;
}

static int r_xautoclaim(void *self, const char *stream, const char *group,
                        const char *consumer, long min_idle_ms, size_t count,
                        dse_store_entry **out, size_t *n, err *e)
{
    *out = NULL;
    *n = 0;
    char idle[32], c[32];
    fmt_long(idle, min_idle_ms);
    fmt_long(c, (long long)count);
    const char *argv[] = {"XAUTOCLAIM", stream, group, consumer, idle,
                          "0-0",        "COUNT", c};
    redisReply *rep;
    int rc = run(self, 8, argv, 0, &rep, e);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements < 2) {
        freeReplyObject(rep);
        return bad_reply("XAUTOCLAIM", e);
    }
    rc = parse_entries(rep->element[1], out, n, e);
    freeReplyObject(rep);
    for (size_t i = 0; rc == 0 && i < *n; i++)
        rc = deliveries_of(self, stream, group, (*out)[i].id,
                           &(*out)[i].deliveries, e);
    if (rc) {
        dse_store_entries_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

static int r_xtouch(void *self, const char *stream, const char *group,
                    const char *consumer, const char *const *ids, size_t n,
                    err *e)
{
    if (n == 0)
        return 0;
    const char **argv = xmalloc((n + 6) * sizeof *argv);
    int argc = 0;
    argv[argc++] = "XCLAIM";
    argv[argc++] = stream;
    argv[argc++] = group;
    argv[argc++] = consumer;
    argv[argc++] = "0";
    for (size_t i = 0; i < n; i++)
        argv[argc++] = ids[i];
    argv[argc++] = "JUSTID";
    redisReply *rep;
    int rc = run(self, argc, argv, 0, &rep, e);
    free(argv);
    if (rep)
        freeReplyObject(rep);
    return rc;
}

static int r_xack_del(void *self, const char *stream, const char *group,
                      const char *id, err *e)
{
    int rc = runv(self, e, "XACK", stream, group, id, NULL);
    if (rc == 0)
        rc = runv(self, e, "XDEL", stream, id, NULL);
    return rc;
}

static int r_xread(void *self, const char *stream, const char *after_id,
                   size_t count, long block_ms, dse_store_entry **out,
                   size_t *n, err *e)
{
    char c[32], b[32];
    fmt_long(c, (long long)count);
    fmt_long(b, block_ms);
    const char *argv[8];
    int argc = 0;
    argv[argc++] = "XREAD";
    argv[argc++] = "COUNT";
    argv[argc++] = c;
    if (block_ms > 0) {
        argv[argc++] = "BLOCK";
        argv[argc++] = b;
    }
    argv[argc++] = "STREAMS";
    argv[argc++] = stream;
    argv[argc++] = after_id;
    redisReply *rep;
    int rc = run(self, argc, argv, block_ms, &rep, e);
    if (rc) {
        *out = NULL;
        *n = 0;
        return rc;
    }
    rc = parse_read(rep, out, n, e);
    freeReplyObject(rep);
    return rc;
}

static int r_xrange(void *self, const char *stream, const char *start,
                    size_t count, dse_store_entry **out, size_t *n, err *e)
{
    char c[32];
    fmt_long(c, (long long)count);
    const char *argv[] = {"XRANGE", stream, start, "+", "COUNT", c};
    redisReply *rep;
    int rc = run(self, 6, argv, 0, &rep, e);
    if (rc) {
        *out = NULL;
        *n = 0;
        return rc;
    }
    rc = parse_entries(rep, out, n, e);
    freeReplyObject(rep);
    return rc;
}

static int r_xlen(void *self, const char *stream, long long *n, err *e)
{
    const char *argv[] = {"XLEN", stream};
    redisReply *rep;
    int rc = run(self, 2, argv, 0, &rep, e);
    if (rc)
        return rc;
    *n = rep->integer;
    freeReplyObject(rep);
    return 0;
}

static int r_xpending_count(void *self, const char *stream, const char *group,
                            long long *n, err *e)
{
    *n = 0;
    const char *argv[] = {"XPENDING", stream, group};
    redisReply *rep;
    err local;
    int rc = run(self, 3, argv, 0, &rep, &local);
    if (rc == ERR_INVALID && strstr(local.msg, "NOGROUP"))
        return 0;
    if (rc) {
        if (e)
            *e = local;
        return rc;
    }
    if (rep->type == REDIS_REPLY_ARRAY && rep->elements >= 1 &&
        rep->element[0]->type == REDIS_REPLY_INTEGER)
        *n = rep->element[0]->integer;
    freeReplyObject(rep);
    return 0;
}

static int r_batch(void *self, const dse_store_cmd *cmds, size_t n, err *e)
{
    rstore *r = self;
    if (n == 0)
        return 0;
    int rc = connect_now(r, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const char *argv[24];
        memcpy(argv, cmds[i].argv, sizeof argv);
        if (redisAppendCommandArgv(r->ctx, cmds[i].argc, argv, NULL) !=
            REDIS_OK) {
            err_set(e, ERR_REDIS, "redis pipeline: %s", r->ctx->errstr);
            drop(r);
            return ERR_REDIS;
        }
    }
    for (size_t i = 0; i < n; i++) {
        void *reply = NULL;
        if (redisGetReply(r->ctx, &reply) != REDIS_OK || !reply) {
            char where[320];
            dse_store_url_print(&r->url, where, sizeof where);
            err_set(e, ERR_REDIS, "%s: %s: %s", where, cmds[i].argv[0],
                    r->ctx->errstr[0] ? r->ctx->errstr : "connection lost");
            drop(r);
            return ERR_REDIS;
        }
        redisReply *rep = reply;
        if (rep->type == REDIS_REPLY_ERROR && rc == 0)
            rc = err_set(e, transient_error(rep->str) ? ERR_REDIS : ERR_INVALID,
                         "redis %s: %s", cmds[i].argv[0], rep->str);
        freeReplyObject(rep);
    }
    return rc;
}

/* ---- fenced writes ----------------------------------------------------------
 *
 * The check and the write in one Lua script: Redis runs a script
 * atomically, so no other client's command (another daemon taking the
 * lock, its writes) can fall between the GET of the fence and the
 * commands.  KEYS[1] is the fence, ARGV[1] its token, then each command as
 * its argument count followed by its arguments.  The commands' keys are
 * not declared in KEYS: fine on a single server (what the farm supports),
 * not on a cluster.
 *
 * EVAL, not EVALSHA: the text is 200 bytes and the daemon makes a few
 * fenced writes a second, while EVALSHA needs a NOSCRIPT fallback after
 * every server restart or SCRIPT FLUSH; Redis caches the compiled script
 * by its SHA either way.
 *
 * Rejected: WATCH fence / GET / MULTI / commands / EXEC.  Also atomic, but
 * three round trips, and a WATCH left on a connection by an error path
 * would abort an unrelated later transaction. */
static const char fence_script[] =
    "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\n"
    "local i = 2\n"
    "while i <= #ARGV do\n"
    "  local n = tonumber(ARGV[i])\n"
    "  redis.call(unpack(ARGV, i + 1, i + n))\n"
    "  i = i + n + 1\n"
    "end\n"
    "return 1\n";

/* What fenced() allows (store.h), so both backends refuse the same. */
static int fenced_allowed(const dse_store_cmd *c)
{
    static const char *const ok[] = {"SET",  "XADD", "PEXPIRE", "HINCRBY",
                                     "XACK", "XDEL", "HSET",    "DEL",
                                     "LREM", "LPUSH", "RPUSH"};
    if (c->argc < 2 || c->argc > 24)
        return 0;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcmp(c->argv[0], ok[i]) == 0)
            return 1;
    return 0;
}

static int r_fenced(void *self, dse_store_fence *f, const dse_store_cmd *cmds,
                    size_t n, err *e)
{
    f->held = 0;
    size_t argc = 5;
    for (size_t i = 0; i < n; i++) {
        if (!fenced_allowed(&cmds[i]))
            return err_set(e, ERR_INVALID, "redis: %s not allowed in a "
                                           "fenced write",
                           cmds[i].argv[0]);
        argc += 1 + (size_t)cmds[i].argc;
    }
    const char **argv = xcalloc(argc, sizeof *argv);
    char(*counts)[8] = xcalloc(n + 1, sizeof *counts);
    size_t a = 0;
    argv[a++] = "EVAL";
    argv[a++] = fence_script;
    argv[a++] = "1";
    argv[a++] = f->key;
    argv[a++] = f->token;
    for (size_t i = 0; i < n; i++) {
        snprintf(counts[i], sizeof counts[i], "%d", cmds[i].argc);
        argv[a++] = counts[i];
        for (int j = 0; j < cmds[i].argc; j++)
            argv[a++] = cmds[i].argv[j];
    }
    redisReply *rep;
    int rc = run(self, (int)argc, argv, 0, &rep, e);
    free(argv);
    free(counts);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_INTEGER) {
        freeReplyObject(rep);
        return bad_reply("EVAL", e);
    }
    f->held = rep->integer == 1;
    freeReplyObject(rep);
    return 0;
}

static int r_zadd(void *self, const char *key, double score,
                  const char *member, err *e)
{
    char s[40];
    fmt_double(s, score);
    return runv(self, e, "ZADD", key, s, member, NULL);
}

static int r_zrem(void *self, const char *key, const char *member, err *e)
{
    return runv(self, e, "ZREM", key, member, NULL);
}

static int r_zrange_from(void *self, const char *key, double min,
                         char ***members, size_t *n, err *e)
{
    *members = NULL;
    *n = 0;
    char s[40];
    fmt_double(s, min);
    const char *argv[] = {"ZRANGEBYSCORE", key, s, "+inf"};
    redisReply *rep;
    int rc = run(self, 4, argv, 0, &rep, e);
    if (rc)
        return rc;
    if (rep->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(rep);
        return bad_reply("ZRANGEBYSCORE", e);
    }
    *members = xcalloc(rep->elements + 1, sizeof **members);
    for (size_t i = 0; i < rep->elements; i++)
        (*members)[i] = dup_str(rep->element[i]);
    *n = rep->elements;
    freeReplyObject(rep);
    return 0;
}

static int r_zrem_below(void *self, const char *key, double max, err *e)
{
    char s[48];
    snprintf(s, sizeof s, "(%.17g", max);
    return runv(self, e, "ZREMRANGEBYSCORE", key, "-inf", s, NULL);
}

static const dse_store_ops redis_ops = {
    .name = "redis",
    .destroy = r_destroy,
    .ping = r_ping,
    .time_ms = r_time_ms,
    .get_many = r_get_many,
    .set = r_set,
    .del = r_del,
    .incr = r_incr,
    .expire = r_expire,
    .hset = r_hset,
    .hgetall = r_hgetall,
    .hincrby = r_hincrby,
    .push = r_push,
    .lmove = r_lmove,
    .lrem = r_lrem,
    .lrange = r_lrange,
    .xadd = r_xadd,
    .xgroup_create = r_xgroup_create,
    .xreadgroup = r_xreadgroup,
    .xautoclaim = r_xautoclaim,
    .xtouch = r_xtouch,
    .xack_del = r_xack_del,
    .xread = r_xread,
    .xrange = r_xrange,
    .xlen = r_xlen,
    .xpending_count = r_xpending_count,
    .batch = r_batch,
    .fenced = r_fenced,
    .zadd = r_zadd,
    .zrem = r_zrem,
    .zrange_from = r_zrange_from,
    .zrem_below = r_zrem_below,
};

void dse__store_redis_open(const dse_store_spec *spec, dse_store *out)
{
    rstore *r = xcalloc(1, sizeof *r);
    r->url = spec->redis;
    r->timeout_s = spec->timeout_s > 0 ? spec->timeout_s : 5.0;
    out->ops = &redis_ops;
    out->self = r;
}

/*
 * store_mem.c — an in-memory dse_store (dse/farm/store.h) for tests
 * (store_mem.h): the subset of Redis semantics the farm relies on, in one
 * process, with failures on demand (dse_mem_db_set_down) and a clock tests
 * can move forward (dse_mem_db_advance_ms) to age pending entries without
 * sleeping.
 *
 * Semantics kept from Redis: stream ids "ms-seq" strictly increasing;
 * consumer groups with a last-delivered id and a pending-entries list
 * (consumer, delivery time, delivery count); XAUTOCLAIM increments the
 * count, XCLAIM JUSTID does not; XACK removes from the PEL; XDEL removes
 * the entry; keys expire; blocking reads wait on a condition variable;
 * fenced() checks its fence and runs its commands under one hold of the
 * lock, atomic as Redis runs store_redis.c's Lua script.
 * Not kept: memory limits, persistence, RESP details.
 *
 * Data layout: a flat array of keys searched linearly (tests hold tens of
 * keys); one mutex for the whole db, so any number of handles (one per
 * thread) may share it (recursive, so fenced() can run the other ops).
 */
#include "store_mem.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/xalloc.h"

enum { T_STRING, T_HASH, T_LIST, T_STREAM, T_ZSET };

typedef struct mentry {
    unsigned long long ms, seq;
    size_t n;
    char **f, **v;
} mentry;

typedef struct mpend {
    unsigned long long ms, seq;
    char consumer[128];
    long long delivered_ms;
    long count;
} mpend;

typedef struct mgroup {
    char name[128];
    unsigned long long last_ms, last_seq;
    mpend *pel;
    size_t npel;
} mgroup;

typedef struct mkey {
    char *name;
    int type;
    long long expire_ms;     /* 0 = never */
    char *str;
    size_t n;                /* hash pairs, list items, zset members */
    char **a, **b;           /* hash fields/values; list items (a); zset
                                members (a) */
    double *score;
    mentry *ent;
    size_t nent;
    unsigned long long top_ms, top_seq;
    mgroup *grp;
    size_t ngrp;
} mkey;

struct dse_mem_db {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    mkey *keys;
    size_t nkeys;
    long long offset_ms;
    int down;
};

/* ---- the db ------------------------------------------------------------ */

dse_mem_db *dse_mem_db_create(void)
{
    dse_mem_db *db = xcalloc(1, sizeof *db);
    /* recursive: fenced() holds the lock across the check and the
     * operations it runs, each of which takes it again */
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&db->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&db->changed, &ca);
    pthread_condattr_destroy(&ca);
    return db;
}

static void strs_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void key_clear(mkey *k)
{
    free(k->name);
    free(k->str);
    strs_free(k->a, k->n);
    if (k->type == T_HASH)
        strs_free(k->b, k->n);
    free(k->score);
    for (size_t i = 0; i < k->nent; i++) {
        strs_free(k->ent[i].f, k->ent[i].n);
        strs_free(k->ent[i].v, k->ent[i].n);
    }
    free(k->ent);
    for (size_t i = 0; i < k->ngrp; i++)
        free(k->grp[i].pel);
    free(k->grp);
    memset(k, 0, sizeof *k);
}

void dse_mem_db_destroy(dse_mem_db *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->nkeys; i++)
        key_clear(&db->keys[i]);
    free(db->keys);
    pthread_mutex_destroy(&db->lock);
    pthread_cond_destroy(&db->changed);
    free(db);
}

void dse_mem_db_set_down(dse_mem_db *db, int down)
{
    pthread_mutex_lock(&db->lock);
    db->down = down;
    pthread_cond_broadcast(&db->changed);
    pthread_mutex_unlock(&db->lock);
}

void dse_mem_db_flush(dse_mem_db *db)
{
    pthread_mutex_lock(&db->lock);
    for (size_t i = 0; i < db->nkeys; i++)
        key_clear(&db->keys[i]);
    db->nkeys = 0;
    pthread_cond_broadcast(&db->changed);
    pthread_mutex_unlock(&db->lock);
}

void dse_mem_db_advance_ms(dse_mem_db *db, long long ms)
{
    pthread_mutex_lock(&db->lock);
    db->offset_ms += ms;
    pthread_cond_broadcast(&db->changed);
    pthread_mutex_unlock(&db->lock);
}

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The db's clock (caller holds the lock). */
static long long now_ms(dse_mem_db *db)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + db->offset_ms;
}

static mkey *find(dse_mem_db *db, const char *name)
{
    for (size_t i = 0; i < db->nkeys; i++) {
        mkey *k = &db->keys[i];
        if (strcmp(k->name, name) != 0)
            continue;
        if (k->expire_ms && k->expire_ms <= now_ms(db)) {
            key_clear(k);
            db->keys[i] = db->keys[--db->nkeys];
            return NULL;
        }
        return k;
    }
    return NULL;
}

static mkey *create(dse_mem_db *db, const char *name, int type)
{
    db->keys = xrealloc(db->keys, (db->nkeys + 1) * sizeof *db->keys);
    mkey *k = &db->keys[db->nkeys++];
    memset(k, 0, sizeof *k);
    k->name = xstrdup(name);
    k->type = type;
    return k;
}

static void remove_key(dse_mem_db *db, mkey *k)
{
    size_t i = (size_t)(k - db->keys);
    key_clear(k);
    db->keys[i] = db->keys[--db->nkeys];
}

/* ---- handles ------------------------------------------------------------ */

typedef struct mstore {
    dse_mem_db *db;
} mstore;

/* Lock and check the db is up; on failure returns the error unlocked. */
static int enter(mstore *m, err *e)
{
    pthread_mutex_lock(&m->db->lock);
    if (m->db->down) {
        pthread_mutex_unlock(&m->db->lock);
        return err_set(e, ERR_REDIS, "memory store: connection refused (down)");
    }
    return 0;
}

static void leave(mstore *m, int changed)
{
    if (changed)
        pthread_cond_broadcast(&m->db->changed);
    pthread_mutex_unlock(&m->db->lock);
}

static int wrongtype(mstore *m, err *e)
{
    leave(m, 0);
    return err_set(e, ERR_INVALID,
                   "WRONGTYPE Operation against a key holding the wrong kind "
                   "of value");
}

/* Lookup with a type check: NULL when absent; *bad on a type clash. */
static mkey *get_typed(dse_mem_db *db, const char *name, int type, int *bad)
{
    mkey *k = find(db, name);
    *bad = k && k->type != type;
    return *bad ? NULL : k;
}

/* Wait until the db changes or the deadline passes (lock held); returns 0
 * on timeout.  Fails (ERR_REDIS) if the db went down meanwhile. */
static int wait_change(mstore *m, long long deadline_mono)
{
    long long left = deadline_mono - mono_ms();
    if (left <= 0)
        return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += left / 1000;
    ts.tv_nsec += (left % 1000) * 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&m->db->changed, &m->db->lock, &ts);
    return 1;
}

static void m_destroy(void *self)
{
    free(self);
}

static int m_ping(void *self, err *e)
{
    int rc = enter(self, e);
    if (!rc)
        leave(self, 0);
    return rc;
}

static int m_time_ms(void *self, long long *ms, err *e)
{
    mstore *m = self;
    int rc = enter(m, e);
    if (rc)
        return rc;
    *ms = now_ms(m->db);
    leave(m, 0);
    return 0;
}

/* ---- strings ---- */

static int m_get_many(void *self, const char *const *keys, size_t n,
                      char **values, err *e)
{
    mstore *m = self;
    for (size_t i = 0; i < n; i++)
        values[i] = NULL;
    int rc = enter(m, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++) {
        mkey *k = find(m->db, keys[i]);
        if (k && k->type == T_STRING &&
            strlen(k->str) <= (size_t)DSE_STORE_VALUE_MAX)
            values[i] = xstrdup(k->str);
    }
    leave(m, 0);
    return 0;
}

static int m_set(void *self, const char *key, const char *value, long ttl_ms,
                 int only_if_absent, int *was_set, err *e)
{
    mstore *m = self;
    int rc = enter(m, e);
    if (rc)
        return rc;
    mkey *k = find(m->db, key);
    if (k && only_if_absent) {
        if (was_set)
            *was_set = 0;
        leave(m, 0);
        return 0;
    }
    if (k)
        remove_key(m->db, k);
    k = create(m->db, key, T_STRING);
    k->str = xstrdup(value);
    k->expire_ms = ttl_ms > 0 ? now_ms(m->db) + ttl_ms : 0;
    if (was_set)
        *was_set = 1;
    leave(m, 1);
    return 0;
}

static int m_del(void *self, const char *key, err *e)
{
    mstore *m = self;
    int rc = enter(m, e);
    if (rc)
        return rc;
    mkey *k = find(m->db, key);
    if (k)
        remove_key(m->db, k);
    leave(m, 1);
    return 0;
}

static int m_incr(void *self, const char *key, long long *out, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_STRING, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k) {
        k = create(m->db, key, T_STRING);
        k->str = xstrdup("0");
    }
    long long v = atoll(k->str) + 1;
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    free(k->str);
    k->str = xstrdup(buf);
    *out = v;
    leave(m, 1);
    return 0;
}

static int m_expire(void *self, const char *key, long ttl_ms, err *e)
{
    mstore *m = self;
    int rc = enter(m, e);
    if (rc)
        return rc;
    mkey *k = find(m->db, key);
    if (k)
        k->expire_ms = now_ms(m->db) + ttl_ms;
    leave(m, 0);
    return 0;
}

/* ---- hashes ---- */

static void hash_put(mkey *k, const char *f, const char *v)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->a[i], f) == 0) {
            free(k->b[i]);
            k->b[i] = xstrdup(v);
            return;
        }
    k->a = xrealloc(k->a, (k->n + 1) * sizeof *k->a);
    k->b = xrealloc(k->b, (k->n + 1) * sizeof *k->b);
    k->a[k->n] = xstrdup(f);
    k->b[k->n++] = xstrdup(v);
}

static int m_hset(void *self, const char *key, size_t n,
                  const char *const *fields, const char *const *values, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_HASH, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, key, T_HASH);
    for (size_t i = 0; i < n; i++)
        hash_put(k, fields[i], values[i]);
    leave(m, 1);
    return 0;
}

static int m_hgetall(void *self, const char *key, size_t *n, char ***fields,
                     char ***values, err *e)
{
    mstore *m = self;
    *n = 0;
    *fields = *values = NULL;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_HASH, &bad);
    if (bad)
        return wrongtype(m, e);
    size_t total = 0;
    for (size_t i = 0; k && i < k->n; i++)
        total += strlen(k->a[i]) + strlen(k->b[i]);
    if (k && (k->n > DSE_STORE_HASH_FIELDS ||
              total > (size_t)DSE_STORE_HASH_MAX)) {
        leave(m, 0);
        return err_set(e, ERR_INVALID,
                       "redis hash %.160s is too large to read (%zu fields, "
                       "%zu bytes): refused",
                       key, k->n, total);
    }
    if (k && k->n) {
        *fields = xcalloc(k->n, sizeof **fields);
        *values = xcalloc(k->n, sizeof **values);
        for (size_t i = 0; i < k->n; i++) {
            (*fields)[i] = xstrdup(k->a[i]);
            (*values)[i] = xstrdup(k->b[i]);
        }
        *n = k->n;
    }
    leave(m, 0);
    return 0;
}

static int m_hincrby(void *self, const char *key, const char *field,
                     long long by, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_HASH, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, key, T_HASH);
    long long v = by;
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->a[i], field) == 0)
            v += atoll(k->b[i]);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    hash_put(k, field, buf);
    leave(m, 1);
    return 0;
}

/* ---- lists ---- */

static void list_insert(mkey *k, size_t at, const char *v)
{
    k->a = xrealloc(k->a, (k->n + 1) * sizeof *k->a);
    memmove(k->a + at + 1, k->a + at, (k->n - at) * sizeof *k->a);
    k->a[at] = xstrdup(v);
    k->n++;
}

static int m_push(void *self, const char *key, const char *value, int left,
                  err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_LIST, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, key, T_LIST);
    list_insert(k, left ? 0 : k->n, value);
    leave(m, 1);
    return 0;
}

static int m_lmove(void *self, const char *src, const char *dst, long block_ms,
                   char **value, err *e)
{
    mstore *m = self;
    *value = NULL;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    long long deadline = mono_ms() + (block_ms > 0 ? block_ms : 0);
    for (;;) {
        if (m->db->down) {
            leave(m, 0);
            return err_set(e, ERR_REDIS, "memory store: connection lost");
        }
        mkey *k = get_typed(m->db, src, T_LIST, &bad);
        if (bad)
            return wrongtype(m, e);
        if (k && k->n) {
            char *v = k->a[0];
            memmove(k->a, k->a + 1, (k->n - 1) * sizeof *k->a);
            if (--k->n == 0)
                remove_key(m->db, k);
            mkey *d = get_typed(m->db, dst, T_LIST, &bad);
            if (!d && !bad)
                d = create(m->db, dst, T_LIST);
            if (d)
                list_insert(d, d->n, v);
            *value = v;
            leave(m, 1);
            return 0;
        }
        if (!wait_change(m, deadline))
            break;
    }
    leave(m, 0);
    return 0;
}

static int m_lrem(void *self, const char *key, const char *value, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_LIST, &bad);
    if (bad)
        return wrongtype(m, e);
    if (k) {
        size_t o = 0;
        for (size_t i = 0; i < k->n; i++) {
            if (strcmp(k->a[i], value) == 0)
                free(k->a[i]);
            else
                k->a[o++] = k->a[i];
        }
        k->n = o;
        if (o == 0)
            remove_key(m->db, k);
    }
    leave(m, 1);
    return 0;
}

static int m_lrange(void *self, const char *key, long start, long stop,
                    char ***values, size_t *n, err *e)
{
    mstore *m = self;
    *values = NULL;
    *n = 0;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_LIST, &bad);
    if (bad)
        return wrongtype(m, e);
    long len = k ? (long)k->n : 0;
    if (start < 0)
        start += len;
    if (stop < 0)
        stop += len;
    if (start < 0)
        start = 0;
    if (stop >= len)
        stop = len - 1;
    *values = xcalloc(len + 1, sizeof **values);
    for (long i = start; i <= stop; i++)
        (*values)[(*n)++] = xstrdup(k->a[i]);
    leave(m, 0);
    return 0;
}

/* ---- streams ---- */

static int id_parse(const char *s, unsigned long long *ms,
                    unsigned long long *seq)
{
    char *end;
    *ms = strtoull(s, &end, 10);
    *seq = 0;
    if (*end == '-')
        *seq = strtoull(end + 1, &end, 10);
    return *end ? -1 : 0;
}

static int id_cmp(unsigned long long a_ms, unsigned long long a_seq,
                  unsigned long long b_ms, unsigned long long b_seq)
{
    if (a_ms != b_ms)
        return a_ms < b_ms ? -1 : 1;
    if (a_seq != b_seq)
        return a_seq < b_seq ? -1 : 1;
    return 0;
}

static void entry_copy(const mentry *src, dse_store_entry *dst, long dels)
{
    snprintf(dst->id, sizeof dst->id, "%llu-%llu", src->ms, src->seq);
    dst->nfields = src->n;
    dst->fields = xcalloc(src->n + 1, sizeof *dst->fields);
    dst->values = xcalloc(src->n + 1, sizeof *dst->values);
    for (size_t i = 0; i < src->n; i++) {
        dst->fields[i] = xstrdup(src->f[i]);
        dst->values[i] = xstrdup(src->v[i]);
    }
    dst->deliveries = dels;
}

static mentry *entry_find(mkey *k, unsigned long long ms,
                          unsigned long long seq)
{
    for (size_t i = 0; i < k->nent; i++)
        if (k->ent[i].ms == ms && k->ent[i].seq == seq)
            return &k->ent[i];
    return NULL;
}

static mgroup *group_find(mkey *k, const char *name)
{
    for (size_t i = 0; k && i < k->ngrp; i++)
        if (strcmp(k->grp[i].name, name) == 0)
            return &k->grp[i];
    return NULL;
}

static int m_xadd(void *self, const char *stream, size_t n,
                  const char *const *fields, const char *const *values,
                  long maxlen, char *id_out, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, stream, T_STREAM);
    unsigned long long ms = (unsigned long long)now_ms(m->db), seq = 0;
    if (ms <= k->top_ms) {
        ms = k->top_ms;
        seq = k->top_seq + 1;
    }
    k->top_ms = ms;
    k->top_seq = seq;
    k->ent = xrealloc(k->ent, (k->nent + 1) * sizeof *k->ent);
    mentry *en = &k->ent[k->nent++];
    en->ms = ms;
    en->seq = seq;
    en->n = n;
    en->f = xcalloc(n + 1, sizeof *en->f);
    en->v = xcalloc(n + 1, sizeof *en->v);
    for (size_t i = 0; i < n; i++) {
        en->f[i] = xstrdup(fields[i]);
        en->v[i] = xstrdup(values[i]);
    }
    if (maxlen > 0 && k->nent > (size_t)maxlen) {
        size_t drop = k->nent - (size_t)maxlen;
        for (size_t i = 0; i < drop; i++) {
            strs_free(k->ent[i].f, k->ent[i].n);
            strs_free(k->ent[i].v, k->ent[i].n);
        }
        memmove(k->ent, k->ent + drop, (k->nent - drop) * sizeof *k->ent);
        k->nent -= drop;
    }
    if (id_out)
        snprintf(id_out, DSE_STORE_ID_MAX, "%llu-%llu", ms, seq);
    leave(m, 1);
    return 0;
}

static int m_xgroup_create(void *self, const char *stream, const char *group,
                           int *created, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, stream, T_STREAM);
    if (created)
        *created = 0;
    if (!group_find(k, group)) {
        k->grp = xrealloc(k->grp, (k->ngrp + 1) * sizeof *k->grp);
        mgroup *g = &k->grp[k->ngrp++];
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "%s", group);
        if (created)
            *created = 1;
    }
    leave(m, 1);
    return 0;
}

static int nogroup(mstore *m, err *e)
{
    leave(m, 0);
    return err_set(e, ERR_INVALID, "NOGROUP No such key or consumer group");
}

static int m_xreadgroup(void *self, const char *stream, const char *group,
                        const char *consumer, size_t count, long block_ms,
                        dse_store_entry **out, size_t *n, err *e)
{
    mstore *m = self;
    *out = NULL;
    *n = 0;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    long long deadline = mono_ms() + (block_ms > 0 ? block_ms : 0);
    for (;;) {
        if (m->db->down) {
            leave(m, 0);
            return err_set(e, ERR_REDIS, "memory store: connection lost");
        }
        mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
        if (bad)
            return wrongtype(m, e);
        mgroup *g = group_find(k, group);
        if (!g)
            return nogroup(m, e);
        dse_store_entry *v = NULL;
        size_t got = 0;
        for (size_t i = 0; i < k->nent && got < count; i++) {
            mentry *en = &k->ent[i];
            if (id_cmp(en->ms, en->seq, g->last_ms, g->last_seq) <= 0)
                continue;
            v = xrealloc(v, (got + 1) * sizeof *v);
            memset(&v[got], 0, sizeof v[got]);
            entry_copy(en, &v[got++], 1);
            g->last_ms = en->ms;
            g->last_seq = en->seq;
            g->pel = xrealloc(g->pel, (g->npel + 1) * sizeof *g->pel);
            mpend *p = &g->pel[g->npel++];
            p->ms = en->ms;
            p->seq = en->seq;
            snprintf(p->consumer, sizeof p->consumer, "%s", consumer);
            p->delivered_ms = now_ms(m->db);
            p->count = 1;
        }
        if (got) {
            *out = v;
            *n = got;
            leave(m, 1);
            return 0;
        }
        if (!wait_change(m, deadline))
            break;
    }
    leave(m, 0);
    return 0;
}

static int m_xautoclaim(void *self, const char *stream, const char *group,
                        const char *consumer, long min_idle_ms, size_t count,
                        dse_store_entry **out, size_t *n, err *e)
{
    mstore *m = self;
    *out = NULL;
    *n = 0;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    mgroup *g = group_find(k, group);
    if (!g)
        return nogroup(m, e);
    long long now = now_ms(m->db);
    dse_store_entry *v = NULL;
    size_t got = 0;
    for (size_t i = 0; i < g->npel && got < count;) {
        mpend *p = &g->pel[i];
        if (now - p->delivered_ms < min_idle_ms) {
            i++;
            continue;
        }
        mentry *en = entry_find(k, p->ms, p->seq);
        if (!en) { /* deleted while pending: drop from the PEL */
            g->pel[i] = g->pel[--g->npel];
            continue;
        }
        p->count++;
        p->delivered_ms = now;
        snprintf(p->consumer, sizeof p->consumer, "%s", consumer);
        v = xrealloc(v, (got + 1) * sizeof *v);
        memset(&v[got], 0, sizeof v[got]);
        entry_copy(en, &v[got++], p->count);
        i++;
    }
    *out = v;
    *n = got;
    leave(m, 1);
    return 0;
}

static int m_xtouch(void *self, const char *stream, const char *group,
                    const char *consumer, const char *const *ids, size_t n,
                    err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    mgroup *g = group_find(k, group);
    if (!g)
        return nogroup(m, e);
    for (size_t q = 0; q < n; q++) {
        unsigned long long ms, seq;
        if (id_parse(ids[q], &ms, &seq))
            continue;
        for (size_t i = 0; i < g->npel; i++)
            if (g->pel[i].ms == ms && g->pel[i].seq == seq) {
                g->pel[i].delivered_ms = now_ms(m->db);
                snprintf(g->pel[i].consumer, sizeof g->pel[i].consumer, "%s",
                         consumer);
            }
    }
    leave(m, 0);
    return 0;
}

static int m_xack_del(void *self, const char *stream, const char *group,
                      const char *id, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    unsigned long long ms, seq;
    if (k && id_parse(id, &ms, &seq) == 0) {
        mgroup *g = group_find(k, group);
        for (size_t i = 0; g && i < g->npel; i++)
            if (g->pel[i].ms == ms && g->pel[i].seq == seq) {
                g->pel[i] = g->pel[--g->npel];
                break;
            }
        mentry *en = entry_find(k, ms, seq);
        if (en) {
            strs_free(en->f, en->n);
            strs_free(en->v, en->n);
            size_t at = (size_t)(en - k->ent);
            memmove(en, en + 1, (k->nent - at - 1) * sizeof *en);
            k->nent--;
        }
    }
    leave(m, 1);
    return 0;
}

static int m_xread(void *self, const char *stream, const char *after_id,
                   size_t count, long block_ms, dse_store_entry **out,
                   size_t *n, err *e)
{
    mstore *m = self;
    *out = NULL;
    *n = 0;
    unsigned long long ams = 0, aseq = 0;
    int dollar = strcmp(after_id, "$") == 0;
    if (!dollar && id_parse(after_id, &ams, &aseq))
        return err_set(e, ERR_INVALID, "ERR Invalid stream ID");
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    if (dollar) {
        mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
        if (k) {
            ams = k->top_ms;
            aseq = k->top_seq;
        }
    }
    long long deadline = mono_ms() + (block_ms > 0 ? block_ms : 0);
    for (;;) {
        if (m->db->down) {
            leave(m, 0);
            return err_set(e, ERR_REDIS, "memory store: connection lost");
        }
        mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
        if (bad)
            return wrongtype(m, e);
        dse_store_entry *v = NULL;
        size_t got = 0;
        for (size_t i = 0; k && i < k->nent && got < count; i++) {
            if (id_cmp(k->ent[i].ms, k->ent[i].seq, ams, aseq) <= 0)
                continue;
            v = xrealloc(v, (got + 1) * sizeof *v);
            memset(&v[got], 0, sizeof v[got]);
            entry_copy(&k->ent[i], &v[got++], 0);
        }
        if (got) {
            *out = v;
            *n = got;
            leave(m, 0);
            return 0;
        }
        if (!wait_change(m, deadline))
            break;
    }
    leave(m, 0);
    return 0;
}

static int m_xrange(void *self, const char *stream, const char *start,
                    size_t count, dse_store_entry **out, size_t *n, err *e)
{
    mstore *m = self;
    *out = NULL;
    *n = 0;
    unsigned long long sms = 0, sseq = 0;
    if (strcmp(start, "-") != 0 && id_parse(start, &sms, &sseq))
        return err_set(e, ERR_INVALID, "ERR Invalid stream ID");
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    dse_store_entry *v = xcalloc((k ? k->nent : 0) + 1, sizeof *v);
    size_t got = 0;
    for (size_t i = 0; k && i < k->nent && got < count; i++)
        if (id_cmp(k->ent[i].ms, k->ent[i].seq, sms, sseq) >= 0)
            entry_copy(&k->ent[i], &v[got++], 0);
    *out = v;
    *n = got;
    leave(m, 0);
    return 0;
}

static int m_xlen(void *self, const char *stream, long long *n, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    *n = k ? (long long)k->nent : 0;
    leave(m, 0);
    return 0;
}

static int m_xpending_count(void *self, const char *stream, const char *group,
                            long long *n, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, stream, T_STREAM, &bad);
    if (bad)
        return wrongtype(m, e);
    mgroup *g = group_find(k, group);
    *n = g ? (long long)g->npel : 0;
    leave(m, 0);
    return 0;
}

/* ---- pipelining: the commands batch() allows, through the ops above ---- */

/* Run cmds through the ops above: batch()'s commands, and with fenced
 * also HSET, DEL, LREM key 0 value, LPUSH and RPUSH (what fenced()
 * allows).  Stops at the first failure. */
static int run_cmds(void *self, const dse_store_cmd *cmds, size_t n,
                    int fenced, err *e)
{
    for (size_t i = 0; i < n; i++) {
        const dse_store_cmd *c = &cmds[i];
        const char *op = c->argv[0];
        int rc;
        if (fenced && strcmp(op, "HSET") == 0 && c->argc >= 4 &&
            c->argc % 2 == 0) {
            size_t pairs = (size_t)(c->argc - 2) / 2;
            const char *f[11], *v[11];
            if (pairs > 11)
                return err_set(e, ERR_INVALID, "memory store: HSET: too "
                                               "many fields");
            for (size_t p = 0; p < pairs; p++) {
                f[p] = c->argv[2 + 2 * p];
                v[p] = c->argv[3 + 2 * p];
            }
            rc = m_hset(self, c->argv[1], pairs, f, v, e);
        } else if (fenced && strcmp(op, "DEL") == 0 && c->argc == 2) {
            rc = m_del(self, c->argv[1], e);
        } else if (fenced && strcmp(op, "LREM") == 0 && c->argc == 4 &&
                   strcmp(c->argv[2], "0") == 0) {
            rc = m_lrem(self, c->argv[1], c->argv[3], e);
        } else if (fenced &&
                   (strcmp(op, "LPUSH") == 0 || strcmp(op, "RPUSH") == 0) &&
                   c->argc == 3) {
            rc = m_push(self, c->argv[1], c->argv[2], op[0] == 'L', e);
        } else if (strcmp(op, "SET") == 0 && (c->argc == 3 || c->argc == 5)) {
            long ttl = c->argc == 5 ? atol(c->argv[4]) : 0;
            rc = m_set(self, c->argv[1], c->argv[2], ttl, 0, NULL, e);
        } else if (strcmp(op, "XADD") == 0 && c->argc >= 5) {
            int at = 2;
            long maxlen = 0;
            if (strcmp(c->argv[2], "MAXLEN") == 0) {
                maxlen = atol(c->argv[4]);
                at = 5;
            }
            at++; /* "*" */
            size_t pairs = (size_t)(c->argc - at) / 2;
            const char *f[12], *v[12];
            for (size_t p = 0; p < pairs && p < 12; p++) {
                f[p] = c->argv[at + 2 * p];
                v[p] = c->argv[at + 2 * p + 1];
            }
            rc = m_xadd(self, c->argv[1], pairs < 12 ? pairs : 12, f, v,
                        maxlen, NULL, e);
        } else if (strcmp(op, "PEXPIRE") == 0 && c->argc == 3) {
            rc = m_expire(self, c->argv[1], atol(c->argv[2]), e);
        } else if (strcmp(op, "HINCRBY") == 0 && c->argc == 4) {
            rc = m_hincrby(self, c->argv[1], c->argv[2], atoll(c->argv[3]), e);
        } else if (strcmp(op, "XACK") == 0 && c->argc == 4) {
            rc = m_xack_del(self, c->argv[1], c->argv[2], c->argv[3], e);
        } else if (strcmp(op, "XDEL") == 0 && c->argc == 3) {
            /* the farm always sends XACK then XDEL of the same entry, and
             * m_xack_del did both */
            rc = 0;
        } else {
            rc = err_set(e, ERR_INVALID, "memory store: %s not allowed in a "
                                         "%s",
                         op, fenced ? "fenced write" : "batch");
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int m_batch(void *self, const dse_store_cmd *cmds, size_t n, err *e)
{
    return run_cmds(self, cmds, n, 0, e);
}

/* The check and the commands under one hold of the db's lock, as Redis
 * runs the Lua script of store_redis.c: no other handle's operation can
 * come between them. */
static int m_fenced(void *self, dse_store_fence *f, const dse_store_cmd *cmds,
                    size_t n, err *e)
{
    static const char *const ok[] = {"SET",  "XADD", "PEXPIRE", "HINCRBY",
                                     "XACK", "XDEL", "HSET",    "DEL",
                                     "LREM", "LPUSH", "RPUSH"};
    mstore *m = self;
    f->held = 0;
    /* refused before anything runs, as store_redis.c does */
    for (size_t i = 0; i < n; i++) {
        int known = 0;
        for (size_t j = 0; j < sizeof ok / sizeof *ok; j++)
            known |= strcmp(cmds[i].argv[0], ok[j]) == 0;
        if (!known)
            return err_set(e, ERR_INVALID, "memory store: %s not allowed in "
                                           "a fenced write",
                           cmds[i].argv[0]);
    }
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, f->key, T_STRING, &bad);
    if (bad)
        return wrongtype(m, e);
    int held = k && strcmp(k->str, f->token) == 0;
    if (held)
        rc = run_cmds(self, cmds, n, 1, e);
    f->held = held && rc == 0;
    leave(m, held);
    return rc;
}

/* ---- sorted sets ---- */

static int m_zadd(void *self, const char *key, double score,
                  const char *member, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_ZSET, &bad);
    if (bad)
        return wrongtype(m, e);
    if (!k)
        k = create(m->db, key, T_ZSET);
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->a[i], member) == 0) {
            k->score[i] = score;
            leave(m, 1);
            return 0;
        }
    k->a = xrealloc(k->a, (k->n + 1) * sizeof *k->a);
    k->score = xrealloc(k->score, (k->n + 1) * sizeof *k->score);
    k->a[k->n] = xstrdup(member);
    k->score[k->n++] = score;
    leave(m, 1);
    return 0;
}

static void zset_remove_at(mkey *k, size_t i)
{
    free(k->a[i]);
    k->a[i] = k->a[k->n - 1];
    k->score[i] = k->score[k->n - 1];
    k->n--;
}

static int m_zrem(void *self, const char *key, const char *member, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_ZSET, &bad);
    if (bad)
        return wrongtype(m, e);
    for (size_t i = 0; k && i < k->n; i++)
        if (strcmp(k->a[i], member) == 0) {
            zset_remove_at(k, i);
            break;
        }
    leave(m, 1);
    return 0;
}

static int m_zrange_from(void *self, const char *key, double min,
                         char ***members, size_t *n, err *e)
{
    mstore *m = self;
    *members = NULL;
    *n = 0;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_ZSET, &bad);
    if (bad)
        return wrongtype(m, e);
    *members = xcalloc((k ? k->n : 0) + 1, sizeof **members);
    for (size_t i = 0; k && i < k->n; i++)
        if (k->score[i] >= min)
            (*members)[(*n)++] = xstrdup(k->a[i]);
    leave(m, 0);
    return 0;
}

static int m_zrem_below(void *self, const char *key, double max, err *e)
{
    mstore *m = self;
    int rc = enter(m, e), bad;
    if (rc)
        return rc;
    mkey *k = get_typed(m->db, key, T_ZSET, &bad);
    if (bad)
        return wrongtype(m, e);
    for (size_t i = 0; k && i < k->n;) {
        if (k->score[i] < max)
            zset_remove_at(k, i);
        else
            i++;
    }
    leave(m, 1);
    return 0;
}

static const dse_store_ops mem_ops = {
    .name = "memory",
    .destroy = m_destroy,
    .ping = m_ping,
    .time_ms = m_time_ms,
    .get_many = m_get_many,
    .set = m_set,
    .del = m_del,
    .incr = m_incr,
    .expire = m_expire,
    .hset = m_hset,
    .hgetall = m_hgetall,
    .hincrby = m_hincrby,
    .push = m_push,
    .lmove = m_lmove,
    .lrem = m_lrem,
    .lrange = m_lrange,
    .xadd = m_xadd,
    .xgroup_create = m_xgroup_create,
    .xreadgroup = m_xreadgroup,
    .xautoclaim = m_xautoclaim,
    .xtouch = m_xtouch,
    .xack_del = m_xack_del,
    .xread = m_xread,
    .xrange = m_xrange,
    .xlen = m_xlen,
    .xpending_count = m_xpending_count,
    .batch = m_batch,
    .fenced = m_fenced,
    .zadd = m_zadd,
    .zrem = m_zrem,
    .zrange_from = m_zrange_from,
    .zrem_below = m_zrem_below,
};

void dse_mem_store_open(void *db, dse_store *out)
{
    mstore *m = xcalloc(1, sizeof *m);
    m->db = db;
    out->ops = &mem_ops;
    out->self = m;
}

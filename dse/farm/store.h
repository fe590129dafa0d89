/*
 * store.h — the key-value store behind the Redis farm: a table of
 * operations (dse_store_ops) in front of hiredis, so that the farm's code
 * names what it needs (a stream read with a consumer group, a claim of
 * stale entries, a blocking list move) and tests can put an in-memory
 * store (tests/support/store_mem.c, not in the shipped binary) in Redis's
 * place, with failures injected at will.
 *
 * Backends:
 *   store_redis.c  a real Redis server (7.x) through hiredis; the URL
 *                  redis://[user:password@]host[:port][/db] carries the
 *                  ACL user or password and the database number;
 *   any other      given by dse_store_spec.open (tests: the in-memory
 *                  store of tests/support/store_mem.h).
 *
 * Error codes, the same for every backend:
 *   ERR_REDIS    the store cannot be reached (refused, lost, timed out,
 *                still loading its data): transient; the caller retries
 *                with backoff and decides when to give up.  The next
 *                operation reconnects by itself.
 *   ERR_INVALID  the store answered with an error (wrong type, bad
 *                argument, authentication refused): retrying will not help.
 *   ERR_CONFIG   a malformed URL (dse_store_url_parse only).
 *
 * A handle is used by one thread at a time.  Strings passed in are
 * borrowed; strings and arrays returned are owned by the caller (free()
 * them, or dse_store_entries_free for stream entries).  No operation scans
 * the keyspace.
 */
#ifndef DSE_STORE_H
#define DSE_STORE_H

#include <stddef.h>

#include "net/err.h"

#define DSE_STORE_ID_MAX 48   /* a stream entry id "1700000000000-12" */

/* Bounds on what a read may bring in: anyone who can write to the server
 * can plant a value of hundreds of megabytes, and reading it whole would
 * make every reader allocate that much.  A string longer than
 * DSE_STORE_VALUE_MAX reads as absent (results, locks and flags are a few
 * KiB at most; a planted result is then run again and overwritten); a
 * hash whose fields and values add up to more than DSE_STORE_HASH_MAX, or
 * with more than DSE_STORE_HASH_FIELDS fields, is refused (ERR_INVALID)
 * before anything is read (a study's record holds its YAML, at most 1 MiB;
 * a report's, at most 32 MiB of files).  Both are checked by the server
 * (STRLEN, HSTRLEN) in the same atomic step as the read. */
#define DSE_STORE_VALUE_MAX (4L * 1024 * 1024)
#define DSE_STORE_HASH_MAX (33L * 1024 * 1024)
#define DSE_STORE_HASH_FIELDS 4096

/* One stream entry. */
typedef struct dse_store_entry {
    char id[DSE_STORE_ID_MAX];
    size_t nfields;
    char **fields, **values;  /* owned */
    long deliveries;          /* xautoclaim: times delivered including this
                                 one; 1 for a first delivery; 0 when not
                                 known (xread, xrange) */
} dse_store_entry;

/* The value of field `name` of e, or NULL. */
const char *dse_store_entry_get(const dse_store_entry *e, const char *name);
void dse_store_entries_free(dse_store_entry *entries, size_t n);

/* One command of a batch, as Redis argv (binary-safe strings). */
typedef struct dse_store_cmd {
    int argc;
    const char *argv[24];
} dse_store_cmd;

/* A condition on a write: key must hold token (a lock's value). */
typedef struct dse_store_fence {
    const char *key;
    const char *token;
    int held;                 /* out: 1 the writes ran, 0 they did not */
} dse_store_fence;

typedef struct dse_store_ops {
    const char *name;                          /* "redis", "memory" */
    void (*destroy)(void *self);
    int (*ping)(void *self, err *e);
    /* Server time in milliseconds (all machines share the store's clock). */
    int (*time_ms)(void *self, long long *ms, err *e);

    /* ---- strings ---- */
    /* values[i] = the value of keys[i], or NULL when absent, not a string
     * or longer than DSE_STORE_VALUE_MAX. */
    int (*get_many)(void *self, const char *const *keys, size_t n,
                    char **values, err *e);
    /* SET; ttl_ms > 0 sets an expiry; only_if_absent: NX, and *was_set (may
     * be NULL) says whether it was set. */
    int (*set)(void *self, const char *key, const char *value, long ttl_ms,
               int only_if_absent, int *was_set, err *e);
    int (*del)(void *self, const char *key, err *e);
    int (*incr)(void *self, const char *key, long long *out, err *e);
    int (*expire)(void *self, const char *key, long ttl_ms, err *e);

    /* ---- hashes ---- */
    int (*hset)(void *self, const char *key, size_t n,
                const char *const *fields, const char *const *values, err *e);
    /* *n pairs in *fields / *values (both NULL when the hash is absent);
     * ERR_INVALID when over DSE_STORE_HASH_MAX or DSE_STORE_HASH_FIELDS. */
    int (*hgetall)(void *self, const char *key, size_t *n, char ***fields,
                   char ***values, err *e);
    int (*hincrby)(void *self, const char *key, const char *field,
                   long long by, err *e);

    /* ---- lists ---- */
    int (*push)(void *self, const char *key, const char *value, int left,
                err *e);
    /* BLMOVE src dst LEFT RIGHT: *value NULL when nothing came within
     * block_ms (0: do not block). */
    int (*lmove)(void *self, const char *src, const char *dst, long block_ms,
                 char **value, err *e);
    int (*lrem)(void *self, const char *key, const char *value, err *e);
    int (*lrange)(void *self, const char *key, long start, long stop,
                  char ***values, size_t *n, err *e);

    /* ---- streams ---- */
    /* XADD stream [MAXLEN ~ maxlen] * fields...; id_out (may be NULL)
     * receives the new id. */
    int (*xadd)(void *self, const char *stream, size_t n,
                const char *const *fields, const char *const *values,
                long maxlen, char *id_out, err *e);
    /* XGROUP CREATE stream group 0 MKSTREAM; *created 0 if it existed. */
    int (*xgroup_create)(void *self, const char *stream, const char *group,
                         int *created, err *e);
    /* XREADGROUP ... STREAMS stream > (new entries for this consumer). */
    int (*xreadgroup)(void *self, const char *stream, const char *group,
                      const char *consumer, size_t count, long block_ms,
                      dse_store_entry **out, size_t *n, err *e);
    /* XAUTOCLAIM stream group consumer min_idle_ms 0-0 COUNT count, with
     * each entry's delivery count (this delivery included).  Entries
     * deleted from the stream while pending are acknowledged and skipped. */
    int (*xautoclaim)(void *self, const char *stream, const char *group,
                      const char *consumer, long min_idle_ms, size_t count,
                      dse_store_entry **out, size_t *n, err *e);
    /* XCLAIM ... 0 ids JUSTID: reset the idle time of entries this consumer
     * holds (a long job is not reclaimed while its worker lives). */
    int (*xtouch)(void *self, const char *stream, const char *group,
                  const char *consumer, const char *const *ids, size_t n,
                  err *e);
    /* XACK then XDEL of one entry. */
    int (*xack_del)(void *self, const char *stream, const char *group,
                    const char *id, err *e);
    /* XREAD [BLOCK block_ms] COUNT count STREAMS stream after_id. */
    int (*xread)(void *self, const char *stream, const char *after_id,
                 size_t count, long block_ms, dse_store_entry **out,
                 size_t *n, err *e);
    /* XRANGE stream start + COUNT count. */
    int (*xrange)(void *self, const char *stream, const char *start,
                  size_t count, dse_store_entry **out, size_t *n, err *e);
    int (*xlen)(void *self, const char *stream, long long *n, err *e);
    /* Entries delivered and not acknowledged (XPENDING summary); 0 when
     * the group does not exist. */
    int (*xpending_count)(void *self, const char *stream, const char *group,
                          long long *n, err *e);

    /* ---- pipelining ---- */
    /* Send n commands in one round trip; they run in order; replies are
     * discarded.  Returns the first failure (the commands before it ran;
     * the ones after it may have).  Only these commands are allowed, so
     * every backend can run them: SET key value [PX ms], XADD stream [MAXLEN
     * ~ n] * field value..., PEXPIRE key ms, HINCRBY key field n, XACK
     * stream group id, XDEL stream id. */
    int (*batch)(void *self, const dse_store_cmd *cmds, size_t n, err *e);

    /* ---- fenced writes (the daemon's lock, farm_serve.c) ---- */
    /* One atomic step: if the string at f->key equals f->token, run the n
     * commands in order with nothing else in between and set f->held = 1;
     * otherwise (absent, expired, another value) run none and set
     * f->held = 0.  Allowed commands: batch()'s, and HSET key field value
     * ..., DEL key, LREM key 0 value, LPUSH key value, RPUSH key value.  A
     * command failing (wrong type) stops the rest; the ones before it ran.
     * On ERR_REDIS the step may or may not have run (f->held is 0). */
    int (*fenced)(void *self, dse_store_fence *f, const dse_store_cmd *cmds,
                  size_t n, err *e);

    /* ---- sorted sets (worker heartbeats) ---- */
    int (*zadd)(void *self, const char *key, double score, const char *member,
                err *e);
    int (*zrem)(void *self, const char *key, const char *member, err *e);
    /* Members with score >= min, in score order. */
    int (*zrange_from)(void *self, const char *key, double min,
                       char ***members, size_t *n, err *e);
    /* ZREMRANGEBYSCORE key -inf (max */
    int (*zrem_below)(void *self, const char *key, double max, err *e);
} dse_store_ops;

typedef struct dse_store {
    const dse_store_ops *ops;
    void *self;
} dse_store;

/* Where a Redis store lives (parsed from a URL). */
typedef struct dse_redis_url {
    char host[256];
    int port;                 /* 6379 */
    int db;                   /* 0 */
    char user[128];           /* "" = default user */
    char password[256];       /* "" = no AUTH */
} dse_redis_url;

/* Parse redis://[[user]:password@]host[:port][/db] (user and password may
 * be %-encoded).  0 or ERR_CONFIG with the reason. */
int dse_store_url_parse(const char *url, dse_redis_url *out, err *e);
/* "redis://host:port/db" without the credentials, for messages. */
void dse_store_url_print(const dse_redis_url *u, char *buf, size_t size);

/* What to open: a Redis URL, or (when open is non-NULL) another backend. */
typedef struct dse_store_spec {
    dse_redis_url redis;
    /* Another backend in Redis's place (tests/support/store_mem.h): when
     * set, dse_store_open calls open(open_ctx, out) and redis is unused. */
    void (*open)(void *open_ctx, struct dse_store *out);
    void *open_ctx;
    double timeout_s;         /* connect and command timeout, beyond any
                                 blocking time (5) */
} dse_store_spec;

/* A handle on the store; *out owned by the caller (dse_store_close).  Does
 * not connect yet: the first operation does (ping to check at once). */
void dse_store_open(const dse_store_spec *spec, dse_store *out);
void dse_store_close(dse_store *st);   /* accepts a closed handle */

/* The Redis backend (store_redis.c). */
void dse__store_redis_open(const dse_store_spec *spec, dse_store *out);

#endif

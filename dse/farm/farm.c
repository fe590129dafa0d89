/*
 * farm.c — what the farm's coordinator and workers share: options, key
 * names, an interruptible sleep.  See farm.h for the key layout.
 */
#include "dse/farm/farm.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dse_farm_opts_init(dse_farm_opts *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->prefix, sizeof o->prefix, "dse:");
    o->visibility_s = 30;
    o->max_deliveries = 3;
    o->heartbeat_s = 1;
    o->worker_timeout_s = 10;
    o->no_worker_timeout_s = 60;
    o->redis_timeout_s = 30;
    o->result_ttl_s = 0;
}

int dse_farm_opts_check(const dse_farm_opts *o, err *e)
{
    size_t len = strlen(o->prefix);
    if (len == 0 || len >= DSE_FARM_PREFIX_MAX - 1)
        return err_set(e, ERR_CONFIG, "--prefix: 1 to %d characters",
                       DSE_FARM_PREFIX_MAX - 2);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)o->prefix[i];
        if (c <= ' ' || c >= 127)
            return err_set(e, ERR_CONFIG,
                           "--prefix: printable characters without spaces");
    }
    if (!(o->heartbeat_s > 0) || !(o->visibility_s >= 2 * o->heartbeat_s))
        return err_set(e, ERR_CONFIG,
                       "visibility timeout (%g s) must be at least twice the "
                       "heartbeat (%g s)",
                       o->visibility_s, o->heartbeat_s);
    if (!(o->worker_timeout_s > o->heartbeat_s))
        return err_set(e, ERR_CONFIG,
                       "worker timeout (%g s) must exceed the heartbeat (%g s)",
                       o->worker_timeout_s, o->heartbeat_s);
    if (!(o->no_worker_timeout_s > 0) || !(o->redis_timeout_s > 0))
        return err_set(e, ERR_CONFIG, "timeouts must be > 0");
    if (o->max_deliveries < 1 || o->max_deliveries > 1000)
        return err_set(e, ERR_CONFIG, "max deliveries: 1 to 1000");
    if (o->result_ttl_s < 0)
        return err_set(e, ERR_CONFIG, "result TTL must be >= 0");
    return 0;
}

int dse__farm_read_secret(const char *path, char *buf, size_t size,
                          size_t *len, err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, ERR_CONFIG, "cannot read the secret file %s: %s",
                       path, strerror(errno));
    size_t n = fread(buf, 1, size, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    if (more || n == size)
        return err_set(e, ERR_CONFIG, "secret file %s: over %zu bytes", path,
                       size - 1);
    if (n && buf[n - 1] == '\n')
        n--;
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    *len = n;
    return 0;
}

int dse_farm_secret_from_env(dse_secret *out, err *e)
{
    memset(out, 0, sizeof *out);
    const char *text = getenv("DSE_FARM_SECRET");
    const char *file = getenv("DSE_FARM_SECRET_FILE");
    char buf[DSE_SECRET_MAX + 2];
    size_t n = 0;
    if (text && text[0]) {
        n = strlen(text);
        if (n > DSE_SECRET_MAX)
            return err_set(e, ERR_CONFIG, "DSE_FARM_SECRET: over %d bytes",
                           DSE_SECRET_MAX);
        memcpy(buf, text, n);
    } else if (file && file[0]) {
        int rc = dse__farm_read_secret(file, buf, sizeof buf, &n, e);
        if (rc)
            return rc;
        if (n > DSE_SECRET_MAX)
            return err_set(e, ERR_CONFIG, "%s: over %d bytes", file,
                           DSE_SECRET_MAX);
    } else {
        return 0;
    }
    if (n < 16)
        return err_set(e, ERR_CONFIG,
                       "the farm secret has %zu bytes: give at least 16 "
                       "(e.g. head -c 32 /dev/urandom | base64)",
                       n);
    memcpy(out->bytes, buf, n);
    out->len = n;
    return 0;
}

void dse_farm_secret_tag(const dse_secret *sec, char out[DSE_FARM_TAG_HEX + 1])
{
    static const char text[] = "dse farm secret check v1";
    unsigned char md[32];
    unsigned int len = 0;
    HMAC(EVP_sha256(), sec->bytes, (int)sec->len,
         (const unsigned char *)text, sizeof text - 1, md, &len);
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    out[DSE_FARM_TAG_HEX] = '\0';
}

int dse_farm_secret_matches(const dse_farm_opts *o, const char *tag,
                            const char *who, err *e)
{
    if (!tag)
        return 0;
    if (!o->secret.len)
        return err_set(e, ERR_CONFIG,
                       "this farm seals its results (%ssecret is set) and "
                       "this %s has no farm secret: set DSE_FARM_SECRET or "
                       "DSE_FARM_SECRET_FILE as on the farm's other machines",
                       o->prefix, who);
    char want[DSE_FARM_TAG_HEX + 1];
    dse_farm_secret_tag(&o->secret, want);
    if (strlen(tag) != DSE_FARM_TAG_HEX ||
        CRYPTO_memcmp(want, tag, DSE_FARM_TAG_HEX) != 0)
        return err_set(e, ERR_CONFIG,
                       "this %s's farm secret is not the farm's (%ssecret "
                       "holds another secret's check value): give every "
                       "machine the same DSE_FARM_SECRET",
                       who, o->prefix);
    return 0;
}

void dse_farm_key(const dse_farm_opts *o, const char *name, char *buf,
                  size_t size)
{
    snprintf(buf, size, "%s%s", o->prefix, name);
}

void dse__farm_sleep(double s, volatile sig_atomic_t *stop)
{
    while (s > 0 && !(stop && *stop)) {
        double step = s < 0.05 ? s : 0.05;
        struct timespec ts = {(time_t)step,
                              (long)((step - (double)(time_t)step) * 1e9)};
        nanosleep(&ts, NULL);
        s -= step;
    }
}

/*
 * farm.c — what the farm's coordinator and workers share: options, key
 * names, an interruptible sleep.  See farm.h for the key layout.
 */
#include "dse/farm/farm.h"

#include <stdio.h>
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

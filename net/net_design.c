/*
 * net_design.c — defaults, canonical text form and parsing of net_design
 * and net_workload.
 *
 * The canonical text is the one serialisation that job hashing, reports and
 * the CLI's --design option share, so its rules are strict: keys in a fixed
 * order, integers printed as integers, doubles with %.15g (enough digits to
 * round-trip any decimal a user typed, few enough to hide binary noise such
 * as 0.1 -> 0.1000000000000000055), and fields that do not apply to the
 * topology or traffic omitted so two equal designs always print the same.
 */
#include "net.h"
#include "topology.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void net_design_init(net_design *d)
{
    memset(d, 0, sizeof *d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 2, 8);
    d->vcs = 2;
    d->buffer_flits = 1;
    d->width = 1;
    d->express_m = 1;
    d->express_kn = 4;
    d->routing = NET_ROUTE_DETERMINISTIC;
    d->switching = NET_SWITCH_WORMHOLE;
    d->router_delay = 1;
    d->ejection_channels = 1;
    d->router = NET_ROUTER_UNIT;
    d->routing_delay = 1;
    d->vc_alloc_delay = 1;
    d->sw_alloc_delay = 1;
    d->st_final_delay = 1;
    d->credit_delay = 0;
    d->link_delay = 1;
    d->express_link_delay = 1;
    d->bus_link_delay = 1;
    d->offchip_dims = 0;
    d->offchip_link_delay = 1;
    d->speculative = 0;
}

void net_workload_init(net_workload *w)
{
    memset(w, 0, sizeof *w);
    w->message_bits = 128;
    w->length = NET_LENGTH_FIXED;
    w->traffic = NET_TRAFFIC_UNIFORM;
    w->hotspot_fraction = 0.0;
    w->hotspot_node = -1;
    w->broadcast_fraction = 0.0;
}

void net_design_set_radix(net_design *d, int n, int k)
{
    if (n > NET_MAX_DIMS)
        n = NET_MAX_DIMS;
    d->n = n;
    for (int i = 0; i < NET_MAX_DIMS; i++)
        d->k[i] = i < n ? k : 0;
}

/* snprintf that keeps appending after a truncation, returning the total
 * length needed, like snprintf itself. */
typedef struct text_buf {
    char *buf;
    size_t size, used;
} text_buf;

__attribute__((format(printf, 2, 3))) static void tb_add(text_buf *tb,
                                                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = tb->used < tb->size ? tb->size - tb->used : 0;
    int w = vsnprintf(room ? tb->buf + tb->used : NULL, room, fmt, ap);
    va_end(ap);
    if (w > 0)
        tb->used += (size_t)w;
}

/* The escape keys, printed only when set (designs without them print and
 * hash as before). */
static void format_escape(text_buf *tb, const net_design *d)
{
    if (d->escape_sticky)
        tb_add(tb, " escape=sticky");
    if (d->adaptive_vcs)
        tb_add(tb, " adaptive_vcs=%d", d->adaptive_vcs);
    if (d->adaptive_dims)
        tb_add(tb, " adaptive_dims=%d", d->adaptive_dims);
}

int net_design_format(const net_design *d, char *buf, size_t size)
{
    text_buf tb = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    tb_add(&tb, "topology=%s n=%d k=", net_topology_name(d->topology), d->n);
    int k = net_uniform_radix(d);
    if (k)
        tb_add(&tb, "%d", k);
    else
        for (int i = 0; i < d->n; i++)
            tb_add(&tb, i ? "x%d" : "%d", d->k[i]);
    tb_add(&tb, " vcs=%d buffer=%d width=%d", d->vcs, d->buffer_flits,
           d->width);
    char params[128];
    net_design_params_format(d, " ", params, sizeof params);
    tb_add(&tb, "%s", params);
    if (d->router == NET_ROUTER_UNIT) {
        tb_add(&tb, " routing=%s switching=%s router_delay=%d ejection=%d",
               net_routing_name(d->routing), net_switching_name(d->switching),
               d->router_delay, d->ejection_channels);
        if (d->dateline_wrap && d->topology == NET_TORUS)
            tb_add(&tb, " dateline=wrap");
        format_escape(&tb, d);
        return (int)tb.used;
    }
    /* the pipelined router has no router_delay (its stages replace it) */
    tb_add(&tb, " routing=%s switching=%s ejection=%d router=%s",
           net_routing_name(d->routing), net_switching_name(d->switching),
           d->ejection_channels, net_router_name(d->router));
    tb_add(&tb, " routing_delay=%d vc_alloc_delay=%d sw_alloc_delay=%d"
                " st_final_delay=%d credit_delay=%d link_delay=%d",
           d->routing_delay, d->vc_alloc_delay, d->sw_alloc_delay,
           d->st_final_delay, d->credit_delay, d->link_delay);
    if (d->topology == NET_EXPRESS)
        tb_add(&tb, " express_link_delay=%d", d->express_link_delay);
    if (d->topology == NET_DCSH)
        tb_add(&tb, " bus_link_delay=%d", d->bus_link_delay);
    if (d->offchip_dims)
        tb_add(&tb, " offchip_dims=%d offchip_link_delay=%d",
               d->offchip_dims, d->offchip_link_delay);
    tb_add(&tb, " speculative=%d", d->speculative);
    if (d->dateline_wrap && d->topology == NET_TORUS)
        tb_add(&tb, " dateline=wrap");
    format_escape(&tb, d);
    return (int)tb.used;
}

int net_workload_format(const net_workload *w, char *buf, size_t size)
{
    text_buf tb = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    tb_add(&tb, "message_bits=%d length=%s traffic=%s", w->message_bits,
           net_length_name(w->length), net_traffic_name(w->traffic));
    if (w->traffic == NET_TRAFFIC_HOTSPOT)
        tb_add(&tb, " theta=%.15g hotspot_node=%ld", w->hotspot_fraction,
               w->hotspot_node);
    if (w->traffic == NET_TRAFFIC_BROADCAST)
        tb_add(&tb, " beta=%.15g", w->broadcast_fraction);
    return (int)tb.used;
}

/* ", torus, mesh, ...": every name of a list, for the messages that
 * refuse an unknown one (skip the first two characters). */
#define NAME_LIST_(e, name, desc) ", " name
static const char topology_names[] = NET_TOPOLOGY_LIST(NAME_LIST_);
static const char routing_names[] = NET_ROUTING_LIST(NAME_LIST_);
static const char switching_names[] = NET_SWITCHING_LIST(NAME_LIST_);
static const char traffic_names[] = NET_TRAFFIC_LIST(NAME_LIST_);
static const char length_names[] = NET_LENGTH_LIST(NAME_LIST_);
#undef NAME_LIST_

static int parse_int(const char *key, const char *value, long lo, long hi,
                     long *out, err *e)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        return err_set(e, ERR_INVALID,
                       "%s: expected an integer in [%ld, %ld], got \"%s\"", key,
                       lo, hi, value);
    *out = v;
    return 0;
}

static int parse_real(const char *key, const char *value, double lo,
                      double hi, double *out, err *e)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !(v >= lo && v <= hi))
        return err_set(e, ERR_INVALID,
                       "%s: expected a number in [%g, %g], got \"%s\"", key,
                       lo, hi, value);
    *out = v;
    return 0;
}

/* "16" (all dimensions) or "16x8x4" (one radix per dimension). */
static int parse_radix(net_design *d, const char *value, err *e)
{
    int radices[NET_MAX_DIMS], count = 0;
    const char *p = value;
    for (;;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 1 || v > INT_MAX)
            return err_set(e, ERR_INVALID,
                           "k: expected a radix like 16 or 16x8, got \"%s\"",
                           value);
        if (count == NET_MAX_DIMS)
            return err_set(e, ERR_INVALID, "k: more than %d dimensions",
                           NET_MAX_DIMS);
        radices[count++] = (int)v;
        if (*end == '\0')
            break;
        if (*end != 'x')
            return err_set(e, ERR_INVALID,
                           "k: expected a radix like 16 or 16x8, got \"%s\"",
                           value);
        p = end + 1;
    }
    if (count == 1) {
        if (d->n < 1)
            d->n = 1;
        for (int i = 0; i < NET_MAX_DIMS; i++)
            d->k[i] = i < d->n ? radices[0] : 0;
        return 0;
    }
    d->n = count;
    for (int i = 0; i < NET_MAX_DIMS; i++)
        d->k[i] = i < count ? radices[i] : 0;
    return 0;
}

int net_design_set(net_design *d, const char *key, const char *value, err *e)
{
    long v;
    int rc;
    if (strcmp(key, "topology") == 0) {
        if (net_topology_parse(value, &d->topology))
            return err_set(e, ERR_INVALID,
                           "topology: unknown topology \"%s\" (%s)", value,
                           topology_names + 2);
        int fixed = net_topology_get(d->topology)->fixed_radix;
        if (fixed)
            net_design_set_radix(d, d->n, fixed);
        return 0;
    }
    if (strcmp(key, "routing") == 0) {
        if (net_routing_parse(value, &d->routing))
            return err_set(e, ERR_INVALID,
                           "routing: unknown routing \"%s\" (%s)", value,
                           routing_names + 2);
        return 0;
    }
    if (strcmp(key, "switching") == 0) {
        if (net_switching_parse(value, &d->switching))
            return err_set(e, ERR_INVALID,
                           "switching: unknown switching \"%s\" (%s)", value,
                           switching_names + 2);
        return 0;
    }
    if (strcmp(key, "router") == 0) {
        if (net_router_parse(value, &d->router))
            return err_set(e, ERR_INVALID,
                           "router: unknown router \"%s\" (unit, pipelined)",
                           value);
        return 0;
    }
    if (strcmp(key, "dateline") == 0) {
        if (strcmp(value, "high_low") && strcmp(value, "wrap"))
            return err_set(e, ERR_INVALID,
                           "dateline: unknown rule \"%s\" (high_low, wrap)",
                           value);
        d->dateline_wrap = strcmp(value, "wrap") == 0;
        return 0;
    }
    if (strcmp(key, "escape") == 0) {
        if (strcmp(value, "return") && strcmp(value, "sticky"))
            return err_set(e, ERR_INVALID,
                           "escape: unknown rule \"%s\" (return, sticky)",
                           value);
        d->escape_sticky = strcmp(value, "sticky") == 0;
        return 0;
    }
    if (strcmp(key, "k") == 0)
        return parse_radix(d, value, e);
    if (strcmp(key, "n") == 0) {
        if ((rc = parse_int(key, value, 1, NET_MAX_DIMS, &v, e)))
            return rc;
        const net_topology_info *info = net_topology_get(d->topology);
        int k0 = info && info->fixed_radix ? info->fixed_radix
                                           : (d->k[0] ? d->k[0] : 2);
        if (net_uniform_radix(d) || d->n != (int)v)
            net_design_set_radix(d, (int)v, k0);
        return 0;
    }
    struct {
        const char *name;
        int *field;
        long lo, hi;
    } const ints[] = {
        {"vcs", &d->vcs, 1, 1024},
        {"buffer", &d->buffer_flits, 1, 1 << 20},
        {"width", &d->width, 1, 1 << 24},
        {"router_delay", &d->router_delay, 0, 1 << 20},
        {"ejection", &d->ejection_channels, 0, 1024},
        /* router=pipelined (BookSim2's names); a VC or switch allocator
         * takes at least one cycle, as in BookSim2 */
        {"routing_delay", &d->routing_delay, 0, 1000},
        {"vc_alloc_delay", &d->vc_alloc_delay, 1, 1000},
        {"sw_alloc_delay", &d->sw_alloc_delay, 1, 1000},
        {"st_final_delay", &d->st_final_delay, 0, 1000},
        {"credit_delay", &d->credit_delay, 0, 1000},
        {"link_delay", &d->link_delay, 1, 1000},
        {"express_link_delay", &d->express_link_delay, 1, 1000},
        {"bus_link_delay", &d->bus_link_delay, 1, 1000},
        {"offchip_dims", &d->offchip_dims, 0, NET_MAX_DIMS},
        {"offchip_link_delay", &d->offchip_link_delay, 1, 1000},
        {"speculative", &d->speculative, 0, 1},
        {"adaptive_vcs", &d->adaptive_vcs, 0, 1024},
        {"adaptive_dims", &d->adaptive_dims, 0, NET_MAX_DIMS},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(key, ints[i].name) == 0) {
            if ((rc = parse_int(key, value, ints[i].lo, ints[i].hi, &v, e)))
                return rc;
            *ints[i].field = (int)v;
            return 0;
        }
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        const net_param_info *info = net_param_get((net_param)p);
        if (strcmp(key, info->key) == 0) {
            if ((rc = parse_int(key, value, info->text_lo, info->text_hi, &v,
                                e)))
                return rc;
            net_param_set_value(d, (net_param)p, (int)v);
            return 0;
        }
    }
    return err_set(e, ERR_UNSUPPORTED, "unknown design key \"%s\"", key);
}

int net_workload_set(net_workload *w, const char *key, const char *value,
                     err *e)
{
    long v;
    double x;
    int rc;
    if (strcmp(key, "message_bits") == 0) {
        if ((rc = parse_int(key, value, 1, 1L << 30, &v, e)))
            return rc;
        w->message_bits = (int)v;
        return 0;
    }
    if (strcmp(key, "length") == 0) {
        if (net_length_parse(value, &w->length))
            return err_set(e, ERR_INVALID,
                           "length: unknown distribution \"%s\" (%s)",
                           value, length_names + 2);
        return 0;
    }
    if (strcmp(key, "traffic") == 0) {
        if (net_traffic_parse(value, &w->traffic))
            return err_set(e, ERR_INVALID,
                           "traffic: unknown pattern \"%s\" (%s)", value,
                           traffic_names + 2);
        return 0;
    }
    if (strcmp(key, "theta") == 0) {
        if ((rc = parse_real(key, value, 0, 1, &x, e)))
            return rc;
        w->hotspot_fraction = x;
        return 0;
    }
    if (strcmp(key, "beta") == 0) {
        if ((rc = parse_real(key, value, 0, 1, &x, e)))
            return rc;
        w->broadcast_fraction = x;
        return 0;
    }
    if (strcmp(key, "hotspot_node") == 0) {
        if ((rc = parse_int(key, value, -1, NET_MAX_NODES, &v, e)))
            return rc;
        w->hotspot_node = v;
        return 0;
    }
    return err_set(e, ERR_UNSUPPORTED, "unknown workload key \"%s\"", key);
}

/* Split text on whitespace into key=value tokens and hand each to set().
 * A key given twice is refused (it used to take the last value silently);
 * *ntokens receives the number of pairs. */
static int parse_pairs(void *obj, const char *text,
                       int (*set)(void *, const char *, const char *, err *),
                       size_t *ntokens, err *e)
{
    char token[256];
    char seen[32][32]; /* keys applied so far: set() knows fewer than 32 */
    size_t nseen = 0;
    const char *p = text;
    *ntokens = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " \t\n,");
        if (len >= sizeof token)
            return err_set(e, ERR_INVALID, "token too long: \"%.40s...\"", p);
        memcpy(token, p, len);
        token[len] = '\0';
        p += len;
        char *eq = strchr(token, '=');
        if (!eq || eq == token || !eq[1])
            return err_set(e, ERR_INVALID, "expected key=value, got \"%s\"",
                           token);
        *eq = '\0';
        for (size_t i = 0; i < nseen; i++)
            if (strcmp(seen[i], token) == 0)
                return err_set(e, ERR_INVALID,
                               "key \"%s\" given twice: give each key once",
                               token);
        int rc = set(obj, token, eq + 1, e);
        if (rc)
            return rc;
        if (nseen < sizeof seen / sizeof seen[0] && strlen(token) < sizeof seen[0])
            strcpy(seen[nseen++], token);
        (*ntokens)++;
    }
    return 0;
}

static int design_set_(void *obj, const char *k, const char *v, err *e)
{
    return net_design_set(obj, k, v, e);
}

static int workload_set_(void *obj, const char *k, const char *v, err *e)
{
    return net_workload_set(obj, k, v, e);
}

int net_design_parse(net_design *d, const char *text, err *e)
{
    size_t n;
    int rc = parse_pairs(d, text, design_set_, &n, e);
    if (!rc && n == 0)
        return err_set(e, ERR_INVALID,
                       "empty design: give key=value pairs, e.g. "
                       "\"topology=torus n=2 k=8\"");
    return rc;
}

int net_workload_parse(net_workload *w, const char *text, err *e)
{
    size_t n;
    return parse_pairs(w, text, workload_set_, &n, e);
}

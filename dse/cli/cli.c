/*
 * cli.c — see cli.h.
 */
#include "dse/cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/xalloc.h"

#define RATES_MAX 1000000

/* Print line `line` of file and a caret under character `column`
 * (1-based; tabs kept so the caret lines up). */
static void show_source(const char *file, int line, int column)
{
    if (line < 1)
        return;
    FILE *f = fopen(file, "rb");
    if (!f)
        return;
    char buf[4096];
    int at = 1;
    int found = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        int complete = len > 0 && buf[len - 1] == '\n';
        if (at == line) {
            found = 1;
            break;
        }
        if (complete)
            at++;
    }
    fclose(f);
    if (!found)
        return;
    buf[strcspn(buf, "\r\n")] = '\0';
    fprintf(stderr, "    %s\n    ", buf);
    /* column counts characters: skip UTF-8 continuation bytes */
    int chars = 0;
    for (const unsigned char *p = (const unsigned char *)buf;
         *p && chars < column - 1; p++) {
        if ((*p & 0xC0) == 0x80)
            continue;
        fputc(*p == '\t' ? '\t' : ' ', stderr);
        chars++;
    }
    fprintf(stderr, "^\n");
}

void dse_cli_print_error(const err *e)
{
    char buf[ERR_MSG_MAX + ERR_FILE_MAX + ERR_PATH_MAX + 64];
    fprintf(stderr, "%s\n", err_format(e, buf, sizeof buf));
    if (e->file[0] && e->line > 0)
        show_source(e->file, e->line, e->column);
}

/* The keys every design and workload has; the topologies' own parameters
 * follow them (dse_cli_key_at). */
static const dse_cli_key fixed_keys[] = {
    {"topology", "topology", 1},
    {"n", "n", 1},
    {"k", "k", 1},
    {"vcs", "vcs", 1},
    {"buffer", "buffer", 1},
    {"width", "width", 1},
    {"routing", "routing", 1},
    {"switching", "switching", 1},
    {"router-delay", "router_delay", 1},
    {"ejection", "ejection", 1},
    {"message-bits", "message_bits", 0},
    {"length", "length", 0},
    {"traffic", "traffic", 0},
    {"theta", "theta", 0},
    {"hotspot-node", "hotspot_node", 0},
    {"beta", "beta", 0},
};
#define NFIXED_KEYS (sizeof fixed_keys / sizeof fixed_keys[0])
_Static_assert(NFIXED_KEYS + NET_PARAM_COUNT == DSE_CLI_NKEYS,
               "DSE_CLI_NKEYS must count the fixed keys and the parameters");

dse_cli_key dse_cli_key_at(size_t i)
{
    if (i < NFIXED_KEYS)
        return fixed_keys[i];
    const net_param_info *p = net_param_get((net_param)(i - NFIXED_KEYS));
    return (dse_cli_key){p->option, p->key, 1};
}

void dse_cli_longopts_with_keys(const struct option *fixed, size_t nfixed,
                                int first_key, struct option *out)
{
    memcpy(out, fixed, nfixed * sizeof *fixed);
    for (size_t i = 0; i < DSE_CLI_NKEYS; i++)
        out[nfixed + i] = (struct option){dse_cli_key_at(i).name,
                                          required_argument, NULL,
                                          first_key + (int)i};
    memset(&out[nfixed + DSE_CLI_NKEYS], 0, sizeof *out);
}

void dse_cli_catch_stop_signals(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int dse_cli_apply_key(const dse_cli_key *k, const char *value, net_design *d,
                      net_workload *w, err *e)
{
    return k->design ? net_design_set(d, k->key, value, e)
                     : net_workload_set(w, k->key, value, e);
}

/* A finite rate in (0, hi] from text (hi: 1 for a rate, messages per
 * node per cycle, as studies and jobs require; INFINITY for a step). */
static int parse_rate(const char *what, const char *text, double hi,
                      double *out, err *e)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return err_set(e, ERR_INVALID,
                       "--rates: %s: expected a number, got \"%s\"", what,
                       text);
    if (!(v > 0))
        return err_set(e, ERR_INVALID, "--rates: %s: rates must be > 0, got %g",
                       what, v);
    if (v > hi)
        return err_set(e, ERR_INVALID,
                       "--rates: %s: %g is over 1 message per node per cycle "
                       "(rates are in (0, 1])",
                       what, v);
    *out = v;
    return 0;
}

int dse_cli_parse_rates(const char *spec, double **rates, size_t *count,
                        err *e)
{
    *rates = NULL;
    *count = 0;
    if (strchr(spec, ':')) {
        char buf[256];
        if (strlen(spec) >= sizeof buf)
            return err_set(e, ERR_INVALID, "--rates: too long");
        strcpy(buf, spec);
        char *end_s = strchr(buf, ':');
        *end_s++ = '\0';
        char *step_s = strchr(end_s, ':');
        if (!step_s || strchr(step_s + 1, ':'))
            return err_set(e, ERR_INVALID,
                           "--rates: expected A:B:STEP, got \"%s\"", spec);
        *step_s++ = '\0';
        double a, b, step;
        int rc = parse_rate("start", buf, 1, &a, e);
        if (!rc)
            rc = parse_rate("end", end_s, 1, &b, e);
        if (!rc)
            rc = parse_rate("step", step_s, INFINITY, &step, e);
        if (rc)
            return rc;
        if (b < a)
            return err_set(e, ERR_INVALID, "--rates: end %g is below start %g",
                           b, a);
        double n = floor((b - a) / step + 1e-9) + 1;
        if (n > RATES_MAX)
            return err_set(e, ERR_INVALID, "--rates: more than %d rates",
                           RATES_MAX);
        *count = (size_t)n;
        *rates = xmalloc(*count * sizeof **rates);
        for (size_t i = 0; i < *count; i++)
            (*rates)[i] = a + (double)i * step;
        return 0;
    }
    size_t cap = 1;
    for (const char *p = spec; *p; p++)
        cap += *p == ',';
    if (cap > RATES_MAX)
        return err_set(e, ERR_INVALID, "--rates: more than %d rates", RATES_MAX);
    double *v = xmalloc(cap * sizeof *v);
    size_t n = 0;
    for (const char *p = spec;;) {
        size_t len = strcspn(p, ",");
        char tok[64];
        if (len == 0 || len >= sizeof tok) {
            free(v);
            return err_set(e, ERR_INVALID,
                           "--rates: expected A:B:STEP or a comma-separated "
                           "list of rates, got \"%s\"",
                           spec);
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (parse_rate("rate", tok, 1, &v[n], e)) {
            free(v);
            return ERR_INVALID;
        }
        n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    *rates = v;
    *count = n;
    return 0;
}

int dse_cli_bad(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

int dse_cli_real(const char *cmd, const char *opt, const char *text, double lo,
                 double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < lo || v > hi) {
        if (isinf(hi))
            fprintf(stderr, "%s: %s: expected a number >= %g, got \"%s\"\n",
                    cmd, opt, lo, text);
        else
            fprintf(stderr,
                    "%s: %s: expected a number in [%g, %g], got \"%s\"\n", cmd,
                    opt, lo, hi, text);
        return 2;
    }
    *out = v;
    return 0;
}

int dse_cli_long(const char *cmd, const char *opt, const char *text, long lo,
                 long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        fprintf(stderr,
                "%s: %s: expected an integer in [%ld, %ld], got \"%s\"\n", cmd,
                opt, lo, hi, text);
        return 2;
    }
    *out = v;
    return 0;
}

void dse_cli_log_line(void *ctx, const char *line)
{
    time_t t = time(NULL);
    struct tm tm;
    char when[32];
    localtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    fprintf(stderr, "%s %s: %s\n", when, (const char *)ctx, line);
}

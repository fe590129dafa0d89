/*
 * farm_http.c — see farm_http.h.
 *
 * Design: every answer is built from the same dse_study_info records as
 * `dse status` (dse/farm/studies.c), so the page, the JSON and the command
 * line cannot disagree.  The page is plain HTML with a meta refresh: no
 * scripts, nothing fetched, the same rule as the report's index.html.
 * Everything taken from a study (its name, its reason) is HTML-escaped:
 * a submitted study is untrusted input.
 *
 * Rejected alternative: serving the output root as a static tree.  A URL
 * would become a path, and the traversal checks would be the only defence;
 * here a URL only selects a study id (digits) and one of four file names,
 * and the directory comes from the daemon's own record.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "dse/farm/farm_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dse/farm/escape.h"
#include "dse/farm/http_guard.h"
#include "dse/farm/studies.h"
#include "net/xalloc.h"

#define RECENT 100
/* Nothing but the page's own inline style and data: images: no script,
 * no frame, no form, and no <base> to redirect relative links, whatever
 * slips into a page. */
#define CSP                                                                  \
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "         \
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
/* Availability against slow or greedy clients (http_guard.h): a request's
 * headers within HEADER_S of its connection, its response within
 * REQUEST_S; at most PER_CLIENT connections per client address, TOTAL in
 * all; an idle kept-alive connection closed after IDLE_S. */
#define HEADER_S 5.0
#define REQUEST_S 60.0
#define PER_CLIENT 8
#define TOTAL 256
#define IDLE_S 10

struct dse_http {
    struct MHD_Daemon *mhd;
    dse_store st;             /* used by the MHD thread only */
    dse_store_spec spec;
    dse_farm_opts fo;
    char root[PATH_MAX];
    int port;
    dse_http_guard *guard;
};

int dse_http_addr_parse(const char *text, char addr[64], int *port, err *e)
{
    const char *colon = strrchr(text, ':');
    const char *p = colon ? colon + 1 : text;
    size_t alen = colon ? (size_t)(colon - text) : 0;
    if (alen >= 64)
        return err_set(e, ERR_CONFIG, "--http %s: address too long", text);
    if (alen == 0)
        snprintf(addr, 64, "127.0.0.1");
    else
        snprintf(addr, 64, "%.*s", (int)alen, text);
    char *end;
    long v = strtol(p, &end, 10);
    if (!*p || *end || v < 0 || v > 65535)
        return err_set(e, ERR_CONFIG,
                       "--http %s: expected ADDR:PORT, :PORT or PORT (0-65535)",
                       text);
    struct in_addr a;
    if (inet_pton(AF_INET, addr, &a) != 1)
        return err_set(e, ERR_CONFIG,
                       "--http %s: '%s' is not an IPv4 address", text, addr);
    *port = (int)v;
    return 0;
}

/* ---- a growing text buffer ---------------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t len)
{
    if (b->n + len + 1 > b->cap) {
        b->cap = (b->n + len + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

static void put_s(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void putf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void putf(buf *b, const char *fmt, ...)
{
    char tmp[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_cb(void *ctx, const char *p, size_t n)
{
    put(ctx, p, n);
}

/* Text from Redis into HTML (element content and attribute values): every
 * field of a study, ours or not, goes through here. */
static void put_esc(buf *b, const char *s)
{
    dse_html_escape(s, put_cb, b);
}

static void duration(double s, char *out, size_t size)
{
    if (s < 0) {
        snprintf(out, size, "-");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, size, "%ld:%02ld", t / 60, t % 60);
}

static void when(long long t, char *out, size_t size)
{
    if (t <= 0) {
        snprintf(out, size, "-");
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, size, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* ---- responses ---------------------------------------------------------------- */

static enum MHD_Result respond(struct MHD_Connection *c, unsigned code,
                               const char *type, buf *body)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        body->n, body->p ? body->p : (void *)"", MHD_RESPMEM_MUST_COPY);
    free(body->p);
    body->p = NULL;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Content-Security-Policy", CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned code,
                            const char *msg)
{
    buf b = {0};
    putf(&b, "%s\n", msg);
    return respond(c, code, "text/plain; charset=utf-8", &b);
}

static enum MHD_Result json_answer(struct MHD_Connection *c, json_t *o)
{
    char *t = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    buf b = {0};
    if (t)
        put(&b, t, strlen(t));
    put(&b, "\n", 1);
    free(t);
    return respond(c, MHD_HTTP_OK, "application/json", &b);
}

static const char *status_color(const char *status)
{
    if (!strcmp(status, "done")) return "#1a7f37";
    if (!strcmp(status, "running")) return "#0969da";
    if (!strcmp(status, "queued")) return "#6e7781";
    return "#cf222e"; /* failed, refused, cancelled */
}

/* The report file `file` of a done study x, opened (without following a
 * symbolic link) when it is a regular file in the study's report
 * directory and that directory resolves inside the output root: the fd,
 * or -1 (*why says which check failed: 404 or 403). */
static int open_report_file(const dse_http *h, const dse_study_info *x,
                            const char *file, struct stat *sb, unsigned *why)
{
    *why = MHD_HTTP_NOT_FOUND;
    char rroot[PATH_MAX], rdir[PATH_MAX];
    if (!x->report[0] || !realpath(h->root, rroot) ||
        !realpath(x->report, rdir))
        return -1;
    size_t rl = strlen(rroot);
    if (strncmp(rdir, rroot, rl) != 0 || rdir[rl] != '/') {
        *why = MHD_HTTP_FORBIDDEN;
        return -1;
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", rdir, file);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 && (fstat(fd, sb) || !S_ISREG(sb->st_mode))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Links to the report files a done study has: only those that exist
 * (a study's formats may leave some out). */
static void report_links(const dse_http *h, buf *b, const dse_study_info *x)
{
    if (!dse_study_id_ok(x->id))
        return;
    int any = 0;
    for (size_t i = 0; dse_report_files[i]; i++) {
        struct stat sb;
        unsigned why;
        int fd = open_report_file(h, x, dse_report_files[i], &sb, &why);
        if (fd < 0)
            continue;
        close(fd);
        const char *f = dse_report_files[i];
        if (!strcmp(f, "index.html"))
            putf(b, "%s<a href=\"/studies/%s/report/\">report</a>",
                 any++ ? " &middot; " : "", x->id);
        else
            putf(b, "%s<a href=\"/studies/%s/report/%s\">%s</a>",
                 any++ ? " &middot; " : "", x->id, f, f);
    }
    if (any && x->reason[0])
        put_s(b, "<br>");
}

static void page(const dse_http *h, buf *b, const dse_study_info *xs, size_t n,
                 const char *err_msg)
{
    size_t count[4] = {0}; /* queued running done other */
    for (size_t i = 0; i < n; i++) {
        const char *s = xs[i].status;
        count[!strcmp(s, "queued") ? 0 : !strcmp(s, "running") ? 1
                                     : !strcmp(s, "done")      ? 2 : 3]++;
    }
    put_s(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<meta http-equiv=\"refresh\" content=\"5\">"
             "<title>dse farm: studies</title><style>"
             "body{font-family:sans-serif;margin:2em;color:#1f2328}"
             "table{border-collapse:collapse;width:100%}"
             "th,td{border-bottom:1px solid #d0d7de;padding:6px 10px;"
             "text-align:left;vertical-align:top}"
             "th{background:#f6f8fa}.bar{background:#eaeef2;width:160px;"
             "height:12px;border-radius:6px;overflow:hidden}"
             ".fill{background:#0969da;height:12px}"
             ".st{font-weight:bold}.muted{color:#6e7781}"
             "</style></head><body>\n");
    putf(b, "<h1>dse farm: studies</h1>\n<p id=\"summary\">%zu queued, %zu "
            "running, %zu done, %zu failed, refused or cancelled "
            "<span class=\"muted\">(the last %d; this page refreshes every "
            "5 s; <a href=\"/studies.json\">JSON</a>)</span></p>\n",
         count[0], count[1], count[2], count[3], RECENT);
    if (err_msg) {
        put_s(b, "<p class=\"st\" style=\"color:#cf222e\">Redis: ");
        put_esc(b, err_msg);
        put_s(b, "</p>\n");
    }
    put_s(b, "<table id=\"studies\"><tr><th>id</th><th>study</th>"
             "<th>status</th><th>progress</th><th>elapsed</th><th>ETA</th>"
             "<th>submitted</th><th>report or reason</th></tr>\n");
    for (size_t k = n; k-- > 0;) { /* newest first */
        const dse_study_info *x = &xs[k];
        char el[32], eta[32], sub[48];
        duration(x->elapsed_s, el, sizeof el);
        duration(x->eta_s, eta, sizeof eta);
        when(x->submitted, sub, sizeof sub);
        put_s(b, "<tr id=\"study-");
        put_esc(b, x->id);
        put_s(b, "\"><td>");
        put_esc(b, x->id);
        put_s(b, "</td><td>");
        put_esc(b, x->name);
        putf(b, "</td><td class=\"st\" style=\"color:%s\">",
             status_color(x->status));
        put_esc(b, x->status);
        putf(b, "%s</td><td>",
             x->cancel_requested && !strcmp(x->status, "running")
                 ? " (cancelling)" : "");
        if (!strcmp(x->status, "running")) {
            double pct = x->progress >= 0 ? 100.0 * x->progress : 0;
            putf(b, "<div class=\"bar\"><div class=\"fill\" style=\"width:"
                    "%.0f%%\"></div></div>",
                 pct);
            put_esc(b, x->phase[0] ? x->phase : "starting");
            putf(b, " %lld/%lld jobs (%.0f%%), %lld worker(s)", x->done,
                 x->total, pct, x->workers);
        } else {
            put_s(b, "<span class=\"muted\">-</span>");
        }
        putf(b, "</td><td>%s</td><td>%s</td><td>%s</td><td>", el, eta, sub);
        if (!strcmp(x->status, "done"))
            report_links(h, b, x);
        put_esc(b, x->reason);
        put_s(b, "</td></tr>\n");
    }
    if (n == 0)
        put_s(b, "<tr><td colspan=\"8\">no studies submitted yet "
                 "(<code>dse submit STUDY.yaml --redis URL</code>)</td></tr>\n");
    put_s(b, "</table>\n</body></html>\n");
}

static const char *type_of(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".html")) return "text/html; charset=utf-8";
    if (dot && !strcmp(dot, ".md")) return "text/markdown; charset=utf-8";
    if (dot && !strcmp(dot, ".csv")) return "text/csv; charset=utf-8";
    return "application/json";
}

/* A done study's report file, after every check in the header. */
static enum MHD_Result report_file(dse_http *h, struct MHD_Connection *c,
                                   const char *id, const char *name)
{
    const char *file = NULL;
    if (!name[0])
        name = "index.html";
    for (size_t i = 0; dse_report_files[i]; i++)
        if (!strcmp(name, dse_report_files[i]))
            file = dse_report_files[i];
    if (!file || !dse_study_id_ok(id))
        return text(c, MHD_HTTP_NOT_FOUND, "not found");
    dse_study_info x;
    err e;
    int rc = dse_study_get(&h->st, &h->fo, id, 0, &x, &e);
    if (rc == ERR_REDIS)
        return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, e.msg);
    if (rc || strcmp(x.status, "done") || !x.report[0])
        return text(c, MHD_HTTP_NOT_FOUND, "no finished report for this study");
    struct stat sb;
    unsigned why;
    int fd = open_report_file(h, &x, file, &sb, &why);
    if (fd < 0)
        return text(c, why, why == MHD_HTTP_FORBIDDEN
                                ? "report outside the output root"
                                : "no such report file");
    struct MHD_Response *r =
        MHD_create_response_from_fd((size_t)sb.st_size, fd); /* owns fd */
    if (!r) {
        close(fd);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type_of(file));
    MHD_add_response_header(r, "Content-Security-Policy", CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind,
                                   const char *key, const char *value)
{
    (void)kind;
    (void)value;
    if (key && !strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH))
        ++*(int *)cls;
    return MHD_YES;
}

/* What libmicrohttpd lets through and a request smuggled past a proxy
 * needs: an HTTP/1.1 request without Host (also refused by strict mode,
 * checked again here), two Content-Length headers.  The reason, or NULL. */
static const char *bad_request(struct MHD_Connection *c, const char *version)
{
    if (version && !strcmp(version, MHD_HTTP_VERSION_1_1) &&
        !MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST))
        return "HTTP/1.1 request without a Host header";
    int lengths = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_header, &lengths);
    if (lengths > 1)
        return "more than one Content-Length header";
    return NULL;
}

static void request_done(void *cls, struct MHD_Connection *c, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    dse_http *h = cls;
    (void)req_cls;
    (void)toe;
    dse_http_guard_request_done(h->guard, c);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls)
{
    dse_http *h = cls;
    (void)version;
    (void)upload_data;
    if (!*req_cls) { /* first call: headers only */
        *req_cls = (void *)1;
        dse_http_guard_headers_done(h->guard, c);
        const char *why = bad_request(c, version);
        if (why)
            return text(c, MHD_HTTP_BAD_REQUEST, why);
        return MHD_YES;
    }
    if (*upload_data_size) {
        *upload_data_size = 0; /* ignore a body */
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
        return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only: GET or HEAD");
    err e;
    if (!strcmp(url, "/") || !strcmp(url, "/index.html")) {
        dse_study_info *xs = NULL;
        size_t n = 0;
        int rc = dse_study_list(&h->st, &h->fo, RECENT, 0, &xs, &n, &e);
        buf b = {0};
        page(h, &b, xs, n, rc ? e.msg : NULL);
        free(xs);
        return respond(c, rc ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK,
                       "text/html; charset=utf-8", &b);
    }
    if (!strcmp(url, "/studies.json")) {
        dse_study_info *xs = NULL;
        size_t n = 0;
        if (dse_study_list(&h->st, &h->fo, RECENT, 0, &xs, &n, &e))
            return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, e.msg);
        json_t *o = json_object(), *arr = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(arr, dse_study_json(&xs[i]));
        json_object_set_new(o, "studies", arr);
        free(xs);
        return json_answer(c, o);
    }
    if (strncmp(url, "/studies/", 9) == 0) {
        const char *rest = url + 9;
        size_t idlen = strspn(rest, "0123456789");
        char id[32];
        if (idlen == 0 || idlen > 20)
            return text(c, MHD_HTTP_NOT_FOUND, "not found");
        snprintf(id, sizeof id, "%.*s", (int)idlen, rest);
        rest += idlen;
        if (!strcmp(rest, ".json")) {
            dse_study_info x;
            int rc = dse_study_get(&h->st, &h->fo, id, 0, &x, &e);
            if (rc)
                return text(c, rc == ERR_REDIS ? MHD_HTTP_SERVICE_UNAVAILABLE
                                               : MHD_HTTP_NOT_FOUND,
                            e.msg);
            return json_answer(c, dse_study_json(&x));
        }
        if (!strncmp(rest, "/report/", 8))
            return report_file(h, c, id, rest + 8);
    }
    return text(c, MHD_HTTP_NOT_FOUND, "not found");
}

int dse_http_start(const dse_store_spec *spec, const dse_farm_opts *fo,
                   const char *listen, const char *output_root,
                   void (*log)(void *ctx, const char *line), void *log_ctx,
                   dse_http **out, err *e)
{
    *out = NULL;
    char addr[64];
    int port;
    int rc = dse_http_addr_parse(listen, addr, &port, e);
    if (rc)
        return rc;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, addr, &sa.sin_addr);
    dse_http *h = xcalloc(1, sizeof *h);
    h->spec = *spec;
    h->fo = *fo;
    snprintf(h->root, sizeof h->root, "%s", output_root);
    dse_store_open(&h->spec, &h->st); /* connects on first use, in MHD's thread */
    h->guard = dse_http_guard_start(HEADER_S, REQUEST_S);
    if (h->guard)
        h->mhd = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, (uint16_t)port,
            NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR,
            (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_TIMEOUT,
            (unsigned)IDLE_S, MHD_OPTION_CONNECTION_LIMIT, (unsigned)TOTAL,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)PER_CLIENT,
            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
            MHD_OPTION_NOTIFY_CONNECTION, dse_http_guard_notify, h->guard,
            MHD_OPTION_NOTIFY_COMPLETED, request_done, h, MHD_OPTION_END);
    if (!h->mhd) {
        dse_http_guard_stop(h->guard);
        dse_store_close(&h->st);
        free(h);
        return err_set(e, ERR_IO, "--http %s: cannot listen on %s:%d "
                                  "(in use, or not an address of this machine)",
                       listen, addr, port);
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info && info->port ? info->port : port;
    if (log) {
        char line[300];
        snprintf(line, sizeof line, "web page at http://%s:%d/", addr, h->port);
        log(log_ctx, line);
        if ((ntohl(sa.sin_addr.s_addr) >> 24) != 127) {
            snprintf(line, sizeof line,
                     "warning: %s is not a loopback address: anyone who can "
                     "reach port %d can read the studies and their reports "
                     "(read-only, no authentication)",
                     addr, h->port);
            log(log_ctx, line);
        }
    }
    *out = h;
    return 0;
}

int dse_http_port(const dse_http *h)
{
    return h->port;
}

void dse_http_stop(dse_http *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->mhd);
    dse_http_guard_stop(h->guard);
    dse_store_close(&h->st);
    free(h);
}

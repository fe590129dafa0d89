/*
 * farm_http.c — see farm_http.h.
 *
 * Design: this file owns the socket, its guards, the report files and
 * the old JSON URLs; the dashboard's pages and API are web.h's
 * (web_pages.c, web_api.c), asked first for every GET and POST.  Every
 * answer is built from the same dse_study_info records as `dse status`
 * (dse/farm/studies.c), so the pages, the JSON and the command line
 * cannot disagree.  Everything taken from Redis is HTML-escaped: a
 * submitted study is untrusted input.
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

#include "dse/farm/http_guard.h"
#include "dse/farm/studies.h"
#include "dse/farm/web.h"
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
    char token[256];          /* --http-token: "" = no control actions */
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

typedef dse_web_buf buf;
#define put dse_web_putn
#define put_s dse_web_put
#define putf dse_web_putf

/* ---- responses ---------------------------------------------------------------- */

static enum MHD_Result respond_csp(struct MHD_Connection *c, unsigned code,
                                   const char *type, buf *body,
                                   const char *csp)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        body->n, body->p ? body->p : (void *)"", MHD_RESPMEM_MUST_COPY);
    free(body->p);
    body->p = NULL;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Content-Security-Policy", csp ? csp : CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned code,
                               const char *type, buf *body)
{
    return respond_csp(c, code, type, body, NULL);
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
    struct MHD_Response *r;
    if (!strcmp(file, "index.html") && sb.st_size <= DSE_REPORT_STORE_MAX) {
        /* the report page with a link back to the list */
        char *html = xmalloc((size_t)sb.st_size + 1);
        size_t got = 0;
        ssize_t k;
        while (got < (size_t)sb.st_size &&
               (k = read(fd, html + got, (size_t)sb.st_size - got)) > 0)
            got += (size_t)k;
        close(fd);
        size_t n;
        char *out = dse_web_report_with_nav(html, got, &n);
        free(html);
        r = MHD_create_response_from_buffer(n, out, MHD_RESPMEM_MUST_FREE);
    } else {
        r = MHD_create_response_from_fd((size_t)sb.st_size, fd); /* owns fd */
        if (!r)
            close(fd);
    }
    if (!r)
        return MHD_NO;
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
    dse_web_ctx wx = {&h->st, &h->fo, h->root, h->token};
    dse_web_answer wa = {0};
    if (!strcmp(method, MHD_HTTP_METHOD_POST) &&
        dse_web_post(&wx, url,
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                 "Authorization"),
                     &wa))
        return respond_csp(c, wa.code, wa.type, &wa.body, wa.csp);
    if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
        return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only: GET or HEAD");
    if (dse_web_get(&wx, url, &wa))
        return respond_csp(c, wa.code, wa.type, &wa.body, wa.csp);
    err e;
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
                   const char *token,
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
    snprintf(h->token, sizeof h->token, "%s", token ? token : "");
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

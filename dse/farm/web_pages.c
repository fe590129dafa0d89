/*
 * web_pages.c — the daemon's HTML pages (see web.h): the studies, one
 * study, the workers, the dead letters.
 *
 * Each page is rendered from the same JSON its API endpoint answers
 * (web_api.c), so a page and a script reading the API cannot disagree.
 * Every value from that JSON goes into the page through
 * dse_web_put_html.  The one inline script is a constant: it finds the
 * elements marked data-f="FIELD" (inside a row marked data-k="ID" for
 * lists) and sets their text from the endpoint named by the body's
 * data-api every 2 s; a list whose rows changed, or a study whose status
 * changed, is reloaded whole (new rows, report links).  Its SHA-256 goes
 * into the page's Content-Security-Policy, which allows no other script.
 */
#include "dse/farm/web.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/xalloc.h"

static const char SCRIPT[] =
    "(function(){"
    "var b=document.body,api=b.getAttribute('data-api');if(!api)return;"
    "function dur(s){if(s===null||s===undefined||s<0)return '-';"
    "s=Math.round(s);var h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;"
    "return (h?h+':'+(m<10?'0':''):'')+m+':'+(x<10?'0':'')+x;}"
    "function fmt(v,t){if(v===null||v===undefined||v==='')return '-';"
    "if(t==='dur')return dur(v);"
    "if(t==='pct')return v<0?'-':Math.round(100*v)+'%';"
    "if(t==='age')return v.toFixed(1)+' s ago';"
    "if(t==='ms')return new Date(v).toISOString().slice(0,19).replace('T',' ')+' UTC';"
    "if(t==='s')return new Date(1000*v).toISOString().slice(0,19).replace('T',' ')+' UTC';"
    "return String(v);}"
    "function live(t){var e=document.getElementById('live');if(e)e.textContent=t;}"
    "function tick(){fetch(api,{cache:'no-store'}).then(function(r){return r.json();})"
    ".then(function(d){"
    "if(b.hasAttribute('data-status')&&d.status!==b.getAttribute('data-status')){location.reload();return;}"
    "var l=[d.studies,d.workers,d.dead_letters].filter(Array.isArray)[0],"
    "map={},n=0;"
    "if(l){l.forEach(function(o){map[o.id||o.name]=o;n++;});"
    "if(n!==document.querySelectorAll('[data-k]').length){location.reload();return;}}"
    "document.querySelectorAll('[data-f]').forEach(function(e){"
    "var r=e.closest('[data-k]'),o=r?map[r.getAttribute('data-k')]:d;if(!o)return;"
    "var v=o[e.getAttribute('data-f')];"
    "if(e.hasAttribute('data-w'))e.style.width=(v>0?Math.round(100*v):0)+'%';"
    "else e.textContent=e.hasAttribute('data-t')||v!==''?fmt(v,e.getAttribute('data-t')):'';});"
    "live('updated '+new Date().toLocaleTimeString());"
    "}).catch(function(x){live('update failed: '+x);});}"
    "setInterval(tick,2000);})();";

static const char CSS[] =
    "body{font-family:sans-serif;margin:2em;color:#1f2328}"
    "nav{margin-bottom:1em}nav a{margin-right:1em}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{border-bottom:1px solid #d0d7de;padding:6px 10px;text-align:left;"
    "vertical-align:top}th{background:#f6f8fa}"
    ".bar{background:#eaeef2;width:160px;height:12px;border-radius:6px;"
    "overflow:hidden}.fill{background:#0969da;height:12px}"
    ".muted{color:#6e7781}.warn{color:#cf222e;font-weight:bold}"
    "dl{display:grid;grid-template-columns:max-content auto;gap:4px 16px}"
    "dt{font-weight:bold}dd{margin:0}code{font-size:90%}";

/* The page's policy: the inline script by its hash and nothing else. */
static const char *page_csp(void)
{
    static char csp[256];
    if (!csp[0]) {
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned len = 0;
        unsigned char b64[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
        EVP_Digest(SCRIPT, strlen(SCRIPT), md, &len, EVP_sha256(), NULL);
        EVP_EncodeBlock(b64, md, (int)len);
        snprintf(csp, sizeof csp,
                 "default-src 'none'; style-src 'unsafe-inline'; img-src "
                 "data:; connect-src 'self'; script-src 'sha256-%s'; "
                 "base-uri 'none'; form-action 'none'; frame-ancestors "
                 "'none'",
                 (const char *)b64);
    }
    return csp;
}

static void head(dse_web_buf *b, const char *title, const char *api,
                 const char *status)
{
    dse_web_put(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                   "charset=\"utf-8\"><title>dse farm: ");
    dse_web_put_html(b, title);
    dse_web_putf(b, "</title><style>%s</style></head>\n<body data-api=\"",
                 CSS);
    dse_web_put_html(b, api);
    dse_web_put(b, "\"");
    if (status) {
        dse_web_put(b, " data-status=\"");
        dse_web_put_html(b, status);
        dse_web_put(b, "\"");
    }
    dse_web_put(b, ">\n<nav><a href=\"/\">studies</a><a href=\"/workers\">"
                   "workers</a><a href=\"/dead-letters\">dead letters</a>"
                   "<span id=\"live\" class=\"muted\"></span></nav>\n");
}

static void tail(dse_web_buf *b, dse_web_answer *a, unsigned code)
{
    dse_web_putf(b, "<script>%s</script>\n</body></html>\n", SCRIPT);
    a->code = code;
    a->type = "text/html; charset=utf-8";
    a->csp = page_csp();
}

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* <span data-f="K" [data-t="T"]>value</span>; the value as the script
 * would print it, so the first paint and the updates look the same. */
static void field(dse_web_buf *b, const json_t *o, const char *k,
                  const char *t)
{
    const json_t *v = json_object_get(o, k);
    char text[64] = "-";
    dse_web_putf(b, "<span data-f=\"%s\"", k);
    if (t)
        dse_web_putf(b, " data-t=\"%s\"", t);
    dse_web_put(b, ">");
    if (json_is_string(v)) {
        dse_web_put_html(b, json_string_value(v)[0] || t
                                ? json_string_value(v)
                                : "");
        dse_web_put(b, "</span>");
        return;
    }
    if (json_is_number(v)) {
        double x = json_number_value(v);
        if (t && !strcmp(t, "dur") && x >= 0) {
            long s = (long)(x + 0.5);
            if (s >= 3600)
                snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600,
                         s / 60 % 60, s % 60);
            else
                snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
        } else if (t && !strcmp(t, "pct") && x >= 0) {
            snprintf(text, sizeof text, "%.0f%%", 100 * x);
        } else if (t && !strcmp(t, "age")) {
            snprintf(text, sizeof text, "%.1f s ago", x);
        } else if (t && (!strcmp(t, "ms") || !strcmp(t, "s"))) {
            time_t tt = (time_t)(!strcmp(t, "ms") ? x / 1000 : x);
            struct tm tm;
            gmtime_r(&tt, &tm);
            strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
        } else if (!t) {
            if (json_is_integer(v))
                snprintf(text, sizeof text, "%lld",
                         (long long)json_integer_value(v));
            else
                snprintf(text, sizeof text, "%g", x);
        }
    } else if (json_is_boolean(v)) {
        snprintf(text, sizeof text, "%s", json_is_true(v) ? "true" : "false");
    }
    dse_web_put_html(b, text);
    dse_web_put(b, "</span>");
}

static void bar(dse_web_buf *b, const json_t *o)
{
    double p = json_number_value(json_object_get(o, "progress"));
    dse_web_putf(b, "<div class=\"bar\"><div class=\"fill\" data-f=\"progress\" "
                    "data-w=\"1\" style=\"width:%.0f%%\"></div></div>",
                 p > 0 ? 100 * p : 0);
}

static void redis_down(dse_web_buf *b, const char *msg)
{
    dse_web_put(b, "<p class=\"warn\">Redis: ");
    dse_web_put_html(b, msg);
    dse_web_put(b, "</p>\n");
}

/* The start of a list page and its data; NULL when Redis failed (the
 * page is then complete, saying so). */
static json_t *list_start(const dse_web_ctx *x, dse_web_answer *a,
                          const char *title, const char *api,
                          json_t *(*get)(const dse_web_ctx *, char *, size_t))
{
    char msg[ERR_MSG_MAX + 64];
    json_t *d = get(x, msg, sizeof msg);
    head(&a->body, title, api, NULL);
    dse_web_put(&a->body, "<h1>dse farm: ");
    dse_web_put_html(&a->body, title);
    dse_web_put(&a->body, "</h1>\n");
    if (!d) {
        redis_down(&a->body, msg);
        tail(&a->body, a, 503);
    }
    return d;
}

/* A list row, keyed for the script by key. */
static void row_start(dse_web_buf *b, const char *key, const char *id)
{
    dse_web_put(b, "<tr data-k=\"");
    dse_web_put_html(b, key);
    if (id) {
        dse_web_put(b, "\" id=\"");
        dse_web_put_html(b, id);
    }
    dse_web_put(b, "\">");
}

/* The end of a list page: a row saying `empty` when there were none. */
static void list_end(dse_web_answer *a, json_t *d, size_t rows, int cols,
                     const char *empty)
{
    if (rows == 0)
        dse_web_putf(&a->body, "<tr><td colspan=\"%d\">%s</td></tr>\n", cols,
                     empty);
    dse_web_put(&a->body, "</table>\n");
    json_decref(d);
    tail(&a->body, a, 200);
}

/* ---- the studies ------------------------------------------------------------ */

void dse__web_page_list(const dse_web_ctx *x, dse_web_answer *a)
{
    json_t *d = list_start(x, a, "studies", "/api/studies", dse__web_studies);
    dse_web_buf *b = &a->body;
    if (!d)
        return;
    dse_web_put(b, "<p id=\"summary\">workers alive: ");
    field(b, d, "workers_alive", NULL);
    dse_web_put(b, " <span class=\"muted\">(<a href=\"/api/studies\">JSON"
                   "</a>; the last 100 studies, newest first)</span></p>\n"
                   "<table id=\"studies\"><tr><th>id</th><th>study</th>"
                   "<th>status</th><th>progress</th><th>workers</th>"
                   "<th>elapsed</th><th>ETA phase</th><th>ETA study</th>"
                   "<th>report or reason</th></tr>\n");
    json_t *l = json_object_get(d, "studies");
    for (size_t i = json_array_size(l); i-- > 0;) {
        json_t *s = json_array_get(l, i);
        const char *id = str(s, "id"), *status = str(s, "status");
        char rid[48];
        snprintf(rid, sizeof rid, "study-%.32s", id);
        row_start(b, id, rid);
        dse_web_put(b, "<td><a href=\"/studies/");
        dse_web_put_html(b, id);
        dse_web_put(b, "\">");
        dse_web_put_html(b, id);
        dse_web_put(b, "</a></td><td><a href=\"/studies/");
        dse_web_put_html(b, id);
        dse_web_put(b, "\">");
        dse_web_put_html(b, str(s, "name"));
        dse_web_put(b, "</a></td><td>");
        field(b, s, "status", NULL);
        dse_web_put(b, "</td><td>");
        bar(b, s);
        field(b, s, "phase", NULL);
        dse_web_put(b, " ");
        field(b, s, "done", NULL);
        dse_web_put(b, "/");
        field(b, s, "total", NULL);
        dse_web_put(b, " jobs, round ");
        field(b, s, "round", NULL);
        dse_web_put(b, "</td><td>");
        field(b, s, "workers", NULL);
        dse_web_put(b, " <span class=\"warn\" data-f=\"warning\">");
        dse_web_put_html(b, str(s, "warning"));
        dse_web_put(b, "</span></td><td>");
        field(b, s, "elapsed_s", "dur");
        dse_web_put(b, "</td><td>");
        field(b, s, "eta_s", "dur");
        dse_web_put(b, "</td><td>");
        field(b, s, "eta_study_s", "dur");
        dse_web_put(b, "</td><td>");
        /* links to the report files the study has, only those */
        json_t *files = json_object_get(s, "reports");
        for (size_t k = 0; !strcmp(status, "done") &&
                           k < json_array_size(files); k++) {
            json_t *f = json_array_get(files, k);
            int index = !strcmp(str(f, "name"), "index.html");
            dse_web_put(b, "<a href=\"/studies/");
            dse_web_put_html(b, id);
            dse_web_put(b, "/report/");
            if (!index)
                dse_web_put_html(b, str(f, "name"));
            dse_web_put(b, "\">");
            dse_web_put_html(b, index ? "report" : str(f, "name"));
            dse_web_put(b, "</a> ");
        }
        dse_web_put_html(b, str(s, "reason"));
        dse_web_put(b, "</td></tr>\n");
    }
    list_end(a, d, json_array_size(l), 9,
             "no studies submitted yet (<code>dse submit STUDY.yaml --redis "
             "URL</code>)");
}

/* ---- one study ----------------------------------------------------------------- */

static void row(dse_web_buf *b, const char *label, const json_t *s,
                const char *k, const char *t)
{
    dse_web_putf(b, "<dt>%s</dt><dd>", label);
    field(b, s, k, t);
    dse_web_put(b, "</dd>\n");
}

void dse__web_page_study(const dse_web_ctx *x, const char *id,
                         dse_web_answer *a)
{
    char msg[ERR_MSG_MAX + 64], api[64], title[64];
    int code = 200;
    json_t *s = dse__web_study(x, id, &code, msg, sizeof msg);
    dse_web_buf *b = &a->body;
    snprintf(api, sizeof api, "/api/studies/%s", id);
    snprintf(title, sizeof title, "study %s", id);
    head(b, title, api, s ? str(s, "status") : NULL);
    if (!s) {
        dse_web_putf(b, "<h1>study %s</h1>\n", id);
        redis_down(b, msg);
        tail(b, a, (unsigned)code);
        return;
    }
    dse_web_putf(b, "<h1>study %s: ", id);
    dse_web_put_html(b, str(s, "name"));
    dse_web_put(b, "</h1>\n<p class=\"warn\" data-f=\"warning\">");
    dse_web_put_html(b, str(s, "warning"));
    dse_web_put(b, "</p>\n<dl id=\"study\">\n");
    row(b, "status", s, "status", NULL);
    row(b, "phase", s, "phase", NULL);
    dse_web_put(b, "<dt>progress</dt><dd>");
    bar(b, s);
    field(b, s, "done", NULL);
    dse_web_put(b, "/");
    field(b, s, "total", NULL);
    dse_web_put(b, " jobs of this phase (");
    field(b, s, "progress", "pct");
    dse_web_put(b, "), ");
    field(b, s, "pending", NULL);
    dse_web_put(b, " waiting, ");
    field(b, s, "jobs_running", NULL);
    dse_web_put(b, " running</dd>\n");
    row(b, "phases so far", s, "phases", NULL);
    row(b, "decision round", s, "round", NULL);
    row(b, "designs simulated", s, "designs_simulated", NULL);
    row(b, "uncertified designs", s, "uncertified", NULL);
    row(b, "workers", s, "workers", NULL);
    row(b, "submitted", s, "submitted", "s");
    row(b, "started", s, "started", "s");
    row(b, "finished", s, "finished", "s");
    row(b, "elapsed", s, "elapsed_s", "dur");
    row(b, "ETA of this phase", s, "eta_s", "dur");
    row(b, "ETA of the study (at most)", s, "eta_study_s", "dur");
    row(b, "rounds ended", s, "ended", NULL);
    row(b, "verdict", s, "verdict", NULL);
    row(b, "reason", s, "reason", NULL);
    row(b, "failed jobs", s, "failed_jobs", NULL);
    dse_web_put(b, "</dl>\n<h2>report</h2>\n<ul id=\"reports\">\n");
    json_t *files = json_object_get(s, "reports");
    for (size_t i = 0; i < json_array_size(files); i++) {
        json_t *f = json_array_get(files, i);
        dse_web_put(b, "<li><a href=\"");
        dse_web_put_html(b, str(f, "url"));
        dse_web_put(b, "\">");
        dse_web_put_html(b, str(f, "name"));
        dse_web_putf(b, "</a> <span class=\"muted\">%lld bytes</span></li>\n",
                     (long long)json_integer_value(json_object_get(f, "bytes")));
    }
    if (json_array_size(files) == 0)
        dse_web_put(b, "<li class=\"muted\">none yet (a report is written "
                       "when the study is done)</li>\n");
    dse_web_put(b, "</ul>\n<p class=\"muted\"><a href=\"");
    dse_web_put_html(b, api);
    dse_web_put(b, "\">JSON</a></p>\n");
    json_decref(s);
    tail(b, a, 200);
}

/* ---- workers ---------------------------------------------------------------- */

void dse__web_page_workers(const dse_web_ctx *x, dse_web_answer *a)
{
    json_t *d = list_start(x, a, "workers", "/api/workers", dse__web_workers);
    dse_web_buf *b = &a->body;
    if (!d)
        return;
    dse_web_put(b, "<p>alive: ");
    field(b, d, "workers_alive", NULL);
    dse_web_put(b, " <span class=\"muted\">(<a href=\"/api/workers\">JSON"
                   "</a>)</span></p>\n<table id=\"workers\"><tr><th>name"
                   "</th><th>state</th><th>host</th><th>pid</th><th>current "
                   "job</th><th>last heartbeat</th><th>jobs done</th><th>"
                   "dead-lettered</th><th>slots</th><th>version</th></tr>\n");
    json_t *l = json_object_get(d, "workers");
    for (size_t i = 0; i < json_array_size(l); i++) {
        json_t *w = json_array_get(l, i);
        row_start(b, str(w, "name"), NULL);
        dse_web_put(b, "<td>");
        dse_web_put_html(b, str(w, "name"));
        dse_web_put(b, "</td><td>");
        field(b, w, "state", NULL);
        const char *cols[][2] = {{"host", NULL},           {"pid", NULL},
                                 {"job", NULL},            {"heartbeat_age_s", "age"},
                                 {"done", NULL},           {"dead", NULL},
                                 {"slots", NULL},          {"version", NULL}};
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            dse_web_put(b, "</td><td>");
            field(b, w, cols[c][0], cols[c][1]);
        }
        dse_web_put(b, "</td></tr>\n");
    }
    list_end(a, d, json_array_size(l), 10,
             "no worker has registered (<code>dse worker --redis URL</code>)");
}

/* ---- dead letters --------------------------------------------------------------- */

void dse__web_page_dead(const dse_web_ctx *x, dse_web_answer *a)
{
    json_t *d = list_start(x, a, "dead letters", "/api/dead-letters",
                           dse__web_dead);
    dse_web_buf *b = &a->body;
    if (!d)
        return;
    dse_web_put(b, "<p>in the stream: ");
    field(b, d, "total", NULL);
    dse_web_put(b, " <span class=\"muted\">(the last 100 below, newest "
                   "first; <a href=\"/api/dead-letters\">JSON</a>)</span></p>\n"
                   "<table id=\"dead\"><tr><th>time</th><th>entry</th><th>"
                   "job</th><th>kind</th><th>reason</th><th>worker</th><th>"
                   "deliveries</th></tr>\n");
    json_t *l = json_object_get(d, "dead_letters");
    for (size_t i = 0; i < json_array_size(l); i++) {
        json_t *e = json_array_get(l, i);
        row_start(b, str(e, "id"), NULL);
        dse_web_put(b, "<td>");
        field(b, e, "time_ms", "ms");
        dse_web_put(b, "</td><td>");
        dse_web_put_html(b, str(e, "id"));
        dse_web_put(b, "</td><td><code title=\"");
        dse_web_put_html(b, str(e, "job"));
        dse_web_put(b, "\">");
        char key[16];
        snprintf(key, sizeof key, "%.12s", str(e, "key"));
        dse_web_put_html(b, key);
        dse_web_put(b, "</code></td><td>");
        dse_web_put_html(b, str(e, "kind"));
        dse_web_put(b, "</td><td>");
        dse_web_put_html(b, str(e, "reason"));
        dse_web_put(b, "</td><td>");
        dse_web_put_html(b, str(e, "worker"));
        dse_web_put(b, "</td><td>");
        dse_web_put_html(b, str(e, "deliveries"));
        dse_web_put(b, "</td></tr>\n");
    }
    list_end(a, d, json_array_size(l), 7, "no dead letters");
}

/* ---- the served report ---------------------------------------------------------- */

char *dse_web_report_with_nav(const char *html, size_t len, size_t *out_len)
{
    static const char nav[] =
        "<nav style=\"font-family:sans-serif;margin:0 0 1em\"><a href=\"/\">"
        "&larr; all studies</a></nav>";
    const char *at = NULL;
    for (size_t i = 0; i + 5 <= len; i++)
        if (!strncmp(html + i, "<body", 5)) {
            const char *gt = memchr(html + i, '>', len - i);
            at = gt ? gt + 1 : NULL;
            break;
        }
    size_t cut = at ? (size_t)(at - html) : 0;
    size_t n = len + sizeof nav - 1;
    char *out = xmalloc(n + 1);
    memcpy(out, html, cut);
    memcpy(out + cut, nav, sizeof nav - 1);
    memcpy(out + cut + sizeof nav - 1, html + cut, len - cut);
    out[n] = '\0';
    *out_len = n;
    return out;
}

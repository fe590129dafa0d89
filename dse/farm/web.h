/*
 * web.h — the pages and the JSON API of the daemon's web server (`dse
 * serve --http`), behind farm_http.c (which owns the listening socket and
 * the checks every request passes first).
 *
 *   GET  /                          the studies (HTML)
 *   GET  /studies/ID                one study: phase, decision round,
 *                                   designs simulated and uncertified,
 *                                   progress, the current phase's and the
 *                                   whole study's ETA, the phases so far,
 *                                   the verdict once done, its report files
 *   GET  /workers                   the workers: name, host, current job,
 *                                   last heartbeat, jobs done
 *   GET  /dead-letters              the last 100 dead letters: job, reason,
 *                                   worker, time
 *   GET  /api/studies               the studies as JSON (newest last)
 *   GET  /api/studies/ID            one study as JSON, with its report files
 *   GET  /api/workers               the workers as JSON
 *   GET  /api/dead-letters          the dead letters as JSON (newest first)
 *   POST /api/studies/ID/cancel             with --http-token only
 *   POST /api/dead-letters/ENTRY/requeue    with --http-token only
 *
 * Pages carry one inline script (the same text on every page, allowed by
 * its SHA-256 hash in the page's Content-Security-Policy and nothing
 * else) that polls the page's JSON endpoint every 2 s and updates the
 * fields in place (textContent: no markup from data is ever parsed).
 * Every field taken from Redis is HTML-escaped (web_html.h).
 *
 * Control: a POST is refused (405) unless the server was started with a
 * token, and (403) unless it carries "Authorization: Bearer TOKEN"
 * (compared in constant time).  A browser form cannot set that header, so
 * another site cannot make a visitor's browser cancel a study.
 */
#ifndef DSE_WEB_H
#define DSE_WEB_H

#include <jansson.h>

#include "dse/farm/farm.h"
#include "dse/farm/web_html.h"

typedef struct dse_web_ctx {
    dse_store *st;
    const dse_farm_opts *fo;
    const char *root;         /* the daemon's --output-root */
    const char *token;        /* "" or NULL: control refused */
} dse_web_ctx;

typedef struct dse_web_answer {
    unsigned code;            /* HTTP status */
    const char *type;         /* Content-Type */
    const char *csp;          /* Content-Security-Policy; NULL: the
                                 server's default (no scripts) */
    dse_web_buf body;
} dse_web_answer;

/* A GET (or HEAD) of url: 1 and *a filled when it is one of the routes
 * above; 0 when not (the caller answers). */
int dse_web_get(const dse_web_ctx *x, const char *url, dse_web_answer *a);
/* A POST of url with the request's Authorization header (may be NULL):
 * 1 and *a filled when url is a control route; 0 when not. */
int dse_web_post(const dse_web_ctx *x, const char *url, const char *auth,
                 dse_web_answer *a);

/* A served report page (index.html) with a link back to the list put
 * right after its <body ...> tag: the new text (caller frees). */
char *dse_web_report_with_nav(const char *html, size_t len, size_t *out_len);

/* ---- between web_api.c and web_pages.c ---- */

/* The data of each page, as the API gives it (new references; NULL with
 * *err_msg set when Redis failed). */
json_t *dse__web_studies(const dse_web_ctx *x, char *err_msg, size_t size);
json_t *dse__web_study(const dse_web_ctx *x, const char *id, int *code,
                       char *err_msg, size_t size);
json_t *dse__web_workers(const dse_web_ctx *x, char *err_msg, size_t size);
json_t *dse__web_dead(const dse_web_ctx *x, char *err_msg, size_t size);
/* The HTML pages (web_pages.c). */
void dse__web_page_list(const dse_web_ctx *x, dse_web_answer *a);
void dse__web_page_study(const dse_web_ctx *x, const char *id,
                         dse_web_answer *a);
void dse__web_page_workers(const dse_web_ctx *x, dse_web_answer *a);
void dse__web_page_dead(const dse_web_ctx *x, dse_web_answer *a);

#endif

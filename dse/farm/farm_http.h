/*
 * farm_http.h — the daemon's read-only web page (`dse serve --http
 * ADDR:PORT`), on libmicrohttpd:
 *
 *   GET /                          the studies: queued, running with
 *                                  progress, elapsed time and ETA, done
 *                                  with links to the report, failed /
 *                                  refused / cancelled with the reason
 *                                  (HTML, no scripts, refreshes every 5 s)
 *   GET /studies.json              the same as JSON (dse status --json)
 *   GET /studies/ID.json           one study
 *   GET /studies/ID/report/        a done study's index.html
 *   GET /studies/ID/report/NAME    NAME one of index.html, report.md,
 *                                  candidates.csv, results.json (and
 *                                  curves.csv, curves.json when the
 *                                  report has them)
 *
 * Anything else is 404 (405 for methods other than GET and HEAD; 400 for
 * an HTTP/1.1 request without Host or with two Content-Length headers).  Files
 * are served only for studies whose status is done, only under the four
 * names above (a URL never becomes a path), only from the study's report
 * directory when it resolves inside the output root, opened without
 * following a symbolic link.  Bound to 127.0.0.1 unless an address is
 * given; nothing is writable and there is no authentication, so a
 * non-loopback address exposes the studies and reports to whoever can
 * reach the port (logged as a warning).
 *
 * Threads: libmicrohttpd's one internal thread answers every request,
 * with its own store handle (a handle is used by one thread at a time).
 */
#ifndef DSE_FARM_HTTP_H
#define DSE_FARM_HTTP_H

#include "dse/farm/farm.h"

typedef struct dse_http dse_http;

/* Parse "ADDR:PORT", ":PORT" or "PORT" (IPv4; ADDR defaults to
 * 127.0.0.1; PORT 0 picks a free one).  0 or ERR_CONFIG. */
int dse_http_addr_parse(const char *text, char addr[64], int *port, err *e);

/* Start serving (spec, fo and output_root are copied).  0, or ERR_CONFIG
 * (bad address) / ERR_IO (cannot listen) with the reason; *out NULL then.
 * log (may be NULL) receives a line with the URL and, for a non-loopback
 * address, a warning. */
int dse_http_start(const dse_store_spec *spec, const dse_farm_opts *fo,
                   const char *listen, const char *output_root,
                   void (*log)(void *ctx, const char *line), void *log_ctx,
                   dse_http **out, err *e);
/* The port actually bound (useful with port 0). */
int dse_http_port(const dse_http *h);
/* Stop (waits for the request in progress) and free; accepts NULL. */
void dse_http_stop(dse_http *h);

#endif

/*
 * http_guard.h — keeps the web page of `dse serve --http` available to
 * everyone when some clients are slow or hostile.
 *
 * libmicrohttpd's own timeout is an idle timeout: it restarts with every
 * byte received, so a client sending one header line every few seconds
 * holds its connection for as long as it likes, and 64 of them hold every
 * connection the server allows.  The guard adds:
 *
 *   a deadline per request: its request line and headers must be complete
 *   within header_s of the connection being accepted (or of the previous
 *   response on a kept-alive connection), and its response sent within
 *   request_s of that;
 *
 * and the server is started with a limit of connections per client
 * address (MHD_OPTION_PER_IP_CONNECTION_LIMIT, dse_http_start), so one
 * client cannot take the others' connections.
 *
 * How a connection is cut: a watchdog thread shuts the socket down
 * (shutdown(2), not close: the descriptor stays libmicrohttpd's), which
 * libmicrohttpd sees as the client going away and closes it itself.  The
 * table of connections is updated from libmicrohttpd's connection
 * notifications under a mutex, and an entry is removed (closed
 * notification) before libmicrohttpd closes the descriptor, so the
 * watchdog never touches a descriptor number that was reused.
 */
#ifndef DSE_FARM_HTTP_GUARD_H
#define DSE_FARM_HTTP_GUARD_H

#include <microhttpd.h>

typedef struct dse_http_guard dse_http_guard;

/* A guard with its watchdog thread running. */
dse_http_guard *dse_http_guard_start(double header_s, double request_s);
/* Stop the watchdog and free (after MHD_stop_daemon); accepts NULL. */
void dse_http_guard_stop(dse_http_guard *g);

/* MHD_OPTION_NOTIFY_CONNECTION's callback (cls: the guard). */
void dse_http_guard_notify(void *cls, struct MHD_Connection *c,
                           void **socket_context,
                           enum MHD_ConnectionNotificationCode code);
/* The request's headers are complete: the response's deadline starts. */
void dse_http_guard_headers_done(dse_http_guard *g, struct MHD_Connection *c);
/* The response was sent (MHD_OPTION_NOTIFY_COMPLETED): a kept-alive
 * connection's next request has header_s again. */
void dse_http_guard_request_done(dse_http_guard *g, struct MHD_Connection *c);
/* Connections cut so far (for tests and logs). */
unsigned long dse_http_guard_cut(const dse_http_guard *g);

#endif

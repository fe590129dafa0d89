/*
 * http_guard.c — see http_guard.h.
 *
 * Rejected: a smaller idle timeout (MHD_OPTION_CONNECTION_TIMEOUT) alone:
 * it restarts with every byte, so a byte every second beats any value
 * that still lets a normal client on a slow link finish.  Running
 * libmicrohttpd from our own poll loop: the API still offers no way to
 * close one connection from outside its callbacks.
 */
#define _POSIX_C_SOURCE 200809L
#include "dse/farm/http_guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "net/xalloc.h"

typedef struct gconn {
    struct gconn *prev, *next;
    int fd;
    double since;             /* accepted, or its last response sent */
    int answering;            /* headers complete: the response deadline */
    int cut;
} gconn;

struct dse_http_guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t th;
    int quit;
    double header_s, request_s;
    gconn head;               /* circular list */
    unsigned long ncut;
};

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *watchdog(void *arg)
{
    dse_http_guard *g = arg;
    pthread_mutex_lock(&g->lock);
    while (!g->quit) {
        double now = mono_now();
        for (gconn *c = g->head.next; c != &g->head; c = c->next) {
            double limit = c->answering ? g->request_s : g->header_s;
            if (!c->cut && now - c->since > limit) {
                shutdown(c->fd, SHUT_RDWR);
                c->cut = 1;
                g->ncut++;
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000; /* a tenth of a second */
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

dse_http_guard *dse_http_guard_start(double header_s, double request_s)
{
    dse_http_guard *g = xcalloc(1, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    g->head.next = g->head.prev = &g->head;
    g->header_s = header_s;
    g->request_s = request_s;
    if (pthread_create(&g->th, NULL, watchdog, g)) {
        pthread_cond_destroy(&g->wake);
        pthread_mutex_destroy(&g->lock);
        free(g);
        return NULL;
    }
    return g;
}

void dse_http_guard_stop(dse_http_guard *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    g->quit = 1;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->th, NULL);
    while (g->head.next != &g->head) { /* connections MHD did not report */
        gconn *c = g->head.next;
        c->prev->next = c->next;
        c->next->prev = c->prev;
        free(c);
    }
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void dse_http_guard_notify(void *cls, struct MHD_Connection *conn,
                           void **socket_context,
                           enum MHD_ConnectionNotificationCode code)
{
    dse_http_guard *g = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!info)
            return;
        gconn *c = xcalloc(1, sizeof *c);
        c->fd = info->connect_fd;
        c->since = mono_now();
        pthread_mutex_lock(&g->lock);
        c->next = g->head.next;
        c->prev = &g->head;
        g->head.next->prev = c;
        g->head.next = c;
        pthread_mutex_unlock(&g->lock);
        *socket_context = c;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        gconn *c = *socket_context;
        pthread_mutex_lock(&g->lock);
        c->prev->next = c->next;
        c->next->prev = c->prev;
        pthread_mutex_unlock(&g->lock);
        free(c);
        *socket_context = NULL;
    }
}

static gconn *conn_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

void dse_http_guard_headers_done(dse_http_guard *g, struct MHD_Connection *conn)
{
    gconn *c = conn_of(conn);
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    if (!c->answering) {
        c->answering = 1;
        c->since = mono_now();
    }
    pthread_mutex_unlock(&g->lock);
}

void dse_http_guard_request_done(dse_http_guard *g, struct MHD_Connection *conn)
{
    gconn *c = conn_of(conn);
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    c->answering = 0;
    c->since = mono_now();
    pthread_mutex_unlock(&g->lock);
}

unsigned long dse_http_guard_cut(const dse_http_guard *g)
{
    dse_http_guard *m = (dse_http_guard *)g;
    pthread_mutex_lock(&m->lock);
    unsigned long n = m->ncut;
    pthread_mutex_unlock(&m->lock);
    return n;
}

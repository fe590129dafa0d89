/*
 * web_html.h — the growing text buffer the daemon's web answers are built
 * in, and the one function that puts untrusted text into HTML.
 *
 * Everything a page shows comes from Redis (a study's name, a dead
 * letter's reason, a worker's name) and anyone who can write to Redis can
 * put markup there: every such field goes through dse_web_put_html, never
 * dse_web_put.
 */
#ifndef DSE_WEB_HTML_H
#define DSE_WEB_HTML_H

#include <stddef.h>

typedef struct dse_web_buf {
    char *p;                  /* NUL-terminated; owned (free()) */
    size_t n, cap;
} dse_web_buf;

/* Append len bytes / a string / printf output (a piece over 4 KiB is
 * cut: use dse_web_put for long text). */
void dse_web_putn(dse_web_buf *b, const char *s, size_t len);
void dse_web_put(dse_web_buf *b, const char *s);
void dse_web_putf(dse_web_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append text HTML-escaped (& < > " '), safe in element content and in
 * quoted attribute values. */
void dse_web_put_html(dse_web_buf *b, const char *text);

#endif

/*
 * web_html.c — see web_html.h.  The escaping itself is escape.h's, the
 * one the whole farm uses.
 */
#include "dse/farm/web_html.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dse/farm/escape.h"
#include "net/xalloc.h"

void dse_web_putn(dse_web_buf *b, const char *s, size_t len)
{
    if (b->n + len + 1 > b->cap) {
        b->cap = (b->n + len + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

void dse_web_put(dse_web_buf *b, const char *s)
{
    dse_web_putn(b, s, strlen(s));
}

void dse_web_putf(dse_web_buf *b, const char *fmt, ...)
{
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        dse_web_putn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_cb(void *ctx, const char *p, size_t n)
{
    dse_web_putn(ctx, p, n);
}

void dse_web_put_html(dse_web_buf *b, const char *s)
{
    if (s)
        dse_html_escape(s, put_cb, b);
}

/*
 * escape.c — see escape.h.
 */
#include "dse/farm/escape.h"

#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

void dse_html_escape(const char *s, void (*put)(void *ctx, const char *p,
                                                size_t n),
                     void *ctx)
{
    const char *run = s; /* characters copied as they are */
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *rep = NULL;
        switch (c) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default:
            if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                rep = "&#xFFFD;";
        }
        if (!rep)
            continue;
        if (s > run)
            put(ctx, run, (size_t)(s - run));
        put(ctx, rep, strlen(rep));
        run = s + 1;
    }
    if (s > run)
        put(ctx, run, (size_t)(s - run));
}

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sbuf_put(void *ctx, const char *p, size_t n)
{
    sbuf *b = ctx;
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1);
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = '\0';
}

char *dse_html_escape_dup(const char *s)
{
    sbuf b = {0};
    sbuf_put(&b, "", 0);
    dse_html_escape(s, sbuf_put, &b);
    return b.p;
}

char *dse_term_clean(const char *s, char *out, size_t size)
{
    if (size == 0)
        return out;
    size_t o = 0;
    for (size_t i = 0; s[i] && o + 1 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned char next = (unsigned char)s[i + 1];
        if (c < 0x20 || c == 0x7f) {
            out[o++] = '?';
        } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {
            out[o++] = '?'; /* a C1 control (CSI is U+009B) */
            i++;
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = '\0';
    return out;
}

/*
 * err.c — recording and formatting err values (see err.h).
 *
 * Messages are truncated, never overflowed: every write goes through
 * vsnprintf into the fixed buffers of struct err, so an err can live on the
 * stack and be copied by value between threads.
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void err_clear(err *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

static void copy_str(char *dst, size_t size, const char *src)
{
    if (!src) {
        dst[0] = '\0';
        return;
    }
    snprintf(dst, size, "%s", src);
}

int err_set(err *e, int code, const char *fmt, ...)
{
    if (!e)
        return code;
    err_clear(e);
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

int err_set_at(err *e, int code, const char *file, int line, int column,
               const char *path, const char *fmt, ...)
{
    if (!e)
        return code;
    err_clear(e);
    e->code = code;
    copy_str(e->file, sizeof e->file, file);
    copy_str(e->path, sizeof e->path, path);
    e->line = line;
    e->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

void err_prefix(err *e, const char *fmt, ...)
{
    if (!e)
        return;
    char old[ERR_MSG_MAX];
    memcpy(old, e->msg, sizeof old);
    va_list ap;
    va_start(ap, fmt);
    int used = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    if (used < 0 || (size_t)used >= sizeof e->msg)
        return;
    /* the message is truncated, never overflowed */
    size_t room = sizeof e->msg - (size_t)used;
    size_t old_len = strnlen(old, sizeof old - 1);
    char *p = e->msg + used;
    for (const char *s = ": "; *s && room > 1; room--)
        *p++ = *s++;
    size_t take = old_len < room - 1 ? old_len : room - 1;
    memcpy(p, old, take);
    p[take] = '\0';
}

const char *err_code_text(int code)
{
    switch (code) {
#define ERR_TEXT_(name, value, text) case name: return text;
        ERR_CODE_LIST(ERR_TEXT_)
#undef ERR_TEXT_
    }
    return "unknown error";
}

char *err_format(const err *e, char *buf, size_t size)
{
    if (!e) {
        snprintf(buf, size, "(no error)");
        return buf;
    }
    size_t used = 0;
    buf[0] = '\0';
#define APPEND_(...)                                                         \
    do {                                                                     \
        if (used < size) {                                                   \
            int w_ = snprintf(buf + used, size - used, __VA_ARGS__);         \
            if (w_ > 0)                                                      \
                used += (size_t)w_;                                          \
        }                                                                    \
    } while (0)
    if (e->file[0]) {
        APPEND_("%s:", e->file);
        if (e->line > 0)
            APPEND_("%d:%d:", e->line, e->column);
        APPEND_(" ");
    }
    if (e->path[0])
        APPEND_("%s: ", e->path);
    APPEND_("%s", e->msg[0] ? e->msg : err_code_text(e->code));
#undef APPEND_
    return buf;
}

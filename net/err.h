/*
 * err.h — error values shared by every dse library.
 *
 * Functions that can fail return 0 or a negative ERR_* code and take an
 * `err *` as their last argument (which may be NULL).  The err carries a
 * human-readable message and, for configuration errors, the file, 1-based
 * line and column, and the YAML path of the offending node.  Libraries never
 * print or exit: only the CLI decides how to report, so a library call
 * can be reused by the daemon and the tests without side effects.
 *
 * The codes come from one X-macro list so the enum and err_code_text() can
 * never drift apart.
 */
#ifndef DSE_ERR_H
#define DSE_ERR_H

#include <stddef.h>

#define ERR_CODE_LIST(X)                                                     \
    X(ERR_OK, 0, "ok")                                                       \
    X(ERR_INVALID, -1, "invalid argument")                                   \
    X(ERR_CONFIG, -2, "configuration error")                                 \
    X(ERR_IO, -3, "input/output error")                                      \
    X(ERR_UNSUPPORTED, -4, "not covered")                                    \
    X(ERR_INFEASIBLE, -5, "infeasible design")                               \
    X(ERR_SATURATED, -6, "saturated")                                        \
    X(ERR_NOCONVERGE, -7, "did not converge")                                \
    X(ERR_DEADLOCK, -8, "deadlock")                                          \
    X(ERR_REDIS, -9, "redis error")                                          \
    X(ERR_NLOPT, -10, "optimizer error")                                     \
    X(ERR_INTERRUPTED, -11, "interrupted")                                   \
    X(ERR_NOTIMPL, -12, "not implemented yet")

enum err_code {
#define ERR_ENUM_(name, value, text) name = value,
    ERR_CODE_LIST(ERR_ENUM_)
#undef ERR_ENUM_
};

#define ERR_MSG_MAX 512
#define ERR_FILE_MAX 256
#define ERR_PATH_MAX 128

typedef struct err {
    int code;                  /* ERR_* (0 when no error was recorded) */
    char msg[ERR_MSG_MAX];     /* what went wrong, for a human */
    char file[ERR_FILE_MAX];   /* config file, "" when not applicable */
    int line;                  /* 1-based, 0 when not applicable */
    int column;                /* 1-based, 0 when not applicable */
    char path[ERR_PATH_MAX];   /* YAML path such as "space.vcs[2]", or "" */
} err;

/* Reset e to "no error".  e may be NULL. */
void err_clear(err *e);

/* Record code and a printf-style message in e (which may be NULL); returns
 * code so callers can write `return err_set(e, ERR_INVALID, ...)`. */
int err_set(err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, with a source location (file, 1-based line and column, YAML path;
 * file and path may be NULL). */
int err_set_at(err *e, int code, const char *file, int line, int column,
               const char *path, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Prefix the existing message with "prefix: " (for context while an error
 * propagates upward).  No-op when e is NULL. */
void err_prefix(err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Static text of an ERR_* code ("saturated", ...). */
const char *err_code_text(int code);

/* Format e as "FILE:LINE:COLUMN: PATH: MSG" (parts omitted when absent) into
 * buf; returns buf. */
char *err_format(const err *e, char *buf, size_t size);

#endif

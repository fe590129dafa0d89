/*
 * escape.h — untrusted text made safe to show: in an HTML page (the web
 * page of `dse serve --http`) and on a terminal (`dse status`).
 *
 * Everything the farm shows comes from Redis, which anyone who can reach
 * the server may write: a study's id, name, status, phase and reason, a
 * worker's host name.  Text planted there must not become markup in the
 * page (a <base href> or <script> of someone else's) nor an escape
 * sequence on the terminal (moving the cursor, retitling the window,
 * hiding lines).  One helper per destination, used for every field, so
 * that no field is shown raw by forgetting which ones are "ours".
 */
#ifndef DSE_FARM_ESCAPE_H
#define DSE_FARM_ESCAPE_H

#include <stddef.h>

/* Append s HTML-escaped through put (element content and quoted attribute
 * values alike): & < > " ' become entities; control characters (C0 but
 * tab and newline, DEL), which HTML does not allow, become U+FFFD. */
void dse_html_escape(const char *s, void (*put)(void *ctx, const char *p,
                                                size_t n),
                     void *ctx);
/* The same into a new string (caller frees). */
char *dse_html_escape_dup(const char *s);

/* s for a terminal into out (size bytes, always terminated): every
 * control character (C0 including ESC, DEL, and the C1 range U+0080 to
 * U+009F encoded in UTF-8) becomes '?', so no escape sequence reaches
 * the terminal.  Returns out. */
char *dse_term_clean(const char *s, char *out, size_t size);

#endif

/*
 * xalloc.h — allocation wrappers that abort when memory runs out.
 *
 * Running out of memory is not a user error we can report usefully from deep
 * inside a simulator's pool setup, so, like redis's zmalloc, these abort
 * with a message.  Everything a user can cause (bad configs, unreachable
 * Redis, infeasible designs) is reported through err values instead.
 */
#ifndef DSE_XALLOC_H
#define DSE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);              /* caller frees */
void *xcalloc(size_t count, size_t size); /* caller frees; zeroed */
void *xrealloc(void *ptr, size_t size);   /* replaces ptr */
char *xstrdup(const char *s);             /* caller frees */

#endif

/*
 * cfg_yaml.c — a small typed reader over libyaml's document API, used by the
 * study schema in cfg.c (interface in cfg_int.h).
 *
 * Design.  The whole file is loaded as a libyaml node tree
 * (yaml_parser_load), not consumed as an event stream: the schema can then
 * look keys up in any order, check a mapping's keys as a set (unknown keys,
 * duplicates) before reading any value, and point at any node's source
 * position.  The rejected alternative, an event-driven state machine, needs
 * one state per schema level and makes "did you mean" and "first given at
 * line L" awkward.  Study files are small, so holding the tree costs
 * nothing.
 *
 * Locations.  libyaml marks are 0-based; every err carries 1-based line and
 * column.  Reader errors (invalid UTF-8) come with a byte offset instead of
 * a mark; we convert it by counting lines in the text.
 *
 * Typing.  Numbers and booleans must be plain (unquoted) scalars: "10" in
 * quotes is a string in YAML and we say so instead of guessing.  An empty
 * value, "~" and "null" are reported as "an empty value".
 *
 * Ownership: cfg_doc owns the libyaml document until cfg__doc_fini.
 */
#include "dse/study/cfg_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

/* ---- locations and messages ------------------------------------------- */

int cfg__fail(cfg_doc *c, const yaml_node_t *at, const char *path,
              const char *fmt, ...)
{
    if (!c->e)
        return ERR_CONFIG;
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = at ? (int)at->start_mark.line + 1 : 1;
    int column = at ? (int)at->start_mark.column + 1 : 1;
    return err_set_at(c->e, ERR_CONFIG, c->file, line, column, path, "%s",
                      msg);
}

static void append(char *out, size_t *used, const char *s)
{
    while (*s && *used + 1 < ERR_PATH_MAX)
        out[(*used)++] = *s++;
    out[*used] = '\0';
}

void cfg__path_key(char *out, const char *parent, const char *key)
{
    char tmp[ERR_PATH_MAX];
    size_t used = 0;
    tmp[0] = '\0';
    if (parent && parent[0]) {
        append(tmp, &used, parent);
        append(tmp, &used, ".");
    }
    append(tmp, &used, key);
    memcpy(out, tmp, used + 1);
}

void cfg__path_index(char *out, const char *parent, size_t index)
{
    char tmp[ERR_PATH_MAX], num[32];
    size_t used = 0;
    tmp[0] = '\0';
    snprintf(num, sizeof num, "[%zu]", index);
    append(tmp, &used, parent ? parent : "");
    append(tmp, &used, num);
    memcpy(out, tmp, used + 1);
}

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions), for short keys and names only. */
static size_t osa_distance(const char *a, const char *b)
{
    enum { MAXLEN = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXLEN || lb >= MAXLEN)
        return (size_t)-1;
    size_t d[MAXLEN + 1][MAXLEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) !=
                          tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *cfg__suggest(const char *word, const char *const *names,
                         size_t count)
{
    size_t len = strlen(word);
    /* a typo, not a different word: 1 edit for short words, up to 3 */
    size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < count; i++) {
        size_t d = osa_distance(word, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

const char *cfg__text(const yaml_node_t *node)
{
    return (const char *)node->data.scalar.value;
}

static int is_null_scalar(const yaml_node_t *node)
{
    if (node->type != YAML_SCALAR_NODE ||
        node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *t = cfg__text(node);
    return t[0] == '\0' || strcmp(t, "~") == 0 || strcmp(t, "null") == 0 ||
           strcmp(t, "Null") == 0 || strcmp(t, "NULL") == 0;
}

const char *cfg__describe(const yaml_node_t *node, char *buf, size_t size)
{
    switch (node->type) {
    case YAML_MAPPING_NODE:
        return "a mapping";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_SCALAR_NODE:
        break;
    default:
        return "nothing";
    }
    if (is_null_scalar(node))
        return "an empty value";
    const char *t = cfg__text(node);
    int quoted = node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    if (strlen(t) > 40)
        snprintf(buf, size, "%s\"%.37s...\"", quoted ? "the string " : "", t);
    else
        snprintf(buf, size, "%s\"%s\"", quoted ? "the string " : "", t);
    return buf;
}

/* ---- loading ----------------------------------------------------------- */

/* 1-based line and column of byte offset `off` in text. */
static void offset_position(const char *text, size_t len, size_t off,
                            int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static int syntax_error(cfg_doc *c, yaml_parser_t *p, const char *text,
                        size_t len)
{
    int line, column;
    if (p->error == YAML_READER_ERROR) {
        offset_position(text, len, p->problem_offset, &line, &column);
        return err_set_at(c->e, ERR_CONFIG, c->file, line, column, NULL,
                          "cannot read the file: %s",
                          p->problem ? p->problem : "invalid input");
    }
    line = (int)p->problem_mark.line + 1;
    column = (int)p->problem_mark.column + 1;
    if (p->context)
        return err_set_at(c->e, ERR_CONFIG, c->file, line, column, NULL,
                          "syntax error: %s (%s at line %d, column %d)",
                          p->problem ? p->problem : "invalid YAML",
                          p->context, (int)p->context_mark.line + 1,
                          (int)p->context_mark.column + 1);
    return err_set_at(c->e, ERR_CONFIG, c->file, line, column, NULL,
                      "syntax error: %s",
                      p->problem ? p->problem : "invalid YAML");
}

/* Refuse nesting deeper than CFG_MAX_DEPTH before building the tree: an
 * event pass that stops at the first too-deep collection, so 100,000
 * nested '[' cost microseconds instead of the loader's tens of seconds
 * (libyaml's scanner is quadratic in the flow depth).  A syntax error
 * found here is left to the loader, which reports it. */
static int depth_check(cfg_doc *c, const char *text, size_t len)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int depth = 0, rc = 0, done = 0;
    while (!done && !rc) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev))
            break;
        switch (ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > CFG_MAX_DEPTH)
                rc = err_set_at(c->e, ERR_CONFIG, c->file,
                                (int)ev.start_mark.line + 1,
                                (int)ev.start_mark.column + 1, NULL,
                                "lists and mappings nested more than %d "
                                "deep: not a study file",
                                CFG_MAX_DEPTH);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return rc;
}

int cfg__doc_load(cfg_doc *c, const char *text, size_t len, const char *file,
                  err *e, yaml_node_t **root)
{
    memset(c, 0, sizeof *c);
    c->file = file;
    c->e = e;
    *root = NULL;
    if (len > CFG_TEXT_MAX)
        return err_set_at(e, ERR_CONFIG, file, 0, 0, NULL,
                          "%zu bytes: a study file may have at most %d",
                          len, CFG_TEXT_MAX);
    int drc = depth_check(c, text, len);
    if (drc)
        return drc;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return err_set_at(e, ERR_CONFIG, file, 0, 0, NULL,
                          "cannot initialise the YAML parser");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = 0;
    if (!yaml_parser_load(&parser, &c->doc)) {
        rc = syntax_error(c, &parser, text, len);
        goto out;
    }
    c->loaded = 1;
    *root = yaml_document_get_root_node(&c->doc);
    if (*root) {
        /* a second document would be silently ignored: refuse it */
        yaml_document_t next;
        if (!yaml_parser_load(&parser, &next)) {
            rc = syntax_error(c, &parser, text, len);
            goto out;
        }
        yaml_node_t *second = yaml_document_get_root_node(&next);
        if (second) {
            rc = cfg__fail(c, second, NULL,
                           "a study file holds one YAML document; this is a "
                           "second one");
        }
        yaml_document_delete(&next);
    }
out:
    yaml_parser_delete(&parser);
    return rc;
}

void cfg__doc_fini(cfg_doc *c)
{
    if (c->loaded)
        yaml_document_delete(&c->doc);
    c->loaded = 0;
}

/* ---- structure ---------------------------------------------------------- */

size_t cfg__seq_len(const yaml_node_t *seq)
{
    return (size_t)(seq->data.sequence.items.top -
                    seq->data.sequence.items.start);
}

yaml_node_t *cfg__seq_item(cfg_doc *c, yaml_node_t *seq, size_t i)
{
    return yaml_document_get_node(&c->doc, seq->data.sequence.items.start[i]);
}

static size_t key_count(const char *const *keys)
{
    size_t n = 0;
    while (keys[n])
        n++;
    return n;
}

int cfg__map_check(cfg_doc *c, yaml_node_t *node, const char *path,
                   const char *const *keys)
{
    char buf[64];
    if (node->type != YAML_MAPPING_NODE)
        return cfg__fail(c, node, path, "expected a mapping of keys, got %s",
                         cfg__describe(node, buf, sizeof buf));
    yaml_node_pair_t *start = node->data.mapping.pairs.start;
    yaml_node_pair_t *top = node->data.mapping.pairs.top;
    for (yaml_node_pair_t *p = start; p < top; p++) {
        yaml_node_t *k = yaml_document_get_node(&c->doc, p->key);
        if (k->type != YAML_SCALAR_NODE)
            return cfg__fail(c, k, path, "expected a key name, got %s",
                             cfg__describe(k, buf, sizeof buf));
        const char *name = cfg__text(k);
        size_t i;
        for (i = 0; keys[i]; i++)
            if (strcmp(keys[i], name) == 0)
                break;
        if (!keys[i]) {
            const char *near = cfg__suggest(name, keys, key_count(keys));
            if (near)
                return cfg__fail(c, k, path,
                                 "unknown key '%s' (did you mean '%s'?)", name,
                                 near);
            char list[ERR_MSG_MAX / 2];
            size_t used = 0;
            list[0] = '\0';
            for (size_t j = 0; keys[j] && used < sizeof list; j++) {
                int w = snprintf(list + used, sizeof list - used, "%s%s",
                                 j ? ", " : "", keys[j]);
                if (w > 0)
                    used += (size_t)w;
            }
            return cfg__fail(c, k, path, "unknown key '%s' (expected one of: %s)",
                             name, list);
        }
        for (yaml_node_pair_t *q = start; q < p; q++) {
            yaml_node_t *prev = yaml_document_get_node(&c->doc, q->key);
            if (strcmp(cfg__text(prev), name) == 0)
                return cfg__fail(c, k, path,
                                 "duplicate key '%s' (first given at line %d)",
                                 name, (int)prev->start_mark.line + 1);
        }
    }
    return 0;
}

static yaml_node_pair_t *map_pair(cfg_doc *c, yaml_node_t *map,
                                  const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&c->doc, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp(cfg__text(k), key) == 0)
            return p;
    }
    return NULL;
}

yaml_node_t *cfg__map_get(cfg_doc *c, yaml_node_t *map, const char *key)
{
    yaml_node_pair_t *p = map_pair(c, map, key);
    return p ? yaml_document_get_node(&c->doc, p->value) : NULL;
}

yaml_node_t *cfg__map_key(cfg_doc *c, yaml_node_t *map, const char *key)
{
    yaml_node_pair_t *p = map_pair(c, map, key);
    return p ? yaml_document_get_node(&c->doc, p->key) : NULL;
}

/* ---- scalars ------------------------------------------------------------ */

/* Text of a plain, non-empty scalar, or NULL. */
static const char *plain_text(const yaml_node_t *node)
{
    if (node->type != YAML_SCALAR_NODE ||
        node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        is_null_scalar(node))
        return NULL;
    return cfg__text(node);
}

static int parse_long(const char *t, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end != t && *end == '\0' && !errno) {
        *out = v;
        return 0;
    }
    /* 1e6, 2.0: accepted when the value is a whole number */
    errno = 0;
    double x = strtod(t, &end);
    if (end == t || *end || errno || !isfinite(x) || x != floor(x) ||
        fabs(x) > 9e15)
        return -1;
    *out = (long)x;
    return 0;
}

static int parse_double(const char *t, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    if (end == t || *end || errno == ERANGE || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

int cfg__get_int(cfg_doc *c, yaml_node_t *node, const char *path, long lo,
                 long hi, long *out)
{
    char buf[64];
    const char *t = plain_text(node);
    long v;
    if (!t || parse_long(t, &v))
        return cfg__fail(c, node, path, "expected an integer, got %s",
                         cfg__describe(node, buf, sizeof buf));
    if (v < lo || v > hi) {
        if (hi == CFG_NO_MAX)
            return cfg__fail(c, node, path,
                             "expected an integer >= %ld, got %ld", lo, v);
        return cfg__fail(c, node, path,
                         "expected an integer in [%ld, %ld], got %ld", lo, hi,
                         v);
    }
    *out = v;
    return 0;
}

int cfg__get_real(cfg_doc *c, yaml_node_t *node, const char *path,
                  const char *what, double lo, double hi, int lo_open,
                  double *out)
{
    char buf[64];
    const char *t = plain_text(node);
    double v;
    if (!t || parse_double(t, &v))
        return cfg__fail(c, node, path, "expected %s, got %s", what,
                         cfg__describe(node, buf, sizeof buf));
    if ((lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi)) {
        if (isinf(hi))
            return cfg__fail(c, node, path, "expected %s %s %g, got %g", what,
                             lo_open ? ">" : ">=", lo, v);
        return cfg__fail(c, node, path, "expected %s in %c%g, %g], got %g",
                         what, lo_open ? '(' : '[', lo, hi, v);
    }
    *out = v;
    return 0;
}

int cfg__get_bool(cfg_doc *c, yaml_node_t *node, const char *path, int *out)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes",
                                      "YES", "on", "On", "ON"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No",
                                     "NO", "off", "Off", "OFF"};
    char buf[64];
    const char *t = plain_text(node);
    for (size_t i = 0; t && i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(t, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcmp(t, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return cfg__fail(c, node, path, "expected true or false, got %s",
                     cfg__describe(node, buf, sizeof buf));
}

int cfg__get_string(cfg_doc *c, yaml_node_t *node, const char *path,
                    char *out, size_t size)
{
    char buf[64];
    if (node->type != YAML_SCALAR_NODE || is_null_scalar(node))
        return cfg__fail(c, node, path, "expected a string, got %s",
                         cfg__describe(node, buf, sizeof buf));
    const char *t = cfg__text(node);
    if (strlen(t) >= size)
        return cfg__fail(c, node, path,
                         "too long: at most %zu characters, got %zu", size - 1,
                         strlen(t));
    memcpy(out, t, strlen(t) + 1);
    return 0;
}

int cfg__get_name(cfg_doc *c, yaml_node_t *node, const char *path,
                  const char *what, const char *const *names, size_t count,
                  int *index)
{
    char buf[64];
    if (node->type != YAML_SCALAR_NODE || is_null_scalar(node))
        return cfg__fail(c, node, path, "expected a %s name, got %s", what,
                         cfg__describe(node, buf, sizeof buf));
    const char *t = cfg__text(node);
    for (size_t i = 0; i < count; i++)
        if (strcmp(t, names[i]) == 0) {
            *index = (int)i;
            return 0;
        }
    const char *near = cfg__suggest(t, names, count);
    if (near)
        return cfg__fail(c, node, path, "unknown %s '%s' (did you mean '%s'?)",
                         what, t, near);
    char list[ERR_MSG_MAX / 2];
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < count && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         names[i]);
        if (w > 0)
            used += (size_t)w;
    }
    return cfg__fail(c, node, path, "unknown %s '%s' (expected one of: %s)",
                     what, t, list);
}

/* ---- value lists -------------------------------------------------------- */

static const char *const range_keys[] = {"from", "to", "step", NULL};

/*
 * Lists are collected into a growing buffer (capacity doubling) with, for
 * each value, the node and path index it came from; duplicates are found
 * once the whole list is read, by sorting (value, position) pairs, so a
 * list of n values costs O(n log n), not the O(n^2) of a check per item.
 * The duplicate reported is the first one in document order, as before.
 */
typedef struct origin {
    yaml_node_t *node;
    size_t index;            /* path index in the list; SIZE_MAX: the node
                                is the list's own value (a scalar, a range) */
} origin;

typedef struct vals {
    double *v;
    origin *from;
    size_t n, cap;
} vals;

static void vals_push(vals *l, double v, yaml_node_t *node, size_t index)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
        l->from = xrealloc(l->from, l->cap * sizeof *l->from);
    }
    l->v[l->n] = v;
    l->from[l->n++] = (origin){node, index};
}

static void vals_fini(vals *l)
{
    free(l->v);
    free(l->from);
}

typedef struct keyed {
    double v;
    size_t pos;
} keyed;

static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Position of the first value (in list order) equal to an earlier one, or
 * SIZE_MAX.  O(n log n). */
static size_t first_duplicate(const double *v, size_t n)
{
    if (n < 2)
        return SIZE_MAX;
    keyed *k = xmalloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed){v[i], i};
    qsort(k, n, sizeof *k, keyed_cmp);
    size_t best = SIZE_MAX;
    for (size_t i = 1; i < n; i++)
        if (k[i].v == k[i - 1].v && (i < 2 || k[i - 1].v != k[i - 2].v) &&
            k[i].pos < best)
            best = k[i].pos; /* the second of each run of equal values */
    free(k);
    return best;
}

/* Refuse a duplicate among l (new values) and the existing[0..nold-1]
 * (which come first), pointing at the duplicate's own item. */
static int vals_unique(cfg_doc *c, const vals *l, const double *existing,
                       size_t nold, const char *path, int integer)
{
    size_t n = nold + l->n;
    double *all = xmalloc((n ? n : 1) * sizeof *all);
    for (size_t i = 0; i < nold; i++)
        all[i] = existing[i];
    for (size_t i = 0; i < l->n; i++)
        all[nold + i] = l->v[i];
    size_t d = first_duplicate(all, n);
    free(all);
    if (d == SIZE_MAX)
        return 0;
    d -= nold; /* the existing values are distinct: d is a new one */
    char sub[ERR_PATH_MAX];
    if (l->from[d].index == SIZE_MAX)
        snprintf(sub, sizeof sub, "%s", path);
    else
        cfg__path_index(sub, path, l->from[d].index);
    if (integer)
        return cfg__fail(c, l->from[d].node, sub,
                         "duplicate value %d (already in the list)",
                         (int)l->v[d]);
    return cfg__fail(c, l->from[d].node, sub,
                     "duplicate value %g (already in the list)", l->v[d]);
}

static int int_range(cfg_doc *c, yaml_node_t *node, const char *path,
                     long lo, long hi, vals *out, size_t index)
{
    char sub[ERR_PATH_MAX];
    int rc = cfg__map_check(c, node, path, range_keys);
    if (rc)
        return rc;
    yaml_node_t *nf = cfg__map_get(c, node, "from");
    yaml_node_t *nt = cfg__map_get(c, node, "to");
    yaml_node_t *ns = cfg__map_get(c, node, "step");
    if (!nf || !nt)
        return cfg__fail(c, node, path, "a range needs 'from' and 'to'%s",
                         " (and optionally 'step')");
    long from, to, step = 1;
    cfg__path_key(sub, path, "from");
    if ((rc = cfg__get_int(c, nf, sub, lo, hi, &from)))
        return rc;
    cfg__path_key(sub, path, "to");
    if ((rc = cfg__get_int(c, nt, sub, lo, hi, &to)))
        return rc;
    if (ns) {
        cfg__path_key(sub, path, "step");
        if ((rc = cfg__get_int(c, ns, sub, -CFG_NO_MAX, CFG_NO_MAX, &step)))
            return rc;
        if (step <= 0)
            return cfg__fail(c, ns, sub, "expected a step > 0, got %ld", step);
    }
    if (to < from) {
        cfg__path_key(sub, path, "to");
        return cfg__fail(c, nt, sub, "range end %ld is below its start %ld",
                         to, from);
    }
    /* from and to lie in [lo, hi] (int-sized bounds), so to - from cannot
     * overflow; stepping by index keeps from + i * step <= to, where the
     * old `v += step` overflowed for a huge step */
    long count = (to - from) / step + 1;
    if (count > CFG_RANGE_MAX_VALUES)
        return cfg__fail(c, node, path, "range gives more than %d values",
                         CFG_RANGE_MAX_VALUES);
    for (long i = 0; i < count; i++)
        vals_push(out, (double)(from + i * step), node, index);
    return 0;
}

/* Round to 12 significant digits: from + i*step without binary noise
 * (0.1 + 2*0.1 -> 0.3, not 0.30000000000000004). */
static double round12(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.12g", x);
    return strtod(buf, NULL);
}

static int real_range(cfg_doc *c, yaml_node_t *node, const char *path,
                      const char *what, double lo, double hi, int lo_open,
                      vals *out, size_t index)
{
    char sub[ERR_PATH_MAX];
    int rc = cfg__map_check(c, node, path, range_keys);
    if (rc)
        return rc;
    yaml_node_t *nf = cfg__map_get(c, node, "from");
    yaml_node_t *nt = cfg__map_get(c, node, "to");
    yaml_node_t *ns = cfg__map_get(c, node, "step");
    if (!nf || !nt || !ns)
        return cfg__fail(c, node, path,
                         "a range needs 'from', 'to' and 'step'");
    double from, to, step;
    cfg__path_key(sub, path, "from");
    if ((rc = cfg__get_real(c, nf, sub, what, lo, hi, lo_open, &from)))
        return rc;
    cfg__path_key(sub, path, "to");
    if ((rc = cfg__get_real(c, nt, sub, what, lo, hi, lo_open, &to)))
        return rc;
    cfg__path_key(sub, path, "step");
    if ((rc = cfg__get_real(c, ns, sub, "a number", -INFINITY, INFINITY, 0,
                            &step)))
        return rc;
    if (!(step > 0))
        return cfg__fail(c, ns, sub, "expected a step > 0, got %g", step);
    if (to < from) {
        cfg__path_key(sub, path, "to");
        return cfg__fail(c, nt, sub, "range end %g is below its start %g", to,
                         from);
    }
    /* the end is included when the steps land on it up to rounding */
    double steps = floor((to - from) / step + 1e-9);
    if (steps + 1 > CFG_RANGE_MAX_VALUES)
        return cfg__fail(c, node, path, "range gives more than %d values",
                         CFG_RANGE_MAX_VALUES);
    for (long i = 0; i <= (long)steps; i++) {
        double v = round12(from + (double)i * step);
        if (v > to)
            v = to;
        vals_push(out, v, node, index);
    }
    return 0;
}

static int list_shape(cfg_doc *c, yaml_node_t *node, const char *path)
{
    if (node->type == YAML_SEQUENCE_NODE && cfg__seq_len(node) == 0)
        return cfg__fail(c, node, path,
                         "empty list (give at least one value)");
    if (is_null_scalar(node))
        return cfg__fail(c, node, path,
                         "expected a value, a list or a range, got an empty "
                         "value");
    return 0;
}

/* Append the collected values to out and check them for duplicates. */
static int ints_finish(cfg_doc *c, vals *l, const char *path, cfg_ints *out)
{
    double *old = xmalloc((out->n ? out->n : 1) * sizeof *old);
    for (size_t i = 0; i < out->n; i++)
        old[i] = out->v[i];
    int rc = vals_unique(c, l, old, out->n, path, 1);
    free(old);
    if (!rc && l->n) {
        out->v = xrealloc(out->v, (out->n + l->n) * sizeof *out->v);
        for (size_t i = 0; i < l->n; i++)
            out->v[out->n++] = (int)l->v[i];
    }
    vals_fini(l);
    return rc;
}

static int reals_finish(cfg_doc *c, vals *l, const char *path, cfg_reals *out)
{
    int rc = vals_unique(c, l, out->v, out->n, path, 0);
    if (!rc && l->n) {
        out->v = xrealloc(out->v, (out->n + l->n) * sizeof *out->v);
        memcpy(out->v + out->n, l->v, l->n * sizeof *l->v);
        out->n += l->n;
    }
    vals_fini(l);
    return rc;
}

int cfg__get_ints(cfg_doc *c, yaml_node_t *node, const char *path, long lo,
                  long hi, cfg_ints *out)
{
    int rc = list_shape(c, node, path);
    if (rc)
        return rc;
    vals l = {0};
    if (node->type == YAML_MAPPING_NODE) {
        rc = int_range(c, node, path, lo, hi, &l, SIZE_MAX);
    } else if (node->type == YAML_SCALAR_NODE) {
        long v;
        if (!(rc = cfg__get_int(c, node, path, lo, hi, &v)))
            vals_push(&l, (double)v, node, SIZE_MAX);
    } else {
        char sub[ERR_PATH_MAX];
        size_t len = cfg__seq_len(node);
        for (size_t i = 0; i < len && !rc; i++) {
            yaml_node_t *item = cfg__seq_item(c, node, i);
            cfg__path_index(sub, path, i);
            long v;
            if (item->type == YAML_MAPPING_NODE)
                rc = int_range(c, item, sub, lo, hi, &l, i);
            else if (!(rc = cfg__get_int(c, item, sub, lo, hi, &v)))
                vals_push(&l, (double)v, item, i);
            if (!rc && l.n > CFG_LIST_MAX_VALUES)
                rc = cfg__fail(c, item, sub, "list gives more than %d values",
                               CFG_LIST_MAX_VALUES);
        }
    }
    if (rc) {
        vals_fini(&l);
        return rc;
    }
    return ints_finish(c, &l, path, out);
}

int cfg__get_reals(cfg_doc *c, yaml_node_t *node, const char *path,
                   const char *what, double lo, double hi, int lo_open,
                   cfg_reals *out)
{
    int rc = list_shape(c, node, path);
    if (rc)
        return rc;
    vals l = {0};
    if (node->type == YAML_MAPPING_NODE) {
        rc = real_range(c, node, path, what, lo, hi, lo_open, &l, SIZE_MAX);
    } else if (node->type == YAML_SCALAR_NODE) {
        double v;
        if (!(rc = cfg__get_real(c, node, path, what, lo, hi, lo_open, &v)))
            vals_push(&l, v, node, SIZE_MAX);
    } else {
        char sub[ERR_PATH_MAX];
        size_t len = cfg__seq_len(node);
        for (size_t i = 0; i < len && !rc; i++) {
            yaml_node_t *item = cfg__seq_item(c, node, i);
            cfg__path_index(sub, path, i);
            double v;
            if (item->type == YAML_MAPPING_NODE)
                rc = real_range(c, item, sub, what, lo, hi, lo_open, &l, i);
            else if (!(rc = cfg__get_real(c, item, sub, what, lo, hi, lo_open,
                                          &v)))
                vals_push(&l, v, item, i);
            if (!rc && l.n > CFG_LIST_MAX_VALUES)
                rc = cfg__fail(c, item, sub, "list gives more than %d values",
                               CFG_LIST_MAX_VALUES);
        }
    }
    if (rc) {
        vals_fini(&l);
        return rc;
    }
    return reals_finish(c, &l, path, out);
}

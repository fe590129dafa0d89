/*
 * cfg_int.h — private to dse/cfg*.c: the typed YAML reader the study schema
 * (cfg.c) is written with (cfg_yaml.c).
 *
 * The reader works on a libyaml document (the whole file loaded as a node
 * tree, so every node keeps its source position).  Each getter checks one
 * node against one expectation and, on failure, records ERR_CONFIG in the
 * document's err with the file, the node's 1-based line and column, the YAML
 * path the caller passes and a message saying what was expected and what
 * was found.  Getters return 0 or ERR_CONFIG and never print.
 *
 * Paths are built by the caller as it descends ("space", "space.vcs",
 * "space.vcs[2]"), in buffers of ERR_PATH_MAX bytes.
 */
#ifndef DSE_CFG_INT_H
#define DSE_CFG_INT_H

#include <stddef.h>
#include <yaml.h>

#include "dse/study/cfg.h"

typedef struct cfg_doc {
    yaml_document_t doc;
    int loaded;              /* doc must be deleted */
    const char *file;        /* for error locations */
    err *e;
} cfg_doc;

/* Upper bound meaning "no upper bound" in messages ("expected ... >= 1"). */
#define CFG_NO_MAX 0x7fffffffffffffffL
/* Values one range may expand to. */
#define CFG_RANGE_MAX_VALUES 100000
/* Values one whole list (items and ranges together) may give. */
#define CFG_LIST_MAX_VALUES 100000
/* Bytes of study text (1 MiB; shipped studies are about 2 KiB). */
#define CFG_TEXT_MAX (1024 * 1024)
/* Nesting of lists and mappings a study may have (the schema needs 3). */
#define CFG_MAX_DEPTH 64

/* Parse text (len bytes) into c.  0 and *root set (NULL for an empty
 * document), or ERR_CONFIG for a syntax error or a stream of several
 * documents.  Call cfg__doc_fini in every case. */
int cfg__doc_load(cfg_doc *c, const char *text, size_t len, const char *file,
                  err *e, yaml_node_t **root);
void cfg__doc_fini(cfg_doc *c);

/* Record ERR_CONFIG at node `at` (NULL: line 1, column 1) with path; returns
 * ERR_CONFIG. */
int cfg__fail(cfg_doc *c, const yaml_node_t *at, const char *path,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "parent.key" (or "key" when parent is empty) and "parent[i]". */
void cfg__path_key(char *out, const char *parent, const char *key);
void cfg__path_index(char *out, const char *parent, size_t index);

/* The closest name to word (optimal string alignment distance, small enough
 * to be a typo), or NULL. */
const char *cfg__suggest(const char *word, const char *const *names,
                         size_t count);

/* "a mapping", "a list", "an empty value", "\"text\"", ... for messages. */
const char *cfg__describe(const yaml_node_t *node, char *buf, size_t size);

/* Check that `node` is a mapping whose keys are distinct scalars from
 * keys[] (NULL-terminated).  path is the mapping's own path. */
int cfg__map_check(cfg_doc *c, yaml_node_t *node, const char *path,
                   const char *const *keys);
/* The value (or key node) of `key` in a checked mapping, or NULL. */
yaml_node_t *cfg__map_get(cfg_doc *c, yaml_node_t *map, const char *key);
yaml_node_t *cfg__map_key(cfg_doc *c, yaml_node_t *map, const char *key);
/* Items of a sequence node (count in *n). */
yaml_node_t *cfg__seq_item(cfg_doc *c, yaml_node_t *seq, size_t i);
size_t cfg__seq_len(const yaml_node_t *seq);

/* Plain scalar text of a scalar node (NUL-terminated by libyaml). */
const char *cfg__text(const yaml_node_t *node);

/* Integer in [lo, hi] (integral floats such as 1e6 accepted). */
int cfg__get_int(cfg_doc *c, yaml_node_t *node, const char *path, long lo,
                 long hi, long *out);
/* Finite number in [lo, hi], or (lo, hi] when lo_open; `what` names it in
 * messages ("a number", "a rate"). */
int cfg__get_real(cfg_doc *c, yaml_node_t *node, const char *path,
                  const char *what, double lo, double hi, int lo_open,
                  double *out);
int cfg__get_bool(cfg_doc *c, yaml_node_t *node, const char *path, int *out);
/* Any scalar (quoted or not) of at most size-1 bytes, not empty. */
int cfg__get_string(cfg_doc *c, yaml_node_t *node, const char *path,
                    char *out, size_t size);
/* One of names[0..count-1]; `what` ("topology") for messages. */
int cfg__get_name(cfg_doc *c, yaml_node_t *node, const char *path,
                  const char *what, const char *const *names, size_t count,
                  int *index);

/* A list of integers in [lo, hi]: a single value, a sequence whose items
 * are values or ranges, or one range {from, to, step} (step defaults to 1).
 * Values must be distinct.  out is appended to (the caller frees v). */
int cfg__get_ints(cfg_doc *c, yaml_node_t *node, const char *path, long lo,
                  long hi, cfg_ints *out);
/* The same for numbers in (lo, hi] or [lo, hi]; a range needs a step. */
int cfg__get_reals(cfg_doc *c, yaml_node_t *node, const char *path,
                   const char *what, double lo, double hi, int lo_open,
                   cfg_reals *out);

#endif

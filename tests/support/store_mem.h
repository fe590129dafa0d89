/*
 * store_mem.h — an in-memory dse_store (dse/farm/store.h) for tests: the
 * subset of Redis the farm relies on, failures on demand and a clock the
 * test moves.  Test support only: the shipped binary never links it.
 *
 *   dse_mem_db *db = dse_mem_db_create();
 *   dse_store_spec spec = {.open = dse_mem_store_open, .open_ctx = db};
 */
#ifndef DSE_TESTS_STORE_MEM_H
#define DSE_TESTS_STORE_MEM_H

#include "dse/farm/store.h"

typedef struct dse_mem_db dse_mem_db;
dse_mem_db *dse_mem_db_create(void);
void dse_mem_db_destroy(dse_mem_db *db);      /* accepts NULL */
/* A dse_store_spec.open: a handle on the dse_mem_db passed as ctx. */
void dse_mem_store_open(void *db, dse_store *out);
/* 1: every operation fails with ERR_REDIS, as if the server were down. */
void dse_mem_db_set_down(dse_mem_db *db, int down);
/* Lose every key, as a server restarted without persistence would. */
void dse_mem_db_flush(dse_mem_db *db);
/* Move the store's clock forward (idle times, heartbeats, expiry). */
void dse_mem_db_advance_ms(dse_mem_db *db, long long ms);

#endif

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// sqlite3_config is variadic. Turning memory statistics off removes a global mutex from
/// every allocation (measured +35-100% read throughput on this machine).
static inline int csqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

/// sqlite3_db_config is variadic: turn on defensive mode (no writable_schema tricks).
static inline int csqlite_enable_defensive(sqlite3 *db) { return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0); }

#endif

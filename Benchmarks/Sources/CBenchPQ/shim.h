#ifndef CBENCHPQ_SHIM_H
#define CBENCHPQ_SHIM_H

/// libpq for the benchmark's own peer (naive full-text search in PostgreSQL): the benchmark
/// talks to the database directly, beside the engine, as the SQLite peer does.
#include <libpq-fe.h>

#endif

#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

#include <libpq-fe.h>

/// The PG_DIAG_* field codes are character macros from postgres_ext.h, which Swift does not
/// import: one accessor per field the engine reads.
static inline const char *clibpq_result_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

static inline const char *clibpq_result_primary_message(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
}

static inline const char *clibpq_result_detail(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_DETAIL);
}

/// libpq prints the server's notices (NOTICE, WARNING) on standard error by default; the engine
/// has nothing to show from them.
static void clibpq_ignore_notice(void *context, const PGresult *result) {
    (void)context;
    (void)result;
}

static inline void clibpq_silence_notices(PGconn *connection) {
    PQsetNoticeReceiver(connection, clibpq_ignore_notice, (void *)0);
}

#endif

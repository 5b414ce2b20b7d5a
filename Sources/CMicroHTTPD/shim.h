#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic, which Swift cannot call: options go in as one
/// MHD_OPTION_ARRAY (terminated by an MHD_OPTION_END item).
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, uint16_t port,
                                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                                   struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (the chosen one when started with port 0), or 0.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon holds now.
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}


/// The client's socket address, or NULL.
static inline const struct sockaddr *cmhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Leaves escapes in the path and query alone: the server decodes them itself after splitting
/// the path into segments, so `%2F` can never turn into a path separator.
static size_t cmhd_unescape_none(void *context, struct MHD_Connection *connection, char *text) {
    (void) context; (void) connection;
    return strlen(text);
}

/// Options taking a function pointer carry it cast to intptr_t, which Swift cannot express.
static inline struct MHD_OptionItem cmhd_option_unescape_none(void) {
    struct MHD_OptionItem item = { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) &cmhd_unescape_none, NULL };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_notify_completed(MHD_RequestCompletedCallback callback, void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callback, context };
    return item;
}

/// Called once a request line is in, before libmicrohttpd changes it: the target as sent (up to
/// a NUL, if it holds one). What it returns becomes the request's context.
typedef void *(*cmhd_uri_log_callback)(void *context, const char *uri, struct MHD_Connection *connection);

static inline struct MHD_OptionItem cmhd_option_uri_log(cmhd_uri_log_callback callback, void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) callback, context };
    return item;
}

static inline struct MHD_OptionItem cmhd_option_notify_connection(MHD_NotifyConnectionCallback callback,
                                                                  void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) callback, context };
    return item;
}

/// The connection's socket, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The daemon (in a thread pool: the worker) that owns the connection, or NULL.
static inline struct MHD_Daemon *cmhd_connection_daemon(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info == NULL ? NULL : info->daemon;
}

/// What the connection-notify callback stored for the connection, or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Bytes of the request line and headers (with the empty line), once they are in; else 0.
static inline size_t cmhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// MHD's own diagnostics (refused connections, malformed requests) to standard error, but for
/// a connection its client (or the server, closing an idle or late one) ended: that is routine,
/// and slow clients would otherwise fill the log with it. Nor when a content reader ended a body
/// on purpose (an event stream whose client left or fell behind; a streamed body that failed,
/// which the server logs itself with the reason).
static void cmhd_log_to_stderr(void *context, const char *format, va_list arguments) {
    (void) context;
    char line[1024];
    vsnprintf(line, sizeof line, format, arguments);
    if (strstr(line, "detected connection closure") != NULL) return;
    if (strstr(line, "application error generating response") != NULL) return;
    fputs("http: ", stderr);
    fputs(line, stderr);
}

static inline struct MHD_OptionItem cmhd_option_logger(void) {
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) &cmhd_log_to_stderr, NULL };
    return item;
}

/// Ends both directions of a socket (`shutdown(2)` with `SHUT_RDWR`, which Swift's Glibc module
/// does not always carry over).
static inline int cmhd_shutdown(int socket) {
    return shutdown(socket, SHUT_RDWR);
}

#endif

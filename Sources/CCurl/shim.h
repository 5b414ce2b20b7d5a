#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, so Swift cannot call them: one typed
// wrapper per argument type.

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_url(CURL *handle, CURLU *url) {
    return curl_easy_setopt(handle, CURLOPT_CURLU, url);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share the callback type.
static inline CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode ccurl_setopt_opensocket_function(CURL *handle, curl_opensocket_callback function) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, function);
}

/// Requests and redirects over http and https only, whatever else this libcurl speaks.
static inline CURLcode ccurl_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The address libcurl is about to connect to: `addrlen` bytes, a sockaddr_in or sockaddr_in6
/// (the struct's `addr` member is declared as a plain 16-byte sockaddr).
static inline const struct sockaddr *ccurl_socket_address(const struct curl_sockaddr *address) {
    return &address->addr;
}

/// curl_global_init with CURL_GLOBAL_DEFAULT (a macro).
static inline CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/// Whether a curl_multi_info_read message says a transfer is done, and its result (a union
/// member Swift cannot reach).
static inline int ccurl_message_done(const CURLMsg *message, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *result = message->data.result;
    return 1;
}

/// CURL_SOCKET_BAD is a macro.
static inline curl_socket_t ccurl_socket_bad(void) { return CURL_SOCKET_BAD; }

#endif

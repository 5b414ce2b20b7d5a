#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 is a macro (it passes the library version and the stream size): wrap it.
/// windowBits 15 + 16 asks for a gzip header and trailer instead of zlib's.
static inline int czlib_gzip_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// inflateInit2 is a macro too. windowBits 15 + 32 reads a zlib or a gzip stream (it detects
/// which from the header), -15 raw deflate without either.
static inline int czlib_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/// deflateInit2 with any windowBits: 15 zlib, 15 + 16 gzip, -15 raw deflate (tests and fuzzers
/// make compressed bodies with it).
static inline int czlib_deflate_init(z_stream *stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif

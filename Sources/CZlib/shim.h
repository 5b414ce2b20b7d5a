#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 is a macro (it passes the library version and the stream size): wrap it.
/// windowBits 15 + 16 asks for a gzip header and trailer instead of zlib's.
static inline int czlib_gzip_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif

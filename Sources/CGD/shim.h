#ifndef CGD_SHIM_H
#define CGD_SHIM_H

#include <gd.h>
#include <stdarg.h>

/// gdImageSX and gdImageSY are macros over the image struct.
static inline int cgd_width(gdImagePtr image) { return gdImageSX(image); }
static inline int cgd_height(gdImagePtr image) { return gdImageSY(image); }

static inline void cgd_ignore_error(int priority, const char *format, va_list arguments) {
    (void)priority;
    (void)format;
    (void)arguments;
}

/// Keeps libgd's messages about damaged files off standard error: a hostile upload is answered
/// with an error of its own, not a line in the server's log per bad file.
static inline void cgd_silence_errors(void) { gdSetErrorMethod(cgd_ignore_error); }

#endif

#ifndef CGD_SHIM_H
#define CGD_SHIM_H

#include <gd.h>

/// gdImageSX and gdImageSY are macros over the image struct.
static inline int cgd_width(gdImagePtr image) { return gdImageSX(image); }
static inline int cgd_height(gdImagePtr image) { return gdImageSY(image); }

#endif

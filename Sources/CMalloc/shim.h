// glibc's allocator controls (malloc_trim, mallopt), which Swift's Glibc module leaves out.
// Elsewhere the header is empty and the server does without them (HeapTrimmer checks for Glibc).
#if defined(__linux__)
#include <malloc.h>
#endif

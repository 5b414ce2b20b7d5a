// glibc's allocator calls (malloc_trim, mallinfo2), which Swift's Glibc module leaves out.
// Elsewhere the header is empty and the server does without them (HeapTrimmer checks for Glibc).
#if defined(__linux__)
#include <malloc.h>
#endif

#if canImport(CMalloc)
    import CMalloc
#endif

/// How a command that builds an index uses the C heap.
///
/// glibc serves a block of 128 KB or more from a mapping of its own, returned to the system when
/// it is freed, but raises that threshold to the size of each such block freed, up to 32 MB: an
/// import frees many (a batch's records, a chunk's postings), after which its arrays of
/// megabytes stay in the heap once freed and the next phase's arrays come on top. A
/// 1,000,000-record import peaked at 333-369 MB that way, and at 279-313 MB with the threshold
/// kept where it starts, in the same time. A server keeps glibc's default: its requests reuse
/// their large blocks, and its heap is trimmed as it goes (`HeapTrimmer`).
enum HeapPolicy {
    /// Keeps glibc's mapping threshold at its starting 128 KB for the rest of the process.
    static func returnLargeBlocksAtOnce() {
        #if canImport(Glibc) && canImport(CMalloc)
            _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        #endif
    }
}

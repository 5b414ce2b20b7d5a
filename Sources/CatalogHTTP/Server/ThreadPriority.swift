#if canImport(Glibc)
    import Glibc
#endif

/// The priority of the calling thread: the lanes that must not slow ordinary requests (imports,
/// clients over their CPU budget, background jobs) run their threads some nice steps down.
public enum ThreadPriority {
    /// Lowers the calling thread's priority by `niceness` steps (at most to 19). On Linux,
    /// `PRIO_PROCESS` with 0 names the calling thread. `getpriority` may rightly answer -1, so
    /// only a set `errno` tells a failure, which leaves the priority as it is.
    public static func lower(by niceness: Int32) {
        #if os(Linux)
            errno = 0
            let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            guard errno == 0 else { return }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + niceness))
        #endif
    }
}

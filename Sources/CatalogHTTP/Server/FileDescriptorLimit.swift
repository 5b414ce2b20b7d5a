import Foundation

/// The process's limit on open files, raised so the configured connections fit.
///
/// Each connection is a descriptor, and the process needs more for its databases, images and
/// logs. At start the soft limit is raised as far as needed (up to the hard limit); when even the
/// hard limit is too low, the connection limit is lowered to fit and the reason logged.
enum FileDescriptorLimit {
    /// Descriptors kept for everything but connections.
    static let reserve = 256

    /// Raises the soft limit for `connections` connections and returns how many connections fit.
    static func connectionLimit(_ connections: Int, log: (String) -> Void) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + reserve)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let current = limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
        let fitting = current - reserve
        guard fitting < connections else { return connections }
        let lowered = max(1, fitting)
        log(
            "http: the process may open \(limit.rlim_cur) files (hard limit \(limit.rlim_max)); "
                + "serving at most \(lowered) connections instead of \(connections)")
        return lowered
    }
}

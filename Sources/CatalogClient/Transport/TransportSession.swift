import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// A session of the client's own, made with a copy of `configuration` (the caller's is never
    /// changed) and delivering its events to `delegate`.
    ///
    /// On Linux the copy has no `URLCache`: swift-corelibs-foundation looks a request up in the
    /// cache on a queue of its own before the request's protocol exists, and a task cancelled in
    /// that window (as-you-type search cancels the previous query all the time) fails on a task
    /// the session no longer knows, which traps the process. The client keeps answers itself
    /// (``ResponseStore``, revalidated with `If-None-Match`), so nothing is lost without it.
    static func transport(
        configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        adjust: (URLSessionConfiguration) -> Void = { _ in }
    ) -> URLSession {
        let copy = configuration.copy() as? URLSessionConfiguration ?? .default
        #if canImport(FoundationNetworking)
            copy.urlCache = nil
            copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        #endif
        adjust(copy)
        return URLSession(configuration: copy, delegate: delegate, delegateQueue: nil)
    }
}

/// How many event streams are open, in total and per client address, as a value: the caps of
/// ``ServerConfiguration/maxEventStreams`` and ``ServerConfiguration/maxEventStreamsPerClient``,
/// tested without sockets.
struct EventStreamTable: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// The stream is counted.
        case admitted
        /// As many streams are open as the server takes: 503.
        case overTotal
        /// As many streams are open from this address as one client may have: 429.
        case overClient
    }

    /// Streams open at once, in total.
    let maxTotal: Int
    /// Streams open at once from one address.
    let maxPerClient: Int
    /// Streams open now.
    private(set) var total = 0
    private var perClient: [String: Int] = [:]

    /// - Parameters:
    ///   - maxTotal: the configured total.
    ///   - maxPerClient: the configured cap per address.
    ///   - connectionLimit: the server's connection limit in effect: streams get at most three
    ///     quarters of it, so that ordinary requests always find a connection.
    init(maxTotal: Int, maxPerClient: Int, connectionLimit: Int) {
        self.maxTotal = max(0, min(maxTotal, connectionLimit - connectionLimit / 4))
        self.maxPerClient = max(0, maxPerClient)
    }

    /// Streams open now from `client`.
    func count(_ client: String) -> Int { perClient[client, default: 0] }

    /// Counts a stream from `client` unless a cap is reached (the total first).
    mutating func admit(_ client: String) -> Verdict {
        guard total < maxTotal else { return .overTotal }
        guard count(client) < maxPerClient else { return .overClient }
        total += 1
        perClient[client, default: 0] += 1
        return .admitted
    }

    /// A stream from `client` closed.
    mutating func release(_ client: String) {
        guard let count = perClient[client] else { return }
        total -= 1
        perClient[client] = count > 1 ? count - 1 : nil
    }
}

import Foundation

extension Request {
    /// The `Last-Event-ID` header: the `id:` of the last event a reconnecting Server-Sent Events
    /// client received, where its stream resumes. Nil when absent.
    ///
    /// ```swift
    /// let since = request.lastEventID.flatMap { Int($0) } ?? request.query("since").flatMap { Int($0) } ?? 0
    /// ```
    public var lastEventID: String? { headers["Last-Event-ID"] }

    /// Whether the `Accept` header names `text/event-stream` (and not with `q=0`): what an
    /// `EventSource` sends, so a route that answers both ways streams to it and answers others
    /// with a document. `*/*` does not count.
    public var acceptsEventStream: Bool {
        headers.values("Accept").contains { header in
            header.split(separator: ",").contains { item in
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard parts.first == "text/event-stream" else { return false }
                return !parts.dropFirst().contains { parameter in
                    let pair = parameter.replacingOccurrences(of: " ", with: "")
                    guard pair.hasPrefix("q="), let quality = Double(pair.dropFirst(2)) else { return false }
                    return quality <= 0
                }
            }
        }
    }
}

import CatalogClient
import CatalogTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A reader of a catalog's event stream (`GET …/changes` with `Accept: text/event-stream`) on a
/// thread of its own, as a browser's `EventSource` reads it: every `change` event decoded, and a
/// dropped stream opened again with `Last-Event-ID`, the number of the last change it got.
final class EventStreamReader: Sendable {
    private struct State {
        var changes: [CatalogChange] = []
        var reconnects = 0
        var problems: [String] = []
        var stopping = false
        var socket: Int32?
    }

    private let state = Mutex(State())
    private let finished = Gate()

    /// Starts reading `catalog`'s stream on `port` after change `since`.
    init(port: Int, catalog: String, since: Int) {
        Thread.detachNewThread { [self] in
            read(port: port, path: "/api/v1/catalogs/\(catalog)/changes?since=\(since)", last: since)
            finished.open()
        }
    }

    /// The changes so far, in the order they came.
    var changes: [CatalogChange] { state.withLock { $0.changes } }
    /// How often the stream was opened again.
    var reconnects: Int { state.withLock { $0.reconnects } }
    /// Events that were not changes, bad data, failed reconnects.
    var problems: [String] { state.withLock { $0.problems } }

    /// Ends the stream (the connection is shut down under the reading thread) and waits for it.
    func stop() {
        // Under the lock: the reading thread closes its socket only after it took it out of the state.
        state.withLock { state in
            state.stopping = true
            if let socket = state.socket { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        finished.wait()
    }

    private func read(port: Int, path: String, last since: Int) {
        var last = since
        while true {
            guard let stream = try? EventStreamClient(port: port, path: path, headers: [("Last-Event-ID", "\(last)")])
            else {
                state.withLock { $0.problems.append("the stream could not be opened again after \(last)") }
                return
            }
            let stop = state.withLock { state -> Bool in
                state.socket = stream.socket
                return state.stopping
            }
            if stop { return }
            guard stream.readHead(), stream.status == 200 else {
                state.withLock { $0.problems.append("the stream answered \(stream.status)") }
                return
            }
            reading: while true {
                switch stream.next() {
                case .event(let id, let event, let data):
                    guard event == "change",
                        let change = try? JSONDecoder().decode(CatalogChange.self, from: Data(data.utf8)),
                        id == String(change.number)
                    else {
                        state.withLock {
                            $0.problems.append("event \(event ?? "-") id \(id ?? "-"): \(data.prefix(200))")
                        }
                        continue
                    }
                    last = change.number
                    state.withLock { $0.changes.append(change) }
                case .comment:
                    continue
                case .end, .closed, .timedOut:
                    break reading
                }
            }
            let stopping = state.withLock { state -> Bool in
                state.socket = nil
                if !state.stopping { state.reconnects += 1 }
                return state.stopping
            }
            stream.close()
            if stopping { return }
        }
    }
}

import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// Streams catalogs' changes to the clients that follow them (`GET …/changes` with
/// `Accept: text/event-stream`): each event is one change, `id:` its number, so a client that
/// reconnects with `Last-Event-ID` continues right after the last one it got.
///
/// One thread serves every stream of the process: it wakes at once after a change written through
/// this server (``notify()``) and at least every ``checkInterval`` otherwise, so changes that
/// other servers (or `catalog put`) wrote to the same database reach the streams within that
/// interval. It reads each followed catalog's change number and, when it grew, the log after the
/// oldest position of its streams, once for all of them. No stream holds a worker: the streams are
/// CatalogHTTP's ``EventStream``s, suspended while quiet.
///
/// Events:
/// - `event: change`, `data:` a change as the JSON feed writes it (``ChangePage``), an upsert with
///   its record's `cursor`;
/// - `event: reload`, `data: {"change":N}` when the log cannot bring the client up to date (it
///   reads the catalog again, then follows from N);
/// - `event: deleted` when the catalog went away; the stream ends.
final class ChangeFeed: Sendable {
    /// How often the thread looks for changes other processes made.
    static let checkInterval: TimeInterval = 0.25
    /// The most changes one read of the log takes.
    static let pageSize = 500

    private let stores: any CatalogDatabase
    /// Collators for the upserts' cursors.
    private let collations = CollationCache()
    private let state = Mutex<State>(State())
    private let wake = NSCondition()

    private struct Follower {
        let stream: EventStream
        var position: Int
        /// The record filter of the key that follows (``RecordFilter/seen(_:)``), nil for none.
        let filter: RecordFilter?
    }

    private struct State {
        var followers: [String: [ObjectIdentifier: Follower]] = [:]
        var running = false
        var stopped = false
        var pending = false
    }

    init(stores: any CatalogDatabase) {
        self.stores = stores
    }

    /// How many streams follow catalogs now.
    var followerCount: Int { state.withLock { $0.followers.values.reduce(0) { $0 + $1.count } } }

    /// Starts following `catalog` on `stream` after change `since`, with `filter` (an API key's)
    /// the changes of the records it passes only.
    func follow(_ catalog: String, since: Int, filter: RecordFilter? = nil, on stream: EventStream) {
        let key = ObjectIdentifier(stream)
        let start = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.followers[catalog, default: [:]][key] = Follower(stream: stream, position: since, filter: filter)
            state.pending = true
            defer { state.running = true }
            return !state.running
        }
        stream.onClose { [weak self] _ in
            self?.state.withLock { state in
                state.followers[catalog]?[key] = nil
                if state.followers[catalog]?.isEmpty == true { state.followers[catalog] = nil }
            }
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "catalog-changes"
            thread.start()
        }
        notify()
    }

    /// Says that a change was written through this server: the streams get it now.
    func notify() {
        wake.lock()
        state.withLock { $0.pending = true }
        wake.signal()
        wake.unlock()
    }

    /// Ends every stream and the thread.
    func stop() {
        let streams = state.withLock { state -> [EventStream] in
            state.stopped = true
            defer { state.followers = [:] }
            return state.followers.values.flatMap { $0.values.map(\.stream) }
        }
        for stream in streams { stream.finish() }
        notify()
    }

    private func run() {
        // The database's read epoch when every stream last had all there was: while it stays the
        // same and nothing new asks for delivery, a turn reads nothing.
        var delivered: Int?
        while true {
            wake.lock()
            var pending = state.withLock { state -> Bool in
                defer { state.pending = false }
                return state.pending
            }
            if !pending {
                _ = wake.wait(until: Date(timeIntervalSinceNow: Self.checkInterval))
                pending = state.withLock { state -> Bool in
                    defer { state.pending = false }
                    return state.pending
                }
            }
            wake.unlock()
            let (catalogs, stopped) = state.withLock { state in
                (state.followers.mapValues { $0.mapValues(\.position) }, state.stopped)
            }
            if stopped { return }
            if catalogs.isEmpty {
                // Parked until a stream follows something again.
                let idle = state.withLock { state -> Bool in
                    if state.followers.isEmpty && !state.pending {
                        state.running = false
                        return true
                    }
                    return false
                }
                if idle { return }
                continue
            }
            let epoch = try? stores.readEpoch()
            if !pending, let epoch, epoch == delivered { continue }
            var complete = true
            for (catalog, positions) in catalogs where !deliver(catalog, positions) { complete = false }
            // A catalog that could not be read is tried again next turn, whatever the epoch.
            delivered = complete ? epoch : nil
        }
    }

    /// Sends each stream of `catalog` what it has not had yet; false when the catalog could not
    /// be read.
    private func deliver(_ catalog: String, _ positions: [ObjectIdentifier: Int]) -> Bool {
        guard let oldest = positions.values.min() else { return true }
        let read: (current: Int?, page: ChangePage?, catalog: StoredCatalog?)
        do {
            read = try stores.read { reader in
                guard let stored = try reader.catalog(catalog) else { return (nil, nil, nil) }
                guard stored.change > oldest || positions.values.contains(where: { $0 > stored.change }) else {
                    return (stored.change, nil, stored)
                }
                let page = try ChangePage.read(
                    stored, since: min(oldest, stored.change), limit: Self.pageSize, reader: reader)
                return (stored.change, page, stored)
            }
        } catch {
            return false
        }
        let followers = state.withLock { $0.followers[catalog] ?? [:] }
        guard let current = read.current else {
            for follower in followers.values {
                follower.stream.send(event: "deleted", data: "{}")
                follower.stream.finish()
            }
            return true
        }
        guard let stored = read.catalog, let page = read.page?.placed(using: collations, for: stored) else {
            return true
        }
        var moved: [ObjectIdentifier: Int] = [:]
        for (key, follower) in followers {
            var position = follower.position
            if position > current || (page.reload && page.changes.isEmpty) {
                follower.stream.send(id: String(current), event: "reload", data: "{\"change\":\(current)}")
                position = current
            } else {
                for change in page.changes where change.number > position {
                    // A change the follower's filter leaves out still moves its position.
                    position = change.number
                    let seen: StoredChange? = if let filter = follower.filter { filter.seen(change) } else { change }
                    guard let seen else { continue }
                    let cursor = seen.kind == .upsert ? page.cursors[seen.number] : nil
                    var output = JSONOutput()
                    ChangePage.write(seen, withPrevious: false, cursor: cursor, to: &output)
                    follower.stream.send(
                        id: String(seen.number), event: seen.kind == .reload ? "reload" : "change",
                        data: String(decoding: output.bytes, as: UTF8.self))
                }
            }
            moved[key] = position
        }
        state.withLock { state in
            for (key, position) in moved where state.followers[catalog]?[key] != nil {
                state.followers[catalog]?[key]?.position = position
            }
            // A long backlog is sent a page per turn.
            if page.next != nil { state.pending = true }
        }
        return true
    }
}

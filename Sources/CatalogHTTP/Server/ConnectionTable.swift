/// The open connections as a value: which ones wait for a request and since when, so the server
/// can close those whose request head takes too long, and make room by closing idle or slow ones
/// before a worker reaches its share of the connection limit. Each event returns the sockets to
/// close; the table never does I/O, so its rules are tested without sockets.
///
/// A connection *waits* from the moment it opens, and again from the moment an answer is done,
/// until its next request's line and headers are in: an idle keep-alive connection and one that
/// trickles a header a byte at a time both wait. A connection with a request being answered does
/// not, and is never closed here.
struct ConnectionTable {
    struct Entry: Equatable {
        /// The connection's socket.
        var socket: Int32
        /// The worker (event loop) that owns it.
        var worker: Int
        /// Since when it waits for a request head; nil while a request is answered.
        var waitingSince: ContinuousClock.Instant?
        /// True once it has been picked for closing (libmicrohttpd closes it a moment later).
        var closing = false
    }

    /// Connections one worker may hold before it closes waiting ones to make room; libmicrohttpd
    /// refuses new connections at ``workerLimit``.
    let highWater: Int
    /// One worker's share of the connection limit.
    let workerLimit: Int
    /// How long a request head may take.
    let headerTimeout: Duration

    private(set) var entries: [Int: Entry] = [:]
    private var open: [Int: Int] = [:]
    private var nextID = 1

    /// - Parameters:
    ///   - connectionLimit: connections in total.
    ///   - workers: worker threads; libmicrohttpd gives each an equal share of the limit.
    ///   - headerTimeout: how long a request head may take.
    init(connectionLimit: Int, workers: Int, headerTimeout: Duration) {
        workerLimit = max(1, connectionLimit / max(1, workers))
        // Keep a reserve of 1/16 (at least one slot) so a new client always finds room.
        highWater = max(0, workerLimit - max(1, workerLimit / 16))
        self.headerTimeout = headerTimeout
    }

    /// Connections open and not being closed, on `worker`.
    func openCount(worker: Int) -> Int { open[worker, default: 0] }

    /// Connections open and not being closed, on every worker.
    var openCount: Int { open.values.reduce(0, +) }

    /// Connections opened since the table was made, closed ones included.
    var openedCount: Int { nextID - 1 }

    /// Connections with a request being answered (its head is in).
    var busyCount: Int { entries.values.count { !$0.closing && $0.waitingSince == nil } }

    /// A connection opened: it waits for its first request. Returns its id and the sockets of
    /// waiting connections to close (oldest first) when the worker is above its high-water mark.
    mutating func opened(socket: Int32, worker: Int, at now: ContinuousClock.Instant) -> (id: Int, close: [Int32]) {
        let id = nextID
        nextID += 1
        entries[id] = Entry(socket: socket, worker: worker, waitingSince: now)
        open[worker, default: 0] += 1
        var close: [Int32] = []
        while open[worker, default: 0] > highWater, let victim = oldestWaiting(worker: worker, except: id) {
            close.append(markClosing(victim))
        }
        return (id, close)
    }

    /// A request's head is in: the connection no longer waits.
    mutating func requestStarted(_ id: Int) {
        entries[id]?.waitingSince = nil
    }

    /// A request was answered: the connection waits for the next one.
    mutating func requestFinished(_ id: Int, at now: ContinuousClock.Instant) {
        guard entries[id] != nil else { return }
        entries[id]?.waitingSince = now
    }

    /// The connection closed (whatever the reason).
    mutating func closed(_ id: Int) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if !entry.closing { open[entry.worker, default: 0] -= 1 }
    }

    /// Sockets of connections that have waited longer than ``headerTimeout``, now picked for
    /// closing.
    mutating func expired(at now: ContinuousClock.Instant) -> [Int32] {
        let late = entries.filter { _, entry in
            !entry.closing && entry.waitingSince.map { now - $0 >= headerTimeout } == true
        }
        return late.keys.sorted().map { markClosing($0) }
    }

    private func oldestWaiting(worker: Int, except: Int) -> Int? {
        var best: (id: Int, since: ContinuousClock.Instant)?
        for (id, entry) in entries where id != except && entry.worker == worker && !entry.closing {
            guard let since = entry.waitingSince else { continue }
            if best == nil || since < best!.since || (since == best!.since && id < best!.id) { best = (id, since) }
        }
        return best?.id
    }

    private mutating func markClosing(_ id: Int) -> Int32 {
        entries[id]!.closing = true
        open[entries[id]!.worker, default: 0] -= 1
        return entries[id]!.socket
    }
}

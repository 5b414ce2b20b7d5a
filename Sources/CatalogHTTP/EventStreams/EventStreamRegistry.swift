import Foundation
import Synchronization

/// The server's open event streams: admits each against the caps (``EventStreamTable``), and runs
/// the one thread all streams share (`catalog-http-events`). That thread sends the heartbeats
/// (every ``ServerConfiguration/heartbeatInterval``, to streams that sent nothing meanwhile),
/// notices (every second) clients that closed a suspended connection, and runs the streams' close handlers, so
/// those never run on a libmicrohttpd worker or inside a producer's `send`.
///
/// The thread starts with the first stream and sleeps while there is none; it ends in ``join()``
/// once the daemon stopped, after the last close handler ran.
final class EventStreamRegistry: Sendable {
    /// What ``admit(_:client:)`` decided.
    enum Admission: Sendable, Equatable {
        case admitted
        /// The total cap is reached: 503.
        case overTotal
        /// The client's cap is reached: 429.
        case overClient
        /// The server is stopping: 503.
        case stopping
    }

    private enum ThreadState: Sendable, Equatable {
        case notStarted, running, ending, ended
    }

    private struct Entry: Sendable {
        let stream: EventStream
        let client: String
    }

    private struct State: Sendable {
        var table: EventStreamTable
        var streams: [ObjectIdentifier: Entry] = [:]
        var jobs: [@Sendable () -> Void] = []
        var stopped = false
        var thread = ThreadState.notStarted
    }

    /// How often quiet streams get a heartbeat.
    let heartbeatInterval: Duration
    /// Calls of the streams' content reader, suspensions of their connections, heartbeat ticks
    /// (for tests: a quiet stream costs no calls).
    let readerCalls = Atomic<Int>(0)
    let suspensions = Atomic<Int>(0)
    let ticks = Atomic<Int>(0)

    private let state: Mutex<State>
    private let wakeUp = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(maxTotal: Int, maxPerClient: Int, connectionLimit: Int, heartbeatInterval: Duration) {
        let table = EventStreamTable(maxTotal: maxTotal, maxPerClient: maxPerClient, connectionLimit: connectionLimit)
        state = Mutex(State(table: table))
        self.heartbeatInterval = max(.milliseconds(1), heartbeatInterval)
    }

    /// Streams admitted and not yet released.
    var openCount: Int { state.withLock { $0.table.total } }

    /// The total cap in effect (the configured one, at most three quarters of the connection limit).
    var maxTotal: Int { state.withLock { $0.table.maxTotal } }

    /// Counts `stream` from `client` unless a cap is reached or the server stops.
    func admit(_ stream: EventStream, client: String) -> Admission {
        let (admission, start, wake) = state.withLock { state -> (Admission, Bool, Bool) in
            guard !state.stopped else { return (.stopping, false, false) }
            switch state.table.admit(client) {
            case .overTotal: return (.overTotal, false, false)
            case .overClient: return (.overClient, false, false)
            case .admitted:
                let wasEmpty = state.streams.isEmpty
                state.streams[ObjectIdentifier(stream)] = Entry(stream: stream, client: client)
                return (.admitted, Self.claimStart(&state), wasEmpty)
            }
        }
        if start {
            startThread()
        } else if wake {
            // The thread sleeps without a deadline while there is no stream: start the heartbeats.
            wakeUp.signal()
        }
        return admission
    }

    /// `stream` is done with its connection: it no longer counts.
    func release(_ stream: EventStream) {
        state.withLock { state in
            guard let entry = state.streams.removeValue(forKey: ObjectIdentifier(stream)) else { return }
            state.table.release(entry.client)
        }
    }

    /// Runs `job` on the event-stream thread (at once on this one after ``join()``).
    func schedule(_ job: @escaping @Sendable () -> Void) {
        let (queued, start) = state.withLock { state -> (Bool, Bool) in
            let start = Self.claimStart(&state)
            guard state.thread == .running || state.thread == .ending else { return (false, false) }
            state.jobs.append(job)
            return (true, start)
        }
        guard queued else {
            job()
            return
        }
        if start { startThread() }
        wakeUp.signal()
    }

    /// The server stops: refuses new streams and ends every open one cleanly.
    func stop() {
        let streams = state.withLock { state in
            state.stopped = true
            return state.streams.values.map(\.stream)
        }
        for stream in streams { stream.stop() }
    }

    /// Ends the thread once the close handlers still queued ran. Call after the daemon stopped.
    func join() {
        let wait = state.withLock { state -> Bool in
            switch state.thread {
            case .notStarted:
                state.thread = .ended
                return false
            case .running:
                state.thread = .ending
                return true
            case .ending, .ended:
                return false
            }
        }
        guard wait else { return }
        wakeUp.signal()
        ended.wait()
    }

    /// Marks the thread started if it was not yet; true when the caller must start it.
    private static func claimStart(_ state: inout State) -> Bool {
        guard state.thread == .notStarted else { return false }
        state.thread = .running
        return true
    }

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "catalog-http-events"
        thread.start()
    }

    /// How often the thread looks whether streams' clients went away.
    static let peerCheckInterval = Duration.seconds(1)

    private func run() {
        var nextTick = ContinuousClock.now + heartbeatInterval
        var nextCheck = ContinuousClock.now + Self.peerCheckInterval
        while true {
            let (jobs, exit) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                let jobs = state.jobs
                state.jobs = []
                guard jobs.isEmpty, state.thread == .ending else { return (jobs, false) }
                state.thread = .ended
                return ([], true)
            }
            if exit {
                ended.signal()
                return
            }
            for job in jobs { job() }
            if ContinuousClock.now >= nextTick {
                let streams = state.withLock { $0.stopped ? [] : $0.streams.values.map(\.stream) }
                for stream in streams { stream.tick(heartbeat: EventStream.heartbeatFrame) }
                ticks.add(1, ordering: .relaxed)
                nextTick = ContinuousClock.now + heartbeatInterval
                nextCheck = ContinuousClock.now + Self.peerCheckInterval
            } else if ContinuousClock.now >= nextCheck {
                let streams = state.withLock { $0.stopped ? [] : $0.streams.values.map(\.stream) }
                for stream in streams { stream.checkPeer() }
                nextCheck = ContinuousClock.now + Self.peerCheckInterval
            }
            let idle = state.withLock { $0.streams.isEmpty && $0.jobs.isEmpty && $0.thread == .running }
            if idle {
                wakeUp.wait()
                nextTick = ContinuousClock.now + heartbeatInterval
                nextCheck = ContinuousClock.now + Self.peerCheckInterval
            } else {
                let remaining = max(.zero, min(nextTick, nextCheck) - ContinuousClock.now)
                let nanoseconds =
                    remaining.components.seconds * 1_000_000_000
                    + remaining.components.attoseconds / 1_000_000_000
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
            }
        }
    }
}

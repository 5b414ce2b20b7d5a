/// The server's lifecycle as a value: each event returns what the server must do next, so the
/// order of starting, draining and stopping is tested without sockets.
///
/// `idle` → start → `running` → stop → `draining` (no new connections; requests in flight
/// finish) → drained → `stopped`.
struct ServerLifecycle: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case idle
        case starting
        case running
        case draining
        case stopped
    }

    enum StartAction: Equatable {
        /// Open the listening socket and start the workers.
        case startDaemon
        /// Starting is not possible in this state.
        case refuse(String)
    }

    enum StopAction: Equatable {
        /// Close the listening socket, then wait for requests in flight.
        case stopAccepting
        /// Nothing was started: only mark the server stopped.
        case markStopped
        /// Already stopping or stopped.
        case none
    }

    private(set) var state: State = .idle

    mutating func start() -> StartAction {
        switch state {
        case .idle:
            state = .starting
            return .startDaemon
        case .starting, .running: return .refuse("the server is already running")
        case .draining, .stopped: return .refuse("a stopped server cannot start again")
        }
    }

    mutating func started(_ success: Bool) {
        precondition(state == .starting, "started() without start()")
        state = success ? .running : .idle
    }

    mutating func stop() -> StopAction {
        switch state {
        case .running:
            state = .draining
            return .stopAccepting
        case .idle:
            state = .stopped
            return .markStopped
        case .starting, .draining, .stopped:
            return .none
        }
    }

    mutating func drained() {
        precondition(state == .draining, "drained() while \(state)")
        state = .stopped
    }

    /// The drain after ``stop()``: when the connections may be closed. The server looks at what
    /// is left every few milliseconds and closes once nothing is: no request in flight (a
    /// stream counts until it ends) and no bytes unread on any connection, several looks in a
    /// row so that a request read between two looks is not missed; or once the grace period is
    /// over, whatever is left.
    struct Drain: Sendable, Equatable {
        /// Looks in a row that must find nothing left.
        static let quietLooks = 3

        enum Action: Sendable, Equatable {
            /// Look again shortly.
            case wait
            /// Close every connection and stop the workers.
            case close
        }

        private var quiet = 0

        /// What to do after a look that found `inFlight` requests and (or not) unread bytes.
        mutating func looked(inFlight: Int, unreadBytes: Bool, pastDeadline: Bool) -> Action {
            if pastDeadline { return .close }
            quiet = inFlight == 0 && !unreadBytes ? quiet + 1 : 0
            return quiet >= Self.quietLooks ? .close : .wait
        }
    }
}

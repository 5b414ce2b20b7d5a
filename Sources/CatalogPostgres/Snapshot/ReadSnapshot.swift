/// One reading connection's snapshot, as a state machine without I/O: when to begin a new read
/// transaction, and which epoch its reads are in (``CatalogStorage/CatalogDatabase/readEpoch()``).
///
/// A reader keeps its snapshot for up to a lifetime (zero: a new one for every read) and
/// renews it at once after a write through this process (the write generation changed), so a
/// client reads its own writes and sees other processes' writes within the lifetime. A renewed
/// snapshot that sees another data version (another process wrote) starts a new epoch.
///
/// ```swift
/// var snapshot = ReadSnapshot(lifetime: .milliseconds(100))
/// switch snapshot.next(now: clock.now, generation: 0) {
/// case .keep: break
/// case .begin, .renew: /* COMMIT if renewing; BEGIN; read the data version */
///     snapshot.began(now: clock.now, generation: 0, dataVersion: version)
/// }
/// ```
struct ReadSnapshot: Sendable {
    /// What the connection must do before the next read.
    enum Action: Sendable, Equatable {
        /// Read in the open snapshot.
        case keep
        /// No transaction is open: begin one.
        case begin
        /// End the open transaction and begin another.
        case renew
    }

    /// How long one snapshot is kept.
    let lifetime: Duration
    /// The epoch of the current snapshot's reads.
    private(set) var epoch = 0
    private var started: ContinuousClock.Instant?
    private var generation = -1
    private var dataVersion: Int64 = -1

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// Whether a snapshot is open.
    var isOpen: Bool { started != nil }

    /// What to do before reading at `now`, when this process's writes are at `generation`.
    func next(now: ContinuousClock.Instant, generation: Int) -> Action {
        guard let started else { return .begin }
        if now - started >= lifetime || generation != self.generation { return .renew }
        return .keep
    }

    /// A snapshot began at `now` and sees `dataVersion`.
    mutating func began(now: ContinuousClock.Instant, generation: Int, dataVersion: Int64) {
        if dataVersion != self.dataVersion || generation != self.generation { epoch += 1 }
        started = now
        self.generation = generation
        self.dataVersion = dataVersion
    }

    /// The snapshot ended: committed, rolled back after an error, or lost with its connection.
    mutating func ended() {
        started = nil
    }
}

/// One reading connection's read epoch (``CatalogStorage/CatalogDatabase/readEpoch()``), as a
/// state machine without I/O: when to ask the database for its data version, and when the
/// epoch changes.
///
/// Every read tells it the data version its snapshot sees (``observed(now:generation:dataVersion:)``,
/// for free: it comes with the read's BEGIN). Between reads, a version older than the check
/// interval is asked for again, so another server's write starts a new epoch within the
/// interval; a write through this process (the write generation changed) is asked about at
/// once. A version that differs from the last one seen starts a new epoch.
///
/// ```swift
/// var epoch = ReadEpoch(interval: .milliseconds(100))
/// if epoch.needsCheck(now: clock.now, generation: 0) {
///     epoch.observed(now: clock.now, generation: 0, dataVersion: try selectDataVersion())
/// }
/// cache.use(epoch.epoch)
/// ```
struct ReadEpoch: Sendable {
    /// How long a seen data version is trusted.
    let interval: Duration
    /// The current epoch.
    private(set) var epoch = 0
    private var checked: ContinuousClock.Instant?
    private var generation = -1
    private var dataVersion: Int64 = -1

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether the data version must be asked for at `now`, when this process's writes are at
    /// `generation`.
    func needsCheck(now: ContinuousClock.Instant, generation: Int) -> Bool {
        guard let checked else { return true }
        return generation != self.generation || now - checked >= interval
    }

    /// The database's data version was `dataVersion` at `now` (a read began, or a check), while
    /// this process's writes were at `generation`.
    mutating func observed(now: ContinuousClock.Instant, generation: Int, dataVersion: Int64) {
        if dataVersion != self.dataVersion || generation != self.generation { epoch += 1 }
        checked = now
        self.generation = generation
        self.dataVersion = dataVersion
    }

    /// The connection was lost: the next epoch asks again.
    mutating func forget() {
        checked = nil
    }
}

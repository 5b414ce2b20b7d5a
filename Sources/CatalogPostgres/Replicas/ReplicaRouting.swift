/// Which read replica a snapshot begins on, as a state machine without I/O (the I/O is
/// ``PostgresDatabase``'s): replicas take turns, a replica that failed rests for
/// ``retryAfter`` before it is tried again, and every read is counted where it went.
///
/// The rule a replica must pass once it is tried (its data version is at least the newest this
/// process knows of) is the database's; this only orders and counts.
///
/// ```swift
/// var routing = ReplicaRouting(count: 2, retryAfter: .seconds(1))
/// for replica in routing.candidates(now: .now) {
///     // begin a snapshot on it; on failure: routing.failed(replica, now: .now)
/// }
/// routing.readOnPrimary()
/// ```
struct ReplicaRouting: Sendable {
    /// How long a replica that failed is left out.
    let retryAfter: Duration
    private var restingUntil: [ContinuousClock.Instant?]
    private var turn = 0
    /// Snapshots begun on each replica.
    private(set) var reads: [Int]
    /// Reads that passed each replica over (resting, failed, or behind) since the start.
    private(set) var skipped: [Int]
    /// Snapshots begun on the primary.
    private(set) var primaryReads = 0

    init(count: Int, retryAfter: Duration) {
        self.retryAfter = retryAfter
        restingUntil = Array(repeating: nil, count: count)
        reads = Array(repeating: 0, count: count)
        skipped = Array(repeating: 0, count: count)
    }

    /// The replicas to try for the next read, in order: every one that is not resting, starting
    /// with the next in turn. Resting ones count as skipped.
    mutating func candidates(now: ContinuousClock.Instant) -> [Int] {
        let count = restingUntil.count
        guard count > 0 else { return [] }
        let first = turn % count
        turn = (turn + 1) % count
        var order: [Int] = []
        for offset in 0..<count {
            let replica = (first + offset) % count
            if let until = restingUntil[replica], now < until {
                skipped[replica] += 1
            } else {
                order.append(replica)
            }
        }
        return order
    }

    /// Whether `replica` rests now (it failed less than ``retryAfter`` ago).
    func isResting(_ replica: Int, now: ContinuousClock.Instant) -> Bool {
        restingUntil[replica].map { now < $0 } ?? false
    }

    /// A snapshot began on `replica`: it is up.
    mutating func read(on replica: Int) {
        restingUntil[replica] = nil
        reads[replica] += 1
    }

    /// `replica` could not be reached or lost its connection during a read: it rests, and the
    /// read passed it over.
    mutating func failed(_ replica: Int, now: ContinuousClock.Instant) {
        rest(replica, now: now)
        skipped[replica] += 1
    }

    /// `replica` could not be reached by a probe: it rests.
    mutating func rest(_ replica: Int, now: ContinuousClock.Instant) {
        restingUntil[replica] = now + retryAfter
    }

    /// `replica` answered, but had not replayed what the read needs.
    mutating func behind(_ replica: Int) {
        skipped[replica] += 1
    }

    /// A probe reached `replica`: it no longer rests.
    mutating func answered(_ replica: Int) {
        restingUntil[replica] = nil
    }

    /// A snapshot began on the primary.
    mutating func readOnPrimary() {
        primaryReads += 1
    }
}

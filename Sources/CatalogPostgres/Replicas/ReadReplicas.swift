import CatalogStorage
import Synchronization

/// The read replicas (hot standbys) of a ``PostgresDatabase``, shared by its reading threads:
/// where they are, the routing between them (``ReplicaRouting``), and a connection of their own
/// per replica for the status probes of `/readyz` and `/metrics`.
final class ReadReplicas: Sendable {
    let locations: [PostgresLocation]
    private let routing: Mutex<ReplicaRouting>
    private let probes: [ConnectionSlot]

    /// What a standby says about its replay: its data version, and how long ago the last
    /// transaction it replayed committed on the primary (zero when it replayed all it received,
    /// so an idle primary does not look like a lagging standby). A standby that is not in
    /// recovery any more (promoted) answers zero.
    static let statusQuery = """
        SELECT data_version, CASE WHEN NOT pg_is_in_recovery()
            OR pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
            ELSE COALESCE(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) END::text
        FROM catalog_state
        """

    init(_ locations: [PostgresLocation], retryAfter: Duration) {
        self.locations = locations
        routing = Mutex(ReplicaRouting(count: locations.count, retryAfter: retryAfter))
        probes = locations.map { ConnectionSlot(location: $0, connection: nil) }
    }

    /// The replicas to try for the next read, in order (``ReplicaRouting/candidates(now:)``).
    func candidates() -> [Int] {
        routing.withLock { $0.candidates(now: .now) }
    }

    func read(on replica: Int) { routing.withLock { $0.read(on: replica) } }
    func readOnPrimary() { routing.withLock { $0.readOnPrimary() } }
    func failed(_ replica: Int) { routing.withLock { $0.failed(replica, now: .now) } }
    func behind(_ replica: Int) { routing.withLock { $0.behind(replica) } }

    /// Asks every replica for its replay now, each on its probe connection; one that rests
    /// after a failure (``ReplicaRouting/isResting(_:now:)``) is down without being asked, so a
    /// replica that does not answer costs a probe at most once per ``ReplicaRouting/retryAfter``.
    ///
    /// - Parameter primaryVersion: the primary's data version, nil when it did not answer.
    func report(primaryVersion: Int64?) -> ReadReplicaReport {
        let now = ContinuousClock.now
        let resting = routing.withLock { routing in probes.indices.map { routing.isResting($0, now: now) } }
        let answers: [(version: Int64, lag: Double)?] = probes.indices.map { replica in
            guard !resting[replica] else { return nil }
            return try? probes[replica].with { connection in
                let rows = try connection.query(Self.statusQuery)
                return (rows.int64(0, 0), Double(rows.text(0, 1)) ?? 0)
            }
        }
        return routing.withLock { routing in
            for (replica, answer) in answers.enumerated() where !resting[replica] {
                if answer != nil { routing.answered(replica) } else { routing.rest(replica, now: now) }
            }
            let replicas = locations.indices.map { replica in
                let answer = answers[replica]
                return ReadReplicaStatus(
                    name: locations[replica].redacted, isUp: answer != nil, lagSeconds: answer?.lag,
                    versionsBehind: answer.flatMap { answer in primaryVersion.map { max(0, Int($0 - answer.version)) }
                    },
                    reads: routing.reads[replica], skipped: routing.skipped[replica])
            }
            return ReadReplicaReport(primaryReads: routing.primaryReads, replicas: replicas)
        }
    }

    func close() {
        for probe in probes { probe.close() }
    }
}

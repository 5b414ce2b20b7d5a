/// Where a database's reads went and how its read replicas are (PostgreSQL hot standbys given
/// with `--db-read`), for `/readyz` and `/metrics`; ``CatalogDatabase/readReplicaReport()`` makes
/// it. Engines without replicas have none.
///
/// ```swift
/// if let report = database.readReplicaReport() {
///     for replica in report.replicas where !replica.isUp { print("\(replica.name) is down") }
/// }
/// ```
public struct ReadReplicaReport: Sendable, Equatable {
    /// Snapshots this process began on the primary (`--db`) since it started.
    public var primaryReads: Int
    /// Each replica, in the order they were given.
    public var replicas: [ReadReplicaStatus]

    /// Creates a report.
    public init(primaryReads: Int, replicas: [ReadReplicaStatus]) {
        self.primaryReads = primaryReads
        self.replicas = replicas
    }
}

/// One read replica as it answered just now.
public struct ReadReplicaStatus: Sendable, Equatable {
    /// Its location, without the password.
    public var name: String
    /// Whether it answered (connected, and is a copy of the primary's catalog database).
    public var isUp: Bool
    /// How far its replay is behind in time: zero when it has replayed everything it received,
    /// else the age of the last transaction it replayed; nil when it is down.
    public var lagSeconds: Double?
    /// How many data versions (committed writes) the primary is ahead of it; nil when either is down.
    public var versionsBehind: Int?
    /// Snapshots this process began on it since it started.
    public var reads: Int
    /// Reads that wanted it but went to the primary since it started: it was down, or behind
    /// the newest write this process knew of.
    public var skipped: Int

    /// Creates a status.
    public init(
        name: String, isUp: Bool, lagSeconds: Double?, versionsBehind: Int?, reads: Int, skipped: Int
    ) {
        self.name = name
        self.isUp = isUp
        self.lagSeconds = lagSeconds
        self.versionsBehind = versionsBehind
        self.reads = reads
        self.skipped = skipped
    }
}

extension CatalogDatabase {
    /// No read replicas: the report of an engine that has none.
    public func readReplicaReport() -> ReadReplicaReport? { nil }
}

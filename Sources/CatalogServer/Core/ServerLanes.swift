import CatalogHTTP

/// The catalog server's offload lanes: the names routes run on (``RouteLane``, declared with each
/// route) and the threads and queue of each.
enum ServerLanes {
    /// Password checks (API and web sign-ins the throttle allows): about 0.1 s of CPU and 64 MiB
    /// each.
    static let passwords = "passwords"
    /// Catalog uploads (`POST /api/v1/catalogs/{id}/import`).
    static let imports = "imports"
    /// Offline snapshots (`GET /api/v1/catalogs/{id}/snapshot`).
    static let snapshots = "snapshots"
    /// Thumbnails not made yet (`GET /images/…?size=N`).
    static let thumbnails = "thumbnails"
    /// Changes of records (`PUT`, `PATCH`, `DELETE` of an item, batches): each is one write
    /// transaction; writers of one database wait for each other anyway.
    static let edits = "edits"

    /// Every lane, with `passwordThreads` threads checking passwords.
    static func lanes(passwordThreads: Int) -> [OffloadLane] {
        [
            // Sign-ins run here unless throttled, when they are answered at once, so they never hold
            // up the workers that answer everyone else.
            OffloadLane(name: passwords, threads: passwordThreads, queueLimit: 32),
            // Imports run one at a time on a thread of their own: they take seconds, and they stop
            // when the client goes away, the time limit passes or the server stops. They run ten
            // nice steps down (with the reading and indexing threads they start), so readers get
            // the cores first while a large import goes on.
            OffloadLane(name: imports, threads: 1, queueLimit: 4, niceness: 10),
            // Snapshots are built on first request (seconds for a large catalog) and then sent
            // from their file.
            OffloadLane(name: snapshots, threads: 2, queueLimit: 16, niceness: 5),
            // Scaling a large image takes up to seconds of CPU: one thread, a few waiting, the
            // rest 503 with Retry-After; a thumbnail already made is answered by the workers.
            OffloadLane(name: thumbnails, threads: 1, queueLimit: 8, niceness: 5),
            // Record changes take a millisecond or two each (a batch of thousands, about a
            // second): two threads, so one large batch does not hold up single edits for long.
            OffloadLane(name: edits, threads: 2, queueLimit: 64),
        ]
    }
}

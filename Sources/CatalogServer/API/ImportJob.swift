import CatalogHTTP
import CatalogModel
import Foundation

/// One import that runs in the background (`Prefer: respond-async`), as `GET /api/v1/imports/{job}`
/// shows it: what it has read so far, then its result or its error.
///
/// A value that only moves forward: ``running`` → ``done`` or ``failed``; the progress counters
/// only grow, and a finished job changes no more (``ImportJobs`` holds it and applies each step).
struct ImportJob: Sendable, Equatable {
    /// The job's id: 128 random bits, hex.
    let id: String
    /// The catalog it imports into.
    let catalog: String
    /// The user who started it: only they (and administrators) see it.
    let owner: Int64
    /// When it started, and when it ended.
    let started: ContinuousClock.Instant
    var ended: ContinuousClock.Instant?
    /// Where it is.
    var state: State = .running
    /// Running: reading the source, then writing the catalog.
    var phase: Phase = .reading
    /// Records read so far.
    var recordsRead = 0
    /// Bytes of the source read so far.
    var bytesRead: Int64 = 0
    /// The size of the source, once known.
    var totalBytes: Int64?
    /// What the import did, once done.
    var result: ImportSummary?
    /// Why it failed.
    var error: Failure?

    enum State: String, Sendable, Equatable {
        case running, done, failed
    }

    enum Phase: String, Sendable, Equatable {
        case reading, writing
    }

    /// A failed import's error, as the synchronous import would have answered it, with where in
    /// the file the problem is when the importer knows.
    struct Failure: Error, Sendable, Equatable, Encodable {
        var status: Int
        var code: String
        var message: String
        var source: String?
        var line: Int?
        var column: Int?
        var field: String?
    }

    init(id: String, catalog: String, owner: Int64, started: ContinuousClock.Instant) {
        self.id = id
        self.catalog = catalog
        self.owner = owner
        self.started = started
    }

    /// A step of a running job; a finished one ignores it.
    enum Event: Sendable {
        case size(Int64?)
        case bytes(Int64)
        case records(Int)
        case readingDone(Int)
        case finished(Result<ImportSummary, Failure>, at: ContinuousClock.Instant)
    }

    mutating func apply(_ event: Event) {
        guard state == .running else { return }
        switch event {
        case .size(let size): totalBytes = size
        case .bytes(let bytes): bytesRead = max(bytesRead, bytes)
        case .records(let count): recordsRead = max(recordsRead, count)
        case .readingDone(let count):
            recordsRead = max(recordsRead, count)
            if let totalBytes { bytesRead = max(bytesRead, totalBytes) }
            phase = .writing
        case .finished(let outcome, let instant):
            ended = instant
            switch outcome {
            case .success(let summary):
                state = .done
                self.result = summary
                recordsRead = max(recordsRead, summary.read)
                if let totalBytes { bytesRead = totalBytes }
            case .failure(let failure):
                state = .failed
                error = failure
            }
        }
    }

    /// The failure an error thrown by an import is: its HTTP answer, and for an ``ImportError``
    /// where in the source it is.
    static func failure(_ error: any Error) -> Failure {
        let http = (error as? any HTTPResponseError)?.httpError ?? (error as? HTTPError)
        var failure = Failure(
            status: http?.status.rawValue ?? 500, code: http?.code ?? "internal",
            message: http?.message ?? "the import failed; the server's log says why")
        if let importError = error as? ImportError {
            let location = importError.location
            failure.source = location.source.isEmpty ? nil : location.source
            failure.line = location.line > 0 ? location.line : nil
            failure.column = location.column > 0 ? location.column : nil
            failure.field = importError.field
        }
        return failure
    }

    /// The JSON of `GET /api/v1/imports/{job}`.
    struct Document: Encodable {
        var id: String
        var catalog: String
        var state: String
        var phase: String?
        var recordsRead: Int
        var bytesRead: Int64
        var totalBytes: Int64?
        var result: ImportSummary?
        var error: Failure?
        var location: String
    }

    var document: Document {
        Document(
            id: id, catalog: catalog, state: state.rawValue, phase: state == .running ? phase.rawValue : nil,
            recordsRead: recordsRead, bytesRead: bytesRead, totalBytes: totalBytes, result: result, error: error,
            location: ImportJobs.path(id))
    }
}

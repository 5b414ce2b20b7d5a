import CatalogCollation
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Synchronization

/// The write side of the records of a catalog (JSON API v1):
///
/// - `PUT /api/v1/catalogs/{id}/items/{item}` creates or replaces a record;
/// - `PATCH` the same URL takes a JSON Merge Patch (RFC 7396; `null` removes a field);
/// - `DELETE` removes the record;
/// - `POST /api/v1/catalogs/{id}/items` applies a batch (a JSON array or NDJSON of
///   `{"upsert": {…}}` and `{"delete": "ID"}`), all or nothing;
/// - `PUT …/items/{item}/image` stores the record's image, `DELETE` removes it (``RecordsAPI/putImage(_:_:catalog:actor:)``);
/// - `GET …/changes?since=N` pages through the change log; `GET …/items/{item}/history` shows a
///   record's changes; `POST …/items/{item}/restore?at=N` puts it back as it was at change N.
///
/// `If-Match` (the record's ETag, or `*`) and `If-None-Match: *` are honoured: a failed one is a
/// 412 with the record's current ETag. Every answer of a change carries the record's new `ETag`
/// and the catalog's new change number (`Catalog-Change`). Bad values are a 422 that lists every
/// bad field as a JSON pointer into the body. Changes run on the edits lane, one write
/// transaction each (``CatalogEditor``).
struct RecordsAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    /// The streams that follow catalogs' changes: told after every change made here.
    let feed: ChangeFeed
    /// Merges the segments changes leave: told after every change made here.
    let maintainer: SegmentMaintainer
    let collations = CollationCache()

    /// The header that carries a catalog's change number.
    static let changeHeader = "Catalog-Change"

    /// Writes are for signed-in users the policy lets change the catalog; bodies up to a batch's limit.
    static let options = RouteOptions(
        lane: RouteLane(ServerLanes.edits), bodyLimit: RecordChangeLimits.maxBatchBytes, authentication: .signedIn,
        rateClass: .expensive)
    static let singleOptions = RouteOptions(
        lane: RouteLane(ServerLanes.edits), bodyLimit: RecordChangeLimits.maxRecordBytes, authentication: .signedIn,
        rateClass: .standard)

    func register(in routes: inout RouterBuilder) {
        routes.on(.put, "/api/v1/catalogs/{id}/items/{item}", options: Self.singleOptions) { request, context in
            try put(request, context)
        }
        routes.on(.patch, "/api/v1/catalogs/{id}/items/{item}", options: Self.singleOptions) { request, context in
            try patch(request, context)
        }
        routes.on(.delete, "/api/v1/catalogs/{id}/items/{item}", options: Self.singleOptions) { request, context in
            try delete(request, context)
        }
        routes.on(.post, "/api/v1/catalogs/{id}/items", options: Self.options) { request, context in
            try batch(request, context)
        }
        routes.on(.post, "/api/v1/catalogs/{id}/items/{item}/restore", options: Self.singleOptions) {
            request, context in
            try restore(request, context)
        }
        registerImages(in: &routes)
        routes.get("/api/v1/catalogs/{id}/changes") { request, context in
            try changes(request, context)
        }
        routes.get(
            "/api/v1/catalogs/{id}/items/{item}/history", options: RouteOptions(authentication: .signedIn)
        ) { request, context in
            try history(request, context)
        }
    }

    // MARK: - Changes of one record

    private func put(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, actor) = try editable(request, context)
        return try put(request, context, catalog: catalog, actor: actor)
    }

    /// `PUT` of one record into `catalog` by `actor`, whose right to change it is checked: the
    /// API's route after its authentication, and the web editor's (``EditHandler``).
    func put(_ request: Request, _ context: RequestContext, catalog: StoredCatalog, actor: String) throws -> Response {
        let itemID = try context.require("item", as: String.self)
        try Self.requireJSON(request)
        let record = try Self.checked {
            try RecordChangeReader.record(request.body, id: itemID, definition: catalog.definition)
        }
        let outcome = try apply(
            [RecordEdit(.upsert(record), precondition: try Self.precondition(request))], catalog, actor)
        return try recordAnswer(catalog, itemID, outcome, created: outcome.results.first?.result == .created)
    }

    private func patch(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, actor) = try editable(request, context)
        let itemID = try context.require("item", as: String.self)
        try Self.requireJSON(request, mergePatch: true)
        let given = try Self.precondition(request)
        // The patch applies to the record as it is; if it changes before the write, the write
        // fails its precondition and the patch applies again to the newer record.
        for _ in 0..<5 {
            let current = try stores.read { reader -> StoredHit? in
                try reader.item(of: reader.catalogOr404(catalog.id), id: itemID)
            }
            guard let current else {
                throw HTTPError.notFound("catalog \"\(catalog.id)\" has no item \"\(itemID.prefix(200))\"")
            }
            let tag = CatalogEditor.etag(of: current.json)
            if case .matches(let wanted) = given, wanted != tag {
                throw Self.preconditionFailed(current: tag)
            }
            let patched = try Self.checked {
                try MergePatch.apply(request.body, to: try current.record(), definition: catalog.definition)
            }
            do {
                let outcome = try apply([RecordEdit(.upsert(patched), precondition: .matches(tag))], catalog, actor)
                return try recordAnswer(catalog, itemID, outcome, created: false)
            } catch let failure as HTTPError where failure.status == .preconditionFailed {
                if case .matches = given { throw failure }
            }
        }
        throw HTTPError(.conflict, code: "busy_record", "the record kept changing; try again")
    }

    private func delete(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, actor) = try editable(request, context)
        return try delete(request, context, catalog: catalog, actor: actor)
    }

    /// `DELETE` of one record of `catalog` by `actor`, whose right to change it is checked.
    func delete(_ request: Request, _ context: RequestContext, catalog: StoredCatalog, actor: String) throws -> Response
    {
        let itemID = try context.require("item", as: String.self)
        let outcome = try apply(
            [RecordEdit(.delete(id: itemID), precondition: try Self.precondition(request))], catalog, actor)
        return Response(
            status: .noContent, headers: HTTPHeaders([(Self.changeHeader, String(outcome.change))]), body: [])
    }

    private func restore(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, actor) = try editable(request, context)
        let itemID = try context.require("item", as: String.self)
        let at = try request.integer("at", in: 1...Int(Int32.max), default: 0)
        guard at > 0 else { throw HTTPError.badParameter("give 'at', the change number to restore the record to") }
        let state = try stores.read { reader in
            try RecordHistory.state(of: itemID, at: at, in: reader.catalogOr404(catalog.id), reader: reader)
        }
        let edit: RecordEdit
        switch state {
        case .unknown:
            throw HTTPError.notFound("the history of \"\(itemID.prefix(200))\" has no change \(at) (or it was pruned)")
        case .absent: edit = RecordEdit(.delete(id: itemID))
        case .present(let record): edit = RecordEdit(.upsert(record))
        }
        let outcome = try apply([edit], catalog, actor)
        if case .absent = state {
            return Response(
                status: .noContent, headers: HTTPHeaders([(Self.changeHeader, String(outcome.change))]), body: [])
        }
        return try recordAnswer(catalog, itemID, outcome, created: outcome.results.first?.result == .created)
    }

    // MARK: - Batches

    private func batch(_ request: Request, _ context: RequestContext) throws -> Response {
        let (catalog, actor) = try editable(request, context)
        guard !request.body.isEmpty else {
            throw HTTPError.badParameter("the request body (the batch of changes) is empty")
        }
        let changes = try Self.checked { try RecordChangeReader.batch(request.body, definition: catalog.definition) }
        let outcome = try apply(changes.map { RecordEdit($0) }, catalog, actor)
        return Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"), (Self.changeHeader, String(outcome.change)),
            ]), body: outcome.jsonBytes)
    }

    // MARK: - The change log

    private func changes(_ request: Request, _ context: RequestContext) throws -> Response {
        var since = try request.integer("since", in: 0...Int(Int32.max), default: 0)
        let limit = try request.pageLimit()
        let id = try context.require("id", as: String.self)
        let filter = try authentication.recordFilter(for: request)
        if request.acceptsEventStream {
            // A reconnecting client says where it was with Last-Event-ID (the number of the last
            // change it got); it wins over `since`.
            if let last = request.lastEventID {
                guard let number = Int(last), (0...Int(Int32.max)).contains(number) else {
                    throw HTTPError.badParameter("'Last-Event-ID' must be a change number")
                }
                since = number
            }
            _ = try stores.read { try $0.catalogOr404(id) }
            let stream = EventStream()
            feed.follow(id, since: since, filter: filter, on: stream)
            return .eventStream(stream)
        }
        let (read, catalog) = try stores.read { reader in
            let catalog = try reader.catalogOr404(id)
            return (try ChangePage.read(catalog, since: since, limit: limit, reader: reader, filter: filter), catalog)
        }
        let page = read.placed(using: collations, for: catalog)
        return Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"), (Self.changeHeader, String(page.current)),
            ]), body: page.jsonBytes)
    }

    private func history(_ request: Request, _ context: RequestContext) throws -> Response {
        let limit = try request.pageLimit()
        let (catalog, _) = try editable(request, context)
        let itemID = try context.require("item", as: String.self)
        // A record outside a key's record filter has no history for the key.
        let entries = try stores.read(narrowedBy: authentication.recordFilter(for: request)) { reader in
            try reader.history(of: reader.catalogOr404(catalog.id), item: itemID, limit: limit)
        }
        var output = JSONOutput()
        output.object { object in
            object.member("items") { output in
                output.array(entries) { output, entry in ChangePage.write(entry, withPrevious: true, to: &output) }
            }
        }
        return JSONResponse.write(RawJSON(bytes: output.bytes))
    }

    // MARK: - Helpers

    /// The catalog a request changes and who changes it: 401 without credentials, 403 for a user
    /// who may not change it, 404 without the catalog.
    func editable(_ request: Request, _ context: RequestContext) throws -> (StoredCatalog, String) {
        let id = try context.require("id", as: String.self)
        let user = try authentication.require(.editRecords, catalog: id, request, context)
        let catalog = try stores.read { try $0.catalogOr404(id) }
        return (catalog, user.name)
    }

    private func apply(_ edits: [RecordEdit], _ catalog: StoredCatalog, _ actor: String) throws -> EditOutcome {
        try editing(catalog, single: edits.count == 1) { collation in
            try CatalogEditor.apply(edits, to: catalog.id, in: stores, collation: collation, actor: actor)
        }
    }

    /// Runs a change of `catalog` with a collation of its locale, tells the streams after it, and
    /// answers a failed edit as HTTP does (412, 404, or a 422 at the edit's place in a batch).
    func editing<T>(_ catalog: StoredCatalog, single: Bool = true, _ body: (ICUCollation) throws -> T) throws -> T {
        do {
            let result = try collations.with(catalog.definition.locale, body)
            feed.notify()
            maintainer.notify(catalog.id)
            return result
        } catch let failure as EditFailure {
            switch failure.reason {
            case .preconditionFailed(let current): throw Self.preconditionFailed(current: current)
            case .exists(let current): throw Self.preconditionFailed(current: current, message: failure.description)
            case .notFound:
                if single { throw HTTPError.notFound("catalog \"\(catalog.id)\" has \(failure.description)") }
                throw Self.invalid([RecordProblem(pointer: "/\(failure.position)/delete", message: failure.description)]
                )
            }
        }
    }

    func recordAnswer(_ catalog: StoredCatalog, _ itemID: String, _ outcome: EditOutcome, created: Bool) throws
        -> Response
    {
        let stored = try stores.read { reader in try reader.item(of: reader.catalogOr404(catalog.id), id: itemID) }
        guard let stored else {
            throw HTTPError.notFound("catalog \"\(catalog.id)\" has no item \"\(itemID.prefix(200))\"")
        }
        var headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"), ("ETag", CatalogEditor.etag(of: stored.json)),
            (Self.changeHeader, String(outcome.change)),
        ])
        if created {
            headers.add("Location", "/api/v1/catalogs/\(Self.escaped(catalog.id))/items/\(Self.escaped(itemID))")
        }
        return Response(status: created ? .created : .ok, headers: headers, body: stored.json)
    }

    static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#")))
            ?? segment
    }

    /// The precondition of `If-Match` / `If-None-Match: *`.
    static func precondition(_ request: Request) throws -> EditPrecondition {
        if let match = request.headers["If-Match"]?.trimmingCharacters(in: .whitespaces) {
            if match == "*" { return .exists }
            // Anything but one strong ETag (a weak one, a list, a malformed value) names no version
            // the record can have: the condition is false (412), as RFC 9110 evaluates it.
            return .matches(match)
        }
        if let none = request.headers["If-None-Match"]?.trimmingCharacters(in: .whitespaces) {
            guard none == "*" else { throw HTTPError.badParameter("'If-None-Match' on a change must be *") }
            return .absent
        }
        return .any
    }

    static func preconditionFailed(current: String?, message: String? = nil) -> HTTPError {
        var headers = HTTPHeaders()
        if let current { headers.add("ETag", current) }
        return HTTPError(
            .preconditionFailed, code: "precondition_failed",
            message
                ?? (current == nil
                    ? "the record does not exist" : "the record changed meanwhile; its ETag is \(current!)"),
            headers: headers)
    }

    /// 415 unless the body is JSON (or a merge patch, where one is taken).
    static func requireJSON(_ request: Request, mergePatch: Bool = false) throws {
        let type = (request.headers["Content-Type"] ?? "application/json").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let accepted = mergePatch ? ["application/merge-patch+json", "application/json"] : ["application/json"]
        guard let type, accepted.contains(type) else {
            throw HTTPError(
                .unsupportedMediaType, code: "unsupported_media_type", "send \(accepted.joined(separator: " or "))")
        }
    }

    /// Runs a reader of the body; its problems become a 422.
    static func checked<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let problems as RecordProblems {
            throw invalid(problems.problems)
        }
    }

    /// A 422 listing every bad value: `{"error":{"code":"invalid_record","message","problems":[{"pointer","message"}]}}`.
    static func invalid(_ problems: [RecordProblem]) -> HTTPError {
        let first = problems.first.map { "\($0.pointer.isEmpty ? "the body" : $0.pointer): \($0.message)" }
        var error = HTTPError(
            .unprocessableContent, code: "invalid_record",
            problems.count == 1 ? first! : "\(problems.count) values are not valid; the first: \(first ?? "")")
        error.problems = problems.map { HTTPError.Problem(pointer: $0.pointer, message: $0.message) }
        return error
    }
}

/// JSON bytes written as they are.
struct RawJSON: JSONWritable {
    let bytes: [UInt8]

    func write(to output: inout JSONOutput) { output.append(json: bytes) }
}

/// Sort keys and sections per locale, opened once and lent to one change at a time (opening
/// ICU's collator and alphabetic index costs more than a small change).
final class CollationCache: Sendable {
    /// A collation in the pool. Unchecked: `ICUCollation` holds ICU handles Swift cannot see
    /// through; a `Lent` is only ever used by the one thread that took it from the pool until it
    /// puts it back (``with(_:_:)``), so no two threads touch its handles at once.
    private struct Lent: @unchecked Sendable {
        let collation: ICUCollation
    }

    private let idle = Mutex<[String: [Lent]]>([:])

    /// Runs `body` with a collation of `locale` that no other thread uses meanwhile.
    func with<T>(_ locale: String, _ body: (ICUCollation) throws -> T) throws -> T {
        let lent =
            try idle.withLock { $0[locale]?.popLast() } ?? Lent(collation: ICUCollation.forImport(locale: locale))
        defer { idle.withLock { idle in if (idle[locale]?.count ?? 0) < 4 { idle[locale, default: []].append(lent) } } }
        return try body(lent.collation)
    }
}

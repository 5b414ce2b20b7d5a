import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Changing records one at a time, or many in one batch (`PUT`, `PATCH`, `DELETE` of
/// `/api/v1/catalogs/{id}/items/{item}` and `POST /api/v1/catalogs/{id}/items`). Every write
/// needs a token of a user who may change the catalog (``CatalogClient/token``, as
/// ``CatalogClient/signIn(name:password:)`` sets it).
extension CatalogClient {
    /// The header that carries a catalog's change number.
    static let changeHeader = "Catalog-Change"

    /// One record as the server stores it now, with its ETag and the catalog's change number
    /// (never from the client's cache: the answer is what an edit starts from).
    ///
    /// ```swift
    /// let stored = try await client.record("gulyas", in: "cookbook")
    /// print(stored.record.title, stored.etag)
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`.
    public func record(_ item: String, in catalog: String) async throws(CatalogClientError) -> VersionedRecord {
        let answer = try await fetch(url(itemPath(item, in: catalog)), in: nil)
        return try versioned(answer)
    }

    /// Stores a record under its id: creates it, or replaces the record with that id. The
    /// record's `section` is the server's: the server ignores it and files the record itself.
    ///
    /// ```swift
    /// let soup = Record(id: "gulyas", title: "Gulyásleves", categories: ["Levesek"])
    /// let stored = try await client.put(soup, in: "cookbook", createOnly: true)
    /// ```
    ///
    /// - Parameters:
    ///   - record: the record; its `id` names it.
    ///   - catalog: the catalog's id.
    ///   - ifMatch: the ETag the record must still have (``VersionedRecord/etag``); nil stores
    ///     it whatever it is now.
    ///   - createOnly: only create it: fails when a record with that id exists.
    /// - Returns: the record as stored, its new ETag and the catalog's change number (unchanged
    ///   when the record already had this content).
    /// - Throws: ``CatalogClientError`` `.preconditionFailed` with ``CatalogClientError/currentETag``
    ///   when `ifMatch` or `createOnly` does not hold, `.invalidRecord` with every problem,
    ///   `.unauthorized`, `.forbidden`, `.notFound` for an unknown catalog, `.invalidArgument`
    ///   for `ifMatch` with `createOnly`.
    @discardableResult
    public func put(_ record: Record, in catalog: String, ifMatch: String? = nil, createOnly: Bool = false)
        async throws(CatalogClientError) -> VersionedRecord
    {
        var headers = try Self.conditions(ifMatch: ifMatch)
        if createOnly {
            guard ifMatch == nil else {
                throw CatalogClientError(.invalidArgument, "a record cannot both match an ETag and not exist")
            }
            headers.append(("If-None-Match", "*"))
        }
        let path = try itemPath(record.id, in: catalog)
        let answer = try await send(
            "PUT", path, body: Data(record.jsonBytes), contentType: "application/json", headers: headers)
        forget(path)
        return try versioned(answer)
    }

    /// Changes some fields of a record (a JSON Merge Patch, RFC 7396): each name is a role
    /// (`title`, `subtitle`, `price`, `categories`, …) or else an extra field (`weight`), and
    /// `FieldValue.null` removes it; the other fields stay as they are.
    ///
    /// ```swift
    /// let stored = try await client.patch(
    ///     "gulyas", in: "cookbook", changes: ["subtitle": .text("Mari néni receptje"), "weight": .null])
    /// ```
    ///
    /// A name in the dictionary with `.null` removes the field; a name left out keeps it (mind
    /// that `changes["x"] = nil` leaves `x` out rather than removing it).
    ///
    /// - Parameters:
    ///   - item: the record's id.
    ///   - catalog: the catalog's id.
    ///   - changes: the new values by field name.
    ///   - ifMatch: the ETag the record must still have; nil patches the record as it is.
    /// - Returns: the patched record, its ETag and the catalog's change number.
    /// - Throws: ``CatalogClientError`` `.preconditionFailed`, `.invalidRecord` (a problem's
    ///   pointer is the member's in the patched record: `/price`, `/fields/weight`), `.notFound`
    ///   for an unknown record, `.conflict` when it kept changing under the patch.
    @discardableResult
    public func patch(_ item: String, in catalog: String, changes: [String: FieldValue], ifMatch: String? = nil)
        async throws(CatalogClientError) -> VersionedRecord
    {
        var output = JSONOutput(capacity: 256)
        output.fields(changes)
        return try await patch(item, in: catalog, mergePatch: Data(output.bytes), ifMatch: ifMatch)
    }

    /// Applies a JSON Merge Patch document (RFC 7396) to a record: members replace the record's,
    /// `null` removes one, an object is merged into the object there (`{"fields": {"weight": null}}`
    /// removes one extra field).
    ///
    /// - Parameters:
    ///   - item: the record's id.
    ///   - catalog: the catalog's id.
    ///   - mergePatch: the patch's JSON.
    ///   - ifMatch: the ETag the record must still have; nil patches the record as it is.
    /// - Returns: the patched record, its ETag and the catalog's change number.
    /// - Throws: ``CatalogClientError``, as ``patch(_:in:changes:ifMatch:)``.
    @discardableResult
    public func patch(_ item: String, in catalog: String, mergePatch: Data, ifMatch: String? = nil)
        async throws(CatalogClientError) -> VersionedRecord
    {
        let path = try itemPath(item, in: catalog)
        let answer = try await send(
            "PATCH", path, body: mergePatch, contentType: "application/merge-patch+json",
            headers: try Self.conditions(ifMatch: ifMatch))
        forget(path)
        return try versioned(answer)
    }

    /// Removes a record.
    ///
    /// - Parameters:
    ///   - item: the record's id.
    ///   - catalog: the catalog's id.
    ///   - ifMatch: the ETag the record must still have; nil removes it whatever it is.
    /// - Returns: the catalog's change number after the removal.
    /// - Throws: ``CatalogClientError`` `.notFound` when there is no such record,
    ///   `.preconditionFailed` when it changed since `ifMatch`.
    @discardableResult
    public func delete(_ item: String, in catalog: String, ifMatch: String? = nil) async throws(CatalogClientError)
        -> Int
    {
        let path = try itemPath(item, in: catalog)
        let answer = try await send("DELETE", path, headers: try Self.conditions(ifMatch: ifMatch))
        forget(path)
        return try Self.change(of: answer)
    }

    /// Applies several changes at once, all or nothing, in one change of the catalog (each
    /// changed record gets its own change number, in order). A record may be changed once per
    /// batch; a batch holds at most `RecordChangeLimits.maxOperations` changes and
    /// `RecordChangeLimits.maxBatchBytes` of JSON.
    ///
    /// ```swift
    /// let outcome = try await client.batch([.upsert(soup), .delete(id: "r07")], in: "cookbook")
    /// print(outcome.change, outcome.results.map(\.result))
    /// ```
    ///
    /// - Returns: the catalog's change number after the batch and each record's result.
    /// - Throws: ``CatalogClientError`` `.invalidRecord` for bad values, a record changed twice
    ///   or a delete of a record that does not exist (pointers `/INDEX/upsert/…`,
    ///   `/INDEX/delete`), `.payloadTooLarge`, `.unauthorized`, `.forbidden`, `.notFound`.
    @discardableResult
    public func batch(_ changes: [RecordChange], in catalog: String) async throws(CatalogClientError)
        -> BatchOutcome
    {
        var output = JSONOutput(capacity: 512 * max(1, changes.count))
        output.array(changes) { output, change in
            output.object { object in
                switch change {
                case .upsert(let record):
                    object.value("upsert", record)
                case .delete(let id):
                    object.string("delete", id)
                }
            }
        }
        let answer = try await send(
            "POST", ["api", "v1", "catalogs", Self.segment(catalog), "items"], body: Data(output.bytes),
            contentType: "application/json")
        for change in changes {
            switch change {
            case .upsert(let record): if let path = try? itemPath(record.id, in: catalog) { forget(path) }
            case .delete(let id): if let path = try? itemPath(id, in: catalog) { forget(path) }
            }
        }
        return try decode(BatchOutcome.self, answer)
    }

    /// Stores an image as the record's own: the server recognises the file by its bytes (JPEG,
    /// PNG, GIF or WebP, up to 16 MB and 40 megapixels), encodes it again without its metadata,
    /// keeps it in its database and points the record's `image` at it (`/images/stored/…`,
    /// served with thumbnails by every server on that database). A change of the record.
    ///
    /// ```swift
    /// let photo = try Data(contentsOf: URL(fileURLWithPath: "gulyas.jpg"))
    /// let stored = try await client.putImage(photo, of: "gulyas", in: "cookbook")
    /// print(stored.record.image ?? "")   // /images/stored/cookbook/gulyas/….jpg
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: the image file.
    ///   - item: the record's id.
    ///   - catalog: the catalog's id.
    ///   - ifMatch: the ETag the record must still have; nil stores it whatever the record is.
    /// - Returns: the record as stored, its new ETag and the catalog's change number.
    /// - Throws: ``CatalogClientError`` `.unprocessable` for a file that is no image of those
    ///   kinds, is damaged or has too many pixels (the server's message says which),
    ///   `.payloadTooLarge`, `.notFound` for an unknown record, `.preconditionFailed`,
    ///   `.unauthorized`, `.forbidden`.
    @discardableResult
    public func putImage(_ bytes: Data, of item: String, in catalog: String, ifMatch: String? = nil)
        async throws(CatalogClientError) -> VersionedRecord
    {
        let path = try itemPath(item, in: catalog)
        let answer = try await send(
            "PUT", path + ["image"], body: bytes, contentType: Self.imageType(of: bytes),
            headers: try Self.conditions(ifMatch: ifMatch))
        forget(path)
        return try versioned(answer)
    }

    /// Removes the record's stored image and clears its `image`: a change of the record.
    ///
    /// - Parameters:
    ///   - item: the record's id.
    ///   - catalog: the catalog's id.
    ///   - ifMatch: the ETag the record must still have; nil removes it whatever the record is.
    /// - Returns: the record as stored now, its new ETag and the catalog's change number.
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown record or one without a stored
    ///   image, `.preconditionFailed`, `.unauthorized`, `.forbidden`.
    @discardableResult
    public func deleteImage(of item: String, in catalog: String, ifMatch: String? = nil)
        async throws(CatalogClientError) -> VersionedRecord
    {
        let path = try itemPath(item, in: catalog)
        let answer = try await send("DELETE", path + ["image"], headers: try Self.conditions(ifMatch: ifMatch))
        forget(path)
        return try versioned(answer)
    }

    /// The content type an image file's first bytes say (the server reads the bytes itself;
    /// this is for proxies and logs).
    static func imageType(of bytes: Data) -> String {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), head[8...].elementsEqual("WEBP".utf8) {
            return "image/webp"
        }
        return "application/octet-stream"
    }

    // MARK: - Helpers

    func itemPath(_ item: String, in catalog: String) throws(CatalogClientError) -> [String] {
        ["api", "v1", "catalogs", try Self.segment(catalog), "items", try Self.segment(item)]
    }

    /// Drops the cached answer of a record this client just changed, so reading it again never
    /// shows the record as it was (the disk cache may keep answers for a while without asking).
    func forget(_ path: [String]) {
        store?.remove(cacheKey(url(path)))
    }

    /// A record answer: its body, `ETag` and `Catalog-Change`.
    func versioned(_ answer: HTTPAnswer) throws(CatalogClientError) -> VersionedRecord {
        let record = try decode(Record.self, answer)
        guard let etag = answer[header: "ETag"] else {
            throw CatalogClientError(.decoding, "the record came without an ETag")
        }
        return VersionedRecord(record: record, etag: etag, change: try Self.change(of: answer))
    }

    /// The `Catalog-Change` of an answer.
    static func change(of answer: HTTPAnswer) throws(CatalogClientError) -> Int {
        guard let text = answer[header: changeHeader], let change = Int(text) else {
            throw CatalogClientError(.decoding, "the answer came without the catalog's change number")
        }
        return change
    }

    /// `If-Match` for an ETag, checked to be one strong ETag.
    static func conditions(ifMatch: String?) throws(CatalogClientError) -> [(String, String)] {
        guard let ifMatch else { return [] }
        guard ifMatch.count >= 2, ifMatch.hasPrefix("\""), ifMatch.hasSuffix("\""),
            !ifMatch.dropFirst().dropLast().contains("\"")
        else {
            throw CatalogClientError(.invalidArgument, "'ifMatch' must be an ETag as the server sent it (\"…\")")
        }
        return [("If-Match", ifMatch)]
    }
}

/// The problems of a 422 `invalid_record`: `{"error":{"code","message","problems":[{"pointer","message"}]}}`.
struct ProblemsBody: Decodable {
    struct Problem: Decodable {
        var pointer: String
        var message: String
    }

    struct Detail: Decodable {
        var problems: [Problem]?
    }

    var error: Detail

    var problems: [RecordProblem] {
        (error.problems ?? []).map { RecordProblem(pointer: $0.pointer, message: $0.message) }
    }
}

/// Reads record changes from request bodies, checking every value: what the server's
/// `PUT …/items/{item}` and `POST …/items` accept, and what `catalog put` sends. Engine-free: the
/// server, the CLI and the client library call the same code.
///
/// A record comes in the API's shape (``Record``'s JSON, with its `fields` object) or in the
/// shape of `catalog export`'s JSON (the catalog's own field names, read through its
/// ``CatalogDefinition`` as an import reads them). Unknown members are kept as extra fields;
/// `section`, `matches` and `snippet` of the API's shape are the server's and are ignored. What
/// the values must be: an id is a non-empty string of at most 512 bytes without control
/// characters or white space at its ends; a title is a non-empty string of at most 4096
/// characters; `price` a number ≥ 0 (kept exactly), `currency` an active ISO 4217 code and
/// `country` a two-letter ISO 3166 code (both upper-cased), `categories` a list of distinct
/// non-empty strings of at most 200 characters, `quantity` a whole number, `featured` a whole
/// number ≥ 1, `subtitle`, `description` and `image` strings (an empty one is no value, as in an
/// import), each `null` or absent for none; extra fields hold strings, numbers, booleans, `null` and
/// lists (no objects), at most 64 KiB each, under names of at most 200 bytes, and a translation's
/// name (`title@de`) must end in a language tag. No text may hold NUL. Limits are
/// ``RecordChangeLimits``.
///
/// ```swift
/// let record = try RecordChangeReader.record(body, id: "gulyas", definition: definition)
/// let changes = try RecordChangeReader.batch(#"[{"delete":"old"},{"upsert":{…}}]"#.utf8.map { $0 }, definition: definition)
/// ```
///
/// Every function throws ``RecordProblems`` listing every bad value, each at its JSON pointer.
public enum RecordChangeReader {
    /// Reads a batch (`POST /api/v1/catalogs/{id}/items`): a JSON array of operations, or NDJSON
    /// with one operation object a line, told apart by the first byte that is not white space (`[`
    /// or `{`). An operation is `{"upsert": RECORD}` or `{"delete": "ID"}`, exactly one of them; a
    /// record needs its id. No id may be changed twice in one batch. An empty batch (`[]`, or no
    /// lines) is no change. In NDJSON blank lines are skipped, and the pointer of the k-th
    /// operation (from 0) is `/k` as in an array; a line that is not JSON is reported and the lines
    /// after it are still read.
    ///
    /// - Parameters:
    ///   - body: the request body, at most ``RecordChangeLimits/maxBatchBytes`` with at most
    ///     ``RecordChangeLimits/maxOperations`` operations.
    ///   - definition: the catalog's definition, for export-shaped records.
    /// - Returns: the changes, in the body's order.
    /// - Throws: ``RecordProblems``, pointers like `/3/upsert/price`.
    public static func batch(_ body: [UInt8], definition: CatalogDefinition) throws(RecordProblems) -> [RecordChange] {
        var problems = ProblemList()
        guard body.count <= RecordChangeLimits.maxBatchBytes else {
            problems.add(
                "",
                "a batch is at most \(RecordChangeLimits.maxBatchBytes >> 20) MiB (this one has \(body.count) bytes)")
            try problems.check()
            return []
        }
        let changes = body.withUnsafeBufferPointer { buffer in
            var reader = BatchReader(definition: definition, operations: true)
            reader.read(BodyBytes(buffer), problems: &problems)
            return reader.changes
        }
        try problems.check()
        return changes
    }

    /// Reads one record (`PUT /api/v1/catalogs/{id}/items/{item}`): the id in the path is the
    /// record's; a body id that differs from it is a problem at `/id` (or at the member of the
    /// catalog's id field, for an export-shaped record).
    ///
    /// - Parameters:
    ///   - body: the record's JSON, at most ``RecordChangeLimits/maxRecordBytes``.
    ///   - id: the item id of the path.
    ///   - definition: the catalog's definition, for export-shaped records.
    /// - Returns: the record, with `id` as its id.
    /// - Throws: ``RecordProblems``, pointers like `/price`.
    public static func record(_ body: [UInt8], id: String, definition: CatalogDefinition) throws(RecordProblems)
        -> Record
    {
        var problems = ProblemList()
        guard body.count <= RecordChangeLimits.maxRecordBytes else {
            problems.add("", BodyBytes.tooLarge(body.count, limit: RecordChangeLimits.maxRecordBytes))
            try problems.check()
            return Record(id: id, title: "")
        }
        let record: Record? = body.withUnsafeBufferPointer { buffer in
            let bytes = BodyBytes(buffer)
            guard let start = bytes.checkedStart(problems: &problems) else { return nil }
            guard
                let node = bytes.slice(start..<buffer.count).document(
                    limit: RecordChangeLimits.maxRecordBytes, at: "", problems: &problems)
            else { return nil }
            var reader = RecordBodyReader(definition: definition)
            return reader.read(node, at: "", shape: .detect, id: .path(id), problems: &problems)?.record
        }
        try problems.check()
        return record ?? Record(id: id, title: "")
    }

    /// Reads the records `catalog put` sends: a JSON array of records, an object whose `items`
    /// (an API page) or `records` (an export with its definition) member is an array of records,
    /// one record object, or NDJSON with one record a line (when the first line is a whole JSON
    /// value and more follow). Each becomes a ``RecordChange/upsert(_:)``. An export-shaped record
    /// without an id gets the one an import derives from its title (`-2`, `-3` for repeats in the
    /// body); no id may appear twice. There is no limit on the whole body (the CLI splits what it
    /// sends into batches), only on each record.
    ///
    /// - Parameters:
    ///   - body: the file's bytes.
    ///   - definition: the catalog's definition, for export-shaped records.
    /// - Returns: the records, in the body's order.
    /// - Throws: ``RecordProblems``, pointers like `/3/price` (`/items/3/price` in an object).
    public static func records(_ body: [UInt8], definition: CatalogDefinition) throws(RecordProblems) -> [Record] {
        var problems = ProblemList()
        let changes = body.withUnsafeBufferPointer { buffer in
            var reader = BatchReader(definition: definition, operations: false)
            reader.read(BodyBytes(buffer), problems: &problems)
            return reader.changes
        }
        try problems.check()
        return changes.compactMap {
            if case .upsert(let record) = $0 { return record }
            return nil
        }
    }
}

import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// What a record change expects of the record it changes (`If-Match`, `If-None-Match: *`).
public enum EditPrecondition: Sendable, Equatable {
    /// Whatever the record is.
    case any
    /// The record must exist with this ETag (``CatalogEditor/etag(of:)``).
    case matches(String)
    /// The record must not exist.
    case absent
    /// The record must exist (`If-Match: *`).
    case exists
}

/// One change asked of a catalog, with what it expects.
public struct RecordEdit: Sendable, Equatable {
    /// The change.
    public var change: RecordChange
    /// What the record must be before it.
    public var precondition: EditPrecondition

    /// Creates an edit.
    public init(_ change: RecordChange, precondition: EditPrecondition = .any) {
        self.change = change
        self.precondition = precondition
    }

    /// The id of the record it changes.
    public var id: String {
        switch change {
        case .upsert(let record): record.id
        case .delete(let id): id
        }
    }
}

/// What a batch of edits did.
public struct EditOutcome: Sendable, Equatable {
    /// What happened to one record.
    public enum Result: String, Sendable, Equatable {
        case created, replaced, deleted, unchanged
    }

    /// Each edit's result, in the order given, with the record's ETag after it (nil when deleted).
    public var results: [(id: String, result: Result, etag: String?)]
    /// The catalog's change number after the batch.
    public var change: Int

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.change == rhs.change && lhs.results.map(\.id) == rhs.results.map(\.id)
            && lhs.results.map(\.result) == rhs.results.map(\.result)
            && lhs.results.map(\.etag) == rhs.results.map(\.etag)
    }
}

/// An edit that could not be applied: which one (its position in the batch) and why. Nothing of
/// the batch was applied.
public struct EditFailure: Error, Sendable, CustomStringConvertible {
    /// Why.
    public enum Reason: Sendable, Equatable {
        /// The record changed meanwhile (or does not exist) for `If-Match`; its current ETag, if any.
        case preconditionFailed(current: String?)
        /// `If-None-Match: *`, and the record exists; its current ETag.
        case exists(current: String)
        /// A delete of a record the catalog does not have.
        case notFound
    }

    /// The edit's position in the batch.
    public var position: Int
    /// The record's id.
    public var id: String
    /// Why.
    public var reason: Reason

    public var description: String {
        switch reason {
        case .preconditionFailed: "record \"\(id.prefix(200))\" changed meanwhile"
        case .exists: "record \"\(id.prefix(200))\" already exists"
        case .notFound: "no record \"\(id.prefix(200))\""
        }
    }
}

/// Changes a catalog's records in place, the same on every engine: a batch is applied in one
/// write transaction, all or nothing. The records it writes become a new segment of the
/// catalog's index (``SearchSegment``), the ones it replaces or deletes are marked deleted
/// where they were, and every count (sections, categories, the total) is adjusted, so a change
/// costs in proportion to its size, not the catalog's. Each changed record gets the next change
/// number and an entry in the change log, with the record before and after.
///
/// The segments edits leave are merged apart from them (``SegmentMerger``, as ``MergePolicy``
/// asks), so an edit's transaction holds the write lock only for what it changes.
public enum CatalogEditor {
    /// The ETag of a record: a strong validator of its JSON as served.
    public static func etag(of json: [UInt8]) -> String {
        var digest = ContentDigest()
        digest.update(json)
        return "\"" + String(digest.finalized().prefix(32)) + "\""
    }

    /// Applies `edits` to catalog `id`.
    ///
    /// - Parameters:
    ///   - collation: sort keys and sections of the catalog's locale (of the version its
    ///     records were sorted with).
    ///   - actor: who makes the change, for the change log.
    ///   - now: the time the change log records.
    ///   - numbering: the change numbers to give the edits, when a copy of another catalog
    ///     follows that catalog's numbers (``ChangeNumbering``); by default each change takes
    ///     the next number.
    /// - Throws: ``EditFailure`` for an edit whose precondition fails (nothing is applied),
    ///   ``StorageError`` `.catalogNotFound` without the catalog, `.constraint` for one id twice
    ///   or numbers that do not go up.
    public static func apply(
        _ edits: [RecordEdit], to id: String, in database: any CatalogDatabase, collation: any CatalogCollating,
        actor: String? = nil, now: Date = Date(), temporaryDirectory: String? = nil, numbering: ChangeNumbering? = nil
    ) throws -> EditOutcome {
        try database.write { writer in
            try apply(
                edits, to: id, writer: writer, collation: collation, actor: actor, now: now,
                temporaryDirectory: temporaryDirectory, numbering: numbering)
        }
    }

    /// Applies `edits` to catalog `id` inside a write transaction already begun (a re-import that
    /// changes little applies its changes this way).
    public static func apply(
        _ edits: [RecordEdit], to id: String, writer: any CatalogWriter, collation: any CatalogCollating,
        actor: String? = nil, now: Date = Date(), temporaryDirectory: String? = nil, numbering: ChangeNumbering? = nil
    ) throws -> EditOutcome {
        var seen = Set<String>()
        for edit in edits {
            guard seen.insert(edit.id).inserted else {
                throw StorageError(.constraint, "the batch changes record \"\(edit.id.prefix(200))\" twice")
            }
        }
        if let numbering {
            guard numbering.numbers.count == edits.count,
                zip(numbering.numbers, numbering.numbers.dropFirst()).allSatisfy({ $0 < $1 }),
                numbering.numbers.last.map({ $0 <= numbering.through }) ?? true
            else {
                throw StorageError(.constraint, "the batch's change numbers do not go up one edit after another")
            }
        }
        let time = ISO8601DateFormatter.changeLog.string(from: now)
        do {
            let change = try writer.beginChange(of: id)
            let catalog = change.catalog
            guard catalog.collationVersion == collation.version || catalog.summary.count == 0 else {
                throw StorageError(
                    .invalidArgument,
                    "catalog \"\(id)\" was sorted with collation \(catalog.collationVersion), this program has \(collation.version); import it again first"
                )
            }
            var state = try EditState(catalog: catalog, reader: writer.reader)
            var number = catalog.change
            var log: [StoredChange] = []
            var results: [(id: String, result: EditOutcome.Result, etag: String?)] = []
            let builder = try CatalogIndexBuilder(
                definition: catalog.definition, collation: collation, existingCategories: state.categoryNumbers,
                temporaryDirectory: temporaryDirectory)
            for (position, edit) in edits.enumerated() {
                let current = try change.live(id: edit.id)
                let currentTag = current.map { etag(of: $0.hit.json) }
                switch edit.precondition {
                case .any: break
                case .matches(let tag):
                    guard currentTag == tag else {
                        throw EditFailure(
                            position: position, id: edit.id, reason: .preconditionFailed(current: currentTag))
                    }
                case .exists:
                    guard currentTag != nil else {
                        throw EditFailure(position: position, id: edit.id, reason: .preconditionFailed(current: nil))
                    }
                case .absent:
                    if let currentTag {
                        throw EditFailure(position: position, id: edit.id, reason: .exists(current: currentTag))
                    }
                }
                switch edit.change {
                case .upsert(let record):
                    let (_, json) = CatalogIndexBuilder.stored(record, collation: collation)
                    if let current, current.hit.json == json {
                        results.append((record.id, .unchanged, currentTag))
                        continue
                    }
                    number = try next(after: number, position: position, numbering, catalog: catalog)
                    if let current {
                        _ = try change.remove(id: record.id, change: number)
                        state.remove(current)
                    }
                    try builder.add(record)
                    _ = try writer.removeStoredImage(
                        of: id, item: record.id, keeping: storedImageHash(record.image, catalog: id, item: record.id))
                    log.append(
                        StoredChange(
                            number: number, kind: .upsert, item: record.id, record: json,
                            previous: current?.hit.json, actor: actor, time: time))
                    results.append((record.id, current == nil ? .created : .replaced, etag(of: json)))
                case .delete(let itemID):
                    guard let current else { throw EditFailure(position: position, id: itemID, reason: .notFound) }
                    number = try next(after: number, position: position, numbering, catalog: catalog)
                    _ = try change.remove(id: itemID, change: number)
                    _ = try writer.removeStoredImage(of: id, item: itemID, keeping: nil)
                    state.remove(current)
                    log.append(
                        StoredChange(
                            number: number, kind: .delete, item: itemID, record: nil, previous: current.hit.json,
                            actor: actor, time: time))
                    results.append((itemID, .deleted, nil))
                }
            }
            // A copy that follows another catalog's numbers is at its last number afterwards,
            // whether or not a change of it came to this copy.
            if let through = numbering?.through, through > number { number = through }
            guard number != catalog.change else { return EditOutcome(results: results, change: number) }
            if builder.count > 0 {
                let segment = try change.beginSegment()
                let built = try builder.finish(into: segment)
                try segment.commit(documents: built.count)
                state.add(built)
            }
            try change.finish(
                definition: state.definition, count: state.count, sectionCounts: state.sections,
                categories: state.categoryRows(), change: number, log: log)
            if builder.count > 0 { try writer.loadWrittenIndexes(of: id) }
            return EditOutcome(results: results, change: number)
        }
    }

    /// The number of the change an edit at `position` makes: the next after `number`, or the
    /// one `numbering` gives it, which must be newer than the catalog's.
    private static func next(
        after number: Int, position: Int, _ numbering: ChangeNumbering?, catalog: StoredCatalog
    ) throws -> Int {
        guard let numbering else { return number + 1 }
        let given = numbering.numbers[position]
        guard given > number, given > catalog.change else {
            throw StorageError(
                .constraint, "change number \(given) is not after the catalog's \(max(number, catalog.change))")
        }
        return given
    }

    /// The hash of the stored image a record's `image` names when it is the record's own
    /// (``StoredImageLocation``): a record keeps its stored image while it names it, and a change
    /// that names another image, or none, removes it.
    static func storedImageHash(_ image: String?, catalog: String, item: String) -> String? {
        guard let image, let location = StoredImageLocation(path: image), location.catalog == catalog,
            location.item == item
        else { return nil }
        return location.hash
    }

    /// The most records a re-import applies as changes (beyond, or beyond a tenth of the
    /// catalog, it writes the catalog anew, which also merges away every segment).
    public static func reimportLimit(total: Int) -> Int { max(1_000, total / 10) }
}

/// The counts of a catalog as a batch changes them.
struct EditState {
    var definition: CatalogDefinition
    var count: Int
    /// Records by section label index.
    var sections: [Int: Int]
    /// Categories by name: number, image and count.
    var categories: [String: CategoryCount]
    private let labels: [String]

    init(catalog: StoredCatalog, reader: any CatalogReader) throws {
        definition = catalog.definition
        count = catalog.summary.count
        labels = catalog.sectionLabels
        var sections: [Int: Int] = [:]
        for section in try reader.sections(of: catalog) {
            sections[catalog.sectionLabels.firstIndex(of: section.label) ?? max(0, catalog.sectionLabels.count - 1)] =
                section.count
        }
        self.sections = sections
        categories = Dictionary(catalog.categories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var categoryNumbers: [String: Int] { categories.mapValues(\.id) }

    /// A record left.
    mutating func remove(_ record: RemovedRecord) {
        count -= 1
        if let key = record.hit.key {
            sections[key.section, default: 0] -= 1
            if sections[key.section] == 0 { sections[key.section] = nil }
        }
        for name in record.hit.categories {
            categories[name]?.count -= 1
        }
    }

    /// A segment of new records came.
    mutating func add(_ built: IndexedCatalog) {
        count += built.count
        for (position, count) in built.sections { sections[position, default: 0] += count }
        for category in built.categories where category.count > 0 {
            if categories[category.name] == nil {
                categories[category.name] = CategoryCount(
                    id: category.id, name: category.name, image: category.image, count: 0)
            }
            categories[category.name]?.count += category.count
        }
    }

    /// The categories in use or defined, in display order (the definition's first, then by number).
    func categoryRows() -> [CategoryCount] {
        let defined = Dictionary(
            definition.categories.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return categories.values.filter { $0.count > 0 || defined[$0.name] != nil }
            .sorted { a, b in
                let x = defined[a.name] ?? (definition.categories.count + a.id)
                let y = defined[b.name] ?? (definition.categories.count + b.id)
                return x != y ? x < y : a.name < b.name
            }
    }
}

extension ISO8601DateFormatter {
    /// The change log's time stamps: UTC with milliseconds.
    static var changeLog: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

/// The change numbers a batch of edits takes when a copy follows another catalog's numbers (an
/// offline catalog that follows an API key's change feed, which leaves out the changes of
/// records the key does not see): one number per edit, going up, and the number the copy is at
/// after the batch, which may be later than the last edit's.
public struct ChangeNumbering: Sendable, Hashable {
    /// By edit: its change number (an edit that changes nothing takes none).
    public var numbers: [Int]
    /// The catalog's change number after the batch.
    public var through: Int

    public init(numbers: [Int], through: Int) {
        self.numbers = numbers
        self.through = through
    }
}

import CatalogModel
import Foundation

/// What an import would make of a source's first records, without storing anything: the format
/// it found, the source's fields, the role each field would feed, the extra fields' types, and
/// the first records as they would be stored, and why the import would refuse any of them.
///
/// It is the import's own reading: the same plan (``ImportPlan``: the stored catalog's
/// definition or the file's embedded one, with the request's mapping and types), the same reader
/// and the same ``RecordMapper``. So a mapping that changes the preview changes the import the
/// same way.
///
/// ```swift
/// let plan = try ImportPlan.make(request, database: database)
/// let preview = try ImportPreview.read(fetched, plan: plan, limit: 20)
/// preview.mapping[.title]   // "Name"
/// ```
public struct ImportPreview: Sendable, Equatable, Encodable {
    /// The format the file was read as.
    public var format: ImportFormat
    /// The source's field names in the order they were first seen (declared ones first).
    public var fields: [String]
    /// The source field each role is fed by; roles fed by nothing are missing.
    public var mapping: [Role: String]
    /// The extra fields' types, as the catalog's definition gives them.
    public var types: [String: FieldType]
    /// The first records, as they would be stored.
    public var records: [Record]
    /// Why the import would refuse the first records it cannot map (`upload:2:1: record has no
    /// title …`): the import stops at the first, the preview goes on so the mapping can be fixed.
    public var problems: [String]
    /// Whether these are all of the source's records.
    public var complete: Bool
    /// The mapper's notes about the records read.
    public var notes: [String]

    /// The most records a preview reads.
    public static let maxRecords = 100

    /// Reads the first `limit` records of `fetched` the way `plan` imports them.
    ///
    /// - Throws: ``ImportError`` where the source is wrong (with its file, line and column) or a
    ///   record cannot be mapped, as the import would.
    public static func read(_ fetched: FetchedSource, plan: ImportPlan, limit: Int) throws -> ImportPreview {
        let format = try plan.format(of: fetched)
        let definition = plan.definition(for: fetched, format: format)
        let reader = plan.reader(for: fetched, format: format, definition: definition) { _ in }
        var mapper = RecordMapper(definition: definition)
        mapper.requiredSources = plan.request.mapping
        var records: [Record] = []
        var problems: [String] = []
        var read = 0
        var complete = true
        var declared: [String] = []
        do {
            _ = try reader.read(cancellation: .never, fieldNames: { declared = $0 }) { source in
                if !declared.isEmpty {
                    mapper.declare(fieldNames: declared)
                    declared = []
                }
                guard read < limit else { throw Enough() }
                read += 1
                do {
                    records.append(try mapper.record(from: source))
                } catch let problem as ImportError {
                    problems.append(problem.description)
                }
            }
        } catch is Enough {
            complete = false
        }
        if !declared.isEmpty { mapper.declare(fieldNames: declared) }
        if read == 0 { throw ImportError(.empty, "no records found") }
        try mapper.finish()
        var mapping: [Role: String] = [:]
        for role in Role.allCases {
            if let field = mapper.sourceField(for: role) { mapping[role] = field }
        }
        let fields = mapper.sourceFieldNames
        return ImportPreview(
            format: format, fields: fields, mapping: mapping,
            types: definition.fieldTypes.filter { fields.contains($0.key) }, records: records, problems: problems,
            complete: complete, notes: mapper.notes)
    }

    /// Thrown by the preview's reading once it has its records.
    private struct Enough: Error {}

    enum CodingKeys: String, CodingKey {
        case format, fields, mapping, types, records, problems, complete, notes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format.rawValue, forKey: .format)
        try container.encode(fields, forKey: .fields)
        try container.encode(
            Dictionary(uniqueKeysWithValues: mapping.map { ($0.key.rawValue, $0.value) }), forKey: .mapping)
        try container.encode(types, forKey: .types)
        try container.encode(records, forKey: .records)
        try container.encode(problems, forKey: .problems)
        try container.encode(complete, forKey: .complete)
        try container.encode(notes, forKey: .notes)
    }
}

extension FetchedSource {
    /// A local file to read, an upload for instance, named `displayName` in messages.
    public static func local(_ fileURL: URL, displayName: String) -> FetchedSource {
        let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.int64Value
        return FetchedSource(fileURL: fileURL, displayName: displayName, isTemporary: false, byteCount: size)
    }
}

import Foundation

/// Turns ``SourceRecord`` values into ``Record`` values using a ``CatalogDefinition``, and back.
///
/// A source field feeds a role when the definition maps it, or when it is named like the role.
/// Every other field is kept in ``Record/fields``. Records without an id get one derived from the
/// title (`"Klangwerk Studio"` → `"klangwerk-studio"`, then `-2`, `-3` for repeats), so importing
/// the same source twice yields the same ids.
///
/// ```swift
/// var mapper = RecordMapper(definition: definition)
/// let record = try mapper.record(from: sourceRecord)
/// ```
public struct RecordMapper: Sendable {
    /// The definition applied.
    public let definition: CatalogDefinition
    /// Source field names used by roles; everything else is an extra field.
    private let roleBySourceName: [String: Role]
    private var derivedIDs: [String: Int] = [:]
    /// Source field names in the order they were first seen, for exports.
    public private(set) var fieldOrder: [String]
    private var seenFields: Set<String>

    /// Creates a mapper for `definition`.
    public init(definition: CatalogDefinition) {
        self.definition = definition
        var roles: [String: Role] = [:]
        for role in Role.allCases {
            roles[definition.sourceName(for: role)] = role
        }
        roleBySourceName = roles
        fieldOrder = definition.fieldOrder
        seenFields = Set(definition.fieldOrder)
    }

    /// Maps one source record.
    ///
    /// - Throws: ``ImportError`` with code `.invalidValue` naming the field and its location when
    ///   a value does not fit its role, or the record has no title.
    public mutating func record(from source: SourceRecord) throws(ImportError) -> Record {
        var values: [Role: [SourceField]] = [:]
        var extras: [String: [String]] = [:]
        var extraOrder: [String] = []
        for field in source.fields {
            if !seenFields.contains(field.name) {
                seenFields.insert(field.name)
                fieldOrder.append(field.name)
            }
            if let role = roleBySourceName[field.name] {
                values[role, default: []].append(field)
            } else {
                if extras[field.name] == nil { extraOrder.append(field.name) }
                extras[field.name, default: []].append(field.value)
            }
        }

        func single(_ role: Role) -> SourceField? {
            guard let field = values[role]?.first else { return nil }
            return field
        }
        func text(_ role: Role) -> String? {
            guard let value = single(role)?.value else { return nil }
            return value.isEmpty ? nil : value
        }
        func trimmed(_ role: Role) -> (String, SourceField)? {
            guard let field = single(role) else { return nil }
            let value = Self.trim(field.value)
            return value.isEmpty ? nil : (value, field)
        }
        func fail(_ role: Role, _ field: SourceField, _ message: String) -> ImportError {
            ImportError(
                .invalidValue, message, at: field.location.line > 0 ? field.location : source.location,
                field: field.name)
        }

        guard let (title, _) = trimmed(.title) else {
            var names: [String] = []
            for field in source.fields where !names.contains(field.name) { names.append(field.name) }
            let seen = names.isEmpty ? "it has no fields" : "its fields: " + names.prefix(12).joined(separator: ", ")
            throw ImportError(
                .invalidValue,
                "record has no title (expected a non-empty \"\(definition.sourceName(for: .title))\"; \(seen);"
                    + " map one with --field title=NAME)",
                at: source.location)
        }
        var record = Record(id: "", title: Self.normalizeLineEnds(title))
        if record.title.count > 4096 {
            throw ImportError(
                .tooLarge, "title longer than 4096 characters", at: source.location,
                field: definition.sourceName(for: .title))
        }
        if let (id, field) = trimmed(.id) {
            guard id.utf8.count <= 512 else { throw fail(.id, field, "id longer than 512 bytes") }
            record.id = id
        } else {
            record.id = deriveID(from: title)
        }
        record.subtitle = text(.subtitle).map(Self.normalizeLineEnds)
        record.description = text(.description).map(Self.normalizeLineEnds)
        record.categories = categories(from: values[.categories] ?? [])
        if let (value, field) = trimmed(.price) {
            guard let price = Self.parseDecimal(value) else {
                throw fail(.price, field, "price \"\(value)\" is not a number")
            }
            record.price = price
        }
        if let (value, _) = trimmed(.currency) { record.currency = value.uppercased() }
        if let (value, field) = trimmed(.quantity) {
            guard let quantity = Int(value) else {
                throw fail(.quantity, field, "quantity \"\(value)\" is not a whole number")
            }
            record.quantity = quantity
        }
        if let (value, field) = trimmed(.country) {
            guard value.count == 2, value.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                throw fail(.country, field, "country \"\(value)\" is not a two-letter ISO 3166 code")
            }
            record.country = value.uppercased()
        }
        if let (value, _) = trimmed(.image) { record.image = value }
        if let (value, field) = trimmed(.featured) {
            switch value.lowercased() {
            case "true", "yes", "ja", "igen", "x", "hot": record.featured = 1
            case "false", "no", "nein", "nem", "0": record.featured = nil
            default:
                guard let rank = Int(value), rank >= 0 else {
                    throw fail(.featured, field, "featured \"\(value)\" is neither a rank nor true/false")
                }
                record.featured = rank == 0 ? nil : rank
            }
        }
        for name in extraOrder {
            let list = extras[name]!
            record.fields[name] = list.count == 1 ? .text(list[0]) : .list(list)
        }
        return record
    }

    private func categories(from fields: [SourceField]) -> [String] {
        var labels: [String] = []
        func add(_ label: String) {
            let label = Self.trim(label)
            if !label.isEmpty && !labels.contains(label) { labels.append(label) }
        }
        for field in fields {
            let value = Self.trim(field.value)
            if let mapped = definition.categoryValues[value] {
                mapped.forEach(add)
            } else if let separator = definition.categorySeparator, !separator.isEmpty {
                value.components(separatedBy: separator).forEach(add)
            } else {
                add(value)
            }
        }
        return labels
    }

    private mutating func deriveID(from title: String) -> String {
        var slug = ""
        var pendingDash = false
        for word in TextFolding.words(title) {
            if pendingDash { slug += "-" }
            slug += word
            pendingDash = true
            if slug.utf8.count > 80 { break }
        }
        if slug.isEmpty { slug = "item" }
        let seen = derivedIDs[slug, default: 0] + 1
        derivedIDs[slug] = seen
        return seen == 1 ? slug : "\(slug)-\(seen)"
    }

    static func normalizeLineEnds(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// `text` without leading and trailing white space; the common case (none) costs one look
    /// at each end instead of a Foundation call.
    static func trim(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        // Bytes from 0x21 to 0x7E are printable ASCII: no white space at either end.
        if (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last) { return text }
        guard let firstScalar = text.unicodeScalars.first, let lastScalar = text.unicodeScalars.last else {
            return text
        }
        if !firstScalar.properties.isWhitespace && !lastScalar.properties.isWhitespace { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Parses `12.50`, `12,50`, `1234`, `-3.5`; nil for anything else (no thousands separators,
    /// no currency symbols, no exponents). Exact: the digits become the significand.
    public static func parseDecimal(_ text: String) -> Decimal? {
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        var negative = false
        var overflow = false
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if sawPoint { fractionDigits += 1 }
                let (times, o1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                significand = sum
            case UInt8(ascii: "."), UInt8(ascii: ","):
                guard !sawPoint, digits > 0 else { return nil }
                sawPoint = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard offset == 0 else { return nil }
                negative = byte == UInt8(ascii: "-")
            default:
                return nil
            }
        }
        guard digits > 0, !(sawPoint && fractionDigits == 0) else { return nil }
        if overflow {
            // More digits than 64 bits hold: let Foundation parse the normalized text.
            let normalized = text.replacingOccurrences(of: ",", with: ".")
            return Decimal(string: normalized, locale: Self.posix)
        }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}

extension RecordMapper {
    /// The source shape of `record` for exports: role values under their source names, then
    /// extra fields, in the order the source had them.
    public func sourceRecord(from record: Record) -> SourceRecord {
        var byName: [String: [String]] = [:]
        func put(_ role: Role, _ value: String?) {
            guard let value else { return }
            byName[definition.sourceName(for: role)] = [value]
        }
        if definition.mapping[.id] != nil || !isDerivedIDShape(record) {
            put(.id, record.id)
        }
        put(.title, record.title)
        put(.subtitle, record.subtitle)
        if record.description != nil || definition.mapping[.description] != nil {
            byName[definition.sourceName(for: .description)] = [record.description ?? ""]
        }
        if !record.categories.isEmpty {
            byName[definition.sourceName(for: .categories)] = categoryValues(for: record.categories)
        }
        put(.price, record.price.map { "\($0)" })
        put(.currency, record.currency)
        put(.quantity, record.quantity.map(String.init))
        put(.country, record.country)
        put(.image, record.image)
        put(.featured, record.featured.map(String.init))
        for (name, value) in record.fields where byName[name] == nil {
            byName[name] = value.values
        }
        var fields: [SourceField] = []
        var emitted: Set<String> = []
        for name in fieldOrder + byName.keys.sorted() where !emitted.contains(name) {
            emitted.insert(name)
            for value in byName[name] ?? [] { fields.append(SourceField(name: name, value: value)) }
        }
        return SourceRecord(fields: fields)
    }

    /// Whether the record's id is what ``record(from:)`` would derive from its title, in which case
    /// a source without an id field does not need it exported.
    private func isDerivedIDShape(_ record: Record) -> Bool {
        guard definition.mapping[.id] == nil, !fieldOrder.contains(definition.sourceName(for: .id)) else {
            return false
        }
        let slug = TextFolding.words(record.title).joined(separator: "-")
        return record.id == slug || record.id.hasPrefix(slug + "-")
    }

    /// The source values that produce `labels`: a mapped value whose labels are exactly these,
    /// else the labels joined by the separator, else one value per label.
    public func categoryValues(for labels: [String]) -> [String] {
        let wanted = Set(labels)
        if let (value, _) = definition.categoryValues.sorted(by: { $0.key < $1.key }).first(where: {
            Set($0.value) == wanted
        }) {
            return [value]
        }
        let reverse = definition.categoryValues.reduce(into: [String: String]()) { result, entry in
            if entry.value.count == 1 { result[entry.value[0]] = result[entry.value[0]] ?? entry.key }
        }
        let values = labels.map { reverse[$0] ?? $0 }
        if let separator = definition.categorySeparator, !separator.isEmpty {
            return [values.joined(separator: separator)]
        }
        return values
    }
}

import Foundation

/// Turns ``SourceRecord`` values into ``Record`` values using a ``CatalogDefinition``, and back.
///
/// A source field feeds a role when the definition maps it, or when it is named like the role;
/// one field may feed several roles (`--field id=alpha_2 --field country=alpha_2`). Every other
/// field is kept in ``Record/fields``, with its type. Records without an id get one derived from
/// the title (`"Klangwerk Studio"` → `"klangwerk-studio"`, then `-2`, `-3` for repeats in source
/// order), so importing the same source twice yields the same ids. Exports write the numbered ids
/// of repeats, and importing them into a catalog keyed by titles keeps them (and the catalog keyed
/// by titles), whatever the order of the records.
///
/// Nothing is dropped silently:
/// - a single-valued role (every role but `categories`) whose field has several values takes the
///   first, keeps them all in an extra field named like the source field, and ``notes`` says so;
/// - translations: texts with a language (XML's `xml:lang`, or fields named `name@de`, `name_de`,
///   `name.de` after a role's source field) give each role its text in the definition's
///   ``CatalogDefinition/language``, else the text without a language, else the first; every other
///   text is kept as a `ROLE@LANG` field (`title@fr`; the text without a language as `title@und`).
///   Extra fields with a language are kept as `NAME@LANG`.
///
/// ```swift
/// var mapper = RecordMapper(definition: definition)
/// let record = try mapper.record(from: sourceRecord)
/// ```
public struct RecordMapper: Sendable {
    /// The definition applied.
    public let definition: CatalogDefinition
    /// Roles fed by each source field name.
    private let rolesBySource: [String: [Role]]
    /// Role source names whose translations may be spelled into field names (`name@de`).
    private let translatableSources: [String]
    private var derivedIDs: [String: Int] = [:]
    /// Ids of the derived shape (`afghanistan-2`) this source gave in its id field; derived ids
    /// skip them.
    private var givenDerivedIDs: Set<String> = []
    /// Source field names in the order they were first seen, for exports.
    public private(set) var fieldOrder: [String]
    private var orderedNames: Set<String>
    /// What each field name of this source means, decided once per name.
    private var classes: [String: FieldClass] = [:]
    /// This source's field names (declared, then as they occur), for messages.
    private var seenNames: [String] = []
    /// Source fields that carried a language and are not roles.
    public private(set) var translatedFields: [String]
    /// Country names in the catalog's languages (``CountryCode/nameKey(_:)`` to the code), from ICU:
    /// a country field may name countries in them (`Deutschland`), besides English names and codes.
    public var localCountryNames: [String: String] = [:]
    /// Whether a country that is no code or name fails the record (an edit through the API, where
    /// one record is sent and its sender can fix it) instead of staying an extra field with a note
    /// (a file, whose other records should not fail for it).
    public var refusesUnknownCountries = false
    /// Mappings the user gave for this import: each must name a field the source has.
    public var requiredSources: [Role: String] = [:]
    private var severalValues: [SeveralValues: Int] = [:]
    private var severalValuesOrder: [SeveralValues] = []
    private var recordsWithFieldID = 0
    private var recordsWithDerivedID = 0
    private var roleEntries = [[Entry]](repeating: [], count: Role.allCases.count)
    private var unresolvedCountries = 0
    private var firstUnresolvedCountry: (value: String, location: SourceLocation, field: String)?

    /// What a source field name stands for.
    private struct FieldClass {
        /// The roles it feeds (empty for an extra field).
        var roles: [Role]
        /// The name without a language spelled into it (`name` of `name@de`).
        var base: String
        /// The language spelled into the name, if any.
        var language: String?
        /// The extra field's type from the definition.
        var type: FieldType?
    }

    /// One value found for a role.
    private struct Entry {
        var field: SourceField
        var language: String?
    }

    private struct SeveralValues: Hashable {
        var role: Role
        var source: String
        var language: String?
    }

    /// Creates a mapper for `definition`.
    public init(definition: CatalogDefinition) {
        self.definition = definition
        var roles: [String: [Role]] = [:]
        for role in Role.allCases where !definition.isUnmapped(role) {
            roles[definition.sourceName(for: role), default: []].append(role)
        }
        rolesBySource = roles
        translatableSources = Self.textRoles.filter { !definition.isUnmapped($0) }.map {
            definition.sourceName(for: $0)
        }
        fieldOrder = definition.fieldOrder
        orderedNames = Set(definition.fieldOrder)
        translatedFields = definition.translatedFields
    }

    /// Roles whose text may come in several languages.
    static let textRoles: [Role] = [.title, .subtitle, .description, .categories, .image]

    /// Records the names a source declares before its records (a CSV header), so messages list
    /// fields that are empty in every record read so far.
    public mutating func declare(fieldNames: [String]) {
        for name in fieldNames where classes[name] == nil { noteNew(name) }
    }

    /// A name seen for the first time in this source.
    @discardableResult
    private mutating func noteNew(_ name: String) -> FieldClass {
        let info = classify(name)
        classes[name] = info
        seenNames.append(name)
        if orderedNames.insert(name).inserted { fieldOrder.append(name) }
        return info
    }

    /// Maps one source record.
    ///
    /// - Throws: ``ImportError`` with code `.invalidValue` naming the field and its location when
    ///   a value does not fit its role or its type, or the record has no title.
    public mutating func record(from source: SourceRecord) throws(ImportError) -> Record {
        for index in roleEntries.indices where !roleEntries[index].isEmpty {
            roleEntries[index].removeAll(keepingCapacity: true)
        }
        var extras: [String: [SourceField]] = [:]
        var extraOrder: [String] = []
        for field in source.fields {
            let info = classes[field.name] ?? noteNew(field.name)
            let language = field.language ?? info.language
            if !info.roles.isEmpty {
                guard field.kind != .null, field.kind != .emptyList else { continue }
                for role in info.roles {
                    roleEntries[Self.index(of: role)].append(Entry(field: field, language: language))
                }
                continue
            }
            var name = field.name
            if let language = field.language {
                name = field.name + "@" + language
                if !translatedFields.contains(field.name) { translatedFields.append(field.name) }
            }
            if extras[name] == nil {
                extraOrder.append(name)
                extras[name] = [field]
            } else {
                extras[name]!.append(field)
            }
        }

        var record = Record(id: "", title: "")
        var chosen = [SourceField?](repeating: nil, count: Role.allCases.count)
        var keptLists: [String: [SourceField]] = [:]
        for role in Role.allCases {
            let index = Self.index(of: role)
            let entries = roleEntries[index]
            guard !entries.isEmpty else { continue }
            let (picked, others) = pick(entries)
            if role == .categories {
                record.categories = categories(from: picked.map(\.field))
            } else {
                chosen[index] = picked[0].field
                if picked.count > 1 {
                    let sourceName = definition.sourceName(for: role)
                    keptLists[sourceName] = picked.map(\.field)
                    count(SeveralValues(role: role, source: sourceName, language: picked[0].language))
                }
            }
            for (language, group) in others {
                let name = role.rawValue + "@" + (language ?? LanguageTag.undetermined)
                record.fields[name] = try value(of: group.map(\.field), type: nil, name: name)
            }
        }

        func trimmed(_ role: Role) -> (String, SourceField)? {
            guard let field = chosen[Self.index(of: role)] else { return nil }
            let value = Self.trim(field.value)
            return value.isEmpty ? nil : (value, field)
        }
        func text(_ role: Role) -> String? {
            guard let value = chosen[Self.index(of: role)]?.value else { return nil }
            return value.isEmpty ? nil : value
        }
        func fail(_ field: SourceField, _ message: String) -> ImportError {
            ImportError(
                .invalidValue, message, at: field.location.line > 0 ? field.location : source.location,
                field: field.name)
        }

        guard let (title, _) = trimmed(.title) else { throw noTitle(source) }
        record.title = Self.normalizeLineEnds(title)
        if record.title.count > 4096 {
            throw ImportError(
                .tooLarge, "title longer than 4096 characters", at: source.location,
                field: definition.sourceName(for: .title))
        }
        if let (id, field) = trimmed(.id) {
            guard id.utf8.count <= 512 else { throw fail(field, "id longer than 512 bytes") }
            record.id = id
            if hasDerivedShape(id, title: title) {
                // An export of a catalog keyed by titles writes the numbered ids of repeated titles:
                // they stay the ids, and the catalog stays keyed by titles.
                givenDerivedIDs.insert(id)
                recordsWithDerivedID += 1
            } else {
                recordsWithFieldID += 1
            }
        } else {
            record.id = deriveID(from: title)
            recordsWithDerivedID += 1
        }
        record.subtitle = text(.subtitle).map(Self.normalizeLineEnds)
        record.description = text(.description).map(Self.normalizeLineEnds)
        if let (value, field) = trimmed(.price) {
            guard let price = Self.parseDecimal(value) else {
                throw fail(field, "price \"\(value)\" is not a number")
            }
            record.price = price
        }
        if let (value, _) = trimmed(.currency) { record.currency = value.uppercased() }
        if let (value, field) = trimmed(.quantity) {
            guard let quantity = Int(value) else {
                throw fail(field, "quantity \"\(value)\" is not a whole number")
            }
            record.quantity = quantity
        }
        if let (value, field) = trimmed(.country) {
            if let code = CountryCode(value) {
                record.country = code.text
            } else {
                // A name or an alpha-3 code becomes the code, the text is kept as the source had it;
                // anything else is only an extra field, and the summary says so.
                let name = definition.sourceName(for: .country)
                if record.fields[name] == nil { record.fields[name] = .text(field.value) }
                if let code = CountryCode(resolving: value)
                    ?? localCountryNames[CountryCode.nameKey(value)].flatMap({ CountryCode($0) })
                {
                    record.country = code.text
                } else if refusesUnknownCountries {
                    throw fail(
                        field, "country \"\(value)\" is not \(CountryCode.requirement), an alpha-3 code or a name")
                } else {
                    noteUnresolvedCountry(value, field: field, record: source)
                }
            }
        }
        if let (value, _) = trimmed(.image) { record.image = value }
        if let (value, field) = trimmed(.featured) {
            switch value.lowercased() {
            case "true", "yes", "ja", "igen", "x", "hot": record.featured = 1
            case "false", "no", "nein", "nem", "0": record.featured = nil
            default:
                guard let rank = Int(value), rank >= 0 else {
                    throw fail(field, "featured \"\(value)\" is neither a rank nor true/false")
                }
                record.featured = rank == 0 ? nil : rank
            }
        }
        for (name, fields) in keptLists {
            record.fields[name] = try value(of: fields, type: definition.fieldTypes[name], name: name)
        }
        for name in extraOrder {
            let fields = extras[name]!
            let type = classes[fields[0].name]?.type
            record.fields[name] = try value(of: fields, type: type, name: name)
        }
        return record
    }

    /// The role's texts in the language to use, and the others grouped by language.
    private func pick(_ entries: [Entry]) -> (picked: [Entry], others: [(String?, [Entry])]) {
        if entries.allSatisfy({ $0.language == nil }) { return (entries, []) }
        var groups: [(key: String?, tag: String?, entries: [Entry])] = []
        for entry in entries {
            let key = entry.language.map(LanguageTag.normalized)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].entries.append(entry)
            } else {
                groups.append((key, entry.language, [entry]))
            }
        }
        var choice: Int?
        if let wanted = definition.language {
            choice =
                groups.firstIndex { $0.tag.map { LanguageTag.matches($0, wanted) } ?? false }
                ?? groups.firstIndex { $0.tag.map { LanguageTag.primary($0) == LanguageTag.primary(wanted) } ?? false }
        }
        let picked = choice ?? groups.firstIndex { $0.key == nil } ?? 0
        let others = groups.indices.filter { $0 != picked }.map { (groups[$0].tag, groups[$0].entries) }
        return (groups[picked].entries, others)
    }

    /// The typed value of one extra field's occurrences: one value, or a list when the source
    /// repeated the field or held an array.
    private func value(of fields: [SourceField], type: FieldType?, name: String) throws(ImportError) -> FieldValue {
        if fields.count == 1, !fields[0].isListElement {
            return try Self.scalar(fields[0], type: type, name: name) ?? .list([])
        }
        var values: [FieldValue] = []
        values.reserveCapacity(fields.count)
        for field in fields {
            if let value = try Self.scalar(field, type: type, name: name) { values.append(value) }
        }
        return .list(values)
    }

    /// One occurrence as a value: text becomes a number or a boolean when the definition types the
    /// field; nil for an empty-list marker.
    static func scalar(_ field: SourceField, type: FieldType?, name: String) throws(ImportError) -> FieldValue? {
        switch field.kind {
        case .number: return .number(field.value)
        case .bool: return .bool(field.value == "true")
        case .null: return .null
        case .emptyList: return nil
        case .text:
            guard let type, type != .text else { return .text(field.value) }
            let text = trim(field.value)
            if text.isEmpty { return .null }
            switch type {
            case .number:
                let literal = text.replacingOccurrences(of: ",", with: ".")
                guard JSONNumber.isValid(literal) else {
                    throw ImportError(
                        .invalidValue, "\"\(text)\" is not a number (the field is typed as a number)",
                        at: field.location, field: name)
                }
                return .number(literal)
            case .bool:
                switch text.lowercased() {
                case "true", "yes", "1": return .bool(true)
                case "false", "no", "0": return .bool(false)
                default:
                    throw ImportError(
                        .invalidValue, "\"\(text)\" is not true or false (the field is typed as a boolean)",
                        at: field.location, field: name)
                }
            case .date:
                guard FieldValueOrder.date(text) != nil else {
                    throw ImportError(
                        .invalidValue,
                        "\"\(text)\" is not an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:30Z "
                            + "(the field is typed as a date)",
                        at: field.location, field: name)
                }
                return .text(text)
            case .text: return .text(field.value)
            }
        }
    }

    private func classify(_ name: String) -> FieldClass {
        if let roles = rolesBySource[name] {
            return FieldClass(roles: roles, base: name, language: nil, type: nil)
        }
        for source in translatableSources where name.count > source.count + 2 && name.hasPrefix(source) {
            let rest = name.dropFirst(source.count)
            guard let mark = rest.first, mark == "@" || mark == "_" || mark == "." else { continue }
            let tag = rest.dropFirst()
            if LanguageTag.isTag(tag), let roles = rolesBySource[source] {
                return FieldClass(roles: roles, base: source, language: String(tag), type: nil)
            }
        }
        return FieldClass(roles: [], base: name, language: nil, type: definition.fieldTypes[name])
    }

    private mutating func noteUnresolvedCountry(_ value: String, field: SourceField, record: SourceRecord) {
        unresolvedCountries += 1
        if firstUnresolvedCountry == nil {
            firstUnresolvedCountry = (value, field.location.line > 0 ? field.location : record.location, field.name)
        }
    }

    private mutating func count(_ key: SeveralValues) {
        if severalValues[key] == nil { severalValuesOrder.append(key) }
        severalValues[key, default: 0] += 1
    }

    private static func index(of role: Role) -> Int {
        switch role {
        case .id: 0
        case .title: 1
        case .subtitle: 2
        case .description: 3
        case .categories: 4
        case .price: 5
        case .currency: 6
        case .quantity: 7
        case .country: 8
        case .image: 9
        case .featured: 10
        }
    }

    // MARK: - After reading

    /// What the import should tell the user: one sentence per role whose source field had
    /// several values in some records.
    public var notes: [String] {
        var notes = severalValuesOrder.map { key in
            let count = severalValues[key] ?? 0
            let records = count == 1 ? "1 record had" : "\(count) records had"
            let which = key.language.map { "first \"\($0)\" one" } ?? "first untranslated one"
            return "\(key.role.rawValue): \(records) several \"\(key.source)\" values; the \(which) is the "
                + "\(key.role.rawValue), all are kept in \"\(key.source)\""
        }
        if let (value, location, field) = firstUnresolvedCountry {
            let records = unresolvedCountries == 1 ? "1 record has" : "\(unresolvedCountries) records have"
            notes.append(
                "\(location): field \"\(field)\": country \"\(value)\" is not a country code or name; "
                    + "\(records) no country, the text is kept in \"\(field)\"")
        }
        return notes
    }

    /// How this source identified records: from the id field if any record had one, else from
    /// titles. Nil before any record.
    public var idSource: IDSource? {
        if recordsWithFieldID > 0 { return .field(definition.sourceName(for: .id)) }
        if recordsWithDerivedID > 0 { return .title(definition.sourceName(for: .title)) }
        return nil
    }

    /// Checks, after the last record, that every mapping in ``requiredSources`` named a field
    /// the source has.
    ///
    /// - Throws: `.notFound`: `--field id=alpha2: no field "alpha2" in the source; its fields: …`.
    public func finish() throws(ImportError) {
        for role in Role.allCases {
            guard let name = requiredSources[role], !name.isEmpty, !hasSeen(name) else { continue }
            throw missingField(role: role, name: name, at: SourceLocation())
        }
    }

    /// The source field that feeds `role` in this source so far: the definition's name for it,
    /// when a record (or the declared names) had that field or a translation of it; nil when the
    /// role is fed by nothing. An import preview shows it as the mapping the import makes.
    public func sourceField(for role: Role) -> String? {
        let name = definition.sourceName(for: role)
        return hasSeen(name) ? name : nil
    }

    /// This source's field names, declared ones first, then as they occurred.
    public var sourceFieldNames: [String] { seenNames }

    /// Whether a field (or a translation of it) occurred.
    private func hasSeen(_ name: String) -> Bool {
        guard let info = classes[name] else {
            return classes.values.contains { $0.base == name }
        }
        return info.base == name
    }

    private func missingField(role: Role, name: String, at location: SourceLocation) -> ImportError {
        ImportError(
            .notFound,
            "--field \(role.rawValue)=\(name): no field \"\(name)\" in the source; \(fieldsHint)", at: location)
    }

    /// `its fields: a, b, c` with every field seen (declared ones included), `… and N more` past 20.
    public var fieldsHint: String {
        let names = seenNames
        guard !names.isEmpty else { return "it has no fields" }
        var text = "its fields: " + names.prefix(20).joined(separator: ", ")
        if names.count > 20 { text += " … and \(names.count - 20) more" }
        return text
    }

    private func noTitle(_ source: SourceRecord) -> ImportError {
        let name = definition.sourceName(for: .title)
        if requiredSources[.title] != nil, !hasSeen(name) {
            return missingField(role: .title, name: name, at: source.location)
        }
        return ImportError(
            .invalidValue,
            "record has no title (expected a non-empty \"\(name)\"; \(fieldsHint); map one with --field title=NAME)",
            at: source.location)
    }

    // MARK: - Values

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

    /// The id a title gives before repeats are numbered: its folded words joined by `-`, the words
    /// past 80 bytes left out; `item` for a title without words.
    static func slug(of title: String) -> String {
        var slug = ""
        var pendingDash = false
        for word in TextFolding.words(title) {
            if pendingDash { slug += "-" }
            slug += word
            pendingDash = true
            if slug.utf8.count > 80 { break }
        }
        return slug.isEmpty ? "item" : slug
    }

    private mutating func deriveID(from title: String) -> String {
        let slug = Self.slug(of: title)
        while true {
            let seen = derivedIDs[slug, default: 0] + 1
            derivedIDs[slug] = seen
            let id = seen == 1 ? slug : "\(slug)-\(seen)"
            if !givenDerivedIDs.contains(id) { return id }
        }
    }

    /// Whether `id`, given in the id field of a catalog whose records took their ids from titles, is
    /// what ``deriveID(from:)`` makes of `title`: the title's slug, or the slug and `-N` (N ≥ 2).
    private func hasDerivedShape(_ id: String, title: String) -> Bool {
        guard definition.mapping[.id] == nil, case .title? = definition.idSource else { return false }
        let slug = Self.slug(of: title)
        guard id.hasPrefix(slug) else { return false }
        let rest = id.dropFirst(slug.count)
        guard rest.first == "-", let number = Int(rest.dropFirst()), number >= 2 else { return rest.isEmpty }
        return String(number) == rest.dropFirst()
    }

    static func normalizeLineEnds(_ text: String) -> String {
        // Searched in the string's bytes at once (memchr), not a byte at a time through its view.
        let hasReturn =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.baseAddress.map { memchr($0, 0x0D, bytes.count) != nil } ?? false
            } ?? text.utf8.contains(0x0D)
        guard hasReturn else { return text }
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

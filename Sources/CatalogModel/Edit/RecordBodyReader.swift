import Foundation

/// Reads one record object of a request body into a checked ``Record``. A record comes in one of
/// two shapes:
///
/// - **The API's**, ``Record``'s JSON as the API answers with it: taken when the object has a
///   `fields` member that is an object (the API's records always have one), and always for a merge
///   patch's result. Roles are members under their names, with their JSON types (`price` a number,
///   `categories` a list of strings); extra fields are in `fields`, and any other member is kept as
///   an extra field too. `section`, `matches` and `snippet` are the server's and are ignored.
/// - **The export's**, one record of `catalog export`'s JSON: any other object. Its members are the
///   catalog's source fields, read as an import of the catalog reads them (``RecordMapper``):
///   mapped names feed the roles (`TitelText` the title), category values go through the
///   definition, `title@de` is a translation, numbers may be texts (`"12,50"`), and a record
///   without an id gets one from its title where that is allowed.
///
/// Either way the values are then checked by ``RecordRules``, every problem at its pointer.
struct RecordBodyReader {
    let definition: CatalogDefinition
    /// The mapper of export-shaped records: one for a whole body, so that titles deriving the same
    /// id give `-2`, `-3` as in an import.
    private var mapper: RecordMapper

    /// Which shape a record has.
    enum Shape {
        /// The API's when it has a `fields` object (or names the title `title` where the source
        /// does not), else the export's.
        case detect
        /// The API's.
        case api
    }

    /// Where a record's id comes from.
    enum IDRule {
        /// The path's (`PUT …/items/ID`): a body id that differs is a problem.
        case path(String)
        /// The body's, which must have one.
        case required
        /// The body's, or derived from the title for an export-shaped record without one.
        case derivable
    }

    /// A record read, with the pointer of its id member (for a problem about the id later).
    struct Result {
        var record: Record
        var idPointer: String
    }

    /// Members of the API's shape that the server computes: a body's are ignored.
    static let ignoredMembers: Set<String> = ["section", "matches", "snippet"]
    /// Members of the API's shape that are not roles.
    static let apiMembers: Set<String> = ignoredMembers.union(["fields"])

    /// Whether a record's members are the API's shape: it has a `fields` object, or its title is
    /// under `title` where the catalog's source calls it something else (`TitelText`), which only
    /// the API's shape does.
    static func looksLikeAPI(_ keys: [String], fieldsObject: Bool, definition: CatalogDefinition) -> Bool {
        if fieldsObject { return true }
        let titleSource = definition.sourceName(for: .title)
        return titleSource != "title" && keys.contains("title") && !keys.contains(titleSource)
    }

    init(definition: CatalogDefinition) {
        self.definition = definition
        var mapper = RecordMapper(definition: definition)
        mapper.refusesUnknownCountries = true
        self.mapper = mapper
    }

    /// The record `node` holds, or nil when it has problems (added to `problems`).
    mutating func read(
        _ node: BodyNode, at pointer: String, shape: Shape, id rule: IDRule, problems: inout ProblemList
    ) -> Result? {
        let before = problems.count
        guard let members = node.members else {
            problems.add(pointer, "a record must be a JSON object, not \(node.kind)")
            return nil
        }
        let isAPI: Bool =
            switch shape {
            case .api: true
            case .detect:
                Self.looksLikeAPI(
                    members.map(\.key),
                    fieldsObject: members.contains { $0.key == "fields" && $0.value.members != nil },
                    definition: definition)
            }
        let derivable: Bool
        if case .derivable = rule { derivable = !isAPI } else { derivable = false }
        guard
            let read =
                isAPI
                ? readAPI(members, at: pointer, problems: &problems)
                : readExport(members, at: pointer, derivable: derivable, problems: &problems)
        else { return nil }
        var (record, locator, bodyID) = read
        if case .path(let pathID) = rule {
            if let bodyID, bodyID != pathID {
                problems.add(
                    locator.pointer(.id),
                    "id \(RecordRules.quoted(bodyID)) differs from the item's id \(RecordRules.quoted(pathID))")
                locator.reported.insert(.id)
            }
            record.id = pathID
        }
        RecordRules.check(&record, at: locator, definition: definition, problems: &problems)
        guard problems.count == before else { return nil }
        // Escapes can make the API's JSON of a record longer than the body it came in.
        let size = record.jsonBytes.count
        guard size <= RecordChangeLimits.maxRecordBytes else {
            problems.add(
                pointer,
                "a record is at most \(RecordChangeLimits.maxRecordBytes / 1024) KiB of JSON "
                    + "(this one has \(size) bytes as the API writes it)")
            return nil
        }
        return Result(record: record, idPointer: locator.pointer(.id))
    }

    // MARK: - The API's shape

    private func readAPI(_ members: [BodyMember], at pointer: String, problems: inout ProblemList) -> (
        Record, RecordLocator, String?
    )? {
        var record = Record(id: "", title: "")
        var locator = RecordLocator(base: pointer)
        var bodyID: String?
        var seen: Set<String> = []

        func addField(_ name: String, _ node: BodyNode, at fieldPointer: String, topLevel: Bool) {
            var objectAt: String?
            guard let value = node.fieldValue(at: fieldPointer, objectAt: &objectAt) else {
                problems.add(
                    objectAt ?? fieldPointer,
                    "field \(RecordRules.quoted(name)) must not hold an object "
                        + "(a field value is a string, number, boolean, null or list)")
                return
            }
            guard record.fields[name] == nil else {
                problems.add(fieldPointer, "field \(RecordRules.quoted(name)) is given twice")
                return
            }
            record.fields[name] = value
            if topLevel { locator.fields[name] = fieldPointer }
            locator.fieldOrder[name] = locator.fieldOrder.count
        }

        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            guard seen.insert(member.key).inserted else {
                problems.add(at, "\(RecordRules.quoted(member.key)) appears twice")
                continue
            }
            switch member.key {
            case _ where Self.ignoredMembers.contains(member.key):
                continue
            case "fields":
                switch member.value {
                case .null:
                    continue
                case .object(let fields):
                    var seenFields: Set<String> = []
                    for field in fields {
                        let fieldAt = JSONPointer.appending(at, field.key)
                        guard seenFields.insert(field.key).inserted else {
                            problems.add(fieldAt, "\(RecordRules.quoted(field.key)) appears twice")
                            continue
                        }
                        addField(field.key, field.value, at: fieldAt, topLevel: false)
                    }
                default:
                    problems.add(at, "fields must be an object of field values, not \(member.value.kind)")
                }
            default:
                guard let role = Role(rawValue: member.key) else {
                    addField(member.key, member.value, at: at, topLevel: true)
                    continue
                }
                if !readRole(role, member.value, at: at, into: &record, locator: &locator, problems: &problems) {
                    locator.reported.insert(role)
                }
                if role == .id, case .string(let text) = member.value { bodyID = text }
            }
        }
        return (record, locator, bodyID)
    }

    /// Reads one role's member into `record`; false when it added a problem.
    private func readRole(
        _ role: Role, _ node: BodyNode, at pointer: String, into record: inout Record, locator: inout RecordLocator,
        problems: inout ProblemList
    ) -> Bool {
        func fail(_ message: String) -> Bool {
            problems.add(pointer, message)
            return false
        }
        switch role {
        case .id:
            guard case .string(let text) = node else { return fail("id must be a non-empty string") }
            record.id = text
        case .title:
            guard case .string(let text) = node else { return fail("title must be a non-empty string") }
            record.title = text
        case .subtitle, .description, .image, .currency, .country:
            var text: String?
            switch node {
            case .null: text = nil
            case .string(let value): text = value.isEmpty ? nil : value
            default: return fail("\(role.rawValue) must be a string or null")
            }
            switch role {
            case .subtitle: record.subtitle = text
            case .description: record.description = text
            case .image: record.image = text
            case .currency: record.currency = text
            default: record.country = text
            }
        case .categories:
            switch node {
            case .null:
                record.categories = []
            case .array(let elements):
                var pointers: [String] = []
                var ok = true
                for (index, element) in elements.enumerated() {
                    let at = JSONPointer.appending(pointer, index)
                    guard case .string(let label) = element else {
                        problems.add(at, "a category must be a string, not \(element.kind)")
                        ok = false
                        continue
                    }
                    record.categories.append(label)
                    pointers.append(at)
                }
                locator.categories = pointers
                return ok
            default:
                return fail("categories must be a list of strings")
            }
        case .price:
            switch node {
            case .null: record.price = nil
            case .number(let literal):
                switch Self.price(literal) {
                case .success(let price): record.price = price
                case .failure(let problem): return fail(problem.message)
                }
            default: return fail("price must be a number ≥ 0 or null")
            }
        case .quantity, .featured:
            let wanted = role == .quantity ? "a whole number" : "a whole number ≥ 1"
            var value: Int?
            switch node {
            case .null: value = nil
            case .number(let literal):
                guard let number = Int(literal) else {
                    if literal.utf8.contains(where: { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }) {
                        return fail("\(role.rawValue) must be \(wanted) (without a point or an exponent)")
                    }
                    let range = role == .quantity ? "from \(Int.min) to \(Int.max)" : "from 1 to \(Int.max)"
                    return fail("\(role.rawValue) must be a whole number \(range)")
                }
                value = number
            default: return fail("\(role.rawValue) must be \(wanted) or null")
            }
            if role == .quantity { record.quantity = value } else { record.featured = value }
        }
        return true
    }

    /// Why a price literal is refused.
    struct PriceProblem: Error {
        var message: String
    }

    /// A price from its JSON literal, exactly: a plain decimal number (no exponent) of at most 38
    /// significant digits, which ``Decimal`` holds without rounding.
    static func price(_ literal: String) -> Swift.Result<Decimal, PriceProblem> {
        let bytes = Array(literal.utf8)
        if bytes.contains(where: { $0 == 0x65 || $0 == 0x45 }) {
            return .failure(PriceProblem(message: "price must be a number ≥ 0 written without an exponent"))
        }
        var digits = bytes.filter { $0 >= 0x30 && $0 <= 0x39 }
        if let point = bytes.firstIndex(of: 0x2E) {
            // Trailing zeros of the fraction say nothing; leading zeros of the whole number neither.
            let fractionDigits = bytes.count - point - 1
            var trailing = 0
            while trailing < fractionDigits, bytes[bytes.count - 1 - trailing] == 0x30 { trailing += 1 }
            digits.removeLast(trailing)
        }
        let significant = digits.drop { $0 == 0x30 }.count
        guard significant <= 38 else {
            return .failure(PriceProblem(message: "price must have at most 38 significant digits"))
        }
        guard let price = DecimalText.parse(literal), !price.isNaN else {
            return .failure(PriceProblem(message: "price must be a number ≥ 0"))
        }
        return .success(price)
    }

    // MARK: - The export's shape

    private mutating func readExport(
        _ members: [BodyMember], at pointer: String, derivable: Bool, problems: inout ProblemList
    ) -> (Record, RecordLocator, String?)? {
        var fields: [SourceField] = []
        var keys: [String: String] = [:]
        var order: [String: Int] = [:]
        var keyList: [String] = []
        for member in members {
            let at = JSONPointer.appending(pointer, member.key)
            guard keys[member.key] == nil else {
                problems.add(at, "\(RecordRules.quoted(member.key)) appears twice")
                continue
            }
            keys[member.key] = at
            order[member.key] = order.count
            keyList.append(member.key)
            if let objectAt = Self.sourceFields(member.key, member.value, at: at, into: &fields) {
                problems.add(
                    objectAt,
                    "\(RecordRules.quoted(member.key)) must not hold an object "
                        + "(a field value is a string, number, boolean, null or list)")
            }
        }

        func sourcePointer(_ name: String) -> String {
            if let at = keys[name] { return at }
            for key in keyList where key.count > name.count && key.hasPrefix(name) {
                let mark = key.utf8[key.utf8.index(key.utf8.startIndex, offsetBy: name.utf8.count)]
                if mark == 0x40 || mark == 0x5F || mark == 0x2E { return keys[key]! }
            }
            return JSONPointer.appending(pointer, name)
        }
        let titleName = definition.sourceName(for: .title)
        let standInTitle = SourceField(name: titleName, value: "untitled")

        // An import stops at the first bad value; a body lists them all: each value the mapper
        // refuses is reported and left out, and the record mapped again without it.
        var source = SourceRecord(fields: fields)
        var mapped: Record?
        var attempts = 0
        while mapped == nil, attempts <= members.count + 1 {
            attempts += 1
            var attempt = mapper
            do throws(ImportError) {
                mapped = try attempt.record(from: source)
                mapper = attempt
            } catch {
                guard error.code == .invalidValue || error.code == .tooLarge else {
                    problems.add(pointer, error.message)
                    return nil
                }
                let name = error.field ?? titleName
                if error.field == nil {
                    let wanted =
                        titleName == "title" ? "" : " (the catalog reads it from \(RecordRules.quoted(titleName)))"
                    problems.add(sourcePointer(titleName), "title must be a non-empty string" + wanted)
                } else {
                    problems.add(sourcePointer(name), error.message)
                }
                source.fields.removeAll { Self.feeds($0.name, name) }
                if name == titleName { source.fields.append(standInTitle) }
            }
        }
        guard var record = mapped else { return nil }

        var locator = RecordLocator(base: pointer)
        for role in Role.allCases { locator.roles[role] = sourcePointer(definition.sourceName(for: role)) }
        for name in record.fields.keys {
            var key = name
            if keys[name] == nil, let at = name.firstIndex(of: "@"), let role = Role(rawValue: String(name[..<at])) {
                let language = String(name[name.index(after: at)...])
                let sourceName = definition.sourceName(for: role)
                key = language == LanguageTag.undetermined ? sourceName : sourceName + "@" + language
            }
            locator.fields[name] = keys[key] ?? sourcePointer(key)
            locator.fieldOrder[name] = order[key] ?? order.count
        }

        let idName = definition.sourceName(for: .id)
        let hasID = source.fields.contains {
            $0.name == idName && $0.kind != .null && $0.kind != .emptyList && !RecordMapper.trim($0.value).isEmpty
        }
        if !hasID && !derivable { record.id = "" }
        return (record, locator, hasID ? record.id : nil)
    }

    /// Whether the source field `name` is `source` or one of its translations (`name@de`,
    /// `name_de`, `name.de`), which the mapper reads together.
    private static func feeds(_ name: String, _ source: String) -> Bool {
        guard name.hasPrefix(source) else { return false }
        guard name.utf8.count > source.utf8.count else { return true }
        let mark = name.utf8[name.utf8.index(name.utf8.startIndex, offsetBy: source.utf8.count)]
        return mark == 0x40 || mark == 0x5F || mark == 0x2E
    }

    /// The source fields a member gives, as a JSON import gives them (``SourceField``: an array is
    /// one field per element, lists inside lists flattened, `[]` one ``SourceField/Kind/emptyList``
    /// field). Returns the pointer of an object inside, which no field can hold.
    private static func sourceFields(
        _ name: String, _ node: BodyNode, at pointer: String, into fields: inout [SourceField]
    ) -> String? {
        func scalar(_ node: BodyNode, listElement: Bool) -> SourceField? {
            switch node {
            case .null: SourceField(name: name, value: "", kind: .null, isListElement: listElement)
            case .bool(let flag):
                SourceField(name: name, value: flag ? "true" : "false", kind: .bool, isListElement: listElement)
            case .number(let literal):
                SourceField(name: name, value: literal, kind: .number, isListElement: listElement)
            case .string(let text): SourceField(name: name, value: text, isListElement: listElement)
            case .array, .object: nil
            }
        }
        func elements(_ list: [BodyNode], at pointer: String) -> String? {
            for (index, element) in list.enumerated() {
                let at = JSONPointer.appending(pointer, index)
                switch element {
                case .object: return at
                case .array(let inner): if let objectAt = elements(inner, at: at) { return objectAt }
                default: fields.append(scalar(element, listElement: true)!)
                }
            }
            return nil
        }
        switch node {
        case .object:
            return pointer
        case .array(let list):
            if list.isEmpty {
                fields.append(SourceField(name: name, value: "", kind: .emptyList))
                return nil
            }
            return elements(list, at: pointer)
        default:
            fields.append(scalar(node, listElement: false)!)
            return nil
        }
    }
}

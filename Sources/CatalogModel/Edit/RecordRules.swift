import Foundation

/// What a changed record's values must be, whichever shape its body had: the one place the API, a
/// batch, a merge patch and `catalog put` are checked. Each rule adds a problem at the pointer of
/// the value it is about and goes on, so every bad value is listed; codes are upper-cased.
enum RecordRules {
    /// Checks every value of `record`, normalizing the currency and country codes. Roles whose
    /// member was already refused (``RecordLocator/reported``) are not checked again.
    static func check(
        _ record: inout Record, at locator: RecordLocator, definition: CatalogDefinition,
        problems: inout ProblemList
    ) {
        func wanted(_ role: Role) -> Bool { !locator.reported.contains(role) }
        if wanted(.id) { checkID(record.id, at: locator.pointer(.id), problems: &problems) }
        if wanted(.title) { checkTitle(record.title, at: locator.pointer(.title), problems: &problems) }
        for (role, value) in [
            (Role.subtitle, record.subtitle), (.description, record.description), (.image, record.image),
        ]
        where wanted(role) {
            guard let value else { continue }
            checkText(value, named: role.rawValue, at: locator.pointer(role), problems: &problems)
        }
        if wanted(.categories) { checkCategories(record.categories, at: locator, problems: &problems) }
        if let price = record.price, wanted(.price) {
            if price < 0 || price.isNaN {
                problems.add(locator.pointer(.price), "price must be a number ≥ 0")
            } else if case .failure(let problem) = RecordBodyReader.price(DecimalText.format(price)) {
                // An export's text price the API's JSON could not carry exactly.
                problems.add(locator.pointer(.price), problem.message)
            }
        }
        if let currency = record.currency, wanted(.currency) {
            if let code = CurrencyCode(currency), code.isActive {
                record.currency = code.text
            } else if let code = CurrencyCode(currency) {
                problems.add(locator.pointer(.currency), "currency \(quoted(code.text)) is not an active ISO 4217 code")
            } else {
                problems.add(locator.pointer(.currency), "currency \(quoted(currency)) is not an ISO 4217 code")
            }
        }
        if let country = record.country, wanted(.country) {
            if let code = CountryCode(country) {
                record.country = code.text
            } else {
                problems.add(locator.pointer(.country), "country \(quoted(country)) is not \(CountryCode.requirement)")
            }
        }
        if let featured = record.featured, featured < 1 {
            problems.add(locator.pointer(.featured), "featured must be a whole number ≥ 1 or null")
        }
        for name in record.fields.keys.sorted(by: { locator.order(of: $0) < locator.order(of: $1) }) {
            checkField(
                name, record.fields[name]!, at: locator.pointer(field: name), definition: definition,
                problems: &problems)
        }
    }

    /// An id: a non-empty text of at most ``RecordChangeLimits/maxIDBytes`` bytes, without control
    /// characters, and without white space at either end (an import would trim it, so an export
    /// read back would change it).
    static func checkID(_ id: String, at pointer: String, problems: inout ProblemList) {
        if id.isEmpty {
            problems.add(pointer, "id must be a non-empty string")
        } else if id.utf8.count > RecordChangeLimits.maxIDBytes {
            problems.add(pointer, "id must be at most \(RecordChangeLimits.maxIDBytes) bytes of UTF-8")
        } else if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.add(pointer, "id must not contain control characters")
        } else if hasSpaceAtAnEnd(id) {
            problems.add(pointer, "id must not start or end with white space")
        }
    }

    /// A title: some text that is not white space, at most ``RecordChangeLimits/maxTitleCharacters``.
    static func checkTitle(_ title: String, at pointer: String, problems: inout ProblemList) {
        if title.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            problems.add(pointer, "title must be a non-empty string")
        } else if title.count > RecordChangeLimits.maxTitleCharacters {
            problems.add(pointer, "title must be at most \(RecordChangeLimits.maxTitleCharacters) characters")
        } else if title.utf8.contains(0) {
            problems.add(pointer, "title must not contain NUL (U+0000)")
        }
    }

    /// A text value: at most ``RecordChangeLimits/maxFieldValueBytes``, without NUL (which
    /// PostgreSQL cannot store).
    static func checkText(_ text: String, named name: String, at pointer: String, problems: inout ProblemList) {
        if text.utf8.count > RecordChangeLimits.maxFieldValueBytes {
            problems.add(
                pointer, "\(name) must be at most \(RecordChangeLimits.maxFieldValueBytes / 1024) KiB of UTF-8")
        } else if text.utf8.contains(0) {
            problems.add(pointer, "\(name) must not contain NUL (U+0000)")
        }
    }

    /// Category labels: each a non-empty text of at most ``RecordChangeLimits/maxCategoryCharacters``,
    /// without white space at either end, each once.
    static func checkCategories(_ categories: [String], at locator: RecordLocator, problems: inout ProblemList) {
        var seen: Set<String> = []
        for (index, label) in categories.enumerated() {
            let pointer = locator.pointer(category: index)
            if label.isEmpty || label.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                problems.add(pointer, "a category must be a non-empty string")
            } else if label.count > RecordChangeLimits.maxCategoryCharacters {
                problems.add(
                    pointer, "a category must be at most \(RecordChangeLimits.maxCategoryCharacters) characters")
            } else if hasSpaceAtAnEnd(label) {
                problems.add(pointer, "category \(quoted(label)) must not start or end with white space")
            } else if label.utf8.contains(0) {
                problems.add(pointer, "a category must not contain NUL (U+0000)")
            } else if !seen.insert(label).inserted {
                problems.add(pointer, "category \(quoted(label)) is listed twice")
            }
        }
    }

    /// An extra field: its name, its translation's language, the size and texts of its value.
    static func checkField(
        _ name: String, _ value: FieldValue, at pointer: String, definition: CatalogDefinition,
        problems: inout ProblemList
    ) {
        if name.isEmpty {
            problems.add(pointer, "a field name must not be empty")
            return
        }
        if name.utf8.count > RecordChangeLimits.maxFieldNameBytes {
            problems.add(pointer, "a field name must be at most \(RecordChangeLimits.maxFieldNameBytes) bytes of UTF-8")
            return
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.add(pointer, "field name \(quoted(name)) must not contain control characters")
            return
        }
        if let (base, language) = translation(name, definition: definition),
            language != LanguageTag.undetermined, !LanguageTag.isTag(Substring(language))
        {
            problems.add(pointer, "field \(quoted(name)): \(quoted(language)) is not a language tag for \(base)")
        }
        var size = 0
        var hasNUL = false
        measure(value, size: &size, hasNUL: &hasNUL)
        if size > RecordChangeLimits.maxFieldValueBytes {
            problems.add(
                pointer,
                "field \(quoted(name)) must be at most \(RecordChangeLimits.maxFieldValueBytes / 1024) KiB of UTF-8")
        } else if hasNUL {
            problems.add(pointer, "field \(quoted(name)) must not contain NUL (U+0000)")
        }
    }

    /// The base and language of a translation's field name: `ROLE@LANG` for a role that takes
    /// texts, `NAME@LANG` for a field the catalog keeps translations of. Nil for any other name,
    /// and for a name the catalog's source itself had (an XML attribute, `title@lang`).
    static func translation(_ name: String, definition: CatalogDefinition) -> (base: String, language: String)? {
        guard name.utf8.contains(0x40), !definition.fieldOrder.contains(name) else { return nil }
        let bases = RecordMapper.textRoles.map(\.rawValue) + definition.translatedFields
        guard
            let base = bases.filter({ name.utf8.count > $0.utf8.count + 1 && name.hasPrefix($0 + "@") }).max(by: {
                $0.utf8.count < $1.utf8.count
            })
        else { return nil }
        return (base, String(decoding: name.utf8.dropFirst(base.utf8.count + 1), as: UTF8.self))
    }

    /// The UTF-8 bytes of a value's texts and number literals, and whether a text holds NUL.
    private static func measure(_ value: FieldValue, size: inout Int, hasNUL: inout Bool) {
        switch value {
        case .text(let text):
            size += text.utf8.count
            if text.utf8.contains(0) { hasNUL = true }
        case .number(let literal): size += literal.utf8.count
        case .bool, .null: size += 4
        case .list(let values): for element in values { measure(element, size: &size, hasNUL: &hasNUL) }
        }
    }

    private static func hasSpaceAtAnEnd(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
    }

    /// `"EURO"`: a value quoted for a message, cut after 40 characters and with control characters
    /// escaped, so a message stays one short line.
    static func quoted(_ value: String) -> String {
        var text = ""
        for (count, character) in value.enumerated() {
            if count == 40 {
                text += "…"
                break
            }
            for scalar in character.unicodeScalars {
                if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\" {
                    text +=
                        scalar == "\"" ? "\\\"" : scalar == "\\" ? "\\\\" : "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"" + text + "\""
    }
}

/// Where each value of a record read from a body is, for problems: the pointer of each role's
/// member, of each category, and of each extra field (in `fields`, at the top level, or under the
/// source name an export gave it).
struct RecordLocator {
    /// The record's own pointer (`""`, `/3/upsert`).
    var base: String
    /// Pointers of the roles' members, where they differ from `base/ROLE`.
    var roles: [Role: String] = [:]
    /// Pointers of the categories, by index; nil when the categories came from one source member.
    var categories: [String]?
    /// Pointers of the extra fields, where they differ from `base/fields/NAME`.
    var fields: [String: String] = [:]
    /// Extra fields in the order the body had them, for the order of problems.
    var fieldOrder: [String: Int] = [:]
    /// Roles whose member was refused while it was read: their values are not checked again.
    var reported: Set<Role> = []

    init(base: String) {
        self.base = base
    }

    func pointer(_ role: Role) -> String {
        roles[role] ?? JSONPointer.appending(base, role.rawValue)
    }

    func pointer(category index: Int) -> String {
        if let categories, index < categories.count { return categories[index] }
        return pointer(.categories)
    }

    func pointer(field name: String) -> String {
        fields[name] ?? JSONPointer.appending(JSONPointer.appending(base, "fields"), name)
    }

    func order(of field: String) -> (Int, String) {
        (fieldOrder[field] ?? Int.max, field)
    }
}

extension RecordMapper {
    /// The source shape of `record` for exports: role values under their source names, then
    /// extra fields, in the order the source had them, so importing the result with the same
    /// definition gives `record` back.
    ///
    /// - Translations (`title@fr`) become fields of the role's source name with that
    ///   ``SourceField/language``; when the record keeps a `title@und` text, the title itself was
    ///   the ``CatalogDefinition/language`` translation and carries that language. Extra fields
    ///   `NAME@LANG` whose `NAME` carried languages become `NAME` with the language.
    /// - A role whose source field had several values (kept as an extra field of the same name)
    ///   gives all of them again.
    /// - Extra fields keep their types (``SourceField/kind``); a list gives one field per element,
    ///   each ``SourceField/isListElement``, and an empty list one ``SourceField/Kind/emptyList``.
    ///
    /// - Parameter typedRoles: give price, quantity and featured as numbers (JSON, SQLite) rather
    ///   than as text (XML, CSV).
    public func sourceRecord(from record: Record, typedRoles: Bool = false) -> SourceRecord {
        var byKey: [String: [SourceField]] = [:]
        var consumed: Set<String> = []
        let numberKind: SourceField.Kind = typedRoles ? .number : .text

        var rolesWritten: Set<String> = []
        func put(_ role: Role, _ values: [String], kind: SourceField.Kind = .text) {
            let name = definition.sourceName(for: role)
            guard !values.isEmpty, !name.isEmpty else { return }
            // A field that feeds several roles is written once, by the first of them.
            guard rolesWritten.insert(name).inserted else { return }
            var fields = values.map { SourceField(name: name, value: $0, kind: kind) }
            if role != .categories, values.count == 1, case .list(let kept)? = record.fields[name],
                kept.first?.scalarText == values[0]
            {
                fields = SourceField.fields(name: name, value: .list(kept))
                consumed.insert(name)
            } else if role == .country, values.count == 1, case .text(let original)? = record.fields[name],
                CountryCode(resolving: RecordMapper.trim(original))?.text == values[0]
            {
                // The country's name or alpha-3 code as the source had it.
                fields = [SourceField(name: name, value: original)]
                consumed.insert(name)
            }
            var key = name
            let untranslated = role.rawValue + "@" + LanguageTag.undetermined
            if record.fields[untranslated] != nil, let language = definition.language {
                for index in fields.indices { fields[index].language = language }
                key = name + "@" + language
            }
            byKey[key, default: []].append(contentsOf: fields)
            putTranslations(of: role, name: name)
        }
        func putTranslations(of role: Role, name: String) {
            let prefix = role.rawValue + "@"
            for (fieldName, value) in record.fields where fieldName.hasPrefix(prefix) {
                let language = String(fieldName.dropFirst(prefix.count))
                consumed.insert(fieldName)
                var fields = SourceField.fields(name: name, value: value)
                if language == LanguageTag.undetermined {
                    byKey[name, default: []].append(contentsOf: fields)
                } else {
                    for index in fields.indices { fields[index].language = language }
                    byKey[name + "@" + language, default: []].append(contentsOf: fields)
                }
            }
        }

        if definition.mapping[.id] != nil || !isDerivedIDShape(record) {
            put(.id, [record.id])
        }
        put(.title, [record.title])
        put(.subtitle, record.subtitle.map { [$0] } ?? [])
        if record.description != nil || definition.mapping[.description] != nil {
            put(.description, [record.description ?? ""])
        }
        if record.categories.isEmpty {
            putTranslations(of: .categories, name: definition.sourceName(for: .categories))
        } else {
            put(.categories, categoryValues(for: record.categories))
        }
        put(.price, record.price.map { [DecimalText.format($0)] } ?? [], kind: numberKind)
        put(.currency, record.currency.map { [$0] } ?? [])
        put(.quantity, record.quantity.map { [String($0)] } ?? [], kind: numberKind)
        put(.country, record.country.map { [$0] } ?? [])
        put(.image, record.image.map { [$0] } ?? [])
        put(.featured, record.featured.map { [String($0)] } ?? [], kind: numberKind)
        for (name, value) in record.fields where !consumed.contains(name) && byKey[name] == nil {
            var fields: [SourceField]
            let base = definition.translatedFields.filter { name.count > $0.count + 1 && name.hasPrefix($0 + "@") }
                .max { $0.count < $1.count }
            if let base {
                fields = SourceField.fields(name: base, value: value)
                let language = String(name.dropFirst(base.count + 1))
                for index in fields.indices { fields[index].language = language }
            } else {
                fields = SourceField.fields(name: name, value: value)
            }
            byKey[name, default: []].append(contentsOf: fields)
        }

        // The source's order: a key's own position, else its base name's, then the rest sorted.
        var position: [String: Int] = [:]
        for (index, name) in fieldOrder.enumerated() where position[name] == nil { position[name] = index }
        func rank(_ key: String) -> (Int, Int, String) {
            if let own = position[key] { return (own, 0, key) }
            if let at = key.firstIndex(of: "@"), let base = position[String(key[..<at])] { return (base, 1, key) }
            return (Int.max, 0, key)
        }
        var fields: [SourceField] = []
        for key in byKey.keys.sorted(by: { rank($0) < rank($1) }) {
            fields.append(contentsOf: byKey[key]!)
        }
        return SourceRecord(fields: fields)
    }

    /// Whether the record's id is what ``record(from:)`` would derive from its title, in which case
    /// a source without an id field does not need it exported.
    private func isDerivedIDShape(_ record: Record) -> Bool {
        guard definition.mapping[.id] == nil, !fieldOrder.contains(definition.sourceName(for: .id)) else {
            return false
        }
        // Only the plain slug: a repeat's number (`-2`) depends on the order, so it is written.
        return record.id == RecordMapper.slug(of: record.title)
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

extension SourceField {
    /// The fields that carry `value` under `name`: one for a single value (with its kind), one per
    /// element of a list (each ``isListElement``; lists inside lists flattened), and one
    /// ``Kind/emptyList`` field for an empty list.
    public static func fields(name: String, value: FieldValue, location: SourceLocation = SourceLocation())
        -> [SourceField]
    {
        switch value {
        case .list(let elements):
            if elements.isEmpty { return [SourceField(name: name, value: "", kind: .emptyList, location: location)] }
            return elements.flatMap { element -> [SourceField] in
                if case .list = element {
                    return fields(name: name, value: element, location: location).filter { $0.kind != .emptyList }
                }
                var field = scalar(name: name, value: element, location: location)
                field.isListElement = true
                return [field]
            }
        default:
            return [scalar(name: name, value: value, location: location)]
        }
    }

    private static func scalar(name: String, value: FieldValue, location: SourceLocation) -> SourceField {
        switch value {
        case .text(let text): SourceField(name: name, value: text, location: location)
        case .number(let literal): SourceField(name: name, value: literal, kind: .number, location: location)
        case .bool(let flag): SourceField(name: name, value: flag ? "true" : "false", kind: .bool, location: location)
        case .null, .list: SourceField(name: name, value: "", kind: .null, location: location)
        }
    }
}

extension JSONOutput {
    /// Appends the value that `fields` (the occurrences of one name) carry, with its type: one
    /// value for a single field, else an array (an ``SourceField/Kind/emptyList`` field alone is
    /// `[]`). ``SourceField/fields(name:value:location:)`` reads it back.
    public mutating func value(of fields: [SourceField]) {
        if fields.count == 1, !fields[0].isListElement, fields[0].kind != .emptyList {
            scalar(fields[0])
            return
        }
        array(fields.lazy.filter { $0.kind != .emptyList }) { output, field in output.scalar(field) }
    }

    private mutating func scalar(_ field: SourceField) {
        switch field.kind {
        case .text: string(field.value)
        case .number: number(literal: field.value)
        case .bool: boolean(field.value == "true")
        case .null, .emptyList: raw("null")
        }
    }
}

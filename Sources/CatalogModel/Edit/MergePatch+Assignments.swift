extension MergePatch {
    /// The patch `catalog set CATALOG ITEM FIELD=VALUE…` sends, one member per assignment.
    ///
    /// - `FIELD` is a role (`title`, `subtitle`, `description`, `categories`, `price`, `currency`,
    ///   `quantity`, `country`, `image`, `featured`), a member of the patch; anything else is an
    ///   extra field, a member of its `fields`: a name (`weight`), or `ROLE@LANG` / `NAME@LANG` for a
    ///   translation (`title@de`), kept under that name as an import keeps translations. `id` cannot
    ///   be set: it names the item.
    /// - `FIELD=VALUE` sets a text. A role that holds a number (`price`, `quantity`, `featured`)
    ///   takes VALUE as a JSON number (`price=12.50`); `categories=a, b` is the list `["a","b"]`
    ///   (split at commas, each label trimmed; a label with a comma needs `typed`).
    /// - With `typed`, VALUE is JSON: `12.5`, `true`, `["a","b"]`, `"text"`, `null`.
    /// - `FIELD=` removes the field (`null`), as does a typed `FIELD=null`.
    ///
    /// ```swift
    /// let patch = try MergePatch.patch(assignments: ["price=12.50", "weight=", "title@de=Apfel"], typed: false)
    /// // {"price":12.50,"fields":{"weight":null,"title@de":"Apfel"}}
    /// ```
    ///
    /// The values are checked when the patch is applied (``apply(_:to:definition:)``); here only
    /// what makes no patch at all: an assignment without `=` or a name, a field assigned twice, a
    /// number or typed value that is not JSON.
    ///
    /// - Parameters:
    ///   - assignments: `FIELD=VALUE` arguments, in order.
    ///   - typed: read every VALUE as JSON.
    /// - Returns: the patch document's bytes (roles first, then `fields`, each in the order given).
    /// - Throws: ``RecordProblems``, at the pointer the member would have in the patch (`""` for an
    ///   assignment without a field).
    public static func patch(assignments: [String], typed: Bool) throws(RecordProblems) -> [UInt8] {
        var problems = ProblemList()
        var roles: [BodyMember] = []
        var fields: [BodyMember] = []
        var seen: Set<String> = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                problems.add("", "assignment \(RecordRules.quoted(assignment)) must be FIELD=VALUE")
                continue
            }
            let name = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            guard !name.isEmpty else {
                problems.add("", "assignment \(RecordRules.quoted(assignment)) needs a field name before \"=\"")
                continue
            }
            let role = Role(rawValue: name)
            let pointer =
                role != nil ? JSONPointer.appending("", name) : JSONPointer.appending("/fields", name)
            guard role != .id else {
                problems.add(pointer, "id cannot be set: it names the item")
                continue
            }
            guard seen.insert(name).inserted else {
                problems.add(pointer, "\(RecordRules.quoted(name)) is assigned twice")
                continue
            }
            guard let value = value(text, for: role, named: name, typed: typed, at: pointer, problems: &problems) else {
                continue
            }
            if role != nil {
                roles.append(BodyMember(key: name, value: value))
            } else {
                fields.append(BodyMember(key: name, value: value))
            }
        }
        try problems.check()
        if !fields.isEmpty { roles.append(BodyMember(key: "fields", value: .object(fields))) }
        var output = JSONOutput(capacity: 256)
        output.bodyNode(.object(roles))
        return output.bytes
    }

    /// The JSON value of one assignment's VALUE; nil after a problem.
    private static func value(
        _ text: String, for role: Role?, named name: String, typed: Bool, at pointer: String,
        problems: inout ProblemList
    ) -> BodyNode? {
        if text.isEmpty { return .null }
        if typed {
            var found = ProblemList()
            let node = Array(text.utf8).withUnsafeBufferPointer { buffer in
                BodyBytes(buffer).document(limit: RecordChangeLimits.maxRecordBytes, at: pointer, problems: &found)
            }
            guard let node else {
                let detail = found.kept.first?.message ?? "not JSON"
                problems.add(pointer, "the value of \(RecordRules.quoted(name)) is \(detail) (quote a text: '\"…\"')")
                return nil
            }
            return node
        }
        switch role {
        case .price, .quantity, .featured:
            guard JSONNumber.isValid(text) else {
                problems.add(pointer, "\(name) must be a number, not \(RecordRules.quoted(text))")
                return nil
            }
            return .number(text)
        case .categories:
            return .array(
                text.split(separator: ",", omittingEmptySubsequences: false).map {
                    .string(RecordMapper.trim(String($0)))
                })
        default:
            return .string(text)
        }
    }
}

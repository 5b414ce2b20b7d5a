/// JSON Merge Patch (RFC 7396, `application/merge-patch+json`) for records: what the server's
/// `PATCH /api/v1/catalogs/{id}/items/{item}` applies, and what `catalog set` sends.
///
/// The record's API JSON (``Record``'s JSON) is the target: a member of the patch replaces the
/// member of that name, `null` removes it, and an object is merged into the object there, so
/// `{"fields": {"weight": null}}` removes one extra field and keeps the others.
///
/// ```swift
/// let patch = try MergePatch.patch(assignments: ["price=12.50", "weight=", "title@de=Apfel"], typed: false)
/// let changed = try MergePatch.apply(patch, to: record, definition: definition)
/// ```
public enum MergePatch {
    /// Applies `patch` to `record`. The result is read and checked as a `PUT` body in the API's
    /// shape is (``RecordChangeReader/record(_:id:definition:)``), so a problem's pointer is the
    /// member's in the patched record, which is the patch's own pointer for what the patch set
    /// (`/price`, `/fields/weight`). A member that is neither a role nor `fields` patches the
    /// extra field of its name, as it would be one in a `PUT` body (`{"weight": null}` removes
    /// `fields.weight`), after the rest of the patch; naming it in `fields` too is a problem. The id
    /// cannot change: a patch whose `id` is another value (or `null`) is a problem at `/id`.
    /// `section` is the server's: the result has none.
    ///
    /// - Parameters:
    ///   - patch: the patch document, at most ``RecordChangeLimits/maxRecordBytes``; any JSON
    ///     value (one that is not an object replaces the whole record, and is refused as a record).
    ///   - record: the stored record.
    ///   - definition: the catalog's definition (for translations' names).
    /// - Returns: the patched record.
    /// - Throws: ``RecordProblems``.
    public static func apply(_ patch: [UInt8], to record: Record, definition: CatalogDefinition) throws(RecordProblems)
        -> Record
    {
        var problems = ProblemList()
        guard patch.count <= RecordChangeLimits.maxRecordBytes else {
            problems.add(
                "",
                "a patch is at most \(RecordChangeLimits.maxRecordBytes / 1024) KiB (this one has \(patch.count) bytes)"
            )
            try problems.check()
            return record
        }
        let patchNode: BodyNode? = patch.withUnsafeBufferPointer { buffer in
            let bytes = BodyBytes(buffer)
            guard let start = bytes.checkedStart(problems: &problems) else { return nil }
            return bytes.slice(start..<buffer.count).document(
                limit: RecordChangeLimits.maxRecordBytes, at: "", problems: &problems)
        }
        guard let patchNode else {
            try problems.check()
            return record
        }
        var repeated: [String] = []
        patchNode.repeatedKeys(at: "", into: &repeated)
        for pointer in repeated { problems.add(pointer, "a member appears twice in the patch") }
        if let id = patchNode.member("id"), id != .string(record.id) {
            problems.add("/id", "id cannot be changed by a patch (the item's id is \(RecordRules.quoted(record.id)))")
        }
        let target = record.jsonBytes.withUnsafeBufferPointer { buffer in
            var unused = ProblemList()
            return BodyBytes(buffer).document(limit: Int.max, at: "", problems: &unused)
        }
        guard let target else {
            problems.add("", "the stored record cannot be patched (its JSON does not read back)")
            try problems.check()
            return record
        }
        // Unknown members are extra fields, as in a PUT body: `{"weight": 2}` patches
        // `fields.weight`, after the rest of the patch (so after a `"fields": null`).
        let (patchOfRoles, patchOfFields, moved) = split(patchNode, problems: &problems)
        var merged = merge(patchOfRoles, into: target)
        if let patchOfFields { merged = merge(patchOfFields, into: merged) }
        if case .object(var members) = merged, patchNode.member("id") != nil {
            // The id's problem is reported above, once.
            members.removeAll { $0.key == "id" }
            merged = .object(members)
        }
        var reader = RecordBodyReader(definition: definition)
        var found = ProblemList()
        let result = reader.read(merged, at: "", shape: .api, id: .path(record.id), problems: &found)?.record
        // Problems of a moved member are at its pointer in the patch.
        problems.append(found) { pointer in
            for key in moved {
                let inFields = JSONPointer.appending("/fields", key)
                if pointer == inFields || pointer.hasPrefix(inFields + "/") {
                    return JSONPointer.appending("", key) + pointer.dropFirst(inFields.count)
                }
            }
            return pointer
        }
        try problems.check()
        return result ?? record
    }

    /// The patch without its unknown members, and those members as a patch of `fields` (nil when
    /// there are none), with their names. A name also in the patch's own `fields` is a problem.
    private static func split(_ patch: BodyNode, problems: inout ProblemList) -> (BodyNode, BodyNode?, [String]) {
        guard case .object(let members) = patch else { return (patch, nil, []) }
        var kept: [BodyMember] = []
        var moved: [BodyMember] = []
        for member in members {
            if Role(rawValue: member.key) != nil || RecordBodyReader.apiMembers.contains(member.key) {
                kept.append(member)
            } else {
                moved.append(member)
            }
        }
        guard !moved.isEmpty else { return (patch, nil, []) }
        let fields = patch.member("fields")
        if let fields, fields != .null, fields.members == nil {
            problems.add("/fields", "fields must be an object of field values, not \(fields.kind)")
        }
        let named = Set(fields?.members?.map(\.key) ?? [])
        for member in moved where named.contains(member.key) {
            problems.add(
                JSONPointer.appending("", member.key), "field \(RecordRules.quoted(member.key)) is given twice")
        }
        return (.object(kept), .object([BodyMember(key: "fields", value: .object(moved))]), moved.map(\.key))
    }

    /// RFC 7396's MergePatch(Target, Patch): an object patch merges member by member into the
    /// target (an object, or else an empty one), `null` removing; any other patch replaces it.
    static func merge(_ patch: BodyNode, into target: BodyNode) -> BodyNode {
        guard case .object(let patchMembers) = patch else { return patch }
        var order: [String] = []
        var known: Set<String> = []
        var values: [String: BodyNode] = [:]
        for member in target.members ?? [] {
            values[member.key] = member.value
            if known.insert(member.key).inserted { order.append(member.key) }
        }
        for member in patchMembers {
            if member.value == .null {
                values[member.key] = nil
                continue
            }
            values[member.key] = merge(member.value, into: values[member.key] ?? .null)
            if known.insert(member.key).inserted { order.append(member.key) }
        }
        return .object(order.compactMap { key in values[key].map { BodyMember(key: key, value: $0) } })
    }
}

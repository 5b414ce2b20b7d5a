import Foundation

/// A catalog as a JSON document, the shape `GET /api/v1/catalogs/{id}` shows (``CatalogDetail``):
/// read for `POST /api/v1/catalogs` (a new catalog) and merged into for `PATCH` (an RFC 7396
/// merge patch), every problem reported at its JSON pointer.
///
/// Members: `id` (creation only; a patch may repeat it unchanged), `title`, `description` (plain
/// text; `null` or empty for none), `locale`, `fields`,
/// `roles`, `types`, `labels`, `scopeDefinitions`, `flatList`, `rowTint`, `visibility`. `count`, `scopes` and
/// `sections` follow from the records and the locale: a new catalog ignores them (so a catalog
/// fetched from one server can be posted to another as it is), and a patch may only leave them as
/// they are. Any other member is a problem.
///
/// ```swift
/// let (id, settings) = try CatalogDocument.creation(body)
/// let changed = try CatalogDocument.merging(patch, into: reader.detail(of: catalog))
/// ```
public enum CatalogDocument {
    /// The longest title, in characters (Unicode scalars, as JSON Schema's `maxLength` counts).
    public static let maxTitleLength = 200
    /// The longest description, in characters (Unicode scalars): two or three sentences.
    public static let maxDescriptionLength = 500
    /// The longest locale tag.
    public static let maxLocaleLength = 35
    /// The longest field name, source name, label, scope label or category, in characters.
    public static let maxNameLength = 200
    /// The most field names, and the most roles, types or labelled fields.
    public static let maxFields = 1000
    /// The most scopes.
    public static let maxScopes = 100
    /// The most categories one scope asks for.
    public static let maxScopeCategories = 50
    /// Problems reported at most; the rest are left out.
    static let maxProblems = 50

    /// The members that follow from the records and the locale.
    public static let derivedMembers: Set<String> = ["count", "scopes", "sections"]
    /// Members the catalog's document shows of its search settings, which `…/settings` changes.
    public static let searchSettingsMembers: Set<String> = ["listFields", "detailFields"]
    static let settingsMembers: Set<String> = [
        "title", "description", "locale", "fields", "roles", "types", "labels", "scopeDefinitions", "flatList",
        "rowTint", "visibility",
    ]

    /// A new catalog: its id and settings, from the bytes of a JSON object. A missing title is
    /// the id, a missing locale `en`, the rest empty.
    ///
    /// - Parameter localeProblem: what is wrong with a well-formed locale (one the collation
    ///   does not know), nil when nothing is.
    /// - Throws: ``CatalogChangeError`` `.malformed` when the bytes are not JSON, `.invalid` with
    ///   every problem.
    public static func creation(
        _ json: [UInt8], localeProblem: (String) -> String? = { _ in nil }
    ) throws(CatalogChangeError) -> (id: String, settings: CatalogSettings) {
        let tree = try parse(json)
        guard case .object(var members) = tree else {
            throw .invalid(at: "", "a catalog is a JSON object, not \(tree.kind)")
        }
        var reader = TreeReader()
        var id = ""
        if let value = members.removeValue(forKey: "id") {
            id = reader.string(value, at: "/id") ?? ""
            if reader.problems.isEmpty, !CatalogDefinition.isValidID(id) {
                reader.add("/id", "\(quoted(id)) is not an id: use 1 to 64 letters, digits, '-' or '_'")
            }
        } else {
            reader.add("/id", "a new catalog needs an id")
        }
        // What GET shows can be posted as it is: the search settings it shows are set with
        // `…/settings` once the catalog exists.
        for name in derivedMembers.union(searchSettingsMembers) { members.removeValue(forKey: name) }
        if members["title"] == nil, CatalogDefinition.isValidID(id) { members["title"] = .string(id) }
        if members["locale"] == nil { members["locale"] = .string("en") }
        let settings = reader.settings(members)
        return (id, try checked(settings, reader: reader, localeProblem: localeProblem))
    }

    /// The settings `patch` (an RFC 7396 merge patch, the bytes of a JSON object) makes of
    /// `current`, the catalog as `GET` shows it: a member set to `null` is removed (a role then
    /// takes the field of its name again, a label goes), an object is merged member by member, and
    /// anything else replaces the member.
    ///
    /// - Parameter localeProblem: what is wrong with a new locale, nil when nothing is (the
    ///   catalog's own locale is not asked about).
    /// - Throws: ``CatalogChangeError`` `.malformed` when the bytes are not JSON, `.invalid` with
    ///   every problem of the result, and for a changed `id`, `count`, `scopes` or `sections`.
    public static func merging(
        _ patch: [UInt8], into current: CatalogDetail, localeProblem: (String) -> String? = { _ in nil }
    ) throws(CatalogChangeError) -> CatalogSettings {
        try merging(MergePatch(patch), into: current, localeProblem: localeProblem)
    }

    /// The settings a merge patch read already makes of `current` (see
    /// ``merging(_:into:localeProblem:)-([UInt8],_,_)``).
    public static func merging(
        _ patch: MergePatch, into current: CatalogDetail, localeProblem: (String) -> String? = { _ in nil }
    ) throws(CatalogChangeError) -> CatalogSettings {
        let currentTree = tree(of: current)
        guard case .object(let before) = currentTree, case .object(var members) = merge(patch.tree, into: currentTree)
        else { throw .invalid(at: "", "the catalog is not a JSON object") }
        let changes = patch.members
        var reader = TreeReader()
        // What the catalog's id and records decide may only be repeated as it is (null removes).
        if let id = changes["id"], id != before["id"] {
            reader.add("/id", "a catalog's id cannot change; create a catalog with the new id instead")
        }
        for name in derivedMembers.sorted() {
            if let value = changes[name], value != before[name] {
                reader.add(
                    "/\(name)",
                    "\(name) follows from the records and the locale and cannot be set"
                        + (name == "scopes" ? "; change scopeDefinitions" : ""))
            }
        }
        for name in searchSettingsMembers.sorted() {
            if let value = changes[name], value != before[name] { reader.add("/\(name)", searchSettingProblem(name)) }
        }
        members.removeValue(forKey: "id")
        for name in derivedMembers.union(searchSettingsMembers) { members.removeValue(forKey: name) }
        let settings = reader.settings(members)
        // A catalog keeps the locale it has, whatever an import once accepted.
        return try checked(
            settings, reader: reader, localeProblem: { $0 == current.locale ? nil : localeProblem($0) })
    }

    /// Why a member of the search settings cannot be set with the catalog.
    private static func searchSettingProblem(_ name: String) -> String {
        "\(name) is a search setting: change it with PATCH /api/v1/catalogs/{id}/settings"
    }

    /// A merge patch of a catalog, read: a JSON object. Read it before the catalog it changes, so
    /// a body that cannot be a patch is refused without reading the catalog.
    public struct MergePatch: Sendable {
        let members: [String: JSONTree]
        var tree: JSONTree { .object(members) }

        /// Reads the bytes of a JSON object.
        ///
        /// - Throws: ``CatalogChangeError`` `.malformed` when the bytes are not JSON, `.invalid`
        ///   (at the pointer `""`) when they are not an object.
        public init(_ json: [UInt8]) throws(CatalogChangeError) {
            let tree = try CatalogDocument.parse(json)
            guard case .object(let members) = tree else {
                throw .invalid(at: "", "a merge patch of a catalog is a JSON object, not \(tree.kind)")
            }
            self.members = members
        }
    }

    /// `settings`, or every problem the reader found and those
    /// ``CatalogSettings/problems(localeProblem:)`` finds in the members the reader could read.
    private static func checked(
        _ settings: CatalogSettings, reader: TreeReader, localeProblem: (String) -> String?
    ) throws(CatalogChangeError) -> CatalogSettings {
        try reader.check(settings.problems(localeProblem: localeProblem))
        return settings
    }

    private static func parse(_ json: [UInt8]) throws(CatalogChangeError) -> JSONTree {
        do {
            return try JSONTree.parse(json)
        } catch {
            throw CatalogChangeError(.malformed, "the body is not JSON: \(error.description)")
        }
    }

    /// RFC 7396: `patch` applied to `target`.
    static func merge(_ patch: JSONTree, into target: JSONTree) -> JSONTree {
        guard case .object(let changes) = patch else { return patch }
        var result: [String: JSONTree] = [:]
        if case .object(let members) = target { result = members }
        for (key, value) in changes {
            if value == .null {
                result.removeValue(forKey: key)
            } else {
                result[key] = merge(value, into: result[key] ?? .null)
            }
        }
        return .object(result)
    }

    /// The catalog as `GET` writes it, as a tree.
    static func tree(of detail: CatalogDetail) -> JSONTree {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A detail always encodes (strings, numbers, booleans and lists of them), and what the
        // encoder writes always parses.
        guard let bytes = try? encoder.encode(detail), let tree = try? JSONTree.parse(Array(bytes)) else {
            return .object([:])
        }
        return tree
    }

    /// What is wrong with a catalog's description, nil when nothing is: it is plain text of at most
    /// ``maxDescriptionLength`` characters, without control characters other than line breaks and
    /// tabs (PostgreSQL stores no NUL).
    public static func descriptionProblem(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        if scalars.count > maxDescriptionLength {
            return "is \(scalars.count) characters long; a description has at most \(maxDescriptionLength)"
        }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        if let (offset, scalar) = scalars.enumerated().first(where: {
            $0.element.properties.generalCategory == .control && !allowed.contains($0.element)
        }) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "holds the control character \(code) at character \(offset + 1); a description is plain text"
        }
        return nil
    }

    /// `text` in quotes for a message, cut at 80 characters.
    public static func quoted(_ text: String) -> String {
        "\"" + String(text.prefix(80)) + (text.count > 80 ? "…" : "") + "\""
    }
}

/// Reads a document's members, collecting a problem for each value of the wrong type.
struct TreeReader {
    var problems: [CatalogChangeError.Problem] = []

    mutating func add(_ pointer: String, _ message: String) {
        if problems.count < CatalogDocument.maxProblems {
            problems.append(CatalogChangeError.Problem(pointer: pointer, message: message))
        }
    }

    /// Throws the problems found while reading, with those of `checks` (the read value's own
    /// checks) that are not inside a member already reported.
    func check(_ checks: [CatalogChangeError.Problem]) throws(CatalogChangeError) {
        let typed = Set(problems.map(\.pointer))
        let all =
            problems
            + checks.filter { problem in
                !typed.contains { problem.pointer == $0 || problem.pointer.hasPrefix($0 + "/") }
            }
        guard all.isEmpty else { throw .invalid(Array(all.prefix(CatalogDocument.maxProblems))) }
    }

    mutating func string(_ value: JSONTree, at pointer: String) -> String? {
        guard case .string(let text) = value else {
            add(pointer, "must be a string, not \(value.kind)")
            return nil
        }
        return text
    }

    mutating func strings(_ value: JSONTree, at pointer: String) -> [String]? {
        guard case .array(let elements) = value else {
            add(pointer, "must be an array of strings, not \(value.kind)")
            return nil
        }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            if let text = string(element, at: pointer + "/\(index)") { texts.append(text) }
        }
        return texts.count == elements.count ? texts : nil
    }

    mutating func object(_ value: JSONTree, at pointer: String) -> [(key: String, value: JSONTree)]? {
        guard case .object(let members) = value else {
            add(pointer, "must be an object, not \(value.kind)")
            return nil
        }
        return members.sorted { $0.key < $1.key }
    }

    /// The settings the members give; a member of the wrong type is left out (and a problem).
    mutating func settings(_ members: [String: JSONTree]) -> CatalogSettings {
        for name in members.keys.sorted() where !CatalogDocument.settingsMembers.contains(name) {
            add(JSONPointer.make(name), "unknown member; a catalog has " + Self.memberList)
        }
        var settings = CatalogSettings(title: "", locale: "")
        if let value = members["title"] {
            settings.title = string(value, at: "/title") ?? ""
        } else {
            add("/title", "a catalog needs a title")
        }
        if let value = members["locale"] {
            settings.locale = string(value, at: "/locale") ?? ""
        } else {
            add("/locale", "a catalog needs a locale")
        }
        // An empty (or blank) description is none, so a form's empty field clears it.
        if let value = members["description"], value != .null, let text = string(value, at: "/description"),
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            settings.description = text
        }
        if let value = members["fields"] { settings.fields = strings(value, at: "/fields") ?? [] }
        if let value = members["roles"], let roles = object(value, at: "/roles") {
            for (name, field) in roles {
                let pointer = JSONPointer.make("roles", name)
                guard let role = Role(rawValue: name) else {
                    add(pointer, "unknown role; roles: " + Role.allCases.map(\.rawValue).joined(separator: ", "))
                    continue
                }
                if let field = string(field, at: pointer) { settings.roles[role] = field }
            }
        }
        if let value = members["types"], let types = object(value, at: "/types") {
            for (name, type) in types {
                let pointer = JSONPointer.make("types", name)
                guard let text = string(type, at: pointer) else { continue }
                guard let fieldType = FieldType(rawValue: text) else {
                    add(pointer, "unknown type \(CatalogDocument.quoted(text)); types: text, number, bool, date")
                    continue
                }
                settings.types[name] = fieldType
            }
        }
        if let value = members["labels"], let fields = object(value, at: "/labels") {
            for (field, languages) in fields {
                guard let languages = object(languages, at: JSONPointer.make("labels", field)) else { continue }
                for (language, label) in languages {
                    if let label = string(label, at: JSONPointer.make("labels", field, language)) {
                        settings.labels[field, default: [:]][language] = label
                    }
                }
            }
        }
        if let value = members["scopeDefinitions"] { settings.scopes = scopes(value) }
        if let value = members["flatList"] {
            if case .bool(let flag) = value {
                settings.flatList = flag
            } else {
                add("/flatList", "must be true or false, not \(value.kind)")
            }
        }
        if let value = members["rowTint"], value != .null, let text = string(value, at: "/rowTint") {
            if let tint = RowTint(parsing: text) {
                settings.rowTint = tint
            } else {
                add("/rowTint", "\(CatalogDocument.quoted(text)) is not a color: write rgb(180,190,150) or #b4be96")
            }
        }
        if let value = members["visibility"], let text = string(value, at: "/visibility") {
            if let visibility = CatalogVisibility(rawValue: text) {
                settings.visibility = visibility
            } else {
                add(
                    "/visibility",
                    "\(CatalogDocument.quoted(text)) is no visibility; use \(CatalogVisibility.spellings)")
            }
        }
        return settings
    }

    private mutating func scopes(_ value: JSONTree) -> [ScopeDefinition] {
        guard case .array(let elements) = value else {
            add("/scopeDefinitions", "must be an array of scopes, not \(value.kind)")
            return []
        }
        var scopes: [ScopeDefinition] = []
        for (index, element) in elements.enumerated() {
            let pointer = "/scopeDefinitions/\(index)"
            guard let members = object(element, at: pointer) else { continue }
            var scope = ScopeDefinition(label: "", categories: [])
            var found = false
            for (name, member) in members {
                switch name {
                case "label":
                    scope.label = string(member, at: pointer + "/label") ?? ""
                    found = true
                case "categories":
                    scope.categories = strings(member, at: pointer + "/categories") ?? []
                default:
                    add(pointer + "/" + JSONPointer.escape(name), "unknown member; a scope has label and categories")
                }
            }
            if !found { add(pointer + "/label", "a scope needs a label") }
            scopes.append(scope)
        }
        return scopes
    }

    static let memberList =
        "id, title, description, locale, fields, roles, types, labels, scopeDefinitions, flatList, rowTint, "
        + "visibility "
        + "(and count, scopes and sections, which follow from its records)"
}

extension CatalogSettings {
    /// What is wrong with these settings, each problem at the pointer of its member as `GET`
    /// shows it (`/labels/price/xx`); empty when nothing is. Texts are not empty, hold no NUL
    /// (PostgreSQL stores none) and keep to ``CatalogDocument``'s lengths; field names and scope
    /// labels are unique; labels' languages are language tags.
    ///
    /// - Parameter localeProblem: what is wrong with the locale beyond its spelling (one the
    ///   collation does not know), nil when nothing is.
    public func problems(localeProblem: (String) -> String? = { _ in nil }) -> [CatalogChangeError.Problem] {
        var problems: [CatalogChangeError.Problem] = []
        func add(_ pointer: String, _ message: String) {
            if problems.count < CatalogDocument.maxProblems {
                problems.append(CatalogChangeError.Problem(pointer: pointer, message: message))
            }
        }
        func text(_ value: String, at pointer: String, max: Int = CatalogDocument.maxNameLength) {
            if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                add(pointer, "must not be empty")
            } else if value.unicodeScalars.count > max {
                add(pointer, "is longer than \(max) characters")
            } else if value.utf8.contains(0) {
                add(pointer, "must not contain NUL characters")
            }
        }
        text(title, at: "/title", max: CatalogDocument.maxTitleLength)
        if let description, let problem = CatalogDocument.descriptionProblem(description) {
            add("/description", problem)
        }
        let problemsBeforeLocale = problems.count
        text(locale, at: "/locale", max: CatalogDocument.maxLocaleLength)
        if problems.count == problemsBeforeLocale, let problem = localeProblem(locale) { add("/locale", problem) }

        if fields.count > CatalogDocument.maxFields { add("/fields", "more than \(CatalogDocument.maxFields) fields") }
        var seen: Set<String> = []
        for (index, field) in fields.prefix(CatalogDocument.maxFields).enumerated() {
            text(field, at: "/fields/\(index)")
            if !seen.insert(field).inserted {
                add("/fields/\(index)", "\(CatalogDocument.quoted(field)) is named twice; field names are unique")
            }
        }
        for role in Role.allCases {
            if let field = roles[role] { text(field, at: JSONPointer.make("roles", role.rawValue)) }
        }
        for (group, names) in [("types", Array(types.keys)), ("labels", Array(labels.keys))]
        where names.count > CatalogDocument.maxFields {
            add("/" + group, "more than \(CatalogDocument.maxFields) fields")
        }
        for name in types.keys.sorted() { text(name, at: JSONPointer.make("types", name)) }
        for field in labels.keys.sorted() {
            text(field, at: JSONPointer.make("labels", field))
            for (language, label) in labels[field, default: [:]].sorted(by: { $0.key < $1.key }) {
                let pointer = JSONPointer.make("labels", field, language)
                if !LanguageTag.isTag(language[...]) {
                    add(pointer, "\(CatalogDocument.quoted(language)) is not a language tag such as de, hu or pt-BR")
                } else {
                    text(label, at: pointer)
                }
            }
        }
        if scopes.count > CatalogDocument.maxScopes {
            add("/scopeDefinitions", "more than \(CatalogDocument.maxScopes) scopes")
        }
        var labelsSeen: Set<String> = []
        for (index, scope) in scopes.prefix(CatalogDocument.maxScopes).enumerated() {
            let pointer = "/scopeDefinitions/\(index)"
            text(scope.label, at: pointer + "/label")
            if !labelsSeen.insert(scope.label).inserted {
                add(pointer + "/label", "\(CatalogDocument.quoted(scope.label)) is used twice; scope labels are unique")
            }
            if scope.categories.count > CatalogDocument.maxScopeCategories {
                add(pointer + "/categories", "more than \(CatalogDocument.maxScopeCategories) categories")
            }
            for (number, category) in scope.categories.prefix(CatalogDocument.maxScopeCategories).enumerated() {
                text(category, at: pointer + "/categories/\(number)")
            }
        }
        return problems
    }
}

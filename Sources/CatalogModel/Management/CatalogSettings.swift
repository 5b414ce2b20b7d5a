/// What an administrator may change of a catalog: its title and locale, its fields' order, roles,
/// types and labels, its scopes and how its lists look.
///
/// `GET /api/v1/catalogs/{id}` shows it (``CatalogDetail/settings``), `POST /api/v1/catalogs` and
/// `PATCH` take it in the same shape (read by ``CatalogDocument``), `catalog create` and
/// `catalog set-catalog` build it from their options. A value holds only what ``CatalogDocument``
/// accepts.
///
/// ```swift
/// var settings = CatalogSettings(definition: stored.definition)
/// settings.locale = "hu"
/// let changed = settings.applied(to: stored.definition)
/// ```
public struct CatalogSettings: Sendable, Equatable {
    /// The catalog's name.
    public var title: String
    /// What the catalog holds, in plain text; nil when it has none (an empty text is none).
    public var description: String?
    /// Its BCP 47 locale: sections, sort order, the language of its screens.
    public var locale: String
    /// The source's field names, in order (exports keep it).
    public var fields: [String]
    /// The source field each mapped role takes; a role not listed takes the field of its name.
    public var roles: [Role: String]
    /// Types of fields read from text.
    public var types: [String: FieldType]
    /// Labels of fields per language.
    public var labels: [String: [String: String]]
    /// The scopes, in order; empty: "All" and the largest categories.
    public var scopes: [ScopeDefinition]
    /// One flat list without letter sections.
    public var flatList: Bool
    /// The tint of every other row.
    public var rowTint: RowTint?
    /// Who may see the catalog: its owners and administrators change it (a change of the
    /// definition only).
    public var visibility: CatalogVisibility

    /// Creates settings.
    public init(
        title: String, locale: String, fields: [String] = [], roles: [Role: String] = [:],
        types: [String: FieldType] = [:], labels: [String: [String: String]] = [:], scopes: [ScopeDefinition] = [],
        flatList: Bool = false, rowTint: RowTint? = nil, visibility: CatalogVisibility = .public,
        description: String? = nil
    ) {
        self.title = title
        self.description = description
        self.locale = locale
        self.fields = fields
        self.roles = roles
        self.types = types
        self.labels = labels
        self.scopes = scopes
        self.flatList = flatList
        self.rowTint = rowTint
        self.visibility = visibility
    }

    /// The settings a definition holds.
    public init(definition: CatalogDefinition) {
        self.init(
            title: definition.title, locale: definition.locale, fields: definition.fieldOrder,
            roles: definition.mapping, types: definition.fieldTypes, labels: definition.fieldLabels,
            scopes: definition.scopes, flatList: definition.flatList, rowTint: definition.rowTint,
            visibility: definition.visibility, description: definition.description)
    }

    /// `definition` with these settings; everything else it holds (category values, the feed it
    /// is fetched from, what the last import read) stays. A role mapped to the field of its own
    /// name is the role's default and is not stored.
    public func applied(to definition: CatalogDefinition) -> CatalogDefinition {
        var changed = definition
        changed.title = title
        changed.description = description
        changed.locale = locale
        changed.fieldOrder = fields
        changed.mapping = roles.filter { $0.key.rawValue != $0.value }
        changed.fieldTypes = types
        changed.fieldLabels = labels
        changed.scopes = scopes
        changed.flatList = flatList
        changed.rowTint = rowTint
        changed.visibility = visibility
        return changed
    }

    /// The source field that feeds `role` under these settings.
    public func sourceName(for role: Role) -> String {
        roles[role] ?? role.rawValue
    }

    /// What changing from `self` to `other` asks of the catalog's stored records.
    public func change(to other: CatalogSettings) -> Change {
        if self == other { return .none }
        let rolesChanged = Role.allCases.contains { sourceName(for: $0) != other.sourceName(for: $0) }
        if rolesChanged || types != other.types { return .remap }
        if locale != other.locale { return .rebuild }
        return .definition
    }

    /// How much of a catalog a change of its settings touches, least first.
    public enum Change: Int, Sendable, Comparable {
        /// Nothing changes.
        case none
        /// Only the definition: title, description, field order, labels, scopes, list options, visibility.
        case definition
        /// The locale: every record's section and place in the order are made again.
        case rebuild
        /// Roles or types: every record is mapped again from its source shape, then rebuilt.
        case remap

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

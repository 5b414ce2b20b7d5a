/// One catalog with what a client needs to draw its screens, and what an administrator may change
/// of it (`GET /api/v1/catalogs/{id}`):
/// `{"id","title","description","locale","count","scopes","fields","sections","roles","types","labels",
/// "scopeDefinitions","flatList","rowTint","visibility"}`.
///
/// `count`, `scopes` and `sections` follow from the records and the locale; the rest is the
/// catalog's definition, in the shape `POST /api/v1/catalogs` takes and `PATCH` merges into
/// (``CatalogSettings`` is that part, ``CatalogDocument`` reads it).
public struct CatalogDetail: Codable, Sendable, Hashable, Identifiable {
    /// The catalog's identifier.
    public var id: String
    /// Its human-readable name.
    public var title: String
    /// What it holds, in plain text; nil when it has none (and from servers that predate it).
    public var description: String?
    /// Its locale (`de`, `hu`): the language of its screens.
    public var locale: String
    /// How many records it holds.
    public var count: Int
    /// The scope buttons' labels, in order (`Alle`, `Windows`, `Apple`, `Apple&Win`): the
    /// ``scopeDefinitions``, or, when there are none, "All" and the largest categories.
    public var scopes: [String]
    /// The source's field names in their original order.
    public var fields: [String]
    /// Every label of the index rail, in order, empty sections included.
    public var sections: [String]
    /// The source field each mapped role takes its value from (`"title": "TitelText"`); a role not
    /// listed takes the field of its own name.
    public var roles: [String: String]
    /// The types of fields read from text (`"weight": "number"`).
    public var types: [String: FieldType]
    /// Labels of fields per language: a role or an extra field's name, then a language and its
    /// label (`"complexity": {"hu": "Elkészítési idő"}`).
    public var labels: [String: [String: String]]
    /// The scopes the catalog defines, in order; empty: "All" and the largest categories.
    public var scopeDefinitions: [ScopeDefinition]
    /// One flat list: no letter sections and no index rail.
    public var flatList: Bool
    /// Every other row tinted with this color; nil for the web app's own colors.
    public var rowTint: RowTint?
    /// Who may see the catalog: `public`, `signed-in` or `members`.
    public var visibility: CatalogVisibility
    /// What a row shows under the title (``SearchSettings/listFields``; nil: the subtitle, or
    /// the categories), for ``RecordDisplay/listLine(_:fields:categoryPrefix:)``.
    public var listFields: [String]?
    /// The record fields a detail page shows, in order (``SearchSettings/detailFields``; nil:
    /// every field), for ``RecordDisplay/detailFields(_:listed:fieldOrder:)``.
    public var detailFields: [String]?

    /// Creates a description.
    public init(
        id: String, title: String, locale: String, count: Int, scopes: [String], fields: [String], sections: [String],
        roles: [String: String] = [:], types: [String: FieldType] = [:], labels: [String: [String: String]] = [:],
        scopeDefinitions: [ScopeDefinition] = [], flatList: Bool = false, rowTint: RowTint? = nil,
        visibility: CatalogVisibility = .public, description: String? = nil, listFields: [String]? = nil,
        detailFields: [String]? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.locale = locale
        self.count = count
        self.scopes = scopes
        self.fields = fields
        self.sections = sections
        self.roles = roles
        self.types = types
        self.labels = labels
        self.scopeDefinitions = scopeDefinitions
        self.flatList = flatList
        self.rowTint = rowTint
        self.visibility = visibility
        self.listFields = listFields
        self.detailFields = detailFields
    }

    /// The summary as the catalog list shows it.
    public var summary: CatalogSummary {
        CatalogSummary(
            id: id, title: title, locale: locale, count: count, visibility: visibility, description: description)
    }

    /// The label the catalog gives a field (a role's raw value or an extra field's name) in its
    /// own language, as ``CatalogDefinition/fieldLabel(_:language:)`` reads it; nil when it gives
    /// none.
    ///
    /// ```swift
    /// detail.fieldLabel("complexity")   // "Elkészítési idő" when labels has {"hu": …}
    /// ```
    public func fieldLabel(_ field: String) -> String? {
        CatalogDefinition.fieldLabel(field, language: locale, in: labels)
    }

    /// What an administrator may change of the catalog.
    public var settings: CatalogSettings {
        var mapping: [Role: String] = [:]
        for (name, field) in roles {
            if let role = Role(rawValue: name) { mapping[role] = field }
        }
        return CatalogSettings(
            title: title, locale: locale, fields: fields, roles: mapping, types: types, labels: labels,
            scopes: scopeDefinitions, flatList: flatList, rowTint: rowTint, visibility: visibility,
            description: description)
    }

    enum CodingKeys: String, CodingKey {
        case id, title, locale, count, scopes, fields, sections, roles, types, labels, scopeDefinitions, flatList
        case rowTint, visibility, description, listFields, detailFields
    }

    /// Decodes a description; the members older servers did not send take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        locale = try c.decode(String.self, forKey: .locale)
        count = try c.decode(Int.self, forKey: .count)
        scopes = try c.decode([String].self, forKey: .scopes)
        fields = try c.decode([String].self, forKey: .fields)
        sections = try c.decode([String].self, forKey: .sections)
        roles = try c.decodeIfPresent([String: String].self, forKey: .roles) ?? [:]
        types = try c.decodeIfPresent([String: FieldType].self, forKey: .types) ?? [:]
        labels = try c.decodeIfPresent([String: [String: String]].self, forKey: .labels) ?? [:]
        scopeDefinitions = try c.decodeIfPresent([ScopeDefinition].self, forKey: .scopeDefinitions) ?? []
        flatList = try c.decodeIfPresent(Bool.self, forKey: .flatList) ?? false
        rowTint = try c.decodeIfPresent(RowTint.self, forKey: .rowTint)
        visibility = try c.decodeIfPresent(CatalogVisibility.self, forKey: .visibility) ?? .public
        listFields = try c.decodeIfPresent([String].self, forKey: .listFields)
        detailFields = try c.decodeIfPresent([String].self, forKey: .detailFields)
    }

    /// Encodes every member, `description` and `rowTint` as `null` when there is none, so clients
    /// see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(locale, forKey: .locale)
        try c.encode(count, forKey: .count)
        try c.encode(scopes, forKey: .scopes)
        try c.encode(fields, forKey: .fields)
        try c.encode(sections, forKey: .sections)
        try c.encode(roles, forKey: .roles)
        try c.encode(types, forKey: .types)
        try c.encode(labels, forKey: .labels)
        try c.encode(scopeDefinitions, forKey: .scopeDefinitions)
        try c.encode(flatList, forKey: .flatList)
        try c.encode(rowTint, forKey: .rowTint)
        try c.encode(visibility, forKey: .visibility)
        try c.encode(listFields, forKey: .listFields)
        try c.encode(detailFields, forKey: .detailFields)
    }
}

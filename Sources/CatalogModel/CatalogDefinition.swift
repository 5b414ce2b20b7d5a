import Foundation

/// Everything that describes a catalog except its records: name, locale, how source fields map to
/// roles, how category values are read, which scopes search offers.
///
/// Stored with the catalog, so a re-import and an export use the same shape as the first import.
///
/// ```swift
/// var definition = CatalogDefinition(id: "sequencers", title: "Sequenzer", locale: "de")
/// definition.mapping = [.title: "TitelText", .description: "Kurzbeschreibung", .categories: "Kategorie"]
/// definition.categoryValues = ["MAC OS X": ["Apple"], "MAC OS X Windows": ["Apple", "Windows"]]
/// ```
public struct CatalogDefinition: Codable, Sendable, Equatable {
    /// Identifier used in URLs and on the command line: letters, digits, `-` and `_`.
    public var id: String
    /// Human-readable name.
    public var title: String
    /// What the catalog holds, in a sentence or two of plain text (the home page shows it under the
    /// title); nil when it has none. ``CatalogDocument/maxDescriptionLength`` characters at most.
    public var description: String?
    /// BCP 47 locale (`de`, `en`, `hu`, `sv`, …): decides sections, sort order and UI language.
    public var locale: String
    /// The XML root element used on export (`sequenzer`); `catalog` when unset.
    public var rootElement: String?
    /// The XML element that holds one record (`Produkt`); `record` when unset.
    public var recordElement: String?
    /// Source field name for each role. Roles not listed map from a source field of the same name;
    /// an empty name unmaps the role (``isUnmapped(_:)``).
    public var mapping: [Role: String]
    /// Category values as they appear in the source, mapped to category labels. A value not listed
    /// here becomes one label as it is (after ``categorySeparator`` splitting).
    public var categoryValues: [String: [String]]
    /// When set, a single categories value is split at this separator (`;` in CSV files).
    public var categorySeparator: String?
    /// The search scopes offered, in order. Empty means "All" followed by each category.
    public var scopes: [ScopeDefinition]
    /// Known categories with their metadata (numeric id, image), in display order.
    public var categories: [CategoryInfo]
    /// The order in which source fields first appeared, so exports keep the source's shape.
    public var fieldOrder: [String]
    /// Types for fields read from text (CSV, XML): `["weight": .number]` makes `"130"` the number
    /// 130. JSON values and SQLite numbers carry their own types.
    public var fieldTypes: [String: FieldType]
    /// The language whose texts fill the roles (`--lang`): a role takes its text in this language,
    /// else the text without a language, else the first; the others are kept as `ROLE@LANG`
    /// fields. Nil takes the text without a language, else the first.
    public var language: String?
    /// Source fields that carried languages (XML's `xml:lang`) and are not roles: their texts are
    /// kept as `NAME@LANG` fields, which an export writes back as translations.
    public var translatedFields: [String]
    /// How the last import identified records, so a changed id mapping is noticed.
    public var idSource: IDSource?
    /// The XML root element's namespace declarations and attributes, written again on export.
    public var rootAttributes: [XMLAttribute]
    /// Fields that were attributes of the XML record element, written as attributes on export.
    public var recordAttributes: [String]
    /// Where a catalog imported from a URL comes from, for `catalog refresh`.
    public var source: FeedSource?
    /// Labels of fields per language, for the detail page and the filters: the key is a role
    /// (`price`) or an extra field's source name (`complexity`), the value maps a language to
    /// its label (`["hu": "Elkészítési idő", "en": "Preparation time"]`). A field without a label
    /// in the page's language shows the role's default label in that language, or its name.
    public var fieldLabels: [String: [String: String]]
    /// One flat list in index order: no letter sections and no index rail (the original
    /// music-software app's look).
    public var flatList: Bool
    /// Every other row of a list tinted with this color (`rgb(180,190,150)` or `#b4be96`); nil
    /// for the web app's own alternating colors.
    public var rowTint: RowTint?
    /// The schema.org type of the records (`Recipe`, `Product`, `SoftwareApplication`) for the
    /// structured data of their pages; nil: `Product` for records with a price, else `Thing`.
    public var schemaType: String?
    /// What the last import read and how (``ImportStamp``): the same source imported the same
    /// way again has nothing to do.
    public var lastImport: ImportStamp?
    /// Who may see the catalog (``CatalogVisibility``); stored only when it is not `public`, so
    /// definitions written before it read as public. It is part of ``published`` too: an export
    /// re-imported elsewhere stays as private as it was.
    public var visibility: CatalogVisibility
    /// How search treats the catalog: synonyms, stop words, typo rules (``SearchSettings``).
    /// Written only when it is not the default, so catalogs without settings keep their shape.
    public var searchSettings: SearchSettings

    /// Creates a definition with no mapping.
    public init(
        id: String,
        title: String,
        locale: String,
        rootElement: String? = nil,
        recordElement: String? = nil,
        mapping: [Role: String] = [:],
        categoryValues: [String: [String]] = [:],
        categorySeparator: String? = nil,
        scopes: [ScopeDefinition] = [],
        categories: [CategoryInfo] = [],
        fieldOrder: [String] = [],
        fieldTypes: [String: FieldType] = [:],
        language: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = nil
        self.locale = locale
        self.rootElement = rootElement
        self.recordElement = recordElement
        self.mapping = mapping
        self.categoryValues = categoryValues
        self.categorySeparator = categorySeparator
        self.scopes = scopes
        self.categories = categories
        self.fieldOrder = fieldOrder
        self.fieldTypes = fieldTypes
        self.language = language
        self.translatedFields = []
        self.idSource = nil
        self.rootAttributes = []
        self.recordAttributes = []
        self.source = nil
        self.fieldLabels = [:]
        self.flatList = false
        self.rowTint = nil
        self.schemaType = nil
        self.visibility = .public
        self.searchSettings = SearchSettings()
    }

    /// The label of a field (a role's raw value or an extra field's name) in `language`, when
    /// the definition gives one: the exact language, else its primary subtag (`de` for `de-AT`).
    public func fieldLabel(_ field: String, language: String) -> String? {
        Self.fieldLabel(field, language: language, in: fieldLabels)
    }

    /// The label of `field` in `language` among `labels` (a field, then a language and its label):
    /// the exact language, else its primary subtag. The one rule for a definition and a
    /// ``CatalogDetail``.
    static func fieldLabel(_ field: String, language: String, in labels: [String: [String: String]]) -> String? {
        guard let labels = labels[field] else { return nil }
        if let label = labels[language] { return label }
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? language
        return labels[primary]
    }

    /// The definition as anyone who may read the catalog may see it (an offline snapshot, an
    /// export): without where it is fetched from (a feed URL may carry a password or a token, and
    /// its `ETag`) or what the last import read. Only the server that refreshes the feed keeps those.
    public var published: CatalogDefinition {
        var published = self
        published.source = nil
        published.lastImport = nil
        return published
    }

    /// The source field name that feeds `role`: the mapped name, or the role's own name; empty
    /// when the role is unmapped (``isUnmapped(_:)``).
    public func sourceName(for role: Role) -> String {
        mapping[role] ?? role.rawValue
    }

    /// Whether `role` is fed by no field, not even one named like it: its mapping is the empty
    /// name (`--no-role country`, `--field country=`), so a `country` column stays an extra field.
    public func isUnmapped(_ role: Role) -> Bool {
        mapping[role]?.isEmpty ?? false
    }

    /// Whether `id` is acceptable as a catalog identifier.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64
            && id.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
            }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, description, locale, rootElement, recordElement, mapping, categoryValues, categorySeparator,
            scopes
        case categories, fieldOrder, fieldTypes, language, translatedFields, idSource, rootAttributes
        case recordAttributes, source, fieldLabels, flatList, rowTint, schemaType, lastImport, visibility
        case searchSettings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        locale = try c.decode(String.self, forKey: .locale)
        rootElement = try c.decodeIfPresent(String.self, forKey: .rootElement)
        recordElement = try c.decodeIfPresent(String.self, forKey: .recordElement)
        let rawMapping = try c.decodeIfPresent([String: String].self, forKey: .mapping) ?? [:]
        var mapping: [Role: String] = [:]
        for (key, value) in rawMapping {
            guard let role = Role(rawValue: key) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .mapping, in: c, debugDescription: "unknown role \"\(key)\"")
            }
            mapping[role] = value
        }
        self.mapping = mapping
        categoryValues = try c.decodeIfPresent([String: [String]].self, forKey: .categoryValues) ?? [:]
        categorySeparator = try c.decodeIfPresent(String.self, forKey: .categorySeparator)
        scopes = try c.decodeIfPresent([ScopeDefinition].self, forKey: .scopes) ?? []
        categories = try c.decodeIfPresent([CategoryInfo].self, forKey: .categories) ?? []
        fieldOrder = try c.decodeIfPresent([String].self, forKey: .fieldOrder) ?? []
        fieldTypes = try c.decodeIfPresent([String: FieldType].self, forKey: .fieldTypes) ?? [:]
        language = try c.decodeIfPresent(String.self, forKey: .language)
        translatedFields = try c.decodeIfPresent([String].self, forKey: .translatedFields) ?? []
        idSource = try c.decodeIfPresent(IDSource.self, forKey: .idSource)
        rootAttributes = try c.decodeIfPresent([XMLAttribute].self, forKey: .rootAttributes) ?? []
        recordAttributes = try c.decodeIfPresent([String].self, forKey: .recordAttributes) ?? []
        source = try c.decodeIfPresent(FeedSource.self, forKey: .source)
        fieldLabels = try c.decodeIfPresent([String: [String: String]].self, forKey: .fieldLabels) ?? [:]
        flatList = try c.decodeIfPresent(Bool.self, forKey: .flatList) ?? false
        rowTint = try c.decodeIfPresent(RowTint.self, forKey: .rowTint)
        schemaType = try c.decodeIfPresent(String.self, forKey: .schemaType)
        lastImport = try c.decodeIfPresent(ImportStamp.self, forKey: .lastImport)
        visibility = try c.decodeIfPresent(CatalogVisibility.self, forKey: .visibility) ?? .public
        searchSettings = try c.decodeIfPresent(SearchSettings.self, forKey: .searchSettings) ?? SearchSettings()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encode(locale, forKey: .locale)
        try c.encodeIfPresent(rootElement, forKey: .rootElement)
        try c.encodeIfPresent(recordElement, forKey: .recordElement)
        try c.encode(Dictionary(uniqueKeysWithValues: mapping.map { ($0.key.rawValue, $0.value) }), forKey: .mapping)
        try c.encode(categoryValues, forKey: .categoryValues)
        try c.encodeIfPresent(categorySeparator, forKey: .categorySeparator)
        try c.encode(scopes, forKey: .scopes)
        try c.encode(categories, forKey: .categories)
        try c.encode(fieldOrder, forKey: .fieldOrder)
        if !fieldTypes.isEmpty { try c.encode(fieldTypes, forKey: .fieldTypes) }
        try c.encodeIfPresent(language, forKey: .language)
        if !translatedFields.isEmpty { try c.encode(translatedFields, forKey: .translatedFields) }
        try c.encodeIfPresent(idSource, forKey: .idSource)
        if !rootAttributes.isEmpty { try c.encode(rootAttributes, forKey: .rootAttributes) }
        if !recordAttributes.isEmpty { try c.encode(recordAttributes, forKey: .recordAttributes) }
        try c.encodeIfPresent(source, forKey: .source)
        if !fieldLabels.isEmpty { try c.encode(fieldLabels, forKey: .fieldLabels) }
        if flatList { try c.encode(flatList, forKey: .flatList) }
        try c.encodeIfPresent(rowTint, forKey: .rowTint)
        try c.encodeIfPresent(schemaType, forKey: .schemaType)
        try c.encodeIfPresent(lastImport, forKey: .lastImport)
        if visibility != .public { try c.encode(visibility, forKey: .visibility) }
        if !searchSettings.isDefault { try c.encode(searchSettings, forKey: .searchSettings) }
    }
}

/// An opaque row color of a catalog's lists: written `rgb(180,190,150)` or `#b4be96`, stored
/// as written in that canonical `rgb(…)` form.
public struct RowTint: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Red, green and blue, 0–255.
    public var red: Int
    public var green: Int
    public var blue: Int

    /// Creates a color; each component is clamped to 0–255.
    public init(red: Int, green: Int, blue: Int) {
        self.red = min(255, max(0, red))
        self.green = min(255, max(0, green))
        self.blue = min(255, max(0, blue))
    }

    /// Parses `rgb(R,G,B)` (spaces allowed) or `#RRGGBB`; nil for anything else.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("#"), text.utf8.count == 7, let value = Int(text.dropFirst(), radix: 16) {
            self.init(red: value >> 16, green: (value >> 8) & 0xFF, blue: value & 0xFF)
            return
        }
        guard text.hasPrefix("rgb("), text.hasSuffix(")") else { return nil }
        let parts = text.dropFirst(4).dropLast().split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let red = parts[0], let green = parts[1], let blue = parts[2],
            [red, green, blue].allSatisfy({ (0...255).contains($0) })
        else { return nil }
        self.init(red: red, green: green, blue: blue)
    }

    /// `rgb(180,190,150)`.
    public var description: String { "rgb(\(red),\(green),\(blue))" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let tint = RowTint(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a color: \"\(text.prefix(40))\""))
        }
        self = tint
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// How an import identified records: from a source field, or derived from the title.
///
/// Stored as `{"field":"alpha_2"}` or `{"title":"name"}`.
public enum IDSource: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Ids came from this source field.
    case field(String)
    /// Ids were derived from the title, read from this source field.
    case title(String)

    enum CodingKeys: String, CodingKey {
        case field, title
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try c.decodeIfPresent(String.self, forKey: .field) {
            self = .field(name)
        } else {
            self = .title(try c.decode(String.self, forKey: .title))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .field(let name): try c.encode(name, forKey: .field)
        case .title(let name): try c.encode(name, forKey: .title)
        }
    }

    /// `the field "alpha_2"`, `titles (field "name")`, for messages.
    public var description: String {
        switch self {
        case .field(let name): "the field \"\(name)\""
        case .title(let name): "their titles (field \"\(name)\")"
        }
    }
}

/// An XML attribute (or namespace declaration) by name and value.
public struct XMLAttribute: Codable, Sendable, Equatable, Hashable {
    /// `xmlns:dc`, `version`, …
    public var name: String
    /// The attribute's value.
    public var value: String

    /// Creates an attribute.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Where a catalog imported from a URL comes from, and how it was read, so `catalog refresh` can
/// fetch it again (conditionally) and import it the same way.
public struct FeedSource: Codable, Sendable, Equatable, Hashable {
    /// The http(s) URL.
    public var url: String
    /// The format given with `--format`, if any (`xml`, `json`, `csv`, `sqlite`).
    public var format: String?
    /// `--record`, if given.
    public var record: String?
    /// `--table`, if given.
    public var table: String?
    /// Whether the import removed records missing from the source (`--replace`).
    public var replace: Bool
    /// The `ETag` of the last response that was imported.
    public var etag: String?
    /// The `Last-Modified` of the last response that was imported.
    public var lastModified: String?

    /// Creates a feed source.
    public init(
        url: String, format: String? = nil, record: String? = nil, table: String? = nil, replace: Bool = false,
        etag: String? = nil, lastModified: String? = nil
    ) {
        self.url = url
        self.format = format
        self.record = record
        self.table = table
        self.replace = replace
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A search scope: a button above the results. It selects the records that carry every one of
/// ``categories``; an empty list selects everything ("Alle", "All").
public struct ScopeDefinition: Codable, Sendable, Equatable, Hashable {
    /// The button's label, also the value of the `scope` parameter.
    public var label: String
    /// Category labels a record must all carry.
    public var categories: [String]

    /// Creates a scope.
    public init(label: String, categories: [String]) {
        self.label = label
        self.categories = categories
    }
}

/// A category with its metadata, as the cookbook's `/getcategories` serves it.
public struct CategoryInfo: Codable, Sendable, Equatable, Hashable {
    /// Numeric id, stable across imports (`catid`).
    public var id: Int
    /// The label records carry in ``Record/categories``.
    public var name: String
    /// Image URL or image-store path.
    public var image: String?

    /// Creates a category.
    public init(id: Int, name: String, image: String? = nil) {
        self.id = id
        self.name = name
        self.image = image
    }
}

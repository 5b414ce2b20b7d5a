/// A catalog as listed: `{"id","title","description","locale","count","visibility"}`.
public struct CatalogSummary: Codable, Sendable, Hashable, Identifiable {
    /// The catalog's identifier.
    public var id: String
    /// Its human-readable name.
    public var title: String
    /// Its locale.
    public var locale: String
    /// How many records it holds.
    public var count: Int
    /// Who may see it (`public` from servers that predate visibility).
    public var visibility: CatalogVisibility
    /// What it holds, in plain text; nil when it has none (and from servers that predate it).
    public var description: String?

    /// Creates a summary.
    public init(
        id: String, title: String, locale: String, count: Int, visibility: CatalogVisibility = .public,
        description: String? = nil
    ) {
        self.id = id
        self.title = title
        self.locale = locale
        self.count = count
        self.visibility = visibility
        self.description = description
    }

    enum CodingKeys: String, CodingKey {
        case id, title, locale, count, visibility, description
    }

    /// Decodes a summary; one without `visibility` (an older server's) is public, one without
    /// `description` has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        locale = try c.decode(String.self, forKey: .locale)
        count = try c.decode(Int.self, forKey: .count)
        visibility = try c.decodeIfPresent(CatalogVisibility.self, forKey: .visibility) ?? .public
        description = try c.decodeIfPresent(String.self, forKey: .description)
    }

    /// Encodes every member, `description` as `null` when there is none, as the server writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(locale, forKey: .locale)
        try c.encode(count, forKey: .count)
        try c.encode(visibility, forKey: .visibility)
    }
}

/// A non-empty index section: `{"label","count"}`.
public struct SectionCount: Codable, Sendable, Hashable, Identifiable {
    /// The label (``label``): a catalog has each section once.
    public var id: String { label }
    /// The label shown in the header and on the index rail (`A`, `CS`, `#`).
    public var label: String
    /// How many records the section holds.
    public var count: Int

    /// Creates a section count.
    public init(label: String, count: Int) {
        self.label = label
        self.count = count
    }
}

/// One page of records in index order: `{"items":[…],"next":cursor|null,"previous":cursor|null}`.
public struct ItemsPage: Codable, Sendable, Hashable {
    /// The records, in index order.
    public var items: [Record]
    /// Opaque cursor for the next page (`after=`), `nil` at the end.
    public var next: String?
    /// Opaque cursor for the page before (`before=`), `nil` at the start.
    public var previous: String?

    /// Creates a page.
    public init(items: [Record], next: String?, previous: String? = nil) {
        self.items = items
        self.next = next
        self.previous = previous
    }

    /// Encodes `next` and `previous` as `null` rather than leaving them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
        try container.encode(previous, forKey: .previous)
    }
}

/// Where a search matched: a range of one field, in UTF-16 code units (what JavaScript and
/// `NSRange` count), so clients can highlight without re-implementing folding.
public struct MatchRange: Codable, Sendable, Equatable, Hashable {
    /// The field: `title`, `subtitle`, `description`, `categories`, or an extra field's name.
    public var field: String
    /// Offset of the first matched code unit.
    public var start: Int
    /// Number of matched code units.
    public var length: Int

    /// Creates a range.
    public init(field: String, start: Int, length: Int) {
        self.field = field
        self.start = start
        self.length = length
    }
}

/// A piece of a field outside the result list's fields that explains why a record matched:
/// `{"field","text","matches":[…]}`, ranges relative to `text`.
public struct MatchSnippet: Codable, Sendable, Hashable {
    /// The field: `description`, `fields.NAME` or `id`.
    public var field: String
    /// Up to about 120 characters of it around the match, "…" where it was cut.
    public var text: String
    /// Where the query matched in ``text``, in UTF-16 code units.
    public var matches: [MatchRange]

    /// Creates a snippet.
    public init(field: String, text: String, matches: [MatchRange]) {
        self.field = field
        self.text = text
        self.matches = matches
    }
}

/// A search result: the record's keys plus `matches`, `snippet` (when the match is outside the
/// list's fields) and `typo` (when it matched only through a typo).
public struct SearchHit: Codable, Sendable, Hashable, Identifiable {
    /// The record's id (``Record/id``): a page holds each record once.
    public var id: String { record.id }
    /// The record found.
    public var record: Record
    /// Where the query matched, per field.
    public var matches: [MatchRange]
    /// The piece of another field that matched, if that is where it did.
    public var snippet: MatchSnippet?
    /// Whether some query word matched this record only with a typo: such hits rank after every
    /// exact one, and apps may show them apart ("did you mean …" rows).
    public var typo: Bool

    /// Creates a hit.
    public init(record: Record, matches: [MatchRange], snippet: MatchSnippet? = nil, typo: Bool = false) {
        self.record = record
        self.matches = matches
        self.snippet = snippet
        self.typo = typo
    }

    public init(from decoder: any Decoder) throws {
        record = try Record(from: decoder)
        let c = try decoder.container(keyedBy: Keys.self)
        matches = try c.decodeIfPresent([MatchRange].self, forKey: .matches) ?? []
        snippet = try c.decodeIfPresent(MatchSnippet.self, forKey: .snippet)
        typo = try c.decodeIfPresent(Bool.self, forKey: .typo) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(matches, forKey: .matches)
        try c.encode(snippet, forKey: .snippet)
        try c.encode(typo, forKey: .typo)
    }

    enum Keys: String, CodingKey { case matches, snippet, typo }
}

/// A scope button with its count: `{"label","count","capped"}`.
public struct ScopeCount: Codable, Sendable, Hashable, Identifiable {
    /// The label (``label``): a catalog has each scope once.
    public var id: String { label }
    /// The scope's label.
    public var label: String
    /// Matching records, at most ``SearchResponse/countCap``.
    public var count: Int
    /// True when there are more than ``count`` (shown as "1000+").
    public var capped: Bool

    /// Creates a scope count.
    public init(label: String, count: Int, capped: Bool = false) {
        self.label = label
        self.count = count
        self.capped = capped
    }
}

/// The answer to a search: ranked hits, the total and a count per scope.
public struct SearchResponse: Codable, Sendable, Hashable {
    /// Counts stop at this number; a capped count means "at least this many".
    public static let countCap = 1000

    /// Ranked hits, best first.
    public var items: [SearchHit]
    /// How many records match in the selected scope, at most ``countCap``.
    public var total: Int
    /// True when ``total`` stopped at the cap.
    public var totalCapped: Bool
    /// The scope searched (its label), `nil` for all records.
    public var scope: String?
    /// Every scope with its count for this query.
    public var scopes: [ScopeCount]
    /// The cursor of the next page (`after=`), nil on the last page.
    public var next: String?
    /// Facet counts by facet name (`categories`, `country`), when asked for.
    public var facets: [String: [FacetCount]]?
    /// When nothing was found: a query close to this one that finds something with the same
    /// scope and filters ("did you mean"), its words as the index keeps them; nil otherwise.
    public var suggestion: String?

    /// Creates a response.
    public init(
        items: [SearchHit], total: Int, totalCapped: Bool, scope: String?, scopes: [ScopeCount], next: String? = nil,
        facets: [String: [FacetCount]]? = nil, suggestion: String? = nil
    ) {
        self.items = items
        self.total = total
        self.totalCapped = totalCapped
        self.scope = scope
        self.scopes = scopes
        self.next = next
        self.facets = facets
        self.suggestion = suggestion
    }

    /// Encodes `scope` and `next` as `null` rather than leaving them out; `facets` and
    /// `suggestion` only when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(total, forKey: .total)
        try container.encode(totalCapped, forKey: .totalCapped)
        try container.encode(scope, forKey: .scope)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(next, forKey: .next)
        try container.encodeIfPresent(facets, forKey: .facets)
        try container.encodeIfPresent(suggestion, forKey: .suggestion)
    }
}

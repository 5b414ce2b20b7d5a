import Foundation

/// How search treats one catalog: its synonyms, stop words, typo rules, searchable and sortable fields. A
/// catalog without settings searches as every catalog did before (``isDefault``).
///
/// Stored in the catalog's definition (``CatalogDefinition/searchSettings``), so every engine
/// keeps it in the same transaction as the rest of the definition, an export carries it and a
/// re-import of the export has it again, and offline snapshots search with it. Shown and changed
/// through `GET` and `PATCH /api/v1/catalogs/{id}/settings` (``SearchSettingsDocument``) and
/// `catalog settings ID`.
///
/// ```swift
/// var settings = SearchSettings()
/// settings.synonyms = [try SynonymRule(parsing: "auto, car"), try SynonymRule(parsing: "phone => iphone")]
/// settings.stopWords = ["the", "a"]
/// settings.typos.oneTypoFrom = 6
/// settings.searchableFields = ["title", "subtitle", "sku"]
/// ```
public struct SearchSettings: Codable, Sendable, Equatable, Hashable {
    /// Words a query word also matches: several-way groups (`auto, car`: each finds the other)
    /// and one-way rules (`phone => iphone`: "phone" finds "iphone", not the other way round). A
    /// record that matches a word only through a synonym ranks after those that match it exactly.
    public var synonyms: [SynonymRule]
    /// Words left out of a query of more than one word (`the`, `a`, `der`); a query of stop words
    /// only is searched as typed.
    public var stopWords: [String]
    /// When a query word may match with typos.
    public var typos: TypoSettings
    /// The fields search reads: `title`, `subtitle`, `description`, `categories`, `id`, an extra
    /// field's name, or `*` for every field not named (the default, `["*"]`), in order of weight.
    /// The title ranks before every other field wherever it is named. The fields named after it
    /// rank in their order (``weight(of:)``): where an exact word, or a word's beginning, of a
    /// field is what a record matches by, a record matched in an earlier field comes first, and
    /// fields only `*` names come after every named one. A change builds the catalog's index
    /// again from its records.
    public var searchableFields: [String]
    /// The fields `filter=` (and `facets=`) may name besides the built-in category, country and
    /// price; nil: every field (and the default filter sheet shows those the data suggests,
    /// ``FieldStatistics/isFilterableByDefault``). With a list, a filter on another field is a
    /// bad request.
    public var filterableFields: [String]?
    /// The facets shown by default (the web app's filter sheet); nil: those the data suggests.
    public var facetFields: [String]?
    /// The record fields results may be sorted by (`sort=Year,-Horsepower`), or nil to read them
    /// from the data (CatalogCore's `CatalogSearcher.sortableProblem`: every number and date
    /// field, and text fields of few distinct values). The title and the price always sort.
    /// Sorting by a field the list leaves out is a 400. A change needs no new index.
    public var sortableFields: [String]?
    /// What a list row shows under the title, in order, one value after another: `subtitle`,
    /// `categories`, `description`, `id` or a record field's name; nil: the subtitle, or the
    /// categories without one (the original apps' rows). The price and the flag keep their place
    /// at the row's end; a search's snippet still explains a match. Only display: no index changes.
    public var listFields: [String]?
    /// The record fields a detail page shows, in this order; nil: every field (in the source's
    /// order). The title, picture, categories, price, country and description are always shown.
    public var detailFields: [String]?
    /// A record field that breaks ties between results of one tier (``rankingKey``), written as
    /// a sort key: `-population` puts the largest first (a city's population, a popularity),
    /// `rank` the smallest (a chart position); records without it come after those with it, and
    /// ties then keep search order (shorter titles first, then the collation, then the id). Nil:
    /// none. Values compare as `sort=` compares them (numbers before dates before texts). Only
    /// the order within a tier changes: an exact match still comes before a prefix, a typo after
    /// both. A change needs no new index.
    public var rankingField: String?

    /// The most synonym rules, and the most stop words or typo-exempt words.
    public static let maxEntries = 1000
    /// The longest synonym rule or word, in characters.
    public static let maxEntryLength = 200

    /// Every field.
    public static let everyField = "*"

    /// Creates settings; the defaults are today's search.
    public init(
        synonyms: [SynonymRule] = [], stopWords: [String] = [], typos: TypoSettings = TypoSettings(),
        searchableFields: [String] = [SearchSettings.everyField], filterableFields: [String]? = nil,
        facetFields: [String]? = nil, sortableFields: [String]? = nil, listFields: [String]? = nil,
        detailFields: [String]? = nil, rankingField: String? = nil
    ) {
        self.synonyms = synonyms
        self.stopWords = stopWords
        self.typos = typos
        self.searchableFields = searchableFields
        self.filterableFields = filterableFields
        self.facetFields = facetFields
        self.sortableFields = sortableFields
        self.listFields = listFields
        self.detailFields = detailFields
        self.rankingField = rankingField
    }

    /// Whether `filter=` may name `field` (one of the records' own fields): any field without a
    /// ``filterableFields`` list, the listed ones with it.
    public func isFilterable(_ field: String) -> Bool {
        filterableFields?.contains(field) ?? true
    }

    /// Whether a change from `self` to `other` builds the catalog's index again: the fields
    /// searched, or those typos never reach, changed.
    public func needsRebuild(from other: SearchSettings) -> Bool {
        searchableFields != other.searchableFields || typos.exemptFields != other.typos.exemptFields
    }

    /// Whether search reads `field` (`title`, `subtitle`, `description`, `categories`, `id`, or
    /// an extra field's name). A translation (`title@de`) is searched with its field.
    public func isSearchable(_ field: String) -> Bool {
        if searchableFields.contains(Self.everyField) || searchableFields.contains(field) { return true }
        guard let at = field.lastIndex(of: "@"), at != field.startIndex else { return false }
        return searchableFields.contains(String(field[..<at]))
    }

    /// The most weights the order of ``searchableFields`` gives: the fields named after the
    /// fourth share the fourth's weight.
    public static let maxFieldWeights = 4

    /// How `field`'s matches rank among other fields' (`title`, `subtitle`, `description`,
    /// `categories`, `id`, or an extra field's name; a translation `name@de` weighs as `name`):
    /// 1 for the first field ``searchableFields`` names besides the title, 2 for the next, up to
    /// ``maxFieldWeights``; nil for the title and for fields only `*` names, which rank after
    /// every named field.
    public func weight(of field: String) -> Int? {
        var name = field
        if !searchableFields.contains(field), let at = field.lastIndex(of: "@"), at != field.startIndex {
            name = String(field[..<at])
        }
        guard name != "title", let position = namedFields.firstIndex(of: name) else { return nil }
        return min(position + 1, Self.maxFieldWeights)
    }

    /// How many weights the named fields take (0 with none but the title: every field then
    /// weighs the same, as the defaults have it).
    public var fieldWeights: Int { min(namedFields.count, Self.maxFieldWeights) }

    /// The fields ``searchableFields`` names besides the title and `*`, in order, each once.
    private var namedFields: [String] {
        var seen: Set<String> = []
        return searchableFields.filter { $0 != "title" && $0 != Self.everyField && seen.insert($0).inserted }
    }

    /// The ranking field as a sort key (`-population`: descending), nil without one or when it
    /// does not name a record field (``problems()`` says why).
    public var rankingKey: SearchSort.Key? {
        guard let rankingField, Self.rankingProblem(rankingField) == nil else { return nil }
        let descending = rankingField.hasPrefix("-")
        return SearchSort.Key(.field(String(rankingField.dropFirst(descending ? 1 : 0))), descending: descending)
    }

    /// Why `text` is no ranking field, nil when it is one.
    static func rankingProblem(_ text: String) -> String? {
        let name = text.hasPrefix("-") ? String(text.dropFirst()) : text
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "must name a record field" }
        if name == "title" || name == "price" {
            return "must name one of the records' own fields (title and price are not ranking fields)"
        }
        if name.utf8.count > SearchSort.maxFieldBytes {
            return "is longer than \(SearchSort.maxFieldBytes) bytes"
        }
        if name.utf8.contains(0) { return "must not contain NUL characters" }
        if name.hasPrefix("-") || name.contains(",") { return "names one field, with at most one '-' before it" }
        return nil
    }

    /// Whether these are the settings of a catalog that has none.
    public var isDefault: Bool { self == SearchSettings() }

    enum CodingKeys: String, CodingKey {
        case synonyms, stopWords, typos, searchableFields, filterableFields, facetFields, sortableFields, listFields
        case detailFields, rankingField
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        synonyms = try c.decodeIfPresent([SynonymRule].self, forKey: .synonyms) ?? []
        stopWords = try c.decodeIfPresent([String].self, forKey: .stopWords) ?? []
        typos = try c.decodeIfPresent(TypoSettings.self, forKey: .typos) ?? TypoSettings()
        searchableFields =
            try c.decodeIfPresent([String].self, forKey: .searchableFields) ?? [Self.everyField]
        filterableFields = try c.decodeIfPresent([String].self, forKey: .filterableFields)
        facetFields = try c.decodeIfPresent([String].self, forKey: .facetFields)
        sortableFields = try c.decodeIfPresent([String].self, forKey: .sortableFields)
        listFields = try c.decodeIfPresent([String].self, forKey: .listFields)
        detailFields = try c.decodeIfPresent([String].self, forKey: .detailFields)
        rankingField = try c.decodeIfPresent(String.self, forKey: .rankingField)
    }

    /// What is wrong with these settings, each problem at the JSON pointer of its member as
    /// `GET /api/v1/catalogs/{id}/settings` shows it (`/stopWords/2`); empty when nothing is.
    public func problems() -> [CatalogChangeError.Problem] {
        var problems: [CatalogChangeError.Problem] = []
        func add(_ pointer: String, _ message: String) {
            if problems.count < CatalogDocument.maxProblems {
                problems.append(CatalogChangeError.Problem(pointer: pointer, message: message))
            }
        }
        func words(_ list: [String], at pointer: String) {
            if list.count > Self.maxEntries { add(pointer, "more than \(Self.maxEntries) words") }
            for (index, word) in list.prefix(Self.maxEntries).enumerated() {
                if let problem = SynonymRule.wordProblem(word) {
                    add("\(pointer)/\(index)", "\(CatalogDocument.quoted(word)) \(problem)")
                }
            }
        }
        if synonyms.count > Self.maxEntries { add("/synonyms", "more than \(Self.maxEntries) synonym rules") }
        words(stopWords, at: "/stopWords")
        let lengths = TypoSettings.lengthRange
        if !lengths.contains(typos.oneTypoFrom) {
            add("/typos/oneTypoFrom", "must be a whole number from \(lengths.lowerBound) to \(lengths.upperBound)")
        }
        if !lengths.contains(typos.twoTyposFrom) {
            add("/typos/twoTyposFrom", "must be a whole number from \(lengths.lowerBound) to \(lengths.upperBound)")
        } else if lengths.contains(typos.oneTypoFrom), typos.twoTyposFrom < typos.oneTypoFrom {
            add("/typos/twoTyposFrom", "must not be less than oneTypoFrom (\(typos.oneTypoFrom))")
        }
        words(typos.exemptWords, at: "/typos/exemptWords")
        func fields(_ list: [String], at pointer: String) {
            if list.count > CatalogDocument.maxFields { add(pointer, "more than \(CatalogDocument.maxFields) fields") }
            var seen: Set<String> = []
            for (index, field) in list.prefix(CatalogDocument.maxFields).enumerated() {
                let pointer = "\(pointer)/\(index)"
                if field.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    add(pointer, "must not be empty")
                } else if field.unicodeScalars.count > CatalogDocument.maxNameLength {
                    add(pointer, "is longer than \(CatalogDocument.maxNameLength) characters")
                } else if field.utf8.contains(0) {
                    add(pointer, "must not contain NUL characters")
                } else if !seen.insert(field).inserted {
                    add(pointer, "\(CatalogDocument.quoted(field)) is named twice")
                }
            }
        }
        fields(typos.exemptFields, at: "/typos/exemptFields")
        if searchableFields.isEmpty {
            add("/searchableFields", "name at least one field, or \"*\" for every field")
        }
        fields(searchableFields, at: "/searchableFields")
        if let filterableFields { fields(filterableFields, at: "/filterableFields") }
        if let facetFields { fields(facetFields, at: "/facetFields") }
        if let sortableFields { fields(sortableFields, at: "/sortableFields") }
        if let listFields { fields(listFields, at: "/listFields") }
        if let detailFields { fields(detailFields, at: "/detailFields") }
        if let rankingField, let problem = Self.rankingProblem(rankingField) {
            add("/rankingField", "\(CatalogDocument.quoted(rankingField)) \(problem)")
        }
        return problems
    }
}

/// When a query word may match a word of a record with typos: an inserted, missing, wrong or
/// swapped letter each count one.
///
/// A word may have one typo from ``oneTypoFrom`` letters and two from ``twoTyposFrom`` (5 and 9
/// by default, the rule Meilisearch documents); from 4 letters up to the one-typo length, two
/// neighbouring letters may be swapped ("yrok" for "york") and nothing else. Words in
/// ``exemptWords`` (brand names, codes) match only as typed, and so do the words of the fields in
/// ``exemptFields`` (the id by default) and of URLs.
public struct TypoSettings: Codable, Sendable, Equatable, Hashable {
    /// The shortest word that may have one typo.
    public var oneTypoFrom: Int
    /// The shortest word that may have two typos.
    public var twoTyposFrom: Int
    /// Query words that never match with a typo.
    public var exemptWords: [String]
    /// Fields whose words typos never reach (`id` by default; a URL's words never either). A
    /// change builds the catalog's index again from its records.
    public var exemptFields: [String]

    /// The lengths the two thresholds may take; 65 is more than a query word's longest
    /// (``SearchQuery/maxWordBytes``), so it turns those typos off.
    public static let lengthRange = 1...65

    /// Creates typo rules.
    public init(
        oneTypoFrom: Int = 5, twoTyposFrom: Int = 9, exemptWords: [String] = [], exemptFields: [String] = ["id"]
    ) {
        self.oneTypoFrom = oneTypoFrom
        self.twoTyposFrom = twoTyposFrom
        self.exemptWords = exemptWords
        self.exemptFields = exemptFields
    }

    enum CodingKeys: String, CodingKey {
        case oneTypoFrom, twoTyposFrom, exemptWords, exemptFields
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TypoSettings()
        oneTypoFrom = try c.decodeIfPresent(Int.self, forKey: .oneTypoFrom) ?? defaults.oneTypoFrom
        twoTyposFrom = try c.decodeIfPresent(Int.self, forKey: .twoTyposFrom) ?? defaults.twoTyposFrom
        exemptWords = try c.decodeIfPresent([String].self, forKey: .exemptWords) ?? []
        exemptFields = try c.decodeIfPresent([String].self, forKey: .exemptFields) ?? defaults.exemptFields
    }
}

/// One synonym rule, written as text: a group of words that find each other (`auto, car,
/// automobile`), or words that find others but not the other way round (`phone => iphone`,
/// `phone, mobile => iphone, smartphone`). Each entry is one word; case and accents do not
/// matter, as in queries.
///
/// ```swift
/// let rule = try SynonymRule(parsing: "Phone =>  iPhone")
/// rule.description  // "Phone => iPhone"
/// ```
public struct SynonymRule: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The words that find ``words``; empty for a group, whose words find each other.
    public let sources: [String]
    /// The group's words, or the words the sources find.
    public let words: [String]

    /// Reads a rule.
    ///
    /// - Throws: a sentence saying what is wrong, for a rule without words, a group of one word,
    ///   an entry of several words, or more than one `=>`.
    public init(parsing text: String) throws(SynonymRule.ParseError) {
        guard text.unicodeScalars.count <= SearchSettings.maxEntryLength else {
            throw ParseError("is longer than \(SearchSettings.maxEntryLength) characters")
        }
        let sides = text.components(separatedBy: "=>")
        guard sides.count <= 2 else { throw ParseError("has more than one '=>'") }
        func entries(_ side: String) throws(ParseError) -> [String] {
            var found: [String] = []
            for entry in side.split(separator: ",", omittingEmptySubsequences: false) {
                let word = entry.trimmingCharacters(in: .whitespaces)
                if let problem = Self.wordProblem(word) { throw ParseError("\"\(word.prefix(40))\" \(problem)") }
                if !found.contains(word) { found.append(word) }
            }
            return found
        }
        if sides.count == 2 {
            sources = try entries(sides[0])
            words = try entries(sides[1])
        } else {
            sources = []
            words = try entries(sides[0])
            guard words.count >= 2 else {
                throw ParseError(
                    "is a group of one word: write 'auto, car' (each finds the other) or 'phone => iphone'")
            }
        }
    }

    /// Why a rule's entry, a stop word or a typo-exempt word is not one word, nil when it is.
    static func wordProblem(_ word: String) -> String? {
        if word.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "must not be empty" }
        if word.unicodeScalars.count > SearchSettings.maxEntryLength {
            return "is longer than \(SearchSettings.maxEntryLength) characters"
        }
        if word.utf8.contains(0) { return "must not contain NUL characters" }
        let query = SearchQuery(word)
        if query.sequence.count != 1 { return "is not one word as search reads words" }
        return nil
    }

    /// `auto, car` or `phone => iphone`.
    public var description: String {
        let list = words.joined(separator: ", ")
        return sources.isEmpty ? list : sources.joined(separator: ", ") + " => " + list
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try SynonymRule(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "synonym rule \(error.message)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// What is wrong with a rule's text.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A phrase that follows the rule (`has more than one '=>'`).
        public let message: String

        init(_ message: String) {
            self.message = message
        }

        public var description: String { message }
    }
}

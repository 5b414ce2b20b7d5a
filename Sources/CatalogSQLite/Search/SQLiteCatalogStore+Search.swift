import CatalogModel
import CatalogStorage
import Foundation

/// Search with bounded work per query.
///
/// Ranking is static and tiered instead of scored: (1) every word is a whole word of the title,
/// (2) every word starts a word of the title, (3) every word occurs inside a title word (from the
/// index of title-word suffixes), (4) every word starts a word of any field. Tiers 3 and 4 need
/// every word to have three characters or more: the first letters typed match the beginnings of
/// title words, which is what a person typing one or two letters is looking for. Within a tier, records come in index order, which is also the full-text tables'
/// rowid order, so each tier is a `MATCH … ORDER BY rowid LIMIT n` that SQLite answers by walking
/// doclists and stopping after `n` rows: the cost follows the page size, not the number of
/// matches.
///
/// Counts come from one pass over at most ``countBudget`` matching rowids: the scope of each is
/// read from the catalog's scope masks (8 bytes per record). When the pass ends before the
/// matches do, counts are lower bounds and flagged `capped`; counts above
/// ``SearchResponse/countCap`` are shown as the cap.
extension SQLiteCatalogStore {
    /// The most hits one search returns.
    public static let maxSearchLimit = 200
    /// The most scopes offered when a catalog defines none: "All" plus its largest categories.
    public static let maxDefaultScopes = 16
    /// How many matches of a tier a scoped search walks before it intersects with the scope.
    static let scopeScanLimit = 4_000
    /// How many matching records one search looks at to count them per scope.
    public static let countBudget = SearchResponse.countCap

    public func search(_ text: String, in id: String, scope: String?, limit: Int) throws -> SearchResponse {
        try connection.read { try unsnapshottedSearch(text, in: id, scope: scope, limit: limit) }
    }

    private func unsnapshottedSearch(_ text: String, in id: String, scope: String?, limit: Int) throws -> SearchResponse
    {
        let state = try requireState(id)
        guard limit >= 1 && limit <= Self.maxSearchLimit else {
            throw StorageError(.invalidArgument, "limit must be between 1 and \(Self.maxSearchLimit)")
        }
        let query = SearchQuery(text)
        let scopes = scopeDefinitions(of: state)
        var selected: ScopeDefinition?
        if let scope, !scope.isEmpty {
            guard let match = scopes.first(where: { $0.label == scope }) else {
                throw StorageError(.nameNotFound, "catalog \"\(id)\" has no scope \"\(scope)\"")
            }
            selected = match.categories.isEmpty ? nil : match
        }
        let plan = SearchPlan(query: query, state: state) { table, word in
            try self.prefixExpression(table: table, word: word)
        }
        let counts = try connection.timed("search counts") { try scopeCounts(plan, scopes: scopes, state: state) }
        let selectedCount =
            counts.first { $0.label == (selected?.label ?? scopes.first?.label) }
            ?? ScopeCount(label: "", count: 0)

        let scopeNumbers = selected.map { categoryNumbers(of: $0, in: state) } ?? []
        let hits: [SearchHit]
        if scopeNumbers.contains(nil) {
            hits = []
        } else if query.isEmpty {
            let numbers = scopeNumbers.compactMap { $0 }
            let ords: [Int64]
            if numbers.isEmpty {
                ords = try orderedOrds(in: state.ordRange, limit: limit)
            } else {
                ords = try matchingOrds(table: state.titleWords, match: plan.scopeExpression(numbers), limit: limit)
            }
            hits = try records(ords: ords, state: state).map { SearchHit(record: $0, matches: []) }
        } else {
            var found: [Int64] = []
            var seen: Set<Int64> = []
            // A scope filters matches by their masks: walking a tier's matches and skipping those
            // outside the scope is cheaper than intersecting with the scope's long doclist, which
            // walks to its end when the scope holds few matches. The walk is bounded; if it ends
            // early, the intersection finishes the page.
            let filter = selected.flatMap { scopeMask($0, state: state) }
            var truncated = false
            if let filter {
                let masks = Blob(connection: connection, table: "scope_masks", column: "masks", rowid: state.number)
                let base = state.ordRange.lowerBound + 1
                for tier in try plan.tiers(scope: []) where found.count < limit {
                    let ords = try matchingOrds(table: tier.table, match: tier.match, limit: Self.scopeScanLimit)
                    truncated = truncated || ords.count == Self.scopeScanLimit
                    for ord in ords where !seen.contains(ord) {
                        seen.insert(ord)
                        let mask = masks?.uint64(at: Int(ord - base) * 8) ?? 0
                        guard mask & filter == filter else { continue }
                        found.append(ord)
                        if found.count == limit { break }
                    }
                }
            }
            if filter == nil || (truncated && found.count < limit) {
                seen = Set(found)
                for tier in try plan.tiers(scope: scopeNumbers.compactMap { $0 }) where found.count < limit {
                    for ord in try matchingOrds(table: tier.table, match: tier.match, limit: limit + found.count)
                    where !seen.contains(ord) {
                        seen.insert(ord)
                        found.append(ord)
                        if found.count == limit { break }
                    }
                }
            }
            hits = try connection.timed("search records") {
                try records(ords: found, state: state).map {
                    SearchHit(record: $0, matches: Self.matches(of: query, in: $0))
                }
            }
        }
        return SearchResponse(
            items: hits, total: selectedCount.count, totalCapped: selectedCount.capped,
            scope: selected?.label, scopes: counts)
    }

    /// The catalog's scopes: its own, or "All" plus its largest categories in display order.
    func scopeDefinitions(of state: CatalogState) -> [ScopeDefinition] {
        if !state.definition.scopes.isEmpty { return state.definition.scopes }
        let all = ScopeDefinition(label: Self.allLabel(locale: state.definition.locale), categories: [])
        let largest = state.categoryCounts.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(Self.maxDefaultScopes - 1).map(\.key)
        let keep = Set(largest)
        let ordered = state.categoryNumbers.sorted { $0.value < $1.value }.map(\.key).filter { keep.contains($0) }
        return [all] + ordered.map { ScopeDefinition(label: $0, categories: [$0]) }
    }

    /// The label of the scope that selects everything, in the catalog's language.
    static func allLabel(locale: String) -> String {
        switch locale.split(separator: "-").first.map(String.init)?.lowercased() ?? "" {
        case "de": "Alle"
        case "hu": "Összes"
        case "fr": "Tout"
        case "es": "Todo"
        case "it": "Tutti"
        case "sv": "Alla"
        case "cs": "Vše"
        case "nl": "Alle"
        default: "All"
        }
    }

    /// The category numbers a scope requires; nil entries for categories the catalog lacks.
    func categoryNumbers(of scope: ScopeDefinition, in state: CatalogState) -> [Int?] {
        scope.categories.map { state.categoryNumbers[$0] }
    }

    /// A count for every scope, from one bounded pass over the matches.
    func scopeCounts(_ plan: SearchPlan, scopes: [ScopeDefinition], state: CatalogState) throws -> [ScopeCount] {
        let cap = SearchResponse.countCap
        if plan.query.isEmpty {
            let counts: [ScopeCount] = try scopes.map { scope in
                let numbers = categoryNumbers(of: scope, in: state)
                if numbers.contains(nil) { return ScopeCount(label: scope.label, count: 0) }
                if numbers.isEmpty { return ScopeCount(label: scope.label, count: state.itemCount) }
                if scope.categories.count == 1 {
                    return ScopeCount(label: scope.label, count: state.categoryCounts[scope.categories[0]] ?? 0)
                }
                let count = try matchingOrds(
                    table: state.titleWords, match: plan.scopeExpression(numbers.compactMap { $0 }), limit: cap + 1
                ).count
                return ScopeCount(label: scope.label, count: min(count, cap), capped: count > cap)
            }
            return counts
        }
        // The unscoped matches: every word starts a word of any field, or occurs inside a title word
        // (short words: starts a word of the title).
        let budget = Self.countBudget
        let wordTable = plan.allowsSubstrings ? state.textWords : state.titleWords
        let words = try matchingOrds(
            table: wordTable, match: try plan.prefixExpression(table: wordTable, scope: []), limit: budget + 1)
        var matches = Array(words.prefix(budget))
        var complete = words.count <= budget
        // Past the budget the counts are lower bounds anyway: no need for the inside-word matches.
        if plan.allowsSubstrings && complete {
            let inner = try matchingOrds(
                table: state.titleSuffixes, match: try plan.prefixExpression(table: state.titleSuffixes, scope: []),
                limit: budget + 1)
            complete = complete && inner.count <= budget
            let known = Set(matches)
            matches += inner.prefix(budget).filter { !known.contains($0) }
        }
        let masks = Blob(connection: connection, table: "scope_masks", column: "masks", rowid: state.number)
        let base = state.ordRange.lowerBound + 1
        let recordMasks = matches.map { masks?.uint64(at: Int($0 - base) * 8) ?? 0 }
        let counts: [ScopeCount] = try scopes.map { scope in
            let numbers = categoryNumbers(of: scope, in: state)
            let count: Int
            var exact = complete
            if numbers.contains(nil) {
                return ScopeCount(label: scope.label, count: 0)
            } else if scope.categories.isEmpty {
                count = matches.count
            } else if let bits = scopeMask(scope, state: state) {
                count = recordMasks.reduce(0) { $0 + ($1 & bits == bits ? 1 : 0) }
            } else {
                // A category beyond the 64 with mask bits: count with the full-text scope tokens.
                let scoped = try matchingOrds(
                    table: wordTable,
                    match: try plan.prefixExpression(table: wordTable, scope: numbers.compactMap { $0 }),
                    limit: cap + 1)
                count = scoped.count
                exact = scoped.count <= cap
            }
            return ScopeCount(label: scope.label, count: min(count, cap), capped: !exact || count > cap)
        }
        return counts
    }

    /// The mask bits a scope requires, or nil when one of its categories has no bit.
    func scopeMask(_ scope: ScopeDefinition, state: CatalogState) -> UInt64? {
        var mask: UInt64 = 0
        for label in scope.categories {
            guard let bit = state.categoryBits[label] else { return nil }
            mask |= 1 << UInt64(bit)
        }
        return mask
    }

    /// The most indexed words a prefix expands to; beyond that SQLite's own prefix query is used.
    static let maxPrefixExpansion = 256
    /// Prefixes up to this length are served by the tables' prefix indexes (title words: 1 to 8
    /// characters; title suffixes and all words: 3 to 8, the shortest they are searched with).
    static let indexedPrefixLength = 8

    /// A prefix query that stays lazy. FTS5 answers `"abcd"*` beyond its prefix indexes by
    /// merging the doclists of every matching word into memory first, which costs as much as
    /// there are matches; an `OR` of the few words that start with the prefix is walked lazily
    /// and stops with the page. The words come from `search_terms`.
    func prefixExpression(table: String, word: String) throws -> String {
        let quoted = SearchPlan.quoted(word)
        guard word.unicodeScalars.count > Self.indexedPrefixLength,
            let separator = table.lastIndex(of: "_"), let number = Int64(table[table.index(after: separator)...])
        else { return quoted + "*" }
        let statement = try connection.cached(
            """
            SELECT term FROM search_terms WHERE catalog_number = ? AND index_name = ? AND term >= ? AND term < ?
                ORDER BY term LIMIT \(Self.maxPrefixExpansion + 1)
            """)
        try statement.bind(number, String(table[..<separator]), word, word + "\u{10FFFF}")
        var terms: [String] = []
        while try statement.step() { terms.append(statement.text(0)) }
        if terms.isEmpty { return quoted }
        if terms.count > Self.maxPrefixExpansion { return quoted + "*" }
        return terms.count == 1
            ? SearchPlan.quoted(terms[0]) : "(" + terms.map(SearchPlan.quoted).joined(separator: " OR ") + ")"
    }

    /// Up to `limit` rowids matching `match`, in rowid (index) order.
    func matchingOrds(table: String, match: String, limit: Int) throws -> [Int64] {
        try connection.timed("match \(table) \(limit) \(match.prefix(60))") {
            try untimedMatchingOrds(table: table, match: match, limit: limit)
        }
    }

    private func untimedMatchingOrds(table: String, match: String, limit: Int) throws -> [Int64] {
        let statement = try connection.cached(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid LIMIT ?")
        try statement.bind(match, limit)
        var ords: [Int64] = []
        while try statement.step() { ords.append(statement.int64(0)) }
        return ords
    }

    /// Up to `limit` rowids matching `match` after `after`, in rowid order (keyset pages).
    func matchingOrds(table: String, match: String, after: Int64, limit: Int) throws -> [Int64] {
        let statement = try connection.cached(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?")
        try statement.bind(match, after, limit)
        var ords: [Int64] = []
        while try statement.step() { ords.append(statement.int64(0)) }
        return ords
    }

    func orderedOrds(in range: Range<Int64>, limit: Int) throws -> [Int64] {
        let statement = try connection.cached("SELECT ord FROM items WHERE ord >= ? AND ord < ? ORDER BY ord LIMIT ?")
        try statement.bind(range.lowerBound, range.upperBound, limit)
        var ords: [Int64] = []
        while try statement.step() { ords.append(statement.int64(0)) }
        return ords
    }

    /// Where the query's words occur in a record, as UTF-16 ranges: in the fields a list shows
    /// (title, subtitle, categories), and, only when those hold none of the words, in the
    /// description and the extra fields, which then explain the match. Folding long descriptions
    /// of every hit would double the cost of a search for highlights nobody sees in a list.
    static func matches(of query: SearchQuery, in record: Record) -> [MatchRange] {
        var result: [MatchRange] = []
        func add(_ field: String, _ text: String?) {
            guard let text, !text.isEmpty else { return }
            for range in query.partialRanges(in: text) {
                result.append(MatchRange(field: field, start: range.lowerBound, length: range.count))
            }
        }
        add("title", record.title)
        add("subtitle", record.subtitle)
        for (index, label) in record.categories.enumerated() { add("categories.\(index)", label) }
        guard result.isEmpty else { return result }
        add("description", record.description)
        for name in record.fields.keys.sorted() { add("fields.\(name)", record.fields[name]?.joined) }
        return result
    }
}

/// The full-text expressions for one query. Every word is quoted, so user input is never syntax.
struct SearchPlan {
    let query: SearchQuery
    let state: SQLiteCatalogStore.CatalogState
    /// The expression matching every indexed word that starts with a word, in a table.
    let prefix: (_ table: String, _ word: String) throws -> String

    struct Tier {
        var table: String
        var match: String
    }

    static func quoted(_ word: String) -> String {
        "\"" + word.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    func scopeExpression(_ numbers: [Int]) -> String {
        numbers.map { Self.quoted(SQLiteCatalogStore.scopeToken($0)) }.joined(separator: " AND ")
    }

    private func combine(_ terms: [String], scope: [Int]) -> String {
        var expression = terms.joined(separator: " AND ")
        if !scope.isEmpty { expression += " AND " + scopeExpression(scope) }
        return expression
    }

    func wholeWordsExpression(scope: [Int]) -> String {
        combine(query.words.map(Self.quoted), scope: scope)
    }

    func prefixExpression(table: String, scope: [Int]) throws -> String {
        combine(try query.words.map { try prefix(table, $0) }, scope: scope)
    }

    /// Inside-word matching: only when every word has at least three characters.
    var allowsSubstrings: Bool {
        query.words.allSatisfy { $0.unicodeScalars.count >= SearchIndexText.minimumSubstring }
    }

    func tiers(scope: [Int]) throws -> [Tier] {
        var tiers = [
            Tier(table: state.titleWords, match: wholeWordsExpression(scope: scope)),
            Tier(table: state.titleWords, match: try prefixExpression(table: state.titleWords, scope: scope)),
        ]
        if allowsSubstrings {
            tiers.append(
                Tier(table: state.titleSuffixes, match: try prefixExpression(table: state.titleSuffixes, scope: scope)))
            tiers.append(
                Tier(table: state.textWords, match: try prefixExpression(table: state.textWords, scope: scope)))
        }
        return tiers
    }
}

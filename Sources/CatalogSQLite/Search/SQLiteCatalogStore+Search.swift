import CatalogModel
import CatalogStorage
import Foundation

/// Search with bounded work per query.
///
/// Ranking is static and tiered instead of scored: (1) every word is a whole word of the title,
/// (2) every word starts a word of the title, (3) every word occurs inside the title (trigrams,
/// words of three or more characters), (4) every word starts a word of any field. Within a tier,
/// records come in index order, which is also the full-text tables' rowid order, so each tier is
/// a `MATCH … ORDER BY rowid LIMIT n` that SQLite answers by walking doclists and stopping after
/// `n` rows: the cost depends on the page size, not on how many records match. Counts stop at
/// ``SearchResponse/countCap``.
extension SQLiteCatalogStore {
    /// The most hits one search returns.
    public static let maxSearchLimit = 200
    /// The most scopes offered when a catalog defines none: "All" plus its largest categories.
    public static let maxDefaultScopes = 16

    public func search(_ text: String, in id: String, scope: String?, limit: Int) throws -> SearchResponse {
        let state = try requireState(id)
        guard limit >= 1 && limit <= Self.maxSearchLimit else {
            throw StorageError(.invalidArgument, "limit must be between 1 and \(Self.maxSearchLimit)")
        }
        let query = SearchQuery(text)
        let scopes = scopeDefinitions(of: state)
        var selected: ScopeDefinition?
        if let scope, !scope.isEmpty {
            guard let match = scopes.first(where: { $0.label == scope }) else {
                throw StorageError(.invalidArgument, "catalog \"\(id)\" has no scope \"\(scope)\"")
            }
            selected = match.categories.isEmpty ? nil : match
        }
        let plan = SearchPlan(query: query, state: state)

        var counts: [ScopeCount] = []
        var selectedCount = (count: 0, capped: false)
        for definition in scopes {
            let numbers = categoryNumbers(of: definition, in: state)
            let count = try countMatches(plan, scope: numbers, state: state)
            counts.append(ScopeCount(label: definition.label, count: count.count, capped: count.capped))
            if definition.label == (selected?.label ?? scopes.first?.label) { selectedCount = count }
        }
        if scopes.isEmpty {
            selectedCount = try countMatches(plan, scope: [], state: state)
        }

        let scopeNumbers = selected.map { categoryNumbers(of: $0, in: state) } ?? []
        let hits: [SearchHit]
        if scopeNumbers.contains(nil) {
            hits = []
        } else if query.isEmpty {
            let ords: [Int64]
            if scopeNumbers.isEmpty {
                ords = try orderedOrds(from: state.ordRange.lowerBound, limit: limit)
            } else {
                ords = try matchingOrds(
                    table: state.titleWords, match: plan.scopeExpression(scopeNumbers.compactMap { $0 }, trigram: false),
                    after: state.ordRange.lowerBound - 1, limit: limit)
            }
            hits = try records(ords: ords, state: state).map { SearchHit(record: $0, matches: []) }
        } else {
            var found: [Int64] = []
            var seen: Set<Int64> = []
            for tier in plan.tiers(scope: scopeNumbers) where found.count < limit {
                let ords = try matchingOrds(
                    table: tier.table, match: tier.match, after: state.ordRange.lowerBound - 1,
                    limit: limit + found.count)
                for ord in ords where !seen.contains(ord) {
                    seen.insert(ord)
                    found.append(ord)
                    if found.count == limit { break }
                }
            }
            hits = try records(ords: found, state: state).map { SearchHit(record: $0, matches: Self.matches(of: query, in: $0)) }
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

    func countMatches(_ plan: SearchPlan, scope: [Int?], state: CatalogState) throws -> (count: Int, capped: Bool) {
        let cap = SearchResponse.countCap
        if scope.contains(nil) { return (0, false) }
        let numbers = scope.compactMap { $0 }
        if plan.query.isEmpty {
            if numbers.isEmpty { return (state.itemCount, false) }
            if numbers.count == 1, let label = state.categoryNumbers.first(where: { $0.value == numbers[0] })?.key {
                return (state.categoryCounts[label] ?? 0, false)
            }
            let count = try countRows(table: state.titleWords, match: plan.scopeExpression(numbers, trigram: false), limit: cap + 1)
            return (min(count, cap), count > cap)
        }
        let words = try matchingOrds(
            table: state.textWords, match: plan.anyFieldExpression(scope: numbers),
            after: state.ordRange.lowerBound - 1, limit: cap + 1)
        if words.count > cap { return (cap, true) }
        guard let substring = plan.substringExpression(scope: numbers) else { return (words.count, false) }
        let known = Set(words)
        let extra = try matchingOrds(
            table: state.titleTrigrams, match: substring, after: state.ordRange.lowerBound - 1,
            limit: cap + 1 + words.count
        ).reduce(0) { $0 + (known.contains($1) ? 0 : 1) }
        let total = words.count + extra
        return (min(total, cap), total > cap)
    }

    /// Up to `limit` rowids matching `match`, in rowid order, after `after`.
    func matchingOrds(table: String, match: String, after: Int64, limit: Int) throws -> [Int64] {
        let statement = try connection.cached(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?")
        try statement.bind(match, after, limit)
        var ords: [Int64] = []
        while try statement.step() { ords.append(statement.int64(0)) }
        return ords
    }

    func countRows(table: String, match: String, limit: Int) throws -> Int {
        let statement = try connection.cached(
            "SELECT count(*) FROM (SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT ?)")
        try statement.bind(match, limit)
        return try statement.scalarInt() ?? 0
    }

    func orderedOrds(from lower: Int64, limit: Int) throws -> [Int64] {
        let statement = try connection.cached("SELECT ord FROM items WHERE ord >= ? AND ord < ? ORDER BY ord LIMIT ?")
        try statement.bind(lower, ((lower >> 32) + 1) << 32, limit)
        var ords: [Int64] = []
        while try statement.step() { ords.append(statement.int64(0)) }
        return ords
    }

    /// Where the query's words occur in a record, per field, as UTF-16 ranges.
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
        add("description", record.description)
        for (index, label) in record.categories.enumerated() { add("categories.\(index)", label) }
        for name in record.fields.keys.sorted() { add("fields.\(name)", record.fields[name]?.joined) }
        return result
    }
}

/// The full-text expressions for one query. Every word is quoted, so user input is never syntax.
struct SearchPlan {
    let query: SearchQuery
    let state: SQLiteCatalogStore.CatalogState

    struct Tier {
        var table: String
        var match: String
    }

    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func scopeExpression(_ numbers: [Int], trigram: Bool) -> String {
        numbers.map { "scope : " + Self.quoted(trigram ? "|\($0)|" : SQLiteCatalogStore.scopeToken($0)) }
            .joined(separator: " AND ")
    }

    private func combine(_ words: String, _ numbers: [Int], trigram: Bool) -> String {
        numbers.isEmpty ? words : words + " AND " + scopeExpression(numbers, trigram: trigram)
    }

    func wholeWordsExpression(scope: [Int]) -> String {
        combine(query.words.map { "title : " + Self.quoted($0) }.joined(separator: " AND "), scope, trigram: false)
    }

    func prefixExpression(column: String, scope: [Int]) -> String {
        combine(query.words.map { "\(column) : " + Self.quoted($0) + "*" }.joined(separator: " AND "), scope, trigram: false)
    }

    func anyFieldExpression(scope: [Int]) -> String {
        prefixExpression(column: "text", scope: scope)
    }

    /// Substring matching needs trigrams: only when every word has three characters or more.
    func substringExpression(scope: [Int]) -> String? {
        guard query.words.allSatisfy({ $0.unicodeScalars.count >= 3 }) else { return nil }
        return combine(query.words.map { "title : " + Self.quoted($0) }.joined(separator: " AND "), scope, trigram: true)
    }

    func tiers(scope: [Int?]) -> [Tier] {
        let numbers = scope.compactMap { $0 }
        var tiers = [
            Tier(table: state.titleWords, match: wholeWordsExpression(scope: numbers)),
            Tier(table: state.titleWords, match: prefixExpression(column: "title", scope: numbers)),
        ]
        if let substring = substringExpression(scope: numbers) {
            tiers.append(Tier(table: state.titleTrigrams, match: substring))
        }
        tiers.append(Tier(table: state.textWords, match: anyFieldExpression(scope: numbers)))
        return tiers
    }
}

import CatalogModel
import CatalogStorage

/// A filter on any fields (``FilterExpression``, `filter=`) as sets of one index segment's
/// documents, chunk by chunk: each condition becomes the union of the lexicon terms of the values
/// it accepts, and `AND`, `OR` and `NOT` become bitmap operations.
///
/// | condition | documents |
/// | --- | --- |
/// | `F = v` | every spelling of `v` (case and accents aside), the number `v` and the date `v` (a quoted `v`: the text only) |
/// | `F != v` | not `F = v` (records without `F` too) |
/// | `F IN [a, b]` | `F = a` or `F = b` |
/// | `F < v`, `F a..b`, … | the numbers between the bounds, or the dates when the bounds are dates |
/// | `F EXISTS`, `F IS EMPTY` | the records with `F`; those with `F` empty |
/// | `category`, `categories`, `country`, `price` | the built-in filters: category labels, country codes, the price |
///
/// A condition's terms of one segment are made into a set once per search; a set of many terms
/// (a range over many numbers) keeps its chunk bitmaps in the shared caches, so the searches
/// after it read them from there (``SearchCaches``).
final class FieldFilter {
    /// The built-in names a filter may use besides the records' own fields.
    static let builtIns: Set<String> = ["category", "categories", "country", "price"]

    private indirect enum Node {
        case terms(TermSet)
        /// Prices between the bounds (each included or not); nil: any price, or, negated, none.
        case price(lower: Double, lowerIncluded: Bool, upper: Double, upperIncluded: Bool)
        case priced
        case and([Node])
        case or([Node])
        case not(Node)
    }

    private let root: Node
    private let index: CatalogSearchIndex
    private let reader: any SearchIndexReading

    /// The filter `expression` makes of one segment; `categoryNumbers`: the catalog's category
    /// numbers by label. The expression was checked (``check(_:segments:settings:)``).
    init(
        _ expression: FilterExpression, index: CatalogSearchIndex, reader: any SearchIndexReading,
        categoryNumbers: [String: Int]
    ) {
        self.index = index
        self.reader = reader
        root = Self.node(expression, lexicon: index.lexicon, categoryNumbers: categoryNumbers)
    }

    /// The documents of `chunk` (of `size` documents) that pass.
    func bitmap(_ chunk: Int, size: Int) throws -> ChunkBitmap {
        try bitmap(root, chunk, size)
    }

    private func bitmap(_ node: Node, _ chunk: Int, _ size: Int) throws -> ChunkBitmap {
        switch node {
        case .terms(let set):
            return try set.bitmap(chunk, index, reader)
        case .price(let lower, let lowerIncluded, let upper, let upperIncluded):
            return try index.priceBitmap(
                chunk: chunk, size: size, lower: lower, lowerIncluded: lowerIncluded, upper: upper,
                upperIncluded: upperIncluded, reader)
        case .priced:
            return try bitmap(
                .price(lower: -.infinity, lowerIncluded: true, upper: .infinity, upperIncluded: true), chunk, size)
        case .and(let nodes):
            var result = ChunkBitmap(allBelow: size)
            for node in nodes where !result.isEmpty { result.formIntersection(try bitmap(node, chunk, size)) }
            return result
        case .or(let nodes):
            var result = ChunkBitmap()
            for node in nodes { result.formUnion(try bitmap(node, chunk, size)) }
            return result
        case .not(let inner):
            var result = ChunkBitmap(allBelow: size)
            result.subtract(try bitmap(inner, chunk, size))
            return result
        }
    }

    // MARK: - Building

    private static func node(
        _ expression: FilterExpression, lexicon: Lexicon, categoryNumbers: [String: Int]
    ) -> Node {
        switch expression {
        case .condition(let condition): return node(condition, lexicon: lexicon, categoryNumbers: categoryNumbers)
        case .and(let list): return .and(list.map { node($0, lexicon: lexicon, categoryNumbers: categoryNumbers) })
        case .or(let list): return .or(list.map { node($0, lexicon: lexicon, categoryNumbers: categoryNumbers) })
        case .not(let inner): return .not(node(inner, lexicon: lexicon, categoryNumbers: categoryNumbers))
        }
    }

    private static func node(_ condition: FilterCondition, lexicon: Lexicon, categoryNumbers: [String: Int]) -> Node {
        let field = condition.field
        if field == "price" { return priceNode(condition.test) }
        // The terms one value stands for.
        let equal: (FilterValue) -> [Int]
        let all: () -> [Int]
        switch field {
        case "category", "categories":
            equal = { value in
                categoryNumbers[value.text].flatMap { lexicon.index(of: IndexTerms.category($0)) }.map { [$0] } ?? []
            }
            all = { Array(lexicon.range(prefix: [IndexTermKind.category.rawValue])) }
        case "country":
            equal = { value in lexicon.index(of: IndexTerms.country(value.text)).map { [$0] } ?? [] }
            all = { Array(lexicon.range(prefix: [IndexTermKind.country.rawValue])) }
        default:
            equal = { value in equalTerms(field, value, lexicon: lexicon) }
            all = { lexicon.index(of: IndexTerms.fieldPrefix(.fieldPresent, field)).map { [$0] } ?? [] }
        }
        func set(_ terms: [Int]) -> Node { .terms(termSet(terms, lexicon: lexicon)) }
        switch condition.test {
        case .compare(.equal, let value): return set(equal(value))
        case .compare(.notEqual, let value): return .not(set(equal(value)))
        case .oneOf(let values): return set(values.flatMap(equal))
        case .exists: return set(all())
        case .isEmpty:
            if FieldFilter.builtIns.contains(field) { return .not(set(all())) }
            return set(lexicon.index(of: IndexTerms.fieldPrefix(.fieldValue, field) + [0]).map { [$0] } ?? [])
        case .compare(let op, let value):
            let bound = (value, op == .lessOrEqual || op == .greaterOrEqual)
            let isLower = op == .greater || op == .greaterOrEqual
            return orderedNode(field, lower: isLower ? bound : nil, upper: isLower ? nil : bound, lexicon: lexicon)
        case .range(let lower, let upper):
            return orderedNode(
                field, lower: lower.map { ($0, true) }, upper: upper.map { ($0, true) }, lexicon: lexicon)
        }
    }

    /// The value terms of every spelling of `value`, and its number and date terms.
    private static func equalTerms(_ field: String, _ value: FilterValue, lexicon: Lexicon) -> [Int] {
        var terms = Array(
            lexicon.range(prefix: IndexTerms.fieldValuePrefix(field, folded: IndexTerms.valueKey(value.text))))
        if let number = value.number, let term = lexicon.index(of: IndexTerms.fieldOrdered(.fieldNumber, field, number))
        {
            terms.append(term)
        }
        if let date = value.date, let term = lexicon.index(of: IndexTerms.fieldOrdered(.fieldDate, field, date)) {
            terms.append(term)
        }
        return terms
    }

    /// The numbers (or dates, when the bounds are dates) of `field` between the bounds.
    private static func orderedNode(
        _ field: String, lower: (FilterValue, Bool)?, upper: (FilterValue, Bool)?, lexicon: Lexicon
    ) -> Node {
        let kind = orderedKind(lower?.0, upper?.0) ?? .fieldNumber
        func read(_ bound: (FilterValue, Bool)?) -> (value: Double, included: Bool)?? {
            guard let bound else { return .some(nil) }
            let (value, included) = bound
            guard let number = kind == .fieldDate ? value.date : value.number else { return nil }
            return (number, included)
        }
        guard let from = read(lower), let to = read(upper) else { return .terms(TermSet()) }
        let terms = lexicon.fieldOrderedTerms(kind, field, from: from, to: to)
        return .terms(termSet(Array(terms), lexicon: lexicon))
    }

    /// The kind of terms a comparison or range reads: numbers when its bounds are numbers, dates
    /// when they are dates; nil when a bound is neither (or they disagree).
    static func orderedKind(_ lower: FilterValue?, _ upper: FilterValue?) -> IndexTermKind? {
        let bounds = [lower, upper].compactMap { $0 }
        if bounds.allSatisfy({ $0.number != nil }) { return .fieldNumber }
        if bounds.allSatisfy({ $0.date != nil }) { return .fieldDate }
        return nil
    }

    private static func priceNode(_ test: FilterTest) -> Node {
        func equal(_ value: FilterValue) -> Node {
            let price = value.number ?? .nan
            return .price(lower: price, lowerIncluded: true, upper: price, upperIncluded: true)
        }
        switch test {
        case .compare(.equal, let value): return equal(value)
        case .compare(.notEqual, let value): return .not(equal(value))
        case .compare(let op, let value):
            let price = value.number ?? .nan
            let included = op == .lessOrEqual || op == .greaterOrEqual
            return op == .greater || op == .greaterOrEqual
                ? .price(lower: price, lowerIncluded: included, upper: .infinity, upperIncluded: true)
                : .price(lower: -.infinity, lowerIncluded: true, upper: price, upperIncluded: included)
        case .range(let lower, let upper):
            return .price(
                lower: lower.map { $0.number ?? .nan } ?? -.infinity, lowerIncluded: true,
                upper: upper.map { $0.number ?? .nan } ?? .infinity, upperIncluded: true)
        case .oneOf(let values): return .or(values.map(equal))
        case .exists: return .priced
        case .isEmpty: return .not(.priced)
        }
    }

    /// The set of some terms; a set of many keeps its chunk bitmaps in the shared caches under
    /// the terms it unites (a run of terms, as a range has, by its ends).
    private static func termSet(_ terms: [Int], lexicon: Lexicon) -> TermSet {
        let sorted = Array(Set(terms)).sorted()
        guard sorted.count >= TermSet.sharedFrom, let first = sorted.first, let last = sorted.last else {
            return TermSet(sorted, of: lexicon)
        }
        if last - first + 1 == sorted.count {
            return KeptTermSet(sorted, of: lexicon, key: .filter("\(first)-\(last)"))
        }
        guard sorted.count <= 64 else { return TermSet(sorted, of: lexicon) }
        return KeptTermSet(sorted, of: lexicon, key: .filter(sorted.map(String.init).joined(separator: ",")))
    }
}

/// A filter condition's set of many terms (a range over many numbers) whose chunk bitmaps an
/// earlier search may have left in the shared caches: its terms' documents are gathered only
/// for a chunk the caches do not hold, so a repeated range costs a lookup per chunk.
final class KeptTermSet: TermSet {
    private let terms: [Int]
    private let lexicon: Lexicon
    private let key: SearchCaches.SetKey.Set
    private var gathered: TermSet?

    init(_ terms: [Int], of lexicon: Lexicon, key: SearchCaches.SetKey.Set) {
        self.terms = terms
        self.lexicon = lexicon
        self.key = key
        super.init()
    }

    override var isEmpty: Bool { terms.isEmpty }

    override func covers(_ chunk: Int) -> Bool { set().covers(chunk) }

    override func bitmap(_ chunk: Int, _ index: CatalogSearchIndex, _ reader: any SearchIndexReading) throws
        -> ChunkBitmap
    {
        if let kept = index.setBitmap(key, chunk: chunk) { return kept }
        return try set().bitmap(chunk, index, reader)
    }

    private func set() -> TermSet {
        if let gathered { return gathered }
        let set = TermSet(terms, of: lexicon, word: key)
        gathered = set
        return set
    }
}

extension FieldFilter {
    /// Checks a filter against a catalog: every field it names must be one of its records' (in
    /// one of the index's segments) and filterable by its settings, and a comparison or range
    /// must compare numbers or dates the field has.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` (a 400) naming the field and the condition's
    ///   column: `filter: column 12: 'Horsepowr' is not a field of this catalog (fields: …)`.
    static func check(_ expression: FilterExpression, lexicons: [Lexicon], settings: SearchSettings)
        throws(StorageError)
    {
        for condition in expression.conditions { try check(condition, lexicons: lexicons, settings: settings) }
    }

    private static func check(_ condition: FilterCondition, lexicons: [Lexicon], settings: SearchSettings)
        throws(StorageError)
    {
        let field = condition.field
        let name = "'\(field.prefix(80))'"
        func fail(_ message: String) -> StorageError {
            let column = condition.column > 0 ? "column \(condition.column): " : ""
            return StorageError(.invalidArgument, "filter: " + column + message)
        }
        func bounds() -> (FilterValue?, FilterValue?)? {
            switch condition.test {
            case .compare(.equal, _), .compare(.notEqual, _), .oneOf, .exists, .isEmpty: nil
            case .compare(let op, let value): op == .greater || op == .greaterOrEqual ? (value, nil) : (nil, value)
            case .range(let lower, let upper): (lower, upper)
            }
        }
        let ordered = bounds()
        if field == "price" {
            if let bad = condition.test.values.first(where: { $0.number == nil }) {
                throw fail("'price' compares numbers: \(bad) is not one")
            }
            return
        }
        if builtIns.contains(field) {
            if ordered != nil { throw fail("\(name) takes =, !=, IN, EXISTS and IS EMPTY, not comparisons or ranges") }
            return
        }
        if !settings.isFilterable(field) {
            let list = settings.filterableFields ?? []
            throw fail(
                "\(name) is not filterable in this catalog (filterable: "
                    + Self.names(["category", "country", "price"] + list) + ")")
        }
        guard lexicons.contains(where: { $0.hasField(field) }) else {
            let names = Set(lexicons.flatMap { $0.fieldNames() }).sorted()
            throw fail("\(name) is not a field of this catalog (fields: " + Self.names(names) + ")")
        }
        guard let ordered else { return }
        let (lower, upper) = ordered
        guard let kind = orderedKind(lower, upper) else {
            let bad = [lower, upper].compactMap { $0 }.first { $0.number == nil && $0.date == nil }
            throw fail(
                "\(name) compares numbers or dates: \(bad.map(String.init(describing:)) ?? "the bounds") "
                    + (bad == nil ? "are a number and a date" : "is neither"))
        }
        let has: (IndexTermKind) -> Bool = { kind in
            lexicons.contains { !$0.range(prefix: IndexTerms.fieldPrefix(kind, field)).isEmpty }
        }
        guard has(kind) else {
            let what = kind == .fieldNumber ? "numbers" : "dates"
            let other = kind == .fieldNumber ? has(.fieldDate) : has(.fieldNumber)
            let hint =
                other
                ? (kind == .fieldNumber ? "; it has dates, written as 2024-05-01" : "; it has numbers")
                : "; its values are texts"
            throw fail("\(name) has no \(what) to compare" + hint)
        }
    }

    /// Checks a facet on one of the records' own fields: the field must be one of the catalog's
    /// and filterable by its settings.
    ///
    /// - Throws: ``StorageError`` `.invalidArgument` (a 400) naming the field.
    static func checkFacet(_ field: String, lexicons: [Lexicon], settings: SearchSettings) throws(StorageError) {
        let name = "'\(field.prefix(80))'"
        if !settings.isFilterable(field) {
            throw StorageError(
                .invalidArgument,
                "facets: \(name) is not filterable in this catalog (filterable: "
                    + names(["categories", "country"] + (settings.filterableFields ?? [])) + ")")
        }
        guard lexicons.contains(where: { $0.hasField(field) }) else {
            let fields = Set(lexicons.flatMap { $0.fieldNames() }).sorted()
            throw StorageError(
                .invalidArgument, "facets: \(name) is not a field of this catalog (fields: " + names(fields) + ")")
        }
    }

    /// Names for a message: at most 20, then how many more.
    private static func names(_ list: [String]) -> String {
        guard !list.isEmpty else { return "none" }
        let shown = list.prefix(20).map { String($0.prefix(80)) }.joined(separator: ", ")
        return list.count > 20 ? shown + ", and \(list.count - 20) more" : shown
    }
}

extension FacetCount {
    /// The order of a field facet's values: most records first, then by value (numbers as
    /// numbers, texts case and accents aside).
    static func fieldOrder(_ a: FacetCount, _ b: FacetCount) -> Bool {
        if a.count != b.count { return a.count > b.count }
        if let x = FieldValueOrder.number(a.value), let y = FieldValueOrder.number(b.value), x != y { return x < y }
        let (x, y) = (IndexTerms.valueKey(a.value), IndexTerms.valueKey(b.value))
        if x != y { return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) }
        return Array(a.value.utf8).lexicographicallyPrecedes(Array(b.value.utf8))
    }
}

import CatalogCore
import CatalogDemo
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@Suite struct SearchBehaviourTests {
    /// Every result of a search, page by page.
    static func everything(_ catalog: TestCatalog, _ request: SearchRequest) throws -> [RankedHit] {
        var request = request
        request.limit = 200
        var hits: [RankedHit] = []
        while true {
            let result = try catalog.searcher.search(request.checked())
            hits += result.hits
            guard let next = result.next else { return hits }
            request.after = next
        }
    }

    @Test func typingNarrowsTheExactMatches() throws {
        let generator = CatalogGenerator(items: 1_500, locale: "de", seed: 3)
        var records: [Record] = []
        generator.forEachRecord { records.append($0) }
        let catalog = try TestCatalog(records, definition: generator.definition)
        let words = generator.titleWords.prefix(60) + ["blaue decke", "new york", "klang"]
        for word in words {
            var previous: Set<String>?
            var typed = ""
            for character in word {
                typed.append(character)
                let hits = try Self.everything(catalog, SearchRequest(query: typed))
                let exact = Set(hits.filter(\.isExact).map(\.stored.id))
                if let previous {
                    let added = exact.subtracting(previous).sorted().prefix(5)
                    #expect(added.isEmpty, "\"\(typed)\" found \(added), which \"\(typed.dropLast())\" did not")
                }
                previous = exact
                #expect(Set(hits.map(\.stored.id)).count == hits.count, "\"\(typed)\" repeats a record")
            }
        }
    }

    @Test func pagesNeverRepeatOrSkip() throws {
        let generator = CatalogGenerator(items: 2_000, locale: "en", seed: 5)
        var records: [Record] = []
        generator.forEachRecord { records.append($0) }
        let catalog = try TestCatalog(records, definition: generator.definition)
        for sort in SearchSort.allCases {
            for query in ["", "a", "lamp", "bla"] {
                let one = try catalog.searcher.search(SearchRequest(query: query, sort: sort, limit: 200).checked())
                var all: [String] = []
                var request = SearchRequest(query: query, sort: sort, limit: 7)
                while true {
                    let page = try catalog.searcher.search(request.checked())
                    all += page.hits.map(\.stored.id)
                    guard let next = page.next else { break }
                    request.after = next
                }
                #expect(Set(all).count == all.count)
                #expect(Array(all.prefix(200)) == one.hits.map(\.stored.id), "\(query) \(sort)")
                if !one.totalCapped { #expect(all.count == one.total, "\(query) \(sort)") }
            }
        }
    }

    /// Prices of every kind (negative, zero, fractions, large, repeated) in three currencies
    /// and none, and records without a price: both directions page by page as the rule says,
    /// ties in title order, with and without a price range.
    @Test func priceOrdersFollowTheRuleOverManyPrices() throws {
        var state: UInt64 = 7
        func next() -> UInt64 {  // SplitMix64: the same numbers on every run
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var records: [Record] = []
        var expected: [(id: String, group: Int, price: Double?)] = []
        let currencies: [String?] = ["EUR", "EUR", "EUR", "USD", "JPY", nil]
        for index in 0..<9_000 {
            let id = String(format: "r%05d", index)
            let roll = next() % 100
            let price: Decimal? =
                roll < 5
                ? nil
                : roll < 10
                    ? Decimal(-Int(next() % 500)) / 100
                    : roll < 15
                        ? 0
                        : roll < 40
                            ? Decimal(Int(next() % 40))
                            : roll < 45
                                ? Decimal(Int(next() % 1_000_000_000))
                                : Decimal(Int(next() % 100_000)) / 100
            let currency = price == nil ? nil : currencies[Int(next() % UInt64(currencies.count))]
            records.append(Record(id: id, title: "Item \(id)", price: price, currency: currency))
            let group = price == nil ? 4 : ["EUR": 0, "JPY": 1, "USD": 2][currency ?? ""] ?? 3
            expected.append((id, group, price.map { NSDecimalNumber(decimal: $0).doubleValue }))
        }
        let catalog = try TestCatalog(records)
        // Past the first few thousand positions of an order, a sorted page finds its records by
        // their positions instead of walking on: a narrow range is found that way.
        for range in [nil, NumericRange(lower: 10, upper: 50), NumericRange(lower: nil, upper: -1)] {
            for descending in [false, true] {
                let order = expected.filter { entry in
                    range.map { range in entry.price.map { range.contains($0) } ?? false } ?? true
                }.sorted { a, b in
                    if a.group != b.group { return a.group < b.group }
                    let (x, y) = (a.price ?? 0, b.price ?? 0)
                    if x != y { return descending ? x > y : x < y }
                    return a.id < b.id
                }
                let hits = try Self.everything(
                    catalog, SearchRequest(query: "", price: range, sort: descending ? .priceDescending : .price))
                #expect(
                    hits.map(\.stored.id) == order.map(\.id), "descending: \(descending), \(String(describing: range))")
                #expect(!order.isEmpty)
            }
        }
    }

    @Test func countsAreExactUpToTheCapAndScopesCountTheirOwn() throws {
        var records: [Record] = []
        for index in 0..<2_500 {
            let category = index % 50 == 0 ? "Rare" : "Common"
            records.append(Record(id: "r\(index)", title: "Lamp \(index)", categories: [category]))
        }
        let catalog = try TestCatalog(records)
        let result = try catalog.search("lamp")
        #expect(result.total == SearchResponse.countCap)
        #expect(result.totalCapped)
        let rare = try #require(result.scopes.first { $0.label == "Rare" })
        #expect(rare.count == 50)
        #expect(!rare.capped)
        let common = try #require(result.scopes.first { $0.label == "Common" })
        #expect(common.count == SearchResponse.countCap && common.capped)
        let scoped = try catalog.search("lamp", scope: "Rare")
        #expect(scoped.total == 50 && !scoped.totalCapped)
        #expect(scoped.hits.allSatisfy { $0.stored.categories == ["Rare"] })
        #expect(scoped.scope == "Rare")
        #expect(throws: (any Error).self) { try catalog.search("lamp", scope: "Nope") }
    }

    @Test func filtersFacetsAndSorts() throws {
        let records = [
            Record(id: "1", title: "Red lamp", categories: ["Light", "Home"], price: 30, country: "DE"),
            Record(id: "2", title: "Blue lamp", categories: ["Light"], price: 10, country: "FR"),
            Record(id: "3", title: "Green lamp", categories: ["Home"], price: 50, country: "DE"),
            Record(id: "4", title: "Lamp shade", categories: ["Light"], country: "AT"),
            Record(id: "5", title: "Chair", categories: ["Home"], price: 20, country: "DE"),
        ]
        let catalog = try TestCatalog(records)
        func ids(_ request: SearchRequest) throws -> [String] {
            try catalog.searcher.search(request.checked()).hits.map(\.stored.id)
        }
        #expect(Set(try ids(SearchRequest(query: "lamp", categories: ["Light", "Home"]))) == ["1"])
        #expect(Set(try ids(SearchRequest(query: "lamp", countries: ["DE", "AT"]))) == ["1", "3", "4"])
        #expect(
            Set(try ids(SearchRequest(query: "", price: NumericRange(lower: 15, upper: 40)))) == ["1", "5"])
        #expect(Set(try ids(SearchRequest(query: "", price: NumericRange(lower: nil, upper: 20)))) == ["2", "5"])
        #expect(try ids(SearchRequest(query: "lamp", sort: .price)) == ["2", "1", "3", "4"])
        #expect(try ids(SearchRequest(query: "lamp", sort: .priceDescending)) == ["3", "1", "2", "4"])
        #expect(try ids(SearchRequest(query: "lamp", sort: .title)) == ["2", "3", "4", "1"])
        #expect(try ids(SearchRequest(query: "lamp", sort: .titleDescending)) == ["1", "4", "3", "2"])
        let faceted = try catalog.searcher.search(
            SearchRequest(query: "lamp", facets: [.categories, .country]).checked())
        #expect(
            faceted.facets[.categories] == [FacetCount(value: "Light", count: 3), FacetCount(value: "Home", count: 2)])
        #expect(
            faceted.facets[.country] == [
                FacetCount(value: "DE", count: 2), FacetCount(value: "AT", count: 1), FacetCount(value: "FR", count: 1),
            ])
    }

    @Test func hostileQueriesAreText() throws {
        let catalog = try TestCatalog(titles: ["Alpha", "Beta"])
        for query in [
            "\"", "*", "'; DROP TABLE items; --", "a\u{0}b", String(repeating: "é", count: CatalogLimits.maxTextLength),
            "OR AND NOT",
        ] {
            _ = try catalog.search(query)
        }
        // Longer ones never reach the searcher: the checked request refuses them.
        #expect(throws: SearchRequestError.self) { try catalog.search(String(repeating: "é", count: 5_000)) }
        #expect(throws: (any Error).self) {
            try catalog.searcher.search(SearchRequest(query: "a", after: "zz").checked())
        }
        #expect(throws: (any Error).self) { try catalog.searcher.search(SearchRequest(query: "a", limit: 0).checked()) }
        // A cursor of the other kind continues from its number rather than failing.
        #expect(try catalog.searcher.search(SearchRequest(query: "", after: "r1.zz").checked()).hits.isEmpty)
    }
}

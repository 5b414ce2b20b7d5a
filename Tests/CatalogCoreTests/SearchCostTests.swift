import CatalogCore
import CatalogModel
import Foundation
import Testing

/// One search costs a bounded amount whatever it asks for: its counts visit at most the
/// searcher's budget of chunks, a facet counts at most 100 values, and counts past either bound
/// are lower bounds that say so.
@Suite struct SearchCostTests {
    static let countries: [String] = {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return (0..<150).map { String([letters[$0 / 26], letters[$0 % 26]]) }
    }()

    /// 66,000 records over two chunks of 65,536: 150 countries, each the more frequent the later
    /// it comes (country k on 2k+1 of every 22,500 records), three categories, prices 0–999.
    static func records() -> [Record] {
        (0..<66_000).map { number in
            Record(
                id: "r\(number)", title: "Item \(number)", categories: ["c\(number % 3)"],
                price: Decimal(number % 1000), currency: "EUR",
                country: countries[Int(Double(number % 22_500).squareRoot())])
        }
    }

    static func request(_ range: NumericRange?) -> SearchRequest {
        var request = SearchRequest(query: "", limit: 20)
        request.price = range
        request.facets = [.country, .categories]
        request.sort = .price
        return request
    }

    /// Every bound on one catalog, built once (building it is most of the test's time).
    @Test func countsAreBoundedAndSaySo() throws {
        let fixture = try TestCatalog(Self.records())
        var unbounded = fixture.searcher
        unbounded.countBudget = .max

        // A facet counts the hundred most frequent of its 150 values.
        let all = try unbounded.search(Self.request(nil).checked())
        let countries = try #require(all.facets[.country])
        #expect(countries.count == CatalogSearcher.maxFacetValues)
        #expect(countries.contains { $0.value == Self.countries[149] })
        #expect(!countries.contains { $0.value == Self.countries[0] })

        // The default budget counts a catalog of this size exactly.
        let narrow = Self.request(NumericRange(lower: 5, upper: 6))
        #expect(try fixture.searcher.search(narrow.checked()).facets == unbounded.search(narrow.checked()).facets)

        // A budget of 5 chunk visits cannot count 100 countries over two chunks: the counts it
        // gives are lower bounds, marked capped where they fall short; the page is the same.
        var bounded = fixture.searcher
        bounded.countBudget = 5
        for range in [NumericRange(lower: 0, upper: 1_000_000), NumericRange(lower: 5, upper: 6), nil] {
            let exact = try unbounded.search(Self.request(range).checked())
            let cheap = try bounded.search(Self.request(range).checked())
            #expect(cheap.hits.map(\.stored.id) == exact.hits.map(\.stored.id))
            #expect(cheap.total <= exact.total && (cheap.total == exact.total || cheap.totalCapped))
            var differed = false
            for facet in [SearchFacet.country, .categories] {
                let full = Dictionary(uniqueKeysWithValues: (exact.facets[facet] ?? []).map { ($0.value, $0) })
                for count in cheap.facets[facet] ?? [] {
                    let truth = try #require(full[count.value])
                    #expect(count.count <= truth.count, "\(count.value)")
                    if count.count != truth.count || truth.capped {
                        #expect(count.capped, "\(count.value): \(count.count) of \(truth.count) must say so")
                    }
                    differed = differed || count.count != truth.count
                }
                differed = differed || (cheap.facets[facet]?.count ?? 0) != (exact.facets[facet]?.count ?? 0)
            }
            #expect(differed, "\(range.map(\.description) ?? "no range")")
        }
    }

    /// A word whose prefix reaches many terms costs its counts more per chunk: each chunk visit
    /// is charged the term postings it reads, so with the same budget its counts stop sooner than
    /// a word of one term that matches the same records, and the page stays what it is.
    @Test func aWordOfManyTermsSpendsTheBudgetSooner() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let endings = (0..<48).map { "word\(letters[$0 / 26])\(letters[$0 % 26])" }
        let records = Self.records().enumerated().map { number, record in
            var record = record
            record.title = "Item \(endings[number % endings.count])"
            return record
        }
        let fixture = try TestCatalog(records)
        var unbounded = fixture.searcher
        unbounded.countBudget = .max
        var bounded = fixture.searcher
        bounded.countBudget = 60
        func request(_ query: String) -> SearchRequest {
            var request = SearchRequest(query: query, limit: 20)
            request.facets = [.country]
            return request
        }
        var stopped: [String: Int] = [:]
        for query in ["item", "word"] {
            let exact = try unbounded.search(request(query).checked())
            let cheap = try bounded.search(request(query).checked())
            #expect(cheap.hits.map(\.stored.id) == exact.hits.map(\.stored.id), "\(query)")
            #expect(try fixture.searcher.search(request(query).checked()).facets == exact.facets, "\(query)")
            // The values whose count fell short: marked capped, or left out.
            let truth = Dictionary(uniqueKeysWithValues: (exact.facets[.country] ?? []).map { ($0.value, $0.count) })
            let given = cheap.facets[.country] ?? []
            for count in given where count.count != truth[count.value] {
                #expect(count.capped, "\(query) \(count.value)")
            }
            stopped[query] = truth.count - given.filter { $0.count == truth[$0.value] }.count
        }
        #expect(stopped["word", default: 0] > stopped["item", default: 0], "\(stopped)")
    }
}

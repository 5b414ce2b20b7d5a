import CatalogCore
import CatalogDemo
import CatalogModel
import Foundation

/// The hunt for the most expensive single search (issue 20: none may take more than 50 ms): the
/// queries a hostile or unlucky client can send, each within the request's limits (a query of at
/// most ``CatalogLimits/maxTextLength`` characters, at most ``CatalogLimits/maxFilters`` filters,
/// ``CatalogLimits/maxSearchLimit`` hits), timed one by one in process, the slowest reported.
///
/// The kinds, each made from the catalog's own words so that they match (an unmatched word is
/// cheap): long words with one and two typos, alone and as the word being typed; many words; one
/// or two letters, which match most of the catalog; every facet with every filter; the largest
/// page; runs of CJK and of punctuation; a query at the length limit.
enum WorstQueries {
    /// One search to time, with what kind of query it is.
    struct Case {
        var kind: String
        var request: SearchRequest
    }

    /// The goal for the slowest single search.
    static let goalMilliseconds = 50.0

    /// The cases for a catalog made by `generator` (its title words, categories and countries).
    static func cases(generator: CatalogGenerator) -> [Case] {
        let words = generator.titleWords
        let long = words.filter { $0.count >= 8 }.prefix(40)
        let medium = words.filter { (5...7).contains($0.count) }.prefix(40)
        let categories = generator.definition.categories.map(\.name)
        var cases: [Case] = []
        func add(_ kind: String, _ query: String, _ configure: (inout SearchRequest) -> Void = { _ in }) {
            var request = SearchRequest(query: String(query.prefix(CatalogLimits.maxTextLength)), limit: 50)
            configure(&request)
            cases.append(Case(kind: kind, request: request))
        }
        for word in long {
            add("long word, 2 typos", typo(typo(word, at: 1), at: word.count - 2))
            add("long word typed, 2 typos", String(typo(typo(word, at: 2), at: 4).prefix(word.count - 1)))
        }
        for word in medium {
            add("5-7 letters, 1 typo", typo(word, at: 2))
            add("5-7 letters typed, 1 typo", String(typo(word, at: 1).prefix(5)))
        }
        for start in stride(from: 0, to: min(long.count, 32), by: 4) {
            let many = long.dropFirst(start).prefix(8).enumerated().map {
                $1.count > 5 && $0 % 2 == 0 ? typo($1, at: 2) : $1
            }
            add("8 words, typos among them", many.joined(separator: " "))
        }
        for letters in ["a", "e", "s", "t", "o", "ka", "st", "re", "an", "er"] {
            add("1-2 letters", letters)
            add("1-2 letters, every facet", letters) { $0.facets = [SearchFacet.categories, .country] }
            add("1-2 letters, largest page", letters) { $0.limit = CatalogLimits.maxSearchLimit }
        }
        for (offset, word) in long.prefix(10).enumerated() {
            add("every facet and filter", word) {
                $0.facets = [SearchFacet.categories, .country]
                $0.categories = [categories[offset % categories.count]]
                $0.countries = ["DE", "HU", "FR", "US", "JP"]
                $0.price = NumericRange(lower: 1, upper: 5_000)
                $0.limit = CatalogLimits.maxSearchLimit
            }
            add("sorted by price, every facet", String(word.prefix(2))) {
                $0.facets = [SearchFacet.categories, .country]
                $0.sort = .price
            }
        }
        add("CJK run", String(repeating: "東京都新宿区西新宿二丁目", count: 16))
        add("CJK run", String(repeating: "電子辞書と日本語の検索", count: 18))
        add("Hangul run", String(repeating: "한국어검색엔진", count: 28))
        add("punctuation", String(repeating: "?()!.-", count: 33))
        add("punctuation", "?")
        add("at the length limit", long.joined(separator: " "))
        add("at the length limit, typos", long.map { typo($0, at: 3) }.joined(separator: " "))
        return cases
    }

    /// `word` with the letters at `index` and the next one swapped (one typo).
    static func typo(_ word: String, at index: Int) -> String {
        var letters = Array(word)
        guard index >= 0, index + 1 < letters.count else { return word }
        letters.swapAt(index, index + 1)
        return String(letters)
    }

    /// Times every case (three runs each, the slowest kept: the first run meets cold caches, as
    /// a client that sends a new query does), prints the slowest and the worst per kind, and
    /// returns the slowest time in milliseconds.
    @discardableResult
    static func run(store: BenchStore, generator: CatalogGenerator) throws -> Double {
        let cases = cases(generator: generator)
        // The index is loaded by the first search of a process (as a server loads it once): not
        // a query's cost.
        _ = try store.search(SearchRequest(query: "a").checked())
        var timed: [(Case, Double, Int)] = []
        for item in cases {
            let checked = try SearchRequest.Checked(item.request)
            var slowest = 0.0
            var total = 0
            for _ in 0..<3 {
                let started = DispatchTime.now().uptimeNanoseconds
                total = try store.search(checked).total
                slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            }
            timed.append((item, slowest, total))
        }
        timed.sort { $0.1 > $1.1 }
        let worst = timed.first?.1 ?? 0
        print("The most expensive single searches, \(cases.count) tried, each the slowest of 3 runs (\(Load.now))")
        var kinds = Set<String>()
        for (item, ms, total) in timed where kinds.insert(item.kind).inserted {
            let text = item.request.query.count > 40 ? item.request.query.prefix(40) + "…" : item.request.query
            print(
                Report.line(
                    item.kind, String(format: "%6.2f ms  total %6d  %@", ms, total, String(text).debugDescription)))
        }
        print(
            Report.line(
                "slowest",
                String(
                    format: "%.2f ms (goal ≤ %.0f ms) %@", worst, goalMilliseconds, verdict(worst <= goalMilliseconds)))
        )
        return worst
    }
}

import CatalogClient
import Foundation
import Testing

/// Compares an offline catalog with the server it came from: 1,000 searches (prefixes, several
/// words, typos, scopes, filters, facets, sorts, second pages) and every browse screen, value by
/// value (items, their order, highlights, totals, scope and facet counts, cursors).
struct OfflineComparison {
    let client: CatalogClient
    let offline: OfflineCatalog
    let catalog: String
    /// Words the searches are made of (the generated catalog's title words).
    let words: [String]

    /// A reproducible stream of numbers.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    }

    /// `word` with one typo: a letter replaced, dropped, doubled or two swapped.
    static func typo(_ word: String, _ random: inout Random) -> String {
        var letters = Array(word)
        let at = random.below(letters.count - 1)
        switch random.below(4) {
        case 0: letters[at] = random.pick(Array("aeioukmrstz"))
        case 1: letters.remove(at: at)
        case 2: letters.insert(letters[at], at: at)
        default: letters.swapAt(at, at + 1)
        }
        return String(letters)
    }

    static func requests(
        words: [String], scopes: [String], categories: [String], countries: [String], count: Int = 1_000
    ) -> [SearchRequest] {
        var random = Random(state: 20_261_201)
        let long = words.filter { $0.count >= 5 }
        var requests: [SearchRequest] = []
        while requests.count < count {
            let word = random.pick(words)
            var request = SearchRequest(query: "", limit: random.pick([5, 10, 20]))
            switch random.below(10) {
            case 0...3:
                request.query = String(word.prefix(1 + random.below(word.count)))
            case 4:
                request.query = word + " " + String(random.pick(words).prefix(1 + random.below(4)))
            case 5, 6:
                request.query = typo(random.pick(long), &random)
            case 7:
                request.query = random.chance(50) ? "" : String(word.prefix(2))
                request.categories = [random.pick(categories)]
                if random.chance(30) {
                    request.countries = [random.pick(countries), random.pick(countries).lowercased()]
                }
                if random.chance(30) {
                    request.price = NumericRange(
                        lower: Decimal(random.below(50)), upper: Decimal(50 + random.below(500)))
                }
            case 8:
                request.query = random.chance(40) ? "" : String(word.prefix(1 + random.below(3)))
                request.sort = random.pick([.title, .titleDescending, .price, .priceDescending])
            default:
                request.query = random.chance(20) ? "" : String(word.prefix(3))
                request.facets = random.chance(50) ? [.categories, .country] : [.country]
            }
            if random.chance(30) { request.scope = random.pick(scopes) }
            requests.append(request)
        }
        return requests
    }

    /// 1,000 searches (or `count`) and a second page of every fifth, online and offline: equal answers.
    func thousandSearchesGiveTheSameAnswers(count: Int = 1_000) async throws {
        let detail = try await client.catalog(catalog)
        let categories = try await client.categories(of: catalog).map(\.name)
        var countryRequest = SearchRequest(query: "")
        countryRequest.facets = [.country]
        let countries = try await client.search(countryRequest, in: catalog).facets?["country"]?.map(\.value) ?? []
        #expect(countries.count > 3)
        let requests = Self.requests(
            words: words, scopes: detail.scopes, categories: categories, countries: countries, count: count)
        var compared = 0
        var pages = 0
        var nonEmpty = 0
        var mismatches: [String] = []
        for (index, request) in requests.enumerated() {
            let online = try await client.search(request, in: catalog)
            let local = try await offline.search(request, in: catalog)
            compared += 1
            if !online.items.isEmpty { nonEmpty += 1 }
            if online != local { mismatches.append("\(index): \(request)") }
            if index % 5 == 0, let next = online.next {
                var following = request
                following.after = next
                let onlineNext = try await client.search(following, in: catalog)
                let localNext = try await offline.search(following, in: catalog)
                if onlineNext != localNext { mismatches.append("\(index) page 2: \(request)") }
                pages += 1
            }
        }
        #expect(compared == count)
        #expect(pages > count / 20)
        #expect(nonEmpty > count / 2, "most queries should find something")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The catalog, its sections and their pages, the index rail's jumps, categories and their
    /// pages, featured records and every record in index order: equal online and offline.
    func browseScreensAreTheSame(count: Int) async throws {
        #expect(try await offline.catalog(catalog) == client.catalog(catalog))
        let sections = try await client.sections(of: catalog)
        #expect(try await offline.sections(of: catalog) == sections)
        for section in sections {
            #expect(
                try await offline.items(of: catalog, section: section.label, after: nil, before: nil, limit: 25)
                    == client.items(of: catalog, section: section.label, limit: 25))
            let jump = try await client.items(of: catalog, startingAt: section.label, limit: 10)
            #expect(try await offline.items(of: catalog, startingAt: section.label, limit: 10) == jump)
            if let previous = jump.previous {
                #expect(
                    try await offline.items(of: catalog, section: nil, after: nil, before: previous, limit: 10)
                        == client.items(of: catalog, before: previous, limit: 10))
            }
        }
        for category in try await client.categories(of: catalog) {
            let page = try await client.items(of: catalog, category: category.name, limit: 40)
            #expect(
                try await offline.items(of: catalog, category: category.name, after: nil, before: nil, limit: 40)
                    == page)
            if let next = page.next {
                #expect(
                    try await offline.items(of: catalog, category: category.name, after: next, before: nil, limit: 40)
                        == client.items(of: catalog, category: category.name, after: next, limit: 40))
            }
        }
        #expect(try await offline.categories(of: catalog) == client.categories(of: catalog))
        #expect(try await offline.featured(of: catalog, limit: 50) == client.featured(of: catalog, limit: 50))
        var online: [Record] = []
        for try await record in client.allItems(of: catalog, pageSize: 500) { online.append(record) }
        var local: [Record] = []
        for try await record in offline.allItems(of: catalog, pageSize: 500) { local.append(record) }
        #expect(online.count == count)
        #expect(local == online)
        if let some = online.dropFirst(count / 3).first {
            #expect(try await offline.item(some.id, of: catalog) == some)
        }
    }
}

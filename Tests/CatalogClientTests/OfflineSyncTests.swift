import CatalogClient
import CatalogDemo
import CatalogStorage
import Foundation
import Testing

/// ``OfflineCatalog/sync(with:)``: a snapshot brought up to date from the change feed answers as
/// the server does after every kind of edit, and is downloaded again when the feed cannot bring
/// it up to date.
@Suite(.timeLimit(.minutes(15))) struct OfflineSyncTests {
    static let records = 3_000

    @Test func afterEditsAndSyncsTheOfflineCatalogAnswersAsTheServer() async throws {
        let live = try LiveServer(generated: Self.records, seed: 11)
        let admin = live.client(token: live.adminToken)
        let file = live.directory.appendingPathComponent("big.sqlite")
        try await admin.download(catalog: "big", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        let start = try await admin.changeLog(of: "big", since: 0).change
        #expect(try await offline.sync(with: admin) == .current(change: start))
        // Opened before the syncs: it keeps the version it opened, as after a download.
        let before = try OfflineCatalog(at: file)
        defer { before.close() }

        let words = CatalogGenerator(items: Self.records, locale: "en", seed: 11).titleWords
        var editor = Editor(client: admin, words: words, change: start)
        for try await record in admin.allItems(of: "big", pageSize: 500) { editor.ids.append(record.id) }
        for round in 0..<6 {
            let first = editor.change
            try await editor.round(round)
            let result = try await offline.sync(with: admin)
            #expect(result == .applied(count: editor.change - first, change: editor.change), "round \(round)")
            #expect(try await offline.catalog("big") == admin.catalog("big"), "round \(round)")
            #expect(try await offline.sections(of: "big") == admin.sections(of: "big"), "round \(round)")
            #expect(try await offline.categories(of: "big") == admin.categories(of: "big"), "round \(round)")
            for id in editor.touched {
                #expect(try await offline.item(id, of: "big") == admin.item(id, of: "big"), "round \(round): \(id)")
            }
        }
        #expect(try await offline.sync(with: admin) == .current(change: editor.change))
        #expect(try await before.catalog("big").count == Self.records)

        let comparison = OfflineComparison(client: admin, offline: offline, catalog: "big", words: words)
        try await comparison.thousandSearchesGiveTheSameAnswers()
        try await comparison.browseScreensAreTheSame(count: editor.ids.count)
        // A fresh download of the same change is the same catalog.
        let fresh = live.directory.appendingPathComponent("fresh.sqlite")
        try await admin.download(catalog: "big", to: fresh)
        let downloaded = try OfflineCatalog(at: fresh)
        defer { downloaded.close() }
        #expect(try await downloaded.catalog("big") == offline.catalog("big"))
    }

    @Test func aCatalogChangedAsAWholeOrALogThatNoLongerReachesBackIsDownloadedAgain() async throws {
        let live = try LiveServer()
        let admin = live.client(token: live.adminToken)
        let file = live.directory.appendingPathComponent("cookbook.sqlite")
        try await admin.download(catalog: "cookbook", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        let edited = try await admin.put(Record(id: "z1", title: "Zserbó"), in: "cookbook")
        #expect(try await offline.sync(with: admin) == .applied(count: 1, change: edited.change))
        #expect(try await offline.item("z1", of: "cookbook") == edited.record)
        // An import: the catalog is new as a whole.
        try live.importRecords([Record(id: "z2", title: "Zserbó II")], into: "cookbook", locale: "hu")
        let imported = try await admin.changeLog(of: "cookbook", since: 0).change
        #expect(try await offline.sync(with: admin) == .downloaded(change: imported))
        #expect(try await offline.catalog("cookbook") == admin.catalog("cookbook"))
        #expect(try await offline.catalog("cookbook").count == 1)
        let etag = try #require(offline.etag)
        // The log pruned past the file's change.
        let added = try await admin.put(Record(id: "z3", title: "Zserbó III"), in: "cookbook")
        try live.pruneChangeLog()
        let again = try await admin.put(Record(id: "z4", title: "Zserbó IV"), in: "cookbook")
        #expect(again.change == added.change + 1)
        #expect(try await offline.sync(with: admin) == .downloaded(change: again.change))
        #expect(offline.etag != etag)
        #expect(try await offline.items(of: "cookbook").items.map(\.id) == admin.items(of: "cookbook").items.map(\.id))
        #expect(try await offline.sync(with: admin) == .current(change: again.change))
    }

    @Test func syncsOfOneCatalogTakeTurns() async throws {
        let live = try LiveServer()
        let admin = live.client(token: live.adminToken)
        let file = live.directory.appendingPathComponent("products.sqlite")
        try await admin.download(catalog: "products", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        var last = 0
        for number in 1...5 {
            last = try await admin.patch(
                String(format: "p%03d", number), in: "products", changes: ["quantity": .number("\(number)")]
            )
            .change
        }
        async let first = offline.sync(with: admin)
        async let second = offline.sync(with: admin)
        let results = try await [first, second]
        #expect(results.contains(.applied(count: 5, change: last)) && results.contains(.current(change: last)))
        #expect(try await offline.item("p003", of: "products").quantity == 3)
    }
}

/// Edits of every kind against the server, round by round: new records (a new category, titles
/// in other sections, featured ranks), replaced and patched ones (titles moving between sections,
/// prices, countries, categories), one record changed twice, deletions, a batch, and a put that
/// changes nothing.
struct Editor {
    let client: CatalogClient
    let words: [String]
    /// The server's change number after the last edit.
    var change: Int
    /// The ids of the catalog's records.
    var ids: [String] = []
    /// The ids the last round changed and that still exist.
    var touched: [String] = []
    private var random = OfflineComparison.Random(state: 19_19)

    init(client: CatalogClient, words: [String], change: Int) {
        self.client = client
        self.words = words
        self.change = change
    }

    mutating func title() -> String {
        let first = random.pick(words)
        return first.prefix(1).uppercased() + first.dropFirst() + " " + random.pick(words)
    }

    mutating func round(_ round: Int) async throws {
        touched = []
        let countries = ["DE", "HU", "SE", "FR", "JP"]
        // New records, one in a category the catalog has not seen.
        for number in 0..<4 {
            var record = try await client.record(random.pick(ids), in: "big").record
            record.id = "new-\(round)-\(number)"
            record.title = title()
            record.price = Decimal(random.below(90_000)) / 100
            record.country = random.pick(countries)
            record.featured = number == 1 ? 1 + round : nil
            if number == 0 { record.categories = ["Fresh \(round)"] + record.categories.prefix(1) }
            let stored = try await client.put(record, in: "big", createOnly: true)
            change = stored.change
            ids.append(record.id)
            touched.append(record.id)
        }
        // Patches: a new title (often another section), a price, a country, categories, a rank.
        for _ in 0..<4 {
            let id = random.pick(ids)
            let categories = try await client.categories(of: "big").map(\.name)
            let stored = try await client.patch(
                id, in: "big",
                changes: [
                    "title": .text(title()), "price": .number("\(random.below(500)).\(10 + random.below(90))"),
                    "country": .text(random.pick(countries)), "categories": .texts([random.pick(categories)]),
                    "featured": random.chance(30) ? .number("\(1 + random.below(20))") : .null,
                ])
            change = stored.change
            touched.append(id)
        }
        // One record changed twice in a row: two changes of it in one page of the feed.
        let twice = random.pick(ids)
        var stored = try await client.patch(twice, in: "big", changes: ["subtitle": .text("first \(round)")])
        stored = try await client.patch(
            twice, in: "big", changes: ["subtitle": .text("second \(round)"), "title": .text(title())],
            ifMatch: stored.etag)
        change = stored.change
        touched.append(twice)
        // A put of the record as it is changes nothing and uses no number.
        let unchanged = try await client.put(stored.record, in: "big", ifMatch: stored.etag)
        #expect(unchanged.change == change)
        // Deletions.
        for _ in 0..<2 {
            let id = random.pick(ids.filter { !touched.contains($0) })
            change = try await client.delete(id, in: "big")
            ids.removeAll { $0 == id }
        }
        // A batch: a new record, a replaced one, a deleted one.
        var added = try await client.record(random.pick(ids), in: "big").record
        added.id = "batch-\(round)"
        added.title = title()
        let replacedID = random.pick(ids.filter { !touched.contains($0) })
        var replaced = try await client.record(replacedID, in: "big").record
        replaced.title = title()
        replaced.description = "replaced in round \(round)"
        let deleted = random.pick(ids.filter { !touched.contains($0) && $0 != replacedID })
        let outcome = try await client.batch([.upsert(added), .upsert(replaced), .delete(id: deleted)], in: "big")
        #expect(outcome.results.map(\.result) == [.created, .replaced, .deleted])
        change = outcome.change
        ids.append(added.id)
        ids.removeAll { $0 == deleted }
        touched += [added.id, replacedID]
    }
}

/// An app's API key with a record filter: its offline catalog holds the key's records only and
/// follows them (a record that leaves the filter leaves the file, one outside it never arrives),
/// answering as the server answers the key.
@Suite(.timeLimit(.minutes(15))) struct FilteredOfflineTests {
    @Test func aFilteredKeysOfflineCatalogFollowsItsOwnRecords() async throws {
        let live = try LiveServer()
        let admin = live.client(token: live.adminToken)
        let key = try live.addKey(catalogs: ["products"], actions: [.read, .search], filter: "country = DE")
        let dealer = live.client(token: key)
        let file = live.directory.appendingPathComponent("products-de.sqlite")
        try await dealer.download(catalog: "products", to: file)
        let offline = try OfflineCatalog(at: file)
        defer { offline.close() }
        let german = try await dealer.items(of: "products").items.map(\.id)
        #expect(Set(german) == ["p001", "p016", "p028", "p031"])
        #expect(try await offline.items(of: "products").items.map(\.id) == german)
        #expect(try await offline.catalog("products") == dealer.catalog("products"))

        // A German record arrives, a Swedish one does not, and one that moved abroad leaves.
        _ = try await admin.put(Record(id: "pz1", title: "Zugsäge", country: "DE"), in: "products")
        _ = try await admin.put(Record(id: "pz2", title: "Sågbock", country: "SE"), in: "products")
        var moved = try #require(try await admin.item("p001", of: "products"))
        moved.country = "FR"
        let last = try await admin.put(moved, in: "products").change
        // The key's feed leaves the Swedish record's change out and says so: the copy takes the
        // two changes it has, at the server's numbers, and is at the server's number after them.
        #expect(try await offline.sync(with: dealer) == .applied(count: 2, change: last))
        let now = try await dealer.items(of: "products").items.map(\.id)
        #expect(Set(now) == ["p016", "p028", "p031", "pz1"])
        #expect(try await offline.items(of: "products").items.map(\.id) == now)
        #expect(try await offline.catalog("products") == dealer.catalog("products"))
        let found = try await offline.search(SearchRequest(query: "zugsage"), in: "products")
        #expect(found.items.map(\.record.id) == ["pz1"])
        #expect(try await offline.search(SearchRequest(query: "sagbock"), in: "products").total == 0)

        // Only changes the key does not see: the copy moves on to the server's number, no more.
        let swedish = try await admin.put(Record(id: "pz2", title: "Sågbock 2", country: "SE"), in: "products")
        #expect(try await offline.sync(with: dealer) == .applied(count: 0, change: swedish.change))
        #expect(try await offline.sync(with: dealer) == .current(change: swedish.change))
        // And a change it sees after them.
        let hobel = try await admin.put(Record(id: "pz3", title: "Hobel", country: "DE"), in: "products")
        #expect(try await offline.sync(with: dealer) == .applied(count: 1, change: hobel.change))
        #expect(try await offline.items(of: "products").items.map(\.id) == dealer.items(of: "products").items.map(\.id))
        #expect(try await offline.catalog("products") == dealer.catalog("products"))
    }
}

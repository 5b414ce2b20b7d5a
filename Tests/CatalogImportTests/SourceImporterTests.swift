import CatalogCollation
import CatalogCore
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogSupport
import CatalogTestSupport
import Foundation
import SQLiteSupport
import Testing

/// The source importer against a real database: round trips per format, translations, notes,
/// typed values, re-keying, mappings that name nothing, and URL feeds with conditional GETs.
@Suite struct SourceImporterTests {
    let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })

    /// A database in a fresh directory.
    final class Fixture {
        let temporary: TemporaryDatabase
        var database: any CatalogDatabase { temporary.database }
        var directory: URL { temporary.directory }

        init() throws { temporary = try TemporaryDatabase() }

        func definition(of id: String) throws -> CatalogDefinition? {
            try database.read { try $0.catalog(id)?.definition }
        }

        func item(_ catalog: String, _ id: String) throws -> Record? {
            return try database.read { reader in
                guard let stored = try reader.catalog(catalog) else { return nil }
                return try reader.item(of: stored, id: id)?.record()
            }
        }
    }

    private func records(_ database: any CatalogDatabase, _ id: String) throws -> [Record] {
        return try database.read { reader in
            guard let catalog = try reader.catalog(id) else { return [] }
            var result: [Record] = []
            try reader.forEachItem(of: catalog) { result.append(try $0.record()) }
            return result
        }
    }

    @discardableResult
    private func run(
        _ database: any CatalogDatabase, _ source: String, _ catalog: String,
        _ configure: (inout ImportRequest) -> Void = { _ in }
    ) throws -> ImportSummary {
        var request = ImportRequest(source: source, catalog: catalog)
        configure(&request)
        guard case .imported(let summary) = try importer.run(request, database: database) else {
            Issue.record("expected an import")
            return ImportSummary(read: 0, total: 0, added: 0, updated: 0, removed: 0)
        }
        return summary
    }

    /// Exports catalog `id` as `format` into the fixture's directory.
    private func export(_ fixture: Fixture, _ id: String, as format: ImportFormat, plain: Bool = false) throws
        -> String
    {
        let path = fixture.directory.appendingPathComponent("\(id)-\(UUID().uuidString).\(format.rawValue)").path
        return try fixture.database.read { reader in
            let catalog = try #require(try reader.catalog(id))
            let definition = catalog.definition
            let records: CatalogExporter.Records = { body in
                try reader.forEachItem(of: catalog) { try body(try $0.record()) }
            }
            if format == .sqlite {
                try SQLiteTableWriter.export(
                    definition: definition, embedDefinition: !plain, records: records, to: path)
            } else {
                var sink = DataSink()
                try CatalogExporter.write(
                    format, definition: definition, embedDefinition: !plain, records: records, to: &sink)
                try sink.data.write(to: URL(fileURLWithPath: path))
                if format == .csv, !plain {
                    try EmbeddedDefinition.sidecarData(definition).write(
                        to: EmbeddedDefinition.sidecar(of: URL(fileURLWithPath: path)))
                }
            }
            return path
        }
    }

    // MARK: - Round trips

    struct RoundTrip: CustomTestStringConvertible, Sendable {
        var fixture: String
        var field: [Role: String] = [:]
        var types: [String: FieldType] = [:]
        var locale: String?
        var testDescription: String { fixture }
    }

    static let roundTrips: [RoundTrip] = [
        RoundTrip(fixture: "shop-roundtrip.xml", locale: "de"),
        RoundTrip(fixture: "appstream.xml", field: [.title: "name", .description: "description/p"], locale: "en"),
        RoundTrip(
            fixture: "countries-dtd.xml", field: [.id: "alpha_2_code", .title: "name", .country: "alpha_2_code"]),
        RoundTrip(fixture: "products-roundtrip.json", field: [.title: "name"]),
        RoundTrip(fixture: "cities-keyed.json", field: [.title: "name"]),
        RoundTrip(
            fixture: "pantry-roundtrip.csv", field: [.title: "Name", .price: "Preis"], types: ["Gewicht": .number],
            locale: "hu"),
        RoundTrip(fixture: "zones.tab", field: [.id: "codes", .title: "TZ", .country: "codes"]),
    ]

    /// Import → export → import gives identical records, in each format the catalog's own and in
    /// the others, into a new catalog without any flags (the export carries the mapping) and back
    /// into the same catalog.
    @Test(arguments: roundTrips)
    func roundTripsLoseNothing(_ example: RoundTrip) throws {
        let fixture = try Fixture()
        try run(fixture.database, CatalogTestSupport.fixture(example.fixture).path, "source") { request in
            request.mapping = example.field
            request.fieldTypes = example.types
            request.locale = example.locale
            if example.fixture.hasSuffix(".tab") { request.comment = "#" }
        }
        let original = try records(fixture.database, "source")
        #expect(!original.isEmpty)
        let own = ImportFormat(fileExtension: URL(fileURLWithPath: example.fixture).pathExtension) ?? .csv
        for format in [own] + ImportFormat.allCases.filter({ $0 != own }) {
            let path = try export(fixture, "source", as: format)
            let copy = "copy-\(format.rawValue)"
            try run(fixture.database, path, copy)
            let back = try records(fixture.database, copy)
            if format == .xml && own == .json {
                // XML cannot say that a value is a list of one or that a list is empty.
                #expect(back.count == original.count)
            } else {
                #expect(back == original, "through \(format.rawValue)")
            }
            if format == own {
                let summary = try run(fixture.database, path, "source") { $0.replace = true }
                #expect(summary.read == original.count)
                #expect(try records(fixture.database, "source") == original)
            }
        }
    }

    @Test func uploadsImportLikeFiles() throws {
        let fixture = try Fixture()
        try run(fixture.database, CatalogTestSupport.fixture("products-roundtrip.json").path, "products") {
            $0.mapping = [.title: "name"]
        }
        let path = try export(fixture, "products", as: .json)
        let summary = try importer.importFile(
            at: URL(fileURLWithPath: path), displayName: "upload",
            plan: try ImportPlan.make(ImportRequest(source: "upload", catalog: "up"), database: fixture.database),
            database: fixture.database)
        #expect(summary.total == 2)
        #expect(try records(fixture.database, "up") == records(fixture.database, "products"))
        #expect(try fixture.definition(of: "up")?.source == nil)
        #expect(try fixture.definition(of: "up")?.mapping == [.title: "name"])
    }

    /// The same file imported the same way again is recognised by its digest: nothing is read or
    /// written. Other options, other bytes with the same records, or a changed definition read
    /// the file again; the same records never make a new version.
    @Test func theSameImportAgainHasNothingToDo() throws {
        let fixture = try Fixture()
        let source = fixture.directory.appendingPathComponent("items.json")
        let json = #"[{"id":"a","name":"Alpha","price":3},{"id":"b","name":"Beta","price":4}]"#
        try Data(json.utf8).write(to: source)
        let first = try run(fixture.database, source.path, "items") { $0.mapping = [.title: "name"] }
        #expect(first.added == 2 && !first.unchanged)
        let stamped = try #require(try fixture.definition(of: "items")?.lastImport)
        let version = try fixture.database.read { try $0.requireCatalog("items").versionKey }

        let again = try run(fixture.database, source.path, "items") { $0.mapping = [.title: "name"] }
        #expect(again.unchanged && again.read == 0 && again.total == 2 && again.added == 0)
        #expect(try fixture.database.read { try $0.requireCatalog("items").versionKey } == version)

        // Another option: read again.
        let otherOption = try run(fixture.database, source.path, "items") {
            $0.mapping = [.title: "name", .price: "price"]
        }
        #expect(!otherOption.unchanged && otherOption.read == 2)
        #expect(try fixture.definition(of: "items")?.lastImport != stamped)
        let priced = try fixture.database.read { try $0.requireCatalog("items").versionKey }

        // Other bytes, the same records: read, nothing but the stamp written.
        try Data((json + "\n").utf8).write(to: source)
        let rewritten = try run(fixture.database, source.path, "items") {
            $0.mapping = [.title: "name", .price: "price"]
        }
        #expect(!rewritten.unchanged && rewritten.read == 2 && rewritten.updated == 0)
        // The stamp only remembers the import: no change clients follow, no new version.
        #expect(try fixture.database.read { try $0.requireCatalog("items").versionKey } == priced)
        let kinds = try fixture.database.read { reader in
            try reader.changes(of: reader.requireCatalog("items"), since: 0, limit: 10).map(\.kind)
        }
        #expect(kinds == [.reload, .reload])
        let afterRewrite = try run(fixture.database, source.path, "items") {
            $0.mapping = [.title: "name", .price: "price"]
        }
        #expect(afterRewrite.unchanged)

        // A changed record: imported.
        try Data(json.replacingOccurrences(of: "Beta", with: "Gamma").utf8).write(to: source)
        let changed = try run(fixture.database, source.path, "items") {
            $0.mapping = [.title: "name", .price: "price"]
        }
        #expect(!changed.unchanged && changed.updated == 1)
        #expect(try fixture.item("items", "b")?.title == "Gamma")

        // A definition changed since the stamp was written: the stamp is not trusted.
        try fixture.database.write { writer in
            var definition = try #require(try writer.reader.catalog("items")?.definition)
            definition.title = "Renamed"
            try writer.updateDefinition(definition)
        }
        let afterEdit = try run(fixture.database, source.path, "items") {
            $0.mapping = [.title: "name", .price: "price"]
        }
        #expect(!afterEdit.unchanged && afterEdit.read == 2)

        // Exports never carry the stamp.
        let exported = try export(fixture, "items", as: .json)
        #expect(!(try String(contentsOfFile: exported, encoding: .utf8)).contains("lastImport"))
    }

    /// The digest tells bytes apart however they are fed, and equal bytes always agree.
    @Test func contentDigestsDependOnlyOnTheBytes() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        var whole = ContentDigest()
        whole.update(bytes)
        for split in [0, 1, 31, 32, 33, 500, 999, 1_000] {
            var pieces = ContentDigest()
            pieces.update(Array(bytes[..<split]))
            pieces.update(Array(bytes[split...]))
            #expect(pieces.finalized() == whole.finalized(), "split at \(split)")
        }
        var seen: Set<String> = []
        for length in 0...bytes.count {
            var digest = ContentDigest()
            digest.update(Array(bytes.prefix(length)))
            seen.insert(digest.finalized())
        }
        #expect(seen.count == bytes.count + 1)
        for index in stride(from: 0, to: bytes.count, by: 97) {
            var flipped = bytes
            flipped[index] ^= 1
            var digest = ContentDigest()
            digest.update(flipped)
            #expect(digest.finalized() != whole.finalized())
        }
        #expect(whole.finalized().count == 32)
    }

    @Test func typedValuesSurviveStorage() throws {
        let fixture = try Fixture()
        try run(fixture.database, CatalogTestSupport.fixture("products-roundtrip.json").path, "products") {
            $0.mapping = [.title: "name"]
        }
        let record = try #require(try fixture.item("products", "p1"))
        #expect(record.fields["Horsepower"] == .number("130"))
        #expect(record.fields["Miles_per_Gallon"] == .null)
        #expect(record.fields["ratio"] == .number("1.50"))
        #expect(record.fields["organic"] == .bool(true))
        #expect(record.fields["single"] == .texts(["nur eins"]))
        #expect(record.fields["none"] == .list([]))
        #expect(record.fields["variants.stock"] == .list([.number("3"), .number("0")]))
        #expect(record.fields["title@en"] == .text("Coffee grinder"))
        #expect(record.fields["title@hu"] == .text("Kávédaráló"))
        let json = String(decoding: record.jsonBytes, as: UTF8.self)
        #expect(json.contains(#""Horsepower":130"#))
        #expect(json.contains(#""Miles_per_Gallon":null"#))
        #expect(json.contains(#""ratio":1.50"#))
        #expect(try Record(json: record.jsonBytes) == record)
    }

    // MARK: - Translations and notes

    @Test func languagePicksTheRolesText() throws {
        let fixture = try Fixture()
        let shop = CatalogTestSupport.fixture("shop-roundtrip.xml").path
        try run(fixture.database, shop, "en") { $0.language = "en" }
        let english = try #require(try records(fixture.database, "en").first { $0.id == "anvil-heavy" })
        #expect(english.title == "Anvil \"Heavy\"")
        #expect(english.fields["title@und"] == .text("Amboss „Schwer“"))
        #expect(english.fields["title@hu"] == .text("Üllő"))
        #expect(english.fields["title@en"] == nil)
        // Without a language: the text without one; a missing language falls back to it too.
        try run(fixture.database, shop, "plain")
        try run(fixture.database, shop, "sv") { $0.language = "sv" }
        for id in ["plain", "sv"] {
            let record = try #require(try records(fixture.database, id).first { $0.title.hasPrefix("Amboss") })
            #expect(record.fields["title@en"] == .text("Anvil \"Heavy\""))
            #expect(record.fields["title@und"] == nil)
        }
        // --locale gives the language of a new catalog.
        try run(fixture.database, shop, "hu") { $0.locale = "hu" }
        #expect(try records(fixture.database, "hu").contains { $0.title == "Üllő" })
        #expect(try fixture.definition(of: "hu")?.language == "hu")
    }

    @Test func severalValuesForOneRoleAreKeptWithANote() throws {
        let fixture = try Fixture()
        let summary = try run(fixture.database, CatalogTestSupport.fixture("appstream.xml").path, "apps") {
            $0.record = "component"
            $0.mapping = [.title: "name", .description: "description/p"]
        }
        #expect(
            summary.notes == [
                "description: 1 record had several \"description/p\" values; the first untranslated one is the "
                    + "description, all are kept in \"description/p\""
            ])
        let klangwerk = try #require(try records(fixture.database, "apps").first { $0.id == "org.example.Klangwerk" })
        #expect(klangwerk.description == "Klangwerk is a sequencer for small studios.")
        #expect(
            klangwerk.fields["description/p"]
                == .texts(["Klangwerk is a sequencer for small studios.", "It runs on Linux."]))
        #expect(klangwerk.fields["keywords/keyword"] == .texts(["music", "sequencer"]))
        #expect(klangwerk.fields["keywords/keyword@de"] == .text("Noten"))
        #expect(klangwerk.title == "Klangwerk")
        #expect(klangwerk.fields["title@de"] == .text("Klangwerk Studio"))
        #expect(klangwerk.fields["title@fr"] == .text("Atelier Klangwerk"))
        #expect(klangwerk.fields["summary"] == .text("Record and arrange music"))
        #expect(klangwerk.fields["summary@de"] == .text("Musik aufnehmen und arrangieren"))
        let xml = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: try export(fixture, "apps", as: .xml))), as: UTF8.self)
        #expect(xml.contains(#"<keyword xml:lang="de">Noten</keyword>"#))
    }

    // MARK: - Mappings

    @Test func aFieldMayFeedSeveralRoles() throws {
        let fixture = try Fixture()
        try run(fixture.database, CatalogTestSupport.fixture("countries-dtd.xml").path, "countries") {
            $0.mapping = [.id: "alpha_2_code", .country: "alpha_2_code", .title: "name"]
        }
        let hungary = try #require(try fixture.item("countries", "HU"))
        #expect(hungary.country == "HU")
        #expect(hungary.title == "Hungary")
        #expect(hungary.fields["status"] == .text("active"))
    }

    @Test func aMappingThatNamesNothingIsAnErrorBeforeAnythingIsWritten() throws {
        let fixture = try Fixture()
        let source = CatalogTestSupport.fixture("countries-dtd.xml").path
        let error = try #require(
            importError {
                try run(fixture.database, source, "countries") { $0.mapping = [.id: "alpha2", .title: "name"] }
            })
        #expect(error.code == .notFound)
        #expect(
            error.message
                == "--field id=alpha2: no field \"alpha2\" in the source; its fields: alpha_2_code, alpha_3_code, name, official_name, status"
        )
        #expect(try fixture.definition(of: "countries") == nil)
        // The hint lists every field seen, also those empty in the first record, 20 at most.
        let wide = fixture.directory.appendingPathComponent("wide.csv")
        let header = (1...25).map { "c\($0)" }.joined(separator: ",")
        try Data("\(header)\n1,,3\n".utf8).write(to: wide)
        let missing = try #require(importError { try run(fixture.database, wide.path, "wide") })
        #expect(missing.message.contains("its fields: c1, c2, c3, c4"))
        #expect(missing.message.contains("c20 … and 5 more"))
    }

    @Test func reKeyingIsRefusedWithoutReplace() throws {
        let fixture = try Fixture()
        let source = CatalogTestSupport.fixture("countries-dtd.xml").path
        try run(fixture.database, source, "countries") { $0.mapping = [.title: "name"] }
        let before = try records(fixture.database, "countries")
        #expect(before.map(\.id).contains("andorra"))
        // The mapping says so: refused before anything is read.
        let error = try #require(
            importError { try run(fixture.database, source, "countries") { $0.mapping = [.id: "alpha_2_code"] } })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("would re-key catalog \"countries\""))
        #expect(error.message.contains("their titles (field \"name\")"))
        #expect(error.message.contains("the field \"alpha_2_code\""))
        #expect(try records(fixture.database, "countries") == before)
        // The source says so (it now has an id field): refused before anything is committed.
        let withIDs = fixture.directory.appendingPathComponent("ids.csv")
        try Data("id,name\nAD,Andorra\nHU,Hungary\n".utf8).write(to: withIDs)
        let later = try #require(importError { try run(fixture.database, withIDs.path, "countries") })
        #expect(later.message.contains("would re-key"))
        #expect(try records(fixture.database, "countries") == before)
        // With --replace it is a new set of records.
        try run(fixture.database, source, "countries") {
            $0.mapping = [.id: "alpha_2_code"]
            $0.replace = true
        }
        #expect(try records(fixture.database, "countries").map(\.id).sorted() == ["AD", "CS", "HU", "SE"])
        #expect(try fixture.definition(of: "countries")?.idSource == .field("alpha_2_code"))
    }

    @Test func tableNamesIgnoreASCIICaseWhenUnambiguous() throws {
        let fixture = try Fixture()
        let path = fixture.directory.appendingPathComponent("shop.sqlite").path
        let connection = try Connection(path: path, mode: .readWriteCreate)
        try connection.execute(
            """
            CREATE TABLE Products (id INTEGER, title TEXT, price REAL, weight TEXT, tags JSON);
            INSERT INTO Products VALUES (1, 'Hammer', 12.5, NULL, '["a","b"]'), (2, 'Zange', 7, '300 g', '[]');
            CREATE TABLE notes (a TEXT);
            """)
        connection.close()
        try run(fixture.database, path, "shop") { $0.table = "products" }
        let hammer = try #require(try fixture.item("shop", "1"))
        #expect(hammer.price == Decimal(string: "12.5"))
        #expect(hammer.fields["tags"] == .texts(["a", "b"]))
        #expect(hammer.fields["weight"] == nil)
        #expect(try fixture.item("shop", "2")?.fields["tags"] == .list([]))
        let missing = try #require(importError { try run(fixture.database, path, "n") { $0.table = "product" } })
        #expect(missing.message == "no table \"product\"; tables: Products, notes")
    }

    // MARK: - URL feeds

    @Test func urlFeedsRefreshWithConditionalGets() throws {
        let fixture = try Fixture()
        let feed = LoopbackFeed(Self.feed(["Klangwerk Studio", "Taktmeister"]))
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .feed(feed)])
        defer { server.stop() }
        let url = server.baseURL + "/feed.xml"
        try run(fixture.database, url, "feed") {
            $0.record = "Produkt"
            $0.mapping = [.title: "TitelText"]
        }
        let definition = try #require(try fixture.definition(of: "feed"))
        #expect(
            definition.source
                == FeedSource(
                    url: url, record: "Produkt", etag: "\"v1\"", lastModified: "Mon, 01 Dec 2025 10:00:00 GMT"))

        // Unchanged: nothing read, nothing written.
        let request = try #require(ImportRequest(refreshing: definition))
        #expect(try importer.run(request, database: fixture.database) == .notModified)
        #expect(server.requestHeaders.last?["if-none-match"] == "\"v1\"")
        #expect(try fixture.definition(of: "feed") == definition)

        // Changed: imported the way it was before, with the new validators.
        feed.update(Self.feed(["Klangwerk Studio", "Taktmeister", "Notenfluss"]))
        guard case .imported(let summary) = try importer.run(request, database: fixture.database) else {
            Issue.record("expected an import")
            return
        }
        #expect(summary.total == 3)
        #expect(try fixture.definition(of: "feed")?.source?.etag == "\"v2\"")

        // The background refresher: one round, a failure logged and nothing changed.
        let log = LockedLines()
        let refresher = CatalogRefresher(
            interval: 3600, importer: importer, database: fixture.database, log: { log.append($0) })
        #expect(refresher.refreshAll() == [.notModified(catalog: "feed")])
        feed.update("<sequenzer><Produkt><Kurzbeschreibung>no title</Kurzbeschreibung></Produkt></sequenzer>")
        _ = fixture
        let outcomes = refresher.refreshAll()
        guard case .failed(let id, let message)? = outcomes.first else {
            Issue.record("expected a failure, got \(outcomes)")
            return
        }
        #expect(id == "feed")
        #expect(message.contains("record has no title"))
        #expect(log.lines.last?.hasPrefix("refresh feed: failed, nothing changed:") == true)
        #expect(try records(fixture.database, "feed").count == 3)
        #expect(try fixture.definition(of: "feed")?.source?.etag == "\"v2\"")
    }

    @Test func refresherRunsOnItsOwnThreadUntilStopped() throws {
        let fixture = try Fixture()
        let feed = LoopbackFeed(Self.feed(["Klangwerk Studio"]))
        let server = try LoopbackHTTPServer(routes: ["/feed.xml": .feed(feed)])
        defer { server.stop() }
        try run(fixture.database, server.baseURL + "/feed.xml", "feed") { $0.mapping = [.title: "TitelText"] }
        feed.update(Self.feed(["Klangwerk Studio", "Loopgarten"]))
        let log = LockedLines()
        let refresher = CatalogRefresher(
            interval: 0.2, importer: importer, database: fixture.database, log: { log.append($0) })
        refresher.start()
        waitUntil(timeout: 10) { refresher.rounds >= 2 }
        refresher.stop()
        #expect(refresher.rounds >= 2)
        #expect(log.lines.contains { $0.hasPrefix("refresh feed: read 2 records") })
        #expect(log.lines.contains("refresh feed: not modified"))
        #expect(try records(fixture.database, "feed").count == 2)
    }

    /// A route that answers `body` the first time, then never answers (until the server stops).
    private static func answersOnceThenHangs(_ body: String, arrived: DispatchSemaphore) -> LoopbackHTTPServer.Reply {
        let requests = LockedLines()
        return .custom { connection in
            requests.append("request")
            guard requests.lines.count > 1 else {
                connection.send(
                    "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                return
            }
            arrived.signal()
            connection.waitForClose()
        }
    }

    /// Two imported feeds for the refresher: "a-silent" answers once, then hangs (signalling
    /// `hanging` when asked again); "b-fast" has changed since it was imported. "a-silent" comes
    /// first in every listing of the catalogs: refreshed one at a time, it would hold up "b-fast"
    /// until its deadline.
    private func twoFeeds() throws -> (Fixture, DispatchSemaphore, LoopbackFeed, LoopbackHTTPServer) {
        let fixture = try Fixture()
        let hanging = DispatchSemaphore(value: 0)
        let fast = LoopbackFeed(Self.feed(["Klangwerk Studio"]))
        let server = try LoopbackHTTPServer(routes: [
            "/silent.xml": Self.answersOnceThenHangs(Self.feed(["Taktmeister"]), arrived: hanging),
            "/fast.xml": .feed(fast),
        ])
        do {
            try run(fixture.database, server.baseURL + "/silent.xml", "a-silent") {
                $0.mapping = [.title: "TitelText"]
            }
            try run(fixture.database, server.baseURL + "/fast.xml", "b-fast") { $0.mapping = [.title: "TitelText"] }
        } catch {
            server.stop()
            throw error
        }
        fast.update(Self.feed(["Klangwerk Studio", "Loopgarten"]))
        return (fixture, hanging, fast, server)
    }

    @Test func oneSilentFeedDoesNotHoldUpTheOthers() throws {
        let (fixture, hanging, fast, server) = try twoFeeds()
        defer { server.stop() }

        let fastRefreshed = DispatchSemaphore(value: 0)
        let log = LockedLines()
        // A deadline far beyond the test: only a pool lets the fast feed through meanwhile.
        let refresher = CatalogRefresher(
            interval: 3600, importer: importer, database: fixture.database, concurrency: 2,
            fetchOptions: SourceFetcher.Options(timeout: 600, deadline: 600),
            log: { line in
                log.append(line)
                if line.hasPrefix("refresh b-fast:") { fastRefreshed.signal() }
            })
        let roundDone = DispatchSemaphore(value: 0)
        let outcomes = LockedLines()
        Thread.detachNewThread {
            for outcome in refresher.refreshAll() { outcomes.append("\(outcome)") }
            roundDone.signal()
        }
        #expect(hanging.wait(timeout: .now() + 120) == .success, "the silent feed was asked for")
        #expect(fastRefreshed.wait(timeout: .now() + 120) == .success, "the fast feed refreshed meanwhile")
        #expect(log.lines.first?.hasPrefix("refresh b-fast: read 2 records") == true, "\(log.lines)")
        #expect(try records(fixture.database, "b-fast").count == 2)

        // The silent one ends when its server goes away; the round then returns both outcomes.
        server.stop()
        #expect(roundDone.wait(timeout: .now() + 120) == .success)
        #expect(outcomes.lines.count == 2)
        #expect(outcomes.lines.first?.contains("a-silent") == true)
        #expect(log.lines.last?.hasPrefix("refresh a-silent: failed, nothing changed:") == true, "\(log.lines)")
        #expect(try records(fixture.database, "a-silent").count == 1)
    }

    @Test func backgroundRefreshesGoOnWhileOneFeedHangs() throws {
        let (fixture, hanging, fast, server) = try twoFeeds()
        defer { server.stop() }
        let twoRecords = DispatchSemaphore(value: 0)
        let threeRecords = DispatchSemaphore(value: 0)
        let log = LockedLines()
        let refresher = CatalogRefresher(
            interval: 0.2, importer: importer, database: fixture.database, concurrency: 2,
            fetchOptions: SourceFetcher.Options(timeout: 600, deadline: 600),
            log: { line in
                log.append(line)
                if line.hasPrefix("refresh b-fast: read 2 records") { twoRecords.signal() }
                if line.hasPrefix("refresh b-fast: read 3 records") { threeRecords.signal() }
            })
        refresher.start()
        defer { refresher.stop() }
        #expect(hanging.wait(timeout: .now() + 120) == .success, "the silent feed was asked for")
        #expect(twoRecords.wait(timeout: .now() + 120) == .success)
        // Later rounds refresh the fast feed again while the silent one still hangs in the first.
        fast.update(Self.feed(["Klangwerk Studio", "Loopgarten", "Notenfluss"]))
        #expect(threeRecords.wait(timeout: .now() + 120) == .success)
        #expect(try records(fixture.database, "b-fast").count == 3)
        #expect(!log.lines.contains { $0.hasPrefix("refresh a-silent") })
        // A catalog still being refreshed is not asked for again.
        #expect(server.requestedPaths.filter { $0 == "/silent.xml" }.count == 2)
    }

    /// A server stops while a feed hangs: the download is cancelled, nothing changes, and
    /// `stop()` returns only once the refresher's threads have ended (the database is closed next).
    @Test func stoppingCancelsARefreshThatHangs() throws {
        let fixture = try Fixture()
        let hanging = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer(routes: [
            "/silent.xml": Self.answersOnceThenHangs(Self.feed(["Taktmeister"]), arrived: hanging)
        ])
        defer { server.stop() }
        try run(fixture.database, server.baseURL + "/silent.xml", "silent") { $0.mapping = [.title: "TitelText"] }
        let log = LockedLines()
        let refresher = CatalogRefresher(
            interval: 0.2, importer: importer, database: fixture.database,
            fetchOptions: SourceFetcher.Options(timeout: 600, deadline: 600), log: { log.append($0) })
        refresher.start()
        #expect(hanging.wait(timeout: .now() + 120) == .success, "the feed was asked for")
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            refresher.stop()
            stopped.signal()
        }
        // The server still holds the connection open: only the refresher's cancel ends it.
        #expect(stopped.wait(timeout: .now() + 120) == .success, "stop() returned")
        #expect(log.lines.contains { $0.hasPrefix("refresh silent: failed, nothing changed:") }, "\(log.lines)")
        #expect(try records(fixture.database, "silent").count == 1)
    }

    @Test func refresherRefusesRedirectsToOtherLocalPorts() throws {
        let fixture = try Fixture()
        let other = try LoopbackHTTPServer(routes: [
            "/internal.xml": .status(200, body: Self.feed(["Interne Seite", "Geheim"]))
        ])
        defer { other.stop() }
        let requests = LockedLines()
        let original = Self.feed(["Klangwerk Studio"])
        let server = try LoopbackHTTPServer(routes: [
            "/feed.xml": .custom { connection in
                requests.append("request")
                if requests.lines.count == 1 {
                    connection.send(
                        "HTTP/1.1 200 OK\r\nContent-Length: \(original.utf8.count)\r\nConnection: close\r\n\r\n"
                            + original)
                } else {
                    connection.send(
                        "HTTP/1.1 302 Found\r\nLocation: \(other.baseURL)/internal.xml\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n")
                }
            }
        ])
        defer { server.stop() }
        try run(fixture.database, server.baseURL + "/feed.xml", "feed") { $0.mapping = [.title: "TitelText"] }
        let log = LockedLines()
        let refresher = CatalogRefresher(
            interval: 3600, importer: importer, database: fixture.database, log: { log.append($0) })
        let outcomes = refresher.refreshAll()
        guard case .failed(_, let message)? = outcomes.first else {
            Issue.record("expected a failure, got \(outcomes)")
            return
        }
        #expect(message.contains("refused the redirect to \(other.baseURL)/internal.xml, a loopback address"))
        #expect(other.requestedPaths.isEmpty)
        #expect(try records(fixture.database, "feed").map(\.title) == ["Klangwerk Studio"])
        #expect(log.lines.last?.hasPrefix("refresh feed: failed, nothing changed:") == true)

        // Allowed, the refresh publishes the other port's page: what --allow-private-fetch means.
        let allowing = CatalogRefresher(
            interval: 3600, importer: importer, database: fixture.database,
            fetchOptions: SourceFetcher.Options(allowPrivate: true), log: { _ in })
        guard case .refreshed(_, let summary)? = allowing.refreshAll().first else {
            Issue.record("expected a refresh")
            return
        }
        #expect(summary.total == 3)
    }

    @Test func eachFeedHasItsOwnDeadline() throws {
        let fixture = try Fixture()
        let hanging = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer(routes: [
            "/silent.xml": Self.answersOnceThenHangs(Self.feed(["Taktmeister"]), arrived: hanging)
        ])
        defer { server.stop() }
        try run(fixture.database, server.baseURL + "/silent.xml", "silent") { $0.mapping = [.title: "TitelText"] }
        let refresher = CatalogRefresher(
            interval: 3600, importer: importer, database: fixture.database,
            fetchOptions: SourceFetcher.Options(timeout: 1, deadline: 1), log: { _ in })
        let outcomes = refresher.refreshAll()
        guard case .failed(let id, let message)? = outcomes.first else {
            Issue.record("expected a failure, got \(outcomes)")
            return
        }
        #expect(id == "silent")
        #expect(message.contains("timed out after 1 s"), "\(message)")
    }

    private static func feed(_ titles: [String]) -> String {
        "<sequenzer>" + titles.map { "<Produkt><TitelText>\($0)</TitelText></Produkt>" }.joined() + "</sequenzer>"
    }
}

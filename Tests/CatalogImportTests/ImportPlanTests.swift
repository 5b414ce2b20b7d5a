import CatalogCollation
import CatalogCore
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Synchronization
import Testing

/// The plan an import runs from, and what the reader protocol carries: cancellation in, a
/// ``ReadSummary`` out.
@Suite struct ImportPlanTests {
    let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })

    private func csvFile(_ directory: URL, rows: Int) throws -> URL {
        let url = directory.appendingPathComponent("items.csv")
        var text = "id,title\n"
        for n in 1...rows { text += "\(n),Item \(n)\n" }
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aNewCatalogHasNothingStoredAndNoValidators() throws {
        let fixture = try TemporaryDatabase()
        var request = ImportRequest(source: "https://example.org/feed.xml", catalog: "fresh")
        request.conditional = true
        let plan = try ImportPlan.make(request, database: fixture.database)
        #expect(plan.stored == nil)
        #expect(plan.fetchOptions.etag == nil)
        #expect(plan.fetchOptions.lastModified == nil)
    }

    @Test func theChecksAreMadeWhenThePlanIsMade() throws {
        let fixture = try TemporaryDatabase()
        let file = try csvFile(fixture.directory, rows: 3)
        _ = try importer.run(ImportRequest(source: file.path, catalog: "items"), database: fixture.database)
        let stored = try ImportPlan.storedCatalog("items", in: fixture.database)
        #expect(stored?.summary.count == 3)

        var otherLocale = ImportRequest(source: file.path, catalog: "items")
        otherLocale.locale = "de"
        let error = #expect(throws: ImportError.self) { try ImportPlan(otherLocale, stored: stored) }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message
                == "catalog \"items\" already has locale \"en\"; it cannot change on import (change it with "
                + "'catalog set-catalog items --locale de' or PATCH /api/v1/catalogs/items, then import)")

        var rekeyed = ImportRequest(source: file.path, catalog: "items")
        rekeyed.mapping = [.id: "title"]
        let rekeying = #expect(throws: ImportError.self) { try ImportPlan(rekeyed, stored: stored) }
        #expect(rekeying?.message.hasPrefix("this import would re-key catalog \"items\"") == true)
        rekeyed.replace = true
        #expect(try ImportPlan(rekeyed, stored: stored).stored?.versionKey == stored?.versionKey)
    }

    @Test func theSameFileAgainIsAnsweredFromThePlan() throws {
        let fixture = try TemporaryDatabase()
        let file = try csvFile(fixture.directory, rows: 4)
        let request = ImportRequest(source: file.path, catalog: "items")
        _ = try importer.run(request, database: fixture.database)
        let plan = try ImportPlan.make(request, database: fixture.database)
        guard case .imported(let summary) = try importer.run(plan, database: fixture.database) else {
            Issue.record("expected an import")
            return
        }
        #expect(summary.unchanged)
        #expect(summary.total == 4)
    }

    @Test func aConditionalPlanSendsTheStoredValidators() throws {
        var definition = CatalogDefinition(id: "feed", title: "Feed", locale: "en")
        definition.source = FeedSource(
            url: "https://example.org/feed.xml", format: nil, record: nil, table: nil, replace: false,
            etag: "\"v1\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT")
        let stored = StoredCatalog(
            definition: definition, summary: CatalogSummary(id: "feed", title: "Feed", locale: "en", count: 0),
            sectionLabels: [], categories: [], collationVersion: "", versionKey: "1")
        let request = try #require(ImportRequest(refreshing: definition))
        let plan = try ImportPlan(request, stored: stored)
        #expect(plan.fetchOptions.etag == "\"v1\"")
        #expect(plan.fetchOptions.lastModified == "Tue, 01 Dec 2026 10:00:00 GMT")
        var moved = request
        moved.source = "https://example.org/other.xml"
        #expect(try ImportPlan(moved, stored: stored).fetchOptions.etag == nil)
    }

    @Test func readersReturnWhatTheyLearned() throws {
        let csv = CSVRecordReader(data: Data("a,b\n1,2\n3,4\n".utf8), sourceName: "t.csv")
        var declared: [String] = []
        let summary = try csv.read(cancellation: .never, fieldNames: { declared = $0 }) { _ in }
        #expect(summary == ReadSummary(records: 2, bytes: 12, fieldNames: ["a", "b"]))
        #expect(declared == ["a", "b"])

        let json = JSONRecordReader(data: Data(#"{"k1":{"t":"a"},"k2":{"t":"b"}}"#.utf8), sourceName: "t.json")
        let keyed = try json.read(cancellation: .never, fieldNames: { _ in }) { _ in }
        #expect(keyed.records == 2)
        #expect(keyed.shape == nil)

        let xml = XMLRecordReader(data: Data("<r><i><t>a</t></i><i><t>b</t></i></r>".utf8), sourceName: "t.xml")
        let shaped = try xml.read(cancellation: .never, fieldNames: { _ in }) { _ in }
        #expect(shaped.records == 2)
        #expect(shaped.shape?.rootElement == "r")
        #expect(shaped.shape?.recordElement == "i")
    }

    @Test(arguments: ImportFormat.allCases.filter { $0 != .sqlite })
    func aCancelledReadStopsBetweenRecords(_ format: ImportFormat) throws {
        let rows = 1_000
        let data: Data
        let reader: any RecordSource
        switch format {
        case .csv:
            data = Data(("id,title\n" + (1...rows).map { "\($0),t\($0)\n" }.joined()).utf8)
            reader = CSVRecordReader(data: data, sourceName: "t")
        case .json:
            data = Data(("[" + (1...rows).map { #"{"id":"\#($0)"}"# }.joined(separator: ",") + "]").utf8)
            reader = JSONRecordReader(data: data, sourceName: "t")
        default:
            data = Data(("<r>" + (1...rows).map { "<i><id>\($0)</id></i>" }.joined() + "</r>").utf8)
            reader = XMLRecordReader(data: data, sourceName: "t")
        }
        let seen = Atomic<Int>(0)
        let cancellation = ReadCancellation { seen.load(ordering: .relaxed) >= 100 }
        #expect(throws: ReadCancellation.Cancelled.self) {
            _ = try reader.read(cancellation: cancellation, fieldNames: { _ in }) { _ in
                seen.add(1, ordering: .relaxed)
            }
        }
        #expect(seen.load(ordering: .relaxed) < rows)
        #expect(throws: ReadCancellation.Cancelled.self) {
            _ = try reader.read(cancellation: ReadCancellation { true }, fieldNames: { _ in }) { _ in }
        }
    }

    @Test func aCancelledImportChangesNothing() throws {
        let fixture = try TemporaryDatabase()
        let file = try csvFile(fixture.directory, rows: 2_000)
        var importer = importer
        importer.isCancelled = { true }
        let error = #expect(throws: StorageError.self) {
            _ = try importer.run(ImportRequest(source: file.path, catalog: "items"), database: fixture.database)
        }
        #expect(error?.code == .cancelled)
        #expect(try ImportPlan.storedCatalog("items", in: fixture.database) == nil)
    }
}

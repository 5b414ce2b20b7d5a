import CatalogCollation
import CatalogCore
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// A JSON object keyed by id (`{"AF": {...}, "AL": {...}}`) streams as an array of records does:
/// the same records, an error in the first member before the rest is read, duplicate keys named
/// with both places, from a file and from a URL.
@Suite struct KeyedJSONTests {
    let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })

    /// The body of the member keyed `key`: a few typed, nested values.
    private static func member(_ index: Int) -> String {
        #"{"name": "City \#(index)", "country": "HU", "population": \#(1000 + index), "capital": \#(index % 2 == 0), "#
            + #""geo": {"lat": 47.\#(index), "elevation": null}, "names": ["A\#(index)", "B"], "tags": []}"#
    }

    private static func key(_ index: Int) -> String { "k\(index)" }

    /// `count` records as an object keyed by id, one member a line, and as an array whose records
    /// carry the same id first.
    private static func files(count: Int) -> (keyed: String, array: String) {
        let indices = 0..<count
        let keyed = indices.map { "  \"\(key($0))\": \(member($0))" }.joined(separator: ",\n")
        let array = indices.map { "  {\"id\": \"\(key($0))\", \(member($0).dropFirst())" }.joined(separator: ",\n")
        return ("{\n" + keyed + "\n}\n", "[\n" + array + "\n]\n")
    }

    private func read(_ json: String) throws -> [SourceRecord] {
        try readAll(JSONRecordReader(data: Data(json.utf8), sourceName: "data.json"))
    }

    private func failure(_ json: String) -> ImportError? {
        readError(JSONRecordReader(data: Data(json.utf8), sourceName: "data.json"))
    }

    @Test(arguments: [3, 600])
    func keyedRecordsAreTheArraysRecords(count: Int) throws {
        // 600 is past the members held back before the object is known to be records.
        let (keyed, array) = Self.files(count: count)
        let fromKeyed = try read(keyed)
        let fromArray = try read(array)
        #expect(fromKeyed.count == count)
        #expect(fromKeyed.map(pairs) == fromArray.map(pairs))
        #expect(fromKeyed.map { $0.fields.map(\.kind) } == fromArray.map { $0.fields.map(\.kind) })
        // The key is the first field, where the key is; the record is where the key is.
        #expect(
            fromKeyed[1].fields[0]
                == SourceField(
                    name: "id", value: "k1", location: SourceLocation(source: "data.json", line: 3, column: 3)))
        #expect(fromKeyed[1].location == SourceLocation(source: "data.json", line: 3, column: 3))
    }

    @Test func keyedImportEqualsTheArrayImport() throws {
        let fixture = try TemporaryDatabase()
        let (keyed, array) = Self.files(count: 300)
        var stored: [String: [Record]] = [:]
        for (name, text) in [("keyed", keyed), ("array", array)] {
            let file = fixture.directory.appendingPathComponent("\(name).json")
            try Data(text.utf8).write(to: file)
            var request = ImportRequest(source: file.path, catalog: name)
            request.mapping = [.title: "name"]
            guard case .imported(let summary) = try importer.run(request, database: fixture.database) else {
                Issue.record("expected an import")
                return
            }
            #expect(summary.added == 300)
            stored[name] = try fixture.database.read { reader in
                let catalog = try #require(try reader.catalog(name))
                var records: [Record] = []
                try reader.forEachItem(of: catalog) { records.append(try $0.record()) }
                return records
            }
        }
        let fromKeyed = try #require(stored["keyed"])
        #expect(fromKeyed.count == 300)
        #expect(fromKeyed == stored["array"])
        #expect(fromKeyed.first { $0.id == "k7" }?.title == "City 7")
    }

    @Test func anErrorInTheFirstMemberComesBeforeTheRestIsRead() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("big.json")
        let (keyed, _) = Self.files(count: 40_000)
        try Data(keyed.utf8).write(to: file)
        let size = Int64(keyed.utf8.count)
        #expect(size > 4 << 20)

        // The consumer (a mapping, say) refuses the first record: the reader has read little.
        struct Refused: Error {}
        var bytesRead: Int64 = 0
        var seen: [String] = []
        let reader = JSONRecordReader(fileURL: file, progress: { bytesRead = max(bytesRead, $0) })
        #expect(throws: Refused.self) {
            try reader.forEachRecord { record in
                seen.append(record.fields[0].value)
                throw Refused()
            }
        }
        #expect(seen == ["k0"])
        // The first record waits for at most 256 members (here about 50 KB) to be read.
        #expect(bytesRead < 1 << 20)

        // A syntax error inside the first member: where it is, naming the member's key.
        let broken = keyed.replacingOccurrences(of: #""population": 1000,"#, with: #""population": 01000,"#)
        try Data(broken.utf8).write(to: file)
        bytesRead = 0
        let error = try #require(
            readError(JSONRecordReader(fileURL: file, sourceName: "big.json", progress: { bytesRead = $0 })))
        #expect(error.code == .malformed)
        #expect(error.location == SourceLocation(source: "big.json", line: 2, column: 59))
        #expect(error.field == "population")
        #expect(error.message == #"invalid number: leading zeros are not allowed (in member "k0")"#)
        #expect(bytesRead < 256 << 10)
    }

    @Test func anErrorInTheFirstRecordsMappingStopsTheImportEarly() throws {
        let fixture = try TemporaryDatabase()
        let file = fixture.directory.appendingPathComponent("cities.json")
        let (keyed, _) = Self.files(count: 20_000)
        try Data(keyed.replacingOccurrences(of: #""name": "City 0""#, with: #""name": """#).utf8).write(to: file)
        var request = ImportRequest(source: file.path, catalog: "cities")
        request.mapping = [.title: "name"]
        let error = try #require(importError { _ = try importer.run(request, database: fixture.database) })
        #expect(error.location == SourceLocation(source: file.path, line: 2, column: 3))
        #expect(error.message.hasPrefix("record has no title"))
        #expect(try fixture.database.read { try $0.catalog("cities") } == nil)
    }

    @Test func duplicateKeysNameBothPlaces() throws {
        let fixture = try TemporaryDatabase()
        let file = fixture.directory.appendingPathComponent("dup.json")
        let json = #"{"a": {"name": "A"},"# + "\n" + #" "b": {"name": "B"}, "a": {"name": "C"}}"#
        try Data(json.utf8).write(to: file)
        var request = ImportRequest(source: file.path, catalog: "dup")
        request.mapping = [.title: "name"]
        let error = try #require(importError { _ = try importer.run(request, database: fixture.database) })
        #expect(error.code == .invalidValue)
        #expect(error.location == SourceLocation(source: file.path, line: 2, column: 22))
        #expect(error.message == #"two records have the id "a": this one and the one at \#(file.path):1:2"#)
        #expect(error.field == "id")
        #expect(try fixture.database.read { try $0.catalog("dup") } == nil)
    }

    @Test func nestedValuesInsideMembers() throws {
        let json = #"""
            {"x": {"id": "inner", "t": "a", "dims": {"w": 1, "h": {"u": "cm"}}, "tags": ["p", "q"],
                   "imgs": [{"url": "a.png"}, {"url": "b.png"}], "eo": {}, "ea": [], "grid": [[1, 2], [3]]}}
            """#
        let records = try read(json)
        #expect(
            records.map(pairs) == [
                [
                    "id=x", "id=inner", "t=a", "dims.w=1", "dims.h.u=cm", "tags=p", "tags=q", "imgs.url=a.png",
                    "imgs.url=b.png", "ea=", "grid=1", "grid=2", "grid=3",
                ]
            ])
        // The note about arrays inside arrays is said once, where it is.
        let summary = try JSONRecordReader(data: Data(json.utf8), sourceName: "data.json")
            .read(cancellation: .never, fieldNames: { _ in }) { _ in }
        #expect(summary.notes.count == 1)
        #expect(summary.notes.first?.hasPrefix("data.json:2:83: field \"grid\"") == true)
    }

    @Test func objectsThatAreNotAllRecords() throws {
        // An empty object holds no records.
        let empty = try #require(failure("{}"))
        #expect(empty.code == .empty)
        #expect(
            empty.message == "no records found: no top-level key holds an array of objects (the object has no keys)")
        // A member that is not an object makes the object no keyed records (as before).
        let mixed = try #require(failure(#"{"a": {"t": 1}, "b": 2}"#))
        #expect(mixed.code == .empty)
        #expect(mixed.message == "no records found: no top-level key holds an array of objects (keys seen: a, b)")
        // Objects before the array of records are not records, and leave no notes behind.
        let meta = #"{"meta": {"grid": [[1]]}, "links": {"next": null}, "items": [{"t": 2}, {"t": 3}]}"#
        #expect(try read(meta).map(pairs) == [["t=2"], ["t=3"]])
        let summary = try JSONRecordReader(data: Data(meta.utf8), sourceName: "data.json")
            .read(cancellation: .never, fieldNames: { _ in }) { _ in }
        #expect(summary.records == 2)
        #expect(summary.notes.isEmpty)
        // Past the members held back, they are records: a later member that is not one is an error
        // that says where and why, and that an array can be read with --record.
        let (keyed, _) = Self.files(count: 300)
        let late = try #require(failure(String(keyed.dropLast(3)) + ",\n  \"items\": [{\"t\": 1}]\n}"))
        #expect(late.code == .malformed)
        #expect(late.location == SourceLocation(source: "data.json", line: 302, column: 12))
        #expect(
            late.message
                == #"record "items" holds an array, not an object (the top-level object's first 300 members are "#
                + #"objects, read as records keyed by their ids; give --record "items" to read its array)"#)
        let scalar = try #require(failure(String(keyed.dropLast(3)) + ",\n  \"n\": 1\n}"))
        #expect(scalar.message.hasPrefix(#"record "n" holds a number, not an object"#))
    }

    @Test func keyedRecordsFromAURL() throws {
        let fixture = try TemporaryDatabase()
        let (keyed, _) = Self.files(count: 300)
        let server = try LoopbackHTTPServer(routes: ["/cities.json": .status(200, body: keyed)])
        defer { server.stop() }
        var request = ImportRequest(source: server.baseURL + "/cities.json", catalog: "cities")
        request.mapping = [.title: "name"]
        guard case .imported(let summary) = try importer.run(request, database: fixture.database) else {
            Issue.record("expected an import")
            return
        }
        #expect(summary.added == 300)
        let record = try fixture.database.read { reader in
            try reader.catalog("cities").flatMap { try reader.item(of: $0, id: "k299")?.record() }
        }
        #expect(record?.title == "City 299")

        // An error in the first member names the URL, the line and column, and the key.
        let broken = keyed.replacingOccurrences(of: #""capital": true, "geo""#, with: #""capital": tru, "geo""#)
        let failing = try LoopbackHTTPServer(routes: ["/cities.json": .status(200, body: broken)])
        defer { failing.stop() }
        request.source = failing.baseURL + "/cities.json"
        let error = try #require(importError { _ = try importer.run(request, database: fixture.database) })
        #expect(error.location == SourceLocation(source: request.source, line: 2, column: 76))
        #expect(error.message == #"invalid literal: expected true (in member "k0")"#)
    }
}

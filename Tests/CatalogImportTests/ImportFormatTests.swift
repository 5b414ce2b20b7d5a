import CatalogImport
import CatalogModel
import Foundation
import Testing

@Suite struct ImportFormatTests {
    @Test(arguments: [
        ("xml", ImportFormat.xml), (".XML", .xml), ("rss", .xml), ("json", .json), ("csv", .csv), ("tsv", .csv),
        ("sqlite", .sqlite), ("db", .sqlite), ("sqlite3", .sqlite),
    ])
    func fileExtensions(_ ext: String, _ format: ImportFormat) {
        #expect(ImportFormat(fileExtension: ext) == format)
    }

    @Test func unknownExtension() {
        #expect(ImportFormat(fileExtension: "pdf") == nil)
        #expect(ImportFormat(fileExtension: "") == nil)
    }

    static let samples: [([UInt8], ImportFormat)] = {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0, 0x10, 0x00]
        return [
            (Array("<?xml version=\"1.0\"?><r/>".utf8), .xml),
            (bom + Array("\n  <r/>".utf8), .xml),
            (Array(" [ {\"a\": 1} ]".utf8), .json),
            (Array("\n{\"items\": []}".utf8), .json),
            (sqliteHeader, .sqlite),
            (Array("SQLite format 3 is not this".utf8), .csv),
            (Array("id,name\n1,x".utf8), .csv),
            ([], .csv),
        ]
    }()

    @Test(arguments: samples)
    func sniffsTheFirstBytes(_ bytes: [UInt8], _ format: ImportFormat) throws {
        #expect(ImportFormat.detect(data: Data(bytes)) == format)
        let directory = try TemporaryDirectory()
        let url = directory.file("input")
        try Data(bytes).write(to: url)
        #expect(try ImportFormat.detect(fileURL: url) == format)
    }

    @Test func detectingAMissingFileIsAnIOError() {
        #expect(throws: ImportError.self) { try ImportFormat.detect(fileURL: URL(fileURLWithPath: "/nonexistent/x")) }
    }
}

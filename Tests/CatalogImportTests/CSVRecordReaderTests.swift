import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

@Suite struct CSVRecordReaderTests {
    private func read(_ csv: String, separator: Character? = nil) throws -> [SourceRecord] {
        try readAll(CSVRecordReader(data: Data(csv.utf8), sourceName: "data.csv", separator: separator))
    }

    private func failure(_ csv: String, separator: Character? = nil) -> ImportError? {
        readError(CSVRecordReader(data: Data(csv.utf8), sourceName: "data.csv", separator: separator))
    }

    @Test func headerNamesTheFields() throws {
        let csv = "id,name,price\r\n1,Tisch,12.50\r\n2,\"Stuhl, groß\",\r\n3,,7\r\n"
        let records = try read(csv)
        #expect(
            records.map(pairs) == [
                ["id=1", "name=Tisch", "price=12.50"], ["id=2", "name=Stuhl, groß"], ["id=3", "price=7"],
            ])
        #expect(records[1].location == SourceLocation(source: "data.csv", line: 3, column: 1))
        #expect(records[1].field("name")?.location == SourceLocation(source: "data.csv", line: 3, column: 3))
    }

    @Test func quotedFields() throws {
        let csv = """
            title,description,tags
            "Taktmeister","Ein ""Sequenzer""
            mit zwei Zeilen; und Semikolon",a
            „Notenfluss“,"  Leerzeichen  ",b
            """
        let records = try read(csv)
        #expect(
            records.map(pairs) == [
                ["title=Taktmeister", "description=Ein \"Sequenzer\"\nmit zwei Zeilen; und Semikolon", "tags=a"],
                ["title=„Notenfluss“", "description=  Leerzeichen  ", "tags=b"],
            ])
        // Lines after a multi-line cell are counted right, columns count characters.
        #expect(records[1].location.line == 4)
        #expect(records[1].field("tags")?.location == SourceLocation(source: "data.csv", line: 4, column: 32))
    }

    @Test(arguments: [
        ("a;b;c\n1;2,5;3\n", Character(";")), ("a\tb\tc\n1\t2,5\t3\n", "\t"), ("a,b,c\n1,\"2,5\",3\n", ","),
    ])
    func detectsTheSeparator(_ csv: String, _ expected: Character) throws {
        #expect(try read(csv).map(pairs) == [["a=1", "b=2,5", "c=3"]])
        #expect(try read(csv, separator: expected).map(pairs) == [["a=1", "b=2,5", "c=3"]])
    }

    @Test func singleColumnFewerCellsAndBlankLines() throws {
        #expect(try read("name\nA\n\nB").map(pairs) == [["name=A"], ["name=B"]])
        #expect(try read("a,b,c\n1\n,,\n1,2\n").map(pairs) == [["a=1"], ["a=1", "b=2"]])
        #expect(try read("a,b\r1,2\r3,4").map(pairs) == [["a=1", "b=2"], ["a=3", "b=4"]])
        #expect(try read("\u{FEFF}a,b\n1,2").map(pairs) == [["a=1", "b=2"]])
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var csv: String
        var line: Int
        var column: Int
        var message: String
        var field: String?
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        .init(
            name: "too many cells", csv: "a,b\n1,2\n1,2,3\n", line: 3, column: 5,
            message: "more cells than the header's 2 columns"),
        .init(name: "trailing separator", csv: "a,b\n1,2,\n", line: 2, column: 5, message: "more cells"),
        .init(
            name: "unterminated quote", csv: "a,b\n1,\"open\n2,3\n", line: 2, column: 3,
            message: "unterminated quoted field", field: "b"),
        .init(
            name: "stray quote", csv: "a,b\n1,ab\"c\n", line: 2, column: 5, message: "quote inside an unquoted field",
            field: "b"),
        .init(
            name: "text after closing quote", csv: "a,b\n\"x\"y,1\n", line: 2, column: 4,
            message: "after the closing quote", field: "a"),
        .init(
            name: "empty header name", csv: "a,,c\n1,2,3\n", line: 1, column: 3,
            message: "empty column name in the header (column 2)"),
        .init(
            name: "duplicate header name", csv: "id,name,id\n1,2,3\n", line: 1, column: 9,
            message: "duplicate column name \"id\" in the header (columns 1 and 3)"),
        .init(
            name: "columns count characters", csv: "ä,„b“\nx,\"y\"z\n", line: 2, column: 6,
            message: "after the closing quote", field: "„b“"),
    ]

    @Test(arguments: malformed)
    func malformedInput(_ example: Malformed) throws {
        let error = try #require(failure(example.csv))
        #expect(error.code == .malformed)
        #expect(error.location == SourceLocation(source: "data.csv", line: example.line, column: example.column))
        #expect(error.message.contains(example.message), "\(error.message)")
        #expect(error.field == example.field)
    }

    @Test func encodingErrors() throws {
        var latin1 = Data("name,city\nM".utf8)
        latin1.append(0xFC)
        latin1.append(contentsOf: Array("ller,Köln\n".utf8))
        let error = try #require(readError(CSVRecordReader(data: latin1, sourceName: "l.csv")))
        #expect(error.code == .encoding)
        #expect(error.location == SourceLocation(source: "l.csv", line: 2, column: 2))

        var utf16 = Data([0xFF, 0xFE])
        utf16.append(try #require("a,b\n1,2\n".data(using: .utf16LittleEndian)))
        let utf16Error = try #require(readError(CSVRecordReader(data: utf16, sourceName: "u.csv")))
        #expect(utf16Error.code == .encoding)
        #expect(utf16Error.location == SourceLocation(source: "u.csv", line: 1, column: 1))
    }

    @Test func emptyInputs() throws {
        #expect(failure("")?.code == .empty)
        #expect(failure("\n\n")?.code == .empty)
        let headerOnly = try #require(failure("a,b\n"))
        #expect(headerOnly.code == .empty)
        #expect(headerOnly.message == "no records found: the input has a header row but no data rows")
        #expect(failure("a,b\n,\n\n")?.code == .empty)
    }

    @Test func badSeparatorIsAnArgumentError() throws {
        #expect(failure("a\n1", separator: "\"")?.code == .invalidArgument)
        #expect(failure("a\n1", separator: "§")?.code == .invalidArgument)
    }

    @Test func longCellsCrossChunkBoundaries() throws {
        let long = String(repeating: "x„\"\"y\n", count: 30_000)
        let csv = "a,b\n\"\(long)\",1\n2,3\n"
        let records = try read(csv)
        #expect(records.count == 2)
        #expect(records[0].values(of: "a").first == String(repeating: "x„\"y\n", count: 30_000))
        #expect(records[1].location.line == 30_003)
    }
}

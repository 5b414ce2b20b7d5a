import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

@Suite struct JSONRecordReaderTests {
    private func read(_ json: String, path: String? = nil) throws -> [SourceRecord] {
        try readAll(JSONRecordReader(data: Data(json.utf8), sourceName: "data.json", recordPath: path))
    }

    private func failure(_ json: String, path: String? = nil) -> ImportError? {
        readError(JSONRecordReader(data: Data(json.utf8), sourceName: "data.json", recordPath: path))
    }

    @Test func valuesAndFlattening() throws {
        let json = #"""
            [{"id": 7, "price": 12.50, "exp": -1.5E+3, "zero": 0, "ok": true, "no": false, "gone": null,
              "tags": ["a", "b", null, 3], "dims": {"w": 1, "h": {"x": "y"}},
              "imgs": [{"url": "a.png"}, {"url": "b.png", "alt": null, "size": [1, 2]}],
              "s": "q\"b\\c\/d\n\t\u00e9\ud83d\ude00 „z“", "empty": "", "ea": [], "eo": {}, "nested": [[1, [2]], 3]}]
            """#
        let record = try #require(try read(json).first)
        #expect(
            pairs(record) == [
                "id=7", "price=12.50", "exp=-1.5E+3", "zero=0", "ok=true", "no=false", "gone=", "tags=a", "tags=b",
                "tags=", "tags=3", "dims.w=1", "dims.h.x=y", "imgs.url=a.png", "imgs.url=b.png", "imgs.alt=",
                "imgs.size=1", "imgs.size=2", "s=q\"b\\c/d\n\té😀 „z“", "empty=", "ea=", "nested=1", "nested=2",
                "nested=3",
            ])
        // Values keep their JSON types; arrays mark their elements, so one element stays a list.
        let kinds = record.fields.map { "\($0.name):\($0.kind)\($0.isListElement ? "[]" : "")" }
        #expect(
            kinds == [
                "id:number", "price:number", "exp:number", "zero:number", "ok:bool", "no:bool", "gone:null",
                "tags:text[]", "tags:text[]", "tags:null[]", "tags:number[]", "dims.w:number", "dims.h.x:text",
                "imgs.url:text[]", "imgs.url:text[]", "imgs.alt:null[]", "imgs.size:number[]", "imgs.size:number[]",
                "s:text", "empty:text", "ea:emptyList", "nested:number[]", "nested:number[]", "nested:number[]",
            ])
        #expect(record.location == SourceLocation(source: "data.json", line: 1, column: 2))
        #expect(record.field("tags")?.location == SourceLocation(source: "data.json", line: 2, column: 12))
    }

    @Test func topLevelObjectWithRecords() throws {
        let json =
            #"{"meta": {"count": 2, "list": [{"x": 1}]}, "tags": ["x"], "empty": [], "recipes": [{"title": "Gulyásleves"}, {"title": "Lecsó"}], "after": [1]}"#
        #expect(try read(json).map(pairs) == [["title=Gulyásleves"], ["title=Lecsó"]])
        #expect(try read(json, path: "recipes").count == 2)
        #expect(try read(json, path: "meta.list").map(pairs) == [["x=1"]])
        #expect(try read(#"{"a.b": [{"x": 1}]}"#, path: "a.b").map(pairs) == [["x=1"]])
    }

    @Test func recordPathErrors() throws {
        let missing = try #require(failure(#"{"meta": 1, "items": [{"a": 1}]}"#, path: "recipes"))
        #expect(missing.code == .notFound)
        #expect(missing.message.contains("keys seen: meta, items"))
        // An object at the path holds keyed records: each member must be an object.
        let notRecords = try #require(failure(#"{"recipes": {"a": 1}}"#, path: "recipes"))
        #expect(notRecords.code == .malformed)
        #expect(notRecords.message == "record \"a\" holds a number, not an object")
        #expect(notRecords.location == SourceLocation(source: "data.json", line: 1, column: 19))
        let notArray = try #require(failure(#"{"recipes": "x"}"#, path: "recipes"))
        #expect(notArray.code == .malformed)
        #expect(notArray.location == SourceLocation(source: "data.json", line: 1, column: 13))
        let onArray = try #require(failure(#"[{"a": 1}]"#, path: "recipes"))
        #expect(onArray.code == .notFound)
    }

    @Test func emptyInputs() throws {
        for (json, message) in [
            ("", "no records found: the input is empty"),
            (" \n ", "no records found: the input is empty"),
            ("[]", "no records found: the top-level array is empty"),
            (#"{"items": []}"#, "no records found: no top-level key holds an array of objects (keys seen: items)"),
            (
                #"{"meta": {"a": [{"b": 1}]}, "n": 1}"#,
                "no records found: no top-level key holds an array of objects (keys seen: meta, n)"
            ),
        ] {
            let error = try #require(failure(json))
            #expect(error.code == .empty)
            #expect(error.message == message)
        }
    }

    @Test func keyedObjectsAreRecords() throws {
        let records = try readAll(JSONRecordReader(fileURL: fixture("cities-keyed.json")))
        #expect(records.count == 3)
        #expect(
            records[0].fields.first
                == SourceField(
                    name: "id", value: "3040051",
                    location: SourceLocation(source: fixture("cities-keyed.json").path, line: 2, column: 3)))
        #expect(pairs(records[0]).prefix(3) == ["id=3040051", "name=les Escaldes", "country=AD"])
        #expect(records[1].values(of: "alternate_names") == ["Székesfehérvár", "Stuhlweißenburg"])
        #expect(records[2].field("population")?.kind == .number)
        // Any object of objects, also with a record path; a key holding an array still wins.
        #expect(try read(#"{"a": {"t": 1}, "b": {"t": 2}}"#).map(pairs) == [["id=a", "t=1"], ["id=b", "t=2"]])
        #expect(try read(#"{"data": {"x": {"t": 1}}}"#, path: "data").map(pairs) == [["id=x", "t=1"]])
        #expect(try read(#"{"meta": {"t": 1}, "items": [{"t": 2}]}"#).map(pairs) == [["t=2"]])
        #expect(failure("{}")?.code == .empty)
    }

    @Test func depthLimit() throws {
        // Depth 64 (top array, record object, 62 arrays) is fine; 65 is not.
        let ok = "[{\"a\": " + String(repeating: "[", count: 62) + "1" + String(repeating: "]", count: 62) + "}]"
        #expect(try read(ok).map(pairs) == [["a=1"]])
        let deep = "[{\"a\": " + String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63) + "}]"
        let error = try #require(failure(deep))
        #expect(error.code == .tooLarge)
        #expect(error.location == SourceLocation(source: "data.json", line: 1, column: 70))
        // Also in skipped parts.
        let skipped =
            "{\"x\": " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + ", \"r\": [{}]}"
        #expect(failure(skipped)?.code == .tooLarge)
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        .init(name: "unterminated string", json: #"[{"a": "abc"#, line: 1, column: 8, message: "unterminated string"),
        .init(
            name: "bad escape", json: #"[{"a": "x\q"}]"#, line: 1, column: 10, message: #"invalid escape sequence \q"#),
        .init(
            name: "short unicode escape", json: #"[{"a": "\u12"}]"#, line: 1, column: 9, message: "invalid \\u escape"),
        .init(
            name: "lone high surrogate", json: #"[{"a": "\uD83D x"}]"#, line: 1, column: 9,
            message: #"lone surrogate \uD83D"#),
        .init(
            name: "lone low surrogate", json: #"[{"a": "x\uDE00"}]"#, line: 1, column: 10,
            message: #"lone surrogate \uDE00"#),
        .init(
            name: "high surrogate then non-surrogate", json: #"[{"a": "\uD83D\u0041"}]"#, line: 1, column: 9,
            message: "lone surrogate"),
        .init(name: "trailing comma in object", json: #"[{"a": 1,}]"#, line: 1, column: 9, message: "trailing comma"),
        .init(
            name: "trailing comma in array", json: #"[{"a": [1,2,]}]"#, line: 1, column: 12, message: "trailing comma"),
        .init(
            name: "trailing comma after records", json: "[\n  {\"a\":1},\n]", line: 2, column: 10,
            message: "trailing comma"),
        .init(name: "leading zero", json: #"[{"a": 012}]"#, line: 1, column: 8, message: "leading zeros"),
        .init(name: "negative leading zero", json: #"[{"a": -00.5}]"#, line: 1, column: 9, message: "leading zeros"),
        .init(name: "bare minus", json: #"[{"a": -}]"#, line: 1, column: 9, message: "a digit must follow '-'"),
        .init(name: "dot without digits", json: #"[{"a": 1.}]"#, line: 1, column: 10, message: "decimal point"),
        .init(name: "exponent without digits", json: #"[{"a": 1e}]"#, line: 1, column: 10, message: "exponent"),
        .init(name: "hex number", json: #"[{"a": 0x1F}]"#, line: 1, column: 9, message: "invalid number"),
        .init(
            name: "tab in string", json: "[{\"a\": \"x\ty\"}]", line: 1, column: 10, message: "control character U+0009"
        ),
        .init(
            name: "line break in string", json: "[{\"a\": \"x\ny\"}]", line: 1, column: 10,
            message: "unescaped line break"),
        .init(
            name: "trailing garbage", json: #"[{"a": 1}] x"#, line: 1, column: 12,
            message: "after the end of the top-level value"),
        .init(name: "second document", json: "[{\"a\": 1}]\n[]", line: 2, column: 1, message: "after the end"),
        .init(
            name: "bad literal", json: "[\n  {\"a\": 1},\n  {\"b\": tru}\n]", line: 3, column: 9,
            message: "invalid literal: expected true"),
        .init(
            name: "literal prefix", json: #"[{"b": nullx}]"#, line: 1, column: 8,
            message: "invalid literal: expected null"),
        .init(
            name: "column counts characters", json: #"[{"ä„": "x", "b": @}]"#, line: 1, column: 19,
            message: "expected a value, found '@'"),
        .init(name: "missing colon", json: #"[{"a" 1}]"#, line: 1, column: 7, message: "expected ':'"),
        .init(name: "missing comma", json: #"[{"a": 1 "b": 2}]"#, line: 1, column: 10, message: "expected ',' or '}'"),
        .init(name: "unquoted key", json: #"[{a: 1}]"#, line: 1, column: 3, message: "expected a string key"),
        .init(name: "single quotes", json: #"[{'a': 1}]"#, line: 1, column: 3, message: "expected a string key"),
        .init(name: "comment", json: "[{\"a\": 1} // no\n]", line: 1, column: 11, message: "expected ',' or ']'"),
        .init(name: "records not objects", json: "[1, 2]", line: 1, column: 2, message: "expected a record object"),
        .init(
            name: "top-level scalar", json: "42", line: 1, column: 1,
            message: "expected an array of records or an object"),
        .init(name: "truncated", json: "[{\"a\": [1, 2", line: 1, column: 13, message: "unexpected end of input"),
        .init(name: "after a BOM", json: "\u{FEFF}[{\"a\": x}]", line: 1, column: 8, message: "expected a value"),
    ]

    @Test(arguments: malformed)
    func malformedInput(_ example: Malformed) throws {
        let error = try #require(failure(example.json))
        #expect(error.code == .malformed)
        #expect(error.location == SourceLocation(source: "data.json", line: example.line, column: example.column))
        #expect(error.message.contains(example.message), "\(error.message)")
    }

    @Test func errorsNameTheField() throws {
        #expect(failure(#"[{"dims": {"w": 01}}]"#)?.field == "dims.w")
        #expect(failure(#"[{"tags": ["a", "b\x"]}]"#)?.field == "tags")
        #expect(failure(#"[{"a": 1},]"#)?.field == nil)
    }

    @Test func encodingErrors() throws {
        var latin1 = Data(#"[{"name": "M"#.utf8)
        latin1.append(0xFC)
        latin1.append(contentsOf: Array(#"ller"}]"#.utf8))
        let error = try #require(readError(JSONRecordReader(data: latin1, sourceName: "l.json")))
        #expect(error.code == .encoding)
        #expect(error.location == SourceLocation(source: "l.json", line: 1, column: 13))

        var utf16 = Data([0xFE, 0xFF])
        utf16.append(try #require(#"[{"a": 1}]"#.data(using: .utf16BigEndian)))
        let utf16Error = try #require(readError(JSONRecordReader(data: utf16, sourceName: "u.json")))
        #expect(utf16Error.code == .encoding)
        #expect(utf16Error.location == SourceLocation(source: "u.json", line: 1, column: 1))

        // Invalid sequences: overlong, surrogate code point, truncated at the end.
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x80]] {
            var data = Data("[\n{\"a\": \"ok\", \"b\": \"".utf8)
            data.append(contentsOf: bytes)
            if bytes.count != 2 || bytes[0] != 0xE2 { data.append(contentsOf: Array("\"}]".utf8)) }
            let error = try #require(readError(JSONRecordReader(data: data, sourceName: "x.json")))
            #expect(error.code == .encoding)
            #expect(error.location == SourceLocation(source: "x.json", line: 2, column: 19))
        }
    }

    @Test func errorsAfterRecordsStillThrow() throws {
        var seen = 0
        let error = importError {
            try JSONRecordReader(data: Data(#"[{"a": 1}, {"a": 2}, {"a": }]"#.utf8), sourceName: "x.json")
                .forEachRecord { _ in seen += 1 }
        }
        #expect(seen == 2)
        #expect(error?.location == SourceLocation(source: "x.json", line: 1, column: 28))
    }

    @Test func longValuesCrossChunkBoundaries() throws {
        // Values longer than the 64 KiB read size, with escapes and multi-byte characters.
        let long = String(repeating: "äb„c\\n", count: 40_000)
        let json = "[{\"a\": \"\(long)\", \"n\": \(String(repeating: "1", count: 70_000))}, {\"a\": \"x\"}]"
        let records = try read(json)
        #expect(records.count == 2)
        #expect(records[0].values(of: "a").first == String(repeating: "äb„c\n", count: 40_000))
        #expect(records[0].values(of: "n").first?.count == 70_000)
        #expect(records[1].field("a")?.location == SourceLocation(source: "data.json", line: 1, column: 310_026))
    }
}

import CatalogModel
import Foundation
import Testing

@Suite struct JSONInputTests {
    static let records: [Record] = [
        Record(id: "a", title: "Plain"),
        Record(
            id: "b\"<&>", title: "Quote \" backslash \\ tab\t newline\n nul\u{0} bell\u{7} </script> 😀",
            subtitle: "Á é ő ű", description: "line\r\nline", categories: ["x", "y\u{1F}"],
            price: Decimal(string: "24.90"), currency: "EUR", quantity: -3, country: "DE", image: "/images/x.png",
            featured: 2, section: "#",
            fields: [
                "text": .text("\u{2028}"), "number": .number("130"), "decimal": .number("-2.5"),
                "exponent": .number("1e3"),
                "yes": .bool(true), "no": .bool(false), "nothing": .null, "empty": .list([]),
                "mixed": .list([.text("a"), .number("2"), .null, .bool(true), .list([.text("nested")])]),
            ]),
    ]

    /// What `JSONOutput` writes, `Record(json:)` reads back exactly, and `JSONDecoder` agrees.
    @Test(arguments: records)
    func readsWhatTheWriterWrites(_ record: Record) throws {
        let bytes = record.jsonBytes
        #expect(try Record(json: bytes) == record)
        #expect(try Record(json: String(decoding: bytes, as: UTF8.self)) == record)
        // JSONDecoder reads numbers through Decimal: the same values, canonical literals.
        let decoded = try JSONDecoder().decode(Record.self, from: Data(bytes))
        var canonical = record
        canonical.fields = record.fields.mapValues(Self.canonical)
        #expect(decoded == canonical)
    }

    static func canonical(_ value: FieldValue) -> FieldValue {
        switch value {
        case .number(let literal): .number(DecimalText.format(Decimal(string: literal)!))
        case .list(let values): .list(values.map(canonical))
        default: value
        }
    }

    @Test func numberLiteralsAreKeptExactly() throws {
        // JSONDecoder goes through Decimal (1.50 becomes 1.5); the reader keeps the literal.
        let fields = try FieldValue.fields(json: #"{"a": 1.50, "b": 130, "c": -0.0, "d": 1E+400, "e": [1.10, 2]}"#)
        #expect(fields["a"] == .number("1.50"))
        #expect(fields["b"] == .number("130"))
        #expect(fields["c"] == .number("-0.0"))
        #expect(fields["d"] == .number("1E+400"))
        #expect(fields["e"] == .list([.number("1.10"), .number("2")]))
        var output = JSONOutput()
        output.fields(fields)
        #expect(
            String(decoding: output.bytes, as: UTF8.self) == #"{"a":1.50,"b":130,"c":-0.0,"d":1E+400,"e":[1.10,2]}"#)
        // A literal that is not a JSON number is written as a string, so the document stays valid.
        var invalid = JSONOutput()
        invalid.value(.number("12 kg"))
        #expect(String(decoding: invalid.bytes, as: UTF8.self) == #""12 kg""#)
    }

    @Test(arguments: [
        "", "{", #"{"id": "a", "title": "b""#, #"{"id": "a"}"#, #"{"id": 1, "title": "x"}"#,
        #"{"id": "a", "title": "b", "fields": {"x": {"nested": 1}}}"#, #"{"id": "a", "title": "b"} x"#,
        #"{"id": "a", "title": "b", "price": "12"}"#, #"{"id": "a", "title": "b", "quantity": 1.5}"#,
        #"{"id": "\u", "title": "b"}"#, #"{"id": "\ud800", "title": "b"}"#, "{\"id\": \"a\u{1}\", \"title\": \"b\"}",
        #"{"id": "a", "title": "b", "fields": {"x": 01}}"#, #"{"id": "a", "title": "b", "fields": {"x": tru}}"#,
    ])
    func malformedRecordsAreErrors(_ json: String) {
        #expect(throws: JSONInputError.self) { try Record(json: json) }
    }

    @Test func deepArraysAreRefused() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONInputError.self) { try FieldValue(json: deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try FieldValue(json: fine) }
    }

    @Test func valuesAsText() {
        let value = FieldValue.list([.text("a"), .number("2.50"), .null, .bool(false), .list([.text("b")])])
        #expect(value.values == ["a", "2.50", "false", "b"])
        #expect(value.joined == "a 2.50 false b")
        #expect(FieldValue.null.values.isEmpty)
        #expect(FieldValue.number("1e3").scalarText == "1e3")
    }
}

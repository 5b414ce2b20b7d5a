import CatalogModel
import Foundation
import Testing

@Suite struct RecordChangeBatchTests {
    typealias F = RecordChangeFixtures

    static let a = Record(id: "a", title: "A", price: Decimal(string: "1.50"), currency: "EUR")
    static let b = Record(id: "b", title: "B", categories: ["x", "y"])

    static func upsert(_ record: Record) -> String {
        #"{"upsert":"# + F.text(record.jsonBytes) + "}"
    }

    func problems(_ body: String, definition: CatalogDefinition = F.shop) -> [RecordProblem] {
        F.problems { () throws(RecordProblems) in try RecordChangeReader.batch(F.bytes(body), definition: definition) }
    }

    @Test func arrayAndNDJSONGiveTheSameChanges() throws {
        let expected: [RecordChange] = [.upsert(Self.a), .delete(id: "gone"), .upsert(Self.b)]
        let array = "[" + Self.upsert(Self.a) + #", {"delete": "gone"}, "# + Self.upsert(Self.b) + "]"
        #expect(try RecordChangeReader.batch(F.bytes(array), definition: F.shop) == expected)
        let lines =
            "\n" + Self.upsert(Self.a) + "\r\n\n   \n" + #"{"delete":"gone"}"# + "\n" + Self.upsert(Self.b) + "\n\n"
        #expect(try RecordChangeReader.batch(F.bytes(lines), definition: F.shop) == expected)
        // A byte order mark is skipped.
        #expect(try RecordChangeReader.batch([0xEF, 0xBB, 0xBF] + F.bytes(array), definition: F.shop) == expected)
    }

    @Test func aChangeNamesItsRecord() {
        #expect(RecordChange.upsert(Self.a).id == "a")
        #expect(RecordChange.delete(id: "gone").id == "gone")
    }

    @Test(arguments: ["", "  \n", "[]", " [ ] \n"])
    func emptyBatchIsNoChange(_ body: String) throws {
        #expect(try RecordChangeReader.batch(F.bytes(body), definition: F.shop) == [])
    }

    @Test func ndjsonPointersCountOperationsNotLines() {
        let body =
            #"{"delete":"x"}"# + "\n\n" + #"{"delete":"y"}"# + "\n\n\n"
            + #"{"upsert":{"id":"z","title":"Z","price":-2,"fields":{}}}"#
        #expect(problems(body) == [RecordProblem(pointer: "/2/upsert/price", message: "price must be a number ≥ 0")])
    }

    @Test func ndjsonLinesAfterABadLineAreStillRead() {
        let body =
            #"{"delete":"x"}"# + "\n" + #"{"delete": "# + "\n" + #"{"delete":"y"}"# + "\n" + #"{"delete":5}"# + "\n"
            + #"{"delete":"w"} {"delete":"v"}"#
        #expect(
            problems(body) == [
                RecordProblem(
                    pointer: "/1", message: "not JSON (byte 26: unexpected end of input where a value was expected)"),
                RecordProblem(pointer: "/3/delete", message: "delete must be an item id (a string), not a number"),
                RecordProblem(
                    pointer: "/4", message: "not JSON (byte 70: unexpected content after the operation (one a line))"),
            ])
    }

    @Test func arraySyntaxErrorStopsAtTheOperation() {
        #expect(
            problems(#"[{"delete":"x"}, {"delete" "y"}]"#)
                == [RecordProblem(pointer: "/1", message: "not JSON (byte 27: expected ':')")])
        #expect(
            problems(#"[{"delete":"x"} {"delete":"y"}]"#) == [
                RecordProblem(pointer: "", message: "not JSON (byte 16: expected ',' or ']')")
            ])
        #expect(
            problems(#"[{"delete":"x"}] x"#) == [
                RecordProblem(pointer: "", message: "not JSON (byte 17: unexpected content after the array)")
            ])
    }

    static let badOperations: [(String, String, String)] = [
        (#"["x"]"#, "/0", #"an operation must be an object: {"upsert": {…}} or {"delete": "ID"}"#),
        (#"[{}]"#, "/0", #"an operation needs "upsert" or "delete""#),
        (
            #"[{"upsert":{"id":"a","title":"A","fields":{}},"delete":"a"}]"#, "/0",
            #"an operation has "upsert" or "delete", not both"#
        ),
        (
            #"[{"delete":"a","remove":"b"}]"#, "/0/remove",
            #"unknown member "remove": an operation has "upsert" or "delete""#
        ),
        (#"[{"delete":"a","delete":"b"}]"#, "/0/delete", #""delete" appears twice"#),
        (#"[{"upsert":["a"]}]"#, "/0/upsert", "a record must be a JSON object, not a list"),
        (#"[{"delete":null}]"#, "/0/delete", "delete must be an item id (a string), not null"),
        (#"[{"upsert":{"title":"A","fields":{}}}]"#, "/0/upsert/id", "id must be a non-empty string"),
        (#"[{"upsert":{"name":"A"}}]"#, "/0/upsert/id", "id must be a non-empty string"),
        (
            #"{"delete":"a"}"# + "\n" + #"{"upsert":{"id":"a","title":"A","fields":{}}}"#, "/1/upsert/id",
            #"id "a" is already changed by operation 0"#
        ),
        (#"[{"delete":"a"},{"delete":"b"},{"delete":"a"}]"#, "/2/delete", #"id "a" is already changed by operation 0"#),
        (#""upsert""#, "", "a batch must be a JSON array of operations or NDJSON (one operation object a line)"),
    ]

    @Test(arguments: badOperations)
    func badOperationIsReportedAtItsPointer(body: String, pointer: String, message: String) {
        #expect(problems(body, definition: F.products) == [RecordProblem(pointer: pointer, message: message)])
    }

    @Test func exportShapedUpsertsNeedTheirIDField() {
        var definition = F.shop
        definition.mapping = [.id: "sku"]
        #expect(
            problems(#"[{"upsert":{"title":"A"}}]"#, definition: definition)
                == [RecordProblem(pointer: "/0/upsert/sku", message: "id must be a non-empty string")])
    }

    // MARK: - Records for `catalog put`

    @Test func recordsComeInEveryShape() throws {
        let a = F.text(Self.a.jsonBytes)
        let b = F.text(Self.b.jsonBytes)
        let shapes = [
            "[" + a + "," + b + "]",
            a + "\n" + b + "\n",
            #"{"items":["# + a + "," + b + #"],"next":null}"#,
            #"{"catalog-definition":{"id":"shop","records":[]},"records":["# + a + "," + b + "]}",
        ]
        for shape in shapes {
            #expect(try RecordChangeReader.records(F.bytes(shape), definition: F.shop) == [Self.a, Self.b], "\(shape)")
        }
        // One record spread over several lines is one record, and `items` of strings is a field.
        let pretty = "{\n  \"id\": \"r\",\n  \"title\": \"R\",\n  \"items\": [\"flour\", \"egg\"]\n}\n"
        #expect(
            try RecordChangeReader.records(F.bytes(pretty), definition: F.shop)
                == [Record(id: "r", title: "R", fields: ["items": .texts(["flour", "egg"])])])
    }

    @Test func recordsPointersFollowTheShape() {
        let bad = #"{"id":"c","title":"","fields":{}}"#
        let records = { (body: String) in
            F.problems { () throws(RecordProblems) in try RecordChangeReader.records(F.bytes(body), definition: F.shop)
            }
            .map(\.pointer)
        }
        #expect(records("[" + F.text(Self.a.jsonBytes) + "," + bad + "]") == ["/1/title"])
        #expect(records(#"{"items":["# + bad + "]}") == ["/items/0/title"])
        #expect(records(bad) == ["/title"])
        #expect(records(F.text(Self.a.jsonBytes) + "\n" + F.text(Self.a.jsonBytes)) == ["/1/id"])
        #expect(records("42") == [""])
    }

    // MARK: - Limits

    @Test func aRecordAtTheLimitIsReadAndOneByteMoreIsNot() throws {
        // Four fields of 60,000 bytes (each within its own limit), padded to the record's limit.
        let fields = (0..<4).map { #""f\#($0)":"\#(String(repeating: "v", count: 60_000))""# }.joined(separator: ",")
        let compact = #"{"id":"a","title":"T","fields":{"# + fields + "}}"
        let padding = String(repeating: " ", count: RecordChangeLimits.maxRecordBytes - compact.utf8.count)
        let exact = F.bytes("{" + padding + compact.dropFirst())
        #expect(exact.count == RecordChangeLimits.maxRecordBytes)
        #expect(try RecordChangeReader.record(exact, id: "a", definition: F.shop).fields.count == 4)
        let over = [0x20] + exact
        let tooLarge = "a record is at most 256 KiB of JSON (this one has 262145 bytes)"
        #expect(
            F.problems { () throws(RecordProblems) in try RecordChangeReader.record(over, id: "a", definition: F.shop) }
                == [RecordProblem(pointer: "", message: tooLarge)])
        // In a batch the record's own bytes count (the space before it is the operation's).
        #expect(problems(F.text(F.bytes(#"[{"upsert": "#) + exact + F.bytes("}]"))).isEmpty)
        let big = F.bytes(#"[{"upsert":{ "#) + exact.dropFirst() + F.bytes("}]")
        #expect(problems(F.text(big)) == [RecordProblem(pointer: "/0/upsert", message: tooLarge)])
    }

    @Test func aFieldValueAtTheLimitIsFine() throws {
        let value = String(repeating: "é", count: RecordChangeLimits.maxFieldValueBytes / 2)
        let body = F.bytes(#"{"title":"T","fields":{"n":["\#(value)"]}}"#)
        #expect(try RecordChangeReader.record(body, id: "a", definition: F.shop).fields["n"] == .texts([value]))
    }

    @Test func aBatchHoldsAtMostSoManyOperations() throws {
        func body(_ count: Int) -> [UInt8] {
            var text = "["
            for index in 0..<count {
                if index > 0 { text += "," }
                text += #"{"delete":"i\#(index)"}"#
            }
            return F.bytes(text + "]")
        }
        #expect(
            try RecordChangeReader.batch(body(RecordChangeLimits.maxOperations), definition: F.shop).count
                == RecordChangeLimits.maxOperations)
        #expect(
            problems(F.text(body(RecordChangeLimits.maxOperations + 1)))
                == [RecordProblem(pointer: "", message: "a batch holds at most 50000 operations")])
    }

    @Test func aBatchBodyHasALimit() {
        let body = [UInt8](repeating: 0x20, count: RecordChangeLimits.maxBatchBytes + 1)
        #expect(
            F.problems { () throws(RecordProblems) in try RecordChangeReader.batch(body, definition: F.shop) }
                == [RecordProblem(pointer: "", message: "a batch is at most 64 MiB (this one has 67108865 bytes)")])
    }

    @Test func problemsPastTheLimitAreCounted() {
        let body = "[" + (0..<150).map { _ in #"{"delete":""}"# }.joined(separator: ",") + "]"
        let found = problems(body)
        #expect(found.count == RecordChangeLimits.maxProblems + 1)
        #expect(found.prefix(2).map(\.pointer) == ["/0/delete", "/1/delete"])
        #expect(found.last == RecordProblem(pointer: "", message: "… and 50 more problems"))
    }
}

import CatalogModel
import Foundation
import Testing

@Suite struct MergePatchTests {
    typealias F = RecordChangeFixtures

    static let record = Record(
        id: "gulyas", title: "Gulyásleves", subtitle: "Bográcsban", categories: ["Levesek"],
        price: Decimal(string: "24.90"), currency: "HUF", section: "G",
        fields: ["weight": .number("1.50"), "title@de": .text("Gulaschsuppe"), "note": .null])

    func apply(_ patch: String, to record: Record = record) throws(RecordProblems) -> Record {
        try MergePatch.apply(F.bytes(patch), to: record, definition: F.shop)
    }

    func problems(_ patch: String, to record: Record = record) -> [RecordProblem] {
        F.problems { () throws(RecordProblems) in try apply(patch, to: record) }
    }

    @Test func membersReplaceAndNullRemoves() throws {
        var expected = Self.record
        expected.section = nil
        expected.title = "Gulasch"
        expected.subtitle = nil
        expected.categories = []
        expected.price = Decimal(string: "12.5")
        expected.currency = "EUR"
        #expect(
            try apply(#"{"title":"Gulasch","subtitle":null,"categories":null,"price":12.5,"currency":"eur"}"#)
                == expected)
    }

    @Test func fieldsAreMergedMemberByMember() throws {
        let patched = try apply(#"{"fields":{"weight":null,"color":"red","title@de":"Gulasch"}}"#)
        #expect(patched.fields == ["color": .text("red"), "title@de": .text("Gulasch"), "note": .null])
        #expect(try apply(#"{"fields":null}"#).fields == [:])
        #expect(try apply(#"{"fields":{}}"#).fields == Self.record.fields)
    }

    /// RFC 7396's examples (appendix A), on extra fields where a field value can be what the
    /// example holds; `expected` nil where the result holds an object, which no field can.
    static let rfcExamples: [(target: String, patch: String, expected: String?)] = [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":"foo"}"#, #"{"a":{"b":"c","d":null}}"#, nil),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"a":1,"e":null}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, nil),
    ]

    @Test(arguments: rfcExamples)
    func rfc7396Examples(target: String, patch: String, expected: String?) throws {
        var record = Self.record
        // A target that is no object of field values is replaced by the patch's object, as the RFC says.
        record.fields = (try? FieldValue.fields(json: target)) ?? [:]
        let patchDocument = #"{"fields":"# + patch + "}"
        if let expected {
            #expect(try apply(patchDocument, to: record).fields == FieldValue.fields(json: expected))
        } else {
            #expect(problems(patchDocument, to: record).map(\.pointer) == ["/fields/a"])
        }
    }

    @Test func unknownMembersPatchExtraFields() throws {
        let patched = try apply(#"{"weight":2,"note":null,"color":"red"}"#)
        #expect(patched.fields == ["weight": .number("2"), "title@de": .text("Gulaschsuppe"), "color": .text("red")])
        // After the rest of the patch: all fields go, then one comes.
        #expect(try apply(#"{"color":"red","fields":null}"#).fields == ["color": .text("red")])
        // Applying a patch twice is applying it once.
        #expect(try apply(#"{"weight":2,"note":null,"color":"red"}"#, to: patched) == patched)
        #expect(
            problems(#"{"weight":{"kg":2}}"#) == [
                RecordProblem(
                    pointer: "/weight",
                    message:
                        #"field "weight" must not hold an object (a field value is a string, number, boolean, null or list)"#
                )
            ])
        #expect(
            problems(#"{"weight":2,"fields":{"weight":3}}"#)
                == [RecordProblem(pointer: "/weight", message: #"field "weight" is given twice"#)])
        #expect(
            problems(#"{"weight":2,"fields":"x"}"#).map(\.pointer) == ["/fields"])
    }

    @Test func aPatchThatIsNoObjectReplacesTheRecord() {
        #expect(
            problems(#"["a","b"]"#) == [
                RecordProblem(pointer: "", message: "a record must be a JSON object, not a list")
            ])
        #expect(problems("null") == [RecordProblem(pointer: "", message: "a record must be a JSON object, not null")])
    }

    @Test func theIDCannotChange() throws {
        #expect(try apply(#"{"id":"gulyas","title":"G"}"#).title == "G")
        let message = #"id cannot be changed by a patch (the item's id is "gulyas")"#
        #expect(problems(#"{"id":"other"}"#) == [RecordProblem(pointer: "/id", message: message)])
        #expect(problems(#"{"id":null}"#) == [RecordProblem(pointer: "/id", message: message)])
    }

    @Test func theResultIsCheckedAsAPutBody() {
        #expect(
            problems(#"{"title":null,"price":"cheap","fields":{"x":{"y":1}},"country":"Hungary"}"#).map(\.pointer)
                == ["/fields/x", "/price", "/title", "/country"])
        #expect(problems(#"{"title":"a","title":"b"}"#).map(\.pointer).contains("/title"))
    }

    @Test func aPatchMustBeJSONAndWithinTheLimit() {
        #expect(
            problems(#"{"title":}"#) == [
                RecordProblem(pointer: "", message: "not JSON (byte 9: expected a value that is not an object)")
            ])
        let large = #"{"fields":{"n":""# + String(repeating: "x", count: RecordChangeLimits.maxRecordBytes) + #""}}"#
        #expect(problems(large).map(\.pointer) == [""])
    }

    @Test func aPatchedRecordHasALimitToo() {
        var record = Self.record
        for index in 0..<5 { record.fields["f\(index)"] = .text(String(repeating: "x", count: 60_000)) }
        #expect(
            problems(#"{"fields":{"f5":"\#(String(repeating: "y", count: 60_000))"}}"#, to: record).map(\.pointer) == [
                ""
            ])
    }

    // MARK: - Assignments

    func patch(_ assignments: [String], typed: Bool = false) throws(RecordProblems) -> String {
        F.text(try MergePatch.patch(assignments: assignments, typed: typed))
    }

    @Test func assignmentsBecomeAPatch() throws {
        #expect(
            try patch([
                "title=Hello", "price=12.50", "quantity=-3", "weight=3 kg", "title@de=Hallo", "subtitle=", "note=a=b",
            ])
                == #"{"title":"Hello","price":12.50,"quantity":-3,"subtitle":null,"fields":{"weight":"3 kg","title@de":"Hallo","note":"a=b"}}"#
        )
        #expect(try patch(["categories=Soups, Hungarian ,x"]) == #"{"categories":["Soups","Hungarian","x"]}"#)
        #expect(try patch([]) == "{}")
    }

    @Test func typedAssignmentsAreJSON() throws {
        #expect(
            try patch(
                [#"categories=["a,b"]"#, "featured=1", "vegan=true", "sizes=[1, 2.50]", "old=null", #"title="T""#],
                typed: true)
                == #"{"categories":["a,b"],"featured":1,"title":"T","fields":{"vegan":true,"sizes":[1,2.50],"old":null}}"#
        )
    }

    static let badAssignments: [([String], Bool, String, String)] = [
        (["title"], false, "", #"assignment "title" must be FIELD=VALUE"#),
        (["=x"], false, "", #"assignment "=x" needs a field name before "=""#),
        (["id=x"], false, "/id", "id cannot be set: it names the item"),
        (["price=cheap"], false, "/price", #"price must be a number, not "cheap""#),
        (["title=a", "title=b"], false, "/title", #""title" is assigned twice"#),
        (["w=1", "w="], false, "/fields/w", #""w" is assigned twice"#),
        (
            ["title=Hello"], true, "/title",
            #"the value of "title" is not JSON (byte 0: expected a value that is not an object) (quote a text: '"…"')"#
        ),
    ]

    @Test(arguments: badAssignments)
    func badAssignmentsAreProblems(assignments: [String], typed: Bool, pointer: String, message: String) {
        let found = F.problems { () throws(RecordProblems) in
            try MergePatch.patch(assignments: assignments, typed: typed)
        }
        #expect(found == [RecordProblem(pointer: pointer, message: message)])
    }

    @Test func assignmentsApplied() throws {
        let patch = try MergePatch.patch(
            assignments: ["price=9", "categories=A,B", "weight=", "title@en=Goulash"], typed: false)
        let patched = try MergePatch.apply(patch, to: Self.record, definition: F.shop)
        #expect(patched.price == 9)
        #expect(patched.categories == ["A", "B"])
        #expect(patched.fields == ["title@de": .text("Gulaschsuppe"), "title@en": .text("Goulash"), "note": .null])
        let bad = try MergePatch.patch(assignments: ["categories=A,,A", "title@xx9=?"], typed: false)
        #expect(
            F.problems { () throws(RecordProblems) in try MergePatch.apply(bad, to: Self.record, definition: F.shop) }
                .map(\.pointer) == ["/categories/1", "/categories/2", "/fields/title@xx9"])
    }
}

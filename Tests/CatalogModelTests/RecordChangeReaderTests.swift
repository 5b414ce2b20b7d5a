import CatalogModel
import Foundation
import Testing

@Suite struct RecordChangeReaderTests {
    typealias F = RecordChangeFixtures

    static let roundTrips: [Record] = [
        Record(id: "a", title: "Plain"),
        F.full,
        Record(
            id: "ünï/cødé ~ id", title: "Quote \" backslash \\ </script> 😀", categories: ["x"],
            price: Decimal(string: "0.05"), currency: "EUR", fields: ["title@und": .text("Untagged")]),
    ]

    /// A record's API JSON is read back to the same record, by every reader.
    @Test(arguments: roundTrips)
    func apiJSONReadsBackToTheSameRecord(_ record: Record) throws {
        var stored = record
        stored.section = "G"
        let json = stored.jsonBytes
        #expect(try RecordChangeReader.record(json, id: record.id, definition: F.shop) == record)
        let batch = F.bytes(#"[{"upsert": "#) + json + F.bytes("}]")
        #expect(try RecordChangeReader.batch(batch, definition: F.shop) == [.upsert(record)])
        #expect(try RecordChangeReader.records(F.bytes("[") + json + F.bytes("]"), definition: F.shop) == [record])
        #expect(try RecordChangeReader.records(json, definition: F.shop) == [record])
    }

    @Test func searchHitMembersAreIgnored() throws {
        let body = F.bytes(
            #"{"id":"a","title":"T","section":"T","matches":[{"field":"title","start":0,"length":1}],"snippet":null,"fields":{}}"#
        )
        #expect(try RecordChangeReader.record(body, id: "a", definition: F.shop) == Record(id: "a", title: "T"))
    }

    @Test func pathIDWinsAndADifferentBodyIDIsAProblem() throws {
        let body = F.bytes(#"{"title":"T","fields":{}}"#)
        #expect(try RecordChangeReader.record(body, id: "from-path", definition: F.shop).id == "from-path")
        let other = F.bytes(#"{"id":"b","title":"T","fields":{}}"#)
        #expect(
            F.problems { () throws(RecordProblems) in try RecordChangeReader.record(other, id: "a", definition: F.shop)
            }
                == [RecordProblem(pointer: "/id", message: #"id "b" differs from the item's id "a""#)])
    }

    @Test func unknownMembersAndEmptyTextsAreReadAsImportsReadThem() throws {
        let body = F.bytes(
            #"{"id":"a","title":"T","subtitle":"","image":null,"categories":null,"weight":2.50,"fields":{"sku":"A-1"}}"#
        )
        let record = try RecordChangeReader.record(body, id: "a", definition: F.shop)
        #expect(record == Record(id: "a", title: "T", fields: ["weight": .number("2.50"), "sku": .text("A-1")]))
    }

    @Test func codesAreUpperCased() throws {
        let body = F.bytes(#"{"id":"a","title":"T","currency":"eur","country":"hu","fields":{}}"#)
        let record = try RecordChangeReader.record(body, id: "a", definition: F.shop)
        #expect(record.currency == "EUR")
        #expect(record.country == "HU")
    }

    @Test func priceIsExact() throws {
        let body = F.bytes(#"{"id":"a","title":"T","price":12345678901234567890.123456789012345678,"fields":{}}"#)
        let record = try RecordChangeReader.record(body, id: "a", definition: F.shop)
        #expect(record.price == Decimal(string: "12345678901234567890.123456789012345678"))
        #expect(DecimalText.format(record.price!) == "12345678901234567890.123456789012345678")
    }

    // MARK: - The export's shape

    @Test func exportedRecordsReadBack() throws {
        let products = [
            Record(
                id: "p1", title: "Widget", subtitle: "Acme", description: "Small", categories: ["Tools"],
                price: Decimal(string: "9.99"), currency: "USD", quantity: 3,
                fields: ["weight": .number("1.50"), "title@de": .text("Dings"), "tags": .texts(["a"])]),
            Record(id: "p2", title: "Gadget", categories: ["Tools", "Garden"], fields: ["weight": .null]),
        ]
        let document = F.exportDocument(products, definition: F.products)
        #expect(try RecordChangeReader.records(document, definition: F.products) == products)
        let batch = products.map { F.bytes(#"{"upsert":"#) + F.exportObject($0, definition: F.products) + F.bytes("}") }
            .joined(separator: F.bytes("\n"))
        #expect(try RecordChangeReader.batch(Array(batch), definition: F.products) == products.map { .upsert($0) })
        #expect(
            try RecordChangeReader.record(
                F.exportObject(products[0], definition: F.products), id: "p1", definition: F.products)
                == products[0])
    }

    @Test func exportWithDerivedIDsAndMappedCategoriesReadsBack() throws {
        let programs = [
            Record(
                id: "klangwerk-studio", title: "Klangwerk Studio", description: "DAW", categories: ["Apple", "Windows"]),
            Record(id: "taktraum", title: "Taktraum", categories: ["Windows"]),
        ]
        let document = F.exportDocument(programs, definition: F.sequencers)
        #expect(!F.text(document).contains(#""id":"klangwerk"#))
        #expect(F.text(document).contains(#""Kategorie":"MAC OS X Windows""#))
        #expect(try RecordChangeReader.records(document, definition: F.sequencers) == programs)
    }

    @Test func exportShapeIsReadAsAnImportReadsIt() throws {
        let body = F.bytes(
            #"{"TitelText":"  Ötzi Drums ","Kategorie":"MAC OS X Windows","price":"12,50","Extra":[1,[2]]}"#)
        let records = try RecordChangeReader.records(body, definition: F.sequencers)
        #expect(
            records == [
                Record(
                    id: "otzi-drums", title: "Ötzi Drums", categories: ["Apple", "Windows"],
                    price: Decimal(string: "12.5"),
                    fields: ["Extra": .list([.number("1"), .number("2")])])
            ])
        // The same titles in one body get the ids an import gives them.
        let two = F.bytes("[" + #"{"TitelText":"Ötzi Drums"},{"TitelText":"Ötzi drums!"}"# + "]")
        #expect(
            try RecordChangeReader.records(two, definition: F.sequencers).map(\.id) == ["otzi-drums", "otzi-drums-2"])
    }

    @Test func exportPricesTheAPICannotCarryAreProblems() {
        let body = F.bytes(#"{"id":"a","title":"T","price":"1234567890123456789012345678901234567890,5"}"#)
        #expect(
            F.problems { () throws(RecordProblems) in try RecordChangeReader.record(body, id: "a", definition: F.shop) }
                == [RecordProblem(pointer: "/price", message: "price must have at most 38 significant digits")])
    }

    @Test func theAPIsJSONOfARecordHasTheLimitToo() {
        // `<` is written `\u003c`: 50,000 of them are 300,000 bytes of JSON.
        let body = F.bytes(
            #"{"title":"T","fields":{"#
                + (0..<5).map { #""f\#($0)":"\#(String(repeating: "<", count: 10_000))""# }.joined(separator: ",")
                + "}}")
        #expect(body.count < RecordChangeLimits.maxRecordBytes)
        let problems = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(body, id: "a", definition: F.shop)
        }
        #expect(problems.map(\.pointer) == [""])
        #expect(problems.first?.message.hasPrefix("a record is at most 256 KiB of JSON (this one has 300") == true)
    }

    @Test func exportTranslationsPickTheCatalogsLanguage() throws {
        var definition = F.sequencers
        definition.language = "de"
        let body = F.bytes(#"{"TitelText@de":"Apfel","TitelText":"Apple","TitelText@fr":"Pomme","id":"apfel"}"#)
        let record = try RecordChangeReader.record(body, id: "apfel", definition: definition)
        #expect(record.title == "Apfel")
        #expect(record.fields == ["title@und": .text("Apple"), "title@fr": .text("Pomme")])
        // And the export of that record gives the same body back.
        #expect(
            try RecordChangeReader.record(
                F.exportObject(record, definition: definition), id: "apfel", definition: definition) == record)
    }

    @Test func exportShapeProblemsAreAtTheSourceNames() {
        let body = F.bytes(#"{"TitelText":" ","price":"12 EUR","quantity":"many","currency":"EURO","Extra":{"a":1}}"#)
        let problems = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.batch(F.bytes(#"[{"upsert":"#) + body + F.bytes("}]"), definition: F.sequencers)
        }
        #expect(
            problems == [
                RecordProblem(
                    pointer: "/0/upsert/Extra",
                    message:
                        #""Extra" must not hold an object (a field value is a string, number, boolean, null or list)"#),
                RecordProblem(
                    pointer: "/0/upsert/TitelText",
                    message: #"title must be a non-empty string (the catalog reads it from "TitelText")"#),
                RecordProblem(pointer: "/0/upsert/price", message: #"price "12 EUR" is not a number"#),
                RecordProblem(pointer: "/0/upsert/quantity", message: #"quantity "many" is not a whole number"#),
                RecordProblem(pointer: "/0/upsert/id", message: "id must be a non-empty string"),
                RecordProblem(pointer: "/0/upsert/currency", message: #"currency "EURO" is not an ISO 4217 code"#),
            ])
    }

    @Test func aTitleUnderTheRoleNameIsTheAPIShape() throws {
        // The catalog's source calls the title TitelText; a body that says "title" (and not
        // TitelText) is the API's shape, even without `fields`.
        let record = try RecordChangeReader.record(
            F.bytes(#"{"title":"T","weight":2}"#), id: "t", definition: F.sequencers)
        #expect(record.title == "T")
        #expect(record.fields["weight"] == .number("2"))
        // With the source's own name it is the export's shape.
        let export = try RecordChangeReader.record(F.bytes(#"{"TitelText":"U"}"#), id: "u", definition: F.sequencers)
        #expect(export.title == "U")
    }

    // MARK: - Checks

    static let checks: [(String, String, String)] = [
        (#""title":"""#, "/title", "title must be a non-empty string"),
        (#""title":"  \n""#, "/title", "title must be a non-empty string"),
        (#""title":5"#, "/title", "title must be a non-empty string"),
        (#""title":"a\u0000b""#, "/title", "title must not contain NUL (U+0000)"),
        (#""price":-1"#, "/price", "price must be a number ≥ 0"),
        (#""price":"12""#, "/price", "price must be a number ≥ 0 or null"),
        (#""price":1e3"#, "/price", "price must be a number ≥ 0 written without an exponent"),
        (
            #""price":1234567890123456789012345678901234567890"#, "/price",
            "price must have at most 38 significant digits"
        ),
        (#""currency":"EURO""#, "/currency", #"currency "EURO" is not an ISO 4217 code"#),
        (#""currency":"hrk""#, "/currency", #"currency "HRK" is not an active ISO 4217 code"#),
        (#""currency":"XYZ""#, "/currency", #"currency "XYZ" is not an active ISO 4217 code"#),
        (#""currency":978"#, "/currency", "currency must be a string or null"),
        (#""country":"DEU""#, "/country", #"country "DEU" is not a two-letter ISO 3166 code"#),
        (#""categories":"a""#, "/categories", "categories must be a list of strings"),
        (#""categories":["a",1]"#, "/categories/1", "a category must be a string, not a number"),
        (#""categories":["a",""]"#, "/categories/1", "a category must be a non-empty string"),
        (#""categories":["a","a"]"#, "/categories/1", #"category "a" is listed twice"#),
        (#""categories":[" a"]"#, "/categories/0", #"category " a" must not start or end with white space"#),
        (
            #""categories":["\#(String(repeating: "x", count: 201))"]"#, "/categories/0",
            "a category must be at most 200 characters"
        ),
        (#""quantity":1.5"#, "/quantity", "quantity must be a whole number (without a point or an exponent)"),
        (
            #""quantity":99999999999999999999"#, "/quantity",
            "quantity must be a whole number from -9223372036854775808 to 9223372036854775807"
        ),
        (#""quantity":"3""#, "/quantity", "quantity must be a whole number or null"),
        (#""featured":0"#, "/featured", "featured must be a whole number ≥ 1 or null"),
        (
            #""featured":18446744073709551616"#, "/featured",
            "featured must be a whole number from 1 to 9223372036854775807"
        ),
        (#""featured":true"#, "/featured", "featured must be a whole number ≥ 1 or null"),
        (#""image":5"#, "/image", "image must be a string or null"),
        (#""subtitle":[]"#, "/subtitle", "subtitle must be a string or null"),
        (#""description":{}"#, "/description", "description must be a string or null"),
        (
            #""description":"\#(String(repeating: "x", count: 65537))""#, "/description",
            "description must be at most 64 KiB of UTF-8"
        ),
        (
            #""fields":{"a":{"b":1}}"#, "/fields/a",
            #"field "a" must not hold an object (a field value is a string, number, boolean, null or list)"#
        ),
        (
            #""fields":{"a":[1,[{"b":1}]]}"#, "/fields/a/1/0",
            #"field "a" must not hold an object (a field value is a string, number, boolean, null or list)"#
        ),
        (
            #""fields":{"a/b~c":{}}"#, "/fields/a~1b~0c",
            #"field "a/b~c" must not hold an object (a field value is a string, number, boolean, null or list)"#
        ),
        (#""fields":{"":1}"#, "/fields/", "a field name must not be empty"),
        (
            #""fields":{"\#(String(repeating: "n", count: 201))":1}"#, "/fields/" + String(repeating: "n", count: 201),
            "a field name must be at most 200 bytes of UTF-8"
        ),
        (#""fields":{"a\u0007":1}"#, "/fields/a\u{7}", #"field name "a\u{7}" must not contain control characters"#),
        (
            #""fields":{"title@xx1":"T"}"#, "/fields/title@xx1",
            #"field "title@xx1": "xx1" is not a language tag for title"#
        ),
        (
            #""fields":{"n":"\#(String(repeating: "x", count: 65537))"}"#, "/fields/n",
            #"field "n" must be at most 64 KiB of UTF-8"#
        ),
        (#""fields":{"n":["\u0000"]}"#, "/fields/n", #"field "n" must not contain NUL (U+0000)"#),
        (#""fields":{"n":1,"n":2}"#, "/fields/n", #""n" appears twice"#),
        (#""n":1,"fields":{"n":2}"#, "/fields/n", #"field "n" is given twice"#),
        (#""id":"a","id":"a""#, "/id", #""id" appears twice"#),
    ]

    /// Each bad value is reported at its pointer with a message that names it.
    @Test(arguments: checks)
    func badValueIsReportedAtItsPointer(member: String, pointer: String, message: String) {
        var members = [member]
        if !member.hasPrefix(#""title""#) { members.append(#""title":"Fine""#) }
        if !member.contains(#""fields""#) { members.append(#""fields":{}"#) }
        let body = F.bytes("{" + members.joined(separator: ",") + "}")
        let problems = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(body, id: "a", definition: F.shop)
        }
        #expect(problems == [RecordProblem(pointer: pointer, message: message)])
    }

    static let badIDs: [(String, String)] = [
        ("", "id must be a non-empty string"),
        (String(repeating: "i", count: 513), "id must be at most 512 bytes of UTF-8"),
        ("a\u{1}b", "id must not contain control characters"),
        ("a\u{85}b", "id must not contain control characters"),
        (" a", "id must not start or end with white space"),
    ]

    @Test(arguments: badIDs)
    func badIDsAreProblemsAtTheID(id: String, message: String) {
        let body = F.bytes(#"{"title":"T","fields":{}}"#)
        #expect(
            F.problems { () throws(RecordProblems) in try RecordChangeReader.record(body, id: id, definition: F.shop) }
                == [RecordProblem(pointer: "/id", message: message)])
        #expect(
            F.problems { () throws(RecordProblems) in
                try RecordChangeReader.batch(
                    F.bytes(#"[{"delete":"# + RecordChangeFixtures.jsonString(id) + "}]"), definition: F.shop)
            } == [RecordProblem(pointer: "/0/delete", message: message)])
    }

    @Test func idsAtTheLimitsAreFine() throws {
        let id = String(repeating: "é", count: 256)
        #expect(
            try RecordChangeReader.record(F.bytes(#"{"title":"T","fields":{}}"#), id: id, definition: F.shop).id == id)
    }

    @Test func everyBadFieldIsListed() {
        let body = F.bytes(#"{"id":"a","title":"","price":-1,"currency":"EURO","featured":0,"fields":{"x":{}}}"#)
        let problems = F.problems { () throws(RecordProblems) in
            try RecordChangeReader.record(body, id: "a", definition: F.shop)
        }
        #expect(problems.map(\.pointer) == ["/fields/x", "/title", "/price", "/currency", "/featured"])
    }

    @Test func translationNamesTheSourceHadAreKept() throws {
        // An XML attribute the source had (`<title lang="…">`) is a field, not a translation.
        var definition = F.shop
        definition.fieldOrder = ["title", "title@lang"]
        definition.translatedFields = ["name"]
        let body = F.bytes(
            #"{"title":"T","fields":{"title@lang":"x","title@pt_BR":"y","name@de":"z","price@currency":"EUR"}}"#)
        #expect(try RecordChangeReader.record(body, id: "a", definition: definition).fields.count == 4)
        let bad = F.bytes(#"{"title":"T","fields":{"name@germanic":"z"}}"#)
        #expect(
            F.problems { () throws(RecordProblems) in
                try RecordChangeReader.record(bad, id: "a", definition: definition)
            }
            .map(\.pointer) == ["/fields/name@germanic"])
    }

    @Test func problemsDescribeThemselvesOneALine() {
        let problems = RecordProblems([
            RecordProblem(pointer: "", message: "not JSON (byte 3: expected ':')"),
            RecordProblem(pointer: "/price", message: "price must be a number ≥ 0"),
        ])
        #expect(problems.description == "not JSON (byte 3: expected ':')\n/price: price must be a number ≥ 0")
    }
}

extension RecordChangeFixtures {
    /// `text` as a JSON string.
    static func jsonString(_ text: String) -> String {
        var output = JSONOutput()
        output.string(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

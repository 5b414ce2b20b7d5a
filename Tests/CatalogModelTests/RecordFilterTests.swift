import CatalogModel
import Foundation
import Testing

@Suite struct RecordFilterTests {
    @Test func clausesParseIntoTheSearchTerms() throws {
        let filter = try RecordFilter(
            parsing: "country = de,AT AND category = 'Main dishes' and price >= 10 and price <= 50.5")
        #expect(filter.countries?.map(\.text) == ["DE", "AT"])
        #expect(filter.categories == ["Main dishes"])
        #expect(filter.price == NumericRange(lower: 10, upper: Decimal(string: "50.5")))
        #expect(filter.description == #"category = "Main dishes" and country = DE,AT and price = 10..50.5"#)
        #expect(try RecordFilter(parsing: filter.description) == filter, "the canonical text parses back")
        #expect(try RecordFilter(parsing: #"category = "say ""hi"""  "#).categories == [#"say "hi""#])
        #expect(try RecordFilter(parsing: "price = ..50").price == NumericRange(lower: nil, upper: 50))
    }

    @Test(arguments: [
        ("", "expected a field (category, country or price) (at character 1 of the filter)"),
        (
            "colour red",
            "expected =, !=, <, <=, >, >=, a range (a..b), IN, EXISTS or IS EMPTY after 'colour', found 'red' "
                + "(at character 8 of the filter)"
        ),
        ("country < DE and colour = red", "country takes = (at character 9 of the filter)"),
        (
            "colour = red and country < DE",
            "country takes =, !=, IN, EXISTS or IS EMPTY (at character 18 of the filter)"
        ),
        (
            "country = Germany and colour = red",
            "'Germany' is not a two-letter ISO 3166 code (at character 11 of the filter)"
        ),
        ("country = Germany", "'Germany' is not a two-letter ISO 3166 code (at character 11 of the filter)"),
        ("country >= DE", "country takes = (at character 9 of the filter)"),
        ("price = cheap", "'cheap' is not a price or a range such as 10..50 (at character 9 of the filter)"),
        ("category = 'open", "the quote opened here is not closed (at character 12 of the filter)"),
        ("category =", "expected a value (at character 11 of the filter)"),
    ])
    func badFiltersSayWhatAndWhere(text: String, message: String) {
        #expect(throws: RecordFilterError.self) { try RecordFilter(parsing: text) }
        do {
            _ = try RecordFilter(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// A filter the clauses cannot say is read in the filter language, on any field.
    @Test func anythingElseIsReadInTheFilterLanguage() throws {
        let filter = try RecordFilter(parsing: "colour = red AND (size > 2 OR NOT country = de)")
        #expect(filter.expression != nil && filter.categories.isEmpty && filter.countries == nil)
        #expect(try RecordFilter(parsing: filter.description) == filter, "the canonical text parses back")
        var red = Record(id: "r", title: "Red", country: "DE", fields: ["colour": .text("RED"), "size": .number("3")])
        #expect(filter.matches(red))
        red.fields["size"] = .number("1")
        #expect(!filter.matches(red), "size 1 in Germany")
        red.country = "AT"
        #expect(filter.matches(red))
        red.fields["colour"] = nil
        #expect(!filter.matches(red))
        // Searches carry it as a restriction, never as the request's own filter.
        let narrowed = filter.narrowing(SearchRequest(query: "x", filter: try FilterExpression(parsing: "a = 1")))
        #expect(narrowed.restriction == filter.expression)
        #expect(narrowed.filter == (try FilterExpression(parsing: "a = 1")))
        #expect(try RecordFilter(parsing: "price 10..20").expression != nil)
        #expect(throws: RecordFilterError.self) { try RecordFilter(parsing: "price = cheap AND a = b") }
    }

    @Test func recordsPassOrNot() throws {
        let filter = try RecordFilter(parsing: "country = DE,AT and category = Tools and price <= 50")
        let anvil = Record(id: "a", title: "Anvil", categories: ["Tools", "Iron"], price: 40, country: "de")
        #expect(filter.matches(anvil))
        var other = anvil
        other.country = "FR"
        #expect(!filter.matches(other))
        other = anvil
        other.price = 60
        #expect(!filter.matches(other))
        other.price = nil
        #expect(!filter.matches(other), "no price is in no range")
        other = anvil
        other.categories = ["Iron"]
        #expect(!filter.matches(other))
    }

    @Test func searchesAreNarrowedNeverWidened() throws {
        let filter = try RecordFilter(parsing: "country = DE,AT and category = Tools and price = 10..50")
        var request = SearchRequest(query: "anvil", categories: ["Iron"], countries: ["at", "FR"])
        request.price = NumericRange(lower: 20, upper: nil)
        let narrowed = filter.narrowing(request)
        #expect(narrowed.query == "anvil")
        #expect(narrowed.categories == ["Iron", "Tools"])
        #expect(narrowed.countries == ["AT"])
        #expect(narrowed.price == NumericRange(lower: 20, upper: 50))
        let open = filter.narrowing(SearchRequest(query: ""))
        #expect(open.countries == ["DE", "AT"] && open.price == NumericRange(lower: 10, upper: 50))
        // Countries that exclude each other find nothing.
        let none = filter.narrowing(SearchRequest(query: "", countries: ["FR"]))
        #expect(none.price.map { !$0.contains(20) && !$0.contains(0) } == true)
    }
}

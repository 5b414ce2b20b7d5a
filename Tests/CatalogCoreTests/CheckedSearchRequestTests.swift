import CatalogCore
import CatalogModel
import Foundation
import Testing

/// A search request is checked once, in one wording per mistake, before any search runs it.
@Suite struct CheckedSearchRequestTests {
    static let long = String(repeating: "a", count: CatalogLimits.maxTextLength + 1)
    static let many = (0...CatalogLimits.maxFilters).map { "c\($0)" }

    @Test(arguments: [
        (SearchRequest(query: CheckedSearchRequestTests.long), "'q' is longer than 200 characters"),
        (SearchRequest(query: "", scope: CheckedSearchRequestTests.long), "'scope' is longer than 200 characters"),
        (SearchRequest(query: "", limit: 0), "'limit' must be a whole number from 1 to 200"),
        (SearchRequest(query: "", limit: 201), "'limit' must be a whole number from 1 to 200"),
        (SearchRequest(query: "", categories: CheckedSearchRequestTests.many), "at most 20 'category' values"),
        (
            SearchRequest(query: "", categories: [CheckedSearchRequestTests.long]),
            "'category' is longer than 200 characters"
        ),
        (SearchRequest(query: "", countries: CheckedSearchRequestTests.many), "at most 20 'country' values"),
        (SearchRequest(query: "", countries: ["DEU"]), "'country' must be a two-letter ISO 3166 code"),
        (SearchRequest(query: "", countries: ["D1"]), "'country' must be a two-letter ISO 3166 code"),
        (SearchRequest(query: "", after: ""), "'after' is not a cursor"),
        (SearchRequest(query: "", after: String(repeating: "A", count: 4097)), "'after' is not a cursor"),
    ])
    func eachMistakeHasItsWording(request: SearchRequest, message: String) {
        #expect(throws: SearchRequestError(message)) { try SearchRequest.Checked(request) }
    }

    @Test func aCheckedRequestIsNormalized() throws {
        let request = SearchRequest(
            query: "lamp", scope: "", categories: ["", "Tools"], countries: ["de", "", "At"],
            price: NumericRange(lower: 10, upper: nil), facets: [.country], sort: .priceDescending, after: "abc",
            limit: CatalogLimits.maxSearchLimit)
        let checked = try request.checked()
        #expect(checked.query == "lamp" && checked.scope == nil && checked.categories == ["Tools"])
        #expect(checked.countries.map(\.text) == ["DE", "AT"])
        #expect(checked.price == NumericRange(lower: 10, upper: nil) && checked.facets == [.country])
        #expect(checked.sort == .priceDescending && checked.after == "abc" && checked.limit == 200)
        #expect(try SearchRequest(query: "x", limit: 1).checked().limit == 1)
    }

    @Test func anOrderMadeInCodeIsCheckedAsAParameterIs() throws {
        let many = SearchSort(keys: (1...5).map { SearchSort.Key(.field("f\($0)")) })
        #expect(throws: SearchRequestError("'sort' takes at most 4 keys")) {
            try SearchRequest(query: "", sort: many).checked()
        }
        let comma = SearchSort(keys: [SearchSort.Key(.field("a,b"))])
        #expect(throws: SearchRequestError.self) { try SearchRequest(query: "", sort: comma).checked() }
        #expect(try SearchRequest(query: "", sort: .priceDescending).checked().sort == .priceDescending)
    }

    @Test func parametersAreParsedInOneWording() throws {
        #expect(try SearchSort(parameter: "-price") == .priceDescending)
        #expect(
            try SearchSort(parameter: "Year,-Horsepower")
                == SearchSort(keys: [
                    SearchSort.Key(.field("Year")), SearchSort.Key(.field("Horsepower"), descending: true),
                ]))
        #expect(
            try SearchSort(parameter: "-price,title")
                == SearchSort(keys: [
                    SearchSort.Key(.price, descending: true), SearchSort.Key(.title),
                ]))
        for order in SearchSort.allCases + [try SearchSort(parameter: "Year,-Horsepower,title")] {
            #expect(try SearchSort(parameter: order.rawValue) == order)
        }
        for (bad, message) in [
            ("a,b,c,d,e", "'sort' takes at most 4 keys"),
            ("title,,price", "'sort' has an empty key: each is title, price or a field's name"),
            ("-", "'sort' has an empty key: each is title, price or a field's name"),
            ("relevance,title", "'sort' takes relevance alone, not as one of several keys"),
            ("Year,-Year", "'sort' names \"Year\" twice"),
            (String(repeating: "x", count: 201), "'sort' names a field longer than 200 bytes"),
        ] {
            #expect(throws: SearchRequestError(message), "\(bad)") { try SearchSort(parameter: bad) }
        }
        #expect(try SearchFacet.list(parameter: "categories,country") == [.categories, .country])
        #expect(try SearchFacet.list(parameter: "category,Origin") == [.categories, .field("Origin")])
        // A filter's size and depth are bounded.
        let condition = FilterExpression.condition(FilterCondition(field: "Year", test: .exists))
        var deep = condition
        for _ in 0..<40 { deep = .not(deep) }
        #expect(throws: SearchRequestError("'filter' nests more than 32 levels deep")) {
            try SearchRequest(query: "", filter: deep).checked()
        }
        #expect(throws: SearchRequestError("'filter' has more than 100 conditions")) {
            try SearchRequest(query: "", filter: .or(Array(repeating: condition, count: 101))).checked()
        }
        #expect(try SearchRequest(query: "", filter: .and([condition, .not(condition)])).checked().filter != nil)
        #expect(
            throws: SearchRequestError(
                "'facets' takes categories, country or field names, comma-separated; \"a\u{7}b\" is not one")
        ) {
            try SearchFacet.list(parameter: "categories,a\u{7}b")
        }
        #expect(try NumericRange.parse(parameter: "10..") == NumericRange(lower: 10, upper: nil))
        #expect(try NumericRange.parse(parameter: "..") == nil)
        for bad in ["abc", "", "1..2..3", "1.." + String(repeating: "0", count: 60)] {
            #expect(throws: SearchRequestError("'price' must be MIN..MAX, either side may be empty"), "\(bad)") {
                try NumericRange.parse(parameter: bad)
            }
        }
    }
}

import CatalogModel
import Foundation
import Testing

@Suite struct JSONOutputTests {
    static let records = [
        Record(id: "a", title: "Plain"),
        Record(
            id: "b\"<&>", title: "Quote \" backslash \\ tab\t newline\n nul\u{0} bell\u{7} </script>",
            subtitle: "Á é ő ű 😀",
            description: "line\r\nline", categories: ["x", "y\u{1F}"], price: Decimal(string: "24.90"), currency: "EUR",
            quantity: -3, country: "DE", image: "/images/x.png", featured: 2, section: "#",
            fields: ["b": .texts(["1", "2"]), "a": .text("\u{2028}")]),
    ]

    /// The writer's documents mean the same as `JSONEncoder`'s for the same values.
    @Test(arguments: records)
    func recordsMatchJSONEncoder(_ record: Record) throws {
        try expectSame(record.jsonBytes, record)
        let hit = SearchHit(record: record, matches: [MatchRange(field: "title", start: 0, length: 3)])
        try expectSame(hit.jsonBytes, hit)
    }

    @Test func pagesAndSearchResponses() throws {
        let page = ItemsPage(items: Self.records, next: nil)
        try expectSame(page.jsonBytes, page)
        #expect(String(decoding: page.jsonBytes, as: UTF8.self).hasSuffix("\"next\":null,\"previous\":null}"))
        let response = SearchResponse(
            items: [SearchHit(record: Self.records[1], matches: [])], total: 1000, totalCapped: true,
            scope: "Apple&Win",
            scopes: [ScopeCount(label: "Alle", count: 1000, capped: true)])
        try expectSame(response.jsonBytes, response)
        try expectSame(
            CatalogSummary(id: "x", title: "Ü", locale: "de", count: 3).jsonBytes,
            CatalogSummary(id: "x", title: "Ü", locale: "de", count: 3))
    }

    @Test func markupIsEscaped() {
        let text = String(decoding: Record(id: "x", title: "</script><b>&").jsonBytes, as: UTF8.self)
        #expect(!text.contains("<"))
        #expect(text.contains("\\u003c/script\\u003e"))
    }

    func expectSame(_ bytes: [UInt8], _ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expected = try JSONSerialization.jsonObject(with: encoder.encode(value)) as? NSDictionary
        let actual = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
        #expect(actual != nil)
        #expect(actual == expected)
    }
}

import CatalogModel
import Foundation
import Testing

/// The client's decoder: the same values as `JSONDecoder` for the model's types, but number
/// literals kept, and errors with coding paths.
@Suite struct CatalogJSONDecoderTests {
    let decoder = CatalogJSONDecoder()

    @Test func keepsNumberLiteralsThatJSONDecoderRounds() throws {
        let json = Array(
            #"{"id":"a","title":"A","price":1.50,"fields":{"weight":1.50,"big":1e400,"list":[2.0,"x",null,true]}}"#.utf8
        )
        let record = try decoder.decode(Record.self, from: json)
        #expect(record.fields["weight"] == .number("1.50"))
        #expect(record.fields["big"] == .number("1e400"))
        #expect(record.fields["list"] == .list([.number("2.0"), .text("x"), .null, .bool(true)]))
        #expect(record.price == Decimal(string: "1.5"))
        #expect(record == (try Record(json: json)))
        let plain = Array(#"{"id":"a","title":"A","fields":{"weight":1.50}}"#.utf8)
        #expect(try JSONDecoder().decode(Record.self, from: Data(plain)).fields["weight"] == .number("1.5"))
        #expect(try decoder.decode(Record.self, from: plain).fields["weight"] == .number("1.50"))
    }

    @Test func decodesTheModelsLikeJSONDecoder() throws {
        let response = SearchResponse(
            items: [
                SearchHit(
                    record: Record(id: "x", title: "Ärger", categories: ["a", "b"], quantity: 3, featured: 1),
                    matches: [MatchRange(field: "title", start: 0, length: 2)],
                    snippet: MatchSnippet(field: "description", text: "…", matches: []))
            ], total: 1000, totalCapped: true, scope: nil, scopes: [ScopeCount(label: "Alle", count: 1)], next: "r1.2",
            facets: ["country": [FacetCount(value: "DE", count: 2)]])
        let bytes = response.jsonBytes
        #expect(try decoder.decode(SearchResponse.self, from: bytes) == response)
        #expect(
            try decoder.decode(SearchResponse.self, from: bytes)
                == JSONDecoder().decode(SearchResponse.self, from: Data(bytes)))
        let page = ItemsPage(items: [Record(id: "1", title: "t")], next: nil, previous: "p")
        #expect(try decoder.decode(ItemsPage.self, from: page.jsonBytes) == page)
        #expect(try decoder.decode([Int8].self, from: Array("[1, -2, 1.0, 1e2]".utf8)) == [1, -2, 1, 100])
        #expect(try decoder.decode(URL.self, from: Array(#""http://x/y""#.utf8)) == URL(string: "http://x/y"))
        #expect(try decoder.decode(Double.self, from: Array("-2.5e3".utf8)) == -2500)
    }

    @Test(arguments: [
        (#"{"catalogs":[{"id":1}]}"#, "catalogs[0].id"),
        (#"{"catalogs":[{"id":"a","title":"t","locale":"x"}]}"#, "catalogs[0].count"),
        (#"{"catalogs":{}}"#, "catalogs"),
        (#"{"catalogs":[{"id":"a","title":"t","locale":"x","count":1.5}]}"#, "catalogs[0].count"),
        (#"{"catalogs":[{"id":"a","title":"t","locale":"x","count":300000000000000000000}]}"#, "catalogs[0].count"),
    ])
    func errorsNameTheirCodingPath(_ json: String, _ path: String) {
        do {
            _ = try decoder.decode(CatalogList.self, from: Array(json.utf8))
            Issue.record("\(json) decoded")
        } catch let error as DecodingError {
            let keys: [any CodingKey]
            switch error {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): keys = c.codingPath
            case .keyNotFound(let key, let c): keys = c.codingPath + [key]
            @unknown default: return
            }
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            #expect(text.hasPrefix(".") ? String(text.dropFirst()) == path : text == path, "\(text)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func malformedDocumentsAreDataCorrupted() {
        for text in [
            "", "{", "[1,]", "{\"a\":1}x", "\"\\ud800\"",
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ] {
            #expect(throws: DecodingError.self, "\(text.prefix(20))") {
                try decoder.decode([String: Int].self, from: Array(text.utf8))
            }
        }
    }
}

import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// `/c/{id}/rows`: the rows the script fetches are the rows the pages draw, byte for byte, so
/// the server is the one renderer of a row.
@Suite struct RowsFragmentTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    static func rows(_ html: String) -> [String] {
        html.matches(of: /<li class="row[^"]*".*?<\/li>/.dotMatchesNewlines()).map { String($0.0) }
    }

    @Test func rowsByPositionAreThePagesRows() throws {
        let page = Self.rows(try fixture.request("/c/products").text)
        let reply = try fixture.request("/c/products/rows?position=0&limit=100&thumbs=1")
        #expect(reply.status == 200)
        #expect(reply.response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(reply.response.headers["Content-Security-Policy"] != nil)
        #expect(reply.text.contains("data-kind=\"positions\" data-position=\"0\""))
        #expect(!page.isEmpty)
        #expect(Self.rows(reply.text) == page)
        // A later window: the positions asked for, each row with its cursor.
        let later = Self.rows(try fixture.request("/c/products/rows?position=10&limit=3").text)
        #expect(later.count == 3)
        #expect(later[0].contains("data-position=\"10\"") && later[0].contains("data-cursor=\""))
    }

    @Test func searchRowsAreTheSearchPagesRows() throws {
        let page = try fixture.request("/c/products?q=a&search=1").text
        let fragment = try fixture.request("/c/products/rows?q=a&search=1").text
        #expect(!Self.rows(page).isEmpty)
        #expect(Self.rows(fragment) == Self.rows(page))
        let total = try #require(page.firstMatch(of: /<p class="total" id="total" aria-live="polite">([^<]*)<\/p>/)?.1)
        #expect(fragment.contains("<p data-part=\"total\">\(total)</p>"))
        // Matches marked, prices formatted by the server's one formatter.
        #expect(fragment.contains("<mark>"))
        #expect(
            fragment.replacingOccurrences(of: "\u{00A0}", with: " ").contains("<span class=\"price\">HUF 4,990</span>"))
        // What the search changes around the rows: scope counts, facets, the filter button.
        #expect(fragment.contains("class=\"scope\""))
        #expect(fragment.contains("data-facet=\"country\""))
        #expect(fragment.contains("data-part=\"filter-toggle\" data-count=\"0\""))
        let filtered = try fixture.request("/c/products/rows?q=a&search=1&country=DE&sort=-price").text
        #expect(filtered.contains("data-count=\"2\">Filters (2)</span>"))
    }

    /// The attribute's value, its entities read back.
    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: " \(name)=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
            of: "&lt;", with: "<"
        )
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func rowsSayWhatTheOfflineSearchFiltersBy() throws {
        // Browsing and searching alike: the record's categories, country, price and currency, and
        // the values of the fields the sheet offers or the catalog sorts by, read as the server reads them.
        for path in ["/c/products/rows?position=0&limit=100", "/c/products/rows?q=alpine&search=1", "/c/products"] {
            let row = try #require(Self.rows(try fixture.request(path).text).first { $0.contains("data-id=\"p001\"") })
            let json = try #require(Self.attribute("data-filter", in: row))
            let facts = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(facts["c"] as? [String] == ["Tools"], "\(path)")
            #expect(facts["n"] as? String == "DE")
            #expect((facts["p"] as? NSNumber)?.doubleValue == 24.9)
            #expect(facts["$"] as? String == "EUR")
            let fields = try #require(facts["f"] as? [String: [String: Any]])
            #expect(fields["sku"]?["k"] as? [String] == ["tl 1001"])
        }
        // A scope button says which categories it selects; a field's value says what it is compared by.
        let page = try fixture.request("/c/products?q=a&search=1").text
        let office = try #require(page.firstMatch(of: /<button[^>]*value="Office"[^>]*>/)).output
        #expect(Self.attribute("data-categories", in: String(office)) == "[\"Office\"]")
        let cookbook = try fixture.request("/c/cookbook?search=1").text
        let value = try #require(cookbook.firstMatch(of: /<input type="checkbox" name="f:complexity"[^>]*>/)).output
        #expect(Self.attribute("data-key", in: String(value)) != nil)
    }

    @Test func laterSearchPagesBringOnlyRows() throws {
        // The API's cursor after the first five results (the web app's pages hold 50).
        let api = try fixture.request("/api/v1/catalogs/products/search?q=&limit=5").object
        let next = try #require(api["next"] as? String)
        let first = try fixture.request("/c/products/rows?q=&search=1").text
        let later = try fixture.request(
            "/c/products/rows?q=&search=1&thumbs=1&after=" + next.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
        ).text
        #expect(!Self.rows(later).isEmpty)
        // Results six and on, drawn as the first page drew them (their place in it aside).
        let ids = { (html: String) in html.matches(of: /<li class="row[^"]*" data-id="([^"]+)"/).map { String($0.1) } }
        #expect(ids(later) == Array(ids(first).dropFirst(5)))
        #expect(!later.contains("data-part=\"facets\""))
        #expect(!later.contains("class=\"scope\""))
    }

    @Test func rowsOfRecordsKeepTheirOrderAndLeaveOutMissingOnes() throws {
        let text = try fixture.request("/c/products/rows?item=p003&item=nope&item=p001&via=favorites&thumbs=1").text
        let rows = Self.rows(text)
        #expect(rows.count == 2)
        #expect(rows[0].contains("data-id=\"p003\"") && rows[1].contains("data-id=\"p001\""))
        #expect(rows[0].contains("href=\"/c/products/i/p003?via=favorites\""))
        // An unknown via is left out, not echoed.
        let odd = try fixture.request("/c/products/rows?item=p001&via=%2F%2Fevil").text
        #expect(odd.contains("href=\"/c/products/i/p001\""))
    }

    @Test func aCategorysRowsAreThatCategorysOnly() throws {
        let page = Self.rows(try fixture.request("/c/cookbook/categories/1").text)
        let fragment = Self.rows(try fixture.request("/c/cookbook/categories/1/rows?position=0&limit=100").text)
        #expect(!fragment.isEmpty)
        #expect(fragment == page)
        #expect(fragment.allSatisfy { $0.contains("via=categories%2F1") })
        let searched = Self.rows(try fixture.request("/c/cookbook/categories/1/rows?q=leves&search=1").text)
        #expect(searched == Self.rows(try fixture.request("/c/cookbook/categories/1?q=leves&search=1").text))
        #expect(try fixture.request("/c/cookbook/categories/999/rows").status == 404)
    }

    @Test(arguments: [
        "thumbs=2", "position=-1", "limit=0", "limit=101", "position=x", "country=XYZ", "sort=cheap&search=1",
    ])
    func malformedRequestsAreBadRequests(query: String) throws {
        #expect(try fixture.request("/c/products/rows?" + query).status == 400, "\(query)")
    }

    @Test func unknownCatalogsHaveNoRows() throws {
        #expect(try fixture.request("/c/nope/rows").status == 404)
    }
}

import CatalogHTTP
import CatalogModel
import Foundation
import Testing

@testable import CatalogServer

/// Uploads the XML reader used to choke on, the typed fields the API now serves, and the notes of
/// an import summary.
@Suite struct ImportUploadTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    private func upload(_ xml: String, catalog: String, query: String = "") throws -> ServerFixture.Reply {
        try fixture.request(
            .post, "/api/v1/catalogs/\(catalog)/import\(query)", headers: [("Content-Type", "application/xml")],
            body: Array(xml.utf8), token: fixture.adminToken)
    }

    @Test func internalDTDWithAttributeDeclarationsImports() throws {
        // The document that made FoundationXML crash the server.
        let reply = try upload(
            "<!DOCTYPE r [<!ATTLIST p kind CDATA \"plain\">]>\n<r><p><title>A</title></p><p kind=\"x\"><title>B</title></p></r>",
            catalog: "dtd")
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.object["total"] as? Int == 2)
        #expect(reply.object["notes"] as? [String] == [])
        let item = try fixture.request("/api/v1/catalogs/dtd/items/a").object
        #expect((item["fields"] as? [String: Any])?["kind"] as? String == "plain")
        #expect(try fixture.request("/api/v1/catalogs").status == 200)
    }

    @Test func anExportUploadsIntoANewCatalogWithoutMapping() throws {
        let csv = """
            #catalog-definition {"id":"pantry","title":"Kamra","locale":"hu","mapping":{"title":"Név"},"fieldTypes":{"Súly":"number"}}
            Név,Súly
            Mák,"0,25"

            """
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/kamra/import", headers: [("Content-Type", "text/csv")], body: Array(csv.utf8),
            token: fixture.adminToken)
        #expect(reply.status == 200, "\(reply.text)")
        let catalog = try fixture.request("/api/v1/catalogs/kamra").object
        #expect(catalog["locale"] as? String == "hu")
        #expect(catalog["title"] as? String == "Kamra")
        let item = try fixture.request("/api/v1/catalogs/kamra/items/mak").text
        #expect(item.contains(#""title":"Mák""#))
        #expect(item.contains(#""fields":{"Súly":0.25}"#))
    }

    @Test func deepNestingIsA422WithWhere() throws {
        let depth = 100_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let reply = try upload(xml, catalog: "deep", query: "?record=a")
        #expect(reply.status == 422)
        let message = (reply.object["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.hasPrefix("upload:1:"))
        #expect(message.contains("elements nested deeper than 256 levels"))
        #expect(try fixture.request("/api/v1/catalogs/deep").status == 404)
    }

    @Test func notesAndTypedFieldsOverTheAPI() throws {
        let json =
            #"[{"id": "t", "title": "Tea", "title@de": "Tee", "weight": 1.50, "organic": true, "note": null, "tags": ["a"]}, {"id": "u", "title": "A", "comment": ["x", "y"], "title_fr": "B"}]"#
        let reply = try fixture.request(
            .post, "/api/v1/catalogs/typed/import", headers: [("Content-Type", "application/json")],
            body: Array(json.utf8), token: fixture.adminToken)
        #expect(reply.status == 200)
        let item = try fixture.request("/api/v1/catalogs/typed/items/t").text
        #expect(item.contains(#""fields":{"note":null,"organic":true,"tags":["a"],"title@de":"Tee","weight":1.50}"#))
        let repeated = try upload(
            "<r><i><title>A</title><title>B</title></i><i><title>C</title></i></r>", catalog: "notes")
        #expect(repeated.status == 200)
        #expect(
            repeated.object["notes"] as? [String] == [
                "title: 1 record had several \"title\" values; the first untranslated one is the title, all are kept in \"title\""
            ])
    }
}

import CatalogCollation
import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// A feed's credentials never leave the server: not in its offline snapshot, the API, the web
/// pages or the sitemap, through the whole middleware chain.
@Suite struct CredentialLeakTests {
    static let secrets = ["s3cret-feed", "t0ken-feed", "etag-of-the-feed", "feeds.example"]

    @Test func noSurfaceShowsAFeedsCredentials() throws {
        let fixture = try ServerFixture()
        var definition = CatalogDefinition(id: "feed", title: "Feed", locale: "en")
        definition.source = FeedSource(
            url: "https://shop:s3cret-feed@feeds.example/items.xml?token=t0ken-feed", etag: "\"etag-of-the-feed\"")
        _ = try CatalogImporter.run(
            into: fixture.application.stores, definition: definition, replace: true,
            collation: try ICUCollation(locale: "en"),
            records: { add in
                try add(Record(id: "f1", title: "First item", description: "From a feed"))
                return nil
            })
        #expect(try fixture.application.stores.read { try $0.catalog("feed")?.definition.source } != nil)
        for target in [
            "/api/v1/catalogs", "/api/v1/catalogs/feed", "/api/v1/catalogs/feed/items",
            "/api/v1/catalogs/feed/search?q=first", "/api/v1/catalogs/feed/items/f1", "/c/feed", "/c/feed/i/f1",
            "/sitemap.xml", "/api/v1/catalogs/feed/snapshot",
        ] {
            let reply = try fixture.request(target)
            #expect(reply.status == 200, "\(target)")
            var bytes = reply.body
            if case .file(let file) = reply.response.body {
                bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
            }
            #expect(!bytes.isEmpty, "\(target)")
            for secret in Self.secrets {
                #expect(bytes.firstRange(of: Array(secret.utf8)) == nil, "\(target) shows \(secret)")
            }
        }
    }
}

import CatalogModel
import CatalogSupport
import Testing

/// Secrets in URLs never reach a message, a log line or a published definition.
@Suite struct CredentialsTests {
    @Test(arguments: [
        ("https://shop:s3cret@feeds.example/items.xml", "https://shop:***@feeds.example/items.xml"),
        ("https://t0k3n@feeds.example/items.xml", "https://***@feeds.example/items.xml"),
        ("postgres://ada@db/catalog", "postgres://ada@db/catalog"),
        ("https://feeds.example/items.xml?token=s3cret&page=2", "https://feeds.example/items.xml?token=***&page=2"),
        ("https://feeds.example/a?Password=s3cret#top", "https://feeds.example/a?Password=***#top"),
        ("postgres://u:p@ss/w@db/catalog", "postgres://u:***@db/catalog"),
        ("postgres://u:s3cret@db/catalog?password=s3cret", "postgres://u:***@db/catalog?password=***"),
        ("http://feeds.example/plain.xml", "http://feeds.example/plain.xml"),
        ("feed.xml", "feed.xml"),
        ("/tmp/a@b:c.xml", "/tmp/a@b:c.xml"),
    ])
    func urlsLoseTheirSecrets(url: String, redacted: String) {
        #expect(Credentials.redacted(url: url) == redacted)
        #expect(!Credentials.redacted(url: url).contains("s3cret"))
    }

    @Test func everyURLInAMessageIsRedacted() {
        let message =
            "cannot download https://a:s3cret@one.example/f.xml (redirected from \"http://b:other@two.example/\"): x"
        let scrubbed = Credentials.scrubbed(message)
        #expect(
            scrubbed
                == "cannot download https://a:***@one.example/f.xml (redirected from \"http://b:***@two.example/\"): x")
        #expect(Credentials.scrubbed("no URL here: a:b@c") == "no URL here: a:b@c")
        #expect(Credentials.scrubbed("://odd") == "://odd")
    }

    @Test func importErrorsNeverShowAFeedPassword() {
        let error = ImportError(
            .io, "cannot download https://u:s3cret@feeds.example/f.xml: HTTP 401 Unauthorized",
            at: SourceLocation(source: "https://u:s3cret@feeds.example/f.xml", line: 3, column: 9))
        #expect(!error.description.contains("s3cret"))
        #expect(error.description.hasPrefix("https://u:***@feeds.example/f.xml:3:9: "))
        #expect(!String(describing: error).contains("s3cret"))
    }

    @Test func aPublishedDefinitionKeepsNoFeed() {
        var definition = CatalogDefinition(id: "feed", title: "Feed", locale: "en")
        definition.source = FeedSource(url: "https://u:s3cret@feeds.example/f.xml", etag: "\"v1\"")
        definition.lastImport = ImportStamp(source: "digest", definition: "digest")
        let published = definition.published
        #expect(published.source == nil)
        #expect(published.lastImport == nil)
        #expect(published.id == "feed" && published.title == "Feed")
    }
}

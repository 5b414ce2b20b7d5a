import Foundation
import Testing

@testable import CatalogClient

/// The client's XML reader: what the server's feeds hold, and a clear error for anything else.
@Suite struct FeedReaderTests {
    @Test func readsFieldsAttributesNestingAndLanguages() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <?catalog-definition {"id":"x"}?>
            <!-- a comment -->
            <root xmlns:dc="http://purl.org/dc">
              <item code="7">
                <name xml:lang="de">Gr&#252;n &amp; &lt;Blau&gt;</name>
                <name>Green</name>
                <image kind="png"><url>a.png</url></image>
                <field name="Product Name">P</field>
                <note><![CDATA[<raw> & text]]></note>
                <empty/>
                <mixed>one <b>two</b> three</mixed>
              </item>
              <item code="8"/>
            </root>
            """
        let feed = try FeedReader.read(Array(xml.utf8))
        #expect(feed.root == "root" && feed.definitionJSON == #"{"id":"x"}"#)
        #expect(feed.records.count == 2)
        let fields = feed.records[0].fields.map { "\($0.name)=\($0.value)\($0.language.map { "@\($0)" } ?? "")" }
        #expect(
            fields == [
                "code=7", "name=Grün & <Blau>@de", "name=Green", "image@kind=png", "image/url=a.png", "Product Name=P",
                "note=<raw> & text", "empty=", "mixed=one two three",
            ])
        #expect(feed.records[1].fields.map(\.name) == ["code"])
    }

    @Test(arguments: [
        "", "<root>", "<root><a></b></root>", "<!DOCTYPE root [<!ENTITY x \"y\">]><root/>", "<root>&nope;</root>",
        "<root><r a=1/></root>", "<root/><extra/>", "<root><r a=\"1\" a=\"2\"/></root>", "text<root/>",
        "<root><r>&#0;</r></root>",
    ])
    func malformedFeedsAreRefused(_ xml: String) {
        #expect(throws: FeedReader.Failure.self) { try FeedReader.read(Array(xml.utf8)) }
    }

    @Test func deepNestingIsBounded() {
        let xml =
            "<root><r>" + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300) + "</r></root>"
        #expect(throws: FeedReader.Failure.self) { try FeedReader.read(Array(xml.utf8)) }
    }
}

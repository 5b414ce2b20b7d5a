import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

/// The shape of the German music-software feed (our own text).
let sequencerFeed = """
    <?xml version="1.0" encoding="UTF-8"?>
    <sequenzer>
      <Produkt>
        <TitelText>Klangwerk Studio</TitelText>
        <Kurzbeschreibung>Ein „Sequenzer“ für Einsteiger &amp; Profis.
    Zweite Zeile: Spuren, Effekte, Noten.</Kurzbeschreibung>
        <Kategorie>MAC OS X Windows</Kategorie>
      </Produkt>
      <Produkt>
        <TitelText>Taktmeister</TitelText>
        <Kurzbeschreibung></Kurzbeschreibung>
        <Kategorie>Windows</Kategorie>
      </Produkt>
      <Produkt>
        <TitelText>Notenfluss</TitelText>
        <Kurzbeschreibung/>
        <Kategorie>MAC OS X</Kategorie>
      </Produkt>
    </sequenzer>

    """

@Suite struct XMLRecordReaderTests {
    private func read(_ xml: String, element: String? = nil) throws -> [SourceRecord] {
        try readAll(XMLRecordReader(data: Data(xml.utf8), sourceName: "feed.xml", recordElement: element))
    }

    private func failure(_ xml: String, element: String? = nil) -> ImportError? {
        readError(XMLRecordReader(data: Data(xml.utf8), sourceName: "feed.xml", recordElement: element))
    }

    @Test func readsTheSequencerFeed() throws {
        let records = try read(sequencerFeed, element: "Produkt")
        #expect(records.count == 3)
        #expect(
            pairs(records[0]) == [
                "TitelText=Klangwerk Studio",
                "Kurzbeschreibung=Ein „Sequenzer“ für Einsteiger & Profis.\nZweite Zeile: Spuren, Effekte, Noten.",
                "Kategorie=MAC OS X Windows",
            ])
        #expect(pairs(records[1]) == ["TitelText=Taktmeister", "Kurzbeschreibung=", "Kategorie=Windows"])
        #expect(pairs(records[2]) == ["TitelText=Notenfluss", "Kurzbeschreibung=", "Kategorie=MAC OS X"])
        #expect(records[1].location == SourceLocation(source: "feed.xml", line: 9, column: 11))
        #expect(records[0].field("TitelText")?.location.line == 4)
    }

    @Test func detectsTheRecordElement() throws {
        #expect(try read(sequencerFeed).count == 3)
        // The first repeated child of the root wins over a leading singleton.
        let feed = "<feed><title>T</title><item><a>1</a></item><item><a>2</a></item></feed>"
        #expect(try read(feed).map(pairs) == [["a=1"], ["a=2"]])
        // A single record: the root's first child.
        #expect(try read("<catalog><recipe><title>Leves</title></recipe></catalog>").map(pairs) == [["title=Leves"]])
    }

    @Test func detectedRecordsAreOnlyTheRootsChildren() throws {
        let xml = "<r><item><item>inner</item></item><item><x>1</x></item><group><item>deep</item></group></r>"
        // Auto-detected: only <r>'s children; the nested <item> is an ordinary field.
        #expect(try read(xml).map(pairs) == [["item=inner"], ["x=1"]])
        // Named: any depth outside a record, nested ones still flatten into their record.
        #expect(try read(xml, element: "item").map(pairs) == [["item=inner"], ["x=1"], ["#text=deep"]])
    }

    @Test func attributesRepeatsAndNesting() throws {
        let xml = """
            <products>
              <product id="7" sku="A-1">
                <name lang="de">Kochbuch</name>
                <tag>neu</tag>
                <tag>beliebt</tag>
                <image kind="thumb">
                  <url>a.png</url>
                  <size unit="px">40</size>
                </image>
                <icon src="i.png"/>
                <empty></empty>
              </product>
            </products>
            """
        let records = try read(xml, element: "product")
        #expect(
            pairs(records[0]) == [
                "id=7", "sku=A-1", "name@lang=de", "name=Kochbuch", "tag=neu", "tag=beliebt", "image@kind=thumb",
                "image/url=a.png", "image/size@unit=px", "image/size=40", "icon@src=i.png", "empty=",
            ])
        #expect(records[0].values(of: "tag") == ["neu", "beliebt"])
    }

    @Test func textIsKeptExactly() throws {
        let xml =
            "<r><p><a>  two  spaces\n\tand tab  </a><b><![CDATA[<b>&</b>]]></b><c>x &lt; y &#x201E;q&#8220;</c></p></r>"
        let record = try #require(try read(xml, element: "p").first)
        #expect(pairs(record) == ["a=  two  spaces\n\tand tab  ", "b=<b>&</b>", "c=x < y „q“"])
    }

    @Test func mixedContentKeepsItsText() throws {
        let xml = "<r><p>Hello <b>bold</b> world<q>\n  <x>1</x>\n</q></p><p>only text</p></r>"
        let records = try read(xml, element: "p")
        // The record's own text with its inline children's text, in document order.
        #expect(pairs(records[0]) == ["#text=Hello bold world\n  1\n"])
        #expect(pairs(records[1]) == ["#text=only text"])
        let inline = try read(
            "<r><i><d>The <em>appstreamcli</em> tool</d><n a=\"1\">x<b c=\"2\">y</b></n></i></r>", element: "i")
        #expect(pairs(inline[0]) == ["d=The appstreamcli tool", "n@a=1", "n=xy"])
        // Whitespace between children is not mixed content.
        let structured = try read("<r><i><d>\n  <p>a</p>\n  <p>b</p>\n</d></i></r>", element: "i")
        #expect(pairs(structured[0]) == ["d/p=a", "d/p=b"])
    }

    @Test func internalDTDWithAttributeDeclarations() throws {
        let records = try readAll(XMLRecordReader(fileURL: fixture("countries-dtd.xml")))
        #expect(records.count == 4)
        // Declared defaults appear where the author left them out, after the attributes given.
        #expect(
            pairs(records[0]) == [
                "alpha_2_code=AD", "alpha_3_code=AND", "name=Andorra", "official_name=Principality of Andorra",
                "status=active",
            ])
        #expect(pairs(records[1]) == ["alpha_2_code=HU", "alpha_3_code=HUN", "name=Hungary", "status=active"])
        #expect(records[2].values(of: "status") == ["withdrawn"])
        // The line that made FoundationXML crash.
        let crasher = "<!DOCTYPE r [<!ATTLIST p kind CDATA #IMPLIED>]>\n<r><p kind=\"x\">1</p><p>2</p></r>"
        #expect(try read(crasher).map(pairs) == [["kind=x", "#text=1"], ["#text=2"]])
    }

    @Test func documentShapeIsReported() throws {
        let reader = XMLRecordReader(
            data: Data(
                #"<feed xmlns="urn:x" xmlns:dc="urn:dc" v="2"><e a="1"><dc:t>x</dc:t></e><e b="2"/></feed>"#.utf8),
            sourceName: "feed.xml")
        var records: [SourceRecord] = []
        let summary = try reader.read(cancellation: .never, fieldNames: { _ in }) { records.append($0) }
        let shape = summary.shape
        #expect(summary.records == 2)
        #expect(records.map(pairs) == [["a=1", "dc:t=x"], ["b=2"]])
        #expect(shape?.rootElement == "feed")
        #expect(shape?.recordElement == "e")
        #expect(shape?.rootAttributes.map(\.name) == ["xmlns", "xmlns:dc", "v"])
        #expect(shape?.recordAttributes == ["a", "b"])
    }

    @Test func namespaceDeclarationsInsideRecordsAreAttributes() throws {
        let xml = #"<r><e xmlns:g="urn:g"><g:x g:k="v">1</g:x><y xmlns="urn:y">2</y></e></r>"#
        #expect(try read(xml).map(pairs) == [["xmlns:g=urn:g", "g:x@g:k=v", "g:x=1", "y@xmlns=urn:y", "y=2"]])
    }

    @Test func languagesComeFromXMLLang() throws {
        let records = try readAll(XMLRecordReader(fileURL: fixture("appstream.xml"), recordElement: "component"))
        #expect(records.count == 2)
        let names = records[0].fields.filter { $0.name == "name" }
        #expect(names.map(\.value) == ["Klangwerk", "Klangwerk Studio", "Atelier Klangwerk"])
        #expect(names.map(\.language) == [nil, "de", "fr"])
        #expect(!records[0].fields.contains { $0.name.contains("lang") })
        #expect(
            records[0].values(of: "description/p") == [
                "Klangwerk is a sequencer for small studios.", "It runs on Linux.",
            ])
        let keywords = records[0].fields.filter { $0.name == "keywords/keyword" }
        #expect(keywords.map(\.language) == [nil, nil, "de"])
        #expect(records[1].values(of: "description") == ["The appstreamcli tool"])
        #expect(records[1].fields.first { $0.name == "summary" && $0.language == "hu" }?.value == "Üsd a ritmust")
        // An xml:lang on the record is inherited by its fields.
        let inherited = try read(#"<r><e xml:lang="de"><a>x</a><b xml:lang="en">y</b></e></r>"#)
        #expect(inherited[0].fields.map(\.language) == ["de", "en"])
    }

    @Test func nestingIsLimited() throws {
        func nested(_ depth: Int) -> String {
            "<r>" + String(repeating: "<a>", count: depth - 1) + "x" + String(repeating: "</a>", count: depth - 1)
                + "</r>"
        }
        // As deep as the limit allows: fine.
        #expect(try read(nested(XMLRecordReader.maxDepth), element: "r").count == 1)
        // One deeper: refused where the element starts.
        let error = try #require(failure(nested(XMLRecordReader.maxDepth + 1), element: "r"))
        #expect(error.code == .tooLarge)
        #expect(error.message == "elements nested deeper than 256 levels")
        #expect(error.location == SourceLocation(source: "feed.xml", line: 1, column: 3 + 3 * 256))
    }

    @Test func deepNestingStaysCheapInMemoryAndTime() throws {
        // 100,000 levels (600 KB), then 1,000,000 (6 MB): refused at once, memory flat.
        for depth in [100_000, 1_000_000] {
            let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
            let before = residentBytes()
            let started = Date()
            for element in [nil, "a"] as [String?] {
                let error = try #require(failure(xml, element: element))
                #expect(error.code == .tooLarge)
                #expect(error.location.line == 1)
            }
            #expect(Date().timeIntervalSince(started) < 2)
            #expect(residentBytes() - before < 64 << 20)
        }
    }

    @Test func fieldElementConvention() throws {
        let xml = #"<r><rec><field name="Product Name">Tisch</field><field name="x" type="y">z</field></rec></r>"#
        let record = try #require(try read(xml).first)
        #expect(pairs(record) == ["Product Name=Tisch", "field@name=x", "field@type=y", "field=z"])
    }

    @Test func namespacesArePlainNames() throws {
        let xml = #"<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><item><dc:creator>Mari</dc:creator></item></rss>"#
        #expect(try read(xml).map(pairs) == [["dc:creator=Mari"]])
    }

    @Test func utf8ByteOrderMarkIsSkipped() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(contentsOf: Array("<r><a><b>1</b></a><a><b>2</b></a></r>".utf8))
        #expect(try readAll(XMLRecordReader(data: data, sourceName: "bom.xml")).count == 2)
    }

    @Test func bodyErrorsPropagateAndStopTheParse() throws {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try XMLRecordReader(data: Data(sequencerFeed.utf8), sourceName: "feed.xml").forEachRecord { _ in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
    }

    // MARK: - Errors

    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var xml: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        .init(
            name: "tag mismatch", xml: "<r>\n  <a>x</b>\n</r>", line: 2, column: 11,
            message: "mismatched end tag: expected </a>"),
        .init(
            name: "premature end", xml: "<r>\n  <a>x</a>\n  <a>y", line: 3, column: 6,
            message: "premature end of the document: <a> is not closed"),
        .init(
            name: "extra content", xml: "<r><a>1</a></r>\n<r/>", line: 2, column: 1,
            message: "extra content after the end of the root element"),
        .init(
            name: "unescaped ampersand", xml: "<r>\n<a>Mac & Windows;</a></r>", line: 2, column: 9,
            message: "unescaped '&'"),
        .init(
            name: "unescaped less-than", xml: "<r><a>1 < 2</a></r>", line: 1, column: 10,
            message: "unescaped '&' or '<'"),
        .init(
            name: "control character", xml: "<r><a>bell \u{7}</a></r>", line: 1, column: 12,
            message: "invalid character"),
        .init(
            name: "character reference to a control character", xml: "<r><a>&#7;</a></r>", line: 1, column: 11,
            message: "invalid character"),
        .init(
            name: "attribute twice", xml: #"<r><a x="1" x="2"/></r>"#, line: 1, column: 18,
            message: "attribute given twice"),
        .init(
            name: "less-than in attribute", xml: #"<r><a x="1<2"/></r>"#, line: 1, column: 11,
            message: "'<' in an attribute value"),
        .init(
            name: "unquoted attribute", xml: "<r><a x=1/></r>", line: 1, column: 9,
            message: "attribute value without quotes"),
        .init(
            name: "undeclared entity", xml: "<r>\n<a>&nbsp;</a></r>", line: 2, column: 10,
            message: "undeclared entity &nbsp;"),
        .init(name: "missing root", xml: "just text, no markup", line: 1, column: 1, message: "no root element"),
        .init(
            name: "unterminated comment", xml: "<r><!-- oops </r>", line: 1, column: 18, message: "unterminated comment"
        ),
    ]

    @Test(arguments: malformed)
    func malformedInput(_ example: Malformed) throws {
        let error = try #require(failure(example.xml, element: "a"))
        #expect(error.code == .malformed)
        #expect(error.location == SourceLocation(source: "feed.xml", line: example.line, column: example.column))
        #expect(error.message.contains(example.message), "\(error.message)")
    }

    @Test func errorsNameTheField() throws {
        #expect(failure("<r><a><b>x</c></a></r>", element: "a")?.field == "b")
        #expect(failure("<r><a><img><url>&x;</url></img></a></r>", element: "a")?.field == "img/url")
        #expect(failure("<r><a>1</a></r>junk", element: "a")?.field == nil)
    }

    @Test func latin1BytesAreAnEncodingError() throws {
        var data = Data("<r>\n  <a>M".utf8)
        data.append(0xFC)  // ü in Latin-1
        data.append(contentsOf: Array("ller</a>\n</r>".utf8))
        let error = try #require(readError(XMLRecordReader(data: data, sourceName: "latin1.xml")))
        #expect(error.code == .encoding)
        #expect(error.location == SourceLocation(source: "latin1.xml", line: 2, column: 7))
        #expect(error.message.contains("0xFC"))
    }

    @Test func truncatedSequenceAtTheEndIsAnEncodingError() throws {
        var data = Data("<r><a>1</a></r>\n".utf8)
        data.append(0xC3)  // the first byte of a two-byte sequence, then nothing
        let error = try #require(readError(XMLRecordReader(data: data, sourceName: "t.xml")))
        #expect(error.code == .encoding)
        #expect(error.location == SourceLocation(source: "t.xml", line: 2, column: 1))
        #expect(error.message.contains("truncated"))
    }

    @Test func utf16IsAnEncodingError() throws {
        var data = Data([0xFF, 0xFE])
        data.append(try #require("<r><a>x</a></r>".data(using: .utf16LittleEndian)))
        let error = try #require(readError(XMLRecordReader(data: data, sourceName: "utf16.xml")))
        #expect(error.code == .encoding)
        #expect(error.location == SourceLocation(source: "utf16.xml", line: 1, column: 1))
        #expect(error.message.contains("UTF-16"))
        // Without a byte order mark the NUL bytes give it away.
        let bare = try #require("<r><a>x</a></r>".data(using: .utf16LittleEndian))
        let bareError = try #require(readError(XMLRecordReader(data: bare, sourceName: "utf16.xml")))
        #expect(bareError.code == .encoding)
        #expect(bareError.location == SourceLocation(source: "utf16.xml", line: 1, column: 2))
    }

    @Test func declaredForeignEncodingIsRefused() throws {
        let error = try #require(failure("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r><a/></r>"))
        #expect(error.code == .encoding)
        #expect(error.location.line == 1 && error.location.column == 1)
        #expect(error.message.contains("ISO-8859-1"))
        #expect(try read("<?xml version='1.0' encoding='utf-8'?><r><a>1</a></r>").count == 1)
    }

    @Test func emptyInputs() throws {
        for text in ["", "  \n\t "] {
            let error = try #require(failure(text))
            #expect(error.code == .empty)
            #expect(error.message == "no records found: the document is empty")
        }
        let childless = try #require(failure("<sequenzer/>"))
        #expect(childless.code == .empty)
        #expect(childless.message.contains("<sequenzer> has no child elements"))
        let wrongName = try #require(failure(sequencerFeed, element: "Product"))
        #expect(wrongName.code == .empty)
        #expect(
            wrongName.message
                == "no records found: no <Product> elements (elements seen: <sequenzer>, <Produkt>, <TitelText>, <Kurzbeschreibung>, <Kategorie>)"
        )
    }

    @Test func billionLaughsFailsAtOnce() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
              <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
              <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
              <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
              <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
              <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
              <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
            ]>
            <lolz><lol>&lol9;</lol><lol>&lol9;</lol></lolz>
            """
        let start = Date()
        for element in [nil, "lol"] as [String?] {
            let error = try #require(failure(xml, element: element))
            #expect(error.code == .forbidden)
            #expect(error.message == "DTD entity declarations are not allowed")
            #expect(error.location == SourceLocation(source: "feed.xml", line: 3, column: 3))
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test(arguments: [
        #"<!ENTITY xxe SYSTEM "file:///etc/passwd">"#,
        #"<!ENTITY % xxe SYSTEM "file:///etc/passwd"> %xxe;"#,
        #"<!ENTITY xxe PUBLIC "-//x//y" "file:///etc/passwd">"#,
        #"<!-- <!ENTITY in a comment is fine --> <!ENTITY xxe SYSTEM "file:///etc/passwd">"#,
    ])
    func externalEntitiesAreRefused(_ declaration: String) throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n  \(declaration)\n]>\n<r><a>&xxe;</a><a>x</a></r>"
        var texts: [String] = []
        let error = try #require(
            importError {
                try XMLRecordReader(data: Data(xml.utf8), sourceName: "xxe.xml").forEachRecord { record in
                    texts.append(contentsOf: record.fields.map(\.value))
                }
            })
        #expect(error.code == .forbidden)
        #expect(error.location.line == 3)
        #expect(texts.isEmpty)
        #expect(!error.description.contains("root:"))
    }

    @Test func externalDTDIsNotLoaded() throws {
        // No entity declaration here: the external subset is simply never read.
        let xml = "<!DOCTYPE r SYSTEM \"file:///etc/passwd\">\n<r><a>1</a><a>&xxe;</a></r>"
        var texts: [String] = []
        let error = try #require(
            importError {
                try XMLRecordReader(data: Data(xml.utf8), sourceName: "dtd.xml").forEachRecord { record in
                    texts.append(contentsOf: record.fields.map(\.value))
                }
            })
        #expect(error.code == .malformed)
        #expect(error.message.contains("undeclared entity &xxe;"))
        #expect(!texts.joined().contains("root:"))
        #expect(!error.description.contains("root:"))
        // A DOCTYPE without entities is fine.
        #expect(try read("<!DOCTYPE r [<!ELEMENT r ANY>]>\n<r><a>1</a></r>").count == 1)
    }

    @Test func readsFilesAndReportsProgress() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("feed.xml")
        try Data(sequencerFeed.utf8).write(to: url)
        var progress: [Int64] = []
        let records = try readAll(XMLRecordReader(fileURL: url, progress: { progress.append($0) }))
        #expect(records.count == 3)
        #expect(progress.last == Int64(sequencerFeed.utf8.count))
        #expect(records[0].location.source == url.path)
        let named = try readAll(XMLRecordReader(fileURL: url, sourceName: "https://example.org/feed.xml"))
        #expect(named[0].location.source == "https://example.org/feed.xml")
    }

    @Test func missingFileIsAnIOError() throws {
        let error = try #require(readError(XMLRecordReader(fileURL: URL(fileURLWithPath: "/nonexistent/feed.xml"))))
        #expect(error.code == .io)
        #expect(error.message.contains("/nonexistent/feed.xml"))
    }
}

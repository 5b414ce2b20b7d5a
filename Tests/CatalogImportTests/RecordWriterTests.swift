import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

/// Records without locations, for comparing what a round trip gives back.
private func stripped(_ records: [SourceRecord]) -> [[String]] { records.map(pairs) }

private func record(_ fields: [(String, String)]) -> SourceRecord {
    SourceRecord(fields: fields.map { SourceField(name: $0.0, value: $0.1) })
}

@Suite struct XMLRecordWriterTests {
    @Test func writesTheExpectedDocument() throws {
        var writer = XMLRecordWriter(rootElement: "sequenzer", recordElement: "Produkt", recordAttributes: ["id"])
        let data = try writer.data(for: [
            record([
                ("id", "7"), ("TitelText", "A & B <C>"), ("image@kind", "thumb"), ("image/url", "a.png"),
                ("Kategorie", "Windows"), ("Kategorie", "MAC OS X"),
            ]),
            record([]),
        ])
        #expect(
            String(decoding: data, as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <sequenzer>
                  <Produkt id="7">
                    <TitelText>A &amp; B &lt;C&gt;</TitelText>
                    <image kind="thumb"><url>a.png</url></image>
                    <Kategorie>Windows</Kategorie>
                    <Kategorie>MAC OS X</Kategorie>
                  </Produkt>
                  <Produkt/>
                </sequenzer>

                """)
    }

    @Test func sequencerFeedRoundTrips() throws {
        let original = try readAll(XMLRecordReader(data: Data(sequencerFeed.utf8), sourceName: "feed.xml"))
        var writer = XMLRecordWriter(rootElement: "sequenzer", recordElement: "Produkt")
        let data = try writer.data(for: original)
        let back = try readAll(XMLRecordReader(data: data, sourceName: "out.xml"))
        #expect(stripped(back) == stripped(original))
    }

    @Test func trickyValuesRoundTrip() throws {
        let records = [
            record([
                ("id", "a\"1\" & <2>\ttab\nline"),
                ("sku", "  spaced  "),
                ("Kurzbeschreibung", "  „Zitat“ am Anfang,\r\nWindows-Zeilenende, Tab\t und Ende  \n"),
                ("name@lang", "de"),
                ("name", "Kochbuch"),
                ("tag", "neu"),
                ("tag", "beliebt"),
                ("tag", ""),
                ("image@kind", "thumb"),
                ("image/url", "a.png?x=1&y=2"),
                ("image/size@unit", "px"),
                ("image/size", "40"),
                ("image", "mixed text"),
                ("image/url", "b.png"),
                ("Product Name", "Tisch ]]> <x/>"),
                ("1st", "one"),
                ("dc:creator", "Mari"),
                ("field", "literal field"),
                ("field@name", "x"),
                ("a//b", "empty segment"),
                ("empty", ""),
                ("üñíçødé", "names may be non-ASCII"),
            ]),
            record([("#text", "\n  own text „here“ "), ("child", "1")]),
        ]
        var writer = XMLRecordWriter(rootElement: "catalog", recordElement: "item", recordAttributes: ["id", "sku"])
        let data = try writer.data(for: records)
        let back = try readAll(XMLRecordReader(data: data, sourceName: "out.xml", recordElement: "item"))
        // Text beside child elements is written so that it is not read as mixed content: a new
        // element after the children, and the record's own text as <field name="#text">.
        #expect(stripped(back) == stripped(records))
    }

    @Test func languagesNamespacesAndRootAttributes() throws {
        var writer = XMLRecordWriter(
            rootElement: "feed", recordElement: "entry", recordAttributes: ["id"],
            rootAttributes: [XMLAttribute(name: "xmlns:dc", value: "urn:dc"), XMLAttribute(name: "v", value: "2")])
        let fields = [
            SourceField(name: "id", value: "7"), SourceField(name: "title", value: "Amboss"),
            SourceField(name: "title", value: "Anvil", language: "en"), SourceField(name: "dc:creator", value: "Nagy"),
            SourceField(name: "x:undeclared", value: "y"), SourceField(name: "weight", value: "1.50", kind: .number),
            SourceField(name: "none", value: "", kind: .null), SourceField(name: "gone", value: "", kind: .emptyList),
        ]
        let text = String(decoding: try writer.data(for: [SourceRecord(fields: fields)]), as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <feed xmlns:dc="urn:dc" v="2">
                  <entry id="7">
                    <title>Amboss</title>
                    <title xml:lang="en">Anvil</title>
                    <dc:creator>Nagy</dc:creator>
                    <field name="x:undeclared">y</field>
                    <weight>1.50</weight>
                    <none></none>
                  </entry>
                </feed>

                """)
        let back = try readAll(XMLRecordReader(data: Data(text.utf8), sourceName: "out.xml"))
        #expect(back[0].fields.map(\.language) == [nil, nil, "en", nil, nil, nil, nil])
        #expect(
            pairs(back[0]) == [
                "id=7", "title=Amboss", "title=Anvil", "dc:creator=Nagy", "x:undeclared=y", "weight=1.50", "none=",
            ])
    }

    @Test func invalidCharactersAreDropped() throws {
        var writer = XMLRecordWriter()
        let data = try writer.data(for: [record([("a", "x\u{1}\u{8}y\u{FFFE}z\u{FFFF}\u{7F}"), ("b@c", "\u{0}q")])])
        let back = try readAll(XMLRecordReader(data: data, sourceName: "out.xml"))
        #expect(stripped(back) == [["a=xyz\u{7F}", "b@c=q"]])
    }

    @Test func invalidElementNamesAreRefused() throws {
        var writer = XMLRecordWriter(rootElement: "my root")
        #expect(throws: ImportError.self) { try writer.data(for: []) }
    }

    @Test func writesToAFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("out.xml")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var sink = FileHandleSink(handle, name: url.path, bufferSize: 16)
        var writer = XMLRecordWriter(rootElement: "sequenzer", recordElement: "Produkt")
        try writer.write(from: XMLRecordReader(data: Data(sequencerFeed.utf8), sourceName: "feed.xml"), to: &sink)
        try handle.close()
        let back = try readAll(XMLRecordReader(fileURL: url))
        #expect(back.count == 3)
        #expect(back[0].values(of: "Kurzbeschreibung").first?.hasPrefix("Ein „Sequenzer“") == true)
    }
}

@Suite struct JSONRecordWriterTests {
    @Test func roundTripsThroughTheReader() throws {
        let json = #"""
            {"recipes": [
              {"id": 1, "title": "Gulyásleves", "price": 12.50, "hot": true, "categories": ["Levesek", "Magyar"],
               "image": {"url": "https://example.org/a/b.png", "w": 40}, "steps": [{"n": 1}, {"n": 2}]},
              {"id": 2, "title": "Quote \" backslash \\ slash / tab \t nl \n ctl \u0001 emoji 😀", "empty": ""}
            ]}
            """#
        let original = try readAll(JSONRecordReader(data: Data(json.utf8), sourceName: "in.json"))
        var writer = JSONRecordWriter()
        let data = try writer.data(for: original)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""image.url":"https://example.org/a/b.png""#))
        #expect(text.contains(#""categories":["Levesek","Magyar"]"#))
        #expect(text.contains(#"\u0001"#))
        #expect(text.split(separator: "\n").count == 4)
        let back = try readAll(JSONRecordReader(data: data, sourceName: "out.json"))
        #expect(stripped(back) == stripped(original))
        #expect(back[0].values(of: "price") == ["12.50"])
    }

    @Test func valuesKeepTheirTypes() throws {
        let record = SourceRecord(fields: [
            SourceField(name: "n", value: "1.50", kind: .number), SourceField(name: "b", value: "true", kind: .bool),
            SourceField(name: "z", value: "", kind: .null), SourceField(name: "one", value: "x", isListElement: true),
            SourceField(name: "e", value: "", kind: .emptyList), SourceField(name: "t", value: "Tee", language: "de"),
        ])
        var writer = JSONRecordWriter()
        let text = String(decoding: try writer.data(for: [record]), as: UTF8.self)
        #expect(text == "[\n{\"n\":1.50,\"b\":true,\"z\":null,\"one\":[\"x\"],\"e\":[],\"t@de\":\"Tee\"}\n]\n")
        let back = try readAll(JSONRecordReader(data: Data(text.utf8), sourceName: "out.json"))
        #expect(back[0].fields.map(\.kind) == [.number, .bool, .null, .text, .emptyList, .text])
        #expect(back[0].fields[3].isListElement)
    }

    @Test func repeatedNamesAreGrouped() throws {
        var writer = JSONRecordWriter()
        let data = try writer.data(for: [record([("a", "1"), ("b", "2"), ("a", "3")])])
        #expect(String(decoding: data, as: UTF8.self) == "[\n{\"a\":[\"1\",\"3\"],\"b\":\"2\"}\n]\n")
        var empty = JSONRecordWriter()
        #expect(String(decoding: try empty.data(for: []), as: UTF8.self) == "[\n]\n")
    }
}

@Suite struct CSVRecordWriterTests {
    @Test func roundTripsThroughTheReader() throws {
        let records = [
            record([
                ("id", "1"), ("name", "Stuhl, groß"), ("note", "Ein \"Zitat\"\nzweite Zeile"), ("price", " 12.50 "),
            ]),
            record([("id", "2"), ("name", "„Tisch“"), ("price", "7")]),
        ]
        var writer = CSVRecordWriter(columns: CSVRecordWriter.columns(of: records))
        let data = try writer.data(for: records)
        #expect(
            String(decoding: data, as: UTF8.self)
                == "id,name,note,price\r\n1,\"Stuhl, groß\",\"Ein \"\"Zitat\"\"\nzweite Zeile\", 12.50 \r\n2,„Tisch“,,7\r\n"
        )
        let back = try readAll(CSVRecordReader(data: data, sourceName: "out.csv"))
        #expect(stripped(back) == stripped(records))
    }

    @Test func repeatedValuesShareACell() throws {
        var writer = CSVRecordWriter(columns: ["title", "categories"], separator: ";")
        let data = try writer.data(for: [
            record([("title", "A"), ("categories", "Windows"), ("categories", "MAC OS X")])
        ])
        #expect(String(decoding: data, as: UTF8.self) == "title;categories\r\nA;\"Windows; MAC OS X\"\r\n")
        let back = try readAll(CSVRecordReader(data: data, sourceName: "out.csv"))
        #expect(stripped(back) == [["title=A", "categories=Windows; MAC OS X"]])
    }

    @Test func badSettingsAreRefused() throws {
        var noColumns = CSVRecordWriter(columns: [])
        #expect(throws: ImportError.self) { try noColumns.data(for: []) }
        var duplicate = CSVRecordWriter(columns: ["a", "a"])
        #expect(throws: ImportError.self) { try duplicate.data(for: []) }
        var quote = CSVRecordWriter(columns: ["a"], separator: "\"")
        #expect(throws: ImportError.self) { try quote.data(for: []) }
    }
}

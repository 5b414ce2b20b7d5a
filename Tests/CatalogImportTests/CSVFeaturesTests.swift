import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

/// CSV features for faithful round trips and real files: comment lines, empty versus missing,
/// JSON columns, the embedded definition.
@Suite struct CSVFeaturesTests {
    @Test func commentedTSV() throws {
        var reader = CSVRecordReader(fileURL: fixture("zones.tab"))
        reader.comment = "#"
        var declared: [String] = []
        var records: [SourceRecord] = []
        try reader.forEachRecord(fieldNames: { declared = $0 }) { records.append($0) }
        #expect(declared == ["codes", "coordinates", "TZ", "comments"])
        #expect(
            records.map(pairs) == [
                ["codes=AD", "coordinates=+4230+00131", "TZ=Europe/Andorra"],
                ["codes=HU", "coordinates=+4730+01905", "TZ=Europe/Budapest"],
                ["codes=SE", "coordinates=+5920+01803", "TZ=Europe/Stockholm", "comments=Sweden, the whole country"],
            ])
        // Lines are still counted: the last row is on line 9.
        #expect(records[2].location.line == 9)
        // Without --comment the first comment line is the header, and the real header a row too wide.
        let plain = readError(CSVRecordReader(fileURL: fixture("zones.tab"), separator: "\t"))
        #expect(plain?.message == "this row has more cells than the header's 1 column")
        #expect(plain?.location.line == 4)
    }

    @Test func badCommentCharacter() {
        var reader = CSVRecordReader(data: Data("a,b\n1,2\n".utf8), sourceName: "x.csv", separator: ",")
        reader.comment = ","
        #expect(readError(reader)?.code == .invalidArgument)
    }

    @Test func emptyIsNotMissing() throws {
        let records = try readAll(
            CSVRecordReader(data: Data("a,b,c\n\"\",,x\n".utf8), sourceName: "x.csv"))
        #expect(records.map(pairs) == [["a=", "c=x"]])
        // The writer keeps the difference.
        var writer = CSVRecordWriter(columns: ["a", "b", "c"])
        let data = try writer.data(for: records)
        #expect(String(decoding: data, as: UTF8.self) == "a,b,c\r\n\"\",,x\r\n")
    }

    @Test func jsonColumnsKeepListsAndTypes() throws {
        let records = [
            SourceRecord(fields: [
                SourceField(name: "title", value: "Tea"), SourceField(name: "tags", value: "a", isListElement: true),
                SourceField(name: "tags", value: "b, c", isListElement: true),
                SourceField(name: "weight", value: "1.50", kind: .number),
                SourceField(name: "organic", value: "", kind: .null),
                SourceField(name: "name", value: "Tee", language: "de"),
            ]),
            SourceRecord(fields: [
                SourceField(name: "title", value: "Coffee"), SourceField(name: "tags", value: "", kind: .emptyList),
                SourceField(name: "weight", value: "2", kind: .number),
            ]),
        ]
        var layout = CSVRecordWriter.Layout()
        for record in records { layout.add(record) }
        #expect(layout.columns == ["title", "tags", "weight", "organic", "name@de"])
        #expect(layout.jsonColumns == ["tags", "weight", "organic"])
        var writer = CSVRecordWriter(layout: layout)
        let text = String(decoding: try writer.data(for: records), as: UTF8.self)
        #expect(
            text
                == "title,tags:json,weight:json,organic:json,name@de\r\nTea,\"[\"\"a\"\",\"\"b, c\"\"]\",1.50,null,Tee\r\nCoffee,[],2,,\r\n"
        )
        let back = try readAll(CSVRecordReader(data: Data(text.utf8), sourceName: "x.csv"))
        #expect(
            back.map(pairs) == [
                ["title=Tea", "tags=a", "tags=b, c", "weight=1.50", "organic=", "name@de=Tee"],
                ["title=Coffee", "tags=", "weight=2"],
            ])
        #expect(back[0].fields.map(\.kind) == [.text, .text, .text, .number, .null, .text])
        #expect(back[0].fields.map(\.isListElement) == [false, true, true, false, false, false])
        #expect(back[1].fields[1].kind == .emptyList)
        // A cell of a JSON column that is not JSON says where.
        let bad = readError(CSVRecordReader(data: Data("t,n:json\nx,{oops\n".utf8), sourceName: "x.csv"))
        #expect(bad?.code == .malformed)
        #expect(bad?.location == SourceLocation(source: "x.csv", line: 2, column: 3))
        #expect(bad?.field == "n")
    }

    @Test func embeddedDefinitionsAreFoundAndSkipped() throws {
        var definition = CatalogDefinition(id: "pantry", title: "Kamra", locale: "hu", mapping: [.title: "Name"])
        definition.fieldTypes = ["Gewicht": .number]
        let directory = try TemporaryDirectory()
        let record = SourceRecord(fields: [SourceField(name: "Name", value: "Mák <&> ?>")])
        for format in [ImportFormat.xml, .json, .csv] {
            var sink = DataSink()
            switch format {
            case .xml:
                var writer = XMLRecordWriter(definition: definition)
                try writer.write(records: [record], to: &sink)
            case .json:
                var writer = JSONRecordWriter(definition: definition)
                try writer.write(records: [record], to: &sink)
            default:
                var writer = CSVRecordWriter(columns: ["Name"], definition: definition)
                try writer.write(records: [record], to: &sink)
            }
            let url = directory.file("export.\(format.rawValue)")
            try sink.data.write(to: url)
            let found = try #require(EmbeddedDefinition.read(fileURL: url, format: format), "\(format)")
            #expect(found == definition)
            // The readers skip it and read the records.
            let reader: any RecordSource =
                switch format {
                case .xml: XMLRecordReader(fileURL: url)
                case .json: JSONRecordReader(fileURL: url)
                default: CSVRecordReader(fileURL: url)
                }
            #expect(try readAll(reader).map(pairs) == [["Name=Mák <&> ?>"]], "\(format)")
        }
        // A plain file has none.
        let plain = directory.file("plain.csv")
        try Data("Name\nx\n".utf8).write(to: plain)
        #expect(EmbeddedDefinition.read(fileURL: plain, format: .csv) == nil)
    }
}

import CatalogCollation
import CatalogCore
import CatalogImport
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Real public files as they come (issue 22): countries as names or alpha-3 codes, unmapped
/// roles, a tz-style header on a comment line, invisible characters between XML elements, and
/// repeated ids that name both rows.
@Suite struct RealFilesTests {
    private func mapped(_ csv: String, _ configure: (inout CatalogDefinition) -> Void = { _ in }) throws
        -> (records: [Record], notes: [String])
    {
        var definition = CatalogDefinition(id: "c", title: "C", locale: "en")
        configure(&definition)
        var mapper = RecordMapper(definition: definition)
        let sources = try readAll(CSVRecordReader(data: Data(csv.utf8), sourceName: "countries.csv"))
        var records: [Record] = []
        for source in sources { records.append(try mapper.record(from: source)) }
        return (records, mapper.notes)
    }

    @Test(arguments: [
        ("Afghanistan", "AF"), ("USA", "US"), ("deu", "DE"), ("United States of America", "US"),
        ("Bolivia", "BO"), ("Bolivia, Plurinational State of", "BO"), ("COTE D'IVOIRE", "CI"), ("Russia", "RU"),
        ("Viet Nam", "VN"), ("Congo", "CG"), ("de", "DE"), ("XK", "XK"),
    ])
    func countryNamesAndAlpha3Codes(text: String, code: String) {
        #expect(CountryCode(resolving: text)?.text == code)
    }

    @Test(arguments: ["Atlantis", "Korea", "U", "ABC", "Deutschland x"])
    func notCountries(text: String) {
        #expect(CountryCode(resolving: text) == nil)
    }

    @Test func countryNamesBecomeCodesAndKeepTheirText() throws {
        let (records, notes) = try mapped("title,country\nKabul,Afghanistan\nBerlin,DEU\nParis,FR\n")
        #expect(records.map(\.country) == ["AF", "DE", "FR"])
        #expect(records[0].fields["country"] == .text("Afghanistan"))
        #expect(records[1].fields["country"] == .text("DEU"))
        #expect(records[2].fields["country"] == nil)
        #expect(notes.isEmpty)
        // The export gives the source's text back.
        let mapper = RecordMapper(definition: CatalogDefinition(id: "c", title: "C", locale: "en"))
        #expect(pairs(mapper.sourceRecord(from: records[0])).contains("country=Afghanistan"))
        #expect(pairs(mapper.sourceRecord(from: records[2])).contains("country=FR"))
    }

    @Test func anUnknownCountryIsAnExtraFieldWithANote() throws {
        let (records, notes) = try mapped("title,country\nA,Atlantis\nB,Lemuria\nC,HU\n")
        #expect(records.map(\.country) == [nil, nil, "HU"])
        #expect(records[0].fields["country"] == .text("Atlantis"))
        #expect(
            notes == [
                "countries.csv:2:3: field \"country\": country \"Atlantis\" is not a country code or name; "
                    + "2 records have no country, the text is kept in \"country\""
            ])
    }

    @Test func anUnmappedRoleIsAnExtraField() throws {
        let (records, notes) = try mapped("title,country,price\nA,Atlantis,12\n") {
            $0.mapping[.country] = ""
            $0.mapping[.price] = ""
        }
        #expect(records[0].country == nil && records[0].price == nil)
        #expect(records[0].fields == ["country": .text("Atlantis"), "price": .text("12")])
        #expect(notes.isEmpty)
        var definition = CatalogDefinition(id: "c", title: "C", locale: "en")
        definition.mapping[.country] = ""
        #expect(definition.isUnmapped(.country) && !definition.isUnmapped(.price))
        // An unmapped role survives storing the definition.
        let decoded = try JSONDecoder().decode(CatalogDefinition.self, from: JSONEncoder().encode(definition))
        #expect(decoded.isUnmapped(.country))
    }

    @Test func theHeaderOnTheLastCommentLine() throws {
        let tab = """
            # a zone table
            #
            #codes\tcoordinates\tTZ\tcomments
            AT\t+4813+01620\tEurope/Vienna
            # between rows
            US\t+404251-0740023\tAmerica/New_York\tEastern (most areas)

            """
        var reader = CSVRecordReader(data: Data(tab.utf8), sourceName: "zones.tab")
        reader.comment = "#"
        var declared: [String] = []
        var records: [SourceRecord] = []
        try reader.forEachRecord(fieldNames: { declared = $0 }) { records.append($0) }
        #expect(declared == ["codes", "coordinates", "TZ", "comments"])
        #expect(records.map(pairs)[0] == ["codes=AT", "coordinates=+4813+01620", "TZ=Europe/Vienna"])
        #expect(records[1].location.line == 6)
        // A comment of one cell is no header: the first line is.
        var plain = CSVRecordReader(data: Data("# notes\nid,title\n1,A\n".utf8), sourceName: "x.csv")
        plain.comment = "#"
        #expect(try readAll(plain).map(pairs) == [["id=1", "title=A"]])
    }

    /// GeoJSON-style coordinates: arrays inside arrays become one list of their values, and the
    /// import says so once per field, with the first place and how many arrays (keyed records too).
    @Test(arguments: [false, true])
    func arraysInsideArraysAreFlattenedWithANote(keyed: Bool) throws {
        let records = [
            #""id": "a", "shape": [[13.1, 52.3], [13.7, 52.3]], "point": [13.4, 52.5]"#,
            #""id": "b", "shape": [[1, 2]], "deep": [[[1], [2]]]"#,
        ]
        let objects = records.map { "{" + $0 + "}" }
        let json =
            keyed
            ? "{" + objects.enumerated().map { #""k\#($0.offset)": "# + $0.element }.joined(separator: ",\n") + "}"
            : "[" + objects.joined(separator: ",\n") + "]"
        let reader = JSONRecordReader(data: Data(json.utf8), sourceName: "places.json")
        var read: [SourceRecord] = []
        let summary = try reader.read(cancellation: .never, fieldNames: { _ in }) { read.append($0) }
        #expect(
            read.map(pairs)[0].filter { $0.hasPrefix("shape=") } == [
                "shape=13.1", "shape=52.3", "shape=13.7", "shape=52.3",
            ])
        #expect(summary.notes.count == 2)
        #expect(summary.notes.first?.hasPrefix(keyed ? "places.json:1:" : "places.json:1:") == true)
        #expect(summary.notes.first?.contains(#"field "shape""#) == true)
        #expect(summary.notes.first?.hasSuffix("(3 arrays in all)") == true)
        #expect(summary.notes.last?.hasPrefix("places.json:2:") == true)
        #expect(summary.notes.last?.contains(#"field "deep""#) == true)
        // A plain array is no news.
        #expect(summary.notes.allSatisfy { !$0.contains("point") })
    }

    @Test func invisibleCharactersBetweenElementsAreNotMixedContent() throws {
        let xml =
            "<feed><item>\u{200B}<title>Kabul</title>\u{FEFF}\u{00A0}<code>AF</code></item>"
            + "<item><title>Mixed <b>text</b> here</title><code>x</code></item></feed>"
        let reader = XMLRecordReader(data: Data(xml.utf8), sourceName: "feed.xml")
        var records: [SourceRecord] = []
        let summary = try reader.read(cancellation: .never, fieldNames: { _ in }) { records.append($0) }
        #expect(records.map(pairs)[0] == ["title=Kabul", "code=AF"])
        #expect(records.map(pairs)[1] == ["title=Mixed text here", "code=x"])
        #expect(summary.notes.count == 1)
        #expect(summary.notes.first?.hasPrefix("feed.xml:1:") == true)
        #expect(summary.notes.first?.contains("<item>") == true)
        // Real text between the elements is still mixed content.
        let mixed = try readAll(
            XMLRecordReader(data: Data("<f><i>Hi <t>A</t></i><i>B</i></f>".utf8), sourceName: "f.xml"))
        #expect(mixed.map(pairs)[0] == ["#text=Hi A"])
    }

    @Test func aRepeatedIdNamesBothRows() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("dup.csv")
        try Data("id,title\np1,A\np2,B\np1,C\n".utf8).write(to: file)
        let temporary = try TemporaryDatabase()
        let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
        let error = importError {
            _ = try importer.run(ImportRequest(source: file.path, catalog: "dup"), database: temporary.database)
        }
        #expect(error?.location.line == 4 && error?.location.column == 1)
        #expect(error?.message == "two records have the id \"p1\": this one and the one at \(file.path):2:1")
        #expect(try temporary.database.read { try $0.catalog("dup") } == nil)
    }

    /// Repeated ids are found where records are indexed, behind the reading thread: the first
    /// mistake in the file is still the one reported, however far apart the two rows are, even
    /// when reading meets another mistake soon after.
    @Test func aRepeatedIdIsReportedBeforeALaterMistake() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("dup.csv")
        var text = "id,title,price\n"
        for number in 0..<3_000 { text += "p\(number),Title \(number),\(number).50\n" }
        text += "p7,Again,1.00\n"
        text += "p-bad,Bad,twelve\n"
        try Data(text.utf8).write(to: file)
        let temporary = try TemporaryDatabase()
        let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
        let error = importError {
            _ = try importer.run(ImportRequest(source: file.path, catalog: "dup"), database: temporary.database)
        }
        #expect(error?.location.line == 3_002)
        #expect(error?.message == "two records have the id \"p7\": this one and the one at \(file.path):9:1")
        #expect(try temporary.database.read { try $0.catalog("dup") } == nil)
    }

    /// Ids derived from repeated titles are numbered in source order (`afghanistan`,
    /// `afghanistan-2`); an export writes the numbered ones, so importing it again, in any order,
    /// keeps every record's id and the catalog keyed by titles.
    @Test func exportedIdsStayTheIdsWhateverTheOrder() throws {
        let directory = try TemporaryDirectory()
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let importer = SourceImporter(collation: { try ICUCollation.forImport(locale: $0) })
        let source = directory.file("places.csv")
        try Data("title,n\nAfghanistan,1\nAfghanistan,2\nAfghanistan,3\nKabul,4\n".utf8).write(to: source)
        _ = try importer.run(ImportRequest(source: source.path, catalog: "p"), database: database)
        func ids() throws -> [String: String] {
            try database.read { reader in
                let catalog = try #require(try reader.catalog("p"))
                var ids: [String: String] = [:]
                try reader.forEachItem(of: catalog) { item in
                    let record = try item.record()
                    ids[record.id] = record.fields["n"]?.scalarText
                }
                return ids
            }
        }
        let before = try ids()
        #expect(before == ["afghanistan": "1", "afghanistan-2": "2", "afghanistan-3": "3", "kabul": "4"])
        let csv = try database.read { reader in
            let catalog = try #require(try reader.catalog("p"))
            var sink = DataSink()
            try CatalogExporter.write(
                .csv, definition: catalog.definition, embedDefinition: false,
                records: { body in try reader.forEachItem(of: catalog) { try body(try $0.record()) } }, to: &sink)
            return String(decoding: sink.data, as: UTF8.self)
        }
        // The numbered ids are written, the plain slugs are not needed.
        #expect(csv.contains("afghanistan-2") && csv.contains("afghanistan-3"))
        // The rows reversed: every record keeps its id, nothing is added or re-keyed.
        var lines = csv.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        let reversed = directory.file("reversed.csv")
        try Data(([header] + lines.reversed()).joined(separator: "\n").utf8).write(to: reversed)
        guard
            case .imported(let summary) = try importer.run(
                ImportRequest(source: reversed.path, catalog: "p"), database: database)
        else {
            Issue.record("expected an import")
            return
        }
        #expect(summary.added == 0 && summary.total == 4)
        #expect(try ids() == before)
        #expect(try database.read { try $0.catalog("p")?.definition.idSource } == .title("title"))
    }

    /// Values are kept exactly as they came, leading and trailing spaces included, by every reader;
    /// only values a role parses (id, title, price, quantity, country…) are read without them.
    @Test func spacesAroundValuesAreKept() throws {
        let sources: [any RecordSource] = [
            CSVRecordReader(data: Data("title,note\n Anvil , two spaces  \n".utf8), sourceName: "x.csv"),
            XMLRecordReader(
                data: Data("<r><i><title> Anvil </title><note> two spaces  </note></i></r>".utf8),
                sourceName: "x.xml", recordElement: nil),
            JSONRecordReader(
                data: Data(#"[{"title": " Anvil ", "note": " two spaces  "}]"#.utf8), sourceName: "x.json"),
        ]
        for source in sources {
            var mapper = RecordMapper(definition: CatalogDefinition(id: "c", title: "C", locale: "en"))
            var records: [Record] = []
            try source.forEachRecord { records.append(try mapper.record(from: $0)) }
            #expect(records.first?.fields["note"] == .text(" two spaces  "))
            #expect(records.first?.title == "Anvil" && records.first?.id == "anvil")
            let exported = mapper.sourceRecord(from: try #require(records.first))
            #expect(pairs(exported).contains("note= two spaces  "))
        }
    }

    @Test func countryNamesInTheCatalogsLanguageComeFromICU() {
        let german = ICUCountryNames.names(locale: "de")
        #expect(german[CountryCode.nameKey("Deutschland")] == "DE")
        #expect(german[CountryCode.nameKey("FRANKREICH")] == "FR")
        #expect(ICUCountryNames.names(locale: "hu")[CountryCode.nameKey("Magyarország")] == "HU")
    }
}

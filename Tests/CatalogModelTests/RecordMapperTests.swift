import CatalogModel
import Foundation
import Testing

@Suite struct RecordMapperTests {
    static let sequencers: CatalogDefinition = {
        var definition = CatalogDefinition(id: "sequencers", title: "Sequenzer", locale: "de")
        definition.rootElement = "sequenzer"
        definition.recordElement = "Produkt"
        definition.mapping = [.title: "TitelText", .description: "Kurzbeschreibung", .categories: "Kategorie"]
        definition.categoryValues = [
            "MAC OS X": ["Apple"], "Windows": ["Windows"], "MAC OS X Windows": ["Apple", "Windows"],
        ]
        return definition
    }()

    func source(_ pairs: [(String, String)], line: Int = 3) -> SourceRecord {
        SourceRecord(
            fields: pairs.map {
                SourceField(
                    name: $0.0, value: $0.1, location: SourceLocation(source: "feed.xml", line: line, column: 5))
            },
            location: SourceLocation(source: "feed.xml", line: line, column: 1))
    }

    @Test func bothPlatformProgramIsUnderAppleAndWindows() throws {
        var mapper = RecordMapper(definition: Self.sequencers)
        let record = try mapper.record(
            from: source([("TitelText", "Klangwerk"), ("Kurzbeschreibung", ""), ("Kategorie", "MAC OS X Windows")]))
        #expect(record.categories == ["Apple", "Windows"])
        #expect(record.description == nil)
        #expect(record.id == "klangwerk")
    }

    @Test func derivedIDsAreStableAndUnique() throws {
        var first = RecordMapper(definition: Self.sequencers)
        let a = try first.record(from: source([("TitelText", "Ötzi Drums")]))
        let b = try first.record(from: source([("TitelText", "Ötzi  drums!")]))
        #expect(a.id == "otzi-drums")
        #expect(b.id == "otzi-drums-2")
        var second = RecordMapper(definition: Self.sequencers)
        #expect(try second.record(from: source([("TitelText", "Ötzi Drums")])).id == a.id)
    }

    @Test func rolesByNameExtrasKeptRepeatedAsList() throws {
        var mapper = RecordMapper(definition: CatalogDefinition(id: "p", title: "P", locale: "en"))
        let record = try mapper.record(
            from: source([
                ("id", "p1"), ("title", "Anvil"), ("price", "12,50"), ("currency", "eur"), ("quantity", "3"),
                ("country", "de"), ("featured", "true"), ("sku", "A-1"), ("tag", "x"), ("tag", "y"),
            ]))
        #expect(record.price == Decimal(string: "12.5"))
        #expect(record.currency == "EUR")
        #expect(record.country == "DE")
        #expect(record.featured == 1)
        #expect(record.fields == ["sku": .text("A-1"), "tag": .texts(["x", "y"])])
    }

    /// A country that is neither a code nor a name is no error (see RealFilesTests): only an extra field.
    @Test(arguments: [
        ("price", "12 EUR", "price \"12 EUR\" is not a number"),
        ("quantity", "3.5", "quantity \"3.5\" is not a whole number"),
        ("featured", "maybe", "featured \"maybe\" is neither a rank nor true/false"),
    ])
    func badValuesSayWhatAndWhere(field: String, value: String, message: String) {
        var mapper = RecordMapper(definition: CatalogDefinition(id: "p", title: "P", locale: "en"))
        #expect {
            try mapper.record(from: source([("title", "Anvil"), (field, value)], line: 7))
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.code == .invalidValue && error.field == field && error.message == message
                && error.description == "feed.xml:7:5: field \"\(field)\": \(message)"
        }
    }

    @Test func missingTitleIsAnError() {
        var mapper = RecordMapper(definition: Self.sequencers)
        #expect(throws: ImportError.self) { try mapper.record(from: source([("Kurzbeschreibung", "x")])) }
    }

    @Test func exportRestoresTheSourceShape() throws {
        var mapper = RecordMapper(definition: Self.sequencers)
        let original = source([
            ("TitelText", "Klangwerk"), ("Kurzbeschreibung", "Zeile 1\nZeile „2“"), ("Kategorie", "MAC OS X Windows"),
        ])
        let record = try mapper.record(from: original)
        let back = mapper.sourceRecord(from: record)
        #expect(back.fields.map(\.name) == ["TitelText", "Kurzbeschreibung", "Kategorie"])
        #expect(back.fields.map(\.value) == ["Klangwerk", "Zeile 1\nZeile „2“", "MAC OS X Windows"])
    }

    @Test func oneFieldFeedsSeveralRoles() throws {
        var definition = CatalogDefinition(id: "c", title: "C", locale: "en")
        definition.mapping = [.id: "alpha_2", .country: "alpha_2", .title: "name"]
        var mapper = RecordMapper(definition: definition)
        let record = try mapper.record(from: source([("alpha_2", "hu"), ("name", "Hungary")]))
        #expect(record.id == "hu")
        #expect(record.country == "HU")
        #expect(record.fields.isEmpty)
        #expect(mapper.sourceRecord(from: record).fields.map(\.name) == ["alpha_2", "name"])
    }

    @Test func severalValuesForASingleRoleAreKept() throws {
        var mapper = RecordMapper(definition: CatalogDefinition(id: "p", title: "P", locale: "en"))
        let record = try mapper.record(from: source([("title", "First"), ("title", "Second"), ("price", "1")]))
        #expect(record.title == "First")
        #expect(record.fields["title"] == .texts(["First", "Second"]))
        _ = try mapper.record(from: source([("title", "A"), ("title", "B")]))
        _ = try mapper.record(from: source([("title", "Only")]))
        #expect(
            mapper.notes == [
                "title: 2 records had several \"title\" values; the first untranslated one is the title, all are kept in \"title\""
            ])
        // The export gives every value again.
        #expect(mapper.sourceRecord(from: record).fields.map(\.value).prefix(2) == ["First", "Second"])
    }

    @Test(arguments: ["name@de", "name_de", "name.de"])
    func translationsByFieldName(_ germanName: String) throws {
        var definition = CatalogDefinition(id: "t", title: "T", locale: "de", mapping: [.title: "name"])
        definition.language = "de"
        var mapper = RecordMapper(definition: definition)
        let record = try mapper.record(
            from: source([
                ("name", "Coffee grinder"), (germanName, "Kaffeemühle"), ("name_fr", "Moulin"), ("name_2", "x"),
            ]))
        #expect(record.title == "Kaffeemühle")
        #expect(record.fields["title@und"] == .text("Coffee grinder"))
        #expect(record.fields["title@fr"] == .text("Moulin"))
        // `_2` is no language: an extra field like any other.
        #expect(record.fields["name_2"] == .text("x"))
        let back = mapper.sourceRecord(from: record)
        #expect(back.fields.map { "\($0.name)@\($0.language ?? "-")=\($0.value)" }.contains("name@de=Kaffeemühle"))
        var again = RecordMapper(definition: definition)
        #expect(try again.record(from: back) == record)
    }

    /// Tags with a script or a POSIX modifier, and codes Foundation's ISO list lacks but CLDR
    /// names, are translations too: exported as `name@sr@latin`, they come back as translations.
    @Test(arguments: ["sr@latin", "be@latin", "ca@valencia", "en@shaw", "sd@devanagari", "mhr", "zh_Hant_HK"])
    func translationsWithModifiersAndUncommonCodes(_ tag: String) throws {
        let definition = CatalogDefinition(id: "t", title: "T", locale: "en", mapping: [.title: "name"])
        var mapper = RecordMapper(definition: definition)
        let record = try mapper.record(
            from: source([
                ("name", "Calculator"), ("name@" + tag, "Kalkulator"), ("name_old", "Calc"), ("name_usd", "1"),
            ]))
        #expect(record.fields["title@" + tag] == .text("Kalkulator"))
        // Suffixes that are no language stay fields of their own.
        #expect(record.fields["name_old"] == .text("Calc"))
        #expect(record.fields["name_usd"] == .text("1"))
        let back = mapper.sourceRecord(from: record)
        #expect(back.fields.contains { $0.name == "name" && $0.language == tag && $0.value == "Kalkulator" })
        var again = RecordMapper(definition: definition)
        #expect(try again.record(from: back) == record)
    }

    @Test(arguments: ["sr@latin", "ca@valencia", "pt_BR", "zh-Hant-HK", "mhr", "de"])
    func languageTags(_ tag: String) {
        #expect(LanguageTag.isTag(tag[...]))
    }

    @Test(arguments: ["old", "usd", "2", "sr@", "sr@l", "@latin", "sr@latin@x", "sr@lat-in", "de-", "xx", "qaa"])
    func notLanguageTags(_ text: String) {
        #expect(!LanguageTag.isTag(text[...]))
    }

    @Test func typedFieldsFromText() throws {
        var definition = CatalogDefinition(id: "t", title: "T", locale: "en")
        definition.fieldTypes = ["weight": .number, "organic": .bool]
        var mapper = RecordMapper(definition: definition)
        let record = try mapper.record(
            from: source([("title", "Tea"), ("weight", " 1,50 "), ("organic", "Yes"), ("weight", "")]))
        #expect(record.fields["weight"] == .list([.number("1.50"), .null]))
        #expect(record.fields["organic"] == .bool(true))
        #expect {
            try mapper.record(from: source([("title", "Tea"), ("weight", "heavy")], line: 3))
        } throws: { error in
            (error as? ImportError)?.description
                == "feed.xml:3:5: field \"weight\": \"heavy\" is not a number (the field is typed as a number)"
        }
    }

    @Test func dateFieldsAreCheckedAndKeptAsWritten() throws {
        var definition = CatalogDefinition(id: "t", title: "T", locale: "en")
        definition.fieldTypes = ["released": .date]
        var mapper = RecordMapper(definition: definition)
        let record = try mapper.record(
            from: source([("title", "Tea"), ("released", " 2024-05-01 "), ("released", "2024-05-01T12:30+02:00")]))
        #expect(record.fields["released"] == .list([.text("2024-05-01"), .text("2024-05-01T12:30+02:00")]))
        #expect(try mapper.record(from: source([("title", "Tea"), ("released", "")])).fields["released"] == .null)
        #expect {
            try mapper.record(from: source([("title", "Tea"), ("released", "1.5.2024")], line: 4))
        } throws: { error in
            (error as? ImportError)?.description
                == "feed.xml:4:5: field \"released\": \"1.5.2024\" is not an ISO 8601 date such as 2024-05-01 or "
                + "2024-05-01T12:30Z (the field is typed as a date)"
        }
    }

    @Test func requiredMappingsMustNameAField() throws {
        var definition = CatalogDefinition(id: "t", title: "T", locale: "en", mapping: [.id: "alpha2"])
        var mapper = RecordMapper(definition: definition)
        mapper.requiredSources = [.id: "alpha2"]
        mapper.declare(fieldNames: ["alpha_2", "alpha_3", "name", "title"])
        _ = try mapper.record(from: source([("alpha_2", "AD"), ("title", "Andorra")]))
        #expect {
            try mapper.finish()
        } throws: { error in
            (error as? ImportError)?.message
                == "--field id=alpha2: no field \"alpha2\" in the source; its fields: alpha_2, alpha_3, name, title"
        }
        definition.mapping = [.title: "Name"]
        var titled = RecordMapper(definition: definition)
        titled.requiredSources = [.title: "Name"]
        #expect {
            try titled.record(from: source([("name", "x")]))
        } throws: { error in
            (error as? ImportError)?.message == "--field title=Name: no field \"Name\" in the source; its fields: name"
        }
    }

    @Test func idSourceSaysHowRecordsWereIdentified() throws {
        var derived = RecordMapper(definition: Self.sequencers)
        #expect(derived.idSource == nil)
        _ = try derived.record(from: source([("TitelText", "A")]))
        #expect(derived.idSource == .title("TitelText"))
        var keyed = RecordMapper(definition: CatalogDefinition(id: "k", title: "K", locale: "en"))
        _ = try keyed.record(from: source([("id", "1"), ("title", "A")]))
        #expect(keyed.idSource == .field("id"))
    }

    @Test func recordJSONHasEveryKey() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Record(id: "a", title: "A")), as: UTF8.self)
        #expect(
            json
                == #"{"categories":[],"country":null,"currency":null,"description":null,"featured":null,"fields":{},"id":"a","image":null,"price":null,"quantity":null,"section":null,"subtitle":null,"title":"A"}"#
        )
    }
}

@Suite struct DecimalParsingTests {
    @Test(arguments: [
        ("12.50", "12.5"), ("12,50", "12.5"), ("1234", "1234"), ("-3.5", "-3.5"), ("+7", "7"), ("0.99", "0.99"),
        ("123456789012345678901234.5", "123456789012345678901234.5"),
    ])
    func parsesExactly(text: String, expected: String) throws {
        let value = try #require(RecordMapper.parseDecimal(text))
        #expect(value == Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test(arguments: ["", "1.2.3", ".5", "5.", "1e3", "12 EUR", "€12", "1,234.50", "--1", "1-"])
    func rejectsEverythingElse(text: String) {
        #expect(RecordMapper.parseDecimal(text) == nil)
    }
}

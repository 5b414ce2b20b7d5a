import CatalogCollation
import CatalogCore
import CatalogEngines
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Filters and facets on any of a catalog's own fields (`filter=`, `facets=`, the facet value
/// search and the fields its settings show), on every engine: every operator, the built-in
/// filters inside an expression, live edits in new segments, and the 400s that name the field.
@Suite struct FieldFilterTests {
    static let engines = TemporaryDatabase.Engine.available

    static let garage = CatalogDefinition(
        id: "cars", title: "Cars", locale: "en",
        categories: [CategoryInfo(id: 1, name: "Sedan"), CategoryInfo(id: 2, name: "Compact")])

    static func car(
        _ id: String, _ title: String, origin: String, cylinders: Int, horsepower: String, year: Int,
        released: String?, price: Decimal, country: String, category: String, extra: [String: FieldValue] = [:]
    ) -> Record {
        var fields: [String: FieldValue] = [
            "Origin": .text(origin), "Cylinders": .number(String(cylinders)), "Horsepower": .number(horsepower),
            "Year": .number(String(year)),
        ]
        if let released { fields["Released"] = .text(released) }
        fields.merge(extra) { _, new in new }
        return Record(
            id: id, title: title, categories: [category], price: price, currency: "USD", country: country,
            fields: fields)
    }

    static let cars: [Record] = [
        car(
            "c1", "Chevrolet Chevelle", origin: "USA", cylinders: 8, horsepower: "130", year: 1970,
            released: "1970-03-01", price: 20, country: "US", category: "Sedan",
            extra: ["Tags": .texts(["muscle", "classic"]), "Temp": .number("-5")]),
        car(
            "c2", "Toyota Corona", origin: "Japan", cylinders: 4, horsepower: "95", year: 1970,
            released: "1970-06-15", price: 10, country: "JP", category: "Compact",
            extra: ["Tags": .texts(["economy"]), "Temp": .number("3")]),
        car(
            "c3", "Datsun 510", origin: "japan", cylinders: 4, horsepower: "88", year: 1971, released: "1971-01-10",
            price: 12, country: "JP", category: "Compact", extra: ["Note": .text("")]),
        car(
            "c4", "Volkswagen Beetle", origin: "Europe", cylinders: 4, horsepower: "46", year: 1972,
            released: "1972-05-05", price: 8, country: "DE", category: "Compact", extra: ["Tags": .list([])]),
        car(
            "c5", "Ford Torino", origin: "USA", cylinders: 8, horsepower: "140", year: 1970, released: "1970-09-01",
            price: 22, country: "US", category: "Sedan", extra: ["Note": .null]),
        car(
            "c6", "Audi 100", origin: "Europe", cylinders: 5, horsepower: "103.5", year: 1973, released: nil,
            price: 30, country: "DE", category: "Sedan", extra: ["Note": .text("rare")]),
    ]

    func fixture(_ engine: TemporaryDatabase.Engine) throws -> StoreFixture {
        let fixture = try StoreFixture(engine)
        try fixture.load(Self.garage, Self.cars)
        return fixture
    }

    // MARK: - Building expressions (the parser is another part's)

    static func condition(_ field: String, _ test: FilterTest, column: Int = 0) -> FilterExpression {
        .condition(FilterCondition(field: field, test: test, column: column))
    }

    static func compare(_ field: String, _ op: FilterOperator, _ value: String, quoted: Bool = false)
        -> FilterExpression
    {
        condition(field, .compare(op, FilterValue(value, quoted: quoted)))
    }

    static func range(_ field: String, _ lower: String?, _ upper: String?) -> FilterExpression {
        condition(field, .range(lower.map { FilterValue($0) }, upper.map { FilterValue($0) }))
    }

    func search(
        _ fixture: StoreFixture, _ filter: FilterExpression?, facets: [SearchFacet] = [], query: String = ""
    ) throws -> SearchResponse {
        try fixture.read { reader in
            try reader.search(
                SearchRequest(query: query, filter: filter, facets: facets, limit: 50).checked(),
                in: reader.requireCatalog("cars")
            ).response()
        }
    }

    func ids(_ fixture: StoreFixture, _ filter: FilterExpression) throws -> [String] {
        let response = try search(fixture, filter)
        #expect(response.total == response.items.count)
        return response.items.map(\.record.id).sorted()
    }

    func failure(_ fixture: StoreFixture, _ filter: FilterExpression?, facets: [SearchFacet] = []) throws -> String {
        let error = try #require(throws: StorageError.self) { try search(fixture, filter, facets: facets) }
        #expect(error.code == .invalidArgument)
        return error.message
    }

    // MARK: - Operators

    @Test(arguments: engines)
    func everyOperatorFindsItsRecords(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let cases: [(FilterExpression, [String])] = [
            // Equality: any spelling, case and accents aside; a number as a number.
            (Self.compare("Origin", .equal, "Japan"), ["c2", "c3"]),
            (Self.compare("Origin", .equal, "JAPAN", quoted: true), ["c2", "c3"]),
            (Self.compare("Cylinders", .equal, "4"), ["c2", "c3", "c4"]),
            (Self.compare("Cylinders", .equal, "4.0"), ["c2", "c3", "c4"]),
            (Self.compare("Cylinders", .equal, "4.0", quoted: true), []),
            (Self.compare("Tags", .equal, "classic"), ["c1"]),
            (Self.compare("Released", .equal, "1971-01-10"), ["c3"]),
            (Self.compare("Origin", .notEqual, "usa"), ["c2", "c3", "c4", "c6"]),
            (Self.condition("Year", .oneOf([FilterValue("1971"), FilterValue("1972")])), ["c3", "c4"]),
            (Self.condition("Origin", .oneOf([FilterValue("Europe"), FilterValue("Mars")])), ["c4", "c6"]),
            // Comparisons and ranges: numbers as numbers (negative ones too), dates as dates.
            (Self.compare("Horsepower", .greater, "100"), ["c1", "c5", "c6"]),
            (Self.compare("Horsepower", .greaterOrEqual, "130"), ["c1", "c5"]),
            (Self.compare("Horsepower", .less, "88"), ["c4"]),
            (Self.compare("Horsepower", .lessOrEqual, "88"), ["c3", "c4"]),
            (Self.range("Horsepower", "90", "131"), ["c1", "c2", "c6"]),
            (Self.range("Horsepower", "103.5", "103.5"), ["c6"]),
            (Self.range("Horsepower", "100", nil), ["c1", "c5", "c6"]),
            (Self.range("Horsepower", nil, "50"), ["c4"]),
            (Self.range("Horsepower", "150", "100"), []),
            (Self.compare("Temp", .less, "0"), ["c1"]),
            (Self.range("Temp", "-10", "10"), ["c1", "c2"]),
            (Self.range("Released", "1970-01-01", "1970-12-31"), ["c1", "c2", "c5"]),
            (Self.compare("Released", .greater, "1971-01-10"), ["c4"]),
            (Self.compare("Released", .lessOrEqual, "1970-06-15T00:00:00Z"), ["c1", "c2"]),
            // Presence and emptiness.
            (Self.condition("Tags", .exists), ["c1", "c2", "c4"]),
            (Self.condition("Tags", .isEmpty), ["c4"]),
            (Self.condition("Note", .exists), ["c3", "c5", "c6"]),
            (Self.condition("Note", .isEmpty), ["c3", "c5"]),
            (Self.condition("Released", .exists), ["c1", "c2", "c3", "c4", "c5"]),
            // NOT, AND, OR and nesting.
            (.not(Self.compare("Origin", .equal, "USA")), ["c2", "c3", "c4", "c6"]),
            (.not(Self.condition("Note", .exists)), ["c1", "c2", "c4"]),
            (
                .and([
                    .or([Self.compare("Origin", .equal, "Japan"), Self.compare("Origin", .equal, "Europe")]),
                    .not(Self.compare("Cylinders", .equal, "4")),
                ]), ["c6"]
            ),
            (
                .and([
                    Self.compare("Origin", .equal, "japan"),
                    .or([Self.compare("Horsepower", .greater, "90"), Self.compare("Year", .equal, "1971")]),
                ]), ["c2", "c3"]
            ),
            (.or([.and([Self.condition("Tags", .exists), .not(Self.condition("Tags", .isEmpty))])]), ["c1", "c2"]),
            // The built-in filters inside an expression.
            (.and([Self.range("price", "5", "12"), Self.compare("country", .equal, "jp")]), ["c2", "c3"]),
            (.and([Self.range("price", "5", "12"), Self.compare("country", .equal, "DE")]), ["c4"]),
            (Self.compare("price", .greater, "20"), ["c5", "c6"]),
            (Self.compare("price", .notEqual, "10"), ["c1", "c3", "c4", "c5", "c6"]),
            (.and([Self.compare("category", .equal, "Sedan"), Self.compare("Horsepower", .greater, "135")]), ["c5"]),
            (Self.condition("categories", .oneOf([FilterValue("Compact")])), ["c2", "c3", "c4"]),
            (Self.compare("category", .notEqual, "Compact"), ["c1", "c5", "c6"]),
            (Self.condition("country", .oneOf([FilterValue("us"), FilterValue("DE")])), ["c1", "c4", "c5", "c6"]),
        ]
        for (filter, expected) in cases {
            #expect(try ids(fixture, filter) == expected, "\(filter)")
            // A record read on its own passes by the same rules (an API key's standing filter).
            #expect(
                Self.cars.filter { filter.matches($0) }.map(\.id).sorted() == expected, "record by record: \(filter)")
        }
        // A filter with the other filters and a query: a record passes all of them.
        var request = SearchRequest(query: "toyota", filter: Self.compare("Origin", .equal, "Japan"), limit: 10)
        request.countries = ["JP"]
        let found = try fixture.read { try $0.search(request.checked(), in: $0.requireCatalog("cars")).response() }
        #expect(found.items.map(\.record.id) == ["c2"])
        #expect(found.scopes.isEmpty || found.scopes.allSatisfy { $0.count <= 1 })
    }

    /// A sort by price with a price range passes over the records outside it by their price
    /// (Evaluation's walk); the page is the same as without that shortcut.
    @Test(arguments: engines)
    func aPriceSortWithAPriceRangeFindsTheRecordsInOrder(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        func ids(_ request: SearchRequest) throws -> [String] {
            try fixture.read { reader in
                try reader.search(request.checked(), in: reader.requireCatalog("cars")).response().items.map(
                    \.record.id)
            }
        }
        var byFilter = SearchRequest(query: "", filter: Self.range("price", "9", "25"), sort: .priceDescending)
        #expect(try ids(byFilter) == ["c5", "c1", "c3", "c2"])
        byFilter.sort = .price
        #expect(try ids(byFilter) == ["c2", "c3", "c1", "c5"])
        let byParameter = SearchRequest(
            query: "", price: NumericRange(lower: 9, upper: 25), sort: .priceDescending, limit: 2)
        #expect(try ids(byParameter) == ["c5", "c1"])
        let both = SearchRequest(
            query: "", filter: .and([Self.compare("price", .less, "21"), Self.compare("Origin", .equal, "japan")]),
            sort: .priceDescending)
        #expect(try ids(both) == ["c3", "c2"])
        let none = SearchRequest(query: "", filter: Self.range("price", "50", "40"), sort: .price)
        #expect(try ids(none).isEmpty)
    }

    @Test(arguments: engines)
    func aFilterOnAFieldTheCatalogCannotFilterIsABadRequestNamingIt(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let unknown = try failure(
            fixture, Self.condition("Horsepowr", .compare(.greater, FilterValue("100")), column: 12))
        #expect(
            unknown
                == "filter: column 12: 'Horsepowr' is not a field of this catalog (fields: Cylinders, Horsepower, "
                + "Note, Origin, Released, Tags, Temp, Year)")
        #expect(
            try failure(fixture, Self.compare("Origin", .greater, "5"))
                == "filter: 'Origin' has no numbers to compare; its values are texts")
        #expect(
            try failure(fixture, Self.compare("Released", .greater, "1970"))
                == "filter: 'Released' has no numbers to compare; it has dates, written as 2024-05-01")
        #expect(
            try failure(fixture, Self.condition("Year", .range(FilterValue("abc"), nil), column: 3))
                == "filter: column 3: 'Year' compares numbers or dates: abc is neither")
        #expect(
            try failure(fixture, Self.compare("Year", .less, "1971", quoted: true))
                == "filter: 'Year' compares numbers or dates: \"1971\" is neither")
        #expect(
            try failure(fixture, Self.compare("price", .less, "cheap"))
                == "filter: 'price' compares numbers: cheap is not one")
        #expect(
            try failure(fixture, Self.compare("country", .greater, "DE"))
                == "filter: 'country' takes =, !=, IN, EXISTS and IS EMPTY, not comparisons or ranges")
        #expect(
            try failure(fixture, nil, facets: [.field("Colour")]).hasPrefix(
                "facets: 'Colour' is not a field of this catalog (fields: Cylinders"))

        // With a list of filterable fields, the others are refused, filters and facets alike.
        _ = try CatalogManagement.withICU.updateSearchSettings("cars", in: fixture.database) { current in
            var settings = current
            settings.filterableFields = ["Origin", "Year"]
            return settings
        }
        #expect(try ids(fixture, Self.compare("Origin", .equal, "Europe")) == ["c4", "c6"])
        #expect(try ids(fixture, Self.compare("country", .equal, "DE")) == ["c4", "c6"])
        #expect(
            try failure(fixture, Self.condition("Cylinders", .exists, column: 1))
                == "filter: column 1: 'Cylinders' is not filterable in this catalog "
                + "(filterable: category, country, price, Origin, Year)")
        #expect(
            try failure(fixture, nil, facets: [.field("Cylinders")]).hasPrefix("facets: 'Cylinders' is not filterable"))
    }

    // MARK: - Facets

    @Test(arguments: engines)
    func facetsCountAnyFieldsValues(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let all = try search(fixture, nil, facets: [.categories, .field("Origin"), .field("Cylinders")])
        let facets = try #require(all.facets)
        #expect(
            facets["Origin"] == [
                FacetCount(value: "Europe", count: 2), FacetCount(value: "Japan", count: 2),
                FacetCount(value: "USA", count: 2),
            ])
        #expect(
            facets["Cylinders"] == [
                FacetCount(value: "4", count: 3), FacetCount(value: "8", count: 2),
                FacetCount(value: "5", count: 1),
            ])
        #expect(
            Set(facets["categories"] ?? [])
                == [FacetCount(value: "Sedan", count: 3), FacetCount(value: "Compact", count: 3)])
        // Under a filter and a query; an empty value is no facet value.
        let filtered = try search(fixture, Self.compare("Cylinders", .equal, "4"), facets: [.field("Origin")])
        #expect(
            filtered.facets?["Origin"] == [FacetCount(value: "Japan", count: 2), FacetCount(value: "Europe", count: 1)])
        let notes = try search(fixture, nil, facets: [.field("Note"), .field("Year")])
        #expect(notes.facets?["Note"] == [FacetCount(value: "rare", count: 1)])
        #expect(notes.facets?["Year"]?.map(\.value) == ["1970", "1971", "1972", "1973"])
        let queried = try search(fixture, nil, facets: [.field("Origin")], query: "datsun")
        // The value is shown in the spelling most records have (here the first of two, in byte order).
        #expect(queried.facets?["Origin"] == [FacetCount(value: "Japan", count: 1)])
    }

    @Test(arguments: engines)
    func aFacetOfManyValuesCountsTheMostCommon(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let parts = (0..<160).map { n in
            Record(
                id: "p\(n)", title: "Part \(n)", fields: ["Maker": .text(n < 30 ? "Acme" : n < 45 ? "Bolt" : "m\(n)")])
        }
        try fixture.load(CatalogDefinition(id: "parts", title: "Parts", locale: "en"), parts)
        for _ in 0..<2 {  // the second time from the shared caches
            let counts = try fixture.read { reader in
                try reader.search(
                    SearchRequest(query: "", facets: [.field("Maker")]).checked(), in: reader.requireCatalog("parts"))
            }.facets[.field("Maker")]
            #expect(counts?.count == CatalogSearcher.maxFacetValues)
            #expect(counts?.prefix(2) == [FacetCount(value: "Acme", count: 30), FacetCount(value: "Bolt", count: 15)])
        }
    }

    @Test(arguments: engines)
    func aFacetsValuesAreSearchedByPrefix(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        func values(_ facet: SearchFacet, _ prefix: String, filter: FilterExpression? = nil, limit: Int = 50) throws
            -> [FacetCount]
        {
            try fixture.read { reader in
                try reader.facetValues(
                    of: facet, SearchRequest(query: prefix, filter: filter).checked(), limit: limit,
                    in: reader.requireCatalog("cars"))
            }
        }
        #expect(try values(.field("Origin"), "ja") == [FacetCount(value: "Japan", count: 2)])
        #expect(try values(.field("Origin"), "JÁ") == [FacetCount(value: "Japan", count: 2)])
        #expect(try values(.field("Origin"), "").map(\.value) == ["Europe", "Japan", "USA"])
        #expect(try values(.field("Origin"), "", limit: 1).map(\.value) == ["Europe"])
        #expect(try values(.field("Origin"), "x").isEmpty)
        #expect(
            try values(.field("Origin"), "", filter: Self.compare("Horsepower", .greater, "100"))
                == [FacetCount(value: "USA", count: 2), FacetCount(value: "Europe", count: 1)])
        #expect(try values(.field("Year"), "197").map(\.count) == [3, 1, 1, 1])
        #expect(try values(.categories, "se") == [FacetCount(value: "Sedan", count: 3)])
        let error = try #require(throws: StorageError.self) { try values(.field("Colour"), "r") }
        #expect(error.code == .invalidArgument && error.message.hasPrefix("facets: 'Colour' is not a field"))
    }

    // MARK: - Live edits

    @Test(arguments: engines)
    func filtersAndFacetsSeeLiveEditsAndNotTheOldVersions(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let changed = Self.car(
            "c2", "Toyota Corona", origin: "Korea", cylinders: 6, horsepower: "200", year: 1975,
            released: "1975-02-02", price: 15, country: "KR", category: "Sedan")
        let added = Self.car(
            "c7", "Honda Civic", origin: "Japan", cylinders: 4, horsepower: "60", year: 1974, released: "1974-07-01",
            price: 9, country: "JP", category: "Compact", extra: ["Colour": .text("Red")])
        _ = try CatalogEditor.apply(
            [RecordEdit(.upsert(changed)), RecordEdit(.upsert(added)), RecordEdit(.delete(id: "c4"))], to: "cars",
            in: fixture.database, collation: try ICUCollation(locale: "en"))
        func check() throws {
            #expect(try ids(fixture, Self.compare("Origin", .equal, "Japan")) == ["c3", "c7"])
            #expect(try ids(fixture, Self.compare("Horsepower", .greater, "150")) == ["c2"])
            #expect(try ids(fixture, Self.compare("Cylinders", .notEqual, "4")) == ["c1", "c2", "c5", "c6"])
            #expect(try ids(fixture, .not(Self.condition("Tags", .exists))) == ["c2", "c3", "c5", "c6", "c7"])
            #expect(try ids(fixture, Self.compare("Colour", .equal, "red")) == ["c7"])
            #expect(try ids(fixture, Self.range("Released", "1974-01-01", nil)) == ["c2", "c7"])
            let facets = try search(fixture, nil, facets: [.field("Origin"), .field("Cylinders")]).facets
            #expect(
                facets?["Origin"] == [
                    FacetCount(value: "Japan", count: 2), FacetCount(value: "USA", count: 2),
                    FacetCount(value: "Europe", count: 1), FacetCount(value: "Korea", count: 1),
                ])
            #expect(facets?["Cylinders"]?.first == FacetCount(value: "4", count: 2))
        }
        try check()
        _ = try SegmentMerger.mergeAll(catalog: "cars", in: fixture.database)
        try check()
    }

    // MARK: - The fields and the default rule

    @Test(arguments: engines)
    func theSettingsShowTheFieldsAndWhichAreFilterableByDefault(engine: TemporaryDatabase.Engine) throws {
        let fixture = try fixture(engine)
        let fields = try fixture.read { try $0.fields(of: $0.requireCatalog("cars")) }
        let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0) })
        #expect(
            fields.map(\.name) == ["Cylinders", "Horsepower", "Note", "Origin", "Released", "Tags", "Temp", "Year"])
        #expect(
            byName["Horsepower"]
                == CatalogField(
                    name: "Horsepower", kind: .number, records: 6, filterable: true, facet: true, min: 46, max: 140))
        #expect(byName["Released"]?.kind == .date && byName["Released"]?.filterable == true)
        #expect(byName["Released"]?.min == FieldValueOrder.date("1970-03-01"))
        #expect(byName["Origin"]?.kind == .text && byName["Origin"]?.filterable == true)
        // A value on one record only, and values that never repeat: not filterable by default.
        #expect(byName["Note"]?.filterable == false && byName["Tags"]?.filterable == false)
        let json = String(decoding: try JSONEncoder().encode(byName["Released"]), as: UTF8.self)
        #expect(json.contains(#""min":"1970-03-01T00:00:00Z""#), "\(json)")

        _ = try CatalogManagement.withICU.updateSearchSettings("cars", in: fixture.database) { current in
            var settings = current
            settings.filterableFields = ["Origin", "Note"]
            settings.facetFields = ["Origin"]
            return settings
        }
        let listed = try fixture.read { try $0.fields(of: $0.requireCatalog("cars")) }
        #expect(listed.filter(\.filterable).map(\.name) == ["Note", "Origin"])
        #expect(listed.filter(\.facet).map(\.name) == ["Origin"])
    }

    @Test func theDefaultRuleReadsTheData() {
        var origin = FieldStatistics(records: 400, valueCounts: ["usa": 250, "japan": 80, "europe": 70])
        origin.distinctValues = 3
        #expect(origin.kind == .text && origin.isFilterableByDefault)
        // Names: every value once.
        let names = FieldStatistics(
            records: 400, valueCounts: Dictionary(uniqueKeysWithValues: (0..<400).map { ("n\($0)", 1) }),
            distinctValues: 400)
        #expect(!names.isFilterableByDefault)
        // 300 values, the 200 most common on less than half of the records.
        let spread = FieldStatistics(
            records: 1000, valueCounts: Dictionary(uniqueKeysWithValues: (0..<300).map { ("v\($0)", 2) }),
            distinctValues: 300)
        #expect(!spread.isFilterableByDefault)
        // …and on more than half.
        let common = FieldStatistics(
            records: 1000,
            valueCounts: Dictionary(uniqueKeysWithValues: (0..<300).map { ("v\($0)", $0 < 200 ? 4 : 2) }),
            distinctValues: 300)
        #expect(common.isFilterableByDefault)
        // Numbers and dates, whatever their values.
        let numbers = FieldStatistics(records: 10, distinctValues: 10, numberRecords: 9, numbers: 1...10)
        #expect(numbers.kind == .number && numbers.isFilterableByDefault)
        let dates = FieldStatistics(records: 10, emptyRecords: 4, distinctValues: 6, dateRecords: 3)
        #expect(dates.kind == .date && dates.isFilterableByDefault)
        // Long texts have no values in the index: never.
        #expect(!FieldStatistics(records: 10).isFilterableByDefault)
    }
}
